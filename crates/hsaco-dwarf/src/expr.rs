//! DWARF expressions printed as llvm-dwarfdump prints them: `DW_OP_fbreg +0,
//! DW_OP_lit5, DW_OP_swap, DW_OP_xderef`. Operands are read with gimli's reader;
//! the `DW_OP_LLVM_user` vendor operations are decoded with [`crate::names`]. Bytes
//! that do not decode (an unknown opcode) end the text with `<decoding error>` and
//! their hex, as llvm-dwarfdump does. An operand cut short by the end of the
//! expression reads as 0 and consumes nothing, as llvm-dwarfdump-22 reads it
//! (`DW_OP_addr` with 6 bytes left prints `DW_OP_addr 0x0`, then decodes the next
//! byte as an opcode; tests/data/llvm_ops.o).

use crate::names::{llvm_operation, LlvmOperand, RegisterNames, DW_OP_LLVM_USER};
use crate::text::PushStr as _;
use crate::text::{hex0x, plus_signed};
use gimli::{constants as c, Reader};
use std::io::Write as _;

type R<'a> = gimli::EndianSlice<'a, gimli::LittleEndian>;

/// Unit parameters an expression needs.
#[derive(Clone, Copy)]
pub struct ExprContext {
    pub address_size: u8,
    pub format: gimli::Format,
    pub regs: RegisterNames,
}

/// Expressions up to this long are kept by [`write_expression`]'s cache.
const CACHED_LEN: usize = 60;
/// A cache key: the context's three bytes, the expression's length, its bytes, zeros
/// after (eight words).
const KEY: usize = CACHED_LEN + 4;
/// Texts up to this long are kept.
const TEXT: usize = 160;
/// Texts up to this long are copied from the cache at a fixed size.
const SHORT_TEXT: usize = 64;
/// Entries of the cache (a power of two).
const SLOTS: usize = 1024;

/// The texts of recent expressions: a direct-mapped table (an expression's slot
/// from the hash of its key, the previous one there overwritten), keys and texts in
/// place, so that neither a look-up nor a miss allocates. (A `HashMap` of boxed keys
/// and texts cost more on an object whose expressions all differ than it saved.)
///
/// Each slot is [`SLOT`] bytes: the key ([`KEY`] bytes; all zeros when empty: a key's
/// first byte, the address size, is never 0 for a cached expression, see
/// [`write_expression`]), the text's length, the text ([`TEXT`] bytes).
struct Texts(Vec<u8>);

/// Bytes of a slot of [`Texts`].
const SLOT: usize = KEY + 1 + TEXT;

impl Texts {
    fn new() -> Texts {
        // (one zeroed block, large enough that the allocator maps fresh pages for it
        // instead of clearing memory: pages are touched only when used)
        Texts(vec![0; SLOTS * SLOT])
    }
}

thread_local! {
    /// Texts of expressions printed before, by context and bytes ([`cache_key`]).
    static TEXTS: std::cell::RefCell<Option<Texts>> = const { std::cell::RefCell::new(None) };
}

/// The key of an expression in the cache: the context's fields, the length (so that
/// an expression ending in zero bytes and its shorter prefix differ), then the bytes.
fn cache_key(bytes: &[u8], cx: ExprContext) -> [u8; KEY] {
    let mut key = [0u8; KEY];
    key[0] = cx.address_size;
    key[1] = match cx.format {
        gimli::Format::Dwarf32 => 1,
        gimli::Format::Dwarf64 => 2,
    };
    key[2] = match cx.regs {
        RegisterNames::Llvm => 1,
        RegisterNames::Spec => 2,
    };
    key[3] = bytes.len() as u8;
    key[4..4 + bytes.len()].copy_from_slice(bytes);
    key
}

/// Words of `key` that can be other than zero: the context, the length and the bytes.
fn key_words(key: &[u8; KEY]) -> usize {
    (4 + usize::from(key[3])).div_ceil(8)
}

/// The `i`th word of `key`.
#[inline]
fn key_word(key: &[u8], i: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&key[8 * i..8 * i + 8]);
    u64::from_le_bytes(x)
}

/// The slot of `key`: a hash of its words that can be other than zero.
fn slot(key: &[u8; KEY]) -> usize {
    let mut h = 0u64;
    for i in 0..key_words(key) {
        h = (h.rotate_left(5) ^ key_word(key, i)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    // (mixed again: keys of one word that differ by their length would otherwise
    // always land a fixed distance apart)
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (h >> 40) as usize & (SLOTS - 1)
}

/// Appends the text of expression `bytes` to `out`.
///
/// The text depends only on the bytes and the context, and the same few expressions
/// come back again and again (clang's `DW_OP_bregx VGPRn+0, DW_OP_lit5, DW_OP_swap,
/// DW_OP_xderef`): texts of short expressions are kept per thread ([`Texts`]) and
/// copied (~750 instructions an expression decoded, 8% of `read --debug-info` over
/// the -g corpus, callgrind 2026-11-27).
pub fn write_expression(out: &mut Vec<u8>, bytes: &[u8], cx: ExprContext) {
    if bytes.len() > CACHED_LEN || cx.address_size == 0 {
        return write_expression_uncached(out, bytes, cx);
    }
    let key = cache_key(bytes, cx);
    let i = slot(&key);
    let found = TEXTS.with_borrow(|texts| {
        let slot = texts.as_ref()?.0.get(i * SLOT..(i + 1) * SLOT)?;
        // (the words past the length are zeros in both: the length is in the key)
        if (0..key_words(&key)).any(|w| key_word(slot, w) != key_word(&key, w)) {
            return None;
        }
        let len = usize::from(slot[KEY]);
        let text = &slot[KEY + 1..KEY + 1 + TEXT];
        if len <= SHORT_TEXT {
            // (a fixed-size copy, cut back: no `memcpy` call)
            let start = out.len();
            out.extend_from_slice(&text[..SHORT_TEXT]);
            out.truncate(start + len);
        } else {
            out.extend_from_slice(&text[..len]);
        }
        Some(())
    });
    if found.is_some() {
        return;
    }
    let start = out.len();
    write_expression_uncached(out, bytes, cx);
    let text = &out[start..];
    if text.len() <= TEXT {
        TEXTS.with_borrow_mut(|texts| {
            let t = texts.get_or_insert_with(Texts::new);
            if let Some(slot) = t.0.get_mut(i * SLOT..(i + 1) * SLOT) {
                slot[..KEY].copy_from_slice(&key);
                slot[KEY] = text.len() as u8;
                slot[KEY + 1..KEY + 1 + text.len()].copy_from_slice(text);
            }
        });
    }
}

fn write_expression_uncached(out: &mut Vec<u8>, bytes: &[u8], cx: ExprContext) {
    let mut r = R::new(bytes, gimli::LittleEndian);
    let mut first = true;
    while !r.is_empty() {
        let before = r;
        if !first {
            out.push_str(", ");
        }
        first = false;
        let start = out.len();
        if one(out, &mut r, cx).is_err() {
            out.truncate(start);
            out.push_str("<decoding error>");
            for b in before.slice() {
                let _ = write!(out, " {b:02x}");
            }
            return;
        }
    }
}

fn reg(out: &mut Vec<u8>, n: u64, cx: ExprContext) {
    if !cx.regs.write_name(out, n) {
        hex0x(out, n, 0);
    }
}

/// Register then signed offset: `VGPR5+0` when named, `0x606 +0` when not.
fn reg_offset(out: &mut Vec<u8>, n: u64, off: i64, cx: ExprContext) {
    if !cx.regs.write_name(out, n) {
        hex0x(out, n, 0);
        out.push(b' ');
    }
    plus_signed(out, off);
}

/// Reads with `f`, or gives 0 and leaves `r` as it was when `f` fails.
fn lenient<T: Default>(r: &mut R<'_>, f: impl FnOnce(&mut R<'_>) -> gimli::Result<T>) -> T {
    let mut probe = *r;
    match f(&mut probe) {
        Ok(v) => {
            *r = probe;
            v
        }
        Err(_) => T::default(),
    }
}

fn one(out: &mut Vec<u8>, r: &mut R<'_>, cx: ExprContext) -> gimli::Result<()> {
    let op = r.read_u8()?;
    if op == DW_OP_LLVM_USER {
        let sub = r.read_uleb128()?;
        let Some(o) = llvm_operation(sub) else {
            return Err(gimli::Error::InvalidExpression(c::DwOp(op)));
        };
        out.push_str("DW_OP_LLVM_user ");
        out.push_str(o.name);
        let uleb = |r: &mut R<'_>| -> gimli::Result<u64> { Ok(lenient(r, |r| r.read_uleb128())) };
        let mut named = false;
        for operand in o.operands {
            match operand {
                LlvmOperand::Uleb => {
                    let v = uleb(r)?;
                    let _ = write!(out, " {v:#x}");
                }
                LlvmOperand::Register => {
                    let n = uleb(r)?;
                    out.push(b' ');
                    named = cx.regs.name(n).is_some();
                    reg(out, n, cx);
                }
                LlvmOperand::Displacement => {
                    let v = uleb(r)?;
                    if named {
                        let _ = write!(out, "+{v}");
                    } else {
                        let _ = write!(out, " {v:#x}");
                    }
                }
            }
        }
        return Ok(());
    }
    let name = c::DwOp(op)
        .static_string()
        .ok_or(gimli::Error::InvalidExpression(c::DwOp(op)))?;
    out.push_str(name);
    match op {
        0x03 => {
            let a = lenient(r, |r| r.read_address(cx.address_size));
            let _ = write!(out, " {a:#x}");
        }
        0x08 => hex(out, lenient(r, |r| r.read_u8()) as u64),
        0x09 => signed(out, lenient(r, |r| r.read_i8()) as i64),
        0x0a => hex(out, lenient(r, |r| r.read_u16()) as u64),
        0x0b => signed(out, lenient(r, |r| r.read_i16()) as i64),
        0x0c => hex(out, lenient(r, |r| r.read_u32()) as u64),
        0x0d => signed(out, lenient(r, |r| r.read_i32()) as i64),
        0x0e => hex(out, lenient(r, |r| r.read_u64())),
        0x0f => signed(out, lenient(r, |r| r.read_i64())),
        0x10 | 0x23 | 0x93 | 0xa1 | 0xa2 | 0xa8 | 0xa9 => {
            hex(out, lenient(r, |r| r.read_uleb128()))
        }
        0x11 | 0x91 => signed(out, lenient(r, |r| r.read_sleb128())),
        0x15 | 0x94 | 0x95 => hex(out, lenient(r, |r| r.read_u8()) as u64),
        0x28 | 0x2f => signed(out, lenient(r, |r| r.read_i16()) as i64),
        0x50..=0x6f => {
            let n = (op - 0x50) as u64;
            out.push(b' ');
            if !cx.regs.write_name(out, n) {
                out.pop();
            }
        }
        0x70..=0x8f => {
            let n = (op - 0x70) as u64;
            let off = lenient(r, |r| r.read_sleb128());
            out.push(b' ');
            cx.regs.write_name(out, n);
            plus_signed(out, off);
        }
        0x90 => {
            let n = lenient(r, |r| r.read_uleb128());
            out.push(b' ');
            reg(out, n, cx);
        }
        0x92 => {
            let n = lenient(r, |r| r.read_uleb128());
            let off = lenient(r, |r| r.read_sleb128());
            out.push(b' ');
            reg_offset(out, n, off, cx);
        }
        0x98 => hex(out, lenient(r, |r| r.read_u16()) as u64),
        0x99 => hex(out, lenient(r, |r| r.read_u32()) as u64),
        0x9a => hex(out, lenient(r, |r| r.read_offset(cx.format)) as u64),
        0x9d => {
            hex(out, lenient(r, |r| r.read_uleb128()));
            hex(out, lenient(r, |r| r.read_uleb128()));
        }
        0x9e => {
            let len = lenient(r, |r| r.read_uleb128());
            let block = r.split(len as usize)?;
            let _ = write!(out, " {len:#x}");
            for b in block.slice() {
                let _ = write!(out, " 0x{b:02x}");
            }
        }
        0xa0 => {
            hex(out, lenient(r, |r| r.read_offset(cx.format)) as u64);
            signed(out, lenient(r, |r| r.read_sleb128()));
        }
        0xa3 => {
            let len = lenient(r, |r| r.read_uleb128());
            let block = r.split(len as usize)?;
            out.push(b'(');
            write_expression(out, block.slice(), cx);
            out.push(b')');
        }
        0xa4 => {
            hex(out, lenient(r, |r| r.read_uleb128()));
            let len = lenient(r, |r| r.read_u8());
            let block = r.split(len as usize)?;
            let _ = write!(out, " {len:#x}");
            for b in block.slice() {
                let _ = write!(out, " 0x{b:02x}");
            }
        }
        0xa5..=0xa7 => {
            if op == 0xa5 {
                let n = lenient(r, |r| r.read_uleb128());
                out.push(b' ');
                reg(out, n, cx);
            } else {
                hex(out, lenient(r, |r| r.read_u8()) as u64);
            }
            hex(out, lenient(r, |r| r.read_uleb128()));
        }
        _ => {}
    }
    Ok(())
}

fn hex(out: &mut Vec<u8>, v: u64) {
    out.push(b' ');
    hex0x(out, v, 0);
}

fn signed(out: &mut Vec<u8>, v: i64) {
    out.push(b' ');
    plus_signed(out, v);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two expressions that differ only by a trailing zero byte, in one slot of the
    /// cache: each prints its own text (the length is part of the key).
    #[test]
    fn cached_texts_keep_expressions_apart_that_differ_by_trailing_zeros() {
        let cx = ExprContext {
            address_size: 8,
            format: gimli::Format::Dwarf32,
            regs: RegisterNames::Llvm,
        };
        // `DW_OP_constu` of a two-byte ULEB, and the same followed by a 0 byte (no
        // operation has code 0, so its text differs)
        let (short, long) = (0u8..128)
            .flat_map(|x| {
                (0u8..128).map(move |y| (vec![0x10, x | 0x80, y], vec![0x10, x | 0x80, y, 0]))
            })
            .find(|(a, b)| slot(&cache_key(a, cx)) == slot(&cache_key(b, cx)))
            .expect("a pair in one slot");
        let text = |b: &[u8]| {
            let mut out = Vec::new();
            write_expression_uncached(&mut out, b, cx);
            out
        };
        assert_ne!(text(&short), text(&long));
        for b in [&short, &long, &short] {
            let mut out = Vec::new();
            write_expression(&mut out, b, cx);
            assert_eq!(out, text(b), "{b:x?}");
        }
    }
}
