//! `hsaco extract`: pull code objects out of fat binaries and bundles.

use crate::{input, output};
use anyhow::{bail, Context, Result};
use clap::Args;
use hsaco_elf::bundle::{code_objects, embedded_objects, EmbeddedObject};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Extract every code object inside a file: clang offload bundles, compressed bundles
/// (CCOB v1-v3, zlib/zstd), the .hip_fatbin section of a host executable or library,
/// LLVM OffloadBinary, and raw code objects embedded in other files.
///
/// Outputs are named <input-stem>-<index>-<bundle entry ID>.co, e.g.
/// app-1-hipv4-amdgcn-amd-amdhsa--gfx906_xnack-.co (characters other than letters,
/// digits, '+', '-' and '.' become '_'). Nothing is written if the input is malformed.
///
/// Examples:
///   hsaco extract --list app
///   hsaco extract app -o out/
///   hsaco extract --all libkernels.so -o out/     (host entries and bitcode too)
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
    /// Also extract host entries and non-AMDGPU images (bitcode, host objects).
    #[arg(long)]
    pub all: bool,
    /// Print the list as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(opts: Opts) -> Result<ExitCode> {
    let data = input::read_input(&opts.file)?;
    let name = opts.file.display().to_string();
    let found = if opts.all {
        embedded_objects(&data)
    } else {
        code_objects(&data)
    }
    .with_context(|| format!("{name}: malformed container"))?;
    let stem = opts
        .file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| s != "-")
        .unwrap_or_else(|| "stdin".to_string());
    let names: Vec<String> = found
        .iter()
        .enumerate()
        .map(|(i, o)| o.output_file_name(&stem, i))
        .collect();
    if opts.json {
        let list: Vec<_> = found
            .iter()
            .zip(&names)
            .map(|(o, n)| describe_json(o, n))
            .collect();
        output::print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({ "file": name, "objects": list }))?
        ))?;
    } else if opts.list || opts.output.is_none() {
        let mut text = String::new();
        for (o, n) in found.iter().zip(&names) {
            text.push_str(&format!("{n}\t{o}\n"));
        }
        output::print(&text)?;
    }
    if found.is_empty() {
        eprintln!("{name}: no code objects found");
        return Ok(ExitCode::from(1));
    }
    if let (Some(dir), false) = (&opts.output, opts.list) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (o, n) in found.iter().zip(&names) {
            let path = dir.join(n);
            if path.exists() && !path.is_file() {
                bail!("{} exists and is not a file", path.display());
            }
            output::write_file(&path, &o.bytes)?;
        }
        if !opts.json {
            eprintln!("wrote {} file(s) to {}", found.len(), dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn describe_json(o: &EmbeddedObject<'_>, file_name: &str) -> serde_json::Value {
    json!({
        "file_name": file_name,
        "container": o.container.to_string(),
        "section": o.section,
        "entry_id": o.entry_id,
        "target_id": o.target_id,
        "offset": o.offset,
        "size": o.bytes.len(),
        "amdgpu_code_object": o.is_amdgpu_code_object(),
    })
}
