//! `hsaco demo`: the main job on a built-in example.

use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

/// Read and explain a code object built into hsaco (three OpenCL kernels compiled by
/// clang-22 for gfx906, code object v5).
#[derive(Args)]
pub struct Opts {}

pub fn run(_opts: Opts) -> Result<ExitCode> {
    anyhow::bail!("not yet wired")
}
