//! Entry points shared by the cargo-fuzz target (`fuzz/fuzz_targets/dwarf.rs`) and
//! the seeded smoke test in `cargo test`. Each takes arbitrary bytes and must never
//! panic.

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
    let mut out = String::new();
    for s in Section::ALL {
        let _ = crate::dump::dump(obj, s, DumpOptions::default(), &mut out);
    }
    let regs = crate::names::RegisterNames::Spec;
    let _ = crate::dump::dump(obj, Section::Info, DumpOptions { regs }, &mut out);
    let _ = crate::dump::debug_info_records(obj, DumpOptions::default());
    let _ = crate::dump::debug_line_records(obj);
}
