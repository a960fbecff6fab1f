//! Conformance of one code object (v3+): notes, metadata schema, kernarg layout,
//! descriptors against the metadata and the target, symbols and alignment.
//!
//! Rules, from AMDGPUUsage ("Code Object Metadata", "Kernel Descriptor",
//! "Symbols"): a kernel descriptor is 64 bytes, 64-byte aligned, named
//! `<kernel>.kd`; kernel code is 256-byte aligned; the descriptor's kernarg size
//! and fixed LDS/private sizes are the metadata's; `ENABLE_WAVEFRONT_SIZE32`
//! agrees with `.wavefront_size`; the granulated VGPR count allocates at least
//! `.vgpr_count` registers; `USER_SGPR_COUNT` covers the user SGPRs the
//! descriptor enables plus preloaded kernargs.
//!
//! # Severity: what a loader or runtime does with the object
//!
//! A finding is an **error** only where a runtime (ROCr's loader with ROCm's
//! CLR for HIP and OpenCL, or the LLVM offload plugin) refuses the object or runs
//! it wrongly, a **warning** where the outcome depends on the runtime or is
//! risky, and a **note** for a departure from AMDGPUUsage that nothing acts on.
//! Each rule, with the behaviour that sets its severity (the metadata keys in
//! detail at [`KeyUse`] and [`schema_problem`]):
//!
//! | code | severity | what the runtimes do |
//! |---|---|---|
//! | `note-malformed` | error | comgr and the loaders walk the note records; a broken one hides the metadata after it and CLR finds no kernel |
//! | `metadata-missing` | error | CLR and the offload plugin find kernels and their argument layout only in the metadata |
//! | `metadata-unreadable` | error | comgr refuses the document: no kernel |
//! | `metadata-key-version` | note | keys are read by name whatever the version, or skipped; clang-15 writes `.uses_dynamic_stack` at v3/v4 |
//! | `metadata-value-kind-version` | warning | a v5 argument kind in v3/v4 metadata: filled by CLR of ROCm 5.x+, unknown to older runtimes |
//! | `metadata-missing-key`, `metadata-bad-value` | error / warning / note | by key: launched with / read for limits and reports / read by nothing (`.agpr_count`, which clang-13/-14 leave out for gfx90a at v4) |
//! | `metadata-version` | note | the runtimes take the version from the ELF header |
//! | `metadata-schema` | warning | a code object version AMDGPUUsage does not describe |
//! | `kernarg-layout` | error (warning for a kind of a later version) | CLR writes each argument at its metadata offset and size |
//! | `kd-symbol-type` | error | ROCr registers v3+ kernels from their `.kd` data symbols |
//! | `kernel-symbol-missing` | error | CLR finds the descriptor through the `.kd` symbol |
//! | `kd-unreadable` | error | the packet processor reads the 64 bytes the dispatch points at |
//! | `kd-symbol-size` | warning | loaders read 64 bytes whatever the size; tools that go by size skip it |
//! | `kd-alignment` | warning | required by AMDGPUUsage; how the packet processor reads a misaligned one is undocumented |
//! | `entry-alignment` | error | COMPUTE_PGM_LO/HI hold the entry in 256-byte units |
//! | `kd-kernarg-size`, `kd-lds-size`, `kd-private-size` | error | CLR sizes the dispatch from the metadata, ROCr and the offload plugin from the descriptor |
//! | `kd-wave-size` | error | the hardware runs the descriptor's wave size |
//! | `kd-vgpr-count` | error | the hardware allocates the descriptor's count |
//! | `kd-accum-offset` | note | with no AGPR in use nothing reads the split |
//! | `kd-reserved-sgpr-count` | note | GFX10+ hardware ignores GRANULATED_WAVEFRONT_SGPR_COUNT; clang-13 to -19 fill it in |
//! | `kd-user-sgpr-count` | error | the hardware loads only USER_SGPR_COUNT user SGPRs |

use hsaco_abi::{ArgDesc, HiddenArg, KernargLayout};
use hsaco_elf::elf::consts::{ET_REL, STT_OBJECT};
use hsaco_elf::kd::KernelDescriptor;
use hsaco_elf::metadata::{validate, CodeObjectMetadata, KernelMetadata};
use hsaco_elf::{CodeObject, DescriptorBytes, KernelSymbol, MetadataNote};
use hsaco_target::{Generation, Processor};

use crate::code::KernelAbi;
use crate::Problem;

/// What conformance learned besides problems: per kernel, the pre-gfx9 hidden
/// arguments the metadata lists.
pub(crate) struct Conformance {
    pub problems: Vec<Problem>,
    /// (kernel symbol name without `.kd`, hidden arguments)
    pub hidden: Vec<(String, Vec<HiddenArg>)>,
    /// Per kernel, what the code lints need from the metadata and descriptor.
    pub abi: Vec<KernelAbi>,
}

fn err(code: &'static str, what: String, why: &str) -> Problem {
    Problem::error(code, what, why.to_string(), None)
}

pub(crate) fn check_object(
    co: &CodeObject<'_>,
    version: u32,
    processor: Option<&'static Processor>,
    kernels: &[KernelSymbol<'_>],
) -> Conformance {
    let mut problems = Vec::new();
    let mut hidden = Vec::new();
    let mut abi = Vec::new();
    for note in co.elf.notes() {
        if let Err(e) = note {
            problems.push(err(
                "note-malformed",
                format!("a note record is malformed: {e}"),
                "comgr (for CLR) and the loaders walk the note records to find the metadata and the target; a broken record hides the records after it, and CLR then finds no kernel",
            ));
            break;
        }
    }
    let desc = match co.metadata_note() {
        Ok(Some(MetadataNote::MsgPack { desc, .. })) => Some(desc),
        Ok(Some(MetadataNote::Yaml { .. })) | Ok(None) | Err(_) => None,
    };
    let Some(desc) = desc else {
        if version >= 3 {
            problems.push(err(
                "metadata-missing",
                "no NT_AMDGPU_METADATA note".into(),
                "CLR (HIP, OpenCL) and the LLVM offload plugin find the kernels, their names and argument layouts in it; without it no kernel can be launched by name",
            ));
        }
        return Conformance {
            problems,
            hidden,
            abi,
        };
    };
    match hsaco_elf::msgpack::decode_prefix(desc) {
        Ok((value, _)) => {
            for f in validate(&value, version) {
                problems.push(schema_problem(&f, version));
            }
        }
        Err(e) => {
            problems.push(err(
                "metadata-unreadable",
                format!("the metadata note is not valid MessagePack: {e}"),
                "comgr refuses the document, so CLR finds no kernel in the code object",
            ));
            return Conformance {
                problems,
                hidden,
                abi,
            };
        }
    }
    let Ok(md) = CodeObjectMetadata::from_msgpack(desc) else {
        return Conformance {
            problems,
            hidden,
            abi,
        };
    };
    let is_rel = co.elf.e_type().0 == ET_REL;
    // .kd symbols are data objects (AMDGPUUsage "Symbols": STT_OBJECT)
    for table in [co.elf.symtab(), co.elf.dynsym()]
        .into_iter()
        .flatten()
        .flatten()
    {
        for sym in table.iter().flatten() {
            if sym.name.ends_with(b".kd") && !sym.is_undefined() && sym.st_type().0 != STT_OBJECT {
                problems.push(err(
                    "kd-symbol-type",
                    format!(
                        "symbol {} has type {}, not STT_OBJECT",
                        sym.name_str(),
                        sym.st_type()
                    ),
                    "ROCr's loader registers a code object v3+ kernel from its `<name>.kd` data symbol (AMDGPUUsage: STT_OBJECT); under another type the kernel is not found",
                ));
            }
        }
    }
    for (i, k) in md.kernels.iter().flatten().enumerate() {
        let name = k
            .symbol
            .as_deref()
            .map(|s| s.strip_suffix(".kd").unwrap_or(s))
            .or(k.name.as_deref())
            .unwrap_or("")
            .to_string();
        let label = if name.is_empty() {
            format!("kernel #{i}")
        } else {
            format!("kernel {name}")
        };
        // kernarg layout and hidden arguments
        let args: Vec<ArgDesc<'_>> = k
            .args
            .iter()
            .flatten()
            .filter_map(|a| {
                Some(ArgDesc {
                    name: a.name.as_deref(),
                    type_name: a.type_name.as_deref(),
                    value_kind: a.value_kind.as_deref()?,
                    offset: a.offset?,
                    size: a.size?,
                })
            })
            .collect();
        let layout = KernargLayout::new(&args, version, k.kernarg_segment_size.unwrap_or(0));
        for p in &layout.problems {
            problems.push(if p.later_version {
                // the same fact as metadata-value-kind-version, seen from the layout
                Problem::warning(
                    "kernarg-layout",
                    format!("{label}: {p}"),
                    "CLR of ROCm 5.x and later fills the hidden arguments it knows by kind whatever the version; an older runtime does not fill this one".into(),
                    None,
                )
            } else {
                err(
                    "kernarg-layout",
                    format!("{label}: {p}"),
                    "CLR writes each argument at the offset and size the metadata gives it (and the v5 hidden arguments at the offsets the ABI fixes): overlapping or misplaced arguments reach the kernel as the wrong values",
                )
            });
        }
        let h: Vec<HiddenArg> = args
            .iter()
            .filter_map(|a| HiddenArg::from_value_kind(a.value_kind))
            .filter(|h| h.is_pre_gfx9_only())
            .collect();
        hidden.push((name.clone(), h));
        abi.push(KernelAbi {
            name: name.clone(),
            implicit_base: implicit_base(&args),
            listed: args
                .iter()
                .filter_map(|a| HiddenArg::from_value_kind(a.value_kind))
                .collect(),
            kernarg_sgpr: kernels
                .iter()
                .find(|s| s.name == name)
                .and_then(|s| kernarg_sgpr(&s.descriptor)),
        });
        // the descriptor
        let Some(sym) = kernels.iter().find(|s| s.name == name) else {
            problems.push(err(
                "kernel-symbol-missing",
                format!("{label}: the metadata names it, but there is no {name}.kd symbol"),
                "CLR finds the kernel descriptor through the .kd symbol the metadata names (ROCr's executable symbol); without it the launch fails with an invalid device function",
            ));
            continue;
        };
        check_descriptor(&mut problems, &label, sym, k, processor, is_rel);
    }
    Conformance {
        problems,
        hidden,
        abi,
    }
}

fn check_descriptor(
    problems: &mut Vec<Problem>,
    label: &str,
    sym: &KernelSymbol<'_>,
    k: &KernelMetadata,
    processor: Option<&'static Processor>,
    is_rel: bool,
) {
    let Ok(DescriptorBytes::V3 { bytes, address, .. }) = &sym.descriptor else {
        if let Err(e) = &sym.descriptor {
            problems.push(err(
                "kd-unreadable",
                format!("{label}: the descriptor cannot be read: {e}"),
                "the dispatch packet points at the 64-byte descriptor, which the packet processor reads: a descriptor outside the file's data is garbage to it",
            ));
        }
        return;
    };
    if sym.symbol_size != 64 {
        // Warning: the loaders read the descriptor's fixed 64 bytes at the
        // symbol whatever its size; tools that recognize descriptors by their size
        // (debuggers, instrumentation) pass it by.
        problems.push(Problem::warning(
            "kd-symbol-size",
            format!(
                "{label}: the .kd symbol has size {}, not 64",
                sym.symbol_size
            ),
            "a kernel descriptor is 64 bytes; the loaders read 64 bytes at the symbol whatever its size, but tools that recognize descriptors by their size skip this one".into(),
            None,
        ));
    }
    if address % 64 != 0 {
        // Warning: AMDGPUUsage requires the alignment; what the packet
        // processor does with a misaligned kernel_object is not documented.
        problems.push(Problem::warning(
            "kd-alignment",
            format!("{label}: the descriptor is at {address:#x}, not 64-byte aligned"),
            "AMDGPUUsage requires kernel descriptors to be 64-byte aligned; how the packet processor reads a misaligned one is not documented, so the outcome depends on the hardware and firmware".into(),
            None,
        ));
    }
    let Ok(kd) = KernelDescriptor::parse(bytes) else {
        return;
    };
    if !is_rel {
        let entry = (*address as i128) + i128::from(kd.kernel_code_entry_byte_offset());
        if entry % 256 != 0 {
            problems.push(err(
                "entry-alignment",
                format!("{label}: the kernel code starts at {entry:#x}, not 256-byte aligned"),
                "the packet processor loads the entry into COMPUTE_PGM_LO/HI, which hold the address in 256-byte units (AMDGPUUsage): the kernel starts at the wrong instruction",
            ));
        }
    }
    let same = |code: &'static str,
                what: &str,
                kd_value: u64,
                md: Option<u64>|
     -> Option<Problem> {
        let md = md?;
        (md != kd_value).then(|| {
                err(
                code,
                format!("{label}: the descriptor says {what} {kd_value}, the metadata {md}"),
                "CLR sizes the dispatch from the metadata, ROCr's symbol queries and the LLVM offload plugin from the descriptor: one of them sets up a dispatch the kernel was not built for",
            )
            })
    };
    problems.extend(same(
        "kd-kernarg-size",
        "kernarg size",
        u64::from(kd.kernarg_size()),
        k.kernarg_segment_size,
    ));
    problems.extend(same(
        "kd-lds-size",
        "group segment (LDS) size",
        u64::from(kd.group_segment_fixed_size()),
        k.group_segment_fixed_size,
    ));
    problems.extend(same(
        "kd-private-size",
        "private segment size",
        u64::from(kd.private_segment_fixed_size()),
        k.private_segment_fixed_size,
    ));
    let kcp = kd.kernel_code_properties();
    let wave = if kcp.enable_wavefront_size32() {
        32
    } else {
        64
    };
    if let Some(w) = k.wavefront_size {
        if w != u64::from(wave) {
            problems.push(err(
                "kd-wave-size",
                format!("{label}: the descriptor selects wave{wave}, the metadata says wave{w}"),
                "the hardware runs the descriptor's wave size, while CLR plans work-groups with the metadata's; code built for the other wave size misbehaves",
            ));
        }
    }
    let Some(p) = processor else { return };
    if let (Some(granule), Some(vgprs)) = (p.vgpr_encoding_granule(wave), k.vgpr_count) {
        let allocated = (u64::from(kd.compute_pgm_rsrc1().granulated_workitem_vgpr_count()) + 1)
            * u64::from(granule);
        if allocated < vgprs {
            problems.push(err(
                "kd-vgpr-count",
                format!(
                    "{label}: the descriptor allocates {allocated} VGPRs, the metadata says the kernel uses {vgprs}"
                ),
                "the hardware allocates the descriptor's VGPR count; registers past the allocation belong to other waves",
            ));
        }
    }
    if p.is_gfx10_plus() {
        let sgprs = kd.compute_pgm_rsrc1().granulated_wavefront_sgpr_count();
        if sgprs != 0 {
            // Note: GFX10+ hardware gives every wave its full SGPR file and ignores
            // the field; clang-13 to -19 still fill it in (LLVM 22's llvm-objdump
            // refuses to decode such a descriptor: reserved bits set)
            problems.push(Problem::note(
                "kd-reserved-sgpr-count",
                format!("{label}: GRANULATED_WAVEFRONT_SGPR_COUNT is {sgprs}, a reserved field on {}", p.name),
                "AMDGPUUsage reserves COMPUTE_PGM_RSRC1 bits 9:6 on GFX10+ (must be 0): the hardware allocates SGPRs without it, so nothing reads it (clang-13 to -19 write the gfx9-style count there; clang-22 writes 0)".into(),
                None,
            ));
        }
    }
    if p.has_accum_offset() {
        if let Some(vgprs) = k.vgpr_count {
            let accum = (u64::from(kd.compute_pgm_rsrc3().accum_offset()) + 1) * 4;
            let agprs = k.agpr_count.unwrap_or(0);
            if agprs == 0 && accum > vgprs.max(4).next_multiple_of(4) {
                // without AGPRs the first AccVGPR lies right after the VGPRs
                // Note: with no AGPR in use nothing reads the split; only the
                // register file between the VGPRs and ACCUM_OFFSET is unused.
                problems.push(Problem::note(
                    "kd-accum-offset",
                    format!("{label}: ACCUM_OFFSET {accum} is past the {vgprs} VGPRs and the kernel uses no AGPRs"),
                    "LLVM places the first AccVGPR right after the last architected VGPR; a kernel without AGPRs never reads past the split, so nothing goes wrong".into(),
                    None,
                ));
            }
        }
    }
    let rsrc2 = kd.compute_pgm_rsrc2();
    let count = if p.generation == Generation::Gfx125 {
        rsrc2.user_sgpr_count_gfx125()
    } else {
        rsrc2.user_sgpr_count()
    };
    let enabled = kcp.user_sgprs() + kd.kernarg_preload().length();
    if count < enabled {
        problems.push(err(
            "kd-user-sgpr-count",
            format!("{label}: USER_SGPR_COUNT is {count}, but the enabled inputs and preloaded kernargs take {enabled}"),
            "the hardware loads USER_SGPR_COUNT user SGPRs; enabled inputs past it are not loaded and the kernel reads garbage",
        ));
    }
}

/// How a runtime uses a metadata key (code object v3+), which decides how much a
/// missing or malformed value matters.
///
/// What the runtimes read, as established from their sources (facts in words):
/// - ROCm's CLR (HIP and OpenCL) reads the metadata through comgr, walking each
///   kernel's map with a callback that looks every key up in its own table of the
///   keys it uses (`.symbol`, `.kernarg_segment_size`, `.group_segment_fixed_size`,
///   `.private_segment_fixed_size`, `.kernarg_segment_align`, `.wavefront_size`,
///   `.sgpr_count`, `.vgpr_count`, `.max_flat_workgroup_size`, the spill counts,
///   `.reqd_workgroup_size`, `.workgroup_size_hint`, `.vec_type_hint`,
///   `.device_enqueue_symbol`, `.kind`, `.workgroup_processor_mode`, ...) and
///   finds kernels by `.name`, their arguments in `.args` (offset, size, kind).
///   Its callback refuses keys it does not know, but comgr's
///   `amd_comgr_iterate_map_metadata` ignores the callback's status and visits
///   every entry (ROCm/clr `rocclr/device/devkernel.cpp`, ROCm/llvm-project
///   `amd/comgr/src/comgr.cpp`): unknown keys are skipped, absent ones keep
///   CLR's default of 0.
/// - CLR sizes the kernarg buffer, the dispatch packet's group and private
///   segment sizes and the launch limits from these values, so a missing one
///   makes the dispatch wrong; the register counts are only reported to the
///   application (`hipFuncGetAttributes`, `clGetKernelWorkGroupInfo`).
/// - ROCr's loader takes the kernel's resources from the 64-byte descriptor and
///   the target from `e_flags`, not from the metadata; the LLVM offload plugin
///   does the same and reads a few keys (name, register and spill counts) for
///   its own reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyUse {
    /// A runtime launches with it: wrong or absent, the dispatch is wrong or
    /// the kernel is not found.
    Launch,
    /// A runtime reads it for limits, hints or reports to the application:
    /// absent or malformed, the outcome depends on the runtime.
    Reported,
    /// No runtime is known to read it.
    Unread,
}

fn key_use(key: &str) -> KeyUse {
    match key {
        "amdhsa.kernels"
        | ".name"
        | ".symbol"
        | ".args"
        | ".kernarg_segment_size"
        | ".group_segment_fixed_size"
        | ".private_segment_fixed_size"
        | ".wavefront_size"
        | ".max_flat_workgroup_size"
        | ".size"
        | ".offset"
        | ".value_kind" => KeyUse::Launch,
        "amdhsa.version"
        | "amdhsa.printf"
        | ".kernarg_segment_align"
        | ".sgpr_count"
        | ".vgpr_count"
        | ".sgpr_spill_count"
        | ".vgpr_spill_count"
        | ".reqd_workgroup_size"
        | ".workgroup_size_hint"
        | ".vec_type_hint"
        | ".device_enqueue_symbol"
        | ".kind"
        | ".workgroup_processor_mode"
        | ".uniform_work_group_size"
        | ".uses_dynamic_stack"
        | ".address_space"
        | ".access"
        | ".actual_access"
        | ".pointee_align"
        | ".is_const"
        | ".is_restrict"
        | ".is_volatile"
        | ".is_pipe" => KeyUse::Reported,
        _ => KeyUse::Unread,
    }
}

/// A metadata schema finding as a problem, its severity from what the runtimes
/// do with the key (see [`KeyUse`]).
///
/// - `metadata-key-version` (note): a key AMDGPUUsage introduces in a later
///   code object version. Runtimes read keys by name whatever the version
///   (CLR's table has no version in it) or skip them, so nothing refuses the
///   object. clang-15 (and ROCm 5.x's compilers) writes `.uses_dynamic_stack`
///   in code object v3 and v4 metadata.
/// - `metadata-value-kind-version` (warning): a code object v5 argument kind
///   in v3/v4 metadata. CLR of ROCm 5.x and later fills it by name; an older
///   CLR does not know the kind, its argument keeps the default "by value" kind
///   and counts as an explicit argument, so the argument list is off.
/// - `metadata-missing-key`: error for a key a runtime launches with (above);
///   warning for one it reads for limits or reports; note for one no runtime
///   reads. clang-13 and -14 leave `.agpr_count` out for gfx90a at v4
///   (AMDGPUUsage requires it for gfx90a), which CLR does not read.
/// - `metadata-bad-value`: the same scale by key; a map with a key twice or a
///   non-string key is an error (comgr's MessagePack reader refuses the document,
///   and with it every kernel).
/// - `metadata-version` (note): `amdhsa.version` differs from the version's;
///   the runtimes take the code object version from the ELF header.
fn schema_problem(f: &hsaco_elf::metadata::Finding, version: u32) -> Problem {
    use hsaco_elf::metadata::FindingKind as K;
    let what = format!("metadata {f}");
    let by_use = |code: &'static str, key: &str, absent: bool| -> Problem {
        let k = key.strip_prefix('.').unwrap_or(key);
        match key_use(key) {
            KeyUse::Launch => Problem::error(
                code,
                what.clone(),
                format!(
                    "CLR launches with `{k}` (kernel lookup, kernarg buffer, segment sizes or launch limits come from it); {} it, the kernel is not found or its dispatch is wrong",
                    if absent { "without" } else { "with a malformed" }
                ),
                None,
            ),
            KeyUse::Reported => Problem::warning(
                code,
                what.clone(),
                format!(
                    "CLR reads `{k}` for limits, hints or what it reports to the application; {} it falls back to 0 or its default, so the outcome depends on the runtime",
                    if absent { "without" } else { "with a malformed value" }
                ),
                None,
            ),
            KeyUse::Unread => Problem::note(
                code,
                what.clone(),
                format!("AMDGPUUsage \"Code Object V{version} Metadata\"; no runtime is known to act on `{k}` (CLR's metadata table has no entry for it; ROCr and the LLVM offload plugin take the kernel's resources from its descriptor, the plugin reading metadata at most for its launch reports)"),
                None,
            ),
        }
    };
    match f.kind {
        K::KeyFromLaterVersion { since, .. } => Problem::note(
            "metadata-key-version",
            what,
            format!("AMDGPUUsage adds this key in code object v{since}; runtimes read metadata keys by name whatever the version, or skip the ones they do not use, so nothing refuses the object (clang-15, like ROCm 5.x's compilers, writes .uses_dynamic_stack at v3 and v4)"),
            None,
        ),
        K::ValueKindFromLaterVersion => Problem::warning(
            "metadata-value-kind-version",
            what,
            "a code object v5 argument kind in older metadata: CLR of ROCm 5.x and later fills it by name, an older runtime does not know it and takes the argument for an explicit one".into(),
            None,
        ),
        K::MissingKey { key } => {
            let mut p = by_use("metadata-missing-key", key, true);
            if key == ".agpr_count" {
                p.why.push_str("; clang-13 and -14 leave it out for gfx90a at code object v4");
            }
            p
        }
        K::BadValue { key } => by_use("metadata-bad-value", key, false),
        K::BadMap => Problem::error(
            "metadata-bad-value",
            what,
            "comgr reads the note as a MessagePack document with string keys, each once; it refuses this one, and CLR finds no kernel in it".into(),
            None,
        ),
        K::MetadataVersion => Problem::note(
            "metadata-version",
            what,
            "runtimes take the code object version from the ELF header (EI_ABIVERSION), not from amdhsa.version".into(),
            None,
        ),
        K::UnknownVersion => Problem::warning(
            "metadata-schema",
            what,
            "a code object version AMDGPUUsage does not describe yet: whether a runtime loads it depends on the runtime".into(),
            None,
        ),
    }
}

/// Kernarg offset of the implicit-argument block: where the metadata's hidden
/// arguments say it starts, else after the explicit arguments (8-byte aligned).
fn implicit_base(args: &[ArgDesc<'_>]) -> Option<u64> {
    for a in args {
        if let Some(o) = HiddenArg::from_value_kind(a.value_kind).and_then(|h| h.v5_offset()) {
            if let Some(b) = a.offset.checked_sub(o) {
                return Some(b);
            }
        }
    }
    let end = args
        .iter()
        .filter(|a| !a.value_kind.starts_with("hidden_"))
        .filter_map(|a| a.offset.checked_add(a.size))
        .max()
        .unwrap_or(0);
    end.checked_next_multiple_of(8)
}

/// The first user SGPR of the kernarg segment pointer: after the private segment
/// buffer (4), dispatch pointer (2) and queue pointer (2) when enabled
/// (AMDGPUUsage "SGPR register set up order").
fn kernarg_sgpr(d: &Result<DescriptorBytes<'_>, hsaco_elf::Error>) -> Option<u8> {
    let Ok(DescriptorBytes::V3 { bytes, .. }) = d else {
        return None;
    };
    let kcp = KernelDescriptor::parse(bytes)
        .ok()?
        .kernel_code_properties();
    if !kcp.enable_sgpr_kernarg_segment_ptr() {
        return None;
    }
    let mut n = 0;
    if kcp.enable_sgpr_private_segment_buffer() {
        n += 4;
    }
    if kcp.enable_sgpr_dispatch_ptr() {
        n += 2;
    }
    if kcp.enable_sgpr_queue_ptr() {
        n += 2;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    //! Each metadata rule fires with the severity its runtime behaviour gives it
    //! (positive cases), on a document LLVM 22 wrote for gfx906 at v4 (or v5)
    //! with one key changed; the unchanged document gives no finding (negative).
    use super::*;
    use crate::Severity;
    use hsaco_elf::msgpack::{decode, Value};

    /// The pairs of a metadata map.
    type Pairs = Vec<(Value<'static>, Value<'static>)>;

    fn llvm_doc(file: &str) -> Vec<u8> {
        let path = format!("{}/tests/data/objects/{file}", env!("CARGO_MANIFEST_DIR"));
        let data = std::fs::read(path).unwrap();
        let co = CodeObject::parse(&data).unwrap();
        match co.metadata_note().unwrap() {
            Some(MetadataNote::MsgPack { desc, .. }) => desc.to_vec(),
            _ => panic!("{file}: no MessagePack metadata"),
        }
    }

    fn kernel_mut<'v, 'a>(doc: &'v mut Value<'a>) -> &'v mut Vec<(Value<'a>, Value<'a>)> {
        let Value::Map(root) = doc else { panic!() };
        let (_, kernels) = root
            .iter_mut()
            .find(|(k, _)| k.as_str() == Some("amdhsa.kernels"))
            .unwrap();
        let Value::Array(ks) = kernels else { panic!() };
        let Value::Map(k) = &mut ks[0] else { panic!() };
        k
    }

    fn findings(doc: &Value<'_>, version: u32) -> Vec<(Severity, &'static str)> {
        validate(doc, version)
            .iter()
            .map(|f| {
                let p = schema_problem(f, version);
                (p.severity, p.code)
            })
            .collect()
    }

    fn set(k: &mut Pairs, key: &'static str, v: Value<'static>) {
        k.retain(|(n, _)| n.as_str() != Some(key));
        k.push((Value::str_ref(key), v));
    }

    fn remove(k: &mut Pairs, key: &str) {
        k.retain(|(n, _)| n.as_str() != Some(key));
    }

    #[test]
    fn metadata_rules_follow_the_runtimes() {
        let bytes = llvm_doc("gfx906-cov4.co");
        let base: Value<'static> = decode(&bytes).unwrap().into_owned();
        assert_eq!(findings(&base, 4), []);
        let with = |f: &dyn Fn(&mut Pairs)| {
            let mut d = base.clone();
            f(kernel_mut(&mut d));
            findings(&d, 4)
        };
        // a v5 key at v4 (clang-15's .uses_dynamic_stack): note
        assert_eq!(
            with(&|k| set(k, ".uses_dynamic_stack", Value::Bool(false))),
            [(Severity::Note, "metadata-key-version")]
        );
        // a key CLR launches with, missing or malformed: error
        assert_eq!(
            with(&|k| remove(k, ".kernarg_segment_size")),
            [(Severity::Error, "metadata-missing-key")]
        );
        assert_eq!(
            with(&|k| set(k, ".wavefront_size", Value::UInt(48))),
            [(Severity::Error, "metadata-bad-value")]
        );
        // a key CLR only reports: warning
        assert_eq!(
            with(&|k| remove(k, ".sgpr_count")),
            [(Severity::Warning, "metadata-missing-key")]
        );
        // a key no runtime reads, malformed: note
        assert_eq!(
            with(&|k| set(k, ".language", Value::str_ref("Fortran"))),
            [(Severity::Note, "metadata-bad-value")]
        );
        // a key twice: comgr refuses the document: error
        assert_eq!(
            with(&|k| k.push((Value::str_ref(".name"), Value::str_ref("again")))),
            [(Severity::Error, "metadata-bad-value")]
        );
        // a v5 argument kind in v4 metadata: warning
        let v5_kind = with(&|k| {
            let (_, args) = k
                .iter_mut()
                .find(|(n, _)| n.as_str() == Some(".args"))
                .unwrap();
            let Value::Array(args) = args else { panic!() };
            let Value::Map(a) = &mut args[0] else {
                panic!()
            };
            set(a, ".value_kind", Value::str_ref("hidden_block_count_x"));
        });
        assert_eq!(
            v5_kind,
            [(Severity::Warning, "metadata-value-kind-version")]
        );
        // the metadata version of another code object version: note
        let mut d = base.clone();
        let Value::Map(root) = &mut d else { panic!() };
        set(
            root,
            "amdhsa.version",
            Value::Array(vec![Value::UInt(1), Value::UInt(0)]),
        );
        assert_eq!(findings(&d, 4), [(Severity::Note, "metadata-version")]);
    }

    #[test]
    fn agpr_count_missing_is_a_note() {
        // gfx90a requires .agpr_count (AMDGPUUsage); no runtime reads it
        let bytes = llvm_doc("gfx90a-xnack+-cov5.co");
        let base: Value<'static> = decode(&bytes).unwrap().into_owned();
        assert_eq!(findings(&base, 5), []);
        let mut d = base.clone();
        remove(kernel_mut(&mut d), ".agpr_count");
        assert_eq!(findings(&d, 5), [(Severity::Note, "metadata-missing-key")]);
    }
}
