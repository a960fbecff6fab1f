//! `hsaco read`: what a code object holds.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Read code objects: header, target ID, code object version, sections, notes,
/// kernels with their descriptor summary and kernarg layout.
///
/// A fat binary, offload bundle or host executable/library is read through the code
/// objects embedded in it.
///
/// Examples:
///   hsaco read kernel.co
///   hsaco read --metadata kernel.co          (as llvm-readelf --notes prints it)
///   hsaco read --kernel-descriptors app.so   (as llvm-objdump prints <k>.kd)
///   hsaco read --json *.co | jq .
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// Files to read (`-` for stdin).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the code object metadata as YAML, exactly as llvm-readelf --notes does.
    #[arg(long)]
    pub metadata: bool,
    /// Print each kernel descriptor as an .amdhsa_kernel block (as llvm-objdump does).
    #[arg(long)]
    pub kernel_descriptors: bool,
    /// Print each kernel's kernarg layout, hidden arguments included.
    #[arg(long)]
    pub kernargs: bool,
    /// Print the symbol tables.
    #[arg(long)]
    pub symbols: bool,
    /// Print the relocations.
    #[arg(long)]
    pub relocations: bool,
    /// Print every note record.
    #[arg(long)]
    pub notes: bool,
    /// Print everything as JSON (schema: docs/usage.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(_opts: Opts) -> Result<ExitCode> {
    anyhow::bail!("not yet wired")
}
