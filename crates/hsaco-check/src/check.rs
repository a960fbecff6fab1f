//! The checks: which code object a device runs, what a runtime does with it, and
//! what to do when nothing fits.

use core::fmt;

use hsaco_target::{
    can_run, CodeObjectVersion, Generation, Processor, Rule, TargetFeature, TargetId, Verdict,
};

use crate::object::ObjectInfo;
use crate::runtime::{ProcessorEffect, RuntimeKind, RuntimeStack};
use crate::{Device, Problem};

/// What to check the code objects against.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Devices (`--device`).
    pub devices: Vec<Device>,
    /// Runtimes (`--runtime`).
    pub runtimes: Vec<RuntimeStack>,
}

/// One rule applied to a (code object, device) pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceRule {
    /// A rule of [`hsaco_target::can_run`]: processor, generic version, xnack, sramecc.
    Target(Rule),
    /// Whether the code object's version can describe its target (generic
    /// targets need v6).
    CodeObjectVersion {
        /// Code object version.
        version: u32,
        /// The code object's processor (or generic target).
        target: &'static str,
        /// Whether it can.
        supported: bool,
    },
    /// Whether the device runs the kernels' wavefront size.
    WaveSize {
        /// Wavefront size of a kernel.
        wave_size: u32,
        /// Device processor.
        device: &'static str,
        /// Whether the device runs it.
        supported: bool,
    },
}

impl DeviceRule {
    /// The outcome of this rule alone.
    pub fn verdict(&self) -> Verdict {
        match self {
            DeviceRule::Target(r) => r.verdict(),
            DeviceRule::CodeObjectVersion { supported, .. }
            | DeviceRule::WaveSize { supported, .. } => {
                if *supported {
                    Verdict::Compatible
                } else {
                    Verdict::Incompatible
                }
            }
        }
    }

    /// A stable name for the rule (`same-processor`, `xnack`, `wave-size`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            DeviceRule::Target(r) => match r {
                Rule::SameProcessor { .. } | Rule::DifferentProcessor { .. } => "processor",
                Rule::GenericMember { .. }
                | Rule::NotGenericMember { .. }
                | Rule::DeviceIsGeneric { .. } => "generic-target",
                Rule::GenericVersionTooOld { .. } => "generic-version",
                Rule::FeatureAny { feature }
                | Rule::FeatureMatches { feature, .. }
                | Rule::FeatureMismatch { feature, .. }
                | Rule::FeatureDeviceUnknown { feature, .. } => match feature {
                    TargetFeature::Xnack => "xnack",
                    _ => "sramecc",
                },
            },
            DeviceRule::CodeObjectVersion { .. } => "code-object-version",
            DeviceRule::WaveSize { .. } => "wave-size",
        }
    }
}

impl fmt::Display for DeviceRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceRule::Target(r) => write!(f, "{r}"),
            DeviceRule::CodeObjectVersion {
                version,
                target,
                supported: true,
            } => write!(f, "code object v{version} supports {target}"),
            DeviceRule::CodeObjectVersion {
                version, target, ..
            } => write!(
                f,
                "code object v{version} cannot describe {target} (generic targets need v6)"
            ),
            DeviceRule::WaveSize {
                wave_size,
                device,
                supported: true,
            } => write!(f, "{device} runs wave{wave_size} kernels"),
            DeviceRule::WaveSize {
                wave_size, device, ..
            } => write!(f, "{device} cannot run wave{wave_size} kernels"),
        }
    }
}

/// A code object judged against a device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Index of the code object ([`ObjectInfo::index`]).
    pub object: usize,
    /// The rules applied, processor rule first.
    pub rules: Vec<DeviceRule>,
}

impl Candidate {
    /// The worst verdict of the rules.
    pub fn verdict(&self) -> Verdict {
        self.rules
            .iter()
            .map(DeviceRule::verdict)
            .max()
            .unwrap_or(Verdict::Incompatible)
    }

    /// The rule that decides: the first with the overall verdict.
    pub fn deciding_rule(&self) -> Option<&DeviceRule> {
        let v = self.verdict();
        self.rules.iter().find(|r| r.verdict() == v)
    }
}

/// How risky forcing a code object onto a device with `HSA_OVERRIDE_GFX_VERSION` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Risk {
    /// Both processors are in one generic family: same instruction set in all but
    /// details LLVM's generic target leaves out.
    Low,
    /// Same generation, different instruction set: wrong results or illegal
    /// instruction faults when the code uses what the device lacks.
    Medium,
    /// Different generations: encodings and ABI differ; expect faults or garbage.
    High,
}

impl Risk {
    /// `low`, `medium`, `high`.
    pub fn name(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
        }
    }
}

/// `HSA_OVERRIDE_GFX_VERSION`: ROCr then reports the device as another processor
/// and loads code built for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GfxOverride {
    /// The value (`9.0.6`, `10.3.0`).
    pub value: String,
    /// The processor the device would pretend to be.
    pub processor: &'static str,
    /// Risk.
    pub risk: Risk,
    /// Why that risk.
    pub why: String,
}

/// The "invalid device function" / "no kernel image is available" case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoImage {
    /// The code object that comes closest.
    pub closest: Option<usize>,
    /// Why it does not run (its deciding rule).
    pub closest_reason: String,
    /// The generic targets whose family includes the device.
    pub device_families: Vec<&'static str>,
    /// Whether the closest code object is a generic target of the device's family.
    pub closest_in_family: bool,
    /// What `HSA_OVERRIDE_GFX_VERSION` would do, when it would make the closest
    /// code object load.
    pub gfx_override: Option<GfxOverride>,
    /// What to change.
    pub fix: String,
}

/// A runtime judged against a code object (on a device).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeReport {
    /// The runtime stack.
    pub stack: RuntimeStack,
    /// Index of the code object.
    pub object: usize,
    /// The processor it was judged for (the device's, or the code object's own).
    pub processor: &'static str,
    /// What was found; no error means it loads and runs.
    pub problems: Vec<Problem>,
}

impl RuntimeReport {
    /// No error among the problems.
    pub fn works(&self) -> bool {
        !self
            .problems
            .iter()
            .any(|p| p.severity == crate::Severity::Error)
    }
}

/// The result for one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceReport {
    /// The device.
    pub device: Device,
    /// Every code object judged against it.
    pub candidates: Vec<Candidate>,
    /// The code object a runtime would pick.
    pub selected: Option<usize>,
    /// When nothing runs: the diagnosis.
    pub no_image: Option<NoImage>,
    /// The runtimes judged for the selected code object.
    pub runtimes: Vec<RuntimeReport>,
}

/// Judge every code object against `device` and pick the one a runtime would
/// load: a compatible one for the device's own processor before a generic one.
pub fn check_device(objects: &[ObjectInfo], device: &Device) -> DeviceReport {
    let dp = device.processor();
    let mut candidates = Vec::new();
    for o in objects {
        let Ok(code) = &o.target else {
            continue;
        };
        let c = can_run(code, &device.target);
        let mut rules: Vec<DeviceRule> = c.rules.into_iter().map(DeviceRule::Target).collect();
        let processor_ok = rules
            .first()
            .is_some_and(|r| r.verdict() != Verdict::Incompatible);
        if processor_ok {
            if let Some(v) = o.version {
                // the version must be able to describe the code object's target
                // (generic targets need v6: AMDGPUUsage "Generic Processors")
                // (v1 describes its target as v2 does: an ISA version note)
                let supported = CodeObjectVersion::from_number(v.max(2))
                    .is_some_and(|cov| code.to_e_flags(cov).is_ok());
                rules.push(DeviceRule::CodeObjectVersion {
                    version: v,
                    target: code.processor.name,
                    supported,
                });
            }
            for w in o.wave_sizes() {
                let supported = match w {
                    32 => dp.wave_sizes.wave32,
                    _ => dp.wave_sizes.wave64,
                };
                rules.push(DeviceRule::WaveSize {
                    wave_size: w,
                    device: dp.name,
                    supported,
                });
            }
        }
        candidates.push(Candidate {
            object: o.index,
            rules,
        });
    }
    let selected = candidates
        .iter()
        .filter(|c| c.verdict() != Verdict::Incompatible)
        .min_by_key(|c| {
            let generic = objects
                .get(c.object)
                .and_then(|o| o.target.as_ref().ok())
                .is_some_and(|t| t.processor.is_generic());
            (c.verdict(), generic, c.object)
        })
        .map(|c| c.object);
    let no_image = selected
        .is_none()
        .then(|| diagnose_no_image(objects, &candidates, device));
    DeviceReport {
        device: device.clone(),
        candidates,
        selected,
        no_image,
        runtimes: Vec::new(),
    }
}

fn version_distance(a: &Processor, b: &Processor) -> u32 {
    let d = |x: u8, y: u8| u32::from(x.abs_diff(y));
    d(a.version.0, b.version.0) * 10_000
        + d(a.version.1, b.version.1) * 100
        + d(a.version.2, b.version.2)
}

fn diagnose_no_image(objects: &[ObjectInfo], candidates: &[Candidate], device: &Device) -> NoImage {
    let dp = device.processor();
    let device_families: Vec<&'static str> = dp.generic_targets().map(|g| g.name).collect();
    let score = |o: &ObjectInfo| -> u32 {
        let Ok(t) = &o.target else { return u32::MAX };
        let p = t.processor;
        if p.name == dp.name {
            0
        } else if p.generic_member_since(dp).is_some() {
            1
        } else if p.generation == dp.generation {
            10 + version_distance(p, dp)
        } else {
            1_000_000 + version_distance(p, dp)
        }
    };
    let closest = objects
        .iter()
        .filter(|o| o.target.is_ok())
        .min_by_key(|o| (score(o), o.index));
    let Some(closest) = closest else {
        return NoImage {
            closest: None,
            closest_reason: "no code object with a readable target".into(),
            device_families,
            closest_in_family: false,
            gfx_override: None,
            fix: format!("build for {} (--offload-arch={})", dp.name, device.target),
        };
    };
    let reason = candidates
        .iter()
        .find(|c| c.object == closest.index)
        .and_then(|c| c.deciding_rule())
        .map(|r| r.to_string())
        .unwrap_or_default();
    let ct = closest.target.as_ref().ok();
    let cp = ct.map(|t| t.processor);
    let closest_in_family = cp.is_some_and(|p| p.is_generic() && device_families.contains(&p.name));
    let mut fixes = Vec::new();
    let mut gfx_override = None;
    if let (Some(t), Some(p)) = (ct, cp) {
        if p.name == dp.name {
            // same processor: a feature setting differs; an override does not help
            for f in TargetFeature::TARGET_ID {
                if let (Some(code), Some(dev)) = (t.setting(f), device.setting(f)) {
                    if code != hsaco_target::FeatureSetting::Any && code != dev {
                        fixes.push(format!(
                            "build for {}:{}{} (or without a {} setting, which runs either way)",
                            dp.name,
                            f.name(),
                            dev.suffix(),
                            f.name()
                        ));
                        if f == TargetFeature::Xnack {
                            fixes.push(
                                "or switch the device's xnack mode where the driver allows it \
                                 (HSA_XNACK=1 / HSA_XNACK=0 on processors with switchable xnack)"
                                    .into(),
                            );
                        }
                    }
                }
            }
        } else if !p.is_generic() || p.generic_member_since(dp).is_none() {
            // pretend to be the closest code object's processor (or a member of its family)
            let target = if p.is_generic() {
                p.generic_members()
                    .min_by_key(|m| version_distance(m, dp))
                    .unwrap_or(p)
            } else {
                p
            };
            if !target.is_generic() {
                // Heuristic: GFX10.3, GFX11 and GFX12 family members with the same
                // major.minor differ in little beyond hazards the generic target
                // covers; GFX9 steppings differ in instructions (gfx906 has dot
                // products gfx900 lacks), so they count as "same generation".
                let shared_family = dp
                    .generic_targets()
                    .any(|g| g.generic_member_since(target).is_some())
                    && dp.version.0 >= 10
                    && dp.version.0 == target.version.0
                    && dp.version.1 == target.version.1;
                let (risk, why) = if shared_family {
                    (
                        Risk::Low,
                        format!(
                            "{} and {} are members of one generic family with the same \
                             major.minor version: the common, mostly safe use of the override \
                             (it changes only what ROCr reports; the hardware still runs its \
                             own instruction set)",
                            dp.name, target.name
                        ),
                    )
                } else if target.generation == dp.generation {
                    (
                        Risk::Medium,
                        format!(
                            "same generation, different instruction set: code for {} may use \
                             instructions or rely on hardware {} lacks (illegal-instruction \
                             faults or wrong results)",
                            target.name, dp.name
                        ),
                    )
                } else {
                    (
                        Risk::High,
                        format!(
                            "{} and {} are different generations: instruction encodings, \
                             registers and the ABI differ; expect hangs, faults or garbage",
                            target.name, dp.name
                        ),
                    )
                };
                let (a, b, c) = target.version;
                gfx_override = Some(GfxOverride {
                    value: format!("{a}.{b}.{c}"),
                    processor: target.name,
                    risk,
                    why,
                });
            }
            fixes.push(format!(
                "build for {} (--offload-arch={})",
                dp.name, device.target
            ));
            if let Some(g) = device_families.first() {
                fixes.push(format!(
                    "or for {g}, which runs on {} (code object v6, ROCm 6.3+)",
                    dp.name
                ));
            }
        } else {
            // generic family member, version too old
            fixes.push(format!(
                "rebuild for {} with a newer LLVM (a newer generic version), or for {}",
                p.name, dp.name
            ));
        }
    }
    NoImage {
        closest: Some(closest.index),
        closest_reason: reason,
        device_families,
        closest_in_family,
        gfx_override,
        fix: fixes.join("; "),
    }
}

fn fix_for_version(stack: &RuntimeStack, v: u32, processor: &'static Processor) -> String {
    let accepted: Vec<u32> = (4..=6)
        .filter(|&n| {
            stack
                .layers
                .iter()
                .all(|l| l.code_object_version(n).value == Some(true))
        })
        .filter(|&n| {
            CodeObjectVersion::from_number(n)
                .is_some_and(|cov| TargetId::new(processor).to_e_flags(cov).is_ok())
        })
        .collect();
    let generic_needs_v6 = processor.is_generic();
    match accepted.as_slice() {
        [] => "no code object version is loaded by every layer of this stack".into(),
        list => {
            let pick = if generic_needs_v6 {
                6
            } else if v < list[0] {
                // the lowest accepted version, preferring 5 (the ABI family gfx6-gfx12 share)
                if list.contains(&5) {
                    5
                } else {
                    list[0]
                }
            } else {
                *list.iter().rev().find(|&&n| n <= v).unwrap_or(&list[0])
            };
            let mut s = format!("rebuild with -mcode-object-version={pick}");
            if v > list[list.len() - 1] {
                if let Some(r) = stack.rocr() {
                    if r.code_object_version(v).value == Some(false) {
                        s.push_str(&format!(", or use ROCm 6.4 or later, which loads v{v}"));
                    }
                }
            }
            s
        }
    }
}

/// Judge a runtime stack for a code object on `processor` (the device's).
pub fn check_runtime(
    stack: &RuntimeStack,
    object: &ObjectInfo,
    processor: &'static Processor,
) -> RuntimeReport {
    let mut problems = Vec::new();
    let launcher = stack.launcher();
    let code_processor = object.target.as_ref().ok().map(|t| t.processor);
    if let Some(v) = object.version {
        for l in &stack.layers {
            let f = l.code_object_version(v);
            match f.value {
                Some(false) => problems.push(Problem::error(
                    "runtime-code-object-version",
                    format!("{} does not load code object v{v}", l.name),
                    format!(
                        "it fails with \"{}\" (source: {}; confidence {})",
                        l.version_error,
                        f.source,
                        f.confidence.name()
                    ),
                    Some({
                        let mut fix =
                            fix_for_version(stack, v, code_processor.unwrap_or(processor));
                        let pre_gfx9 = matches!(
                            processor.generation,
                            Generation::Gfx6 | Generation::Gfx7 | Generation::Gfx8
                        );
                        if pre_gfx9 && v < 5 && launcher.fills_pre_gfx9_hidden.value != Some(true) {
                            fix.push_str(&format!(
                                "; on {} v5 kernels then read the hidden private/shared base \
                                 fields, which {} does not fill (the write-up patches it)",
                                processor.name, launcher.name
                            ));
                        }
                        fix
                    }),
                )),
                // not known: whether it loads depends on the runtime (a warning,
                // like an unknown generic-target fact)
                None => problems.push(Problem::warning(
                    "runtime-code-object-version-unknown",
                    format!("not known whether {} loads code object v{v}", l.name),
                    f.source.to_string(),
                    None,
                )),
                Some(true) => {}
            }
        }
    }
    if object.version == Some(1) {
        if let Some(l) = stack
            .layers
            .iter()
            .find(|l| l.kind == RuntimeKind::Rocm && l.code_object_version(1).value == Some(true))
        {
            problems.push(Problem::note(
                "runtime-v1-hsa-api-only",
                format!(
                    "{}: ROCr's loader loads code object v1; HIP and OpenCL are not known to",
                    l.name
                ),
                l.code_object_version(1).source.to_string(),
                Some(
                    "load it with the HSA API (hsa_executable_load_agent_code_object), as \
                     ROCr's image extension does, or rebuild it with a current compiler"
                        .into(),
                ),
            ));
        }
    }
    if object.elf_type == 1 {
        // (code object v1 is ET_REL by design; ROCr loads it through its segments,
        // and its version fact says whether a layer loads it)
        let v1 = object.version == Some(1);
        if let Some(l) = stack.layers.iter().find(|l| {
            l.loads_relocatable.value == Some(false) && !(v1 && l.kind == RuntimeKind::Rocm)
        }) {
            problems.push(Problem::error(
                "runtime-relocatable",
                format!(
                    "this is a relocatable object (ET_REL); {} loads only linked code objects",
                    l.name
                ),
                l.loads_relocatable.source.to_string(),
                Some(
                    "link it first: ld.lld -shared (clang does this when it builds a code object)"
                        .into(),
                ),
            ));
        }
    }
    if let Some(cp) = code_processor.filter(|p| p.is_generic()) {
        for l in &stack.layers {
            let f = l.generic_targets;
            match f.value {
                Some(false) => problems.push(Problem::error(
                    "runtime-generic-target",
                    format!(
                        "{} does not load generic-target code objects ({})",
                        l.name, cp.name
                    ),
                    format!("{} (confidence {})", f.source, f.confidence.name()),
                    Some(format!(
                        "build for {} (--offload-arch={}), or use ROCm 6.4 or later",
                        processor.name, processor.name
                    )),
                )),
                None => problems.push(Problem::warning(
                    "runtime-generic-target-unknown",
                    format!(
                        "not known whether {} runs generic-target code objects ({})",
                        l.name, cp.name
                    ),
                    f.source.to_string(),
                    Some(format!("if it does not, build for {}", processor.name)),
                )),
                Some(true) => {}
            }
        }
    }
    for l in &stack.layers {
        if let Some(rule) = l.processor_rule(processor) {
            let what = format!(
                "{} on {}: {}",
                l.name,
                processor.name,
                match rule.effect {
                    ProcessorEffect::Rejected => "not supported, nothing runs",
                    ProcessorEffect::Unsupported => "works, but unsupported by the vendor",
                    ProcessorEffect::Note => "needs attention",
                }
            );
            let why = format!(
                "{} (source: {}; confidence {})",
                rule.why,
                rule.source,
                rule.confidence.name()
            );
            problems.push(match rule.effect {
                ProcessorEffect::Rejected => {
                    Problem::error("runtime-processor", what, why, Some(rule.fix.into()))
                }
                ProcessorEffect::Unsupported => Problem::warning(
                    "runtime-processor-unsupported",
                    what,
                    why,
                    Some(rule.fix.into()),
                ),
                ProcessorEffect::Note => {
                    Problem::note("runtime-processor-note", what, why, Some(rule.fix.into()))
                }
            });
        }
    }
    let pre_gfx9 = matches!(
        processor.generation,
        Generation::Gfx6 | Generation::Gfx7 | Generation::Gfx8
    );
    if pre_gfx9 && object.version.is_some_and(|v| v >= 5) && !object.pre_gfx9_hidden.is_empty() {
        let f = launcher.fills_pre_gfx9_hidden;
        let args: Vec<String> = object
            .pre_gfx9_hidden
            .iter()
            .map(|h| format!("{} (offset {})", h, h.v5_offset().unwrap_or(0)))
            .collect();
        let users: Vec<String> = object
            .kernels
            .iter()
            .filter(|k| !k.pre_gfx9_hidden.is_empty())
            .map(|k| k.name.clone())
            .collect();
        let evidence: Vec<String> = object
            .kernels
            .iter()
            .flat_map(|k| k.hidden_reads.iter().map(move |r| (k, r)))
            .map(|(k, r)| {
                format!(
                    "{} loads {} at {:#x}: `{}`",
                    k.name, r.arg, r.address, r.text
                )
            })
            .collect();
        let mut what = format!(
            "the metadata lists {} of the code object v5 implicit-argument block, which {} {}",
            args.join(", "),
            launcher.name,
            match f.value {
                Some(false) => "leaves zero",
                _ => "may leave zero",
            }
        );
        if !evidence.is_empty() {
            // (a few loads: every one is in the object's kernels[].hidden_reads)
            let shown = crate::group::NameList::new(&evidence, false);
            let more = match shown.more {
                0 => String::new(),
                n => format!("; and {n} more loads"),
            };
            what.push_str(&format!(
                " (the code shows it: {}{more})",
                shown.shown.join("; ")
            ));
        }
        let why = format!(
            "on gfx6-gfx8 the kernel builds flat private (scratch) and LDS addresses from these \
             aperture bases and reads the queue pointer for traps; zero bases send those \
             accesses to the wrong memory (source: {}; confidence {})",
            f.source,
            f.confidence.name()
        );
        let v4_ok = launcher.code_object_version(4).value == Some(true);
        let fix = format!(
            "launch through ROCm's HIP/OpenCL runtime, which fills them; or patch the offload \
             plugin to fill offsets 192, 196 and 200 for gfx6-gfx8 (the write-up's fix){}",
            if v4_ok {
                "; or rebuild with -mcode-object-version=4, where these come from the dispatch packet"
            } else {
                ""
            }
        );
        let problem = match f.value {
            Some(false) => Some(Problem::error(
                "runtime-pre-gfx9-hidden-args",
                what,
                why,
                Some(fix),
            )),
            None => Some(Problem::warning(
                "runtime-pre-gfx9-hidden-args",
                what,
                why,
                Some(fix),
            )),
            Some(true) => None,
        };
        if let Some(mut p) = problem {
            p.kernels = users;
            problems.push(p);
        }
    }
    if launcher.kind == RuntimeKind::LlvmOffload
        && stack.rocr().is_none()
        && (pre_gfx9 || object.version == Some(6))
    {
        problems.push(Problem::note(
            "runtime-rocr-unnamed",
            format!("the ROCr under {} is not named", launcher.name),
            "gfx8 devices need ROCr 6.4 or older; code object v6 needs ROCr 6.3 or newer".into(),
            Some(format!("name it: --runtime {}+rocm-6.4", launcher.name)),
        ));
    }
    problems.sort_by_key(|p| core::cmp::Reverse(p.severity));
    RuntimeReport {
        stack: stack.clone(),
        object: object.index,
        processor: processor.name,
        problems,
    }
}
