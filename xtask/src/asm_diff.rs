//! `cargo xtask asm-diff` (and a step of `llvm-diff`): `hsaco-asm` against
//! `llvm-mc-22 -filetype=obj` on every `.s` of the corpus, section by section (name,
//! type, flags, contents), symbol by symbol (name, value, size, type, binding,
//! visibility, section name) and relocation by relocation (section, offset, type,
//! symbol name, addend).
//!
//! By default instructions go through hsaco's encoder (`hsaco_isa::asm`), as `hsaco as`
//! does. `--encoder oracle` encodes them with an oracle fed from `llvm-mc-22
//! -show-encoding` on the same file, so that only the driver's own work (directives,
//! labels, expressions, descriptors, metadata, symbols, relocations, ELF) is compared:
//! it tells a driver difference from an encoder one.

use anyhow::{bail, Context, Result};
use hsaco_asm::{AsmError, Encoded, Fixup, FixupKind, InstructionEncoder, SymbolLookup};
use hsaco_elf::elf::Elf;
use hsaco_isa::asm::ExprValue;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::llvm_diff::Tally;

/// One instruction as llvm-mc encoded it.
struct OracleInst {
    mnemonic: String,
    bytes: Vec<u8>,
    /// (offset, value text, branch?)
    fixup: Option<(u8, String, bool)>,
}

/// Encodes the instructions of one file in order, from `llvm-mc -show-encoding`.
struct Oracle {
    insts: Vec<OracleInst>,
    next: usize,
}

fn parse_show_encoding(text: &str) -> Vec<OracleInst> {
    let mut out: Vec<OracleInst> = Vec::new();
    for line in text.lines() {
        if let Some(i) = line.find("; encoding: [") {
            let stmt = line[..i].trim();
            let mnemonic = stmt.split_whitespace().next().unwrap_or("").to_string();
            let list = &line[i + "; encoding: [".len()..];
            let list = &list[..list.find(']').unwrap_or(list.len())];
            let bytes = crate::corpus::encoding_bytes(list);
            out.push(OracleInst {
                mnemonic,
                bytes,
                fixup: None,
            });
        } else if let Some(i) = line.find(";   fixup A - offset: ") {
            let rest = &line[i + ";   fixup A - offset: ".len()..];
            let (off, rest) = rest.split_once(", value: ").unwrap_or(("0", ""));
            let (value, kind) = rest.rsplit_once(", kind: ").unwrap_or((rest, ""));
            if let Some(last) = out.last_mut() {
                last.fixup = Some((
                    off.trim().parse().unwrap_or(0),
                    value.to_string(),
                    kind.contains("sopp_br"),
                ));
            }
        }
    }
    out
}

impl InstructionEncoder for Oracle {
    fn encode(
        &mut self,
        text: &str,
        _pc: u64,
        syms: &mut dyn SymbolLookup,
        out: &mut Vec<u8>,
    ) -> Result<Encoded, AsmError> {
        let mnemonic = text.split_whitespace().next().unwrap_or("");
        let err = |m: String| AsmError {
            span: 0..mnemonic.len(),
            message: m,
        };
        let Some(inst) = self.insts.get(self.next) else {
            return Err(err("oracle: more instructions than llvm-mc printed".into()));
        };
        if !inst.mnemonic.eq_ignore_ascii_case(mnemonic) {
            return Err(err(format!(
                "oracle: out of step (llvm-mc printed {})",
                inst.mnemonic
            )));
        }
        self.next += 1;
        let mut fixup = None;
        if let Some((offset, value, branch)) = &inst.fixup {
            match syms.expr(value) {
                Ok(ExprValue::Const(_)) => {}
                Ok(ExprValue::Symbolic {
                    symbol,
                    addend,
                    variant,
                }) => {
                    fixup = Some(Fixup {
                        offset: *offset,
                        kind: if *branch {
                            FixupKind::Branch16
                        } else {
                            FixupKind::Literal32
                        },
                        symbol,
                        addend,
                        variant,
                    })
                }
                Err(m) => return Err(err(m)),
            }
        }
        out.extend_from_slice(&inst.bytes);
        Ok(Encoded {
            size: inst.bytes.len() as u8,
            fixup,
            warning: None,
        })
    }
}

/// Processor, features and code object version of a corpus `.s` from its path
/// (`.../<config>/<target>/cov<N>/x.s`).
fn target_of(path: &Path) -> Option<(String, String, u8)> {
    let cov_dir = path.parent()?;
    let cov: u8 = cov_dir
        .file_name()?
        .to_str()?
        .strip_prefix("cov")?
        .parse()
        .ok()?;
    let target = cov_dir.parent()?.file_name()?.to_str()?;
    let mut parts = target.split('_');
    let cpu = parts.next()?.to_string();
    let mut mattr = Vec::new();
    for f in parts {
        mattr.push(if let Some(n) = f.strip_suffix('+') {
            format!("+{n}")
        } else if let Some(n) = f.strip_suffix('-') {
            format!("-{n}")
        } else {
            f.to_string()
        });
    }
    Some((cpu, mattr.join(","), cov))
}

fn sources(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| d.display().to_string())? {
            let p = e?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "s") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A comparable text of an object: one line per section, symbol and relocation.
fn describe(data: &[u8]) -> Result<Vec<String>> {
    let elf = Elf::parse(data)?;
    let mut out = vec![format!(
        "header e_flags={:#x} abi_version={}",
        elf.e_flags(),
        elf.abi_version()
    )];
    let mut names = Vec::new();
    for s in elf.sections() {
        let s = s?;
        names.push(s.name_str().into_owned());
        let t = s.sh_type.0;
        use hsaco_elf::elf::consts::*;
        if matches!(t, SHT_SYMTAB | SHT_STRTAB | SHT_RELA | SHT_REL | SHT_NULL) {
            continue;
        }
        let d = if t == SHT_NOBITS { &[][..] } else { s.data()? };
        let hex: String = d.iter().map(|b| format!("{b:02x}")).collect();
        out.push(format!(
            "section {} type={t:#x} flags={:#x} align={} entsize={} size={} data={hex}",
            s.name_str(),
            s.flags,
            s.addralign,
            s.entsize,
            s.size
        ));
    }
    let sec_name = |i: u16| -> String {
        match i {
            0 => "UND".into(),
            0xfff1 => "ABS".into(),
            0xff00 => "LDS".into(),
            i => names
                .get(usize::from(i))
                .cloned()
                .unwrap_or_else(|| format!("#{i}")),
        }
    };
    let mut sym_names = Vec::new();
    if let Some(st) = elf.symtab()? {
        for s in st.iter() {
            let s = s?;
            let name = if s.info & 0xf == 3 {
                format!("[section {}]", sec_name(s.shndx))
            } else {
                s.name_str().into_owned()
            };
            sym_names.push(name.clone());
            if s.index == 0 {
                continue;
            }
            out.push(format!(
                "symbol {name} value={:#x} size={} info={:#x} other={:#x} section={}",
                s.value,
                s.size,
                s.info,
                s.other,
                sec_name(s.shndx)
            ));
        }
    }
    for t in elf.relocation_tables() {
        let t = t?;
        let target = names
            .get(t.target_section_index())
            .cloned()
            .unwrap_or_default();
        for r in t.iter() {
            out.push(format!(
                "reloc {target}+{:#x} type={} symbol={} addend={}",
                r.offset,
                r.r_type.0,
                sym_names
                    .get(r.symbol as usize)
                    .cloned()
                    .unwrap_or_default(),
                r.addend
            ));
        }
    }
    Ok(out)
}

/// Everything is compared in order (sections in header order, without the tables
/// the writer builds; symbols in `.symtab` order; relocations in table order);
/// `ASM_DIFF_UNORDERED=1` compares sets of lines instead.
fn normalize(mut lines: Vec<String>) -> Vec<String> {
    if std::env::var_os("ASM_DIFF_UNORDERED").is_some() {
        lines.sort();
    }
    lines
}

pub fn compare(dir: &Path, limit: Option<usize>, real: bool) -> Result<Tally> {
    compare_with(dir, limit, real, "llvm-mc-22", false)
}

/// [`compare`] against `llvm_mc` (an older llvm-mc for code object versions LLVM 22 no
/// longer writes); with `pass_version`, both assemblers are told the code object
/// version of the file's `cov<N>` directory (the `.s` of a v3 object does not say it).
pub fn compare_with(
    dir: &Path,
    limit: Option<usize>,
    real: bool,
    llvm_mc: &str,
    pass_version: bool,
) -> Result<Tally> {
    let mut tally = Tally::default();
    let mut files = sources(dir)?;
    if let Some(n) = limit {
        files.truncate(n);
    }
    let tmp = std::env::temp_dir().join(format!("hsaco-asm-diff-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let llvm_obj = tmp.join("llvm.o");
    // whole files equal byte for byte (layout, string table order, padding too)
    let mut same_bytes = 0usize;
    let mut first_other: Option<String> = None;
    for f in &files {
        let Some((cpu, mattr, cov)) = target_of(f) else {
            tally.skipped += 1;
            continue;
        };
        let mut args = vec![
            "-triple=amdgcn-amd-amdhsa".to_string(),
            format!("-mcpu={cpu}"),
        ];
        if !mattr.is_empty() {
            args.push(format!("-mattr={mattr}"));
        }
        if pass_version {
            args.push(format!("--amdhsa-code-object-version={cov}"));
        }
        let st = Command::new(llvm_mc)
            .args(&args)
            .args(["-filetype=obj", "-o"])
            .arg(&llvm_obj)
            .arg(f)
            .output()?;
        if !st.status.success() {
            tally.skipped += 1;
            continue;
        }
        let llvm = std::fs::read(&llvm_obj)?;
        let text = std::fs::read_to_string(f)?;
        let mut opts = hsaco_asm::Options::for_processor(&cpu).context("processor")?;
        opts.apply_mattr(&mattr).map_err(anyhow::Error::msg)?;
        if pass_version {
            opts.code_object_version = Some(cov);
        }
        let name = f.display().to_string();
        let result = if real {
            let mut enc = hsaco_isa::asm::Assembler::for_processor(&cpu).context("processor")?;
            if opts.wave64 == Some(true) {
                enc = enc.wave64();
            }
            hsaco_asm::assemble(&name, &text, &opts, &mut enc, &mut hsaco_asm::NoIncludes)
        } else {
            let se = Command::new(llvm_mc)
                .args(&args)
                .arg("-show-encoding")
                .arg(f)
                .output()?;
            let mut oracle = Oracle {
                insts: parse_show_encoding(&String::from_utf8_lossy(&se.stdout)),
                next: 0,
            };
            hsaco_asm::assemble(&name, &text, &opts, &mut oracle, &mut hsaco_asm::NoIncludes)
        };
        tally.compared += 1;
        let ours = match result {
            Ok(a) => a.object,
            Err(d) => {
                let first = d.0.first().map(|d| d.to_string()).unwrap_or_default();
                if std::env::var_os("ASM_DIFF_VERBOSE").is_some() {
                    eprintln!("FAIL {name}: {first}");
                }
                tally
                    .mismatches
                    .push(format!("{name}: hsaco failed: {}", first.trim()));
                continue;
            }
        };
        if ours == llvm {
            same_bytes += 1;
        } else if first_other.is_none() {
            first_other = Some(name.clone());
        }
        let a = normalize(describe(&ours)?);
        let b = normalize(describe(&llvm)?);
        if let Some(d) = std::env::var_os("ASM_DIFF_DUMP") {
            let d = PathBuf::from(d);
            std::fs::write(d.join("hsaco.txt"), a.join("\n"))?;
            std::fs::write(d.join("llvm.txt"), b.join("\n"))?;
        }
        if a != b {
            let only_ours: Vec<&String> = a.iter().filter(|l| !b.contains(l)).collect();
            let only_llvm: Vec<&String> = b.iter().filter(|l| !a.contains(l)).collect();
            let clip = |s: Option<&&String>| {
                s.map(|s| s.chars().take(300).collect::<String>())
                    .unwrap_or_default()
            };
            if std::env::var_os("ASM_DIFF_VERBOSE").is_some() {
                eprintln!("DIFF {name}");
                for l in &only_ours {
                    eprintln!("  hsaco: {l}");
                }
                for l in &only_llvm {
                    eprintln!("  llvm:  {l}");
                }
            }
            tally.mismatches.push(format!(
                "{name}: {} lines only in hsaco, {} only in llvm-mc; first: hsaco {:?} / llvm {:?}",
                only_ours.len(),
                only_llvm.len(),
                clip(only_ours.first()),
                clip(only_llvm.first())
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!(
        "  byte-identical to {llvm_mc}'s object: {same_bytes} of {} files{}",
        tally.compared,
        first_other.map_or(String::new(), |f| format!(" (first other: {f})"))
    );
    Ok(tally)
}

/// `cargo xtask asm-diff [--corpus DIR] [--limit N] [--encoder oracle|real]` (real, hsaco's
/// encoder, by default).
pub fn run(args: &[String]) -> Result<()> {
    let mut corpus = None;
    let mut limit = None;
    let mut real = true;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--corpus" => corpus = Some(PathBuf::from(it.next().context("--corpus DIR")?)),
            "--limit" => limit = Some(it.next().context("--limit N")?.parse()?),
            "--encoder" => real = it.next().context("--encoder oracle|real")? == "real",
            other => bail!("unknown option {other:?}"),
        }
    }
    let opts = crate::Options {
        corpus,
        ..crate::Options::default()
    };
    let dir = opts.corpus_dir()?;
    let t = compare(&dir, limit, real)?;
    let what = if real {
        "assembler (hsaco as vs llvm-mc-22 -filetype=obj)"
    } else {
        "assembler (hsaco as with llvm-mc-22's instruction encodings vs llvm-mc-22 -filetype=obj)"
    };
    if !t.report(what) {
        bail!("hsaco as differs from llvm-mc-22");
    }
    Ok(())
}
