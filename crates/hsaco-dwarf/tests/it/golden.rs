//! Every object of tests/data against the llvm-dwarfdump-22 output committed beside
//! it (`<object>.dwarfdump`, made by tests/data/gen.sh). `BLESS=1` is not honoured
//! here on purpose: the expected text comes from LLVM, never from this crate.

use hsaco_dwarf::{DumpOptions, DwarfObject, Section};
use std::path::Path;

pub fn data_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"))
}

/// What `hsaco read --debug-info --debug-loclists --debug-frame --debug-aranges
/// --debug-line NAME` prints.
pub fn dump_all(name: &str, bytes: &[u8]) -> (String, Vec<hsaco_dwarf::Error>) {
    let obj = DwarfObject::from_elf(bytes).expect("an ELF file");
    let mut out = format!("{name}:\tfile format elf64-amdgpu\n\n").into_bytes();
    let mut errors = obj.errors.clone();
    for (i, s) in Section::ALL.iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        errors.extend(hsaco_dwarf::dump::dump(
            &obj,
            *s,
            DumpOptions::default(),
            &mut out,
        ));
    }
    (String::from_utf8(out).expect("UTF-8 text"), errors)
}

#[test]
fn objects_match_llvm_dwarfdump() {
    let mut names: Vec<String> = std::fs::read_dir(data_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".o") || n.ends_with(".co"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "golden objects missing: {names:?}");
    let mut bad = Vec::new();
    for name in &names {
        let bytes = std::fs::read(data_dir().join(name)).unwrap();
        let expected =
            std::fs::read_to_string(data_dir().join(format!("{name}.dwarfdump"))).unwrap();
        let (got, errors) = dump_all(name, &bytes);
        if got != expected {
            let line = expected
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(expected.lines().count().min(got.lines().count()));
            bad.push(format!(
                "{name}: first difference at line {}:\n  llvm:  {:?}\n  hsaco: {:?}",
                line + 1,
                expected.lines().nth(line),
                got.lines().nth(line)
            ));
        }
        // the corpus objects read without error (the probes hold deliberate junk)
        if !name.starts_with("llvm_") && !name.starts_with("regs") {
            assert!(errors.is_empty(), "{name}: {errors:?}");
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The `.rela.debug_*` records of a relocatable object are applied.
#[test]
fn relocations_are_applied() {
    let bytes = std::fs::read(data_dir().join("calls-gfx1100-O2.o")).unwrap();
    let obj = DwarfObject::from_elf(&bytes).unwrap();
    assert!(obj.errors.is_empty(), "{:?}", obj.errors);
    let mut text = Vec::new();
    hsaco_dwarf::dump::dump(&obj, Section::Info, DumpOptions::default(), &mut text);
    let text = String::from_utf8(text).expect("UTF-8 text");
    // without the .rela.debug_str_offsets records every string would be the first
    // one (the producer), and every low_pc 0
    assert!(text.contains("DW_AT_name\t(\"06_calls.cl\")"), "{text}");
    assert!(text.contains("DW_AT_name\t(\"float\")"));
    assert!(text.contains("DW_AT_decl_file\t(\"/work/shared/corpus/cl/06_calls.cl\")"));
    assert!(text.contains("DW_AT_low_pc\t(0x00000000000000bc)"));
}
