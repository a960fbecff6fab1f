//! Number and padding writers for the hot paths of the dumps: `core::fmt`'s padding
//! (`{:w$}` writes its spaces one `write_char` at a time) and its integer formatting
//! took a third of `read --debug-info`'s time over the `-g` corpus (perf, 2026-11-27).
//! The dumps write bytes (`Vec<u8>`), not a `String`: a number is made in a small
//! buffer and copied in once, which a `String` allows only through a UTF-8 check.

/// `push_str` for the byte buffers the dumps write into (their text is UTF-8: every
/// string from the input goes through `from_utf8_lossy` or is checked first).
pub trait PushStr {
    /// Appends the bytes of `s`.
    fn push_str(&mut self, s: &str);
}

impl PushStr for Vec<u8> {
    #[inline]
    fn push_str(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
}

/// Appends `n` spaces.
#[inline]
pub(crate) fn spaces(out: &mut Vec<u8>, n: usize) {
    out.resize(out.len() + n, b' ');
}

/// The 16 hexadecimal digits of `x` (lowercase, zeros before), computed a word at a
/// time: each nibble spread to a byte, then `'0'` or `'a' - 10` added to all of them
/// at once. The text is written into a byte buffer: no `core::fmt`, no UTF-8 checks,
/// and a fixed-size copy where the width is known (callgrind over the `-g` corpus,
/// 2026-11-27: ~100 instructions a number as pairs of `&str` digits, ~30 this way).
#[inline]
fn hex16(x: u64) -> [u8; 16] {
    let hi = spread((x >> 32) as u32).to_be_bytes();
    let lo = spread(x as u32).to_be_bytes();
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&hi);
    out[8..].copy_from_slice(&lo);
    out
}

/// The 8 hexadecimal digits of `v` as ASCII bytes, the first digit in the highest
/// byte ([`hex16`]).
#[inline]
fn spread(v: u32) -> u64 {
    let mut x = u64::from(v);
    x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
    x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // byte k holds nibble k; 1 in the bytes of 10 and more
    let letters = ((x + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    x + 0x3030_3030_3030_3030 + letters * (b'a' - b'0' - 10) as u64
}

/// Appends `x` in lowercase hexadecimal, at least `width` digits (zeros before).
#[inline]
pub(crate) fn hex(out: &mut Vec<u8>, x: u64, width: usize) {
    let significant = (64 - x.leading_zeros() as usize).div_ceil(4).max(1);
    let digits = hex16(x);
    if significant <= width && width <= 16 {
        // (a constant width at most call sites: a fixed-size copy)
        out.extend_from_slice(&digits[16 - width..]);
        return;
    }
    if width > 16 {
        spaces_zero(out, width - 16);
        out.extend_from_slice(&digits);
        return;
    }
    out.extend_from_slice(&digits[16 - significant..]);
}

#[cold]
fn spaces_zero(out: &mut Vec<u8>, n: usize) {
    out.resize(out.len() + n, b'0');
}

/// Appends `0x` and `x` in lowercase hexadecimal, at least `width` digits.
///
/// Up to 16 digits, the wanted digits are shifted to the front of the word before
/// they are spread, and `0x` and all 16 digits copied then cut back: a copy of a
/// fixed size is a few moves, one of a variable size a call to `memcpy` (callgrind
/// over the -g corpus, 2026-11-27: ~97 instructions a number before, ~35 after).
#[inline(always)]
pub(crate) fn hex0x(out: &mut Vec<u8>, x: u64, width: usize) {
    if width > 16 {
        out.extend_from_slice(b"0x");
        return hex(out, x, width);
    }
    let significant = (64 - x.leading_zeros() as usize).div_ceil(4).max(1);
    let n = significant.max(width);
    let start = out.len();
    if n <= 8 {
        // (offsets and most numbers: half the work)
        let mut buf = [0u8; 10];
        buf[..2].copy_from_slice(b"0x");
        buf[2..].copy_from_slice(&spread((x as u32) << ((32 - 4 * n as u32) % 32)).to_be_bytes());
        out.extend_from_slice(&buf);
        out.truncate(start + 2 + n);
        return;
    }
    let digits = hex16(x << ((64 - 4 * n as u32) % 64));
    let mut buf = [0u8; 18];
    buf[..2].copy_from_slice(b"0x");
    buf[2..].copy_from_slice(&digits);
    out.extend_from_slice(&buf);
    out.truncate(start + 2 + n);
}

/// Appends `x` in decimal.
pub(crate) fn dec(out: &mut Vec<u8>, x: u64) {
    if x < 10 {
        out.push(b'0' + x as u8);
        return;
    }
    // digits from the lowest, at the end of the buffer
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut v = x;
    while v > 0 {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends `x` in decimal with its sign, `+` included (`{x:+}`).
pub(crate) fn plus_signed(out: &mut Vec<u8>, x: i64) {
    out.push(if x < 0 { b'-' } else { b'+' });
    dec(out, x.unsigned_abs());
}

/// Appends `x` in decimal, with a `-` when negative.
pub(crate) fn dec_signed(out: &mut Vec<u8>, x: i64) {
    if x < 0 {
        out.push(b'-');
    }
    dec(out, x.unsigned_abs());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agree_with_core_fmt() {
        for x in [
            0u64,
            1,
            9,
            10,
            15,
            16,
            255,
            256,
            0xdead_beef,
            u64::MAX,
            1 << 63,
        ] {
            for w in [0usize, 1, 2, 4, 8, 16, 18] {
                let mut s = Vec::new();
                hex(&mut s, x, w);
                assert_eq!(String::from_utf8_lossy(&s), format!("{x:0w$x}"));
                s.clear();
                hex0x(&mut s, x, w);
                assert_eq!(String::from_utf8_lossy(&s), format!("0x{x:0w$x}"));
            }
            let mut s = Vec::new();
            dec(&mut s, x);
            assert_eq!(String::from_utf8_lossy(&s), x.to_string());
        }
        // every digit count, and digits 0-f in every place
        let mut xs: Vec<u64> = (0..=1100).collect();
        for shift in 0..64 {
            xs.extend([
                1u64 << shift,
                (1u64 << shift) - 1,
                0x0123_4567_89ab_cdef >> shift,
            ]);
        }
        for x in xs {
            for w in [0usize, 1, 2, 3, 4, 8, 15, 16, 17] {
                let mut s = Vec::new();
                hex(&mut s, x, w);
                assert_eq!(String::from_utf8_lossy(&s), format!("{x:0w$x}"));
                s.clear();
                s.extend_from_slice(b"ab");
                hex0x(&mut s, x, w);
                assert_eq!(String::from_utf8_lossy(&s), format!("ab0x{x:0w$x}"));
            }
            let mut s = Vec::new();
            dec(&mut s, x);
            assert_eq!(String::from_utf8_lossy(&s), x.to_string());
        }
        for x in [0i64, 1, -1, 42, -42, i64::MIN, i64::MAX] {
            let mut s = Vec::new();
            dec_signed(&mut s, x);
            assert_eq!(String::from_utf8_lossy(&s), x.to_string());
            s.clear();
            plus_signed(&mut s, x);
            assert_eq!(String::from_utf8_lossy(&s), format!("{x:+}"));
        }
        for n in [0usize, 1, 63, 64, 65, 200] {
            let mut s = Vec::new();
            spaces(&mut s, n);
            assert_eq!(String::from_utf8_lossy(&s), " ".repeat(n));
        }
    }
}
