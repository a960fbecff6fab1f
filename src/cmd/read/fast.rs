//! `hsaco read --metadata`, fast: files shared among threads in chunks, each file
//! read into a reused buffer, or mapped when large ([`super::files`]), and only its
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
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};

/// Files per unit of work handed to a thread.
const CHUNK: usize = 16;
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
    let chunks = files.len().div_ceil(CHUNK);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(chunks)
        .clamp(1, MAX_THREADS);
    let next = AtomicUsize::new(0);
    let sink = Sink::default();
    let cache = Cache::default();
    let work = || {
        let mut worker = Worker::default();
        loop {
            let c = next.fetch_add(1, Relaxed);
            let Some(chunk) = files.get(c * CHUNK..) else {
                break;
            };
            let mut out = sink.buffer();
            for path in &chunk[..chunk.len().min(CHUNK)] {
                let start = out.text.len();
                if worker
                    .file_blocks(&cache, path, with_headers, &mut out.text)
                    .is_none()
                {
                    out.text.truncate(start);
                    out.failed |= general(opts, path, with_headers, &mut out);
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

/// One file reported by the general path's code, into `out`; returns whether it
/// found an error.
fn general(opts: &Opts, path: &Path, headers: bool, out: &mut Output) -> bool {
    let name = path.display().to_string();
    let data = crate::input::read_input(path);
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
    /// The last metadata note printed: an object file and the code object linked from
    /// it usually hold the same metadata, and their names sort together.
    last: Option<Arc<Printed>>,
}

/// A metadata note's descriptor and its printed block.
struct Printed {
    n_type: u32,
    desc: Box<[u8]>,
    block: Vec<u8>,
    /// Whether it decodes (see [`blocks`]), once asked.
    decodes: OnceLock<bool>,
}

impl Printed {
    fn is(&self, n_type: u32, desc: &[u8]) -> bool {
        self.n_type == n_type && *self.desc == *desc
    }
}

/// The blocks printed so far, shared by the threads: the corpus of one program built
/// for many processors and code object versions holds far fewer distinct metadata
/// notes than files (859 in 3350 in the shared corpus). Holds at most
/// [`CACHE_BYTES`] of descriptors and text; past that, notes are printed each time.
#[derive(Default)]
struct Cache {
    map: Mutex<CacheMap>,
}

#[derive(Default)]
struct CacheMap {
    by_hash: HashMap<u64, Vec<Arc<Printed>>>,
    bytes: usize,
}

/// The most bytes of descriptors and printed text [`Cache`] keeps.
const CACHE_BYTES: usize = 32 << 20;

impl Cache {
    fn lock(&self) -> std::sync::MutexGuard<'_, CacheMap> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, hash: u64, n_type: u32, desc: &[u8]) -> Option<Arc<Printed>> {
        let map = self.lock();
        map.by_hash
            .get(&hash)?
            .iter()
            .find(|p| p.is(n_type, desc))
            .cloned()
    }

    fn insert(&self, hash: u64, printed: &Arc<Printed>) {
        let mut map = self.lock();
        let size = printed.desc.len() + printed.block.len();
        if map.bytes + size <= CACHE_BYTES {
            map.bytes += size;
            map.by_hash.entry(hash).or_default().push(printed.clone());
        }
    }
}

/// A quick hash of a descriptor (its equality is checked in full on every hit): four
/// independent lanes of 8-byte words, so that the multiplications overlap.
fn hash(desc: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
    let mut lanes = [desc.len() as u64, 1, 2, 3];
    let mut blocks = desc.chunks_exact(32);
    for b in &mut blocks {
        for (i, lane) in lanes.iter_mut().enumerate() {
            *lane = (*lane ^ word(&b[i * 8..i * 8 + 8]))
                .wrapping_mul(K)
                .rotate_left(29);
        }
    }
    let mut h = lanes
        .iter()
        .fold(0u64, |h, &l| (h ^ l).wrapping_mul(K).rotate_left(31));
    for &b in blocks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K);
    }
    h
}

impl Worker {
    /// Appends the output for one file to `out`: its header line when there are
    /// several files, then the block of every metadata note. `None` if the general
    /// path must handle the file (`out` may then hold part of the file's text).
    fn file_blocks(
        &mut self,
        cache: &Cache,
        path: &Path,
        with_headers: bool,
        out: &mut Vec<u8>,
    ) -> Option<()> {
        let last = &mut self.last;
        self.files.with_file(path, |data| {
            blocks(data, cache, last, path, with_headers, out)
        })?
    }
}

/// [`Worker::file_blocks`] of the file's bytes `data`.
fn blocks(
    data: &[u8],
    cache: &Cache,
    last: &mut Option<Arc<Printed>>,
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
        let printed = match last.as_ref() {
            Some(p) if p.is(note.n_type, note.desc) => p.clone(),
            _ => {
                let h = hash(note.desc);
                let p = match cache.get(h, note.n_type, note.desc) {
                    Some(p) => p,
                    None => {
                        let p = Arc::new(print(note.n_type, note.desc));
                        cache.insert(h, &p);
                        p
                    }
                };
                *last = Some(p.clone());
                p
            }
        };
        out.extend_from_slice(&printed.block);
        if first {
            // the general path decodes the first metadata note and reports failure
            first = false;
            let decodes = *printed.decodes.get_or_init(|| {
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

/// The block of one metadata note.
fn print(n_type: u32, desc: &[u8]) -> Printed {
    let mut block = Vec::new();
    let decodes = OnceLock::new();
    if n_type == NT_AMDGPU_METADATA {
        // known from the printing
        let _ = decodes.set(write_amdgpu_metadata_block(desc, &mut block));
    } else {
        write_readelf_block(n_type, desc, &mut block);
    }
    Printed {
        n_type,
        desc: desc.into(),
        block,
        decodes,
    }
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
