//! Integration tests of hsaco-isa: LLVM-generated text vectors, and a mutation smoke run
//! of the decoder and printer.

use hsaco_isa::Decoder;

/// Vectors whose text we do not yet produce (one `hex words | processor` per line). The
/// test fails if any other vector differs, so this list only shrinks.
const KNOWN_GAPS: &str = include_str!("data/gfx9.known-gaps");

fn words_to_bytes(hex: &str) -> Vec<u8> {
    hex.split_whitespace()
        .flat_map(|w| u32::from_str_radix(w, 16).expect("hex word").to_le_bytes())
        .collect()
}

#[test]
fn gfx9_vectors() {
    generation_vectors("gfx9", include_str!("data/gfx9.txt"), KNOWN_GAPS, 3000);
}

/// Hand-picked LLVM vectors beyond the sweep (every one must match).
#[test]
fn gfx9_extra_vectors() {
    let mut checked = 0;
    for line in include_str!("data/gfx9.extra.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        let mut parts = line.split(" | ");
        let (Some(hex), Some(want), Some(procs)) = (parts.next(), parts.next(), parts.next())
        else {
            panic!("bad vector line {line}");
        };
        let bytes = words_to_bytes(hex);
        for p in procs.split(',') {
            let dec = Decoder::for_processor(p).expect("processor");
            let inst = dec.decode(&bytes).expect(line);
            assert_eq!(dec.text(&inst), want, "{hex} on {p}");
            checked += 1;
        }
    }
    assert!(checked > 1500, "too few vectors: {checked}");
}

/// Every line of each `(generation, text)` vector file (`hex | llvm text | processors`)
/// decodes to one whole instruction printed exactly as llvm-mc-22 does, on every
/// listed processor; each file has more than `min_lines` lines.
fn exact_vectors(what: &str, files: &[(&str, &str)], min_lines: usize) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (gen, text) in files {
        let mut lines = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            // the text may contain " | " itself (s_delay_alu)
            let (Some((hex, rest)), true) = (line.split_once(" | "), line.contains(" | ")) else {
                panic!("bad vector line {line}");
            };
            let Some((want, procs)) = rest.rsplit_once(" | ") else {
                panic!("bad vector line {line}");
            };
            let bytes = words_to_bytes(hex);
            for p in procs.split(',') {
                let dec = Decoder::for_processor(p).expect("processor");
                checked += 1;
                let got = match dec.decode(&bytes) {
                    Ok(inst) if usize::from(inst.size) == bytes.len() => dec.text(&inst),
                    Ok(inst) => format!("{} ({} bytes)", dec.text(&inst), inst.size),
                    Err(e) => format!("error: {e}"),
                };
                if got != want {
                    failures.push(format!("{gen} {p} {hex}: want `{want}`, got `{got}`"));
                }
            }
            lines += 1;
        }
        assert!(lines > min_lines, "{gen}: too few {what} vectors: {lines}");
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} {what} checks differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every word of each `(generation, text)` file (`hex | processors`), which llvm-mc-22
/// rejects, is rejected by hsaco too (llvm-objdump prints such words as data).
fn rejected_words(what: &str, files: &[(&str, &str)], min_lines: usize) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (gen, text) in files {
        let mut lines = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let Some((hex, procs)) = line.split_once(" | ") else {
                panic!("bad line {line}");
            };
            let bytes = words_to_bytes(hex);
            for p in procs.split(',') {
                let dec = Decoder::for_processor(p).expect("processor");
                checked += 1;
                if let Ok(inst) = dec.decode(&bytes) {
                    failures.push(format!("{gen} {p} {hex}: decoded as `{}`", dec.text(&inst)));
                }
            }
            lines += 1;
        }
        assert!(
            lines > min_lines,
            "{gen}: too few rejected {what} words: {lines}"
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} {what} words LLVM rejects are decoded:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// gfx8 VOPC in SDWA form (scripts/vopc_sdwa_vectors.py): printed without a suffix.
#[test]
fn gfx8_vopc_sdwa_vectors() {
    exact_vectors(
        "VOPC SDWA",
        &[("gfx8", include_str!("data/gfx8.vopcsdwa.txt"))],
        300,
    );
}

/// DS (LDS/GDS) vectors of every generation (scripts/ds_vectors.py).
#[test]
fn ds_vectors() {
    exact_vectors(
        "DS",
        &[
            ("gfx8", include_str!("data/gfx8.ds.txt")),
            ("gfx9", include_str!("data/gfx9.ds.txt")),
            ("gfx10", include_str!("data/gfx10.ds.txt")),
            ("gfx11", include_str!("data/gfx11.ds.txt")),
            ("gfx12", include_str!("data/gfx12.ds.txt")),
        ],
        100,
    );
}

/// DS words llvm-mc-22 rejects (scripts/ds_vectors.py: register fields the operation
/// does not use, gds/acc where it has none, operations of other processors).
#[test]
fn ds_invalid_words() {
    rejected_words(
        "DS",
        &[
            ("gfx8", include_str!("data/gfx8.ds.invalid")),
            ("gfx9", include_str!("data/gfx9.ds.invalid")),
            ("gfx10", include_str!("data/gfx10.ds.invalid")),
            ("gfx11", include_str!("data/gfx11.ds.invalid")),
            ("gfx12", include_str!("data/gfx12.ds.invalid")),
        ],
        100,
    );
}

/// SOPP vectors of gfx8-gfx12 (scripts/sopp_vectors.py): every SOPP instruction with
/// immediates across the range (sendmsg, gpr_idx, waitcnt, depctr, delay_alu, ...),
/// plus s_set_gpr_idx_on and s_sendmsg_rtn.
#[test]
fn sopp_vectors() {
    exact_vectors(
        "SOPP",
        &[
            ("gfx8", include_str!("data/gfx8.sopp.txt")),
            ("gfx9", include_str!("data/gfx9.sopp.txt")),
            ("gfx10", include_str!("data/gfx10.sopp.txt")),
            ("gfx11", include_str!("data/gfx11.sopp.txt")),
            ("gfx12", include_str!("data/gfx12.sopp.txt")),
        ],
        500,
    );
}

/// VOPD (dual-issue) vectors of gfx11/gfx12 (scripts/vopd_vectors.py): every pair of X
/// and Y opcodes LLVM accepts, with VGPR, SGPR, inline and literal first sources.
#[test]
fn vopd_vectors() {
    exact_vectors(
        "VOPD",
        &[
            ("gfx11", include_str!("data/gfx11.vopd.txt")),
            ("gfx12", include_str!("data/gfx12.vopd.txt")),
        ],
        500,
    );
}

/// VOPD words llvm-mc-22 rejects although the pair exists (scripts/vopd_vectors.py): a
/// vsrc1 of v_dual_mov_b32, unnamed scalar codes, gfx1250's code 254.
#[test]
fn vopd_invalid_words() {
    rejected_words(
        "VOPD",
        &[
            ("gfx11", include_str!("data/gfx11.vopd.invalid")),
            ("gfx12", include_str!("data/gfx12.vopd.invalid")),
        ],
        10,
    );
}

/// gfx1250 VOPD3 (three-word dual-issue) vectors (scripts/vopd3_vectors.py): every X
/// operation with every Y operation, neg bits per source, scalar/inline/special
/// sources, lane masks, bitop3 tables, odd 64-bit tuples, random words.
#[test]
fn vopd3_vectors() {
    exact_vectors(
        "VOPD3",
        &[("gfx12", include_str!("data/gfx12.vopd3.txt"))],
        1000,
    );
}

/// VOPD3 words llvm-mc-22 rejects (scripts/vopd3_vectors.py): a non-zero register
/// field the half has no operand for, neg bits of operations without float modifiers
/// or of absent sources, literal and unnamed scalar codes, opcodes outside the tables,
/// random words; every VOPD3 pair on gfx1201.
#[test]
fn vopd3_invalid_words() {
    rejected_words(
        "VOPD3",
        &[("gfx12", include_str!("data/gfx12.vopd3.invalid"))],
        1000,
    );
}

/// Vectors from assembly text (scripts/asm_vectors.py): operand-less, lane, permute,
/// f64-compare and image instructions the sweeps left without a passing vector. On gfx6
/// and gfx7 the text is one that llvm-mc-22 assembles back to the same bytes.
#[test]
fn asm_vectors() {
    exact_vectors(
        "asm",
        &[
            ("gfx6", include_str!("data/gfx6.asm.txt")),
            ("gfx7", include_str!("data/gfx7.asm.txt")),
            ("gfx8", include_str!("data/gfx8.asm.txt")),
            ("gfx9", include_str!("data/gfx9.asm.txt")),
            ("gfx10", include_str!("data/gfx10.asm.txt")),
            ("gfx11", include_str!("data/gfx11.asm.txt")),
            ("gfx12", include_str!("data/gfx12.asm.txt")),
        ],
        10,
    );
}

/// Probe vectors of gfx1250 WMMA/SWMMAC and VOPD3 (scripts/probe_vectors.py).
#[test]
fn probe_vectors() {
    exact_vectors(
        "probe",
        &[("gfx12", include_str!("data/gfx12.probe.txt"))],
        5,
    );
}

/// SOPP words llvm-mc-22 rejects (operand-less instructions with an immediate,
/// opcodes a processor does not have).
#[test]
fn sopp_invalid_words() {
    rejected_words(
        "SOPP",
        &[
            ("gfx8", include_str!("data/gfx8.sopp.invalid")),
            ("gfx9", include_str!("data/gfx9.sopp.invalid")),
            ("gfx10", include_str!("data/gfx10.sopp.invalid")),
            ("gfx11", include_str!("data/gfx11.sopp.invalid")),
            ("gfx12", include_str!("data/gfx12.sopp.invalid")),
        ],
        100,
    );
}

fn fuzz_entry(data: &[u8]) {
    hsaco_isa::fuzzing::dis_on(&["gfx900", "gfx90a", "gfx942"], data);
}

/// The cargo-fuzz target `dis` itself (fuzz/fuzz_targets/dis.rs): its first byte picks
/// the processor and wave64 mode; seeds are vectors of every generation headed by the
/// byte of a processor they are for.
#[test]
fn mutation_smoke_dis_target() {
    use hsaco_isa::fuzzing::{dis, PROCESSORS};
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for data in [
        include_str!("data/gfx6.txt"),
        include_str!("data/gfx7.txt"),
        include_str!("data/gfx8.txt"),
        include_str!("data/gfx9.txt"),
        include_str!("data/gfx10.txt"),
        include_str!("data/gfx11.txt"),
        include_str!("data/gfx12.txt"),
    ] {
        for (n, line) in data
            .lines()
            .filter(|l| !l.starts_with('#'))
            .step_by(113)
            .enumerate()
        {
            let mut cols = line.split(" | ");
            let words = words_to_bytes(cols.next().unwrap_or(""));
            let procs = cols.nth(1).unwrap_or("");
            let Some(k) = procs
                .split(',')
                .find_map(|p| PROCESSORS.iter().position(|q| q == &p.trim()))
            else {
                continue;
            };
            let wave64 = if n % 4 == 3 { 0x80 } else { 0 };
            let mut seed = vec![k as u8 | wave64];
            seed.extend(words);
            seeds.push(seed);
        }
    }
    let seeds: Vec<&[u8]> = seeds.iter().map(|s| s.as_slice()).collect();
    assert!(seeds.len() > 300, "{} seeds", seeds.len());
    let n = hsaco_elf::fuzzing::mutation_smoke(dis, &seeds, 100_000, 13);
    assert!(n > 0);
}

#[test]
fn mutation_smoke() {
    let data = include_str!("data/gfx9.txt");
    let seeds: Vec<Vec<u8>> = data
        .lines()
        .filter(|l| !l.starts_with('#'))
        .step_by(97)
        .map(|l| words_to_bytes(l.split(" | ").next().unwrap_or("")))
        .collect();
    let seeds: Vec<&[u8]> = seeds.iter().map(|s| s.as_slice()).collect();
    let n = hsaco_elf::fuzzing::mutation_smoke(fuzz_entry, &seeds, 100_000, 7);
    assert!(n > 0 || seeds.is_empty());
}

/// `listing::write_elf` against committed `llvm-objdump-22 -d` output
/// (tests/data/listing/README.md).
#[test]
fn listings_match_llvm_objdump() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/listing");
    let mut checked = 0;
    for (name, symbolize) in [
        ("branches.o", false),
        ("labels.o", false),
        ("notype.o", false),
        ("zeros.o", false),
        ("gfx90a-matrix.co", false),
        ("gfx942-atomics.co", false),
        ("gfx950-scale.o", false),
        ("symbolize.o", true),
        ("branches.o", true),
        ("gfx90a-matrix.co", true),
        ("gfx942-atomics.co", true),
    ] {
        let data = std::fs::read(format!("{dir}/{name}")).expect("input");
        let golden = if symbolize {
            format!("{dir}/{name}.symbolize.objdump")
        } else {
            format!("{dir}/{name}.objdump")
        };
        let want = std::fs::read_to_string(golden).expect("golden");
        let elf = hsaco_elf::elf::Elf::parse(&data).expect("ELF");
        let proc = hsaco_isa::listing::processor_from_e_flags(elf.e_flags()).expect("processor");
        let dec = Decoder::for_processor(proc).expect("decoder");
        let mut out = Vec::new();
        hsaco_isa::listing::write_elf(
            &mut out,
            name,
            &elf,
            dec,
            &hsaco_isa::listing::Options {
                symbolize_operands: symbolize,
                ..Default::default()
            },
        )
        .expect("listing");
        let got = String::from_utf8(out).expect("utf-8");
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{name} (symbolize {symbolize}) line {}", i + 1);
        }
        assert_eq!(
            got.lines().count(),
            want.lines().count(),
            "{name}: line count"
        );
        checked += 1;
    }
    assert_eq!(checked, 11);
}

/// Check the LLVM vectors of one generation (`tests/data/<gen>.txt`) against its
/// known-gaps list (`BLESS=1` rewrites the list; review that it only shrinks).
fn generation_vectors(gen: &str, data: &str, known_gaps: &str, min_checks: usize) {
    let known: std::collections::HashSet<&str> = known_gaps.lines().collect();
    let mut checked = 0;
    let mut new_failures = Vec::new();
    let mut gaps = Vec::new();
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        // the text may contain " | " itself (s_delay_alu)
        let Some((hex, rest)) = line.split_once(" | ") else {
            panic!("bad vector line {line}");
        };
        let Some((want, procs)) = rest.rsplit_once(" | ") else {
            panic!("bad vector line {line}");
        };
        let bytes = words_to_bytes(hex);
        for p in procs.split(',') {
            let dec = Decoder::for_processor(p).expect("processor");
            let got = match dec.decode(&bytes) {
                Ok(i) if usize::from(i.size) == bytes.len() => dec.text(&i),
                Ok(i) => format!("{} (size {})", dec.text(&i), i.size),
                Err(e) => e.to_string(),
            };
            checked += 1;
            if got != want {
                let id = format!("{hex} | {p}");
                if !known.contains(id.as_str()) {
                    new_failures.push(format!("{hex} | {p}\n   want {want}\n   got  {got}"));
                }
                gaps.push(id);
            }
        }
    }
    if std::env::var_os("BLESS").is_some() {
        let path = format!("{}/tests/data/{gen}.known-gaps", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(path, gaps.join("\n") + "\n").expect("write known gaps");
        return;
    }
    assert!(checked > min_checks, "too few vectors: {checked}");
    assert!(
        new_failures.is_empty(),
        "{} {gen} vectors differ from LLVM (of {checked}):\n{}",
        new_failures.len(),
        new_failures[..new_failures.len().min(40)].join("\n")
    );
}

#[test]
fn gfx10_vectors() {
    generation_vectors(
        "gfx10",
        include_str!("data/gfx10.txt"),
        include_str!("data/gfx10.known-gaps"),
        3000,
    );
}

#[test]
fn gfx11_vectors() {
    generation_vectors(
        "gfx11",
        include_str!("data/gfx11.txt"),
        include_str!("data/gfx11.known-gaps"),
        3000,
    );
}

#[test]
fn gfx12_vectors() {
    generation_vectors(
        "gfx12",
        include_str!("data/gfx12.txt"),
        include_str!("data/gfx12.known-gaps"),
        3000,
    );
}

/// The decoder, printer and listing of the RDNA processors on mutated bytes.
fn fuzz_entry_rdna(data: &[u8]) {
    hsaco_isa::fuzzing::dis_on(
        &["gfx1010", "gfx1030", "gfx1100", "gfx1201", "gfx1250"],
        data,
    );
}

#[test]
fn mutation_smoke_rdna() {
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for data in [
        include_str!("data/gfx10.txt"),
        include_str!("data/gfx11.txt"),
        include_str!("data/gfx12.txt"),
    ] {
        seeds.extend(
            data.lines()
                .filter(|l| !l.starts_with('#'))
                .step_by(61)
                .map(|l| words_to_bytes(l.split(" | ").next().unwrap_or(""))),
        );
    }
    let seeds: Vec<&[u8]> = seeds.iter().map(|s| s.as_slice()).collect();
    let n = hsaco_elf::fuzzing::mutation_smoke(fuzz_entry_rdna, &seeds, 100_000, 11);
    assert!(n > 0);
}

/// gfx8 (gfx803, gfx801, gfx810): vectors from scripts/vectors.py gfx8.
#[test]
fn gfx8_vectors() {
    generation_vectors(
        "gfx8",
        include_str!("data/gfx8.txt"),
        include_str!("data/gfx8.known-gaps"),
        5000,
    );
}

/// gfx6 (tahiti): LLVM's printed text of every instruction scripts/gcn_roundtrip.py
/// assembled with llvm-mc-22 (LLVM cannot disassemble gfx6; the round trip through
/// llvm-mc is checked by that script).
#[test]
fn gfx6_vectors() {
    generation_vectors(
        "gfx6",
        include_str!("data/gfx6.txt"),
        include_str!("data/gfx6.known-gaps"),
        4000,
    );
}

/// gfx7 (bonaire, hawaii): as gfx6.
#[test]
fn gfx7_vectors() {
    generation_vectors(
        "gfx7",
        include_str!("data/gfx7.txt"),
        include_str!("data/gfx7.known-gaps"),
        4000,
    );
}

fn fuzz_entry_old_gcn(data: &[u8]) {
    hsaco_isa::fuzzing::dis_on(&["gfx600", "gfx700", "gfx803", "gfx810"], data);
}

/// Random mutations of gfx6/gfx7/gfx8 vectors never panic the decoder, printer or
/// listing (100_000 iterations).
#[test]
fn mutation_smoke_old_gcn() {
    let seeds: Vec<Vec<u8>> = [
        include_str!("data/gfx6.txt"),
        include_str!("data/gfx7.txt"),
        include_str!("data/gfx8.txt"),
    ]
    .iter()
    .flat_map(|d| d.lines().filter(|l| !l.starts_with('#')).step_by(61))
    .map(|l| words_to_bytes(l.split(" | ").next().unwrap_or("")))
    .collect();
    let seeds: Vec<&[u8]> = seeds.iter().map(|s| s.as_slice()).collect();
    assert!(seeds.len() > 100);
    let n = hsaco_elf::fuzzing::mutation_smoke(fuzz_entry_old_gcn, &seeds, 100_000, 11);
    assert!(n > 0);
}

/// A gfx803 corpus object: the processor comes from e_flags, the listing must equal
/// `llvm-objdump-22 -d` (tests/data/listing/README.md).
#[test]
fn gfx803_listing_matches_llvm_objdump() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/listing");
    let name = "gfx803-wave.co";
    let data = std::fs::read(format!("{dir}/{name}")).expect("input");
    let want = std::fs::read_to_string(format!("{dir}/{name}.objdump")).expect("golden");
    let elf = hsaco_elf::elf::Elf::parse(&data).expect("ELF");
    let proc = hsaco_isa::listing::processor_from_e_flags(elf.e_flags()).expect("processor");
    assert_eq!(proc, "gfx803");
    let dec = Decoder::for_processor(proc).expect("decoder");
    let mut out = Vec::new();
    hsaco_isa::listing::write_elf(
        &mut out,
        name,
        &elf,
        dec,
        &hsaco_isa::listing::Options::default(),
    )
    .expect("listing");
    let got = String::from_utf8(out).expect("utf-8");
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "{name} line {}", i + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count());
}

/// gfx10+ in wave64 (`Decoder::wave64`, `hsaco dis --mattr=+wavefrontsize64`): LLVM's
/// wave64 text of every gfx10/11/12 vector whose text differs from wave32 (lane masks
/// as pairs, narrower WMMA operands); every one must match.
#[test]
fn wave64_vectors() {
    let mut checked = 0;
    for data in [
        include_str!("data/wave64/gfx10.txt"),
        include_str!("data/wave64/gfx11.txt"),
        include_str!("data/wave64/gfx12.txt"),
    ] {
        for line in data.lines().filter(|l| !l.starts_with('#')) {
            let (hex, rest) = line.split_once(" | ").expect("vector line");
            let (want, procs) = rest.rsplit_once(" | ").expect("vector line");
            let bytes = words_to_bytes(hex);
            for p in procs.split(',') {
                let dec = Decoder::for_processor(p).expect("processor").wave64();
                let inst = dec.decode(&bytes).expect(line);
                assert_eq!(dec.text(&inst), want, "{hex} on {p} (wave64)");
                // and wave32 prints something else
                let dec32 = Decoder::for_processor(p).expect("processor");
                let inst32 = dec32.decode(&bytes).expect(line);
                assert_ne!(dec32.text(&inst32), want, "{hex} on {p} (wave32)");
                checked += 1;
            }
        }
    }
    assert!(checked > 1300, "too few wave64 vectors: {checked}");
    // gfx9 and earlier are wave64 already: unchanged
    let dec = Decoder::for_processor("gfx90a").expect("gfx90a");
    let bytes = words_to_bytes("d0c2000a 00020101");
    assert_eq!(
        dec.text(&dec.decode(&bytes).expect("decode")),
        dec.wave64()
            .text(&dec.wave64().decode(&bytes).expect("decode"))
    );
}

/// The other side of [`wave64_vectors`]: every gfx10/11/12 vector not listed there
/// prints in wave64 as in wave32, as LLVM's does (the list holds exactly the vectors
/// whose LLVM text differs). A scalar result of a vector op that is not a lane mask
/// (`v_readlane_b32 s7`, `v_readfirstlane_b32`, gfx12's `v_s_*`) stays one SGPR.
#[test]
fn wave64_same_text_elsewhere() {
    // (the wave64 lists were made on one processor per generation: those are compared)
    let mut differs = std::collections::HashSet::new();
    let mut listed = std::collections::HashSet::new();
    // VOPC words with a literal that the generated lists miss; LLVM's wave64 text,
    // from `llvm-mc-22 --disassemble -mattr=+wavefrontsize64`
    const MISSING: &[(&str, &str, &str)] = &[
        ("7d5c9cf7", "gfx1010", "v_cmp_ge_u16_e32 vcc, 0xc400, v78"),
        (
            "7c83a4ea d42adadd",
            "gfx1100",
            "v_cmp_lt_i32 vcc, v221, v210 dpp8:[2,3,3,5,2,0,5,6] fi:1",
        ),
        (
            "7c0c20ff 3e22f983",
            "gfx1201",
            "v_cmp_ge_f16_e32 vcc, 0xf983, v16",
        ),
        ("7c68f2f0", "gfx1201", "v_cmp_gt_i16_e32 vcc, 0x3800, v121"),
        (
            "7c74e2ff f547b008",
            "gfx1201",
            "v_cmp_eq_u16_e32 vcc, 0xb008, v113",
        ),
    ];
    for (hex, p, want) in MISSING {
        let dec = Decoder::for_processor(p).expect("processor").wave64();
        let inst = dec.decode(&words_to_bytes(hex)).expect(hex);
        assert_eq!(dec.text(&inst), *want, "{hex} on {p} (wave64)");
        differs.insert((hex.to_string(), p.to_string()));
    }
    for data in [
        include_str!("data/wave64/gfx10.txt"),
        include_str!("data/wave64/gfx11.txt"),
        include_str!("data/wave64/gfx12.txt"),
    ] {
        for line in data.lines().filter(|l| !l.starts_with('#')) {
            let (hex, rest) = line.split_once(" | ").expect("vector line");
            let (_, procs) = rest.rsplit_once(" | ").expect("vector line");
            for p in procs.split(',') {
                differs.insert((hex.to_string(), p.to_string()));
                listed.insert(p.to_string());
            }
        }
    }
    let mut checked = 0;
    let mut wrong = Vec::new();
    for data in [
        include_str!("data/gfx10.txt"),
        include_str!("data/gfx11.txt"),
        include_str!("data/gfx12.txt"),
    ] {
        for line in data.lines().filter(|l| !l.starts_with('#')) {
            let (hex, rest) = line.split_once(" | ").expect("vector line");
            let (want, procs) = rest.rsplit_once(" | ").expect("vector line");
            let bytes = words_to_bytes(hex);
            for p in procs.split(',') {
                if !listed.contains(p) || differs.contains(&(hex.to_string(), p.to_string())) {
                    continue;
                }
                let dec = Decoder::for_processor(p).expect("processor").wave64();
                match dec.decode(&bytes) {
                    Ok(inst) if dec.text(&inst) == want => {}
                    Ok(inst) => {
                        wrong.push(format!("{hex} on {p}: {} (want {want})", dec.text(&inst)))
                    }
                    Err(e) => wrong.push(format!("{hex} on {p}: {e:?} (want {want})")),
                }
                checked += 1;
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} differ in wave64, e.g.\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
    assert!(checked > 5_000, "too few vectors: {checked}");
}

/// RDNA encoding families (scripts/enc_vectors.py GEN FAMILY): DPP16/DPP8 forms of
/// VOP1/VOP2/VOPC, gfx11+ VOP3 with a DPP word, MTBUF, EXP, VINTERP/VINTRP, LDSDIR,
/// gfx12+ WMMA/SWMMAC modifiers (and the ops printed without `_e32`/`_e64`).
/// `<gen>.<family>.txt`: every line must decode to one whole instruction printed exactly
/// as llvm-mc-22 does, on every listed processor; `<gen>.<family>.invalid`: words
/// llvm-mc-22 rejects, which hsaco must reject too. A family whose vectors do not all
/// match yet lists the rest in `<gen>.<family>.known-gaps` (`hex | processor`), a
/// ratchet: `BLESS=1` rewrites it, and the test fails when a listed line passes.
const RDNA_FAMILIES: &[(&str, &str, &str, &str)] = &[
    (
        "gfx10.dpp",
        include_str!("data/gfx10.dpp.txt"),
        include_str!("data/gfx10.dpp.invalid"),
        "",
    ),
    (
        "gfx11.dpp",
        include_str!("data/gfx11.dpp.txt"),
        include_str!("data/gfx11.dpp.invalid"),
        "",
    ),
    (
        "gfx12.dpp",
        include_str!("data/gfx12.dpp.txt"),
        include_str!("data/gfx12.dpp.invalid"),
        "",
    ),
    (
        "gfx11.vop3dpp",
        include_str!("data/gfx11.vop3dpp.txt"),
        include_str!("data/gfx11.vop3dpp.invalid"),
        include_str!("data/gfx11.vop3dpp.known-gaps"),
    ),
    (
        "gfx11.dppsrc",
        include_str!("data/gfx11.dppsrc.txt"),
        include_str!("data/gfx11.dppsrc.invalid"),
        "",
    ),
    (
        "gfx12.dppsrc",
        include_str!("data/gfx12.dppsrc.txt"),
        include_str!("data/gfx12.dppsrc.invalid"),
        "",
    ),
    (
        "gfx11.vinterpsrc",
        include_str!("data/gfx11.vinterpsrc.txt"),
        include_str!("data/gfx11.vinterpsrc.invalid"),
        "",
    ),
    (
        "gfx12.vinterpsrc",
        include_str!("data/gfx12.vinterpsrc.txt"),
        include_str!("data/gfx12.vinterpsrc.invalid"),
        "",
    ),
    (
        "gfx11.lanesrc",
        include_str!("data/gfx11.lanesrc.txt"),
        include_str!("data/gfx11.lanesrc.invalid"),
        include_str!("data/gfx11.lanesrc.known-gaps"),
    ),
    (
        "gfx12.lanesrc",
        include_str!("data/gfx12.lanesrc.txt"),
        include_str!("data/gfx12.lanesrc.invalid"),
        include_str!("data/gfx12.lanesrc.known-gaps"),
    ),
    (
        "gfx12.align",
        include_str!("data/gfx12.align.txt"),
        include_str!("data/gfx12.align.invalid"),
        include_str!("data/gfx12.align.known-gaps"),
    ),
    (
        "gfx12.vop3dpp",
        include_str!("data/gfx12.vop3dpp.txt"),
        include_str!("data/gfx12.vop3dpp.invalid"),
        include_str!("data/gfx12.vop3dpp.known-gaps"),
    ),
    (
        "gfx10.mtbuf",
        include_str!("data/gfx10.mtbuf.txt"),
        include_str!("data/gfx10.mtbuf.invalid"),
        "",
    ),
    (
        "gfx11.mtbuf",
        include_str!("data/gfx11.mtbuf.txt"),
        include_str!("data/gfx11.mtbuf.invalid"),
        "",
    ),
    (
        "gfx12.mtbuf",
        include_str!("data/gfx12.mtbuf.txt"),
        include_str!("data/gfx12.mtbuf.invalid"),
        "",
    ),
    (
        "gfx9.added",
        include_str!("data/gfx9.added.txt"),
        include_str!("data/gfx9.added.invalid"),
        "",
    ),
    (
        "gfx8.mubuf",
        include_str!("data/gfx8.mubuf.txt"),
        include_str!("data/gfx8.mubuf.invalid"),
        "",
    ),
    (
        "gfx9.mubuf",
        include_str!("data/gfx9.mubuf.txt"),
        include_str!("data/gfx9.mubuf.invalid"),
        "",
    ),
    (
        "gfx10.mubuf",
        include_str!("data/gfx10.mubuf.txt"),
        include_str!("data/gfx10.mubuf.invalid"),
        "",
    ),
    (
        "gfx9.flat",
        include_str!("data/gfx9.flat.txt"),
        include_str!("data/gfx9.flat.invalid"),
        "",
    ),
    (
        "gfx9.mai950",
        include_str!("data/gfx9.mai950.txt"),
        include_str!("data/gfx9.mai950.invalid"),
        "",
    ),
    (
        "gfx9.vop3p9",
        include_str!("data/gfx9.vop3p9.txt"),
        include_str!("data/gfx9.vop3p9.invalid"),
        include_str!("data/gfx9.vop3p9.known-gaps"),
    ),
    (
        "gfx9.gs",
        include_str!("data/gfx9.gs.txt"),
        include_str!("data/gfx9.gs.invalid"),
        "",
    ),
    (
        "gfx9.mtbuf",
        include_str!("data/gfx9.mtbuf.txt"),
        include_str!("data/gfx9.mtbuf.invalid"),
        "",
    ),
    (
        "gfx9.exp",
        include_str!("data/gfx9.exp.txt"),
        include_str!("data/gfx9.exp.invalid"),
        "",
    ),
    (
        "gfx9.vinterp",
        include_str!("data/gfx9.vinterp.txt"),
        include_str!("data/gfx9.vinterp.invalid"),
        "",
    ),
    (
        "gfx11.salu",
        include_str!("data/gfx11.salu.txt"),
        include_str!("data/gfx11.salu.invalid"),
        "",
    ),
    (
        "gfx10.added",
        include_str!("data/gfx10.added.txt"),
        include_str!("data/gfx10.added.invalid"),
        include_str!("data/gfx10.added.known-gaps"),
    ),
    (
        "gfx10.exp",
        include_str!("data/gfx10.exp.txt"),
        include_str!("data/gfx10.exp.invalid"),
        "",
    ),
    (
        "gfx11.exp",
        include_str!("data/gfx11.exp.txt"),
        include_str!("data/gfx11.exp.invalid"),
        "",
    ),
    (
        "gfx12.exp",
        include_str!("data/gfx12.exp.txt"),
        include_str!("data/gfx12.exp.invalid"),
        "",
    ),
    (
        "gfx10.vinterp",
        include_str!("data/gfx10.vinterp.txt"),
        include_str!("data/gfx10.vinterp.invalid"),
        "",
    ),
    (
        "gfx11.vinterp",
        include_str!("data/gfx11.vinterp.txt"),
        include_str!("data/gfx11.vinterp.invalid"),
        "",
    ),
    (
        "gfx12.vinterp",
        include_str!("data/gfx12.vinterp.txt"),
        include_str!("data/gfx12.vinterp.invalid"),
        include_str!("data/gfx12.vinterp.known-gaps"),
    ),
    (
        "gfx11.ldsdir",
        include_str!("data/gfx11.ldsdir.txt"),
        include_str!("data/gfx11.ldsdir.invalid"),
        "",
    ),
    (
        "gfx12.ldsdir",
        include_str!("data/gfx12.ldsdir.txt"),
        include_str!("data/gfx12.ldsdir.invalid"),
        "",
    ),
    (
        "gfx12.wmma",
        include_str!("data/gfx12.wmma.txt"),
        include_str!("data/gfx12.wmma.invalid"),
        include_str!("data/gfx12.wmma.known-gaps"),
    ),
];

#[test]
fn rdna_family_vectors() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, text, invalid, gaps_text) in RDNA_FAMILIES {
        let gaps: std::collections::BTreeSet<&str> = gaps_text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect();
        let mut missed = Vec::new();
        let mut lines = 0;
        let mut check = |key: String, ok: bool, msg: String, missed: &mut Vec<String>| {
            checked += 1;
            if !ok {
                if !gaps.contains(key.as_str()) {
                    failures.push(format!("{name} {msg}"));
                }
                missed.push(key);
            } else if gaps.contains(key.as_str()) {
                failures.push(format!(
                    "{name} {key} passes now: shrink {name}.known-gaps (BLESS=1)"
                ));
            }
        };
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (hex, rest) = line.split_once(" | ").expect("vector line");
            let (want, procs) = rest.rsplit_once(" | ").expect("vector line");
            let bytes = words_to_bytes(hex);
            for p in procs.split(',') {
                let dec = Decoder::for_processor(p).expect("processor");
                let got = match dec.decode(&bytes) {
                    Ok(inst) if usize::from(inst.size) == bytes.len() => dec.text(&inst),
                    Ok(inst) => format!("{} ({} bytes)", dec.text(&inst), inst.size),
                    Err(e) => format!("error: {e}"),
                };
                check(
                    format!("{hex} | {p}"),
                    got == want,
                    format!("{p} {hex}: want `{want}`, got `{got}`"),
                    &mut missed,
                );
            }
            lines += 1;
        }
        assert!(lines > 20, "{name}: too few vectors: {lines}");
        for line in invalid
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (hex, procs) = line.split_once(" | ").expect("invalid-word line");
            let bytes = words_to_bytes(hex);
            for p in procs.split(',') {
                let dec = Decoder::for_processor(p).expect("processor");
                let got = dec.decode(&bytes).map(|inst| dec.text(&inst));
                check(
                    format!("{hex} | {p}"),
                    got.is_err(),
                    format!("{p} {hex}: LLVM rejects it, decoded as `{got:?}`"),
                    &mut missed,
                );
            }
        }
        // (only families with a known-gaps file, whose header keeps it non-empty)
        if bless && !gaps_text.is_empty() {
            let path = format!(
                "{}/tests/data/{name}.known-gaps",
                env!("CARGO_MANIFEST_DIR")
            );
            let mut out = format!(
                "# {name} vectors and rejected words hsaco does not match yet (tests/isa.rs rdna_family_vectors)\n"
            );
            for m in &missed {
                out.push_str(m);
                out.push('\n');
            }
            std::fs::write(path, out).expect("write known gaps");
        }
    }
    if !bless {
        assert!(
            failures.is_empty(),
            "{} of {checked} checks differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

/// gfx900/gfx908 FLAT words llvm-mc-22 rejects (`lds` on a store or a dwordx2 load),
/// words with bit 55 (acc from gfx90a) set that it prints with AGPRs and an
/// Invalid-register mark (llvm-mc-22 text), and the accepted word that differs only in
/// bit 55.
#[test]
fn gfx9_flat_words_llvm_rejects() {
    for p in ["gfx900", "gfx908"] {
        let dec = Decoder::for_processor(p).expect("processor");
        for hex in ["dc7ea728 01a5085d", "de55a5a3 18581610"] {
            let r = dec.decode(&words_to_bytes(hex));
            assert!(r.is_err(), "{hex} on {p}: {:?}", r.map(|i| dec.text(&i)));
        }
        for (hex, want) in [
            ("dc429455 1aa02a07", "global_load_ubyte a26/*Invalid register, operand has 'VGPR_32' register class*/, v7, s[32:33] offset:-2987 slc"),
            ("dc45588c f19d000a", "scratch_load_sbyte a241/*Invalid register, operand has 'VGPR_32' register class*/, off, s29 offset:-1908 glc"),
        ] {
            let inst = dec.decode(&words_to_bytes(hex)).expect("LLVM decodes it");
            assert_eq!(dec.text(&inst), want, "{hex} on {p}");
        }
        let inst = dec
            .decode(&words_to_bytes("dc429455 1a202a07"))
            .expect("valid");
        assert_eq!(
            dec.text(&inst),
            "global_load_ubyte v26, v7, s[32:33] offset:-2987 slc"
        );
    }
}

/// gfx9 SMEM register fields: words llvm-mc-22 rejects (a buffer resource in
/// flat_scratch, an 8-register tuple from vcc_hi, m0 as base) and edge cases it accepts.
#[test]
fn gfx9_smem_register_fields_as_llvm() {
    for p in ["gfx900", "gfx942"] {
        let dec = Decoder::for_processor(p).expect("processor");
        for hex in [
            "c02f4773 dc05c8fb",
            "c00c1ad1 1a0d448a",
            "c01e183e 26031714",
        ] {
            let r = dec.decode(&words_to_bytes(hex));
            assert!(r.is_err(), "{hex} on {p}: {:?}", r.map(|i| dec.text(&i)));
        }
        for (hex, want) in [
            (
                "c006198a 00000010",
                "s_load_dwordx2 flat_scratch, s[20:21], 0x10",
            ),
            (
                "c01216ca 00000010",
                "s_load_dwordx16 s[88:103], s[20:21], 0x10",
            ),
            ("c0021f7f 00000010", "s_load_dword null, exec, 0x10"),
        ] {
            let inst = dec.decode(&words_to_bytes(hex)).expect(hex);
            assert_eq!(dec.text(&inst), want, "{hex} on {p}");
        }
    }
}

/// Checks words against what llvm-mc-22 decodes them to: `(processor, hex words, text)`,
/// where `None` means LLVM rejects the word.
fn check_llvm_decodes(cases: &[(&str, &str, Option<&str>)]) {
    for (p, hex, want) in cases {
        let dec = Decoder::for_processor(p).expect("processor");
        let got = dec.decode(&words_to_bytes(hex)).map(|i| dec.text(&i)).ok();
        assert_eq!(got.as_deref(), *want, "{p} {hex}");
    }
}

/// [`check_llvm_decodes`] of the same `(hex words, text)` cases on each processor.
fn check_llvm_decodes_on(procs: &[&str], cases: &[(&str, Option<&str>)]) {
    for p in procs {
        let all: Vec<_> = cases.iter().map(|&(hex, want)| (*p, hex, want)).collect();
        check_llvm_decodes(&all);
    }
}

/// gfx12 FLAT/GLOBAL/SCRATCH scalar bases as llvm-mc-22 decodes them (each word and
/// text checked with `llvm-mc-22 --disassemble`): gfx1250 takes a base pair in the FLAT
/// segment too, gfx1201 requires null there; vcc_hi, m0 and 127 are no pair; exec and
/// scratch's exec_hi carry LLVM's register-class comments.
#[test]
fn gfx12_flat_scalar_base_as_llvm() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("gfx1250", "ec040000 4034009d e34df6b4", Some("flat_load_u8 v157, v180, s[0:1] offset:-1880586 th:TH_LOAD_LU scope:SCOPE_SE")),
        ("gfx1250", "ec04006a 4034009d e34df6b4", Some("flat_load_u8 v157, v180, vcc offset:-1880586 th:TH_LOAD_LU scope:SCOPE_SE")),
        ("gfx1250", "ec04007e 4034009d e34df6b4", Some("flat_load_u8 v157, v180, exec/*Invalid register, operand has 'SReg_64_XEXEC_XNULL' register class*/ offset:-1880586 th:TH_LOAD_LU scope:SCOPE_SE")),
        ("gfx1250", "ec0cc07e 5c8000cb b6118add", Some("flat_atomic_swap_b32 v221, v185, exec offset:-4845174")),
        ("gfx1250", "ec04007c 4034009d e34df6b4", Some("flat_load_u8 v157, v[180:181] offset:-1880586 th:TH_LOAD_LU scope:SCOPE_SE")),
        ("gfx1201", "ee04007e 4034009d e34df6b4", Some("global_load_u8 v157, v180, exec/*Invalid register, operand has 'SReg_64_XEXEC_XNULL' register class*/ offset:-1880586 th:TH_LOAD_LU scope:SCOPE_SE")),
        ("gfx1201", "ed04007f 4034009d e34df6b4", Some("scratch_load_u8 v157, off, exec_hi/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/ offset:-1880586 th:TH_LOAD_LU scope:SCOPE_SE")),
        ("gfx1201", "ed04006b 4036009d e34df6b4", Some("scratch_load_u8 v157, v180, vcc_hi offset:-1880586 th:TH_LOAD_LU scope:SCOPE_SE")),
        ("gfx1201", "ee0cc07c 5ce800cb b6118add", Some("global_atomic_swap_b32 v[221:222], v185, off offset:-4845174 th:TH_ATOMIC_CASCADE_NT scope:SCOPE_DEV")),
        ("gfx1201", "ec040000 4034009d e34df6b4", None),
        ("gfx1201", "ec04007e 4034009d e34df6b4", None),
        ("gfx1250", "ec04006b 4034009d e34df6b4", None),
        ("gfx1250", "ec04007d 4034009d e34df6b4", None),
        ("gfx1250", "ee04007f 4034009d e34df6b4", None),
        ("gfx1201", "ee04006b 4034009d e34df6b4", None),
    ];
    check_llvm_decodes(cases);
}

/// RDNA SMEM words as llvm-mc-22 decodes them (each checked with `llvm-mc-22
/// --disassemble`): the probe number of s_atc_probe, gfx12 s_prefetch_* (offset, soffset
/// and a count of 0-31), no cache bits on operations without a base address and data.
#[test]
fn rdna_smem_probes_and_prefetches_as_llvm() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        (
            "gfx1030",
            "f4984fca 0a000000",
            Some("s_atc_probe 63, s[20:21], s5"),
        ),
        (
            "gfx1030",
            "f49c0fca fa000000",
            Some("s_atc_probe_buffer 63, s[20:23], null"),
        ),
        (
            "gfx1201",
            "f404c7ca 0affffff",
            Some("s_prefetch_data s[20:21], -0x1, s5, 31"),
        ),
        (
            "gfx1201",
            "f404c40a 0a7fffff",
            Some("s_prefetch_data s[20:21], 0x7fffff, s5, 16"),
        ),
        (
            "gfx1201",
            "f404a44a fa000000",
            Some("s_prefetch_inst_pc_rel 0x0, m0, 17"),
        ),
        ("gfx1201", "f404c80a 0affffff", None),
        ("gfx1201", "f404dfca 0affffff", None),
    ];
    check_llvm_decodes(cases);
}

/// gfx10 FLAT loads to LDS (bit 13) as llvm-mc-22 decodes them (each word checked with
/// `llvm-mc-22 --disassemble -mcpu=gfx1010`): no vdst, `lds` last; only the byte, short
/// and dword loads of global and scratch have the form.
#[test]
fn gfx10_flat_lds_as_llvm() {
    let cases: &[(&str, Option<&str>)] = &[
        (
            "dc206010 2d7d0712",
            Some("scratch_load_ubyte v18, off offset:16 lds"),
        ),
        (
            "dc306010 2d020712",
            Some("scratch_load_dword off, s2 offset:16 lds"),
        ),
        (
            "dc20a010 2d7d0712",
            Some("global_load_ubyte v[18:19], off offset:16 lds"),
        ),
        (
            "dc30a010 2d020712",
            Some("global_load_dword v18, s[2:3] offset:16 lds"),
        ),
        ("dc302010 2d7d0712", None),
        ("dc34a010 2d020712", None),
        ("dc806010 2d7d0712", None),
        ("dc60a010 2d020712", None),
    ];
    check_llvm_decodes_on(&["gfx1010", "gfx1030"], cases);
}

/// gfx10 VOP3 v_interp_*_f16 as llvm-mc-22 decodes them (each word checked with
/// `llvm-mc-22 --disassemble -mcpu=gfx1030`): the attribute (src0) takes no modifiers,
/// its bit 8 prints `high` after the operands, op_sel is ignored, omod only where the
/// operation has it (not v_interp_p2_f16).
#[test]
fn gfx10_vop3_interp_as_llvm() {
    let cases: &[(&str, Option<&str>)] = &[
        (
            "d742000a 44a23d14",
            Some("v_interp_p1ll_f16 v10, -v30, attr20.x high"),
        ),
        (
            "d742800a 04a23d14",
            Some("v_interp_p1ll_f16 v10, v30, attr20.x high clamp"),
        ),
        (
            "d742000a 0ca23d14",
            Some("v_interp_p1ll_f16 v10, v30, attr20.x high mul:2"),
        ),
        (
            "d742080a 04a23d14",
            Some("v_interp_p1ll_f16 v10, v30, attr20.x high"),
        ),
        (
            "d743040a 04a23d14",
            Some("v_interp_p1lv_f16 v10, v30, attr20.x, |v40| high"),
        ),
        (
            "d75a400a 84a23c14",
            Some("v_interp_p2_f16 v10, v30, attr20.x, -v40"),
        ),
        ("d742000a 24a23d14", None),
        ("d742040a 04a23d14", None),
        ("d75a000a 0ca23d14", None),
    ];
    check_llvm_decodes_on(&["gfx1030"], cases);
}

/// RDNA v_fma_mix* literals as llvm-mc-22 prints them (each word checked with
/// `llvm-mc-22 --disassemble`): the f16 forms read a literal as f16 whatever op_sel_hi
/// says (its low half, lit() when that is inline); the gfx1250 bf16 forms print it whole.
#[test]
fn rdna_mix_literals_as_llvm() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "gfx1100",
            "cc200001 03fe0501 3e22f983",
            "v_fma_mix_f32 v1, v1, v2, 0xf983",
        ),
        (
            "gfx1030",
            "cc200001 03fe0501 12345678",
            "v_fma_mix_f32 v1, v1, v2, 0x5678",
        ),
        (
            "gfx1201",
            "cc210001 03fe0501 00003800",
            "v_fma_mixlo_f16 v1, v1, v2, lit(0x3800)",
        ),
        (
            "gfx1250",
            "cc3d0001 03fe0501 12345678",
            "v_fma_mix_f32_bf16 v1, v1, v2, 0x12345678",
        ),
    ];
    for (p, hex, want) in cases {
        let dec = Decoder::for_processor(p).expect("processor");
        let got = dec.decode(&words_to_bytes(hex)).map(|i| dec.text(&i));
        assert_eq!(got.as_deref(), Ok(*want), "{p} {hex}");
    }
}

/// gfx12 VOP1/VOP2/VOPC (e32) 16-bit operands as llvm-mc-22 decodes them (each word
/// checked with `llvm-mc-22 --disassemble -mcpu=gfx1201`): a vdst past v127 is invalid, a
/// source past v127 carries LLVM's low-128 register-class comment.
#[test]
fn gfx12_e32_lo128_as_llvm() {
    let cases: &[(&str, Option<&str>)] = &[
        ("7f90a901", None),
        ("65900501", None),
        ("7e02a9c8", Some("v_rcp_f16_e32 v1, v200/*Invalid register, operand has 'VS_32_Lo128' register class*/")),
        ("64039101", Some("v_add_f16_e32 v1, v1, v200/*Invalid register, operand has 'VGPR_32_Lo128' register class*/")),
        ("7c0205c8", Some("v_cmp_lt_f16_e32 vcc_lo, v200/*Invalid register, operand has 'VS_32_Lo128' register class*/, v2")),
        ("7e02a901", Some("v_rcp_f16_e32 v1, v1")),
    ];
    check_llvm_decodes_on(&["gfx1201", "gfx1250"], cases);
}

/// RDNA operand-less VOP1 words as llvm-mc-22 decodes them (checked with `llvm-mc-22
/// --disassemble`): the vdst field must be 0, src0 is ignored.
#[test]
fn rdna_operandless_vop1_as_llvm() {
    for p in ["gfx1030", "gfx1100", "gfx1201"] {
        let dec = Decoder::for_processor(p).expect("processor");
        let text = |hex: &str| dec.decode(&words_to_bytes(hex)).map(|i| dec.text(&i)).ok();
        assert_eq!(text("7e000001").as_deref(), Some("v_nop"), "{p}");
        assert_eq!(text("7e003601").as_deref(), Some("v_pipeflush"), "{p}");
        assert_eq!(text("7e020000"), None, "{p}");
    }
}

/// gfx1250 v_cvt_f16_fp8 byte selects as llvm-mc-22 decodes them (each word checked with
/// `llvm-mc-22 --disassemble -mcpu=gfx1250`): op_sel bits 0-1 are byte_sel (bit 0 its
/// high bit), bit 3 the destination's op_sel, bit 2 (no second source) is invalid.
#[test]
fn gfx1250_cvt_f16_fp8_byte_sel_as_llvm() {
    let cases: &[(&str, Option<&str>)] = &[
        (
            "d5f70805 00000102",
            Some("v_cvt_f16_fp8_e64 v5, v2 byte_sel:2"),
        ),
        (
            "d5f71005 00000102",
            Some("v_cvt_f16_fp8_e64 v5, v2 byte_sel:1"),
        ),
        (
            "d5f75805 00000102",
            Some("v_cvt_f16_fp8_e64 v5, v2 op_sel:[0,1] byte_sel:3"),
        ),
        ("d5f72005 00000102", None),
        ("d5f21005 00000102", None),
    ];
    check_llvm_decodes_on(&["gfx1250"], cases);
}

/// gfx11 `v_fmac_f16_e64` lists op_sel for src0, src1, the tied accumulator and the
/// destination: four entries (llvm-objdump-22 on clang-22's `-g -O0` 05_half for
/// gfx1100; llvm-mc-22 -mattr=+real-true16 encodes the text back to the same word).
#[test]
fn gfx11_fmac_f16_op_sel_has_four_entries() {
    let dec = Decoder::for_processor("gfx1100").expect("gfx1100");
    let bytes = words_to_bytes("d5360802 00020702");
    let inst = dec.decode(&bytes).expect("decode");
    assert_eq!(
        dec.text(&inst),
        "v_fmac_f16_e64 v2.l, v2.h, v3.l op_sel:[1,0,0,0]"
    );
}

/// gfx1250 64-bit literals and the 32-bit literals of packed f32 sources
/// (scripts/lit64_vectors.py): `lit64(..)` for values that fit in 32 bits, inline
/// constants, a double's high word, `lit(..)` in packed f32 sources.
#[test]
fn gfx1250_literal_vectors() {
    exact_vectors(
        "gfx1250 literal",
        &[
            ("gfx12", include_str!("data/gfx12.lit64.txt")),
            ("gfx12", include_str!("data/gfx12.lit64.oneway")),
        ],
        10,
    );
}

/// A scratch_ instruction's scalar offset is one SGPR of any number (AMDGPUUsage and
/// llvm-mc-22: `scratch_store_dword off, v0, s33` assembles, `s[32:33]` does not), so
/// the decoded operand is that register alone, not an aligned pair. Words from
/// `llvm-mc-22 -show-encoding` of `scratch_store_dword off, v0, s33 offset:4` (gfx900,
/// gfx942) and `scratch_store_b32 off, v0, s33 offset:4` (gfx1100); gfx1030 as gfx900.
#[test]
fn scratch_scalar_offset_is_one_sgpr() {
    use hsaco_isa::Operand;
    for (p, w) in [
        ("gfx900", "dc704004 00210000"),
        ("gfx942", "dc704004 00210000"),
        ("gfx1030", "dc704004 00210000"),
        ("gfx1100", "dc690004 00210000"),
    ] {
        let dec = Decoder::for_processor(p).unwrap();
        let i = dec.decode(&words_to_bytes(w)).unwrap();
        assert!(
            i.operands.contains(&Operand::Sgpr {
                first: 33,
                count: 1
            }),
            "{p}: {:?}",
            i.operands
        );
    }
}
