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
                match k {
                    Value::Str(s) => write_string(out, &String::from_utf8_lossy(s)),
                    other => {
                        let mut text = String::new();
                        write_key_text(&mut text, other);
                        write_string(out, &text);
                    }
                }
                out.push_str(": ");
                write_value(out, val, indent + 1);
            }
            out.push('\n');
            push_indent(out, indent);
            out.push('}');
        }
    }
}

/// The text of a map key that is not a string, on one line: a scalar's JSON text; an
/// array or map as compact JSON (`[1, 2]`, `{"a": 1}`), except that a key inside it that
/// is not a string is written as its own key text, unquoted. (Quoting it would escape
/// it once more at every level: a key nested in keys 30 deep would grow a billion
/// times.) The caller quotes and escapes the whole once, so the text stays linear in
/// the size of the key.
fn write_key_text(out: &mut String, v: &Value<'_>) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_key_text(out, item);
            }
            out.push(']');
        }
        Value::Map(pairs) => {
            out.push('{');
            for (i, (k, val)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                match k {
                    Value::Str(s) => write_string(out, &String::from_utf8_lossy(s)),
                    other => write_key_text(out, other),
                }
                out.push_str(": ");
                write_key_text(out, val);
            }
            out.push('}');
        }
        scalar => write_value(out, scalar, 0),
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

    /// Keys that are containers: one line each, and a key nested in keys is not
    /// escaped again at every level (found by cargo fuzz: 3 KB of MessagePack with
    /// keys nested 30 deep printed 1.6 GB).
    #[test]
    fn container_keys() {
        let inner = Value::Map(vec![(Value::UInt(1), Value::str_ref("x"))]);
        let v = Value::Map(vec![(
            Value::Map(vec![(
                inner,
                Value::Array(vec![Value::Nil, Value::Bool(true)]),
            )]),
            Value::UInt(2),
        )]);
        assert_eq!(
            to_json(&v),
            "{\n  \"{{1: \\\"x\\\"}: [null, true]}\": 2\n}\n"
        );
        let mut deep = Value::UInt(0);
        for _ in 0..40 {
            deep = Value::Map(vec![(deep, Value::str_ref("a\"b"))]);
        }
        let text = to_json(&Value::Map(vec![(deep, Value::Nil)]));
        assert!(text.len() < 2000, "{} bytes", text.len());
    }
}
