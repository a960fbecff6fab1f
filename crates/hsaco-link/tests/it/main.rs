//! hsaco-link's tests: links of the fixtures in `tests/data` (made by `gen.sh` with
//! clang-22, llvm-mc-22 and ld.lld-22) compared byte for byte with what ld.lld-22
//! wrote, the errors ld.lld-22 also reports (messages checked against its own, kept
//! beside the fixtures), malformed input, and the seeded fuzz smoke run.

use hsaco_elf::elf::Elf;
use hsaco_link::{link, Input, LinkError, Options};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// ld.lld-22's own `.comment` line, as gen.sh recorded it.
fn lld_options() -> Options {
    Options {
        comment: Some(
            String::from_utf8(read("lld-comment.txt"))
                .expect("UTF-8")
                .trim()
                .to_string(),
        ),
    }
}

fn link_files(names: &[&str], options: &Options) -> Result<Vec<u8>, LinkError> {
    let data: Vec<Vec<u8>> = names.iter().map(|n| read(n)).collect();
    let inputs: Vec<Input<'_>> = names
        .iter()
        .zip(&data)
        .map(|(n, d)| Input::new(n, d))
        .collect();
    link(&inputs, options)
}

/// Where two linked files first differ, by section, for a readable failure.
fn first_difference(ours: &[u8], theirs: &[u8]) -> String {
    let at = ours
        .iter()
        .zip(theirs)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(theirs.len()));
    let section = Elf::parse(theirs)
        .ok()
        .and_then(|e| {
            e.sections().flatten().find(|s| {
                s.sh_type.0 != hsaco_elf::elf::consts::SHT_NOBITS
                    && (s.offset..s.offset + s.size).contains(&(at as u64))
            })
        })
        .map(|s| s.name_str().into_owned())
        .unwrap_or_else(|| "headers".into());
    format!(
        "sizes {} and {}, first difference at {at:#x} (in {section})",
        ours.len(),
        theirs.len()
    )
}

fn assert_same_as_lld(inputs: &[&str], expected: &str) {
    let ours = link_files(inputs, &lld_options()).unwrap_or_else(|e| panic!("{inputs:?}: {e}"));
    let theirs = read(expected);
    assert!(
        ours == theirs,
        "{inputs:?} vs {expected}: {}",
        first_difference(&ours, &theirs)
    );
}

#[test]
fn one_object_with_kernels_and_a_hidden_helper() {
    assert_same_as_lld(&["kernel.o"], "kernel.co");
}

#[test]
fn two_objects_calling_across() {
    assert_same_as_lld(&["multi_a.o", "multi_b.o"], "multi.co");
}

#[test]
fn data_bss_got_and_dynamic_relocations() {
    // .data/.bss in their own segment, a GOT with a preemptible and a hidden entry,
    // R_AMDGPU_RELATIVE64 and R_AMDGPU_ABS64 in .rela.dyn, a weak undefined symbol
    assert_same_as_lld(&["data.o"], "data.co");
}

#[test]
fn merged_strings_and_constants() {
    assert_same_as_lld(&["strs.o"], "strs.co");
}

#[test]
fn debug_sections() {
    assert_same_as_lld(&["kernel_g.o"], "kernel_g.co");
}

#[test]
fn relro_notes_absolute_and_weak_symbols() {
    // .data.rel.ro before .dynamic, two note sections of different alignment, an
    // absolute global, a weak definition overridden by a strong one in the second
    // file, a non-allocated mergeable section, a custom read-only section
    assert_same_as_lld(&["relro.o", "relro2.o"], "relro.co");
}

#[test]
fn got_entries_for_weak_undefined_and_absolute_symbols() {
    assert_same_as_lld(&["got.o"], "got.co");
}

#[test]
fn comdat_groups_kept_once() {
    // both files define the COMDAT group `inl` (.text.inl and .rodata.inl); the first
    // is kept, the second's sections dropped and its references go to the first
    assert_same_as_lld(&["comdat_a.o", "comdat_b.o"], "comdat.co");
}

#[test]
fn hip_relocatable_device_code() {
    // both objects instantiate the kernel k<float> in a COMDAT group; the second
    // refers to the first's device globals (.data with an absolute address, .bss)
    assert_same_as_lld(&["hip_a.o", "hip_b.o"], "hip.co");
}

#[test]
fn undefined_protected_symbol() {
    let e = link_files(&["hip_b.o"], &lld_options()).unwrap_err();
    // every undefined symbol, as ld.lld lists them (offsets: the first relocation
    // against each, by llvm-readelf-22 -r)
    let want = "undefined protected symbol: coeffs\n>>> referenced by hip_b.o:(.text._Z1kIfEvPT_i+0x30)\n\
                undefined protected symbol: table\n>>> referenced by hip_b.o:(.text._Z1kIfEvPT_i+0x78)\n\
                undefined protected symbol: ptrs\n>>> referenced by hip_b.o:(.text._Z1kIfEvPT_i+0xc0)";
    assert_eq!(e.to_string(), want);
    let lld = String::from_utf8(read("hip_b.lld-error")).unwrap();
    for name in ["coeffs", "table", "ptrs"] {
        assert!(
            lld.contains(&format!("undefined protected symbol: {name}\n")),
            "{lld}"
        );
    }
}

#[test]
fn absolute_symbols_from_another_object_and_rel16() {
    // R_AMDGPU_ABS32 and ABS64 against an absolute symbol defined in another object
    // (applied, no dynamic relocation); R_AMDGPU_REL16 to a hidden function
    assert_same_as_lld(&["rel16.o", "abs_a.o", "abs_b.o"], "abs.co");
}

#[test]
fn abs32_lo_is_refused() {
    // ld.lld-22 does not know R_AMDGPU_ABS32_LO/HI ("unknown relocation (1)")
    let e = link_files(&["abs32_lo.o", "abs_b.o"], &lld_options()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "abs32_lo.o:(.text+0x4): relocation R_AMDGPU_ABS32_LO against symbol 'ext' is not supported (nor by ld.lld)"
    );
    let lld = String::from_utf8(read("abs32_lo+abs_b.lld-error")).unwrap();
    assert!(lld.contains("abs32_lo.o:(.text+0x4): unknown relocation (1) against symbol ext"));
}

#[test]
fn weak_undefined_symbols() {
    // an unreferenced weak undefined symbol is still exported; a hidden one is a
    // local undefined symbol of its file
    assert_same_as_lld(&["weak_undef.o"], "weak_undef.co");
}

#[test]
fn the_output_reads_back() {
    let out = link_files(&["kernel.o"], &Options::default()).unwrap();
    let elf = Elf::parse(&out).unwrap();
    let dynsym = elf.dynsym().unwrap().unwrap();
    for name in ["saxpy", "saxpy.kd", "fill", "fill.kd"] {
        assert!(dynsym.by_name(name).is_some(), "{name} not exported");
    }
    // without a linker line, .comment holds the inputs' lines only
    let comment = elf.section_by_name(".comment").unwrap().data().unwrap();
    assert!(!comment.windows(6).any(|w| w == b"Linker"));
}

/// The messages of the links ld.lld-22 refuses: the same symbols and places as
/// ld.lld-22 names (its messages are in tests/data/*.lld-error).
#[test]
fn undefined_symbol() {
    let e = link_files(&["undef.o"], &lld_options()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "undefined symbol: missing\n>>> referenced by undef.o:(.text+0x8)"
    );
    let lld = String::from_utf8(read("undef.lld-error")).unwrap();
    assert!(lld.contains("undefined symbol: missing\n>>> referenced by undef.o:(.text+0x8)"));
}

#[test]
fn duplicate_symbol() {
    let e = link_files(&["dup_a.o", "dup_b.o"], &lld_options()).unwrap_err();
    let want = "duplicate symbol: dup\n>>> defined at dup_a.o:(.text+0x0)\n>>> defined at dup_b.o:(.text+0x8)";
    assert_eq!(e.to_string(), want);
    let lld = String::from_utf8(read("dup_a+dup_b.lld-error")).unwrap();
    assert!(lld.contains(want));
}

#[test]
fn mismatched_targets() {
    let e = link_files(&["data.o", "gfx1100.o"], &lld_options()).unwrap_err();
    assert!(matches!(e, LinkError::TargetMismatch { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "gfx1100.o: target gfx1100 (e_flags 0x41, code object v6) differs from data.o's \
         target gfx90a (e_flags 0x53f, code object v5)"
    );
    // ld.lld-22 refuses too
    assert!(String::from_utf8(read("data+gfx1100.lld-error"))
        .unwrap()
        .contains("incompatible"));
}

#[test]
fn absolute_address_in_read_only_data() {
    let e = link_files(&["rodata_abs64.o"], &lld_options()).unwrap_err();
    let want = "relocation R_AMDGPU_ABS64 cannot be used against symbol 'f'; recompile with -fPIC";
    assert_eq!(
        e.to_string(),
        format!("rodata_abs64.o:(.rodata+0x0): {want}")
    );
    let lld = String::from_utf8(read("rodata_abs64.lld-error")).unwrap();
    assert!(lld.contains(want) && lld.contains("rodata_abs64.o:(.rodata+0x0)"));
}

#[test]
fn malformed_and_wrong_inputs() {
    let o = read("kernel.o");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", Vec::new(), "malformed input"),
        ("truncated", o[..100].to_vec(), "malformed input"),
        ("text", b"not an object".to_vec(), "malformed input"),
        (
            "linked",
            read("kernel.co"),
            "not a relocatable AMDGPU object: type ET_DYN",
        ),
    ];
    for (name, data, want) in cases {
        let e = link(&[Input::new(name, &data)], &Options::default()).unwrap_err();
        assert!(e.to_string().contains(want), "{name}: {e}");
        assert!(e.to_string().starts_with(name), "{name}: {e}");
    }
    assert_eq!(
        link(&[], &Options::default()).unwrap_err(),
        LinkError::NoInputs
    );
}

#[test]
fn fuzz_smoke() {
    let seeds: Vec<Vec<u8>> = ["kernel.o", "multi_a.o", "data.o", "strs.o", "dup_b.o"]
        .iter()
        .map(|n| read(n))
        .collect();
    let refs: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    let n = hsaco_elf::fuzzing::mutation_smoke(
        hsaco_link::fuzzing::link,
        &refs,
        ITERATIONS,
        0x4c49_4e4b,
    );
    assert_eq!(n, ITERATIONS);
}

/// Inputs of the seeded mutation run (each links once, then twice with itself).
const ITERATIONS: usize = 100_000;
