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

/// Every object problem `hsaco check` finds in the corpus build (clang-22 built
/// all of it, so LLVM 22 accepts all of it): the number of files, of code objects
/// whose code was decoded, and (file, code, what) per problem.
pub fn corpus_findings(corpus: &str) -> (usize, usize, Vec<(String, &'static str, String)>) {
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(corpus)];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("co" | "o")) {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    let mut decoded = 0;
    for p in &files {
        let data = std::fs::read(p).unwrap();
        let r = hsaco_check::check(&data, &hsaco_check::CheckOptions::default()).unwrap();
        for o in &r.objects {
            decoded += usize::from(o.code_decoder.is_some());
            for pr in &o.problems {
                out.push((p.display().to_string(), pr.code, pr.what.clone()));
            }
        }
    }
    (files.len(), decoded, out)
}

/// The true findings in the LLVM 22 corpus, both from the gfx803 write-up:
/// `__printf_alloc` lowers a dynamic `v_writelane_b32` lane select through m0 and
/// returns without restoring it (the write-up's m0 bug), and non-entry functions
/// that trap on gfx803 at code object v5/v6 load the queue pointer from the
/// constant address 0xc8 instead of implicit-argument pointer + 0xc8 (root cause 2).
fn explained(file: &str, code: &str, what: &str) -> bool {
    file.contains("/gfx803/")
        && match code {
            "code-m0-not-restored" => what.starts_with("function __printf_alloc writes m0"),
            "code-hidden-arg-wrong-base" => {
                (file.contains("/cov5/") || file.contains("/cov6/"))
                    && what
                        .contains("loads offset 0xc8 (hidden_queue_ptr) from the constant address")
            }
            _ => false,
        }
}

#[test]
#[ignore = "needs the corpus build (/work/corpus/out)"]
fn corpus_has_only_explained_findings() {
    let corpus = std::env::var("CORPUS_ROOT").unwrap_or_else(|_| "/work/corpus/out".into());
    let (n, decoded, found) = corpus_findings(&corpus);
    let mut by_code: std::collections::BTreeMap<&str, usize> = Default::default();
    for (_, c, _) in &found {
        *by_code.entry(c).or_default() += 1;
    }
    eprintln!(
        "{n} files ({decoded} code objects decoded for the ABI lints), {} findings: {by_code:?}",
        found.len()
    );
    let unexplained: Vec<_> = found
        .iter()
        .filter(|(f, c, w)| !explained(f, c, w))
        .collect();
    for u in unexplained.iter().take(40) {
        eprintln!("{u:?}");
    }
    assert!(n > 0);
    assert!(unexplained.is_empty());
}
