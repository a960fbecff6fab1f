//! `cargo xtask roundtrip` (and a step of `llvm-diff`): the code of every corpus object,
//! bytes -> text -> bytes through hsaco alone. Each instruction of every executable
//! section is decoded, printed as `hsaco dis` prints it, and assembled again by
//! `hsaco_isa::asm::Assembler` at the same address; the bytes must be the original
//! ones. Words the decoder does not know stay data (`.long`), as a re-assembly listing
//! writes them, and are counted apart. Needs the corpus, not LLVM.

use anyhow::{Context, Result};
use hsaco_elf::elf::Elf;
use hsaco_isa::asm::{Assembler, NoSymbols};
use hsaco_isa::Instructions;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// SHF_EXECINSTR.
const SHF_EXECINSTR: u64 = 0x4;

#[derive(Default)]
struct Count {
    objects: usize,
    instructions: usize,
    identical: usize,
    data_words: usize,
    /// A 64-bit literal (gfx1250) that comes back shorter even as `lit64(..)` (the
    /// printer's text, as llvm-objdump's, does not say `lit64`; `source_text` adds it).
    lit64: usize,
    differ: Vec<String>,
}

/// Returns whether every instruction came back identical or is the known gap.
pub fn run(dir: &Path, limit: Option<usize>, show: usize) -> Result<bool> {
    let objects = crate::corpus::code_objects(dir, limit)?;
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
                c.instructions += 1;
                // (the text `dis --reassemble` writes: the printer's, with `lit64(..)`
                // where llvm-objdump's text would come back as a shorter literal)
                let pc = s.addr + at as u64;
                if hsaco_isa::listing::source_text(&asm, &inst, bytes, pc, &mut text, &mut out) {
                    c.identical += 1;
                    continue;
                }
                text.clear();
                hsaco_isa::print::print(&dec, &inst, &mut text);
                out.clear();
                match asm.encode(&text, pc, &mut NoSymbols, &mut out) {
                    Ok(_) if out == bytes => c.identical += 1,
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
            "  {proc:<18} {:>4} objects {:>8} instructions {:>8} identical {:>5} different, {} data words, {} shorter literal",
            c.objects,
            c.instructions,
            c.identical,
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
    println!("  all: {same}/{total} identical; {lit64} 64-bit literals that came back shorter");
    Ok(ok)
}

/// The same through the command line, for every corpus code object: `hsaco dis
/// --reassemble OBJ | hsaco as --mcpu=P - -o OUT.o`, then each executable section of
/// OUT.o against the object's section of the same name, byte for byte. Returns whether
/// all were identical.
pub fn cli(hsaco: &Path, dir: &Path, limit: Option<usize>) -> Result<bool> {
    let objects = crate::corpus::code_objects(dir, limit)?;
    let tmp = crate::root().join("target/roundtrip");
    std::fs::create_dir_all(&tmp)?;
    let out_o = tmp.join("out.o");
    let (mut same, mut differ, mut skipped) = (0usize, Vec::new(), 0usize);
    for path in &objects {
        let data = std::fs::read(path)?;
        let Some(proc) = Elf::parse(&data)
            .ok()
            .and_then(|e| hsaco_isa::listing::processor_from_e_flags(e.e_flags()))
        else {
            skipped += 1;
            continue;
        };
        let source = Command::new(hsaco)
            .args(["dis", "--reassemble"])
            .arg(path)
            .output()
            .context("hsaco dis --reassemble")?;
        if !source.status.success() {
            differ.push(format!("{}: dis --reassemble failed", path.display()));
            continue;
        }
        let _ = std::fs::remove_file(&out_o);
        let mut child = Command::new(hsaco)
            .args(["as", &format!("--mcpu={proc}"), "-", "-o"])
            .arg(&out_o)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .context("hsaco as")?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(&source.stdout)?;
        }
        let done = child.wait_with_output()?;
        if !done.status.success() {
            let err = String::from_utf8_lossy(&done.stderr);
            differ.push(format!(
                "{}: hsaco as failed: {}",
                path.display(),
                err.lines().find(|l| l.contains("error")).unwrap_or("")
            ));
            continue;
        }
        let back = std::fs::read(&out_o)?;
        let (Ok(orig), Ok(back)) = (Elf::parse(&data), Elf::parse(&back)) else {
            differ.push(format!("{}: unreadable", path.display()));
            continue;
        };
        let mut ok = true;
        for s in orig.sections().flatten() {
            if s.flags & SHF_EXECINSTR == 0 {
                continue;
            }
            let name = s.name_str();
            let theirs = back
                .sections()
                .flatten()
                .find(|b| b.name_str() == name)
                .and_then(|b| b.data().ok());
            if theirs != s.data().ok() {
                ok = false;
                differ.push(format!("{}: section {name} differs", path.display()));
            }
        }
        same += usize::from(ok);
    }
    println!(
        "round trip through the CLI (hsaco dis --reassemble | hsaco as, code sections byte for byte): {} objects, {same} identical, {} different, {skipped} skipped (processor unknown)",
        objects.len(),
        differ.len()
    );
    for d in differ.iter().take(10) {
        println!("  {d}");
    }
    Ok(differ.is_empty())
}
