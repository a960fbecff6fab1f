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

use hsaco_abi::{ArgDesc, HiddenArg, KernargLayout};
use hsaco_elf::elf::consts::{ET_REL, STT_OBJECT};
use hsaco_elf::kd::KernelDescriptor;
use hsaco_elf::metadata::{validate, CodeObjectMetadata, KernelMetadata};
use hsaco_elf::{CodeObject, DescriptorBytes, KernelSymbol, MetadataNote};
use hsaco_target::{Generation, Processor};

use crate::Problem;

/// What conformance learned besides problems: per kernel, the pre-gfx9 hidden
/// arguments the metadata lists.
pub(crate) struct Conformance {
    pub problems: Vec<Problem>,
    /// (kernel symbol name without `.kd`, hidden arguments)
    pub hidden: Vec<(String, Vec<HiddenArg>)>,
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
    for note in co.elf.notes() {
        if let Err(e) = note {
            problems.push(err(
                "note-malformed",
                format!("a note record is malformed: {e}"),
                "the loader reads the metadata from the notes; a broken record hides it",
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
                "code object v3+ loaders find kernels and their arguments in it",
            ));
        }
        return Conformance { problems, hidden };
    };
    match hsaco_elf::msgpack::decode_prefix(desc) {
        Ok((value, _)) => {
            for f in validate(&value, version) {
                problems.push(err(
                    "metadata-schema",
                    format!("metadata {f}"),
                    "AMDGPUUsage \"Code Object Metadata\" for this code object version",
                ));
            }
        }
        Err(e) => {
            problems.push(err(
                "metadata-unreadable",
                format!("the metadata note is not valid MessagePack: {e}"),
                "the loader cannot read the kernels' metadata",
            ));
            return Conformance { problems, hidden };
        }
    }
    let Ok(md) = CodeObjectMetadata::from_msgpack(desc) else {
        return Conformance { problems, hidden };
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
                    "AMDGPUUsage: the kernel descriptor symbol is an STT_OBJECT",
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
            problems.push(err(
                "kernarg-layout",
                format!("{label}: {p}"),
                "the runtime writes hidden arguments at the offsets the ABI fixes for the version",
            ));
        }
        let h: Vec<HiddenArg> = args
            .iter()
            .filter_map(|a| HiddenArg::from_value_kind(a.value_kind))
            .filter(|h| h.is_pre_gfx9_only())
            .collect();
        hidden.push((name.clone(), h));
        // the descriptor
        let Some(sym) = kernels.iter().find(|s| s.name == name) else {
            problems.push(err(
                "kernel-symbol-missing",
                format!("{label}: the metadata names it, but there is no {name}.kd symbol"),
                "the loader finds the kernel descriptor through the .kd symbol",
            ));
            continue;
        };
        check_descriptor(&mut problems, &label, sym, k, processor, is_rel);
    }
    Conformance { problems, hidden }
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
                "the loader copies the 64-byte descriptor into the dispatch",
            ));
        }
        return;
    };
    if sym.symbol_size != 64 {
        problems.push(err(
            "kd-symbol-size",
            format!(
                "{label}: the .kd symbol has size {}, not 64",
                sym.symbol_size
            ),
            "a kernel descriptor is 64 bytes",
        ));
    }
    if address % 64 != 0 {
        problems.push(err(
            "kd-alignment",
            format!("{label}: the descriptor is at {address:#x}, not 64-byte aligned"),
            "AMDGPUUsage: kernel descriptors must be 64-byte aligned",
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
                "AMDGPUUsage: kernel code must be 256-byte aligned",
            ));
        }
    }
    let same =
        |code: &'static str, what: &str, kd_value: u64, md: Option<u64>| -> Option<Problem> {
            let md = md?;
            (md != kd_value).then(|| {
                err(
                code,
                format!("{label}: the descriptor says {what} {kd_value}, the metadata {md}"),
                "the runtime sizes the dispatch from one and the kernel was built for the other",
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
                "the hardware runs the descriptor's wave size; code built for the other misbehaves",
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
                "registers past the allocation belong to other waves",
            ));
        }
    }
    if p.has_accum_offset() {
        if let Some(vgprs) = k.vgpr_count {
            let accum = (u64::from(kd.compute_pgm_rsrc3().accum_offset()) + 1) * 4;
            let agprs = k.agpr_count.unwrap_or(0);
            if agprs == 0 && accum > vgprs.max(4).next_multiple_of(4) {
                // without AGPRs the first AccVGPR lies right after the VGPRs
                problems.push(Problem::warning(
                    "kd-accum-offset",
                    format!("{label}: ACCUM_OFFSET {accum} is past the {vgprs} VGPRs and the kernel uses no AGPRs"),
                    "LLVM places the first AccVGPR after the last architected VGPR".into(),
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
            "the hardware loads USER_SGPR_COUNT user SGPRs; enabled inputs past it are not loaded",
        ));
    }
}
