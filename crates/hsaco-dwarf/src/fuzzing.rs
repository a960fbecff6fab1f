//! Entry points shared by the cargo-fuzz target (`fuzz/fuzz_targets/dwarf.rs`) and
//! the seeded smoke test in `cargo test`. Each takes arbitrary bytes and must never
//! panic.

use crate::locate::{CallTarget, Context, Location, Machine, Options, Symbolic, Xderef};
use crate::{DumpOptions, DwarfObject, Section};

/// An ELF file: its debug sections (relocations applied) printed in full.
pub fn dwarf_elf(data: &[u8]) {
    if let Ok(obj) = DwarfObject::from_elf(data) {
        dump_all(&obj);
    }
}

/// Raw sections: `data` is cut into `.debug_info`, `.debug_abbrev`, `.debug_line`,
/// `.debug_loclists`, `.debug_frame`, `.debug_str` at the little-endian u16 lengths
/// of its first 10 bytes (the rest goes to the last), then printed in full.
pub fn dwarf_sections(data: &[u8]) {
    const NAMES: [&str; 6] = [
        ".debug_info",
        ".debug_abbrev",
        ".debug_line",
        ".debug_loclists",
        ".debug_frame",
        ".debug_str",
    ];
    let (lens, mut rest) = data.split_at(data.len().min(10));
    let mut sections = Vec::new();
    for (i, name) in NAMES.iter().enumerate() {
        let n = if i < 5 {
            lens.get(2 * i..2 * i + 2)
                .map_or(0, |b| u16::from_le_bytes([b[0], b[1]]) as usize)
                .min(rest.len())
        } else {
            rest.len()
        };
        let (a, b) = rest.split_at(n);
        sections.push((*name, a.to_vec()));
        rest = b;
    }
    dump_all(&DwarfObject::from_sections(sections));
}

fn dump_all(obj: &DwarfObject) {
    let mut out = Vec::new();
    for s in Section::ALL {
        let _ = crate::dump::dump(obj, s, DumpOptions::default(), &mut out);
    }
    let regs = crate::names::RegisterNames::Spec;
    let _ = crate::dump::dump(obj, Section::Info, DumpOptions { regs }, &mut out);
    // the dumps write bytes: every string from the input must have been made UTF-8
    assert!(std::str::from_utf8(&out).is_ok(), "the text is not UTF-8");
    let _ = crate::dump::debug_info_records(obj, DumpOptions::default());
    let _ = crate::dump::debug_line_records(obj);
    // every variable's location at a few PCs, both readings of DW_OP_xderef
    for (pc, xderef) in [(0, Xderef::AddressSpace), (0x100, Xderef::Load)] {
        let options = Options {
            lane: Some(3),
            wave_size: Some(64),
            xderef,
        };
        let (vars, _) = crate::locate::variables_at(obj, pc, options, &mut Symbolic);
        for v in vars {
            if let crate::locate::Availability::Located { located, .. } = v.availability {
                let _ = located.location.to_string();
            }
        }
    }
}

/// `data` as one DWARF expression, evaluated (frame base `DW_OP_regx SGPR33`, lane
/// 3) with a machine that knows every register and memory byte, and without one,
/// and printed.
pub fn dwarf_expression(data: &[u8]) {
    struct Knows;
    impl Machine for Knows {
        fn register(&mut self, reg: u64, lane: Option<u32>) -> Option<u64> {
            Some(reg.wrapping_mul(3).wrapping_add(lane.unwrap_or(0) as u64))
        }
        fn memory(&mut self, space: u64, address: u64, _: u8, _: Option<u32>) -> Option<u64> {
            Some(address ^ space)
        }
        fn entry_register(&mut self, reg: u64) -> Option<u64> {
            Some(!reg)
        }
        fn call_frame_cfa(&mut self) -> Option<u64> {
            Some(0x1000)
        }
    }
    let addr = |i: u64| Some(i.wrapping_mul(8));
    // DW_OP_call*: even unit offsets call `DW_OP_lit(offset % 32)` (or, every 8th,
    // the input itself: nested calls), odd ones have no location, .debug_info ones
    // are refused
    let call = |t: CallTarget| match t {
        CallTarget::Unit(o) if o % 8 == 0 => Ok(Some(data.to_vec())),
        CallTarget::Unit(o) if o % 2 == 0 => Ok(Some(vec![0x30 + (o % 32) as u8])),
        CallTarget::Unit(_) => Ok(None),
        CallTarget::DebugInfo(_) => Err("refused".to_string()),
    };
    for (xderef, lane) in [(Xderef::AddressSpace, Some(3)), (Xderef::Load, None)] {
        let cx = Context {
            encoding: gimli::Encoding {
                format: gimli::Format::Dwarf32,
                version: 5,
                address_size: 8,
            },
            frame_base: Some(Location::Register {
                reg: 65,
                bit_offset: crate::locate::Value::Const(0),
            }),
            address_index: Some(&addr),
            call: Some(&call),
            options: Options {
                lane,
                wave_size: Some(32),
                xderef,
            },
        };
        for m in [&mut Symbolic as &mut dyn Machine, &mut Knows] {
            if let Ok(l) = crate::locate::evaluate(data, &cx, m) {
                let _ = l.location.to_string();
                let _ = l.location.registers();
            }
        }
    }
}
