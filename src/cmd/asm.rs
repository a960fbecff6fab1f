//! `hsaco as`: assemble LLVM AMDGPU assembly into a relocatable object.

use crate::output;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Assemble AMDGPU assembly (LLVM's syntax, as clang -S writes it) into a relocatable
/// ELF object, as llvm-mc -filetype=obj does. llvm-mc's single-dash spellings are
/// accepted too (-triple=, -mcpu=, -mattr=, -filetype=, -show-encoding, -o).
///
/// Errors are printed as file:line:col with the line and a caret, up to 20 of them;
/// the exit status is then 1 and no output file is written.
///
/// Examples:
///   hsaco as kernel.s --mcpu=gfx90a -o kernel.o
///   hsaco as -triple=amdgcn-amd-amdhsa -mcpu=gfx1100 -mattr=+wavefrontsize64 k.s -o k.o
///   hsaco as --mcpu=gfx906 --show-encoding k.s       (each instruction and its bytes)
///   cat k.s | hsaco as --mcpu=gfx942 - -o -          (stdin to stdout)
///   hsaco as --link kernel.s --mcpu=gfx90a -o kernel.co   (assemble and link in one step)
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The assembly file (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// The output file (`-` for stdout).
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
    /// Target triple (only amdgcn-amd-amdhsa is supported).
    #[arg(long, default_value = "amdgcn-amd-amdhsa")]
    pub triple: String,
    /// Processor (gfx900, gfx90a, gfx1100, gfx9-generic, ...).
    #[arg(long)]
    pub mcpu: String,
    /// Features: +wavefrontsize64, +xnack, -sramecc, +cumode, +tgsplit, ...
    #[arg(long, default_value = "")]
    pub mattr: String,
    /// Code object version (4, 5 or 6; the .amdhsa_code_object_version directive
    /// overrides it). Default 6.
    #[arg(long)]
    pub amdhsa_code_object_version: Option<u8>,
    /// Print each instruction with its encoding, as llvm-mc --show-encoding does
    /// (implies -filetype=asm unless -filetype=obj is given).
    #[arg(long)]
    pub show_encoding: bool,
    /// obj (default) or asm (the listing of --show-encoding).
    #[arg(long)]
    pub filetype: Option<String>,
    /// Directories searched by .include.
    #[arg(short = 'I', long = "include-dir")]
    pub include: Vec<PathBuf>,
    /// Link the object into a loadable code object too (as `hsaco ld` does with one
    /// input, like `ld.lld -shared`), and write that.
    #[arg(long)]
    pub link: bool,
}

/// llvm-mc's single-dash long options to clap's double-dash ones, for `hsaco as`.
pub fn llvm_mc_args(args: Vec<OsString>) -> Vec<OsString> {
    if args.get(1).and_then(|a| a.to_str()) != Some("as") {
        return args;
    }
    const LONG: &[&str] = &[
        "triple",
        "mcpu",
        "mattr",
        "filetype",
        "show-encoding",
        "amdhsa-code-object-version",
    ];
    args.into_iter()
        .map(|a| {
            let Some(s) = a.to_str() else { return a };
            if let Some(rest) = s.strip_prefix('-').filter(|r| !r.starts_with('-')) {
                let name = rest.split('=').next().unwrap_or(rest);
                if LONG.contains(&name) {
                    return OsString::from(format!("-{s}"));
                }
            }
            a
        })
        .collect()
}

struct Includes {
    dirs: Vec<PathBuf>,
}

impl hsaco_asm::FileLoader for Includes {
    fn load(&mut self, name: &str, from: &str) -> std::result::Result<(String, String), String> {
        let base = Path::new(from)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut candidates = vec![base.join(name)];
        candidates.extend(self.dirs.iter().map(|d| d.join(name)));
        for c in candidates {
            if let Ok(t) = std::fs::read_to_string(&c) {
                return Ok((c.display().to_string(), t));
            }
        }
        Err(format!("Could not find include file '{name}'"))
    }
}

pub fn run(opts: Opts) -> Result<ExitCode> {
    if !opts.triple.starts_with("amdgcn-amd-amdhsa") {
        bail!(
            "triple {:?}: only amdgcn-amd-amdhsa is supported",
            opts.triple
        );
    }
    let mut aopts = hsaco_asm::Options::for_processor(&opts.mcpu)
        .with_context(|| format!("unknown processor {:?}", opts.mcpu))?;
    aopts
        .apply_mattr(&opts.mattr)
        .map_err(anyhow::Error::msg)
        .context("--mattr")?;
    aopts.code_object_version = opts.amdhsa_code_object_version;
    let asm_out = match opts.filetype.as_deref() {
        Some("obj") => false,
        Some("asm") => true,
        Some(other) => bail!("-filetype={other}: expected obj or asm"),
        None => opts.show_encoding,
    };
    aopts.listing = asm_out;
    // the input is read a line at a time, never whole
    let stdin = std::io::stdin();
    let (name, mut reader): (String, Box<dyn std::io::BufRead>) = if opts.input.as_os_str() == "-" {
        ("<stdin>".to_string(), Box::new(stdin.lock()))
    } else {
        let f = std::fs::File::open(&opts.input)
            .with_context(|| format!("reading {}", opts.input.display()))?;
        (
            opts.input.display().to_string(),
            Box::new(std::io::BufReader::with_capacity(1 << 16, f)),
        )
    };
    let mut enc = hsaco_isa::asm::Assembler::for_processor(aopts.target.processor.name)
        .with_context(|| format!("no instruction encoder for {}", opts.mcpu))?;
    if aopts.wave64 == Some(true) {
        enc = enc.wave64();
    }
    let mut includes = Includes {
        dirs: opts.include.clone(),
    };
    match hsaco_asm::assemble_reader(&name, &mut reader, &aopts, &mut enc, &mut includes) {
        Ok(out) => {
            for w in &out.warnings {
                eprint!("{w}");
            }
            if asm_out {
                if opts.output.as_os_str() == "-" {
                    output::print(&out.listing)?;
                } else {
                    output::write_file(&opts.output, out.listing.as_bytes())?;
                }
            } else if opts.link {
                let input = hsaco_link::Input::new(&name, &out.object);
                match hsaco_link::link(&[input], &crate::cmd::ld::link_options()) {
                    Ok(co) => output::write_file(&opts.output, &co)?,
                    Err(e) => {
                        eprintln!("hsaco as --link: error: {e}");
                        return Ok(ExitCode::from(1));
                    }
                }
            } else {
                output::write_file(&opts.output, &out.object)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(diags) => {
            eprint!("{diags}");
            Ok(ExitCode::from(1))
        }
    }
}
