//! The LLVM-built corpus of real code objects (`../shared/corpus`).

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Build the corpus into `dir` with `../shared/corpus/build-cl-corpus.sh` (needs
/// clang-22, lld-22, llvm-22).
pub fn build(dir: &Path) -> Result<PathBuf> {
    let script = crate::root().join("../shared/corpus/build-cl-corpus.sh");
    if !script.exists() {
        bail!(
            "{} not found: the corpus scripts live in shared/ beside the repo",
            script.display()
        );
    }
    std::fs::create_dir_all(dir)?;
    eprintln!(
        "building the LLVM corpus into {} (a few minutes)",
        dir.display()
    );
    // Both halves by default; the devlibs half needs Debian's rocm-device-libs (ROCm
    // bitcode libraries), and is left out, with a notice, when they are not there.
    let mut configs =
        std::env::var("HSACO_CORPUS_CONFIGS").unwrap_or_else(|_| "nogpulib devlibs".into());
    let devlibs = std::env::var("DEVLIBS")
        .unwrap_or_else(|_| "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode".into());
    if configs.contains("devlibs") && !Path::new(&devlibs).join("ocml.bc").exists() {
        println!(
            "NOTICE: SKIPPED the devlibs half of the corpus: no ROCm device libraries in \
             {devlibs} (apt-get install rocm-device-libs); building the nogpulib half only"
        );
        configs = configs.replace("devlibs", " ").trim().to_string();
    }
    if configs.is_empty() {
        bail!("HSACO_CORPUS_CONFIGS names no corpus half that can be built");
    }
    crate::run_cmd(
        Command::new("bash")
            .arg(&script)
            .arg(dir)
            .env("CONFIGS", &configs),
    )?;
    Ok(dir.to_path_buf())
}

/// The project's `shared/` folder: `$HSACO_SHARED`, or `shared` beside the
/// repository (or beside the folder of a git worktree under it).
pub fn shared_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("HSACO_SHARED") {
        return PathBuf::from(d);
    }
    let root = crate::root();
    for up in ["../shared", "../../shared"] {
        let d = root.join(up);
        if d.is_dir() {
            return d;
        }
    }
    root.join("../shared")
}

/// Every AMDGPU ELF (`.o`, `.co`) under `dir`, sorted.
pub fn objects(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    walk(dir, &mut out).with_context(|| format!("reading {}", dir.display()))?;
    out.sort();
    Ok(out)
}

/// The linked code objects (`.co`) below `dir`, sorted, the first `limit` of them.
pub fn code_objects(dir: &Path, limit: Option<usize>) -> Result<Vec<PathBuf>> {
    let mut objects: Vec<_> = objects(dir)?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "co"))
        .collect();
    if let Some(n) = limit {
        objects.truncate(n);
    }
    Ok(objects)
}

/// Every `.s` below `dir`, sorted.
pub fn assembly_files(dir: &Path) -> Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for e in std::fs::read_dir(dir)? {
            let p = e?.path();
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|x| x == "s") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, &mut out).with_context(|| format!("reading {}", dir.display()))?;
    out.sort();
    Ok(out)
}

/// The bytes of llvm-mc's `--show-encoding` list: the text between `[` and `]` of
/// `; encoding: [0x01,0x02,...]`.
pub fn encoding_bytes(list: &str) -> Vec<u8> {
    list.split(',')
        .map(|b| {
            let b = b.trim();
            b.strip_prefix("0x")
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .unwrap_or(0)
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("o" | "co"))
            && is_amdgpu(&path)
        {
            out.push(path);
        }
    }
    Ok(())
}

fn is_amdgpu(path: &Path) -> bool {
    let Ok(data) = std::fs::read(path) else {
        return false;
    };
    data.len() >= 20
        && data.starts_with(b"\x7fELF")
        && u16::from_le_bytes([data[18], data[19]]) == 224
}

/// Is `tool` on PATH?
pub fn have_tool(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// The kernel sources of the corpus (`NN_name.cl` in `src`), sorted.
pub fn cl_kernels(src: &Path) -> Result<Vec<PathBuf>> {
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(src)
        .with_context(|| src.display().to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "cl")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(|ch: char| ch.is_ascii_digit()))
        })
        .collect();
    kernels.sort();
    Ok(kernels)
}
