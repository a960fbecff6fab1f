//! `hsaco`: a toolchain for AMD GPU code objects.

// The doc comments of the subcommands are their --help text, written for a
// terminal: `<kernel>.kd` there is text, not an HTML tag.
#![allow(rustdoc::invalid_html_tags)]
// (the program starts at the C `main` below, not through Rust's runtime: see there)
#![cfg_attr(not(test), no_main)]

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

/// The program's entry point, called by the C library as a C program's `main` is.
///
/// Rust's runtime, which a Rust `fn main` starts through, first sets up the main
/// thread's stack overflow report: it reads `/proc/self/maps` (through glibc's
/// `pthread_getattr_np`), maps an alternate signal stack and installs SIGSEGV and
/// SIGBUS handlers, and checks that file descriptors 0-2 are open. On this project's
/// VM that took 0.13 ms of every run (an empty Rust program: 1.00 ms from spawn to
/// exit, best of 40 runs interleaved with llvm-objdump-22; 0.87 ms started here), a
/// twentieth of `hsaco dis` of a library object. What of it hsaco needs is done here:
/// SIGPIPE is ignored (writes to a closed pipe fail with `BrokenPipe`, which the
/// commands handle), a panic ends the program with exit status 101 after its message,
/// and stdout is flushed. A stack overflow then ends the program with SIGSEGV without
/// Rust's message. `std::env::args` works as before (glibc hands the arguments to the
/// standard library's initializer).
#[cfg(not(test))]
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    #[cfg(unix)]
    // SAFETY: `signal` only sets SIGPIPE's disposition to "ignore" (as Rust's runtime
    // does), before any other thread exists; it touches no memory of this program.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let code = std::panic::catch_unwind(run).unwrap_or(ExitCode::from(101));
    let _ = std::io::Write::flush(&mut std::io::stdout());
    (0..=255u8)
        .find(|&n| ExitCode::from(n) == code)
        .map_or(1, std::ffi::c_int::from)
}

/// The command line's command, run; its exit status.
#[cfg_attr(test, allow(dead_code))]
fn run() -> ExitCode {
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
