//! Project tasks: `cargo xtask <task>`.
//!
//! ```text
//! cargo xtask ci                      what .ci/run runs (fmt, clippy, tests, docs, codegen check)
//! cargo xtask codegen [--check]       regenerate the ISA tables (or fail if they drifted)
//! cargo xtask corpus [DIR]            build the LLVM corpus (../shared/corpus) into DIR
//! cargo xtask llvm-diff [--corpus DIR] [--limit N]
//!                                     compare hsaco with LLVM 22 on the corpus
//! cargo xtask ld-diff [--corpus DIR] [--limit N]
//!                                     only its `hsaco ld` vs `ld.lld-22 -shared` step
//! cargo xtask enc-diff [--corpus DIR] [--limit N] [--show N]
//!                                     every corpus instruction through the encoder, against llvm-mc-22
//! cargo xtask roundtrip [--corpus DIR] [--limit N]
//!                                     corpus code bytes -> dis text -> as bytes (no LLVM)
//! cargo xtask enc-one PROC[+w64] TEXT  one statement through the encoder and llvm-mc-22
//! cargo xtask bench [--corpus DIR] [--libshape-only | --asm | --emu | --dwarf]
//! cargo xtask asm-diff [--corpus DIR] [--limit N] [--encoder oracle|real]
//! cargo xtask old-asm-diff [--out DIR] [--compilers 14,16]  # code object v2/v3 vs llvm-mc-14/-16
//! cargo xtask objdump-reasm [--corpus DIR] [--limit N]
//!                                     llvm-objdump-22's text assembled by hsaco where llvm-mc-22 manages it
//!                                     hsaco-asm vs llvm-mc-22 -filetype=obj on the corpus .s files
//! cargo xtask bench [--corpus DIR] [--libshape-only | --asm | --emu | --dwarf]
//!                                     time hsaco against the LLVM tool doing the same work
//!                                     (the corpus, then library-shaped objects; `--asm`:
//!                                     `as` against llvm-mc-22 on 1M-instruction files;
//!                                     `--emu`: the emulator's wave-instructions per second;
//!                                     `--dwarf`: read --debug-info against llvm-dwarfdump-22
//!                                     on the -g corpus, `--corpus` naming it; also at the
//!                                     end of the full run when target/dwarf-corpus exists)
//! cargo xtask libshape [DIR]          build the library-shaped objects bench times (target/libshape)
//! cargo xtask dwarf-corpus [DIR] [--fsections-only]
//!                                     build the -g corpus (every cl kernel x processor x -O0/-O2,
//!                                     .o and .co, and -ffunction-sections for six processors in
//!                                     O0-fs/O2-fs) into DIR (target/dwarf-corpus)
//! cargo xtask dwarf-diff [--corpus DIR]
//!                                     hsaco read --debug-* vs llvm-dwarfdump-22 on the -g corpus
//! cargo xtask dis-lines-diff [--corpus DIR]
//!                                     hsaco dis -l/-S/--prefix/--debug-vars vs llvm-objdump-22
//!                                     -d with the same options on the -g corpus
//! cargo xtask locate-diff [--corpus DIR]
//!                                     read --locate's evaluator vs llvm-dwarfdump-22's location
//!                                     lists on the -g corpus (every variable, PCs of each range)
//! cargo xtask wild-corpus [--corpus DIR] [--compilers 13,14,15,16,19,22] [--rebuild] [--build-only | --no-compare]
//!                                     build the corpus with older clangs too; check and compare it
//! ```
//!
//! `llvm-diff` and `bench` need LLVM 22 (`llvm-readelf-22`, `llvm-objdump-22`,
//! `clang-offload-bundler-22`) and build the corpus under `target/corpus` when no
//! `--corpus` is given.

mod asm_bench;
mod asm_diff;
mod bench;
mod codegen;
mod corpus;
mod dis_lines_diff;
mod dwarf_diff;
mod emu_bench;
mod enc_diff;
mod ld_diff;
mod libshape;
mod llvm_diff;
mod locate_diff;
mod objdump_reasm;
mod old_asm;
mod roundtrip;
mod wild;

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (task, rest) = match args.split_first() {
        Some((t, r)) => (t.as_str(), r),
        None => ("help", &[][..]),
    };
    match task {
        "ci" => ci(),
        "codegen" => codegen::run(rest.iter().any(|a| a == "--check")),
        "corpus" => {
            let dir = rest
                .first()
                .map(PathBuf::from)
                .unwrap_or_else(|| root().join("target/corpus"));
            corpus::build(&dir).map(|_| ())
        }
        "libshape" => {
            let dir = rest
                .first()
                .map(PathBuf::from)
                .unwrap_or_else(|| root().join("target/libshape"));
            let mut specs = libshape::big();
            specs.extend(libshape::many());
            libshape::build(&dir, &specs).map(|_| ())
        }
        "llvm-diff" => llvm_diff::run(&Options::parse(rest)?),
        "dwarf-corpus" => {
            let fsections_only = rest.iter().any(|a| a == "--fsections-only");
            let dir = rest
                .iter()
                .find(|a| !a.starts_with("--"))
                .map(PathBuf::from)
                .unwrap_or_else(|| root().join("target/dwarf-corpus"));
            dwarf_diff::build(&dir, fsections_only).map(|_| ())
        }
        "locate-diff" => {
            let opts = Options::parse(rest)?;
            let dir = dwarf_corpus_dir(&opts)?;
            if !locate_diff::diff(&dir)? {
                bail!("the location evaluator disagrees with llvm-dwarfdump-22's location lists");
            }
            Ok(())
        }
        "dis-lines-diff" => {
            let opts = Options::parse(rest)?;
            let dir = dwarf_corpus_dir(&opts)?;
            if !dis_lines_diff::diff(&hsaco_binary()?, &dir)? {
                bail!("hsaco dis -l/-S/--debug-vars fell below its floors against llvm-objdump-22");
            }
            Ok(())
        }
        "dwarf-diff" => {
            let opts = Options::parse(rest)?;
            let dir = dwarf_corpus_dir(&opts)?;
            if !dwarf_diff::diff(&hsaco_binary()?, &dir)? {
                bail!("hsaco read --debug-* differs from llvm-dwarfdump-22");
            }
            Ok(())
        }
        "ld-diff" => {
            let opts = Options::parse(rest)?;
            if !ld_diff::run(&hsaco_binary()?, &opts.corpus_dir()?, opts.limit)? {
                bail!("hsaco ld differs from ld.lld-22");
            }
            Ok(())
        }
        "roundtrip" => {
            let opts = Options::parse(rest)?;
            let dir = opts.corpus_dir()?;
            let library = roundtrip::run(&dir, opts.limit, 5)?;
            let cli = roundtrip::cli(&hsaco_binary()?, &dir, opts.limit)?;
            if !(library && cli) {
                bail!("some instructions did not come back identical");
            }
            Ok(())
        }
        "enc-one" => enc_diff::one(rest),
        "enc-diff" => {
            // --show N: print the first N differences of each processor
            let (show, rest) = match rest.iter().position(|a| a == "--show") {
                Some(i) => {
                    let n = rest.get(i + 1).context("--show N")?.parse()?;
                    let mut r = rest.to_vec();
                    r.drain(i..i + 2);
                    (n, r)
                }
                None => (0, rest.to_vec()),
            };
            enc_diff::run(&Options::parse(&rest)?, show)
        }
        "asm-diff" => asm_diff::run(rest),
        "old-asm-diff" => old_asm::run(rest),
        "objdump-reasm" => {
            let opts = Options::parse(rest)?;
            if !objdump_reasm::run(&opts.corpus_dir()?, opts.limit)? {
                bail!("hsaco does not give back bytes llvm-mc-22 gives back");
            }
            Ok(())
        }
        "bench" => bench::run(&Options::parse(rest)?),
        "wild-corpus" => wild::run(rest),
        "help" | "--help" | "-h" => {
            println!("{}", HELP);
            Ok(())
        }
        other => bail!("unknown task {other:?}\n{HELP}"),
    }
}

const HELP: &str = "usage: cargo xtask <ci | codegen [--check] | corpus [DIR] | llvm-diff [--corpus DIR] [--limit N] | ld-diff [--corpus DIR] [--limit N] | enc-diff [--corpus DIR] [--limit N] [--show N] | roundtrip [--corpus DIR] [--limit N] | enc-one PROC TEXT | asm-diff [--corpus DIR] [--limit N] [--encoder oracle|real] | objdump-reasm [--corpus DIR] [--limit N] | old-asm-diff [--compilers 14,16] | bench [--corpus DIR] [--libshape-only | --asm | --emu | --dwarf] | libshape [DIR] | dwarf-corpus [DIR] [--fsections-only] | dwarf-diff [--corpus DIR] | dis-lines-diff [--corpus DIR] | locate-diff [--corpus DIR]>";

/// The `-g` corpus: `--corpus DIR`, or `target/dwarf-corpus` (built when missing).
pub fn dwarf_corpus_dir(opts: &Options) -> Result<PathBuf> {
    match &opts.corpus {
        Some(d) => Ok(d.clone()),
        None => {
            let d = root().join("target/dwarf-corpus");
            if dwarf_diff::objects(&d).map_or(true, |v| v.is_empty()) {
                dwarf_diff::build(&d, false)?;
            }
            Ok(d)
        }
    }
}

/// Options shared by the tasks that run over the corpus.
#[derive(Default)]
pub struct Options {
    pub corpus: Option<PathBuf>,
    pub limit: Option<usize>,
    /// `bench`: only the library-shaped objects (no corpus needed).
    pub libshape_only: bool,
    /// `bench`: only `as` against llvm-mc-22 (`asm_bench`).
    pub asm_only: bool,
    pub emu_only: bool,
    /// `bench`: only `read --debug-info` against llvm-dwarfdump-22 on the `-g` corpus
    /// (`--corpus` then names the `-g` corpus).
    pub dwarf_only: bool,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options> {
        let mut o = Options {
            corpus: None,
            limit: None,
            libshape_only: false,
            asm_only: false,
            emu_only: false,
            dwarf_only: false,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--corpus" => o.corpus = Some(PathBuf::from(it.next().context("--corpus DIR")?)),
                "--limit" => o.limit = Some(it.next().context("--limit N")?.parse()?),
                "--libshape-only" => o.libshape_only = true,
                "--asm" => o.asm_only = true,
                "--emu" => o.emu_only = true,
                "--dwarf" => o.dwarf_only = true,
                other => bail!("unknown option {other:?}"),
            }
        }
        Ok(o)
    }

    /// The corpus directory: `--corpus`, or `target/corpus` (built when missing).
    pub fn corpus_dir(&self) -> Result<PathBuf> {
        match &self.corpus {
            Some(d) => Ok(d.clone()),
            None => {
                let d = root().join("target/corpus");
                if !d.join("build-results.tsv").exists() {
                    corpus::build(&d)?;
                }
                Ok(d)
            }
        }
    }
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Run a command in the workspace root and fail if it fails.
pub fn run_cmd(cmd: &mut Command) -> Result<()> {
    eprintln!("$ {cmd:?}");
    let status = cmd
        .current_dir(root())
        .status()
        .with_context(|| format!("{cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed: {status}");
    }
    Ok(())
}

/// Build the release `hsaco` binary and return its path.
pub fn hsaco_binary() -> Result<PathBuf> {
    run_cmd(Command::new(env!("CARGO")).args(["build", "--release", "--quiet", "--bin", "hsaco"]))?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"));
    Ok(target.join("release/hsaco"))
}

fn ci() -> Result<()> {
    let cargo = env!("CARGO");
    run_cmd(Command::new(cargo).args(["fmt", "--all", "--check"]))?;
    run_cmd(Command::new(cargo).args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    run_cmd(Command::new(cargo).args(["test", "--workspace"]))?;
    run_cmd(
        Command::new(cargo)
            .args(["doc", "--workspace", "--no-deps"])
            .env("RUSTDOCFLAGS", "-Dwarnings"),
    )?;
    codegen::run(true)
}
