//! MessagePack: a bounds-checked, zero-copy reader into an order-preserving [`Value`]
//! tree, and a writer that uses the smallest encoding of every item.
//!
//! Code object metadata v3 onwards (the `NT_AMDGPU_METADATA` note) is one MessagePack
//! map. The reader keeps maps as a list of pairs in stored order (duplicates included),
//! keeps the signedness of integers as encoded (`Int` for the signed and negative
//! forms, `UInt` for the unsigned and positive forms) and the width of floats, and
//! borrows strings and binaries from the input.
//!
//! ```
//! use hsaco_elf::msgpack::{self, Value};
//! let bytes = [0x81, 0xa1, b'a', 0x92, 0x01, 0xcd, 0x01, 0x00];
//! let value = msgpack::decode(&bytes).unwrap();
//! assert_eq!(value.get("a").and_then(|v| v.as_array()).map(|a| a.len()), Some(2));
//! assert_eq!(msgpack::encode(&value), bytes);
//! ```

use std::borrow::Cow;

use crate::{Error, Result};

/// Nesting deeper than this is rejected (metadata is about five levels deep).
pub const MAX_DEPTH: usize = 128;

/// One MessagePack item. Strings are kept as bytes: MessagePack does not promise UTF-8,
/// and code object tools differ in how they show invalid sequences.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// `nil`.
    Nil,
    /// `true` / `false`.
    Bool(bool),
    /// A signed integer (negative fixint or `int 8/16/32/64`, whatever its value).
    Int(i64),
    /// An unsigned integer (positive fixint or `uint 8/16/32/64`).
    UInt(u64),
    /// `float 32`.
    Float32(f32),
    /// `float 64`.
    Float64(f64),
    /// A string (`fixstr`, `str 8/16/32`), as stored.
    Str(Cow<'a, [u8]>),
    /// A binary (`bin 8/16/32`).
    Bin(Cow<'a, [u8]>),
    /// An array, in stored order.
    Array(Vec<Value<'a>>),
    /// A map: key/value pairs in stored order, duplicates kept.
    Map(Vec<(Value<'a>, Value<'a>)>),
    /// An extension (`fixext`, `ext 8/16/32`): type and data.
    Ext(i8, Cow<'a, [u8]>),
}

impl<'a> Value<'a> {
    /// An owned string value.
    pub fn string(s: impl Into<String>) -> Value<'static> {
        Value::Str(Cow::Owned(s.into().into_bytes()))
    }

    /// A borrowed string value.
    pub fn str_ref(s: &'a str) -> Value<'a> {
        Value::Str(Cow::Borrowed(s.as_bytes()))
    }

    /// The string, if this is a string holding valid UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(b) => std::str::from_utf8(b).ok(),
            _ => None,
        }
    }

    /// The string bytes, if this is a string.
    pub fn as_str_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Str(b) => Some(b),
            _ => None,
        }
    }

    /// The value as `u64`, if it is an integer (either kind) that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::UInt(v) => Some(v),
            Value::Int(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The value as `i64`, if it is an integer (either kind) that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::UInt(v) => i64::try_from(v).ok(),
            Value::Int(v) => Some(v),
            _ => None,
        }
    }

    /// True for `Int` and `UInt`.
    pub fn is_integer(&self) -> bool {
        matches!(self, Value::Int(_) | Value::UInt(_))
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The pairs, if this is a map.
    pub fn as_map(&self) -> Option<&[(Value<'a>, Value<'a>)]> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The value of the first entry whose key is the string `key`, if this is a map.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str_bytes() == Some(key.as_bytes()))
            .map(|(_, v)| v)
    }

    /// A short name of the kind of value, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::UInt(_) => "integer",
            Value::Float32(_) | Value::Float64(_) => "float",
            Value::Str(_) => "string",
            Value::Bin(_) => "binary",
            Value::Array(_) => "array",
            Value::Map(_) => "map",
            Value::Ext(..) => "extension",
        }
    }

    /// A copy that owns all its data.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Nil => Value::Nil,
            Value::Bool(b) => Value::Bool(b),
            Value::Int(v) => Value::Int(v),
            Value::UInt(v) => Value::UInt(v),
            Value::Float32(v) => Value::Float32(v),
            Value::Float64(v) => Value::Float64(v),
            Value::Str(s) => Value::Str(Cow::Owned(s.into_owned())),
            Value::Bin(s) => Value::Bin(Cow::Owned(s.into_owned())),
            Value::Array(a) => Value::Array(a.into_iter().map(Value::into_owned).collect()),
            Value::Map(m) => Value::Map(
                m.into_iter()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect(),
            ),
            Value::Ext(t, d) => Value::Ext(t, Cow::Owned(d.into_owned())),
        }
    }
}

/// Decode exactly one item that covers all of `data` (trailing bytes are an error).
pub fn decode(data: &[u8]) -> Result<Value<'_>> {
    let (value, used) = decode_prefix(data)?;
    if used != data.len() {
        return Err(Error::new(
            used as u64,
            format!(
                "{} trailing bytes after the MessagePack item",
                data.len() - used
            ),
        ));
    }
    Ok(value)
}

/// Decode the first item of `data`; returns it and the number of bytes it used.
pub fn decode_prefix(data: &[u8]) -> Result<(Value<'_>, usize)> {
    let mut reader = Reader { data, pos: 0 };
    let value = reader.value(0)?;
    Ok((value, reader.pos))
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn err<T>(&self, at: usize, message: impl Into<Cow<'static, str>>) -> Result<T> {
        Err(Error::new(at as u64, message))
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let start = self.pos;
        match start.checked_add(n) {
            Some(end) if end <= self.data.len() => {
                self.pos = end;
                Ok(&self.data[start..end])
            }
            _ => self.err(
                start,
                format!(
                    "{what} of {n} bytes runs past the end of the data ({} bytes left)",
                    self.data.len() - start.min(self.data.len())
                ),
            ),
        }
    }

    fn be(&mut self, n: usize, what: &str) -> Result<u64> {
        let bytes = self.take(n, what)?;
        Ok(bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
    }

    fn value(&mut self, depth: usize) -> Result<Value<'a>> {
        let at = self.pos;
        if depth > MAX_DEPTH {
            return self.err(at, format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        let Some(&tag) = self.data.get(at) else {
            return self.err(at, "unexpected end of MessagePack data");
        };
        self.pos += 1;
        Ok(match tag {
            0x00..=0x7f => Value::UInt(u64::from(tag)),
            0x80..=0x8f => self.map(usize::from(tag & 0x0f), depth)?,
            0x90..=0x9f => self.array(usize::from(tag & 0x0f), depth)?,
            0xa0..=0xbf => Value::Str(Cow::Borrowed(self.take(usize::from(tag & 0x1f), "string")?)),
            0xc0 => Value::Nil,
            0xc1 => return self.err(at, "byte 0xc1 is never used in MessagePack"),
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xc4..=0xc6 => {
                let n = self.be(1 << (tag - 0xc4), "binary length")?;
                Value::Bin(Cow::Borrowed(self.take_len(n, "binary")?))
            }
            0xc7..=0xc9 => {
                let n = self.be(1 << (tag - 0xc7), "extension length")?;
                let ty = self.be(1, "extension type")? as u8 as i8;
                Value::Ext(ty, Cow::Borrowed(self.take_len(n, "extension")?))
            }
            0xca => Value::Float32(f32::from_bits(self.be(4, "float 32")? as u32)),
            0xcb => Value::Float64(f64::from_bits(self.be(8, "float 64")?)),
            0xcc..=0xcf => Value::UInt(self.be(1 << (tag - 0xcc), "unsigned integer")?),
            0xd0..=0xd3 => {
                let width = 1usize << (tag - 0xd0);
                let raw = self.be(width, "signed integer")?;
                let shift = 64 - 8 * width as u32;
                Value::Int(((raw << shift) as i64) >> shift)
            }
            0xd4..=0xd8 => {
                let ty = self.be(1, "extension type")? as u8 as i8;
                let n = 1usize << (tag - 0xd4);
                Value::Ext(ty, Cow::Borrowed(self.take(n, "extension")?))
            }
            0xd9..=0xdb => {
                let n = self.be(1 << (tag - 0xd9), "string length")?;
                Value::Str(Cow::Borrowed(self.take_len(n, "string")?))
            }
            0xdc | 0xdd => {
                let n = self.be(if tag == 0xdc { 2 } else { 4 }, "array length")?;
                self.array(usize::try_from(n).unwrap_or(usize::MAX), depth)?
            }
            0xde | 0xdf => {
                let n = self.be(if tag == 0xde { 2 } else { 4 }, "map length")?;
                self.map(usize::try_from(n).unwrap_or(usize::MAX), depth)?
            }
            0xe0..=0xff => Value::Int(i64::from(tag as i8)),
        })
    }

    fn take_len(&mut self, n: u64, what: &str) -> Result<&'a [u8]> {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        self.take(n, what)
    }

    fn array(&mut self, count: usize, depth: usize) -> Result<Value<'a>> {
        // every element takes at least one byte: never reserve more than what is left
        let left = self.data.len().saturating_sub(self.pos);
        let mut items = Vec::with_capacity(count.min(left));
        for _ in 0..count {
            items.push(self.value(depth + 1)?);
        }
        Ok(Value::Array(items))
    }

    fn map(&mut self, count: usize, depth: usize) -> Result<Value<'a>> {
        let left = self.data.len().saturating_sub(self.pos);
        let mut pairs = Vec::with_capacity(count.min(left / 2));
        for _ in 0..count {
            let key = self.value(depth + 1)?;
            let value = self.value(depth + 1)?;
            pairs.push((key, value));
        }
        Ok(Value::Map(pairs))
    }
}

/// Whether [`decode`] of `data` succeeds and gives a [`Value::Map`]; checked without
/// building the tree (nothing is allocated).
pub fn is_map_document(data: &[u8]) -> bool {
    let mut c = Cursor::new(data);
    let Some(Item::Map(n)) = c.item() else {
        return false;
    };
    // left[d]: items still to read at nesting d (the root is at 0)
    let mut left = [0usize; MAX_DEPTH + 2];
    let mut d = 1;
    left[1] = n.saturating_mul(2);
    loop {
        while left[d] == 0 {
            d -= 1;
            if d == 0 {
                return c.pos == data.len();
            }
        }
        left[d] -= 1;
        if d > MAX_DEPTH {
            return false;
        }
        let count = match c.skip_scalar() {
            Some(()) => 0,
            None => match c.item() {
                None => return false,
                Some(Item::Map(m)) => m.saturating_mul(2),
                Some(Item::Array(m)) => m,
                Some(_) => 0,
            },
        };
        if count > 0 {
            d += 1;
            left[d] = count;
        }
    }
}

/// One item header as [`Cursor`] reads it: scalars whole, containers by their length
/// (their items follow).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item<'a> {
    Nil,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float32(f32),
    Float64(f64),
    Str(&'a [u8]),
    Bin(&'a [u8]),
    /// An extension (type and data skipped).
    Ext,
    Array(usize),
    Map(usize),
}

/// A bounds-checked, allocation-free reader of item headers: the same grammar and
/// nesting limit as [`decode`], with `None` wherever `decode` gives an error.
#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Cursor { data, pos: 0 }
    }

    /// All the bytes.
    pub(crate) fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Bytes read so far.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.data.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    fn be(&mut self, n: usize) -> Option<u64> {
        let bytes = self.take(n)?;
        Some(bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
    }

    fn len(&mut self, n: usize) -> Option<usize> {
        Some(usize::try_from(self.be(n)?).unwrap_or(usize::MAX))
    }

    /// Reads the next item if it is one of the common short scalars (positive
    /// fixint, fixstr); `None` (nothing read) otherwise.
    #[inline(always)]
    fn skip_scalar(&mut self) -> Option<()> {
        let tag = *self.data.get(self.pos)?;
        let len = match tag {
            0x00..=0x7f => 1,
            0xa0..=0xbf => 1 + usize::from(tag & 0x1f),
            _ => return None,
        };
        let end = self.pos + len;
        if end > self.data.len() {
            return None;
        }
        self.pos = end;
        Some(())
    }

    /// The next item header.
    #[inline(always)]
    pub(crate) fn item(&mut self) -> Option<Item<'a>> {
        let tag = *self.data.get(self.pos)?;
        // the common forms first
        if tag < 0x80 {
            self.pos += 1;
            return Some(Item::UInt(u64::from(tag)));
        }
        if tag & 0xe0 == 0xa0 {
            let start = self.pos + 1;
            let s = self.data.get(start..start + usize::from(tag & 0x1f))?;
            self.pos = start + s.len();
            return Some(Item::Str(s));
        }
        self.item_other()
    }

    fn item_other(&mut self) -> Option<Item<'a>> {
        let tag = *self.data.get(self.pos)?;
        self.pos += 1;
        Some(match tag {
            0x00..=0x7f => Item::UInt(u64::from(tag)),
            0x80..=0x8f => Item::Map(usize::from(tag & 0x0f)),
            0x90..=0x9f => Item::Array(usize::from(tag & 0x0f)),
            0xa0..=0xbf => Item::Str(self.take(usize::from(tag & 0x1f))?),
            0xc0 => Item::Nil,
            0xc1 => return None,
            0xc2 => Item::Bool(false),
            0xc3 => Item::Bool(true),
            0xc4..=0xc6 => {
                let n = self.len(1 << (tag - 0xc4))?;
                Item::Bin(self.take(n)?)
            }
            0xc7..=0xc9 => {
                let n = self.len(1 << (tag - 0xc7))?;
                self.take(1)?;
                self.take(n)?;
                Item::Ext
            }
            0xca => Item::Float32(f32::from_bits(self.be(4)? as u32)),
            0xcb => Item::Float64(f64::from_bits(self.be(8)?)),
            0xcc..=0xcf => Item::UInt(self.be(1 << (tag - 0xcc))?),
            0xd0..=0xd3 => {
                let width = 1usize << (tag - 0xd0);
                let raw = self.be(width)?;
                let shift = 64 - 8 * width as u32;
                Item::Int(((raw << shift) as i64) >> shift)
            }
            0xd4..=0xd8 => {
                self.take(1)?;
                self.take(1 << (tag - 0xd4))?;
                Item::Ext
            }
            0xd9..=0xdb => {
                let n = self.len(1 << (tag - 0xd9))?;
                Item::Str(self.take(n)?)
            }
            0xdc => Item::Array(self.len(2)?),
            0xdd => Item::Array(self.len(4)?),
            0xde => Item::Map(self.len(2)?),
            0xdf => Item::Map(self.len(4)?),
            0xe0..=0xff => Item::Int(i64::from(tag as i8)),
        })
    }
}

/// Encode `value` with the smallest encoding of every item (a non-negative `Int` is
/// written in the unsigned forms, as the MessagePack specification recommends).
pub fn encode(value: &Value<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(value, &mut out);
    out
}

/// [`encode`], appending to `out`.
pub fn encode_into(value: &Value<'_>, out: &mut Vec<u8>) {
    match value {
        Value::Nil => out.push(0xc0),
        Value::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Value::UInt(v) => encode_uint(*v, out),
        Value::Int(v) => {
            let v = *v;
            if v >= 0 {
                encode_uint(v as u64, out);
            } else if v >= -32 {
                out.push(v as i8 as u8);
            } else if v >= i64::from(i8::MIN) {
                out.push(0xd0);
                out.push(v as i8 as u8);
            } else if v >= i64::from(i16::MIN) {
                out.push(0xd1);
                out.extend_from_slice(&(v as i16).to_be_bytes());
            } else if v >= i64::from(i32::MIN) {
                out.push(0xd2);
                out.extend_from_slice(&(v as i32).to_be_bytes());
            } else {
                out.push(0xd3);
                out.extend_from_slice(&v.to_be_bytes());
            }
        }
        Value::Float32(f) => {
            out.push(0xca);
            out.extend_from_slice(&f.to_bits().to_be_bytes());
        }
        Value::Float64(f) => {
            out.push(0xcb);
            out.extend_from_slice(&f.to_bits().to_be_bytes());
        }
        Value::Str(s) => {
            let n = s.len();
            if n < 32 {
                out.push(0xa0 | n as u8);
            } else {
                length_header(n, [0xd9, 0xda, 0xdb], out);
            }
            out.extend_from_slice(s);
        }
        Value::Bin(b) => {
            length_header(b.len(), [0xc4, 0xc5, 0xc6], out);
            out.extend_from_slice(b);
        }
        Value::Array(items) => {
            if items.len() < 16 {
                out.push(0x90 | items.len() as u8);
            } else {
                container_header(items.len(), [0xdc, 0xdd], out);
            }
            for item in items {
                encode_into(item, out);
            }
        }
        Value::Map(pairs) => {
            if pairs.len() < 16 {
                out.push(0x80 | pairs.len() as u8);
            } else {
                container_header(pairs.len(), [0xde, 0xdf], out);
            }
            for (k, v) in pairs {
                encode_into(k, out);
                encode_into(v, out);
            }
        }
        Value::Ext(ty, data) => {
            let fixed = match data.len() {
                1 => Some(0xd4),
                2 => Some(0xd5),
                4 => Some(0xd6),
                8 => Some(0xd7),
                16 => Some(0xd8),
                _ => None,
            };
            match fixed {
                Some(tag) => out.push(tag),
                None => length_header(data.len(), [0xc7, 0xc8, 0xc9], out),
            }
            out.push(*ty as u8);
            out.extend_from_slice(data);
        }
    }
}

fn encode_uint(v: u64, out: &mut Vec<u8>) {
    if v < 0x80 {
        out.push(v as u8);
    } else if v <= 0xff {
        out.extend_from_slice(&[0xcc, v as u8]);
    } else if v <= 0xffff {
        out.push(0xcd);
        out.extend_from_slice(&(v as u16).to_be_bytes());
    } else if v <= 0xffff_ffff {
        out.push(0xce);
        out.extend_from_slice(&(v as u32).to_be_bytes());
    } else {
        out.push(0xcf);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

/// `len` with an 8-, 16- or 32-bit length (lengths above 32 bits are clamped: such a
/// value cannot come from the reader).
fn length_header(len: usize, tags: [u8; 3], out: &mut Vec<u8>) {
    if len <= 0xff {
        out.extend_from_slice(&[tags[0], len as u8]);
    } else if len <= 0xffff {
        out.push(tags[1]);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(tags[2]);
        out.extend_from_slice(&(len.min(u32::MAX as usize) as u32).to_be_bytes());
    }
}

fn container_header(len: usize, tags: [u8; 2], out: &mut Vec<u8>) {
    if len <= 0xffff {
        out.push(tags[0]);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(tags[1]);
        out.extend_from_slice(&(len.min(u32::MAX as usize) as u32).to_be_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Encodings from the MessagePack specification (msgpack/msgpack spec.md).
    #[test]
    fn spec_forms() {
        let cases: &[(&[u8], Value)] = &[
            (&[0x7f], Value::UInt(127)),
            (&[0xcc, 0x80], Value::UInt(128)),
            (&[0xcd, 0x01, 0x00], Value::UInt(256)),
            (&[0xce, 0x00, 0x01, 0x00, 0x00], Value::UInt(65536)),
            (&[0xcf, 0, 0, 0, 1, 0, 0, 0, 0], Value::UInt(1 << 32)),
            (&[0xe0], Value::Int(-32)),
            (&[0xd0, 0xdf], Value::Int(-33)),
            (&[0xd1, 0xff, 0x7f], Value::Int(-129)),
            (&[0xc0], Value::Nil),
            (&[0xc3], Value::Bool(true)),
            (&[0xca, 0x3f, 0xc0, 0, 0], Value::Float32(1.5)),
            (&[0xa1, b'x'], Value::str_ref("x")),
            (&[0xc4, 0x01, 0x07], Value::Bin(Cow::Borrowed(&[7]))),
            (&[0xd4, 0x01, 0x02], Value::Ext(1, Cow::Borrowed(&[2]))),
        ];
        for (bytes, value) in cases {
            assert_eq!(&decode(bytes).unwrap(), value, "{bytes:02x?}");
            assert_eq!(&encode(value), bytes);
        }
    }

    #[test]
    fn non_canonical_forms_are_read() {
        assert_eq!(decode(&[0xd0, 0x05]).unwrap(), Value::Int(5));
        assert_eq!(decode(&[0xcd, 0x00, 0x05]).unwrap(), Value::UInt(5));
        assert_eq!(encode(&Value::UInt(5)), [0x05]);
    }

    #[test]
    fn malformed() {
        let e = decode(&[0x92, 0x01]).unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(decode(&[0xdd, 0xff, 0xff, 0xff, 0xff]).is_err());
        assert!(decode(&[0xdb, 0xff, 0xff, 0xff, 0xff]).is_err());
        assert!(decode(&[0xc1]).is_err());
        assert!(decode(&[0x80, 0x80]).is_err());
        assert!(decode(&vec![0x91; 1000]).is_err());
    }
}
