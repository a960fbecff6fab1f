//! `cargo xtask dis-lines-diff`: `hsaco dis -l` against `llvm-objdump-22 -d -l` on the
//! `-g` corpus (`cargo xtask dwarf-corpus`), counted per group (-O0/-O2, .co/.o).
//!
//! Two counts per group: objects whose whole output is identical, and objects whose
//! source annotations are identical (the `;` lines and where they stand, with each
//! instruction line cut to its `// ADDRESS` comment, so that a difference in an
//! instruction's text, the disassembler's business, does not hide the lines). It
//! fails only when a count falls below the committed floors (a regression).

use anyhow::{bail, Result};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Floors (parts per thousand of the objects): whole output identical, annotations
/// identical. Measured 2026-11-27: 1266/1296 and 1296/1296.
const FLOOR_IDENTICAL: usize = 975;
const FLOOR_ANNOTATIONS: usize = 1000;

/// The listing with each instruction line cut to its address comment.
fn annotations(text: &str) -> String {
    let mut s = String::with_capacity(text.len() / 4);
    for l in text.lines() {
        match l
            .strip_prefix('\t')
            .and_then(|r| r.rfind("// ").map(|at| &r[at..]))
        {
            Some(addr) => s.push_str(
                addr.split(' ')
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
                    .as_str(),
            ),
            None => s.push_str(l),
        }
        s.push('\n');
    }
    s
}

#[derive(Default)]
struct Group {
    total: usize,
    identical: usize,
    annotations: usize,
    first: Vec<(String, String)>,
}

/// Compare over the objects under `dir`; false on a regression below the floors.
pub fn diff(hsaco: &Path, dir: &Path) -> Result<bool> {
    if !crate::corpus::have_tool("llvm-objdump-22") {
        bail!("llvm-objdump-22 not found: install llvm-22");
    }
    let objects = crate::dwarf_diff::objects(dir)?;
    if objects.is_empty() {
        bail!(
            "no objects under {} (cargo xtask dwarf-corpus DIR)",
            dir.display()
        );
    }
    let groups: Mutex<Vec<(String, Group)>> = Mutex::new(Vec::new());
    let failures = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(obj) = objects.get(i) else {
                    break;
                };
                let run = |cmd: &mut Command| -> std::result::Result<String, String> {
                    let r = cmd.output().map_err(|e| e.to_string())?;
                    Ok(String::from_utf8_lossy(&r.stdout).into_owned())
                };
                let llvm = run(Command::new("llvm-objdump-22").args(["-d", "-l"]).arg(obj));
                let ours = run(Command::new(hsaco).args(["dis", "-l"]).arg(obj));
                let (llvm, ours) = match (llvm, ours) {
                    (Ok(a), Ok(b)) => (a, b),
                    (Err(e), _) | (_, Err(e)) => {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: {e}", obj.display()));
                        continue;
                    }
                };
                // the group: the -O level (the parent directory) and the extension
                let level = obj
                    .parent()
                    .and_then(|p| p.file_name())
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned());
                let ext = obj
                    .extension()
                    .map_or(String::new(), |e| e.to_string_lossy().into_owned());
                let key = format!("{level} .{ext}");
                let same_lines = annotations(&llvm) == annotations(&ours);
                let mut groups = groups.lock().unwrap();
                let idx = match groups.iter().position(|(k, _)| *k == key) {
                    Some(i) => i,
                    None => {
                        groups.push((key, Group::default()));
                        groups.len() - 1
                    }
                };
                let g = &mut groups[idx].1;
                g.total += 1;
                g.identical += usize::from(llvm == ours);
                g.annotations += usize::from(same_lines);
                if llvm != ours {
                    let d = if same_lines {
                        crate::dwarf_diff::first_diff(&llvm, &ours)
                    } else {
                        crate::dwarf_diff::first_diff(&annotations(&llvm), &annotations(&ours))
                    };
                    g.first.push((obj.display().to_string(), d));
                }
            });
        }
    });
    let mut ok = true;
    for f in failures.into_inner().unwrap() {
        println!("could not run: {f}");
        ok = false;
    }
    let mut groups = groups.into_inner().unwrap();
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    println!(
        "dis -l (hsaco dis -l vs llvm-objdump-22 -d -l), {} objects:",
        objects.len()
    );
    let (mut total, mut identical, mut annots) = (0, 0, 0);
    for (key, g) in &mut groups {
        println!(
            "  {key:8} identical {:4}/{:<4}  source lines identical {:4}/{}",
            g.identical, g.total, g.annotations, g.total
        );
        total += g.total;
        identical += g.identical;
        annots += g.annotations;
    }
    println!(
        "  all      identical {identical:4}/{total:<4}  source lines identical {annots:4}/{total}"
    );
    for (_, g) in &mut groups {
        g.first.sort();
        for (obj, d) in g.first.iter().take(2) {
            println!("    {obj}:\n{d}");
        }
    }
    if identical * 1000 < FLOOR_IDENTICAL * total || annots * 1000 < FLOOR_ANNOTATIONS * total {
        println!(
            "dis -l: below the floors ({FLOOR_IDENTICAL}/1000 identical, \
             {FLOOR_ANNOTATIONS}/1000 source lines identical): a regression"
        );
        ok = false;
    }
    Ok(ok)
}
