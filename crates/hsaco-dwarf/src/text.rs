//! Number and padding writers for the hot paths of the dumps: `core::fmt`'s padding
//! (`{:w$}` writes its spaces one `write_char` at a time) and its integer formatting
//! took a third of `read --debug-info`'s time over the `-g` corpus (perf, 2026-11-27).

/// Appends `n` spaces.
pub(crate) fn spaces(out: &mut String, mut n: usize) {
    const S: &str = "                                                                ";
    while n > S.len() {
        out.push_str(S);
        n -= S.len();
    }
    out.push_str(&S[..n]);
}

/// Two hexadecimal digits for each byte value: `00` at 0, `ff` at 510. Numbers are
/// appended two digits at a time as slices of these tables, which are already `str`:
/// building the digits in a byte buffer and checking it with `str::from_utf8` cost
/// ~65 instructions a number (a quarter of the numbers' cost), and pushing a `char`
/// at a time cost more (callgrind over the `-g` corpus, 2026-11-27).
const HEX_PAIRS: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
    202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\
    404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
    606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f\
    808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f\
    a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
    c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf\
    e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/// Two decimal digits for each value below 100: `00` at 0, `99` at 198.
const DEC_PAIRS: &str = "0001020304050607080910111213141516171819202122232425262728293031\
    3233343536373839404142434445464748495051525354555657585960616263\
    6465666768697071727374757677787980818283848586878889909192939495\
    96979899";

const HEX_DIGITS: &str = "0123456789abcdef";

/// Appends `x` in lowercase hexadecimal, at least `width` digits (zeros before).
pub(crate) fn hex(out: &mut String, x: u64, width: usize) {
    let significant = (64 - x.leading_zeros() as usize).div_ceil(4).max(1);
    let mut n = significant.max(width);
    if n > 16 {
        spaces_zero(out, n - 16);
        n = 16;
    }
    out.reserve(n);
    // the zeros before the number in one copy (addresses are mostly zeros), then
    // its digits
    const ZEROS: &str = "0000000000000000";
    out.push_str(&ZEROS[..n - significant]);
    let mut n = significant;
    if n % 2 == 1 {
        n -= 1;
        let d = ((x >> (4 * n)) & 15) as usize;
        out.push_str(&HEX_DIGITS[d..d + 1]);
    }
    while n > 0 {
        n -= 2;
        let b = 2 * ((x >> (4 * n)) & 0xff) as usize;
        out.push_str(&HEX_PAIRS[b..b + 2]);
    }
}

fn spaces_zero(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push('0');
    }
}

/// Appends `0x` and `x` in lowercase hexadecimal, at least `width` digits.
pub(crate) fn hex0x(out: &mut String, x: u64, width: usize) {
    out.push_str("0x");
    hex(out, x, width);
}

/// Appends `x` in decimal.
pub(crate) fn dec(out: &mut String, x: u64) {
    if x < 10 {
        let d = x as usize;
        out.push_str(&HEX_DIGITS[d..d + 1]);
        return;
    }
    // pairs of digits from the lowest, then printed from the highest
    let mut pairs = [0u8; 10];
    let mut n = 0;
    let mut v = x;
    while v >= 100 {
        pairs[n] = (v % 100) as u8;
        n += 1;
        v /= 100;
    }
    if v >= 10 {
        let b = 2 * v as usize;
        out.push_str(&DEC_PAIRS[b..b + 2]);
    } else {
        let d = v as usize;
        out.push_str(&HEX_DIGITS[d..d + 1]);
    }
    for &p in pairs[..n].iter().rev() {
        let b = 2 * p as usize;
        out.push_str(&DEC_PAIRS[b..b + 2]);
    }
}

/// Appends `x` in decimal with its sign, `+` included (`{x:+}`).
pub(crate) fn plus_signed(out: &mut String, x: i64) {
    out.push(if x < 0 { '-' } else { '+' });
    dec(out, x.unsigned_abs());
}

/// Appends `x` in decimal, with a `-` when negative.
pub(crate) fn dec_signed(out: &mut String, x: i64) {
    if x < 0 {
        out.push('-');
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
                let mut s = String::new();
                hex(&mut s, x, w);
                assert_eq!(s, format!("{x:0w$x}"));
                s.clear();
                hex0x(&mut s, x, w);
                assert_eq!(s, format!("0x{x:0w$x}"));
            }
            let mut s = String::new();
            dec(&mut s, x);
            assert_eq!(s, x.to_string());
        }
        // every digit pair of the tables, and every digit count
        let mut xs: Vec<u64> = (0..=1100).collect();
        for shift in 0..64 {
            xs.extend([
                1u64 << shift,
                (1u64 << shift) - 1,
                0x0123_4567_89ab_cdef >> shift,
            ]);
        }
        for x in xs {
            for w in [0usize, 3, 8, 16, 17] {
                let mut s = String::new();
                hex(&mut s, x, w);
                assert_eq!(s, format!("{x:0w$x}"));
            }
            let mut s = String::new();
            dec(&mut s, x);
            assert_eq!(s, x.to_string());
        }
        for x in [0i64, 1, -1, 42, -42, i64::MIN, i64::MAX] {
            let mut s = String::new();
            dec_signed(&mut s, x);
            assert_eq!(s, x.to_string());
            s.clear();
            plus_signed(&mut s, x);
            assert_eq!(s, format!("{x:+}"));
        }
        for n in [0usize, 1, 63, 64, 65, 200] {
            let mut s = String::new();
            spaces(&mut s, n);
            assert_eq!(s, " ".repeat(n));
        }
    }
}
