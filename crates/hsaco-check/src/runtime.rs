//! The runtimes `hsaco check --runtime` knows: which code object versions each
//! loads, which processors it drives, whether it understands generic targets, and
//! whether it fills the pre-gfx9 code object v5 hidden arguments.
//!
//! Every fact carries its source and how sure we are. The sources are release
//! notes and issue threads of the projects, the gfx803 write-up in
//! `shared/spec/seeds/001_*.txt` ("the write-up"), and behaviour observed in the
//! LLVM and ROCm sources (described in words here; no code is copied).
//!
//! Two kinds of runtime are listed:
//! - `rocm-X.Y`: ROCr (the HSA runtime, which loads code objects and creates the
//!   queues) with ROCm's HIP/OpenCL runtime (CLR) on top, which fills the kernel
//!   arguments.
//! - `llvm-offload-N`: LLVM's offload runtime (libomptarget and its AMDGPU
//!   plugin), which checks the ELF itself and fills the implicit arguments, and
//!   sits on some ROCr. Name both as a stack, `llvm-offload-22+rocm-6.4`, to check
//!   the ROCr layer too.

use core::fmt;

use hsaco_target::{Generation, Processor};

/// How sure a fact is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Confidence {
    /// Seen in the runtime's source or stated by its maintainers or the write-up.
    High,
    /// Inferred from a neighbouring release or from a maintainer's remark.
    Medium,
    /// Believed, not checked.
    Low,
}

impl Confidence {
    /// `high`, `medium` or `low`.
    pub fn name(self) -> &'static str {
        match self {
            Confidence::High => "high",
            Confidence::Medium => "medium",
            Confidence::Low => "low",
        }
    }
}

/// A yes/no fact with its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The answer; `None` when not known.
    pub value: Option<bool>,
    /// Where it comes from.
    pub source: &'static str,
    /// How sure.
    pub confidence: Confidence,
}

const fn fact(value: bool, confidence: Confidence, source: &'static str) -> Fact {
    Fact {
        value: Some(value),
        source,
        confidence,
    }
}

const fn unknown(source: &'static str) -> Fact {
    Fact {
        value: None,
        source,
        confidence: Confidence::Low,
    }
}

/// What kind of layer a runtime is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuntimeKind {
    /// ROCr plus ROCm's HIP/OpenCL runtime (CLR).
    Rocm,
    /// LLVM's offload runtime (libomptarget, AMDGPU plugin) on top of a ROCr.
    LlvmOffload,
}

/// A rule about processors: the processors it matches and what the runtime
/// does with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessorRule {
    /// The generations the rule is about.
    pub generations: &'static [Generation],
    /// The processors the rule is about (besides `generations`).
    pub processors: &'static [&'static str],
    /// What happens.
    pub effect: ProcessorEffect,
    /// Why, in a sentence.
    pub why: &'static str,
    /// What to do about it.
    pub fix: &'static str,
    /// Where the fact comes from.
    pub source: &'static str,
    /// How sure.
    pub confidence: Confidence,
}

impl ProcessorRule {
    /// Whether the rule applies to `p`.
    pub fn applies_to(&self, p: &Processor) -> bool {
        self.generations.contains(&p.generation) || self.processors.contains(&p.name)
    }
}

/// What a runtime does with a processor a [`ProcessorRule`] matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProcessorEffect {
    /// The runtime refuses the device or the code object: nothing runs.
    Rejected,
    /// It works, but the vendor no longer supports it (a warning).
    Unsupported,
    /// Something a user should know (a note).
    Note,
}

/// One row of the runtime table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runtime {
    /// The name `--runtime` takes (`rocm-6.4`, `llvm-offload-22`).
    pub name: &'static str,
    /// What it is, for people.
    pub title: &'static str,
    /// What kind of layer it is.
    pub kind: RuntimeKind,
    /// Whether it loads code objects of versions 2 to 6 (index 0 is v2); v1 follows
    /// from the runtime's kind ([`Runtime::code_object_version`]).
    pub code_object_versions: [Fact; 5],
    /// What the runtime says when it refuses a version (its own words).
    pub version_error: &'static str,
    /// Whether it loads generic-target (`gfx9-generic`, ...) code objects.
    pub generic_targets: Fact,
    /// Whether it fills the code object v5 hidden arguments that only gfx6-gfx8
    /// read: `hidden_private_base` (192), `hidden_shared_base` (196),
    /// `hidden_queue_ptr` (200).
    pub fills_pre_gfx9_hidden: Fact,
    /// Whether it loads relocatable (`ET_REL`) code objects (code object v1, which
    /// is `ET_REL` by design, is judged by its version fact instead).
    pub loads_relocatable: Fact,
    /// Rules about processors, first match wins.
    pub processors: &'static [ProcessorRule],
    /// Further notes shown by `--list-runtimes`.
    pub notes: &'static [&'static str],
}

impl Runtime {
    /// Every runtime in the table.
    pub fn all() -> &'static [Runtime] {
        RUNTIMES
    }

    /// Look a runtime up by name (case-insensitive; `rocm-6.4.4` finds `rocm-6.4`,
    /// `rocr-6.4` and `llvm-22` are accepted spellings).
    pub fn by_name(name: &str) -> Option<&'static Runtime> {
        let n = name.trim().to_ascii_lowercase();
        let n = n
            .strip_prefix("rocr-")
            .map(|r| format!("rocm-{r}"))
            .or_else(|| {
                n.strip_prefix("llvm-")
                    .and_then(|r| (!r.starts_with("offload")).then(|| format!("llvm-offload-{r}")))
            })
            .unwrap_or(n);
        if let Some(r) = RUNTIMES.iter().find(|r| r.name == n) {
            return Some(r);
        }
        // a patch release: rocm-6.4.4 -> rocm-6.4, llvm-offload-22.1.0 -> llvm-offload-22
        RUNTIMES.iter().find(|r| {
            n.strip_prefix(r.name)
                .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// Whether it loads code objects of version `v` (1 to 6).
    pub fn code_object_version(&self, v: u32) -> Fact {
        if v == 1 {
            return match self.kind {
                RuntimeKind::Rocm => fact(true, Medium, SRC_V1_ROCR),
                RuntimeKind::LlvmOffload => Fact {
                    source: SRC_V1_OFFLOAD,
                    ..self.code_object_version(2)
                },
            };
        }
        v.checked_sub(2)
            .and_then(|i| self.code_object_versions.get(i as usize))
            .copied()
            .unwrap_or(unknown("version outside the table"))
    }

    /// The first processor rule that applies to `p`.
    pub fn processor_rule(&self, p: &Processor) -> Option<&'static ProcessorRule> {
        self.processors.iter().find(|r| r.applies_to(p))
    }
}

impl fmt::Display for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A stack of runtimes named together (`llvm-offload-22+rocm-6.4`): the first
/// layer launches kernels and fills their arguments, every layer must accept the
/// code object, and the `rocm-*` layer (if any) drives the device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeStack {
    /// The layers, top first.
    pub layers: Vec<&'static Runtime>,
}

impl RuntimeStack {
    /// Parse `name` or `name+name`.
    pub fn parse(s: &str) -> Result<RuntimeStack, String> {
        let mut layers = Vec::new();
        for part in s.split('+').filter(|p| !p.trim().is_empty()) {
            let r = Runtime::by_name(part).ok_or_else(|| {
                let names: Vec<_> = RUNTIMES.iter().map(|r| r.name).collect();
                format!(
                    "unknown runtime `{}` (known: {}; see --list-runtimes)",
                    part.trim(),
                    names.join(", ")
                )
            })?;
            if !layers.iter().any(|l: &&Runtime| l.name == r.name) {
                layers.push(r);
            }
        }
        if layers.is_empty() {
            return Err(format!("empty runtime name `{s}`"));
        }
        if layers
            .iter()
            .filter(|l| l.kind == RuntimeKind::Rocm)
            .count()
            > 1
        {
            return Err(format!("`{s}` names two ROCm releases; name one"));
        }
        // the launcher goes first
        layers.sort_by_key(|l| match l.kind {
            RuntimeKind::LlvmOffload => 0,
            RuntimeKind::Rocm => 1,
        });
        Ok(RuntimeStack { layers })
    }

    /// The layer that launches kernels and fills their implicit arguments.
    pub fn launcher(&self) -> &'static Runtime {
        self.layers[0]
    }

    /// The ROCr layer, if the stack names one.
    pub fn rocr(&self) -> Option<&'static Runtime> {
        self.layers
            .iter()
            .copied()
            .find(|l| l.kind == RuntimeKind::Rocm)
    }
}

impl fmt::Display for RuntimeStack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, l) in self.layers.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            f.write_str(l.name)?;
        }
        Ok(())
    }
}

use Confidence::{High, Low, Medium};

const PRE_GFX9: &[Generation] = &[Generation::Gfx6, Generation::Gfx7, Generation::Gfx8];

const SRC_CLR_FILLS: &str = "ROCm CLR source (device/rocm/rocvirtual.cpp): for every hidden \
     argument the metadata lists, the HIP/OpenCL runtime writes hidden_private_base and \
     hidden_shared_base from the queue's aperture fields and hidden_queue_ptr from the queue";
const SRC_OFFLOAD_NOFILL: &str =
    "the write-up (LLVM 16 onwards, ROCm 6.4.4 and 7.2.4 audits): the \
     offload plugin's code object v5 implicit-argument struct covers the common fields up to the \
     dynamic LDS size; nothing writes offsets 192, 196 or 200";
const SRC_COV6_ROCM63: &str = "llvm-project PR #130963 (COV6 default): \"ROCm 6.3 will be needed \
     to run any program compiled for AMDGPU\" with code object v6; ROCm/llvm-project#258 (an \
     older ROCm fails v6 with HSA_STATUS_ERROR_INVALID_CODE_OBJECT)";
const SRC_OFFLOAD_ELF_CHECK: &str = "LLVM offload source (plugins-nextgen/common Utils/ELF.cpp, \
     LLVM 22): AMDGPU images must be ET_EXEC/ET_DYN, OS/ABI AMDGPU_HSA, ABI version 5 or 6, \
     EF_AMDGPU_MACH from GFX700 to GFX9_4_GENERIC; the write-up quotes the error";
const SRC_OFFLOAD_COV4_REMOVED: &str = "llvm-project PR #131033 \"[Offload] Remove handling for \
     COV4 binaries from offload/\" (merged March 2025, after the LLVM 20 branch)";
const SRC_OFFLOAD_COV4_20: &str = "LLVM 20 offload still carried the COV4 path (56-byte implicit \
     area) that PR #131033 removed after the branch; COV6 images allowed by PR #118909 \
     (December 2024)";

const GFX6_OFFLOAD: ProcessorRule = ProcessorRule {
    generations: &[Generation::Gfx6],
    processors: &[],
    effect: ProcessorEffect::Rejected,
    why: "the offload plugin's ELF check accepts EF_AMDGPU_MACH from GFX700 on and reports \
          \"unsupported AMDGPU architecture\" for GFX6",
    fix: "use a ROCm HIP/OpenCL runtime of the ROCm 6.x line, or a GFX7+ device",
    source: SRC_OFFLOAD_ELF_CHECK,
    confidence: High,
};

const GFX803_DEVICERTL_GONE: ProcessorRule = ProcessorRule {
    generations: &[],
    processors: &["gfx803"],
    effect: ProcessorEffect::Note,
    why: "gfx803 is not in the DeviceRTL architecture list since LLVM 20: an OpenMP build for \
          gfx803 needs a locally built OpenMP device runtime (the write-up builds one)",
    fix: "build the OpenMP DeviceRTL for gfx803 yourself (LLVM_DEVICE_RUNTIME / \
          LIBOMPTARGET_DEVICE_ARCHITECTURES) or use LLVM 19",
    source: "the write-up's LLVM audit: \"LLVM 20: gfx803 disappears from the upstream \
             DeviceRTL architecture list\"",
    confidence: High,
};

const GFX8_ROCM_UNSUPPORTED: ProcessorRule = ProcessorRule {
    generations: PRE_GFX9,
    processors: &[],
    effect: ProcessorEffect::Unsupported,
    why: "gfx6-gfx8 left ROCm's support list with ROCm 4.0; ROCr up to 6.4 still drives \
          gfx8 (GFX8 doorbell path) but AMD does not test it",
    fix: "expect to patch libraries; the ROCr/HIP core works (the write-up runs ROCr 6.4.4 on \
          a gfx803 WX 3200)",
    source: "ROCm issue #1353 (github.com/ROCm/legacy-rocm-build: gfx803 left the support list with ROCm 4.0); the \
             write-up (ROCr 6.4.4 rings the old GFX8 doorbell)",
    confidence: High,
};

const GFX8_ROCR7_REJECTED: ProcessorRule = ProcessorRule {
    generations: PRE_GFX9,
    processors: &[],
    effect: ProcessorEffect::Rejected,
    why: "ROCr 7 removed the legacy doorbell path (DoorbellType 0 and 1, used by gfx7 and \
          gfx8): the GPU agent is rejected before it is enumerated, so rocminfo fails and \
          no kernel can be launched",
    fix: "use ROCr 6.4 (ROCm 6.4.x), the last ROCr with the GFX8 doorbell path",
    source: "ROCm/clr issue #269 (ROCm 7.1.1 on an RX 570: \"support for gfx803 was removed \
             from ROCR-Runtime in ROCm 7+ ... rejects GPUs with legacy doorbell types\"); the \
             write-up (\"ROCr 7.x had removed the legacy GFX8 DoorbellType == 1 queue path\")",
    confidence: High,
};

/// Code object v1 (the HSA runtime finalizer's format) on a ROCm stack.
const SRC_V1_ROCR: &str = "ROCr's loader (ROCR-Runtime src/loader/executable.cpp, \
    ExecutableImpl::LoadSegments) takes a code object whose version note says major 1 \
    through its v1 path (LoadSegmentsV1: the PT_AMDGPU_HSA_LOAD_* segments of the ET_REL \
    object); ROCr's image extension built its blit kernels for gfx7, gfx8 and gfx9 as such \
    objects (src/image/blit_object_gfx7xx.cpp and its siblings, still shipped; recent \
    ROCr loads OpenCL-built ocl_blit_object_gfxNNN instead). Which ROCm releases keep the \
    v1 path is not checked release by release. HIP and OpenCL (CLR) find kernels through \
    the metadata note, which v1 lacks: through them a v1 object is not known to load";

/// Code object v1 on LLVM's offload plugin.
const SRC_V1_OFFLOAD: &str = "a code object v1 has v2's header bytes (ELFOSABI_AMDGPU_HSA, \
    ABI version 0), which the plugin's ELF check refuses as it refuses v2";

static RUNTIMES: &[Runtime] = &[
    Runtime {
        name: "rocm-5.7",
        title: "ROCm 5.7: ROCr + HIP/OpenCL (CLR)",
        kind: RuntimeKind::Rocm,
        code_object_versions: [
            unknown("v2 loading in ROCr 5.x not checked"),
            fact(true, Medium, "ROCr code object loader of the 5.x line (v3 and v4 were the defaults of ROCm 3.x/4.x)"),
            fact(true, High, "hipcc defaulted to code object v4 before ROCm 6.0"),
            fact(true, Medium, "code object v5 support in ROCr/CLR since ROCm 5.x; clang switched its default to v5 with LLVM 17 (reviews.llvm.org D129818)"),
            fact(false, Medium, SRC_COV6_ROCM63),
        ],
        version_error: "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid",
        generic_targets: fact(false, Medium, "generic targets need code object v6, which this ROCr does not load"),
        fills_pre_gfx9_hidden: fact(true, Medium, SRC_CLR_FILLS),
        loads_relocatable: fact(false, High, "ROCr loads executables and shared objects (ET_EXEC/ET_DYN) only"),
        processors: &[GFX8_ROCM_UNSUPPORTED],
        notes: &[
            "The OpenMP offload runtime shipped with ROCm 5.7 still had the classic plugin with COV4_SIZE = 56 and COV5_SIZE = 256 (write-up).",
        ],
    },
    Runtime {
        name: "rocm-6.2",
        title: "ROCm 6.2: ROCr + HIP/OpenCL (CLR)",
        kind: RuntimeKind::Rocm,
        code_object_versions: [
            unknown("v2 loading in ROCr 6.x not checked"),
            unknown("v3 loading in ROCr 6.x not checked"),
            fact(true, High, "the write-up runs code object v4 on ROCr 6.4.4; v4 stayed loadable through the 6.x line"),
            fact(true, High, "code object v5 is the ROCm 6.x default (hipcc)"),
            fact(false, Medium, SRC_COV6_ROCM63),
        ],
        version_error: "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid",
        generic_targets: fact(false, Medium, "generic targets need code object v6; see the v6 source"),
        fills_pre_gfx9_hidden: fact(true, High, SRC_CLR_FILLS),
        loads_relocatable: fact(false, High, "ROCr loads executables and shared objects (ET_EXEC/ET_DYN) only"),
        processors: &[GFX8_ROCM_UNSUPPORTED],
        notes: &[],
    },
    Runtime {
        name: "rocm-6.4",
        title: "ROCm 6.4: ROCr + HIP/OpenCL (CLR)",
        kind: RuntimeKind::Rocm,
        code_object_versions: [
            unknown("v2 loading in ROCr 6.x not checked"),
            unknown("v3 loading in ROCr 6.x not checked"),
            fact(true, High, "the write-up: ROCr 6.4.4 loads gfx803 and gfx906 code object v4"),
            fact(true, High, "the write-up: ROCr 6.4.4 loads gfx803 and gfx906 code object v5"),
            fact(true, High, "the write-up: gfx906 with LLVM 22's default (v6) works on ROCr 6.4.4; ROCm 6.3+ loads v6 (PR #130963)"),
        ],
        version_error: "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid",
        generic_targets: fact(true, Medium, "code object v6 and generic targets load from ROCm 6.3 on (PR #130963)"),
        fills_pre_gfx9_hidden: fact(true, High, SRC_CLR_FILLS),
        loads_relocatable: fact(false, High, "ROCr loads executables and shared objects (ET_EXEC/ET_DYN) only"),
        processors: &[GFX8_ROCM_UNSUPPORTED],
        notes: &[
            "ROCr 6.4 is the last ROCr that drives gfx8 (legacy GFX8 doorbell); ROCm/clr#269 recommends staying on 6.4.2 for Polaris.",
            "The OpenMP offload runtime shipped in ROCm 6.4.4 has a v5 implicit-argument struct and a 56-byte v4 one, and does not fill 192/196/200 (write-up).",
        ],
    },
    Runtime {
        name: "rocm-7.2",
        title: "ROCm 7.2: ROCr + HIP/OpenCL (CLR)",
        kind: RuntimeKind::Rocm,
        code_object_versions: [
            unknown("v2 loading in ROCr 7.x not checked"),
            unknown("v3 loading in ROCr 7.x not checked"),
            fact(true, Low, "the ROCr loader kept v4; the OpenMP offload runtime of ROCm 7.2.4 rejects v4 (write-up), HIP is not known to"),
            fact(true, High, "code object v5 and v6 are ROCm 7 defaults"),
            fact(true, High, "code object v5 and v6 are ROCm 7 defaults"),
        ],
        version_error: "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid",
        generic_targets: fact(true, Medium, "generic targets load from ROCm 6.3 on (PR #130963)"),
        fills_pre_gfx9_hidden: fact(true, Medium, SRC_CLR_FILLS),
        loads_relocatable: fact(false, High, "ROCr loads executables and shared objects (ET_EXEC/ET_DYN) only"),
        processors: &[GFX8_ROCR7_REJECTED],
        notes: &[
            "The OpenMP offload runtime shipped in ROCm 7.2.4 rejects code object v4 like upstream LLVM 22, and lists gfx803 only in source-level platform guards, not in the DeviceRTL architecture list (write-up).",
        ],
    },
    Runtime {
        name: "llvm-offload-20",
        title: "LLVM 20 offload (libomptarget, AMDGPU plugin), on a ROCr",
        kind: RuntimeKind::LlvmOffload,
        code_object_versions: [
            fact(false, High, SRC_OFFLOAD_COV4_20),
            fact(false, High, SRC_OFFLOAD_COV4_20),
            fact(true, Medium, SRC_OFFLOAD_COV4_20),
            fact(true, High, SRC_OFFLOAD_COV4_20),
            fact(true, High, SRC_OFFLOAD_COV4_20),
        ],
        version_error: "Invalid AMD ABI version (the plugin's ELF check; exact wording in LLVM 20 not checked)",
        generic_targets: unknown("llvm-project PR #130963 review (March 2025): \"The OpenMP runtime doesn't know how to handle generic ISAs\""),
        fills_pre_gfx9_hidden: fact(false, High, SRC_OFFLOAD_NOFILL),
        loads_relocatable: fact(false, High, SRC_OFFLOAD_ELF_CHECK),
        processors: &[GFX6_OFFLOAD, GFX803_DEVICERTL_GONE],
        notes: &["LLVM 20 builds the OpenMP DeviceRTL without gfx803 (write-up)."],
    },
    Runtime {
        name: "llvm-offload-21",
        title: "LLVM 21 offload (libomptarget, AMDGPU plugin), on a ROCr",
        kind: RuntimeKind::LlvmOffload,
        code_object_versions: [
            fact(false, High, SRC_OFFLOAD_COV4_REMOVED),
            fact(false, High, SRC_OFFLOAD_COV4_REMOVED),
            fact(false, Medium, SRC_OFFLOAD_COV4_REMOVED),
            fact(true, High, "the write-up: \"LLVM 21 / 22: the offload plugin is COV5+ oriented\""),
            fact(true, High, "the write-up: \"LLVM 21 / 22: the offload plugin is COV5+ oriented\""),
        ],
        version_error: "invalid AMD ABI version, must be version 5 or above",
        generic_targets: unknown("no statement found for LLVM 21"),
        fills_pre_gfx9_hidden: fact(false, High, SRC_OFFLOAD_NOFILL),
        loads_relocatable: fact(false, High, SRC_OFFLOAD_ELF_CHECK),
        processors: &[GFX6_OFFLOAD, GFX803_DEVICERTL_GONE],
        notes: &["Clang's default code object version is v6 from LLVM 21 on (llvm-project PR #130963)."],
    },
    Runtime {
        name: "llvm-offload-22",
        title: "LLVM 22 offload (libomptarget, AMDGPU plugin), on a ROCr",
        kind: RuntimeKind::LlvmOffload,
        code_object_versions: [
            fact(false, High, SRC_OFFLOAD_ELF_CHECK),
            fact(false, High, SRC_OFFLOAD_ELF_CHECK),
            fact(false, High, SRC_OFFLOAD_ELF_CHECK),
            fact(true, High, SRC_OFFLOAD_ELF_CHECK),
            fact(true, High, SRC_OFFLOAD_ELF_CHECK),
        ],
        version_error: "invalid AMD ABI version, must be version 5 or above",
        generic_targets: unknown("the ELF check admits the generic EF_AMDGPU_MACH values; whether the plugin matches them to a device is not checked"),
        fills_pre_gfx9_hidden: fact(false, High, SRC_OFFLOAD_NOFILL),
        loads_relocatable: fact(false, High, SRC_OFFLOAD_ELF_CHECK),
        processors: &[GFX6_OFFLOAD, GFX803_DEVICERTL_GONE],
        notes: &[
            "The write-up's working gfx803 stack patches this runtime in two places: accept v4 (later dropped) and fill 192/196/200 for gfx6-gfx8 in the v5 implicit-argument block.",
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_spellings() {
        assert_eq!(Runtime::by_name("rocm-6.4.4").unwrap().name, "rocm-6.4");
        assert_eq!(Runtime::by_name("ROCr-7.2").unwrap().name, "rocm-7.2");
        assert_eq!(Runtime::by_name("llvm-22").unwrap().name, "llvm-offload-22");
        assert!(Runtime::by_name("rocm-6.40").is_none());
        assert!(Runtime::by_name("cuda-12").is_none());
        let s = RuntimeStack::parse("rocm-6.4+llvm-offload-22").unwrap();
        assert_eq!(s.to_string(), "llvm-offload-22+rocm-6.4");
        assert_eq!(s.launcher().name, "llvm-offload-22");
        assert!(RuntimeStack::parse("rocm-6.4+rocm-7.2").is_err());
    }

    #[test]
    fn every_row_has_sources() {
        for r in Runtime::all() {
            for v in 1..=6 {
                assert!(
                    !r.code_object_version(v).source.is_empty(),
                    "{} v{v}",
                    r.name
                );
            }
            assert!(!r.fills_pre_gfx9_hidden.source.is_empty());
        }
    }
}
