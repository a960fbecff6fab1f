//! Comparisons with LLVM that need llvm-objdump-22 and the corpus build; run by
//! `cargo test -p hsaco-check -- --ignored` (not part of plain `cargo test`).

use hsaco_isa::desc::Form;
use hsaco_isa::{Decoder, Instructions};
use std::collections::HashMap;
use std::process::Command;

/// The lints read gfx8 code with the gfx9 tables until hsaco-isa describes gfx8:
/// every scalar (SOP*, SMEM) and LDS (DS) instruction they decode in the gfx803
/// corpus objects must print as llvm-objdump-22 prints the instruction at that
/// address (`s_waitcnt` aside: gfx9 widened its vmcnt field). Returns the
/// number compared and the differences.
pub fn gfx8_scalar_view(corpus: &str) -> (usize, Vec<String>) {
    let dec = Decoder::for_processor("gfx900").unwrap();
    let mut compared = 0;
    let mut diffs = Vec::new();
    for v in [4, 5, 6] {
        let dir = format!("{corpus}/gfx803/cov{v}");
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().and_then(|x| x.to_str()) != Some("co") {
                continue;
            }
            let out = Command::new("llvm-objdump-22")
                .args(["-d", "--no-show-raw-insn"])
                .arg(&p)
                .output()
                .expect("llvm-objdump-22");
            let text = String::from_utf8_lossy(&out.stdout);
            let mut by_addr: HashMap<u64, String> = HashMap::new();
            for line in text.lines() {
                let Some((ins, comment)) = line.split_once("// ") else {
                    continue;
                };
                let Some(addr) = comment.split(':').next() else {
                    continue;
                };
                let Ok(a) = u64::from_str_radix(addr.trim(), 16) else {
                    continue;
                };
                by_addr.insert(a, ins.trim().to_string());
            }
            let data = std::fs::read(&p).unwrap();
            let co = hsaco_elf::CodeObject::parse(&data).unwrap();
            let text_sec = co.elf.section_by_name(".text").unwrap();
            let bytes = text_sec.data().unwrap();
            for (off, inst) in Instructions::new(dec, bytes) {
                let Ok(inst) = inst else { continue };
                let form = dec.encoding(&inst).form;
                if !matches!(
                    form,
                    Form::Sop1
                        | Form::Sop2
                        | Form::Sopk
                        | Form::Sopc
                        | Form::Sopp
                        | Form::Smem
                        | Form::Ds
                ) {
                    continue;
                }
                let a = text_sec.addr + off as u64;
                let ours = dec.text(&inst);
                // gfx9 widened vmcnt (bits 15:14), so gfx8 waits print differently;
                // s_waitcnt writes no register and no lint looks at it
                if ours.starts_with("s_waitcnt") {
                    continue;
                }
                compared += 1;
                match by_addr.get(&a) {
                    Some(l)
                        if l.starts_with(&ours)
                            || l.split_whitespace().eq(ours.split_whitespace()) => {}
                    other => diffs.push(format!(
                        "{}: {a:#x}: ours `{ours}`, llvm `{}`",
                        p.display(),
                        other.map(String::as_str).unwrap_or("<no instruction here>")
                    )),
                }
            }
        }
    }
    (compared, diffs)
}

#[test]
#[ignore = "needs llvm-objdump-22 and the corpus build (/work/corpus/out/nogpulib)"]
fn gfx8_scalar_view_matches_llvm() {
    let corpus = std::env::var("CORPUS").unwrap_or_else(|_| "/work/corpus/out/nogpulib".into());
    let (n, diffs) = gfx8_scalar_view(&corpus);
    eprintln!(
        "{n} scalar/LDS instructions compared, {} differ",
        diffs.len()
    );
    for d in diffs.iter().take(40) {
        eprintln!("{d}");
    }
    assert!(n > 0);
    assert!(diffs.is_empty());
}
