//! Fixtures written with `gimli::write` for the heterogeneous debugging extensions
//! of AMDGPUUsage ("DWARF Debug Information" and the extensions it links to): every
//! `DW_OP_LLVM_*` operation with a code and every `DW_AT_LLVM_*` attribute with a
//! code, including those clang-22 does not emit. Expected text: the spec's operand
//! encodings, printed as llvm-dwarfdump-22 prints the same bytes (checked on
//! tests/data/llvm_ops.o and llvm_attrs.o, which hold the same operations).

use gimli::write::{AttributeValue, DwarfUnit, EndianVec, Expression, Sections};
use hsaco_dwarf::names::{self, RegisterNames};
use hsaco_dwarf::{DumpOptions, DwarfObject, Section};

/// The encoding of the fixtures' units: DWARF 5, 32-bit format, 8-byte addresses.
pub const DWARF5: gimli::Encoding = gimli::Encoding {
    format: gimli::Format::Dwarf32,
    version: 5,
    address_size: 8,
};

/// A unit with one DW_TAG_variable per (attribute, value).
fn fixture(entries: &[(u16, AttributeValue)]) -> DwarfObject<'static> {
    let mut dwarf = DwarfUnit::new(DWARF5);
    let root = dwarf.unit.root();
    for (at, v) in entries {
        let die = dwarf.unit.add(root, gimli::DW_TAG_variable);
        dwarf.unit.get_mut(die).set(gimli::DwAt(*at), v.clone());
    }
    written(&mut dwarf)
}

/// The sections of a `gimli::write` unit, as an object.
pub fn written(dwarf: &mut DwarfUnit) -> DwarfObject<'static> {
    let mut sections = Sections::new(EndianVec::new(gimli::LittleEndian));
    dwarf.write(&mut sections).unwrap();
    let mut v = Vec::new();
    sections
        .for_each(|id, data| {
            v.push((id.name(), data.slice().to_vec()));
            Ok::<(), gimli::Error>(())
        })
        .unwrap();
    DwarfObject::from_sections(v)
}

fn expr(bytes: &[u8]) -> AttributeValue {
    AttributeValue::Exprloc(Expression::raw(bytes.to_vec()))
}

/// The attribute lines (name and value) of the DIEs, in order.
fn attribute_lines(obj: &DwarfObject, regs: RegisterNames) -> Vec<String> {
    let mut out = Vec::new();
    let errors = hsaco_dwarf::dump::dump(obj, Section::Info, DumpOptions { regs }, &mut out);
    assert!(errors.is_empty(), "{errors:?}");
    let out = String::from_utf8(out).expect("UTF-8 text");
    out.lines()
        .filter(|l| l.starts_with("    ") && l.contains("\t("))
        .map(|l| l.trim().to_string())
        .collect()
}

const LOC: u16 = 0x02; // DW_AT_location

#[test]
fn every_llvm_operation() {
    // (bytes, text): DW_OP_LLVM_user (0xe9), the sub-opcode, then the operands the
    // spec gives each operation
    let cases: &[(&[u8], &str)] = &[
        (&[0xe9, 1], "DW_OP_LLVM_user DW_OP_LLVM_nop"),
        (&[0x30, 0x35, 0xe9, 2], "DW_OP_lit0, DW_OP_lit5, DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address"),
        (
            // VGPR0 (wave64: 2560), the current lane times 4 bytes as offset
            &[0x90, 0x80, 0x14, 0xe9, 3, 0x34, 0x1e, 0xe9, 4],
            "DW_OP_regx VGPR0, DW_OP_LLVM_user DW_OP_LLVM_push_lane, DW_OP_lit4, DW_OP_mul, DW_OP_LLVM_user DW_OP_LLVM_offset",
        ),
        (&[0xe9, 5, 0x90, 0x01], "DW_OP_LLVM_user DW_OP_LLVM_offset_uconst 0x90"),
        (&[0x33, 0xe9, 6], "DW_OP_lit3, DW_OP_LLVM_user DW_OP_LLVM_bit_offset"),
        (&[0xe9, 7, 0x41], "DW_OP_LLVM_user DW_OP_LLVM_call_frame_entry_reg SGPR33"),
        (&[0xe9, 8, 0x93, 4], "DW_OP_LLVM_user DW_OP_LLVM_undefined, DW_OP_piece 0x4"),
        (&[0xe9, 9, 0x85, 0x14, 0x08], "DW_OP_LLVM_user DW_OP_LLVM_aspace_bregx VGPR5+8"),
        (&[0xe9, 10], "DW_OP_LLVM_user DW_OP_LLVM_piece_end"),
        (&[0xe9, 11, 0x20, 0x40], "DW_OP_LLVM_user DW_OP_LLVM_extend 0x20 0x40"),
        (&[0xe9, 12, 0x20, 0x40], "DW_OP_LLVM_user DW_OP_LLVM_select_bit_piece 0x20 0x40"),
        // an unknown sub-opcode: the rest of the expression in hex
        (&[0xe9, 13, 1], "<decoding error> e9 0d 01"),
    ];
    // every operation of the table is exercised
    for op in names::LLVM_OPERATIONS {
        assert!(
            cases
                .iter()
                .any(|(_, t)| t.split([' ', ',']).any(|w| w == op.name)),
            "{} has no fixture",
            op.name
        );
    }
    let entries: Vec<_> = cases.iter().map(|(b, _)| (LOC, expr(b))).collect();
    let got = attribute_lines(&fixture(&entries), RegisterNames::Llvm);
    let want: Vec<String> = cases
        .iter()
        .map(|(_, t)| format!("DW_AT_location\t({t})"))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn every_llvm_attribute() {
    // DW_AT_LLVM_lane_pc holds a location expression (the lane's PC), the others
    // constants; llvm-dwarfdump-22 prints a data1 value as 0xNN
    let lane_pc = names::LLVM_ATTRIBUTES
        .iter()
        .find(|(_, n)| *n == "DW_AT_LLVM_lane_pc")
        .unwrap()
        .0;
    let mut entries = Vec::new();
    let mut want = Vec::new();
    for (code, name) in names::LLVM_ATTRIBUTES {
        if *code == lane_pc {
            entries.push((*code, expr(&[0x90, 0x80, 0x14])));
            want.push(format!("{name}\t(DW_OP_regx VGPR0)"));
        } else {
            entries.push((*code, AttributeValue::Data1(3)));
            want.push(format!("{name}\t(0x03)"));
        }
    }
    // DW_AT_address_class (0x33) with an AMDGPU address class: printed as a number
    entries.push((0x33, AttributeValue::Data4(5)));
    want.push("DW_AT_address_class\t(0x00000005)".to_string());
    let got = attribute_lines(&fixture(&entries), RegisterNames::Llvm);
    assert_eq!(got, want);
    assert_eq!(names::address_class_name(5), Some("DW_ADDR_AMDGPU_private"));
    assert_eq!(
        names::address_space_name(6),
        Some("DW_ASPACE_AMDGPU_private_wave")
    );
    assert_eq!(names::memory_space_name(3), Some("DW_MSPACE_LLVM_group"));
}

#[test]
fn spec_register_names_cover_wave32() {
    // VGPR6 in wavefront 32 mode (1536 + 6): llvm-dwarfdump-22 leaves it a number,
    // the spec's mapping names it
    let entries = [
        (LOC, expr(&[0x92, 0x86, 0x0c, 0x00])),
        (LOC, expr(&[0x90, 0x10])),
    ];
    let obj = fixture(&entries);
    assert_eq!(
        attribute_lines(&obj, RegisterNames::Llvm),
        [
            "DW_AT_location\t(DW_OP_bregx 0x606 +0)",
            "DW_AT_location\t(DW_OP_regx PC_REG)"
        ]
    );
    assert_eq!(
        attribute_lines(&obj, RegisterNames::Spec),
        [
            "DW_AT_location\t(DW_OP_bregx VGPR6_W32+0)",
            "DW_AT_location\t(DW_OP_regx PC_64)"
        ]
    );
}

#[test]
fn bad_dwarf_names_section_and_offset() {
    // a unit whose length runs past the end of .debug_info
    let obj = DwarfObject::from_sections(vec![
        (
            ".debug_info",
            vec![0xff, 0x00, 0x00, 0x00, 5, 0, 1, 8, 0, 0, 0, 0],
        ),
        (".debug_abbrev", vec![0]),
    ]);
    let mut out = Vec::new();
    let errors = hsaco_dwarf::dump::dump(&obj, Section::Info, DumpOptions::default(), &mut out);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].section, ".debug_info");
    assert!(
        errors[0].to_string().contains("(at offset 0x0)"),
        "{}",
        errors[0]
    );
    // the rest of the object still reads: the line section is empty, not an error
    let mut line = Vec::new();
    assert!(
        hsaco_dwarf::dump::dump(&obj, Section::Line, DumpOptions::default(), &mut line).is_empty()
    );
}
