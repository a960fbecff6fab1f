//! `cargo xtask bench`: hsaco against the LLVM tool doing the same work, same run.

use crate::{corpus, Options};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn run(opts: &Options) -> Result<()> {
    if opts.emu_only {
        // needs no LLVM: the fixtures are committed
        let hsaco = crate::hsaco_binary()?;
        return crate::emu_bench::run(&hsaco);
    }
    if !corpus::have_tool("llvm-readelf-22") {
        bail!("llvm-readelf-22 not found: install llvm-22");
    }
    if opts.asm_only {
        let hsaco = crate::hsaco_binary()?;
        return crate::asm_bench::run(&opts.corpus_dir()?, &hsaco);
    }
    if opts.dwarf_only {
        let hsaco = crate::hsaco_binary()?;
        return dwarf(&hsaco, &crate::dwarf_corpus_dir(opts)?);
    }
    if opts.libshape_only {
        let hsaco = crate::hsaco_binary()?;
        return library_shaped(&hsaco);
    }
    let dir = opts.corpus_dir()?;
    let hsaco = crate::hsaco_binary()?;
    let mut objects = corpus::objects(&dir)?;
    if let Some(n) = opts.limit {
        objects.truncate(n);
    }
    let bytes: u64 = objects
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    println!(
        "read --metadata over {} objects ({:.1} MB) vs llvm-readelf-22 --notes, same files, one process each; \
         one warm-up run each, then {ROUNDS} rounds alternating the two",
        objects.len(),
        bytes as f64 / 1e6
    );
    let mut ours = Vec::new();
    let mut llvm = Vec::new();
    for round in 0..=ROUNDS {
        let o = time(Command::new(&hsaco).args(["read", "--metadata"]), &objects)?;
        let l = time(Command::new("llvm-readelf-22").arg("--notes"), &objects)?;
        // round 0 warms the page cache (files read long ago may have been paged out)
        if round > 0 {
            ours.push(o);
            llvm.push(l);
        }
    }
    let (ours_best, ours_median) = best_and_median(&mut ours);
    let (llvm_best, llvm_median) = best_and_median(&mut llvm);
    println!(
        "best:   hsaco {:.4} s   llvm-readelf-22 {:.4} s   ratio {:.1}x",
        ours_best.as_secs_f64(),
        llvm_best.as_secs_f64(),
        llvm_best.as_secs_f64() / ours_best.as_secs_f64().max(1e-9)
    );
    println!(
        "median: hsaco {:.4} s   llvm-readelf-22 {:.4} s   ratio {:.1}x",
        ours_median.as_secs_f64(),
        llvm_median.as_secs_f64(),
        llvm_median.as_secs_f64() / ours_median.as_secs_f64().max(1e-9)
    );
    // CPU time (user + system, best of 5) too: steadier than wall time on a loaded
    // machine, and it shows what the threads cost
    if Path::new("/usr/bin/time").exists() {
        let ours = best_of(5, || {
            cpu_time(Command::new(&hsaco).args(["read", "--metadata"]), &objects)
        })?;
        let llvm = best_of(5, || {
            cpu_time(Command::new("llvm-readelf-22").arg("--notes"), &objects)
        })?;
        println!(
            "CPU time (user+sys): hsaco {:.3} s   llvm-readelf-22 {:.3} s   ratio {:.1}x",
            ours.as_secs_f64(),
            llvm.as_secs_f64(),
            llvm.as_secs_f64() / ours.as_secs_f64().max(1e-9)
        );
    }
    println!("\ndis vs llvm-objdump-22 -d on one large gfx90a code object (crates/hsaco-isa/scripts/dis_bench.py):");
    let script = crate::root().join("crates/hsaco-isa/scripts/dis_bench.py");
    let status = Command::new("python3")
        .arg(&script)
        .arg("--hsaco")
        .arg(&hsaco)
        .env("HSACO_CORPUS", &dir)
        .status()
        .with_context(|| format!("{}", script.display()))?;
    if !status.success() {
        bail!("{} failed: {status}", script.display());
    }
    // `as` against llvm-mc-22 on the 1M-instruction files (also `bench --asm` alone)
    crate::asm_bench::run(&dir, &hsaco)?;
    println!();
    library_shaped(&hsaco)?;
    // the -g corpus when it is at hand (building it takes a while: `--dwarf` does)
    let g = crate::root().join("target/dwarf-corpus");
    if crate::dwarf_diff::objects(&g).is_ok_and(|v| !v.is_empty()) {
        println!();
        dwarf(&hsaco, &g)
    } else {
        println!(
            "\n(read --debug-info vs llvm-dwarfdump-22: no -g corpus in {}; \
             `cargo xtask bench --dwarf` builds it, or `--dwarf --corpus DIR` names one)",
            g.display()
        );
        Ok(())
    }
}

/// `read --debug-info` against `llvm-dwarfdump-22 --debug-info` on the `-g` corpus in
/// `dir` (`cargo xtask dwarf-corpus`): every object in one process each, and the
/// largest object alone; outputs compared first; a summary of the ratios at the end.
fn dwarf(hsaco: &Path, dir: &Path) -> Result<()> {
    if !corpus::have_tool("llvm-dwarfdump-22") {
        bail!("llvm-dwarfdump-22 not found: install llvm-22");
    }
    let objects = crate::dwarf_diff::objects(dir)?;
    if objects.is_empty() {
        bail!("no objects in {}", dir.display());
    }
    let largest = objects
        .iter()
        .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .cloned()
        .context("no objects")?;
    println!(
        "read --debug-info vs llvm-dwarfdump-22 --debug-info on the -g corpus ({}): best and \
         median of {LIB_ROUNDS} interleaved rounds (after a warm-up), output to /dev/null; \
         wall times are noisy on a shared machine, CPU time (all threads) is steadier",
        dir.display()
    );
    let mut summary = Vec::new();
    for (what, files) in [
        (
            format!(
                "read --debug-info over {} objects ({:.1} MB)",
                objects.len(),
                objects.iter().map(|p| file_mb(p)).sum::<f64>()
            ),
            &objects[..],
        ),
        (
            format!(
                "read --debug-info of the largest object, {} ({:.2} MB)",
                largest.strip_prefix(dir).unwrap_or(&largest).display(),
                file_mb(&largest)
            ),
            std::slice::from_ref(&largest),
        ),
    ] {
        let ours = run_output(
            Command::new(hsaco)
                .args(["read", "--debug-info"])
                .args(files),
        )?;
        let llvm = run_output(
            Command::new("llvm-dwarfdump-22")
                .arg("--debug-info")
                .args(files),
        )?;
        let what = format!(
            "{what}, {:.1} MB of text{}",
            llvm.len() as f64 / 1e6,
            if ours == llvm {
                ", identical"
            } else {
                ", OUTPUT DIFFERS"
            }
        );
        let r = duel(
            &what,
            Command::new(hsaco).args(["read", "--debug-info"]),
            Command::new("llvm-dwarfdump-22").arg("--debug-info"),
            files,
            "llvm-dwarfdump-22",
        )?;
        summary.push((what, r));
    }
    println!(
        "\nSUMMARY, -g corpus: llvm-dwarfdump-22's time / hsaco's (best wall, median wall, \
         CPU; target 10x)"
    );
    for (what, r) in &summary {
        println!(
            "  {:>5.1}x {:>5.1}x {:>5.1}x  {what}",
            r.best, r.median, r.cpu
        );
    }
    Ok(())
}

/// Rounds of each library-shaped comparison (each tool once per round).
const LIB_ROUNDS: usize = 11;

/// The library-shaped objects (`crate::libshape`, built into `target/libshape` when
/// missing): `dis` of the large ones against `llvm-objdump-22 -d`, `read --metadata`
/// over the 40 smaller ones against `llvm-readelf-22 --notes`; a summary of the ratios
/// at the end.
fn library_shaped(hsaco: &Path) -> Result<()> {
    let dir = crate::root().join("target/libshape");
    let big = crate::libshape::build(&dir, &crate::libshape::big())?;
    let many = crate::libshape::build(&dir, &crate::libshape::many())?;
    println!(
        "library-shaped objects (xtask/src/libshape.rs, in {}): hundreds of kernels with long \
         mangled names and argument lists, constant tables, relocations; best and median of \
         {LIB_ROUNDS} interleaved rounds (after a warm-up), output to /dev/null; CPU time \
         the best of 3 means of {CPU_RUNS} runs",
        dir.display()
    );
    let mut summary = Vec::new();
    for obj in &big {
        let ours = run_output(Command::new(hsaco).arg("dis").arg(obj))?;
        let llvm = run_output(Command::new("llvm-objdump-22").arg("-d").arg(obj))?;
        let name = obj
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let what = format!(
            "dis {name} ({:.1} MB, {} lines{})",
            file_mb(obj),
            llvm.iter().filter(|&&b| b == b'\n').count(),
            if ours == llvm {
                ", identical"
            } else {
                ", OUTPUT DIFFERS"
            }
        );
        let r = duel(
            &what,
            Command::new(hsaco).arg("dis"),
            Command::new("llvm-objdump-22").arg("-d"),
            std::slice::from_ref(obj),
            "llvm-objdump-22 -d",
        )?;
        summary.push((what, r));
    }
    let what = format!(
        "read --metadata over {} objects ({:.1} MB)",
        many.len(),
        many.iter().map(|p| file_mb(p)).sum::<f64>()
    );
    let r = duel(
        &what,
        Command::new(hsaco).args(["read", "--metadata"]),
        Command::new("llvm-readelf-22").arg("--notes"),
        &many,
        "llvm-readelf-22 --notes",
    )?;
    summary.push((what, r));
    println!(
        "\nSUMMARY, library-shaped objects: LLVM's time / hsaco's (best wall, median wall, CPU)"
    );
    for (what, r) in &summary {
        println!(
            "  {:>5.1}x {:>5.1}x {:>5.1}x  {what}",
            r.best, r.median, r.cpu
        );
    }
    Ok(())
}

/// LLVM's time over hsaco's.
struct Ratios {
    best: f64,
    median: f64,
    cpu: f64,
}

/// Times hsaco (`ours`) and the LLVM tool (`llvm`) on `files`, interleaved; prints
/// and returns the ratios.
fn duel(
    what: &str,
    ours: &Command,
    llvm: &Command,
    files: &[PathBuf],
    tool: &str,
) -> Result<Ratios> {
    println!("\n{what}:");
    let (mut o, mut l) = (Vec::new(), Vec::new());
    for round in 0..=LIB_ROUNDS {
        let a = time(&mut fresh(ours), files)?;
        let b = time(&mut fresh(llvm), files)?;
        if round > 0 {
            o.push(a);
            l.push(b);
        }
    }
    let (ob, om) = best_and_median(&mut o);
    let (lb, lm) = best_and_median(&mut l);
    let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-9);
    println!(
        "  best:   hsaco {:.4} s   {tool} {:.4} s   ratio {:.1}x",
        ob.as_secs_f64(),
        lb.as_secs_f64(),
        ratio(ob, lb)
    );
    println!(
        "  median: hsaco {:.4} s   {tool} {:.4} s   ratio {:.1}x",
        om.as_secs_f64(),
        lm.as_secs_f64(),
        ratio(om, lm)
    );
    let mut cpu = f64::NAN;
    if corpus::have_tool("perf") {
        // (the scheduler's count of the time on a CPU, exact to the microsecond)
        let oc = best_of(3, || task_clock(&fresh(ours), files))?;
        let lc = best_of(3, || task_clock(&fresh(llvm), files))?;
        cpu = ratio(oc, lc);
        println!(
            "  CPU time (perf stat task-clock, best of 3 means of {CPU_RUNS} runs): hsaco {:.4} s   {tool} {:.4} s   ratio {:.1}x",
            oc.as_secs_f64(),
            lc.as_secs_f64(),
            cpu
        );
    } else if Path::new("/usr/bin/time").exists() {
        let oc = best_of(3, || cpu_time(&mut fresh(ours), files))?;
        let lc = best_of(3, || cpu_time(&mut fresh(llvm), files))?;
        cpu = ratio(oc, lc);
        println!(
            "  CPU time (user+sys): hsaco {:.4} s   {tool} {:.4} s   ratio {:.1}x",
            oc.as_secs_f64(),
            lc.as_secs_f64(),
            cpu
        );
    }
    Ok(Ratios {
        best: ratio(ob, lb),
        median: ratio(om, lm),
        cpu,
    })
}

/// The mean CPU time (`perf stat -e task-clock -r CPU_RUNS`) of `cmd` on `files`.
fn task_clock(cmd: &Command, files: &[PathBuf]) -> Result<Duration> {
    let report = std::env::temp_dir().join(format!("hsaco-bench-perf-{}", std::process::id()));
    let status = Command::new("perf")
        .args(["stat", "-x,", "-e", "task-clock", "-r"])
        .arg(CPU_RUNS.to_string())
        .arg("-o")
        .arg(&report)
        .arg("--")
        .arg(cmd.get_program())
        .args(cmd.get_args())
        .args(files)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .context("perf stat")?;
    if !status.success() {
        bail!("perf stat {cmd:?} failed: {status}");
    }
    let text = std::fs::read_to_string(&report)?;
    let _ = std::fs::remove_file(&report);
    // `12.34,msec,task-clock,...`
    let msec = text
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f.get(2) == Some(&"task-clock"))
        .and_then(|f| f.first()?.parse::<f64>().ok())
        .with_context(|| format!("no task-clock in perf's report: {text}"))?;
    Ok(Duration::from_secs_f64(msec / 1e3))
}

/// A fresh command with the program and arguments of `cmd`.
fn fresh(cmd: &Command) -> Command {
    let mut c = Command::new(cmd.get_program());
    c.args(cmd.get_args());
    c
}

fn file_mb(p: &Path) -> f64 {
    std::fs::metadata(p).map_or(0.0, |m| m.len() as f64 / 1e6)
}

/// The standard output of `cmd` (which must succeed).
fn run_output(cmd: &mut Command) -> Result<Vec<u8>> {
    let out = cmd
        .stderr(Stdio::null())
        .output()
        .with_context(|| format!("{cmd:?}"))?;
    if !out.status.success() {
        bail!("{cmd:?} failed: {}", out.status);
    }
    Ok(out.stdout)
}

/// Timed rounds of `read --metadata` (each tool once per round).
const ROUNDS: usize = 15;

/// The smallest and the median of `times`.
fn best_and_median(times: &mut [Duration]) -> (Duration, Duration) {
    times.sort();
    (
        times.first().copied().unwrap_or_default(),
        times.get(times.len() / 2).copied().unwrap_or_default(),
    )
}

fn best_of(n: usize, mut f: impl FnMut() -> Result<Duration>) -> Result<Duration> {
    let mut best = Duration::MAX;
    for _ in 0..n {
        best = best.min(f()?);
    }
    Ok(best)
}

fn time(cmd: &mut Command, files: &[PathBuf]) -> Result<Duration> {
    let start = Instant::now();
    let status = cmd
        .args(files.iter().map(PathBuf::as_path).map(Path::as_os_str))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .with_context(|| format!("{cmd:?}"))?;
    let elapsed = start.elapsed();
    if !status.success() {
        bail!("{cmd:?} failed: {status}");
    }
    Ok(elapsed)
}

/// Runs per CPU-time measurement (GNU time reports hundredths of a second).
const CPU_RUNS: u32 = 10;

/// User + system CPU time of one run: GNU time (`/usr/bin/time -f "%U %S"`) over
/// `CPU_RUNS` runs in a shell loop, divided.
fn cpu_time(cmd: &mut Command, files: &[PathBuf]) -> Result<Duration> {
    let report = std::env::temp_dir().join(format!("hsaco-bench-time-{}", std::process::id()));
    let program = cmd.get_program().to_owned();
    let args: Vec<_> = cmd.get_args().map(|a| a.to_owned()).collect();
    let status = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%U %S")
        .arg("-o")
        .arg(&report)
        .arg("sh")
        .arg("-c")
        .arg(format!(
            "for i in $(seq {CPU_RUNS}); do \"$@\" >/dev/null || exit 1; done"
        ))
        .arg("sh")
        .arg(&program)
        .args(&args)
        .args(files.iter().map(PathBuf::as_path).map(Path::as_os_str))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .with_context(|| format!("/usr/bin/time {program:?}"))?;
    if !status.success() {
        bail!("{program:?} failed: {status}");
    }
    let text = std::fs::read_to_string(&report)?;
    let _ = std::fs::remove_file(&report);
    let secs: f64 = text
        .split_whitespace()
        .filter_map(|t| t.parse::<f64>().ok())
        .sum();
    Ok(Duration::from_secs_f64(secs / f64::from(CPU_RUNS)))
}
