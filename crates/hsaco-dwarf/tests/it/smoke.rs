//! The seeded fuzz smoke runs (the cargo-fuzz target `dwarf` runs the same entry
//! points without end): mutated golden objects and mutated raw sections never panic.

use crate::golden::data_dir;

fn seeds(exts: &[&str]) -> Vec<Vec<u8>> {
    let mut v: Vec<_> = std::fs::read_dir(data_dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| exts.iter().any(|x| e == *x)))
        .collect();
    v.sort();
    v.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

#[test]
fn mutated_objects_never_panic() {
    // the smaller objects: a mutation lands in the debug sections often enough
    let seeds: Vec<Vec<u8>> = seeds(&["o", "co"])
        .into_iter()
        .filter(|s| s.len() < 16_000)
        .collect();
    assert!(seeds.len() >= 4);
    let refs: Vec<&[u8]> = seeds.iter().map(|s| &s[..]).collect();
    let n =
        hsaco_elf::fuzzing::mutation_smoke(hsaco_dwarf::fuzzing::dwarf_elf, &refs, 10_000, 0xd3a7f);
    assert_eq!(n, 10_000);
}

#[test]
fn mutated_sections_never_panic() {
    // raw sections cut out of a golden object (lengths first, as dwarf_sections reads)
    let bytes = std::fs::read(data_dir().join("llvm_ops.o")).unwrap();
    let elf = hsaco_elf::elf::Elf::parse(&bytes).unwrap();
    let get = |n: &str| {
        elf.section_by_name(n)
            .and_then(|s| s.data().ok())
            .unwrap_or(&[])
            .to_vec()
    };
    let parts = [
        get(".debug_info"),
        get(".debug_abbrev"),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    ];
    let mut seed = Vec::new();
    for p in &parts[..5] {
        seed.extend_from_slice(&(p.len() as u16).to_le_bytes());
    }
    for p in &parts {
        seed.extend_from_slice(p);
    }
    let n = hsaco_elf::fuzzing::mutation_smoke(
        hsaco_dwarf::fuzzing::dwarf_sections,
        &[&seed],
        100_000,
        0xd3a7,
    );
    assert_eq!(n, 100_000);
}

#[test]
fn mutated_expressions_never_panic() {
    // the DW_OP_LLVM_* idioms of the spec and clang's, as seeds
    let seeds: [&[u8]; 8] = [
        &[0x90, 0x80, 0x14, 0xe9, 3, 0x34, 0x1e, 0xe9, 4],
        &[
            0x90, 0x80, 0x14, 0x10, 0x80, 0x02, 0x36, 0xe9, 2, 0xe9, 7, 0x11, 0x94, 8, 0xe9, 12,
            0x20, 0x40,
        ],
        &[0xe9, 8, 0xe9, 11, 0x40, 0x40, 0x90, 0x10, 0xe9, 10],
        &[
            0x35, 0xe9, 9, 0x85, 0x14, 0x08, 0xe9, 5, 0x10, 0x33, 0xe9, 6,
        ],
        &[0x91, 0x10, 0x35, 0x16, 0x18],
        &[
            0x92, 0x82, 0x0c, 0x00, 0x35, 0x16, 0x18, 0x93, 4, 0x92, 0x83, 0x0c, 0x00, 0x35, 0x16,
            0x18, 0x93, 4,
        ],
        &[0x11, 0x7f, 0x35, 0x16, 0x18, 0x9f],
        &[
            0x31, 0x28, 0x02, 0x00, 0x30, 0x2f, 0xfc, 0xff, 0x32, 0x12, 0x22,
        ],
    ];
    let n = hsaco_elf::fuzzing::mutation_smoke(
        hsaco_dwarf::fuzzing::dwarf_expression,
        &seeds,
        100_000,
        0x10ca7e,
    );
    assert_eq!(n, 100_000);
}
