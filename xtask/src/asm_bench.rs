//! `cargo xtask bench --asm`: `hsaco as` against `llvm-mc-22 -filetype=obj` on a file of
//! 1,000,000 real instructions per processor (issue 14: at least 10x, peak memory at most
//! a quarter of llvm-mc's).
//!
//! The input is made of the instruction lines clang-22 wrote into the corpus's `.s` files
//! for that processor (every configuration and code object version), in corpus order,
//! repeated until there are enough. Lines that name a symbol or a label (branches,
//! `@rel32` and `@abs32` operands) are left out, so the file assembles on its own; lines
//! llvm-mc-22 rejects outside their file (none are expected) are dropped after one check.

use crate::corpus;
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Instructions in each benchmark file.
const INSTRUCTIONS: usize = 1_000_000;

/// Processors benchmarked (the issue names these two).
const PROCESSORS: &[&str] = &["gfx90a", "gfx1100"];

/// Runs of each tool per processor (the best is reported).
const RUNS: usize = 5;

pub fn run(corpus_dir: &Path, hsaco: &Path) -> Result<()> {
    for tool in ["llvm-mc-22", "/usr/bin/time"] {
        if !corpus::have_tool(tool) && !Path::new(tool).exists() {
            bail!("{tool} not found (install llvm-22 and GNU time)");
        }
    }
    let dir = crate::root().join("target/asmbench");
    std::fs::create_dir_all(&dir)?;
    println!(
        "\nas vs llvm-mc-22 -filetype=obj, {INSTRUCTIONS} instructions of the corpus's .s files per processor, best of {RUNS} runs (the acceptance: 10x, a quarter of the memory):"
    );
    let inputs = PROCESSORS
        .iter()
        .map(|p| build_input(corpus_dir, &dir, p))
        .collect::<Result<Vec<_>>>()?;
    for (&proc, input) in PROCESSORS.iter().zip(&inputs) {
        let out = dir.join(format!("{proc}.o"));
        let ours = measure(
            Command::new(hsaco)
                .args(["as", "--mcpu", proc, "-o"])
                .arg(&out)
                .arg(input),
        )
        .context("hsaco as (merged yet?)")?;
        let llvm = measure(
            Command::new("llvm-mc-22")
                .args(["-triple=amdgcn-amd-amdhsa", "-filetype=obj"])
                .arg(format!("-mcpu={proc}"))
                .arg("-o")
                .arg(dir.join(format!("{proc}.llvm.o")))
                .arg(input),
        )?;
        let ratio = |l: Duration, o: Duration| l.as_secs_f64() / o.as_secs_f64().max(1e-9);
        println!(
            "  {proc}: wall hsaco {:.3} s, llvm-mc-22 {:.3} s ({:.1}x); CPU (user+sys) hsaco {:.3} s, llvm-mc-22 {:.3} s ({:.1}x); peak RSS hsaco {:.1} MB, llvm-mc-22 {:.1} MB ({:.2} of llvm-mc's)",
            ours.wall.as_secs_f64(),
            llvm.wall.as_secs_f64(),
            ratio(llvm.wall, ours.wall),
            ours.cpu.as_secs_f64(),
            llvm.cpu.as_secs_f64(),
            ratio(llvm.cpu, ours.cpu),
            ours.rss_kib as f64 / 1024.0,
            llvm.rss_kib as f64 / 1024.0,
            ours.rss_kib as f64 / (llvm.rss_kib as f64).max(1.0),
        );
    }
    Ok(())
}

/// What [`measure`] reports.
struct Measured {
    /// Best wall time.
    wall: Duration,
    /// Best user + system CPU time (GNU time's `%U + %S`): steadier than wall time on
    /// a shared machine.
    cpu: Duration,
    /// Largest peak resident set (GNU time's `%M`, KiB).
    rss_kib: u64,
}

/// [`Measured`] over `RUNS` runs of `cmd`.
fn measure(cmd: &mut Command) -> Result<Measured> {
    let report = std::env::temp_dir().join(format!("hsaco-asmbench-{}", std::process::id()));
    let mut best = Duration::MAX;
    let mut best_cpu = Duration::MAX;
    let mut peak = 0u64;
    for _ in 0..RUNS {
        let start = Instant::now();
        let status = Command::new("/usr/bin/time")
            .args(["-f", "%U %S %M", "-o"])
            .arg(&report)
            .arg(cmd.get_program())
            .args(cmd.get_args())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .with_context(|| format!("{cmd:?}"))?;
        best = best.min(start.elapsed());
        if !status.success() {
            bail!("{cmd:?} failed: {status}");
        }
        let text = std::fs::read_to_string(&report)?;
        // (the last line: a failing command adds one before it)
        let fields: Vec<&str> = text
            .lines()
            .last()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        let [user, sys, kib] = fields[..] else {
            bail!("GNU time's report {text:?}");
        };
        let cpu = user.parse::<f64>().context("%U")? + sys.parse::<f64>().context("%S")?;
        best_cpu = best_cpu.min(Duration::from_secs_f64(cpu));
        peak = peak.max(kib.parse::<u64>().context("GNU time's %M")?);
    }
    let _ = std::fs::remove_file(&report);
    Ok(Measured {
        wall: best,
        cpu: best_cpu,
        rss_kib: peak,
    })
}

/// `dir/<proc>.s` with [`INSTRUCTIONS`] instruction lines (built once).
fn build_input(corpus_dir: &Path, dir: &Path, proc: &str) -> Result<PathBuf> {
    let path = dir.join(format!("{proc}.s"));
    if path.exists() {
        return Ok(path);
    }
    let lines = corpus_lines(corpus_dir, proc)?;
    // one llvm-mc check of the distinct lines: drop what it rejects on its own
    let distinct: Vec<&String> = lines.iter().collect::<BTreeSet<_>>().into_iter().collect();
    let probe = dir.join(format!("{proc}.probe.s"));
    let mut text = String::from("\t.text\n");
    for l in &distinct {
        text.push('\t');
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(&probe, text)?;
    let out = Command::new("llvm-mc-22")
        .args(["-triple=amdgcn-amd-amdhsa", "-filetype=null"])
        .arg(format!("-mcpu={proc}"))
        .arg(&probe)
        .output()?;
    let mut rejected = BTreeSet::new();
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        // `FILE:LINE:COL: error: ...`
        if l.contains(": error:") {
            if let Some(n) = l
                .strip_prefix(probe.to_str().unwrap_or_default())
                .and_then(|r| r.split(':').nth(1))
                .and_then(|n| n.parse::<usize>().ok())
            {
                rejected.insert(n);
            }
        }
    }
    let rejected: BTreeSet<&String> = rejected
        .iter()
        .filter_map(|n| distinct.get(n.wrapping_sub(2)).copied())
        .collect();
    let usable: Vec<&String> = lines.iter().filter(|l| !rejected.contains(l)).collect();
    if usable.is_empty() {
        bail!(
            "no usable {proc} instruction lines under {}",
            corpus_dir.display()
        );
    }
    let mut text = String::with_capacity(INSTRUCTIONS * 32);
    text.push_str(&format!(
        "; {INSTRUCTIONS} instructions from the clang-22 corpus's {proc} .s files ({} lines, {} distinct, {} rejected by llvm-mc-22 alone), repeated\n\t.text\n",
        usable.len(),
        distinct.len(),
        rejected.len()
    ));
    for l in usable.iter().cycle().take(INSTRUCTIONS) {
        text.push('\t');
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(&path, text)?;
    Ok(path)
}

/// The instruction lines of the corpus's `.s` files for `proc` (directories named
/// `proc` or `proc_<features>`), without symbols and labels.
fn corpus_lines(corpus_dir: &Path, proc: &str) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for config in std::fs::read_dir(corpus_dir)? {
        let config = config?.path();
        let Ok(targets) = std::fs::read_dir(&config) else {
            continue;
        };
        for t in targets {
            let t = t?.path();
            let name = t.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if name != proc && !name.starts_with(&format!("{proc}_")) {
                continue;
            }
            files.extend(corpus::assembly_files(&t)?);
        }
    }
    files.sort();
    let mut lines = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f)?;
        let mut in_metadata = false;
        for l in text.lines() {
            let l = l.split(';').next().unwrap_or_default().trim();
            // (the YAML of `.amdgpu_metadata` has lowercase lines too)
            if l.starts_with(".amdgpu_metadata") || l.starts_with(".end_amdgpu_metadata") {
                in_metadata = l.starts_with(".amdgpu_metadata");
                continue;
            }
            if in_metadata {
                continue;
            }
            let first = l.bytes().next().unwrap_or(b'.');
            if !first.is_ascii_lowercase()
                || l.ends_with(':')
                || l.contains('@')
                || l.contains(".L")
            {
                continue;
            }
            lines.push(l.to_string());
        }
    }
    Ok(lines)
}
