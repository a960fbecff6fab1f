//! A step of `cargo xtask llvm-diff` (issue 14): llvm-objdump-22's instruction text
//! (`-d -z --no-show-raw-insn`) of every corpus code object, assembled again by hsaco's
//! instruction encoder (`hsaco_isa::asm::Assembler`, what `hsaco as` uses for each
//! instruction statement) and by `llvm-mc-22 -show-encoding`, each compared with the
//! original bytes (which llvm-objdump-22 prints in its comment even without raw
//! instructions). Wherever llvm-mc-22 gives the original bytes back, hsaco must too.
//!
//! Texts are taken once per (processor, text, original bytes); counts are of
//! instructions. Data lines (`.long`, ...) are counted apart and not assembled.

use anyhow::{Context, Result};
use hsaco_elf::elf::Elf;
use hsaco_isa::asm::{Assembler, NoSymbols};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// (text, original bytes) -> how many instructions, per processor.
type Texts = BTreeMap<String, BTreeMap<(String, Vec<u8>), usize>>;

/// One llvm-objdump line: the instruction text and the bytes of its comment
/// (`// 000000002600: C0020082 0000002C <sym+0x10>`, each word little-endian).
fn parse_line(line: &str) -> Option<(String, Vec<u8>)> {
    let line = line.strip_prefix('\t')?;
    let (text, comment) = line.split_once("//")?;
    let (_, words) = comment.split_once(": ")?;
    let mut bytes = Vec::new();
    for w in words.split_whitespace() {
        if w.starts_with('<') {
            break;
        }
        let v = u32::from_str_radix(w, 16).ok()?;
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let text = text.trim();
    (!text.is_empty() && !bytes.is_empty()).then(|| (text.to_string(), bytes))
}

/// llvm-mc-22's bytes for each text (`None`: an error), in one run per processor.
fn llvm_mc(proc: &str, texts: &[&str], dir: &Path) -> Result<Vec<Option<Vec<u8>>>> {
    let src = dir.join(format!("{proc}.s"));
    let mut s = String::from("\t.text\n");
    for t in texts {
        s.push('\t');
        s.push_str(t);
        s.push('\n');
    }
    std::fs::write(&src, s)?;
    let out = Command::new("llvm-mc-22")
        .args(["-triple=amdgcn-amd-amdhsa", "-show-encoding"])
        .arg(format!("-mcpu={proc}"))
        .arg(&src)
        .output()
        .context("llvm-mc-22")?;
    // error lines (1-based, the first text on line 2)
    let prefix = format!("{}:", src.display());
    let mut errors = BTreeSet::new();
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        if let Some(rest) = l.strip_prefix(&prefix) {
            let mut parts = rest.splitn(3, ':');
            let n = parts.next().and_then(|n| n.parse::<usize>().ok());
            let _col = parts.next();
            if let (Some(n), Some(msg)) = (n, parts.next()) {
                if msg.trim_start().starts_with("error") {
                    errors.insert(n);
                }
            }
        }
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut encodings = stdout.lines().filter_map(|l| {
        let e = l.split_once("; encoding: [")?.1;
        let e = e.split(']').next()?;
        e.split(',')
            .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
            .collect::<Option<Vec<u8>>>()
            .or(Some(Vec::new()))
    });
    let mut result = Vec::with_capacity(texts.len());
    for i in 0..texts.len() {
        if errors.contains(&(i + 2)) {
            result.push(None);
        } else {
            result.push(Some(encodings.next().with_context(|| {
                format!("llvm-mc-22 -mcpu={proc}: fewer encodings than statements")
            })?));
        }
    }
    if encodings.next().is_some() {
        anyhow::bail!("llvm-mc-22 -mcpu={proc}: more encodings than statements");
    }
    Ok(result)
}

/// Returns whether hsaco gave the original bytes wherever llvm-mc-22 did.
pub fn run(corpus: &Path, limit: Option<usize>) -> Result<bool> {
    let objects = crate::corpus::code_objects(corpus, limit)?;
    let dir = crate::root().join("target/objdump-reasm");
    std::fs::create_dir_all(&dir)?;
    let mut texts: Texts = BTreeMap::new();
    let (mut skipped, mut data_lines) = (0usize, 0usize);
    for path in &objects {
        let data = std::fs::read(path)?;
        let Some(proc) = Elf::parse(&data)
            .ok()
            .and_then(|e| hsaco_isa::listing::processor_from_e_flags(e.e_flags()))
        else {
            skipped += 1;
            continue;
        };
        let out = Command::new("llvm-objdump-22")
            .args(["-d", "-z", "--no-show-raw-insn"])
            .arg(path)
            .output()
            .context("llvm-objdump-22")?;
        let per = texts.entry(proc.to_string()).or_default();
        for l in String::from_utf8_lossy(&out.stdout).lines() {
            let Some((text, bytes)) = parse_line(l) else {
                continue;
            };
            if text.starts_with('.') {
                data_lines += 1;
                continue;
            }
            *per.entry((text, bytes)).or_default() += 1;
        }
    }
    let (mut total, mut llvm_same, mut ours_same, mut both) = (0usize, 0usize, 0usize, 0usize);
    let mut failures: Vec<String> = Vec::new();
    let mut per_proc = Vec::new();
    for (proc, entries) in &texts {
        let distinct: Vec<&str> = entries
            .keys()
            .map(|(t, _)| t.as_str())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let theirs = llvm_mc(proc, &distinct, &dir)?;
        let theirs: BTreeMap<&str, Option<Vec<u8>>> =
            distinct.iter().copied().zip(theirs).collect();
        let asm =
            Assembler::for_processor(proc).with_context(|| format!("no encoder for {proc}"))?;
        let (mut p_total, mut p_llvm, mut p_both) = (0usize, 0usize, 0usize);
        for ((text, orig), &count) in entries {
            let mut ours = Vec::new();
            let ours_ok = asm.encode(text, 0, &mut NoSymbols, &mut ours).is_ok();
            let ours_ok = ours_ok && &ours == orig;
            let llvm_ok = theirs.get(text.as_str()).cloned().flatten().as_ref() == Some(orig);
            p_total += count;
            ours_same += usize::from(ours_ok) * count;
            if llvm_ok {
                p_llvm += count;
                if ours_ok {
                    p_both += count;
                } else {
                    failures.push(format!(
                        "{proc}: '{text}': llvm-mc-22 gives the original {orig:02x?}, hsaco {ours:02x?}"
                    ));
                }
            }
        }
        total += p_total;
        llvm_same += p_llvm;
        both += p_both;
        per_proc.push(format!(
            "  {proc:<14} {p_total:>8} instructions {p_llvm:>8} back from llvm-mc-22 {p_both:>8} of them from hsaco"
        ));
    }
    println!(
        "llvm-objdump-22 -d -z --no-show-raw-insn text assembled again (hsaco's encoder and llvm-mc-22 -show-encoding vs the original bytes): {} objects ({skipped} skipped, processor unknown), {data_lines} data lines left out",
        objects.len()
    );
    for l in &per_proc {
        println!("{l}");
    }
    println!(
        "  all: {total} instructions; llvm-mc-22 gives the original bytes for {llvm_same}, hsaco for {both} of those ({} differ, {} distinct texts) and for {ours_same} in all",
        llvm_same - both,
        failures.len()
    );
    for f in failures.iter().take(10) {
        println!("  {f}");
    }
    Ok(failures.is_empty())
}
