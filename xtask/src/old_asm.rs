//! `cargo xtask old-asm-diff` (and a step of `llvm-diff`): code object versions 2 and
//! 3 written by `hsaco as`, against the last LLVMs that write them.
//!
//! LLVM 22 no longer writes code object v2 or v3, but Debian's `clang-13` to `-16`
//! and their `llvm-mc` still do. For each of those compilers the machine has, the
//! corpus kernels (`../shared/corpus/cl`, `-nogpulib`) are compiled with `-S` for
//! code object versions 2 and 3 and the processors below, into
//! `DIR/clang-N/nogpulib/<target>/cov<V>/<kernel>.s`; each `.s` is then assembled
//! by `hsaco as` and by that compiler's `llvm-mc -filetype=obj`, both told the code
//! object version, and the objects are compared as `asm-diff` compares them
//! (sections in order with their contents, symbols, relocations). A processor or
//! version a compiler refuses is counted and named, never skipped silently.
//!
//! ```text
//! cargo xtask old-asm-diff [--out DIR] [--compilers 14,16] [--jobs N] [--limit N]
//! ```
//!
//! `DIR` defaults to `target/corpus-oldasm`; sources already compiled are kept.

use crate::{asm_diff, corpus};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Processors the older compilers know, over the generations v2/v3 objects exist for.
const TARGETS: &[&str] = &[
    "gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx1010", "gfx1030", "gfx1100",
];

/// The code object versions LLVM 22 does not write.
const COVS: &[u32] = &[2, 3];

struct Opts {
    dir: PathBuf,
    compilers: Vec<u32>,
    jobs: usize,
    limit: Option<usize>,
}

fn parse(args: &[String]) -> Result<Opts> {
    let mut o = Opts {
        dir: crate::root().join("target/corpus-oldasm"),
        compilers: vec![14, 16],
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        limit: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => o.dir = PathBuf::from(it.next().context("--out DIR")?),
            "--compilers" => {
                o.compilers = it
                    .next()
                    .context("--compilers 13,14,...")?
                    .split(',')
                    .map(|c| c.trim().parse().context("a compiler version number"))
                    .collect::<Result<_>>()?
            }
            "--jobs" => o.jobs = it.next().context("--jobs N")?.parse()?,
            "--limit" => o.limit = Some(it.next().context("--limit N")?.parse()?),
            other => {
                bail!("unknown option {other:?} (see the doc comment of xtask/src/old_asm.rs)")
            }
        }
    }
    Ok(o)
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Compile every kernel for every (target, version) with `clang-{c} -S`; returns how
/// many were refused, with the first reason.
fn build(c: u32, out: &Path, jobs: usize) -> Result<(usize, Option<String>)> {
    let src = corpus::shared_dir().join("corpus/cl");
    let kernels = corpus::cl_kernels(&src)?;
    let mut work = Vec::new();
    for t in TARGETS {
        for v in COVS {
            for k in &kernels {
                work.push((*t, *v, k.clone()));
            }
        }
    }
    let queue = Mutex::new(work.into_iter());
    let refused = Mutex::new((0usize, None::<String>));
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let Some((target, cov, k)) = queue.lock().unwrap_or_else(|e| e.into_inner()).next()
                else {
                    break;
                };
                let name = k
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                let dir = out.join("nogpulib").join(target).join(format!("cov{cov}"));
                let s_file = dir.join(format!("{name}.s"));
                if s_file.exists() {
                    continue;
                }
                let _ = std::fs::create_dir_all(&dir);
                let r = Command::new(format!("clang-{c}"))
                    .args(["-target", "amdgcn-amd-amdhsa"])
                    .arg(format!("-mcpu={target}"))
                    .arg(format!("-mcode-object-version={cov}"))
                    .args(["-O2", "-nogpulib", "-x", "cl", "-cl-std=CL2.0"])
                    .arg(format!("-DCORPUS_COV={cov}"))
                    .arg(format!("-I{}", src.display()))
                    .arg("-S")
                    .arg(&k)
                    .arg("-o")
                    .arg(&s_file)
                    .output();
                let why = match r {
                    Ok(r) if r.status.success() => continue,
                    Ok(r) => String::from_utf8_lossy(&r.stderr)
                        .lines()
                        .find(|l| l.contains("error"))
                        .unwrap_or("failed")
                        .to_string(),
                    Err(e) => e.to_string(),
                };
                let _ = std::fs::remove_file(&s_file);
                let mut r = refused.lock().unwrap_or_else(|e| e.into_inner());
                r.0 += 1;
                r.1.get_or_insert(format!("{target} v{cov} {name}: {why}"));
            });
        }
    });
    Ok(refused.into_inner().unwrap_or_else(|e| e.into_inner()))
}

/// Compare every compiler the machine has; false if any object differs.
pub fn compare(args: &[String]) -> Result<bool> {
    let o = parse(args)?;
    let mut ok = true;
    for &c in &o.compilers {
        let (clang, mc) = (format!("clang-{c}"), format!("llvm-mc-{c}"));
        if !have(&clang) || !have(&mc) {
            println!(
                "NOTICE: SKIPPED code object v2/v3 against {mc}: {clang} or {mc} is not \
                 installed (apt-get install -y clang-{c} llvm-{c})"
            );
            continue;
        }
        let dir = o.dir.join(&clang);
        let (refused, first) = build(c, &dir, o.jobs)?;
        if refused > 0 {
            println!(
                "{clang} refused {refused} compilations (not compared); first: {}",
                first.unwrap_or_default()
            );
        }
        let t = asm_diff::compare_with(&dir, o.limit, true, &mc, true)?;
        ok &= t.report(&format!(
            "code object v2/v3 (hsaco as vs {mc} -filetype=obj on {clang} -S output)"
        ));
    }
    Ok(ok)
}

pub fn run(args: &[String]) -> Result<()> {
    if !compare(args)? {
        bail!("hsaco as differs from an older llvm-mc on code object v2/v3");
    }
    Ok(())
}
