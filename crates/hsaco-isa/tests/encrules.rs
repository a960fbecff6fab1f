//! The operand rules (`Decoder::check_operands`, `Decoder::check_rules`) against
//! llvm-mc-22: tests/data/encrules/<gen>.txt (scripts/encrules.py) lists instruction texts
//! with their operands and whether llvm-mc-22 accepted them (with the encoding) or with
//! which message it rejected them.

use hsaco_isa::decode::Vop3Dpp;
use hsaco_isa::rules::{RuleError, Variant, VopdHalf};
use hsaco_isa::{Decoder, Operand};

const GENS: [&str; 7] = ["gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx11", "gfx12"];

fn operand(tok: &str) -> (Operand, u64) {
    let (k, rest) = tok.split_at(1);
    let pair = |r: &str| -> (u8, u8) {
        let (a, b) = r.split_once('.').unwrap();
        (a.parse().unwrap(), b.parse().unwrap())
    };
    match k {
        "V" => {
            let (first, count) = pair(rest);
            (Operand::Vgpr { first, count }, 0)
        }
        "S" => {
            let (first, count) = pair(rest);
            (Operand::Sgpr { first, count }, 0)
        }
        "K" => {
            let (code, count) = pair(rest);
            (Operand::Special { code, count }, 0)
        }
        "H" => {
            let (r, h) = rest.split_once('.').unwrap();
            (
                Operand::VgprHalf {
                    reg: r.parse().unwrap(),
                    hi: h == "h",
                },
                0,
            )
        }
        "I" => (Operand::Int(rest.parse().unwrap()), 0),
        "F" => (Operand::Float(rest.parse().unwrap()), 0),
        "L" => (Operand::Literal, u64::from_str_radix(rest, 16).unwrap()),
        _ => panic!("unknown operand token {tok}"),
    }
}

fn category(e: &RuleError) -> &'static str {
    match e {
        RuleError::ConstantBus { .. } => "bus",
        RuleError::LiteralNotSupported { .. } => "literal",
        RuleError::UniqueLiteral => "unique",
        RuleError::InvalidOperand { .. } => "operand",
        RuleError::VgprBank { .. } => "bank",
        RuleError::VopdDst => "dst",
        RuleError::Wave32Only => "wave",
    }
}

#[derive(Default, Debug)]
struct Counts {
    lines: usize,
    agree: usize,
    category_agree: usize,
    rejected: usize,
    decoded: usize,
    /// Texts assembled in wave64.
    wave64: usize,
    /// (LLVM's message, the rule's) for rejections that agree but name another reason.
    mismatch: std::collections::BTreeMap<(String, &'static str), usize>,
}

fn check_gen(gen: &str, failures: &mut Vec<String>) -> Counts {
    check_file(&format!("{gen}.txt"), gen, failures)
}

/// One vector file of tests/data/encrules/ (`<gen>.txt`, or `<gen>.w64.txt` whose
/// processors are written `PROC:w64`: assembled with +wavefrontsize64, lane masks pairs).
fn check_file(name: &str, gen: &str, failures: &mut Vec<String>) -> Counts {
    let path = format!("{}/tests/data/encrules/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Counts::default();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let t: Vec<&str> = line.split('\t').collect();
        let (proc, enc_name, mn, ops, result) = (t[0], t[1], t[2], t[3], t[4]);
        // `VOP3:dpp16`, `VOP3P:dpp8`: the encoding with a DPP word (<gen>.dpp.txt)
        let (enc_name, kind) = match enc_name.split_once(':') {
            Some((e, k)) => (e, Some(k)),
            None => (enc_name, None),
        };
        let variant = if kind.is_some() {
            Variant::Dpp
        } else {
            Variant::Plain
        };
        let (proc, w64) = match proc.strip_suffix(":w64") {
            Some(p) => (p, true),
            None => (proc, false),
        };
        let dec = Decoder::for_processor(proc).unwrap();
        let dec = if w64 { dec.wave64() } else { dec };
        let isa = dec.isa();
        let pbit = 1u32 << isa.processors.iter().position(|p| *p == proc).unwrap();
        let enc = isa
            .encodings
            .iter()
            .position(|e| e.name == enc_name)
            .unwrap();
        let base = isa.encodings[enc].base.map(usize::from);
        let op = isa
            .ops
            .iter()
            .position(|o| {
                o.mnemonic == mn
                    && o.procs & pbit != 0
                    && o.encodings
                        .iter()
                        .any(|&(e, _)| usize::from(e) == enc || Some(usize::from(e)) == base)
            })
            .unwrap_or_else(|| panic!("{gen}: no op {mn} {enc_name} on {proc}"));
        let (operands, lits): (Vec<Operand>, Vec<u64>) = ops
            .split(' ')
            .filter(|x| !x.is_empty())
            .map(operand)
            .unzip();
        let got = dec.check_operands_in(op as u16, enc as u8, variant, &operands, &lits);
        c.lines += 1;
        let want_ok = result.starts_with("ok");
        if !want_ok {
            c.rejected += 1;
        }
        let agree = got.is_ok() == want_ok;
        if agree {
            c.agree += 1;
            match (&got, result.strip_prefix("err ")) {
                (Err(e), Some(cat)) if category(e) == cat => c.category_agree += 1,
                (Ok(()), None) => c.category_agree += 1,
                (Err(e), Some(cat)) => {
                    *c.mismatch
                        .entry((cat.to_string(), category(e)))
                        .or_default() += 1
                }
                _ => {}
            }
        } else {
            failures.push(format!("{line}\t=> {got:?}"));
        }
        if let Some(words) = result.strip_prefix("ok ") {
            let bytes: Vec<u8> = words
                .split(' ')
                .flat_map(|w| u32::from_str_radix(w, 16).unwrap().to_le_bytes())
                .collect();
            match dec.decode(&bytes) {
                Ok(inst)
                    if usize::from(inst.op) == op
                        && usize::from(inst.encoding) == enc
                        && matches!(
                            (dec.vop3_dpp_kind(&inst), kind),
                            (None, None)
                                | (Some(Vop3Dpp::Dpp16), Some("dpp16"))
                                | (Some(Vop3Dpp::Dpp8 { .. }), Some("dpp8"))
                        ) =>
                {
                    c.decoded += 1;
                    if let Err(e) = dec.check_rules(&inst) {
                        failures.push(format!("{line}\t=> decoded: {e:?}"));
                    }
                }
                r => failures.push(format!("{line}\t=> decodes as {r:?}")),
            }
        }
    }
    c
}

#[test]
fn rules_agree_with_llvm() {
    let mut failures = Vec::new();
    let mut total = 0;
    for gen in GENS {
        let c = check_gen(gen, &mut failures);
        eprintln!(
            "{gen}: {} texts ({} rejected by llvm-mc-22): rule agrees on {}, same message on {}, {} accepted words decoded",
            c.lines, c.rejected, c.agree, c.category_agree, c.decoded
        );
        if !c.mismatch.is_empty() {
            eprintln!("  other reason (llvm, rule): {:?}", c.mismatch);
        }
        // ratchet: gfx6/gfx7 v_cvt_f32_f16 VOP3 with an integer that is no inline constant
        // there (LLVM: literal, rule: slot), one gfx12 text (LLVM: bus, rule: slot)
        assert!(
            c.mismatch.values().sum::<usize>() <= 2,
            "{gen}: rejection reasons differ from llvm-mc-22's more often: {:?}",
            c.mismatch
        );
        assert!(
            c.lines > 3000 && c.rejected > 1000,
            "{gen}: too few vectors"
        );
        total += c.lines;
    }
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {total} disagree",
        failures.len()
    );
}

/// Dual issue: tests/data/encrules/<gen>.vopd.txt (scripts/encrules_vopd.py) lists X/Y
/// pairs with llvm-mc-22's answer (wave32). LLVM encodes a pair as VOPD when the VOPD
/// rules allow it, else (gfx1250) as VOPD3; the rules must give the same encoding or,
/// for a rejected text, reject it in every encoding both ops have.
fn check_vopd_gen(gen: &str, failures: &mut Vec<String>) -> Counts {
    let path = format!(
        "{}/tests/data/encrules/{gen}.vopd.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Counts::default();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let t: Vec<&str> = line.split('\t').collect();
        let (proc, xmn, xops, ymn, yops, result) = (t[0], t[2], t[3], t[4], t[5], t[6]);
        let (proc, w64) = match proc.strip_suffix(":w64") {
            Some(p) => (p, true),
            None => (proc, false),
        };
        let dec = Decoder::for_processor(proc).unwrap();
        let dec = if w64 { dec.wave64() } else { dec };
        if w64 {
            c.wave64 += 1;
        }
        let isa = dec.isa();
        let pbit = 1u32 << isa.processors.iter().position(|p| *p == proc).unwrap();
        // an op of the encoding's opcode table on this processor
        let find_op = |mn: &str, enc: usize| {
            isa.encodings[enc]
                .opcodes
                .iter()
                .find(|r| r.procs & pbit != 0 && isa.ops[usize::from(r.op)].mnemonic == mn)
                .map(|r| usize::from(r.op))
        };
        let parse = |ops: &str| -> (Vec<Operand>, Vec<u64>) {
            ops.split(' ')
                .filter(|x| !x.is_empty())
                .map(operand)
                .unzip()
        };
        let (xo, xl) = parse(xops);
        let (yo, yl) = parse(yops);
        // the encodings both halves have, in LLVM's order of preference
        let mut verdicts = Vec::new();
        for name in ["VOPD", "VOPD3"] {
            let Some(e) = isa.encodings.iter().position(|e| e.name == name) else {
                continue;
            };
            let ye = isa
                .encodings
                .iter()
                .position(|e| e.name == format!("{name}Y"))
                .unwrap();
            let (Some(x), Some(y)) = (find_op(xmn, e), find_op(ymn, ye)) else {
                continue;
            };
            // gfx1250 VOPD3 v_dual_cndmask_b32 names its lane mask: another text
            if isa.ops[x].operands.len() != xo.len() || isa.ops[y].operands.len() != yo.len() {
                continue;
            }
            let got = dec.check_vopd(
                e as u8,
                VopdHalf {
                    op: x as u16,
                    operands: &xo,
                    literals: &xl,
                },
                VopdHalf {
                    op: y as u16,
                    operands: &yo,
                    literals: &yl,
                },
            );
            verdicts.push((name, x, got));
        }
        assert!(!verdicts.is_empty(), "{gen}: no encoding for {line}");
        c.lines += 1;
        let chosen = verdicts.iter().find(|v| v.2.is_ok());
        match (result.strip_prefix("ok "), chosen) {
            (Some(words), Some(&(name, x, _))) if name == t[1] => {
                c.agree += 1;
                c.category_agree += 1;
                let bytes: Vec<u8> = words
                    .split(' ')
                    .flat_map(|w| u32::from_str_radix(w, 16).unwrap().to_le_bytes())
                    .collect();
                match dec.decode(&bytes) {
                    Ok(inst) if usize::from(inst.op) == x => {
                        c.decoded += 1;
                        if let Err(e) = dec.check_vopd_rules(&inst) {
                            failures.push(format!("{line}\t=> decoded: {e:?}"));
                        }
                    }
                    r => failures.push(format!("{line}\t=> decodes as {r:?}")),
                }
            }
            (None, None) => {
                c.rejected += 1;
                c.agree += 1;
                let cat = result.strip_prefix("err ").unwrap();
                let first = verdicts[0].2.unwrap_err();
                if category(&first) == cat {
                    c.category_agree += 1;
                } else {
                    *c.mismatch
                        .entry((cat.to_string(), category(&first)))
                        .or_default() += 1;
                }
            }
            _ => {
                if result.starts_with("err") {
                    c.rejected += 1;
                }
                let v: Vec<_> = verdicts.iter().map(|v| (v.0, v.2)).collect();
                failures.push(format!("{line}\t=> {v:?}"));
            }
        }
    }
    c
}

/// gfx10+ in wave64 (lane masks are register pairs): the same rules.
#[test]
fn wave64_rules_agree_with_llvm() {
    let mut failures = Vec::new();
    let mut total = 0;
    for gen in ["gfx10", "gfx11", "gfx12"] {
        let c = check_file(&format!("{gen}.w64.txt"), gen, &mut failures);
        eprintln!(
            "{gen} wave64: {} texts ({} rejected by llvm-mc-22): rule agrees on {}, same message on {}, {} accepted words decoded",
            c.lines, c.rejected, c.agree, c.category_agree, c.decoded
        );
        if !c.mismatch.is_empty() {
            eprintln!("  other reason (llvm, rule): {:?}", c.mismatch);
        }
        assert!(
            c.mismatch.values().sum::<usize>() <= 2,
            "{gen}: rejection reasons differ from llvm-mc-22's more often: {:?}",
            c.mismatch
        );
        assert!(c.lines > 2000 && c.rejected > 500, "{gen}: too few vectors");
        total += c.lines;
    }
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {total} disagree",
        failures.len()
    );
}

#[test]
fn vopd_rules_agree_with_llvm() {
    let mut failures = Vec::new();
    let mut total = 0;
    for gen in ["gfx11", "gfx12"] {
        let c = check_vopd_gen(gen, &mut failures);
        eprintln!(
            "{gen} VOPD/VOPD3: {} texts ({} wave64, {} rejected by llvm-mc-22): rules agree on {}, same message on {}, {} accepted words decoded",
            c.lines, c.wave64, c.rejected, c.agree, c.category_agree, c.decoded
        );
        if !c.mismatch.is_empty() {
            eprintln!("  other reason (llvm, rule): {:?}", c.mismatch);
        }
        // ratchet: 4 gfx12 texts where llvm-mc-22 says "invalid operand" (the VOPD3
        // attempt's message) and the rule names the destinations
        assert!(
            c.mismatch.values().sum::<usize>() <= 4,
            "{gen}: rejection reasons differ from llvm-mc-22's more often: {:?}",
            c.mismatch
        );
        assert!(c.lines > 2000 && c.rejected > 500, "{gen}: too few vectors");
        total += c.lines;
    }
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {total} disagree",
        failures.len()
    );
}

/// gfx11+ VOP3/VOP3P with a DPP16 or DPP8 word (`_e64_dpp`):
/// tests/data/encrules/<gen>.dpp.txt (scripts/encrules_dpp.py), wave32 on gfx1100,
/// gfx1150, gfx1201, gfx1250 and wave64 (`PROC:w64`) on gfx1100 and gfx1201.
#[test]
fn dpp_rules_agree_with_llvm() {
    let mut failures = Vec::new();
    let mut total = 0;
    for gen in ["gfx11", "gfx12"] {
        let c = check_file(&format!("{gen}.dpp.txt"), gen, &mut failures);
        eprintln!(
            "{gen} e64_dpp: {} texts ({} rejected by llvm-mc-22): rule agrees on {}, same message on {}, {} accepted words decoded",
            c.lines, c.rejected, c.agree, c.category_agree, c.decoded
        );
        if !c.mismatch.is_empty() {
            eprintln!("  other reason (llvm, rule): {:?}", c.mismatch);
        }
        assert!(
            c.mismatch.values().sum::<usize>() == 0,
            "{gen}: rejection reasons differ from llvm-mc-22's: {:?}",
            c.mismatch
        );
        assert!(
            c.lines > 5000 && c.rejected > 3000 && c.decoded > 1000,
            "{gen}: too few vectors"
        );
        total += c.lines;
    }
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {total} disagree",
        failures.len()
    );
}
