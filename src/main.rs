//! `hsaco`: a toolchain for AMD GPU code objects.

// The doc comments of the subcommands are their --help text, written for a
// terminal: `<kernel>.kd` there is text, not an HTML tag.
#![allow(rustdoc::invalid_html_tags)]

mod aligned;
mod cmd;
mod input;
mod names;
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
///   hsaco ld a.o b.o -o kernel.co      link objects into a code object (as ld.lld -shared)
///   hsaco as k.s --mcpu=gfx90a -o k.o  assemble as llvm-mc -filetype=obj does
///   hsaco check app --device mi50 --runtime rocm-6.4
///                                      will it load and run there, and if not, why
///   hsaco run kernel.co --kernel K --grid 1024 --block 256 --arg buf:f32:1024=iota ...
///                                      run a kernel on the CPU emulator
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
    Ld(cmd::ld::Opts),
    Run(cmd::run::Opts),
    #[command(name = "as")]
    As(cmd::asm::Opts),
}

fn main() -> ExitCode {
    let command = match cmd::read::plain_metadata_args(std::env::args_os()) {
        Some(opts) => Command::Read(opts),
        None => Cli::parse_from(cmd::asm::llvm_mc_args(std::env::args_os().collect())).command,
    };
    let result = match command {
        Command::Read(o) => cmd::read::run(o),
        Command::Extract(o) => cmd::extract::run(o),
        Command::Demo(o) => cmd::demo::run(o),
        Command::Check(o) => cmd::check::run(o),
        Command::Dis(o) => cmd::dis::run(o),
        Command::Ld(o) => cmd::ld::run(o),
        Command::Run(o) => cmd::run::run(o),
        Command::As(o) => cmd::asm::run(o),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            output::report_error(&e);
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clap-free form of `read --metadata FILE...` gives what clap gives, and
    /// leaves every other command line to clap.
    #[test]
    fn plain_metadata_args_agree_with_clap() {
        let cases: &[&[&str]] = &[
            &["hsaco", "read", "--metadata", "a.co"],
            &["hsaco", "read", "--metadata", "a.co", "dir/b.o", "c d.co"],
        ];
        for args in cases {
            let fast = cmd::read::plain_metadata_args(args.iter().map(Into::into))
                .expect("the plain form");
            let Command::Read(slow) = Cli::try_parse_from(*args).expect("clap").command else {
                panic!("not read");
            };
            assert_eq!(fast.files, slow.files);
            assert_eq!(
                (fast.metadata, fast.kernel_descriptors, fast.kernargs),
                (slow.metadata, slow.kernel_descriptors, slow.kernargs)
            );
            assert_eq!(
                (fast.symbols, fast.relocations, fast.notes, fast.json),
                (slow.symbols, slow.relocations, slow.notes, slow.json)
            );
        }
        let others: &[&[&str]] = &[
            &["hsaco", "read", "--metadata"],
            &["hsaco", "read", "a.co", "--metadata"],
            &["hsaco", "read", "--metadata", "--json", "a.co"],
            &["hsaco", "read", "--metadata", "-"],
            &["hsaco", "read", "--metadata", "a.co", "--help"],
            &["hsaco", "read", "--metadata", ""],
            &["hsaco", "dis", "--metadata", "a.co"],
            &["hsaco"],
        ];
        for args in others {
            assert!(
                cmd::read::plain_metadata_args(args.iter().map(Into::into)).is_none(),
                "{args:?}"
            );
        }
    }
}
