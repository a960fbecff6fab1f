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
    let start = out.len();
    if write_block(desc, out).is_none() {
        out.truncate(start);
        return false;
    }
    true
}

/// Text this module wrote (always UTF-8) as a `String`.
pub(super) fn into_string(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        // not reached: every byte written is ASCII or comes from a `str`
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

fn write_block(desc: &[u8], out: &mut Vec<u8>) -> Option<()> {
    out.extend_from_slice(b"    AMDGPU Metadata:\n        ");
    let yaml_at = out.len();
    out.extend_from_slice(b"---\n");
    let mut p = Printer {
        r: Cursor::new(desc),
        out,
    };
    match p.next()? {
        Item::Map(0) => p.out.extend_from_slice(b"{}\n"),
        Item::Array(0) => p.out.extend_from_slice(b"[]\n"),
        Item::Map(n) => p.map_entries(n, 0, 0)?,
        Item::Array(n) => p.seq_items(n, 0, 0)?,
        // a scalar root: LLVM prints the descriptor bytes; the tree printer does that
        _ => return None,
    }
    out.extend_from_slice(b"...\n");
    if contains(desc, b"amdhsa.") && !verifier_accepts(desc)? {
        out.splice(yaml_at..yaml_at, b"Invalid AMDGPU Metadata\n".iter().copied());
    }
    Some(())
}

fn deeper(depth: usize) -> Option<()> {
    (depth < MAX_FAST_DEPTH).then_some(())
}

struct Printer<'a, 'o> {
    r: Cursor<'a>,
    out: &'o mut Vec<u8>,
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

    /// The entries of a non-empty map at column `col`; what goes before the first key
    /// on its line is already written.
    fn map_entries(&mut self, n: usize, col: usize, depth: usize) -> Option<()> {
        deeper(depth)?;
        let mut prev: Option<&[u8]> = None;
        for i in 0..n {
            if i > 0 {
                spaces(self.out, col);
            }
            let Item::Str(key) = self.next()? else {
                return None;
            };
            if prev.is_some_and(|p| p >= key) {
                return None; // LLVM would sort, or refuse a duplicate
            }
            prev = Some(key);
            write_quoted(self.out, key, quoting(key, false));
            self.out.push(b':');
            let pad = 16usize.saturating_sub(key.len()).max(1);
            match self.next()? {
                Item::Map(0) => {
                    spaces(self.out, pad);
                    self.out.extend_from_slice(b"{}\n");
                }
                Item::Array(0) => {
                    spaces(self.out, pad);
                    self.out.extend_from_slice(b"[]\n");
                }
                Item::Map(m) => {
                    self.out.push(b'\n');
                    spaces(self.out, col + 2);
                    self.map_entries(m, col + 2, depth + 1)?;
                }
                Item::Array(m) => {
                    self.out.push(b'\n');
                    spaces(self.out, col + 2);
                    self.seq_items(m, col + 2, depth + 1)?;
                }
                scalar => {
                    spaces(self.out, pad);
                    write_scalar(self.out, scalar);
                    self.out.push(b'\n');
                }
            }
        }
        Some(())
    }

    /// The items of a non-empty array at column `col`; what goes before the first
    /// `- ` on its line is already written.
    fn seq_items(&mut self, n: usize, col: usize, depth: usize) -> Option<()> {
        deeper(depth)?;
        for i in 0..n {
            if i > 0 {
                spaces(self.out, col);
            }
            self.out.extend_from_slice(b"- ");
            match self.next()? {
                Item::Map(0) => self.out.extend_from_slice(b"{}\n"),
                Item::Array(0) => {
                    // LLVM's quirk: the `- ` marks pending on this line are lost
                    let line = self
                        .out
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |p| p + 1);
                    self.out.truncate(line);
                    self.out.extend_from_slice(b"[]\n");
                }
                Item::Map(m) => self.map_entries(m, col + 2, depth + 1)?,
                Item::Array(m) => self.seq_items(m, col + 2, depth + 1)?,
                scalar => {
                    write_scalar(self.out, scalar);
                    self.out.push(b'\n');
                }
            }
        }
        Some(())
    }
}

fn spaces(out: &mut Vec<u8>, n: usize) {
    out.resize(out.len() + n, b' ');
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
        Item::Str(s) => write_string_value(out, s),
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

fn write_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// A string value as [`super::yaml_string`] prints it.
fn write_string_value(out: &mut Vec<u8>, s: &[u8]) {
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
    write_quoted(out, s, quoting(s, true));
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
        && (is_yaml_null(s)
            || is_yaml_bool(s)
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

/// [`super::llvm_verifier_accepts`] on the document in `desc`, read without a tree.
/// Only called on a descriptor [`Printer`] read whole, so every map has distinct
/// string keys and the first entry with a key is the only one.
fn verifier_accepts(desc: &[u8]) -> Option<bool> {
    let r = &mut Cursor::new(desc);
    let Item::Map(n) = r.item()? else {
        return Some(false);
    };
    let (mut version, mut printf, mut kernels) = (false, true, false);
    for _ in 0..n {
        let Item::Str(key) = r.item()? else {
            return None;
        };
        match key {
            b"amdhsa.version" => version = int_array(r, 2, 1)?,
            b"amdhsa.printf" => printf = all_items(r, 1, |r, item| value_is(r, item, 2, is_str))?,
            b"amdhsa.kernels" => kernels = all_items(r, 1, kernel_accepted)?,
            _ => r.skip(1)?,
        }
    }
    Some(version && printf && kernels)
}

/// Reads one item at nesting `depth`; `Some(true)` if it is an array whose every
/// item `f` accepts (`f` gets each item's header and reads the rest of it).
fn all_items<'a>(
    r: &mut Cursor<'a>,
    depth: usize,
    mut f: impl FnMut(&mut Cursor<'a>, Item<'a>) -> Option<bool>,
) -> Option<bool> {
    let item = r.item()?;
    let Item::Array(n) = item else {
        r.finish(item, depth)?;
        return Some(false);
    };
    deeper(depth)?;
    let mut ok = true;
    for _ in 0..n {
        let item = r.item()?;
        ok &= f(r, item)?;
    }
    Some(ok)
}

/// Reads one item at nesting `depth`; whether it is an array of `n` integers.
fn int_array(r: &mut Cursor<'_>, n: usize, depth: usize) -> Option<bool> {
    let mut count = 0;
    let all_int = all_items(r, depth, |r, item| {
        count += 1;
        value_is(r, item, depth + 1, is_int)
    })?;
    Some(all_int && count == n)
}

/// Reads the rest of the item whose header is `item`; whether `pred` holds for it.
fn value_is<'a>(
    r: &mut Cursor<'a>,
    item: Item<'a>,
    depth: usize,
    pred: impl Fn(&Item<'a>) -> bool,
) -> Option<bool> {
    let ok = pred(&item);
    r.finish(item, depth)?;
    Some(ok)
}

/// Reads one item at nesting `depth`; whether `pred` holds for it.
fn next_is<'a>(
    r: &mut Cursor<'a>,
    depth: usize,
    pred: impl Fn(&Item<'a>) -> bool,
) -> Option<bool> {
    let item = r.item()?;
    value_is(r, item, depth, pred)
}

fn is_int(item: &Item<'_>) -> bool {
    matches!(item, Item::Int(_) | Item::UInt(_))
}

fn is_str(item: &Item<'_>) -> bool {
    matches!(item, Item::Str(_))
}

fn is_bool(item: &Item<'_>) -> bool {
    matches!(item, Item::Bool(_))
}

fn str_in(item: &Item<'_>, allowed: &[&str]) -> bool {
    match item {
        Item::Str(s) => allowed.iter().any(|a| a.as_bytes() == *s),
        _ => false,
    }
}

/// [`super::kernel_accepted`] for a kernel whose header is `item` (items of
/// `amdhsa.kernels`, at depth 2).
fn kernel_accepted<'a>(r: &mut Cursor<'a>, item: Item<'a>) -> Option<bool> {
    const D: usize = 3;
    let Item::Map(n) = item else {
        r.finish(item, 2)?;
        return Some(false);
    };
    deeper(2)?;
    // bits of the required keys seen, each with the right type
    let mut required = 0u16;
    const ALL: u16 = (1 << 10) - 1;
    let mut ok = true;
    for _ in 0..n {
        let Item::Str(key) = r.item()? else {
            return None;
        };
        let bit = match key {
            b".name" => 1 << 0,
            b".symbol" => 1 << 1,
            b".kernarg_segment_size" => 1 << 2,
            b".group_segment_fixed_size" => 1 << 3,
            b".private_segment_fixed_size" => 1 << 4,
            b".kernarg_segment_align" => 1 << 5,
            b".wavefront_size" => 1 << 6,
            b".sgpr_count" => 1 << 7,
            b".vgpr_count" => 1 << 8,
            b".max_flat_workgroup_size" => 1 << 9,
            _ => 0,
        };
        if bit != 0 {
            let pred = if bit < 1 << 2 { is_str } else { is_int };
            if next_is(r, D, pred)? {
                required |= bit;
            }
            continue;
        }
        ok &= match key {
            b".sgpr_spill_count"
            | b".vgpr_spill_count"
            | b".workgroup_processor_mode"
            | b".uniform_work_group_size" => next_is(r, D, is_int)?,
            b".vec_type_hint" | b".device_enqueue_symbol" => next_is(r, D, is_str)?,
            b".language" => next_is(r, D, |v| str_in(v, LANGUAGES))?,
            b".language_version" => int_array(r, 2, D)?,
            b".reqd_workgroup_size" | b".workgroup_size_hint" | b".cluster_dims" => {
                int_array(r, 3, D)?
            }
            b".uses_dynamic_stack" => next_is(r, D, is_bool)?,
            b".args" => all_items(r, D, arg_accepted)?,
            _ => {
                r.skip(D)?;
                true
            }
        };
    }
    Some(ok && required == ALL)
}

/// [`super::arg_accepted`] for an argument whose header is `item` (items of
/// `.args`, at depth 4).
fn arg_accepted<'a>(r: &mut Cursor<'a>, item: Item<'a>) -> Option<bool> {
    const D: usize = 5;
    let Item::Map(n) = item else {
        r.finish(item, 4)?;
        return Some(false);
    };
    deeper(4)?;
    let (mut size, mut offset, mut value_kind) = (false, false, false);
    let mut ok = true;
    for _ in 0..n {
        let Item::Str(key) = r.item()? else {
            return None;
        };
        match key {
            b".size" => size = next_is(r, D, is_int)?,
            b".offset" => offset = next_is(r, D, is_int)?,
            b".value_kind" => value_kind = next_is(r, D, |v| str_in(v, LLVM_VALUE_KINDS))?,
            b".name" | b".type_name" => ok &= next_is(r, D, is_str)?,
            b".pointee_align" => ok &= next_is(r, D, is_int)?,
            b".address_space" => ok &= next_is(r, D, |v| str_in(v, ADDRESS_SPACES))?,
            b".access" | b".actual_access" => ok &= next_is(r, D, |v| str_in(v, ACCESSES))?,
            b".is_const" | b".is_restrict" | b".is_volatile" | b".is_pipe" => {
                ok &= next_is(r, D, is_bool)?
            }
            _ => r.skip(D)?,
        }
    }
    Some(ok && size && offset && value_kind)
}
