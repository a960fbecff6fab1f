//! `hsaco read --metadata` over plain code objects, fast: each file read into a
//! reused buffer, only its notes looked at (no [`super::view::ObjectView`]), files
//! shared among threads in chunks, the output kept in file order and written once.
//!
//! It prints exactly what the general path gives, or nothing at all: [`run`] returns
//! `None`, before printing anything, when an input is stdin, cannot be read, is not a
//! plain AMDGPU code object (fat binaries, bundles, host files), or would get an
//! error message from the general path (ELF, symbol tables or notes that do not
//! read, first metadata note that does not decode); the general path then reads
//! everything again and reports what it finds.
//!
//! `HSACO_NO_FAST_PATH=1` in the environment turns it off, so that tests (and
//! anyone in doubt) can compare the two paths.

use super::Opts;
use anyhow::{Context, Result};
use hsaco_elf::bundle::{code_objects, ContainerKind};
use hsaco_elf::elf::consts::{NT_AMDGPU_METADATA, NT_AMD_HSA_METADATA};
use hsaco_elf::metadata::{write_readelf_block, CodeObjectMetadata};
use hsaco_elf::msgpack;
use hsaco_elf::note::NoteOwner;
use hsaco_elf::CodeObject;
use std::fs::File;
use std::io::{Read, Write};
use std::ops::Range;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// Files per unit of work handed to a thread.
const CHUNK: usize = 24;
/// At most this many threads.
const MAX_THREADS: usize = 8;

/// The `--metadata` output for `opts`, if every input is one this path can vouch for
/// (see the module docs); `None` otherwise, with nothing printed.
pub fn run(opts: &Opts) -> Option<Result<ExitCode>> {
    if !opts.metadata
        || opts.kernel_descriptors
        || opts.json
        || std::env::var_os("HSACO_NO_FAST_PATH").is_some()
    {
        return None;
    }
    let files = &opts.files[..];
    if files.iter().any(|f| f.as_os_str() == "-") {
        return None;
    }
    let with_headers = files.len() > 1;
    let chunks = files.len().div_ceil(CHUNK);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(chunks)
        .clamp(1, MAX_THREADS);
    let next = AtomicUsize::new(0);
    let refused = AtomicBool::new(false);
    let work = || {
        let mut worker = Worker::default();
        let mut done: Vec<(usize, Vec<u8>)> = Vec::new();
        while !refused.load(Relaxed) {
            let c = next.fetch_add(1, Relaxed);
            let Some(chunk) = files.chunks(CHUNK).nth(c) else {
                break;
            };
            let mut out = Vec::with_capacity(chunk.len() * 8192);
            worker.last = None; // its block was in the previous chunk's output
            for path in chunk {
                if worker.file_blocks(path, with_headers, &mut out).is_none() {
                    refused.store(true, Relaxed);
                    return done;
                }
            }
            done.push((c, out));
        }
        done
    };
    let mut results = if threads > 1 {
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            let mut all = work();
            for h in helpers {
                all.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            all
        })
    } else {
        work()
    };
    if refused.load(Relaxed) {
        return None;
    }
    results.sort_unstable_by_key(|r| r.0);
    Some(print(results.iter().map(|r| &r.1[..])).map(|()| ExitCode::SUCCESS))
}

/// What a thread keeps from file to file.
#[derive(Default)]
struct Worker {
    /// The file being read (the allocation is reused).
    buf: Vec<u8>,
    /// The last metadata note printed. An object file and the code object linked
    /// from it usually hold the same metadata, and their names sort together.
    last: Option<LastNote>,
}

struct LastNote {
    n_type: u32,
    desc: Vec<u8>,
    /// Where its block is in the current chunk's output.
    block: Range<usize>,
    /// Whether it decodes (see `file_blocks`), once asked.
    decodes: Option<bool>,
}

impl Worker {
    /// Appends the output for one file to `out`: its header line when there are
    /// several files, then the block of every metadata note. `None` if the general
    /// path must handle the file.
    fn file_blocks(&mut self, path: &Path, with_headers: bool, out: &mut Vec<u8>) -> Option<()> {
        let len = read_file(path, &mut self.buf)?;
        let data = &self.buf[..len];
        let objects = code_objects(data).ok()?;
        if objects.len() != 1 || objects[0].container != ContainerKind::Plain {
            return None;
        }
        let co = CodeObject::parse(data).ok()?;
        symbols_readable(&co)?;
        if with_headers {
            let _ = writeln!(out, "==> {} <==", path.display());
        }
        let mut first = true;
        for note in co.elf.notes() {
            let note = note.ok()?;
            let is_metadata = matches!(
                (note.kind().owner, note.n_type),
                (NoteOwner::Amdgpu, NT_AMDGPU_METADATA) | (NoteOwner::Amd, NT_AMD_HSA_METADATA)
            );
            if !is_metadata {
                continue;
            }
            let hit = self
                .last
                .as_ref()
                .is_some_and(|l| l.n_type == note.n_type && l.desc == note.desc);
            if hit {
                if let Some(l) = &self.last {
                    out.extend_from_within(l.block.clone());
                }
            } else {
                let start = out.len();
                write_readelf_block(note.n_type, note.desc, out);
                self.last = Some(LastNote {
                    n_type: note.n_type,
                    desc: note.desc.to_vec(),
                    block: start..out.len(),
                    decodes: None,
                });
            }
            if first {
                // the general path decodes the first metadata note and reports failure
                first = false;
                let last = self.last.as_mut()?;
                let decodes = *last.decodes.get_or_insert_with(|| {
                    if note.n_type == NT_AMDGPU_METADATA {
                        msgpack::is_map_document(note.desc)
                    } else {
                        CodeObjectMetadata::from_v2_yaml(note.desc).is_ok()
                    }
                });
                if !decodes {
                    return None;
                }
            }
        }
        Some(())
    }
}

/// The whole of `path` into `buf`, which keeps its allocation (and its bytes past
/// the end, so nothing is cleared) from file to file; returns the length read.
fn read_file(path: &Path, buf: &mut Vec<u8>) -> Option<usize> {
    let mut f = File::open(path).ok()?;
    let len = usize::try_from(f.metadata().ok()?.len()).ok()?;
    if len == 0 {
        // size unknown (or empty): read to the end
        buf.clear();
        f.read_to_end(buf).ok()?;
        return Some(buf.len());
    }
    if buf.len() < len {
        buf.resize(len, 0);
    }
    let mut filled = 0;
    while filled < len {
        match f.read(&mut buf[filled..len]) {
            Ok(0) => return Some(filled),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    // the file may have grown since: read on to the end, as `fs::read` does (a
    // small probe first: `read_to_end` would clear the whole spare capacity)
    let mut probe = [0u8; 64];
    loop {
        match f.read(&mut probe) {
            Ok(0) => return Some(len),
            Ok(n) => {
                buf.truncate(len);
                buf.extend_from_slice(&probe[..n]);
                f.read_to_end(buf).ok()?;
                return Some(buf.len());
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// Whether the symbol tables read without error (the general path reads them for
/// the kernel list, and reports it when they do not).
fn symbols_readable(co: &CodeObject<'_>) -> Option<()> {
    for table in [co.elf.symtab().ok()?, co.elf.dynsym().ok()?]
        .into_iter()
        .flatten()
    {
        if table.iter().any(|s| s.is_err()) {
            return None;
        }
    }
    Some(())
}

/// Write the chunks to stdout; a closed pipe is not an error (as `output::print`).
fn print<'a>(chunks: impl Iterator<Item = &'a [u8]>) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let mut result = Ok(());
    for c in chunks {
        result = out.write_all(c);
        if result.is_err() {
            break;
        }
    }
    match result.and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("writing to stdout"),
    }
}
