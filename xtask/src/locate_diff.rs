//! `cargo xtask locate-diff`: hsaco-dwarf's location evaluator (what `hsaco read
//! --locate` prints) against llvm-dwarfdump-22's location lists on the `-g` corpus;
//! the checks are in crates/hsaco-dwarf/tests/it/llvm_locations.rs (shared with
//! `cargo test`, which runs them on committed objects). It fails on any
//! disagreement.

use anyhow::{bail, Result};
use hsaco_dwarf::DwarfObject;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[path = "../../crates/hsaco-dwarf/tests/it/llvm_locations.rs"]
mod llvm_locations;
use llvm_locations::{check_object, Counts};

/// One object: llvm-dwarfdump-22's text, then the checks.
fn object(path: &Path, c: &mut Counts) -> Result<()> {
    let out = Command::new("llvm-dwarfdump-22")
        .arg("--debug-info")
        .arg(path)
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let bytes = std::fs::read(path)?;
    let obj = DwarfObject::from_elf(&bytes).map_err(|e| anyhow::anyhow!("{e}"))?;
    // every PC when HSACO_LOCATE_EVERY_PC is set (about 10 times longer)
    let every = std::env::var_os("HSACO_LOCATE_EVERY_PC").is_some();
    check_object(&path.display().to_string(), &text, &obj, every, c);
    Ok(())
}

/// Compare over the objects under `dir`; false on any disagreement.
pub fn diff(dir: &Path) -> Result<bool> {
    if !crate::corpus::have_tool("llvm-dwarfdump-22") {
        bail!("llvm-dwarfdump-22 not found: install llvm-22");
    }
    let objects = crate::dwarf_diff::objects(dir)?;
    if objects.is_empty() {
        bail!(
            "no objects under {} (cargo xtask dwarf-corpus DIR)",
            dir.display()
        );
    }
    let total = Mutex::new(Counts::default());
    let failures = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = objects.get(i) else {
                    break;
                };
                let mut c = Counts::default();
                if let Err(e) = object(path, &mut c) {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{}: {e}", path.display()));
                }
                let mut t = total.lock().unwrap();
                t.objects += c.objects;
                t.variables += c.variables;
                t.entries += c.entries;
                t.pcs += c.pcs;
                t.agree += c.agree;
                t.gaps += c.gaps;
                t.gaps_agree += c.gaps_agree;
                t.first.extend(c.first);
            });
        }
    });
    let mut ok = true;
    for f in failures.into_inner().unwrap() {
        println!("could not check: {f}");
        ok = false;
    }
    let mut t = total.into_inner().unwrap();
    println!(
        "locate (hsaco-dwarf's evaluator vs llvm-dwarfdump-22's location lists), {} objects, {} variables with a location, {} expressions or list entries:",
        t.objects, t.variables, t.entries
    );
    println!(
        "  PCs in an entry's range: {}/{} agree (entry, registers, kind)",
        t.agree, t.pcs
    );
    println!(
        "  PCs in scope past an entry, in no entry: {}/{} said not available",
        t.gaps_agree, t.gaps
    );
    t.first.sort();
    for f in t.first.iter().take(20) {
        println!("    {f}");
    }
    if t.agree != t.pcs || t.gaps_agree != t.gaps || t.pcs == 0 {
        println!("locate: disagreements (above)");
        ok = false;
    }
    Ok(ok)
}
