//! The AMDGPU layer over DWARF: register numbers, address spaces, address classes,
//! memory spaces, and the LLVM vendor extensions (`DW_OP_LLVM_*`, `DW_AT_LLVM_*`,
//! `DW_CC_LLVM_*`) that gimli does not name.
//!
//! Sources (facts only): AMDGPUUsage "DWARF Debug Information" (the register mapping
//! table, the address space, address class and memory space tables), the DWARF
//! extensions for heterogeneous debugging it links to, and, for the numeric codes the
//! spec text leaves out, what `llvm-dwarfdump-22` prints for hand-made objects that
//! hold each code (the probes are described in the crate's NOTES.md).

/// A DWARF register number of the AMDGPU mapping (AMDGPUUsage, "DWARF Register
/// Identifier").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DwarfRegister(pub u64);

/// What an AMDGPU DWARF register number stands for, per the spec's mapping table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmdgpuRegister {
    /// 0: the PC in a 32-bit process address space.
    Pc32,
    /// 1: EXEC in wavefront 32 mode.
    ExecMask32,
    /// 16: the PC in a 64-bit process address space.
    Pc64,
    /// 17: EXEC in wavefront 64 mode.
    ExecMask64,
    /// 32-95 and 1088-1129: SGPR0-SGPR105.
    Sgpr(u16),
    /// 128: the status register.
    Status,
    /// 512: VCC in wavefront 32 mode.
    Vcc32,
    /// 768: VCC in wavefront 64 mode.
    Vcc64,
    /// 1536-1791: VGPR0-VGPR255 in wavefront 32 mode.
    VgprWave32(u16),
    /// 2048-2303: AGPR0-AGPR255 in wavefront 32 mode.
    AgprWave32(u16),
    /// 2560-2815: VGPR0-VGPR255 in wavefront 64 mode.
    VgprWave64(u16),
    /// 3072-3327: AGPR0-AGPR255 in wavefront 64 mode.
    AgprWave64(u16),
}

impl DwarfRegister {
    /// The register the spec's mapping table gives this number, if any (reserved
    /// numbers give `None`).
    pub fn amdgpu(self) -> Option<AmdgpuRegister> {
        use AmdgpuRegister::*;
        let n = self.0;
        let i = |base: u64| (n - base) as u16;
        Some(match n {
            0 => Pc32,
            1 => ExecMask32,
            16 => Pc64,
            17 => ExecMask64,
            32..=95 => Sgpr(i(32)),
            128 => Status,
            512 => Vcc32,
            768 => Vcc64,
            1088..=1129 => Sgpr(i(1088) + 64),
            1536..=1791 => VgprWave32(i(1536)),
            2048..=2303 => AgprWave32(i(2048)),
            2560..=2815 => VgprWave64(i(2560)),
            3072..=3327 => AgprWave64(i(3072)),
            _ => return None,
        })
    }

    /// The name llvm-dwarfdump-22 prints for this number in an expression, if it
    /// names it: it knows the wavefront 64 numbering only (and names VGPR256-511 in
    /// the range the spec reserves after VGPR255), and leaves PC_32, STATUS, VCC and
    /// every wavefront 32 vector register unnamed (printed as a number).
    pub fn llvm_name(self) -> Option<String> {
        self.llvm_parts().map(|(prefix, i)| match i {
            Some(i) => format!("{prefix}{i}"),
            None => prefix.to_string(),
        })
    }

    /// [`Self::llvm_name`] as a prefix and the number after it, if any.
    fn llvm_parts(self) -> Option<(&'static str, Option<u64>)> {
        let n = self.0;
        Some(match n {
            1 => ("EXEC_LO", None),
            16 => ("PC_REG", None),
            17 => ("EXEC", None),
            32..=95 => ("SGPR", Some(n - 32)),
            1088..=1129 => ("SGPR", Some(n - 1088 + 64)),
            2560..=3071 => ("VGPR", Some(n - 2560)),
            3072..=3327 => ("AGPR", Some(n - 3072)),
            _ => return None,
        })
    }

    /// The spec's name for this number (wavefront 32 registers get a `_W32` suffix
    /// beside their wavefront 64 twins), if the table maps it.
    pub fn spec_name(self) -> Option<String> {
        self.amdgpu().map(|r| r.to_string())
    }
}

impl std::fmt::Display for AmdgpuRegister {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use AmdgpuRegister::*;
        match self {
            Pc32 => f.write_str("PC_32"),
            ExecMask32 => f.write_str("EXEC_MASK_32"),
            Pc64 => f.write_str("PC_64"),
            ExecMask64 => f.write_str("EXEC_MASK_64"),
            Sgpr(i) => write!(f, "SGPR{i}"),
            Status => f.write_str("STATUS"),
            Vcc32 => f.write_str("VCC_32"),
            Vcc64 => f.write_str("VCC_64"),
            VgprWave32(i) => write!(f, "VGPR{i}_W32"),
            AgprWave32(i) => write!(f, "AGPR{i}_W32"),
            VgprWave64(i) => write!(f, "VGPR{i}"),
            AgprWave64(i) => write!(f, "AGPR{i}"),
        }
    }
}

/// How registers are named in printed expressions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RegisterNames {
    /// As llvm-dwarfdump-22 names them (the default: output identical to it).
    #[default]
    Llvm,
    /// As the spec's mapping table names them (wavefront 32 registers included).
    Spec,
}

impl RegisterNames {
    /// The name of register `n`, if this naming has one.
    pub fn name(self, n: u64) -> Option<String> {
        match self {
            RegisterNames::Llvm => DwarfRegister(n).llvm_name(),
            RegisterNames::Spec => DwarfRegister(n).spec_name(),
        }
    }

    /// Appends the name of register `n` to `out` (as [`Self::name`] gives it, without
    /// a `String` of its own for the LLVM names, which the expressions of the `-g`
    /// corpus print by the thousand); false, nothing appended, when it has none.
    pub(crate) fn write_name(self, out: &mut Vec<u8>, n: u64) -> bool {
        match self {
            RegisterNames::Llvm => match DwarfRegister(n).llvm_parts() {
                Some((prefix, i)) => {
                    out.push_str(prefix);
                    if let Some(i) = i {
                        crate::text::dec(out, i);
                    }
                    true
                }
                None => false,
            },
            RegisterNames::Spec => match self.name(n) {
                Some(name) => {
                    out.push_str(&name);
                    true
                }
                None => false,
            },
        }
    }
}

/// `DW_OP_LLVM_user` (0xe9): the opcode under which LLVM encodes its vendor
/// operations, each as a ULEB128 sub-opcode after it (what llvm-dwarfdump-22
/// decodes).
pub const DW_OP_LLVM_USER: u8 = 0xe9;

/// How an operand of a `DW_OP_LLVM_*` operation is encoded (spec: "DWARF Expression
/// Operations" table of the heterogeneous debugging extensions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlvmOperand {
    /// ULEB128, printed in hex.
    Uleb,
    /// ULEB128 register number, printed as a register name.
    Register,
    /// ULEB128 byte displacement after a register (`DW_OP_LLVM_aspace_bregx`):
    /// printed `VGPR5+8` after a named register, `0x606 0x8` after a number.
    Displacement,
}

/// A `DW_OP_LLVM_*` operation of the spec: its name, its `DW_OP_LLVM_user`
/// sub-opcode, and its operands.
#[derive(Clone, Copy, Debug)]
pub struct LlvmOperation {
    /// `DW_OP_LLVM_...`
    pub name: &'static str,
    /// The ULEB128 after `DW_OP_LLVM_user`.
    pub sub_opcode: u64,
    /// The operands, in order.
    pub operands: &'static [LlvmOperand],
}

use crate::text::PushStr as _;
use LlvmOperand::*;

/// Every `DW_OP_LLVM_*` operation the spec defines and LLVM encodes, by sub-opcode.
/// `DW_OP_LLVM_aspace_implicit_pointer` is defined by the spec (a 4- or 8-byte DIE
/// offset and an SLEB128 displacement) but has no sub-opcode that llvm-dwarfdump-22
/// decodes, so it has none here ([`LLVM_OPERATIONS_WITHOUT_CODE`]).
pub const LLVM_OPERATIONS: &[LlvmOperation] = &[
    LlvmOperation {
        name: "DW_OP_LLVM_nop",
        sub_opcode: 1,
        operands: &[],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_form_aspace_address",
        sub_opcode: 2,
        operands: &[],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_push_lane",
        sub_opcode: 3,
        operands: &[],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_offset",
        sub_opcode: 4,
        operands: &[],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_offset_uconst",
        sub_opcode: 5,
        operands: &[Uleb],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_bit_offset",
        sub_opcode: 6,
        operands: &[],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_call_frame_entry_reg",
        sub_opcode: 7,
        operands: &[Register],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_undefined",
        sub_opcode: 8,
        operands: &[],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_aspace_bregx",
        sub_opcode: 9,
        operands: &[Register, Displacement],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_piece_end",
        sub_opcode: 10,
        operands: &[],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_extend",
        sub_opcode: 11,
        operands: &[Uleb, Uleb],
    },
    LlvmOperation {
        name: "DW_OP_LLVM_select_bit_piece",
        sub_opcode: 12,
        operands: &[Uleb, Uleb],
    },
];

/// Operations the spec defines for which no code is known (see [`LLVM_OPERATIONS`]).
pub const LLVM_OPERATIONS_WITHOUT_CODE: &[&str] = &["DW_OP_LLVM_aspace_implicit_pointer"];

/// The `DW_OP_LLVM_*` operation with this `DW_OP_LLVM_user` sub-opcode.
pub fn llvm_operation(sub_opcode: u64) -> Option<&'static LlvmOperation> {
    LLVM_OPERATIONS.iter().find(|o| o.sub_opcode == sub_opcode)
}

/// Vendor attribute names gimli does not know, by code: the heterogeneous debugging
/// attributes of the spec (`DW_AT_LLVM_memory_space` .. `DW_AT_LLVM_vector_size`) and
/// the other LLVM attributes llvm-dwarfdump-22 names in the same range.
pub const LLVM_ATTRIBUTES: &[(u16, &str)] = &[
    (0x3e00, "DW_AT_LLVM_include_path"),
    (0x3e01, "DW_AT_LLVM_config_macros"),
    (0x3e02, "DW_AT_LLVM_sysroot"),
    (0x3e03, "DW_AT_LLVM_tag_offset"),
    (0x3e04, "DW_AT_LLVM_ptrauth_key"),
    (0x3e05, "DW_AT_LLVM_ptrauth_address_discriminated"),
    (0x3e06, "DW_AT_LLVM_ptrauth_extra_discriminator"),
    (0x3e07, "DW_AT_LLVM_apinotes"),
    (0x3e08, "DW_AT_LLVM_ptrauth_isa_pointer"),
    (0x3e09, "DW_AT_LLVM_ptrauth_authenticates_null_values"),
    (0x3e0a, "DW_AT_LLVM_ptrauth_authentication_mode"),
    (0x3e0b, "DW_AT_LLVM_num_extra_inhabitants"),
    (0x3e0c, "DW_AT_LLVM_stmt_sequence"),
    (0x3e0d, "DW_AT_LLVM_coro_suspend_idx"),
    (0x3e0e, "DW_AT_LLVM_alloc_type"),
    (0x3e0f, "DW_AT_LLVM_memory_space"),
    (0x3e10, "DW_AT_LLVM_address_space"),
    (0x3e11, "DW_AT_LLVM_lanes"),
    (0x3e12, "DW_AT_LLVM_lane_pc"),
    (0x3e13, "DW_AT_LLVM_vector_size"),
];

/// Attributes the spec defines for which no code is known: llvm-dwarfdump-22 names
/// none of 0x3e00-0x3e1f or 0x3fe0-0x3fff so.
pub const LLVM_ATTRIBUTES_WITHOUT_CODE: &[&str] =
    &["DW_AT_LLVM_active_lane", "DW_AT_LLVM_augmentation"];

/// The name of vendor attribute `code` from [`LLVM_ATTRIBUTES`].
pub fn llvm_attribute(code: u16) -> Option<&'static str> {
    LLVM_ATTRIBUTES
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, n)| *n)
}

/// Calling conventions of the LLVM vendor range (0xc0-0xd0), as llvm-dwarfdump-22
/// names them; AMDGPU kernels use `DW_CC_LLVM_DeviceKernel` (0xc7).
pub fn llvm_calling_convention(code: u8) -> Option<&'static str> {
    Some(match code {
        0xc0 => "DW_CC_LLVM_vectorcall",
        0xc1 => "DW_CC_LLVM_Win64",
        0xc2 => "DW_CC_LLVM_X86_64SysV",
        0xc3 => "DW_CC_LLVM_AAPCS",
        0xc4 => "DW_CC_LLVM_AAPCS_VFP",
        0xc5 => "DW_CC_LLVM_IntelOclBicc",
        0xc6 => "DW_CC_LLVM_SpirFunction",
        0xc7 => "DW_CC_LLVM_DeviceKernel",
        0xc8 => "DW_CC_LLVM_Swift",
        0xc9 => "DW_CC_LLVM_PreserveMost",
        0xca => "DW_CC_LLVM_PreserveAll",
        0xcb => "DW_CC_LLVM_X86RegCall",
        0xcc => "DW_CC_LLVM_M68kRTD",
        0xcd => "DW_CC_LLVM_PreserveNone",
        0xce => "DW_CC_LLVM_RISCVVectorCall",
        0xcf => "DW_CC_LLVM_SwiftTail",
        0xd0 => "DW_CC_LLVM_RISCVVLSCall",
        _ => return None,
    })
}

/// DWARF address spaces of AMDGPU (AMDGPUUsage, "Address Space Identifier").
pub fn address_space_name(code: u64) -> Option<&'static str> {
    Some(match code {
        0 => "DW_ASPACE_LLVM_none",
        1 => "DW_ASPACE_AMDGPU_generic",
        2 => "DW_ASPACE_AMDGPU_region",
        3 => "DW_ASPACE_AMDGPU_local",
        5 => "DW_ASPACE_AMDGPU_private_lane",
        6 => "DW_ASPACE_AMDGPU_private_wave",
        _ => return None,
    })
}

/// DWARF address classes of AMDGPU (`DW_AT_address_class`, AMDGPUUsage).
pub fn address_class_name(code: u64) -> Option<&'static str> {
    Some(match code {
        0 => "DW_ADDR_none",
        1 => "DW_ADDR_AMDGPU_global",
        2 => "DW_ADDR_AMDGPU_region",
        3 => "DW_ADDR_AMDGPU_local",
        4 => "DW_ADDR_AMDGPU_constant",
        5 => "DW_ADDR_AMDGPU_private",
        _ => return None,
    })
}

/// DWARF memory spaces (`DW_AT_LLVM_memory_space`, AMDGPUUsage "Memory Space
/// Identifier").
pub fn memory_space_name(code: u64) -> Option<&'static str> {
    Some(match code {
        0 => "DW_MSPACE_LLVM_none",
        1 => "DW_MSPACE_LLVM_global",
        2 => "DW_MSPACE_LLVM_constant",
        3 => "DW_MSPACE_LLVM_group",
        4 => "DW_MSPACE_LLVM_private",
        0x8000 => "DW_MSPACE_AMDGPU_region",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // expected values: AMDGPUUsage's "AMDGPU DWARF Register Mapping" table
    #[test]
    fn spec_register_mapping() {
        let n = |r: u64| DwarfRegister(r).spec_name();
        assert_eq!(n(0).as_deref(), Some("PC_32"));
        assert_eq!(n(1).as_deref(), Some("EXEC_MASK_32"));
        assert_eq!(n(2), None);
        assert_eq!(n(16).as_deref(), Some("PC_64"));
        assert_eq!(n(17).as_deref(), Some("EXEC_MASK_64"));
        assert_eq!(n(32).as_deref(), Some("SGPR0"));
        assert_eq!(n(95).as_deref(), Some("SGPR63"));
        assert_eq!(n(96), None);
        assert_eq!(n(128).as_deref(), Some("STATUS"));
        assert_eq!(n(512).as_deref(), Some("VCC_32"));
        assert_eq!(n(768).as_deref(), Some("VCC_64"));
        assert_eq!(n(1088).as_deref(), Some("SGPR64"));
        assert_eq!(n(1129).as_deref(), Some("SGPR105"));
        assert_eq!(n(1130), None);
        assert_eq!(n(1536 + 42).as_deref(), Some("VGPR42_W32"));
        assert_eq!(n(2048 + 3).as_deref(), Some("AGPR3_W32"));
        assert_eq!(n(2560 + 42).as_deref(), Some("VGPR42"));
        assert_eq!(n(2816), None);
        assert_eq!(n(3072 + 255).as_deref(), Some("AGPR255"));
        assert_eq!(n(3328), None);
    }

    // expected values: what llvm-dwarfdump-22 prints for DW_OP_regx N (NOTES.md)
    #[test]
    fn llvm_register_names() {
        let n = |r: u64| DwarfRegister(r).llvm_name();
        assert_eq!(n(0), None);
        assert_eq!(n(1).as_deref(), Some("EXEC_LO"));
        assert_eq!(n(16).as_deref(), Some("PC_REG"));
        assert_eq!(n(17).as_deref(), Some("EXEC"));
        assert_eq!(n(65).as_deref(), Some("SGPR33"));
        assert_eq!(n(128), None);
        assert_eq!(n(1129).as_deref(), Some("SGPR105"));
        assert_eq!(n(1542), None);
        assert_eq!(n(2817).as_deref(), Some("VGPR257"));
        assert_eq!(n(3071).as_deref(), Some("VGPR511"));
        assert_eq!(n(3327).as_deref(), Some("AGPR255"));
        assert_eq!(n(3328), None);
    }

    #[test]
    fn llvm_operation_codes() {
        assert_eq!(
            llvm_operation(2).unwrap().name,
            "DW_OP_LLVM_form_aspace_address"
        );
        assert_eq!(
            llvm_operation(12).unwrap().name,
            "DW_OP_LLVM_select_bit_piece"
        );
        assert!(llvm_operation(0).is_none() && llvm_operation(13).is_none());
        assert_eq!(llvm_attribute(0x3e12), Some("DW_AT_LLVM_lane_pc"));
    }
}
