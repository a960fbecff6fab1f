//! `hsaco read`: what a code object holds.

use crate::aligned::AlignedBuf;
use crate::{input, output};
use anyhow::Result;
use clap::Args;
use hsaco_elf::bundle::{code_objects, ContainerKind, EmbeddedObject};
use hsaco_elf::elf::consts::section_flags_names;
use hsaco_elf::CodeObject;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

mod dwarf;
mod fast;
mod files;
mod locate;
mod platform;
mod tables;
pub mod view;

use view::ObjectView;

/// Read code objects: header, target ID, code object version, sections, notes,
/// kernels with their descriptor summary and kernarg layout.
///
/// A fat binary, offload bundle or host executable/library is read through the code
/// objects embedded in it.
///
/// Examples:
///   hsaco read kernel.co
///   hsaco read --metadata kernel.co          (as llvm-readelf --notes prints it)
///   hsaco read --kernel-descriptors app.so   (as llvm-objdump prints <k>.kd)
///   hsaco read --kernargs --symbols kernel.co
///   hsaco read --json *.co | jq .
///   hsaco read -C -v rocblas-gfx90a.co       (every kernel, C++ names demangled)
///   hsaco read --debug-info kernel.o         (as llvm-dwarfdump-22 --debug-info)
///   hsaco read --locate acc --pc 0x1c0 --lane 5 kernel.o
///                                            (where variable acc is at that PC)
///
/// Exit status (the highest over all files): 0 everything was read; 1 part of an
/// object could not be read (a note, a symbol, a section: named on stderr with its
/// offset) and the rest was printed; 2 a file or object could not be read at all.
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// Files to read (`-` for stdin).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print only the code object metadata, as YAML, exactly as llvm-readelf --notes
    /// prints it.
    #[arg(long)]
    pub metadata: bool,
    /// Print only the kernel descriptors, as the .amdhsa_kernel blocks llvm-objdump
    /// prints for <kernel>.kd (amd_kernel_code_t blocks for code object v2).
    #[arg(long)]
    pub kernel_descriptors: bool,
    /// Add each kernel's kernarg layout, hidden arguments included.
    #[arg(long)]
    pub kernargs: bool,
    /// Add the symbol tables (with --json: a "symbols" key).
    #[arg(long)]
    pub symbols: bool,
    /// Add the relocations (with --json: a "relocations" key).
    #[arg(long)]
    pub relocations: bool,
    /// Add every note record.
    #[arg(long)]
    pub notes: bool,
    /// Print everything as JSON (schema: docs/usage.md).
    #[arg(long)]
    pub json: bool,
    /// Show each kernel's descriptor and kernargs however many kernels there are
    /// (without it, an object of more than 16 kernels gets them grouped: each distinct
    /// summary with its count, and the first names).
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Demangle C++ names (Itanium ABI) in the text, as llvm-objdump -C: kernels,
    /// symbols, relocations, the `<name.kd>:` lines. JSON keeps the symbols' names.
    #[arg(long, short = 'C')]
    pub demangle: bool,
    /// Print the DWARF .debug_info section exactly as llvm-dwarfdump --debug-info
    /// prints it (AMDGPU register names, DW_OP_LLVM_* operations and DW_AT_LLVM_*
    /// attributes decoded); with --json, a "debug_info" tree.
    #[arg(long)]
    pub debug_info: bool,
    /// Print the DWARF line tables (.debug_line) as llvm-dwarfdump --debug-line does.
    #[arg(long)]
    pub debug_line: bool,
    /// Print the DWARF location lists (.debug_loclists) as llvm-dwarfdump does.
    #[arg(long)]
    pub debug_loclists: bool,
    /// Print the DWARF call frame information (.debug_frame) as llvm-dwarfdump does.
    #[arg(long)]
    pub debug_frame: bool,
    /// Print the DWARF address ranges (.debug_aranges) as llvm-dwarfdump does.
    #[arg(long)]
    pub debug_aranges: bool,
    /// Print every DWARF section above (info, loclists, frame, aranges, line), in
    /// llvm-dwarfdump's order.
    #[arg(long)]
    pub debug: bool,
    /// With the --debug* options: name registers by the AMDGPU spec's DWARF
    /// register mapping (wavefront 32 registers as VGPR0_W32 ...; PC_64, EXEC_MASK_64)
    /// instead of as llvm-dwarfdump names them.
    #[arg(long)]
    pub spec_register_names: bool,
    /// Where variable or parameter VAR lives at --pc: the register (and lane), the
    /// memory (address space and address, symbolic in the registers that compute
    /// it), the value, or the pieces, from its DWARF location evaluated with the
    /// AMDGPU rules; or that it is optimised out there or out of scope. Every
    /// variable of that name whose scope holds the PC is shown (inlined copies
    /// included).
    #[arg(long, value_name = "VAR", requires = "pc")]
    pub locate: Option<String>,
    /// With --locate: the code address (0x hexadecimal or decimal; in a .o, the
    /// offset in .text, as llvm-dwarfdump prints the ranges).
    #[arg(long, value_name = "ADDR", value_parser = parse_address)]
    pub pc: Option<u64>,
    /// With --locate: the focused lane (DW_OP_LLVM_push_lane; the element of a
    /// vector register).
    #[arg(long, value_name = "N")]
    pub lane: Option<u32>,
    /// With --locate: only the variables of this function (name or linkage name,
    /// inlined functions included).
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
    /// With --locate: the wave size (32 or 64) for private memory addresses
    /// (default: what the register numbers say).
    #[arg(long, value_name = "N")]
    pub wave_size: Option<u32>,
    /// With --locate: read DW_OP_xderef as the DWARF extensions define it (a load
    /// from the address space), not as clang's `DW_OP_litN, DW_OP_swap,
    /// DW_OP_xderef` address space qualifier.
    #[arg(long)]
    pub xderef_load: bool,
}

/// An address: `0x` hexadecimal or decimal.
fn parse_address(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("{s}: {e}"))
}

/// `hsaco read --metadata FILE...` (or `--debug-info`, `--debug-line`, `--debug-frame`,
/// `--debug-loclists`, `--debug-aranges`, `--debug` in its place) and nothing else: the
/// form of the benchmarks and of scripts over many files, recognised without clap
/// (see [`crate::plain_files`]). Any other command line returns `None` and goes to clap.
pub fn plain_args(args: &[std::ffi::OsString]) -> Option<Opts> {
    let flag = args.get(2)?.to_str()?;
    let mut opts = Opts {
        files: crate::plain_files(args, &["read", flag])?,
        metadata: false,
        kernel_descriptors: false,
        kernargs: false,
        symbols: false,
        relocations: false,
        notes: false,
        json: false,
        verbose: false,
        demangle: false,
        debug_info: false,
        debug_line: false,
        debug_loclists: false,
        debug_frame: false,
        debug_aranges: false,
        debug: false,
        spec_register_names: false,
        locate: None,
        pc: None,
        lane: None,
        function: None,
        wave_size: None,
        xderef_load: false,
    };
    *match flag {
        "--metadata" => &mut opts.metadata,
        "--debug-info" => &mut opts.debug_info,
        "--debug-line" => &mut opts.debug_line,
        "--debug-frame" => &mut opts.debug_frame,
        "--debug-loclists" => &mut opts.debug_loclists,
        "--debug-aranges" => &mut opts.debug_aranges,
        "--debug" => &mut opts.debug,
        _ => return None,
    } = true;
    Some(opts)
}

/// One code object found in an input file.
struct Found<'a> {
    label: String,
    embedded: EmbeddedObject<'a>,
}

/// The code objects of one input file (`data` as read), labelled for the report: the
/// file's name, with the bundle entry or section when there are several or it is
/// embedded. An error message when there are none.
fn found_in<'a>(
    name: &str,
    data: &'a Result<AlignedBuf>,
) -> std::result::Result<Vec<Found<'a>>, String> {
    let data = data.as_ref().map_err(|e| format!("{e:#}"))?;
    found_in_bytes(name, data)
}

/// [`found_in`] of the bytes `data` of the file `name`.
fn found_in_bytes<'a>(name: &str, data: &'a [u8]) -> std::result::Result<Vec<Found<'a>>, String> {
    let v = code_objects(data).map_err(|e| format!("{name}: {e}"))?;
    if v.is_empty() {
        return Err(format!("{name}: no AMDGPU code object found"));
    }
    let plain = v.len() == 1 && v[0].container == ContainerKind::Plain;
    Ok(v.into_iter()
        .map(|embedded| Found {
            label: if plain {
                name.to_string()
            } else {
                format!("{name} [{embedded}]")
            },
            embedded,
        })
        .collect())
}

pub fn run(opts: Opts) -> Result<ExitCode> {
    if let Some(var) = &opts.locate {
        return locate::run(&opts, var);
    }
    if opts.debug
        || opts.debug_info
        || opts.debug_line
        || opts.debug_loclists
        || opts.debug_frame
        || opts.debug_aranges
    {
        return dwarf::run(&opts);
    }
    if let Some(done) = fast::run(&opts) {
        return done;
    }
    let inputs: Vec<(String, Result<AlignedBuf>)> = opts
        .files
        .iter()
        .map(|f| (f.display().to_string(), input::read_input(f)))
        .collect();
    let per_file: Vec<_> = inputs
        .iter()
        .map(|(name, data)| (name.as_str(), found_in(name, data)))
        .collect();
    let total: usize = per_file
        .iter()
        .map(|(_, f)| f.as_ref().map_or(0, Vec::len))
        .sum();
    // a header before each object when there are several files or objects
    let headers = opts.files.len() > 1 || total > 1;
    let mut text = String::new();
    let mut errors = String::new();
    let mut files_json = Vec::new();
    let mut status = 0;
    for (name, found) in &per_file {
        status = status.max(report_file(
            &opts,
            name,
            found,
            headers,
            &mut text,
            &mut errors,
            &mut files_json,
        ));
        eprint!("{errors}");
        errors.clear();
    }
    if opts.json {
        text = serde_json::to_string_pretty(
            &json!({ "schema": "hsaco-read/1", "files": files_json }),
        )?;
        text.push('\n');
    }
    output::print(&text)?;
    Ok(ExitCode::from(status))
}

/// The report on one input file: text (unless `--json`) to `text`, error lines to
/// `errors`, its JSON to `files_json`. Returns its exit status (docs/usage.md, "Exit
/// status"): 0 when everything was read; 1 when a part of an object (a note, a
/// section, a symbol table, the metadata) could not be read and the rest was
/// printed; 2 when the file, or a code object in it, could not be read at all.
fn report_file(
    opts: &Opts,
    name: &str,
    found: &std::result::Result<Vec<Found<'_>>, String>,
    headers: bool,
    text: &mut String,
    errors: &mut String,
    files_json: &mut Vec<Value>,
) -> u8 {
    let only_blocks = (opts.metadata || opts.kernel_descriptors) && !opts.json;
    let names = text_options(opts.verbose, opts.demangle);
    let found = match found {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(errors, "error: {e}");
            files_json.push(json!({ "path": name, "error": e }));
            return 2;
        }
    };
    let mut status = 0;
    let mut objects_json = Vec::new();
    for f in found {
        let co = match CodeObject::parse(&f.embedded.bytes) {
            Ok(co) => co,
            Err(e) => {
                let _ = writeln!(errors, "error: {}: {e}", f.label);
                status = 2;
                objects_json.push(json!({ "label": f.label, "error": e.to_string() }));
                continue;
            }
        };
        let view = ObjectView::new(&co);
        if view.has_errors() {
            status = status.max(1);
        }
        if opts.json {
            let mut v = view.to_json();
            if let Value::Object(m) = &mut v {
                m.insert("label".into(), json!(f.label));
                m.insert("container".into(), json!(f.embedded.container.to_string()));
                m.insert("entry_id".into(), json!(f.embedded.entry_id));
                m.insert("offset_in_file".into(), json!(f.embedded.offset));
                if opts.symbols {
                    m.insert("symbols".into(), tables::symbols_json(&co));
                }
                if opts.relocations {
                    m.insert("relocations".into(), tables::relocations_json(&co));
                }
            }
            objects_json.push(v);
        } else {
            if headers {
                let _ = writeln!(text, "==> {} <==", f.label);
            }
            if only_blocks {
                if opts.metadata {
                    text.push_str(&view.metadata_text());
                }
                if opts.kernel_descriptors {
                    text.push_str(&view.kernel_descriptor_text(&names));
                }
            } else {
                view.summary(text, opts.kernargs, &names);
                text.push_str(&check_line(&f.embedded.bytes));
                if opts.notes {
                    view.notes_text(text);
                }
                if opts.symbols {
                    view.symbols_text(text, &names);
                }
                if opts.relocations {
                    view.relocations_text(text, &names);
                }
                if headers {
                    text.push('\n');
                }
            }
        }
        for e in view.errors() {
            let _ = writeln!(errors, "error: {}: {e}", f.label);
        }
    }
    files_json.push(json!({ "path": name, "objects": objects_json }));
    status
}

/// One line with what `hsaco check` (no device or runtime named) finds in the
/// object: conformance of notes, metadata, descriptors and symbols.
fn check_line(bytes: &[u8]) -> String {
    match hsaco_check::check(bytes, &hsaco_check::CheckOptions::default()) {
        Ok(report) => {
            let problems: Vec<_> = report.problems().collect();
            if problems.is_empty() {
                "check: no problems (run `hsaco check --device ... --runtime ...` for a GPU and runtime)\n".to_string()
            } else {
                // one entry per problem code, in first-seen order, with its count
                let mut codes: Vec<(String, usize)> = Vec::new();
                for p in &problems {
                    let key = format!("{} {}", p.severity, p.code);
                    match codes.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, n)) => *n += 1,
                        None => codes.push((key, 1)),
                    }
                }
                let list: Vec<String> = codes.iter().map(|(k, n)| format!("{k} x{n}")).collect();
                format!(
                    "check: {} problem(s): {} (details: hsaco check FILE)\n",
                    problems.len(),
                    list.join(", ")
                )
            }
        }
        Err(e) => format!("check: could not check: {e}\n"),
    }
}

/// How the text shows names: every kernel with `verbose`, C++ names demangled with
/// `demangle` (shared by `read`, `check` and `dis`).
pub fn text_options(verbose: bool, demangle: bool) -> hsaco_check::TextOptions {
    hsaco_check::TextOptions {
        verbose,
        demangle: demangle.then_some(crate::names::demangle as fn(&str) -> Option<String>),
    }
}

/// `SHF_*` flag names without the prefix, for the section list.
fn short_flags(flags: u64) -> String {
    section_flags_names(flags).replace("SHF_", "")
}
