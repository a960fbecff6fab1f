//! `amd_kernel_code_t`: the 256-byte kernel header of code object v2 (and of the
//! Mesa/PAL triples), placed at the kernel's entry symbol, before its code.
//!
//! The layout below was established by assembling `.amd_kernel_code_t` blocks with
//! `llvm-mc-22 -triple=amdgcn-mesa-mesa3d` one key at a time and comparing the bytes;
//! the key names and their order are those of the assembler's own printout.

use std::fmt::Write as _;

use crate::{Error, Result};

/// Size in bytes of `amd_kernel_code_t`.
pub const AMD_KERNEL_CODE_SIZE: usize = 256;

/// How a key is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeFieldKind {
    /// A little-endian integer of `size` bytes at `offset`; printed signed if `signed`.
    Int {
        /// Byte offset.
        offset: u16,
        /// 1, 2, 4 or 8.
        size: u8,
        /// Printed as a two's complement signed number.
        signed: bool,
    },
    /// Bits `lo .. lo + width` of the little-endian 64-bit word at `offset`.
    Bits {
        /// Byte offset of the 64-bit word.
        offset: u16,
        /// Lowest bit.
        lo: u8,
        /// Number of bits.
        width: u8,
    },
}

/// One key of the `.amd_kernel_code_t` directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeField {
    /// The assembler key.
    pub name: &'static str,
    /// Where it is stored.
    pub kind: CodeFieldKind,
}

const fn int(name: &'static str, offset: u16, size: u8, signed: bool) -> CodeField {
    CodeField {
        name,
        kind: CodeFieldKind::Int {
            offset,
            size,
            signed,
        },
    }
}

const fn bits(name: &'static str, offset: u16, lo: u8, width: u8) -> CodeField {
    CodeField {
        name,
        kind: CodeFieldKind::Bits { offset, lo, width },
    }
}

/// Byte offset of `compute_pgm_resource_registers` (RSRC1 in the low half, RSRC2 in
/// the high half).
const PGM: u16 = 48;
/// Byte offset of the 32-bit `kernel_code_properties`.
const KCP: u16 = 56;

/// Every key the assembler accepts and prints, in its printing order.
///
/// The assembler prints 32- and 64-bit plain integers as signed numbers, except
/// `workitem_private_segment_byte_size`; 8- and 16-bit ones and bit-fields unsigned.
/// (llvm-mc 22 truncates 64-bit values to 32 bits when it prints them; we print them
/// whole, which it assembles back to the same bytes.)
pub static CODE_FIELDS: &[CodeField] = &[
    int("amd_code_version_major", 0, 4, true),
    int("amd_code_version_minor", 4, 4, true),
    int("amd_machine_kind", 8, 2, false),
    int("amd_machine_version_major", 10, 2, false),
    int("amd_machine_version_minor", 12, 2, false),
    int("amd_machine_version_stepping", 14, 2, false),
    int("kernel_code_entry_byte_offset", 16, 8, true),
    int("kernel_code_prefetch_byte_size", 32, 8, true),
    bits("granulated_workitem_vgpr_count", PGM, 0, 6),
    bits("granulated_wavefront_sgpr_count", PGM, 6, 4),
    bits("priority", PGM, 10, 2),
    bits("float_mode", PGM, 12, 8),
    bits("priv", PGM, 20, 1),
    bits("enable_dx10_clamp", PGM, 21, 1),
    bits("debug_mode", PGM, 22, 1),
    bits("enable_ieee_mode", PGM, 23, 1),
    bits("enable_wgp_mode", PGM, 29, 1),
    bits("enable_mem_ordered", PGM, 30, 1),
    bits("enable_fwd_progress", PGM, 31, 1),
    bits("enable_sgpr_private_segment_wave_byte_offset", PGM, 32, 1),
    bits("user_sgpr_count", PGM, 33, 5),
    bits("enable_trap_handler", PGM, 38, 1),
    bits("enable_sgpr_workgroup_id_x", PGM, 39, 1),
    bits("enable_sgpr_workgroup_id_y", PGM, 40, 1),
    bits("enable_sgpr_workgroup_id_z", PGM, 41, 1),
    bits("enable_sgpr_workgroup_info", PGM, 42, 1),
    bits("enable_vgpr_workitem_id", PGM, 43, 2),
    bits("enable_exception_msb", PGM, 45, 2),
    bits("granulated_lds_size", PGM, 47, 9),
    bits("enable_exception", PGM, 56, 7),
    bits("enable_sgpr_private_segment_buffer", KCP, 0, 1),
    bits("enable_sgpr_dispatch_ptr", KCP, 1, 1),
    bits("enable_sgpr_queue_ptr", KCP, 2, 1),
    bits("enable_sgpr_kernarg_segment_ptr", KCP, 3, 1),
    bits("enable_sgpr_dispatch_id", KCP, 4, 1),
    bits("enable_sgpr_flat_scratch_init", KCP, 5, 1),
    bits("enable_sgpr_private_segment_size", KCP, 6, 1),
    bits("enable_sgpr_grid_workgroup_count_x", KCP, 7, 1),
    bits("enable_sgpr_grid_workgroup_count_y", KCP, 8, 1),
    bits("enable_sgpr_grid_workgroup_count_z", KCP, 9, 1),
    bits("enable_wavefront_size32", KCP, 10, 1),
    bits("enable_ordered_append_gds", KCP, 16, 1),
    bits("private_element_size", KCP, 17, 2),
    bits("is_ptr64", KCP, 19, 1),
    bits("is_dynamic_callstack", KCP, 20, 1),
    bits("is_debug_enabled", KCP, 21, 1),
    bits("is_xnack_enabled", KCP, 22, 1),
    int("workitem_private_segment_byte_size", 60, 4, false),
    int("workgroup_group_segment_byte_size", 64, 4, true),
    int("gds_segment_byte_size", 68, 4, true),
    int("kernarg_segment_byte_size", 72, 8, true),
    int("workgroup_fbarrier_count", 80, 4, true),
    int("wavefront_sgpr_count", 84, 2, false),
    int("workitem_vgpr_count", 86, 2, false),
    int("reserved_vgpr_first", 88, 2, false),
    int("reserved_vgpr_count", 90, 2, false),
    int("reserved_sgpr_first", 92, 2, false),
    int("reserved_sgpr_count", 94, 2, false),
    int("debug_wavefront_private_segment_offset_sgpr", 96, 2, false),
    int("debug_private_segment_buffer_sgpr", 98, 2, false),
    int("kernarg_segment_alignment", 100, 1, false),
    int("group_segment_alignment", 101, 1, false),
    int("private_segment_alignment", 102, 1, false),
    int("wavefront_size", 103, 1, false),
    int("call_convention", 104, 4, true),
    int("runtime_loader_kernel_symbol", 120, 8, true),
];

/// Stored data that no assembler key can express: printed as comments.
static UNPRINTABLE: &[CodeField] = &[
    int("kernel_code_prefetch_byte_offset", 24, 8, true),
    int("max_scratch_backing_memory_byte_size", 40, 8, false),
    bits("compute_pgm_rsrc1_bulky", PGM, 24, 1),
    bits("compute_pgm_rsrc1_cdbg_user", PGM, 25, 1),
    bits("compute_pgm_rsrc1_fp16_ovfl", PGM, 26, 1),
    bits("compute_pgm_rsrc1_reserved_27_28", PGM, 27, 2),
    bits("compute_pgm_rsrc2_reserved_31", PGM, 63, 1),
    bits("kernel_code_properties_reserved_11_15", KCP, 11, 5),
    bits("kernel_code_properties_reserved_23_31", KCP, 23, 9),
];

/// An `amd_kernel_code_t`, stored as its 256 raw bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AmdKernelCode {
    bytes: [u8; AMD_KERNEL_CODE_SIZE],
}

impl std::fmt::Debug for AmdKernelCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("AmdKernelCode");
        for field in CODE_FIELDS {
            d.field(field.name, &self.raw(field));
        }
        d.finish()
    }
}

impl AmdKernelCode {
    /// Parse the first 256 bytes of `data`. Fails if `data` is shorter.
    pub fn parse(data: &[u8]) -> Result<Self> {
        match data.get(..AMD_KERNEL_CODE_SIZE) {
            Some(head) => {
                let mut bytes = [0u8; AMD_KERNEL_CODE_SIZE];
                bytes.copy_from_slice(head);
                Ok(AmdKernelCode { bytes })
            }
            None => Err(Error::new(
                data.len() as u64,
                format!(
                    "amd_kernel_code_t truncated: {} of {AMD_KERNEL_CODE_SIZE} bytes",
                    data.len()
                ),
            )),
        }
    }

    /// The 256 raw bytes.
    pub fn as_bytes(&self) -> &[u8; AMD_KERNEL_CODE_SIZE] {
        &self.bytes
    }

    fn le(&self, offset: u16, size: u8) -> u64 {
        let mut v = 0u64;
        for i in (0..usize::from(size)).rev() {
            v = (v << 8) | u64::from(self.bytes[usize::from(offset) + i]);
        }
        v
    }

    /// The raw (zero-extended) value of `field`.
    pub fn raw(&self, field: &CodeField) -> u64 {
        match field.kind {
            CodeFieldKind::Int { offset, size, .. } => self.le(offset, size),
            CodeFieldKind::Bits { offset, lo, width } => {
                let word = self.le(offset, 8);
                let mask = if width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                (word >> lo) & mask
            }
        }
    }

    /// The value of the key `name` (raw, zero-extended), or `None` for an unknown key.
    pub fn get(&self, name: &str) -> Option<u64> {
        CODE_FIELDS
            .iter()
            .find(|f| f.name == name)
            .map(|f| self.raw(f))
    }

    /// The value of `field` as the assembler prints it (signed where
    /// [`CodeFieldKind::Int::signed`]).
    pub fn value(&self, field: &CodeField) -> i128 {
        let raw = self.raw(field);
        match field.kind {
            CodeFieldKind::Int {
                size, signed: true, ..
            } => {
                let shift = 64 - 8 * u32::from(size);
                i128::from(((raw << shift) as i64) >> shift)
            }
            _ => i128::from(raw),
        }
    }

    /// `kernel_code_entry_byte_offset`: from this header to the first instruction.
    pub fn kernel_code_entry_byte_offset(&self) -> i64 {
        self.le(16, 8) as i64
    }

    /// `COMPUTE_PGM_RSRC1` (low half of `compute_pgm_resource_registers`).
    pub fn compute_pgm_rsrc1(&self) -> u32 {
        self.le(PGM, 4) as u32
    }

    /// `COMPUTE_PGM_RSRC2` (high half of `compute_pgm_resource_registers`).
    pub fn compute_pgm_rsrc2(&self) -> u32 {
        self.le(PGM + 4, 4) as u32
    }

    /// `kernel_code_properties` (32 bits).
    pub fn kernel_code_properties(&self) -> u32 {
        self.le(KCP, 4) as u32
    }

    /// Non-zero stored data that the assembler cannot express (reserved bits,
    /// `kernel_code_prefetch_byte_offset`, `max_scratch_backing_memory_byte_size`,
    /// the reserved bytes 108..120 and `control_directive` bytes 128..256), as
    /// (name, value); for byte ranges the value is the number of non-zero bytes.
    pub fn unprintable(&self) -> Vec<(&'static str, u64)> {
        let mut out: Vec<(&'static str, u64)> = UNPRINTABLE
            .iter()
            .map(|f| (f.name, self.raw(f)))
            .filter(|&(_, v)| v != 0)
            .collect();
        let count = |r: std::ops::Range<usize>| self.bytes[r].iter().filter(|&&b| b != 0).count();
        let reserved = count(108..120);
        if reserved != 0 {
            out.push(("reserved_bytes_108_119_nonzero", reserved as u64));
        }
        let control = count(128..256);
        if control != 0 {
            out.push(("control_directive_bytes_nonzero", control as u64));
        }
        out
    }

    /// The `.amd_kernel_code_t` ... `.end_amd_kernel_code_t` block, as
    /// `llvm-mc -triple=amdgcn-mesa-mesa3d` prints it (one tab before the directives,
    /// two before each `key = value`), every key present. Data no key can express is
    /// not shown: see [`Self::unprintable`].
    pub fn to_directive_text(&self) -> String {
        let mut o = String::with_capacity(4096);
        o.push_str("\t.amd_kernel_code_t\n");
        for field in CODE_FIELDS {
            let _ = writeln!(o, "\t\t{} = {}", field.name, self.value(field));
        }
        o.push_str("\t.end_amd_kernel_code_t\n");
        o
    }
}
