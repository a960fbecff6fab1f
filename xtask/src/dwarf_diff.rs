//! The `-g` corpus and `hsaco read --debug-*` against `llvm-dwarfdump-22`.
//!
//! `cargo xtask dwarf-corpus DIR` builds every kernel source of `shared/corpus/cl`
//! with `-g` for every processor of the clang-22 corpus (the `TARGETS` and
//! `EXTRA_TARGETS` of `build-cl-corpus.sh`), at `-O0` and `-O2`, as `.o` and as a
//! linked `.co`: `DIR/<processor>/O<n>/<kernel>.{o,co}`. A source that does not build
//! is named in a NOTICE line (the `-nogpulib` build cannot link the two kernels that
//! need the device libraries). For the processors of `FSECTIONS_PROCESSORS` it also
//! builds every source with `-ffunction-sections` (each function in its own code
//! section, all at offset 0 of a relocatable object) into `O0-fs` and `O2-fs`
//! (`cargo xtask dwarf-corpus DIR --fsections-only` builds only those).
//!
//! `cargo xtask dwarf-diff [--corpus DIR]` runs `llvm-dwarfdump-22` and `hsaco read`
//! with `--debug-info --debug-loclists --debug-frame --debug-aranges --debug-line` on
//! every object, splits both outputs by section, and prints per section how many
//! objects are identical and different, with the first differing lines of a few.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The processors of the clang-22 corpus (`build-cl-corpus.sh`: `TARGETS` then
/// `EXTRA_TARGETS`).
const PROCESSORS: &[&str] = crate::wild::TARGETS;

/// The processors also built with `-ffunction-sections` (one of each family the
/// corpus has, gfx1250 left out: its `lit64()` text differs already).
const FSECTIONS_PROCESSORS: &[&str] = &[
    "gfx803", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1201",
];

/// The llvm-dwarfdump options compared, in the order both tools print them.
const SECTIONS: &[&str] = &[
    "--debug-info",
    "--debug-loclists",
    "--debug-frame",
    "--debug-aranges",
    "--debug-line",
];

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Builds the `-g` corpus into `dir` (only its `-ffunction-sections` part when
/// `fsections_only`); returns the objects built.
pub fn build(dir: &Path, fsections_only: bool) -> Result<Vec<PathBuf>> {
    for tool in ["clang-22", "ld.lld-22"] {
        if !crate::corpus::have_tool(tool) {
            bail!("{tool} not found: install clang-22 lld-22");
        }
    }
    let src = crate::corpus::shared_dir().join("corpus/cl");
    let sources = crate::corpus::cl_kernels(&src)?;
    let mut jobs = Vec::new();
    // (processor, -O level, with -ffunction-sections, source)
    for (processors, fsections) in [(PROCESSORS, false), (FSECTIONS_PROCESSORS, true)] {
        if fsections_only && !fsections {
            continue;
        }
        for p in processors {
            for opt in ["O0", "O2"] {
                for s in &sources {
                    jobs.push((*p, opt, fsections, s.clone()));
                }
            }
        }
    }
    eprintln!(
        "building the -g corpus into {}: {} sources x ({} processors x -O0/-O2{}, \
         {} with -ffunction-sections x -O0/-O2)",
        dir.display(),
        sources.len(),
        PROCESSORS.len(),
        if fsections_only { " not built" } else { "" },
        FSECTIONS_PROCESSORS.len(),
    );
    let next = AtomicUsize::new(0);
    let built = Mutex::new(Vec::new());
    let notices = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads() {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((proc_, opt, fsections, s)) = jobs.get(i) else {
                    break;
                };
                let name = s.file_stem().unwrap_or_default().to_string_lossy();
                let level = if *fsections {
                    format!("{opt}-fs")
                } else {
                    opt.to_string()
                };
                let out = dir.join(proc_.replace(':', "_")).join(&level);
                let _ = std::fs::create_dir_all(&out);
                let o = out.join(format!("{name}.o"));
                let co = out.join(format!("{name}.co"));
                let compiled = Command::new("clang-22")
                    .args(["-target", "amdgcn-amd-amdhsa"])
                    .arg(format!("-mcpu={proc_}"))
                    .args([
                        "-nogpulib",
                        "-g",
                        &format!("-{opt}"),
                        "-x",
                        "cl",
                        "-cl-std=CL2.0",
                    ])
                    .arg(format!("-I{}", src.display()))
                    .args(fsections.then_some("-ffunction-sections"))
                    .arg("-c")
                    .arg(s)
                    .arg("-o")
                    .arg(&o)
                    .output();
                let step = match compiled {
                    Ok(r) if r.status.success() => {
                        built.lock().unwrap().push(o.clone());
                        match Command::new("ld.lld-22")
                            .args(["-shared", "--no-undefined"])
                            .arg(&o)
                            .arg("-o")
                            .arg(&co)
                            .output()
                        {
                            Ok(r) if r.status.success() => {
                                built.lock().unwrap().push(co);
                                continue;
                            }
                            Ok(r) => ("link", first_line(&r.stderr)),
                            Err(e) => ("link", e.to_string()),
                        }
                    }
                    Ok(r) => ("compile", first_line(&r.stderr)),
                    Err(e) => ("compile", e.to_string()),
                };
                notices.lock().unwrap().push(format!(
                    "NOTICE: SKIPPED {name} for {proc_} {level}: {} failed: {}",
                    step.0, step.1
                ));
            });
        }
    });
    let mut notices = notices.into_inner().unwrap();
    notices.sort();
    for n in &notices {
        println!("{n}");
    }
    let mut built = built.into_inner().unwrap();
    built.sort();
    println!(
        "-g corpus: {} objects built ({} .o, {} .co), {} skipped (named above)",
        built.len(),
        built
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "o"))
            .count(),
        built
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "co"))
            .count(),
        notices.len()
    );
    Ok(built)
}

fn first_line(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    s.lines()
        .find(|l| l.contains("error"))
        .or_else(|| s.lines().next())
        .unwrap_or("")
        .to_string()
}

/// The objects under a built `-g` corpus.
pub fn objects(dir: &Path) -> Result<Vec<PathBuf>> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for e in std::fs::read_dir(d)? {
            let p = e?.path();
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|e| e == "o" || e == "co") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut v = Vec::new();
    walk(dir, &mut v).with_context(|| dir.display().to_string())?;
    v.sort();
    Ok(v)
}

/// The text of each section heading (`.debug_info contents:` ...) to the next.
fn split(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with('.') && line.trim_end().ends_with(" contents:") {
            out.push((line.trim_end().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
        }
    }
    out
}

#[derive(Default)]
struct Count {
    same: usize,
    different: Vec<(PathBuf, String)>,
}

/// Compares `hsaco read` with `llvm-dwarfdump-22` on every object of `dir`; returns
/// whether all are identical.
pub fn diff(hsaco: &Path, dir: &Path) -> Result<bool> {
    if !crate::corpus::have_tool("llvm-dwarfdump-22") {
        bail!("llvm-dwarfdump-22 not found: install llvm-22");
    }
    let objects = objects(dir)?;
    if objects.is_empty() {
        bail!(
            "no objects under {} (cargo xtask dwarf-corpus DIR)",
            dir.display()
        );
    }
    let counts: Mutex<Vec<(String, Count)>> = Mutex::new(Vec::new());
    let failures = run_pairs(
        &objects,
        &|obj| {
            let mut c = Command::new("llvm-dwarfdump-22");
            c.args(SECTIONS).arg(obj);
            c
        },
        &|obj| {
            let mut c = Command::new(hsaco);
            c.arg("read").args(SECTIONS).arg(obj);
            c
        },
        &|obj, llvm, ours| {
            let theirs = split(&llvm);
            let mine = split(&ours);
            let mut counts = counts.lock().unwrap();
            for (heading, body) in &theirs {
                let idx = match counts.iter().position(|(h, _)| h == heading) {
                    Some(i) => i,
                    None => {
                        counts.push((heading.clone(), Count::default()));
                        counts.len() - 1
                    }
                };
                let c = &mut counts[idx].1;
                match mine.iter().find(|(h, _)| h == heading) {
                    Some((_, b)) if b == body => c.same += 1,
                    Some((_, b)) => c.different.push((obj.to_path_buf(), first_diff(body, b))),
                    None => c.different.push((
                        obj.to_path_buf(),
                        "section missing from hsaco's output".into(),
                    )),
                }
            }
        },
    );
    let mut ok = true;
    for f in failures {
        println!("could not run: {f}");
        ok = false;
    }
    let mut counts = counts.into_inner().unwrap();
    counts.sort_by_key(|(h, _)| h.clone());
    println!(
        "dwarf (hsaco read --debug-* vs llvm-dwarfdump-22), {} objects:",
        objects.len()
    );
    for (heading, c) in &mut counts {
        c.different.sort();
        let name = heading.trim_end_matches(" contents:");
        println!(
            "  {name:18} identical {:5}  different {:5}",
            c.same,
            c.different.len()
        );
        for (obj, d) in c.different.iter().take(3) {
            println!("    {}:\n{d}", obj.display());
        }
        ok &= c.different.is_empty();
    }
    Ok(ok)
}

/// A command to run on an object.
pub type ToolRun<'a> = &'a (dyn Fn(&Path) -> Command + Sync);

/// Runs `theirs` and `ours` on every object, on all cores, and hands the object and
/// both standard outputs to `each`; returns the runs that failed to start, as
/// `OBJECT: ERROR`.
pub fn run_pairs(
    objects: &[PathBuf],
    theirs: ToolRun<'_>,
    ours: ToolRun<'_>,
    each: &(dyn Fn(&Path, String, String) + Sync),
) -> Vec<String> {
    let failures = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads() {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(obj) = objects.get(i) else {
                    break;
                };
                let run = |mut cmd: Command| -> std::result::Result<String, String> {
                    let r = cmd.output().map_err(|e| e.to_string())?;
                    Ok(String::from_utf8_lossy(&r.stdout).into_owned())
                };
                match (run(theirs(obj)), run(ours(obj))) {
                    (Ok(a), Ok(b)) => each(obj, a, b),
                    (Err(e), _) | (_, Err(e)) => failures
                        .lock()
                        .unwrap()
                        .push(format!("{}: {e}", obj.display())),
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

/// The first differing lines (up to 5), as `- llvm` / `+ hsaco`.
pub fn first_diff(theirs: &str, ours: &str) -> String {
    let a: Vec<&str> = theirs.lines().collect();
    let b: Vec<&str> = ours.lines().collect();
    let start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut s = format!("      at line {} of the section:\n", start + 1);
    for l in a.iter().skip(start).take(5) {
        s.push_str(&format!("      - {l}\n"));
    }
    for l in b.iter().skip(start).take(5) {
        s.push_str(&format!("      + {l}\n"));
    }
    s
}
