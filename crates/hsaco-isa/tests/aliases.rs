//! Mnemonic aliases (`defs/aliases.list`): every statement of
//! `tests/data/aliases/encodings.txt` (written by `scripts/aliases.py` with
//! `llvm-mc-22 -show-encoding`) encodes to llvm-mc-22's bytes. The statements of the
//! `llvm-tests.s` sections are those of LLVM's `llvm/test/MC/AMDGPU/*alias*.s` files; the
//! test prints how many of them match. No known gaps: every line must pass.

use hsaco_isa::asm::{Assembler, NoSymbols};

#[test]
fn aliases_encode_as_llvm_mc() {
    let path = format!(
        "{}/tests/data/aliases/encodings.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let data = std::fs::read_to_string(&path).expect("encodings.txt");
    let (mut llvm_lines, mut llvm_ok, mut all, mut ok) = (0, 0, 0, 0);
    let mut from_llvm_tests = false;
    let mut failures = Vec::new();
    for line in data.lines() {
        if let Some(head) = line.strip_prefix("# ") {
            if head.contains(".s: ") {
                from_llvm_tests = head.starts_with("llvm-tests.s:");
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.splitn(4, " | ").collect();
        assert_eq!(f.len(), 4, "bad line {line}");
        let (mcpu, hex, stmt) = (f[0], f[1], f[2]);
        let want: Vec<u8> = hex
            .split_whitespace()
            .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
            .collect();
        let asm = Assembler::for_processor(mcpu).expect("processor");
        let mut out = Vec::new();
        let got = asm.encode(stmt, 0, &mut NoSymbols, &mut out);
        all += 1;
        llvm_lines += usize::from(from_llvm_tests);
        match got {
            Ok(_) if out == want => {
                ok += 1;
                llvm_ok += usize::from(from_llvm_tests);
            }
            Ok(_) => failures.push(format!("{mcpu}: {stmt}: got {out:02x?}, want {hex}")),
            Err(e) => failures.push(format!("{mcpu}: {stmt}: error: {}", e.message)),
        }
    }
    println!(
        "alias statements of LLVM's *alias*.s tests: {llvm_ok}/{llvm_lines} match \
         llvm-mc-22; all alias statements: {ok}/{all}"
    );
    assert!(all > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn alias_table_is_well_formed() {
    // every line: generation, alias, canonical; the canonical name is no alias itself
    let text = include_str!("../defs/aliases.list");
    let mut pairs = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let w: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(w.len(), 3, "bad alias line {line}");
        assert!(
            ["gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx11", "gfx12"].contains(&w[0]),
            "{line}"
        );
        pairs.push((w[0], w[1], w[2]));
    }
    for &(g, _, c) in &pairs {
        assert!(
            !pairs.iter().any(|&(g2, a2, _)| g2 == g && a2 == c),
            "{g} {c} is both a canonical name and an alias"
        );
    }
}
