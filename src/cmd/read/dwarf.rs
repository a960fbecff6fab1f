//! `hsaco read --debug-info / --debug-line / --debug`: the DWARF sections of each
//! code object, printed as llvm-dwarfdump-22 prints them (hsaco-dwarf holds the
//! format logic).

use super::files::Reader;
use super::{found_in, found_in_bytes, Opts};
use crate::{input, output};
use anyhow::{Context, Result};
use hsaco_dwarf::dump::{DieRecord, LineTableRecord, UnitRecord};
use hsaco_dwarf::names::RegisterNames;
use hsaco_dwarf::{DumpOptions, DwarfObject, Section};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex};

/// The sections the options ask for, in llvm-dwarfdump's order.
fn sections(opts: &Opts) -> Vec<Section> {
    Section::ALL
        .into_iter()
        .filter(|s| {
            opts.debug
                || match s {
                    Section::Info => opts.debug_info,
                    Section::Loclists => opts.debug_loclists,
                    Section::Frame => opts.debug_frame,
                    Section::Aranges => opts.debug_aranges,
                    Section::Line => opts.debug_line,
                }
        })
        .collect()
}

pub fn run(opts: &Opts) -> Result<ExitCode> {
    let dump_opts = DumpOptions {
        regs: if opts.spec_register_names {
            RegisterNames::Spec
        } else {
            RegisterNames::Llvm
        },
    };
    let wanted = sections(opts);
    if !opts.json {
        return text_run(opts, &wanted, dump_opts);
    }
    // --json: the whole tree, printed at the end
    let (files_json, status) = each_object(&opts.files, |label, dwarf| {
        let (mut v, errors) = object_json(dwarf, &wanted, dump_opts);
        v.insert("label".into(), json!(label));
        let all: Vec<String> = dwarf
            .errors
            .iter()
            .chain(&errors)
            .map(|e| e.to_string())
            .collect();
        for e in &all {
            eprintln!("error: {label}: {e}");
        }
        let status = u8::from(!all.is_empty());
        v.insert("errors".into(), json!(all));
        (Value::Object(v), status)
    });
    let mut text = serde_json::to_string_pretty(&json!({
        "schema": "hsaco-read-dwarf/1",
        "files": files_json,
    }))?;
    text.push('\n');
    output::print(&text)?;
    Ok(ExitCode::from(status))
}

/// Every code object of `files` with its DWARF sections, given to `each` with its
/// label; `each` returns the object's JSON and its exit status. A file or object
/// that does not read is named on stderr and gets an `error` entry (status 2).
/// Returns the files' JSON (`{"path", "objects"}` or `{"path", "error"}`) and the
/// highest status.
pub(super) fn each_object(
    files: &[std::path::PathBuf],
    mut each: impl FnMut(&str, &DwarfObject) -> (Value, u8),
) -> (Vec<Value>, u8) {
    let mut status = 0u8;
    let mut files_json = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let data = input::read_input(f);
        let found = match found_in(&name, &data) {
            Ok(found) => found,
            Err(e) => {
                eprintln!("error: {e}");
                files_json.push(json!({ "path": name, "error": e }));
                status = 2;
                continue;
            }
        };
        let mut objects_json = Vec::new();
        for obj in found {
            match DwarfObject::from_elf(&obj.embedded.bytes) {
                Ok(dwarf) => {
                    let (v, st) = each(&obj.label, &dwarf);
                    objects_json.push(v);
                    status = status.max(st);
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", obj.label);
                    objects_json.push(json!({ "label": obj.label, "error": e.to_string() }));
                    status = 2;
                }
            }
        }
        files_json.push(json!({ "path": name, "objects": objects_json }));
    }
    (files_json, status)
}

/// At most this many threads for the text.
const MAX_THREADS: usize = 8;
/// At most this many files in a unit of work ([`chunk_len`]).
const CHUNK: usize = 4;

/// The text of a run of files: their texts one after another, and the error lines
/// of each file that has some, with where its text ends (printed there, so that
/// stdout and stderr interleave as they would file by file).
#[derive(Default)]
struct Chunk {
    text: Vec<u8>,
    errors: Vec<(usize, String)>,
    status: u8,
}

/// What the threads share: the chunks' texts waiting for those before them, buffers
/// to reuse, and what was printed so far.
#[derive(Default)]
struct Printer {
    /// The next chunk to print.
    next: usize,
    /// Chunks done, waiting for the chunks before them.
    ready: BTreeMap<usize, Chunk>,
    /// Printed chunks' buffers, to reuse (a fresh buffer faults in fresh pages).
    pool: Vec<Chunk>,
    /// Threads waiting for the printing to catch up (nobody to wake when 0).
    waiting: usize,
    status: u8,
    error: Option<std::io::Error>,
    /// A thread panicked: nobody waits for the printing any more.
    gave_up: bool,
}

/// Wakes the threads waiting for the printing if the thread holding it panics, so
/// that the panic reaches the caller instead of leaving them waiting.
struct GiveUp<'a>(&'a Mutex<Printer>, &'a Condvar);

impl Drop for GiveUp<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().unwrap_or_else(|e| e.into_inner()).gave_up = true;
            self.1.notify_all();
        }
    }
}

/// How many files go into a unit of work: [`CHUNK`], or fewer when there are too few
/// files for every thread to get several units. Files went one at a time before:
/// over the 1296 objects of the -g corpus that was 3373 `futex` and 1296 `write`
/// calls (strace), with chunks of 16 about 100 of each.
fn chunk_len(files: usize, threads: usize) -> usize {
    (files / (8 * threads)).clamp(1, CHUNK)
}

/// The text of every file, the files shared among threads in chunks (taken one at a
/// time from a counter), each chunk printed as soon as the ones before it are.
fn text_run(opts: &Opts, wanted: &[Section], dump_opts: DumpOptions) -> Result<ExitCode> {
    let files = &opts.files[..];
    let next = AtomicUsize::new(0);
    let threads = hsaco_par::available()
        .clamp(1, MAX_THREADS)
        .min(files.len())
        .max(1);
    let per_chunk = chunk_len(files.len(), threads);
    let chunks: Vec<&[std::path::PathBuf]> = files.chunks(per_chunk).collect();
    let threads = threads.min(chunks.len()).max(1);
    let printer = Mutex::new(Printer::default());
    // signalled when chunks have been printed (or a thread gave up)
    let printed = Condvar::new();
    let lock = || printer.lock().unwrap_or_else(|e| e.into_inner());
    // at most this many chunks ahead of the printing: a thread whose neighbour lost
    // its CPU to another program would otherwise pile up texts in fresh memory (on
    // a busy machine, thousands of page faults over the -g corpus)
    let window = 2 * threads;
    hsaco_par::run(threads, || {
        let _guard = GiveUp(&printer, &printed);
        let mut reader = Reader::whole();
        loop {
            let i = next.fetch_add(1, Relaxed);
            let Some(chunk) = chunks.get(i) else {
                break;
            };
            let mut out = {
                let mut p = lock();
                while i >= p.next + window && !p.gave_up {
                    p.waiting += 1;
                    p = printed.wait(p).unwrap_or_else(|e| e.into_inner());
                    p.waiting -= 1;
                }
                p.pool.pop().unwrap_or_default()
            };
            for f in *chunk {
                let (errors, status) = file_text(&mut reader, f, wanted, dump_opts, &mut out.text);
                if !errors.is_empty() {
                    out.errors.push((out.text.len(), errors));
                }
                out.status = out.status.max(status);
            }
            let mut p = lock();
            p.ready.insert(i, out);
            let p = &mut *p;
            let mut any = false;
            while let Some(mut out) = p.ready.remove(&p.next) {
                p.next += 1;
                any = true;
                let mut from = 0;
                for (to, errors) in out.errors.drain(..) {
                    print_text(p, &out.text[from..to]);
                    eprint!("{errors}");
                    from = to;
                }
                print_text(p, &out.text[from..]);
                p.status = p.status.max(out.status);
                out.text.clear();
                out.status = 0;
                p.pool.push(out);
            }
            if any && p.waiting > 0 {
                printed.notify_all();
            }
        }
    });
    let p = printer.into_inner().unwrap_or_else(|e| e.into_inner());
    match p.error {
        // a closed pipe (`hsaco read --debug-info x | head`) is not an error
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("writing to stdout")
        }
        _ => Ok(ExitCode::from(p.status)),
    }
}

/// Writes `text` to stdout unless a write failed before.
fn print_text(p: &mut Printer, text: &[u8]) {
    if p.error.is_none() && !text.is_empty() {
        let mut out = std::io::stdout().lock();
        if let Err(e) = out.write_all(text).and_then(|_| out.flush()) {
            p.error = Some(e);
        }
    }
}

/// The text of one file (into `text`), its error lines and its exit status.
fn file_text(
    reader: &mut Reader,
    f: &std::path::Path,
    wanted: &[Section],
    dump_opts: DumpOptions,
    text: &mut Vec<u8>,
) -> (String, u8) {
    let name = f.display().to_string();
    // a file read into the thread's reused buffer (`files::Reader`); stdin, and a
    // file that reader cannot read (it is then reported), the ordinary way
    let held = if f.as_os_str() == "-" {
        None
    } else {
        match reader.with_file(f, |data| {
            Some(bytes_text(&name, data, wanted, dump_opts, text))
        }) {
            Ok(r) => return r,
            Err(held) => held,
        }
    };
    let data = match held {
        Some(bytes) => Ok(bytes),
        None => input::read_input(f),
    };
    match &data {
        Ok(d) => bytes_text(&name, d, wanted, dump_opts, text),
        Err(e) => (format!("error: {e:#}\n"), 2),
    }
}

/// [`file_text`] of the bytes `data` of the file `name`.
fn bytes_text(
    name: &str,
    data: &[u8],
    wanted: &[Section],
    dump_opts: DumpOptions,
    text: &mut Vec<u8>,
) -> (String, u8) {
    let mut errs = String::new();
    let found = match found_in_bytes(name, data) {
        Ok(found) => found,
        Err(e) => {
            let _ = writeln!(errs, "error: {e}");
            return (errs, 2);
        }
    };
    let mut status = 0u8;
    for obj in found {
        let dwarf = match DwarfObject::from_elf(&obj.embedded.bytes) {
            Ok(d) => d,
            Err(e) => {
                let _ = writeln!(errs, "error: {}: {e}", obj.label);
                status = 2;
                continue;
            }
        };
        text.extend_from_slice(obj.label.as_bytes());
        text.extend_from_slice(b":\tfile format elf64-amdgpu\n\n");
        let mut errors = dwarf.errors.clone();
        for (i, s) in wanted.iter().enumerate() {
            if i > 0 {
                text.push(b'\n');
            }
            errors.extend(hsaco_dwarf::dump::dump(&dwarf, *s, dump_opts, text));
        }
        for e in &errors {
            let _ = writeln!(errs, "error: {}: {e}", obj.label);
            status = status.max(1);
        }
    }
    (errs, status)
}

/// The JSON of one object: `debug_info` as a tree of units and DIEs, `debug_line` as
/// tables of rows, the other sections as the text llvm-dwarfdump prints.
fn object_json(
    dwarf: &DwarfObject,
    wanted: &[Section],
    opts: DumpOptions,
) -> (Map<String, Value>, Vec<hsaco_dwarf::Error>) {
    let mut m = Map::new();
    let mut errors = Vec::new();
    for s in wanted {
        match s {
            Section::Info => {
                let (units, e) = hsaco_dwarf::dump::debug_info_records(dwarf, opts);
                errors.extend(e);
                m.insert(
                    "debug_info".into(),
                    Value::Array(units.iter().map(unit_json).collect()),
                );
            }
            Section::Line => {
                let (tables, e) = hsaco_dwarf::dump::debug_line_records(dwarf);
                errors.extend(e);
                m.insert(
                    "debug_line".into(),
                    Value::Array(tables.iter().map(line_json).collect()),
                );
            }
            other => {
                let mut t = Vec::new();
                errors.extend(hsaco_dwarf::dump::dump(dwarf, *other, opts, &mut t));
                let t = String::from_utf8_lossy(&t);
                let key = match other {
                    Section::Loclists => "debug_loclists_text",
                    Section::Frame => "debug_frame_text",
                    _ => "debug_aranges_text",
                };
                m.insert(key.into(), json!(t));
            }
        }
    }
    (m, errors)
}

fn unit_json(u: &UnitRecord) -> Value {
    json!({
        "offset": u.offset,
        "version": u.version,
        "unit_type": u.unit_type,
        "address_size": u.address_size,
        "dies": dies_json(&u.dies),
    })
}

/// The flat list of entries (with depths, null entries closing children) as a tree.
fn dies_json(dies: &[DieRecord]) -> Value {
    // a stack of (depth, children so far); an entry at depth d goes to the list
    // of the nearest open entry above it
    let mut stack: Vec<(usize, Vec<Value>)> = vec![(0, Vec::new())];
    let mut pending: Vec<Map<String, Value>> = Vec::new();
    for d in dies {
        // close the entries whose children are done
        while stack.len() > 1 && stack.last().is_some_and(|(depth, _)| *depth > d.depth) {
            close(&mut stack, &mut pending);
        }
        let Some(tag) = &d.tag else {
            continue;
        };
        let mut m = Map::new();
        m.insert("offset".into(), json!(d.offset));
        m.insert("tag".into(), json!(tag));
        let attrs: Vec<Value> = d
            .attributes
            .iter()
            .map(|(n, v)| json!({ "name": n, "value": v }))
            .collect();
        m.insert("attributes".into(), Value::Array(attrs));
        pending.push(m);
        stack.push((d.depth + 1, Vec::new()));
    }
    while stack.len() > 1 {
        close(&mut stack, &mut pending);
    }
    Value::Array(stack.pop().map(|(_, v)| v).unwrap_or_default())
}

fn close(stack: &mut Vec<(usize, Vec<Value>)>, pending: &mut Vec<Map<String, Value>>) {
    let (_, children) = stack.pop().unwrap_or_default();
    let Some(mut m) = pending.pop() else {
        return;
    };
    if !children.is_empty() {
        m.insert("children".into(), Value::Array(children));
    }
    if let Some((_, parent)) = stack.last_mut() {
        parent.push(Value::Object(m));
    }
}

fn line_json(t: &LineTableRecord) -> Value {
    json!({
        "offset": t.offset,
        "version": t.version,
        "include_directories": t.include_directories,
        "file_names": t.file_names.iter().map(|(n, d)| json!({ "name": n, "dir_index": d })).collect::<Vec<_>>(),
        "rows": t.rows.iter().map(|r| json!({
            "address": r.address,
            "line": r.line,
            "column": r.column,
            "file": r.file,
            "flags": r.flags,
        })).collect::<Vec<_>>(),
    })
}
