//! The 64-byte kernel descriptor of code object v3 onwards (AMDGPUUsage, "Code Object
//! V3 Kernel Descriptor") and its register words.

use crate::{Error, Result};

/// Size in bytes of a kernel descriptor.
pub const KERNEL_DESCRIPTOR_SIZE: usize = 64;

/// Byte offsets of the kernel descriptor fields.
pub mod offset {
    /// `GROUP_SEGMENT_FIXED_SIZE` (u32).
    pub const GROUP_SEGMENT_FIXED_SIZE: usize = 0;
    /// `PRIVATE_SEGMENT_FIXED_SIZE` (u32).
    pub const PRIVATE_SEGMENT_FIXED_SIZE: usize = 4;
    /// `KERNARG_SIZE` (u32).
    pub const KERNARG_SIZE: usize = 8;
    /// Reserved, 4 bytes.
    pub const RESERVED0: usize = 12;
    /// `KERNEL_CODE_ENTRY_BYTE_OFFSET` (i64).
    pub const KERNEL_CODE_ENTRY_BYTE_OFFSET: usize = 16;
    /// Reserved, 20 bytes.
    pub const RESERVED1: usize = 24;
    /// `COMPUTE_PGM_RSRC3` (u32).
    pub const COMPUTE_PGM_RSRC3: usize = 44;
    /// `COMPUTE_PGM_RSRC1` (u32).
    pub const COMPUTE_PGM_RSRC1: usize = 48;
    /// `COMPUTE_PGM_RSRC2` (u32).
    pub const COMPUTE_PGM_RSRC2: usize = 52;
    /// The kernel code properties (u16).
    pub const KERNEL_CODE_PROPERTIES: usize = 56;
    /// `KERNARG_PRELOAD_SPEC_LENGTH` / `_OFFSET` (u16).
    pub const KERNARG_PRELOAD: usize = 58;
    /// Reserved, 4 bytes.
    pub const RESERVED3: usize = 60;
}

/// A kernel descriptor (`<kernel>.kd`), stored as its 64 raw bytes.
///
/// Accessors decode fields on demand; the meaning of some bits depends on the
/// processor (see [`super::KdTarget`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KernelDescriptor {
    bytes: [u8; KERNEL_DESCRIPTOR_SIZE],
}

impl std::fmt::Debug for KernelDescriptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KernelDescriptor")
            .field("group_segment_fixed_size", &self.group_segment_fixed_size())
            .field(
                "private_segment_fixed_size",
                &self.private_segment_fixed_size(),
            )
            .field("kernarg_size", &self.kernarg_size())
            .field(
                "kernel_code_entry_byte_offset",
                &self.kernel_code_entry_byte_offset(),
            )
            .field("compute_pgm_rsrc3", &self.compute_pgm_rsrc3())
            .field("compute_pgm_rsrc1", &self.compute_pgm_rsrc1())
            .field("compute_pgm_rsrc2", &self.compute_pgm_rsrc2())
            .field("kernel_code_properties", &self.kernel_code_properties())
            .field("kernarg_preload", &self.kernarg_preload())
            .finish()
    }
}

fn bits(word: u32, lo: u32, width: u32) -> u32 {
    (word >> lo) & ((1u32 << width) - 1)
}

impl KernelDescriptor {
    /// Parse the first 64 bytes of `data`. Fails if `data` is shorter; extra bytes are
    /// ignored.
    pub fn parse(data: &[u8]) -> Result<Self> {
        match data.get(..KERNEL_DESCRIPTOR_SIZE) {
            Some(head) => {
                let mut bytes = [0u8; KERNEL_DESCRIPTOR_SIZE];
                bytes.copy_from_slice(head);
                Ok(KernelDescriptor { bytes })
            }
            None => Err(Error::new(
                data.len() as u64,
                format!(
                    "kernel descriptor truncated: {} of {KERNEL_DESCRIPTOR_SIZE} bytes",
                    data.len()
                ),
            )),
        }
    }

    /// A descriptor from its 64 bytes.
    pub const fn from_bytes(bytes: [u8; KERNEL_DESCRIPTOR_SIZE]) -> Self {
        KernelDescriptor { bytes }
    }

    /// The 64 raw bytes.
    pub const fn as_bytes(&self) -> &[u8; KERNEL_DESCRIPTOR_SIZE] {
        &self.bytes
    }

    fn u16_at(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])
    }

    fn u32_at(&self, at: usize) -> u32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&self.bytes[at..at + 4]);
        u32::from_le_bytes(b)
    }

    /// `GROUP_SEGMENT_FIXED_SIZE`: fixed LDS bytes per work-group.
    pub fn group_segment_fixed_size(&self) -> u32 {
        self.u32_at(offset::GROUP_SEGMENT_FIXED_SIZE)
    }

    /// `PRIVATE_SEGMENT_FIXED_SIZE`: fixed scratch bytes per work-item.
    pub fn private_segment_fixed_size(&self) -> u32 {
        self.u32_at(offset::PRIVATE_SEGMENT_FIXED_SIZE)
    }

    /// `KERNARG_SIZE`: size of the kernarg segment in bytes (0: unspecified).
    pub fn kernarg_size(&self) -> u32 {
        self.u32_at(offset::KERNARG_SIZE)
    }

    /// Bits 127:96, reserved (must be 0).
    pub fn reserved0(&self) -> u32 {
        self.u32_at(offset::RESERVED0)
    }

    /// `KERNEL_CODE_ENTRY_BYTE_OFFSET`: byte offset (possibly negative) from the
    /// descriptor to the kernel entry point.
    pub fn kernel_code_entry_byte_offset(&self) -> i64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.bytes[16..24]);
        i64::from_le_bytes(b)
    }

    /// Bits 351:192, reserved (must be 0).
    pub fn reserved1(&self) -> &[u8; 20] {
        self.bytes[offset::RESERVED1..offset::COMPUTE_PGM_RSRC3]
            .try_into()
            .expect("20-byte slice")
    }

    /// `COMPUTE_PGM_RSRC3`.
    pub fn compute_pgm_rsrc3(&self) -> ComputePgmRsrc3 {
        ComputePgmRsrc3(self.u32_at(offset::COMPUTE_PGM_RSRC3))
    }

    /// `COMPUTE_PGM_RSRC1`.
    pub fn compute_pgm_rsrc1(&self) -> ComputePgmRsrc1 {
        ComputePgmRsrc1(self.u32_at(offset::COMPUTE_PGM_RSRC1))
    }

    /// `COMPUTE_PGM_RSRC2`.
    pub fn compute_pgm_rsrc2(&self) -> ComputePgmRsrc2 {
        ComputePgmRsrc2(self.u32_at(offset::COMPUTE_PGM_RSRC2))
    }

    /// The kernel code properties (bits 463:448).
    pub fn kernel_code_properties(&self) -> KernelCodeProperties {
        KernelCodeProperties(self.u16_at(offset::KERNEL_CODE_PROPERTIES))
    }

    /// The kernarg preload specification (bits 479:464).
    pub fn kernarg_preload(&self) -> KernargPreload {
        KernargPreload(self.u16_at(offset::KERNARG_PRELOAD))
    }

    /// Bits 511:480, reserved (must be 0).
    pub fn reserved3(&self) -> u32 {
        self.u32_at(offset::RESERVED3)
    }
}

macro_rules! field {
    ($(#[$doc:meta])* $name:ident, $lo:expr, $width:expr) => {
        $(#[$doc])*
        pub fn $name(&self) -> u32 {
            bits(self.0, $lo, $width)
        }
    };
}

macro_rules! flag {
    ($(#[$doc:meta])* $name:ident, $bit:expr) => {
        $(#[$doc])*
        pub fn $name(&self) -> bool {
            bits(self.0, $bit, 1) != 0
        }
    };
}

/// `COMPUTE_PGM_RSRC1` (AMDGPUUsage table "compute_pgm_rsrc1 for GFX6-GFX12").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComputePgmRsrc1(pub u32);

impl ComputePgmRsrc1 {
    field!(
        /// Bits 5:0 `GRANULATED_WORKITEM_VGPR_COUNT`.
        granulated_workitem_vgpr_count, 0, 6);
    field!(
        /// Bits 9:6 `GRANULATED_WAVEFRONT_SGPR_COUNT` (reserved on GFX10+).
        granulated_wavefront_sgpr_count, 6, 4);
    field!(
        /// Bits 11:10 `PRIORITY` (must be 0).
        priority, 10, 2);
    field!(
        /// Bits 13:12 `FLOAT_ROUND_MODE_32`.
        float_round_mode_32, 12, 2);
    field!(
        /// Bits 15:14 `FLOAT_ROUND_MODE_16_64`.
        float_round_mode_16_64, 14, 2);
    field!(
        /// Bits 17:16 `FLOAT_DENORM_MODE_32`.
        float_denorm_mode_32, 16, 2);
    field!(
        /// Bits 19:18 `FLOAT_DENORM_MODE_16_64`.
        float_denorm_mode_16_64, 18, 2);
    flag!(
        /// Bit 20 `PRIV` (must be 0).
        priv_, 20);
    flag!(
        /// Bit 21 `ENABLE_DX10_CLAMP` (GFX6-GFX11).
        enable_dx10_clamp, 21);
    flag!(
        /// Bit 21 `WG_RR_EN` (GFX12: round-robin wavefront scheduling).
        wg_rr_en, 21);
    flag!(
        /// Bit 22 `DEBUG_MODE` (must be 0).
        debug_mode, 22);
    flag!(
        /// Bit 23 `ENABLE_IEEE_MODE` (GFX6-GFX11).
        enable_ieee_mode, 23);
    flag!(
        /// Bit 23 `DISABLE_PERF` (GFX12, reserved).
        disable_perf, 23);
    flag!(
        /// Bit 24 `BULKY` (must be 0).
        bulky, 24);
    flag!(
        /// Bit 25 `CDBG_USER` (must be 0).
        cdbg_user, 25);
    flag!(
        /// Bit 26 `FP16_OVFL` (GFX9+).
        fp16_ovfl, 26);
    flag!(
        /// Bit 27 `FLAT_SCRATCH_IS_NV` (GFX12.5).
        flat_scratch_is_nv, 27);
    flag!(
        /// Bit 29 `WGP_MODE` (GFX10+).
        wgp_mode, 29);
    flag!(
        /// Bit 30 `MEM_ORDERED` (GFX10+).
        mem_ordered, 30);
    flag!(
        /// Bit 31 `FWD_PROGRESS` (GFX10+).
        fwd_progress, 31);
}

/// `COMPUTE_PGM_RSRC2` (AMDGPUUsage table "compute_pgm_rsrc2 for GFX6-GFX12").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComputePgmRsrc2(pub u32);

impl ComputePgmRsrc2 {
    flag!(
        /// Bit 0 `ENABLE_PRIVATE_SEGMENT` (scratch wave offset SGPR, or the
        /// FLAT_SCRATCH setup with architected flat scratch).
        enable_private_segment, 0);
    field!(
        /// Bits 5:1 `USER_SGPR_COUNT` (GFX6-GFX12.0).
        user_sgpr_count, 1, 5);
    field!(
        /// Bits 6:1 `USER_SGPR_COUNT` (GFX12.5).
        user_sgpr_count_gfx125, 1, 6);
    flag!(
        /// Bit 6 `ENABLE_TRAP_HANDLER` (GFX6-GFX11, must be 0) / `ENABLE_DYNAMIC_VGPR`
        /// (GFX12.0).
        enable_trap_handler, 6);
    flag!(
        /// Bit 7 `ENABLE_SGPR_WORKGROUP_ID_X`.
        enable_sgpr_workgroup_id_x, 7);
    flag!(
        /// Bit 8 `ENABLE_SGPR_WORKGROUP_ID_Y`.
        enable_sgpr_workgroup_id_y, 8);
    flag!(
        /// Bit 9 `ENABLE_SGPR_WORKGROUP_ID_Z`.
        enable_sgpr_workgroup_id_z, 9);
    flag!(
        /// Bit 10 `ENABLE_SGPR_WORKGROUP_INFO`.
        enable_sgpr_workgroup_info, 10);
    field!(
        /// Bits 12:11 `ENABLE_VGPR_WORKITEM_ID` (0: X, 1: X Y, 2: X Y Z).
        enable_vgpr_workitem_id, 11, 2);
    flag!(
        /// Bit 13 `ENABLE_EXCEPTION_ADDRESS_WATCH` (must be 0).
        enable_exception_address_watch, 13);
    flag!(
        /// Bit 14 `ENABLE_EXCEPTION_MEMORY` (must be 0).
        enable_exception_memory, 14);
    field!(
        /// Bits 23:15 `GRANULATED_LDS_SIZE` (must be 0).
        granulated_lds_size, 15, 9);
    flag!(
        /// Bit 24 `ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION`.
        enable_exception_ieee_754_fp_invalid_operation, 24);
    flag!(
        /// Bit 25 `ENABLE_EXCEPTION_FP_DENORMAL_SOURCE`.
        enable_exception_fp_denormal_source, 25);
    flag!(
        /// Bit 26 `ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO`.
        enable_exception_ieee_754_fp_division_by_zero, 26);
    flag!(
        /// Bit 27 `ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW`.
        enable_exception_ieee_754_fp_overflow, 27);
    flag!(
        /// Bit 28 `ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW`.
        enable_exception_ieee_754_fp_underflow, 28);
    flag!(
        /// Bit 29 `ENABLE_EXCEPTION_IEEE_754_FP_INEXACT`.
        enable_exception_ieee_754_fp_inexact, 29);
    flag!(
        /// Bit 30 `ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO`.
        enable_exception_int_divide_by_zero, 30);
    flag!(
        /// Bit 31: reserved (GFX6-GFX11), `WGP_TAKEOVER` in the GFX12 table.
        bit31, 31);
}

/// `COMPUTE_PGM_RSRC3`; its layout depends on the processor family (AMDGPUUsage tables
/// "compute_pgm_rsrc3 for GFX90A, GFX940", "... GFX10-GFX11", "... GFX12"). Before
/// GFX90A it is reserved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComputePgmRsrc3(pub u32);

impl ComputePgmRsrc3 {
    field!(
        /// GFX90A/GFX940: bits 5:0 `ACCUM_OFFSET` (first AccVGPR is `(value + 1) * 4`).
        accum_offset, 0, 6);
    flag!(
        /// GFX90A/GFX940: bit 16 `TG_SPLIT`.
        tg_split, 16);
    field!(
        /// GFX10-GFX11: bits 3:0 `SHARED_VGPR_COUNT`.
        shared_vgpr_count, 0, 4);
    field!(
        /// GFX11: bits 9:4 `INST_PREF_SIZE` (granularity 128 bytes).
        inst_pref_size_gfx11, 4, 6);
    field!(
        /// GFX12: bits 11:4 `INST_PREF_SIZE` (granularity 128 bytes).
        inst_pref_size_gfx12, 4, 8);
    flag!(
        /// GFX11: bit 10 `TRAP_ON_START`.
        trap_on_start, 10);
    flag!(
        /// GFX11: bit 11 `TRAP_ON_END`.
        trap_on_end, 11);
    flag!(
        /// GFX12: bit 13 `GLG_EN` (group launch guarantee).
        glg_en, 13);
    field!(
        /// GFX12.5: bits 16:14 `NAMED_BAR_CNT` (granularity 4).
        named_bar_cnt, 14, 3);
    flag!(
        /// GFX12.5: bit 17 `ENABLE_DYNAMIC_VGPR`.
        enable_dynamic_vgpr, 17);
    field!(
        /// GFX12.5: bits 20:18 `TCP_SPLIT`.
        tcp_split, 18, 3);
    flag!(
        /// GFX12.5: bit 21 `ENABLE_DIDT_THROTTLE`.
        enable_didt_throttle, 21);
    flag!(
        /// GFX11-GFX12: bit 31 `IMAGE_OP`.
        image_op, 31);
}

/// The kernel code properties: bits 463:448 of the descriptor (16 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelCodeProperties(pub u16);

macro_rules! kcp_flag {
    ($(#[$doc:meta])* $name:ident, $bit:expr) => {
        $(#[$doc])*
        pub fn $name(&self) -> bool {
            (self.0 >> $bit) & 1 != 0
        }
    };
}

impl KernelCodeProperties {
    kcp_flag!(
        /// Bit 0 `ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER`.
        enable_sgpr_private_segment_buffer, 0);
    kcp_flag!(
        /// Bit 1 `ENABLE_SGPR_DISPATCH_PTR`.
        enable_sgpr_dispatch_ptr, 1);
    kcp_flag!(
        /// Bit 2 `ENABLE_SGPR_QUEUE_PTR`.
        enable_sgpr_queue_ptr, 2);
    kcp_flag!(
        /// Bit 3 `ENABLE_SGPR_KERNARG_SEGMENT_PTR`.
        enable_sgpr_kernarg_segment_ptr, 3);
    kcp_flag!(
        /// Bit 4 `ENABLE_SGPR_DISPATCH_ID`.
        enable_sgpr_dispatch_id, 4);
    kcp_flag!(
        /// Bit 5 `ENABLE_SGPR_FLAT_SCRATCH_INIT`.
        enable_sgpr_flat_scratch_init, 5);
    kcp_flag!(
        /// Bit 6 `ENABLE_SGPR_PRIVATE_SEGMENT_SIZE`.
        enable_sgpr_private_segment_size, 6);
    kcp_flag!(
        /// Bit 10 `ENABLE_WAVEFRONT_SIZE32` (GFX10+).
        enable_wavefront_size32, 10);
    kcp_flag!(
        /// Bit 11 `USES_DYNAMIC_STACK` (code object v5 onwards).
        uses_dynamic_stack, 11);

    /// The number of user SGPRs the enabled inputs take (4 for the private segment
    /// buffer, 2 for each pointer and the dispatch id and flat scratch init, 1 for
    /// the private segment size).
    pub fn user_sgprs(&self) -> u32 {
        let sizes = [4, 2, 2, 2, 2, 2, 1];
        (0..7)
            .filter(|&bit| (self.0 >> bit) & 1 != 0)
            .map(|bit| sizes[bit])
            .sum()
    }
}

/// The kernarg preload specification: bits 479:464 of the descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernargPreload(pub u16);

impl KernargPreload {
    /// Bits 6:0 `KERNARG_PRELOAD_SPEC_LENGTH`: dwords preloaded into user SGPRs.
    pub fn length(&self) -> u32 {
        u32::from(self.0 & 0x7f)
    }

    /// Bits 15:7 `KERNARG_PRELOAD_SPEC_OFFSET`: first preloaded dword.
    pub fn offset(&self) -> u32 {
        u32::from(self.0 >> 7)
    }
}
