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
