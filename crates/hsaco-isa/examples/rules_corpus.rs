//! Check the operand rules over real code: `rules_corpus FILE...` decodes the executable
//! sections of each code object (processor from e_flags) and runs
//! `Decoder::check_rules` and `Decoder::check_vopd_rules` (dual issue) on every instruction. LLVM generated the code, so every
//! instruction must obey the rules; prints counts per processor and the violations.
use hsaco_elf::elf::Elf;
use std::collections::BTreeMap;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: rules_corpus FILE...");
        std::process::exit(2);
    }
    // processor -> (instructions checked, violations, zero words skipped, dual issue, VOP3 with a DPP word)
    let mut per: BTreeMap<&'static str, (usize, usize, usize, usize, usize)> = BTreeMap::new();
    let mut shown: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let Ok(elf) = Elf::parse(&bytes) else {
            continue;
        };
        let Some(dec) = hsaco_isa::listing::processor_from_e_flags(elf.e_flags())
            .and_then(hsaco_isa::Decoder::for_processor)
        else {
            continue;
        };
        let e = per.entry(dec.processor()).or_default();
        for section in elf.sections() {
            let Ok(section) = section else { continue };
            if section.flags & 4 == 0 || section.sh_type.0 == 8 {
                continue;
            }
            let Ok(data) = section.data() else { continue };
            for (_, r) in hsaco_isa::Instructions::new(dec, data) {
                let Ok(inst) = r else { continue };
                if inst.size == 4 && inst.raw & 0xffff_ffff == 0 {
                    // a zero word is section padding (llvm-objdump prints `...`); on
                    // gfx8/gfx9 it reads as v_cndmask_b32_e32 v0, s0, v0, vcc
                    e.2 += 1;
                    continue;
                }
                e.0 += 1;
                if dec.vopd_y(&inst).is_some() {
                    e.3 += 1;
                }
                if dec.vop3_dpp_kind(&inst).is_some() {
                    e.4 += 1;
                }
                if let Err(err) = dec
                    .check_rules(&inst)
                    .and_then(|()| dec.check_vopd_rules(&inst))
                {
                    e.1 += 1;
                    let key = format!("{}: {} ({err})", dec.processor(), dec.text(&inst));
                    *shown.entry(key).or_default() += 1;
                }
            }
        }
    }
    for (p, (n, bad, zero, dual, dpp)) in &per {
        println!(
            "{p}: {n} instructions ({dual} dual issue, {dpp} VOP3 DPP), {bad} break the operand rules ({zero} zero words skipped)"
        );
    }
    for (k, n) in shown.iter().take(60) {
        println!("  {n}x {k}");
    }
}
