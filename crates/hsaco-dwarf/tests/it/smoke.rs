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
