//! `cargo xtask llvm-diff`: compare hsaco with LLVM 22 on the whole corpus.
//!
//! - metadata: `hsaco read --metadata F` against the metadata blocks of
//!   `llvm-readelf-22 --notes F`, for every object;
//! - kernel descriptors: `hsaco read --kernel-descriptors F` against
//!   `llvm-objdump-22 -D --disassemble-symbols=<k>.kd F`, for every descriptor LLVM
//!   decodes;
//! - extract: `hsaco extract` against `clang-offload-bundler-22 --unbundle` on plain,
//!   zlib- and zstd-compressed bundles built from corpus objects;
//! - r600, PAL and Mesa fixtures: `tests/cli/data/{r600,pal}/gen.sh --check` rebuilds
//!   them and their LLVM references with clang-22 and compares with what is
//!   committed (`tests/platforms.rs` compares hsaco with those references);
//! - code object v1 (the fixtures in `crates/hsaco-elf/tests/data/v1`): `hsaco dis`
//!   against `llvm-objdump-22` (gfx803, gfx900; the `amd_kernel_code_t` lines aside,
//!   which LLVM refuses) and, for gfx700, which LLVM 22 does not disassemble, the
//!   text of `hsaco dis` assembled back by `llvm-mc-22` into the same words.
//!
//! - demangling: `hsaco dis -C` against `llvm-objdump-22 -d -C` on every corpus object
//!   with C++ symbols and on the library fixtures (tests/cli/data/library), and there
//!   `hsaco read -C --kernel-descriptors` against `llvm-objdump-22 -D -C -j .rodata`.
//!
//! - linking: `hsaco ld` against `ld.lld-22 -shared --no-undefined` for every corpus
//!   `.o` and for all of a directory's together (byte-identical, else the same loadable
//!   contents), and `llvm-readelf-22 -a` / `llvm-objdump-22 -d` warn about nothing in
//!   hsaco's output (see `ld_diff`).
//! - assembler: every corpus `.s` through `hsaco-asm` against `llvm-mc-22
//!   -filetype=obj` (sections, symbols, relocations; see `asm_diff.rs`).
//!
//! - DWARF: `hsaco read --debug-info/--debug-loclists/--debug-frame/--debug-aranges/
//!   --debug-line` against `llvm-dwarfdump-22` on the `-g` corpus (`target/dwarf-corpus`,
//!   built when missing; see `dwarf_diff.rs`), when llvm-dwarfdump-22 is installed; and
//!   `hsaco dis` with `-l`, `-S`, `--prefix`, `--debug-vars` against `llvm-objdump-22
//!   -d` with the same options there (`dis_lines_diff.rs`: eight modes, counts, failing
//!   only below committed floors); and the `--locate` evaluator against the location
//!   lists llvm-dwarfdump-22 prints (`locate_diff.rs`).
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
    failed |= !extract(&hsaco, &dir)?.report("extract (vs clang-offload-bundler-22 --unbundle)");
    failed |= !code_object_v1(&hsaco)?
        .report("code object v1 dis (vs llvm-objdump-22; gfx700 via llvm-mc-22)");
    failed |= !disassembly(&hsaco, &dir)?;
    failed |= !demangled(&hsaco, &objects)?.report(
        "demangled names (dis -C vs llvm-objdump-22 -d -C; read -C --kernel-descriptors vs -D -C)",
    );
    failed |= !gcn_round_trip(&hsaco)?;
    failed |= !checker_on_corpus(&dir)?;
    failed |= !crate::ld_diff::run(&hsaco, &dir, opts.limit)?;
    failed |= !platform_fixtures()?
        .report("r600/PAL/Mesa fixtures and references (gen.sh --check vs clang-22)");
    // hsaco-isa's instruction encoder; ASM_DIFF_ENCODER=oracle: llvm-mc-22's encodings
    // (to tell a driver difference from an encoder difference)
    let real = !std::env::var("ASM_DIFF_ENCODER").is_ok_and(|v| v == "oracle");
    failed |= !crate::asm_diff::compare(&dir, opts.limit, real)?.report(if real {
        "assembler (hsaco as vs llvm-mc-22 -filetype=obj)"
    } else {
        "assembler (hsaco-asm with llvm-mc-22's instruction encodings vs llvm-mc-22 -filetype=obj)"
    });
    failed |= !target_ids()?
        .report("target IDs and e_flags (vs clang-22 / llvm-mc-22 / llvm-readelf-22)");
    failed |= !alias_golden()?.report(
        "mnemonic alias golden (hsaco-isa tests/data/aliases/encodings.txt vs llvm-mc-22 -show-encoding)",
    );
    // every instruction statement of the corpus .s files through the encoder
    let no_limit = Options {
        corpus: Some(dir.clone()),
        ..Options::default()
    };
    if let Err(e) = crate::enc_diff::run(&no_limit, 0) {
        println!("encoder (vs llvm-mc-22 -show-encoding): {e}");
        failed = true;
    }
    // (no LLVM in it: hsaco's own bytes -> text -> bytes over the corpus code)
    failed |= !crate::roundtrip::run(&dir, opts.limit, 5)?;
    failed |= !crate::roundtrip::cli(&hsaco, &dir, opts.limit)?;
    if corpus::have_tool("llvm-dwarfdump-22") {
        let dwarf_dir = crate::dwarf_corpus_dir(&Options::default())?;
        failed |= !crate::dwarf_diff::diff(&hsaco, &dwarf_dir)?;
        failed |= !crate::locate_diff::diff(&dwarf_dir)?;
        if corpus::have_tool("llvm-objdump-22") {
            failed |= !crate::dis_lines_diff::diff(&hsaco, &dwarf_dir)?;
        }
    } else {
        println!(
            "NOTICE: SKIPPED the DWARF comparison: llvm-dwarfdump-22 not found (install llvm-22)"
        );
    }
    // llvm-objdump-22's text assembled again, where llvm-mc-22 manages it
    failed |= !crate::objdump_reasm::run(&dir, opts.limit)?;
    if failed {
        bail!("hsaco differs from LLVM 22");
    }
    Ok(())
}

#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) compared: usize,
    pub(crate) skipped: usize,
    pub(crate) mismatches: Vec<String>,
}

impl Tally {
    pub(crate) fn report(&self, what: &str) -> bool {
        println!(
            "{what}: {} compared, {} identical, {} different, {} skipped",
            self.compared,
            self.compared.saturating_sub(self.mismatches.len()),
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

pub(crate) fn metadata(hsaco: &Path, objects: &[PathBuf]) -> Result<Tally> {
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

pub(crate) fn kernel_descriptors(hsaco: &Path, objects: &[PathBuf]) -> Result<Tally> {
    let mut t = Tally::default();
    for obj in objects {
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
            if block.starts_with("; error decoding") {
                // LLVM refuses to decode (reserved bits set); hsaco decodes anyway
                t.skipped += 1;
                continue;
            }
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
    let e_flags = hsaco_elf::elf::Elf::parse(&data)
        .with_context(|| obj.display().to_string())?
        .e_flags();
    let name = hsaco_isa::listing::processor_from_e_flags(e_flags).with_context(|| {
        format!(
            "{}: unknown EF_AMDGPU_MACH {:#x}",
            obj.display(),
            e_flags & 0xff
        )
    })?;
    Ok(name.to_string())
}

/// Build bundles, compressed bundles (CCOB v1-v3, zlib and zstd), HIP host objects,
/// a shared library and an executable with LLVM 22
/// (`crates/hsaco-elf/tests/data/bundle/gen.sh --full`, which records what
/// `clang-offload-bundler-22 --unbundle` returns for every entry), then check that
/// `hsaco extract --all` writes each of those byte strings.
fn extract(hsaco: &Path, corpus: &Path) -> Result<Tally> {
    let mut t = Tally::default();
    let work = crate::root().join("target/llvm-diff/extract");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)?;
    let gen = crate::root().join("crates/hsaco-elf/tests/data/bundle/gen.sh");
    let status = Command::new("bash")
        .arg(&gen)
        .arg(&work)
        .arg("--full")
        .env("HSACO_CORPUS", corpus.join("nogpulib"))
        .status()
        .with_context(|| format!("{}", gen.display()))?;
    if !status.success() {
        bail!("{} failed: {status}", gen.display());
    }
    let manifest = std::fs::read_to_string(work.join("manifest.txt"))?;
    let mut outputs: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    for line in manifest.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [input, container, id, sha] = f[..] else {
            bail!("bad manifest line {line:?}");
        };
        if !outputs.contains_key(input) {
            let out = work.join("out").join(input);
            let (ok, _) = output(
                Command::new(hsaco)
                    .args(["extract", "--all"])
                    .arg(work.join("inputs").join(input))
                    .arg("-o")
                    .arg(&out),
            )?;
            let files = if ok {
                std::fs::read_dir(&out)?
                    .filter_map(|e| e.ok())
                    .filter_map(|e| std::fs::read(e.path()).ok())
                    .collect()
            } else {
                Vec::new()
            };
            outputs.insert(input.to_string(), files);
        }
        let want = std::fs::read(work.join("expected").join(sha))?;
        t.compared += 1;
        if !outputs[input].contains(&want) {
            t.mismatches.push(format!(
                "{input} {container} {id}: no extracted file equals the bundler's"
            ));
        }
    }
    Ok(t)
}

/// Regenerate the processor and e_flags tables from LLVM 22
/// (`crates/hsaco-target/tests/data/gen-eflags.sh`) and check hsaco-target
/// against every line.
/// `gen.sh --check` of the r600 and PAL/Mesa fixtures: each line it prints is a
/// file that clang-22 and LLVM 22 now build differently.
fn platform_fixtures() -> Result<Tally> {
    let mut t = Tally::default();
    for dir in ["tests/cli/data/r600", "tests/cli/data/pal"] {
        let gen = crate::root().join(dir).join("gen.sh");
        let (ok, out) = output(Command::new("sh").arg(&gen).arg("--check"))?;
        t.compared += 1;
        if !ok {
            t.mismatches.push(format!("{dir}: {}", out.trim()));
        }
    }
    Ok(t)
}

/// The alias golden file still holds llvm-mc-22's bytes (`cargo test` checks the
/// encoder against it without LLVM; `scripts/aliases.py` rewrites it).
fn alias_golden() -> Result<Tally> {
    let path = crate::root().join("crates/hsaco-isa/tests/data/aliases/encodings.txt");
    let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
    // mcpu -> (statement, bytes) in file order
    let mut by_cpu: std::collections::BTreeMap<&str, Vec<(&str, &str)>> = Default::default();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.splitn(4, " | ").collect();
        if f.len() == 4 {
            by_cpu.entry(f[0]).or_default().push((f[2], f[1]));
        }
    }
    let mut t = Tally::default();
    for (cpu, stmts) in by_cpu {
        let input: String = stmts.iter().map(|(s, _)| format!("{s}\n")).collect();
        let mut child = Command::new("llvm-mc-22")
            .args(["-triple=amdgcn", &format!("-mcpu={cpu}"), "-show-encoding"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .context("llvm-mc-22")?;
        if let Some(mut stdin) = child.stdin.take() {
            use std::io::Write;
            stdin.write_all(input.as_bytes())?;
        }
        let out = child.wait_with_output()?;
        let got: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| {
                let e = l.split("; encoding: [").nth(1)?.trim_end_matches(']');
                Some(
                    e.split(',')
                        .map(|b| b.trim().trim_start_matches("0x").to_string())
                        .map(|b| if b.len() == 1 { format!("0{b}") } else { b })
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            })
            .collect();
        for (i, (stmt, want)) in stmts.iter().enumerate() {
            t.compared += 1;
            if got.get(i).map(String::as_str) != Some(*want) {
                t.mismatches.push(format!(
                    "{cpu}: {stmt}: golden {want}, llvm-mc-22 {:?}",
                    got.get(i)
                ));
            }
        }
    }
    Ok(t)
}

fn target_ids() -> Result<Tally> {
    let mut t = Tally::default();
    let work = crate::root().join("target/llvm-diff/target");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)?;
    let gen = crate::root().join("crates/hsaco-target/tests/data/gen-eflags.sh");
    let status = Command::new("sh").arg(&gen).arg(&work).status()?;
    if !status.success() {
        bail!("{} failed: {status}", gen.display());
    }
    for (file, check) in [
        (
            "eflags-clang22.tsv",
            hsaco_target::golden::check_eflags_tsv as fn(&str) -> (usize, Vec<String>),
        ),
        (
            "processors-llvm22.tsv",
            hsaco_target::golden::check_processors_tsv,
        ),
    ] {
        let (n, problems) = check(&std::fs::read_to_string(work.join(file))?);
        t.compared += n;
        t.mismatches
            .extend(problems.into_iter().map(|p| format!("{file}: {p}")));
    }
    Ok(t)
}

/// `-C`: the listing of every object with C++ (`_Z`) symbols whose processor hsaco-isa
/// describes and whose plain listing is LLVM's, and the descriptor blocks of the library fixtures (whose `.rodata` holds
/// only descriptors, so `-j .rodata` prints just them).
fn demangled(hsaco: &Path, objects: &[PathBuf]) -> Result<Tally> {
    let library = crate::root().join("tests/cli/data/library");
    let fixtures = corpus::objects(&library)?;
    let mut t = Tally::default();
    for obj in objects.iter().chain(&fixtures) {
        let data = std::fs::read(obj)?;
        if !data.windows(3).any(|w| w == b"\0_Z") {
            continue;
        }
        let described = mcpu_of(obj)
            .ok()
            .and_then(|p| hsaco_isa::Decoder::for_processor(&p));
        if described.is_none() {
            t.skipped += 1;
            continue;
        }
        // (objects whose plain listing differs are the disassembly step's business)
        let plain = Command::new(hsaco).arg("dis").arg(obj).output()?;
        let llvm_plain = Command::new("llvm-objdump-22")
            .arg("-d")
            .arg(obj)
            .output()?;
        if plain.stdout != llvm_plain.stdout {
            t.skipped += 1;
            continue;
        }
        let mut pairs = vec![(
            Command::new(hsaco).args(["dis", "-C"]).arg(obj).output()?,
            Command::new("llvm-objdump-22")
                .args(["-d", "-C"])
                .arg(obj)
                .output()?,
            "dis -C",
        )];
        if fixtures.contains(obj) {
            pairs.push((
                Command::new(hsaco)
                    .args(["read", "-C", "--kernel-descriptors"])
                    .arg(obj)
                    .output()?,
                Command::new("llvm-objdump-22")
                    .args(["-D", "-C", "-j", ".rodata"])
                    .arg(obj)
                    .output()?,
                "read -C --kernel-descriptors",
            ));
        }
        for (ours, llvm, what) in pairs {
            let ours = String::from_utf8_lossy(&ours.stdout).into_owned();
            let mut llvm = String::from_utf8_lossy(&llvm.stdout).into_owned();
            if what.starts_with("read") {
                // (llvm-objdump's file and section header lines)
                llvm = llvm.lines().skip(5).map(|l| format!("{l}\n")).collect();
            }
            t.compared += 1;
            if ours != llvm {
                t.mismatches.push(format!(
                    "{} ({what}): {}",
                    obj.display(),
                    first_difference(&ours, &llvm)
                ));
            }
        }
    }
    Ok(t)
}

/// `hsaco dis` against `llvm-objdump-22 -d` on every corpus code object whose
/// processor hsaco-isa describes (crates/hsaco-isa/scripts/dis_diff.py prints the
/// percentage of identical instruction lines per processor and fails on any
/// difference), and with `--symbolize-operands` on the nogpulib half. Returns
/// whether everything was identical.
fn disassembly(hsaco: &Path, corpus: &Path) -> Result<bool> {
    let mut dirs = Vec::new();
    let mut skipped = Vec::new();
    for config in std::fs::read_dir(corpus)?.filter_map(|e| e.ok()) {
        if !config.path().is_dir() {
            continue;
        }
        for target in std::fs::read_dir(config.path())?.filter_map(|e| e.ok()) {
            let name = target.file_name().to_string_lossy().into_owned();
            let processor = name.split('_').next().unwrap_or("");
            if hsaco_isa::Decoder::for_processor(processor).is_some() {
                dirs.push(target.path());
            } else {
                skipped.push(name);
            }
        }
    }
    dirs.sort();
    skipped.sort();
    skipped.dedup();
    println!("disassembly (dis vs llvm-objdump-22 -d): processors without an ISA description yet, not compared: {}", skipped.join(" "));
    let script = crate::root().join("crates/hsaco-isa/scripts/dis_diff.py");
    let status = dis_diff(hsaco, &dirs)?;
    // branch-target labels, on the nogpulib half
    println!("disassembly with --symbolize-operands (both tools), nogpulib half:");
    let nogpulib: Vec<&PathBuf> = dirs
        .iter()
        .filter(|d| d.parent().is_some_and(|p| p.ends_with("nogpulib")))
        .collect();
    let symbolized = Command::new("python3")
        .arg(&script)
        .arg("--hsaco")
        .arg(hsaco)
        .arg("--symbolize-operands")
        .args(&nogpulib)
        .status()
        .with_context(|| format!("{}", script.display()))?;
    Ok(status && symbolized.success())
}

/// `hsaco dis` against `llvm-objdump-22 -d` on every code object under `dirs`
/// (crates/hsaco-isa/scripts/dis_diff.py; the processor from the directory
/// name). Returns whether every instruction line was identical.
pub(crate) fn dis_diff(hsaco: &Path, dirs: &[PathBuf]) -> Result<bool> {
    let script = crate::root().join("crates/hsaco-isa/scripts/dis_diff.py");
    let status = Command::new("python3")
        .arg(&script)
        .arg("--hsaco")
        .arg(hsaco)
        .args(dirs)
        .status()
        .with_context(|| format!("{}", script.display()))?;
    Ok(status.success())
}

/// gfx6/gfx7, which llvm-objdump-22 cannot disassemble: every instruction llvm-mc-22
/// assembles for tahiti and bonaire goes bytes -> `hsaco dis` -> llvm-mc-22 -> bytes
/// (crates/hsaco-isa/scripts/gcn_roundtrip.py). Returns whether every round trip
/// was the identity.
fn gcn_round_trip(hsaco: &Path) -> Result<bool> {
    println!("gfx6/gfx7 round trip (bytes -> hsaco dis -> llvm-mc-22 -> bytes):");
    let script = crate::root().join("crates/hsaco-isa/scripts/gcn_roundtrip.py");
    let status = Command::new("python3")
        .arg(&script)
        .arg("--hsaco")
        .arg(hsaco)
        .status()
        .with_context(|| format!("{}", script.display()))?;
    Ok(status.success())
}

/// `hsaco check` over the whole corpus: only the true findings the gfx803 write-up
/// explains may appear (crates/hsaco-check/tests/it/llvm.rs, ignored tests run here
/// with the corpus), and the gfx8 scalar view of the lints must print as
/// llvm-objdump-22 does.
fn checker_on_corpus(corpus: &Path) -> Result<bool> {
    println!(
        "hsaco check on the corpus (only explained findings; gfx8 scalar view vs llvm-objdump-22):"
    );
    let status = Command::new(env!("CARGO"))
        .args([
            "test",
            "-q",
            "-p",
            "hsaco-check",
            "--test",
            "it",
            "--",
            "--ignored",
            "--nocapture",
        ])
        .env("CORPUS_ROOT", corpus)
        .env("CORPUS", corpus.join("nogpulib"))
        .current_dir(crate::root())
        .status()?;
    Ok(status.success())
}

/// `hsaco dis` on the code object v1 fixtures against llvm-objdump-22, and for gfx700
/// (which LLVM 22 does not disassemble) against llvm-mc-22 assembling hsaco's text.
fn code_object_v1(hsaco: &Path) -> Result<Tally> {
    let dir = crate::root().join("crates/hsaco-elf/tests/data/v1");
    let mut t = Tally::default();
    let listing = |s: &str, skip: &dyn Fn(&str) -> bool| -> String {
        s.lines()
            .skip_while(|l| !l.starts_with("Disassembly of section"))
            .filter(|l| !skip(l))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    for cpu in ["gfx700", "gfx803", "gfx900"] {
        let obj = dir.join(format!("v1_{cpu}.co"));
        let (ok, ours) = output(Command::new(hsaco).arg("dis").arg(&obj))?;
        t.compared += 1;
        if !ok {
            t.mismatches.push(format!("{cpu}: hsaco dis failed"));
            continue;
        }
        let ours = listing(&ours, &|l| {
            l.starts_with("\t; amd_kernel_code_t (256 bytes")
        });
        if cpu == "gfx700" {
            // each instruction line's text, assembled, gives the line's words
            for line in ours.lines().filter(|l| l.contains("// ")) {
                let (text, words) = line.split_once("//").unwrap_or((line, ""));
                let words = words.split_once(": ").map_or("", |(_, w)| w.trim());
                let mut mc = Command::new("llvm-mc-22");
                mc.args(["-triple=amdgcn", "-mcpu=gfx700", "-show-encoding"])
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped());
                let mut child = mc.spawn().context("llvm-mc-22")?;
                use std::io::Write as _;
                child
                    .stdin
                    .take()
                    .context("stdin")?
                    .write_all(text.trim().as_bytes())?;
                let out = child.wait_with_output()?;
                let enc = String::from_utf8_lossy(&out.stdout);
                let bytes: Vec<u8> = enc
                    .split_once("encoding: [")
                    .and_then(|(_, r)| r.split_once(']'))
                    .map(|(b, _)| {
                        b.split(',')
                            .filter_map(|x| {
                                u8::from_str_radix(x.trim().trim_start_matches("0x"), 16).ok()
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let got: Vec<String> = bytes
                    .chunks(4)
                    .map(|c| {
                        let mut w = [0u8; 4];
                        w[..c.len()].copy_from_slice(c);
                        format!("{:08X}", u32::from_le_bytes(w))
                    })
                    .collect();
                if got.join(" ") != words {
                    t.mismatches.push(format!(
                        "{cpu}: {:?} assembles to {:?}, listed {words:?}",
                        text.trim(),
                        got.join(" ")
                    ));
                }
            }
            continue;
        }
        let (_, llvm) = output(
            Command::new("llvm-objdump-22")
                .args(["-d", "--triple=amdgcn-amd-amdhsa"])
                .arg(format!("--mcpu={cpu}"))
                .arg(&obj),
        )?;
        let llvm = listing(&llvm, &|l| {
            l.starts_with("; error decoding ")
                || l == "; decoding failed region as bytes"
                || l.starts_with("\t.byte\t")
        });
        if ours != llvm {
            t.mismatches
                .push(format!("{cpu}: {}", first_difference(&ours, &llvm)));
        }
    }
    Ok(t)
}
