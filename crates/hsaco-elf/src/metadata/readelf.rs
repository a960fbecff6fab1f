//! The text `llvm-readelf --notes` prints for metadata notes, reproduced from the note
//! descriptor, and the helpers that cut that text out of readelf's output so the two
//! can be compared.
//!
//! What LLVM 22 does, as observed (see `tests/data/metadata/README.md`):
//!
//! * `NT_AMDGPU_METADATA`: the first MessagePack item of the descriptor is read
//!   (trailing bytes are ignored). If that fails, the root is not a map or an array,
//!   an extension type appears, or a map has two equal keys, readelf prints
//!   `   description data: xx xx ...`. An empty descriptor prints nothing. Otherwise it
//!   prints `    AMDGPU Metadata:`, then eight spaces, then `Invalid AMDGPU Metadata`
//!   and a newline if the descriptor bytes contain `amdhsa.` and LLVM's metadata
//!   verifier rejects the document ([`llvm_verifier_accepts`]), then the document as
//!   YAML ([`document_yaml`]) and a newline.
//! * `NT_AMD_HSA_METADATA` (v2): `    AMD HSA Metadata:`, eight spaces, the descriptor
//!   text without its last byte (taken to be the NUL terminator), a newline.
//!
//! Two printers give that text: one straight from the MessagePack bytes (`fast`, for
//! documents as LLVM writes them: sorted string keys, no extensions), and one through
//! a decoded [`Value`] tree, the reference, which does everything else. The tests
//! hold them to the same output on real, mutated and retyped documents.

use std::cmp::Ordering;
use std::fmt::Write as _;

use crate::msgpack::{self, Value};

mod fast;

/// `NT_AMDGPU_METADATA`: the note type of v3+ metadata (owner `AMDGPU`).
pub const NT_AMDGPU_METADATA: u32 = 32;
/// `NT_AMD_HSA_METADATA`: the note type of v2 metadata (owner `AMD`).
pub const NT_AMD_HSA_METADATA: u32 = 10;

/// What `llvm-readelf --notes` prints under the header line of one note of type
/// `note_type` (one of the two metadata types) with descriptor `desc`; `None` for
/// other note types.
pub fn readelf_note_text(note_type: u32, desc: &[u8]) -> Option<String> {
    match note_type {
        NT_AMDGPU_METADATA => Some(readelf_yaml(desc)),
        NT_AMD_HSA_METADATA => Some(readelf_v2_text(desc)),
        _ => None,
    }
}

/// What `llvm-readelf --notes` prints under the header line of an
/// `NT_AMDGPU_METADATA` note with descriptor `desc` (see the module docs).
pub fn readelf_yaml(desc: &[u8]) -> String {
    if desc.is_empty() {
        return String::new();
    }
    let mut out = Vec::with_capacity(desc.len() * 4);
    if fast::yaml_block(desc, &mut out) {
        out.push(b'\n');
        return fast::into_string(out);
    }
    readelf_yaml_tree(desc)
}

/// Tests and fuzzing: the fast printer against the tree printer, through every entry
/// point (`readelf_yaml`, `readelf_block`, `write_amdgpu_metadata_block`), and the
/// allocation-free map check against the decoder, on one descriptor; panics if they
/// differ. Returns the tree printer's text (for a second look at the fast printer,
/// whose memo of argument maps may then answer).
pub(crate) fn check_fast_against_tree(desc: &[u8]) -> String {
    let tree = readelf_yaml_tree(desc);
    assert_eq!(
        readelf_block(NT_AMDGPU_METADATA, desc).as_deref(),
        Some(normalize(&tree).as_str()),
        "{desc:02x?}"
    );
    assert_eq!(readelf_yaml(desc), tree);
    assert_eq!(
        msgpack::is_map_document(desc),
        matches!(msgpack::decode(desc), Ok(Value::Map(_))),
        "{desc:02x?}"
    );
    // the block and map check of one pass agree with the two separate ones
    let mut block = Vec::new();
    let is_map = write_amdgpu_metadata_block(desc, &mut block);
    assert_eq!(is_map, msgpack::is_map_document(desc), "{desc:02x?}");
    let mut separate = Vec::new();
    write_readelf_block(NT_AMDGPU_METADATA, desc, &mut separate);
    assert_eq!(block, separate, "{desc:02x?}");
    tree
}

/// [`readelf_yaml`] through a decoded [`Value`] tree: the reference form, and the
/// printer for what [`fast::yaml_block`] leaves alone (unsorted or duplicate keys,
/// keys that are not strings, extensions, malformed data).
fn readelf_yaml_tree(desc: &[u8]) -> String {
    if desc.is_empty() {
        return String::new();
    }
    let root = match llvm_document(desc) {
        Some(root) => root,
        None => {
            let mut s = String::from("   description data:");
            for b in desc {
                let _ = write!(s, " {b:02x}");
            }
            s.push('\n');
            return s;
        }
    };
    let mut s = String::from("    AMDGPU Metadata:\n        ");
    if contains(desc, b"amdhsa.") && !llvm_verifier_accepts(&root) {
        s.push_str("Invalid AMDGPU Metadata\n");
    }
    s.push_str(&document_yaml(&root));
    s.push('\n');
    s
}

/// What `llvm-readelf --notes` prints under the header line of an
/// `NT_AMD_HSA_METADATA` (code object v2) note: the stored text as is.
pub fn readelf_v2_text(desc: &[u8]) -> String {
    let text = &desc[..desc.len().saturating_sub(1)];
    format!(
        "    AMD HSA Metadata:\n        {}\n",
        String::from_utf8_lossy(text)
    )
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The document as LLVM holds it: the first item, maps sorted by key, or `None` when
/// LLVM refuses it (see the module docs).
fn llvm_document(desc: &[u8]) -> Option<Value<'_>> {
    let (root, _) = msgpack::decode_prefix(desc).ok()?;
    if !matches!(root, Value::Map(_) | Value::Array(_)) {
        return None;
    }
    sorted_document(root)
}

fn sorted_document(v: Value<'_>) -> Option<Value<'_>> {
    Some(match v {
        Value::Ext(..) => return None,
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(sorted_document)
                .collect::<Option<Vec<_>>>()?,
        ),
        Value::Map(pairs) => {
            let mut pairs = pairs
                .into_iter()
                .map(|(k, v)| Some((sorted_document(k)?, sorted_document(v)?)))
                .collect::<Option<Vec<_>>>()?;
            pairs.sort_by(|a, b| key_order(&a.0, &b.0));
            // (containers compare equal only to stay in their order: not duplicates)
            if pairs.windows(2).any(|w| {
                key_order(&w[0].0, &w[1].0) == Ordering::Equal
                    && !matches!(w[0].0, Value::Array(_) | Value::Map(_))
            }) {
                return None;
            }
            Value::Map(pairs)
        }
        other => other,
    })
}

/// LLVM's order of map keys: by kind (integer, unsigned, nil, boolean, float, string,
/// binary, array, map), then by value. A total order, as sorting needs (a NaN, which
/// LLVM's `<` finds neither less nor greater than anything, comes after the other
/// floats; two arrays or two maps compare equal and keep their order).
fn key_order(a: &Value<'_>, b: &Value<'_>) -> Ordering {
    fn rank(v: &Value<'_>) -> u8 {
        match v {
            Value::Int(_) => 0,
            Value::UInt(_) => 1,
            Value::Nil => 2,
            Value::Bool(_) => 3,
            Value::Float32(_) | Value::Float64(_) => 4,
            Value::Str(_) => 5,
            Value::Bin(_) => 6,
            Value::Array(_) => 7,
            Value::Map(_) => 8,
            Value::Ext(..) => 9,
        }
    }
    fn float(v: &Value<'_>) -> f64 {
        match *v {
            Value::Float32(f) => f64::from(f),
            Value::Float64(f) => f,
            _ => 0.0,
        }
    }
    rank(a).cmp(&rank(b)).then_with(|| match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::UInt(x), Value::UInt(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Str(x), Value::Str(y)) | (Value::Bin(x), Value::Bin(y)) => x.cmp(y),
        (Value::Float32(_) | Value::Float64(_), _) => {
            let (x, y) = (float(a), float(b));
            x.is_nan()
                .cmp(&y.is_nan())
                .then_with(|| x.partial_cmp(&y).unwrap_or(Ordering::Equal))
        }
        // containers as keys: LLVM cannot print them; they keep their order
        _ => Ordering::Equal,
    })
}

/// The keys of the code object metadata that LLVM's verifier knows about.
const LANGUAGES: &[&str] = &[
    "OpenCL C",
    "OpenCL C++",
    "HCC",
    "HIP",
    "OpenMP",
    "Assembler",
];
/// `.value_kind` values LLVM's verifier accepts (any code object version).
pub(crate) const LLVM_VALUE_KINDS: &[&str] = super::validate::VALUE_KINDS;
const ADDRESS_SPACES: &[&str] = &[
    "private", "global", "constant", "local", "generic", "region",
];
const ACCESSES: &[&str] = &["read_only", "write_only", "read_write"];

/// Whether LLVM 22's metadata verifier (as run by `llvm-readelf`) accepts `root`.
/// Learnt by observation: which keys it checks, and how, is listed in
/// `tests/data/metadata/README.md`. It does not depend on the metadata version.
pub fn llvm_verifier_accepts(root: &Value<'_>) -> bool {
    let Some(map) = root.as_map() else {
        return false;
    };
    let get = |k: &str| {
        map.iter()
            .find(|(key, _)| key.as_str_bytes() == Some(k.as_bytes()))
            .map(|(_, v)| v)
    };
    let version_ok = get("amdhsa.version").is_some_and(|v| int_array(v, 2));
    let printf_ok = get("amdhsa.printf").is_none_or(|v| {
        v.as_array()
            .is_some_and(|a| a.iter().all(|s| matches!(s, Value::Str(_))))
    });
    let kernels_ok = get("amdhsa.kernels").is_some_and(|v| {
        v.as_array()
            .is_some_and(|ks| ks.iter().all(kernel_accepted))
    });
    version_ok && printf_ok && kernels_ok
}

fn int_array(v: &Value<'_>, n: usize) -> bool {
    v.as_array()
        .is_some_and(|a| a.len() == n && a.iter().all(Value::is_integer))
}

fn is_str(v: &Value<'_>) -> bool {
    matches!(v, Value::Str(_))
}

fn str_in(v: &Value<'_>, allowed: &[&str]) -> bool {
    v.as_str_bytes()
        .is_some_and(|s| allowed.iter().any(|a| a.as_bytes() == s))
}

fn kernel_accepted(kernel: &Value<'_>) -> bool {
    let Some(map) = kernel.as_map() else {
        return false;
    };
    let get = |k: &str| {
        map.iter()
            .find(|(key, _)| key.as_str_bytes() == Some(k.as_bytes()))
            .map(|(_, v)| v)
    };
    let required_str = [".name", ".symbol"];
    let required_int = [
        ".kernarg_segment_size",
        ".group_segment_fixed_size",
        ".private_segment_fixed_size",
        ".kernarg_segment_align",
        ".wavefront_size",
        ".sgpr_count",
        ".vgpr_count",
        ".max_flat_workgroup_size",
    ];
    let optional_int = [
        ".sgpr_spill_count",
        ".vgpr_spill_count",
        ".workgroup_processor_mode",
        ".uniform_work_group_size",
    ];
    required_str.iter().all(|k| get(k).is_some_and(is_str))
        && required_int
            .iter()
            .all(|k| get(k).is_some_and(Value::is_integer))
        && optional_int
            .iter()
            .all(|k| get(k).is_none_or(Value::is_integer))
        && [".vec_type_hint", ".device_enqueue_symbol"]
            .iter()
            .all(|k| get(k).is_none_or(is_str))
        && get(".language").is_none_or(|v| str_in(v, LANGUAGES))
        && get(".language_version").is_none_or(|v| int_array(v, 2))
        && [
            ".reqd_workgroup_size",
            ".workgroup_size_hint",
            ".cluster_dims",
        ]
        .iter()
        .all(|k| get(k).is_none_or(|v| int_array(v, 3)))
        && get(".uses_dynamic_stack").is_none_or(|v| matches!(v, Value::Bool(_)))
        && get(".args").is_none_or(|v| {
            v.as_array()
                .is_some_and(|args| args.iter().all(arg_accepted))
        })
}

fn arg_accepted(arg: &Value<'_>) -> bool {
    let Some(map) = arg.as_map() else {
        return false;
    };
    let get = |k: &str| {
        map.iter()
            .find(|(key, _)| key.as_str_bytes() == Some(k.as_bytes()))
            .map(|(_, v)| v)
    };
    [".name", ".type_name"]
        .iter()
        .all(|k| get(k).is_none_or(is_str))
        && [".size", ".offset"]
            .iter()
            .all(|k| get(k).is_some_and(Value::is_integer))
        && get(".pointee_align").is_none_or(Value::is_integer)
        && get(".value_kind").is_some_and(|v| str_in(v, LLVM_VALUE_KINDS))
        && get(".address_space").is_none_or(|v| str_in(v, ADDRESS_SPACES))
        && [".access", ".actual_access"]
            .iter()
            .all(|k| get(k).is_none_or(|v| str_in(v, ACCESSES)))
        && [".is_const", ".is_restrict", ".is_volatile", ".is_pipe"]
            .iter()
            .all(|k| get(k).is_none_or(|v| matches!(v, Value::Bool(_))))
}

/// A MessagePack document as LLVM's YAML form of it (`---` through `...`, each line
/// ending in a newline), the way `llvm-readelf` prints metadata. Maps are printed in
/// the order given (LLVM sorts them first: [`readelf_yaml`] does too).
///
/// The form, as observed: a key is followed by `:` and padded with spaces to 16
/// characters (at least one space) before a scalar, `{}` or `[]`; a non-empty map or
/// array value starts on the next line, indented by two; array items are `- `; a map
/// or array inside an array starts on the same line as its `- `. An empty array that
/// is an item of an array is printed (by an LLVM quirk) as `[]` at column 0, dropping
/// the `- ` marks not yet printed on its line. Scalars: integers in decimal, floats
/// as C `%e` (`INF`, `-INF`, `nan`), nil as `!nil ''`, binaries (LLVM crashes on
/// them) as `!bin` and hex digits in single quotes; strings are quoted and tagged as
/// described in [`yaml_string`].
pub fn document_yaml(root: &Value<'_>) -> String {
    let mut out = String::from("---\n");
    match root {
        Value::Map(m) if !m.is_empty() => map_entries(&mut out, m, 0, String::new()),
        Value::Array(a) if !a.is_empty() => seq_items(&mut out, a, 0, String::new()),
        Value::Map(_) => out.push_str("{}\n"),
        Value::Array(_) => out.push_str("[]\n"),
        scalar => {
            out.push_str(&scalar_yaml(scalar));
            out.push('\n');
        }
    }
    out.push_str("...\n");
    out
}

fn map_entries(out: &mut String, pairs: &[(Value<'_>, Value<'_>)], col: usize, prefix: String) {
    for (i, (k, v)) in pairs.iter().enumerate() {
        if i == 0 {
            out.push_str(&prefix);
        } else {
            push_spaces(out, col);
        }
        let (key_text, key_len) = key_yaml(k);
        out.push_str(&key_text);
        out.push(':');
        let pad = if key_len < 16 { 16 - key_len } else { 1 };
        match v {
            Value::Map(m) if !m.is_empty() => {
                out.push('\n');
                map_entries(out, m, col + 2, " ".repeat(col + 2));
            }
            Value::Array(a) if !a.is_empty() => {
                out.push('\n');
                seq_items(out, a, col + 2, " ".repeat(col + 2));
            }
            Value::Map(_) => {
                push_spaces(out, pad);
                out.push_str("{}\n");
            }
            Value::Array(_) => {
                push_spaces(out, pad);
                out.push_str("[]\n");
            }
            scalar => {
                push_spaces(out, pad);
                out.push_str(&scalar_yaml(scalar));
                out.push('\n');
            }
        }
    }
}

fn seq_items(out: &mut String, items: &[Value<'_>], col: usize, prefix: String) {
    for (i, item) in items.iter().enumerate() {
        let mut pending = if i == 0 {
            prefix.clone()
        } else {
            " ".repeat(col)
        };
        pending.push_str("- ");
        match item {
            Value::Map(m) if !m.is_empty() => map_entries(out, m, col + 2, pending),
            Value::Array(a) if !a.is_empty() => seq_items(out, a, col + 2, pending),
            Value::Map(_) => {
                out.push_str(&pending);
                out.push_str("{}\n");
            }
            // LLVM's quirk: the pending "- " marks are lost
            Value::Array(_) => out.push_str("[]\n"),
            scalar => {
                out.push_str(&pending);
                out.push_str(&scalar_yaml(scalar));
                out.push('\n');
            }
        }
    }
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// A map key as printed, and the length LLVM pads it by (that of the unquoted text).
fn key_yaml(k: &Value<'_>) -> (String, usize) {
    let raw: Vec<u8> = match k {
        Value::Str(s) => s.to_vec(),
        Value::Nil => Vec::new(),
        other => scalar_yaml(other).into_bytes(),
    };
    (quote(&raw, needs_quotes(&raw, false)), raw.len())
}

fn scalar_yaml(v: &Value<'_>) -> String {
    match v {
        Value::Nil => "!nil ''".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float32(f) => format_e(f64::from(*f)),
        Value::Float64(f) => format_e(*f),
        Value::Str(s) => yaml_string(s),
        Value::Bin(b) => {
            let mut s = String::from("!bin '");
            for x in b.iter() {
                let _ = write!(s, "{x:02x}");
            }
            s.push('\'');
            s
        }
        Value::Ext(t, _) => format!("!ext{t} ''"),
        Value::Array(_) | Value::Map(_) => String::new(),
    }
}

/// C's `%e` (six digits after the point, exponent of at least two digits), with
/// `INF`, `-INF` and `nan` as LLVM prints them.
pub fn format_e(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "INF" } else { "-INF" }.to_string();
    }
    let s = format!("{x:.6e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
}

/// A string value as LLVM prints it: prefixed by `!str ` when reading it back
/// untagged would give another type (it is `true`/`false`, an integer in C-like
/// syntax, or something `strtod` reads whole), then plain, single- or double-quoted.
pub fn yaml_string(s: &[u8]) -> String {
    let text = quote(s, needs_quotes(s, true));
    if reads_as_non_string(s) {
        format!("!str {text}")
    } else {
        text
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Quoting {
    Plain,
    Single,
    Double,
}

fn needs_quotes(s: &[u8], check_type: bool) -> Quoting {
    let (Some(&first), Some(&last)) = (s.first(), s.last()) else {
        return Quoting::Single;
    };
    let mut q = Quoting::Plain;
    let space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    if space(first) || space(last) {
        q = Quoting::Single;
    }
    if check_type && (is_yaml_null(s) || is_yaml_bool(s) || is_yaml_numeric(s)) {
        q = Quoting::Single;
    }
    if b"-?:\\,[]{}#&*!|>'\"%@`".contains(&first) {
        q = Quoting::Single;
    }
    for &c in s {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => {}
            b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t' => {}
            b'\n' | b'\r' | 0x7f => return Quoting::Double,
            c if !(0x20..0x80).contains(&c) => return Quoting::Double,
            _ => q = Quoting::Single,
        }
    }
    q
}

fn is_yaml_null(s: &[u8]) -> bool {
    matches!(s, b"null" | b"Null" | b"NULL" | b"~")
}

fn is_yaml_bool(s: &[u8]) -> bool {
    matches!(
        s,
        b"true" | b"True" | b"TRUE" | b"false" | b"False" | b"FALSE"
    )
}

/// The YAML 1.2 core schema's integers and floats.
fn is_yaml_numeric(s: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(s) else {
        return false;
    };
    let hex = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_hexdigit());
    let oct = |d: &str| !d.is_empty() && d.bytes().all(|b| (b'0'..=b'7').contains(&b));
    if let Some(d) = s.strip_prefix("0x") {
        return hex(d);
    }
    if let Some(d) = s.strip_prefix("0o") {
        return oct(d);
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    matches!(unsigned, ".inf" | ".Inf" | ".INF")
        || matches!(s, ".nan" | ".NaN" | ".NAN")
        || crate::yaml::is_core_float(s)
}

fn quote(s: &[u8], q: Quoting) -> String {
    match q {
        Quoting::Plain => String::from_utf8_lossy(s).into_owned(),
        Quoting::Single => {
            let mut out = String::from("'");
            out.push_str(&String::from_utf8_lossy(s).replace('\'', "''"));
            out.push('\'');
            out
        }
        Quoting::Double => {
            let (valid, bad) = match std::str::from_utf8(s) {
                Ok(v) => (v, false),
                Err(e) => (
                    std::str::from_utf8(&s[..e.valid_up_to()]).unwrap_or(""),
                    true,
                ),
            };
            let mut out = String::from("\"");
            for c in valid.chars() {
                escape_char(&mut out, c);
            }
            if bad {
                // LLVM shows one replacement character and drops the rest
                out.push('\u{fffd}');
            }
            out.push('"');
            out
        }
    }
}

fn escape_char(out: &mut String, c: char) {
    let short = match c {
        '"' => "\\\"",
        '\\' => "\\\\",
        '\0' => "\\0",
        '\x07' => "\\a",
        '\x08' => "\\b",
        '\t' => "\\t",
        '\n' => "\\n",
        '\x0b' => "\\v",
        '\x0c' => "\\f",
        '\r' => "\\r",
        '\x1b' => "\\e",
        '\u{85}' => "\\N",
        '\u{a0}' => "\\_",
        '\u{2028}' => "\\L",
        '\u{2029}' => "\\P",
        _ => "",
    };
    if !short.is_empty() {
        out.push_str(short);
        return;
    }
    let code = u32::from(c);
    if code < 0x20 || (0x80..0xa0).contains(&code) || (code > 0x7f && !printable(c)) {
        if code < 0x100 {
            let _ = write!(out, "\\x{code:02X}");
        } else if code < 0x10000 {
            let _ = write!(out, "\\u{code:04X}");
        } else {
            let _ = write!(out, "\\U{code:08X}");
        }
    } else {
        out.push(c);
    }
}

/// Whether LLVM prints `c` as is inside double quotes. Approximated with Rust's own
/// notion of printable characters (what `escape_debug` leaves alone, combining marks
/// included) plus the space separators and the soft hyphen, which LLVM prints raw.
fn printable(c: char) -> bool {
    if matches!(
        c,
        '\u{ad}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    ) {
        return true;
    }
    let mut probe = String::from("a");
    probe.push(c);
    probe.escape_debug().eq(probe.chars())
}

/// Whether LLVM would read the plain text `s` back as something other than a string.
fn reads_as_non_string(s: &[u8]) -> bool {
    s == b"true" || s == b"false" || c_integer(s) || strtod_whole(s)
}

/// An integer with C-like prefixes (`0x`, `0X`, `0b`, `0B`, `0o`, a leading `0` for
/// octal), optionally negative, that fits 64 bits.
fn c_integer(s: &[u8]) -> bool {
    let (neg, digits) = match s.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (radix, digits) = if let Some(d) = digits
        .strip_prefix(b"0x")
        .or_else(|| digits.strip_prefix(b"0X"))
    {
        (16, d)
    } else if let Some(d) = digits
        .strip_prefix(b"0b")
        .or_else(|| digits.strip_prefix(b"0B"))
    {
        (2, d)
    } else if let Some(d) = digits.strip_prefix(b"0o") {
        (8, d)
    } else if digits.len() > 1 && digits[0] == b'0' && digits[1].is_ascii_digit() {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if digits.is_empty() {
        return false;
    }
    let mut value: u64 = 0;
    for &d in digits {
        let Some(v) = (d as char).to_digit(radix) else {
            return false;
        };
        let Some(next) = value
            .checked_mul(u64::from(radix))
            .and_then(|x| x.checked_add(u64::from(v)))
        else {
            return false;
        };
        value = next;
    }
    !neg || value <= 1 << 63
}

/// Whether C's `strtod` reads all of `s` (up to its first NUL byte, as a C string).
fn strtod_whole(s: &[u8]) -> bool {
    let s = match s.iter().position(|&b| b == 0) {
        Some(n) => &s[..n],
        None => s,
    };
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
        i += 1;
    }
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        i += 1;
    }
    let rest = &s[i..];
    let starts = |p: &[u8]| rest.len() >= p.len() && rest[..p.len()].eq_ignore_ascii_case(p);
    if starts(b"inf") {
        return rest.eq_ignore_ascii_case(b"inf") || rest.eq_ignore_ascii_case(b"infinity");
    }
    if starts(b"nan") {
        let after = &rest[3..];
        if after.is_empty() {
            return true;
        }
        return after.first() == Some(&b'(')
            && after.last() == Some(&b')')
            && after[1..after.len() - 1]
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || *b == b'_');
    }
    let (hex, body) = if starts(b"0x") {
        (true, &rest[2..])
    } else {
        (false, rest)
    };
    let is_digit = |b: u8| {
        if hex {
            b.is_ascii_hexdigit()
        } else {
            b.is_ascii_digit()
        }
    };
    let mut j = 0;
    let mut digits = 0;
    while j < body.len() && is_digit(body[j]) {
        j += 1;
        digits += 1;
    }
    if j < body.len() && body[j] == b'.' {
        j += 1;
        while j < body.len() && is_digit(body[j]) {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        // "0x" without digits reads as "0" and stops at the "x"; nothing read at all
        // leaves the end pointer at the start, which only an empty string passes
        return s.is_empty();
    }
    if j < body.len() && matches!(body[j], b'e' | b'E' | b'p' | b'P') {
        let exp_char_ok = if hex {
            matches!(body[j], b'p' | b'P')
        } else {
            matches!(body[j], b'e' | b'E')
        };
        if !exp_char_ok {
            return false;
        }
        let mut k = j + 1;
        if k < body.len() && (body[k] == b'+' || body[k] == b'-') {
            k += 1;
        }
        let start = k;
        while k < body.len() && body[k].is_ascii_digit() {
            k += 1;
        }
        if k == start {
            return false; // exponent not read: the "e" is left over
        }
        j = k;
    }
    j == body.len()
}

/// The metadata blocks of `llvm-readelf --notes` output, one per metadata note
/// (`NT_AMDGPU_METADATA` or `NT_AMD_HSA_METADATA`), in order.
///
/// A block is every line after the note's header line (the line with owner, data size,
/// a tab and `NT_...`) up to the next header line, the next `Displaying notes found`
/// line or the end, with trailing empty lines removed; each line ends in `\n`. So a
/// block starts with `    AMDGPU Metadata:` (or `    AMD HSA Metadata:`, or is the
/// `   description data: ...` line) and, for MessagePack, ends with the `...` line.
/// [`readelf_block`] gives the same text from a descriptor.
pub fn metadata_block_from_readelf(readelf_output: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readelf_output.split('\n') {
        let header = note_header(line);
        if header.is_some() || line.starts_with("Displaying notes found") {
            if let Some(b) = current.take() {
                blocks.push(normalize(&b));
            }
            if header == Some(true) {
                current = Some(String::new());
            }
            continue;
        }
        if let Some(b) = current.as_mut() {
            b.push_str(line);
            b.push('\n');
        }
    }
    if let Some(b) = current.take() {
        blocks.push(normalize(&b));
    }
    blocks
}

/// `Some(is_metadata)` if `line` is a note header line of `llvm-readelf --notes`.
fn note_header(line: &str) -> Option<bool> {
    let (left, right) = line.split_once('\t')?;
    if !left.starts_with("  ") || left.starts_with("   ") {
        return None;
    }
    let size = left.trim_end().rsplit(' ').next()?;
    let hex = size.strip_prefix("0x")?;
    if hex.len() != 8 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(right.starts_with("NT_AMDGPU_METADATA ") || right.starts_with("NT_AMD_HSA_METADATA "))
}

fn normalize(text: &str) -> String {
    let trimmed = text.trim_end_matches('\n');
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("{trimmed}\n")
    }
}

/// The block [`metadata_block_from_readelf`] would cut out of readelf's output for a
/// note of type `note_type` with descriptor `desc`.
pub fn readelf_block(note_type: u32, desc: &[u8]) -> Option<String> {
    let mut out = Vec::new();
    write_readelf_block(note_type, desc, &mut out).then(|| fast::into_string(out))
}

/// [`readelf_block`] appended to `out` (UTF-8 text), without allocating a `String`
/// for it; returns `false`, appending nothing, for note types other than the two
/// metadata types.
pub fn write_readelf_block(note_type: u32, desc: &[u8], out: &mut Vec<u8>) -> bool {
    match note_type {
        NT_AMDGPU_METADATA if desc.is_empty() => {}
        NT_AMDGPU_METADATA => {
            out.reserve(desc.len() * 4);
            // the fast block already ends in exactly one newline
            if !fast::yaml_block(desc, out) {
                out.extend_from_slice(normalize(&readelf_yaml_tree(desc)).as_bytes());
            }
        }
        NT_AMD_HSA_METADATA => out.extend_from_slice(normalize(&readelf_v2_text(desc)).as_bytes()),
        _ => return false,
    }
    true
}

/// [`write_readelf_block`] for an `NT_AMDGPU_METADATA` descriptor, returning
/// [`crate::msgpack::is_map_document`] of it (known from the printing, most of the
/// time, without reading the descriptor again).
pub fn write_amdgpu_metadata_block(desc: &[u8], out: &mut Vec<u8>) -> bool {
    if desc.is_empty() {
        return false;
    }
    out.reserve(desc.len() * 4);
    match fast::yaml_block_doc(desc, out) {
        Some(true) => true,
        Some(false) => crate::msgpack::is_map_document(desc),
        None => {
            out.extend_from_slice(normalize(&readelf_yaml_tree(desc)).as_bytes());
            crate::msgpack::is_map_document(desc)
        }
    }
}

/// Compare the metadata notes of one file (`(note type, descriptor)` in file order,
/// other note types are skipped) with the `llvm-readelf --notes` output for that file.
/// Returns the number of blocks compared, or a description of the first difference.
pub fn compare_with_readelf(notes: &[(u32, &[u8])], readelf_output: &str) -> Result<usize, String> {
    let ours: Vec<String> = notes
        .iter()
        .filter_map(|&(t, d)| readelf_block(t, d))
        .collect();
    let theirs = metadata_block_from_readelf(readelf_output);
    if ours.len() != theirs.len() {
        return Err(format!(
            "{} metadata notes given, {} metadata blocks in readelf output",
            ours.len(),
            theirs.len()
        ));
    }
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if a != b {
            let line = a
                .lines()
                .zip(b.lines())
                .position(|(x, y)| x != y)
                .unwrap_or(a.lines().count().min(b.lines().count()));
            return Err(format!(
                "metadata block {i} differs at line {}:\n  hsaco: {:?}\n  llvm:  {:?}",
                line + 1,
                a.lines().nth(line).unwrap_or("<end>"),
                b.lines().nth(line).unwrap_or("<end>")
            ));
        }
    }
    Ok(ours.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Map keys LLVM's `<` cannot order (NaN floats, arrays) sort without a panic
    /// (Rust's sort panics on a comparison that is not a total order: cargo-fuzz
    /// found it, tests/data/fuzz-found/msgpack-unordered-keys.bin) and the same way
    /// each time.
    #[test]
    fn keys_without_an_order_sort() {
        let f64_key = |x: f64| [&[0xcb][..], &x.to_be_bytes()].concat();
        // { NaN: 1, 1.0: 2, [2]: 3, 0.5: 4, [1]: 5, -0.0: 6 }
        let mut desc = vec![0x86];
        for (k, v) in [
            (f64_key(f64::NAN), 1u8),
            (f64_key(1.0), 2),
            (vec![0x91, 0x02], 3),
            (f64_key(0.5), 4),
            (vec![0x91, 0x01], 5),
            (f64_key(-0.0), 6),
        ] {
            desc.extend_from_slice(&k);
            desc.push(v);
        }
        let doc = llvm_document(&desc).expect("no duplicates");
        let Value::Map(pairs) = doc else {
            panic!("a map")
        };
        let values: Vec<_> = pairs.iter().map(|(_, v)| v.clone()).collect();
        // floats by value, the NaN last; then the arrays in their order
        let want: Vec<_> = [6u64, 4, 2, 1, 3, 5].map(Value::UInt).to_vec();
        assert_eq!(values, want);
        // two NaN keys are one key twice, as two equal floats are: refused
        let mut twice = vec![0x82];
        for v in [1, 2] {
            twice.extend_from_slice(&f64_key(f64::NAN));
            twice.push(v);
        }
        assert!(llvm_document(&twice).is_none());
        let found = include_bytes!("../../tests/data/fuzz-found/msgpack-unordered-keys.bin");
        assert_eq!(readelf_yaml(found), readelf_yaml(found));
    }

    // expected strings are llvm-readelf-22 output for the same values (see
    // tests/data/metadata/README.md)
    #[test]
    fn strings_like_llvm() {
        let cases: &[(&str, &str)] = &[
            ("123", "!str '123'"),
            ("", "!str ''"),
            ("foo bar", "foo bar"),
            ("'x'", "'''x'''"),
            ("x\ny", "\"x\\ny\""),
            ("null", "'null'"),
            ("0b11", "!str 0b11"),
            ("NaN", "!str NaN"),
            (".nan", "'.nan'"),
            ("1_000", "1_000"),
            ("False", "'False'"),
            ("0O17", "0O17"),
            ("0o17", "!str '0o17'"),
            ("1e", "1e"),
            ("nan(123)", "!str 'nan(123)'"),
            (" 1", "!str ' 1'"),
            ("0x1p3", "!str 0x1p3"),
            ("08", "!str '08'"),
            ("\u{feff}", "\"\\uFEFF\""),
            ("\u{80}", "\"\\x80\""),
            ("\u{ad}", "\"\u{ad}\""),
            ("\u{3000}", "\"\u{3000}\""),
            ("\u{378}", "\"\\u0378\""),
            ("\u{10ffff}", "\"\\U0010FFFF\""),
            ("q\x01\"\\", "\"q\\x01\\\"\\\\\""),
            ("a\tb", "a\tb"),
            ("\t", "'\t'"),
            ("x^y", "x^y"),
            ("x~", "'x~'"),
            ("float*", "'float*'"),
            ("OpenCL C", "OpenCL C"),
        ];
        for (input, expected) in cases {
            assert_eq!(yaml_string(input.as_bytes()), *expected, "{input:?}");
        }
        assert_eq!(yaml_string(b"x\xc3A\x01"), "\"x\u{fffd}\"");
    }

    /// The committed metadata descriptors (real ones from clang and LLVM-checked
    /// edge cases).
    fn seeds() -> Vec<(String, Vec<u8>)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/metadata");
        let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "msgpack"))
            .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
            .collect();
        out.sort();
        assert!(
            out.len() >= 10,
            "metadata seeds missing in {}",
            dir.display()
        );
        out
    }

    #[test]
    fn fast_printer_takes_real_metadata() {
        for (name, desc) in seeds() {
            let _ = check_fast_against_tree(&desc);
            if name.contains("/cov") {
                assert!(fast::yaml_block(&desc, &mut Vec::new()), "{name}");
            }
        }
    }

    /// 10_000 inputs, not 100_000: each runs both printers and the decoder, which
    /// takes about a second per thousand in a debug build.
    #[test]
    fn fast_printer_matches_tree_on_mutations() {
        let seeds = seeds();
        let seeds: Vec<&[u8]> = seeds.iter().map(|(_, d)| &d[..]).collect();
        let n = crate::fuzzing::mutation_smoke(
            |d| drop(check_fast_against_tree(d)),
            &seeds,
            10_000,
            0x5eed_fa57,
        );
        assert_eq!(n, 10_000);
    }

    /// Argument maps printed again come from the fast printer's memo (per thread):
    /// each document printed twice on a new thread, the second time with every
    /// argument map from the memo, gives the same text as the tree printer.
    #[test]
    fn fast_printer_memo_gives_the_printed_text() {
        std::thread::spawn(|| {
            assert_eq!(fast::memo_entries(), 0);
            for (name, desc) in seeds() {
                let mut first = Vec::new();
                write_readelf_block(NT_AMDGPU_METADATA, &desc, &mut first);
                let learnt = fast::memo_entries();
                let mut second = Vec::new();
                write_readelf_block(NT_AMDGPU_METADATA, &desc, &mut second);
                assert_eq!(first, second, "{name}");
                assert_eq!(fast::memo_entries(), learnt, "{name}: nothing new");
                let _ = check_fast_against_tree(&desc);
            }
            assert!(fast::memo_entries() > 10);
        })
        .join()
        .unwrap();
    }

    /// Every word of the verifier's lists as the value of every key it checks against
    /// a list (the fast printer copies some of them without a quoting scan).
    #[test]
    fn fast_printer_matches_tree_on_listed_words() {
        let lists = [LANGUAGES, LLVM_VALUE_KINDS, ADDRESS_SPACES, ACCESSES];
        let all: Vec<&str> = lists.iter().flat_map(|l| l.iter().copied()).collect();
        let s = Value::str_ref;
        for key in [".language", ".value_kind", ".address_space", ".access"] {
            for &word in &all {
                let entry = |k: &'static str, v: Value<'static>| {
                    let v = if k == key { s(word) } else { v };
                    (s(k), v)
                };
                let arg = Value::Map(vec![
                    entry(".access", s("read_only")),
                    entry(".address_space", s("global")),
                    (s(".offset"), Value::UInt(0)),
                    (s(".size"), Value::UInt(8)),
                    entry(".value_kind", s("global_buffer")),
                ]);
                let kernel = vec![
                    (s(".args"), Value::Array(vec![arg])),
                    (s(".group_segment_fixed_size"), Value::UInt(0)),
                    (s(".kernarg_segment_align"), Value::UInt(8)),
                    (s(".kernarg_segment_size"), Value::UInt(8)),
                    entry(".language", s("OpenCL C")),
                    (s(".max_flat_workgroup_size"), Value::UInt(256)),
                    (s(".name"), s("k")),
                    (s(".private_segment_fixed_size"), Value::UInt(0)),
                    (s(".sgpr_count"), Value::UInt(1)),
                    (s(".symbol"), s("k.kd")),
                    (s(".vgpr_count"), Value::UInt(1)),
                    (s(".wavefront_size"), Value::UInt(64)),
                ];
                let root = Value::Map(vec![
                    (s("amdhsa.kernels"), Value::Array(vec![Value::Map(kernel)])),
                    (
                        s("amdhsa.version"),
                        Value::Array(vec![Value::UInt(1), Value::UInt(2)]),
                    ),
                ]);
                let desc = msgpack::encode(&root);
                assert!(fast::yaml_block(&desc, &mut Vec::new()), "{key} {word}");
                let _ = check_fast_against_tree(&desc);
                // again: the argument map from the memo, with what the verifier
                // made of it
                let _ = check_fast_against_tree(&desc);
            }
        }
    }

    /// Every node of the real documents replaced by values of other kinds, and every
    /// map entry removed: what the verifier checks (types, required keys, lengths,
    /// allowed strings) is exercised key by key.
    #[test]
    fn fast_printer_matches_tree_on_retyped_documents() {
        let replacements = [
            Value::UInt(3),
            Value::Int(-1),
            Value::Bool(true),
            Value::Nil,
            Value::Float64(0.5),
            Value::str_ref("x"),
            Value::str_ref("global_buffer"),
            Value::str_ref("OpenCL C"),
            Value::Array(vec![Value::UInt(1), Value::UInt(2)]),
            Value::Array(vec![Value::UInt(1), Value::Int(2), Value::UInt(3)]),
            Value::Array(vec![Value::str_ref("a"), Value::UInt(2)]),
            Value::Array(vec![]),
            Value::Map(vec![]),
        ];
        // paths to every node: indices into arrays, entry indices into maps
        fn paths(v: &Value<'_>, here: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            out.push(here.clone());
            let children: Vec<&Value<'_>> = match v {
                Value::Array(a) => a.iter().collect(),
                Value::Map(m) => m.iter().map(|(_, v)| v).collect(),
                _ => return,
            };
            for (i, c) in children.into_iter().enumerate() {
                here.push(i);
                paths(c, here, out);
                here.pop();
            }
        }
        fn node<'v, 'a>(v: &'v mut Value<'a>, path: &[usize]) -> &'v mut Value<'a> {
            match path.split_first() {
                None => v,
                Some((&i, rest)) => match v {
                    Value::Array(a) => node(&mut a[i], rest),
                    Value::Map(m) => node(&mut m[i].1, rest),
                    _ => unreachable!(),
                },
            }
        }
        let mut checked = 0;
        for (name, desc) in seeds() {
            if !name.contains("/cov") {
                continue;
            }
            let root = msgpack::decode(&desc).unwrap();
            let mut all = Vec::new();
            paths(&root, &mut Vec::new(), &mut all);
            // keep debug-build time small: a spread of at most 120 nodes per document
            let step = all.len().div_ceil(120);
            for path in all.iter().step_by(step).filter(|p| !p.is_empty()) {
                for r in &replacements {
                    let mut doc = root.clone();
                    *node(&mut doc, path) = r.clone();
                    let _ = check_fast_against_tree(&msgpack::encode(&doc));
                    checked += 1;
                }
                let mut doc = root.clone();
                if let Value::Map(m) = node(&mut doc, path) {
                    for i in 0..m.len() {
                        let mut d = doc.clone();
                        if let Value::Map(m) = node(&mut d, path) {
                            m.remove(i);
                        }
                        let _ = check_fast_against_tree(&msgpack::encode(&d));
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn floats_like_printf() {
        assert_eq!(format_e(1.5), "1.500000e+00");
        assert_eq!(format_e(1e300), "1.000000e+300");
        assert_eq!(format_e(-0.0), "-0.000000e+00");
        assert_eq!(format_e(5e-324), "4.940656e-324");
        assert_eq!(format_e(f64::NEG_INFINITY), "-INF");
        assert_eq!(format_e(-f64::NAN), "nan");
    }
}
