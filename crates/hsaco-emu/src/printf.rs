//! Device `printf`: the records the kernel wrote into the printf buffer, formatted with
//! the `amdhsa.printf` strings of the code object (`ID:COUNT:SIZE...:FORMAT`), as the
//! runtime prints them.
//!
//! The buffer starts with a header of two dwords, the write offset and the buffer size;
//! records follow at byte 8: the format ID (a dword) and the arguments, each in the
//! size the metadata gives (a `%s` argument holds the string's bytes).

/// One `amdhsa.printf` entry.
struct Format {
    id: u32,
    sizes: Vec<usize>,
    text: String,
}

fn parse_format(s: &str) -> Option<Format> {
    let mut parts = s.splitn(3, ':');
    let id = parts.next()?.parse().ok()?;
    let count: usize = parts.next()?.parse().ok()?;
    let mut rest = parts.next()?;
    let mut sizes = Vec::with_capacity(count);
    for _ in 0..count {
        let (n, r) = rest.split_once(':')?;
        sizes.push(n.parse().ok()?);
        rest = r;
    }
    Some(Format {
        id,
        sizes,
        text: unescape(rest),
    })
}

/// The metadata keeps the format's escape sequences as written in the source (`\n`);
/// the runtime turns them into characters.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('v') => out.push('\u{b}'),
            Some(d @ '0'..='7') => {
                let mut v = d.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match it.peek().and_then(|c| c.to_digit(8)) {
                        Some(x) => {
                            v = v * 8 + x;
                            it.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from(v as u8));
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Format the records of a printf buffer (`buf`: the whole buffer, header included).
/// A record whose ID has no format, or that runs past the written part, ends the
/// output with a note.
pub fn format_buffer(buf: &[u8], formats: &[String]) -> String {
    let fmts: Vec<Format> = formats.iter().filter_map(|s| parse_format(s)).collect();
    let used = buf
        .get(..4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])) as usize;
    let end = (8 + used).min(buf.len());
    let mut out = String::new();
    let mut at = 8;
    while at + 4 <= end {
        let id = u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]);
        at += 4;
        let Some(f) = fmts.iter().find(|f| f.id == id) else {
            out.push_str(&format!("<printf record with unknown format id {id}>\n"));
            break;
        };
        let mut args: Vec<&[u8]> = Vec::new();
        for &sz in &f.sizes {
            if at + sz > end {
                break;
            }
            args.push(&buf[at..at + sz]);
            at += sz;
        }
        out.push_str(&format_one(&f.text, &args));
    }
    out
}

fn int_of(b: &[u8]) -> u64 {
    let mut x = [0u8; 8];
    let n = b.len().min(8);
    x[..n].copy_from_slice(&b[..n]);
    u64::from_le_bytes(x)
}

fn signed_of(b: &[u8]) -> i64 {
    let u = int_of(b);
    match b.len() {
        1 => u as u8 as i8 as i64,
        2 => u as u16 as i16 as i64,
        4 => u as u32 as i32 as i64,
        _ => u as i64,
    }
}

fn float_of(b: &[u8]) -> f64 {
    match b.len() {
        4 => f64::from(f32::from_bits(int_of(b) as u32)),
        8 => f64::from_bits(int_of(b)),
        _ => 0.0,
    }
}

/// C's `%e` exponent form: at least two exponent digits.
fn exp_form(x: f64, prec: usize, upper: bool) -> String {
    let s = format!("{x:.prec$e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let (sign, digits) = match e.strip_prefix('-') {
        Some(d) => ('-', d),
        None => ('+', e),
    };
    let r = format!("{m}e{sign}{digits:0>2}");
    if upper {
        r.to_uppercase()
    } else {
        r
    }
}

fn g_form(x: f64, prec: usize, upper: bool, alt: bool) -> String {
    let p = if prec == 0 { 1 } else { prec };
    if x == 0.0 {
        return if alt {
            format!("{:.*}", p - 1, 0.0)
        } else {
            "0".into()
        };
    }
    let exp = libm::log10(x.abs()).floor() as i64;
    let mut s = if exp < -4 || exp >= p as i64 {
        exp_form(x, p - 1, upper)
    } else {
        format!("{:.*}", (p as i64 - 1 - exp).max(0) as usize, x)
    };
    if !alt {
        // strip trailing zeros of the fraction
        if let Some(epos) = s.find(['e', 'E']) {
            let (m, e) = s.split_at(epos);
            let m = if m.contains('.') {
                m.trim_end_matches('0').trim_end_matches('.')
            } else {
                m
            };
            s = format!("{m}{e}");
        } else if s.contains('.') {
            s = s.trim_end_matches('0').trim_end_matches('.').to_string();
        }
    }
    s
}

fn nonfinite(x: f64, upper: bool) -> Option<String> {
    let s = if x.is_nan() {
        if x.is_sign_negative() {
            "-nan"
        } else {
            "nan"
        }
    } else if x.is_infinite() {
        if x < 0.0 {
            "-inf"
        } else {
            "inf"
        }
    } else {
        return None;
    };
    Some(if upper {
        s.to_uppercase()
    } else {
        s.to_string()
    })
}

/// One record: C printf conversions `d i u o x X c s f F e E g G a A p %` with flags,
/// width and precision.
fn format_one(fmt: &str, args: &[&[u8]]) -> String {
    let mut out = String::new();
    let mut it = fmt.chars().peekable();
    let mut next = 0;
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut flags = String::new();
        while let Some(&f) = it.peek() {
            if "-+ #0".contains(f) {
                flags.push(f);
                it.next();
            } else {
                break;
            }
        }
        let mut width = String::new();
        while let Some(&d) = it.peek().filter(|d| d.is_ascii_digit()) {
            width.push(d);
            it.next();
        }
        let mut prec: Option<usize> = None;
        if it.peek() == Some(&'.') {
            it.next();
            let mut p = String::new();
            while let Some(&d) = it.peek().filter(|d| d.is_ascii_digit()) {
                p.push(d);
                it.next();
            }
            prec = Some(p.parse().unwrap_or(0));
        }
        // length modifiers change nothing here: the metadata gives the size
        while let Some(&l) = it.peek() {
            if "hlLqjzt".contains(l) {
                it.next();
            } else {
                break;
            }
        }
        let Some(conv) = it.next() else { break };
        if conv == '%' {
            out.push('%');
            continue;
        }
        let arg: &[u8] = args.get(next).copied().unwrap_or(&[]);
        next += 1;
        let upper = conv.is_ascii_uppercase();
        let plus = flags.contains('+');
        let space = flags.contains(' ');
        let alt = flags.contains('#');
        let mut body = match conv {
            'd' | 'i' => {
                let v = signed_of(arg);
                let mut s = v.unsigned_abs().to_string();
                if let Some(p) = prec {
                    s = format!("{s:0>p$}");
                }
                if v < 0 {
                    format!("-{s}")
                } else if plus {
                    format!("+{s}")
                } else if space {
                    format!(" {s}")
                } else {
                    s
                }
            }
            'u' | 'o' | 'x' | 'X' => {
                let mut v = int_of(arg);
                if arg.len() == 4 {
                    v &= 0xffff_ffff;
                }
                let mut s = match conv {
                    'u' => v.to_string(),
                    'o' => format!("{v:o}"),
                    'x' => format!("{v:x}"),
                    _ => format!("{v:X}"),
                };
                if let Some(p) = prec {
                    s = format!("{s:0>p$}");
                }
                if alt && v != 0 {
                    s = match conv {
                        'x' => format!("0x{s}"),
                        'X' => format!("0X{s}"),
                        'o' => format!("0{s}"),
                        _ => s,
                    };
                }
                s
            }
            'c' => char::from(int_of(arg) as u8).to_string(),
            's' => {
                let end = arg.iter().position(|&b| b == 0).unwrap_or(arg.len());
                let s = String::from_utf8_lossy(&arg[..end]).into_owned();
                match prec {
                    Some(p) => s.chars().take(p).collect(),
                    None => s,
                }
            }
            'p' => format!("0x{:x}", int_of(arg)),
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
                let x = float_of(arg);
                let p = prec.unwrap_or(6);
                let s = nonfinite(x, upper).unwrap_or_else(|| match conv {
                    'f' | 'F' => format!("{x:.p$}"),
                    'e' | 'E' => exp_form(x, p, upper),
                    'g' | 'G' => g_form(x, p, upper, alt),
                    _ => format!("{x:e}"),
                });
                if !s.starts_with('-') && plus {
                    format!("+{s}")
                } else if !s.starts_with('-') && space {
                    format!(" {s}")
                } else {
                    s
                }
            }
            other => format!("%{other}"),
        };
        let w: usize = width.parse().unwrap_or(0);
        if body.chars().count() < w {
            let pad = w - body.chars().count();
            if flags.contains('-') {
                body.push_str(&" ".repeat(pad));
            } else if flags.contains('0') && !matches!(conv, 's' | 'c') && prec.is_none() {
                let (sign, digits) = if body.starts_with(['-', '+', ' ']) {
                    body.split_at(1)
                } else {
                    ("", body.as_str())
                };
                body = format!("{sign}{}{digits}", "0".repeat(pad));
            } else {
                body = format!("{}{body}", " ".repeat(pad));
            }
        }
        out.push_str(&body);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_c_does() {
        // expected strings: what C's printf prints for the same format and values
        assert_eq!(
            format_one(
                "item %u value %f hex %x name %s\n",
                &[
                    &3u32.to_le_bytes(),
                    &1.5f32.to_le_bytes(),
                    &0x3333u32.to_le_bytes(),
                    b"const\0\0\0"
                ]
            ),
            "item 3 value 1.500000 hex 3333 name const\n"
        );
        assert_eq!(
            format_one(
                "%5d|%-4d|%04x|%+d",
                &[
                    &(-42i32).to_le_bytes(),
                    &7i32.to_le_bytes(),
                    &255u32.to_le_bytes(),
                    &5i32.to_le_bytes()
                ]
            ),
            "  -42|7   |00ff|+5"
        );
        assert_eq!(
            format_one(
                "%e %g %g %.3f %%",
                &[
                    &12345.678f64.to_le_bytes(),
                    &0.0001f64.to_le_bytes(),
                    &1e20f64.to_le_bytes(),
                    &2.0f64.to_le_bytes()
                ]
            ),
            "1.234568e+04 0.0001 1e+20 2.000 %"
        );
        assert_eq!(
            format_one(
                "%f %f",
                &[&f32::INFINITY.to_le_bytes(), &f32::NAN.to_le_bytes()]
            ),
            "inf nan"
        );
    }

    #[test]
    fn buffer_records() {
        // as the metadata stores them: the escapes as written in the source
        let fmts = vec!["1:2:4:4:a=%d b=%u\\n".to_string(), "2:0:hi\\n".to_string()];
        let mut buf = vec![0u8; 64];
        let recs: Vec<u32> = vec![1, (-1i32) as u32, 9, 2, 1, 5, 6];
        for (k, r) in recs.iter().enumerate() {
            buf[8 + 4 * k..12 + 4 * k].copy_from_slice(&r.to_le_bytes());
        }
        buf[..4].copy_from_slice(&(4 * recs.len() as u32).to_le_bytes());
        assert_eq!(format_buffer(&buf, &fmts), "a=-1 b=9\nhi\na=5 b=6\n");
    }
}
