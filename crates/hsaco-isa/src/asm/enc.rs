//! The instruction encoder: statement -> candidate words from the description, each
//! verified by decoding it back (see DESIGN.md, "The encoder").

use super::lex::{self, Statement};
use super::{AsmError, Encoded, ExprValue, Fixup, FixupKind, RelocVariant, SymbolLookup};
use crate::desc::{flags, EncodingDesc, FieldKind, Form, OpDesc, Role, Ty};
use crate::{Decoder, Field, Instruction};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Mutex, OnceLock};

/// Mnemonic -> operation indices of one generation.
type Index = HashMap<&'static str, Vec<u16>>;

fn index(dec: &Decoder) -> &'static Index {
    static ALL: OnceLock<Vec<Index>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        crate::generations()
            .iter()
            .map(|isa| {
                let mut m: Index = HashMap::new();
                for (i, op) in isa.ops.iter().enumerate() {
                    m.entry(op.mnemonic).or_default().push(i as u16);
                }
                m
            })
            .collect()
    });
    let g = crate::generations()
        .iter()
        .position(|isa| std::ptr::eq(*isa, dec.isa()))
        .unwrap_or(0);
    &all[g]
}

/// Solved special immediates: (processor, mnemonic, encoding, operand text) -> value.
type SolveCache = HashMap<(&'static str, u16, u8, String), Option<u32>>;

fn solve_cache() -> &'static Mutex<SolveCache> {
    static C: OnceLock<Mutex<SolveCache>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Register classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    S,
    V,
    A,
    Ttmp,
}

/// A parsed operand value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Reg {
        class: Class,
        first: u32,
        count: u32,
        /// true16 half: Some(hi)
        half: Option<bool>,
    },
    /// Named scalar register by its printed encoding value (before the gfx11 m0/null swap).
    Special {
        code: u32,
        count: u32,
    },
    Int(i64),
    Float(f64),
    /// `lit(...)`: a forced literal.
    Lit(i64, bool),
    /// `lit64(...)`: a forced 64-bit literal (gfx1250 operand code 254), even where
    /// the value also fits a 32-bit one.
    Lit64(i64),
    Off,
    /// `attrN.c` of an interpolation (attribute, channel).
    Attr(u32, u32),
    /// Text the parser does not know: an expression, a symbolic immediate.
    Other,
}

/// Source modifiers of an operand.
#[derive(Clone, Copy, Debug, Default)]
struct Mods {
    neg: bool,
    abs: bool,
    sext: bool,
}

fn parse_int(s: &str) -> Option<i64> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        i64::from_str_radix(h, 16)
            .ok()
            .or_else(|| u64::from_str_radix(h, 16).ok().map(|v| v as i64))?
    } else if let Some(b) = s.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()?
    } else if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) {
        s.parse::<i64>()
            .ok()
            .or_else(|| s.parse::<u64>().ok().map(|v| v as i64))?
    } else {
        return None;
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

fn parse_float(s: &str) -> Option<f64> {
    if !s.contains('.') && !s.contains('e') {
        return None;
    }
    if !s
        .bytes()
        .all(|c| c.is_ascii_digit() || b".-+eE".contains(&c))
    {
        return None;
    }
    s.parse::<f64>().ok()
}

fn special_code(name: &str) -> Option<(u32, u32)> {
    Some(match name {
        "flat_scratch" => (102, 2),
        "flat_scratch_lo" => (102, 1),
        "flat_scratch_hi" => (103, 1),
        "xnack_mask" => (104, 2),
        "xnack_mask_lo" => (104, 1),
        "xnack_mask_hi" => (105, 1),
        "tba" => (108, 2),
        "tba_lo" => (108, 1),
        "tba_hi" => (109, 1),
        "tma" => (110, 2),
        "tma_lo" => (110, 1),
        "tma_hi" => (111, 1),
        "vcc" => (106, 2),
        "vcc_lo" => (106, 1),
        "vcc_hi" => (107, 1),
        "m0" => (124, 1),
        "null" => (125, 1),
        "exec" => (126, 2),
        "exec_lo" => (126, 1),
        "exec_hi" => (127, 1),
        "src_flat_scratch_base_lo" => (230, 1),
        "src_flat_scratch_base_hi" => (231, 1),
        "src_shared_base" | "shared_base" => (235, 1),
        "src_shared_limit" | "shared_limit" => (236, 1),
        "src_private_base" | "private_base" => (237, 1),
        "src_private_limit" | "private_limit" => (238, 1),
        "src_pops_exiting_wave_id" | "pops_exiting_wave_id" => (239, 1),
        "src_vccz" | "vccz" => (251, 1),
        "src_execz" | "execz" => (252, 1),
        "src_scc" | "scc" => (253, 1),
        "src_lds_direct" | "lds_direct" => (254, 1),
        _ => return None,
    })
}

fn parse_reg(s: &str) -> Option<Val> {
    let (class, rest) = if let Some(r) = s.strip_prefix("ttmp") {
        (Class::Ttmp, r)
    } else if let Some(r) = s.strip_prefix("acc") {
        (Class::A, r)
    } else if let Some(r) = s.strip_prefix('s') {
        (Class::S, r)
    } else if let Some(r) = s.strip_prefix('v') {
        (Class::V, r)
    } else if let Some(r) = s.strip_prefix('a') {
        (Class::A, r)
    } else {
        return None;
    };
    let (rest, half) = if let Some(r) = rest.strip_suffix(".l") {
        (r, Some(false))
    } else if let Some(r) = rest.strip_suffix(".h") {
        (r, Some(true))
    } else {
        (rest, None)
    };
    if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = match inner.split_once(':') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (inner.trim(), inner.trim()),
        };
        let a: u32 = a.parse().ok()?;
        let b: u32 = b.parse().ok()?;
        if b < a {
            return None;
        }
        return Some(Val::Reg {
            class,
            first: a,
            count: b - a + 1,
            half,
        });
    }
    if rest.is_empty() || !rest.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(Val::Reg {
        class,
        first: rest.parse().ok()?,
        count: 1,
        half,
    })
}

/// Parse an operand: modifiers and value.
fn parse_operand(s: &str) -> (Mods, Val) {
    let mut m = Mods::default();
    let mut s = s.trim();
    loop {
        if let Some(r) = s.strip_prefix("neg(").and_then(|r| r.strip_suffix(')')) {
            m.neg = true;
            s = r.trim();
        } else if let Some(r) = s.strip_prefix("abs(").and_then(|r| r.strip_suffix(')')) {
            m.abs = true;
            s = r.trim();
        } else if let Some(r) = s.strip_prefix("sext(").and_then(|r| r.strip_suffix(')')) {
            m.sext = true;
            s = r.trim();
        } else if let Some(r) = s.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
            m.abs = true;
            s = r.trim();
        } else if s.starts_with('-')
            && s.len() > 1
            && !s[1..]
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit())
        {
            m.neg = true;
            s = s[1..].trim();
        } else {
            break;
        }
    }
    if let Some(r) = s.strip_prefix("lit64(").and_then(|r| r.strip_suffix(')')) {
        return match parse_int(r.trim()) {
            Some(v) => (m, Val::Lit64(v)),
            None => (m, Val::Other),
        };
    }
    if let Some(r) = s.strip_prefix("lit(").and_then(|r| r.strip_suffix(')')) {
        let r = r.trim();
        if let Some(v) = parse_int(r) {
            return (m, Val::Lit(v, false));
        }
        if let Some(f) = parse_float(r) {
            return (m, Val::Lit(f.to_bits() as i64, true));
        }
        return (m, Val::Other);
    }
    if let Some(r) = s.strip_prefix("attr") {
        if let Some((n, c)) = r.split_once('.') {
            let ch = ["x", "y", "z", "w"].iter().position(|x| *x == c);
            if let (Ok(n), Some(ch)) = (n.parse::<u32>(), ch) {
                return (m, Val::Attr(n, ch as u32));
            }
        }
    }
    if s == "off" {
        return (m, Val::Off);
    }
    if let Some(v) = parse_int(s) {
        return (m, Val::Int(v));
    }
    if let Some(f) = parse_float(s) {
        return (m, Val::Float(f));
    }
    if let Some((code, count)) = special_code(s) {
        return (m, Val::Special { code, count });
    }
    if let Some(r) = parse_reg(s) {
        return (m, r);
    }
    (m, Val::Other)
}

/// f64 -> IEEE half bits (round to nearest even).
fn f16_bits(v: f64) -> Option<u32> {
    let f = v as f32;
    let b = f.to_bits();
    let sign = (b >> 16) & 0x8000;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return Some(sign | 0x7c00 | if man != 0 { 0x200 } else { 0 });
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return None;
    }
    if e <= 0 {
        if e < -10 {
            return Some(sign);
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let r = if rem > mid || (rem == mid && half & 1 != 0) {
            half + 1
        } else {
            half
        };
        return Some(sign | r);
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    let r = if rem > 0x1000 || (rem == 0x1000 && half & 1 != 0) {
        half + 1
    } else {
        half
    };
    Some(sign | r)
}

/// The inline constant code of a float value (240-248), if it is one.
fn inline_float(v: f64, gfx8plus: bool) -> Option<u32> {
    Some(match v {
        0.5 => 240,
        -0.5 => 241,
        1.0 => 242,
        -1.0 => 243,
        2.0 => 244,
        -2.0 => 245,
        4.0 => 246,
        -4.0 => 247,
        x if gfx8plus && (x - 0.15915494309189532).abs() < 1e-7 => 248,
        _ => return None,
    })
}

/// One field assignment of a candidate.
#[derive(Clone, Copy, Debug)]
struct Set {
    field: Field,
    value: u32,
    /// OR into the field (bit lists) instead of replacing it.
    or: bool,
}

/// One way to encode an operand or modifier: field assignments, a literal.
#[derive(Clone, Debug, Default)]
struct Choice {
    sets: Vec<Set>,
    literal: Option<u64>,
    /// The literal is 64 bits wide (gfx1250 operand code 254).
    wide: bool,
    /// Bits ORed into the third word (gfx12 image address VGPRs 1-3).
    w2: u32,
    /// Field whose value is solved by search (special immediates).
    solve: Option<Field>,
}

impl Choice {
    fn set(field: Field, value: u32) -> Choice {
        Choice {
            sets: vec![Set {
                field,
                value,
                or: false,
            }],
            ..Choice::default()
        }
    }
}

/// A symbolic operand left for the caller.
struct Symbolic {
    span: Range<usize>,
    symbol: String,
    addend: i64,
    variant: RelocVariant,
    /// Operand index (in printing order).
    slot: usize,
}

struct Cand<'a> {
    op_index: u16,
    op: &'static OpDesc,
    ei: usize,
    enc: &'static EncodingDesc,
    key: u16,
    /// Parsed operands (after the returned vdst of an atomic, if any).
    ops: &'a [(Range<usize>, Mods, Val)],
    /// gfx11+ VOP3/VOP3P with a DPP word (`_e64_dpp`).
    dpp: bool,
    /// The text has `/* Invalid dpp_ctrl value */`: the control is searched.
    invalid_dpp: bool,
    /// The canonical operand text with only symbolic operands as wildcards: an
    /// encoding that prints exactly so is preferred to one that matches with its
    /// numbers as wildcards (the printer's spelling names one encoding).
    exact: &'a str,
}

/// Error with the furthest progress wins.
struct Best {
    err: Option<(u32, AsmError)>,
}

impl Best {
    fn note(&mut self, rank: u32, e: AsmError) {
        if self.err.as_ref().is_none_or(|(r, _)| rank > *r) {
            self.err = Some((rank, e));
        }
    }
}

fn err(span: Range<usize>, message: impl Into<String>) -> AsmError {
    AsmError {
        span,
        message: message.into(),
    }
}

const SUFFIXES: [(&str, u8); 5] = [
    ("_e64_dpp", 4),
    ("_e32", 1),
    ("_e64", 2),
    ("_sdwa", 3),
    ("_dpp", 5),
];

/// Preference of an encoding form when the text names none (llvm-mc: e32 when the
/// operands allow it, then e64, then SDWA/DPP when their modifiers are given).
fn form_rank(form: Form) -> u8 {
    match form {
        Form::Vop1 | Form::Vop2 | Form::Vopc => 0,
        Form::Vop3 | Form::Vop3p => 1,
        Form::Sdwa => 2,
        Form::Dpp => 3,
        _ => 0,
    }
}

fn suffix_allows(suffix: u8, enc: &EncodingDesc) -> bool {
    match suffix {
        0 => true,
        1 => matches!(enc.form, Form::Vop1 | Form::Vop2 | Form::Vopc),
        2 => matches!(enc.form, Form::Vop3 | Form::Vop3p | Form::Mai),
        3 => enc.form == Form::Sdwa,
        5 => enc.form == Form::Dpp,
        _ => false,
    }
}

/// Canonical text for comparison: lower case, no blanks beside punctuation, integers in
/// decimal; `\u{1}` (a symbolic operand) kept.
fn canon(s: &str, out: &mut String) {
    out.clear();
    let b = s.as_bytes();
    let mut i = 0;
    let mut pending_space = false;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            pending_space = true;
            i += 1;
            continue;
        }
        if word(c) {
            let start = i;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            if pending_space && out.as_bytes().last().is_some_and(|&l| !b",[(".contains(&l)) {
                out.push(' ');
            }
            pending_space = false;
            let t = &s[start..i];
            if t.as_bytes()[0].is_ascii_digit() {
                if let Some(v) = parse_int(t) {
                    if v < 0 {
                        out.push('-');
                    }
                    crate::imm::dec64(out, v.unsigned_abs());
                    continue;
                }
            }
            for ch in t.chars() {
                out.push(ch.to_ascii_lowercase());
            }
            continue;
        }
        if pending_space
            && !b",])".contains(&c)
            && out.as_bytes().last().is_some_and(|&l| !b",[(".contains(&l))
        {
            out.push(' ');
        }
        pending_space = false;
        out.push(c as char);
        i += 1;
    }
}

/// Whether `got` (canonical printed text) matches `want` (canonical input, `\u{1}` a
/// wildcard up to the next `,` or blank).
fn matches(want: &str, got: &str) -> bool {
    let mut budget = 4096;
    matches_from(want.as_bytes(), got.as_bytes(), &mut budget)
}

fn matches_from(w: &[u8], g: &[u8], budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let (mut i, mut j) = (0, 0);
    while i < w.len() {
        if w[i] == 1 {
            // a wildcard: some non-empty text without a comma, up to a point where
            // the rest matches
            let rest = &w[i + 1..];
            let end = g[j..]
                .iter()
                .position(|&c| c == b',')
                .map_or(g.len(), |p| j + p);
            return (j + 1..=end).any(|k| matches_from(rest, &g[k..], budget));
        }
        if w[i] == b'-' && w.get(i + 1).is_some_and(|c| c.is_ascii_digit()) && j < g.len() {
            // a negative number printed unsigned (16- or 32-bit immediates)
            let num = |b: &[u8], k: usize| {
                let e = (k..b.len())
                    .find(|&x| !b[x].is_ascii_digit())
                    .unwrap_or(b.len());
                (
                    std::str::from_utf8(&b[k..e])
                        .ok()
                        .and_then(|t| t.parse::<i64>().ok()),
                    e,
                )
            };
            let (wn, we) = num(w, i + 1);
            let (gn, ge) = if g[j] == b'-' {
                num(g, j + 1)
            } else {
                num(g, j)
            };
            if let (Some(wn), Some(gn)) = (wn, gn) {
                let gv = if g[j] == b'-' { -gn } else { gn };
                if gv == -wn || gv == (1 << 16) - wn || gv == (1i64 << 32) - wn {
                    i = we;
                    j = ge;
                    continue;
                }
            }
        }
        // an SMEM offset of 0 with a null offset register prints as `null`
        if w[i] == b'0'
            && g[j..].starts_with(b"null")
            && w.get(i + 1).is_none_or(|c| *c == b',' || *c == b' ')
        {
            i += 1;
            j += 4;
            continue;
        }
        if j >= g.len() || w[i] != g[j] {
            return false;
        }
        i += 1;
        j += 1;
    }
    j == g.len()
}

thread_local! {
    static BUFS: std::cell::RefCell<(String, String)> = const { std::cell::RefCell::new((String::new(), String::new())) };
}

/// A fast hash of a statement text: FNV-1a-like over 8-byte words, the tail as one
/// zero-padded word, then the length (the keys are statement texts; a chain of
/// colliding ones is cut short by [`PROBES`], so crafted input costs no more than
/// uncached encoding).
fn fast_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h ^ w).wrapping_mul(0x0100_0000_01b3).rotate_left(23);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(w))
            .wrapping_mul(0x0100_0000_01b3)
            .rotate_left(23);
    }
    h ^= bytes.len() as u64;
    h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^ (h >> 32)
}

/// Slots a look-up or an insertion of the statement cache probes at most.
const PROBES: usize = 32;

/// Entries of one statement table before it is emptied.
const MAX_STATEMENTS: usize = 1 << 20;

/// One cached statement: its hash, where its text (then its instruction bytes) starts
/// in the arena, and what it gave.
#[derive(Clone, Copy, Default)]
struct Slot {
    hash: u64,
    at: u32,
    key_len: u16,
    /// 0: empty; 1: the bytes after the text, no warning; 2: `others[n]`, `n` the
    /// four bytes after the text.
    kind: u8,
    bytes: u8,
}

/// The statements of one (processor, wave mode): an open-addressing table over an
/// arena of texts and bytes (one allocation for all, so a hit reads one place).
#[derive(Default)]
struct StatementTable {
    slots: Vec<Slot>,
    arena: Vec<u8>,
    others: Vec<Result<(Vec<u8>, Encoded), AsmError>>,
    len: usize,
}

impl StatementTable {
    fn find(&self, text: &str, h: u64) -> Option<&Slot> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        for _ in 0..PROBES {
            let s = &self.slots[i];
            if s.kind == 0 {
                return None;
            }
            if s.hash == h && usize::from(s.key_len) == text.len() {
                let at = s.at as usize;
                if &self.arena[at..at + text.len()] == text.as_bytes() {
                    return Some(s);
                }
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// The result of a slot [`find`](Self::find) gave, the bytes appended to `out`.
    fn result(&self, s: &Slot, out: &mut Vec<u8>) -> Result<Encoded, AsmError> {
        let at = s.at as usize + usize::from(s.key_len);
        if s.kind == 1 {
            out.extend_from_slice(&self.arena[at..at + usize::from(s.bytes)]);
            return Ok(Encoded {
                size: s.bytes,
                fixup: None,
                warning: None,
            });
        }
        let mut n = [0u8; 4];
        n.copy_from_slice(&self.arena[at..at + 4]);
        match &self.others[u32::from_le_bytes(n) as usize] {
            Ok((bytes, e)) => {
                out.extend_from_slice(bytes);
                Ok(e.clone())
            }
            Err(e) => Err(e.clone()),
        }
    }

    fn insert(&mut self, text: &str, h: u64, r: Result<(&[u8], &Encoded), &AsmError>) {
        if text.len() > usize::from(u16::MAX) {
            return;
        }
        if self.len >= MAX_STATEMENTS {
            *self = StatementTable::default();
        }
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        let mut free = None;
        for _ in 0..PROBES {
            if self.slots[i].kind == 0 {
                free = Some(i);
                break;
            }
            i = (i + 1) & mask;
        }
        // (a long chain of colliding texts: left uncached)
        let Some(i) = free else { return };
        let at = self.arena.len();
        let Ok(at32) = u32::try_from(at) else { return };
        self.arena.extend_from_slice(text.as_bytes());
        let plain = match r {
            Ok((bytes, e))
                if e.warning.is_none()
                    && e.fixup.is_none()
                    && usize::from(e.size) == bytes.len() =>
            {
                Some(e.size)
            }
            _ => None,
        };
        let (kind, nbytes) = match plain {
            Some(n) => {
                if let Ok((bytes, _)) = r {
                    self.arena.extend_from_slice(bytes);
                }
                (1, n)
            }
            None => {
                let n = self.others.len() as u32;
                self.arena.extend_from_slice(&n.to_le_bytes());
                self.others.push(match r {
                    Ok((bytes, e)) => Ok((bytes.to_vec(), e.clone())),
                    Err(e) => Err(e.clone()),
                });
                (2, 0)
            }
        };
        self.slots[i] = Slot {
            hash: h,
            at: at32,
            key_len: text.len() as u16,
            kind,
            bytes: nbytes,
        };
        self.len += 1;
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1024);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let mask = size - 1;
        for s in old.into_iter().filter(|s| s.kind != 0) {
            let mut i = s.hash as usize & mask;
            while self.slots[i].kind != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

/// Cached results of statements without expressions, per (processor, wave64).
#[derive(Default)]
struct StatementCache {
    tables: Vec<((&'static str, bool), StatementTable)>,
}

impl StatementCache {
    fn table(&mut self, key: (&'static str, bool)) -> &mut StatementTable {
        let i = match self.tables.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.tables.push((key, StatementTable::default()));
                self.tables.len() - 1
            }
        };
        &mut self.tables[i].1
    }
}

thread_local! {
    static STATEMENTS: std::cell::RefCell<StatementCache> =
        const { std::cell::RefCell::new(StatementCache { tables: Vec::new() }) };
}

/// Counts the expressions a statement asks about (a statement with none is cached).
struct Counting<'a> {
    inner: &'a mut dyn SymbolLookup,
    asked: bool,
}

impl SymbolLookup for Counting<'_> {
    fn expr(&mut self, text: &str) -> Result<ExprValue, String> {
        self.asked = true;
        self.inner.expr(text)
    }
}

/// [`encode`] through the per-thread statement cache.
pub(crate) fn encode_cached(
    dec: &Decoder,
    text: &str,
    pc: u64,
    syms: &mut dyn SymbolLookup,
    out: &mut Vec<u8>,
) -> Result<Encoded, AsmError> {
    let key = (dec.processor(), dec.is_wave64());
    let h = fast_hash(text.as_bytes());
    let hit = STATEMENTS.with(|c| {
        let mut c = c.borrow_mut();
        let t = c.table(key);
        t.find(text, h).copied().map(|s| t.result(&s, out))
    });
    if let Some(r) = hit {
        return r;
    }
    let start = out.len();
    let mut counting = Counting {
        inner: syms,
        asked: false,
    };
    let r = encode(dec, text, pc, &mut counting, out);
    if !counting.asked {
        STATEMENTS.with(|c| {
            let mut c = c.borrow_mut();
            let stored = match &r {
                Ok(e) => Ok((&out[start..], e)),
                Err(e) => Err(e),
            };
            c.table(key).insert(text, h, stored);
        });
    }
    r
}

pub(crate) fn encode(
    dec: &Decoder,
    text: &str,
    pc: u64,
    syms: &mut dyn SymbolLookup,
    out: &mut Vec<u8>,
) -> Result<Encoded, AsmError> {
    let _ = pc;
    // `/* ... */` comments (the printer's register-class notes) are blanks to the
    // parser, but part of the text the encoding must print back
    let blanked;
    let clean = if text.contains("/*") {
        let mut b = text.as_bytes().to_vec();
        let mut i = 0;
        while let Some(p) = text[i..].find("/*") {
            let s0 = i + p;
            let e = text[s0..].find("*/").map_or(text.len(), |e| s0 + e + 2);
            for x in &mut b[s0..e] {
                *x = b' ';
            }
            i = e;
        }
        blanked = String::from_utf8(b).unwrap_or_default();
        blanked.as_str()
    } else {
        text
    };
    if let Some(p) = clean.find("::") {
        return encode_vopd(dec, clean, text, p, syms, out);
    }
    let st = lex::split(clean, 0..clean.len());
    // Blanks (same byte offsets) for what llvm-mc accepts but the printer never writes:
    // a comma before the modifiers (`s3, format:[..] offset:..`), and on gfx10+ the
    // default unified buffer format (1, BUF_FMT_8_UNORM) written out, which the printer
    // omits and the encoder writes anyway.
    let mut blank: Vec<Range<usize>> = Vec::new();
    if let (Some(last), Some(m0)) = (st.operands.last(), st.modifiers.first()) {
        if last.end < m0.start {
            if let Some(p) = clean[last.end..m0.start].find(',') {
                blank.push(last.end + p..last.end + p + 1);
            }
        }
    }
    if dec.isa().generation.len() == 5
        && clean[st.mnemonic.clone()]
            .get(..8)
            .is_some_and(|m| m.eq_ignore_ascii_case("tbuffer_"))
    {
        for r in &st.modifiers {
            let m = &clean[r.clone()];
            if m.eq_ignore_ascii_case("format:1")
                || m.eq_ignore_ascii_case("format:[BUF_FMT_8_UNORM]")
            {
                blank.push(r.clone());
            }
        }
    }
    if !blank.is_empty() {
        let blanked = |t: &str| {
            let mut b = t.as_bytes().to_vec();
            for r in &blank {
                for x in &mut b[r.clone()] {
                    *x = b' ';
                }
            }
            String::from_utf8(b).unwrap_or_default()
        };
        let (c2, o2) = (blanked(clean), blanked(text));
        let st = lex::split(&c2, 0..c2.len());
        return encode_statement(dec, &c2, &o2, &st, syms, out);
    }
    let res = encode_statement(dec, clean, text, &st, syms, out);
    if res.is_err() {
        // an operand alias (gfx12 `hwreg(HW_REG_MODE)` for `HW_REG_WAVE_MODE`): only
        // after the statement failed as written
        if let Some(t) = operand_alias(dec, text) {
            if let Ok(e) = encode(dec, &t, pc, syms, out) {
                return Ok(e);
            }
        }
    }
    res
}

/// `text` with its `hwreg(NAME` replaced by the canonical name of `defs/aliases.list`
/// (`<generation> hwreg:NAME hwreg:CANONICAL`), if it has one.
fn operand_alias(dec: &Decoder, text: &str) -> Option<String> {
    let p = text.find("hwreg(")? + 6;
    let e = p + text[p..].find([',', ')'])?;
    let name = text[p..e].trim();
    let key = format!("hwreg:{name}");
    let c = aliases().get(&(dec.isa().generation, key.as_str()))?;
    Some(format!(
        "{}{}{}",
        &text[..p],
        c.strip_prefix("hwreg:")?,
        &text[e..]
    ))
}

/// The operations a mnemonic names and the suffix it carries.
pub(crate) fn lookup(dec: &Decoder, m: &str) -> Option<(&'static [u16], u8)> {
    let idx = index(dec);
    let pb = dec.proc_bit();
    let here = |v: &Vec<u16>| {
        v.iter()
            .any(|&o| dec.isa().ops[usize::from(o)].procs & pb != 0)
    };
    if let Some(v) = idx.get(m).filter(|v| here(v)) {
        return Some((v, 0));
    }
    // old MFMA spellings (`v_mfma_f32_16x16x4f32` for `..._16x16x4_f32`)
    if let Some(p) = m.rfind(|c: char| c.is_ascii_digit()) {
        if m.starts_with("v_mfma") && p + 1 < m.len() && !m[p + 1..].starts_with('_') {
            let alt = format!("{}_{}", &m[..=p], &m[p + 1..]);
            if let Some(v) = idx.get(alt.as_str()).filter(|v| here(v)) {
                return Some((v, 0));
            }
        }
    }
    // and the reverse (`..._16x16x4_f32` where only `..._16x16x4f32` exists)
    if m.starts_with("v_mfma") {
        if let Some(p) = m.rfind('_') {
            if m[..p].ends_with(|c: char| c.is_ascii_digit()) {
                let alt = format!("{}{}", &m[..p], &m[p + 1..]);
                if let Some(v) = idx.get(alt.as_str()).filter(|v| here(v)) {
                    return Some((v, 0));
                }
            }
        }
    }
    for (suf, code) in SUFFIXES {
        if let Some(base) = m.strip_suffix(suf) {
            if let Some(v) = idx.get(base).filter(|v| here(v)) {
                return Some((v, code));
            }
        }
    }
    if let Some(found) = lookup_alias(dec, m) {
        return Some(found);
    }
    idx.get(m).map(|v| (v.as_slice(), 0))
}

/// The alias table (`defs/aliases.list`): (generation, alias) -> canonical mnemonic.
fn aliases() -> &'static HashMap<(&'static str, &'static str), &'static str> {
    static A: OnceLock<HashMap<(&'static str, &'static str), &'static str>> = OnceLock::new();
    A.get_or_init(|| {
        let mut m = HashMap::new();
        for line in include_str!("../../defs/aliases.list").lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let mut w = line.split_whitespace();
            if let (Some(g), Some(a), Some(c)) = (w.next(), w.next(), w.next()) {
                m.insert((g, a), c);
            }
        }
        m
    })
}

/// An alias spelling (`v_mad_u64_u32` on gfx12), with or without an encoding suffix:
/// the operations of its canonical mnemonic. Reached only when `m` is unknown.
fn lookup_alias(dec: &Decoder, m: &str) -> Option<(&'static [u16], u8)> {
    let table = aliases();
    let g = dec.isa().generation;
    if let Some(c) = table.get(&(g, m)) {
        return lookup_known(dec, c);
    }
    for (suf, _) in SUFFIXES {
        if let Some(base) = m.strip_suffix(suf) {
            if let Some(c) = table.get(&(g, base)) {
                return lookup_known(dec, &format!("{c}{suf}"));
            }
        }
    }
    None
}

/// [`lookup`] without the alias step (a canonical name is never itself an alias).
fn lookup_known(dec: &Decoder, m: &str) -> Option<(&'static [u16], u8)> {
    let idx = index(dec);
    let pb = dec.proc_bit();
    let here = |v: &Vec<u16>| {
        v.iter()
            .any(|&o| dec.isa().ops[usize::from(o)].procs & pb != 0)
    };
    if let Some(v) = idx.get(m).filter(|v| here(v)) {
        return Some((v, 0));
    }
    for (suf, code) in SUFFIXES {
        if let Some(base) = m.strip_suffix(suf) {
            if let Some(v) = idx.get(base).filter(|v| here(v)) {
                return Some((v, code));
            }
        }
    }
    None
}

fn encode_statement(
    dec: &Decoder,
    text: &str,
    orig: &str,
    st: &Statement,
    syms: &mut dyn SymbolLookup,
    out: &mut Vec<u8>,
) -> Result<Encoded, AsmError> {
    let mn_text = &text[st.mnemonic.clone()];
    let mnemonic = mn_text.to_ascii_lowercase();
    let Some((ops, suffix)) = lookup(dec, &mnemonic) else {
        return Err(err(
            st.mnemonic.clone(),
            format!("unknown instruction '{mn_text}' for {}", dec.processor()),
        ));
    };
    let isa = dec.isa();
    let pb = dec.proc_bit();
    // parse operands
    let mut parsed: Vec<(Range<usize>, Mods, Val)> = st
        .operands
        .iter()
        .map(|r| {
            let (m, v) = parse_operand(&text[r.clone()]);
            (r.clone(), m, v)
        })
        .collect();
    let mut modifiers = st.modifiers.clone();
    // candidate encodings
    let mut cands: Vec<(u8, u16, usize, u16, bool)> = Vec::new(); // (rank, op, enc, key, dpp)
    let has_dpp_mods = st.modifiers.iter().any(|r| {
        let n = text[r.clone()].split(':').next().unwrap_or("");
        DPP_MODIFIERS.contains(&n)
    });
    let has_sdwa_mods = text.contains("sext(")
        || st.modifiers.iter().any(|r| {
            let n = text[r.clone()].split(':').next().unwrap_or("");
            matches!(n, "dst_sel" | "dst_unused" | "src0_sel" | "src1_sel")
        });
    for &oi in ops {
        let op = &isa.ops[usize::from(oi)];
        if op.procs & pb == 0 {
            continue;
        }
        for &(e, key) in op.encodings {
            let ei = usize::from(e);
            let enc = &isa.encodings[ei];
            if !row_has(isa, ei, key, oi, pb) {
                continue;
            }
            if suffix_allows(suffix, enc) {
                cands.push((form_rank(enc.form), oi, ei, key, false));
            }
            if matches!(enc.form, Form::Vop3 | Form::Vop3p)
                && op.flags & flags::VOP3_DPP != 0
                && (suffix == 4 || suffix == 0 && has_dpp_mods)
            {
                cands.push((4, oi, ei, key, true));
            }
            // SDWA and DPP forms share this table
            for (xi, x) in isa.encodings.iter().enumerate() {
                if x.base == Some(e) {
                    let need = if x.form == Form::Sdwa {
                        flags::SDWA
                    } else {
                        flags::DPP
                    };
                    // (without a suffix, only when the text has their modifiers)
                    let wanted = suffix != 0
                        || if x.form == Form::Sdwa {
                            has_sdwa_mods
                        } else {
                            has_dpp_mods
                        };
                    if op.flags & need != 0 && suffix_allows(suffix, x) && wanted {
                        cands.push((form_rank(x.form), oi, xi, key, false));
                    }
                }
            }
        }
    }
    cands.sort_by_key(|c| c.0);
    if cands.is_empty() {
        return Err(err(
            st.mnemonic.clone(),
            format!(
                "instruction '{mn_text}' is not supported on {}",
                dec.processor()
            ),
        ));
    }
    // symbolic operands
    let mut symbolic: Option<Symbolic> = None;
    let mut want_text = String::with_capacity(text.len());
    {
        // the text as it should print: symbolic operands as a wildcard
        let mut last = 0;
        for (slot, (r, _, v)) in parsed.iter_mut().enumerate() {
            if matches!(
                v,
                Val::Int(_) | Val::Float(_) | Val::Lit(..) | Val::Lit64(_)
            ) {
                // a number: its bits are the encoder's own conversion (an inline
                // constant or a literal of the operand's type), printed in the
                // printer's spelling; the rest of the statement is compared
                let t = &text[r.clone()];
                let tt = t.trim();
                let num = tt
                    .strip_prefix("-|")
                    .or_else(|| tt.strip_prefix('|'))
                    .and_then(|x| x.strip_suffix('|'))
                    .unwrap_or(tt);
                if let Some(p) = t.find(num).filter(|_| !num.is_empty()) {
                    want_text.push_str(&orig[last..r.start + p]);
                    want_text.push('\u{1}');
                    last = r.start + p + num.len();
                }
                continue;
            }
            if *v != Val::Other {
                continue;
            }
            let t = &text[r.clone()];
            if !is_expression(t) || BARE_MODIFIERS.contains(&t) {
                continue;
            }
            match syms.expr(t) {
                Ok(ExprValue::Const(c)) => *v = Val::Int(c),
                Ok(ExprValue::Symbolic {
                    symbol,
                    addend,
                    variant,
                }) => {
                    if symbolic.is_some() {
                        return Err(err(r.clone(), "only one symbolic operand is allowed"));
                    }
                    want_text.push_str(&orig[last..r.start]);
                    want_text.push('\u{1}');
                    last = r.end;
                    symbolic = Some(Symbolic {
                        span: r.clone(),
                        symbol,
                        addend,
                        variant,
                        slot,
                    });
                    *v = Val::Lit(0, false);
                }
                Err(m) => return Err(err(r.clone(), m)),
            }
        }
        want_text.push_str(&orig[last..]);
    }
    // the operands and modifiers as they should print
    let mut want_ops = String::new();
    canon(
        &want_text[st.mnemonic.end.min(want_text.len())..],
        &mut want_ops,
    );
    let mut best = Best { err: None };
    let mut fallback: Option<(Vec<u8>, AsmError, Option<Fixup>)> = None;
    let orig_parsed = parsed.clone();
    for &(_, oi, ei, key, dpp) in &cands {
        let op = &isa.ops[usize::from(oi)];
        let enc = &isa.encodings[ei];
        // operands beyond the op's are modifiers (flags of operand-less ops)
        parsed.clone_from(&orig_parsed);
        modifiers.clone_from(&st.modifiers);
        let mut extra = op.operands.len();
        if op.flags & flags::GLC_RTN != 0 {
            extra += 1;
        }
        while parsed.len() > extra
            && parsed
                .last()
                .is_some_and(|p| matches!(p.2, Val::Other) && !text[p.0.clone()].contains(' '))
        {
            if let Some(p) = parsed.pop() {
                modifiers.insert(0, p.0);
            }
        }
        let cand = Cand {
            op_index: oi,
            op,
            ei,
            enc,
            key,
            ops: &parsed,
            dpp,
            invalid_dpp: orig.contains("Invalid dpp_ctrl value"),
            // (a plain statement takes the first encoding that verifies, as llvm-mc
            // prefers inline constants whatever the spelling)
            exact: "",
        };
        match try_candidate(dec, text, &cand, &modifiers, &want_ops, symbolic.as_ref()) {
            // (the first encoding family that takes the operands wins, as in llvm-mc,
            // whether it prints the numbers as written or not)
            Ok((bytes, warn, _exact)) => {
                let fixup = symbolic.as_ref().map(|s| make_fixup(s, enc, &bytes));
                if let Some(w) = warn {
                    if fallback.is_none() {
                        fallback = Some((bytes, w, fixup));
                    }
                    continue;
                }
                let size = bytes.len() as u8;
                out.extend_from_slice(&bytes);
                return Ok(Encoded {
                    size,
                    fixup,
                    warning: None,
                });
            }
            Err((rank, e)) => best.note(rank, e),
        }
    }
    if let Some((bytes, mut w, fixup)) = fallback {
        // the warning is about the operands
        w.span = st.operands.first().map_or(st.mnemonic.clone(), |f| {
            f.start..st.operands.last().map_or(f.end, |l| l.end)
        });
        let size = bytes.len() as u8;
        out.extend_from_slice(&bytes);
        return Ok(Encoded {
            size,
            fixup,
            warning: Some(w),
        });
    }
    Err(best
        .err
        .map(|(_, e)| e)
        .unwrap_or_else(|| err(st.mnemonic.clone(), "invalid operands")))
}

/// The DPP16 control of a `row_shl:N`-style modifier.
fn dpp_ctrl(name: &str, value: Option<&str>) -> Option<u32> {
    let n = || value.and_then(parse_int).map(|v| v as u32);
    Some(match name {
        "quad_perm" => {
            let inner = value?.strip_prefix('[')?.strip_suffix(']')?;
            let mut c = 0;
            for (i, x) in inner.split(',').enumerate() {
                c |= (x.trim().parse::<u32>().ok()? & 3) << (2 * i);
            }
            c
        }
        "row_shl" => 0x100 + n()?,
        "row_shr" => 0x110 + n()?,
        "row_ror" => 0x120 + n()?,
        "row_share" => 0x150 + n()?,
        "row_xmask" => 0x160 + n()?,
        "wave_shl" => 0x130,
        "wave_rol" => 0x134,
        "wave_shr" => 0x138,
        "wave_ror" => 0x13c,
        "row_mirror" => 0x140,
        "row_half_mirror" => 0x141,
        "row_bcast" => match n()? {
            15 => 0x142,
            31 => 0x143,
            _ => return None,
        },
        _ => return None,
    })
}

/// Modifiers of the DPP word.
const DPP_MODIFIERS: &[&str] = &[
    "quad_perm",
    "row_shl",
    "row_shr",
    "row_ror",
    "wave_shl",
    "wave_rol",
    "wave_shr",
    "wave_ror",
    "row_mirror",
    "row_half_mirror",
    "row_bcast",
    "row_share",
    "row_xmask",
    "row_mask",
    "bank_mask",
    "bound_ctrl",
    "fi",
    "dpp8",
];

/// Modifier words without a value (never read as symbols where an operand-less
/// instruction takes them).
const BARE_MODIFIERS: &[&str] = &[
    "glc",
    "slc",
    "dlc",
    "scc",
    "sc0",
    "sc1",
    "nt",
    "gds",
    "lds",
    "tfe",
    "offen",
    "idxen",
    "addr64",
    "unorm",
    "da",
    "r128",
    "a16",
    "d16",
    "lwe",
    "clamp",
    "high",
    "done",
    "vm",
    "compr",
    "row_en",
    "nv",
    "scale_offset",
    "row_mirror",
    "row_half_mirror",
];

fn is_expression(t: &str) -> bool {
    let t = t.trim();
    let keyword = |p: &str| {
        t.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
    };
    if ["p0", "p10", "p20", "mrtz", "prim"].contains(&t)
        || [
            "mrt",
            "pos",
            "param",
            "dual_src_blend",
            "invalid_target_",
            "invalid_param_",
        ]
        .iter()
        .any(|p| keyword(p))
        || t.contains(' ')
    {
        return false;
    }
    !t.is_empty()
        && !t.contains('(')
        && t.bytes()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'.' || c == b'_' || c == b'$')
        || t.starts_with('(')
        || t.contains('@')
        || (t.bytes().next().is_some_and(|c| c.is_ascii_digit())
            && (t.ends_with('b') || t.ends_with('f'))
            && t.len() >= 2
            && t[..t.len() - 1].bytes().all(|c| c.is_ascii_digit()))
}

/// Symbol variants whose value is 64 bits (a 64-bit literal on gfx1250).
fn wide_variant(v: RelocVariant) -> bool {
    matches!(v, RelocVariant::Rel64 | RelocVariant::GotPcRel)
}

fn make_fixup(s: &Symbolic, enc: &EncodingDesc, bytes: &[u8]) -> Fixup {
    let branch = enc.form == Form::Sopp;
    let _ = s.slot;
    let _ = &s.span;
    Fixup {
        offset: if branch {
            0
        } else if wide_variant(s.variant) && bytes.len() >= 12 {
            bytes.len().saturating_sub(8) as u8
        } else {
            bytes.len().saturating_sub(4) as u8
        },
        kind: if branch {
            FixupKind::Branch16
        } else if wide_variant(s.variant) && bytes.len() >= 12 {
            FixupKind::Literal64
        } else {
            FixupKind::Literal32
        },
        symbol: s.symbol.clone(),
        addend: s.addend,
        variant: s.variant,
    }
}

fn row_has(isa: &crate::IsaDesc, ei: usize, key: u16, oi: u16, pb: u32) -> bool {
    let rows = isa.encodings[ei].opcodes;
    let first = rows.partition_point(|r| r.key < key);
    rows[first..]
        .iter()
        .take_while(|r| r.key == key)
        .any(|r| r.op == oi && r.procs & pb != 0)
}

/// Scalar operand code (8-bit) of a value for this generation; None if not scalar.
fn scalar_code(dec: &Decoder, v: &Val) -> Option<u32> {
    let old = crate::decode::old_gcn(dec.isa());
    let swap = !matches!(
        dec.isa().generation,
        "gfx6" | "gfx7" | "gfx8" | "gfx9" | "gfx10"
    );
    Some(match *v {
        Val::Reg {
            class: Class::S,
            first,
            ..
        } => {
            if first > 105 {
                return None;
            }
            first
        }
        Val::Reg {
            class: Class::Ttmp,
            first,
            ..
        } => {
            let base = if old { 112 } else { 108 };
            if first + base > 123 {
                return None;
            }
            base + first
        }
        Val::Special { code, .. } => {
            if (108..=111).contains(&code) && !old {
                return None;
            }
            if swap && (code == 124 || code == 125) {
                code ^ 1
            } else {
                code
            }
        }
        _ => return None,
    })
}

/// The scalar code of `null` (gfx10+), or None before gfx10 (where `off` is 0x7f).
fn null_code(dec: &Decoder) -> Option<u32> {
    if matches!(dec.isa().generation, "gfx6" | "gfx7" | "gfx8" | "gfx9") {
        return None;
    }
    scalar_code(
        dec,
        &Val::Special {
            code: 125,
            count: 1,
        },
    )
}

fn field_max(fd: &crate::desc::FieldDesc) -> u64 {
    (1u64 << fd.width) - 1
}

/// The literal bits of a number for an operand of type `ty`.
fn literal_bits(v: &Val, ty: Ty) -> Option<u64> {
    match *v {
        Val::Int(n) | Val::Lit(n, false) => {
            if ty.bits() == 64 {
                Some(n as u64)
            } else if (-(1i64 << 31)..(1i64 << 32)).contains(&n) {
                Some(n as u32 as u64)
            } else {
                None
            }
        }
        Val::Float(_) | Val::Lit(_, true) => {
            let f = match *v {
                Val::Lit(b, true) => f64::from_bits(b as u64),
                Val::Float(f) => f,
                _ => 0.0,
            };
            match ty.bits() {
                16 if ty.is_float() || matches!(ty, Ty::B16) => f16_bits(f).map(u64::from),
                64 => Some(f.to_bits()),
                _ => Some(u64::from((f as f32).to_bits())),
            }
        }
        _ => None,
    }
}

/// Ways to encode value `v` in the source field `fd` (kind ssrc/src9/sdst).
fn source_choices(
    dec: &Decoder,
    field: Field,
    fd: &crate::desc::FieldDesc,
    ty: Ty,
    v: &Val,
    out: &mut Vec<Choice>,
) {
    let gfx8plus = !matches!(dec.isa().generation, "gfx6" | "gfx7");
    let src9 = fd.kind == FieldKind::Src9;
    match *v {
        Val::Reg {
            class: Class::V | Class::A,
            first,
            half,
            ..
        } if src9 => {
            let mut c = Choice::set(field, 256 + first);
            if let Some(hi) = half {
                c = half_choice(field, first, hi, true);
                if let Some(s) = c.sets.first_mut() {
                    s.value += 256;
                }
            }
            out.push(c);
        }
        Val::Int(n) if (-16..=64).contains(&n) && !matches!(ty, Ty::Label) => {
            let code = if n >= 0 { 128 + n } else { 192 - n } as u32;
            out.push(Choice::set(field, code));
            // inline-float bit patterns given as integers
            if let Some(bits) = literal_bits(v, ty) {
                let mut c = Choice::set(field, 255);
                c.literal = Some(bits);
                out.push(c);
            }
        }
        Val::Lit64(n) => {
            // only the 64-bit literal (code 254) of a 64-bit operand
            if ty.bits() == 64 {
                let mut c = Choice::set(field, 254);
                c.literal = Some(n as u64);
                c.wide = true;
                out.push(c);
            }
        }
        Val::Int(_) | Val::Float(_) | Val::Lit(..) => {
            if let Val::Float(f) = *v {
                if let Some(code) = inline_float(f, gfx8plus) {
                    out.push(Choice::set(field, code));
                }
            }
            if let Val::Int(n) = *v {
                // an integer with the bits of an inline float
                for code in 240..=248u32 {
                    let bits = crate::print::inline_float_bits(code as u8);
                    let b64 = f64::from(f32::from_bits(bits)).to_bits();
                    let f16 = [
                        0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
                    ][(code - 240) as usize];
                    let hit = match ty.bits() {
                        16 => n as u64 == f16,
                        // (a double's high word only in a float operand: 0x40000000
                        // is a literal in s_mov_b64, 2.0 in v_add_f64)
                        64 => n as u64 == b64 || (ty.is_float() && n as u64 == b64 >> 32),
                        _ => n as u32 == bits && n >= 0 && n <= u32::MAX as i64,
                    };
                    if hit && (gfx8plus || code != 248) {
                        out.push(Choice::set(field, code));
                    }
                }
            }
            if let Some(bits) = literal_bits(v, ty) {
                let int = matches!(v, Val::Int(_) | Val::Lit(_, false));
                if ty.bits() == 64 {
                    // a 32-bit literal: an integer that fits (a double's high word), or
                    // a double whose low word is zero; else (gfx1250) 64 bits, code 254
                    let n = bits as i64;
                    let short = if int && (-(1i64 << 31)..(1i64 << 32)).contains(&n) {
                        Some(bits & 0xffff_ffff)
                    } else if (!int || ty.is_float()) && bits & 0xffff_ffff == 0 {
                        Some(bits >> 32)
                    } else {
                        None
                    };
                    // (llvm-mc-22, gfx1250: an integer operand takes the 32-bit literal
                    // only for 0..=0x7fffffff, whose sign and zero extensions agree;
                    // other values the 64-bit one, tried first where it exists)
                    let wide_first = int && !ty.is_float() && !(0..1i64 << 31).contains(&n);
                    let first = out.len();
                    if let Some(b) = short {
                        let mut c = Choice::set(field, 255);
                        c.literal = Some(b);
                        out.push(c);
                    }
                    let wide = if int && ty.is_float() && short.is_some() && bits >> 32 == 0 {
                        bits << 32
                    } else {
                        bits
                    };
                    let mut c = Choice::set(field, 254);
                    c.literal = Some(wide);
                    c.wide = true;
                    if wide_first {
                        out.insert(first, c);
                    } else {
                        out.push(c);
                    }
                } else {
                    let mut c = Choice::set(field, 255);
                    c.literal = Some(bits);
                    out.push(c);
                }
            }
        }
        _ => {
            if let Some(code) = scalar_code(dec, v) {
                out.push(Choice::set(field, code));
            }
        }
    }
}

/// A true16 half register: bit 7 of the field, or the op_sel bit of VOP3 forms.
fn half_choice(field: Field, reg: u32, hi: bool, _src9: bool) -> Choice {
    let mut c = Choice::set(field, reg | if hi { 0x80 } else { 0 });
    let _ = &mut c;
    c
}

/// The segment of a FLAT op (0 flat, 1 scratch, 2 global) from its opcode key.
fn flat_seg(cand: &Cand) -> Option<u32> {
    let [seg, op] = cand.enc.key else {
        return None;
    };
    if *seg != Field::Seg {
        return None;
    }
    let w = cand.enc.field(*op)?.width;
    Some(u32::from(cand.key) >> w)
}

fn opsel_bit(field: Field) -> u32 {
    match field {
        Field::Src0 => 0,
        Field::Src1 => 1,
        Field::Src2 => 2,
        _ => 3,
    }
}

/// Ways to encode operand `v` in `role`.
#[allow(clippy::too_many_arguments)]
fn operand_choices(
    dec: &Decoder,
    cand: &Cand,
    field: Field,
    ty: Ty,
    m: &Mods,
    v: &Val,
    span: &Range<usize>,
    out: &mut Vec<Choice>,
) -> Result<(), AsmError> {
    let enc = cand.enc;
    let Some(fd) = enc.field(field) else {
        return Err(err(span.clone(), "operand has no field in this encoding"));
    };
    let vop3_opsel = enc.field(Field::Opsel).is_some();
    if let Val::Reg {
        count,
        class: Class::V | Class::A,
        ..
    } = *v
    {
        let exact = matches!(
            enc.form,
            Form::Sop1
                | Form::Sop2
                | Form::Sopc
                | Form::Sopk
                | Form::Vop1
                | Form::Vop2
                | Form::Vopc
                | Form::Vop3
        );
        let regs = u32::from(ty.regs());
        if exact && ty.bits() >= 16 && ty.bits() <= 1024 && count > regs.max(1) {
            return Err(err(
                span.clone(),
                format!(
                    "{} is {} bits wide; this operand takes {}",
                    v_text(v),
                    32 * count,
                    ty.bits().max(32)
                ),
            ));
        }
    }
    if ty == Ty::Bitop3 {
        imm_choices(field, fd, ty, v, out);
        return Ok(());
    }
    // VOPD: the Y destination field holds vdst >> 1 (the low bit is the X one's inverse)
    if field == Field::Vdsty && fd.kind == FieldKind::Imm {
        if let Val::Reg {
            class: Class::V,
            first,
            ..
        } = *v
        {
            out.push(Choice::set(
                field,
                if fd.width == 7 { first >> 1 } else { first },
            ));
            return Ok(());
        }
    }
    match fd.kind {
        FieldKind::Sdst | FieldKind::Ssrc | FieldKind::Src9 => {
            if let Val::Reg {
                class: class @ (Class::S | Class::Ttmp),
                first,
                count,
                ..
            } = *v
            {
                let align = if count >= 3 { 4 } else { count };
                if count >= 2 && first % align != 0 {
                    let p = if class == Class::S { "s" } else { "ttmp" };
                    let what = if count == 2 {
                        format!(
                            "64-bit {} pairs start at an even register",
                            if class == Class::S {
                                "SGPR"
                            } else {
                                "trap temporary"
                            }
                        )
                    } else {
                        format!("tuples of {count} scalar registers start at a multiple of 4")
                    };
                    return Err(err(
                        span.clone(),
                        format!("{p}[{first}:{}] is not aligned: {what}", first + count - 1),
                    ));
                }
            }
            if matches!(
                ty,
                Ty::GprIdx
                    | Ty::Dec16
                    | Ty::SendmsgRtn
                    | Ty::Hwreg
                    | Ty::Sendmsg
                    | Ty::Attr
                    | Ty::Bitop3
            ) {
                imm_choices(field, fd, ty, v, out);
            } else {
                // gfx1250 packed f32 (b64 VOP3P sources) take 32-bit literals only:
                // llvm-mc-22 encodes `lit64(X)` there as the 32-bit literal of X's low
                // word
                let low;
                let v = match (*v, enc.form, ty) {
                    (Val::Lit64(n), Form::Vop3p, Ty::B64) => {
                        low = Val::Lit(n & 0xffff_ffff, false);
                        &low
                    }
                    _ => v,
                };
                source_choices(dec, field, fd, ty, v, out);
                if let Val::Reg {
                    class: Class::A,
                    first,
                    ..
                } = *v
                {
                    // an AGPR source of a matrix op: its acc bit, or acc_cd for C
                    let base = Choice::set(field, 256 + first);
                    if enc.form == Form::Vop3p && cand.op.flags & flags::MAI != 0 {
                        // gfx940+ VOP3P form: the op_sel_hi bits are acc, clamp acc_cd
                        for (f, v) in [(Field::OpselHi, 1 << opsel_bit(field)), (Field::Clamp, 1)] {
                            let mut c = base.clone();
                            c.sets.push(Set {
                                field: f,
                                value: v,
                                or: true,
                            });
                            out.push(c);
                        }
                    }
                    if let Some(a) = enc.field(Field::Acc) {
                        let mut c = base.clone();
                        c.sets.push(Set {
                            field: Field::Acc,
                            value: if a.width == 1 {
                                1
                            } else {
                                1 << opsel_bit(field)
                            },
                            or: true,
                        });
                        out.push(c);
                    }
                    if enc.field(Field::AccCd).is_some() {
                        let mut c = base;
                        c.sets.push(Set {
                            field: Field::AccCd,
                            value: 1,
                            or: true,
                        });
                        out.push(c);
                    }
                }
                if let (
                    Val::Reg {
                        class: Class::V,
                        first,
                        half: Some(hi),
                        ..
                    },
                    true,
                ) = (v, vop3_opsel)
                {
                    out.clear();
                    let mut c = Choice::set(field, 256 + first);
                    if *hi {
                        c.sets.push(Set {
                            field: Field::Opsel,
                            value: 1 << opsel_bit(field),
                            or: true,
                        });
                    }
                    out.push(c);
                }
            }
        }
        FieldKind::Vgpr => match *v {
            Val::Reg {
                class: class @ (Class::V | Class::A),
                first,
                half,
                ..
            } => {
                let mut c = match half {
                    Some(hi) if vop3_opsel => {
                        let mut c = Choice::set(field, first);
                        if hi {
                            c.sets.push(Set {
                                field: Field::Opsel,
                                value: 1 << opsel_bit(field),
                                or: true,
                            });
                        }
                        c
                    }
                    Some(hi) => half_choice(field, first, hi, false),
                    None => Choice::set(field, first),
                };
                // scratch with a VGPR address: the sve bit (gfx11+)
                if matches!(field, Field::Vaddr | Field::Addr)
                    && enc.form == Form::Flat
                    && flat_seg(cand) == Some(1)
                {
                    if enc.field(Field::Sve).is_some() {
                        c.sets.push(Set {
                            field: Field::Sve,
                            value: 1,
                            or: false,
                        });
                    } else if enc.field(Field::Lds).is_some() {
                        // gfx940 scratch: bit 13 says the address VGPR is used
                        let mut l = c.clone();
                        l.sets.push(Set {
                            field: Field::Lds,
                            value: 1,
                            or: false,
                        });
                        out.push(l);
                    }
                }
                if class == Class::A {
                    out.push(c.clone());
                    // gfx90a+ FLAT/MUBUF: bit 55 (described as nv or tfe) is acc there
                    if let Some(b55) = enc
                        .fields
                        .iter()
                        .find(|f| f.lo == 55 && f.width == 1 && enc.field(Field::Acc).is_none())
                    {
                        let mut a = c.clone();
                        a.sets.push(Set {
                            field: b55.field,
                            value: 1,
                            or: false,
                        });
                        out.push(a);
                    }
                    if let Some(a) = enc
                        .field(Field::Acc)
                        .filter(|a| a.width == 1 || opsel_bit(field) < 3)
                    {
                        let bit = if a.width == 1 {
                            1
                        } else {
                            1 << opsel_bit(field)
                        };
                        c.sets.push(Set {
                            field: Field::Acc,
                            value: bit,
                            or: true,
                        });
                    }
                    if field == Field::Vdst
                        && enc.form == Form::Vop3p
                        && cand.op.flags & flags::MAI != 0
                    {
                        // gfx940+ matrix ops in VOP3P form: bit 15 is acc_cd
                        let mut a = c.clone();
                        a.sets.push(Set {
                            field: Field::Clamp,
                            value: 1,
                            or: false,
                        });
                        out.push(a);
                    }
                    if matches!(
                        field,
                        Field::Vdst | Field::Vdata | Field::Data0 | Field::Data1
                    ) && enc.field(Field::AccCd).is_some()
                    {
                        c.sets.push(Set {
                            field: Field::AccCd,
                            value: 1,
                            or: true,
                        });
                    }
                }
                out.push(c);
            }
            Val::Off => out.push(Choice::set(field, 0)),
            _ => {
                // SDWA scalar sources (s0/s1 bits)
                let sbit = match field {
                    Field::Src0 => Field::S0,
                    Field::Src1 => Field::S1,
                    _ => Field::Op,
                };
                if enc.field(sbit).is_some() {
                    let mut tmp = Vec::new();
                    source_choices(dec, field, fd, ty, v, &mut tmp);
                    for mut c in tmp {
                        if c.literal.is_none() {
                            c.sets.push(Set {
                                field: sbit,
                                value: 1,
                                or: false,
                            });
                            out.push(c);
                        }
                    }
                } else {
                    return Err(err(span.clone(), "this operand takes a VGPR"));
                }
            }
        },
        FieldKind::Sbase | FieldKind::Srsrc => {
            let div = if fd.kind == FieldKind::Sbase { 2 } else { 4 };
            match scalar_code(dec, v) {
                Some(c) => {
                    if c % div != 0 {
                        return Err(err(
                            span.clone(),
                            format!(
                                "{} is not aligned: this register tuple starts at a multiple of {div}",
                                v_text(v)
                            ),
                        ));
                    }
                    out.push(Choice::set(field, c / div));
                }
                None => return Err(err(span.clone(), "this operand takes scalar registers")),
            }
        }
        FieldKind::Imm | FieldKind::Flag | FieldKind::Op => {
            imm_choices(field, fd, ty, v, out);
            if matches!(*v, Val::Off) {
                out.push(Choice::set(field, 0));
            }
        }
    }
    // `neg(1.0)`: the negated constant, without a modifier (llvm-mc folds it where the
    // encoding has no neg bit)
    let mut folded = Vec::new();
    if let (true, false, Val::Float(f)) = (m.neg, m.abs, *v) {
        if matches!(fd.kind, FieldKind::Ssrc | FieldKind::Src9) {
            source_choices(dec, field, fd, ty, &Val::Float(-f), &mut folded);
        }
    }
    // source modifiers
    if m.neg || m.abs || m.sext {
        let i = opsel_bit(field) as usize;
        let mods: Vec<Set> = match enc.form {
            Form::Vopd if !m.abs && !m.sext => {
                // gfx1250 VOPD3: neg bits of X's sources, then Y's
                let src = match field {
                    Field::Src0x | Field::Src0y => 0,
                    Field::Vsrc1x | Field::Vsrc1y => 1,
                    _ => 2,
                };
                let y = if enc.name.ends_with('Y') { 3 } else { 0 };
                vec![Set {
                    field: Field::Neg,
                    value: 1 << (src + y),
                    or: true,
                }]
            }
            Form::Vop3 | Form::Vop3p | Form::Mai => {
                let mut s = Vec::new();
                let mix = cand.op.flags & flags::MIX != 0;
                if m.neg {
                    s.push(Set {
                        field: Field::Neg,
                        value: 1 << i,
                        or: true,
                    });
                }
                if m.abs {
                    s.push(Set {
                        field: if mix { Field::NegHi } else { Field::Abs },
                        value: 1 << i,
                        or: true,
                    });
                }
                s
            }
            _ => {
                let (n, a, x) = if i == 0 {
                    (Field::Src0Neg, Field::Src0Abs, Field::Src0Sext)
                } else {
                    (Field::Src1Neg, Field::Src1Abs, Field::Src1Sext)
                };
                let mut s = Vec::new();
                for (on, f) in [(m.neg, n), (m.abs, a), (m.sext, x)] {
                    if on {
                        s.push(Set {
                            field: f,
                            value: 1,
                            or: false,
                        });
                    }
                }
                s
            }
        };
        for c in out.iter_mut() {
            c.sets.extend_from_slice(&mods);
        }
    }
    out.extend(folded);
    Ok(())
}

fn v_text(v: &Val) -> String {
    match *v {
        Val::Reg {
            class,
            first,
            count,
            ..
        } => {
            let p = match class {
                Class::S => "s",
                Class::V => "v",
                Class::A => "a",
                Class::Ttmp => "ttmp",
            };
            if count > 1 {
                format!("{p}[{first}:{}]", first + count - 1)
            } else {
                format!("{p}{first}")
            }
        }
        _ => "the operand".to_string(),
    }
}

fn imm_choices(field: Field, fd: &crate::desc::FieldDesc, ty: Ty, v: &Val, out: &mut Vec<Choice>) {
    match *v {
        Val::Attr(n, c) => out.push(Choice::set(field, n | c << 6)),
        Val::Int(n) => {
            let max = field_max(fd) as i64;
            if (0..=max).contains(&n) {
                out.push(Choice::set(field, n as u32));
            } else if (-(max + 1) / 2 - 1..0).contains(&n)
                || ((-(1 << 16)..0).contains(&n) && matches!(ty, Ty::Label | Ty::Hex16 | Ty::Dec16))
            {
                // a negative value in a signed (or 16-bit) field
                out.push(Choice::set(field, (n & max) as u32));
            }
        }
        _ => {
            // symbolic syntax: solved by search over the field
            out.push(Choice {
                solve: Some(field),
                ..Choice::default()
            });
        }
    }
}

/// Parse `[a,b,c]` into bits (entry i -> bit i), or a plain number.
fn bit_list(v: &str) -> Option<(u32, usize)> {
    let v = v.trim();
    if let Some(inner) = v.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let mut bits = 0;
        let mut n = 0;
        for (i, x) in inner.split(',').enumerate() {
            match x.trim() {
                "0" => {}
                "1" => bits |= 1 << i,
                _ => return None,
            }
            n += 1;
        }
        return Some((bits, n));
    }
    parse_int(v).map(|x| (x as u32, 0))
}

/// `swizzle(...)` of ds_swizzle_b32 -> its 16-bit offset.
fn swizzle(v: &str) -> Option<i64> {
    let v = v.trim().to_ascii_uppercase();
    let inner = v.strip_prefix("SWIZZLE(")?.strip_suffix(')')?;
    let mut parts = inner.split(',').map(str::trim);
    let mode = parts.next()?;
    let args: Vec<&str> = parts.collect();
    let n = |i: usize| args.get(i).and_then(|a| parse_int(a));
    Some(match mode {
        "QUAD_PERM" => {
            let mut x = 0x8000;
            for i in 0..4 {
                let a = n(i)?;
                if !(0..4).contains(&a) {
                    return None;
                }
                x |= a << (2 * i);
            }
            x
        }
        "SWAP" => {
            let a = n(0)?;
            if !(1..=16).contains(&a) || a & (a - 1) != 0 {
                return None;
            }
            0x1f | a << 10
        }
        "REVERSE" => {
            let a = n(0)?;
            if !(2..=32).contains(&a) || a & (a - 1) != 0 {
                return None;
            }
            0x1f | (a - 1) << 10
        }
        "BROADCAST" => {
            let (size, lane) = (n(0)?, n(1)?);
            if !(2..=32).contains(&size) || size & (size - 1) != 0 || !(0..size).contains(&lane) {
                return None;
            }
            (0x1f & !(size - 1)) | lane << 5
        }
        "BITMASK_PERM" => {
            let m = args.first()?.trim_matches('"');
            if m.len() != 5 {
                return None;
            }
            let (mut and, mut or, mut xor) = (0, 0, 0);
            for (i, c) in m.bytes().enumerate() {
                let bit = 1 << (4 - i);
                match c.to_ascii_lowercase() {
                    b'p' => and |= bit,
                    b'i' => {
                        and |= bit;
                        xor |= bit
                    }
                    b'1' => or |= bit,
                    b'0' => {}
                    _ => return None,
                }
            }
            and | or << 5 | xor << 10
        }
        "FFT" => 0xe000 | n(0)?,
        "ROTATE" => 0xc000 | n(0)? << 10 | n(1)? << 5,
        _ => return None,
    })
}

fn sel_value(s: &str) -> Option<u32> {
    Some(match s {
        "BYTE_0" => 0,
        "BYTE_1" => 1,
        "BYTE_2" => 2,
        "BYTE_3" => 3,
        "WORD_0" => 4,
        "WORD_1" => 5,
        "DWORD" => 6,
        _ => return None,
    })
}

/// Choices of one modifier.
fn modifier_choices(
    cand: &Cand,
    name: &str,
    value: Option<&str>,
    span: &Range<usize>,
    _gfx940: bool,
) -> Result<Vec<Choice>, AsmError> {
    let enc = cand.enc;
    let has = |f: Field| enc.field(f).is_some();
    let one = |f: Field, v: u32| -> Result<Vec<Choice>, AsmError> {
        match enc.field(f) {
            Some(fd) if u64::from(v) <= field_max(fd) => Ok(vec![Choice::set(f, v)]),
            Some(_) => Err(err(span.clone(), format!("invalid {name} value"))),
            None => Err(err(
                span.clone(),
                format!("{name} is not valid for this instruction"),
            )),
        }
    };
    let num = || -> Result<u32, AsmError> {
        value
            .and_then(parse_int)
            .map(|v| v as u32)
            .ok_or_else(|| err(span.clone(), format!("invalid value of {name}")))
    };
    let bits_or = |f: Field, bits: u32| -> Result<Vec<Choice>, AsmError> {
        if !has(f) {
            return Err(err(
                span.clone(),
                format!("{name} is not valid for this instruction"),
            ));
        }
        Ok(vec![Choice {
            sets: vec![Set {
                field: f,
                value: bits,
                or: true,
            }],
            ..Choice::default()
        }])
    };
    match (name, value) {
        ("mul", Some("2")) => one(Field::Omod, 1),
        ("mul", Some("4")) => one(Field::Omod, 2),
        ("div", Some("2")) => one(Field::Omod, 3),
        ("mul", Some("1")) | ("div", Some("1")) => one(Field::Omod, 0),
        // gfx940 spellings of glc and slc (sc1 is a field of its own)
        ("sc0", None) => one(Field::Glc, 1),
        ("nt", None) => one(Field::Slc, 1),
        ("scc", None) => one(Field::Sc1, 1),
        ("dst_sel" | "src0_sel" | "src1_sel", Some(v)) => {
            let f = match name {
                "dst_sel" => Field::DstSel,
                "src0_sel" => Field::Src0Sel,
                _ => Field::Src1Sel,
            };
            let x = sel_value(v)
                .or_else(|| parse_int(v).map(|x| x as u32))
                .ok_or_else(|| err(span.clone(), "invalid SDWA selector"))?;
            one(f, x)
        }
        ("dst_unused", Some(v)) => {
            let x = match v {
                "UNUSED_PAD" => 0,
                "UNUSED_SEXT" => 1,
                "UNUSED_PRESERVE" => 2,
                _ => return Err(err(span.clone(), "invalid dst_unused value")),
            };
            one(Field::DstUnused, x)
        }
        ("op_sel", Some(v)) => {
            let (bits, n) = bit_list(v).ok_or_else(|| err(span.clone(), "invalid op_sel"))?;
            if !has(Field::Opsel) {
                return Err(err(
                    span.clone(),
                    "op_sel is not valid for this instruction",
                ));
            }
            let mut out = Vec::new();
            // VOP3: the last entry is the destination's (bit 3)
            if enc.form == Form::Vop3 && n >= 2 {
                let last = bits >> (n - 1) & 1;
                let b = (bits & ((1 << (n - 1)) - 1)) | last << 3;
                out.extend(bits_or(Field::Opsel, b)?);
            }
            out.extend(bits_or(Field::Opsel, bits)?);
            Ok(out)
        }
        ("op_sel_hi", Some(v)) => {
            let (bits, n) = bit_list(v).ok_or_else(|| err(span.clone(), "invalid op_sel_hi"))?;
            let bits = if n > 0 {
                bits | (0b111 & !((1 << n) - 1))
            } else {
                bits
            };
            let mut sets = Vec::new();
            match (enc.field(Field::OpselHi), enc.field(Field::OpselHi2)) {
                (Some(h), Some(_)) if h.width == 2 => {
                    sets.push(Set {
                        field: Field::OpselHi,
                        value: bits & 3,
                        or: false,
                    });
                    sets.push(Set {
                        field: Field::OpselHi2,
                        value: bits >> 2 & 1,
                        or: false,
                    });
                }
                (Some(_), _) => sets.push(Set {
                    field: Field::OpselHi,
                    value: bits,
                    or: false,
                }),
                _ => {
                    return Err(err(
                        span.clone(),
                        "op_sel_hi is not valid for this instruction",
                    ))
                }
            }
            Ok(vec![Choice {
                sets,
                ..Choice::default()
            }])
        }
        ("neg_lo", Some(v)) => {
            let (bits, _) = bit_list(v).ok_or_else(|| err(span.clone(), "invalid neg_lo"))?;
            bits_or(Field::Neg, bits)
        }
        ("neg_hi", Some(v)) => {
            let (bits, _) = bit_list(v).ok_or_else(|| err(span.clone(), "invalid neg_hi"))?;
            if has(Field::NegHi) {
                bits_or(Field::NegHi, bits)
            } else {
                bits_or(Field::Abs, bits)
            }
        }
        ("quad_perm", Some(v)) => {
            let inner = v
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(|| err(span.clone(), "invalid quad_perm"))?;
            let mut c = 0;
            for (i, x) in inner.split(',').enumerate() {
                let x: u32 = x
                    .trim()
                    .parse()
                    .map_err(|_| err(span.clone(), "invalid quad_perm"))?;
                c |= (x & 3) << (2 * i);
            }
            one(Field::DppCtrl, c)
        }
        ("row_shl" | "row_shr" | "row_ror" | "row_share" | "row_xmask", Some(_)) => {
            let n = num()?;
            let base = match name {
                "row_shl" => 0x100,
                "row_shr" => 0x110,
                "row_ror" => 0x120,
                "row_share" => 0x150,
                _ => 0x160,
            };
            one(Field::DppCtrl, base + (n & 0xf))
        }
        ("wave_shl", _) => one(Field::DppCtrl, 0x130),
        ("wave_rol", _) => one(Field::DppCtrl, 0x134),
        ("wave_shr", _) => one(Field::DppCtrl, 0x138),
        ("wave_ror", _) => one(Field::DppCtrl, 0x13c),
        ("row_mirror", None) => one(Field::DppCtrl, 0x140),
        ("row_half_mirror", None) => one(Field::DppCtrl, 0x141),
        ("row_bcast", Some("15")) => one(Field::DppCtrl, 0x142),
        ("row_bcast", Some("31")) => one(Field::DppCtrl, 0x143),
        ("bound_ctrl", _) => one(Field::BoundCtrl, 1),
        ("dpp8", Some(v)) => {
            let inner = v
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(|| err(span.clone(), "invalid dpp8"))?;
            let mut c = 0;
            for (i, x) in inner.split(',').enumerate() {
                let x: u32 = x
                    .trim()
                    .parse()
                    .map_err(|_| err(span.clone(), "invalid dpp8"))?;
                c |= (x & 7) << (3 * i);
            }
            one(Field::Dpp8, c)
        }
        ("dim", Some(v)) => {
            let x = match v.trim_start_matches("SQ_RSRC_IMG_") {
                "1D" => 0,
                "2D" => 1,
                "3D" => 2,
                "CUBE" => 3,
                "1D_ARRAY" => 4,
                "2D_ARRAY" => 5,
                "2D_MSAA" => 6,
                "2D_MSAA_ARRAY" => 7,
                _ => return Err(err(span.clone(), "invalid dim value")),
            };
            one(Field::Dim, x)
        }
        ("offset", Some(v))
            if enc.form == Form::Ds && !has(Field::Offset) && has(Field::Offset1) =>
        {
            let n = match parse_int(v) {
                Some(n) => n,
                None => swizzle(v).ok_or_else(|| err(span.clone(), "invalid swizzle pattern"))?,
            };
            if !(0..=0xffff).contains(&n) {
                return Err(err(
                    span.clone(),
                    "offset out of range: a DS offset is 16 bits",
                ));
            }
            Ok(vec![Choice {
                sets: vec![
                    Set {
                        field: Field::Offset0,
                        value: n as u32 & 0xff,
                        or: false,
                    },
                    Set {
                        field: Field::Offset1,
                        value: (n as u32) >> 8,
                        or: false,
                    },
                ],
                ..Choice::default()
            }])
        }
        ("high", None) if cand.op.operands.iter().any(|o| o.ty == Ty::Attr) => {
            let f = cand
                .op
                .operands
                .iter()
                .find(|o| o.ty == Ty::Attr)
                .and_then(|o| match o.role {
                    Role::Field(f) => Some(f),
                    _ => None,
                })
                .ok_or_else(|| err(span.clone(), "high is not valid here"))?;
            bits_or(f, 0x100)
        }
        ("bitop3", Some(v)) if cand.op.flags & flags::BITOP3 != 0 => {
            let t = parse_int(v)
                .filter(|t| (0..=0xff).contains(t))
                .ok_or_else(|| err(span.clone(), "invalid bitop3 table"))?
                as u32;
            Ok(vec![Choice {
                sets: vec![
                    Set {
                        field: Field::Neg,
                        value: t & 7,
                        or: true,
                    },
                    Set {
                        field: Field::Abs,
                        value: t >> 3 & 7,
                        or: true,
                    },
                    Set {
                        field: Field::Omod,
                        value: t >> 6,
                        or: false,
                    },
                ],
                ..Choice::default()
            }])
        }
        ("format", Some(v)) if v.starts_with('[') || parse_int(v).is_none() => {
            // the printer's names: search the format fields (gfx10+ one, gfx6-gfx9 two)
            if let Some(f) = enc.field(Field::Format) {
                Ok((0..=field_max(f) as u32)
                    .map(|x| Choice::set(Field::Format, x))
                    .collect())
            } else if has(Field::Dfmt) && has(Field::Nfmt) {
                let mut out = Vec::new();
                for d in 0..16 {
                    for n in 0..8 {
                        let mut c = Choice::set(Field::Dfmt, d);
                        c.sets.push(Set {
                            field: Field::Nfmt,
                            value: n,
                            or: false,
                        });
                        out.push(c);
                    }
                }
                Ok(out)
            } else {
                Err(err(
                    span.clone(),
                    "format is not valid for this instruction",
                ))
            }
        }
        ("index_key", Some(v)) => {
            let n = parse_int(v).ok_or_else(|| err(span.clone(), "invalid index_key"))?;
            bits_or(Field::Opsel, n as u32)
        }
        ("matrix_a_reuse", None) => bits_or(Field::Opsel, 4),
        ("matrix_b_reuse", None) => bits_or(Field::OpselHi2, 1),
        ("matrix_a_fmt" | "matrix_b_fmt", Some(v)) => {
            let x = match v.trim_start_matches("MATRIX_FMT_") {
                "FP8" => 0,
                "BF8" => 1,
                "FP6" => 2,
                "BF6" => 3,
                "FP4" => 4,
                other => parse_int(other)
                    .ok_or_else(|| err(span.clone(), "invalid matrix format"))?
                    as u32,
            };
            if name == "matrix_a_fmt" {
                bits_or(Field::Opsel, x)
            } else {
                Ok(vec![Choice {
                    sets: vec![
                        Set {
                            field: Field::OpselHi,
                            value: x & 3,
                            or: false,
                        },
                        Set {
                            field: Field::OpselHi2,
                            value: x >> 2 & 1,
                            or: false,
                        },
                    ],
                    ..Choice::default()
                }])
            }
        }
        ("offset", Some(v)) if enc.form == Form::Smem && has(Field::Soe) => {
            // gfx9 SMEM: an SGPR offset (soe) plus an immediate one (imm)
            let n = parse_int(v).ok_or_else(|| err(span.clone(), "invalid offset"))?;
            let f = enc
                .field(Field::Offset)
                .ok_or_else(|| err(span.clone(), "no offset"))?;
            let max = field_max(f) as i64;
            if !(-(max + 1) / 2..=max).contains(&n) {
                return Err(err(span.clone(), "offset out of range"));
            }
            Ok(vec![Choice {
                sets: vec![
                    Set {
                        field: Field::Offset,
                        value: (n & max) as u32,
                        or: false,
                    },
                    Set {
                        field: Field::Imm,
                        value: 1,
                        or: false,
                    },
                ],
                ..Choice::default()
            }])
        }
        ("scope", Some(v)) => {
            let x = match v {
                "SCOPE_CU" => 0,
                "SCOPE_SE" => 1,
                "SCOPE_DEV" => 2,
                "SCOPE_SYS" => 3,
                _ => num()?,
            };
            one(Field::Scope, x)
        }
        (_, value) => {
            let f = enc
                .fields
                .iter()
                .find(|f| f.field.name() == name)
                .ok_or_else(|| {
                    err(
                        span.clone(),
                        format!("'{name}' is not a modifier of {}", cand.op.mnemonic),
                    )
                })?;
            match value {
                None => one(f.field, 1),
                Some(v) => match parse_int(v) {
                    Some(n) if n >= 0 => one(f.field, n as u32),
                    Some(n) => {
                        // signed offsets
                        let max = field_max(f) as i64;
                        if n >= -(max + 1) / 2 {
                            one(f.field, (n & max) as u32)
                        } else {
                            Err(err(span.clone(), format!("{name} out of range")))
                        }
                    }
                    None if f.width <= 8 => Ok((0..=field_max(f) as u32)
                        .map(|x| Choice::set(f.field, x))
                        .collect()),
                    None => Ok(vec![Choice {
                        solve: Some(f.field),
                        ..Choice::default()
                    }]),
                },
            }
        }
    }
}

/// Field values that are not zero when their modifier is absent.
fn defaults(cand: &Cand, gen: &str, raw: &mut u64) {
    let enc = cand.enc;
    if enc.form == Form::Mubuf && enc.words == 3 {
        // gfx12 VBUFFER: the untyped forms carry the same default format (1) in bits
        // 55-61 (llvm-mc-22 writes 0x80 in byte 6; the decoder ignores the bits)
        *raw |= 1 << 55;
    }
    let mut put = |f: Field, v: u64| {
        if let Some(fd) = enc.field(f) {
            if fd.lo < 64 {
                *raw = (*raw & !(field_max(fd) << fd.lo)) | (v & field_max(fd)) << fd.lo;
            }
        }
    };
    put(Field::RowMask, 0xf);
    put(Field::BankMask, 0xf);
    put(Field::DstSel, 6);
    put(Field::Src0Sel, 6);
    if cand.op.has_field(Field::Src1) {
        put(Field::Src1Sel, 6);
    }
    put(Field::DstUnused, 2);
    if enc.form == Form::Mtbuf {
        // BUF_FMT_8_UNORM / BUF_DATA_FORMAT_8 unless the text says otherwise
        put(Field::Format, 1);
        put(Field::Dfmt, 1);
    }
    let f = cand.op.flags;
    if matches!(enc.form, Form::Vop3p | Form::Mai)
        && f & (flags::MIX | flags::MAI | flags::MAI_FMT) == 0
    {
        // op_sel_hi's neutral value (WMMA: unless the bits hold formats or reuse flags)
        if f & flags::MATRIX_FMT == 0 {
            put(Field::OpselHi, u64::MAX);
            if f & flags::MATRIX_REUSE == 0 {
                put(Field::OpselHi2, 1);
            }
        }
    }
    // accumulator moves in the MAI layout: LLVM writes them as VOP3P, whose op_sel_hi
    // bits (14, 59, 60) are ones
    if enc.form == Form::Mai && cand.op.flags & flags::NO_MAI_MODS != 0 {
        put(Field::Abid, 8);
        put(Field::Acc, 3);
    }
    // a VOP3 compare that writes only EXEC: its destination field holds exec_lo
    if enc.form == Form::Vop3
        && cand.op.writes & crate::desc::implicit::EXEC != 0
        && !cand.op.has_field(Field::Vdst)
        && !cand.op.has_field(Field::Sdst)
        && !matches!(
            cand.op.operands.first().map(|o| o.role),
            Some(Role::FieldOr(..))
        )
        && !matches!(gen, "gfx6" | "gfx7" | "gfx8" | "gfx9")
    {
        put(Field::Vdst, 126);
    }
    // gfx11+: an unused scalar base is null
    if !cand.op.has_field(Field::Saddr)
        && !matches!(gen, "gfx6" | "gfx7" | "gfx8" | "gfx9" | "gfx10")
    {
        put(Field::Saddr, 124);
    }
}

type Fail = (u32, AsmError);

fn try_candidate(
    dec: &Decoder,
    text: &str,
    cand: &Cand,
    modifiers: &[Range<usize>],
    want_ops: &str,
    symbolic: Option<&Symbolic>,
) -> Result<(Vec<u8>, Option<AsmError>, bool), Fail> {
    let enc = cand.enc;
    let mut raw: u64 = u64::from(enc.match_bits);
    // opcode key
    {
        let mut key = u32::from(cand.key);
        for k in enc.key.iter().rev() {
            let Some(fd) = enc.field(*k) else {
                return Err((0, err(0..0, "encoding without key field")));
            };
            raw |= (u64::from(key) & field_max(fd)) << fd.lo;
            key >>= fd.width;
        }
    }
    defaults(cand, dec.isa().generation, &mut raw);
    let mut alts: Vec<Vec<Choice>> = Vec::new();
    let mut rank = 10;
    operand_alts(dec, text, cand, symbolic, &mut alts, &mut rank)?;
    rank += 100;
    let gfx940 = matches!(dec.processor(), "gfx942" | "gfx950" | "gfx940" | "gfx941");
    let mut dpp_word: u32 = 0xff << 24; // row_mask, bank_mask
    let mut dpp8: Option<u32> = None;
    let mut fi = false;
    for r in modifiers {
        let w = &text[r.clone()];
        if cand.dpp {
            let (name, value) = match w.split_once(':') {
                Some((n, v)) => (n, Some(v)),
                None => (w, None),
            };
            if DPP_MODIFIERS.contains(&name) {
                let num = || value.and_then(parse_int).map(|v| v as u32);
                match name {
                    "row_mask" => {
                        dpp_word = (dpp_word & !(0xf << 28)) | (num().unwrap_or(0xf) & 0xf) << 28
                    }
                    "bank_mask" => {
                        dpp_word = (dpp_word & !(0xf << 24)) | (num().unwrap_or(0xf) & 0xf) << 24
                    }
                    "bound_ctrl" => dpp_word |= 1 << 19,
                    "fi" => fi = num().unwrap_or(1) != 0,
                    "dpp8" => {
                        let inner = value
                            .and_then(|v| v.strip_prefix('['))
                            .and_then(|v| v.strip_suffix(']'))
                            .ok_or_else(|| (rank, err(r.clone(), "invalid dpp8")))?;
                        let mut c = 0;
                        for (i, x) in inner.split(',').enumerate() {
                            let x: u32 = x
                                .trim()
                                .parse()
                                .map_err(|_| (rank, err(r.clone(), "invalid dpp8")))?;
                            c |= (x & 7) << (3 * i);
                        }
                        dpp8 = Some(c);
                    }
                    _ => {
                        let ctrl = dpp_ctrl(name, value)
                            .ok_or_else(|| (rank, err(r.clone(), "invalid DPP control")))?;
                        dpp_word = (dpp_word & !(0x1ff << 8)) | ctrl << 8;
                    }
                }
                rank += 1;
                continue;
            }
        }
        let w = &text[r.clone()];
        let (name, value) = match w.split_once(':') {
            Some((n, v)) => (n, Some(v)),
            None => (w, None),
        };
        let ch = modifier_choices(cand, name, value, r, gfx940).map_err(|e| (rank, e))?;
        alts.push(ch);
        rank += 1;
    }
    if cand.dpp {
        // the DPP word takes src0's VGPR; src0 names the DPP kind
        let src0 = cand
            .op
            .operands
            .iter()
            .position(|o| o.role == Role::Field(Field::Src0));
        let reg = src0
            .and_then(|i| cand.ops.get(i))
            .and_then(|(_, _, v)| match *v {
                Val::Reg {
                    class: Class::V,
                    first,
                    ..
                } => Some(first),
                _ => None,
            });
        let Some(reg) = reg else {
            return Err((rank, err(0..text.len(), "the DPP source must be a VGPR")));
        };
        let (code, word) = match dpp8 {
            Some(sel) => (if fi { 0xea } else { 0xe9 }, reg | sel << 8),
            None => (0xfa, dpp_word | reg | u32::from(fi) << 18),
        };
        if cand.invalid_dpp && dpp8.is_none() {
            alts.push(
                (0..0x200u32)
                    .map(|ctrl| {
                        let mut c = Choice::set(Field::Src0, code);
                        c.literal = Some(u64::from((word & !(0x1ff << 8)) | ctrl << 8));
                        c
                    })
                    .collect(),
            );
        } else {
            let mut c = Choice::set(Field::Src0, code);
            c.literal = Some(u64::from(word));
            alts.push(vec![c]);
        }
    } else if cand.invalid_dpp && enc.field(Field::DppCtrl).is_some() {
        alts.push(vec![Choice {
            solve: Some(Field::DppCtrl),
            ..Choice::default()
        }]);
    }
    search(dec, text, cand, raw, &alts, want_ops, symbolic, rank)
}

/// The choices of every operand of `cand` (after its returned vdst, if any).
fn operand_alts(
    dec: &Decoder,
    text: &str,
    cand: &Cand,
    symbolic: Option<&Symbolic>,
    alts: &mut Vec<Vec<Choice>>,
    rank_out: &mut u32,
) -> Result<(), Fail> {
    let enc = cand.enc;
    let op = cand.op;
    let mut rank = *rank_out;
    if enc.form == Form::Exp {
        return exp_alts(dec, text, cand, alts, rank);
    }
    // operands
    let mut ops = cand.ops;
    // gfx1250 FLAT (segment 0) with a scalar base: printed after the operands
    if enc.form == Form::Flat && !op.has_field(Field::Saddr) && enc.field(Field::Saddr).is_some() {
        if let Some((last, rest)) = ops.split_last() {
            if let Some(code) = match last.2 {
                Val::Reg {
                    class: Class::S | Class::Ttmp,
                    ..
                }
                | Val::Special { .. } => scalar_code(dec, &last.2),
                _ => None,
            } {
                alts.push(vec![Choice::set(Field::Saddr, code)]);
                ops = rest;
            }
        }
    }
    let rtn = op.flags & flags::GLC_RTN != 0 && ops.len() > op.operands.len();
    if rtn {
        if let Some(((r, m, v), rest)) = ops.split_first() {
            let mut ch = Vec::new();
            operand_choices(dec, cand, Field::Vdst, Ty::B32, m, v, r, &mut ch)
                .map_err(|e| (rank, e))?;
            alts.push(ch);
            ops = rest;
        }
    }
    let mut pi = 0;
    // loads to LDS (`lds`) have no data register
    let lds = matches!(enc.form, Form::Mubuf | Form::Flat)
        && text.split_whitespace().any(|w| w == "lds")
        && enc.field(Field::Lds).is_some();
    for od in op.operands {
        if lds
            && (od.role == Role::Field(Field::Vdata)
                || od.role == Role::Field(Field::Vdst) && enc.form == Form::Flat)
        {
            continue;
        }
        let Some((span, m, v)) = ops.get(pi) else {
            if od.ty == Ty::Opt16 {
                continue;
            }
            // MUBUF lds loads have no data operand
            if matches!(enc.form, Form::Mubuf | Form::Flat) && od.role == Role::Field(Field::Vdata)
                || od.role == Role::Field(Field::Vdst) && enc.form == Form::Flat
            {
                continue;
            }
            return Err((rank, err(text.len()..text.len(), "too few operands")));
        };
        rank += 10;
        let k64 = match v {
            Val::Lit64(x) if od.ty.bits() == 64 && dec.isa().generation == "gfx12" => {
                Some(*x as u64)
            }
            _ => None,
        };
        let field = match od.role {
            Role::Field(f) => Some(f),
            Role::FieldOr(f, _) if enc.field(f).is_some() => Some(f),
            Role::FieldOr(_, code) | Role::Fixed(code) => {
                // must name the fixed register
                let c = scalar_code(dec, v);
                let _ = code;
                if c.is_none() {
                    return Err((rank, err(span.clone(), "this operand is a fixed register")));
                }
                None
            }
            // gfx1250 `lit64(..)` K of v_fmamk/fmaak_f64: the 64-bit value as written
            Role::Literal if k64.is_some() => {
                alts.push(vec![Choice {
                    literal: k64,
                    wide: true,
                    ..Choice::default()
                }]);
                None
            }
            Role::Literal => {
                let bits = literal_bits(v, od.ty)
                    .ok_or_else(|| (rank, err(span.clone(), "expected a constant")))?;
                let mut c = Choice {
                    literal: Some(if od.ty.bits() == 64 && matches!(v, Val::Float(_)) {
                        bits >> 32
                    } else {
                        bits
                    }),
                    ..Choice::default()
                };
                let mut ch = vec![c.clone()];
                if od.ty.bits() == 64 && dec.isa().generation == "gfx12" {
                    // gfx1250: a 64-bit K; a 32-bit value of a double (unsigned, or
                    // signed as 0xffffffffffffffff is -1) is its high word, as llvm-mc-22
                    // takes it
                    c.wide = true;
                    let bits32 = bits >> 32 == 0 || i32::try_from(bits as i64).is_ok();
                    c.literal = Some(if od.ty.is_float() && bits32 {
                        bits << 32
                    } else {
                        bits
                    });
                    ch.insert(0, c);
                }
                alts.push(ch);
                None
            }
        };
        pi += 1;
        let Some(field) = field else { continue };
        let mut ch = Vec::new();
        let nsa = enc.field(Field::Nsa);
        let gfx12_image = field == Field::Vaddr
            && nsa.is_none()
            && enc.field(Field::Vaddr).is_some_and(|f| f.lo == 64);
        if let (Val::Other, true) = (v, gfx12_image) {
            // gfx12 image addresses: VGPRs 0-3 are the bytes of the third word
            let list = text[span.clone()]
                .trim()
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(|| (rank, err(span.clone(), "invalid image address")))?;
            let mut regs = Vec::new();
            for item in list.split(',') {
                match parse_reg(item.trim()) {
                    Some(Val::Reg {
                        class: Class::V,
                        first,
                        count,
                        ..
                    }) => regs.push((first, count)),
                    _ => {
                        return Err((rank, err(span.clone(), "an image address list holds VGPRs")))
                    }
                }
            }
            if regs.is_empty() || regs.len() > 4 {
                return Err((rank, err(span.clone(), "invalid image address list")));
            }
            let mut c = Choice::set(Field::Vaddr, regs[0].0);
            for (i, (r, _)) in regs.iter().enumerate().skip(1) {
                c.w2 |= (r & 0xff) << (8 * i);
            }
            ch.push(c);
        } else if let (Val::Other, Some(nsa), Field::Vaddr) = (v, nsa, field) {
            // gfx10/gfx11 image addresses that are not consecutive: `[v1, v5, v2]`
            let list = text[span.clone()]
                .trim()
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(|| (rank, err(span.clone(), "invalid image address")))?;
            let mut regs = Vec::new();
            for item in list.split(',') {
                match parse_reg(item.trim()) {
                    // (a tuple in the list, gfx11's last group: its first register)
                    Some(Val::Reg {
                        class: Class::V,
                        first,
                        ..
                    }) => regs.push(first),
                    _ => {
                        return Err((rank, err(span.clone(), "an image address list holds VGPRs")))
                    }
                }
            }
            let extra = &regs[1.min(regs.len())..];
            if regs.is_empty() || extra.len() > 12 || regs.iter().any(|&r| r > 255) {
                return Err((rank, err(span.clone(), "invalid image address list")));
            }
            let mut packed: u64 = 0;
            let mut third: u32 = 0;
            for (i, r) in extra.iter().enumerate() {
                if i < 8 {
                    packed |= u64::from(*r) << (8 * i);
                } else {
                    third |= r << (8 * (i - 8));
                }
            }
            let dwords = extra.len().div_ceil(4) as u32;
            let mut c = Choice::set(Field::Vaddr, regs[0]);
            c.sets.push(Set {
                field: Field::Nsa,
                value: if nsa.width == 1 { 1 } else { dwords },
                or: false,
            });
            c.literal = Some(packed);
            c.wide = dwords >= 2;
            // (a third address dword rides in w2, which two-word encodings do not use)
            c.w2 = third;
            ch.push(c);
        } else if od.ty == Ty::SmemOffset {
            smem_offset_choices(dec, enc, v, &mut ch);
        } else if od.ty == Ty::Label && symbolic.is_some_and(|s| s.span == *span) {
            ch.push(Choice::set(field, 0));
        } else if matches!(v, Val::Off) {
            // `off`: no scalar base / offset register
            if let Some(fd) = enc.field(field) {
                match fd.kind {
                    FieldKind::Vgpr => ch.push(Choice::set(field, 0)),
                    _ => {
                        let null = null_code(dec).unwrap_or(0x7f);
                        for c in [null, 0x7f, 0x80, 0] {
                            if u64::from(c) <= field_max(fd) {
                                ch.push(Choice::set(field, c));
                            }
                        }
                    }
                }
            }
        } else {
            operand_choices(dec, cand, field, od.ty, m, v, span, &mut ch).map_err(|e| (rank, e))?;
        }
        if ch.is_empty() {
            let msg = match *v {
                Val::Int(n) if !(-(1i64 << 31)..(1i64 << 32)).contains(&n) => format!(
                    "{} does not fit in a 32-bit literal{}",
                    text[span.clone()].trim(),
                    if od.ty.bits() == 64 {
                        " (64-bit literals: gfx1250)"
                    } else {
                        ""
                    }
                ),
                Val::Reg {
                    class: Class::V | Class::A,
                    ..
                } => "this operand takes no VGPR".to_string(),
                Val::Reg {
                    class: Class::S | Class::Ttmp,
                    ..
                }
                | Val::Special { .. } => "this operand takes no scalar register".to_string(),
                _ => "invalid operand for this instruction".to_string(),
            };
            return Err((rank, err(span.clone(), msg)));
        }
        alts.push(ch);
    }
    if enc.form == Form::Vintrp {
        // the parameter slot of v_interp_mov (p10, p20, p0) and `attrN.c`
        while let Some((span, _, v)) = ops.get(pi) {
            let t = text[span.clone()].trim();
            let c = match (*v, t) {
                (Val::Attr(n, c), _) => Choice {
                    sets: vec![
                        Set {
                            field: Field::Attr,
                            value: n,
                            or: false,
                        },
                        Set {
                            field: Field::Attrchan,
                            value: c,
                            or: false,
                        },
                    ],
                    ..Choice::default()
                },
                (_, "p10") => Choice::set(Field::Vsrc, 0),
                (_, "p20") => Choice::set(Field::Vsrc, 1),
                (_, "p0") => Choice::set(Field::Vsrc, 2),
                _ => match t
                    .strip_prefix("invalid_param_")
                    .and_then(|x| x.parse().ok())
                {
                    Some(n) => Choice::set(Field::Vsrc, n),
                    None => {
                        return Err((rank, err(span.clone(), "expected an attribute (attrN.x)")))
                    }
                },
            };
            alts.push(vec![c]);
            pi += 1;
        }
    }
    if pi < ops.len() {
        return Err((rank, err(ops[pi].0.clone(), "too many operands")));
    }
    *rank_out = rank;
    Ok(())
}

/// `exp TARGET SRC0, SRC1, SRC2, SRC3`: target, enable mask and sources.
fn exp_alts(
    dec: &Decoder,
    text: &str,
    cand: &Cand,
    alts: &mut Vec<Vec<Choice>>,
    rank: u32,
) -> Result<(), Fail> {
    let ops = cand.ops;
    let Some((first, _, _)) = ops.first() else {
        return Err((
            rank,
            err(0..text.len(), "exp takes a target and four sources"),
        ));
    };
    let t = &text[first.clone()];
    let (target, src0) = t.trim().split_once(char::is_whitespace).unwrap_or((t, ""));
    let gen = dec.isa().generation;
    let rdna = matches!(gen, "gfx10" | "gfx11" | "gfx12");
    let num = |p: &str| target.strip_prefix(p).and_then(|n| n.parse::<u32>().ok());
    let tgt = match target {
        "mrtz" => Some(8),
        "null" => Some(9),
        "prim" if rdna => Some(20),
        _ => num("mrt")
            .filter(|n| *n < 8)
            .or_else(|| num("pos").filter(|n| *n < 5).map(|n| 12 + n))
            .or_else(|| num("param").filter(|n| *n < 32).map(|n| 32 + n))
            .or_else(|| num("dual_src_blend").filter(|n| *n < 2).map(|n| 21 + n))
            .or_else(|| num("invalid_target_")),
    };
    let Some(tgt) = tgt else {
        return Err((rank, err(first.clone(), "unknown export target")));
    };
    let compr = cand.ops.len() >= 4 && text.contains("compr");
    let mut srcs: Vec<&str> = vec![src0.trim()];
    srcs.extend(ops[1..].iter().map(|(r, _, _)| text[r.clone()].trim()));
    if srcs.len() != 4 {
        return Err((rank, err(first.start..text.len(), "exp takes four sources")));
    }
    let fields = [Field::Vsrc0, Field::Vsrc1, Field::Vsrc2, Field::Vsrc3];
    let mut c = Choice::set(Field::Tgt, tgt);
    let mut en = 0;
    for (i, s) in srcs.iter().enumerate() {
        if *s == "off" {
            continue;
        }
        match parse_reg(s) {
            Some(Val::Reg {
                class: Class::V,
                first,
                count: 1,
                ..
            }) => {
                en |= 1 << i;
                let f = if compr { fields[i / 2] } else { fields[i] };
                c.sets.push(Set {
                    field: f,
                    value: first,
                    or: false,
                });
            }
            _ => {
                return Err((
                    rank,
                    err(first.clone(), "an export source is a VGPR or off"),
                ))
            }
        }
    }
    c.sets.push(Set {
        field: Field::En,
        value: en,
        or: false,
    });
    alts.push(vec![c]);
    Ok(())
}

/// Enumerate the product of the choices, verify each by decoding it back.
#[allow(clippy::too_many_arguments)]
fn search(
    dec: &Decoder,
    text: &str,
    cand: &Cand,
    raw: u64,
    alts: &[Vec<Choice>],
    want_ops: &str,
    symbolic: Option<&Symbolic>,
    rank: u32,
) -> Result<(Vec<u8>, Option<AsmError>, bool), Fail> {
    let enc = cand.enc;
    let op = cand.op;
    let total: usize = alts.iter().map(|a| a.len().max(1)).product();
    let limit = total.min(4096);
    let mut first_warn: Option<(Vec<u8>, AsmError)> = None;
    let mut first_ok: Option<Vec<u8>> = None;
    let mut last_text = String::new();
    for n in 0..limit {
        let mut k = n;
        let mut r = raw;
        let mut w2: u32 = 0;
        let mut literal: Option<u64> = None;
        let mut wide = false;
        let mut solve: Option<Field> = None;
        let mut touched: u64 = 0; // fields replaced (clear defaults once)
        let mut bad = false;
        for a in alts {
            if a.is_empty() {
                continue;
            }
            let c = &a[k % a.len()];
            k /= a.len();
            for s in &c.sets {
                let Some(fd) = enc.field(s.field) else {
                    bad = true;
                    break;
                };
                if u64::from(s.value) > field_max(fd) {
                    bad = true;
                    break;
                }
                let bit = 1u64 << (s.field as u32 % 64);
                if fd.lo >= 64 {
                    let lo = fd.lo - 64;
                    let mask = (field_max(fd) as u32) << lo;
                    if !s.or || touched & bit == 0 {
                        w2 &= !mask;
                    }
                    w2 |= s.value << lo;
                } else {
                    let mask = field_max(fd) << fd.lo;
                    if !s.or || touched & bit == 0 {
                        r &= !mask;
                    }
                    r |= u64::from(s.value) << fd.lo;
                }
                touched |= bit;
            }
            w2 |= c.w2;
            if let Some(l) = c.literal {
                if literal.is_some_and(|x| x != l) {
                    bad = true;
                }
                literal = Some(l);
                wide |= c.wide;
            }
            if c.solve.is_some() {
                solve = c.solve;
            }
        }
        if bad {
            continue;
        }
        if symbolic.is_some_and(|s| wide_variant(s.variant) != wide) {
            continue;
        }
        let lit = literal.map(|l| (l, wide));
        let res = match solve {
            Some(f) => {
                solve_field(dec, cand, f, r, w2, lit, want_ops, text).map(|(b, w)| (b, w, true))
            }
            None => verify(dec, cand, r, w2, lit, (want_ops, text), &mut last_text),
        };
        match res {
            Some((bytes, None, true)) => return Ok((bytes, None, true)),
            Some((bytes, None, false)) if first_ok.is_none() => first_ok = Some(bytes),
            Some((bytes, Some(w), _)) if first_warn.is_none() => first_warn = Some((bytes, w)),
            _ => {}
        }
    }
    if let Some(b) = first_ok {
        return Ok((b, None, false));
    }
    if let Some((b, w)) = first_warn {
        return Ok((b, Some(w), false));
    }
    let msg = if last_text.is_empty() {
        format!("invalid operands for {}", op.mnemonic)
    } else {
        format!(
            "invalid operands for {} (the nearest encoding reads back as '{}')",
            op.mnemonic, last_text
        )
    };
    let span = cand
        .ops
        .first()
        .map_or(0..text.len(), |f| f.0.start..text.len());
    Err((rank, err(span, msg)))
}

fn smem_offset_choices(dec: &Decoder, enc: &EncodingDesc, v: &Val, out: &mut Vec<Choice>) {
    match *v {
        Val::Int(n)
            if enc.words == 1
                && enc
                    .field(Field::Offset)
                    .is_some_and(|f| n as u64 > field_max(f))
                && (0..1i64 << 32).contains(&n) =>
        {
            // gfx7 SMRD: a 32-bit literal offset (offset code 255, imm clear)
            let mut c = Choice::set(Field::Offset, 255);
            c.sets.push(Set {
                field: Field::Imm,
                value: 0,
                or: false,
            });
            c.literal = Some(n as u64);
            out.push(c);
        }
        Val::Int(n) => {
            let mut c = Choice::default();
            if let Some(fd) = enc.field(Field::Offset) {
                c.sets.push(Set {
                    field: Field::Offset,
                    value: (n as u64 & field_max(fd)) as u32,
                    or: false,
                });
            }
            if enc.field(Field::Imm).is_some() {
                c.sets.push(Set {
                    field: Field::Imm,
                    value: 1,
                    or: false,
                });
            }
            if enc.field(Field::Soffset).is_some() && enc.field(Field::Soe).is_none() {
                if let Some(null) = null_code(dec) {
                    c.sets.push(Set {
                        field: Field::Soffset,
                        value: null,
                        or: false,
                    });
                }
            }
            out.push(c);
        }
        _ => {
            if let Some(code) = scalar_code(dec, v) {
                // gfx8/gfx9: offset field holds the SGPR (imm 0); or soffset + soe
                let mut c = Choice::set(Field::Offset, code);
                if enc.field(Field::Imm).is_some() {
                    c.sets.push(Set {
                        field: Field::Imm,
                        value: 0,
                        or: false,
                    });
                }
                out.push(c);
                if enc.field(Field::Soffset).is_some() {
                    let mut c = Choice::set(Field::Soffset, code);
                    if enc.field(Field::Soe).is_some() {
                        c.sets.push(Set {
                            field: Field::Soe,
                            value: 1,
                            or: false,
                        });
                    }
                    out.push(c);
                }
            }
        }
    }
}

fn bytes_of(
    enc: &EncodingDesc,
    raw: u64,
    w2: u32,
    literal: Option<(u64, bool)>,
    out: &mut Vec<u8>,
) {
    out.clear();
    out.extend_from_slice(&(raw as u32).to_le_bytes());
    if enc.words >= 2 {
        out.extend_from_slice(&((raw >> 32) as u32).to_le_bytes());
    }
    if enc.words >= 3 {
        out.extend_from_slice(&w2.to_le_bytes());
    }
    if let Some((l, wide)) = literal {
        out.extend_from_slice(&(l as u32).to_le_bytes());
        if wide {
            out.extend_from_slice(&((l >> 32) as u32).to_le_bytes());
        }
    }
    // gfx10 image NSA: addresses 9-12 in a third dword after the other two
    if enc.words < 3 && w2 != 0 {
        out.extend_from_slice(&w2.to_le_bytes());
    }
}

/// Decode the candidate and compare it with the statement (`want`: its operands as
/// they should print, and its source text).
fn verify(
    dec: &Decoder,
    cand: &Cand,
    raw: u64,
    w2: u32,
    literal: Option<(u64, bool)>,
    (want_ops, text): (&str, &str),
    last_text: &mut String,
) -> Option<(Vec<u8>, Option<AsmError>, bool)> {
    let mut bytes = Vec::with_capacity(16);
    let lits: &[Option<(u64, bool)>] = match literal {
        // a 32-bit literal slot holds 32 bits
        Some((l, false)) if l >> 32 != 0 => &[],
        _ => &[literal],
    };
    for &lit in lits {
        bytes_of(cand.enc, raw, w2, lit, &mut bytes);
        let Ok(inst) = dec.decode(&bytes) else {
            continue;
        };
        if usize::from(inst.size) != bytes.len()
            || inst.op != cand.op_index
            || usize::from(inst.encoding) != cand.ei
        {
            continue;
        }
        let m = printed_matches(dec, &inst, want_ops, cand.exact, last_text);
        if m == 0 {
            continue;
        }
        // gfx1250 VOP3 takes a 64-bit literal written `lit64(..)` (llvm-mc-22 encodes
        // it, llvm-objdump-22 reads it back), though not a plain value wider than 32
        // bits, which llvm-mc-22 rejects and `rule literal64` records
        let explicit_lit64 = cand.enc.form == Form::Vop3
            && inst.operands.contains(&crate::Operand::Literal64)
            && text.contains("lit64(");
        let warn = (!explicit_lit64)
            .then(|| dec.check_rules(&inst).err())
            .flatten()
            .map(|e| AsmError {
                span: 0..0,
                message: format!(
                    "{e} (encoded anyway: the decoder reads these bytes back as this text)"
                ),
            });
        return Some((bytes, warn, m == 2));
    }
    None
}

fn printed_matches(
    dec: &Decoder,
    inst: &Instruction,
    want_ops: &str,
    exact: &str,
    last_text: &mut String,
) -> u8 {
    BUFS.with(|b| {
        let mut b = b.borrow_mut();
        let (p, c) = &mut *b;
        p.clear();
        crate::print::print(dec, inst, p);
        let after = p.find(' ').unwrap_or(p.len());
        canon(&p[after..], c);
        let got_ops = c.as_str();
        if !exact.is_empty() && matches(exact, got_ops) {
            return 2;
        }
        let mut ok = matches(want_ops, got_ops);
        if !ok {
            ok = lenient_match(dec, inst, want_ops, got_ops);
        }
        if !ok {
            last_text.clone_from(p);
        }
        // (without an exact text every match counts as exact)
        match (ok, exact.is_empty()) {
            (false, _) => 0,
            (true, true) => 2,
            (true, false) => 1,
        }
    })
}

/// The printed forms the text may leave out or write otherwise, applied in turn to
/// the printed operands: modifiers at their default value, `.l` of true16 operands
/// written as whole registers, the op_sel of true16 halves, gfx6-gfx9 image widths.
fn lenient_match(dec: &Decoder, inst: &Instruction, want_ops: &str, got_ops: &str) -> bool {
    let form = dec.encoding(inst).form;
    let dpp_sdwa = matches!(form, Form::Dpp | Form::Sdwa) || dec.vop3_dpp(inst).is_some();
    if !dpp_sdwa
        && form != Form::Mimg
        && !got_ops.contains(".l")
        && !want_ops.contains(".h")
        && !want_ops.contains("swizzle(")
    {
        return false;
    }
    let mut g = got_ops.to_string();
    for d in [
        " row_mask:15",
        " bank_mask:15",
        " dst_sel:dword",
        " dst_unused:unused_preserve",
        " src0_sel:dword",
        " src1_sel:dword",
    ] {
        if !dpp_sdwa {
            break;
        }
        let name = &d[..d.find(':').unwrap_or(d.len()) + 1];
        if !want_ops.contains(name) {
            if let Some(p) = g.find(d) {
                g.replace_range(p..p + d.len(), "");
            }
        }
    }
    if g != got_ops && matches(want_ops, &g) {
        return true;
    }
    if g.contains(".l") && !want_ops.contains(".l") && !want_ops.contains(".h") {
        g = g.replace(".l", "");
        if matches(want_ops, &g) {
            return true;
        }
    }
    if want_ops.contains(".h") && !want_ops.contains("op_sel:") {
        if let Some(p) = g.find(" op_sel:[") {
            let end = g[p..].find(']').map_or(g.len(), |e| p + e + 1);
            g = format!("{}{}", &g[..p], &g[end..]);
            if matches(want_ops, &g) {
                return true;
            }
        }
    }
    if let (Some(a), Some(b)) = (want_ops.find("swizzle("), g.find("swizzle(")) {
        // one swizzle pattern has several spellings: compare the offsets
        let end = |s: &str, p: usize| s[p..].find(')').map_or(s.len(), |e| p + e + 1);
        let (ea, eb) = (end(want_ops, a), end(&g, b));
        let value = |t: &str| swizzle(&format!("swizzle({}", t[8..].to_ascii_uppercase()));
        if want_ops[..a] == g[..b]
            && want_ops[ea..] == g[eb..]
            && value(&want_ops[a..ea]).is_some_and(|x| Some(x) == value(&g[b..eb]))
        {
            return true;
        }
    }
    dec.encoding(inst).form == Form::Mimg && matches(&first_regs(want_ops), &first_regs(&g))
}

/// `v[a:b]` -> `va` (image address and data widths compared by first register).
fn first_regs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find("v[") {
        out.push_str(&rest[..p + 1]);
        let r = &rest[p + 2..];
        match r.find(']') {
            Some(e) => {
                out.push_str(r[..e].split(':').next().unwrap_or(""));
                rest = &r[e + 1..];
            }
            None => {
                out.push('[');
                rest = r;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Values of a special-immediate field verified one by one before a [`SolveTable`]
/// is made.
const SOLVE_SCAN: u32 = 4095;

/// (processor, op, encoding, field position, other bits, third word, literal).
type TableKey = (&'static str, u16, u16, u8, u64, u32, Option<(u64, bool)>);

fn solve_tables() -> &'static Mutex<HashMap<TableKey, std::sync::Arc<SolveTable>>> {
    static T: OnceLock<Mutex<HashMap<TableKey, std::sync::Arc<SolveTable>>>> = OnceLock::new();
    T.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The printed operand text of every value of a special-immediate field, the rest
/// of the instruction fixed (s_waitcnt's counters, hwreg(...), ...): a statement's
/// value is then among the few whose text is its own, found without printing all of
/// them again. Entries are `hash(text) & !0xffff | value`, sorted: a hash collision
/// only adds a value that verification rejects.
struct SolveTable {
    entries: Vec<u64>,
    /// False when the printed texts can match in other ways than by equality (DPP,
    /// SDWA, image or true16 forms, see `lenient_match`): not used then.
    usable: bool,
}

impl SolveTable {
    fn build(
        dec: &Decoder,
        cand: &Cand,
        max: u32,
        literal: Option<(u64, bool)>,
        place: &dyn Fn(u32) -> (u64, u32),
    ) -> SolveTable {
        let mut entries = Vec::with_capacity(max as usize + 1);
        let mut usable = true;
        let mut bytes = Vec::with_capacity(16);
        let (mut p, mut c) = (String::new(), String::new());
        if matches!(literal, Some((l, false)) if l >> 32 != 0) {
            // (verify tries no encoding then)
            return SolveTable { entries, usable };
        }
        for v in 0..=max {
            let (r, w) = place(v);
            bytes_of(cand.enc, r, w, literal, &mut bytes);
            let Ok(inst) = dec.decode(&bytes) else {
                continue;
            };
            if usize::from(inst.size) != bytes.len()
                || inst.op != cand.op_index
                || usize::from(inst.encoding) != cand.ei
            {
                continue;
            }
            let form = dec.encoding(&inst).form;
            p.clear();
            crate::print::print(dec, &inst, &mut p);
            let after = p.find(' ').unwrap_or(p.len());
            canon(&p[after..], &mut c);
            if matches!(form, Form::Dpp | Form::Sdwa | Form::Mimg)
                || dec.vop3_dpp(&inst).is_some()
                || c.contains(".l")
            {
                usable = false;
                break;
            }
            entries.push(text_hash(&c) & !0xffff | u64::from(v));
        }
        entries.sort_unstable();
        SolveTable { entries, usable }
    }

    /// The values whose text may be `want` or `exact` (non-empty), in increasing order.
    fn values(&self, want: &str, exact: &str) -> Vec<u32> {
        let mut out = Vec::new();
        for t in [want, exact] {
            if t.is_empty() {
                continue;
            }
            let h = text_hash(t) & !0xffff;
            let start = self.entries.partition_point(|&e| e < h);
            for &e in &self.entries[start..] {
                if e & !0xffff != h {
                    break;
                }
                out.push((e & 0xffff) as u32);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

fn text_hash(s: &str) -> u64 {
    fast_hash(s.as_bytes())
}

/// Whether `matches(t, printed)` is `t == printed` for every printed text (no
/// wildcard, no negative number, no `0` that may match `null`) and `lenient_match`
/// does not apply to `t` (no `.h`, no swizzle): a [`SolveTable`] then finds every
/// value that verifies.
fn plain_text(t: &str) -> bool {
    let b = t.as_bytes();
    !t.contains('\u{1}')
        && !t.contains(".h")
        && !t.contains("swizzle(")
        && b.iter().enumerate().all(|(i, &c)| match c {
            b'-' => !b.get(i + 1).is_some_and(u8::is_ascii_digit),
            b'0' => b.get(i + 1).is_some_and(|&n| n != b',' && n != b' '),
            _ => true,
        })
}

/// Search the value of `field` (a special immediate: waitcnt, hwreg, swizzle, ...)
/// whose printed text matches; cached per processor, op and text.
#[allow(clippy::too_many_arguments)]
fn solve_field(
    dec: &Decoder,
    cand: &Cand,
    field: Field,
    raw: u64,
    w2: u32,
    literal: Option<(u64, bool)>,
    want_ops: &str,
    text: &str,
) -> Option<(Vec<u8>, Option<AsmError>)> {
    let fd = cand.enc.field(field)?;
    let key = (
        dec.processor(),
        cand.op_index,
        cand.ei as u8,
        want_ops.to_string(),
    );
    let cached = solve_cache().lock().ok().and_then(|c| c.get(&key).copied());
    let place = |v: u32| -> (u64, u32) {
        if fd.lo >= 64 {
            let lo = fd.lo - 64;
            let mask = (field_max(fd) as u32) << lo;
            (raw, (w2 & !mask) | v << lo)
        } else {
            let mask = field_max(fd) << fd.lo;
            ((raw & !mask) | u64::from(v) << fd.lo, w2)
        }
    };
    let mut scratch = String::new();
    if let Some(c) = cached {
        let v = c?;
        let (r, w) = place(v);
        return verify(dec, cand, r, w, literal, (want_ops, text), &mut scratch)
            .map(|(b, w, _)| (b, w));
    }
    let max = field_max(fd).min(0xffff) as u32;
    let mut found = None;
    let mut warn_hit = None;
    // the values in order, each verified; past the first few thousand, the printed
    // text of every value is worked out once (a `SolveTable`) and only the values
    // whose text is the statement's are verified, in the same order
    let table_key = (
        dec.processor(),
        cand.op_index,
        cand.ei as u16,
        fd.lo,
        raw,
        w2,
        literal,
    );
    let known = solve_tables()
        .lock()
        .ok()
        .and_then(|t| t.get(&table_key).cloned());
    let tabled = plain_text(want_ops) && plain_text(cand.exact);
    let mut try_value = |v: u32| -> bool {
        let (r, w) = place(v);
        match verify(dec, cand, r, w, literal, (want_ops, text), &mut scratch)
            .map(|(b, w, _)| (b, w))
        {
            Some((b, None)) => {
                found = Some((v, b));
                true
            }
            Some((b, Some(e))) if warn_hit.is_none() => {
                warn_hit = Some((v, b, e));
                false
            }
            _ => false,
        }
    };
    match known {
        Some(t) if t.usable && tabled => {
            for v in t.values(want_ops, cand.exact) {
                if try_value(v) {
                    break;
                }
            }
        }
        known => {
            let mut done = false;
            for v in 0..=max.min(SOLVE_SCAN) {
                if try_value(v) {
                    done = true;
                    break;
                }
            }
            if !done && max > SOLVE_SCAN {
                let t = known.unwrap_or_else(|| {
                    let t = std::sync::Arc::new(SolveTable::build(dec, cand, max, literal, &place));
                    if let Ok(mut all) = solve_tables().lock() {
                        if all.len() >= 32 {
                            all.clear();
                        }
                        all.insert(table_key, t.clone());
                    }
                    t
                });
                if t.usable && tabled {
                    for v in t.values(want_ops, cand.exact) {
                        if v > SOLVE_SCAN && try_value(v) {
                            break;
                        }
                    }
                } else {
                    for v in SOLVE_SCAN + 1..=max {
                        if try_value(v) {
                            break;
                        }
                    }
                }
            }
        }
    }
    if let Ok(mut c) = solve_cache().lock() {
        if c.len() >= 1 << 16 {
            c.clear();
        }
        c.insert(
            key,
            found
                .as_ref()
                .map(|x| x.0)
                .or(warn_hit.as_ref().map(|x| x.0)),
        );
    }
    match (found, warn_hit) {
        (Some((_, b)), _) => Some((b, None)),
        (None, Some((_, b, e))) => Some((b, Some(e))),
        _ => None,
    }
}

/// Dual-issue statements: `v_dual_X ... :: v_dual_Y ...`.
fn encode_vopd(
    dec: &Decoder,
    text: &str,
    orig: &str,
    sep: usize,
    syms: &mut dyn SymbolLookup,
    out: &mut Vec<u8>,
) -> Result<Encoded, AsmError> {
    let isa = dec.isa();
    let pb = dec.proc_bit();
    let halves = [
        lex::split(text, 0..sep),
        lex::split(text, sep + 2..text.len()),
    ];
    let mut parsed: [Vec<(Range<usize>, Mods, Val)>; 2] = [Vec::new(), Vec::new()];
    for (h, st) in halves.iter().enumerate() {
        for r in &st.operands {
            let (m, mut v) = parse_operand(&text[r.clone()]);
            if v == Val::Other {
                match syms.expr(&text[r.clone()]) {
                    Ok(ExprValue::Const(c)) => v = Val::Int(c),
                    Ok(ExprValue::Symbolic { .. }) => {
                        return Err(err(
                            r.clone(),
                            "a dual-issue instruction takes no symbolic operand",
                        ))
                    }
                    Err(e) => return Err(err(r.clone(), e)),
                }
            }
            parsed[h].push((r.clone(), m, v));
        }
        // gfx1250 `bitop3:N`: the truth table operand of v_dual_bitop2_b32
        for m in &st.modifiers {
            match text[m.clone()].strip_prefix("bitop3:").and_then(parse_int) {
                Some(n) => parsed[h].push((m.clone(), Mods::default(), Val::Int(n))),
                None => return Err(err(m.clone(), "unexpected modifier in a dual-issue half")),
            }
        }
    }
    // numbers are wildcards, as in a plain statement
    let mut want_text = String::with_capacity(orig.len());
    let mut last = halves[0].mnemonic.end;
    for (r, _, v) in parsed.iter().flatten() {
        if !matches!(
            v,
            Val::Int(_) | Val::Float(_) | Val::Lit(..) | Val::Lit64(_)
        ) || r.start < last
        {
            continue;
        }
        let tt = text[r.clone()].trim();
        let num = tt
            .strip_prefix("-|")
            .or_else(|| tt.strip_prefix('|'))
            .and_then(|x| x.strip_suffix('|'))
            .unwrap_or(tt);
        if let Some(p) = text[r.clone()].find(num).filter(|_| !num.is_empty()) {
            want_text.push_str(&orig[last..r.start + p]);
            want_text.push('\u{1}');
            last = r.start + p + num.len();
        }
    }
    want_text.push_str(&orig[last..]);
    let mut want_ops = String::new();
    canon(&want_text, &mut want_ops);
    let mut want_exact = String::new();
    canon(&orig[halves[0].mnemonic.end..], &mut want_exact);
    let find = |st: &Statement, y: bool| -> Vec<(u16, usize, u16)> {
        let m = text[st.mnemonic.clone()].to_ascii_lowercase();
        let mut v = Vec::new();
        if let Some(ops) = index(dec).get(m.as_str()) {
            for &oi in ops {
                let op = &isa.ops[usize::from(oi)];
                if op.procs & pb == 0 {
                    continue;
                }
                for &(e, key) in op.encodings {
                    let ei = usize::from(e);
                    let enc = &isa.encodings[ei];
                    if enc.form == Form::Vopd
                        && enc.name.ends_with('Y') == y
                        && row_has(isa, ei, key, oi, pb)
                    {
                        v.push((oi, ei, key));
                    }
                }
            }
        }
        v
    };
    let xs = find(&halves[0], false);
    let ys = find(&halves[1], true);
    if xs.is_empty() {
        return Err(err(
            halves[0].mnemonic.clone(),
            "not an X operation of a dual-issue instruction",
        ));
    }
    if ys.is_empty() {
        return Err(err(
            halves[1].mnemonic.clone(),
            "not a Y operation of a dual-issue instruction",
        ));
    }
    let mut best = Best { err: None };
    let mut fallback = None;
    let mut wild: Option<Vec<u8>> = None;
    for &(ox, ex, kx) in &xs {
        for &(oy, ey, ky) in &ys {
            let (encx, ency) = (&isa.encodings[ex], &isa.encodings[ey]);
            if ency.name.len() != encx.name.len() + 1 || !ency.name.starts_with(encx.name) {
                continue;
            }
            let cx = Cand {
                op_index: ox,
                op: &isa.ops[usize::from(ox)],
                ei: ex,
                enc: encx,
                key: kx,
                ops: &parsed[0],
                dpp: false,
                invalid_dpp: false,
                exact: &want_exact,
            };
            let cy = Cand {
                op_index: oy,
                op: &isa.ops[usize::from(oy)],
                ei: ey,
                enc: ency,
                key: ky,
                ops: &parsed[1],
                dpp: false,
                invalid_dpp: false,
                exact: &want_exact,
            };
            let mut raw = u64::from(encx.match_bits);
            let mut put = |enc: &EncodingDesc, f: Field, v: u32| {
                if let Some(fd) = enc.field(f) {
                    raw |= (u64::from(v) & field_max(fd)) << fd.lo;
                }
            };
            put(encx, encx.key[0], u32::from(kx));
            put(encx, Field::Opy, u32::from(ky));
            let mut alts = Vec::new();
            let mut rank = 10;
            let r = operand_alts(dec, text, &cx, None, &mut alts, &mut rank)
                .and_then(|_| operand_alts(dec, text, &cy, None, &mut alts, &mut rank))
                .and_then(|_| search(dec, text, &cx, raw, &alts, &want_ops, None, rank));
            match r {
                Ok((bytes, None, true)) => {
                    let size = bytes.len() as u8;
                    out.extend_from_slice(&bytes);
                    return Ok(Encoded {
                        size,
                        fixup: None,
                        warning: None,
                    });
                }
                Ok((bytes, None, false)) => {
                    if wild.is_none() {
                        wild = Some(bytes);
                    }
                }
                Ok((bytes, Some(w), _)) => {
                    if fallback.is_none() {
                        fallback = Some((bytes, w));
                    }
                }
                Err((rank, e)) => best.note(rank, e),
            }
        }
    }
    if let Some(bytes) = wild {
        let size = bytes.len() as u8;
        out.extend_from_slice(&bytes);
        return Ok(Encoded {
            size,
            fixup: None,
            warning: None,
        });
    }
    if let Some((bytes, w)) = fallback {
        let size = bytes.len() as u8;
        out.extend_from_slice(&bytes);
        return Ok(Encoded {
            size,
            fixup: None,
            warning: Some(w),
        });
    }
    Err(best
        .err
        .map(|(_, e)| e)
        .unwrap_or_else(|| err(0..text.len(), "invalid dual-issue instruction")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_matching() {
        let (mut a, mut b) = (String::new(), String::new());
        canon("-1", &mut a);
        canon("0xffff", &mut b);
        assert!(matches(&a, &b), "{a:?} {b:?}");
        canon("s[4:5],  0x0", &mut a);
        canon("s[4:5], null", &mut b);
        assert!(matches(&a, &b), "{a:?} {b:?}");
    }
}

#[cfg(test)]
mod cache_tests {
    use crate::asm::{Assembler, NoSymbols};

    /// Special immediates far into the search (past `SOLVE_SCAN`, so through the
    /// table), with and without the statement cache, in an order where the table is
    /// made by one statement and used by the next; bytes from llvm-mc-22
    /// -show-encoding.
    #[test]
    fn special_immediates_through_the_table() {
        let cases: &[(&str, &str, [u8; 4])] = &[
            ("gfx1100", "s_waitcnt lgkmcnt(1)", [0x17, 0xfc, 0x89, 0xbf]),
            (
                "gfx1100",
                "s_waitcnt vmcnt(0) lgkmcnt(0)",
                [0x07, 0x00, 0x89, 0xbf],
            ),
            (
                "gfx1100",
                "s_waitcnt vmcnt(3) expcnt(2) lgkmcnt(5)",
                [0x52, 0x0c, 0x89, 0xbf],
            ),
            ("gfx1100", "s_waitcnt lgkmcnt(0)", [0x07, 0xfc, 0x89, 0xbf]),
            ("gfx1100", "s_waitcnt expcnt(0)", [0xf0, 0xff, 0x89, 0xbf]),
            ("gfx90a", "s_waitcnt lgkmcnt(1)", [0x7f, 0xc1, 0x8c, 0xbf]),
            (
                "gfx90a",
                "s_waitcnt vmcnt(0) lgkmcnt(0)",
                [0x70, 0x00, 0x8c, 0xbf],
            ),
            (
                "gfx90a",
                "s_waitcnt vmcnt(3) expcnt(2) lgkmcnt(5)",
                [0x23, 0x05, 0x8c, 0xbf],
            ),
            ("gfx90a", "s_waitcnt lgkmcnt(0)", [0x7f, 0xc0, 0x8c, 0xbf]),
            ("gfx90a", "s_waitcnt expcnt(0)", [0x0f, 0xcf, 0x8c, 0xbf]),
            (
                "gfx90a",
                "s_getreg_b32 s3, hwreg(HW_REG_MODE, 0, 4)",
                [0x01, 0x18, 0x83, 0xb8],
            ),
            (
                "gfx90a",
                "s_getreg_b32 s5, hwreg(HW_REG_MODE, 2, 3)",
                [0x81, 0x10, 0x85, 0xb8],
            ),
        ];
        for cached in [false, true] {
            for (p, text, want) in cases {
                let mut a = Assembler::for_processor(p).unwrap();
                if !cached {
                    a = a.uncached();
                }
                let mut out = Vec::new();
                let r = a.encode(text, 0, &mut NoSymbols, &mut out);
                assert!(r.is_ok(), "{p} {text}: {r:?}");
                assert_eq!(out, want, "{p} {text}");
            }
        }
    }

    /// The statement cache gives what encoding from scratch gives: bytes, warnings
    /// and errors, also after its table has grown.
    #[test]
    fn statement_cache_is_transparent() {
        let mut texts: Vec<String> = (0..3000).map(|i| format!("s_mov_b32 s1, {i}")).collect();
        // (gfx9: a zero word reads back as a v_cndmask_b32 that breaks the constant
        // bus rule: encoded with a warning)
        texts.push("v_cndmask_b32_e32 v0, s0, v0, vcc".to_string());
        texts.push("v_add_f32 v0, v1".to_string());
        texts.push("s_foo s0".to_string());
        let cached = Assembler::for_processor("gfx900").unwrap();
        let fresh = cached.uncached();
        let mut warned = false;
        for round in 0..2 {
            for t in &texts {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let ra = cached.encode(t, 0, &mut NoSymbols, &mut a);
                let rb = fresh.encode(t, 0, &mut NoSymbols, &mut b);
                assert_eq!(ra, rb, "round {round}: {t}");
                assert_eq!(a, b, "round {round}: {t}");
                warned |= ra.is_ok_and(|e| e.warning.is_some());
            }
        }
        assert!(warned);
    }

    #[test]
    fn plain_texts() {
        use super::plain_text;
        assert!(plain_text("lgkmcnt(0)"));
        assert!(plain_text("vmcnt(0) lgkmcnt(10)"));
        assert!(plain_text(""));
        assert!(!plain_text("s0, \u{1}"));
        assert!(!plain_text("s0, -4"));
        assert!(!plain_text("s[4:5], 0"));
        assert!(!plain_text("s[4:5], 0, s6"));
        assert!(!plain_text("v0.h"));
        assert!(!plain_text("offset:swizzle(quad_perm,[0,1,2,3])"));
    }
}

#[cfg(test)]
mod error_tests {
    use crate::asm::{Assembler, NoSymbols};

    /// (processor, statement, span text, message)
    const CASES: &[(&str, &str, &str, &str)] = &[
        (
            "gfx900",
            "s_foo s0",
            "s_foo",
            "unknown instruction 's_foo' for gfx900",
        ),
        (
            "gfx900",
            "v_add_f32_e32 v0, v1, s2",
            "s2",
            "this operand takes a VGPR",
        ),
        (
            "gfx900",
            "s_mov_b64 s[3:4], s[6:7]",
            "s[3:4]",
            "s[3:4] is not aligned: 64-bit SGPR pairs start at an even register",
        ),
        (
            "gfx900",
            "s_load_dword s0, s[3:4], 0x0",
            "s[3:4]",
            "s[3:4] is not aligned: this register tuple starts at a multiple of 2",
        ),
        (
            "gfx900",
            "v_mov_b32 v0, v[1:2]",
            "v[1:2]",
            "v[1:2] is 64 bits wide; this operand takes 32",
        ),
        (
            "gfx900",
            "s_mov_b32 s0, 0x123456789",
            "0x123456789",
            "0x123456789 does not fit in a 32-bit literal",
        ),
    ];

    struct Syms;

    impl crate::asm::SymbolLookup for Syms {
        fn expr(&mut self, text: &str) -> Result<crate::asm::ExprValue, String> {
            let (sym, variant, addend) = match text {
                "foo@rel32@lo+4" => ("foo", crate::asm::RelocVariant::Rel32Lo, 4),
                "bar@rel64+4" => ("bar", crate::asm::RelocVariant::Rel64, 4),
                ".LBB0_2" => (".LBB0_2", crate::asm::RelocVariant::None, 0),
                _ => return Err(format!("no {text}")),
            };
            Ok(crate::asm::ExprValue::Symbolic {
                symbol: sym.to_string(),
                addend,
                variant,
            })
        }
    }

    /// Symbolic operands: zero bytes where llvm-mc-22 -show-encoding shows its fixup
    /// (`A`), at the offset it names.
    #[test]
    fn fixups() {
        use crate::asm::FixupKind::*;
        for (p, text, bytes, offset, kind) in [
            (
                "gfx900",
                "s_add_u32 s4, s4, foo@rel32@lo+4",
                &[0x04, 0xff, 0x04, 0x80, 0, 0, 0, 0][..],
                4,
                Literal32,
            ),
            (
                "gfx900",
                "s_cbranch_scc1 .LBB0_2",
                &[0, 0, 0x85, 0xbf][..],
                0,
                Branch16,
            ),
            (
                "gfx1250",
                "s_add_nc_u64 s[0:1], s[0:1], bar@rel64+4",
                &[0x00, 0xfe, 0x80, 0xa9, 0, 0, 0, 0, 0, 0, 0, 0][..],
                4,
                Literal64,
            ),
        ] {
            let asm = Assembler::for_processor(p).expect("processor");
            let mut out = Vec::new();
            let e = asm.encode(text, 0, &mut Syms, &mut out).expect(text);
            assert_eq!(out, bytes, "{text}");
            let f = e.fixup.expect("fixup");
            assert_eq!((f.offset, f.kind), (offset, kind), "{text}");
        }
    }

    /// Hand-written forms the printer does not write (numbers in other spellings, no
    /// suffix, `neg()` of a constant, 64-bit literals); bytes from llvm-mc-22
    /// -show-encoding.
    #[test]
    fn written_forms() {
        for (p, text, bytes) in [
            (
                "gfx1100",
                "v_mov_b32 v0, 0x3f800000",
                &[0xf2, 0x02, 0x00, 0x7e][..],
            ),
            ("gfx1100", "s_waitcnt 0", &[0x00, 0x00, 0x89, 0xbf][..]),
            (
                "gfx1100",
                "v_add_f16 v0, 0x3c00, v1",
                &[0xf2, 0x02, 0x00, 0x64][..],
            ),
            (
                "gfx1100",
                "v_add_f16 v0, 1.5, v1",
                &[0xff, 0x02, 0x00, 0x64, 0x00, 0x3e, 0x00, 0x00][..],
            ),
            (
                "gfx1100",
                "v_add_f32 v0, neg(1.0), v1",
                &[0xf3, 0x02, 0x00, 0x06][..],
            ),
            (
                "gfx1100",
                "v_add_f32_e64 v0, -|0.5|, v1",
                &[0x00, 0x01, 0x03, 0xd5, 0xf0, 0x02, 0x02, 0x20][..],
            ),
            (
                "gfx1100",
                "v_mov_b32 v0, lit(1.0)",
                &[0xff, 0x02, 0x00, 0x7e, 0x00, 0x00, 0x80, 0x3f][..],
            ),
            (
                "gfx1100",
                "v_add_f32 v0, s0, 0x12345678",
                &[
                    0x00, 0x00, 0x03, 0xd5, 0x00, 0xfe, 0x01, 0x00, 0x78, 0x56, 0x34, 0x12,
                ][..],
            ),
            (
                "gfx1100",
                "v_cndmask_b32 v0, 0, 1, vcc_lo",
                &[0x00, 0x00, 0x01, 0xd5, 0x80, 0x02, 0xa9, 0x01][..],
            ),
            (
                "gfx1100",
                "v_dual_mov_b32 v1, 0x3f800000 :: v_dual_mov_b32 v2, 2",
                &[0xf2, 0x00, 0x10, 0xca, 0x82, 0x00, 0x02, 0x01][..],
            ),
            (
                "gfx1100",
                "v_mov_b32 v0, 0.15915494",
                &[0xf8, 0x02, 0x00, 0x7e][..],
            ),
            (
                "gfx900",
                "v_add_f32 v0, v1, v2",
                &[0x01, 0x05, 0x00, 0x02][..],
            ),
            (
                "gfx900",
                "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0",
                &[0x01, 0x18, 0x00, 0xb9][..],
            ),
            (
                "gfx900",
                "v_add_co_u32 v0, vcc, v1, v2",
                &[0x01, 0x05, 0x00, 0x32][..],
            ),
            (
                "gfx1250",
                "v_mov_b64_e32 v[2:3], 0x8000000000000000",
                &[0xfe, 0x3a, 0x04, 0x7e, 0, 0, 0, 0, 0, 0, 0, 0x80][..],
            ),
            // (llvm-mc-22: an integer operand takes the 32-bit literal only for
            // 0..=0x7fffffff)
            (
                "gfx1250",
                "s_add_nc_u64 s[0:1], s[0:1], 0x7fffffff",
                &[0x00, 0xff, 0x80, 0xa9, 0xff, 0xff, 0xff, 0x7f][..],
            ),
            (
                "gfx1250",
                "s_add_nc_u64 s[0:1], s[0:1], 0x80000000",
                &[0x00, 0xfe, 0x80, 0xa9, 0, 0, 0, 0x80, 0, 0, 0, 0][..],
            ),
            (
                "gfx1250",
                "s_add_nc_u64 s[0:1], s[0:1], 0xfffffffffffff96c",
                &[
                    0x00, 0xfe, 0x80, 0xa9, 0x6c, 0xf9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                ][..],
            ),
            (
                "gfx1250",
                "v_add_nc_u64 v[0:1], -1684, v[2:3]",
                &[
                    0xfe, 0x04, 0x00, 0x50, 0x6c, 0xf9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                ][..],
            ),
            (
                "gfx90a",
                "s_mov_b64 s[0:1], 0xffffffff80000000",
                &[0xff, 0x01, 0x80, 0xbe, 0, 0, 0, 0x80][..],
            ),
            (
                "gfx1250",
                "v_add_f64 v[0:1], 0x3ff00000, v[2:3]",
                &[0xf2, 0x04, 0x00, 0x04][..],
            ),
            (
                "gfx1250",
                "v_add_f64 v[0:1], 1.1, v[2:3]",
                &[
                    0xfe, 0x04, 0x00, 0x04, 0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xf1, 0x3f,
                ][..],
            ),
        ] {
            let asm = Assembler::for_processor(p).expect("processor");
            let mut out = Vec::new();
            asm.encode(text, 0, &mut NoSymbols, &mut out).expect(text);
            assert_eq!(out, bytes, "{p} {text}");
        }
    }

    /// gfx9: a zero word decodes as a v_cndmask_b32 that breaks the constant-bus rule;
    /// its text encodes back to the zero word, with a warning.
    #[test]
    fn words_the_rules_refuse_are_encoded_with_a_warning() {
        let asm = Assembler::for_processor("gfx900").expect("processor");
        let text = "v_cndmask_b32_e32 v0, s0, v0, vcc";
        let mut out = Vec::new();
        let e = asm
            .encode(text, 0, &mut NoSymbols, &mut out)
            .expect("encodes");
        assert_eq!(out, [0, 0, 0, 0]);
        let w = e.warning.expect("warning");
        assert_eq!(&text[w.span], "v0, s0, v0, vcc");
        assert!(w.message.contains("constant bus"), "{}", w.message);
    }

    #[test]
    fn messages_and_spans() {
        for (p, text, at, msg) in CASES {
            let asm = Assembler::for_processor(p).expect("processor");
            let mut out = Vec::new();
            let e = asm
                .encode(text, 0, &mut NoSymbols, &mut out)
                .expect_err(text);
            assert_eq!(
                (&text[e.span.clone()], e.message.as_str()),
                (*at, *msg),
                "{text}"
            );
            assert!(out.is_empty());
        }
    }
}
