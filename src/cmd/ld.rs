//! `hsaco ld`: link relocatable objects into a loadable code object.

use crate::{input, output};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Link relocatable AMDGPU objects (.o, from clang -c or an assembler) into a
/// loadable code object, as `ld.lld -shared --no-undefined` does: program headers,
/// .dynamic, .dynsym, .dynstr, .hash, .gnu.hash, the notes, descriptors and code laid
/// out on the same addresses, relocations applied and .rela.dyn for those the loader
/// finishes. Kernels and their .kd symbols are exported; hidden symbols become local.
///
/// Undefined and duplicate symbols are errors that name the file, section and offset;
/// so are objects for different targets. Nothing is written on error.
///
/// On the objects clang-22 writes the output is byte for byte ld.lld-22's (every
/// corpus link is compared), except the linker's line in .comment
/// (give --linker-comment "Linker: Debian LLD 22.1.8" for ld.lld-22's own).
///
/// Examples:
///   hsaco ld kernel.o -o kernel.co
///   hsaco ld a.o b.o c.o -o all.co
///   hsaco ld kernel.o -o - | hsaco read -
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The relocatable objects (`-` for stdin, once).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The code object to write (`-` for stdout).
    #[arg(short, long)]
    pub output: PathBuf,
    /// The linker's string in .comment (empty for none).
    #[arg(long, value_name = "TEXT", default_value = LINKER_COMMENT)]
    pub linker_comment: String,
    /// Accepted for ld.lld compatibility (the output is always a shared object).
    #[arg(long, hide = true)]
    pub shared: bool,
    /// Accepted for ld.lld compatibility (undefined symbols are always errors).
    #[arg(long, hide = true)]
    pub no_undefined: bool,
}

pub fn run(opts: Opts) -> Result<ExitCode> {
    let mut buffers = Vec::with_capacity(opts.inputs.len());
    for path in &opts.inputs {
        buffers.push(input::read_input(path)?);
    }
    let names: Vec<String> = opts
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let inputs: Vec<hsaco_link::Input<'_>> = names
        .iter()
        .zip(&buffers)
        .map(|(name, data)| hsaco_link::Input::new(name, data))
        .collect();
    let options = hsaco_link::Options {
        comment: (!opts.linker_comment.is_empty()).then(|| opts.linker_comment.clone()),
    };
    let bytes = hsaco_link::link(&inputs, &options)?;
    output::write_file(&opts.output, &bytes)?;
    Ok(ExitCode::SUCCESS)
}

/// The linker's line in `.comment` by default.
pub const LINKER_COMMENT: &str = concat!("Linker: hsaco ", env!("CARGO_PKG_VERSION"));

/// The link options of `hsaco ld` without options (also `hsaco as --link`).
pub fn link_options() -> hsaco_link::Options {
    hsaco_link::Options {
        comment: Some(LINKER_COMMENT.to_string()),
    }
}
