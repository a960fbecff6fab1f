//! `cargo xtask ld-diff` (also a step of `llvm-diff`): `hsaco ld` against
//! `ld.lld-22 -shared --no-undefined` on every relocatable object of the corpus, one
//! link per `.o` and one of all the `.o` of a directory that link (as the corpus's
//! `all.co`).
//!
//! For each link: both refuse (and hsaco says why: the same undefined symbol), or
//! both link and the outputs are byte-identical; when they are not, the loadable
//! contents are compared (every `PT_LOAD`'s bytes, addresses and sizes; the dynamic
//! symbols; the `.symtab` values; the notes) and the first differences printed.
//! hsaco's outputs must also pass `llvm-readelf-22 -a` and `llvm-objdump-22 -d`
//! with no warning. `hsaco ld` is given ld.lld's own `.comment` line
//! (`--linker-comment "Linker: <ld.lld-22 --version>"`), the one part of the file
//! that names the linker.
//!
//! Prints counts per target directory (processor and features) and fails on any
//! difference.

use anyhow::{bail, Context, Result};
use hsaco_elf::elf::consts::*;
use hsaco_elf::elf::Elf;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const SHOW: usize = 10;

#[derive(Default)]
struct Counts {
    links: usize,
    identical: usize,
    same_loadable: usize,
    both_refuse: usize,
    different: usize,
    warnings: usize,
}

/// Runs the comparison over every directory under `corpus` holding `.o` files;
/// `limit` stops after that many links. Returns whether everything agreed.
pub fn run(hsaco: &Path, corpus: &Path, limit: Option<usize>) -> Result<bool> {
    for tool in ["ld.lld-22", "llvm-readelf-22", "llvm-objdump-22"] {
        if !crate::corpus::have_tool(tool) {
            bail!("{tool} not found: install lld-22 llvm-22");
        }
    }
    let version = Command::new("ld.lld-22").arg("--version").output()?;
    let version = String::from_utf8_lossy(&version.stdout);
    let version = version
        .lines()
        .next()
        .unwrap_or_default()
        .trim_end_matches(" (compatible with GNU linkers)")
        .to_string();
    let comment = format!("Linker: {version}");
    let tmp = crate::root().join("target/ld-diff");
    std::fs::create_dir_all(&tmp)?;
    let mut dirs = Vec::new();
    collect_dirs(corpus, &mut dirs).with_context(|| format!("reading {}", corpus.display()))?;
    dirs.sort();
    let mut per_target: BTreeMap<String, Counts> = BTreeMap::new();
    let mut problems: Vec<String> = Vec::new();
    let mut done = 0usize;
    'dirs: for dir in &dirs {
        let target = dir
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut objects: Vec<PathBuf> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "o"))
            .collect();
        objects.sort();
        let mut linked = Vec::new();
        let mut jobs: Vec<Vec<PathBuf>> = objects.iter().map(|o| vec![o.clone()]).collect();
        jobs.push(Vec::new()); // all that link, filled in below
        for job in jobs.iter_mut() {
            if job.is_empty() {
                if linked.len() < 2 {
                    continue;
                }
                *job = std::mem::take(&mut linked);
            }
            if limit.is_some_and(|n| done >= n) {
                break 'dirs;
            }
            done += 1;
            let counts = per_target.entry(target.clone()).or_default();
            counts.links += 1;
            let label = if job.len() == 1 {
                job[0].display().to_string()
            } else {
                format!("{} ({} objects linked together)", dir.display(), job.len())
            };
            let ours = tmp.join("hsaco.co");
            let theirs = tmp.join("lld.co");
            let _ = std::fs::remove_file(&ours);
            let _ = std::fs::remove_file(&theirs);
            let lld = Command::new("ld.lld-22")
                .args(["-shared", "--no-undefined"])
                .args(job.iter())
                .arg("-o")
                .arg(&theirs)
                .output()?;
            let us = Command::new(hsaco)
                .arg("ld")
                .args(job.iter())
                .arg("-o")
                .arg(&ours)
                .args(["--linker-comment", &comment])
                .output()?;
            match (lld.status.success(), us.status.success()) {
                (false, false) => {
                    // the same undefined symbol, mangled or demangled
                    let lld_err = String::from_utf8_lossy(&lld.stderr).into_owned();
                    let our_err = String::from_utf8_lossy(&us.stderr).into_owned();
                    let agree = lld_err.contains("undefined") && our_err.contains("undefined")
                        || lld_err.contains("duplicate") && our_err.contains("duplicate");
                    if agree && !ours.exists() {
                        counts.both_refuse += 1;
                    } else {
                        counts.different += 1;
                        problems.push(format!(
                            "{label}: both refuse, differently (or an output was left): ld.lld {:?}, hsaco {:?}",
                            lld_err.lines().next().unwrap_or_default(),
                            our_err.lines().last().unwrap_or_default()
                        ));
                    }
                    continue;
                }
                (true, false) => {
                    counts.different += 1;
                    problems.push(format!(
                        "{label}: hsaco refuses: {}",
                        String::from_utf8_lossy(&us.stderr).trim()
                    ));
                    continue;
                }
                (false, true) => {
                    counts.different += 1;
                    problems.push(format!(
                        "{label}: ld.lld refuses ({}), hsaco links",
                        String::from_utf8_lossy(&lld.stderr).trim()
                    ));
                    continue;
                }
                (true, true) => {}
            }
            if job.len() == 1 {
                linked.push(job[0].clone());
            }
            let a = std::fs::read(&ours)?;
            let b = std::fs::read(&theirs)?;
            if a == b {
                counts.identical += 1;
            } else {
                let diffs = loadable_differences(&a, &b);
                if diffs.is_empty() {
                    counts.same_loadable += 1;
                    problems.push(format!(
                        "{label}: not byte-identical (first at {:#x}) but the same loadable contents",
                        a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()))
                    ));
                } else {
                    counts.different += 1;
                    problems.push(format!("{label}: {}", diffs.join("; ")));
                }
            }
            for (tool, args) in [
                ("llvm-readelf-22", &["-a"][..]),
                ("llvm-objdump-22", &["-d"][..]),
            ] {
                let out = Command::new(tool).args(args).arg(&ours).output()?;
                let stderr = String::from_utf8_lossy(&out.stderr);
                let stdout = String::from_utf8_lossy(&out.stdout);
                if !out.status.success() || !stderr.trim().is_empty() || stdout.contains("warning:")
                {
                    counts.warnings += 1;
                    problems.push(format!(
                        "{label}: {tool} {}: {}",
                        args.join(" "),
                        stderr.lines().next().unwrap_or("a warning in its output")
                    ));
                }
            }
        }
    }
    println!(
        "ld (hsaco ld vs ld.lld-22 -shared --no-undefined; readelf/objdump warnings on hsaco's output):"
    );
    println!(
        "  {:<26} {:>6} {:>10} {:>9} {:>8} {:>10} {:>9}",
        "target", "links", "identical", "loadable", "refused", "different", "warnings"
    );
    let mut total = Counts::default();
    for (target, c) in &per_target {
        println!(
            "  {:<26} {:>6} {:>10} {:>9} {:>8} {:>10} {:>9}",
            target, c.links, c.identical, c.same_loadable, c.both_refuse, c.different, c.warnings
        );
        total.links += c.links;
        total.identical += c.identical;
        total.same_loadable += c.same_loadable;
        total.both_refuse += c.both_refuse;
        total.different += c.different;
        total.warnings += c.warnings;
    }
    println!(
        "  {:<26} {:>6} {:>10} {:>9} {:>8} {:>10} {:>9}",
        "total",
        total.links,
        total.identical,
        total.same_loadable,
        total.both_refuse,
        total.different,
        total.warnings
    );
    println!("  (identical: byte for byte; loadable: same segments, dynamic symbols, symbol values and notes; refused: both refuse, for the same reason)");
    for p in problems.iter().take(SHOW) {
        println!("  {p}");
    }
    if problems.len() > SHOW {
        println!("  ... and {} more", problems.len() - SHOW);
    }
    Ok(total.different == 0 && total.warnings == 0)
}

fn collect_dirs(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut has_objects = false;
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_dirs(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "o") {
            has_objects = true;
        }
    }
    if has_objects {
        out.push(dir.to_path_buf());
    }
    Ok(())
}

/// What a loader sees differently in `ours` and `theirs` (empty when nothing).
fn loadable_differences(ours: &[u8], theirs: &[u8]) -> Vec<String> {
    let (a, b) = match (Elf::parse(ours), Elf::parse(theirs)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => return vec![format!("hsaco's output does not read: {e}")],
        (_, Err(e)) => return vec![format!("ld.lld's output does not read: {e}")],
    };
    let mut out = Vec::new();
    let header = |e: &Elf<'_>| {
        let h = e.header();
        (h.e_type.0, h.e_flags, h.os_abi.0, h.abi_version)
    };
    if header(&a) != header(&b) {
        out.push(format!("header {:?} vs {:?}", header(&a), header(&b)));
    }
    let loads = |e: &Elf<'_>| -> Vec<(u32, u64, u64, u64, Vec<u8>)> {
        e.segments()
            .filter(|s| s.p_type.0 == PT_LOAD)
            .map(|s| {
                (
                    s.flags,
                    s.vaddr,
                    s.memsz,
                    s.filesz,
                    s.data().unwrap_or_default().to_vec(),
                )
            })
            .collect()
    };
    let (la, lb) = (loads(&a), loads(&b));
    if la.len() != lb.len() {
        out.push(format!("{} PT_LOAD vs {}", la.len(), lb.len()));
    }
    for (i, (x, y)) in la.iter().zip(&lb).enumerate() {
        if (x.0, x.1, x.2, x.3) != (y.0, y.1, y.2, y.3) {
            out.push(format!(
                "PT_LOAD {i}: flags/vaddr/memsz/filesz {:?} vs {:?}",
                (x.0, x.1, x.2, x.3),
                (y.0, y.1, y.2, y.3)
            ));
        } else if x.4 != y.4 {
            let at = x.4.iter().zip(&y.4).position(|(p, q)| p != q).unwrap_or(0);
            out.push(format!(
                "PT_LOAD {i}: bytes differ first at address {:#x}",
                x.1 + at as u64
            ));
        }
    }
    let symbols = |e: &Elf<'_>, dynamic: bool| -> Vec<(String, u64, u64, u8, u8, u16)> {
        let table = if dynamic { e.dynsym() } else { e.symtab() };
        let mut v: Vec<_> = table
            .ok()
            .flatten()
            .map(|t| {
                t.iter()
                    .flatten()
                    .map(|s| {
                        (
                            s.name_str().into_owned(),
                            s.value,
                            s.size,
                            s.info,
                            s.other,
                            s.shndx,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        if !dynamic {
            v.sort();
        }
        v
    };
    for (dynamic, what) in [(true, ".dynsym"), (false, ".symtab")] {
        let (sa, sb) = (symbols(&a, dynamic), symbols(&b, dynamic));
        if sa != sb {
            let first = sa
                .iter()
                .zip(&sb)
                .find(|(x, y)| x != y)
                .map(|(x, y)| format!("{x:?} vs {y:?}"))
                .unwrap_or_else(|| format!("{} entries vs {}", sa.len(), sb.len()));
            out.push(format!("{what} differs: {first}"));
        }
    }
    let notes =
        |e: &Elf<'_>| -> Vec<Vec<u8>> { e.notes().flatten().map(|n| n.desc.to_vec()).collect() };
    if notes(&a) != notes(&b) {
        out.push("notes differ".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::loadable_differences;

    fn fixture() -> Vec<u8> {
        std::fs::read(crate::root().join("crates/hsaco-link/tests/data/kernel.co")).unwrap()
    }

    fn section_offset(data: &[u8], name: &str) -> usize {
        let elf = hsaco_elf::elf::Elf::parse(data).unwrap();
        elf.section_by_name(name).unwrap().offset as usize
    }

    #[test]
    fn same_file_no_difference() {
        let a = fixture();
        assert!(loadable_differences(&a, &a).is_empty());
    }

    #[test]
    fn code_byte_is_a_difference_comment_byte_is_not() {
        let a = fixture();
        let mut code = a.clone();
        code[section_offset(&a, ".text")] ^= 1;
        let diffs = loadable_differences(&code, &a);
        assert!(
            diffs
                .iter()
                .any(|d| d.starts_with("PT_LOAD 1: bytes differ")),
            "{diffs:?}"
        );
        let mut comment = a.clone();
        comment[section_offset(&a, ".comment") + 1] ^= 1;
        assert!(loadable_differences(&comment, &a).is_empty());
    }
}
