//! Will an AMDGPU code object load and run on a device under a runtime, and if
//! not, why, and what to change.
//!
//! ```
//! use hsaco_check::{check, CheckOptions, Device, RuntimeStack};
//! let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/objects/gfx803-cov4.co")).unwrap();
//! let opts = CheckOptions {
//!     devices: vec![Device::parse("wx3200").unwrap()],
//!     runtimes: vec![RuntimeStack::parse("llvm-offload-22+rocm-6.4").unwrap()],
//! };
//! let report = check(&data, &opts).unwrap();
//! // The device runs the code object...
//! assert_eq!(report.devices[0].selected, Some(0));
//! // ...but LLVM 22's offload runtime refuses code object v4.
//! let r = &report.devices[0].runtimes[0];
//! assert!(!r.works());
//! assert_eq!(r.problems[0].code, "runtime-code-object-version");
//! assert!(r.problems[0].fix.as_ref().unwrap().starts_with("rebuild with -mcode-object-version=5"));
//! ```
//!
//! # What is checked
//!
//! For each code object of the input (a plain code object, or every AMDGPU code
//! object of a fat binary / offload bundle):
//!
//! - **Device** (`--device`, [`check_device`]): the rules of
//!   [`hsaco_target::can_run`] (processor, generic target and generic version,
//!   `xnack`/`sramecc` any/on/off), then whether the code object version can
//!   describe the device's processor and whether the device runs the kernels'
//!   wavefront size. A runtime picks a compatible code object for the device's
//!   own processor before a generic one. When none runs, [`NoImage`] names the
//!   closest code object, the device's generic family, what
//!   `HSA_OVERRIDE_GFX_VERSION` would make ROCr load and at what [`Risk`], and
//!   the fix.
//! - **Runtime** (`--runtime`, [`check_runtime`]): the [`Runtime`] table
//!   (sources in each row): code object versions loaded, generic targets,
//!   relocatable objects, processor rules (ROCr 7 rejects gfx8; LLVM 20+
//!   DeviceRTL lacks gfx803; LLVM offload rejects gfx6), and whether the
//!   launching layer fills the code object v5 hidden arguments that gfx6-gfx8
//!   kernels read (`hidden_private_base` 192, `hidden_shared_base` 196,
//!   `hidden_queue_ptr` 200).
//!
//! - **ABI lints from the code** (the `code` module; decoded with
//!   `hsaco-isa`, gfx8 through the gfx9 scalar tables until gfx8 is described,
//!   see [`ObjectInfo::code_decoder`]): kernels that load the gfx6-gfx8 hidden
//!   fields (192/196/200 of the implicit-argument block) from their kernarg
//!   segment pointer ([`KernelInfo::hidden_reads`], shown as evidence in
//!   `runtime-pre-gfx9-hidden-args`); non-entry functions that read hidden
//!   fields without their implicit-argument pointer (the gfx803 write-up's root
//!   cause 2); non-entry functions on gfx6-gfx8 that leave `m0` changed when
//!   they return, and code that uses `m0` after a call to one (the write-up's
//!   m0 bug).
//!
//! # Problem codes
//!
//! | code | severity | meaning |
//! |---|---|---|
//! | `elf-unreadable` | error | the code object is not a readable ELF file |
//! | `symbols-unreadable` | error | its symbol table cannot be read |
//! | `not-hsa-object` | error | an r600, PAL or Mesa object (ELFCLASS32 or `EI_OSABI` not HSA): no HSA runtime loads it |
//! | `runtime-code-object-version` | error | a layer does not load this code object version |
//! | `runtime-code-object-version-unknown` | warning | not known whether it does: the outcome depends on the runtime |
//! | `runtime-relocatable` | error | an `ET_REL` object given to a loader (not for code object v1 on ROCm, whose loader takes v1's `ET_REL` layout) |
//! | `runtime-v1-hsa-api-only` | note | code object v1: ROCr's loader takes it, HIP and OpenCL are not known to |
//! | `runtime-generic-target` | error | a layer does not load generic targets |
//! | `runtime-generic-target-unknown` | warning | not known whether it does |
//! | `runtime-processor` | error | the runtime rejects the device's processor |
//! | `runtime-processor-unsupported` | warning | works, unsupported by the vendor |
//! | `runtime-processor-note` | note | e.g. no OpenMP DeviceRTL for gfx803 |
//! | `runtime-pre-gfx9-hidden-args` | error/warning | kernels read v5 fields 192/196/200 that the launcher leaves zero (or may) |
//! | `runtime-rocr-unnamed` | note | an LLVM offload runtime named without its ROCr |
//! | `code-hidden-arg-unlisted` | error | a kernel loads a gfx6-gfx8 hidden field its metadata does not list |
//! | `code-hidden-arg-pre-gfx9` | warning | gfx9+ code loads a field only gfx6-gfx8 code reads |
//! | `code-hidden-arg-wrong-base` | error (warning for the queue pointer) | a hidden field read from a constant address or another incoming pointer, not the implicit-argument pointer |
//! | `code-implicit-arg-past-block` | error | a non-entry function loads past the 256-byte implicit-argument block |
//! | `code-m0-not-restored` | warning | a gfx6-gfx8 function returns with `m0` changed |
//! | `code-m0-across-call` | error | LDS or `m0` used after a call to such a function without setting `m0` again |
//!
//! Severity follows what a loader or runtime does with the object: **error**
//! where a runtime refuses it or runs it wrongly, **warning** where the outcome
//! depends on the runtime (or the runtime table does not know) or is risky,
//! **note** for a departure from AMDGPUUsage nothing acts on. The runtime codes
//! take theirs from the [`Runtime`] table's facts (each with its source); the
//! ABI lints' reasons are in the `code` module.
//!
//! Conformance codes (`note-malformed`, `metadata-*`, `kernarg-layout`, `kd-*`,
//! `entry-alignment`, `kernel-symbol-missing`) are described in the
//! `conformance` module, each with the loader behaviour behind its severity.
//!
//! # Text and JSON
//! [`Report::to_text_with`] keeps library-sized reports short: findings that differ
//! only in their kernels ([`Problem::kernels`]) are merged, and kernel lists are cut
//! to a count, three names and "and N more" unless [`TextOptions::verbose`]. The JSON
//! keeps everything: one problem per kernel, every name.
//!
//! # JSON schema (`hsaco check --json`)
//!
//! One object per input file, as printed by the CLI:
//!
//! ```text
//! {
//!   "file": string,                       // added by the CLI
//!   "ok": bool,                           // false when Report::has_errors()
//!   "objects": [{
//!     "index": int, "entry_id": string, "container": string, "offset": int,
//!     "code_object_version": int|null, "target": string|null, "target_error": string|null,
//!     "kernels": [{"name": string, "wave_size": 32|64|null,
//!                  "hidden_reads": [{"arg": string, "address": int, "text": string}]}],
//!     "code_decoder": string|null,        // tables that decoded the code for the ABI lints
//!     "pre_gfx9_hidden_args": [string],   // value kinds the metadata lists
//!     "problems": [Problem]
//!   }],
//!   "devices": [{
//!     "device": string, "target": string, "product": string|null,
//!     "selected": int|null,               // index into objects
//!     "candidates": [{"object": int, "verdict": "compatible"|"depends_on_device"|"incompatible",
//!                     "deciding_rule": string|null,
//!                     "rules": [{"rule": string, "verdict": string, "text": string}]}],
//!     "no_image": null | {"closest": int|null, "closest_reason": string,
//!                         "device_families": [string], "closest_in_family": bool,
//!                         "hsa_override_gfx_version": null | {"value": string, "processor": string,
//!                                                             "risk": "low"|"medium"|"high", "why": string},
//!                         "fix": string},
//!     "runtimes": [RuntimeResult]
//!   }],
//!   "runtimes": [RuntimeResult]           // only when no --device was given
//! }
//! RuntimeResult = {"runtime": string, "object": int, "processor": string, "works": bool,
//!                  "problems": [Problem]}
//! Problem = {"severity": "error"|"warning"|"note", "code": string,
//!            "what": string,                // the whole sentence, kernels named first
//!            "kernels": [string],           // the kernels it is about (may be empty)
//!            "why": string, "fix": string|null}
//! ```
//!
//! Rule names: `processor`, `generic-target`, `generic-version`, `xnack`,
//! `sramecc`, `code-object-version`, `wave-size`.

mod check;
mod code;
mod conformance;
mod device;
mod group;
mod object;
mod problem;
mod report;
mod runtime;

pub use check::{
    check_device, check_runtime, Candidate, CheckOptions, DeviceReport, DeviceRule, GfxOverride,
    NoImage, Risk, RuntimeReport,
};
pub use code::HiddenRead;
pub use device::{Device, DeviceError, DeviceSource, ProductAlias, PRODUCT_ALIASES};
pub use group::{NameList, TextOptions, SHOWN_NAMES};
pub use object::{KernelInfo, ObjectInfo};
pub use problem::{Problem, Severity};
pub use report::{runtimes_json, runtimes_text, Report};
pub use runtime::{
    Confidence, Fact, ProcessorEffect, ProcessorRule, Runtime, RuntimeKind, RuntimeStack,
};

/// Check every code object in `data` against the devices and runtimes of `opts`.
///
/// Fails only when `data` holds no readable AMDGPU code object; problems inside
/// code objects are part of the report.
pub fn check(data: &[u8], opts: &CheckOptions) -> Result<Report, hsaco_elf::Error> {
    let embedded = hsaco_elf::bundle::code_objects(data)?;
    if embedded.is_empty() {
        return Err(hsaco_elf::Error::new(0, "no AMDGPU code object found"));
    }
    let objects: Vec<ObjectInfo> = embedded
        .iter()
        .enumerate()
        .map(|(i, e)| ObjectInfo::from_embedded(i, e))
        .collect();
    let mut devices = Vec::new();
    for d in &opts.devices {
        let mut rep = check_device(&objects, d);
        if let Some(o) = rep.selected.and_then(|i| objects.get(i)) {
            for stack in &opts.runtimes {
                rep.runtimes.push(check_runtime(stack, o, d.processor()));
            }
        }
        devices.push(rep);
    }
    let mut runtimes = Vec::new();
    if opts.devices.is_empty() {
        for o in &objects {
            let Ok(t) = &o.target else { continue };
            for stack in &opts.runtimes {
                runtimes.push(check_runtime(stack, o, t.processor));
            }
        }
    }
    Ok(Report {
        objects,
        devices,
        runtimes,
    })
}

/// Fuzz entry: run every check over arbitrary bytes; must never panic.
#[doc(hidden)]
pub fn fuzz_entry(data: &[u8]) {
    static OPTS: std::sync::OnceLock<CheckOptions> = std::sync::OnceLock::new();
    let opts = OPTS.get_or_init(|| CheckOptions {
        devices: ["gfx803", "gfx906:sramecc+:xnack-", "gfx1030"]
            .iter()
            .filter_map(|d| Device::parse(d).ok())
            .collect(),
        runtimes: ["llvm-offload-22+rocm-6.4", "rocm-7.2"]
            .iter()
            .filter_map(|r| RuntimeStack::parse(r).ok())
            .collect(),
    });
    if let Ok(r) = check(data, opts) {
        let _ = r.to_text();
        let _ = r.to_json();
    }
}
