//! Comparison of this crate against LLVM output, as recorded by
//! `crates/hsaco-target/tests/data/gen-eflags.sh`.
//!
//! The tests run these on the committed golden files; `cargo xtask llvm-diff`
//! can run the script into a temporary directory with the installed LLVM and
//! call them on fresh output. Each returns the list of disagreements (empty
//! when everything agrees).

use crate::eflags::CodeObjectVersion;
use crate::features::{FeatureSetting, TargetFeature};
use crate::processor::{Arch, Processor};
use crate::target_id::{TargetId, TargetIdForm};

/// Check `eflags-clang22.tsv` lines (`<target-id> <cov> <e_flags|error>
/// <amdhsa.target|->`): encoding and decoding must both agree with LLVM, the
/// full target ID we print must be the `amdhsa.target` LLVM wrote, and every
/// target ID LLVM rejected must be rejected here too. Returns (lines
/// checked, problems).
pub fn check_eflags_tsv(text: &str) -> (usize, Vec<String>) {
    let mut problems = Vec::new();
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        checked += 1;
        let at = n + 1;
        let cols: Vec<&str> = line.split_whitespace().collect();
        let [id, cov, value, llvm_target] = cols[..] else {
            problems.push(format!("line {at}: expected 4 columns: {line}"));
            continue;
        };
        let Some(version) = cov.parse().ok().and_then(CodeObjectVersion::from_number) else {
            problems.push(format!("line {at}: bad code object version {cov}"));
            continue;
        };
        let parsed = TargetId::parse(id);
        if value == "error" {
            if let Ok(t) = parsed {
                if let Ok(e) = t.to_e_flags(version) {
                    problems.push(format!(
                        "line {at}: LLVM rejects {id} for {version}, we accept it (e_flags {e:#x})"
                    ));
                }
            }
            continue;
        }
        let Some(expected) = value
            .strip_prefix("0x")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
        else {
            problems.push(format!("line {at}: bad e_flags {value}"));
            continue;
        };
        let target = match parsed {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("line {at}: LLVM accepts {id}, we reject it: {e}"));
                continue;
            }
        };
        if llvm_target != "-" {
            let ours = target.format(TargetIdForm::Full);
            if ours != llvm_target {
                problems.push(format!(
                    "line {at}: {id}: we print {ours}, LLVM wrote amdhsa.target {llvm_target}"
                ));
            }
        }
        match target.to_e_flags(version) {
            Ok(e) if e == expected => {}
            Ok(e) => problems.push(format!(
                "line {at}: {id} {version}: we encode {e:#x}, LLVM wrote {expected:#x}"
            )),
            Err(e) => problems.push(format!("line {at}: {id} {version}: we fail to encode: {e}")),
        }
        // In V3, Any is written (and so read back) as On.
        let mut want = target;
        if version <= CodeObjectVersion::V3 {
            for f in TargetFeature::TARGET_ID {
                if want.setting(f) == Some(FeatureSetting::Any) {
                    want = want.with(f, FeatureSetting::On).unwrap_or(want);
                }
            }
        }
        match TargetId::from_e_flags(expected, version) {
            Ok(d)
                if d.to_string() == want.to_string()
                    && d.effective_generic_version() == want.effective_generic_version()
                    && d.processor.name == want.processor.name => {}
            Ok(d) => problems.push(format!(
                "line {at}: {expected:#x} {version}: we decode {d}, LLVM target was {want}"
            )),
            Err(e) => problems.push(format!(
                "line {at}: {expected:#x} {version}: we fail to decode: {e}"
            )),
        }
    }
    (checked, problems)
}

/// Check `processors-llvm22.tsv` lines (`<arch> <name> <mach>`): every name
/// LLVM accepts must resolve here (by canonical name or alias) to a
/// processor of that architecture with that `EF_AMDGPU_MACH`, and every
/// non-legacy processor here must be accepted by LLVM under its canonical
/// name. Returns (lines checked, problems).
pub fn check_processors_tsv(text: &str) -> (usize, Vec<String>) {
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut llvm_names = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        checked += 1;
        let at = n + 1;
        let cols: Vec<&str> = line.split_whitespace().collect();
        let [arch, name, mach] = cols[..] else {
            problems.push(format!("line {at}: expected 3 columns: {line}"));
            continue;
        };
        llvm_names.push(name);
        let Some(mach) = mach
            .strip_prefix("0x")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
        else {
            problems.push(format!("line {at}: bad mach {mach}"));
            continue;
        };
        let Some(p) = Processor::by_name(name) else {
            problems.push(format!(
                "line {at}: LLVM accepts -mcpu={name}, we do not know it"
            ));
            continue;
        };
        if p.mach != mach {
            problems.push(format!(
                "line {at}: {name}: LLVM writes mach {mach:#05x}, we have {:#05x} ({})",
                p.mach, p.name
            ));
        }
        if p.arch.name() != arch {
            problems.push(format!(
                "line {at}: {name}: LLVM arch {arch}, we have {}",
                p.arch.name()
            ));
        }
    }
    for p in Processor::all() {
        if !p.legacy && !llvm_names.contains(&p.name) {
            problems.push(format!(
                "{} is not accepted by LLVM (mark it legacy?)",
                p.name
            ));
        }
        for alias in p.aliases {
            if !llvm_names.contains(alias) {
                problems.push(format!(
                    "alias {alias} of {} is not accepted by LLVM",
                    p.name
                ));
            }
        }
        if p.legacy && llvm_names.contains(&p.name) {
            problems.push(format!("{} is marked legacy but LLVM accepts it", p.name));
        }
        if p.arch == Arch::R600 && p.generic.is_some() {
            problems.push(format!("{} is an r600 generic target", p.name));
        }
    }
    (checked, problems)
}
