//! `hsaco extract`: pull code objects out of fat binaries and bundles.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Extract every code object inside a file: clang offload bundles, compressed bundles
/// (CCOB v1-v3, zlib/zstd), the .hip_fatbin section of a host executable or library,
/// LLVM OffloadBinary, and raw code objects embedded in other files.
///
/// Outputs are named by bundle entry and target ID.
///
/// Examples:
///   hsaco extract --list app
///   hsaco extract app -o out/
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The file to search (`-` for stdin).
    pub file: PathBuf,
    /// Directory to write the code objects into (created if missing).
    #[arg(short, long, required_unless_present = "list")]
    pub output: Option<PathBuf>,
    /// Only list what is found; write nothing.
    #[arg(long)]
    pub list: bool,
    /// Print the list as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_opts: Opts) -> Result<ExitCode> {
    anyhow::bail!("not yet wired")
}
