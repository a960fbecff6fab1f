//! The location evaluator against an independent oracle: the location list entries
//! llvm-dwarfdump-22 prints for every variable and parameter (ranges and expression
//! text). Shared by `cargo xtask locate-diff` (the -g corpus, live LLVM; included
//! there with `#[path]`) and `cargo test` (committed objects and their
//! llvm-dwarfdump-22 text, tests/data/gen.sh).
//!
//! For each variable with a `DW_AT_location` (a single expression: at the first,
//! middle and last 4-byte PC of its scope, or every one; a location list: at the
//! first, middle and last PC of each entry's range, or every 4-byte one, and at each
//! entry's end when no other entry holds it and the scope does), the evaluation at
//! that PC must:
//! - come from the entry llvm-dwarfdump prints for that range (same range), or say
//!   "not available" where no entry holds the PC;
//! - name the registers the expression text names (`VGPR2`, `0x602`, the frame
//!   base's register for `DW_OP_fbreg`), no more and no fewer;
//! - have the kind the text says: `DW_OP_stack_value` an implicit value (for a
//!   constant `DW_OP_consts/constu/litN` then `DW_OP_litS, DW_OP_swap,
//!   DW_OP_xderef`, that constant in S's address size), `DW_OP_piece`s a composite of
//!   those sizes (each part checked the same way), `DW_OP_litS, DW_OP_swap,
//!   DW_OP_xderef` memory in address space S, `DW_OP_regx` alone a register.

use hsaco_dwarf::locate::{self, Availability, Implicit, Location, Options, Symbolic};
use hsaco_dwarf::DwarfObject;

/// An entry: its range (none: a single expression) and its expression text.
type Entry = (Option<(u64, u64)>, String);

/// A variable's location as llvm-dwarfdump-22 prints it.
struct LlvmVar {
    die: u64,
    /// (range, expression text); no range: a single expression
    pub entries: Vec<Entry>,
    /// The registers of the enclosing subprogram's frame base.
    frame_base: Vec<u64>,
}

fn hex(s: &str) -> Option<u64> {
    u64::from_str_radix(s.trim().trim_start_matches("0x"), 16).ok()
}

/// The variables with a location in llvm-dwarfdump-22 --debug-info's text.
fn parse(text: &str) -> Vec<LlvmVar> {
    let mut out = Vec::new();
    let mut frame_base = Vec::new();
    let mut die: Option<(u64, String)> = None;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if let Some((off, rest)) = t.split_once(": ") {
            if off.starts_with("0x") && rest.trim_start().starts_with("DW_TAG_") {
                die = hex(off).map(|o| (o, rest.trim().to_string()));
                if rest.trim() == "DW_TAG_subprogram" {
                    frame_base.clear();
                }
                continue;
            }
        }
        let Some((off, tag)) = &die else {
            continue;
        };
        if let Some(v) = t.strip_prefix("DW_AT_frame_base\t(") {
            if tag == "DW_TAG_subprogram" {
                frame_base = registers(v.trim_end_matches(')'));
            }
            continue;
        }
        let Some(v) = t.strip_prefix("DW_AT_location\t(") else {
            continue;
        };
        if tag != "DW_TAG_variable" && tag != "DW_TAG_formal_parameter" {
            continue;
        }
        let mut entries = Vec::new();
        if v.starts_with("indexed (") || v.starts_with("0x") {
            // a location list: one `[lo, hi): EXPR` line per entry, the last ends `)`
            while let Some(l) = lines.peek() {
                let l = l.trim();
                let Some(rest) = l.strip_prefix('[') else {
                    break;
                };
                lines.next();
                let (range, expr) = rest.split_once("): ").unwrap_or((rest, ""));
                let (lo, hi) = range.split_once(", ").unwrap_or((range, ""));
                let expr = expr.strip_suffix(')').unwrap_or(expr);
                if let (Some(lo), Some(hi)) = (hex(lo), hex(hi)) {
                    entries.push((Some((lo, hi)), expr.to_string()));
                }
            }
        } else {
            entries.push((None, v.strip_suffix(')').unwrap_or(v).to_string()));
        }
        out.push(LlvmVar {
            die: *off,
            entries,
            frame_base: frame_base.clone(),
        });
    }
    out
}

/// The DWARF register numbers an expression's text names (llvm-dwarfdump-22's
/// names, or the number after `DW_OP_regx`/`DW_OP_bregx` when it has none).
fn registers(text: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for op in text.split(", ") {
        let mut words = op.split(' ');
        let name = words.next().unwrap_or("");
        let arg = words.next().unwrap_or("");
        let n = match name {
            "DW_OP_regx" | "DW_OP_bregx" => {
                if let Some(h) = arg.strip_prefix("0x") {
                    u64::from_str_radix(h, 16).ok()
                } else {
                    named(
                        arg.split('+')
                            .next()
                            .unwrap_or(arg)
                            .split('-')
                            .next()
                            .unwrap_or(arg),
                    )
                }
            }
            _ if name.starts_with("DW_OP_reg") || name.starts_with("DW_OP_breg") => {
                let digits: String = name.chars().filter(|c| c.is_ascii_digit()).collect();
                digits.parse().ok()
            }
            _ => None,
        };
        if let Some(n) = n {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

fn named(s: &str) -> Option<u64> {
    let num = |p: &str| s.strip_prefix(p).and_then(|d| d.parse::<u64>().ok());
    if let Some(n) = num("SGPR") {
        return Some(if n < 64 { 32 + n } else { 1088 + n - 64 });
    }
    if let Some(n) = num("VGPR") {
        return Some(2560 + n);
    }
    if let Some(n) = num("AGPR") {
        return Some(3072 + n);
    }
    match s {
        "EXEC_LO" => Some(1),
        "PC_REG" => Some(16),
        "EXEC" => Some(17),
        _ => None,
    }
}

/// What the text says the location is (see the module text); an error message on
/// a disagreement with `l`.
fn check_kind(text: &str, l: &Location) -> std::result::Result<(), String> {
    let ops: Vec<&str> = text.split(", ").collect();
    let space_of = |ops: &[&str]| -> Option<u64> {
        // `DW_OP_litS, DW_OP_swap, DW_OP_xderef`
        let i = ops.iter().position(|o| *o == "DW_OP_xderef")?;
        if i >= 2 && ops[i - 1] == "DW_OP_swap" {
            ops[i - 2].strip_prefix("DW_OP_lit")?.parse().ok()
        } else {
            None
        }
    };
    let pieces: Vec<u64> = ops
        .iter()
        .filter_map(|o| o.strip_prefix("DW_OP_piece 0x"))
        .filter_map(|h| u64::from_str_radix(h, 16).ok())
        .collect();
    if !pieces.is_empty() {
        let Location::Composite { pieces: ours, .. } = l else {
            return Err(format!("pieces expected, got {}", l.kind()));
        };
        let sizes: Vec<u64> = ours.iter().map(|p| p.bits / 8).collect();
        if sizes != pieces {
            return Err(format!("piece sizes {pieces:?} expected, got {sizes:?}"));
        }
        // each part as its own expression (split after each DW_OP_piece)
        let mut part: Vec<&str> = Vec::new();
        let mut i = 0;
        for o in &ops {
            if o.starts_with("DW_OP_piece") {
                if !part.is_empty() {
                    check_kind(&part.join(", "), &ours[i].location)?;
                } else if ours[i].location != Location::Undefined {
                    return Err(format!("piece {i}: undefined expected"));
                }
                part.clear();
                i += 1;
            } else {
                part.push(o);
            }
        }
        return Ok(());
    }
    if ops.last() == Some(&"DW_OP_stack_value") {
        let Location::Implicit { value, .. } = l else {
            return Err(format!("an implicit value expected, got {}", l.kind()));
        };
        // a constant then the address space idiom: that constant
        if ops.len() == 5 {
            if let Some(space) = space_of(&ops) {
                let first = ops[0];
                let k = if let Some(d) = first.strip_prefix("DW_OP_consts ") {
                    d.trim_start_matches('+')
                        .parse::<i64>()
                        .ok()
                        .map(|v| v as u64)
                } else if let Some(h) = first.strip_prefix("DW_OP_constu 0x") {
                    u64::from_str_radix(h, 16).ok()
                } else {
                    first.strip_prefix("DW_OP_lit").and_then(|d| d.parse().ok())
                };
                if let Some(k) = k {
                    let want = if matches!(space, 2 | 3 | 5 | 6) {
                        k & 0xffff_ffff
                    } else {
                        k
                    };
                    if *value != Implicit::Value(locate::Value::Const(want)) {
                        return Err(format!("value {want:#x} expected, got {l}"));
                    }
                }
            }
        }
        return Ok(());
    }
    if let Some(space) = space_of(&ops) {
        return match l {
            Location::Memory { space: s, .. } if *s == space => Ok(()),
            _ => Err(format!("memory in address space {space} expected, got {l}")),
        };
    }
    if ops.len() == 1 && (ops[0].starts_with("DW_OP_regx") || ops[0].starts_with("DW_OP_reg")) {
        return match l {
            Location::Register { .. } => Ok(()),
            _ => Err(format!("a register expected, got {l}")),
        };
    }
    Ok(())
}

/// What the checks found.
#[derive(Default)]
pub struct Counts {
    pub objects: usize,
    pub variables: usize,
    pub entries: usize,
    pub pcs: usize,
    pub agree: usize,
    pub gaps: usize,
    pub gaps_agree: usize,
    pub first: Vec<String>,
}

/// The checks of one object (`name` for the messages), against `text`, its
/// llvm-dwarfdump-22 --debug-info output, added to `c`; at every 4-byte PC of each
/// range when `every_pc`, else at its first, middle and last.
pub fn check_object(name: &str, text: &str, obj: &DwarfObject<'_>, every_pc: bool, c: &mut Counts) {
    let vars = parse(text);
    let options = Options::default();
    c.objects += 1;
    let bad = |c: &mut Counts, m: String| {
        if c.first.len() < 40 {
            c.first.push(format!("{name}: {m}"));
        }
    };
    for v in &vars {
        c.variables += 1;
        // the scope (for single expressions and the gaps): the evaluator's walk
        let (found, _) = locate::at_die(obj, v.die, 0, options, &mut Symbolic);
        let Some(found) = found else {
            bad(c, format!("DIE {:#x}: not found", v.die));
            continue;
        };
        let mut checks: Vec<(u64, Option<&Entry>)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for e in &v.entries {
            c.entries += 1;
            let (lo, hi) = match e.0 {
                Some(r) => r,
                None => match found.scope.first() {
                    Some(r) => *r,
                    None => continue,
                },
            };
            if hi <= lo {
                continue;
            }
            let last = (hi - 1) & !3;
            let mid = (lo + (hi - lo) / 2) & !3;
            let pcs: Vec<u64> = if every_pc {
                (lo..hi).step_by(4).collect()
            } else {
                vec![lo, mid.max(lo), last.max(lo)]
            };
            for pc in pcs {
                if seen.insert(pc) {
                    checks.push((pc, Some(e)));
                }
            }
            // the entry's end, when no entry holds it: not available (in scope)
            if e.0.is_some()
                && !v
                    .entries
                    .iter()
                    .any(|x| x.0.is_some_and(|(a, b)| a <= hi && hi < b))
                && seen.insert(hi)
            {
                checks.push((hi, None));
            }
        }
        for (pc, entry) in checks {
            let (got, errors) = locate::at_die(obj, v.die, pc, options, &mut Symbolic);
            let Some(got) = got else {
                bad(
                    c,
                    format!("DIE {:#x} at {pc:#x}: not found ({errors:?})", v.die),
                );
                continue;
            };
            let Some((range, text)) = entry else {
                if !got.in_scope {
                    continue;
                }
                c.gaps += 1;
                match &got.availability {
                    Availability::NotAvailable(_) => c.gaps_agree += 1,
                    other => bad(
                        c,
                        format!(
                            "DIE {:#x} at {pc:#x}: not available expected, got {other:?}",
                            v.die
                        ),
                    ),
                }
                continue;
            };
            c.pcs += 1;
            let Availability::Located {
                located,
                range: our_range,
                ..
            } = &got.availability
            else {
                bad(
                    c,
                    format!(
                        "DIE {:#x} at {pc:#x}: `{text}` expected, got {:?}",
                        v.die, got.availability
                    ),
                );
                continue;
            };
            if range.is_some() && our_range != range {
                bad(
                    c,
                    format!(
                        "DIE {:#x} at {pc:#x}: range {range:x?} expected, got {our_range:x?}",
                        v.die
                    ),
                );
                continue;
            }
            let mut want = registers(text);
            if text.contains("DW_OP_fbreg") {
                for r in &v.frame_base {
                    if !want.contains(r) {
                        want.push(*r);
                    }
                }
            }
            want.sort();
            let mut ours = located.location.registers();
            ours.sort();
            if want != ours {
                bad(
                    c,
                    format!(
                        "DIE {:#x} at {pc:#x}: `{text}`: registers {want:?} expected, got {ours:?} ({})",
                        v.die, located.location
                    ),
                );
                continue;
            }
            if let Err(m) = check_kind(text, &located.location) {
                bad(c, format!("DIE {:#x} at {pc:#x}: `{text}`: {m}", v.die));
                continue;
            }
            c.agree += 1;
        }
    }
}
