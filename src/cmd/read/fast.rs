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
use std::io::{IoSlice, Read, Write};
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
        while !refused.load(Relaxed) {
            let c = next.fetch_add(1, Relaxed);
            let Some(chunk) = files.chunks(CHUNK).nth(c) else {
                break;
            };
            let first_piece = worker.pieces.len();
            worker.chunk_start = first_piece;
            for path in chunk {
                if worker.file_blocks(path, with_headers).is_none() {
                    refused.store(true, Relaxed);
                    return worker;
                }
            }
            worker.chunks.push((c, first_piece..worker.pieces.len()));
        }
        worker
    };
    let workers = if threads > 1 {
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            let mut all = vec![work()];
            for h in helpers {
                all.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            all
        })
    } else {
        vec![work()]
    };
    if refused.load(Relaxed) {
        return None;
    }
    // every chunk's pieces, in file order
    let mut order: Vec<(usize, &Worker, &Range<usize>)> = workers
        .iter()
        .flat_map(|w| w.chunks.iter().map(move |(c, pieces)| (*c, w, pieces)))
        .collect();
    order.sort_unstable_by_key(|o| o.0);
    let slices: Vec<IoSlice<'_>> = order
        .iter()
        .flat_map(|&(_, w, pieces)| {
            w.pieces[pieces.clone()]
                .iter()
                .map(|r| IoSlice::new(&w.out[r.clone()]))
        })
        .collect();
    Some(print(slices).map(|()| ExitCode::SUCCESS))
}

/// What a thread keeps from file to file.
#[derive(Default)]
struct Worker {
    /// The file being read (the allocation is reused).
    buf: Vec<u8>,
    /// All the text this thread printed.
    out: Vec<u8>,
    /// The output in order, as ranges of `out`: a block printed again is a second
    /// range over the same text, not a copy (fresh memory costs a page fault per 4
    /// KiB, a noticeable part of the run).
    pieces: Vec<Range<usize>>,
    /// The chunks done: chunk index and its ranges in `pieces`.
    chunks: Vec<(usize, Range<usize>)>,
    /// The current file's ranges of `out` (the allocation is reused).
    file_pieces: Vec<Range<usize>>,
    /// Where the current chunk's pieces start in `pieces`.
    chunk_start: usize,
    /// The last metadata note printed. An object file and the code object linked
    /// from it usually hold the same metadata, and their names sort together.
    last: Option<LastNote>,
}

struct LastNote {
    n_type: u32,
    desc: Vec<u8>,
    /// Where its block is in `out`.
    block: Range<usize>,
    /// Whether it decodes (see `file_blocks`), once asked.
    decodes: Option<bool>,
}

impl Worker {
    /// Adds `r` (of `out`) to the output, joined to the previous piece of the
    /// chunk if it follows it.
    fn piece(&mut self, r: Range<usize>) {
        if r.is_empty() {
            return;
        }
        match self.pieces[self.chunk_start..].last_mut() {
            Some(last) if last.end == r.start => last.end = r.end,
            _ => self.pieces.push(r),
        }
    }

    /// Adds the output for one file: its header line when there are several files,
    /// then the block of every metadata note. `None` if the general path must
    /// handle the file.
    fn file_blocks(&mut self, path: &Path, with_headers: bool) -> Option<()> {
        let len = read_file(path, &mut self.buf)?;
        let data = &self.buf[..len];
        let objects = code_objects(data).ok()?;
        if objects.len() != 1 || objects[0].container != ContainerKind::Plain {
            return None;
        }
        let co = CodeObject::parse(data).ok()?;
        symbols_readable(&co)?;
        let out = &mut self.out;
        let mut pieces = std::mem::take(&mut self.file_pieces);
        pieces.clear();
        if with_headers {
            let start = out.len();
            // as `path.display()` shows it (invalid UTF-8 replaced the same way)
            out.extend_from_slice(b"==> ");
            out.extend_from_slice(path.to_string_lossy().as_bytes());
            out.extend_from_slice(b" <==\n");
            pieces.push(start..out.len());
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
            if !hit {
                let start = out.len();
                write_readelf_block(note.n_type, note.desc, out);
                // the descriptor's copy keeps its allocation from note to note
                let mut desc = self.last.take().map(|l| l.desc).unwrap_or_default();
                desc.clear();
                desc.extend_from_slice(note.desc);
                self.last = Some(LastNote {
                    n_type: note.n_type,
                    desc,
                    block: start..out.len(),
                    decodes: None,
                });
            }
            let last = self.last.as_mut()?;
            pieces.push(last.block.clone());
            if first {
                // the general path decodes the first metadata note and reports failure
                first = false;
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
        for r in pieces.drain(..) {
            self.piece(r);
        }
        self.file_pieces = pieces;
        Some(())
    }
}

/// The whole of `path` into `buf`, which keeps its allocation (and its bytes past
/// the end, so nothing is cleared) from file to file; returns the length read. A
/// regular file is read to the size it has when opened, in one `read`.
fn read_file(path: &Path, buf: &mut Vec<u8>) -> Option<usize> {
    let mut f = File::open(path).ok()?;
    let meta = f.metadata().ok()?;
    let len = usize::try_from(meta.len()).ok()?;
    if !meta.is_file() || len == 0 {
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
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(filled)
}

/// Whether the symbol tables read without error (the general path reads them for
/// the kernel list, and reports it when they do not).
fn symbols_readable(co: &CodeObject<'_>) -> Option<()> {
    for table in [co.elf.symtab().ok()?, co.elf.dynsym().ok()?]
        .into_iter()
        .flatten()
    {
        if !names_end_in_table(co, &table) && table.iter().any(|s| s.is_err()) {
            return None;
        }
    }
    Some(())
}

/// Whether every symbol of `table` certainly has a readable name, known without
/// looking for the end of each name: the string table ends in a NUL, so a name that
/// starts inside it ends inside it. `false` means "don't know" (then every symbol is
/// read as the general path reads it).
fn names_end_in_table(co: &CodeObject<'_>, table: &hsaco_elf::elf::SymbolTable<'_>) -> bool {
    let strtab = table.strtab();
    if strtab.last() != Some(&0) {
        return false;
    }
    let size = if co.elf.is_64() { 24 } else { 16 };
    let Ok(bytes) = table.section().data() else {
        return false;
    };
    let Some(bytes) = bytes.get(..table.len().saturating_mul(size)) else {
        return false;
    };
    bytes.chunks_exact(size).all(|sym| {
        let st_name = u32::from_le_bytes([sym[0], sym[1], sym[2], sym[3]]);
        (st_name as usize) < strtab.len()
    })
}

/// Write `slices` to stdout, a few system calls in all; a closed pipe is not an
/// error (as `output::print`).
fn print(mut slices: Vec<IoSlice<'_>>) -> Result<()> {
    /// At most this many slices per call (the usual `IOV_MAX`).
    const MAX_SLICES: usize = 1024;
    let mut out = std::io::stdout().lock();
    let mut rest = &mut slices[..];
    let mut result = Ok(());
    while !rest.is_empty() {
        let n = rest.len().min(MAX_SLICES);
        match out.write_vectored(&rest[..n]) {
            Ok(0) => {
                result = Err(std::io::ErrorKind::WriteZero.into());
                break;
            }
            Ok(written) => IoSlice::advance_slices(&mut rest, written),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    match result.and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("writing to stdout"),
    }
}
