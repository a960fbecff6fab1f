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

/// Appends `x` in lowercase hexadecimal, at least `width` digits (zeros before).
pub(crate) fn hex(out: &mut String, x: u64, width: usize) {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [b'0'; 16];
    let mut n = 0;
    let mut v = x;
    loop {
        n += 1;
        buf[16 - n] = D[(v & 15) as usize];
        v >>= 4;
        if v == 0 {
            break;
        }
    }
    if width > 16 {
        spaces_zero(out, width - 16);
    }
    let n = n.max(width.min(16));
    ascii(out, &buf[16 - n..]);
}

/// Appends ASCII digits (one copy, not a push per character).
fn ascii(out: &mut String, digits: &[u8]) {
    out.push_str(std::str::from_utf8(digits).unwrap_or_default());
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
    let mut buf = [0u8; 20];
    let mut n = 0;
    let mut v = x;
    loop {
        n += 1;
        buf[20 - n] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    ascii(out, &buf[20 - n..]);
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
