//! `hsaco read --metadata`, fast: files shared among threads in chunks (runs of one
//! directory), each file read into a reused buffer ([`super::files`]) and only its
//! notes looked at (no
//! [`super::view::ObjectView`]), each chunk's text written to stdout as soon as the
//! chunks before it are, through a few reused buffers (memory stays small whatever the
//! number of files).
//!
//! It prints exactly what the general path gives. A file it cannot vouch for (not a
//! plain AMDGPU code object: fat binaries, bundles, host files; or one that would get
//! an error message: ELF, symbol tables or notes that do not read, first metadata note
//! that does not decode) is reported by the general path's own code, in its place.
//! [`run`] returns `None` (and the general path does everything) for stdin, and for
//! options other than `--metadata`.
//!
//! `HSACO_NO_FAST_PATH=1` in the environment turns it off, so that tests (and
//! anyone in doubt) can compare the two paths.

use super::Opts;
use anyhow::{Context, Result};
use hsaco_elf::bundle::{code_objects, ContainerKind};
use hsaco_elf::elf::consts::{NT_AMDGPU_METADATA, NT_AMD_HSA_METADATA};
use hsaco_elf::metadata::{write_amdgpu_metadata_block, write_readelf_block, CodeObjectMetadata};
use hsaco_elf::msgpack;
use hsaco_elf::note::NoteOwner;
use hsaco_elf::CodeObject;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// At most this many files in a unit of work handed to a thread.
const CHUNK: usize = 64;
/// A chunk's text buffer starts this large (growing a buffer faults in fresh pages).
const OUTPUT_CAPACITY: usize = 1 << 18;
/// At most this many threads.
const MAX_THREADS: usize = 8;

/// The `--metadata` output for `opts` (see the module docs); `None`, with nothing
/// printed, when the general path must do the whole run.
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
    let chunks = chunks(files);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(chunks.len())
        .clamp(1, MAX_THREADS);
    let next = AtomicUsize::new(0);
    let sink = Sink::default();
    let work = || {
        let mut worker = Worker::default();
        loop {
            let c = next.fetch_add(1, Relaxed);
            let Some(chunk) = chunks.get(c) else {
                break;
            };
            let mut out = sink.buffer();
            for path in &files[chunk.clone()] {
                let start = out.text.len();
                if let Err(held) = worker.file_blocks(path, with_headers, &mut out.text) {
                    out.text.truncate(start);
                    out.failed |= general(opts, path, held, with_headers, &mut out);
                }
            }
            sink.done(c, out);
        }
    };
    if threads > 1 {
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            work();
            for h in helpers {
                if let Err(e) = h.join() {
                    std::panic::resume_unwind(e);
                }
            }
        });
    } else {
        work();
    }
    let sink = sink.state.into_inner().unwrap_or_else(|e| e.into_inner());
    Some(match sink.error {
        Some(e) => Err(e).context("writing to stdout"),
        None if sink.failed => Ok(ExitCode::from(1)),
        None => Ok(ExitCode::SUCCESS),
    })
}

/// The units of work: runs of files in the same directory, at most [`CHUNK`] long.
/// Files of one directory often share metadata (a program's objects and the code
/// object linked from them; see [`Recent`]), and [`super::files::Reader`] opens them
/// relative to the directory.
fn chunks(files: &[std::path::PathBuf]) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        match out.last_mut() {
            Some(r) if r.len() < CHUNK && files[r.start].parent() == f.parent() => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// One file reported by the general path's code, into `out`; returns whether it
/// found an error.
/// `held` is what the fast path read of a file that cannot be read again (a pipe).
fn general(
    opts: &Opts,
    path: &Path,
    held: Option<Vec<u8>>,
    headers: bool,
    out: &mut Output,
) -> bool {
    let name = path.display().to_string();
    let data = match held {
        Some(bytes) => Ok(bytes),
        None => crate::input::read_input(path),
    };
    let found = super::found_in(&name, &data);
    // as the general path decides it: several files, or several objects in one
    let headers = headers || found.as_ref().map_or(0, Vec::len) > 1;
    let mut text = String::new();
    let mut errors = String::new();
    let failed = super::report_file(
        opts,
        &name,
        &found,
        headers,
        &mut text,
        &mut errors,
        &mut Vec::new(),
    );
    out.text.extend_from_slice(text.as_bytes());
    out.errors.push_str(&errors);
    failed
}

/// What one chunk of files printed.
#[derive(Default)]
struct Output {
    text: Vec<u8>,
    errors: String,
    failed: bool,
}

/// Writes the chunks' output in chunk order, as soon as it can, and keeps the
/// buffers for reuse.
#[derive(Default)]
struct Sink {
    state: Mutex<SinkState>,
}

#[derive(Default)]
struct SinkState {
    /// The next chunk to write.
    next: usize,
    /// Chunks done before their turn.
    waiting: BTreeMap<usize, Output>,
    /// Empty buffers to reuse.
    free: Vec<Output>,
    /// stdout was closed (`| head`): nothing more is written, and that is no error.
    closed: bool,
    error: Option<std::io::Error>,
    failed: bool,
}

impl Sink {
    fn lock(&self) -> std::sync::MutexGuard<'_, SinkState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An empty buffer.
    fn buffer(&self) -> Output {
        self.lock().free.pop().unwrap_or_else(|| Output {
            text: Vec::with_capacity(OUTPUT_CAPACITY),
            ..Output::default()
        })
    }

    /// Chunk `c` is done: write it and every waiting chunk after it whose turn has
    /// come.
    fn done(&self, c: usize, out: Output) {
        let mut st = self.lock();
        st.waiting.insert(c, out);
        loop {
            let next = st.next;
            let Some(mut out) = st.waiting.remove(&next) else {
                break;
            };
            if !st.closed && st.error.is_none() {
                let mut stdout = std::io::stdout().lock();
                match stdout.write_all(&out.text).and_then(|()| stdout.flush()) {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => st.closed = true,
                    Err(e) => st.error = Some(e),
                    Ok(()) => {}
                }
            }
            // errors go to stderr in file order too
            if !out.errors.is_empty() {
                eprint!("{}", out.errors);
            }
            st.failed |= out.failed;
            out.text.clear();
            out.errors.clear();
            out.failed = false;
            st.free.push(out);
            st.next += 1;
        }
    }
}

/// What a thread keeps from file to file.
#[derive(Default)]
struct Worker {
    /// Reads the files.
    files: super::files::Reader,
    /// The metadata notes printed last.
    recent: Recent,
}

/// A metadata note's descriptor and its printed block.
struct Printed {
    n_type: u32,
    desc: Vec<u8>,
    block: Vec<u8>,
    /// Whether it decodes (see [`blocks`]), once asked.
    decodes: Option<bool>,
}

/// The last [`RECENT`] distinct metadata notes a thread printed, with their text. The
/// files of one directory share much of their metadata: an object file and the code
/// object linked from it hold the same note, and a code object linked from several
/// objects holds each of their notes (859 distinct notes among 3350 in the shared
/// corpus; remembering one note printed 2264 times, remembering these ~900). The
/// entries' buffers are reused, oldest first, so memory stops growing once the ring
/// is full.
#[derive(Default)]
struct Recent {
    entries: Vec<Printed>,
    /// The entry to reuse next once the ring is full.
    oldest: usize,
}

/// How many notes [`Recent`] keeps.
const RECENT: usize = 32;

impl Recent {
    /// The entry of the note (`n_type`, `desc`), printed now if it is not there.
    fn get(&mut self, n_type: u32, desc: &[u8]) -> &mut Printed {
        let found = self
            .entries
            .iter()
            .position(|p| p.n_type == n_type && p.desc == desc);
        let i = match found {
            Some(i) => i,
            None if self.entries.len() < RECENT => {
                self.entries.push(Printed {
                    n_type,
                    desc: Vec::new(),
                    block: Vec::new(),
                    decodes: None,
                });
                self.fill(self.entries.len() - 1, n_type, desc)
            }
            None => {
                let i = self.oldest;
                self.oldest = (i + 1) % RECENT;
                self.fill(i, n_type, desc)
            }
        };
        &mut self.entries[i]
    }

    /// Prints the note into entry `i` (whose buffers keep their allocations).
    fn fill(&mut self, i: usize, n_type: u32, desc: &[u8]) -> usize {
        let p = &mut self.entries[i];
        p.n_type = n_type;
        p.desc.clear();
        p.desc.extend_from_slice(desc);
        p.block.clear();
        p.decodes = if n_type == NT_AMDGPU_METADATA {
            // known from the printing
            Some(write_amdgpu_metadata_block(desc, &mut p.block))
        } else {
            write_readelf_block(n_type, desc, &mut p.block);
            None
        };
        i
    }
}

impl Worker {
    /// Appends the output for one file to `out`: its header line when there are
    /// several files, then the block of every metadata note. `Err` if the general
    /// path must handle the file (`out` may then hold part of the file's text), with
    /// the file's bytes if it cannot be read again ([`super::files::Reader::with_file`]).
    fn file_blocks(
        &mut self,
        path: &Path,
        with_headers: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), Option<Vec<u8>>> {
        let recent = &mut self.recent;
        self.files
            .with_file(path, |data| blocks(data, recent, path, with_headers, out))
    }
}

/// [`Worker::file_blocks`] of the file's bytes `data`.
fn blocks(
    data: &[u8],
    recent: &mut Recent,
    path: &Path,
    with_headers: bool,
    out: &mut Vec<u8>,
) -> Option<()> {
    let objects = code_objects(data).ok()?;
    if objects.len() != 1 || objects[0].container != ContainerKind::Plain {
        return None;
    }
    let co = CodeObject::parse(data).ok()?;
    symbols_readable(&co)?;
    if with_headers {
        // as `path.display()` shows it (invalid UTF-8 replaced the same way)
        out.extend_from_slice(b"==> ");
        out.extend_from_slice(path.to_string_lossy().as_bytes());
        out.extend_from_slice(b" <==\n");
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
        let printed = recent.get(note.n_type, note.desc);
        out.extend_from_slice(&printed.block);
        if first {
            // the general path decodes the first metadata note and reports failure
            first = false;
            let decodes = *printed.decodes.get_or_insert_with(|| {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A small MessagePack metadata map `{ "amdhsa.version": [1, i] }`.
    fn note(i: u8) -> Vec<u8> {
        let mut d = vec![0x81, 0xae];
        d.extend_from_slice(b"amdhsa.version");
        d.extend_from_slice(&[0x92, 0x01, i & 0x7f]);
        d
    }

    #[test]
    fn recent_notes_print_as_a_fresh_print() {
        let mut recent = Recent::default();
        // more distinct notes than the ring holds, revisited in several orders, so
        // that hits, misses and reused entries all happen
        let order: Vec<u8> = (0..80)
            .chain((0..80).rev())
            .chain((0..80u16).map(|i| ((i * 7) % 80) as u8))
            .collect();
        let mut hits = 0;
        for i in order {
            let desc = note(i);
            let before = recent.entries.iter().any(|p| p.desc == desc);
            hits += usize::from(before);
            let mut fresh = Vec::new();
            let decodes = write_amdgpu_metadata_block(&desc, &mut fresh);
            let p = recent.get(NT_AMDGPU_METADATA, &desc);
            assert_eq!(p.block, fresh, "note {i}");
            assert_eq!(p.decodes, Some(decodes));
            assert!(String::from_utf8_lossy(&p.block).contains(&format!("- {}", i & 0x7f)));
        }
        assert!(recent.entries.len() == RECENT);
        assert!(hits > 0 && hits < 240, "{hits} hits");
    }
}
