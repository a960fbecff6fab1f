//! Disassembly listings in the form `llvm-objdump -d` prints them: a file line, one
//! `Disassembly of section NAME:` block per executable section, `<symbol>:` labels,
//! instruction lines with `// ADDRESS: WORDS` comments and branch targets as
//! `<sym+0x..>`. Words that do not decode are printed as `.long 0x...` (a trailing
//! piece shorter than a word as `.byte`), never an error.
//!
//! ```
//! use hsaco_isa::{listing, Decoder};
//! let dec = Decoder::for_processor("gfx906").unwrap();
//! // s_nop 0; s_branch -2 (to itself); s_endpgm
//! let code = [0x00, 0x00, 0x80, 0xbf, 0xfe, 0xff, 0x82, 0xbf, 0x00, 0x00, 0x81, 0xbf];
//! let labels = [listing::Label { address: 0x100, name: "main", kind: 2 }];
//! let mut out = Vec::new();
//! listing::write_code(&mut out, dec, &code, 0x100, &labels, &listing::Options::default())
//!     .unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\ts_branch 65534 "));
//! assert!(text.contains("// 000000000104: BF82FFFE <main>\n"));
//! ```

use crate::{DecodeError, Decoder, Instruction, Operand};
use hsaco_elf::elf::Elf;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{fence, AtomicI32, AtomicU32, AtomicU64, AtomicU8};
use std::sync::{Condvar, Mutex, OnceLock};

/// `st_type` of a symbol without a type (`STT_NOTYPE`).
const STT_NOTYPE: u8 = 0;
/// `st_type` of a section symbol (`STT_SECTION`).
const STT_SECTION: u8 = 3;
/// `st_type` of a file symbol (`STT_FILE`).
const STT_FILE: u8 = 4;
/// `st_type` of a code object v1/v2 kernel symbol (`STT_AMDGPU_HSA_KERNEL`): a
/// 256-byte `amd_kernel_code_t` is at the symbol, the code after it.
const STT_AMDGPU_HSA_KERNEL: u8 = 10;
/// `SHT_NOBITS`.
const SHT_NOBITS: u32 = 8;
/// `SHF_EXECINSTR`.
const SHF_EXECINSTR: u64 = 0x4;

/// Listing options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Print the `// ADDRESS: WORDS` comment (llvm-objdump always does for amdgcn).
    pub show_raw_insn: bool,
    /// Threads that list a large section in pieces (0: as many as there are cores, at
    /// most 8). The output does not depend on it.
    pub threads: usize,
    /// As llvm-objdump `--symbolize-operands`: every branch target of the section gets
    /// a label `L0`, `L1`, ... (numbered in address order over the section), the
    /// branch shows it instead of its offset and target annotation, and its line
    /// `<Ln>:` heads the code at the target (unless a symbol labels that address).
    pub symbolize_operands: bool,
    /// As llvm-objdump `-C`: rewrites each symbol name for the `<symbol>:` labels and
    /// branch annotations (a C++ demangler; `None` for a name it leaves as it is).
    /// Which of several symbols at one address is shown is decided on the names
    /// as they are in the symbol table.
    pub demangle: Option<fn(&str) -> Option<String>>,
    /// Write assembler source instead of llvm-objdump's listing: each executable
    /// section as `.section`/`.p2align` and its instructions as text that `hsaco as`
    /// assembles back to the same bytes (see [`write_source`]).
    pub source: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            show_raw_insn: true,
            threads: 0,
            symbolize_operands: false,
            demangle: None,
            source: false,
        }
    }
}

/// A symbol that labels code: its address, name and ELF `st_type` (`STT_FUNC` = 2,
/// `STT_NOTYPE` = 0, ...; the type decides which of several symbols at one address is
/// shown, as llvm-objdump does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label<'a> {
    /// Address.
    pub address: u64,
    /// Name.
    pub name: &'a str,
    /// ELF symbol type.
    pub kind: u8,
}

/// The processor an `e_flags` value names (its `EF_AMDGPU_MACH_*` byte), if known.
pub fn processor_from_e_flags(e_flags: u32) -> Option<&'static str> {
    hsaco_target::Processor::by_mach(e_flags & 0xff).map(|p| p.name)
}

/// Why an ELF file could not be listed.
#[derive(Debug)]
pub enum ListingError {
    /// The ELF file is malformed.
    Elf(hsaco_elf::Error),
    /// Writing the output failed.
    Io(io::Error),
}

impl std::fmt::Display for ListingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListingError::Elf(e) => e.fmt(f),
            ListingError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ListingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ListingError::Elf(e) => Some(e),
            ListingError::Io(e) => Some(e),
        }
    }
}

impl From<hsaco_elf::Error> for ListingError {
    fn from(e: hsaco_elf::Error) -> Self {
        ListingError::Elf(e)
    }
}

impl From<io::Error> for ListingError {
    fn from(e: io::Error) -> Self {
        ListingError::Io(e)
    }
}

/// Write the listing of every executable section of `elf` (after the file line
/// `NAME:\tfile format elf64-amdgpu`, preceded by an empty line, as llvm-objdump).
///
/// A part that cannot be read (a symbol, an executable section's bytes or header)
/// does not stop the listing: the rest is written (without that symbol's label, or
/// that section), then the first such error is returned.
pub fn write_elf(
    out: &mut dyn Write,
    name: &str,
    elf: &Elf<'_>,
    decoder: Decoder,
    options: &Options,
) -> Result<(), ListingError> {
    if options.source {
        writeln!(
            out,
            "; {name}: {}, re-assembly listing (hsaco as --mcpu={} gives the same code bytes)",
            decoder.processor(),
            decoder.processor()
        )?;
    } else {
        writeln!(out, "\n{name}:\tfile format elf64-amdgpu")?;
    }
    let mut first_error: Option<hsaco_elf::Error> = None;
    let symtab = elf
        .symtab()
        .and_then(|t| match t {
            Some(t) if !t.is_empty() => Ok(Some(t)),
            _ => elf.dynsym(),
        })
        .unwrap_or_else(|e| {
            first_error.get_or_insert(e);
            None
        });
    // (names borrowed from the string table unless they are not UTF-8)
    let mut names: Vec<(u64, std::borrow::Cow<'_, str>, u8, usize)> = Vec::new();
    // (only the symbols of the sections listed: their names are looked up)
    let mut listed = Vec::new();
    for s in elf.sections().flatten() {
        if s.flags & SHF_EXECINSTR != 0 && s.sh_type.0 != SHT_NOBITS {
            if listed.len() <= s.index {
                listed.resize(s.index + 1, false);
            }
            listed[s.index] = true;
        }
    }
    let wanted = move |info: u8, shndx: u16| {
        let kind = info & 0xf;
        kind != STT_SECTION
            && kind != STT_FILE
            && listed.get(usize::from(shndx)).copied().unwrap_or(false)
    };
    if let Some(t) = &symtab {
        for s in t.iter_where(wanted) {
            let s = match s {
                Ok(s) => s,
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            let kind = s.info & 0xf;
            if kind == STT_SECTION || kind == STT_FILE || s.name.is_empty() {
                continue;
            }
            if let Some(sec) = s.section_index() {
                names.push((s.value, s.name_str(), kind, sec));
            }
        }
    }
    // in a relocatable file a symbol's value is an offset in its section, whose
    // address (nonzero in the finalizer's code object v1) llvm-objdump adds
    let relocatable = elf.e_type().0 == hsaco_elf::elf::consts::ET_REL;
    for section in elf.sections() {
        let section = match section {
            Ok(s) => s,
            Err(e) => {
                first_error.get_or_insert(e);
                continue;
            }
        };
        if section.flags & SHF_EXECINSTR == 0 || section.sh_type.0 == SHT_NOBITS {
            continue;
        }
        let bytes = match section.data() {
            Ok(b) => b,
            Err(e) => {
                first_error.get_or_insert(e);
                continue;
            }
        };
        let sname = section.name_str();
        // (an empty code section, such as `.text` of -ffunction-sections code, is left
        // out, as llvm-objdump-22 does)
        if bytes.is_empty() && !options.source {
            continue;
        }
        if !options.source {
            writeln!(out, "\nDisassembly of section {sname}:")?;
        }
        let base = if relocatable { section.addr } else { 0 };
        let mut labels: Vec<Label<'_>> = names
            .iter()
            .filter(|n| n.3 == section.index)
            .map(|n| Label {
                address: n.0.wrapping_add(base),
                name: &n.1,
                kind: n.2,
            })
            .collect();
        if options.source {
            labels.sort_by_key(|l| l.address);
            write_source(
                out,
                decoder,
                &sname,
                section.addralign,
                bytes,
                section.addr,
                &labels,
            )?;
            continue;
        }
        write_section(
            out,
            decoder,
            bytes,
            section.addr,
            &sname,
            &mut labels,
            options,
            CHUNK_BYTES,
        )?;
    }
    match first_error {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// Write one code section as assembler source that `hsaco as` turns back into the same
/// bytes: `.section NAME,"ax",@progbits`, its alignment, the symbols of `labels`
/// (sorted by address) as comment lines, and every instruction as the text the printer
/// writes. Each instruction's text is assembled again here; when that does not give
/// its bytes (gfx1250 64-bit literals whose value a 32-bit literal also holds: the text
/// is the same as llvm-objdump's, which does not say `lit64`), and for words that do
/// not decode, the words are written as `.long` with the text as a comment. Every word
/// of the section is kept.
pub fn write_source(
    out: &mut dyn Write,
    decoder: Decoder,
    section: &str,
    align: u64,
    bytes: &[u8],
    address: u64,
    labels: &[Label<'_>],
) -> io::Result<()> {
    let asm = crate::asm::Assembler::for_decoder(decoder);
    writeln!(out, "\t.section\t{section},\"ax\",@progbits")?;
    if align > 1 && align.is_power_of_two() {
        writeln!(out, "\t.p2align\t{}", align.trailing_zeros())?;
    }
    let mut text = String::new();
    let mut again = Vec::with_capacity(16);
    let mut next_label = 0;
    let mut at = 0usize;
    let words = |out: &mut dyn Write, b: &[u8]| -> io::Result<()> {
        let w: Vec<String> = b
            .chunks(4)
            .map(|c| {
                let mut x = [0u8; 4];
                x[..c.len()].copy_from_slice(c);
                format!("{:#010x}", u32::from_le_bytes(x))
            })
            .collect();
        write!(out, "\t.long\t{}", w.join(", "))
    };
    while at < bytes.len() {
        let pc = address + at as u64;
        while let Some(l) = labels.get(next_label).filter(|l| l.address <= pc) {
            if l.address == pc {
                writeln!(out, "; {}:", l.name)?;
            }
            next_label += 1;
        }
        let rest = &bytes[at..];
        match decoder.decode(rest) {
            Ok(inst) => {
                let size = usize::from(inst.size).min(rest.len());
                if source_text(&asm, &inst, &rest[..size], pc, &mut text, &mut again) {
                    writeln!(out, "\t{text}")?;
                } else {
                    words(out, &rest[..size])?;
                    writeln!(out, "\t; {text}")?;
                }
                at += size;
            }
            Err(crate::DecodeError::Invalid) if rest.len() >= 4 => {
                words(out, &rest[..4])?;
                writeln!(out)?;
                at += 4;
            }
            Err(_) => {
                let b: Vec<String> = rest.iter().map(|b| format!("{b:#04x}")).collect();
                writeln!(out, "\t.byte\t{}", b.join(", "))?;
                at = bytes.len();
            }
        }
    }
    Ok(())
}

/// The text of `inst` (whose bytes are `bytes`, at `pc`) that `asm` assembles back to
/// `bytes`, in `text`: the printer's, or for a gfx1250 64-bit literal whose value a
/// 32-bit literal also holds, the same with the literal written `lit64(..)` (the
/// printer writes what llvm-objdump writes, which does not say it). False when neither
/// comes back (`text` then holds the printer's text). `scratch` is a reused buffer.
pub fn source_text(
    asm: &crate::asm::Assembler,
    inst: &crate::Instruction,
    bytes: &[u8],
    pc: u64,
    text: &mut String,
    scratch: &mut Vec<u8>,
) -> bool {
    let dec = asm.decoder();
    text.clear();
    crate::print::print(dec, inst, text);
    let mut comes_back = |t: &str| {
        scratch.clear();
        asm.encode(t, pc, &mut crate::asm::NoSymbols, scratch)
            .is_ok()
            && scratch == bytes
    };
    if comes_back(text) {
        return true;
    }
    if inst.operands.contains(&crate::Operand::Literal64) {
        let value = inst.literal64();
        let plain = format!("{value:#x}");
        if let Some(at) = text.rfind(&plain) {
            let wide = format!("{}lit64({plain}){}", &text[..at], &text[at + plain.len()..]);
            if comes_back(&wide) {
                *text = wide;
                return true;
            }
        }
    }
    false
}

/// Write the listing of one code section at `address` whose symbols are `labels` (in
/// any order): a `<symbol>:` line at each symbol, the section name at the start if no
/// symbol is there.
pub fn write_code(
    out: &mut dyn Write,
    decoder: Decoder,
    bytes: &[u8],
    address: u64,
    labels: &[Label<'_>],
    options: &Options,
) -> io::Result<()> {
    let mut labels = labels.to_vec();
    write_section(
        out,
        decoder,
        bytes,
        address,
        ".text",
        &mut labels,
        options,
        CHUNK_BYTES,
    )
}

// (private; `chunk` is a parameter only so a test can cut tiny pieces)
#[allow(clippy::too_many_arguments)]
fn write_section<'a>(
    out: &mut dyn Write,
    decoder: Decoder,
    bytes: &[u8],
    address: u64,
    section_name: &'a str,
    labels: &mut Vec<Label<'a>>,
    options: &Options,
    chunk: usize,
) -> io::Result<()> {
    // The section start is labelled by its name unless a symbol is there; sorted by
    // (address, type, name), the last symbol at an address is the one shown.
    let end = address.saturating_add(bytes.len() as u64);
    labels.retain(|l| l.address >= address && l.address < end);
    let placeholder = Label {
        address,
        name: section_name,
        kind: STT_NOTYPE,
    };
    labels.push(placeholder);
    labels.sort_by(|a, b| {
        let pa = *a != placeholder;
        let pb = *b != placeholder;
        (a.address, pa, a.kind, a.name).cmp(&(b.address, pb, b.kind, b.name))
    });
    labels.dedup();
    // -C: the names shown; which label is shown was decided above on the symbol
    // table's names, as llvm-objdump does.
    let demangled: Vec<Option<String>> = match options.demangle {
        Some(d) => labels
            .iter()
            .map(|l| if *l == placeholder { None } else { d(l.name) })
            .collect(),
        None => Vec::new(),
    };
    let renamed: Vec<Label<'_>>;
    let labels: &[Label<'_>] = if demangled.iter().any(Option::is_some) {
        renamed = labels
            .iter()
            .zip(&demangled)
            .map(|(l, d)| Label {
                name: d.as_deref().unwrap_or(l.name),
                ..*l
            })
            .collect();
        &renamed
    } else {
        labels
    };
    // The shown labels and the code each one heads (decoding restarts at each).
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < labels.len() {
        // The last label at this address.
        let mut j = i;
        while j + 1 < labels.len() && labels[j + 1].address == labels[i].address {
            j += 1;
        }
        let label = labels[j];
        let next = labels.get(j + 1).map_or(end, |l| l.address.min(end));
        i = j + 1;
        if label.address >= end {
            break;
        }
        blocks.push(Block {
            label,
            start: (label.address - address) as usize,
            stop: (next - address) as usize,
        });
    }
    let mut section = Section {
        decoder,
        bytes,
        labels,
        options,
        targets: Vec::new(),
        memo: options.show_raw_insn && !NO_MEMO.with(|m| m.get()),
    };
    if options.symbolize_operands {
        section.targets = section.branch_targets(&blocks);
    }
    section.write(out, &blocks, chunk)
}

thread_local! {
    /// Tests list without the memo to compare.
    static NO_MEMO: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Code bytes a thread lists in one piece (about 18 times as many bytes of text). Each
/// piece in flight has its own buffer, faulted in on first use: 8 KiB instead of 16
/// took a fifth of the page faults and ~5-10% of the CPU time of `dis` on library
/// objects of 1.6-4.5 MB (two threads).
const CHUNK_BYTES: usize = 8 << 10;

/// The pieces of a section being listed by several threads.
struct Pieces {
    /// The first piece no thread has taken.
    next: usize,
    /// The first piece not yet written.
    written: usize,
    /// Listed pieces waiting to be written.
    ready: Vec<Option<Vec<u8>>>,
    /// Written buffers, for reuse.
    free: Vec<Vec<u8>>,
    /// Writing failed: take no more pieces.
    stop: bool,
    /// A listing thread panicked: its piece will never be ready.
    failed: bool,
}

/// Memos and piece buffers of finished listings, for the next ones: their pages stay
/// mapped and written to, where new ones would be mapped and zeroed again (a fresh page
/// costs ~1.4 us on this project's VM; a memo has 160 of them) and unmapped at the end
/// (which, with a second thread alive, also stops the other CPU to flush its TLB). A
/// process listing many objects reuses them object after object. At most
/// [`SPARE_MEMOS`] memos (up to 640 KB each) and [`SPARE_BUFFERS`] buffers are kept, for
/// the life of the process.
static SPARE: Mutex<Spare> = Mutex::new(Spare {
    memos: Vec::new(),
    buffers: Vec::new(),
});

/// One per listing thread, as `write` starts at most 8.
const SPARE_MEMOS: usize = 8;
/// As many as `write`'s window of pieces holds with 8 threads.
const SPARE_BUFFERS: usize = 16;

struct Spare {
    memos: Vec<Memo>,
    buffers: Vec<Vec<u8>>,
}

impl Spare {
    fn lock() -> std::sync::MutexGuard<'static, Spare> {
        SPARE.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Up to `n` spare buffers.
    fn buffers(n: usize) -> Vec<Vec<u8>> {
        let mut s = Self::lock();
        let keep = s.buffers.len().saturating_sub(n);
        s.buffers.split_off(keep)
    }

    /// Keep `memo` and `buffers` for later listings (as many as there is room for).
    fn give_back(memo: Option<Memo>, buffers: Vec<Vec<u8>>) {
        let mut s = Self::lock();
        if let Some(m) = memo.filter(Memo::used) {
            if s.memos.len() < SPARE_MEMOS {
                s.memos.push(m);
            }
        }
        for b in buffers {
            if s.buffers.len() < SPARE_BUFFERS && b.capacity() > 0 {
                s.buffers.push(b);
            }
        }
    }
}

/// Marks the pieces failed and stopped if the thread holding it panics, so neither the
/// writer nor the other threads wait forever for that thread.
struct PanicGuard<'a> {
    shared: &'a Mutex<Pieces>,
    changed: &'a Condvar,
}

impl Drop for PanicGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut s = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            s.failed = true;
            s.stop = true;
            drop(s);
            self.changed.notify_all();
        }
    }
}

/// Lines of instructions listed before, by the instructions' bytes: real code repeats
/// instructions (the same `s_waitcnt`, moves and loads), and the same bytes decode and
/// print the same, so a repeated instruction is neither decoded nor printed again and
/// only its address is written. Sets of 4 entries: a one-word instruction's by its
/// word, a longer one's by its first two words (by the first word alone, the many
/// instructions that share it with other second words, VOP3 forms and loads with other
/// registers or offsets, fell in one set and pushed each other out). A branch is kept
/// with its target's distance from it, and its `<label+0x..>` annotation is looked up
/// anew at each address (not when its text names the target: see [`list_code`]).
///
/// A lookup reads the set's first cache line (sequence number, order, sizes, branch
/// distances and the first 8 bytes of each entry's instruction), then, on a hit, the
/// entry's line (its text and the instruction's bytes 8 to 16): two cache lines. The
/// words after the address are written from the instruction's own bytes, not kept.
/// With 112-byte lines that kept the padding and the words, and the sets' fields in
/// the order Rust chose, a hit read four cache lines and the memo of 8,192 entries took
/// a megabyte, most of it paged in (~1.4 us a page on this project's VM).
///
/// One memo serves all the threads of a listing: with one each, every thread decoded
/// and printed the instructions the others had already (a library object of 43,625
/// instruction lines has 4,582 distinct encodings; with two threads 7,300 lines were
/// decoded instead of ~4,600, and each costs ~2,200 instructions against ~170 for a
/// kept line). Each set is guarded by a sequence number (a seqlock, in atomics): a
/// writer makes it odd while it writes (or leaves the set alone if another thread is
/// writing it), a reader copies the entry and keeps it only if the number was even and
/// unchanged. The sets are made in groups when first written to, so the pages of sets
/// never used are never touched.
///
/// [`list_code`]: Section::list_code
struct Memo {
    /// Groups of [`MEMO_GROUP`] sets, `1 << bits` sets in all.
    groups: Box<[OnceLock<Box<[Set]>>]>,
    bits: u32,
}

/// The entries of one set of the memo: a cache line of what lookups read, then the
/// entries' lines.
#[derive(Default)]
#[repr(C, align(64))]
struct Set {
    /// Even while the entries are as written, odd while a thread writes them.
    seq: AtomicU32,
    /// The entries from the most recently used to the least (2 bits each, the most
    /// recent lowest), XORed with [`MEMO_ORDER`] so that a zeroed byte is the order
    /// 0, 1, 2, 3. The least recently used entry is replaced: common instructions
    /// stay (with the entries replaced in turn instead, a set's `s_waitcnt` or
    /// `s_load_dwordx2` went out every fourth new entry; 8% fewer misses on a library
    /// object of 44,000 lines, one thread). Readers move the entry they found to the
    /// front too, without the sequence number: an order that a race spoils only
    /// picks a worse entry to replace, never a wrong line.
    order: AtomicU8,
    /// The entries' instruction sizes (0: empty entry), with [`MEMO_BRANCH`] for a
    /// branch.
    sizes: [AtomicU8; MEMO_WAYS],
    /// A branch's target, less its address.
    distances: [AtomicI32; MEMO_WAYS],
    /// The first 8 bytes of the entries' instructions (little-endian, the rest zero).
    keys: [AtomicU64; MEMO_WAYS],
    /// The entries' lines: bytes 8 to 16 of the instruction (little-endian, the rest
    /// zero), then the line's start, a tab and the text padded with spaces to
    /// [`MEMO_TEXT`] bytes, in little-endian words.
    lines: [[AtomicU64; 1 + MEMO_TEXT / 8]; MEMO_WAYS],
}

// (the first cache line of a set is what a lookup reads)
const _: () = assert!(std::mem::offset_of!(Set, lines) == 64);

/// Entries of the memo of a large listing: 8,192 of them kept 4,863 of a library
/// object's 43,625 instruction lines decoded, where 4,096 left 6,052 (4,582 distinct
/// encodings; one thread).
const MEMO_ENTRIES: usize = 8192;
/// Entries per set.
const MEMO_WAYS: usize = 4;
/// Sets per group (5 KB).
const MEMO_GROUP: usize = 16;
/// Code bytes per entry a memo is made with, for code of fewer than [`MEMO_ENTRIES`]
/// times as many bytes (at least [`MEMO_GROUP`] sets): small objects repeat few
/// instructions, and their hashes spread over a memo of 8,192 entries touched nearly
/// all of its 128 groups (72 page faults, a tenth of the time of `dis` of a 6 KB
/// object).
const MEMO_BYTES_PER_ENTRY: usize = 16;
/// Longest kept text, with its tab (longer ones, a line in a hundred, are listed anew):
/// the line starts with it, spaces to column 60 and `// ` ([`MEMO_GAP`]).
const MEMO_TEXT: usize = 56;
/// After a kept text: the rest of the padding to column 60, and `// `.
const MEMO_GAP: &[u8; 7] = b"    // ";
/// In [`Set::sizes`]: the entry is a branch.
const MEMO_BRANCH: u8 = 0x80;

// (the order of a set's entries is kept in one byte, 2 bits an entry)
const _: () = assert!(MEMO_WAYS == 4);

/// A set's entries in the order 0, 1, 2, 3 (stored as 0: see [`Set::order`]).
const MEMO_ORDER: u8 = 0b11_10_01_00;

/// `order` (as [`Set::order`] holds it, not XORed) with `way` moved to the front.
#[inline]
fn most_recent(order: u8, way: u8) -> u8 {
    let order = u32::from(order);
    let way = u32::from(way) & 3;
    // the position of `way` in `order`
    let mut p = 0;
    while p < 3 && (order >> (2 * p)) & 3 != way {
        p += 1;
    }
    let below = order & ((1 << (2 * p)) - 1);
    let above = order & !((1 << (2 * p + 2)) - 1);
    ((above | below << 2 | way) & 0xff) as u8
}

/// `MASKS[n]`: the low `n` bytes of a `u128`.
const MASKS: [u128; 17] = {
    let mut m = [u128::MAX; 17];
    let mut n = 0;
    while n < 16 {
        m[n] = (1u128 << (8 * n)) - 1;
        n += 1;
    }
    m
};

/// A kept line found in the memo: its set, entry and the set's sequence number then.
struct Kept<'m> {
    set: &'m Set,
    way: usize,
    seq: u32,
    size: u8,
    /// A branch's target, less its address.
    branch: Option<i64>,
    /// The 16 bytes from the instruction's start.
    window: u128,
}

impl Kept<'_> {
    /// Append the line of the instruction found, with address `at`: the kept start,
    /// the address, the instruction's words. False (and nothing appended) if another
    /// thread rewrote the set meanwhile.
    #[inline]
    fn append(&self, buf: &mut Vec<u8>, digits: &mut Digits, at: u64) -> bool {
        let words = &self.set.lines[self.way];
        let mut start = [0u8; MEMO_TEXT + 8];
        for (bytes, word) in start.chunks_exact_mut(8).zip(&words[1..]) {
            bytes.copy_from_slice(&word.load(Relaxed).to_le_bytes());
        }
        // (the copy counts only if no writer came meanwhile)
        fence(Acquire);
        if self.set.seq.load(Relaxed) != self.seq {
            return false;
        }
        start[MEMO_TEXT..MEMO_TEXT + MEMO_GAP.len()].copy_from_slice(MEMO_GAP);
        append_fixed(buf, &start, MEMO_TEXT + MEMO_GAP.len());
        digits.push(buf, at);
        let (words, len) = words_text(self.window, self.size);
        append_fixed(buf, &words, len);
        if self.branch.is_none() {
            buf.push(b'\n');
        }
        true
    }
}

/// `:` and ` WORD` for each word of the first `size` bytes of `window` (at most 4),
/// and the length of that.
#[inline(always)]
fn words_text(window: u128, size: u8) -> ([u8; 40], usize) {
    // (the first two words are written whatever the size: cheaper than a branch)
    let mut t = [b' '; 40];
    t[0] = b':';
    t[2..10].copy_from_slice(&hex8(window as u32));
    t[11..19].copy_from_slice(&hex8((window >> 32) as u32));
    if size > 8 {
        t[20..28].copy_from_slice(&hex8((window >> 64) as u32));
        t[29..37].copy_from_slice(&hex8((window >> 96) as u32));
    }
    (t, 1 + 9 * usize::from(size / 4).min(4))
}

impl Memo {
    /// A memo with no entries for listing `code_len` bytes of code: a spare one
    /// ([`SPARE`]) of as many sets or more, emptied, or a new one.
    fn take(code_len: usize) -> Memo {
        let bits = Self::bits_for(code_len);
        let spare = {
            let mut s = Spare::lock();
            s.memos
                .iter()
                .rposition(|m| m.bits >= bits)
                .map(|i| s.memos.swap_remove(i))
        };
        match spare {
            Some(mut m) => {
                // (an entry of size 0 is empty: no line is read without its size)
                for group in m.groups.iter_mut().filter_map(OnceLock::get_mut) {
                    for set in group.iter_mut() {
                        for size in &mut set.sizes {
                            *size.get_mut() = 0;
                        }
                        *set.order.get_mut() = 0;
                    }
                }
                m
            }
            None => Memo::new(bits),
        }
    }

    /// Bits of the set number of a memo for `code_len` bytes of code.
    fn bits_for(code_len: usize) -> u32 {
        let entries = (code_len / MEMO_BYTES_PER_ENTRY).clamp(MEMO_GROUP * MEMO_WAYS, MEMO_ENTRIES);
        (entries / MEMO_WAYS).next_power_of_two().trailing_zeros()
    }

    /// A new memo of `1 << bits` sets, with no entries (and no sets made).
    fn new(bits: u32) -> Memo {
        let groups = (1usize << bits).div_ceil(MEMO_GROUP);
        Memo {
            groups: (0..groups).map(|_| OnceLock::new()).collect(),
            bits,
        }
    }

    /// Whether an entry was ever kept.
    fn used(&self) -> bool {
        self.groups.iter().any(|g| g.get().is_some())
    }

    /// The 16 bytes at the start of `rest` (None near the end of the code: those
    /// instructions are not kept).
    #[inline]
    fn window(rest: &[u8]) -> Option<u128> {
        rest.first_chunk::<16>().map(|b| u128::from_le_bytes(*b))
    }

    /// The set of an instruction of `size` bytes: by its first word if it has one,
    /// else by its first two.
    #[inline]
    fn set(&self, window: u128, size: u8) -> usize {
        let mut x = if size <= 4 {
            u64::from(window as u32)
        } else {
            window as u64
        };
        x ^= x >> 32;
        let h = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - self.bits)) as usize
    }

    /// The first `size` bytes of a window.
    #[inline]
    fn prefix(window: u128, size: u8) -> u128 {
        window & MASKS[usize::from(size).min(16)]
    }

    /// Set number `set`, if its group was made.
    #[inline]
    fn find(&self, set: usize) -> Option<&Set> {
        self.groups
            .get(set / MEMO_GROUP)?
            .get()?
            .get(set % MEMO_GROUP)
    }

    /// Read the first cache line of the two sets the instruction at the start of
    /// `rest` is looked up in, for the lookup to find them in the cache: called for
    /// the next instruction while this one's line is written, it takes the wait for
    /// memory off the lookups (their first load was a fifth of the listing's time).
    #[inline]
    fn touch(&self, rest: &[u8]) {
        if let Some(w) = Self::window(rest) {
            for set in [self.set(w, 4), self.set(w, 8)] {
                if let Some(s) = self.find(set) {
                    std::hint::black_box(s.seq.load(Relaxed));
                }
            }
        }
    }

    /// The kept line of the instruction at the start of `rest`, if there is one.
    #[inline]
    fn get(&self, rest: &[u8]) -> Option<Kept<'_>> {
        let w = Self::window(rest)?;
        // (entries are whole words: a one-word entry is of 4 bytes, compared as
        // such; a longer one's key is compared with as many bytes of the window)
        self.look(self.set(w, 4), |size| size == 4, w)
            .or_else(|| self.look(self.set(w, 8), |size| size > 4, w))
    }

    /// The entry of set number `set` whose size `sized` accepts and whose bytes
    /// start `window`, if any (moved to the front of the set's order).
    #[inline]
    fn look(&self, set: usize, sized: impl Fn(u8) -> bool, window: u128) -> Option<Kept<'_>> {
        let set = self.find(set)?;
        let seq = set.seq.load(Acquire);
        if seq & 1 != 0 {
            return None;
        }
        let (way, size) = (0..MEMO_WAYS).find_map(|i| {
            let size = set.sizes[i].load(Relaxed);
            let bytes = size & !MEMO_BRANCH;
            if !sized(bytes) {
                return None;
            }
            let key = Self::prefix(window, bytes);
            let hit = set.keys[i].load(Relaxed) == key as u64
                && (bytes <= 8 || set.lines[i][0].load(Relaxed) == (key >> 64) as u64);
            hit.then_some((i, size))
        })?;
        let order = set.order.load(Relaxed) ^ MEMO_ORDER;
        // (nothing to move when the entry is the most recent already)
        if order & 3 != way as u8 {
            set.order
                .store(most_recent(order, way as u8) ^ MEMO_ORDER, Relaxed);
        }
        let branch = (size & MEMO_BRANCH != 0).then(|| i64::from(set.distances[way].load(Relaxed)));
        Some(Kept {
            set,
            way,
            seq,
            size: size & !MEMO_BRANCH,
            branch,
            window,
        })
    }

    /// Keep the line of the instruction of `size` bytes at the start of `rest`, whose
    /// text (with its tab) is `text` and whose words after the address are as
    /// [`words_text`] writes them (for a branch, whose target is `branch` bytes from its
    /// address, before the annotation), in place of the set's least recently used
    /// entry (not if another thread is writing the set). Only instructions of whole
    /// words, of texts of up to [`MEMO_TEXT`] bytes, are kept.
    fn put(&self, rest: &[u8], size: u8, text: &[u8], branch: Option<i64>) {
        let Some(w) = Self::window(rest) else { return };
        if size == 0 || size > 16 || !size.is_multiple_of(4) || text.len() > MEMO_TEXT {
            return;
        }
        let Ok(distance) = i32::try_from(branch.unwrap_or(0)) else {
            return;
        };
        let set = self.set(w, size);
        let Some(group) = self.groups.get(set / MEMO_GROUP) else {
            return;
        };
        let group = group.get_or_init(|| (0..MEMO_GROUP).map(|_| Set::default()).collect());
        let Some(set) = group.get(set % MEMO_GROUP) else {
            return;
        };
        let seq = set.seq.load(Relaxed);
        if seq & 1 != 0
            || set
                .seq
                .compare_exchange(seq, seq + 1, Acquire, Relaxed)
                .is_err()
        {
            return;
        }
        fence(Release);
        let mut line = [b' '; MEMO_TEXT];
        line[..text.len()].copy_from_slice(text);
        // (the least recently used entry is replaced in place: moving the set's
        // lines down one place at each `put` was a twentieth of the listing)
        let order = set.order.load(Relaxed) ^ MEMO_ORDER;
        let i = usize::from(order >> 6);
        set.order
            .store(most_recent(order, i as u8) ^ MEMO_ORDER, Relaxed);
        let key = Self::prefix(w, size);
        let flag = if branch.is_some() { MEMO_BRANCH } else { 0 };
        set.sizes[i].store(size | flag, Relaxed);
        set.distances[i].store(distance, Relaxed);
        set.keys[i].store(key as u64, Relaxed);
        set.lines[i][0].store((key >> 64) as u64, Relaxed);
        for (bytes, word) in line.chunks_exact(8).zip(&set.lines[i][1..]) {
            let mut b = [0u8; 8];
            b.copy_from_slice(bytes);
            word.store(u64::from_le_bytes(b), Relaxed);
        }
        set.seq.store(seq.wrapping_add(2), Release);
    }
}

/// About as many bytes as the lines of `blocks` take (a line of ~95 bytes for an
/// instruction of 4 to 8 bytes: 20 a code byte, and a label line a block), rarely fewer.
fn text_estimate(blocks: &[Block<'_>]) -> usize {
    blocks
        .iter()
        .map(|b| {
            b.stop
                .saturating_sub(b.start)
                .saturating_mul(20)
                .saturating_add(b.label.name.len() + 24)
        })
        .fold(0, usize::saturating_add)
}

/// A shown label and the byte range of the section it heads.
#[derive(Clone, Copy)]
struct Block<'a> {
    label: Label<'a>,
    start: usize,
    stop: usize,
}

/// What the lines of a section are made from.
struct Section<'s, 'a> {
    decoder: Decoder,
    bytes: &'s [u8],
    /// Every label of the section, sorted (branch targets are annotated with them).
    labels: &'s [Label<'a>],
    options: &'s Options,
    /// With `symbolize_operands`: the branch targets of the section, sorted
    /// (`L<index>`).
    targets: Vec<u64>,
    /// Keep repeated instructions' lines (with the `// ADDRESS: WORDS` comment only).
    memo: bool,
}

impl Section<'_, '_> {
    /// The targets of the branches of `blocks`, sorted (as unsigned addresses), each
    /// once. The instructions are found as the listing finds them (decoding restarts
    /// at each label; zero runs are skipped).
    fn branch_targets(&self, blocks: &[Block<'_>]) -> Vec<u64> {
        let mut targets = Vec::new();
        for b in blocks {
            let Some(code) = self.bytes.get(b.start..b.stop) else {
                continue;
            };
            let mut off = 0usize;
            while off < code.len() {
                let rest = &code[off..];
                if rest.len() >= 8 && rest[..8] == [0; 8] {
                    off += rest.iter().take_while(|b| **b == 0).count() & !3;
                    continue;
                }
                let at = b.label.address + off as u64;
                off += match self.decoder.decode(rest) {
                    Ok(inst) if usize::from(inst.size) <= rest.len() => {
                        // (outside the section too, as llvm-objdump numbers them)
                        if let Some(t) = self.decoder.branch_target(&inst, at) {
                            targets.push(t);
                        }
                        usize::from(inst.size)
                    }
                    _ => 4,
                };
            }
        }
        targets.sort_unstable();
        targets.dedup();
        targets
    }

    /// Write the listing of `blocks`: cut into pieces of about `chunk` code bytes at
    /// label boundaries, listed by several threads (each piece into its own buffer) and
    /// written in order, so the output is the same as one thread's and memory stays
    /// bounded by a few pieces whatever the input size.
    fn write(&self, out: &mut dyn Write, blocks: &[Block<'_>], chunk: usize) -> io::Result<()> {
        let mut pieces: Vec<&[Block<'_>]> = Vec::new();
        let mut first = 0;
        let mut size = 0;
        for (k, b) in blocks.iter().enumerate() {
            size += b.stop.saturating_sub(b.start);
            if size >= chunk {
                pieces.push(&blocks[first..=k]);
                first = k + 1;
                size = 0;
            }
        }
        if first < blocks.len() {
            pieces.push(&blocks[first..]);
        }
        // (the CPU count is looked up only for a listing in several pieces)
        let threads = match self.options.threads {
            _ if pieces.len() <= 1 => 1,
            0 => hsaco_par::available().min(8),
            n => n,
        }
        .min(pieces.len())
        .max(1);
        let code_len = blocks.iter().map(|b| b.stop.saturating_sub(b.start)).sum();
        let memo = Memo::take(code_len);
        if threads == 1 {
            let mut buf = Spare::buffers(1).pop().unwrap_or_default();
            let mut result = Ok(());
            for piece in &pieces {
                buf.clear();
                self.list(&mut buf, piece, &memo);
                result = out.write_all(&buf);
                if result.is_err() {
                    break;
                }
            }
            Spare::give_back(Some(memo), vec![buf]);
            return result;
        }
        // Every thread takes the next piece not yet taken (this one too, whenever the
        // piece it must write next is not ready), at most `window` pieces ahead of the
        // writing, so a thread slowed by other work on the machine does not hold up
        // the others and memory stays bounded.
        let window = 2 * threads;
        let shared = Mutex::new(Pieces {
            next: 0,
            written: 0,
            ready: vec![None; pieces.len()],
            free: Spare::buffers(window),
            stop: false,
            failed: false,
        });
        let changed = Condvar::new();
        let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
        // (threads started, and held on CPUs where that helps, by hsaco_par)
        let helper = |_| {
            let _guard = PanicGuard {
                shared: &shared,
                changed: &changed,
            };
            loop {
                let (k, mut buf) = {
                    let mut s = lock();
                    loop {
                        if s.stop || s.next >= pieces.len() {
                            return;
                        }
                        if s.next < s.written + window {
                            break;
                        }
                        s = changed.wait(s).unwrap_or_else(|e| e.into_inner());
                    }
                    s.next += 1;
                    (s.next - 1, s.free.pop().unwrap_or_default())
                };
                buf.clear();
                self.list(&mut buf, pieces[k], &memo);
                lock().ready[k] = Some(buf);
                changed.notify_all();
            }
        };
        let result = hsaco_par::spread(threads, helper, || {
            let _guard = PanicGuard {
                shared: &shared,
                changed: &changed,
            };
            let result = (|| {
                let mut s = lock();
                while s.written < pieces.len() {
                    let w = s.written;
                    if let Some(b) = s.ready[w].take() {
                        drop(s);
                        out.write_all(&b)?;
                        s = lock();
                        s.free.push(b);
                        s.written += 1;
                        changed.notify_all();
                    } else if s.next < pieces.len() && s.next < w + window {
                        let k = s.next;
                        s.next += 1;
                        let mut buf = s.free.pop().unwrap_or_default();
                        drop(s);
                        buf.clear();
                        self.list(&mut buf, pieces[k], &memo);
                        s = lock();
                        s.ready[k] = Some(buf);
                    } else if s.failed {
                        // (the scope re-raises the helper's panic when it ends)
                        return Err(io::Error::other("a listing thread panicked"));
                    } else {
                        s = changed.wait(s).unwrap_or_else(|e| e.into_inner());
                    }
                }
                Ok(())
            })();
            // (on a write error the helpers stop taking pieces)
            lock().stop = true;
            changed.notify_all();
            result
        });
        let s = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        let buffers = s.free.into_iter().chain(s.ready.into_iter().flatten());
        Spare::give_back(Some(memo), buffers.collect());
        result
    }

    /// Append the lines of `blocks` to `buf`.
    fn list(&self, buf: &mut Vec<u8>, blocks: &[Block<'_>], memo: &Memo) {
        // (room for the whole piece at once: grown by doubling, a piece's buffer was
        // copied four or five times into new pages, a fifth of the page faults of a
        // two-thread `dis` of a 1.7 MB library object)
        buf.reserve(text_estimate(blocks));
        // (the instruction text is printed here, then copied to `buf`)
        let mut text = String::with_capacity(128);
        for b in blocks {
            // `\n{address:016x} <{name}>:\n` (no formatter)
            buf.push(b'\n');
            buf.extend_from_slice(&lower_hex16(b.label.address));
            buf.extend_from_slice(b" <");
            buf.extend_from_slice(b.label.name.as_bytes());
            buf.extend_from_slice(b">:\n");
            let Some(mut code) = self.bytes.get(b.start..b.stop) else {
                continue;
            };
            let mut address = b.label.address;
            if b.label.kind == STT_AMDGPU_HSA_KERNEL && code.len() >= 256 {
                // (llvm-objdump-22 refuses these, "code object v2 is not supported",
                // and prints the 256 bytes as data, then lists the code)
                let entry = code
                    .get(16..24)
                    .and_then(|w| w.try_into().ok())
                    .map_or(256, i64::from_le_bytes);
                let skip = usize::try_from(entry)
                    .ok()
                    .filter(|e| (256..=code.len()).contains(e))
                    .unwrap_or(256);
                let _ = writeln!(
                    buf,
                    "\t; amd_kernel_code_t (256 bytes; hsaco read --kernel-descriptors \
                     prints it), code at +{skip:#x}"
                );
                code = &code[skip..];
                address += skip as u64;
            }
            self.list_code(buf, &mut text, code, address, memo);
        }
    }

    /// Keep the line of `inst` (at `at`, its bytes at the start of `rest`, its text of
    /// `text_len` characters), which starts at `line_start` in `buf`, in the memo.
    /// Branches are kept with their target's distance unless the line depends on more
    /// than the bytes: with --symbolize-operands (`L<n>` operands), or when the text
    /// names the target (a label without a type there). Not kept either: an
    /// instruction decoded with a look at the bytes after it
    /// ([`Decoder::looks_past`]), whose bytes list otherwise elsewhere.
    #[allow(clippy::too_many_arguments)]
    fn keep(
        &self,
        memo: &Memo,
        buf: &[u8],
        line_start: usize,
        text_len: usize,
        rest: &[u8],
        inst: &Instruction,
        at: u64,
    ) {
        let d = self.decoder;
        if d.looks_past(d.encoding(inst), d.op(inst)) {
            return;
        }
        let branch = if self.decoder.plan(inst).label == u8::MAX {
            None
        } else {
            let Some(t) = self.decoder.branch_target(inst, at) else {
                return;
            };
            if !self.targets.is_empty() || symbolic_label(self.labels, t).is_some() {
                return;
            }
            Some(t.wrapping_sub(at) as i64)
        };
        // the line is text, padding, `// `, the address, `: WORDS`, for a branch the
        // annotation ` <label+0x..>`: kept if the words are the instruction's bytes
        let words = line_start + text_len.max(60) + 3 + address_width(at);
        let Some(window) = Memo::window(rest) else {
            return;
        };
        let (expected, len) = words_text(window, inst.size);
        let after = buf.get(words + len..).unwrap_or_default();
        let ends = after.is_empty() || (branch.is_some() && after.starts_with(b" <"));
        if ends && buf.get(words..words + len) == expected.get(..len) {
            if let Some(text) = buf.get(line_start..line_start + text_len) {
                memo.put(rest, inst.size, text, branch);
            }
        }
    }

    fn list_code(
        &self,
        buf: &mut Vec<u8>,
        text: &mut String,
        code: &[u8],
        address: u64,
        memo: &Memo,
    ) {
        let mut off = 0usize;
        let mut digits = Digits::default();
        while off < code.len() {
            let at = address + off as u64;
            let rest = &code[off..];
            // a branch target not labelled by a symbol (off 0: the block's label)
            if off > 0 {
                if let Ok(n) = self.targets.binary_search(&at) {
                    let _ = writeln!(buf, "\n{at:016x} <L{n}>:");
                }
            }
            // Runs of 8 or more zero bytes are skipped (in whole words) as "...".
            if rest.len() >= 8 && rest[..8] == [0; 8] {
                let zeros = rest.iter().take_while(|b| **b == 0).count();
                buf.extend_from_slice(b"\t\t...\n");
                off += zeros & !3;
                continue;
            }
            if let Some(e) = memo.get(rest) {
                memo.touch(rest.get(usize::from(e.size)..).unwrap_or_default());
                let target = e.branch.map(|d| at.wrapping_add(d as u64));
                let labels = target.map(|t| target_labels(self.labels, t));
                // (a branch to a label without a type, whose text names the label, is
                // listed anew; so is a line another thread rewrote while it was read)
                if labels.is_none_or(|(symbolic, _)| !symbolic) && e.append(buf, &mut digits, at) {
                    // The same bytes decode and print the same: the line is the kept
                    // text, padding and `// `, this address, and the kept `: WORDS\n`
                    // (a branch's: `: WORDS`, the annotation of its target from here,
                    // the newline).
                    if let (Some(t), Some((_, label))) = (target, labels) {
                        if let Some(l) = label {
                            annotate(buf, l, t);
                        }
                        buf.push(b'\n');
                    }
                    off += usize::from(e.size);
                    continue;
                }
            }
            let line_start = buf.len();
            text.clear();
            let size = match self.decoder.decode(rest) {
                Ok(inst) if usize::from(inst.size) <= rest.len() => {
                    instruction_line(buf, text, self, &inst, at);
                    if self.memo {
                        self.keep(memo, buf, line_start, text.len(), rest, &inst, at);
                    }
                    usize::from(inst.size)
                }
                Ok(_) | Err(DecodeError::Invalid | DecodeError::Truncated) => {
                    data_line(buf, text, rest, at, self.options)
                }
            };
            buf.push(b'\n');
            off += size.max(1);
        }
    }
}

/// The text column is 60 characters wide including the leading tab: spaces after a
/// text of `len` characters.
fn pad(buf: &mut Vec<u8>, len: usize) {
    const SPACES: &[u8; 60] = &[b' '; 60];
    buf.extend_from_slice(SPACES.get(len..).unwrap_or_default());
}

fn instruction_line(
    buf: &mut Vec<u8>,
    text: &mut String,
    section: &Section<'_, '_>,
    inst: &Instruction,
    at: u64,
) {
    let (decoder, labels, targets, options) = (
        section.decoder,
        section.labels,
        &section.targets[..],
        section.options,
    );
    text.push('\t');
    crate::print::print(&decoder, inst, text);
    let target = decoder.branch_target(inst, at);
    let mut annotation = None;
    let local = target.and_then(|t| targets.binary_search(&t).ok());
    if let Some(n) = local {
        // --symbolize-operands: the target's label instead of the offset
        if let Some(sp) = text.rfind(' ') {
            text.truncate(sp + 1);
            let _ = write!(text, "L{n}");
        }
    } else if let Some(t) = target {
        // A branch to a label without a type prints its name instead of the offset.
        if let Some(l) = symbolic_label(labels, t) {
            if let Some(sp) = text.rfind(' ') {
                text.truncate(sp + 1);
                text.push_str(l.name);
            }
        } else {
            annotation = annotation_label(labels, t);
        }
    }
    buf.extend_from_slice(text.as_bytes());
    let annotation = annotation.map(|l| (l, target.unwrap_or(0)));
    finish_line(buf, text.len(), decoder, inst, at, annotation, options);
}

/// The rest of an instruction line after its text of `text_len` characters: the
/// `// ADDRESS: WORDS` comment and the branch target annotation `<label+0xoff>` (the
/// label and the target address).
fn finish_line(
    buf: &mut Vec<u8>,
    text_len: usize,
    decoder: Decoder,
    inst: &Instruction,
    at: u64,
    annotation: Option<(Label<'_>, u64)>,
    options: &Options,
) {
    if options.show_raw_insn {
        let mut c = Comment::new(buf, text_len, at);
        let words = usize::from(inst.size) / 4;
        // (only an instruction longer than its encoding can have a literal operand)
        let longer = words > usize::from(decoder.encoding(inst).words);
        // The literal follows the encoding's words.
        // (A third word of a two-word encoding, the DPP word of a gfx11+ VOP3 DPP
        // form, is kept in the literal too.)
        let literal = (longer && has_literal(inst)) || words > 2;
        let enc_words = words.saturating_sub(usize::from(literal)).min(2);
        let all = [inst.raw as u32, (inst.raw >> 32) as u32];
        if decoder.encoding(inst).form == crate::desc::Form::Vop3px2 {
            // gfx950 scaled MFMA: the ld_scale pair (kept in nsa), then the MFMA pair
            for w in [inst.nsa as u32, (inst.nsa >> 32) as u32] {
                c.word(w);
            }
            for w in all {
                c.word(w);
            }
        } else if longer
            && inst
                .operands
                .iter()
                .any(|o| matches!(o, Operand::Literal64))
        {
            // gfx1250: the encoding's words, the literal's low word, its high word
            for w in &all[..usize::from(decoder.encoding(inst).words).min(2)] {
                c.word(*w);
            }
            c.word(inst.literal);
            c.word(inst.nsa as u32);
        } else {
            for w in &all[..enc_words] {
                c.word(*w);
            }
            if literal {
                c.word(inst.literal);
            }
        }
        c.end();
    } else if annotation.is_some() {
        pad(buf, text_len);
        buf.extend_from_slice(b"//");
    }
    if let Some((l, target)) = annotation {
        annotate(buf, l, target);
    }
}

/// The label without a type at branch target `t`, whose name the branch's text
/// shows instead of the distance (`labels` sorted; `labels[0]`, the section-name
/// placeholder, is never one).
fn symbolic_label<'l, 'a>(labels: &'l [Label<'a>], t: u64) -> Option<&'l Label<'a>> {
    let at_target = labels.partition_point(|l| l.address < t);
    labels
        .get(at_target.max(1)..)
        .unwrap_or_default()
        .iter()
        .take_while(|l| l.address == t)
        .find(|l| l.kind == STT_NOTYPE)
}

/// For branch target `t`: whether [`symbolic_label`] finds a label, and
/// [`annotation_label`]'s label, from one search of `labels`.
fn target_labels<'a>(labels: &[Label<'a>], t: u64) -> (bool, Option<Label<'a>>) {
    let at_target = labels.partition_point(|l| l.address < t);
    let same = labels
        .get(at_target..)
        .unwrap_or_default()
        .iter()
        .take_while(|l| l.address == t)
        .count();
    let symbolic = labels
        .get(at_target.max(1)..at_target + same)
        .unwrap_or_default()
        .iter()
        .any(|l| l.kind == STT_NOTYPE);
    let annotation = (at_target + same)
        .checked_sub(1)
        .and_then(|i| labels.get(i).copied());
    (symbolic, annotation)
}

/// The label a branch target `t` is annotated with: the last one at or before it.
fn annotation_label<'a>(labels: &[Label<'a>], t: u64) -> Option<Label<'a>> {
    let after = labels.partition_point(|l| l.address <= t);
    after.checked_sub(1).map(|i| labels[i])
}

/// ` <label+0xOFF>` for branch target `target` (` <label>` at the label).
fn annotate(buf: &mut Vec<u8>, l: Label<'_>, target: u64) {
    let off = target.wrapping_sub(l.address);
    buf.extend_from_slice(b" <");
    buf.extend_from_slice(l.name.as_bytes());
    if off != 0 {
        // (lower-case hex without leading zeros; no formatter)
        buf.extend_from_slice(b"+0x");
        let digits = (64 - off.leading_zeros()).div_ceil(4) as usize;
        buf.extend_from_slice(&lower_hex16(off)[16 - digits..]);
    }
    buf.push(b'>');
}

/// The 16 lower-case hex digits of `v` (`0`-`9` have the lower-case bit already).
fn lower_hex16(v: u64) -> [u8; 16] {
    (u128::from_be_bytes(hex16(v)) | 0x2020_2020_2020_2020_2020_2020_2020_2020).to_be_bytes()
}

/// The 8 upper-case hex digits of `w`, most significant first, computed for all
/// digits at once (the hot path of listings).
fn hex8(w: u32) -> [u8; 8] {
    // Spread the nibbles so that byte i holds nibble i ...
    let mut x = u64::from(w);
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    // ... then '0' + n, and 7 more ('A' - '0' - 10) where n >= 10 (n + 6 carries into
    // bit 4).
    let ten_up = (x + 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101;
    (x + 0x3030_3030_3030_3030 + ten_up * 7).to_be_bytes()
}

/// The padding after the text and the `// ADDRESS: WORDS` comment, written in place
/// at the end of the output: 128 spaces are appended, digits written over them, and
/// the rest cut off by [`Comment::end`].
struct Comment<'b> {
    buf: &'b mut Vec<u8>,
    start: usize,
    len: usize,
}

impl Comment<'_> {
    /// Spaces to column 60 after a text of `text_len` characters, `// ADDRESS:` with at
    /// least 12 hex digits.
    fn new(buf: &mut Vec<u8>, text_len: usize, at: u64) -> Comment<'_> {
        let start = buf.len();
        buf.extend_from_slice(&[b' '; 128]);
        let mut c = Comment {
            buf,
            start,
            len: 60usize.saturating_sub(text_len),
        };
        c.push(b"// ");
        if at >> 48 == 0 {
            // (the usual case, as a copy of known size)
            c.push(&hex12(at));
        } else {
            c.push(&hex16(at)[16 - address_width(at)..]);
        }
        c.push(b":");
        c
    }

    fn push(&mut self, bytes: &[u8]) {
        let at = self.start + self.len;
        if let Some(dst) = self.buf.get_mut(at..at + bytes.len()) {
            dst.copy_from_slice(bytes);
            self.len += bytes.len();
        }
    }

    /// ` WORD`.
    fn word(&mut self, w: u32) {
        self.len += 1; // (the space is there)
        self.push(&hex8(w));
    }

    /// Cut off the unused spaces.
    fn end(self) {
        self.buf.truncate(self.start + self.len.min(128));
    }
}

/// Hex digits of an address in the comment: at least 12.
fn address_width(at: u64) -> usize {
    (64 - at.leading_zeros()).div_ceil(4).max(12) as usize
}

/// The 16 upper-case hex digits of `v`.
fn hex16(v: u64) -> [u8; 16] {
    let mut all = [0u8; 16];
    all[..8].copy_from_slice(&hex8((v >> 32) as u32));
    all[8..].copy_from_slice(&hex8(v as u32));
    all
}

/// The 4 upper-case hex digits of `v`, as [`hex8`] computes them.
fn hex4(v: u16) -> [u8; 4] {
    let mut x = u32::from(v);
    x = (x | x << 8) & 0x00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f;
    let ten_up = (x + 0x0606_0606) >> 4 & 0x0101_0101;
    (x + 0x3030_3030 + ten_up * 7).to_be_bytes()
}

/// The 12 upper-case hex digits of the low 48 bits of `v`.
#[inline]
fn hex12(v: u64) -> [u8; 12] {
    let mut all = [0u8; 12];
    all[..8].copy_from_slice(&hex8((v >> 16) as u32));
    all[8..].copy_from_slice(&hex4(v as u16));
    all
}

/// Append the address of the comment (at least 12 digits).
#[inline]
fn address_digits(buf: &mut Vec<u8>, at: u64) {
    // (the usual case: one copy of known size, no width computed; this runs for
    // every line)
    if at >> 48 == 0 {
        buf.extend_from_slice(&hex12(at));
        return;
    }
    // (13 to 16 digits: the 12-digit case returned above)
    buf.extend_from_slice(&hex16(at)[16 - address_width(at)..]);
}

/// The comment's address digits of the last line, whose first 8 of 12 the next
/// lines share (they change every 64 KiB): only the last 4 are computed anew.
#[derive(Default)]
struct Digits {
    /// The address less its low 16 bits, plus one (0: none yet).
    high: u64,
    text: [u8; 12],
}

impl Digits {
    /// Append the address of the comment (at least 12 digits), as [`address_digits`].
    #[inline(always)]
    fn push(&mut self, buf: &mut Vec<u8>, at: u64) {
        let high = (at >> 16) + 1;
        if high != self.high {
            self.new_high(buf, at);
            return;
        }
        let [a, b] = HEX_PAIRS[usize::from(at as u8)];
        let [c, d] = HEX_PAIRS[usize::from((at >> 8) as u8)];
        self.text[8..].copy_from_slice(&[c, d, a, b]);
        buf.extend_from_slice(&self.text);
    }

    /// [`Digits::push`] of an address whose upper digits differ from the last one's.
    #[cold]
    #[inline(never)]
    fn new_high(&mut self, buf: &mut Vec<u8>, at: u64) {
        if at >> 48 != 0 {
            self.high = 0;
            address_digits(buf, at);
            return;
        }
        self.high = (at >> 16) + 1;
        self.text = hex12(at);
        buf.extend_from_slice(&self.text);
    }
}

/// The two upper-case hex digits of each byte.
const HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut t = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [DIGITS[i >> 4], DIGITS[i & 15]];
        i += 1;
    }
    t
};

/// Append the first `len` bytes of `bytes`: the whole array is copied (a copy of
/// known size, which needs no call) and the rest cut off again.
#[inline]
fn append_fixed<const N: usize>(buf: &mut Vec<u8>, bytes: &[u8; N], len: usize) {
    let start = buf.len();
    buf.extend_from_slice(bytes);
    buf.truncate(start + len.min(N));
}

fn has_literal(inst: &Instruction) -> bool {
    // (a match, not the derived comparison, which is a call per operand)
    inst.operands.iter().any(|o| matches!(o, Operand::Literal))
}

/// `.long` for a word that does not decode, `.byte` for a short tail (built in
/// `text`, then appended to `buf`). Returns the bytes consumed.
fn data_line(
    buf: &mut Vec<u8>,
    text: &mut String,
    rest: &[u8],
    at: u64,
    options: &Options,
) -> usize {
    let consumed = if let Some(w) = rest.get(..4) {
        let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        let _ = write!(text, "\t.long 0x{w:08x}");
        let len = text.len();
        if options.show_raw_insn {
            text.push_str(&" ".repeat(60usize.saturating_sub(len)));
            let _ = write!(text, "// {at:012X}: {w:08X}");
        }
        4
    } else {
        text.push_str("\t.byte ");
        for (k, b) in rest.iter().enumerate() {
            if k > 0 {
                text.push_str(", ");
            }
            let _ = write!(text, "0x{b:02x}");
        }
        let len = text.len();
        if options.show_raw_insn {
            text.push_str(&" ".repeat(60usize.saturating_sub(len)));
            let _ = write!(text, "// {at:012X}:");
            for b in rest {
                let _ = write!(text, " {b:02X}");
            }
        }
        rest.len()
    };
    buf.extend_from_slice(text.as_bytes());
    consumed
}

impl Decoder {
    /// The address a branch instruction at `address` jumps to (`s_branch`,
    /// `s_cbranch_*`, `s_call_b64`: next instruction + 4 * signed offset).
    pub fn branch_target(&self, inst: &Instruction, address: u64) -> Option<u64> {
        // (the operand index of the label is found once per operation)
        let i = self.plan(inst).label;
        if i == u8::MAX {
            return None;
        }
        let Operand::Imm(v) = *inst.operands.get(usize::from(i))? else {
            return None;
        };
        let delta = i64::from(v as i16) * 4;
        Some(address.wrapping_add(4).wrapping_add(delta as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Listing in pieces on several threads gives the text of one thread: labels,
    /// branch annotations to labels of other pieces, zero runs, literals, bad words.
    #[test]
    fn pieces_on_threads_list_like_one_thread() {
        let dec = Decoder::for_processor("gfx906").unwrap();
        let mut code: Vec<u8> = Vec::new();
        let mut label_at = Vec::new();
        for k in 0u32..600 {
            if k % 7 == 0 {
                label_at.push((code.len() as u64, if k % 14 == 0 { 2 } else { 0 }));
            }
            let words: &[u32] = match k % 6 {
                0 => &[0xbf80_0000],                        // s_nop 0
                1 => &[0x7e00_02ff, 0x1234_5678 + (k % 4)], // v_mov_b32 v0, literal
                2 => &[0xbf82_0000 | (0x10000 - k)],        // s_branch backwards
                3 => &[0, 0, 0],                            // a zero run
                4 => &[0xffff_ffff],                        // does not decode
                _ => &[0xbf84_0000 | (k * 3 % 0x100)],      // s_cbranch_scc0 forwards
            };
            for w in words {
                code.extend_from_slice(&w.to_le_bytes());
            }
        }
        code.extend_from_slice(&[0x00, 0x00]); // a short tail
        let names: Vec<String> = (0..label_at.len()).map(|i| format!("f{i}")).collect();
        let labels: Vec<Label<'_>> = label_at
            .iter()
            .zip(&names)
            .map(|(&(a, kind), name)| Label {
                address: 0x1000 + a,
                name,
                kind,
            })
            .collect();
        let listing = |threads: usize, chunk: usize, symbolize_operands: bool| {
            let mut out = Vec::new();
            let options = Options {
                show_raw_insn: true,
                threads,
                symbolize_operands,
                demangle: None,
                source: false,
            };
            let mut labels = labels.clone();
            write_section(
                &mut out,
                dec,
                &code,
                0x1000,
                ".text",
                &mut labels,
                &options,
                chunk,
            )
            .unwrap();
            String::from_utf8(out).unwrap()
        };
        for symbolize in [false, true] {
            let one = listing(1, usize::MAX, symbolize);
            assert!(one.contains("<f3>:\n"), "{one}");
            assert!(one.contains("\t\t...\n"));
            assert!(one.contains(".long 0xffffffff"));
            assert!(one.contains(".byte 0x00, 0x00"));
            if symbolize {
                assert!(one.contains(" L0 "), "{one}");
            } else {
                assert!(one.contains(" <f"));
            }
            for (threads, chunk) in [(1, 16), (2, 1), (2, 64), (3, 40), (8, 100)] {
                assert_eq!(
                    listing(threads, chunk, symbolize),
                    one,
                    "{threads} threads, {chunk} bytes, symbolize {symbolize}"
                );
            }
        }
    }

    /// Threads sharing one memo, whose sets are rewritten while others read them,
    /// still list exactly what one thread lists without the memo: a line another
    /// thread is rewriting is decoded anew, never half of one and half of another.
    #[test]
    fn threads_sharing_the_memo_list_like_one_thread_without_it() {
        let dec = Decoder::for_processor("gfx90a").unwrap();
        // Many distinct instructions (v_add_u32 of other registers, v_mov_b32 of
        // other literals, s_waitcnt of other counts) fall in the same sets and push
        // each other out, with common ones between them.
        let mut words: Vec<u32> = Vec::new();
        for k in 0u32..20_000 {
            match k % 4 {
                0 => words.push(0x6800_0000 | (k % 256) << 9 | (k / 3 % 256)),
                1 => words.extend([0x7e00_02ff, k % 97]),
                2 => words.push(0xbf8c_0000 | (k % 64)),
                _ => words.push(0xbf80_0000),
            }
        }
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let listing = |threads: usize, memo: bool| {
            NO_MEMO.with(|m| m.set(!memo));
            let mut out = Vec::new();
            let options = Options {
                show_raw_insn: true,
                threads,
                ..Options::default()
            };
            let mut labels = Vec::new();
            write_section(&mut out, dec, &code, 0, ".text", &mut labels, &options, 256).unwrap();
            NO_MEMO.with(|m| m.set(false));
            String::from_utf8(out).unwrap()
        };
        let plain = listing(1, false);
        for _ in 0..5 {
            for threads in [2, 4, 8] {
                assert!(listing(threads, true) == plain, "{threads} threads");
            }
        }
    }

    /// With a demangler the labels and branch annotations show its names, but which of
    /// two symbols at one address labels the code is decided on the symbol names, as
    /// llvm-objdump -C does (the renamed order would pick the other one).
    #[test]
    fn demangled_labels_are_chosen_by_their_symbol_names() {
        let dec = Decoder::for_processor("gfx906").unwrap();
        // s_nop 0; s_branch -2 (to 0x1000)
        let code: Vec<u8> = [0xbf80_0000u32, 0xbf82_fffe]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let labels = [
            Label {
                address: 0x1000,
                name: "_Za",
                kind: 2,
            },
            Label {
                address: 0x1000,
                name: "_Zb",
                kind: 2,
            },
        ];
        let rename: fn(&str) -> Option<String> = |n| match n {
            "_Za" => Some("zzz".into()),
            "_Zb" => Some("aaa".into()),
            _ => None,
        };
        let list = |demangle| {
            let mut out = Vec::new();
            let options = Options {
                demangle,
                ..Options::default()
            };
            write_code(&mut out, dec, &code, 0x1000, &labels, &options).unwrap();
            String::from_utf8(out).unwrap()
        };
        let plain = list(None);
        assert!(
            plain.contains("<_Zb>:\n") && plain.contains("<_Zb>\n"),
            "{plain}"
        );
        let renamed = list(Some(rename));
        assert_eq!(renamed, plain.replace("_Zb", "aaa"));
    }

    /// Comment addresses have at least 12 upper-case digits, more only when the
    /// address needs them (llvm-objdump's `// 0000000EE9B8:`), through either writer.
    #[test]
    fn comment_addresses_have_twelve_digits_or_as_many_as_needed() {
        let cases: [(u64, &str); 5] = [
            (0x12, "000000000012"),
            (0xee9b8, "0000000EE9B8"),
            (0xffff_ffff_ffff, "FFFFFFFFFFFF"),
            (0x1_0000_0000_0abc, "1000000000ABC"),
            (u64::MAX, "FFFFFFFFFFFFFFFF"),
        ];
        let mut digits = Digits::default();
        for (at, text) in cases {
            let mut buf = Vec::new();
            address_digits(&mut buf, at);
            assert_eq!(String::from_utf8_lossy(&buf), text);
            buf.clear();
            digits.push(&mut buf, at);
            assert_eq!(String::from_utf8_lossy(&buf), text);
        }
    }

    /// A memo has about an entry per [`MEMO_BYTES_PER_ENTRY`] bytes of code (in a
    /// power of two of sets, one group at least), [`MEMO_ENTRIES`] at most.
    #[test]
    fn memos_are_sized_to_the_code() {
        let entries = |code_len| (1usize << Memo::bits_for(code_len)) * MEMO_WAYS;
        assert_eq!(entries(0), MEMO_GROUP * MEMO_WAYS);
        assert_eq!(entries(4096), 256);
        assert_eq!(entries(5000), 512);
        assert_eq!(entries(usize::MAX), MEMO_ENTRIES);
        assert_eq!(Memo::new(Memo::bits_for(4096)).groups.len(), 4);
    }

    /// A set's least recently used entry is replaced, not its oldest.
    #[test]
    fn memo_sets_replace_their_least_recently_used_entry() {
        // order 0, 1, 2, 3 (most recent first); using 2 makes it 2, 0, 1, 3
        assert_eq!(most_recent(MEMO_ORDER, 2), 0b11_01_00_10);
        // the most recent stays; the last goes to the front
        assert_eq!(most_recent(MEMO_ORDER, 0), MEMO_ORDER);
        assert_eq!(most_recent(MEMO_ORDER, 3), 0b10_01_00_11);
        // five instructions of one set: the first, used again after the
        // second to fourth were kept, is not the one the fifth replaces
        let memo = Memo::new(Memo::bits_for(usize::MAX));
        let word = |w: u32| {
            let mut b = w.to_le_bytes().to_vec();
            b.resize(16, 0xff);
            b
        };
        let same_set: Vec<u32> = (0u32..)
            .filter(|w| memo.set(u128::from(*w), 4) == memo.set(1, 4))
            .take(5)
            .collect();
        for (k, w) in same_set[..4].iter().enumerate() {
            memo.put(&word(*w), 4, b"\tx", None);
            if k == 3 {
                assert!(memo.get(&word(same_set[0])).is_some());
            }
        }
        memo.put(&word(same_set[4]), 4, b"\tx", None);
        assert!(memo.get(&word(same_set[0])).is_some());
        assert!(memo.get(&word(same_set[1])).is_none());
        assert!(memo.get(&word(same_set[4])).is_some());
    }

    /// The listing of `code` by `dec` with the memo or without it.
    fn listed_with_memo(dec: Decoder, code: &[u8], memo: bool) -> String {
        NO_MEMO.with(|m| m.set(!memo));
        let mut out = Vec::new();
        write_code(&mut out, dec, code, 0, &[], &Options::default()).unwrap();
        NO_MEMO.with(|m| m.set(false));
        String::from_utf8(out).unwrap()
    }

    /// Repeated instructions come from the memo: the listing is the one without it, and
    /// every instruction line shows the text of its own bytes (same first word, other
    /// literals, other second words, other sizes).
    #[test]
    fn repeated_instructions_print_their_own_text() {
        let dec = Decoder::for_processor("gfx90a").unwrap();
        let mut words: Vec<u32> = Vec::new();
        for k in 0u32..3000 {
            match k % 5 {
                0 => words.extend([0x7e00_02ff, k % 7]), // v_mov_b32 v0, literal
                1 => words.extend([0xd1fe_0000, 0x0002_0100 + (k % 3)]), // v_add_u32_e64
                2 => words.extend([0xd1fe_0000 | (k % 2), 0x0002_0100]),
                3 => words.push(0xbf8c_0000 | (k % 16)), // s_waitcnt
                _ => words.extend([0xc002_0002 | (k % 3) << 6, 0x2c]), // s_load_dword
            }
        }
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let list = |memo: bool| listed_with_memo(dec, &code, memo);
        let listing = list(true);
        assert_eq!(listing, list(false), "the memo changed the listing");
        let mut checked = 0;
        for (at, inst) in crate::Instructions::new(dec, &code) {
            let inst = inst.unwrap();
            let line = listing
                .lines()
                .find(|l| l.contains(&format!("// {at:012X}:")))
                .unwrap();
            let text = line.split("  ").next().unwrap().trim_end();
            assert_eq!(text, format!("\t{}", dec.text(&inst)), "at {at:#x}");
            checked += 1;
        }
        assert_eq!(checked, 3000);
    }

    /// gfx950: the 8 bytes of a `v_mfma_ld_scale_b32` listed alone, then again as the
    /// first half of a scaled MFMA (16 bytes, one line): the memo must not give the
    /// second its line of the first (it did: the pair was listed as the ld_scale, a
    /// `.long` and a `v_sub_f32`).
    #[test]
    fn bytes_decoded_with_what_follows_are_not_kept() {
        let dec = Decoder::for_processor("gfx950").unwrap();
        // llvm-objdump-22 --mcpu=gfx950 of these words: v_mfma_ld_scale_b32 v24, v25
        // op_sel_hi:[0,0]; s_nop 0; v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11],
        // v[12:19], v[20:23], v24, v25 op_sel_hi:[0,0,0]; s_nop 0; s_endpgm
        let ld_scale = [0xd3ac_0000u32, 0x0002_3318];
        let mut words = Vec::new();
        words.extend(ld_scale);
        words.push(0xbf80_0000);
        words.extend(ld_scale);
        words.extend([0xd3ad_0800, 0x0452_1904]);
        words.extend([0xbf80_0000, 0xbf81_0000]);
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let listing = listed_with_memo(dec, &code, true);
        assert_eq!(listing, listed_with_memo(dec, &code, false));
        let texts: Vec<&str> = listing
            .lines()
            .filter(|l| l.starts_with('\t'))
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                "v_mfma_ld_scale_b32",
                "s_nop",
                "v_mfma_scale_f32_16x16x128_f8f6f4",
                "s_nop",
                "s_endpgm"
            ]
        );
    }

    /// Instructions of three words that share their first two (gfx11 VOP3 with
    /// different literals: the memo compares the third word kept with the line) print
    /// their own literal and words from the memo.
    #[test]
    fn repeated_long_instructions_print_their_own_last_words() {
        let dec = Decoder::for_processor("gfx1100").unwrap();
        // v_fma_f32 v1, v2, LITERAL, v3 (llvm-mc-22 -mcpu=gfx1100 -show-encoding)
        let mut code = Vec::new();
        for k in 0u32..600 {
            code.extend([0x01, 0x00, 0x13, 0xd6, 0x02, 0xff, 0x0d, 0x04]);
            code.extend((0x12345 + k % 5).to_le_bytes());
        }
        let list = |memo: bool| listed_with_memo(dec, &code, memo);
        let listing = list(true);
        assert_eq!(listing, list(false));
        assert!(listing.contains("v_fma_f32 v1, v2, 0x12349, v3"));
        assert!(listing.contains(": D6130001 040DFF02 00012349\n"));
    }

    /// Texts of up to [`MEMO_TEXT`] bytes (the tab included) are kept, padded to
    /// column 60; longer ones are not.
    #[test]
    fn the_memo_keeps_texts_up_to_its_width() {
        let memo = Memo::new(Memo::bits_for(usize::MAX));
        let rest = |w: u32| {
            let mut b = w.to_le_bytes().to_vec();
            b.resize(16, 0);
            b
        };
        let text = |len: usize| {
            let mut t = b"\t".to_vec();
            t.resize(len, b'x');
            t
        };
        memo.put(&rest(1), 4, &text(MEMO_TEXT), None);
        memo.put(&rest(2), 4, &text(MEMO_TEXT + 1), None);
        assert!(memo.get(&rest(2)).is_none());
        let kept = memo.get(&rest(1)).unwrap();
        let mut buf = Vec::new();
        assert!(kept.append(&mut buf, &mut Digits::default(), 0x40));
        let mut line = text(MEMO_TEXT);
        line.resize(60, b' ');
        line.extend(b"// 000000000040: 00000001\n");
        assert_eq!(
            String::from_utf8_lossy(&buf),
            String::from_utf8_lossy(&line)
        );
    }

    /// A memo kept from one listing for the next ([`SPARE`]) keeps none of its lines:
    /// the same words listed for another processor, after them, print as that
    /// processor's listing without the memo does.
    #[test]
    fn a_spare_memo_keeps_no_lines_of_the_last_listing() {
        let words: Vec<u32> = (0..2000)
            .map(|k| [0xbf8c_0000 | (k % 4), 0x7e00_0200, 0xd1fe_0000, 0x0002_0100][k as usize % 4])
            .collect();
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let list = |processor: &str, memo: bool| {
            listed_with_memo(Decoder::for_processor(processor).unwrap(), &code, memo)
        };
        let (gfx90a, gfx1100) = (list("gfx90a", false), list("gfx1100", false));
        assert_ne!(gfx90a, gfx1100, "the words must list differently");
        for _ in 0..3 {
            assert_eq!(list("gfx90a", true), gfx90a);
            assert_eq!(list("gfx1100", true), gfx1100);
        }
    }

    /// Repeated branches come from the memo with the annotation of their own target:
    /// the listing is the one without the memo (targets before and after the branch,
    /// at and past labels with and without a type, whose names the text shows), with
    /// and without --symbolize-operands.
    #[test]
    fn repeated_branches_annotate_their_own_targets() {
        let dec = Decoder::for_processor("gfx90a").unwrap();
        let mut words: Vec<u32> = Vec::new();
        for k in 0u32..2000 {
            words.push(match k % 4 {
                // s_branch -2, 0, 3, 32
                0 => 0xbf82_0000 | [0xfffe, 0, 3, 0x20][(k / 4 % 4) as usize],
                // s_cbranch_scc0 1, -16
                1 => 0xbf84_0000 | [1, 0xfff0][(k / 4 % 2) as usize],
                2 => 0xbf80_0000,           // s_nop 0
                _ => 0x7e00_0280 + (k % 3), // v_mov_b32 v0, 0..2
            });
        }
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let names: Vec<String> = (0..200).map(|i| format!("f{i}")).collect();
        let labels: Vec<Label<'_>> = names
            .iter()
            .enumerate()
            .map(|(i, name)| Label {
                address: 0x1000 + i as u64 * 40,
                name,
                kind: if i % 3 == 0 { STT_NOTYPE } else { 2 },
            })
            .collect();
        for symbolize_operands in [false, true] {
            let options = Options {
                threads: 1,
                symbolize_operands,
                ..Options::default()
            };
            let list = |memo: bool| {
                NO_MEMO.with(|m| m.set(!memo));
                let mut out = Vec::new();
                write_code(&mut out, dec, &code, 0x1000, &labels, &options).unwrap();
                NO_MEMO.with(|m| m.set(false));
                String::from_utf8(out).unwrap()
            };
            let listing = list(true);
            assert_eq!(listing, list(false), "the memo changed the listing");
            let lines = |part: &str| listing.lines().filter(|l| l.contains(part)).count();
            if symbolize_operands {
                assert!(lines("s_branch L") > 400, "{listing}");
            } else {
                // annotations at and past labels, and texts that name the target
                assert!(lines("s_branch 3 ") > 100, "{listing}");
                assert!(lines(" <f") > 400, "{listing}");
                let at_label = |l: &&str| l.contains(" <f") && !l.contains("+0x");
                assert!(listing.lines().any(|l| at_label(&l)), "{listing}");
                assert!(lines("+0x") > 400, "{listing}");
                assert!(lines("s_branch f") > 0, "{listing}");
            }
        }
    }

    /// The re-assembly listing: instructions as text that assembles back to their
    /// bytes (bytes: llvm-mc-22 -show-encoding of `s_endpgm` (gfx90a) and of
    /// `s_add_nc_u64 s[0:1], s[0:1], 0xfffffffffffffe14` (gfx1250: a 64-bit literal,
    /// and llvm-objdump-22's text; llvm-mc-22 takes a 32-bit one only for
    /// 0..=0x7fffffff), and of `s_add_nc_u64 s[0:1], s[0:1], lit64(0x12345678)`, whose
    /// text without `lit64` would be a 32-bit literal).
    #[test]
    fn source_listing_keeps_every_word() {
        let dec = Decoder::for_processor("gfx90a").unwrap();
        let labels = [Label {
            address: 0x100,
            name: "k",
            kind: 2,
        }];
        let mut out = Vec::new();
        write_source(
            &mut out,
            dec,
            ".text",
            256,
            &[0x00, 0x00, 0x81, 0xbf],
            0x100,
            &labels,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\t.section\t.text,\"ax\",@progbits\n\t.p2align\t8\n; k:\n\ts_endpgm\n"
        );
        let dec = Decoder::for_processor("gfx1250").unwrap();
        let bytes = [
            0x00, 0xfe, 0x80, 0xa9, 0x14, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ];
        let mut out = Vec::new();
        write_source(&mut out, dec, ".text", 1, &bytes, 0, &[]).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.ends_with("\ts_add_nc_u64 s[0:1], s[0:1], 0xfffffffffffffe14\n"),
            "{text}"
        );
        let bytes = [
            0x00, 0xfe, 0x80, 0xa9, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00,
        ];
        let mut out = Vec::new();
        write_source(&mut out, dec, ".text", 1, &bytes, 0, &[]).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.ends_with("\ts_add_nc_u64 s[0:1], s[0:1], lit64(0x12345678)\n"),
            "{text}"
        );
    }
}
