//! `lines::LineTable` against `llvm-dwarfdump-22 --lookup=ADDR` on a clang-22 object
//! (the expected lines, columns and names are its output, not ours).

use hsaco_dwarf::lines::LineTable;
use hsaco_dwarf::DwarfObject;

#[test]
fn lookups_agree_with_llvm_dwarfdump() {
    let data = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vadd-gfx90a-O0.co"
    ))
    .unwrap();
    let obj = DwarfObject::from_elf(&data).unwrap();
    let (table, errors) = LineTable::new(&obj);
    assert!(errors.is_empty(), "{errors:?}");
    // llvm-dwarfdump-22 --lookup=ADDR: "Line info: file '01_vadd.cl', line L, column C"
    // and the innermost DW_AT_linkage_name (else DW_AT_name)
    for (address, line, column, function) in [
        (0x2900, 4, 0, "__clang_ocl_kern_imp_vadd_f32"),
        (0x2c24, 8, 1, "__clang_ocl_kern_imp_vadd_f32"),
        (0x3694, 17, 13, "__clang_ocl_kern_imp_saxpy_grid_stride"),
        (0x3bd0, 19, 1, "saxpy_grid_stride"),
    ] {
        let loc = table.lookup(address).unwrap();
        assert_eq!((loc.line, loc.column), (line, column), "{address:#x}");
        assert!(loc.file.ends_with("/01_vadd.cl"), "{}", loc.file);
        assert_eq!(table.function(address), Some(function), "{address:#x}");
    }
    // past the end of the last sequence (0x3bd4, end_sequence): nothing
    assert!(table.lookup(0x3bd4).is_none());
}

/// A `-ffunction-sections` object (every function at offset 0 of its own section):
/// the function of an offset, whatever its section, is the DIE
/// `llvm-dwarfdump-22 --lookup=ADDR` finds there (expected values its output, on
/// subprograms without inlined subroutines at that offset). Overlapping sibling
/// ranges are entered in DIE order, and an entered range splits only the one in
/// force at its start: 0x10c is `calls` (what `calls`'s inlined
/// `__clang_ocl_kern_imp_calls` [0, 0x10c) left of it), 0x110 nothing.
#[test]
fn function_sections_lookups_agree_with_llvm_dwarfdump() {
    let data = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/calls-fsections-gfx1100-O2.o"
    ))
    .unwrap();
    let expected = [
        (0x20, Some("mix9")),
        (0x40, Some("mix9")),
        (0x70, Some("__clang_ocl_kern_imp_calls")),
        (0xc0, Some("__clang_ocl_kern_imp_calls")),
        (0x10c, Some("calls")),
        (0x110, None),
        (0x16c, None),
    ];
    let obj = DwarfObject::from_elf(&data).unwrap();
    let (table, errors) = LineTable::new(&obj);
    assert!(errors.is_empty(), "{errors:?}");
    for (address, function) in expected {
        assert_eq!(table.function(address), function, "{address:#x}");
    }
    // the same with the code sections placed apart (section indexes 3.. of the
    // object, as `hsaco dis` places them): functions still by offset alone
    let bases: Vec<(usize, u64)> = [3, 4, 6, 7, 8, 12, 14, 15, 16, 17]
        .iter()
        .enumerate()
        .map(|(k, &i)| (i, (k as u64) << 32))
        .collect();
    let obj = DwarfObject::from_elf_placed(&data, &bases).unwrap();
    let placed: Vec<u64> = bases.iter().map(|&(_, b)| b).collect();
    let (table, errors) = LineTable::new_placed(&obj, &placed);
    assert!(errors.is_empty(), "{errors:?}");
    for (address, function) in expected {
        assert_eq!(table.function(address), function, "{address:#x}");
    }
    // line rows per section: `.text.calls` (section 8, the fifth) +0x10c is line 31,
    // `.text.__clang_ocl_kern_imp_calls` (the sixth) +0x10c line 29 (llvm-objdump-22 -l)
    assert_eq!(table.lookup((4 << 32) + 0x10c).unwrap().line, 31);
    assert_eq!(table.lookup((5 << 32) + 0x10c).unwrap().line, 29);
}
