//! Bounds-checked little-endian field reads shared by the container parsers.

use crate::{Error, Result};

/// `len` bytes at `off`, or an error naming `what` at `off`.
pub(crate) fn slice<'a>(data: &'a [u8], off: u64, len: u64, what: &str) -> Result<&'a [u8]> {
    let start = usize::try_from(off).ok();
    let end = off.checked_add(len).and_then(|e| usize::try_from(e).ok());
    match (start, end) {
        (Some(s), Some(e)) if e <= data.len() => Ok(&data[s..e]),
        _ => Err(Error::new(
            off,
            format!(
                "{what} ({len:#x} bytes) runs past the end of the data ({:#x} bytes)",
                data.len()
            ),
        )),
    }
}

pub(crate) fn u16_at(data: &[u8], off: u64, what: &str) -> Result<u16> {
    let b = slice(data, off, 2, what)?;
    Ok(u16::from_le_bytes([b[0], b[1]]))
}

pub(crate) fn u32_at(data: &[u8], off: u64, what: &str) -> Result<u32> {
    let b = slice(data, off, 4, what)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

pub(crate) fn u64_at(data: &[u8], off: u64, what: &str) -> Result<u64> {
    let b = slice(data, off, 8, what)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Ok(u64::from_le_bytes(a))
}

/// `a + b`, or an overflow error at `at`.
pub(crate) fn add(a: u64, b: u64, at: u64, what: &str) -> Result<u64> {
    a.checked_add(b)
        .ok_or_else(|| Error::new(at, format!("{what} overflows")))
}

/// `a * b`, or an overflow error at `at`.
pub(crate) fn mul(a: u64, b: u64, at: u64, what: &str) -> Result<u64> {
    a.checked_mul(b)
        .ok_or_else(|| Error::new(at, format!("{what} overflows")))
}

/// Position of `needle` in `hay` at or after `from`.
pub(crate) fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || from >= hay.len() {
        return None;
    }
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}
