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
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let command = if let Some(opts) = cmd::read::plain_args(&args) {
        Command::Read(opts)
    } else if let Some(opts) = cmd::dis::plain_args(&args) {
        Command::Dis(opts)
    } else {
        Cli::parse_from(cmd::asm::llvm_mc_args(args)).command
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

/// The files of a command line that is `hsaco`, then exactly the words of `lead`, then
/// one or more file names that do not start with `-` (and are not empty), else `None`.
/// Such command lines (`hsaco dis FILE...`, `hsaco read --metadata FILE...`: the
/// benchmarks' and scripts' forms) skip clap, which builds every subcommand's
/// arguments first and takes about half a microsecond per argument: 0.2 ms of a 5 ms
/// `dis` of a library object, a millisecond for `read` over a corpus.
fn plain_files(args: &[std::ffi::OsString], lead: &[&str]) -> Option<Vec<std::path::PathBuf>> {
    let rest = args.get(1 + lead.len()..)?;
    let leads = args.get(1..1 + lead.len())?;
    let plain = |f: &std::ffi::OsString| f.as_encoded_bytes().first().is_some_and(|&b| b != b'-');
    (leads.iter().zip(lead).all(|(a, l)| a == l) && !rest.is_empty() && rest.iter().all(plain))
        .then(|| rest.iter().map(Into::into).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clap-free form of `read --metadata FILE...` gives what clap gives, and
    /// leaves every other command line to clap.
    #[test]
    fn plain_forms_agree_with_clap() {
        let args = |a: &[&str]| {
            a.iter()
                .map(Into::into)
                .collect::<Vec<std::ffi::OsString>>()
        };
        let cases: &[&[&str]] = &[
            &["hsaco", "read", "--metadata", "a.co"],
            &["hsaco", "read", "--metadata", "a.co", "dir/b.o", "c d.co"],
            &["hsaco", "read", "--debug-info", "a.o", "b.o"],
            &["hsaco", "read", "--debug-line", "a.o"],
            &["hsaco", "read", "--debug-frame", "a.o"],
            &["hsaco", "read", "--debug-loclists", "a.o"],
            &["hsaco", "read", "--debug-aranges", "a.o"],
            &["hsaco", "read", "--debug", "a.o"],
            &["hsaco", "dis", "a.co"],
            &["hsaco", "dis", "a.co", "dir/b.o", "c d.co"],
        ];
        for a in cases {
            let a = args(a);
            let fast = match (cmd::read::plain_args(&a), cmd::dis::plain_args(&a)) {
                (Some(r), None) => format!("{r:?}"),
                (None, Some(d)) => format!("{d:?}"),
                _ => panic!("{a:?}: not exactly one plain form"),
            };
            let slow = match Cli::try_parse_from(&a).expect("clap").command {
                Command::Read(r) => format!("{r:?}"),
                Command::Dis(d) => format!("{d:?}"),
                _ => panic!("{a:?}: neither read nor dis"),
            };
            assert_eq!(fast, slow, "{a:?}");
        }
        let others: &[&[&str]] = &[
            &["hsaco", "read", "--metadata"],
            &["hsaco", "read", "a.co", "--metadata"],
            &["hsaco", "read", "--metadata", "--json", "a.co"],
            &["hsaco", "read", "--metadata", "-"],
            &["hsaco", "read", "--metadata", "a.co", "--help"],
            &["hsaco", "read", "--metadata", ""],
            &["hsaco", "read", "--symbols", "a.co"],
            &["hsaco", "read", "a.co"],
            &["hsaco", "dis", "--metadata", "a.co"],
            &["hsaco", "dis"],
            &["hsaco", "dis", "-"],
            &["hsaco", "dis", "a.co", "-l"],
            &["hsaco", "dis", "--mcpu=gfx90a", "a.co"],
            &["hsaco", "dis", "a.co", ""],
            &["hsaco", "disx", "a.co"],
            &["hsaco"],
        ];
        for a in others {
            let a = args(a);
            assert!(cmd::read::plain_args(&a).is_none(), "{a:?}");
            assert!(cmd::dis::plain_args(&a).is_none(), "{a:?}");
        }
    }
}
