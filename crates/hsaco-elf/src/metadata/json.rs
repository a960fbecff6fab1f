//! The JSON form of a metadata document (see the schema in the [module
//! docs](super)).

use std::fmt::Write as _;

use crate::msgpack::Value;

/// The document as pretty-printed JSON (two-space indentation, one trailing
/// newline), following the schema described in the [module docs](super).
pub fn to_json(v: &Value<'_>) -> String {
    let mut out = String::new();
    write_value(&mut out, v, 0);
    out.push('\n');
    out
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

fn write_value(out: &mut String, v: &Value<'_>, indent: usize) {
    match v {
        Value::Nil => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::UInt(u) => {
            let _ = write!(out, "{u}");
        }
        Value::Float32(f) => write_float(out, f64::from(*f)),
        Value::Float64(f) => write_float(out, *f),
        Value::Str(s) => write_string(out, &String::from_utf8_lossy(s)),
        Value::Bin(b) => write_string(out, &hex(b)),
        Value::Ext(t, d) => {
            let _ = write!(out, "{{\"ext\": {t}, \"data\": \"{}\"}}", hex(d));
        }
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                push_indent(out, indent + 1);
                write_value(out, item, indent + 1);
            }
            out.push('\n');
            push_indent(out, indent);
            out.push(']');
        }
        Value::Map(pairs) => {
            if pairs.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, val)) in pairs.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                push_indent(out, indent + 1);
                let key = match k {
                    Value::Str(s) => String::from_utf8_lossy(s).into_owned(),
                    other => {
                        let mut s = String::new();
                        write_value(&mut s, other, 0);
                        s.replace('\n', "")
                    }
                };
                write_string(out, &key);
                out.push_str(": ");
                write_value(out, val, indent + 1);
            }
            out.push('\n');
            push_indent(out, indent);
            out.push('}');
        }
    }
}

fn push_indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("\"nan\"");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { "\"inf\"" } else { "\"-inf\"" });
    } else {
        let _ = write!(out, "{f:?}");
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn forms() {
        let v = Value::Map(vec![
            (
                Value::str_ref("a"),
                Value::Array(vec![Value::UInt(1), Value::Int(-2)]),
            ),
            (Value::UInt(7), Value::Bin(Cow::Borrowed(&[0xab, 0x01]))),
            (Value::str_ref("f"), Value::Float64(1.5)),
            (Value::str_ref("s"), Value::str_ref("q\"\n\u{1}")),
            (Value::str_ref("e"), Value::Map(vec![])),
            (Value::str_ref("n"), Value::Nil),
        ]);
        assert_eq!(
            to_json(&v),
            "{\n  \"a\": [\n    1,\n    -2\n  ],\n  \"7\": \"ab01\",\n  \"f\": 1.5,\n  \"s\": \"q\\\"\\n\\u0001\",\n  \"e\": {},\n  \"n\": null\n}\n"
        );
    }
}
