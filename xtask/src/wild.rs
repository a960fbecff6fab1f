//! `cargo xtask wild-corpus`: objects as older compilers wrote them.
//!
//! Builds the corpus sources (`../shared/corpus/cl`) with every clang the machine
//! has among `clang-13`, `-14`, `-15`, `-16`, `-19` and `-22` (Debian packages
//! `clang-N lld-N`), for each corpus processor and code object versions 2 to 6,
//! with `-nogpulib` and with Debian's ROCm device libraries, into
//! `DIR/clang-N/<config>/<target>/cov<V>/<kernel>.{o,co}` (and `all.co`), the
//! layout of `build-cl-corpus.sh`. What a compiler does not accept (an unknown
//! processor, a code object version it does not write, device libraries too new
//! for it) is recorded in `DIR/clang-N/build-results.tsv`, one row per step, and
//! skipped. Only the compile and link steps of the script are run (not its
//! `-S` / `llvm-mc` re-assembly check, which tests LLVM rather than its objects).
//!
//! Then, on every object:
//! - `hsaco check OBJ --device P --json`, P the object's own processor (the
//!   target ID of its directory; for a generic target, its first member): any
//!   error or warning fails the task unless [`ALLOWED`] lists it as a true
//!   finding, with its reason;
//! - the comparisons of `cargo xtask llvm-diff` against LLVM 22: metadata
//!   (`read --metadata` vs `llvm-readelf-22 --notes`), kernel descriptors
//!   (`read --kernel-descriptors` vs `llvm-objdump-22`) and `dis` (vs
//!   `llvm-objdump-22 -d`).
//!
//! ```text
//! cargo xtask wild-corpus [--corpus DIR] [--compilers 13,14,15,16,19,22] [--rebuild]
//!                         [--jobs N] [--build-only | --no-compare]
//! ```
//!
//! `DIR` defaults to `target/corpus-wild`; a compiler whose directory already has
//! a `build-results.tsv` is not built again unless `--rebuild` is given.

use crate::{corpus, llvm_diff};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

/// The compilers, by Debian package version.
const COMPILERS: &[u32] = &[13, 14, 15, 16, 19, 22];

/// The processors of `build-cl-corpus.sh` (`TARGETS` and `EXTRA_TARGETS`).
pub const TARGETS: &[&str] = &[
    "gfx803",
    "gfx900",
    "gfx906",
    "gfx908",
    "gfx90a",
    "gfx942",
    "gfx1010",
    "gfx1030",
    "gfx1100",
    "gfx1201",
    "gfx90a:xnack+",
    "gfx942:sramecc+:xnack-",
    "gfx950",
    "gfx1250",
    "gfx9-generic",
    "gfx10-3-generic",
    "gfx11-generic",
    "gfx12-generic",
];

/// Every code object version some of these compilers write (2 and 3 up to
/// clang-16, 5 from clang-15, 6 from clang-19).
const COVS: &[u32] = &[2, 3, 4, 5, 6];

/// A true finding of `hsaco check` on these objects: a runtime does refuse the
/// object or may run it wrongly. Matched by code, processor directory, code
/// object version directory and a piece of the finding's text.
pub struct Allowed {
    /// The finding's code.
    pub code: &'static str,
    /// The processor directories it may appear in.
    pub processors: &'static [&'static str],
    /// The code object version directories it may appear in (empty: any).
    pub covs: &'static [&'static str],
    /// A piece of the finding's `what`.
    pub what: &'static str,
    /// Why it is true.
    pub reason: &'static str,
}

/// The true findings (the same as `llvm-diff`'s, from seed 001's gfx803
/// write-up, crates/hsaco-check/tests/it/llvm.rs).
pub const ALLOWED: &[Allowed] = &[
    Allowed {
        code: "code-hidden-arg-wrong-base",
        processors: &["gfx803"],
        covs: &["cov5", "cov6"],
        what: "loads offset 0xc8 (hidden_queue_ptr) from the constant address",
        reason: "seed 001 root cause 2: at code object v5/v6 non-entry functions that trap on gfx803 load the queue pointer from the constant address 0xc8 instead of implicit-argument pointer + 0xc8 (the compiler's hidden-argument base); wrong only when the trap fires",
    },
    Allowed {
        code: "code-m0-not-restored",
        processors: &["gfx803"],
        covs: &[],
        what: "function __printf_alloc writes m0",
        reason: "seed 001's m0 bug: the printf runtime lowers a dynamic v_writelane_b32 lane select through m0 and returns without restoring it; on gfx6-gfx8 m0 bounds LDS accesses of a caller that relies on it",
    },
];

fn allowed(obj: &Path, code: &str, what: &str) -> Option<&'static Allowed> {
    let parts: Vec<String> = obj
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    ALLOWED.iter().find(|a| {
        a.code == code
            && what.contains(a.what)
            && parts.iter().any(|p| a.processors.contains(&p.as_str()))
            && (a.covs.is_empty() || parts.iter().any(|p| a.covs.contains(&p.as_str())))
    })
}

struct Opts {
    dir: PathBuf,
    compilers: Vec<u32>,
    rebuild: bool,
    jobs: usize,
    build_only: bool,
    no_compare: bool,
}

fn parse(args: &[String]) -> Result<Opts> {
    let mut o = Opts {
        dir: crate::root().join("target/corpus-wild"),
        compilers: COMPILERS.to_vec(),
        rebuild: false,
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        build_only: false,
        no_compare: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--corpus" => o.dir = PathBuf::from(it.next().context("--corpus DIR")?),
            "--compilers" => {
                o.compilers = it
                    .next()
                    .context("--compilers 13,15,22")?
                    .split(',')
                    .map(|c| c.trim().trim_start_matches("clang-").parse())
                    .collect::<Result<_, _>>()?
            }
            "--rebuild" => o.rebuild = true,
            "--build-only" => o.build_only = true,
            "--no-compare" => o.no_compare = true,
            "--jobs" => o.jobs = it.next().context("--jobs N")?.parse()?,
            other => bail!("unknown option {other:?}"),
        }
    }
    Ok(o)
}

pub fn run(args: &[String]) -> Result<()> {
    let o = parse(args)?;
    let start = Instant::now();
    let mut built = Vec::new();
    for &c in &o.compilers {
        let (clang, lld) = (format!("clang-{c}"), format!("ld.lld-{c}"));
        if !corpus::have_tool(&clang) || !corpus::have_tool(&lld) {
            println!(
                "NOTICE: SKIPPED clang-{c}: {clang} or {lld} not found (apt-get install clang-{c} lld-{c})"
            );
            continue;
        }
        let out = o.dir.join(format!("clang-{c}"));
        if o.rebuild || !out.join("build-results.tsv").exists() {
            let t = Instant::now();
            build(c, &out, o.jobs)?;
            println!(
                "built clang-{c} into {} in {:.0} s",
                out.display(),
                t.elapsed().as_secs_f64()
            );
        }
        built.push((c, out));
    }
    if built.is_empty() {
        println!("NOTICE: SKIPPED the wild corpus: none of the compilers could be found");
        return Ok(());
    }
    println!("build: {:.0} s", start.elapsed().as_secs_f64());
    summary(&built)?;
    if o.build_only {
        return Ok(());
    }
    let hsaco = crate::hsaco_binary()?;
    let t = Instant::now();
    let ok_check = check_all(&hsaco, &built)?;
    println!("hsaco check: {:.0} s", t.elapsed().as_secs_f64());
    if o.no_compare {
        if !ok_check {
            bail!("wild corpus: hsaco check found errors or warnings");
        }
        return Ok(());
    }
    let t = Instant::now();
    let mut ok_llvm = true;
    for (c, dir) in &built {
        println!("\n== clang-{c}: comparisons with LLVM 22");
        let objects = corpus::objects(dir)?;
        ok_llvm &= llvm_diff::metadata(&hsaco, &objects)?.report(&format!(
            "clang-{c} metadata (read --metadata vs llvm-readelf-22 --notes)"
        ));
        ok_llvm &= llvm_diff::kernel_descriptors(&hsaco, &objects)?.report(&format!(
            "clang-{c} kernel descriptors (read --kernel-descriptors vs llvm-objdump-22)"
        ));
        let (dirs, skipped) = dis_dirs(dir)?;
        println!("clang-{c} disassembly (dis vs llvm-objdump-22 -d), not compared: {skipped}");
        ok_llvm &= llvm_diff::dis_diff(&hsaco, &dirs)?;
    }
    println!(
        "comparisons: {:.0} s; total {:.0} s",
        t.elapsed().as_secs_f64(),
        start.elapsed().as_secs_f64()
    );
    if !ok_check || !ok_llvm {
        bail!("wild corpus: hsaco check found errors or warnings, or hsaco differs from LLVM 22");
    }
    Ok(())
}

/// The `<config>/<target>/cov<V>` directories whose code objects LLVM 22
/// disassembles: not code object v2 (llvm-objdump-22, like -16 and -19, prints
/// "code object v2 is not supported" and dumps the kernel as bytes), not a
/// processor hsaco-isa does not describe. Also says what was left out.
fn dis_dirs(compiler_dir: &Path) -> Result<(Vec<PathBuf>, String)> {
    let mut dirs = Vec::new();
    let mut left: BTreeMap<String, usize> = BTreeMap::new();
    for config in std::fs::read_dir(compiler_dir)?.filter_map(|e| e.ok()) {
        if !config.path().is_dir() {
            continue;
        }
        for target in std::fs::read_dir(config.path())?.filter_map(|e| e.ok()) {
            let name = target.file_name().to_string_lossy().into_owned();
            let processor = name.split('_').next().unwrap_or("").to_string();
            for cov in std::fs::read_dir(target.path())?.filter_map(|e| e.ok()) {
                let v = cov.file_name().to_string_lossy().into_owned();
                if v == "cov2" {
                    *left
                        .entry("code object v2 (LLVM 22 does not disassemble it)".into())
                        .or_default() += 1;
                } else if hsaco_isa::Decoder::for_processor(&processor).is_none() {
                    *left
                        .entry(format!("{processor} (no ISA description)"))
                        .or_default() += 1;
                } else {
                    dirs.push(cov.path());
                }
            }
        }
    }
    dirs.sort();
    let left: Vec<String> = left.iter().map(|(k, n)| format!("{k}: {n} dirs")).collect();
    Ok((
        dirs,
        if left.is_empty() {
            "nothing".into()
        } else {
            left.join("; ")
        },
    ))
}

/// One `(config, target, cov)` combination: compile and link every kernel file.
fn build(c: u32, out: &Path, jobs: usize) -> Result<()> {
    let src = corpus::shared_dir().join("corpus/cl");
    if !src.is_dir() {
        bail!(
            "{} not found: the corpus sources live in shared/",
            src.display()
        );
    }
    let devlibs = std::env::var("DEVLIBS")
        .unwrap_or_else(|_| "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode".into());
    let mut configs = vec!["nogpulib"];
    if Path::new(&devlibs).join("ocml.bc").exists() {
        configs.push("devlibs");
    } else {
        println!(
            "NOTICE: SKIPPED the devlibs half for clang-{c}: no ROCm device libraries in {devlibs}"
        );
    }
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    std::fs::create_dir_all(out)?;
    let kernels = corpus::cl_kernels(&src)?;
    let mut work = Vec::new();
    for config in &configs {
        for t in TARGETS {
            for v in COVS {
                work.push((config.to_string(), t.to_string(), *v));
            }
        }
    }
    let queue = Mutex::new(work.into_iter());
    let rows = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let Some((config, target, cov)) = queue.lock().unwrap().next() else {
                    break;
                };
                let r = build_one(c, out, &src, &devlibs, &kernels, &config, &target, cov);
                rows.lock().unwrap().extend(r);
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort();
    let mut tsv = String::from("config\ttarget\tcov\tkernel\tstep\tstatus\tmessage\n");
    for r in rows {
        tsv.push_str(&r);
        tsv.push('\n');
    }
    std::fs::write(out.join("build-results.tsv"), tsv)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn build_one(
    c: u32,
    out: &Path,
    src: &Path,
    devlibs: &str,
    kernels: &[PathBuf],
    config: &str,
    target: &str,
    cov: u32,
) -> Vec<String> {
    let dir = out
        .join(config)
        .join(target.replace(':', "_"))
        .join(format!("cov{cov}"));
    let _ = std::fs::create_dir_all(&dir);
    let mut flags: Vec<String> = vec![
        "-target".into(),
        "amdgcn-amd-amdhsa".into(),
        format!("-mcpu={target}"),
        format!("-mcode-object-version={cov}"),
        "-O2".into(),
        "-x".into(),
        "cl".into(),
        "-cl-std=CL2.0".into(),
        format!("-DCORPUS_COV={cov}"),
        format!("-I{}", src.display()),
    ];
    if config == "devlibs" {
        flags.extend([
            "-DUSE_DEVLIBS".into(),
            format!("--rocm-device-lib-path={devlibs}"),
            "-Xclang".into(),
            "-mlink-builtin-bitcode".into(),
            "-Xclang".into(),
            format!("{devlibs}/oclc_daz_opt_off.bc"),
        ]);
    } else {
        flags.push("-nogpulib".into());
    }
    let mut rows = Vec::new();
    let row = |kernel: &str, step: &str, status: &str, msg: &str| {
        format!(
            "{config}\t{target}\t{cov}\t{kernel}\t{step}\t{status}\t{}",
            msg.replace(['\t', '\n'], " ")
        )
    };
    let mut objs = Vec::new();
    let mut refused: Option<String> = None;
    for k in kernels {
        let name = k
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if let Some(why) = &refused {
            // the compiler refused the processor or version for the first kernel:
            // the same holds for the others
            rows.push(row(&name, "compile", "FAIL", why));
            continue;
        }
        let o = dir.join(format!("{name}.o"));
        let r = Command::new(format!("clang-{c}"))
            .args(&flags)
            .arg("-c")
            .arg(k)
            .arg("-o")
            .arg(&o)
            .output();
        let msg = match &r {
            Ok(r) if r.status.success() => None,
            Ok(r) => Some(
                String::from_utf8_lossy(&r.stderr)
                    .lines()
                    .find(|l| l.contains("error"))
                    .unwrap_or("failed")
                    .to_string(),
            ),
            Err(e) => Some(e.to_string()),
        };
        if let Some(m) = msg {
            let _ = std::fs::remove_file(&o);
            if objs.is_empty()
                && (m.contains("unknown target CPU")
                    || m.to_ascii_lowercase().contains("invalid target id")
                    || m.contains("invalid integral value")
                    || m.contains("code object version")
                    || m.contains("unsupported option"))
            {
                refused = Some(format!("{m} (not tried for the other kernels)"));
            }
            rows.push(row(&name, "compile", "FAIL", &m));
            continue;
        }
        rows.push(row(&name, "compile", "ok", ""));
        let co = dir.join(format!("{name}.co"));
        let r = Command::new(format!("ld.lld-{c}"))
            .args(["-shared", "--no-undefined"])
            .arg(&o)
            .arg("-o")
            .arg(&co)
            .output();
        match r {
            Ok(r) if r.status.success() => {
                rows.push(row(&name, "link", "ok", ""));
                objs.push(o);
            }
            Ok(r) => {
                let _ = std::fs::remove_file(&co);
                let e = String::from_utf8_lossy(&r.stderr);
                rows.push(row(&name, "link", "FAIL", e.lines().next().unwrap_or("")));
            }
            Err(e) => rows.push(row(&name, "link", "FAIL", &e.to_string())),
        }
    }
    if objs.len() > 1 {
        let r = Command::new(format!("ld.lld-{c}"))
            .args(["-shared", "--no-undefined"])
            .args(&objs)
            .arg("-o")
            .arg(dir.join("all.co"))
            .output();
        match r {
            Ok(r) if r.status.success() => rows.push(row("all", "link", "ok", "")),
            Ok(r) => rows.push(row(
                "all",
                "link",
                "FAIL",
                String::from_utf8_lossy(&r.stderr)
                    .lines()
                    .next()
                    .unwrap_or(""),
            )),
            Err(e) => rows.push(row("all", "link", "FAIL", &e.to_string())),
        }
    }
    // nothing built for this combination: leave no empty directories
    let _ = std::fs::remove_dir(&dir);
    let _ = dir.parent().map(std::fs::remove_dir);
    rows
}

/// Objects per compiler, and what failed to build and why (first message).
fn summary(built: &[(u32, PathBuf)]) -> Result<()> {
    println!("\ncompiler   code objects (.co)   relocatable (.o)   build failures (first reason)");
    for (c, dir) in built {
        let objects = corpus::objects(dir)?;
        let co = objects
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "co"))
            .count();
        let tsv = std::fs::read_to_string(dir.join("build-results.tsv")).unwrap_or_default();
        let mut fails: BTreeMap<String, usize> = BTreeMap::new();
        for l in tsv.lines().skip(1) {
            let f: Vec<&str> = l.split('\t').collect();
            if f.get(5) == Some(&"FAIL") {
                let why = f.get(6).copied().unwrap_or("");
                let why = why.split(" (not tried").next().unwrap_or(why);
                let short: String = why.chars().take(90).collect();
                *fails.entry(short).or_default() += 1;
            }
        }
        println!(
            "clang-{c:<4} {co:>18}   {:>16}   {}",
            objects.len() - co,
            fails.values().sum::<usize>()
        );
        let mut fails: Vec<(usize, String)> = fails.into_iter().map(|(w, n)| (n, w)).collect();
        fails.sort_by(|a, b| b.cmp(a));
        for (n, why) in fails.iter().take(8) {
            println!("           {n:>5} x {why}");
        }
        if fails.len() > 8 {
            println!(
                "           ... and {} more reasons (see {})",
                fails.len() - 8,
                dir.join("build-results.tsv").display()
            );
        }
    }
    Ok(())
}

/// The device to check an object on: its directory's target ID (`gfx90a_xnack+`
/// is `gfx90a:xnack+`); for a generic target, its first member processor.
fn device_of(obj: &Path, compiler_dir: &Path) -> Option<String> {
    let rel = obj.strip_prefix(compiler_dir).ok()?;
    let target = rel
        .components()
        .nth(1)?
        .as_os_str()
        .to_str()?
        .replace('_', ":");
    let processor = target.split(':').next()?;
    let p = hsaco_target::Processor::by_name(processor)?;
    if p.is_generic() {
        return p.generic_members().next().map(|m| m.name.to_string());
    }
    Some(target)
}

/// `hsaco check --json` on every object against its own processor; every error
/// or warning not in [`ALLOWED`] is a failure. Prints counts per compiler and
/// per finding code.
fn check_all(hsaco: &Path, built: &[(u32, PathBuf)]) -> Result<bool> {
    println!("\n== hsaco check OBJ --device <its own processor> --json");
    let mut ok = true;
    let mut allowed_seen: BTreeMap<(&str, u32), usize> = BTreeMap::new();
    for (c, dir) in built {
        let objects = corpus::objects(dir)?;
        let mut bad: BTreeMap<String, (usize, String)> = BTreeMap::new();
        let mut notes: BTreeMap<String, usize> = BTreeMap::new();
        let mut exit_nonzero = 0;
        let mut checked = 0;
        for obj in &objects {
            let Some(device) = device_of(obj, dir) else {
                bail!("{}: no device for its directory", obj.display());
            };
            let out = Command::new(hsaco)
                .args(["check", "--json", "--device", &device])
                .arg(obj)
                .output()
                .with_context(|| format!("hsaco check {}", obj.display()))?;
            checked += 1;
            let text = String::from_utf8_lossy(&out.stdout);
            let json: serde_json::Value = match serde_json::from_str(&text) {
                Ok(j) => j,
                Err(e) => {
                    bad.entry("unreadable-json".into())
                        .or_insert((0, format!("{}: {e}", obj.display())))
                        .0 += 1;
                    continue;
                }
            };
            let reports = match &json {
                serde_json::Value::Array(a) => a.clone(),
                other => vec![other.clone()],
            };
            let mut found_bad = false;
            for r in &reports {
                for d in r["devices"].as_array().into_iter().flatten() {
                    if d["selected"].is_null() {
                        found_bad = true;
                        bad.entry(format!("error no-image-for-own-processor ({device})"))
                            .or_insert((0, obj.display().to_string()))
                            .0 += 1;
                    }
                }
                let problems = r["objects"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .flat_map(|o| o["problems"].as_array().into_iter().flatten());
                for p in problems {
                    let sev = p["severity"].as_str().unwrap_or("?");
                    let code = p["code"].as_str().unwrap_or("?");
                    if sev == "note" {
                        *notes.entry(code.to_string()).or_default() += 1;
                        continue;
                    }
                    if let Some(a) = allowed(obj, code, p["what"].as_str().unwrap_or("")) {
                        *allowed_seen.entry((a.code, *c)).or_default() += 1;
                        continue;
                    }
                    found_bad = true;
                    bad.entry(format!("{sev} {code}"))
                        .or_insert((
                            0,
                            format!("{}: {}", obj.display(), p["what"].as_str().unwrap_or("")),
                        ))
                        .0 += 1;
                }
            }
            if !out.status.success() && !found_bad {
                exit_nonzero += 1;
                bad.entry("nonzero exit without an error".into())
                    .or_insert((0, obj.display().to_string()))
                    .0 += 1;
            }
        }
        println!(
            "clang-{c}: {checked} objects checked, {} errors/warnings outside the allow-list, exit status non-zero without a finding: {exit_nonzero}",
            bad.values().map(|(n, _)| n).sum::<usize>()
        );
        for (k, (n, example)) in &bad {
            println!("  {n:>5} x {k}  e.g. {example}");
        }
        if !notes.is_empty() {
            let n: Vec<String> = notes.iter().map(|(k, n)| format!("{k} {n}")).collect();
            println!("  notes: {}", n.join(", "));
        }
        ok &= bad.is_empty();
    }
    for ((code, c), n) in &allowed_seen {
        println!("allowed (true findings, see ALLOWED): clang-{c}: {n} x {code}");
    }
    for a in ALLOWED {
        println!("  {}: {}", a.code, a.reason);
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_is_the_directory_target() {
        let root = Path::new("/c/clang-15");
        let dev = |p: &str| device_of(&root.join(p), root);
        assert_eq!(
            dev("nogpulib/gfx90a_xnack+/cov4/01_vadd.co").as_deref(),
            Some("gfx90a:xnack+")
        );
        assert_eq!(dev("devlibs/gfx906/cov2/all.co").as_deref(), Some("gfx906"));
        // a generic target is checked on its first member (AMDGPUUsage lists
        // gfx900 first in gfx9-generic)
        assert_eq!(
            dev("nogpulib/gfx9-generic/cov6/01_vadd.co").as_deref(),
            Some("gfx900")
        );
    }

    #[test]
    fn allowed_only_where_explained() {
        let what =
            "function f loads offset 0xc8 (hidden_queue_ptr) from the constant address at 0x10";
        let p = Path::new("/c/clang-22/devlibs/gfx803/cov5/02_reduce_lds.co");
        assert!(allowed(p, "code-hidden-arg-wrong-base", what).is_some());
        // not at v4, not on gfx900, not another code
        let v4 = Path::new("/c/clang-22/devlibs/gfx803/cov4/02_reduce_lds.co");
        assert!(allowed(v4, "code-hidden-arg-wrong-base", what).is_none());
        let gfx9 = Path::new("/c/clang-22/devlibs/gfx900/cov5/02_reduce_lds.co");
        assert!(allowed(gfx9, "code-hidden-arg-wrong-base", what).is_none());
        assert!(allowed(p, "code-m0-across-call", what).is_none());
    }
}
