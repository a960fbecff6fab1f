//! `hsaco check`: will it load, will it run, and if not, why and what to change.

use crate::{input, output};
use anyhow::Result;
use clap::Args;
use hsaco_check::{check, CheckOptions, Device, RuntimeStack};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check code objects against devices and runtimes: which code object a device
/// runs and the rule that decides it, what a runtime does with it, and when
/// something fails, why and what to change.
///
/// A device is a target ID (gfx906:sramecc+:xnack-), a processor name or alias
/// (gfx803, fiji) or a product (mi50, "Radeon VII", wx3200). A device named
/// without xnack/sramecc settings is "not known": code that requires a setting
/// is reported as running only if the device matches.
///
/// A runtime is one of --list-runtimes (rocm-5.7, rocm-6.2, rocm-6.4, rocm-7.2,
/// llvm-offload-20, llvm-offload-21, llvm-offload-22), or an LLVM offload runtime
/// with the ROCr under it: llvm-offload-22+rocm-6.4.
///
/// Exit status: 0 all fine, 1 problems found, 2 an input could not be read (or a
/// device or runtime name is not known).
///
/// Examples:
///   hsaco check app --device mi50                       which code object runs, and why
///   hsaco check kernel.co --device wx3200 --runtime llvm-offload-22+rocm-6.4
///   hsaco check kernel.co --device gfx906:xnack+ --device gfx1030
///   hsaco check kernel.co --runtime rocm-7.2            no device: each object on its own target
///   hsaco check --list-runtimes                         the runtime table with sources
///   hsaco check --json app --device mi50 | jq .
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// Files to check (`-` for stdin): code objects, fat binaries, offload bundles.
    #[arg(required_unless_present = "list_runtimes")]
    pub files: Vec<PathBuf>,
    /// A device to check against (repeatable).
    #[arg(long = "device", short = 'd')]
    pub devices: Vec<String>,
    /// A runtime or runtime stack to check against (repeatable).
    #[arg(long = "runtime", short = 'r')]
    pub runtimes: Vec<String>,
    /// Print the runtime table with the source of every fact, and exit.
    #[arg(long)]
    pub list_runtimes: bool,
    /// Print JSON (schema: the hsaco-check crate documentation). It always lists
    /// every kernel and every finding, one per kernel.
    #[arg(long)]
    pub json: bool,
    /// List every kernel, in the object line and in each finding, instead of a
    /// count, the first names and "and N more".
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Demangle C++ kernel names (Itanium ABI) in the text, as llvm-objdump -C.
    #[arg(long, short = 'C')]
    pub demangle: bool,
}

pub fn run(opts: Opts) -> Result<ExitCode> {
    if opts.list_runtimes {
        if opts.json {
            output::print(&format!(
                "{}\n",
                serde_json::to_string_pretty(&hsaco_check::runtimes_json())?
            ))?;
        } else {
            output::print(&hsaco_check::runtimes_text())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut check_opts = CheckOptions::default();
    for d in &opts.devices {
        match Device::parse(d) {
            Ok(d) => check_opts.devices.push(d),
            Err(e) => return usage_error(&format!("--device {d}: {e}")),
        }
    }
    for r in &opts.runtimes {
        match RuntimeStack::parse(r) {
            Ok(r) => check_opts.runtimes.push(r),
            Err(e) => return usage_error(&format!("--runtime {r}: {e}")),
        }
    }
    let text_opts = crate::cmd::read::text_options(opts.verbose, opts.demangle);
    let mut unreadable = false;
    let mut problems = false;
    let mut text = String::new();
    let mut files_json = Vec::new();
    for path in &opts.files {
        let name = path.display().to_string();
        let result = input::read_input(path)
            .and_then(|data| check(&data, &check_opts).map_err(|e| anyhow::anyhow!("{name}: {e}")));
        match result {
            Err(e) => {
                eprintln!("error: {e:#}");
                unreadable = true;
                files_json.push(json!({ "file": name, "error": format!("{e:#}") }));
            }
            Ok(report) => {
                problems |= report.has_errors();
                if opts.json {
                    let mut v = report.to_json();
                    if let Some(obj) = v.as_object_mut() {
                        obj.insert("file".into(), json!(name));
                    }
                    files_json.push(v);
                } else {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&format!("== {name}\n"));
                    text.push_str(&report.to_text_with(&text_opts));
                }
            }
        }
    }
    if opts.json {
        output::print(&format!("{}\n", serde_json::to_string_pretty(&files_json)?))?;
    } else {
        output::print(&text)?;
    }
    Ok(if unreadable {
        ExitCode::from(2)
    } else if problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A device or runtime name that is not known: like clap's usage errors, status 2.
fn usage_error(msg: &str) -> Result<ExitCode> {
    eprintln!("error: {msg}");
    Ok(ExitCode::from(2))
}
