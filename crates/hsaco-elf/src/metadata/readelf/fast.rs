//! The readelf form of a metadata descriptor printed straight from the MessagePack
//! bytes: one pass that writes the YAML as it reads, no [`Value`](crate::msgpack::Value)
//! tree, no allocation per item, strings copied as they are stored when they need no
//! escaping.
//!
//! It takes the common case only: every map key a string, the keys of every map
//! stored in strictly increasing order (as LLVM writes them, so the sort LLVM does on
//! reading changes nothing and there are no duplicates), no extension anywhere,
//! nesting at most [`MAX_FAST_DEPTH`] deep, well-formed data. For anything else
//! [`yaml_block`] returns `false` and the tree printer (the reference) does the work,
//! so the text never differs; the tests check the two against each other on real and
//! mutated descriptors.
//!
//! Where the time goes, and what keeps it down (measured with
//! `cargo run --release -p hsaco-elf --example metadata_printer_bench`):
//! - keys the verifier looks at are found in compile-time hashed tables ([`Table`])
//!   that also hold the key's text with its colon and padding, written as one block;
//!   the verifier's word lists are hashed sets ([`Words`]), compared by machine words;
//! - short copies are fixed-size blocks cut back to the length wanted, integers are
//!   built in a register and stored as one word;
//! - argument maps, most of a document's lines, repeat within a document and across
//!   the documents of a run: a per-thread memo ([`ArgMemo`]) keeps the text of each
//!   map printed, by its bytes, and copies it when the same bytes come again.

use crate::msgpack::{Cursor, Item};

use super::{
    contains, format_e, is_yaml_bool, is_yaml_null, is_yaml_numeric, quote, reads_as_non_string,
    Quoting, ACCESSES, ADDRESS_SPACES, LANGUAGES, LLVM_VALUE_KINDS,
};

/// Containers nested deeper than this go to the tree printer (whose decoder allows
/// [`crate::msgpack::MAX_DEPTH`]).
pub(super) const MAX_FAST_DEPTH: usize = 100;

/// Appends the block [`super::readelf_block`] gives for an `NT_AMDGPU_METADATA`
/// descriptor (non-empty), ending in one newline, and returns `true`; or returns
/// `false`, leaving `out` as it was, when the descriptor is not the common case the
/// module docs describe.
pub(super) fn yaml_block(desc: &[u8], out: &mut Vec<u8>) -> bool {
    yaml_block_doc(desc, out).is_some()
}

/// [`yaml_block`], telling also, when it prints, whether the descriptor is certainly
/// one MessagePack map with nothing after it (`Some(true)`), or may not be
/// (`Some(false)`: ask [`crate::msgpack::is_map_document`]).
pub(super) fn yaml_block_doc(desc: &[u8], out: &mut Vec<u8>) -> Option<bool> {
    let start = out.len();
    let doc = write_block(desc, out);
    if doc.is_none() {
        out.truncate(start);
    }
    doc
}

/// Text this module wrote (always UTF-8) as a `String`.
pub(super) fn into_string(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        // not reached: every byte written is ASCII or comes from a `str`
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// The block; whether the root is a map and the whole descriptor was read (every
/// item well-formed, no deeper than [`MAX_FAST_DEPTH`]).
fn write_block(desc: &[u8], out: &mut Vec<u8>) -> Option<bool> {
    ARG_MEMO.with(|memo| match memo.try_borrow_mut() {
        Ok(mut memo) => write_block_with(desc, out, &mut memo),
        // not reached: nothing printed here prints another block
        Err(_) => write_block_with(desc, out, &mut ArgMemo::default()),
    })
}

fn write_block_with(desc: &[u8], out: &mut Vec<u8>, memo: &mut ArgMemo) -> Option<bool> {
    out.extend_from_slice(b"    AMDGPU Metadata:\n        ");
    let yaml_at = out.len();
    out.extend_from_slice(b"---\n");
    let mut p = Printer {
        r: Cursor::new(desc),
        base: 0,
        memo,
        last_arg: None,
        accepted: true,
    };
    let root = p.next()?;
    let root_is_map = matches!(root, Item::Map(_));
    match root {
        Item::Map(0) => {
            out.extend_from_slice(b"{}\n");
            p.accepted = false; // no amdhsa.version
        }
        Item::Map(n) => p.map_entries(out, n, 0, 0, Ctx::Root)?,
        Item::Array(n) => {
            p.accepted = false; // the verifier wants a map
            if n == 0 {
                out.extend_from_slice(b"[]\n");
            } else {
                p.seq_items(out, n, 0, 0, Ctx::Other)?;
            }
        }
        // a scalar root: LLVM prints the descriptor bytes; the tree printer does that
        _ => return None,
    }
    let accepted = p.accepted;
    let whole_map = root_is_map && p.base + p.r.pos() == desc.len();
    out.extend_from_slice(b"...\n");
    if !accepted && contains(desc, b"amdhsa.") {
        out.splice(
            yaml_at..yaml_at,
            b"Invalid AMDGPU Metadata\n".iter().copied(),
        );
    }
    Some(whole_map)
}

fn deeper(depth: usize) -> Option<()> {
    (depth < MAX_FAST_DEPTH).then_some(())
}

/// Where a map or array sits, for what LLVM's verifier checks of it
/// ([`super::llvm_verifier_accepts`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Not looked at.
    Other,
    /// The root map.
    Root,
    /// The `amdhsa.kernels` array: each item must be an accepted kernel map.
    Kernels,
    /// A kernel map.
    Kernel,
    /// A kernel's `.args` array: each item must be an accepted argument map.
    Args,
    /// An argument map.
    Arg,
}

/// What the verifier wants of the value of one key.
#[derive(Clone, Copy)]
enum Want {
    Int,
    Str,
    Bool,
    StrIn(&'static Words),
    /// An array of exactly this many integers.
    Ints(usize),
    /// An array of strings.
    Strs,
    /// An array whose items are checked in the given context.
    ArrayOf(Ctx),
    /// Anything (a key the verifier does not look at).
    Any,
}

/// A key the printer knows in a map of some context: what the verifier wants of its
/// value, its bit among the required keys of that map (0 if optional), and its text
/// as printed before a scalar (the key, a colon and the padding). Every known key
/// prints plain (a test checks), so no quoting scan is needed for it.
struct Known {
    want: Want,
    bit: u16,
    /// Key length.
    len: u8,
    /// Length of the key, colon and padding before a scalar or empty container.
    line: u8,
    /// The key, `:`, then spaces.
    text: [u8; 32],
}

const fn known(key: &str, want: Want, bit: u16) -> Known {
    let key = key.as_bytes();
    assert!(
        key.len() <= 30,
        "the key, colon and one space fit the 32 bytes"
    );
    let mut text = [b' '; 32];
    let mut i = 0;
    while i < key.len() {
        text[i] = key[i];
        i += 1;
    }
    text[key.len()] = b':';
    // padding to 16 characters after the colon, at least one space
    let pad = if key.len() < 15 { 16 - key.len() } else { 1 };
    Known {
        want,
        bit,
        len: key.len() as u8,
        line: (key.len() + 1 + pad) as u8,
        text,
    }
}

impl Known {
    fn key(&self) -> &[u8] {
        &self.text[..usize::from(self.len)]
    }
}

/// Slots of a [`Table`]: a power of two, more than twice the keys of any table.
const SLOTS: usize = 64;

/// The known keys of one context, found by an open-addressing hash of the key.
struct Table {
    keys: &'static [Known],
    /// Index + 1 into `keys`, 0 for an empty slot.
    slots: [u8; SLOTS],
}

/// Hash of a key: its last eight bytes (or its first and last four, or all of a
/// shorter key) and its length.
#[inline]
const fn key_hash(key: &[u8]) -> usize {
    let w = if let Some(c) = key.last_chunk::<8>() {
        u64::from_le_bytes(*c)
    } else if let (Some(a), Some(b)) = (key.first_chunk::<4>(), key.last_chunk::<4>()) {
        (u32::from_le_bytes(*a) as u64) | ((u32::from_le_bytes(*b) as u64) << 32)
    } else {
        let mut w = 0u64;
        let mut i = 0;
        while i < key.len() {
            w = (w << 8) | key[i] as u64;
            i += 1;
        }
        w
    };
    ((w ^ key.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize
}

const fn table(keys: &'static [Known]) -> Table {
    assert!(2 * keys.len() < SLOTS);
    let mut slots = [0u8; SLOTS];
    let mut i = 0;
    while i < keys.len() {
        let key = keys[i].text.split_at(keys[i].len as usize).0;
        let mut h = key_hash(key) % SLOTS;
        while slots[h] != 0 {
            h = (h + 1) % SLOTS;
        }
        slots[h] = (i + 1) as u8;
        i += 1;
    }
    Table { keys, slots }
}

impl Table {
    #[inline]
    fn get(&self, key: &[u8]) -> Option<&Known> {
        let mut h = key_hash(key);
        loop {
            let slot = self.slots[h % SLOTS];
            let k = self.keys.get(usize::from(slot).checked_sub(1)?)?;
            if same(k.key(), key) {
                return Some(k);
            }
            h += 1;
        }
    }
}

/// A set of words (the verifier's lists of allowed strings), found as [`Table`]
/// finds keys.
struct Words {
    words: &'static [&'static str],
    /// Whether every word prints plain and untagged, as itself (a test checks).
    plain: bool,
    /// Index + 1 into `words`, 0 for an empty slot.
    slots: [u8; WORD_SLOTS],
}

/// Slots of a [`Words`]: a power of two, more than twice the longest list.
const WORD_SLOTS: usize = 128;

const fn words(words: &'static [&'static str], plain: bool) -> Words {
    assert!(2 * words.len() < WORD_SLOTS);
    let mut slots = [0u8; WORD_SLOTS];
    let mut i = 0;
    while i < words.len() {
        let mut h = key_hash(words[i].as_bytes()) % WORD_SLOTS;
        while slots[h] != 0 {
            h = (h + 1) % WORD_SLOTS;
        }
        slots[h] = (i + 1) as u8;
        i += 1;
    }
    Words {
        words,
        plain,
        slots,
    }
}

impl Words {
    /// Whether `s` is one of the words.
    #[inline]
    fn contains(&self, s: &[u8]) -> bool {
        let mut h = key_hash(s);
        loop {
            let slot = self.slots[h % WORD_SLOTS];
            let Some(w) = usize::from(slot)
                .checked_sub(1)
                .and_then(|i| self.words.get(i))
            else {
                return false;
            };
            if same(w.as_bytes(), s) {
                return true;
            }
            h += 1;
        }
    }
}

// (`OpenCL C++` is quoted)
static LANGUAGE_WORDS: Words = words(LANGUAGES, false);
static VALUE_KIND_WORDS: Words = words(LLVM_VALUE_KINDS, true);
static ADDRESS_SPACE_WORDS: Words = words(ADDRESS_SPACES, true);
static ACCESS_WORDS: Words = words(ACCESSES, true);

/// The keys LLVM's verifier looks at in the root map, and `amdhsa.target` (not
/// checked, but in every document).
static ROOT: Table = table(&[
    known("amdhsa.version", Want::Ints(2), 1),
    known("amdhsa.kernels", Want::ArrayOf(Ctx::Kernels), 2),
    known("amdhsa.printf", Want::Strs, 0),
    known("amdhsa.target", Want::Any, 0),
]);

/// The keys LLVM's verifier looks at in a kernel map, and `.agpr_count`.
static KERNEL: Table = table(&[
    known(".name", Want::Str, 1 << 0),
    known(".symbol", Want::Str, 1 << 1),
    known(".kernarg_segment_size", Want::Int, 1 << 2),
    known(".group_segment_fixed_size", Want::Int, 1 << 3),
    known(".private_segment_fixed_size", Want::Int, 1 << 4),
    known(".kernarg_segment_align", Want::Int, 1 << 5),
    known(".wavefront_size", Want::Int, 1 << 6),
    known(".sgpr_count", Want::Int, 1 << 7),
    known(".vgpr_count", Want::Int, 1 << 8),
    known(".max_flat_workgroup_size", Want::Int, 1 << 9),
    known(".sgpr_spill_count", Want::Int, 0),
    known(".vgpr_spill_count", Want::Int, 0),
    known(".workgroup_processor_mode", Want::Int, 0),
    known(".uniform_work_group_size", Want::Int, 0),
    known(".vec_type_hint", Want::Str, 0),
    known(".device_enqueue_symbol", Want::Str, 0),
    known(".language", Want::StrIn(&LANGUAGE_WORDS), 0),
    known(".language_version", Want::Ints(2), 0),
    known(".reqd_workgroup_size", Want::Ints(3), 0),
    known(".workgroup_size_hint", Want::Ints(3), 0),
    known(".cluster_dims", Want::Ints(3), 0),
    known(".uses_dynamic_stack", Want::Bool, 0),
    known(".args", Want::ArrayOf(Ctx::Args), 0),
    known(".agpr_count", Want::Any, 0),
]);

/// The keys LLVM's verifier looks at in a kernel argument map.
static ARG: Table = table(&[
    known(".size", Want::Int, 1 << 0),
    known(".offset", Want::Int, 1 << 1),
    known(".value_kind", Want::StrIn(&VALUE_KIND_WORDS), 1 << 2),
    known(".name", Want::Str, 0),
    known(".type_name", Want::Str, 0),
    known(".pointee_align", Want::Int, 0),
    known(".address_space", Want::StrIn(&ADDRESS_SPACE_WORDS), 0),
    known(".access", Want::StrIn(&ACCESS_WORDS), 0),
    known(".actual_access", Want::StrIn(&ACCESS_WORDS), 0),
    known(".is_const", Want::Bool, 0),
    known(".is_restrict", Want::Bool, 0),
    known(".is_volatile", Want::Bool, 0),
    known(".is_pipe", Want::Bool, 0),
]);

/// The known keys of a map in `ctx`.
fn known_keys(ctx: Ctx) -> Option<&'static Table> {
    match ctx {
        Ctx::Root => Some(&ROOT),
        Ctx::Kernel => Some(&KERNEL),
        Ctx::Arg => Some(&ARG),
        Ctx::Other | Ctx::Kernels | Ctx::Args => None,
    }
}

/// Whether `a == b`, comparing words rather than calling `memcmp`.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if let (Some(x), Some(y)) = (a.last_chunk::<8>(), b.last_chunk::<8>()) {
        // whole words from the front, then the last word (overlapping)
        return x == y
            && a.chunks_exact(8)
                .zip(b.chunks_exact(8))
                .all(|(p, q)| p.first_chunk::<8>() == q.first_chunk::<8>());
    }
    if let (Some(x), Some(y)) = (a.first_chunk::<4>(), b.first_chunk::<4>()) {
        return x == y && a.last_chunk::<4>() == b.last_chunk::<4>();
    }
    a == b
}

/// The required keys of a map in `ctx`, as bits.
fn required(ctx: Ctx) -> u16 {
    match ctx {
        Ctx::Root => 0b11,
        Ctx::Kernel => (1 << 10) - 1,
        Ctx::Arg => 0b111,
        _ => 0,
    }
}

/// The reader and what has been learnt. The output is passed to each method as an
/// argument of its own rather than held here (measured: about 7% faster, the
/// compiler then reloading the vector's fields less often).
struct Printer<'a, 'm> {
    /// The reader, over the descriptor from `base` on (moved on past argument maps
    /// printed from the memo).
    r: Cursor<'a>,
    base: usize,
    memo: &'m mut ArgMemo,
    /// The memo entry of the argument map printed last in this `.args` array.
    last_arg: Option<usize>,
    /// Whether LLVM's verifier accepts what has been read so far.
    accepted: bool,
}

impl<'a> Printer<'a, '_> {
    /// The next item header; `None` also for an extension (LLVM refuses documents
    /// with one).
    #[inline]
    fn next(&mut self) -> Option<Item<'a>> {
        match self.r.item()? {
            Item::Ext => None,
            item => Some(item),
        }
    }

    /// Whether the value whose header is `v` (its items not read yet) is what `want`
    /// asks for; arrays of scalars are looked into without moving the cursor.
    fn satisfies(&self, want: Want, v: &Item<'a>) -> bool {
        let scalars = |n: usize, f: fn(&Item<'_>) -> bool| {
            let mut c = self.r.clone();
            (0..n).all(|_| c.item().is_some_and(|i| f(&i)))
        };
        match (want, v) {
            (Want::Int, v) => is_int(v),
            (Want::Str, v) => matches!(v, Item::Str(_)),
            (Want::Bool, v) => matches!(v, Item::Bool(_)),
            (Want::StrIn(words), Item::Str(s)) => words.contains(s),
            (Want::Ints(n), &Item::Array(m)) => n == m && scalars(m, is_int),
            (Want::Strs, &Item::Array(m)) => scalars(m, |i| matches!(i, Item::Str(_))),
            (Want::ArrayOf(_), Item::Array(_)) | (Want::Any, _) => true,
            _ => false,
        }
    }

    /// The entries of a non-empty map at column `col`, in context `ctx`; what goes
    /// before the first key on its line is already written.
    fn map_entries(
        &mut self,
        out: &mut Vec<u8>,
        n: usize,
        col: usize,
        depth: usize,
        ctx: Ctx,
    ) -> Option<()> {
        deeper(depth)?;
        let table = known_keys(ctx);
        let mut prev: &[u8] = &[];
        let mut seen = 0u16;
        for i in 0..n {
            if i > 0 {
                spaces(out, col);
            }
            let Item::Str(key) = self.next()? else {
                return None;
            };
            if i > 0 && !less(prev, key) {
                return None; // LLVM would sort, or refuse a duplicate
            }
            prev = key;
            let known = table.and_then(|t| t.get(key));
            let value = self.next()?;
            let mut inner = Ctx::Other;
            // a string value known to be one of the verifier's words that print as
            // they are
            let mut word = false;
            if let Some(k) = known {
                if self.satisfies(k.want, &value) {
                    seen |= k.bit;
                    match k.want {
                        Want::ArrayOf(c) => inner = c,
                        Want::StrIn(words) => word = words.plain,
                        _ => {}
                    }
                } else if k.bit == 0 {
                    self.accepted = false;
                }
            }
            // the key, then after the colon: padding to 16 characters before a
            // scalar or empty container, a new line for a non-empty container
            let nested = matches!(value, Item::Map(m) | Item::Array(m) if m > 0);
            match known {
                Some(k) => {
                    let at = out.len();
                    out.extend_from_slice(&k.text);
                    if nested {
                        out.truncate(at + usize::from(k.len) + 1);
                        out.push(b'\n');
                    } else {
                        out.truncate(at + usize::from(k.line));
                    }
                }
                None => {
                    write_quoted(out, key, quoting(key, false));
                    if nested {
                        out.extend_from_slice(b":\n");
                    } else {
                        colon_pad(out, 16usize.saturating_sub(key.len()).max(1));
                    }
                }
            }
            match value {
                Item::Map(0) => out.extend_from_slice(b"{}\n"),
                Item::Array(0) => out.extend_from_slice(b"[]\n"),
                Item::Map(m) => {
                    spaces(out, col + 2);
                    self.map_entries(out, m, col + 2, depth + 1, Ctx::Other)?;
                }
                Item::Array(m) => {
                    spaces(out, col + 2);
                    self.seq_items(out, m, col + 2, depth + 1, inner)?;
                }
                Item::Str(v) => {
                    let at = self.r.pos().saturating_sub(v.len());
                    if word {
                        put_line(out, self.r.data(), at, v.len());
                    } else {
                        write_string_value(out, self.r.data(), at, v);
                        out.push(b'\n');
                    }
                }
                Item::UInt(u) => write_u64_line(out, u),
                scalar => {
                    write_scalar(out, scalar);
                    out.push(b'\n');
                }
            }
        }
        if seen != required(ctx) {
            self.accepted = false;
        }
        Some(())
    }

    /// Prints the argument map at the cursor, at column `col` and nesting `depth`,
    /// copying its text from the memo when the same bytes were printed there before
    /// (and keeping it there when not); `Some(false)`, with nothing read, when the
    /// item is not a non-empty map of a size the memo takes.
    fn arg_from_memo(&mut self, out: &mut Vec<u8>, col: usize, depth: usize) -> Option<bool> {
        let data = self.r.data();
        let at = self.r.pos();
        // the map that followed the last one printed from the memo, when it follows
        // again (the bytes here start with its bytes, so they are its bytes): no
        // need to find where the map ends and hash it
        let found = match self.last_arg.and_then(|i| self.memo.next_of(i)) {
            Some(i) if self.memo.is_at(i, &data[at..], col, depth) => Some(i),
            _ => None,
        };
        let (found, key, len) = match found {
            Some(i) => (Some(i), 0, 0),
            None => {
                let Some(len) = memo_len(&self.r) else {
                    return Some(false);
                };
                let key = memo_key(&data[at..at + len], col, depth);
                (
                    self.memo.get(key, &data[at..at + len], col, depth),
                    key,
                    len,
                )
            }
        };
        if let Some(i) = found {
            let (text, accepted) = self.memo.text(i);
            out.extend_from_slice(text);
            self.accepted &= accepted;
            let len = self.memo.bytes_len(i);
            self.memo.link(self.last_arg, i);
            self.last_arg = Some(i);
            self.skip(len);
            return Some(true);
        }
        // print it, learning on its own what the verifier makes of it
        let start = out.len();
        let before = self.accepted;
        self.accepted = true;
        let Some(Item::Map(m)) = self.next() else {
            return None; // not reached: read above
        };
        self.map_entries(out, m, col, depth, Ctx::Arg)?;
        let accepted = self.accepted;
        self.accepted = before && accepted;
        let new = if self.r.pos() == at + len && out.len() >= start {
            let text = &out[start..];
            self.memo
                .insert(key, &data[at..at + len], text, (col, depth), accepted)
        } else {
            None
        };
        self.memo.link(self.last_arg, new.unwrap_or(usize::MAX));
        self.last_arg = new;
        Some(true)
    }

    /// Moves the reader `n` bytes on.
    fn skip(&mut self, n: usize) {
        let to = self.r.pos() + n;
        self.base += to;
        self.r = Cursor::new(self.r.data().get(to..).unwrap_or_default());
    }

    /// The items of a non-empty array at column `col`, in context `ctx`; what goes
    /// before the first `- ` on its line is already written.
    fn seq_items(
        &mut self,
        out: &mut Vec<u8>,
        n: usize,
        col: usize,
        depth: usize,
        ctx: Ctx,
    ) -> Option<()> {
        deeper(depth)?;
        // the context of the items, which must be non-empty maps
        let items = match ctx {
            Ctx::Kernels => Ctx::Kernel,
            Ctx::Args => Ctx::Arg,
            _ => Ctx::Other,
        };
        if items == Ctx::Arg {
            self.last_arg = None;
        }
        for i in 0..n {
            if i > 0 {
                spaces(out, col);
            }
            out.extend_from_slice(b"- ");
            if items == Ctx::Arg && self.arg_from_memo(out, col + 2, depth + 1)? {
                continue;
            }
            let item = self.next()?;
            if items != Ctx::Other && !matches!(item, Item::Map(m) if m > 0) {
                self.accepted = false;
            }
            match item {
                Item::Map(0) => out.extend_from_slice(b"{}\n"),
                Item::Array(0) => {
                    // LLVM's quirk: the `- ` marks pending on this line are lost
                    let line = out.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                    out.truncate(line);
                    out.extend_from_slice(b"[]\n");
                }
                Item::Map(m) => self.map_entries(out, m, col + 2, depth + 1, items)?,
                Item::Array(m) => self.seq_items(out, m, col + 2, depth + 1, Ctx::Other)?,
                Item::UInt(u) => write_u64_line(out, u),
                scalar => {
                    write_scalar(out, scalar);
                    out.push(b'\n');
                }
            }
        }
        Some(())
    }
}

/// Argument maps the memo takes: at most this many items in all.
const MEMO_MAX_ITEMS: usize = 64;

/// Length in bytes of the item at `r` if it is a non-empty map the memo takes (at
/// most [`MEMO_MAX_ITEMS`] items, nested ones included, no extension).
fn memo_len(r: &Cursor<'_>) -> Option<usize> {
    let data = r.data();
    let start = r.pos();
    let tag = *data.get(start)?;
    // a fixmap: the common header; others through the cursor
    let (mut p, n) = if tag & 0xf0 == 0x80 {
        (start + 1, usize::from(tag & 0x0f))
    } else {
        let mut c = r.clone();
        match c.item()? {
            Item::Map(n) => (c.pos(), n),
            _ => return None,
        }
    };
    if n == 0 || n > MEMO_MAX_ITEMS / 2 {
        return None;
    }
    let mut left = 2 * n;
    let mut items = 0;
    while left > 0 {
        left -= 1;
        items += 1;
        if items > MEMO_MAX_ITEMS {
            return None;
        }
        let tag = *data.get(p)?;
        if tag < 0x80 {
            p += 1; // positive fixint
        } else if tag & 0xe0 == 0xa0 {
            p += 1 + usize::from(tag & 0x1f); // fixstr
        } else {
            let mut c = Cursor::new(data.get(p..)?);
            match c.item()? {
                Item::Map(m) => left = left.checked_add(m.checked_mul(2)?)?,
                Item::Array(m) => left = left.checked_add(m)?,
                Item::Ext => return None,
                _ => {}
            }
            p += c.pos();
        }
    }
    (p <= data.len()).then(|| p - start)
}

/// Hash of an argument map's bytes and where it is printed (every word multiplied
/// on its own, so the products are computed side by side).
#[inline]
fn memo_key(bytes: &[u8], col: usize, depth: usize) -> u64 {
    const K: [u64; 4] = [
        0x9e37_79b9_7f4a_7c15,
        0xc2b2_ae3d_27d4_eb4f,
        0x1656_67b1_9e37_79f9,
        0x27d4_eb2f_1656_67c5,
    ];
    let mut h = (col as u64) << 40 ^ (depth as u64) << 20 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for (i, w) in (&mut words).enumerate() {
        let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
        h = h.wrapping_add((w ^ i as u64).wrapping_mul(K[i % 4]));
    }
    if let Some(last) = bytes.last_chunk::<8>() {
        h = h.wrapping_add(u64::from_le_bytes(*last).wrapping_mul(K[3]));
    } else {
        let tail = bytes.iter().fold(0u64, |a, &b| a << 8 | u64::from(b));
        h = h.wrapping_add(tail.wrapping_mul(K[3]));
    }
    h ^ (h >> 31)
}

/// One printed argument map: its hash (with the column and depth), bytes and text
/// (ranges of [`ArgMemo::store`]) and whether the verifier accepts it.
struct MemoEntry {
    key: u64,
    col: usize,
    depth: usize,
    bytes: (u32, u32),
    text: (u32, u32),
    accepted: bool,
    /// The entry that followed this one in an `.args` array last time
    /// (`usize::MAX` for none): a guess, checked against the bytes.
    next: usize,
}

/// Argument maps printed before by this thread, by their MessagePack bytes, column
/// and depth: a document's kernels mostly take the same hidden arguments, and the
/// code objects of one run mostly the same kernels, so most argument maps of a run
/// have been printed before. The text of an item follows from its bytes alone (a
/// MessagePack item ends where its encoding says), and the memo holds only maps
/// printed whole, so a copy from it is the text printing would give.
#[derive(Default)]
struct ArgMemo {
    /// Open addressing over `entries`: index + 1, 0 for an empty slot.
    slots: Vec<u32>,
    entries: Vec<MemoEntry>,
    store: Vec<u8>,
}

/// Slots of the memo; it is emptied when it holds half as many entries, or this
/// many bytes.
const MEMO_SLOTS: usize = 1 << 11;
const MEMO_MAX_BYTES: usize = 1 << 22;

impl ArgMemo {
    /// The entry of `bytes` printed at `col` and `depth`, whose hash is `key`.
    fn get(&self, key: u64, bytes: &[u8], col: usize, depth: usize) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mut h = key as usize;
        loop {
            let i = (self.slots[h % MEMO_SLOTS] as usize).checked_sub(1)?;
            let e = &self.entries[i];
            if e.key == key && (e.col, e.depth) == (col, depth) && same(self.bytes(i), bytes) {
                return Some(i);
            }
            h += 1;
        }
    }

    fn bytes(&self, i: usize) -> &[u8] {
        let (at, len) = self.entries[i].bytes;
        &self.store[at as usize..(at + len) as usize]
    }

    fn bytes_len(&self, i: usize) -> usize {
        self.entries[i].bytes.1 as usize
    }

    /// The text of entry `i` and whether the verifier accepts the map.
    fn text(&self, i: usize) -> (&[u8], bool) {
        let e = &self.entries[i];
        let (at, len) = e.text;
        (&self.store[at as usize..(at + len) as usize], e.accepted)
    }

    /// Whether `data` starts with the bytes of entry `i`, printed at `col` and
    /// `depth`.
    #[inline]
    fn is_at(&self, i: usize, data: &[u8], col: usize, depth: usize) -> bool {
        let e = &self.entries[i];
        let len = e.bytes.1 as usize;
        (e.col, e.depth) == (col, depth) && data.get(..len).is_some_and(|d| same(d, self.bytes(i)))
    }

    /// The entry that followed entry `i` last time.
    fn next_of(&self, i: usize) -> Option<usize> {
        let next = self.entries.get(i)?.next;
        (next < self.entries.len()).then_some(next)
    }

    /// Notes that entry `next` (`usize::MAX` for none) followed entry `prev`.
    fn link(&mut self, prev: Option<usize>, next: usize) {
        if let Some(e) = prev.and_then(|i| self.entries.get_mut(i)) {
            e.next = next;
        }
    }

    /// Adds an entry; its index, or `None` when it is too big to keep.
    fn insert(
        &mut self,
        key: u64,
        bytes: &[u8],
        text: &[u8],
        at: (usize, usize),
        accepted: bool,
    ) -> Option<usize> {
        if bytes.len() + text.len() > MEMO_MAX_BYTES / 4 {
            return None;
        }
        if self.entries.len() >= MEMO_SLOTS / 2
            || self.store.len() + bytes.len() + text.len() > MEMO_MAX_BYTES
        {
            self.slots.clear();
            self.entries.clear();
            self.store.clear();
        }
        if self.slots.is_empty() {
            self.slots.resize(MEMO_SLOTS, 0);
        }
        let mut put = |s: &[u8]| {
            let at = self.store.len() as u32;
            self.store.extend_from_slice(s);
            (at, s.len() as u32)
        };
        let entry = MemoEntry {
            key,
            col: at.0,
            depth: at.1,
            bytes: put(bytes),
            text: put(text),
            accepted,
            next: usize::MAX,
        };
        self.entries.push(entry);
        let mut h = key as usize;
        while self.slots[h % MEMO_SLOTS] != 0 {
            h += 1;
        }
        self.slots[h % MEMO_SLOTS] = self.entries.len() as u32;
        Some(self.entries.len() - 1)
    }
}

thread_local! {
    static ARG_MEMO: std::cell::RefCell<ArgMemo> = std::cell::RefCell::default();
}

/// How many argument maps this thread's memo holds.
#[cfg(test)]
pub(super) fn memo_entries() -> usize {
    ARG_MEMO.with(|m| m.borrow().entries.len())
}

/// `a < b` in byte order, comparing a leading word first.
#[inline]
fn less(a: &[u8], b: &[u8]) -> bool {
    if let (Some(x), Some(y)) = (a.first_chunk::<8>(), b.first_chunk::<8>()) {
        let (x, y) = (u64::from_be_bytes(*x), u64::from_be_bytes(*y));
        if x != y {
            return x < y;
        }
    } else if let (Some(x), Some(y)) = (a.first_chunk::<4>(), b.first_chunk::<4>()) {
        let (x, y) = (u32::from_be_bytes(*x), u32::from_be_bytes(*y));
        if x != y {
            return x < y;
        }
    }
    a < b
}

fn is_int(item: &Item<'_>) -> bool {
    matches!(item, Item::Int(_) | Item::UInt(_))
}

/// A colon and the most padding a key gets (16 spaces, for an empty key).
const COLON_PAD: &[u8; 17] = b":                ";

/// Short copies below write a fixed-size block (inline moves, no call) and cut the
/// vector back to the length wanted.
fn colon_pad(out: &mut Vec<u8>, pad: usize) {
    let len = out.len();
    out.extend_from_slice(COLON_PAD);
    out.truncate(len + 1 + pad.min(16));
}

fn spaces(out: &mut Vec<u8>, n: usize) {
    if n <= 32 {
        let len = out.len();
        out.extend_from_slice(&[b' '; 32]);
        out.truncate(len + n);
    } else {
        out.resize(out.len() + n, b' ');
    }
}

/// Appends `data[at..at + len]`.
#[inline]
fn put(out: &mut Vec<u8>, data: &[u8], at: usize, len: usize) {
    let tail = data.get(at..).unwrap_or_default();
    if len <= 16 {
        if let Some(block) = tail.first_chunk::<16>() {
            let start = out.len();
            out.extend_from_slice(block);
            out.truncate(start + len);
            return;
        }
    } else if len <= 32 {
        if let Some(block) = tail.first_chunk::<32>() {
            let start = out.len();
            out.extend_from_slice(block);
            out.truncate(start + len);
            return;
        }
    }
    out.extend_from_slice(tail.get(..len).unwrap_or_default());
}

/// [`put`], then a newline.
#[inline]
fn put_line(out: &mut Vec<u8>, data: &[u8], at: usize, len: usize) {
    put(out, data, at, len);
    out.push(b'\n');
}

fn write_scalar(out: &mut Vec<u8>, item: Item<'_>) {
    match item {
        Item::Nil => out.extend_from_slice(b"!nil ''"),
        Item::Bool(true) => out.extend_from_slice(b"true"),
        Item::Bool(false) => out.extend_from_slice(b"false"),
        Item::UInt(u) => write_u64(out, u),
        Item::Int(i) => {
            if i < 0 {
                out.push(b'-');
            }
            write_u64(out, i.unsigned_abs());
        }
        Item::Float32(f) => out.extend_from_slice(format_e(f64::from(f)).as_bytes()),
        Item::Float64(f) => out.extend_from_slice(format_e(f).as_bytes()),
        Item::Str(s) => write_string_value(out, s, 0, s),
        Item::Bin(b) => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"!bin '");
            for &x in b {
                out.push(HEX[usize::from(x >> 4)]);
                out.push(HEX[usize::from(x & 15)]);
            }
            out.push(b'\'');
        }
        Item::Array(_) | Item::Map(_) | Item::Ext => {}
    }
}

/// Pairs of decimal digits, `00` to `99`.
static DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// `v` in decimal followed by `end`, written left-aligned into a fixed block (so the
/// copy out is one fixed-size move); the length used.
fn decimal(v: u64, end: &[u8]) -> ([u8; 24], usize) {
    let mut buf = [b'\n'; 24];
    let digits = v.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut i = digits;
    let mut v = v;
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        buf[0..2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        buf[0] = b'0' + v as u8;
    }
    buf[digits..digits + end.len()].copy_from_slice(end);
    (buf, digits + end.len())
}

/// Appends `v` in decimal, then `end` (at most one byte).
#[inline(always)]
fn write_u64_then(out: &mut Vec<u8>, v: u64, end: &[u8]) {
    let at = out.len();
    if v < 10_000_000 {
        // the digits and `end` built in a register, first digit in the low byte,
        // and stored as one word (bytes written one by one to a buffer and read
        // back as a block would stall the store)
        let mut w = end.first().map_or(0, |&e| u64::from(e));
        let mut v = v as usize;
        let mut len = end.len();
        let pair = |p: usize| {
            u64::from(u16::from_le_bytes([
                DIGIT_PAIRS[2 * p],
                DIGIT_PAIRS[2 * p + 1],
            ]))
        };
        while v >= 100 {
            w = (w << 16) | pair(v % 100);
            len += 2;
            v /= 100;
        }
        if v >= 10 {
            w = (w << 16) | pair(v);
            len += 2;
        } else {
            w = (w << 8) | (v as u64 + u64::from(b'0'));
            len += 1;
        }
        out.extend_from_slice(&w.to_le_bytes());
        out.truncate(at + len);
    } else {
        let (buf, len) = decimal(v, end);
        out.extend_from_slice(&buf);
        out.truncate(at + len);
    }
}

fn write_u64(out: &mut Vec<u8>, v: u64) {
    write_u64_then(out, v, b"");
}

/// [`write_u64`], then a newline.
#[inline]
fn write_u64_line(out: &mut Vec<u8>, v: u64) {
    write_u64_then(out, v, b"\n");
}

/// A string value as [`super::yaml_string`] prints it; `s` is `data[at..]`.
fn write_string_value(out: &mut Vec<u8>, data: &[u8], at: usize, s: &[u8]) {
    // text starting with a letter (but not one `inf` or `nan` starts with) or `_`
    // reads back as something else only if it is `true` or `false`
    let tagged = match s.first() {
        Some(&c)
            if (c.is_ascii_alphabetic() && !matches!(c, b'i' | b'I' | b'n' | b'N'))
                || c == b'_' =>
        {
            s == b"true" || s == b"false"
        }
        _ => reads_as_non_string(s),
    };
    if tagged {
        out.extend_from_slice(b"!str ");
    }
    match quoting(s, true) {
        Quoting::Plain => put(out, data, at, s.len()),
        q => write_quoted(out, s, q),
    }
}

/// Class of a byte for quoting: 0 plain, [`SINGLE`], or [`DOUBLE`].
const SINGLE: u8 = 1;
const DOUBLE: u8 = 2;
static CLASS: [u8; 256] = class_table();

const fn class_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = if c.is_ascii_alphanumeric()
            || matches!(c, b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t')
        {
            0
        } else if c < 0x20 || c >= 0x7f {
            DOUBLE
        } else {
            SINGLE
        };
        i += 1;
    }
    t
}

/// [`super::needs_quotes`], with one table lookup per byte.
fn quoting(s: &[u8], check_type: bool) -> Quoting {
    let (Some(&first), Some(&last)) = (s.first(), s.last()) else {
        return Quoting::Single;
    };
    let class = s.iter().fold(0u8, |acc, &c| acc | CLASS[usize::from(c)]);
    if class & DOUBLE != 0 {
        return Quoting::Double;
    }
    // of the characters LLVM otherwise leaves plain, only these matter at the ends
    if class & SINGLE != 0
        || matches!(first, b' ' | b'\t' | b'-' | b',')
        || matches!(last, b' ' | b'\t')
    {
        return Quoting::Single;
    }
    // left: letters, digits and `_ ^ . , -` and blanks inside; only a leading digit
    // or `.` can make a number
    if check_type
        && ((matches!(s.len(), 4 | 5) && (is_yaml_null(s) || is_yaml_bool(s)))
            || ((first.is_ascii_digit() || first == b'.') && is_yaml_numeric(s)))
    {
        return Quoting::Single;
    }
    Quoting::Plain
}

fn write_quoted(out: &mut Vec<u8>, s: &[u8], q: Quoting) {
    match q {
        // plain and single-quoted text is ASCII here (see `quoting`)
        Quoting::Plain => out.extend_from_slice(s),
        Quoting::Single => {
            out.push(b'\'');
            let mut rest = s;
            while let Some(p) = rest.iter().position(|&b| b == b'\'') {
                out.extend_from_slice(&rest[..=p]);
                out.push(b'\'');
                rest = &rest[p + 1..];
            }
            out.extend_from_slice(rest);
            out.push(b'\'');
        }
        Quoting::Double => out.extend_from_slice(quote(s, Quoting::Double).as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLES: [&Table; 3] = [&ROOT, &KERNEL, &ARG];

    /// Every known key prints plain (the printer copies it without a quoting scan),
    /// its text is what the tree printer's key, colon and padding are, and the table
    /// finds it and nothing else.
    #[test]
    fn known_keys() {
        let all: Vec<&[u8]> = TABLES
            .iter()
            .flat_map(|t| t.keys.iter().map(Known::key))
            .collect();
        for t in TABLES {
            for k in t.keys {
                let key = k.key();
                let name = String::from_utf8_lossy(key);
                assert!(
                    super::super::needs_quotes(key, false) == Quoting::Plain,
                    "{name}"
                );
                let pad = 16usize.saturating_sub(key.len()).max(1);
                let line = format!("{name}:{}", " ".repeat(pad));
                assert_eq!(&k.text[..usize::from(k.line)], line.as_bytes(), "{name}");
                assert!(std::ptr::eq(t.get(key).unwrap(), k), "{name}");
                // near misses
                let mut longer = key.to_vec();
                longer.push(b'x');
                assert!(t.get(&longer).is_none(), "{name}x");
                assert!(t.get(&key[..key.len() - 1]).is_none(), "{name} cut");
                let mut other = key.to_vec();
                *other.last_mut().unwrap() ^= 1;
                assert!(t.get(&other).is_none(), "{name} changed");
            }
            for key in &all {
                let mine = t.keys.iter().any(|k| k.key() == *key);
                assert_eq!(t.get(key).is_some(), mine);
            }
            assert!(t.get(b"").is_none());
        }
    }

    /// The sets marked plain print their words as they are (the printer copies them);
    /// the sets hold their lists exactly.
    #[test]
    fn word_sets() {
        let sets: [(&Words, &[&str]); 4] = [
            (&LANGUAGE_WORDS, LANGUAGES),
            (&VALUE_KIND_WORDS, LLVM_VALUE_KINDS),
            (&ADDRESS_SPACE_WORDS, ADDRESS_SPACES),
            (&ACCESS_WORDS, ACCESSES),
        ];
        for (set, list) in sets {
            let plain = list
                .iter()
                .all(|w| super::super::yaml_string(w.as_bytes()) == *w);
            assert_eq!(set.plain, plain, "{list:?}");
            for w in list {
                assert!(set.contains(w.as_bytes()), "{w}");
                let mut other = w.as_bytes().to_vec();
                *other.last_mut().unwrap() ^= 1;
                for near in [format!("{w} ").as_bytes(), &w.as_bytes()[1..], &other] {
                    let listed = list.iter().any(|x| x.as_bytes() == near);
                    assert_eq!(set.contains(near), listed, "{w}");
                }
            }
            assert!(!set.contains(b""));
            assert!(!set.contains(b"hidden_"));
        }
    }

    #[test]
    fn integers_like_display() {
        let mut values = vec![0, 1, 9, u64::MAX, u64::MAX - 1, 1 << 63];
        for p in 1..20 {
            let t = 10u64.pow(p);
            values.extend([t - 1, t, t + 1, t.saturating_mul(2) - 1]);
        }
        for v in values {
            let mut out = b"x".to_vec();
            write_u64(&mut out, v);
            assert_eq!(out, format!("x{v}").as_bytes());
            write_u64_line(&mut out, v);
            assert_eq!(out, format!("x{v}{v}\n").as_bytes());
        }
    }

    #[test]
    fn same_is_equality() {
        let words: Vec<Vec<u8>> = (0..40)
            .flat_map(|n| {
                let base: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
                let mut changed = Vec::new();
                for i in 0..n {
                    let mut w = base.clone();
                    w[i] ^= 0x20;
                    changed.push(w);
                }
                changed.push(base);
                changed
            })
            .collect();
        for a in &words {
            for b in &words {
                assert_eq!(same(a, b), a == b);
            }
        }
    }
}
