//! r600, PAL and Mesa objects (`tests/cli/data/{r600,pal}`, built by the `gen.sh`
//! beside them) read as LLVM 22 reads them: every value `hsaco read` prints is
//! compared with the LLVM output committed next to each object (llvm-readelf-22,
//! llvm-objdump-22, and the metadata and `.AMDGPU.config` blocks of clang-22's
//! assembly). The golden CLI cases (`tests/cli/read-r600*`, `read-pal*`) fix the
//! layout; these tests tie their values to LLVM.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn hsaco(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hsaco"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run hsaco");
    assert!(out.status.success(), "hsaco {args:?} failed");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The one object of `hsaco read --json FILE`.
fn json_of(file: &str) -> Value {
    let v: Value = serde_json::from_str(&hsaco(&["read", "--json", file])).unwrap();
    v["files"][0]["objects"][0].clone()
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn num(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

/// `llvm-readelf -h` field: the text after `key:`.
fn header<'a>(readelf: &'a str, key: &str) -> &'a str {
    readelf
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key} in readelf output"))
        .trim_start_matches(':')
        .trim()
}

/// `llvm-readelf -S` rows: (name, offset, size).
fn readelf_sections(readelf: &str) -> Vec<(String, u64, u64)> {
    readelf
        .lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix('[')?;
            let (nr, rest) = rest.split_once(']')?;
            nr.trim().parse::<u32>().ok()?;
            let f: Vec<&str> = rest.split_whitespace().collect();
            // the null section has no name
            let (name, f) = if f.first() == Some(&"NULL") {
                (String::new(), &f[..])
            } else {
                (f[0].to_string(), &f[1..])
            };
            Some((
                name,
                u64::from_str_radix(f[2], 16).ok()?,
                u64::from_str_radix(f[3], 16).ok()?,
            ))
        })
        .collect()
}

/// `llvm-readelf -s` rows: (value, size, name).
fn readelf_symbols(readelf: &str) -> Vec<(u64, u64, String)> {
    let mut out = Vec::new();
    let mut on = false;
    for l in readelf.lines() {
        if l.contains("Num:") && l.contains("Value") {
            on = true;
            continue;
        }
        if on {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() < 7 || !f[0].ends_with(':') {
                on = false;
                continue;
            }
            let name = f.get(7).map(|s| s.to_string()).unwrap_or_default();
            out.push((u64::from_str_radix(f[1], 16).unwrap(), num(f[2]), name));
        }
    }
    out
}

/// `llvm-readelf -r` rows: (offset, type, symbol).
fn readelf_relocations(readelf: &str) -> Vec<(u64, String, String)> {
    readelf
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() >= 5 && f[2].starts_with("R_AMDGPU_") {
                Some((
                    u64::from_str_radix(f[0], 16).ok()?,
                    f[2].to_string(),
                    f[4].to_string(),
                ))
            } else {
                None
            }
        })
        .collect()
}

/// `hsaco read --symbols` rows: (value, size, name).
fn our_symbols(out: &str) -> Vec<(u64, u64, String)> {
    out.lines()
        .skip_while(|l| !l.starts_with("symbols ("))
        .skip(2)
        .take_while(|l| !l.starts_with("relocations"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let name = f.get(7).map(|s| s.to_string()).unwrap_or_default();
            (num(f[1]), num(f[2]), name)
        })
        .collect()
}

/// `hsaco read --relocations` rows: (offset, type, symbol).
fn our_relocations(out: &str) -> Vec<(u64, String, String)> {
    out.lines()
        .skip_while(|l| !l.starts_with("relocations ("))
        .skip(1)
        .take_while(|l| l.starts_with("  0x"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (num(f[0]), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

/// The (register, value) words of `llvm-objdump -s -j .AMDGPU.config`.
fn objdump_pairs(dump: &str) -> Vec<(u64, u64)> {
    let words: Vec<u64> = dump
        .lines()
        .skip_while(|l| !l.starts_with("Contents of section"))
        .skip(1)
        .flat_map(|l| {
            l.split_whitespace()
                .skip(1)
                .take(4)
                .filter(|w| w.len() == 8 && w.chars().all(|c| c.is_ascii_hexdigit()))
                .map(|w| {
                    let b = u32::from_str_radix(w, 16).unwrap().to_be_bytes();
                    u64::from(u32::from_le_bytes(b))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    words.chunks(2).map(|p| (p[0], p[1])).collect()
}

/// The `amdgpu_config` of our JSON: (function, [(register, value, fields)]).
type Block = (Option<String>, Vec<(u64, u64, Value)>);
/// Every (register, value) word pair of the `.AMDGPU.config` blocks, in order.
fn config_words(config: &[Block]) -> Vec<(u64, u64)> {
    config
        .iter()
        .flat_map(|(_, rs)| rs.iter().map(|r| (r.0, r.1)))
        .collect()
}

fn our_config(obj: &Value) -> Vec<Block> {
    obj["amdgpu_config"]
        .as_array()
        .expect("amdgpu_config")
        .iter()
        .map(|b| {
            (
                b["function"].as_str().map(str::to_string),
                b["registers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        (
                            r["register"].as_u64().unwrap(),
                            r["value"].as_u64().unwrap(),
                            r["fields"].clone(),
                        )
                    })
                    .collect(),
            )
        })
        .collect()
}

fn field(fields: &Value, name: &str) -> Option<u64> {
    fields
        .as_array()?
        .iter()
        .find(|f| f["name"] == name)
        .and_then(|f| f["value"].as_u64())
}

/// The blocks of clang-22's `-S` output kept by gen.sh: each `.AMDGPU.config`
/// block's `.long` pairs, the function label after it, and the `STACK_SIZE`
/// comment that follows the label.
type AsmBlock = (String, Vec<(u64, u64)>, Option<u64>);
fn asm_blocks(asm: &str) -> Vec<AsmBlock> {
    let mut out: Vec<AsmBlock> = Vec::new();
    let mut words = Vec::new();
    let mut in_block = false;
    for l in asm.lines() {
        if l.contains(".section\t.AMDGPU.config") {
            in_block = true;
            words.clear();
        } else if let Some(w) = l.strip_prefix("\t.long\t") {
            if in_block {
                words.push(num(w.split_whitespace().next().unwrap()));
            }
        } else if let Some(s) = l.trim().strip_prefix(";SQ_PGM_RESOURCES:STACK_SIZE = ") {
            if let Some(last) = out.last_mut() {
                last.2 = Some(num(s));
            }
        } else if let Some((label, _)) = l.split_once(':') {
            if in_block {
                out.push((
                    label.to_string(),
                    words.chunks(2).map(|p| (p[0], p[1])).collect(),
                    None,
                ));
                in_block = false;
            }
        }
    }
    out
}

const R600_CPUS: [&str; 16] = [
    "r600", "r630", "rs880", "rv670", "rv710", "rv730", "rv770", "cedar", "cypress", "juniper",
    "redwood", "sumo", "barts", "caicos", "cayman", "turks",
];

#[test]
fn r600_objects_read_as_llvm_reads_them() {
    let dir = root().join("tests/cli/data/r600");
    for cpu in R600_CPUS {
        let file = format!("tests/cli/data/r600/{cpu}.o");
        let readelf = text(&dir.join(format!("{cpu}.o.readelf")));
        let obj = json_of(&file);
        // header: processor from e_flags ("Flags: 0x9, cypress")
        let flags = header(&readelf, "Flags");
        let (e_flags, name) = flags.split_once(", ").unwrap();
        assert_eq!(obj["elf"]["e_flags"].as_u64(), Some(num(e_flags)), "{cpu}");
        assert_eq!(obj["processor"], name, "{cpu}");
        assert_eq!(obj["processor"], cpu);
        assert_eq!(obj["elf"]["class"], header(&readelf, "Class"), "{cpu}");
        assert_eq!(obj["target_id"], format!("r600-amd---{cpu}"));
        // sections
        let ours: Vec<(String, u64, u64)> = obj["sections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["name"].as_str().unwrap().to_string(),
                    s["offset"].as_u64().unwrap(),
                    s["size"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(ours, readelf_sections(&readelf), "{cpu} sections");
        // symbols and relocations, in the text report and in the JSON
        let out = hsaco(&["read", "--symbols", "--relocations", &file]);
        assert_eq!(
            our_symbols(&out),
            readelf_symbols(&readelf),
            "{cpu} symbols"
        );
        assert_eq!(
            our_relocations(&out),
            readelf_relocations(&readelf),
            "{cpu} relocations"
        );
        let v: Value = serde_json::from_str(&hsaco(&[
            "read",
            "--json",
            "--symbols",
            "--relocations",
            &file,
        ]))
        .unwrap();
        let o = &v["files"][0]["objects"][0];
        let symbols: Vec<(u64, u64, String)> = o["symbols"][0]["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["value"].as_u64().unwrap(),
                    s["size"].as_u64().unwrap(),
                    s["name"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(symbols, readelf_symbols(&readelf), "{cpu} JSON symbols");
        let relocations: Vec<(u64, String, String)> = o["relocations"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["relocations"].as_array().unwrap().iter())
            .map(|r| {
                (
                    r["offset"].as_u64().unwrap(),
                    r["type"].as_str().unwrap().to_string(),
                    r["symbol"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        assert_eq!(
            relocations,
            readelf_relocations(&readelf),
            "{cpu} JSON relocations"
        );
        // .AMDGPU.config: the words, the blocks and their functions, the fields
        let config = our_config(&obj);
        assert_eq!(
            config_words(&config),
            objdump_pairs(&text(&dir.join(format!("{cpu}.o.config")))),
            "{cpu} config words"
        );
        let asm = asm_blocks(&text(&dir.join(format!("{cpu}.o.asm"))));
        assert_eq!(asm.len(), config.len(), "{cpu} blocks");
        for ((label, pairs, stack), (function, regs)) in asm.iter().zip(&config) {
            assert_eq!(function.as_deref(), Some(label.as_str()), "{cpu}");
            let ours: Vec<(u64, u64)> = regs.iter().map(|r| (r.0, r.1)).collect();
            assert_eq!(&ours, pairs, "{cpu} {label}");
            // the first register is the program's resources: STACK_SIZE as LLVM
            // prints it, NUM_GPRS in bits 7:0
            let (_, value, fields) = &regs[0];
            assert_eq!(field(fields, "STACK_SIZE"), *stack, "{cpu} {label}");
            assert_eq!(field(fields, "NUM_GPRS"), Some(value & 0xff));
        }
    }
}

/// The metadata blocks of `llvm-readelf --notes`: from each `AMDGPU Metadata:` or
/// `AMD PAL Metadata:` line to the next note header or the blank line that ends
/// the section.
fn readelf_metadata_blocks(readelf: &str) -> String {
    let mut out = String::new();
    let mut on = false;
    for l in readelf.lines() {
        if l == "    AMDGPU Metadata:" || l == "    AMD PAL Metadata:" {
            on = true;
        } else if on && (l.is_empty() || (l.starts_with("  ") && l.contains('\t'))) {
            on = false;
        }
        if on {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// The registers and stages of the PAL metadata block of clang-22's assembly:
/// `'0x2e12 (COMPUTE_PGM_RSRC1)': 0xaf0041` and `.sgpr_count:     0x7` under a
/// stage key, or the pairs of `.amd_amdgpu_pal_metadata`.
type Registers = Vec<(u64, Option<String>, u64)>;
type Stages = Vec<(String, Vec<(String, String)>)>;
fn asm_pal(asm: &str) -> (Registers, Stages) {
    let mut regs = Vec::new();
    let mut stages: Stages = Vec::new();
    for l in asm.lines() {
        if let Some(rest) = l.trim().strip_prefix(".amd_amdgpu_pal_metadata") {
            let w: Vec<u64> = rest.split(',').map(|s| num(s.trim())).collect();
            regs.extend(w.chunks(2).map(|p| (p[0], None, p[1])));
        } else if let Some(rest) = l.trim().strip_prefix("'0x") {
            let (off, rest) = rest.split_once(" (").unwrap();
            let (name, value) = rest.split_once(")': ").unwrap();
            regs.push((
                u64::from_str_radix(off, 16).unwrap(),
                Some(name.to_string()),
                num(value.trim()),
            ));
        } else if l.starts_with("      .") && l.ends_with(':') {
            stages.push((l.trim().trim_end_matches(':').to_string(), Vec::new()));
        } else if l.starts_with("        .") {
            let (k, v) = l.trim().split_once(':').unwrap();
            let v = v.trim();
            let v = if v.starts_with("0x") {
                num(v).to_string()
            } else {
                v.to_string()
            };
            stages.last_mut().unwrap().1.push((k.to_string(), v));
        }
    }
    (regs, stages)
}

#[test]
fn pal_and_mesa_objects_read_as_llvm_reads_them() {
    let dir = root().join("tests/cli/data/pal");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            n.ends_with(".o").then_some(n)
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 10, "{names:?}");
    for name in &names {
        let file = format!("tests/cli/data/pal/{name}");
        let readelf = text(&dir.join(format!("{name}.readelf")));
        let obj = json_of(&file);
        // the triple: OS from the OS ABI; arch, OS and processor as in LLVM's ISA
        // name note (whose vendor is `mesa` for Mesa; hsaco writes `amd`)
        let os = match header(&readelf, "OS/ABI") {
            "AMDGPU - PAL" => "amdpal",
            "AMDGPU - MESA3D" => "mesa3d",
            other => panic!("{name}: OS/ABI {other}"),
        };
        let ours = obj["target_id"].as_str().unwrap();
        let ours: Vec<&str> = ours.split(':').next().unwrap().split('-').collect();
        assert_eq!(ours[2], os, "{name}");
        let isa = readelf
            .lines()
            .skip_while(|l| !l.contains("AMD HSA ISA Name:"))
            .nth(1)
            .map(str::trim);
        if let Some(isa) = isa {
            let llvm: Vec<&str> = isa.split('-').collect();
            assert_eq!(
                (ours[0], ours[2], ours[4]),
                (llvm[0], llvm[2], llvm[4]),
                "{name}"
            );
        }
        let (e_flags, processor) = header(&readelf, "Flags").split_once(", ").unwrap();
        assert_eq!(obj["elf"]["e_flags"].as_u64(), Some(num(e_flags)));
        assert_eq!(obj["processor"], processor.split(", ").next().unwrap());
        // read --metadata prints what llvm-readelf --notes prints
        assert_eq!(
            hsaco(&["read", "--metadata", &file]),
            readelf_metadata_blocks(&readelf),
            "{name} --metadata"
        );
        if name.starts_with("pal-") {
            let (regs, stages) = asm_pal(&text(&dir.join(format!("{name}.pal"))));
            let pipe = &obj["pal"]["pipelines"][0];
            let ours: Registers = pipe["registers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    (
                        r["register"].as_u64().unwrap(),
                        r["name"].as_str().map(str::to_string),
                        r["value"].as_u64().unwrap(),
                    )
                })
                .collect();
            assert!(!regs.is_empty(), "{name}");
            for (reg, ours) in regs.iter().zip(&ours) {
                assert_eq!(reg.0, ours.0, "{name}");
                assert_eq!(reg.2, ours.2, "{name}");
                if reg.1.is_some() {
                    assert_eq!(reg.1, ours.1, "{name}: name of {:#x}", reg.0);
                }
            }
            assert_eq!(regs.len(), ours.len(), "{name}");
            let ours: Stages = pipe["hardware_stages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    (
                        s["stage"].as_str().unwrap().to_string(),
                        s["properties"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|p| {
                                (
                                    p[0].as_str().unwrap().to_string(),
                                    p[1].as_str().unwrap().to_string(),
                                )
                            })
                            .collect(),
                    )
                })
                .collect();
            assert_eq!(ours, stages, "{name} stages");
        } else {
            let config = our_config(&obj);
            assert_eq!(
                config_words(&config),
                objdump_pairs(&text(&dir.join(format!("{name}.config")))),
                "{name}"
            );
            // each block is named after a function of .text, in address order
            let symbols = readelf_symbols(&readelf);
            for (function, regs) in &config {
                let f = function.as_deref().expect("function");
                assert!(symbols.iter().any(|s| s.2 == f), "{name}: {f}");
                assert_eq!(regs[0].0, 0xb848, "{name}: COMPUTE_PGM_RSRC1 first");
            }
        }
    }
}
