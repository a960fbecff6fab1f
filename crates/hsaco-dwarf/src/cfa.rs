//! Call frame instructions as llvm-dwarfdump-22 prints them (`DW_CFA_def_cfa: SGPR32
//! +0`), and the unwind rows it prints after them (`0x4: CFA=SGPR32+16: SGPR33=[CFA-8]`).
//! Operands are read with gimli's reader; the opcodes are listed here because the
//! printed names keep the distinctions gimli's `CallFrameInstruction` folds away
//! (`DW_CFA_offset` / `DW_CFA_offset_extended`, `DW_CFA_restore` / `_extended`).
//! Formats learned from llvm-dwarfdump-22 on tests/data/cfi.o (llvm-mc `.cfi_*`).

use crate::expr::{write_expression, ExprContext};
use crate::names::RegisterNames;
use crate::text::PushStr as _;
use gimli::Reader;
use std::collections::BTreeMap;
use std::io::Write as _;

type R<'a> = gimli::EndianSlice<'a, gimli::LittleEndian>;

/// The CIE parameters the instructions need.
#[derive(Clone, Copy)]
pub struct Cfa {
    pub code_align: u64,
    pub data_align: i64,
    pub address_size: u8,
    pub regs: RegisterNames,
}

/// A register's rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    Undefined,
    Same,
    Offset(i64),
    ValOffset(i64),
    Register(u64),
    Expression(Vec<u8>),
    ValExpression(Vec<u8>),
}

/// The CFA's rule.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum CfaRule {
    #[default]
    Unset,
    RegOffset(u64, i64),
    Expression(Vec<u8>),
}

/// The state the instructions build.
#[derive(Clone, Debug, Default)]
pub struct UnwindState {
    pub cfa: CfaRule,
    pub cfa_set: bool,
    pub regs: BTreeMap<u64, Rule>,
    /// The rules after the CIE's instructions (`DW_CFA_restore` goes back to them).
    pub initial: BTreeMap<u64, Rule>,
    stack: Vec<(CfaRule, BTreeMap<u64, Rule>)>,
}

/// One unwind row: its address and the state there.
pub struct Row {
    address: u64,
    cfa: CfaRule,
    regs: BTreeMap<u64, Rule>,
}

fn reg(out: &mut Vec<u8>, n: u64, cx: Cfa) {
    match cx.regs.name(n) {
        Some(name) => out.push_str(&name),
        None => {
            let _ = write!(out, "reg{n}");
        }
    }
}

/// Where the instructions of the CIE at `off` start (DWARF32 `.debug_frame`).
pub fn cie_instructions_start(sec: &[u8], off: usize, aug: &str, version: u8) -> Option<usize> {
    if !aug.is_empty() {
        return None;
    }
    let start = off.checked_add(9 + aug.len() + 1)?;
    let mut r = R::new(sec.get(start..)?, gimli::LittleEndian);
    let before = r.len();
    if version >= 4 {
        r.skip(2).ok()?;
    }
    r.read_uleb128().ok()?;
    r.read_sleb128().ok()?;
    if version == 1 {
        r.read_u8().ok()?;
    } else {
        r.read_uleb128().ok()?;
    }
    Some(start + (before - r.len()))
}

/// Prints each instruction of `bytes` (two spaces, name, colon, operands) and
/// applies it to `state`. Returns the unwind rows, or `None` when the rules cannot be
/// worked out (llvm-dwarfdump then prints no row). `end`: the FDE's end address (the
/// last row's), `None` for a CIE.
pub fn cfa_instructions(
    out: &mut Vec<u8>,
    bytes: &[u8],
    start: u64,
    cx: Cfa,
    state: &mut UnwindState,
    end: Option<u64>,
) -> Option<Vec<Row>> {
    let mut r = R::new(bytes, gimli::LittleEndian);
    let mut addr = start;
    let mut rows = Vec::new();
    let mut ok = true;
    let ecx = ExprContext {
        address_size: cx.address_size,
        format: gimli::Format::Dwarf32,
        regs: cx.regs,
    };
    while !r.is_empty() {
        let before = out.len();
        match one(out, &mut r, cx, ecx, state, &mut addr, &mut rows, &mut ok) {
            Ok(()) => out.push(b'\n'),
            Err(_) => {
                out.truncate(before);
                let _ = writeln!(out, "  <decoding error>");
                return None;
            }
        }
    }
    if !ok {
        return None;
    }
    if end.is_some() && (state.cfa_set || !state.regs.is_empty()) {
        rows.push(Row {
            address: addr,
            cfa: state.cfa.clone(),
            regs: state.regs.clone(),
        });
    }
    Some(rows)
}

#[allow(clippy::too_many_arguments)]
fn one(
    out: &mut Vec<u8>,
    r: &mut R<'_>,
    cx: Cfa,
    ecx: ExprContext,
    state: &mut UnwindState,
    addr: &mut u64,
    rows: &mut Vec<Row>,
    ok: &mut bool,
) -> gimli::Result<()> {
    let op = r.read_u8()?;
    let (name, high) = match op & 0xc0 {
        0x40 => ("DW_CFA_advance_loc", true),
        0x80 => ("DW_CFA_offset", true),
        0xc0 => ("DW_CFA_restore", true),
        _ => (
            gimli::constants::DwCfa(op).static_string().ok_or(
                gimli::Error::UnknownCallFrameInstruction(gimli::constants::DwCfa(op)),
            )?,
            false,
        ),
    };
    let _ = write!(out, "  {name}:");
    let low = (op & 0x3f) as u64;
    let mut advance = |out: &mut Vec<u8>, delta: u64, state: &mut UnwindState| {
        let d = delta.wrapping_mul(cx.code_align);
        rows.push(Row {
            address: *addr,
            cfa: state.cfa.clone(),
            regs: state.regs.clone(),
        });
        *addr = addr.wrapping_add(d);
        let _ = write!(out, " {d} to {:#x}", *addr);
    };
    let block = |r: &mut R<'_>| -> gimli::Result<Vec<u8>> {
        let len = r.read_uleb128()?;
        Ok(r.split(len as usize)?.slice().to_vec())
    };
    if high {
        match op & 0xc0 {
            0x40 => advance(out, low, state),
            0x80 => {
                let off = r.read_uleb128()? as i64 * cx.data_align;
                out.push(b' ');
                reg(out, low, cx);
                let _ = write!(out, " {off}");
                state.regs.insert(low, Rule::Offset(off));
            }
            _ => {
                out.push(b' ');
                reg(out, low, cx);
                restore(state, low);
            }
        }
        return Ok(());
    }
    match op {
        0x00 => {}
        0x01 => {
            let a = r.read_address(cx.address_size)?;
            let _ = write!(out, " {a:#x}");
            *addr = a;
        }
        0x02 => {
            let d = r.read_u8()? as u64;
            advance(out, d, state);
        }
        0x03 => {
            let d = r.read_u16()? as u64;
            advance(out, d, state);
        }
        0x04 => {
            let d = r.read_u32()? as u64;
            advance(out, d, state);
        }
        0x05 | 0x11 | 0x14 | 0x15 => {
            let n = r.read_uleb128()?;
            let off = if op == 0x05 || op == 0x14 {
                r.read_uleb128()? as i64
            } else {
                r.read_sleb128()?
            } * cx.data_align;
            out.push(b' ');
            reg(out, n, cx);
            let _ = write!(out, " {off}");
            let rule = if op == 0x05 || op == 0x11 {
                Rule::Offset(off)
            } else {
                Rule::ValOffset(off)
            };
            state.regs.insert(n, rule);
        }
        0x06 | 0x07 | 0x08 | 0x0d => {
            let n = r.read_uleb128()?;
            out.push(b' ');
            reg(out, n, cx);
            match op {
                0x06 => restore(state, n),
                0x07 => {
                    state.regs.insert(n, Rule::Undefined);
                }
                0x08 => {
                    state.regs.insert(n, Rule::Same);
                }
                _ => match &mut state.cfa {
                    CfaRule::RegOffset(reg, _) => *reg = n,
                    other => {
                        *other = CfaRule::RegOffset(n, 0);
                    }
                },
            }
            if op == 0x0d {
                state.cfa_set = true;
            }
        }
        0x09 => {
            let a = r.read_uleb128()?;
            let b = r.read_uleb128()?;
            out.push(b' ');
            reg(out, a, cx);
            out.push(b' ');
            reg(out, b, cx);
            state.regs.insert(a, Rule::Register(b));
        }
        0x0a => state.stack.push((state.cfa.clone(), state.regs.clone())),
        0x0b => match state.stack.pop() {
            Some((cfa, regs)) => {
                state.cfa = cfa;
                state.regs = regs;
            }
            None => *ok = false,
        },
        0x0c | 0x12 => {
            let n = r.read_uleb128()?;
            let off = if op == 0x0c {
                r.read_uleb128()? as i64
            } else {
                r.read_sleb128()? * cx.data_align
            };
            out.push(b' ');
            reg(out, n, cx);
            if op == 0x0c {
                let _ = write!(out, " {off:+}");
            } else {
                let _ = write!(out, " {off}");
            }
            state.cfa = CfaRule::RegOffset(n, off);
            state.cfa_set = true;
        }
        0x0e | 0x13 => {
            let off = if op == 0x0e {
                r.read_uleb128()? as i64
            } else {
                r.read_sleb128()? * cx.data_align
            };
            if op == 0x0e {
                let _ = write!(out, " {off:+}");
            } else {
                let _ = write!(out, " {off}");
            }
            match &mut state.cfa {
                CfaRule::RegOffset(_, o) => *o = off,
                _ => *ok = false,
            }
        }
        0x0f => {
            let e = block(r)?;
            out.push(b' ');
            write_expression(out, &e, ecx);
            state.cfa = CfaRule::Expression(e);
            state.cfa_set = true;
        }
        0x10 | 0x16 => {
            let n = r.read_uleb128()?;
            let e = block(r)?;
            out.push(b' ');
            reg(out, n, cx);
            out.push(b' ');
            write_expression(out, &e, ecx);
            let rule = if op == 0x10 {
                Rule::Expression(e)
            } else {
                Rule::ValExpression(e)
            };
            state.regs.insert(n, rule);
        }
        0x2e => {
            let v = r.read_uleb128()?;
            let _ = write!(out, " {v}");
        }
        _ => {
            // an operation whose operands this printer does not know: stop here
            return Err(gimli::Error::UnknownCallFrameInstruction(
                gimli::constants::DwCfa(op),
            ));
        }
    }
    Ok(())
}

fn restore(state: &mut UnwindState, n: u64) {
    match state.initial.get(&n) {
        Some(rule) => {
            state.regs.insert(n, rule.clone());
        }
        None => {
            state.regs.remove(&n);
        }
    }
}

/// The rows, one a line: `  0x4: CFA=SGPR32+16: SGPR33=[CFA-8]`.
pub fn write_rows(out: &mut Vec<u8>, rows: &[Row], cx: Cfa) {
    if rows.is_empty() {
        return;
    }
    let ecx = ExprContext {
        address_size: cx.address_size,
        format: gimli::Format::Dwarf32,
        regs: cx.regs,
    };
    for row in rows {
        let _ = write!(out, "  {:#x}: CFA=", row.address);
        match &row.cfa {
            CfaRule::Unset => {}
            CfaRule::RegOffset(n, off) => {
                reg(out, *n, cx);
                if *off != 0 {
                    let _ = write!(out, "{off:+}");
                }
            }
            CfaRule::Expression(e) => {
                out.push(b'[');
                write_expression(out, e, ecx);
                out.push(b']');
            }
        }
        let mut first = true;
        for (n, rule) in &row.regs {
            out.push_str(if first { ": " } else { ", " });
            first = false;
            reg(out, *n, cx);
            out.push(b'=');
            match rule {
                Rule::Undefined => out.push_str("undefined"),
                Rule::Same => out.push_str("same"),
                Rule::Offset(o) => {
                    let _ = write!(out, "[CFA{o:+}]");
                }
                Rule::ValOffset(o) => {
                    let _ = write!(out, "CFA{o:+}");
                }
                Rule::Register(r) => reg(out, *r, cx),
                Rule::Expression(e) => {
                    out.push(b'[');
                    write_expression(out, e, ecx);
                    out.push(b']');
                }
                Rule::ValExpression(e) => write_expression(out, e, ecx),
            }
        }
        out.push(b'\n');
    }
}
