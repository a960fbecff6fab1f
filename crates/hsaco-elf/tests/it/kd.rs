//! Kernel descriptors and amd_kernel_code_t against LLVM 22 goldens in
//! `tests/data/kd/` (regenerate with `tests/data/kd/gen.py`).

use std::path::{Path, PathBuf};

use hsaco_elf::kd::{
    compare_with_objdump, kd_blocks_from_objdump, AmdKernelCode, KdFamily, KdTarget,
    KernelDescriptor, PrintOptions,
};
use hsaco_target::{Arch, Generation, Processor};

/// (name, mach, generation, version)
type ProcessorRow = (&'static str, u32, Generation, (u8, u8, u8));

/// The processors of the goldens.
const PROCESSORS: &[ProcessorRow] = &[
    ("gfx803", 0x2a, Generation::Gfx8, (8, 0, 3)),
    ("gfx900", 0x2c, Generation::Gfx9, (9, 0, 0)),
    ("gfx906", 0x2f, Generation::Gfx9, (9, 0, 6)),
    ("gfx908", 0x30, Generation::Gfx9, (9, 0, 8)),
    ("gfx90a", 0x3f, Generation::Gfx9, (9, 0, 10)),
    ("gfx90c", 0x32, Generation::Gfx9, (9, 0, 12)),
    ("gfx942", 0x4c, Generation::Gfx9, (9, 4, 2)),
    ("gfx950", 0x4f, Generation::Gfx9, (9, 5, 0)),
    ("gfx1010", 0x33, Generation::Gfx10, (10, 1, 0)),
    ("gfx1030", 0x36, Generation::Gfx10, (10, 3, 0)),
    ("gfx1100", 0x41, Generation::Gfx11, (11, 0, 0)),
    ("gfx1201", 0x4e, Generation::Gfx12, (12, 0, 1)),
    ("gfx1250", 0x49, Generation::Gfx125, (12, 5, 0)),
    ("gfx9-generic", 0x51, Generation::Gfx9, (9, 0, 0)),
    ("gfx9-4-generic", 0x5f, Generation::Gfx9, (9, 4, 0)),
    ("gfx10-1-generic", 0x52, Generation::Gfx10, (10, 1, 0)),
    ("gfx10-3-generic", 0x53, Generation::Gfx10, (10, 3, 0)),
    ("gfx11-generic", 0x54, Generation::Gfx11, (11, 0, 0)),
    ("gfx12-generic", 0x59, Generation::Gfx12, (12, 0, 0)),
];

/// The processor from hsaco-target's table, checked against the conventions the
/// descriptor decoder relies on (the rows above).
fn processor(name: &str) -> &'static Processor {
    let &(name, mach, generation, version) = PROCESSORS
        .iter()
        .find(|p| p.0 == name)
        .unwrap_or_else(|| panic!("processor {name} not in the test table"));
    let p = Processor::by_name(name).unwrap_or_else(|| panic!("{name} not in hsaco-target"));
    assert_eq!(
        (p.mach, p.arch, p.generation, p.version),
        (mach, Arch::Amdgcn, generation, version),
        "{name}"
    );
    p
}

fn data_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/kd")
        .join(sub)
}

fn files(sub: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data_dir(sub))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no goldens in {sub}");
    v
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// The first differing line of two texts, for failure messages.
fn line_diff(expected: &str, got: &str) -> String {
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    let i = e
        .iter()
        .zip(&g)
        .position(|(a, b)| a != b)
        .unwrap_or(e.len().min(g.len()));
    format!(
        "line {}: expected {:?}, got {:?}",
        i + 1,
        e.get(i).copied().unwrap_or("<end>"),
        g.get(i).copied().unwrap_or("<end>")
    )
}

/// Header of a golden file: `processor`, `cov`, `xnack default|0|1` lines.
fn options(text: &str) -> PrintOptions {
    let value = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(str::trim))
            .unwrap_or_else(|| panic!("no {key} line"))
    };
    let target = KdTarget::new(processor(value("processor ")));
    let target = match value("xnack ") {
        "default" => target,
        v => target.with_xnack(v == "1"),
    };
    PrintOptions {
        target,
        code_object_version: value("cov ").parse().unwrap(),
    }
}

/// `llvm-objdump` blocks of real code objects of every processor and code object
/// version of the corpus.
#[test]
fn blocks_match_llvm_objdump() {
    let mut compared = 0;
    let mut failures = Vec::new();
    for path in files("blocks") {
        let text = std::fs::read_to_string(&path).unwrap();
        let opts = options(&text);
        for entry in text.split("\nfile ").skip(1) {
            let mut lines = entry.lines();
            let file = lines.next().unwrap();
            let name = lines.next().unwrap().strip_prefix("kernel ").unwrap();
            let bytes = hex(lines.next().unwrap().strip_prefix("bytes ").unwrap());
            let expected: String = lines.map(|l| format!("{l}\n")).collect();
            let kd = KernelDescriptor::parse(&bytes).unwrap();
            let got = kd.objdump_block(name, &opts);
            compared += 1;
            if got != expected {
                failures.push(format!(
                    "{} {file} {name}:\n{}",
                    path.display(),
                    line_diff(&expected, &got)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 50, "only {compared} descriptors");
}

/// Every bit of a real descriptor flipped alone (and random multi-bit flips): LLVM's
/// error message, or the lines that change.
#[test]
fn bit_flips_match_llvm_objdump() {
    let mut failures = Vec::new();
    for path in files("flips") {
        let text = std::fs::read_to_string(&path).unwrap();
        let opts = options(&text);
        let bytes_line = text.lines().find(|l| l.starts_with("bytes ")).unwrap();
        let base_bytes = hex(bytes_line.strip_prefix("bytes ").unwrap());
        let base = KernelDescriptor::parse(&base_bytes).unwrap();
        let expected_base: String = text
            .lines()
            .skip_while(|l| !l.starts_with(".amdhsa_kernel"))
            .take_while(|l| !l.starts_with("flip "))
            .map(|l| format!("{l}\n"))
            .collect();
        let name = expected_base
            .lines()
            .next()
            .unwrap()
            .strip_prefix(".amdhsa_kernel ")
            .unwrap();
        assert_eq!(base.objdump_block(name, &opts), expected_base, "{path:?}");
        let base_lines: Vec<&str> = expected_base.lines().collect();
        for case in text.split("\nflip ").skip(1) {
            let mut lines = case.lines();
            let flipped: Vec<u32> = lines
                .next()
                .unwrap()
                .split(',')
                .map(|b| b.parse().unwrap())
                .collect();
            let expected: Vec<&str> = lines.collect();
            let mut bytes = base_bytes.clone();
            for &b in &flipped {
                bytes[(b / 8) as usize] ^= 1 << (b % 8);
            }
            let kd = KernelDescriptor::parse(&bytes).unwrap();
            let got_text = kd.objdump_block(name, &opts);
            let got: Vec<String> = if let Some(err) = got_text.strip_prefix("; error decoding ") {
                let message = err.split_once(": ").unwrap().1.trim_end();
                vec![format!("E {message}")]
            } else {
                let new: Vec<&str> = got_text.lines().collect();
                let removed = base_lines
                    .iter()
                    .filter(|l| !new.contains(l))
                    .map(|l| format!("- {l}"));
                let added = new
                    .iter()
                    .filter(|l| !base_lines.contains(l))
                    .map(|l| format!("+ {l}"));
                removed.chain(added).collect()
            };
            if got != expected {
                failures.push(format!(
                    "{} flip {flipped:?}: expected {expected:?}, got {got:?}",
                    path.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `llvm-mc -triple=amdgcn-mesa-mesa3d` printouts of `.amd_kernel_code_t` blocks and the
/// bytes it assembled from them; for 64-bit values that do not fit in 32 bits (which
/// llvm-mc prints truncated), the source text llvm-mc assembled into the bytes.
#[test]
fn amd_kernel_code_t_matches_llvm_mc() {
    let mut compared = 0;
    for path in files("code_t") {
        let text = std::fs::read_to_string(&path).unwrap();
        for case in text.split("\ncase ").skip(1) {
            let mut lines = case.lines();
            let id = lines.next().unwrap();
            let bytes = hex(lines.next().unwrap().strip_prefix("bytes ").unwrap());
            let expected: String = lines.map(|l| format!("{l}\n")).collect();
            let code = AmdKernelCode::parse(&bytes).unwrap();
            assert_eq!(
                code.to_directive_text(),
                expected,
                "{} case {id}",
                path.display()
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 40);
}

#[test]
fn amd_kernel_code_t_fields_and_unprintable_data() {
    // case 0 of gfx803: every key at the assembler's default
    let text = std::fs::read_to_string(data_dir("code_t").join("gfx803.txt")).unwrap();
    let bytes_line = text.lines().find(|l| l.starts_with("bytes ")).unwrap();
    let mut bytes = hex(bytes_line.strip_prefix("bytes ").unwrap());
    let code = AmdKernelCode::parse(&bytes).unwrap();
    // defaults documented in AMDGPUUsage ".amd_kernel_code_t"
    assert_eq!(code.get("amd_code_version_major"), Some(1));
    assert_eq!(code.get("amd_code_version_minor"), Some(2));
    assert_eq!(code.get("amd_machine_version_major"), Some(8));
    assert_eq!(code.get("amd_machine_version_stepping"), Some(3));
    assert_eq!(code.kernel_code_entry_byte_offset(), 256);
    assert_eq!(code.get("wavefront_size"), Some(6));
    assert_eq!(code.get("call_convention"), Some(0xffff_ffff));
    assert_eq!(code.get("kernarg_segment_alignment"), Some(4));
    assert_eq!(code.get("no_such_key"), None);
    // control directives cannot be written by the assembler: reported as a comment
    bytes[200] = 1;
    bytes[24] = 7; // kernel_code_prefetch_byte_offset
    let code = AmdKernelCode::parse(&bytes).unwrap();
    assert_eq!(
        code.unprintable(),
        [
            ("kernel_code_prefetch_byte_offset", 7),
            ("control_directive_bytes_nonzero", 1)
        ]
    );
    let text = code.to_directive_text();
    assert!(text.starts_with("\t.amd_kernel_code_t\n\t\tamd_code_version_major = 1\n"));
    assert!(text.ends_with("\t\truntime_loader_kernel_symbol = 0\n\t.end_amd_kernel_code_t\n"));
    let err = AmdKernelCode::parse(&bytes[..255]).unwrap_err();
    assert_eq!(err.offset, 255);
}

#[test]
fn reserved_bits_are_reported_with_range_and_value() {
    // gfx90a: COMPUTE_PGM_RSRC3 bits 15:6 and 31:17 are reserved (AMDGPUUsage table
    // "compute_pgm_rsrc3 for GFX90A, GFX940"), bytes 12..16 too.
    let mut bytes = [0u8; 64];
    bytes[44] = 0x40 | 0x01; // ACCUM_OFFSET 1, reserved bit 6
    bytes[46] = 0x06; // reserved bits 17, 18 (TG_SPLIT is bit 16)
    bytes[13] = 0x80; // reserved bit 111
    let kd = KernelDescriptor::parse(&bytes).unwrap();
    let target = KdTarget::new(processor("gfx90a"));
    let reserved = kd.reserved_bits(&target);
    let summary: Vec<(&str, u32, u32, u32, u64)> = reserved
        .iter()
        .map(|r| (r.field, r.hi, r.lo, r.descriptor_bit, r.value))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("kernel descriptor", 127, 96, 96, 1 << 15),
            ("COMPUTE_PGM_RSRC3", 15, 6, 44 * 8 + 6, 1),
            ("COMPUTE_PGM_RSRC3", 31, 17, 44 * 8 + 17, 3),
        ]
    );
    assert_eq!(
        kd.llvm_decode_error(&target).as_deref(),
        Some("kernel descriptor reserved bits in range (127:96) set")
    );
    // decoded anyway
    let opts = PrintOptions {
        target,
        code_object_version: 5,
    };
    assert!(kd
        .to_llvm_text("k", &opts)
        .contains("\t.amdhsa_accum_offset 8\n"));
    assert!(kd
        .objdump_block("k", &opts)
        .starts_with("; error decoding k.kd: "));
    // the same bits mean something else on gfx1100: RSRC3 bit 6 is INST_PREF_SIZE,
    // bits 21:14 are reserved (AMDGPUUsage "compute_pgm_rsrc3 for GFX10-GFX11")
    let gfx11 = KdTarget::new(processor("gfx1100"));
    let summary: Vec<(&str, u32, u32, u64)> = kd
        .reserved_bits(&gfx11)
        .iter()
        .map(|r| (r.field, r.hi, r.lo, r.value))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("kernel descriptor", 127, 96, 1 << 15),
            ("COMPUTE_PGM_RSRC3", 21, 14, 0b11000),
        ]
    );
}

#[test]
fn targets_follow_the_processor_tables() {
    let family = |n: &str| KdTarget::new(processor(n)).family;
    assert_eq!(family("gfx803"), KdFamily::Gfx6To8);
    assert_eq!(family("gfx906"), KdFamily::Gfx9);
    assert_eq!(family("gfx90c"), KdFamily::Gfx9);
    assert_eq!(family("gfx90a"), KdFamily::Gfx90a);
    assert_eq!(family("gfx9-4-generic"), KdFamily::Gfx90a);
    assert_eq!(family("gfx950"), KdFamily::Gfx90a);
    assert_eq!(family("gfx10-1-generic"), KdFamily::Gfx10);
    assert_eq!(family("gfx11-generic"), KdFamily::Gfx11);
    assert_eq!(family("gfx12-generic"), KdFamily::Gfx12);
    assert_eq!(family("gfx1250"), KdFamily::Gfx125);
    let afs = |n: &str| KdTarget::new(processor(n)).architected_flat_scratch;
    assert!(!afs("gfx90a") && afs("gfx942") && !afs("gfx1030") && afs("gfx1100"));
    let t = KdTarget::new(processor("gfx1100"));
    assert_eq!((t.vgpr_granule(true), t.vgpr_granule(false)), (8, 4));
}

#[test]
fn truncated_descriptor_is_an_error() {
    let err = KernelDescriptor::parse(&[0u8; 63]).unwrap_err();
    assert_eq!(err.offset, 63);
    assert!(KernelDescriptor::parse(&[0u8; 80]).is_ok());
}

/// Blocks cut out of a real `llvm-objdump-22` output (with a label that is no
/// descriptor and a descriptor LLVM refuses) equal the goldens.
#[test]
fn blocks_from_objdump_output() {
    let out = std::fs::read_to_string(data_dir("objdump").join("gfx90a_cov5.txt")).unwrap();
    let blocks = kd_blocks_from_objdump(&out);
    let names: Vec<&str> = blocks.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["private_array", "private_via_call", "bad"]);
    assert!(blocks[0].1.starts_with(".amdhsa_kernel private_array\n"));
    assert!(blocks[0].1.ends_with(".end_amdhsa_kernel\n"));
    assert_eq!(blocks[0].1.lines().count(), 40);
    assert!(blocks[2].1.starts_with("; error decoding bad.kd: "));
    assert_eq!(blocks[2].1.lines().count(), 1);
}

#[test]
fn fuzz_smoke() {
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for sub in ["flips", "code_t"] {
        for path in files(sub) {
            let text = std::fs::read_to_string(path).unwrap();
            for l in text.lines().filter(|l| l.starts_with("bytes ")) {
                seeds.push(hex(&l[6..]));
            }
        }
    }
    seeds.push(std::fs::read(data_dir("objdump").join("gfx90a_cov5.txt")).unwrap());
    let seeds: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    let n = hsaco_elf::fuzzing::mutation_smoke(hsaco_elf::fuzzing::kd, &seeds, 100_000, 0x6b64);
    assert_eq!(n, 100_000);
}

// ---------------------------------------------------------------------------------
// Live comparison against llvm-objdump-22 over a corpus (not run by `cargo test`):
//   HSACO_CORPUS=/work/corpus/out cargo test -p hsaco-elf --test it kd::llvm_diff -- --ignored --nocapture

fn elf_kd_symbols(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    // Minimal ELF64 little-endian walk (test-only): section headers, .symtab, *.kd.
    let u16_at = |o: usize| u16::from_le_bytes(data[o..o + 2].try_into().unwrap()) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(data[o..o + 4].try_into().unwrap()) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(data[o..o + 8].try_into().unwrap()) as usize;
    let shoff = u64_at(0x28);
    let shentsize = u16_at(0x3a);
    let shnum = u16_at(0x3c);
    let sh = |i: usize| shoff + i * shentsize;
    let mut out = Vec::new();
    for i in 0..shnum {
        if u32_at(sh(i) + 4) != 2 {
            continue; // SHT_SYMTAB
        }
        let (off, size, link) = (
            u64_at(sh(i) + 0x18),
            u64_at(sh(i) + 0x20),
            u32_at(sh(i) + 0x28),
        );
        let stroff = u64_at(sh(link) + 0x18);
        for s in (off..off + size).step_by(24) {
            let name_off = stroff + u32_at(s);
            let end = data[name_off..].iter().position(|&b| b == 0).unwrap();
            let name = String::from_utf8_lossy(&data[name_off..name_off + end]).into_owned();
            let shndx = u16_at(s + 6);
            if !name.ends_with(".kd") || shndx == 0 || shndx >= shnum {
                continue;
            }
            let value = u64_at(s + 8);
            let file_off = value - u64_at(sh(shndx) + 0x10) + u64_at(sh(shndx) + 0x18);
            out.push((name, data[file_off..file_off + 64].to_vec()));
        }
    }
    out
}

fn code_objects(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            code_objects(&p, out);
        } else if p.extension().is_some_and(|x| x == "co" || x == "o") {
            out.push(p);
        }
    }
}

#[test]
#[ignore = "needs llvm-objdump-22 and a corpus (HSACO_CORPUS)"]
fn llvm_diff() {
    let corpus = std::env::var("HSACO_CORPUS").unwrap_or_else(|_| "/work/corpus/out".into());
    let mut paths = Vec::new();
    code_objects(Path::new(&corpus), &mut paths);
    paths.sort();
    let (mut compared, mut mismatches) = (0, Vec::new());
    for path in &paths {
        let data = std::fs::read(path).unwrap();
        let flags = std::process::Command::new("llvm-readelf-22")
            .arg("-h")
            .arg(path)
            .output()
            .unwrap();
        let flags = String::from_utf8_lossy(&flags.stdout);
        let cpu = flags
            .lines()
            .find(|l| l.trim_start().starts_with("Flags:"))
            .and_then(|l| l.split(", ").nth(1))
            .unwrap()
            .trim()
            .to_string();
        let cov = data[8] + 2;
        let syms = elf_kd_symbols(&data);
        if syms.is_empty() {
            continue;
        }
        let mut names: Vec<&str> = syms.iter().map(|(n, _)| n.as_str()).collect();
        names.dedup();
        let out = std::process::Command::new("llvm-objdump-22")
            .arg("-D")
            .arg(format!("--mcpu={cpu}"))
            .arg(format!("--disassemble-symbols={}", names.join(",")))
            .arg(path)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&out.stdout);
        let opts = PrintOptions {
            target: KdTarget::new(processor(&cpu)),
            code_object_version: cov,
        };
        let (n, bad) = compare_with_objdump(&out, &opts, |name| {
            let sym = format!("{name}.kd");
            let bytes = &syms.iter().find(|(n, _)| *n == sym)?.1;
            KernelDescriptor::parse(bytes).ok()
        });
        compared += n;
        for m in bad {
            mismatches.push(format!(
                "{} {}:\n--- llvm\n{}--- hsaco\n{}",
                path.display(),
                m.kernel,
                m.llvm,
                m.ours
            ));
        }
    }
    println!(
        "kd llvm-diff: {compared} descriptors in {} files compared, {} mismatches",
        paths.len(),
        mismatches.len()
    );
    for m in mismatches.iter().take(5) {
        println!("{m}");
    }
    assert!(compared > 0);
    assert!(mismatches.is_empty());
}
