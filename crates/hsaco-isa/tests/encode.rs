//! The LLVM vectors of the disassembler run backwards through the encoder
//! (`hsaco_isa::asm::Assembler::encode`):
//! * `tests/data/<gen>*.asm.txt` were written by `llvm-mc-22 -show-encoding`, so their
//!   hex is llvm-mc's encoding of the text: `encode(text) == hex`;
//! * the other vector files hold llvm-mc's disassembly of the hex: the text encodes to
//!   bytes that decode and print as the same text (a text may have several encodings,
//!   e.g. a VOP3 `v_nop`, so the bytes are not compared).
//!
//! What does not pass yet is listed in `tests/data/encode.known-gaps` (`file | hex |
//! processor`); the test fails on a new failure and on a listed gap that passes.
//! `BLESS=1` rewrites the list (review that it only shrinks).

use hsaco_isa::asm::{Assembler, NoSymbols};
use std::collections::{BTreeMap, BTreeSet};

fn words_to_bytes(hex: &str) -> Vec<u8> {
    hex.split_whitespace()
        .flat_map(|w| u32::from_str_radix(w, 16).expect("hex word").to_le_bytes())
        .collect()
}

fn generation(file: &str) -> &str {
    let file = file.strip_prefix("wave64/").unwrap_or(file);
    file.split('.').next().unwrap_or(file)
}

#[test]
fn vectors_run_backwards() {
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    let gaps_path = format!("{dir}/encode.known-gaps");
    let gaps_text = std::fs::read_to_string(&gaps_path).unwrap_or_default();
    let known: BTreeSet<&str> = gaps_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/data")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("gfx") && n.ends_with(".txt"))
        .collect();
    // the wave64 texts (tests/data/wave64/), run with a wave64 assembler
    for g in ["gfx10", "gfx11", "gfx12"] {
        files.push(format!("wave64/{g}.txt"));
    }
    files.sort();
    // generation -> (exact-encoding checks, passed, round-trip checks, passed, failures
    // of vectors the decoder does not print as LLVM does)
    let mut counts: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    let mut gaps = Vec::new();
    let mut failures = Vec::new();
    let mut passing_gaps = Vec::new();
    for file in &files {
        let exact = file.ends_with(".asm.txt");
        let data = std::fs::read_to_string(format!("{dir}/{file}")).expect("vector file");
        let c = counts.entry(generation(file).to_string()).or_default();
        for line in data
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let Some((hex, rest)) = line.split_once(" | ") else {
                panic!("{file}: bad vector line {line}");
            };
            let Some((text, procs)) = rest.rsplit_once(" | ") else {
                panic!("{file}: bad vector line {line}");
            };
            let want = words_to_bytes(hex);
            for p in procs.split(',') {
                let asm = Assembler::for_processor(p).expect("processor");
                let asm = if file.starts_with("wave64/") {
                    asm.wave64()
                } else {
                    asm
                };
                let mut out = Vec::new();
                let result = asm.encode(text, 0, &mut NoSymbols, &mut out);
                let (ok, got) = match result {
                    Err(e) => (false, format!("error: {}", e.message)),
                    Ok(_) if exact => (
                        out == want,
                        out.chunks(4)
                            .map(|w| {
                                format!("{:08X}", u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                            })
                            .collect::<Vec<_>>()
                            .join(" "),
                    ),
                    Ok(_) => {
                        let dec = asm.decoder();
                        match dec.decode(&out) {
                            Ok(i) if usize::from(i.size) == out.len() => {
                                let t = dec.text(&i);
                                (t == text, t)
                            }
                            _ => (false, "bytes that do not decode".to_string()),
                        }
                    }
                };
                let slot = if exact { 0 } else { 2 };
                c[slot] += 1;
                let key = format!("{file} | {hex} | {p}");
                if ok {
                    c[slot + 1] += 1;
                    if known.contains(key.as_str()) {
                        passing_gaps.push(key);
                    }
                } else {
                    // a text the decoder itself does not print from LLVM's bytes cannot
                    // come back from the encoder's bytes either: counted apart
                    let dec = asm.decoder();
                    let decoder_gap = match dec.decode(&want) {
                        Ok(i) => dec.text(&i) != text,
                        Err(_) => true,
                    };
                    if decoder_gap {
                        c[4] += 1;
                    }
                    if !known.contains(key.as_str()) {
                        failures.push(format!("{key}\n   text {text}\n   got  {got}"));
                    }
                    gaps.push(key);
                }
            }
        }
    }
    for (g, [e, ep, r, rp, dg]) in &counts {
        println!(
            "{g}: exact encodings {ep}/{e}, round trips {rp}/{r} \
             ({dg} of the failures are vectors the decoder does not print as LLVM)"
        );
    }
    if std::env::var_os("BLESS").is_some() {
        let mut text = String::from(
            "# vectors the encoder does not reproduce yet (tests/encode.rs); BLESS=1 rewrites\n",
        );
        for g in &gaps {
            text.push_str(g);
            text.push('\n');
        }
        std::fs::write(&gaps_path, text).expect("write known gaps");
        return;
    }
    let total: usize = counts.values().map(|c| c[0] + c[2]).sum();
    assert!(total > 100_000, "too few vectors: {total}");
    assert!(
        failures.is_empty() && passing_gaps.is_empty(),
        "{} new failures:\n{}\n{} listed gaps pass now (shrink encode.known-gaps with BLESS=1):\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n"),
        passing_gaps.len(),
        passing_gaps[..passing_gaps.len().min(20)].join("\n")
    );
}

/// The cargo-fuzz target `asm` (fuzz/fuzz_targets/asm.rs) under the seeded mutation
/// driver: mutated statement text never panics. Seeds are vector texts of every
/// generation, headed by the byte of a processor they are for.
#[test]
fn mutation_smoke_asm_target() {
    use hsaco_isa::fuzzing::{asm, PROCESSORS};
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for gen in ["gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx11", "gfx12"] {
        let data = std::fs::read_to_string(format!("{dir}/{gen}.txt")).expect("vectors");
        for line in data.lines().filter(|l| !l.starts_with('#')).step_by(97) {
            let mut cols = line.split(" | ");
            let text = cols.nth(1).unwrap_or("");
            let procs = cols.next().unwrap_or("");
            let Some(k) = procs
                .split(',')
                .find_map(|p| PROCESSORS.iter().position(|q| q == &p.trim()))
            else {
                continue;
            };
            let mut seed = vec![k as u8];
            seed.extend_from_slice(text.as_bytes());
            seeds.push(seed);
        }
    }
    // symbolic operands and modifiers too
    for t in [
        "s_cbranch_scc1 .LBB0_2",
        "s_add_u32 s4, s4, foo@rel32@lo+4",
        "v_add_f32 v0, |v1|, -v2 clamp mul:2",
        "buffer_load_dword v1, v2, s[4:7], 0 offen offset:4 glc",
    ] {
        let mut seed = vec![5u8];
        seed.extend_from_slice(t.as_bytes());
        seeds.push(seed);
    }
    let seeds: Vec<&[u8]> = seeds.iter().map(|s| s.as_slice()).collect();
    assert!(seeds.len() > 300, "{} seeds", seeds.len());
    let n = hsaco_elf::fuzzing::mutation_smoke(asm, &seeds, 20_000, 17);
    assert!(n > 0);
}
