//! `cargo xtask roundtrip` (and a step of `llvm-diff`): the code of every corpus object,
//! bytes -> text -> bytes through hsaco alone. Each instruction of every executable
//! section is decoded, printed as `hsaco dis` prints it, and assembled again by
//! `hsaco_isa::asm::Assembler` at the same address; the bytes must be the original
//! ones. Words the decoder does not know stay data (`.long`), as a re-assembly listing
//! writes them, and are counted apart. Needs the corpus, not LLVM.

use anyhow::Result;
use hsaco_elf::elf::Elf;
use hsaco_isa::asm::{Assembler, NoSymbols};
use hsaco_isa::Instructions;
use std::collections::BTreeMap;
use std::path::Path;

/// SHF_EXECINSTR.
const SHF_EXECINSTR: u64 = 0x4;

#[derive(Default)]
struct Count {
    objects: usize,
    instructions: usize,
    identical: usize,
    data_words: usize,
    warned: usize,
    /// The known gap: a 64-bit literal (gfx1250) whose value a 32-bit literal also
    /// gives; the printed text does not say `lit64(..)` and the encoder takes the
    /// shorter form (llvm-mc-22 does the same with that text; with `lit64(..)` it keeps
    /// the long one, which hsaco's encoder does not accept yet).
    lit64: usize,
    differ: Vec<String>,
}

/// Returns whether every instruction came back identical or is the known gap.
pub fn run(dir: &Path, limit: Option<usize>, show: usize) -> Result<bool> {
    let mut objects: Vec<_> = crate::corpus::objects(dir)?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "co"))
        .collect();
    if let Some(n) = limit {
        objects.truncate(n);
    }
    let mut by_proc: BTreeMap<String, Count> = BTreeMap::new();
    let mut text = String::new();
    let mut out = Vec::new();
    for path in &objects {
        let data = std::fs::read(path)?;
        let Ok(elf) = Elf::parse(&data) else {
            continue;
        };
        let Some(proc) = hsaco_isa::listing::processor_from_e_flags(elf.e_flags()) else {
            continue;
        };
        let Some(asm) = Assembler::for_processor(proc) else {
            continue;
        };
        let dec = *asm.decoder();
        let c = by_proc.entry(proc.to_string()).or_default();
        c.objects += 1;
        for s in elf.sections().flatten() {
            if s.flags & SHF_EXECINSTR == 0 {
                continue;
            }
            let Ok(code) = s.data() else { continue };
            for (at, r) in Instructions::new(dec, code) {
                let Ok(inst) = r else {
                    c.data_words += 1;
                    continue;
                };
                let bytes = &code[at..at + usize::from(inst.size)];
                text.clear();
                hsaco_isa::print::print(&dec, &inst, &mut text);
                out.clear();
                c.instructions += 1;
                match asm.encode(&text, s.addr + at as u64, &mut NoSymbols, &mut out) {
                    Ok(e) if out == bytes => {
                        c.identical += 1;
                        c.warned += usize::from(e.warning.is_some());
                    }
                    Ok(_)
                        if out.len() + 4 == bytes.len()
                            && inst.operands.contains(&hsaco_isa::Operand::Literal64) =>
                    {
                        c.lit64 += 1;
                    }
                    Ok(_) => c.differ.push(format!(
                        "{} {:#x}: '{text}' {bytes:02x?} -> {out:02x?}",
                        path.display(),
                        s.addr + at as u64
                    )),
                    Err(e) => c.differ.push(format!(
                        "{} {:#x}: '{text}' {bytes:02x?}: {e}",
                        path.display(),
                        s.addr + at as u64
                    )),
                }
            }
        }
    }
    println!("round trip (corpus code: bytes -> hsaco dis text -> hsaco as bytes):");
    let mut ok = true;
    for (proc, c) in &by_proc {
        println!(
            "  {proc:<18} {:>4} objects {:>8} instructions {:>8} identical ({} with a warning) {:>5} different, {} data words, {} shorter literal (known gap)",
            c.objects,
            c.instructions,
            c.identical,
            c.warned,
            c.differ.len(),
            c.data_words,
            c.lit64
        );
        for d in c.differ.iter().take(show) {
            println!("    {d}");
        }
        ok &= c.differ.is_empty();
    }
    let total: usize = by_proc.values().map(|c| c.instructions).sum();
    let same: usize = by_proc.values().map(|c| c.identical).sum();
    let lit64: usize = by_proc.values().map(|c| c.lit64).sum();
    println!(
        "  all: {same}/{total} identical; {lit64} known gap (a 64-bit literal printed without lit64(..) comes back as a 32-bit one)"
    );
    Ok(ok)
}
