//! Golden tests of the assembler driver.
//!
//! - `tests/data/ok/*.s`: sources of every directive family (instructions through
//!   hsaco's encoder); the expected object beside each is llvm-mc-22's, or for code
//!   object v2 and v3, which LLVM 22 no longer writes, llvm-mc-14's (clang-14's own
//!   output for 01_vadd; `tests/data/gen.sh`). The files must be byte-identical;
//!   to show where they differ the test compares header flags, sections (in order,
//!   without the symbol, string and relocation tables the writer builds), symbols (in
//!   `.symtab` order) and relocations.
//! - `tests/data/err/*.s`: sources with errors; `*.stderr` holds hsaco's diagnostics
//!   (`BLESS=1 cargo test` rewrites them; `*.llvm.txt`, from gen.sh, is llvm-mc-22's
//!   for the reviewer).
//! - the fuzz entry's seeded smoke run.

use hsaco_asm::{assemble, FileLoader, NoInstructions, Options};
use hsaco_elf::elf::consts::*;
use hsaco_elf::elf::Elf;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

struct Dir(PathBuf);

impl FileLoader for Dir {
    fn load(&mut self, name: &str, _from: &str) -> Result<(String, String), String> {
        let p = self.0.join(name);
        std::fs::read_to_string(&p)
            .map(|t| (p.display().to_string(), t))
            .map_err(|_| format!("Could not find include file '{name}'"))
    }
}

fn options_of(src: &str) -> Options {
    let first = src.lines().next().unwrap_or("");
    let mut it = first.trim_start_matches("; MCPU:").split_whitespace();
    let cpu = it.next().expect("; MCPU: line");
    let mut o = Options::for_processor(cpu).expect("processor");
    for a in it {
        if let Some(m) = a.strip_prefix("-mattr=") {
            o.apply_mattr(m).unwrap();
        }
        if let Some(v) = a.strip_prefix("--amdhsa-code-object-version=") {
            o.code_object_version = Some(v.parse().expect("a version number"));
        }
    }
    o
}

/// One line per header field, section, symbol and relocation.
fn describe(data: &[u8]) -> Vec<String> {
    let elf = Elf::parse(data).unwrap();
    let mut out = vec![format!(
        "e_flags={:#x} abi_version={} e_type={}",
        elf.e_flags(),
        elf.abi_version(),
        elf.e_type().0
    )];
    let mut names = Vec::new();
    for s in elf.sections() {
        let s = s.unwrap();
        names.push(s.name_str().into_owned());
        let t = s.sh_type.0;
        if matches!(t, SHT_SYMTAB | SHT_STRTAB | SHT_RELA | SHT_REL | SHT_NULL) {
            continue;
        }
        let d = if t == SHT_NOBITS {
            &[][..]
        } else {
            s.data().unwrap()
        };
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
    let sec = |i: u16| match i {
        0 => "UND".to_string(),
        0xfff1 => "ABS".to_string(),
        0xff00 => "LDS".to_string(),
        i => names.get(usize::from(i)).cloned().unwrap_or_default(),
    };
    let mut sym_names = Vec::new();
    if let Some(st) = elf.symtab().unwrap() {
        for s in st.iter() {
            let s = s.unwrap();
            let name = if s.info & 0xf == STT_SECTION {
                format!("[section {}]", sec(s.shndx))
            } else {
                s.name_str().into_owned()
            };
            sym_names.push(name.clone());
            if s.index > 0 {
                out.push(format!(
                    "symbol {name} value={:#x} size={} info={:#x} other={:#x} section={}",
                    s.value,
                    s.size,
                    s.info,
                    s.other,
                    sec(s.shndx)
                ));
            }
        }
    }
    for t in elf.relocation_tables() {
        let t = t.unwrap();
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
    out
}

fn fixtures(sub: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data_dir().join(sub))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    v.sort();
    v
}

#[test]
fn directives_match_llvm_mc() {
    let files = fixtures("ok");
    assert!(files.len() >= 10);
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let opts = options_of(&src);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let mut dir = Dir(f.parent().unwrap().to_path_buf());
        // (instructions through hsaco's encoder, as `hsaco as` does)
        let cpu = opts.target.processor.name;
        let mut enc = hsaco_isa::asm::Assembler::for_processor(cpu).expect("processor");
        if opts.wave64 == Some(true) {
            enc = enc.wave64();
        }
        let ours = match assemble(&name, &src, &opts, &mut enc, &mut dir) {
            Ok(a) => a.object,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let llvm = std::fs::read(f.with_extension("o")).unwrap();
        let (a, b) = (describe(&ours), describe(&llvm));
        if a == b && ours != llvm {
            // the same contents: the layout differs (section order, string table,
            // offsets, padding); hsaco writes llvm-mc's layout
            failures.push(format!("{name}: same contents, not the same bytes"));
        } else if a != b {
            let first = a
                .iter()
                .zip(&b)
                .find(|(x, y)| x != y)
                .map(|(x, y)| format!("\n  hsaco: {x}\n  llvm:  {y}"))
                .unwrap_or_else(|| format!(" {} vs {} lines", a.len(), b.len()));
            failures.push(format!("{name}:{first}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn diagnostics_golden() {
    let bless = std::env::var_os("BLESS").is_some();
    let files = fixtures("err");
    assert!(files.len() >= 5);
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let opts = options_of(&src);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let mut dir = Dir(f.parent().unwrap().to_path_buf());
        let text = match assemble(&name, &src, &opts, &mut NoInstructions, &mut dir) {
            Ok(_) => "(no error)\n".to_string(),
            Err(e) => e.to_string(),
        };
        let expected_path = f.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != text {
            failures.push(format!("{name}:\n--- expected\n{expected}--- got\n{text}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fuzz_smoke() {
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for f in fixtures("ok").iter().chain(fixtures("err").iter()) {
        let mut s = vec![0u8];
        s.extend(std::fs::read(f).unwrap());
        seeds.push(s);
    }
    let refs: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    let n =
        hsaco_elf::fuzzing::mutation_smoke(hsaco_asm::fuzzing::asm, &refs, iterations(), 0x5eed);
    assert_eq!(n, iterations());
}

fn iterations() -> usize {
    std::env::var("ASM_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50_000)
}

#[test]
fn fuzz_replay() {
    if let Some(p) = std::env::var_os("ASM_FUZZ_REPLAY") {
        hsaco_asm::fuzzing::asm(&std::fs::read(p).unwrap());
    }
}
