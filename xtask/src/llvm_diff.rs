//! `cargo xtask llvm-diff`: compare hsaco with LLVM 22 on the whole corpus.
//!
//! - metadata: `hsaco read --metadata F` against the metadata blocks of
//!   `llvm-readelf-22 --notes F`, for every object;
//! - kernel descriptors: `hsaco read --kernel-descriptors F` against
//!   `llvm-objdump-22 -D --disassemble-symbols=<k>.kd F`, for every descriptor LLVM
//!   decodes;
//! - extract: `hsaco extract` against `clang-offload-bundler-22 --unbundle` on plain,
//!   zlib- and zstd-compressed bundles built from corpus objects.
//!
//! Prints counts per check and every mismatch (up to a limit), and fails if any.

use crate::{corpus, Options};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const SHOW: usize = 10;

pub fn run(opts: &Options) -> Result<()> {
    for tool in [
        "llvm-readelf-22",
        "llvm-objdump-22",
        "clang-offload-bundler-22",
    ] {
        if !corpus::have_tool(tool) {
            bail!("{tool} not found: install llvm-22 clang-tools-22");
        }
    }
    let dir = opts.corpus_dir()?;
    let hsaco = crate::hsaco_binary()?;
    let mut objects = corpus::objects(&dir)?;
    if let Some(n) = opts.limit {
        objects.truncate(n);
    }
    if objects.is_empty() {
        bail!("no code objects under {}", dir.display());
    }
    eprintln!("{} objects under {}", objects.len(), dir.display());
    let mut failed = false;
    failed |= !metadata(&hsaco, &objects)?
        .report("metadata (read --metadata vs llvm-readelf-22 --notes)");
    failed |= !kernel_descriptors(&hsaco, &objects)?
        .report("kernel descriptors (read --kernel-descriptors vs llvm-objdump-22)");
    failed |=
        !extract(&hsaco, &objects)?.report("extract (vs clang-offload-bundler-22 --unbundle)");
    if failed {
        bail!("hsaco differs from LLVM 22");
    }
    Ok(())
}

#[derive(Default)]
struct Tally {
    compared: usize,
    skipped: usize,
    mismatches: Vec<String>,
}

impl Tally {
    fn report(&self, what: &str) -> bool {
        println!(
            "{what}: {} compared, {} identical, {} different, {} skipped",
            self.compared,
            self.compared - self.mismatches.len(),
            self.mismatches.len(),
            self.skipped
        );
        for m in self.mismatches.iter().take(SHOW) {
            println!("  {m}");
        }
        if self.mismatches.len() > SHOW {
            println!("  ... and {} more", self.mismatches.len() - SHOW);
        }
        self.mismatches.is_empty()
    }
}

fn output(cmd: &mut Command) -> Result<(bool, String)> {
    let out = cmd.output().with_context(|| format!("{cmd:?}"))?;
    Ok((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: hsaco {x:?} llvm {y:?}", i + 1);
        }
    }
    format!(
        "line counts differ: hsaco {} llvm {}",
        a.lines().count(),
        b.lines().count()
    )
}

fn metadata(hsaco: &Path, objects: &[PathBuf]) -> Result<Tally> {
    let mut t = Tally::default();
    for obj in objects {
        let (ok, llvm) = output(Command::new("llvm-readelf-22").arg("--notes").arg(obj))?;
        let blocks = hsaco_elf::metadata::metadata_block_from_readelf(&llvm);
        if !ok || blocks.is_empty() {
            t.skipped += 1;
            continue;
        }
        let expected: String = blocks.concat();
        let (ok, ours) = output(Command::new(hsaco).args(["read", "--metadata"]).arg(obj))?;
        t.compared += 1;
        if !ok || ours != expected {
            t.mismatches.push(format!(
                "{}: {}",
                obj.display(),
                first_difference(&ours, &expected)
            ));
        }
    }
    Ok(t)
}

fn kernel_descriptors(hsaco: &Path, objects: &[PathBuf]) -> Result<Tally> {
    let mut t = Tally::default();
    for obj in objects
        .iter()
        .filter(|o| o.extension().is_some_and(|e| e == "co"))
    {
        let kds = kd_symbols(obj)?;
        if kds.is_empty() {
            continue;
        }
        let mcpu = mcpu_of(obj)?;
        let (_, llvm) = output(
            Command::new("llvm-objdump-22")
                .arg("-D")
                .arg(format!("--mcpu={mcpu}"))
                .arg(format!("--disassemble-symbols={}", kds.join(",")))
                .arg(obj),
        )?;
        let expected: BTreeMap<String, String> = hsaco_elf::kd::kd_blocks_from_objdump(&llvm)
            .into_iter()
            .collect();
        let (ok, ours) = output(
            Command::new(hsaco)
                .args(["read", "--kernel-descriptors"])
                .arg(obj),
        )?;
        let ours: BTreeMap<String, String> = hsaco_elf::kd::kd_blocks_from_objdump(&ours)
            .into_iter()
            .collect();
        t.skipped += kds.len().saturating_sub(expected.len());
        for (name, block) in &expected {
            t.compared += 1;
            match ours.get(name) {
                Some(b) if ok && b == block => {}
                Some(b) => t.mismatches.push(format!(
                    "{} {name}: {}",
                    obj.display(),
                    first_difference(b, block)
                )),
                None => t.mismatches.push(format!(
                    "{} {name}: missing from hsaco's output",
                    obj.display()
                )),
            }
        }
    }
    Ok(t)
}

/// Names of the `.kd` symbols of an object, from llvm-readelf's symbol table.
fn kd_symbols(obj: &Path) -> Result<Vec<String>> {
    let (_, syms) = output(
        Command::new("llvm-readelf-22")
            .arg("-s")
            .arg("--wide")
            .arg(obj),
    )?;
    let mut names: Vec<String> = syms
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|n| n.ends_with(".kd"))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// The processor of an object for `--mcpu`, from its e_flags via hsaco-target.
fn mcpu_of(obj: &Path) -> Result<String> {
    let data = std::fs::read(obj)?;
    let e_flags = u32::from_le_bytes(data.get(48..52).context("short ELF")?.try_into()?);
    let p = hsaco_target::Processor::by_mach(e_flags & 0xff).with_context(|| {
        format!(
            "{}: unknown EF_AMDGPU_MACH {:#x}",
            obj.display(),
            e_flags & 0xff
        )
    })?;
    Ok(p.name.to_string())
}

fn extract(hsaco: &Path, objects: &[PathBuf]) -> Result<Tally> {
    let mut t = Tally::default();
    let work = crate::root().join("target/llvm-diff/extract");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)?;
    // one bundle per processor directory: that processor's cov5 01_vadd.co
    let mut inputs: Vec<(String, PathBuf)> = Vec::new();
    for obj in objects {
        let s = obj.to_string_lossy();
        if s.ends_with("/cov5/01_vadd.co") && s.contains("/nogpulib/") {
            let data = std::fs::read(obj)?;
            let e_flags = u32::from_le_bytes(data[48..52].try_into()?);
            let id =
                hsaco_target::TargetId::from_e_flags(e_flags, hsaco_target::CodeObjectVersion::V5)
                    .map(|t| t.to_string())
                    .with_context(|| {
                        format!("{}: target of e_flags {e_flags:#x}", obj.display())
                    })?;
            inputs.push((id, obj.clone()));
        }
    }
    if inputs.is_empty() {
        t.skipped += 1;
        return Ok(t);
    }
    let targets: Vec<String> = inputs
        .iter()
        .map(|(id, _)| format!("hipv4-amdgcn-amd-amdhsa--{id}"))
        .chain(std::iter::once(
            "host-x86_64-unknown-linux-gnu-".to_string(),
        ))
        .collect();
    let host = work.join("host.bin");
    std::fs::write(&host, b"")?;
    let mut ins: Vec<PathBuf> = inputs.iter().map(|(_, p)| p.clone()).collect();
    ins.push(host);
    for label in ["plain", "zlib", "zstd"] {
        let bundle = work.join(format!("{label}.bundle"));
        // Build with explicit arguments (the bundler takes one -input= per file).
        let mut cmd = Command::new("clang-offload-bundler-22");
        cmd.arg("-type=o")
            .arg(format!("-targets={}", targets.join(",")));
        for i in &ins {
            cmd.arg(format!("-input={}", i.display()));
        }
        cmd.arg(format!("-output={}", bundle.display()));
        if label == "zlib" {
            cmd.env("OFFLOAD_BUNDLER_COMPRESSION", "zlib")
                .arg("-compress");
        } else if label == "zstd" {
            cmd.env("OFFLOAD_BUNDLER_COMPRESSION", "zstd")
                .arg("-compress");
        }
        let (ok, _) = output(&mut cmd)?;
        if !ok {
            t.mismatches.push(format!(
                "{label}: clang-offload-bundler-22 could not build the bundle"
            ));
            continue;
        }
        let out = work.join(format!("{label}.out"));
        let (ok, _) = output(
            Command::new(hsaco)
                .arg("extract")
                .arg(&bundle)
                .arg("-o")
                .arg(&out),
        )?;
        if !ok {
            t.mismatches.push(format!("{label}: hsaco extract failed"));
            continue;
        }
        let produced: Vec<Vec<u8>> = std::fs::read_dir(&out)?
            .filter_map(|e| e.ok())
            .filter_map(|e| std::fs::read(e.path()).ok())
            .collect();
        for (id, _) in &inputs {
            let want = work.join(format!("{label}-{}.co", id.replace(':', "_")));
            let (ok, _) = output(
                Command::new("clang-offload-bundler-22")
                    .arg("-type=o")
                    .arg(format!("-targets=hipv4-amdgcn-amd-amdhsa--{id}"))
                    .arg(format!("-input={}", bundle.display()))
                    .arg(format!("-output={}", want.display()))
                    .arg("-unbundle"),
            )?;
            t.compared += 1;
            let want = if ok {
                std::fs::read(&want)?
            } else {
                Vec::new()
            };
            if !produced.iter().any(|p| *p == want) {
                t.mismatches.push(format!(
                    "{label} {id}: no extracted file equals the bundler's"
                ));
            }
        }
    }
    Ok(t)
}
