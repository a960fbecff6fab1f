//! PAL metadata as a reader wants it: each pipeline's hardware stages (entry point,
//! register counts, scratch and LDS sizes, ...) and its `.registers` map with the
//! register names LLVM prints beside them and, for `COMPUTE_PGM_RSRC1/2/3`, the
//! fields decoded.
//!
//! PAL code objects (`EI_OSABI` `ELFOSABI_AMDGPU_PAL`) carry their metadata as a
//! MessagePack map with an `amdpal.pipelines` array in an `NT_AMDGPU_METADATA` note
//! (`.amdgpu_pal_metadata` in assembly); older ones as `NT_AMD_PAL_METADATA`, a bare
//! list of (register, value) pairs (`.amd_amdgpu_pal_metadata`). Register keys are
//! dword offsets in the GPU's register space (`0x2e12` is `COMPUTE_PGM_RSRC1`).
//!
//! Sources: the register names are those `llvm-mc-22` prints in comments when it
//! echoes PAL metadata (`tests/data/pal/gen-register-names.sh` regenerates the table
//! from its output); the field layouts of `COMPUTE_PGM_RSRC1/2/3` are AMDGPUUsage's
//! kernel descriptor tables (the same registers), read through [`crate::kd`].
//!
//! ```
//! use hsaco_elf::metadata::pal::{self, PalMetadata};
//! use hsaco_elf::msgpack::{self, Value};
//! let stage = Value::Map(vec![
//!     (Value::str_ref(".entry_point"), Value::str_ref("_amdgpu_cs_main")),
//!     (Value::str_ref(".sgpr_count"), Value::UInt(7)),
//! ]);
//! let pipeline = Value::Map(vec![
//!     (Value::str_ref(".hardware_stages"), Value::Map(vec![(Value::str_ref(".cs"), stage)])),
//!     (Value::str_ref(".registers"), Value::Map(vec![(Value::UInt(0x2e12), Value::UInt(0xaf0041))])),
//! ]);
//! let doc = Value::Map(vec![(Value::str_ref("amdpal.pipelines"), Value::Array(vec![pipeline]))]);
//! let md = PalMetadata::from_msgpack(&msgpack::encode(&doc)).unwrap().unwrap();
//! let p = &md.pipelines[0];
//! assert_eq!(p.stages[0].stage, ".cs");
//! assert_eq!(p.stages[0].entry_point.as_deref(), Some("_amdgpu_cs_main"));
//! assert_eq!(p.registers[0].name, Some("COMPUTE_PGM_RSRC1"));
//! let gfx900 = hsaco_target::Processor::by_name("gfx900").unwrap();
//! let fields = p.registers[0].fields(Some(gfx900));
//! assert!(fields.iter().any(|f| f.name == "GRANULATED_WORKITEM_VGPR_COUNT" && f.value == 1));
//! assert_eq!(pal::register_name(0x2e13), Some("COMPUTE_PGM_RSRC2"));
//! ```

use super::pal_registers::PAL_REGISTER_NAMES;
use crate::kd::{ComputePgmRsrc1, ComputePgmRsrc2, ComputePgmRsrc3, KdTarget};
use crate::msgpack::{self, Value};
use crate::Result;
use hsaco_target::{Generation, Processor};

/// `COMPUTE_PGM_RSRC1`'s dword offset.
pub const COMPUTE_PGM_RSRC1: u32 = 0x2e12;
/// `COMPUTE_PGM_RSRC2`'s dword offset.
pub const COMPUTE_PGM_RSRC2: u32 = 0x2e13;
/// `COMPUTE_PGM_RSRC3`'s dword offset.
pub const COMPUTE_PGM_RSRC3: u32 = 0x2e28;

/// The PAL metadata of a code object.
#[derive(Clone, Debug, PartialEq)]
pub struct PalMetadata {
    /// `amdpal.version` (`[major, minor]`), when present.
    pub version: Option<Vec<u64>>,
    /// The pipelines of `amdpal.pipelines`.
    pub pipelines: Vec<PalPipeline>,
}

/// One element of `amdpal.pipelines`.
#[derive(Clone, Debug, PartialEq)]
pub struct PalPipeline {
    /// `.name`, when present.
    pub name: Option<String>,
    /// `.type`, when present (`Cs`, `VsPs`, ...).
    pub pipeline_type: Option<String>,
    /// `.hardware_stages`, in stored order.
    pub stages: Vec<HardwareStage>,
    /// `.registers`, in stored order.
    pub registers: Vec<PalRegister>,
    /// The other keys of the pipeline, as (key, value printed on one line).
    pub other: Vec<(String, String)>,
}

/// One hardware stage (`.cs`, `.ps`, `.vs`, `.gs`, `.hs`, `.es`, `.ls`).
#[derive(Clone, Debug, PartialEq)]
pub struct HardwareStage {
    /// The stage key, with its dot: `.cs`.
    pub stage: String,
    /// `.entry_point` (`_amdgpu_cs_main`).
    pub entry_point: Option<String>,
    /// `.entry_point_symbol` (the function's own symbol).
    pub entry_point_symbol: Option<String>,
    /// Every key of the stage (entry points included), in stored order, as (key,
    /// value printed on one line): `.sgpr_count`, `.vgpr_count`,
    /// `.scratch_memory_size`, `.lds_size`, `.wavefront_size`, ...
    pub properties: Vec<(String, String)>,
}

impl HardwareStage {
    /// A property by key (`.sgpr_count`), as printed.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// One register of `.registers` (or of an `NT_AMD_PAL_METADATA` note).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PalRegister {
    /// Dword offset.
    pub offset: u32,
    /// Value.
    pub value: u32,
    /// The name LLVM prints for it, if it has one.
    pub name: Option<&'static str>,
}

/// One decoded field of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterField {
    /// The field's name in AMDGPUUsage's spelling.
    pub name: &'static str,
    /// Its value.
    pub value: u32,
}

impl PalRegister {
    /// A register with its name looked up.
    pub fn new(offset: u32, value: u32) -> PalRegister {
        PalRegister {
            offset,
            value,
            name: register_name(offset),
        }
    }

    /// The decoded fields of `COMPUTE_PGM_RSRC1/2/3` for `processor` (its
    /// generation selects the layout; `None` gives the GFX6-GFX8 one); empty for
    /// other registers.
    pub fn fields(&self, processor: Option<&Processor>) -> Vec<RegisterField> {
        let target = processor.map(KdTarget::new);
        register_fields(self.offset, self.value, target.as_ref())
    }
}

/// The name LLVM 22 prints for the register at dword `offset`.
pub fn register_name(offset: u32) -> Option<&'static str> {
    PAL_REGISTER_NAMES
        .binary_search_by_key(&offset, |&(o, _)| o)
        .ok()
        .map(|i| PAL_REGISTER_NAMES[i].1)
}

/// The fields of `COMPUTE_PGM_RSRC1/2/3` (AMDGPUUsage's tables for the kernel
/// descriptor, which holds the same registers) for `target`'s layout.
fn register_fields(offset: u32, value: u32, target: Option<&KdTarget>) -> Vec<RegisterField> {
    let gfx9 = target.is_some_and(KdTarget::is_gfx9_plus);
    let gfx10 = target.is_some_and(KdTarget::is_gfx10_plus);
    let gfx12 = target.is_some_and(KdTarget::is_gfx12_plus);
    let generation = target.map(|t| t.generation);
    let f = |name: &'static str, value: u32| RegisterField { name, value };
    let b = |flag: bool| u32::from(flag);
    match offset {
        COMPUTE_PGM_RSRC1 => {
            let r = ComputePgmRsrc1(value);
            let mut v = vec![f(
                "GRANULATED_WORKITEM_VGPR_COUNT",
                r.granulated_workitem_vgpr_count(),
            )];
            if !gfx10 {
                v.push(f(
                    "GRANULATED_WAVEFRONT_SGPR_COUNT",
                    r.granulated_wavefront_sgpr_count(),
                ));
            }
            v.extend([
                f("PRIORITY", r.priority()),
                f("FLOAT_ROUND_MODE_32", r.float_round_mode_32()),
                f("FLOAT_ROUND_MODE_16_64", r.float_round_mode_16_64()),
                f("FLOAT_DENORM_MODE_32", r.float_denorm_mode_32()),
                f("FLOAT_DENORM_MODE_16_64", r.float_denorm_mode_16_64()),
                f("PRIV", b(r.priv_())),
            ]);
            if gfx12 {
                v.push(f("WG_RR_EN", b(r.wg_rr_en())));
            } else {
                v.push(f("ENABLE_DX10_CLAMP", b(r.enable_dx10_clamp())));
            }
            v.push(f("DEBUG_MODE", b(r.debug_mode())));
            if gfx12 {
                v.push(f("DISABLE_PERF", b(r.disable_perf())));
            } else {
                v.push(f("ENABLE_IEEE_MODE", b(r.enable_ieee_mode())));
            }
            v.extend([f("BULKY", b(r.bulky())), f("CDBG_USER", b(r.cdbg_user()))]);
            if gfx9 {
                v.push(f("FP16_OVFL", b(r.fp16_ovfl())));
            }
            if gfx10 {
                v.extend([
                    f("WGP_MODE", b(r.wgp_mode())),
                    f("MEM_ORDERED", b(r.mem_ordered())),
                    f("FWD_PROGRESS", b(r.fwd_progress())),
                ]);
            }
            v
        }
        COMPUTE_PGM_RSRC2 => {
            let r = ComputePgmRsrc2(value);
            vec![
                f("ENABLE_PRIVATE_SEGMENT", b(r.enable_private_segment())),
                f("USER_SGPR_COUNT", r.user_sgpr_count()),
                f("ENABLE_TRAP_HANDLER", b(r.enable_trap_handler())),
                f(
                    "ENABLE_SGPR_WORKGROUP_ID_X",
                    b(r.enable_sgpr_workgroup_id_x()),
                ),
                f(
                    "ENABLE_SGPR_WORKGROUP_ID_Y",
                    b(r.enable_sgpr_workgroup_id_y()),
                ),
                f(
                    "ENABLE_SGPR_WORKGROUP_ID_Z",
                    b(r.enable_sgpr_workgroup_id_z()),
                ),
                f(
                    "ENABLE_SGPR_WORKGROUP_INFO",
                    b(r.enable_sgpr_workgroup_info()),
                ),
                f("ENABLE_VGPR_WORKITEM_ID", r.enable_vgpr_workitem_id()),
                f(
                    "ENABLE_EXCEPTION_ADDRESS_WATCH",
                    b(r.enable_exception_address_watch()),
                ),
                f("ENABLE_EXCEPTION_MEMORY", b(r.enable_exception_memory())),
                f("GRANULATED_LDS_SIZE", r.granulated_lds_size()),
                f(
                    "ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION",
                    b(r.enable_exception_ieee_754_fp_invalid_operation()),
                ),
                f(
                    "ENABLE_EXCEPTION_FP_DENORMAL_SOURCE",
                    b(r.enable_exception_fp_denormal_source()),
                ),
                f(
                    "ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO",
                    b(r.enable_exception_ieee_754_fp_division_by_zero()),
                ),
                f(
                    "ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW",
                    b(r.enable_exception_ieee_754_fp_overflow()),
                ),
                f(
                    "ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW",
                    b(r.enable_exception_ieee_754_fp_underflow()),
                ),
                f(
                    "ENABLE_EXCEPTION_IEEE_754_FP_INEXACT",
                    b(r.enable_exception_ieee_754_fp_inexact()),
                ),
                f(
                    "ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO",
                    b(r.enable_exception_int_divide_by_zero()),
                ),
            ]
        }
        COMPUTE_PGM_RSRC3 => {
            let r = ComputePgmRsrc3(value);
            let gfx90a = target.is_some_and(|t| {
                t.generation == Generation::Gfx9 && !t.is_gfx10_plus() && {
                    let (_, minor, stepping) = t.version;
                    minor >= 4 || (minor == 0 && stepping == 10)
                }
            });
            match generation {
                Some(Generation::Gfx9) if gfx90a => vec![
                    f("ACCUM_OFFSET", r.accum_offset()),
                    f("TG_SPLIT", b(r.tg_split())),
                ],
                Some(Generation::Gfx10) => vec![f("SHARED_VGPR_COUNT", r.shared_vgpr_count())],
                Some(Generation::Gfx11) => vec![
                    f("SHARED_VGPR_COUNT", r.shared_vgpr_count()),
                    f("INST_PREF_SIZE", r.inst_pref_size_gfx11()),
                    f("TRAP_ON_START", b(r.trap_on_start())),
                    f("TRAP_ON_END", b(r.trap_on_end())),
                    f("IMAGE_OP", b(r.image_op())),
                ],
                Some(Generation::Gfx12) if gfx12 => vec![
                    f("INST_PREF_SIZE", r.inst_pref_size_gfx12()),
                    f("GLG_EN", b(r.glg_en())),
                    f("IMAGE_OP", b(r.image_op())),
                ],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

impl PalMetadata {
    /// The PAL view of an `NT_AMDGPU_METADATA` descriptor: `Ok(None)` when the
    /// document has no `amdpal.pipelines` (an HSA document), an error when it is not
    /// MessagePack.
    pub fn from_msgpack(desc: &[u8]) -> Result<Option<PalMetadata>> {
        let doc = msgpack::decode(desc)?;
        Ok(PalMetadata::from_document(&doc))
    }

    /// The PAL view of a decoded document (`None` without `amdpal.pipelines`).
    pub fn from_document(doc: &Value<'_>) -> Option<PalMetadata> {
        let pipelines = doc.get("amdpal.pipelines")?.as_array()?;
        let version = doc
            .get("amdpal.version")
            .and_then(Value::as_array)
            .map(|v| v.iter().filter_map(Value::as_u64).collect());
        Some(PalMetadata {
            version,
            pipelines: pipelines.iter().map(pipeline).collect(),
        })
    }

    /// The registers of an `NT_AMD_PAL_METADATA` note's (register, value) pairs.
    pub fn legacy_registers(pairs: impl Iterator<Item = (u32, u32)>) -> Vec<PalRegister> {
        pairs.map(|(r, v)| PalRegister::new(r, v)).collect()
    }
}

/// An `NT_AMD_PAL_METADATA` descriptor as `llvm-readelf --notes` prints it under
/// the note's header: `    AMD PAL Metadata:` and one line of `[register: value]`
/// pairs in decimal (llvm-readelf-22 on an object from `.amd_amdgpu_pal_metadata
/// 0x2e12, 0xaf0041`: `        [11794: 11468865]`). Bytes past the last whole pair
/// are left out.
pub fn readelf_legacy_block(desc: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::from("    AMD PAL Metadata:\n        ");
    for pair in desc.chunks_exact(8) {
        let r = u32::from_le_bytes([pair[0], pair[1], pair[2], pair[3]]);
        let v = u32::from_le_bytes([pair[4], pair[5], pair[6], pair[7]]);
        let _ = write!(s, "[{r}: {v}]");
    }
    s.push('\n');
    s
}

fn pipeline(v: &Value<'_>) -> PalPipeline {
    let mut p = PalPipeline {
        name: None,
        pipeline_type: None,
        stages: Vec::new(),
        registers: Vec::new(),
        other: Vec::new(),
    };
    for (k, value) in v.as_map().unwrap_or(&[]) {
        let key = one_line(k);
        match key.as_str() {
            ".hardware_stages" => {
                for (stage, props) in value.as_map().unwrap_or(&[]) {
                    let properties: Vec<(String, String)> = props
                        .as_map()
                        .unwrap_or(&[])
                        .iter()
                        .map(|(k, v)| (one_line(k), one_line(v)))
                        .collect();
                    let text =
                        |key: &str| props.get(key).and_then(Value::as_str).map(str::to_string);
                    p.stages.push(HardwareStage {
                        stage: one_line(stage),
                        entry_point: text(".entry_point"),
                        entry_point_symbol: text(".entry_point_symbol"),
                        properties,
                    });
                }
            }
            ".registers" => {
                for (r, value) in value.as_map().unwrap_or(&[]) {
                    match (r.as_u64(), value.as_u64()) {
                        (Some(r), Some(value)) => p.registers.push(PalRegister::new(
                            u32::try_from(r).unwrap_or(u32::MAX),
                            value as u32,
                        )),
                        _ => p
                            .other
                            .push((format!(".registers {}", one_line(r)), one_line(value))),
                    }
                }
            }
            ".name" => p.name = value.as_str().map(str::to_string),
            ".type" => p.pipeline_type = value.as_str().map(str::to_string),
            _ => p.other.push((key, one_line(value))),
        }
    }
    p
}

/// A value on one line: strings as they are, numbers in decimal, arrays and maps
/// in flow style.
fn one_line(v: &Value<'_>) -> String {
    match v {
        Value::Nil => "~".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float32(x) => x.to_string(),
        Value::Float64(x) => x.to_string(),
        Value::Str(s) => String::from_utf8_lossy(s).into_owned(),
        Value::Bin(b) => format!("<{} bytes>", b.len()),
        Value::Ext(t, b) => format!("<extension {t}, {} bytes>", b.len()),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(one_line).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", one_line(k), one_line(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_table_is_sorted_and_unique() {
        assert!(PAL_REGISTER_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(register_name(0x2e28), Some("COMPUTE_PGM_RSRC3"));
        assert_eq!(register_name(0x2c0a), Some("SPI_SHADER_PGM_RSRC1_PS"));
        assert_eq!(register_name(0xa1b3), Some("SPI_PS_INPUT_ENA"));
        assert_eq!(register_name(0x1234), None);
    }

    /// `COMPUTE_PGM_RSRC1 = 0xaf0041` and `RSRC2 = 0x8084` of clang-22's gfx900 PAL
    /// kernel `reverse_lds` (tests/data/pal). What LLVM says of them: the same
    /// kernel built for Mesa has the same RSRC1, and its `.amd_kernel_code_t` prints
    /// granulated_workitem_vgpr_count = 1, granulated_wavefront_sgpr_count = 1,
    /// float_mode = 240, enable_dx10_clamp = 1, enable_ieee_mode = 1; the PAL
    /// assembly's comments print `COMPUTE_PGM_RSRC2:USER_SGPR: 2` and `TGID_X_EN: 1`,
    /// and `LDSByteSize: 256` (GRANULATED_LDS_SIZE 1: one granule).
    #[test]
    fn compute_registers_decode_as_llvm_prints_them() {
        let gfx900 = Processor::by_name("gfx900").unwrap();
        let get = |r: PalRegister, name: &str| {
            r.fields(Some(gfx900))
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.value)
        };
        let r1 = PalRegister::new(COMPUTE_PGM_RSRC1, 0xaf0041);
        assert_eq!(get(r1, "GRANULATED_WORKITEM_VGPR_COUNT"), Some(1));
        assert_eq!(get(r1, "GRANULATED_WAVEFRONT_SGPR_COUNT"), Some(1));
        assert_eq!(get(r1, "FLOAT_DENORM_MODE_16_64"), Some(3));
        assert_eq!(get(r1, "ENABLE_DX10_CLAMP"), Some(1));
        assert_eq!(get(r1, "ENABLE_IEEE_MODE"), Some(1));
        let r2 = PalRegister::new(COMPUTE_PGM_RSRC2, 0x8084);
        assert_eq!(get(r2, "USER_SGPR_COUNT"), Some(2));
        assert_eq!(get(r2, "ENABLE_SGPR_WORKGROUP_ID_X"), Some(1));
        assert_eq!(get(r2, "GRANULATED_LDS_SIZE"), Some(1));
        // GFX10+: no SGPR count field; GFX12: WG_RR_EN instead of DX10 clamp
        let gfx1201 = Processor::by_name("gfx1201").unwrap();
        let names: Vec<_> = PalRegister::new(COMPUTE_PGM_RSRC1, 0xe00f0000)
            .fields(Some(gfx1201))
            .iter()
            .map(|f| f.name)
            .collect();
        assert!(!names.contains(&"GRANULATED_WAVEFRONT_SGPR_COUNT"));
        assert!(names.contains(&"WG_RR_EN") && !names.contains(&"ENABLE_DX10_CLAMP"));
        assert!(PalRegister::new(0x2c0a, 1).fields(Some(gfx900)).is_empty());
    }
}
