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

use super::files::split_dir;
use super::Opts;
use anyhow::{Context, Result};
use hsaco_elf::bundle::{code_objects, ContainerKind};
use hsaco_elf::elf::consts::{NT_AMDGPU_METADATA, NT_AMD_HSA_METADATA, NT_AMD_PAL_METADATA};
use hsaco_elf::metadata::{write_amdgpu_metadata_block, write_readelf_block, CodeObjectMetadata};
use hsaco_elf::msgpack;
use hsaco_elf::note::NoteOwner;
use hsaco_elf::CodeObject;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

/// At most this many files in a unit of work handed to a thread ([`chunk_len`]).
const CHUNK: usize = 64;
/// A chunk's text buffer starts this large (growing a buffer faults in fresh pages).
/// It holds the header lines (the notes' blocks are shared, not copied: [`Output`]).
const OUTPUT_CAPACITY: usize = 1 << 14;
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
    let cpus = hsaco_par::available().clamp(1, MAX_THREADS);
    let chunks = chunks(files, chunk_len(files.len(), cpus));
    let threads = cpus.min(chunks.len()).max(1);
    let next = AtomicUsize::new(0);
    let sink = Sink::default();
    let recent = Recent::default();
    // at most this many chunks ahead of the writing (see `Sink::wait_turn`)
    let window = 2 * threads;
    let work = || {
        let mut worker = Worker::default();
        let _guard = Abandon(&sink);
        loop {
            let c = next.fetch_add(1, Relaxed);
            let Some(chunk) = chunks.get(c) else {
                break;
            };
            sink.wait_turn(c, window);
            let mut out = sink.buffer();
            for path in &files[chunk.clone()] {
                let start = (out.text.len(), out.blocks.len());
                if let Err(held) = worker.file_blocks(path, with_headers, &recent, &mut out) {
                    out.text.truncate(start.0);
                    out.blocks.truncate(start.1);
                    out.status = out
                        .status
                        .max(general(opts, path, held, with_headers, &mut out));
                }
            }
            sink.done(c, out);
        }
    };
    hsaco_par::run(threads, work);
    let sink = sink.state.into_inner().unwrap_or_else(|e| e.into_inner());
    Some(match sink.error {
        Some(e) => Err(e).context("writing to stdout"),
        None => Ok(ExitCode::from(sink.status)),
    })
}

/// How many files go into a unit of work at most: [`CHUNK`], or fewer when there are
/// too few files for every thread to get several units (a library's directory of 40
/// objects of 0.5 MB each, in one unit, was read by one thread while the others idled).
fn chunk_len(files: usize, threads: usize) -> usize {
    (files / (8 * threads)).clamp(1, CHUNK)
}

/// The units of work: runs of files in the same directory, at most `most` long.
/// Files of one directory often share metadata (a program's objects and the code
/// object linked from them; see [`Recent`]), and [`super::files::Reader`] opens them
/// relative to the directory.
fn chunks(files: &[std::path::PathBuf], most: usize) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        match out.last_mut() {
            Some(r) if r.len() < most && split_dir(&files[r.start]).0 == split_dir(f).0 => {
                r.end = i + 1
            }
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// One file reported by the general path's code, into `out`; returns its exit status
/// (0 read, 1 partly read, 2 unreadable: [`super::report_file`]).
/// `held` is what the fast path read of a file that cannot be read again (a pipe).
fn general(
    opts: &Opts,
    path: &Path,
    held: Option<crate::aligned::AlignedBuf>,
    headers: bool,
    out: &mut Output,
) -> u8 {
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
    let status = super::report_file(
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
    status
}

/// What one chunk of files printed: `text`, with the printed notes' blocks in their
/// places. A block is not copied into the text but shared with the thread's
/// [`Recent`] notes and written from there (for each of the 3350 notes of the corpus,
/// a copy into fresh memory of 12.5 MB in all, with its page faults, cost more than
/// the printing of the 1178 notes not seen before).
#[derive(Default)]
struct Output {
    text: Vec<u8>,
    /// Each note's block goes after the text's first `.0` bytes (in order).
    blocks: Vec<(usize, Arc<Printed>)>,
    errors: String,
    /// The highest exit status of its files.
    status: u8,
}

/// Writes the chunks' output in chunk order, as soon as it can, and keeps the
/// buffers for reuse.
#[derive(Default)]
struct Sink {
    state: Mutex<SinkState>,
    /// Signalled when a chunk has been written (or a thread gave up).
    turn: Condvar,
}

/// Wakes the threads waiting for their turn if the thread holding it panics, so that
/// they do not wait for a chunk that will never be written.
struct Abandon<'a>(&'a Sink);

impl Drop for Abandon<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().abandoned = true;
            self.0.turn.notify_all();
        }
    }
}

#[derive(Default)]
struct SinkState {
    /// The next chunk to write.
    next: usize,
    /// Chunks done before their turn.
    waiting: BTreeMap<usize, Output>,
    /// Empty buffers to reuse.
    free: Vec<Output>,
    /// A thread is writing chunks (see [`Sink::done`]).
    writing: bool,
    /// stdout was closed (`| head`): nothing more is written, and that is no error.
    closed: bool,
    error: Option<std::io::Error>,
    /// The highest exit status of the files written.
    status: u8,
    /// A thread panicked: nobody waits for a turn any more.
    abandoned: bool,
}

impl Sink {
    fn lock(&self) -> std::sync::MutexGuard<'_, SinkState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until chunk `c` is fewer than `window` chunks ahead of the next one to
    /// write. Without the bound, a thread whose neighbour lost its CPU to another
    /// program went on alone, and every chunk it finished waited in fresh memory: over
    /// 40 library objects 540 page faults in a run that kept pace, 3,300 in one that did
    /// not (5.3 against 10.5 ms of CPU time).
    fn wait_turn(&self, c: usize, window: usize) {
        let mut st = self.lock();
        while c >= st.next + window && !st.abandoned {
            st = self.turn.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// An empty buffer.
    fn buffer(&self) -> Output {
        self.lock().free.pop().unwrap_or_else(|| Output {
            text: Vec::with_capacity(OUTPUT_CAPACITY),
            ..Output::default()
        })
    }

    /// Chunk `c` is done: write it and every waiting chunk after it whose turn has
    /// come, unless another thread is writing (that one then writes them). The lock
    /// is not held while writing: a thread that held it and lost its CPU meanwhile
    /// (another program's turn) would stop the other threads too.
    fn done(&self, c: usize, out: Output) {
        let mut st = self.lock();
        st.waiting.insert(c, out);
        if st.writing {
            return;
        }
        st.writing = true;
        loop {
            let next = st.next;
            let Some(mut out) = st.waiting.remove(&next) else {
                break;
            };
            let write = !st.closed && st.error.is_none();
            drop(st);
            let result = if write {
                let mut stdout = std::io::stdout().lock();
                write_output(&mut stdout, &out).and_then(|()| stdout.flush())
            } else {
                Ok(())
            };
            // errors go to stderr in file order too
            if !out.errors.is_empty() {
                eprint!("{}", out.errors);
            }
            st = self.lock();
            match result {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => st.closed = true,
                Err(e) => st.error = Some(e),
                Ok(()) => {}
            }
            st.status = st.status.max(out.status);
            out.text.clear();
            out.blocks.clear();
            out.errors.clear();
            out.status = 0;
            st.free.push(out);
            st.next += 1;
            self.turn.notify_all();
        }
        st.writing = false;
    }
}

/// Writes the text of `out` with its blocks in their places, in as few `writev`s as
/// the system allows.
fn write_output(w: &mut impl Write, out: &Output) -> std::io::Result<()> {
    use std::io::{ErrorKind, IoSlice};
    let mut slices = Vec::with_capacity(2 * out.blocks.len() + 1);
    let mut at = 0;
    for (end, block) in &out.blocks {
        if *end > at {
            slices.push(IoSlice::new(&out.text[at..*end]));
            at = *end;
        }
        slices.push(IoSlice::new(&block.block));
    }
    if at < out.text.len() {
        slices.push(IoSlice::new(&out.text[at..]));
    }
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        match w.write_vectored(rest) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// What a thread keeps from file to file.
#[derive(Default)]
struct Worker {
    /// Reads the files.
    files: super::files::Reader,
    /// Entries dropped from [`Recent`], whose buffers the next print reuses.
    spare: Vec<Printed>,
}

/// A metadata note's descriptor and its printed block.
#[derive(Default)]
struct Printed {
    n_type: u32,
    desc: Vec<u8>,
    block: Vec<u8>,
    /// Whether it decodes (see [`blocks`]), once asked.
    decodes: OnceLock<bool>,
}

impl Printed {
    /// Whether the note decodes as the general path decodes the first metadata note.
    fn decodes(&self) -> bool {
        *self.decodes.get_or_init(|| {
            if self.n_type == NT_AMDGPU_METADATA {
                msgpack::is_map_document(&self.desc)
            } else {
                CodeObjectMetadata::from_v2_yaml(&self.desc).is_ok()
            }
        })
    }
}

/// The last [`RECENT`] distinct metadata notes the threads printed, with their text,
/// shared by the threads. The files of one directory share much of their metadata
/// (an object file and the code object linked from it hold the same note, and a code
/// object linked from several objects holds each of their notes), and so do
/// neighbouring directories: 859 distinct notes among 3350 in the shared corpus;
/// remembering one note printed 2264 times, one ring per thread 1178, this shared
/// ring 930-1000 (two threads meeting a note at the same time both print it). An
/// entry is shared with the outputs that hold its block until they are
/// written; a dropped entry's buffers are reused by the next print once no output
/// holds it, so memory stops growing once the ring is full.
#[derive(Default)]
struct Recent {
    ring: Mutex<Ring>,
}

#[derive(Default)]
struct Ring {
    entries: Vec<Arc<Printed>>,
    /// The [`Key`] of each entry, side by side (a lookup reads these, not the
    /// entries, until a key matches).
    keys: Vec<Key>,
    /// The entry to drop next once the ring is full.
    oldest: usize,
}

/// How many notes [`Recent`] keeps.
const RECENT: usize = 64;

/// Notes this large or larger are not kept in [`Recent`] but printed straight into
/// the chunk's text. A library's notes (hundreds of kernels: 0.1-2 MB each) are
/// seldom seen twice, and each kept one held its copy and its text (4 times its size)
/// in fresh memory: over 40 library objects, 11 MB of text printed into memory that
/// was faulted in, grown by copying and given back, which cost more than the printing.
const OWN_BLOCK: usize = 64 << 10;

/// What a lookup compares before the descriptor's bytes: the note type, the length
/// and eight words of the descriptor spread over it. Notes of one length often
/// begin alike (the same keys in the same order), so the words are taken from
/// all over it; only a note whose key matches is compared byte for byte.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    n_type: u32,
    len: usize,
    words: u64,
}

impl Key {
    fn of(n_type: u32, desc: &[u8]) -> Key {
        let len = desc.len();
        let mut words = 0u64;
        if len >= 8 {
            for i in 0..8 {
                let at = (len - 8) * i / 7;
                let w = u64::from_le_bytes(desc[at..at + 8].try_into().unwrap_or_default());
                words = (words.rotate_left(7) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            }
        } else {
            for &b in desc {
                words = (words << 8) | u64::from(b);
            }
        }
        Key { n_type, len, words }
    }
}

impl Ring {
    fn find(&self, key: Key, desc: &[u8]) -> Option<&Arc<Printed>> {
        self.keys
            .iter()
            .zip(&self.entries)
            .find(|(k, p)| **k == key && p.desc == desc)
            .map(|(_, p)| p)
    }
}

impl Recent {
    fn lock(&self) -> std::sync::MutexGuard<'_, Ring> {
        self.ring.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The entry of the note (`n_type`, `desc`), printed now (reusing the buffers of
    /// an entry of `spare`) if it is not there.
    fn get(&self, n_type: u32, desc: &[u8], spare: &mut Vec<Printed>) -> Arc<Printed> {
        let key = Key::of(n_type, desc);
        if let Some(p) = self.lock().find(key, desc) {
            return Arc::clone(p);
        }
        // printed without the lock (the other threads go on meanwhile)
        let mut p = spare.pop().unwrap_or_default();
        p.n_type = n_type;
        p.desc.clear();
        p.desc.extend_from_slice(desc);
        p.block.clear();
        p.decodes = OnceLock::new();
        if n_type == NT_AMDGPU_METADATA {
            // known from the printing
            let _ = p
                .decodes
                .set(write_amdgpu_metadata_block(desc, &mut p.block));
        } else {
            write_readelf_block(n_type, desc, &mut p.block);
        }
        let p = Arc::new(p);
        let dropped = {
            let mut ring = self.lock();
            if let Some(q) = ring.find(key, desc) {
                // another thread printed it meanwhile: its entry is kept
                let q = Arc::clone(q);
                drop(ring);
                if let Ok(p) = Arc::try_unwrap(p) {
                    spare.push(p);
                }
                return q;
            }
            if ring.entries.len() < RECENT {
                ring.entries.push(Arc::clone(&p));
                ring.keys.push(key);
                None
            } else {
                let i = ring.oldest;
                ring.oldest = (i + 1) % RECENT;
                ring.keys[i] = key;
                Some(std::mem::replace(&mut ring.entries[i], Arc::clone(&p)))
            }
        };
        // (an output may still hold it: then its buffers are left to it)
        if let Some(Ok(old)) = dropped.map(Arc::try_unwrap) {
            spare.push(old);
        }
        p
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
        recent: &Recent,
        out: &mut Output,
    ) -> Result<(), Option<crate::aligned::AlignedBuf>> {
        let spare = &mut self.spare;
        self.files.with_file(path, |data| {
            blocks(data, recent, spare, path, with_headers, out)
        })
    }
}

/// [`Worker::file_blocks`] of the file's bytes `data`.
fn blocks(
    data: &[u8],
    recent: &Recent,
    spare: &mut Vec<Printed>,
    path: &Path,
    with_headers: bool,
    out: &mut Output,
) -> Option<()> {
    let objects = code_objects(data).ok()?;
    if objects.len() != 1 || objects[0].container != ContainerKind::Plain {
        return None;
    }
    let co = CodeObject::parse(data).ok()?;
    symbols_readable(&co)?;
    if with_headers {
        // as `path.display()` shows it (invalid UTF-8 replaced the same way)
        out.text.extend_from_slice(b"==> ");
        out.text
            .extend_from_slice(path.to_string_lossy().as_bytes());
        out.text.extend_from_slice(b" <==\n");
    }
    let mut first = true;
    for note in co.elf.notes() {
        let note = note.ok()?;
        if (note.kind().owner, note.n_type) == (NoteOwner::Amd, NT_AMD_PAL_METADATA) {
            // (rare: old PAL objects; the general path prints them)
            return None;
        }
        let is_metadata = matches!(
            (note.kind().owner, note.n_type),
            (NoteOwner::Amdgpu, NT_AMDGPU_METADATA) | (NoteOwner::Amd, NT_AMD_HSA_METADATA)
        );
        if !is_metadata {
            continue;
        }
        if note.desc.len() >= OWN_BLOCK {
            // printed into the text, whose buffer is reused from chunk to chunk
            let decodes = if note.n_type == NT_AMDGPU_METADATA {
                write_amdgpu_metadata_block(note.desc, &mut out.text)
            } else {
                write_readelf_block(note.n_type, note.desc, &mut out.text);
                !first || CodeObjectMetadata::from_v2_yaml(note.desc).is_ok()
            };
            if first && !decodes {
                return None;
            }
            first = false;
            continue;
        }
        let printed = recent.get(note.n_type, note.desc, spare);
        // the general path decodes the first metadata note and reports failure
        let refused = first && !printed.decodes();
        first = false;
        out.blocks.push((out.text.len(), printed));
        if refused {
            return None;
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

    /// Notes in an order that revisits them in several ways: more distinct notes
    /// than the ring holds, so that hits, misses and reused entries all happen.
    fn order() -> Vec<u8> {
        (0..100)
            .chain((0..100).rev())
            .chain((0..100u16).map(|i| ((i * 7) % 100) as u8))
            .collect()
    }

    /// Checks that `recent` gives note `i` as a fresh print would; returns the entry.
    fn check(recent: &Recent, spare: &mut Vec<Printed>, i: u8) -> Arc<Printed> {
        let desc = note(i);
        let mut fresh = Vec::new();
        let decodes = write_amdgpu_metadata_block(&desc, &mut fresh);
        let p = recent.get(NT_AMDGPU_METADATA, &desc, spare);
        assert_eq!(p.block, fresh, "note {i}");
        assert_eq!(p.decodes(), decodes);
        assert!(String::from_utf8_lossy(&p.block).contains(&format!("- {}", i & 0x7f)));
        p
    }

    #[test]
    fn recent_notes_print_as_a_fresh_print() {
        let recent = Recent::default();
        let mut spare = Vec::new();
        let (mut hits, mut reused) = (0, 0);
        // the entries of the last few notes are held (as outputs not yet written
        // hold them), so that dropped entries are reused or left alone
        let mut held = std::collections::VecDeque::new();
        for i in order() {
            let desc = note(i);
            let key = Key::of(NT_AMDGPU_METADATA, &desc);
            let hit = recent.lock().find(key, &desc).is_some();
            hits += usize::from(hit);
            reused += usize::from(!hit && !spare.is_empty());
            held.push_back((i, check(&recent, &mut spare, i)));
            if held.len() > 70 {
                held.pop_front();
            }
        }
        assert!(recent.lock().entries.len() == RECENT);
        assert!(hits > 0 && hits < 300, "{hits} hits");
        assert!(reused > 0, "no buffers reused");
        // what outputs held was not overwritten by the reuse
        for (i, p) in held {
            let mut fresh = Vec::new();
            write_amdgpu_metadata_block(&note(i), &mut fresh);
            assert_eq!(p.block, fresh, "held note {i}");
        }
    }

    #[test]
    fn recent_notes_shared_by_threads_print_as_a_fresh_print() {
        let recent = Recent::default();
        std::thread::scope(|s| {
            for t in 0..3u16 {
                let recent = &recent;
                s.spawn(move || {
                    let mut spare = Vec::new();
                    for i in order()
                        .into_iter()
                        .cycle()
                        .skip(usize::from(t) * 37)
                        .take(600)
                    {
                        drop(check(recent, &mut spare, i));
                    }
                });
            }
        });
    }

    // `relaid`, shared with tests/read_fast_path.rs
    include!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/relaid.rs"
    ));

    /// The text of one file through `worker` (its reader poisoned), or `None` if
    /// the fast path refused it.
    fn through(worker: &mut Worker, recent: &Recent, path: &Path) -> Option<Vec<u8>> {
        let mut out = Output::default();
        worker.file_blocks(path, true, recent, &mut out).ok()?;
        let mut text = Vec::new();
        write_output(&mut text, &out).unwrap();
        Some(text)
    }

    /// The same from the whole file's bytes.
    fn from_bytes(data: &[u8], path: &Path) -> Option<Vec<u8>> {
        let mut out = Output::default();
        blocks(
            data,
            &Recent::default(),
            &mut Vec::new(),
            path,
            true,
            &mut out,
        )?;
        let mut text = Vec::new();
        write_output(&mut text, &out).unwrap();
        Some(text)
    }

    /// Large code objects are read in parts (`files::Reader::read_parts`); the bytes
    /// left unread are poisoned, so that output depending on one of them would differ
    /// from the output of the whole file. Clean objects must take that path; damaged
    /// ones may be refused (then the whole file is read), never printed otherwise.
    #[cfg(unix)]
    #[test]
    fn objects_read_in_parts_print_as_read_whole() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = std::env::temp_dir().join(format!("hsaco-parts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut seeds = Vec::new();
        for d in [
            "tests/cli/data",
            "crates/hsaco-elf/tests/data/elf",
            "src/cmd/demo_data",
        ] {
            for e in std::fs::read_dir(root.join(d)).unwrap().flatten() {
                // (subdirectories such as data/r600 are skipped)
                let Ok(data) = std::fs::read(e.path()) else {
                    continue;
                };
                if data.len() > 64 && data[18] == 224 && data[19] == 0 {
                    for (gap, spread) in [(20 << 10, false), (3 << 10, true), (20 << 10, true)] {
                        seeds.extend(relaid(&data, gap, spread));
                    }
                }
            }
        }
        assert!(seeds.len() >= 10, "{} seeds", seeds.len());
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut printed, mut parts, mut clean) = (0, 0, 0);
        for poison in [0x00, 0xa5, 0xff] {
            let mut worker = Worker::default();
            worker.files.poison = Some(poison);
            let recent = Recent::default();
            for i in 0..3 * seeds.len() {
                let mut data = seeds[i % seeds.len()].clone();
                if i >= seeds.len() {
                    // damage the headers, the section headers or anything
                    for _ in 0..1 + next() % 3 {
                        let at = match next() % 3 {
                            0 => (next() % 64) as usize,
                            1 => data.len() - 1 - (next() % 1024) as usize,
                            _ => (next() % data.len() as u64) as usize,
                        };
                        data[at] ^= 1 << (next() % 8);
                    }
                }
                let path = dir.join(format!("p{i}.co"));
                std::fs::write(&path, &data).unwrap();
                let before = worker.files.parts_read;
                let got = through(&mut worker, &recent, &path);
                let read_in_parts = worker.files.parts_read > before;
                parts += usize::from(read_in_parts);
                let whole = from_bytes(&data, &path);
                let note_sections = CodeObject::parse(&data)
                    .is_ok_and(|co| co.elf.sections().flatten().any(|s| s.sh_type.0 == 7));
                if i < seeds.len() && whole.is_some() && note_sections {
                    // an object the fast path prints, with its notes in sections
                    clean += 1;
                    assert!(read_in_parts && got.is_some(), "seed {i} not read in parts");
                }
                if let Some(got) = got {
                    printed += 1;
                    assert_eq!(Some(got), whole, "file {i}, poison {poison:#x}");
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            clean > 0 && parts > clean && printed > clean,
            "{clean} {parts} {printed}"
        );
    }
}
