//! A reader for the YAML subset used by code object v2 metadata (the
//! `NT_AMD_HSA_METADATA` note), into the same ordered [`Value`] tree as MessagePack.
//!
//! Supported: one document with optional `---` / `...` markers, `%` directives
//! (skipped), block maps and block sequences (including the compact `- key: value`
//! and `- - item` forms, and sequences at the indentation of their parent key), flow
//! sequences and maps on one line (`[ 1, 0 ]`, `{ a: 1 }`), plain, single-quoted and
//! double-quoted scalars on one line, `!str`/`!!str`/`!nil`-style tags, and comments.
//! Not supported (reported as errors): block scalars (`|`, `>`), scalars spanning
//! lines, anchors and aliases, complex (`?`) keys, tabs in indentation.
//!
//! Plain scalars are resolved with the YAML 1.2 core schema: `true`/`false` are
//! booleans, `~`, `null` and an empty value are nil, integers (decimal, `0x`, `0o`)
//! become `UInt` (or `Int` when negative), decimal floats become `Float64`, everything
//! else is a string. Quoted scalars and keys are always strings.
//!
//! ```
//! use hsaco_elf::{msgpack::Value, yaml};
//! let v = yaml::parse("---\nVersion: [ 1, 0 ]\nName: 'k'\n...\n").unwrap();
//! assert_eq!(v.get("Version"), Some(&Value::Array(vec![Value::UInt(1), Value::UInt(0)])));
//! assert_eq!(v.get("Name").and_then(Value::as_str), Some("k"));
//! ```

use crate::msgpack::Value;
use crate::{Error, Result};

/// Nesting deeper than this is rejected.
pub const MAX_DEPTH: usize = 128;

/// Parse a YAML document given as bytes (must be UTF-8; trailing NUL bytes, as
/// stored in notes, are ignored).
pub fn parse_bytes(data: &[u8]) -> Result<Value<'static>> {
    let mut end = data.len();
    while end > 0 && data[end - 1] == 0 {
        end -= 1;
    }
    let text = std::str::from_utf8(&data[..end]).map_err(|e| {
        Error::new(
            e.valid_up_to() as u64,
            "YAML text is not valid UTF-8".to_string(),
        )
    })?;
    parse(text)
}

/// Parse a YAML document. Errors give the byte offset and say `line:col` (1-based).
pub fn parse(text: &str) -> Result<Value<'static>> {
    let mut lines = Vec::new();
    let mut start = 0usize;
    let mut started = false;
    for raw in text.split_inclusive('\n') {
        let line_start = start;
        start += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']);
        if body.contains('\0') {
            return Err(located(text, line_start, "NUL byte in YAML text"));
        }
        let indent = body.len() - body.trim_start_matches(' ').len();
        let rest = &body[indent..];
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        if indent == 0 && !started && rest.starts_with('%') {
            continue;
        }
        if indent == 0 && is_marker(rest, "---") {
            if started && !lines.is_empty() {
                break; // a second document: only the first one is read
            }
            started = true;
            continue;
        }
        if indent == 0 && is_marker(rest, "...") {
            break;
        }
        started = true;
        if rest.starts_with('\t') {
            return Err(located(text, line_start + indent, "tab in indentation"));
        }
        lines.push(Line {
            start: line_start,
            indent,
            end: line_start + body.len(),
        });
    }
    let mut parser = Parser {
        text,
        lines,
        cur: 0,
    };
    if parser.lines.is_empty() {
        return Ok(Value::Nil);
    }
    let first = parser.lines[0].indent;
    let value = parser.node(0, first, 0)?;
    if let Some(line) = parser.lines.get(parser.cur) {
        return Err(parser.err(line.start + line.indent, "unexpected content"));
    }
    Ok(value)
}

fn is_marker(rest: &str, marker: &str) -> bool {
    rest == marker || (rest.starts_with(marker) && rest[marker.len()..].starts_with([' ', '\t']))
}

fn located(text: &str, offset: usize, message: &str) -> Error {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = offset
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    Error::new(offset as u64, format!("{message} at line {line}:{col}"))
}

#[derive(Clone, Copy)]
struct Line {
    start: usize,
    indent: usize,
    end: usize,
}

struct Parser<'t> {
    text: &'t str,
    lines: Vec<Line>,
    cur: usize,
}

impl<'t> Parser<'t> {
    fn err(&self, offset: usize, message: &str) -> Error {
        located(self.text, offset, message)
    }

    /// The text of line `i` from column `col`.
    fn rest(&self, i: usize, col: usize) -> &'t str {
        let line = self.lines[i];
        let from = (line.start + col).min(line.end);
        &self.text[from..line.end]
    }

    /// A block node whose first token is at column `col` of line `line` (which is
    /// the current line).
    fn node(&mut self, line: usize, col: usize, depth: usize) -> Result<Value<'static>> {
        if depth > MAX_DEPTH {
            return Err(self.err(self.lines[line].start + col, "nesting too deep"));
        }
        let rest = self.rest(line, col);
        if rest == "-" || rest.starts_with("- ") {
            self.sequence(col, depth)
        } else if find_key_colon(rest).is_some() {
            self.mapping(col, depth)
        } else {
            let offset = self.lines[line].start + col;
            let v = self.inline_value(rest, offset, depth)?;
            self.cur = line + 1;
            Ok(v)
        }
    }

    fn sequence(&mut self, indent: usize, depth: usize) -> Result<Value<'static>> {
        let mut items = Vec::new();
        let mut col = indent;
        loop {
            let line = self.cur;
            let rest = self.rest(line, col);
            // after "-": spaces then the item, or nothing (item on the next lines)
            let after = &rest[1..];
            let skip = after.len() - after.trim_start_matches(' ').len();
            let item_col = col + 1 + skip;
            if after.trim_start_matches(' ').is_empty()
                || after.trim_start_matches(' ').starts_with('#')
            {
                self.cur = line + 1;
                items.push(self.nested_value(indent, false, depth)?);
            } else {
                items.push(self.node(line, item_col, depth + 1)?);
            }
            match self.lines.get(self.cur) {
                Some(next) if next.indent == indent => {
                    let r = self.rest(self.cur, indent);
                    if r == "-" || r.starts_with("- ") {
                        col = indent;
                        continue;
                    }
                    break;
                }
                Some(next) if next.indent > indent => {
                    return Err(self.err(next.start + next.indent, "bad indentation"));
                }
                _ => break,
            }
        }
        Ok(Value::Array(items))
    }

    /// The value of a key or sequence item that ended its line: a more indented
    /// node, a sequence at the same indentation (for a key), or nil.
    fn nested_value(&mut self, indent: usize, key: bool, depth: usize) -> Result<Value<'static>> {
        match self.lines.get(self.cur).copied() {
            Some(next) if next.indent > indent => self.node(self.cur, next.indent, depth + 1),
            Some(next) if key && next.indent == indent => {
                let r = self.rest(self.cur, indent);
                if r == "-" || r.starts_with("- ") {
                    self.sequence(indent, depth + 1)
                } else {
                    Ok(Value::Nil)
                }
            }
            _ => Ok(Value::Nil),
        }
    }

    fn mapping(&mut self, indent: usize, depth: usize) -> Result<Value<'static>> {
        let mut pairs = Vec::new();
        let mut col = indent;
        loop {
            let line = self.cur;
            let rest = self.rest(line, col);
            let offset = self.lines[line].start + col;
            let Some(colon) = find_key_colon(rest) else {
                return Err(self.err(offset, "expected `key: value`"));
            };
            let key = key_scalar(rest[..colon].trim_end(), offset, self.text)?;
            let value_text = rest[colon + 1..].trim_start_matches(' ');
            let value_offset = offset + (rest.len() - value_text.len());
            if value_text.is_empty() || value_text.starts_with('#') {
                self.cur = line + 1;
                let value = self.nested_value(indent, true, depth)?;
                pairs.push((key, value));
            } else {
                let value = self.inline_value(value_text, value_offset, depth)?;
                self.cur = line + 1;
                pairs.push((key, value));
            }
            match self.lines.get(self.cur) {
                Some(next) if next.indent == indent => {
                    let r = self.rest(self.cur, indent);
                    if r == "-" || r.starts_with("- ") {
                        break;
                    }
                    col = indent;
                }
                Some(next) if next.indent > indent => {
                    return Err(self.err(next.start + next.indent, "bad indentation"));
                }
                _ => break,
            }
        }
        Ok(Value::Map(pairs))
    }

    /// A scalar or flow collection filling the rest of a line.
    fn inline_value(&self, text: &str, offset: usize, depth: usize) -> Result<Value<'static>> {
        let mut flow = Flow {
            text,
            pos: 0,
            base: offset,
            all: self.text,
        };
        let v = flow.value(false, depth)?;
        flow.skip_spaces();
        if flow.pos < text.len() && !text[flow.pos..].starts_with('#') {
            return Err(self.err(offset + flow.pos, "unexpected text after value"));
        }
        Ok(v)
    }
}

/// The byte index of the `:` that ends a mapping key in `s` (a `:` followed by a
/// space or the end of the line, outside quotes and flow brackets), if any.
fn find_key_colon(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    // a quoted key
    if let Some(&q) = b.first() {
        if q == b'\'' || q == b'"' {
            i = 1;
            while i < b.len() {
                if b[i] == b'\\' && q == b'"' {
                    i += 2;
                    continue;
                }
                if b[i] == q {
                    if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += 1;
            }
            i += 1;
            let after = s.get(i..)?.trim_start_matches(' ');
            return if after == ":" || after.starts_with(": ") {
                Some(s.len() - after.len())
            } else {
                None
            };
        }
        if q == b'[' || q == b'{' || q == b'#' {
            return None;
        }
        if q == b'!' {
            // a tagged value, e.g. `!str 'x'`: never a key in our subset
            return None;
        }
    }
    while i < b.len() {
        match b[i] {
            b':' if i + 1 == b.len() || b[i + 1] == b' ' => return Some(i),
            b'#' if i > 0 && b[i - 1] == b' ' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

fn key_scalar(text: &str, offset: usize, all: &str) -> Result<Value<'static>> {
    let mut flow = Flow {
        text,
        pos: 0,
        base: offset,
        all,
    };
    match text.as_bytes().first() {
        Some(b'\'') | Some(b'"') => {
            let s = flow.quoted()?;
            Ok(Value::string(s))
        }
        Some(b'?') | Some(b'&') | Some(b'*') => Err(located(all, offset, "unsupported key")),
        _ => Ok(Value::string(text)),
    }
}

struct Flow<'s> {
    text: &'s str,
    pos: usize,
    base: usize,
    all: &'s str,
}

impl<'s> Flow<'s> {
    fn err(&self, message: &str) -> Error {
        located(self.all, self.base + self.pos, message)
    }

    fn skip_spaces(&mut self) {
        while self.text[self.pos..].starts_with([' ', '\t']) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn value(&mut self, in_flow: bool, depth: usize) -> Result<Value<'static>> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        self.skip_spaces();
        let mut tag = None;
        if self.peek() == Some(b'!') {
            let start = self.pos;
            while self.peek().is_some_and(|c| c != b' ') {
                self.pos += 1;
            }
            tag = Some(&self.text[start..self.pos]);
            self.skip_spaces();
        }
        let value = match self.peek() {
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_spaces();
                    match self.peek() {
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        None => return Err(self.err("unterminated flow sequence")),
                        _ => {}
                    }
                    items.push(self.value(true, depth + 1)?);
                    self.skip_spaces();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {}
                        _ => return Err(self.err("expected `,` or `]` in flow sequence")),
                    }
                }
                Value::Array(items)
            }
            Some(b'{') => {
                self.pos += 1;
                let mut pairs = Vec::new();
                loop {
                    self.skip_spaces();
                    match self.peek() {
                        Some(b'}') => {
                            self.pos += 1;
                            break;
                        }
                        None => return Err(self.err("unterminated flow map")),
                        _ => {}
                    }
                    let key = match self.value(true, depth + 1)? {
                        Value::Str(s) => Value::Str(s),
                        other => Value::string(scalar_text(&other)),
                    };
                    self.skip_spaces();
                    if self.peek() != Some(b':') {
                        return Err(self.err("expected `:` in flow map"));
                    }
                    self.pos += 1;
                    let value = self.value(true, depth + 1)?;
                    pairs.push((key, value));
                    self.skip_spaces();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {}
                        _ => return Err(self.err("expected `,` or `}` in flow map")),
                    }
                }
                Value::Map(pairs)
            }
            Some(b'\'') | Some(b'"') => Value::string(self.quoted()?),
            Some(b'|') | Some(b'>') if !in_flow => {
                return Err(self.err("block scalars are not supported"))
            }
            Some(b'&') | Some(b'*') => {
                return Err(self.err("anchors and aliases are not supported"))
            }
            _ => {
                let start = self.pos;
                let b = self.text.as_bytes();
                while self.pos < b.len() {
                    let c = b[self.pos];
                    if c == b'#' && self.pos > start && b[self.pos - 1] == b' ' {
                        break;
                    }
                    if in_flow && (c == b',' || c == b']' || c == b'}') {
                        break;
                    }
                    if in_flow && c == b':' && matches!(b.get(self.pos + 1), None | Some(b' ')) {
                        break;
                    }
                    self.pos += 1;
                }
                let plain = self.text[start..self.pos].trim_end_matches([' ', '\t']);
                if tag.is_some_and(is_str_tag) {
                    Value::string(plain)
                } else {
                    resolve_plain(plain)
                }
            }
        };
        Ok(match (tag, value) {
            (Some(t), _) if t == "!nil" || t == "!!null" => Value::Nil,
            (Some(t), v) if is_str_tag(t) => match v {
                Value::Str(s) => Value::Str(s),
                other => Value::string(scalar_text(&other)),
            },
            (_, v) => v,
        })
    }

    fn quoted(&mut self) -> Result<String> {
        let quote = self.text.as_bytes()[self.pos];
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.text[self.pos..].chars().next() else {
                return Err(
                    self.err("unterminated quoted scalar (multi-line scalars are not supported)")
                );
            };
            self.pos += c.len_utf8();
            match c {
                '\'' if quote == b'\'' => {
                    if self.peek() == Some(b'\'') {
                        self.pos += 1;
                        out.push('\'');
                    } else {
                        return Ok(out);
                    }
                }
                '"' if quote == b'"' => return Ok(out),
                '\\' if quote == b'"' => {
                    let Some(e) = self.text[self.pos..].chars().next() else {
                        return Err(self.err("unterminated escape"));
                    };
                    self.pos += e.len_utf8();
                    let simple = match e {
                        '0' => Some('\0'),
                        'a' => Some('\x07'),
                        'b' => Some('\x08'),
                        't' | '\t' => Some('\t'),
                        'n' => Some('\n'),
                        'v' => Some('\x0b'),
                        'f' => Some('\x0c'),
                        'r' => Some('\r'),
                        'e' => Some('\x1b'),
                        ' ' => Some(' '),
                        '"' => Some('"'),
                        '/' => Some('/'),
                        '\\' => Some('\\'),
                        'N' => Some('\u{85}'),
                        '_' => Some('\u{a0}'),
                        'L' => Some('\u{2028}'),
                        'P' => Some('\u{2029}'),
                        _ => None,
                    };
                    if let Some(s) = simple {
                        out.push(s);
                        continue;
                    }
                    let digits = match e {
                        'x' => 2,
                        'u' => 4,
                        'U' => 8,
                        _ => return Err(self.err("unknown escape in double-quoted scalar")),
                    };
                    let hex = self.text.get(self.pos..self.pos + digits).unwrap_or("");
                    let code = u32::from_str_radix(hex, 16)
                        .ok()
                        .filter(|_| {
                            hex.len() == digits && hex.bytes().all(|b| b.is_ascii_hexdigit())
                        })
                        .and_then(char::from_u32);
                    match code {
                        Some(ch) => {
                            self.pos += digits;
                            out.push(ch);
                        }
                        None => return Err(self.err("bad escape in double-quoted scalar")),
                    }
                }
                c => out.push(c),
            }
        }
    }
}

fn is_str_tag(t: &str) -> bool {
    t == "!str" || t == "!!str" || t == "!<tag:yaml.org,2002:str>"
}

/// The text of a resolved plain scalar (for a flow key or a `!str`-tagged value).
fn scalar_text(v: &Value<'_>) -> String {
    match v {
        Value::Nil => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float32(f) => f.to_string(),
        Value::Float64(f) => f.to_string(),
        Value::Str(s) => String::from_utf8_lossy(s).into_owned(),
        _ => String::new(),
    }
}

/// Resolve a plain scalar with the YAML 1.2 core schema.
pub fn resolve_plain(s: &str) -> Value<'static> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Nil,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let (neg, digits) = match s.as_bytes()[0] {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(u) = digits.parse::<u64>() {
            if !neg {
                return Value::UInt(u);
            }
            if u <= 1u64 << 63 {
                return Value::Int((u as i64).wrapping_neg());
            }
        }
    }
    if let Some(hex) = s.strip_prefix("0x") {
        if let Ok(u) = u64::from_str_radix(hex, 16) {
            if hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Value::UInt(u);
            }
        }
    }
    if let Some(oct) = s.strip_prefix("0o") {
        if let Ok(u) = u64::from_str_radix(oct, 8) {
            if oct.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                return Value::UInt(u);
            }
        }
    }
    if is_core_float(s) {
        if let Ok(f) = s.parse::<f64>() {
            return Value::Float64(f);
        }
    }
    match s {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Value::Float64(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Value::Float64(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => Value::Float64(f64::NAN),
        _ => Value::string(s),
    }
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
pub(crate) fn is_core_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-') | Some(b'+')) {
        i = 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if int_digits == 0 && i == frac_start {
            return false;
        }
    } else if int_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value<'static> {
        Value::string(x)
    }

    #[test]
    fn block_and_flow() {
        let v = parse(
            "---\nVersion:         [ 1, 0 ]\nKernels:\n  - Name:            test\n    Args:\n      - Size: 8\n        IsConst: true\n    Empty:\n  - - 1\n    - 'a''b'\n...\nignored: 1\n",
        )
        .unwrap();
        let kernels = v.get("Kernels").unwrap().as_array().unwrap();
        assert_eq!(kernels.len(), 2);
        assert_eq!(kernels[0].get("Name"), Some(&s("test")));
        assert_eq!(kernels[0].get("Empty"), Some(&Value::Nil));
        let args = kernels[0].get("Args").unwrap().as_array().unwrap();
        assert_eq!(args[0].get("Size"), Some(&Value::UInt(8)));
        assert_eq!(args[0].get("IsConst"), Some(&Value::Bool(true)));
        assert_eq!(kernels[1], Value::Array(vec![Value::UInt(1), s("a'b")]));
        assert!(v.get("ignored").is_none());
    }

    #[test]
    fn sequence_at_key_indentation_and_comments() {
        let v = parse("a:\n- 1 # one\n- \"x\\ty\"\nb: -2 # c\n").unwrap();
        assert_eq!(
            v,
            Value::Map(vec![
                (s("a"), Value::Array(vec![Value::UInt(1), s("x\ty")])),
                (s("b"), Value::Int(-2)),
            ])
        );
    }

    #[test]
    fn tags() {
        let v = parse("- !str '123'\n- !str 0b11\n- !nil ''\n- 0x10\n- 1.5\n").unwrap();
        assert_eq!(
            v,
            Value::Array(vec![
                s("123"),
                s("0b11"),
                Value::Nil,
                Value::UInt(16),
                Value::Float64(1.5)
            ])
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("a: 1\n  b: 2\n").unwrap_err();
        assert!(e.message.contains("line 2:3"), "{e}");
        assert_eq!(e.offset, 7);
        assert!(parse("a: 'x\n").is_err());
        assert!(parse("a: |\n  x\n").is_err());
        assert!(parse("a: [1, 2\n").is_err());
    }
}
