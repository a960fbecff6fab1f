//! `hsaco read FILE --locate VAR --pc ADDR [--lane N] [--function NAME]`: where a
//! variable lives at a PC (hsaco-dwarf's `locate` evaluates; this file chooses the
//! words and the JSON).

use super::Opts;
use crate::output;
use anyhow::Result;
use hsaco_dwarf::locate::{
    self, Availability, Implicit, Located, Location, Options, Symbolic, Value, Variable, Xderef,
};
use serde_json::{json, Value as Json};
use std::fmt::Write as _;
use std::process::ExitCode;

pub fn run(opts: &Opts, var: &str) -> Result<ExitCode> {
    let Some(pc) = opts.pc else {
        anyhow::bail!("--locate needs --pc ADDR");
    };
    let options = Options {
        lane: opts.lane,
        wave_size: opts.wave_size,
        xderef: if opts.xderef_load {
            Xderef::Load
        } else {
            Xderef::AddressSpace
        },
    };
    let mut text = String::new();
    let mut any = false;
    // (whether some object was read: an unreadable file has its own error already)
    let mut read_one = false;
    let (files_json, mut status) = super::dwarf::each_object(&opts.files, |label, dwarf| {
        read_one = true;
        let (vars, errors) = locate::find(
            dwarf,
            var,
            pc,
            opts.function.as_deref(),
            options,
            &mut Symbolic,
        );
        let mut status = 0;
        for e in dwarf.errors.iter().chain(&errors) {
            eprintln!("error: {label}: {e}");
            status = 1;
        }
        any |= !vars.is_empty();
        // the variables in scope first; those out of scope only when none is in
        let in_scope = vars.iter().any(|v| v.in_scope);
        let shown: Vec<&Variable> = vars.iter().filter(|v| v.in_scope || !in_scope).collect();
        for v in &shown {
            describe(&mut text, label, var, pc, v, options);
        }
        let v = json!({
            "label": label,
            "variables": shown.iter().map(|v| variable_json(var, v)).collect::<Vec<_>>(),
            "errors": errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        });
        (v, status)
    });
    if read_one && !any {
        let scope = match &opts.function {
            Some(f) => format!(" in function {f}"),
            None => String::new(),
        };
        eprintln!("error: no variable or parameter named {var}{scope} with a code address range");
        status = status.max(1);
    }
    if opts.json {
        let mut t = serde_json::to_string_pretty(&json!({
            "schema": "hsaco-read-locate/1",
            "variable": var,
            "pc": pc,
            "lane": opts.lane,
            "files": files_json,
        }))?;
        t.push('\n');
        output::print(&t)?;
    } else {
        output::print(&text)?;
    }
    Ok(ExitCode::from(status))
}

fn ranges_text(r: &[(u64, u64)]) -> String {
    let v: Vec<String> = r.iter().map(|(a, b)| format!("[{a:#x}, {b:#x})")).collect();
    v.join(" ")
}

fn describe(out: &mut String, label: &str, var: &str, pc: u64, v: &Variable, options: Options) {
    let _ = write!(out, "{label}: {var} ({}, DIE {:#010x})", v.kind, v.die);
    if !v.function.is_empty() {
        let _ = write!(out, " in {}", v.function.join(" > "));
    }
    out.push('\n');
    if !v.in_scope {
        let _ = writeln!(
            out,
            "  {pc:#x} is outside its scope {}",
            ranges_text(&v.scope)
        );
        // a location list entry running past the scope is still shown
        if !matches!(v.availability, Availability::Located { range: Some(_), .. }) {
            return;
        }
    }
    match &v.availability {
        Availability::Located {
            located,
            expression,
            range,
        } => {
            let text = locate::expression_text(expression);
            match range {
                Some((a, b)) => {
                    let _ = writeln!(out, "  location list entry [{a:#x}, {b:#x}): {text}");
                }
                None => {
                    let _ = writeln!(out, "  location: {text}");
                }
            }
            let _ = writeln!(out, "  at {pc:#x}: {}", where_text(located, options));
            for n in notes(&located.location, expression, options) {
                let _ = writeln!(out, "  note: {n}");
            }
        }
        Availability::Constant(bytes) => {
            let _ = write!(out, "  at {pc:#x}: a constant, bytes");
            for b in bytes {
                let _ = write!(out, " {b:02x}");
            }
            out.push('\n');
        }
        Availability::NotAvailable(ranges) => {
            let _ = writeln!(
                out,
                "  at {pc:#x}: not available (optimised out here: no location list entry holds it; entries: {})",
                ranges_text(ranges)
            );
        }
        Availability::NoLocation => {
            let _ = writeln!(out, "  at {pc:#x}: optimised out (no location)");
        }
        Availability::Error(e) => {
            let _ = writeln!(out, "  at {pc:#x}: error: {e}");
        }
    }
}

/// The location in words; a vector register the expression did not select a lane
/// of is named with the focused lane's element.
fn where_text(l: &Located, options: Options) -> String {
    match &l.location {
        Location::Register { reg, bit_offset }
            if locate::is_vector_register(*reg)
                && !l.lane_selected
                && bit_offset.known() == Some(0) =>
        {
            let name = locate::register_name(*reg);
            match options.lane {
                Some(n) => format!(
                    "{name}, lane {n}'s element (bits {}-{} of the vector register)",
                    32 * n,
                    32 * n + 31
                ),
                None => format!("{name}, the focused lane's element (--lane N to name it)"),
            }
        }
        loc => loc.to_string(),
    }
}

/// Notes that help read a location: clang's promoted-register idiom, the per-lane
/// swizzle of private memory.
fn notes(l: &Location, expression: &[u8], options: Options) -> Vec<String> {
    let mut out = Vec::new();
    if let Some((reg, _)) = locate::clang_promoted_register(expression) {
        let lane = match options.lane {
            Some(n) if locate::is_vector_register(reg) => format!(" (lane {n}'s element)"),
            _ => String::new(),
        };
        out.push(format!(
            "clang writes `DW_OP_bregx R+0, DW_OP_litN, DW_OP_swap, DW_OP_xderef` for a value promoted to register R: the value is most likely in {} itself{lane}; read as DWARF, the register holds its address",
            locate::register_name(reg)
        ));
        return out;
    }
    if let Location::Memory {
        space: 5, address, ..
    } = l
    {
        let wave = options.wave_size.or_else(|| {
            l.registers()
                .iter()
                .find_map(|r| locate::register_wave_size(*r))
        });
        match (address.known(), options.lane, wave) {
            (Some(a), Some(lane), Some(w)) => out.push(format!(
                "private_lane (per-lane swizzled scratch): the wave's backing address is {:#x} = ({a:#x} / 4) * {w} * 4 + {lane} * 4 + {a:#x} % 4 (private_wave)",
                (a / 4) * u64::from(w) * 4 + u64::from(lane) * 4 + a % 4
            )),
            _ => out.push(
                "private_lane (per-lane swizzled scratch): the wave's backing address is (A / 4) * wave size * 4 + lane * 4 + A % 4 (private_wave)".to_string(),
            ),
        }
    }
    out
}

fn value_json(v: &Value) -> Json {
    match v.known() {
        Some(k) => json!(k),
        None => {
            let mut regs = Vec::new();
            v.registers(&mut regs);
            json!({ "symbolic": v.to_string(), "registers": regs })
        }
    }
}

fn location_json(l: &Location) -> Json {
    let mut o = serde_json::Map::new();
    o.insert("kind".into(), json!(l.kind()));
    match l {
        Location::Undefined => {}
        Location::Memory {
            space,
            address,
            bit_offset,
        } => {
            o.insert("address_space".into(), json!(space));
            o.insert(
                "address_space_name".into(),
                json!(locate::space_name(*space)),
            );
            o.insert("address".into(), value_json(address));
            o.insert("bit_offset".into(), json!(bit_offset));
        }
        Location::Register { reg, bit_offset } => {
            o.insert("register".into(), json!(reg));
            o.insert("name".into(), json!(locate::register_name(*reg)));
            o.insert("bit_offset".into(), value_json(bit_offset));
        }
        Location::Implicit { value, bit_offset } => {
            match value {
                Implicit::Value(v) => o.insert("value".into(), value_json(v)),
                Implicit::Bytes(b) => o.insert("bytes".into(), json!(b)),
            };
            o.insert("bit_offset".into(), json!(bit_offset));
        }
        Location::ImplicitPointer {
            die,
            byte_offset,
            space,
        } => {
            o.insert("die".into(), json!(die));
            o.insert("byte_offset".into(), json!(byte_offset));
            o.insert("address_space".into(), json!(space));
        }
        Location::Composite { pieces, bit_offset } => {
            let p: Vec<Json> = pieces
                .iter()
                .map(|p| json!({ "bits": p.bits, "location": location_json(&p.location) }))
                .collect();
            o.insert("pieces".into(), json!(p));
            o.insert("bit_offset".into(), json!(bit_offset));
        }
        Location::Select {
            mask,
            zero,
            one,
            bits,
            count,
        } => {
            o.insert("mask".into(), value_json(mask));
            o.insert("zero".into(), location_json(zero));
            o.insert("one".into(), location_json(one));
            o.insert("bits".into(), json!(bits));
            o.insert("count".into(), json!(count));
        }
    }
    o.insert("text".into(), json!(l.to_string()));
    Json::Object(o)
}

fn variable_json(var: &str, v: &Variable) -> Json {
    let mut o = serde_json::Map::new();
    o.insert("name".into(), json!(var));
    o.insert("kind".into(), json!(v.kind));
    o.insert("die".into(), json!(v.die));
    o.insert("function".into(), json!(v.function));
    o.insert("scope".into(), json!(v.scope));
    o.insert("in_scope".into(), json!(v.in_scope));
    let status =
        if !v.in_scope && !matches!(v.availability, Availability::Located { range: Some(_), .. }) {
            "out_of_scope"
        } else {
            match &v.availability {
                Availability::Located {
                    located,
                    expression,
                    range,
                } => {
                    o.insert(
                        "expression".into(),
                        json!(locate::expression_text(expression)),
                    );
                    o.insert("range".into(), json!(range));
                    o.insert("lane_selected".into(), json!(located.lane_selected));
                    o.insert("location".into(), location_json(&located.location));
                    o.insert(
                        "promoted_register".into(),
                        json!(locate::clang_promoted_register(expression).map(|(r, _)| r)),
                    );
                    "located"
                }
                Availability::Constant(b) => {
                    o.insert("bytes".into(), json!(b));
                    "constant"
                }
                Availability::NotAvailable(r) => {
                    o.insert("ranges".into(), json!(r));
                    "not_available"
                }
                Availability::NoLocation => "no_location",
                Availability::Error(e) => {
                    o.insert("error".into(), json!(e.to_string()));
                    "error"
                }
            }
        };
    o.insert("status".into(), json!(status));
    Json::Object(o)
}
