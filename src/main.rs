//! `hsaco`: a toolchain for AMD GPU code objects.

// The doc comments of the subcommands are their --help text, written for a
// terminal: `<kernel>.kd` there is text, not an HTML tag.
#![allow(rustdoc::invalid_html_tags)]

mod cmd;
mod input;
mod output;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// A toolchain for AMD GPU code objects: read, extract, disassemble and check them.
///
/// Examples:
///   hsaco demo                         read and explain a built-in code object
///   hsaco read kernel.co               header, target, notes, kernels, kernargs
///   hsaco read --metadata kernel.co    the metadata as llvm-readelf prints it
///   hsaco extract app -o out/          every code object inside a fat binary
///   hsaco dis kernel.co                disassemble as llvm-objdump -d does (gfx6-gfx12)
///   hsaco check app --device mi50 --runtime rocm-6.4
///                                      will it load and run there, and if not, why
#[derive(Parser)]
#[command(name = "hsaco", version, verbatim_doc_comment)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Read(cmd::read::Opts),
    Extract(cmd::extract::Opts),
    Demo(cmd::demo::Opts),
    Check(cmd::check::Opts),
    Dis(cmd::dis::Opts),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Read(o) => cmd::read::run(o),
        Command::Extract(o) => cmd::extract::run(o),
        Command::Demo(o) => cmd::demo::run(o),
        Command::Check(o) => cmd::check::run(o),
        Command::Dis(o) => cmd::dis::run(o),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            output::report_error(&e);
            ExitCode::from(1)
        }
    }
}
