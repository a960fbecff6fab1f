//! Printing rules of the RDNA generations (gfx10, gfx11, gfx12) that the gfx9 printer
//! does not have: special immediates (`s_waitcnt`, `s_delay_alu`, `s_waitcnt_depctr`,
//! `s_sendmsg`), learned from llvm-mc-22 used as a black box (see scripts/sweep.py).

use crate::desc::Ty;
use std::fmt::Write;

/// Print an immediate of a special syntax for an RDNA generation; false if `ty` is not
/// one of them.
pub(crate) fn imm(out: &mut String, generation: &str, processor: &str, ty: Ty, v: u32) -> bool {
    match ty {
        Ty::Hwreg => hwreg(out, processor, v),
        Ty::Waitcnt => waitcnt(out, generation, v),
        Ty::DelayAlu => delay_alu(out, v),
        Ty::Depctr => depctr(out, generation, processor, v),
        // gfx10 keeps the gfx9 layout (id, operation, stream)
        Ty::Sendmsg if generation == "gfx10" => crate::imm::sendmsg(out, v, generation),
        Ty::Sendmsg | Ty::SendmsgRtn => sendmsg(out, generation, processor, v),
        _ => return false,
    }
    true
}

/// `hwreg(NAME)` or `hwreg(NAME, offset, size)`; the register names per processor as
/// llvm-mc-22 prints them (ids without a name print as numbers).
fn hwreg(out: &mut String, processor: &str, v: u32) {
    let (id, offset, size) = (v & 0x3f, (v >> 6) & 0x1f, ((v >> 11) & 0x1f) + 1);
    let name = match (id, processor) {
        (1, "gfx1201" | "gfx1250") => "HW_REG_WAVE_MODE",
        (2, "gfx1201" | "gfx1250") => "HW_REG_WAVE_STATUS",
        (4, "gfx1201" | "gfx1250") => "HW_REG_WAVE_STATE_PRIV",
        (5, "gfx1201" | "gfx1250") => "HW_REG_WAVE_GPR_ALLOC",
        (6, "gfx1201" | "gfx1250") => "HW_REG_WAVE_LDS_ALLOC",
        (10, "gfx1201" | "gfx1250") => "HW_REG_PERF_SNAPSHOT_DATA",
        (11, "gfx1201" | "gfx1250") => "HW_REG_PERF_SNAPSHOT_PC_LO",
        (12, "gfx1201" | "gfx1250") => "HW_REG_PERF_SNAPSHOT_PC_HI",
        (15, "gfx1201" | "gfx1250") => "HW_REG_PERF_SNAPSHOT_DATA1",
        (16, "gfx1201" | "gfx1250") => "HW_REG_PERF_SNAPSHOT_DATA2",
        (17, "gfx1201" | "gfx1250") => "HW_REG_WAVE_EXCP_FLAG_PRIV",
        (18, "gfx1201" | "gfx1250") => "HW_REG_WAVE_EXCP_FLAG_USER",
        (19, "gfx1201" | "gfx1250") => "HW_REG_WAVE_TRAP_CTRL",
        (20, "gfx1201" | "gfx1250") => "HW_REG_WAVE_SCRATCH_BASE_LO",
        (21, "gfx1201" | "gfx1250") => "HW_REG_WAVE_SCRATCH_BASE_HI",
        (23, "gfx1201" | "gfx1250") => "HW_REG_WAVE_HW_ID1",
        (24, "gfx1201" | "gfx1250") => "HW_REG_WAVE_HW_ID2",
        (26, "gfx1201" | "gfx1250") => "HW_REG_WAVE_SCHED_MODE",
        (28, "gfx1250") => "HW_REG_IB_STS2",
        (29, "gfx1201" | "gfx1250") => "HW_REG_SHADER_CYCLES_LO",
        (30, "gfx1201" | "gfx1250") => "HW_REG_SHADER_CYCLES_HI",
        (31, "gfx1201" | "gfx1250") => "HW_REG_WAVE_DVGPR_ALLOC_LO",
        (32, "gfx1201" | "gfx1250") => "HW_REG_WAVE_DVGPR_ALLOC_HI",
        (33, "gfx1250") => "HW_REG_XNACK_STATE_PRIV",
        (34, "gfx1250") => "HW_REG_XNACK_MASK",
        (_, "gfx1201" | "gfx1250") => "",
        (1, _) => "HW_REG_MODE",
        (2, _) => "HW_REG_STATUS",
        (3, _) => "HW_REG_TRAPSTS",
        (5, _) => "HW_REG_GPR_ALLOC",
        (6, _) => "HW_REG_LDS_ALLOC",
        (7, _) => "HW_REG_IB_STS",
        (15, _) => "HW_REG_SH_MEM_BASES",
        (16, "gfx1010" | "gfx1030") => "HW_REG_TBA_LO",
        (17, "gfx1010" | "gfx1030") => "HW_REG_TBA_HI",
        (18, "gfx1010" | "gfx1030") => "HW_REG_TMA_LO",
        (19, "gfx1010" | "gfx1030") => "HW_REG_TMA_HI",
        (18, _) => "HW_REG_PERF_SNAPSHOT_PC_LO",
        (19, _) => "HW_REG_PERF_SNAPSHOT_PC_HI",
        (20, _) => "HW_REG_FLAT_SCR_LO",
        (21, _) => "HW_REG_FLAT_SCR_HI",
        (22, "gfx1010") => "HW_REG_XNACK_MASK",
        (23, _) => "HW_REG_HW_ID1",
        (24, _) => "HW_REG_HW_ID2",
        (25, "gfx1010" | "gfx1030") => "HW_REG_POPS_PACKER",
        (27, "gfx1100") => "HW_REG_PERF_SNAPSHOT_DATA",
        (29, "gfx1030" | "gfx1100") => "HW_REG_SHADER_CYCLES",
        _ => "",
    };
    // (gfx1201 and gfx1250 share the first arms; id 7 is HW_REG_IB_STS there too)
    let name = if name.is_empty() && id == 7 && matches!(processor, "gfx1201" | "gfx1250") {
        "HW_REG_IB_STS"
    } else {
        name
    };
    out.push_str("hwreg(");
    if name.is_empty() {
        let _ = write!(out, "{id}");
    } else {
        out.push_str(name);
    }
    if offset != 0 || size != 32 {
        let _ = write!(out, ", {offset}, {size}");
    }
    out.push(')');
}

fn waitcnt(out: &mut String, generation: &str, v: u32) {
    // (vmcnt, expcnt, lgkmcnt) and their all-ones values
    let (vm, exp, lgkm) = if generation == "gfx10" {
        (
            (v & 0xf) | ((v >> 14) & 3) << 4,
            (v >> 4) & 7,
            (v >> 8) & 0x3f,
        )
    } else {
        ((v >> 10) & 0x3f, v & 7, (v >> 4) & 0x3f)
    };
    let all = vm == 63 && exp == 7 && lgkm == 63;
    let mut sep = "";
    for (name, val, max) in [("vmcnt", vm, 63), ("expcnt", exp, 7), ("lgkmcnt", lgkm, 63)] {
        if val != max || all {
            let _ = write!(out, "{sep}{name}({val})");
            sep = " ";
        }
    }
}

fn delay_alu(out: &mut String, v: u32) {
    const ID: [&str; 12] = [
        "NO_DEP",
        "VALU_DEP_1",
        "VALU_DEP_2",
        "VALU_DEP_3",
        "VALU_DEP_4",
        "TRANS32_DEP_1",
        "TRANS32_DEP_2",
        "TRANS32_DEP_3",
        "FMA_ACCUM_CYCLE_1",
        "SALU_CYCLE_1",
        "SALU_CYCLE_2",
        "SALU_CYCLE_3",
    ];
    // (6 and 7 have no name: llvm-mc-22 prints them as invalid)
    const SKIP: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];
    let parts = [
        ("instid0", v & 0xf, &ID[..], "instid"),
        ("instskip", (v >> 4) & 7, &SKIP[..], "instskip"),
        ("instid1", (v >> 7) & 0xf, &ID[..], "instid"),
    ];
    let mut sep = "";
    for (name, val, names, what) in parts {
        if val == 0 {
            continue;
        }
        let _ = write!(out, "{sep}{name}(");
        match names.get(val as usize) {
            Some(n) => out.push_str(n),
            None => {
                let _ = write!(out, "/* invalid {what} value */");
            }
        }
        out.push(')');
        sep = " | ";
    }
    if sep.is_empty() {
        out.push('0');
    }
}

fn depctr(out: &mut String, generation: &str, processor: &str, v: u32) {
    // (name, lowest bit, width); all-ones is the default that is not printed
    let mut fields: &[(&str, u32, u32)] = &[
        ("hold_cnt", 7, 1),
        ("sa_sdst", 0, 1),
        ("va_vdst", 12, 4),
        ("va_sdst", 9, 3),
        ("va_ssrc", 8, 1),
        ("va_vcc", 1, 1),
        ("vm_vsrc", 2, 3),
    ];
    // bits no field covers must be zero for the symbolic form (observed)
    let mut unused = 0x60;
    // hold_cnt from gfx10.3 (gfx1010/gfx1013 have no such field)
    if generation == "gfx10" && processor != "gfx1030" {
        fields = &fields[1..];
        unused |= 0x80;
    }
    if v & unused != 0 || v > 0xffff {
        let _ = write!(out, "0x{v:x}");
        return;
    }
    let all = fields
        .iter()
        .all(|(_, lo, w)| (v >> lo) & ((1 << w) - 1) == (1 << w) - 1);
    let mut sep = "";
    for (name, lo, w) in fields {
        let x = (v >> lo) & ((1 << w) - 1);
        if x != (1 << w) - 1 || all {
            let _ = write!(out, "{sep}depctr_{name}({x})");
            sep = " ";
        }
    }
}

/// gfx11+ `sendmsg(NAME)`: an 8-bit message id, named per processor (other bits
/// ignored when it has a name); an unnamed id prints as `sendmsg(ID, 0, 0)`, or the
/// whole value as a number when bits above the id are set (checked on every 16-bit
/// value against llvm-mc-22).
fn sendmsg(out: &mut String, generation: &str, processor: &str, v: u32) {
    let gfx12 = generation == "gfx12";
    let gfx1250 = processor == "gfx1250";
    let name = match v & 0xff {
        1 => "MSG_INTERRUPT",
        2 => "MSG_HS_TESSFACTOR",
        3 => "MSG_DEALLOC_VGPRS",
        5 if !gfx12 => "MSG_STALL_WAVE_GEN",
        6 if !gfx12 => "MSG_HALT_WAVES",
        9 => "MSG_GS_ALLOC_REQ",
        0xa if gfx1250 => "MSG_SAVEWAVE_HAS_TDM",
        0x80 => "MSG_RTN_GET_DOORBELL",
        0x81 => "MSG_RTN_GET_DDID",
        0x82 => "MSG_RTN_GET_TMA",
        0x83 => "MSG_RTN_GET_REALTIME",
        0x84 => "MSG_RTN_SAVE_WAVE",
        0x85 => "MSG_RTN_GET_TBA",
        0x86 => "MSG_RTN_GET_TBA_TO_PC",
        0x87 if gfx12 => "MSG_RTN_GET_SE_AID_ID",
        0x88 if gfx1250 => "MSG_RTN_GET_CLUSTER_BARRIER_STATE",
        _ if v > 0xff => {
            let _ = write!(out, "{v}");
            return;
        }
        _ => {
            let _ = write!(out, "sendmsg({v}, 0, 0)");
            return;
        }
    };
    let _ = write!(out, "sendmsg({name})");
}

/// What llvm-mc-22 does with the neg/abs bits of source `i` (0 or 1) of a VOP1/VOP2/VOPC
/// instruction in DPP16 form (observed per opcode with single-bit probes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DppMods {
    /// Printed (`-v1`, `|v1|`).
    Print,
    /// Accepted but not printed (integer operands of an op with float modifiers,
    /// true16 halves of an op without them).
    Ignore,
    /// The word is invalid when a bit is set.
    Reject,
}

/// The neg/abs rule of source `i` of `op` in DPP16 form (gfx10+), from the op's
/// `dppig*`/`dpprej*` flags (scripts/sweep.py `dpp_facts`); a source the op does not
/// have takes no modifiers.
pub(crate) fn dpp_mods(op: &crate::desc::OpDesc, i: usize) -> DppMods {
    use crate::desc::flags;
    let (src, ignore, reject) = if i == 0 {
        (
            crate::Field::Src0,
            flags::DPP_IGNORE_MODS0,
            flags::DPP_REJECT_MODS0,
        )
    } else {
        (
            crate::Field::Src1,
            flags::DPP_IGNORE_MODS1,
            flags::DPP_REJECT_MODS1,
        )
    };
    if op.flags & reject != 0 || !op.has_field(src) {
        DppMods::Reject
    } else if op.flags & ignore != 0 {
        DppMods::Ignore
    } else {
        DppMods::Print
    }
}
/// `format:[BUF_FMT_*]` names of the gfx10 unified buffer format field (index = value;
/// higher values print as numbers), as llvm-mc-22 prints them.
pub(crate) const BUF_FMT_GFX10: &[&str] = &[
    "INVALID",
    "8_UNORM",
    "8_SNORM",
    "8_USCALED",
    "8_SSCALED",
    "8_UINT",
    "8_SINT",
    "16_UNORM",
    "16_SNORM",
    "16_USCALED",
    "16_SSCALED",
    "16_UINT",
    "16_SINT",
    "16_FLOAT",
    "8_8_UNORM",
    "8_8_SNORM",
    "8_8_USCALED",
    "8_8_SSCALED",
    "8_8_UINT",
    "8_8_SINT",
    "32_UINT",
    "32_SINT",
    "32_FLOAT",
    "16_16_UNORM",
    "16_16_SNORM",
    "16_16_USCALED",
    "16_16_SSCALED",
    "16_16_UINT",
    "16_16_SINT",
    "16_16_FLOAT",
    "10_11_11_UNORM",
    "10_11_11_SNORM",
    "10_11_11_USCALED",
    "10_11_11_SSCALED",
    "10_11_11_UINT",
    "10_11_11_SINT",
    "10_11_11_FLOAT",
    "11_11_10_UNORM",
    "11_11_10_SNORM",
    "11_11_10_USCALED",
    "11_11_10_SSCALED",
    "11_11_10_UINT",
    "11_11_10_SINT",
    "11_11_10_FLOAT",
    "10_10_10_2_UNORM",
    "10_10_10_2_SNORM",
    "10_10_10_2_USCALED",
    "10_10_10_2_SSCALED",
    "10_10_10_2_UINT",
    "10_10_10_2_SINT",
    "2_10_10_10_UNORM",
    "2_10_10_10_SNORM",
    "2_10_10_10_USCALED",
    "2_10_10_10_SSCALED",
    "2_10_10_10_UINT",
    "2_10_10_10_SINT",
    "8_8_8_8_UNORM",
    "8_8_8_8_SNORM",
    "8_8_8_8_USCALED",
    "8_8_8_8_SSCALED",
    "8_8_8_8_UINT",
    "8_8_8_8_SINT",
    "32_32_UINT",
    "32_32_SINT",
    "32_32_FLOAT",
    "16_16_16_16_UNORM",
    "16_16_16_16_SNORM",
    "16_16_16_16_USCALED",
    "16_16_16_16_SSCALED",
    "16_16_16_16_UINT",
    "16_16_16_16_SINT",
    "16_16_16_16_FLOAT",
    "32_32_32_UINT",
    "32_32_32_SINT",
    "32_32_32_FLOAT",
    "32_32_32_32_UINT",
    "32_32_32_32_SINT",
    "32_32_32_32_FLOAT",
];
/// `format:[BUF_FMT_*]` names of the gfx11+ unified buffer format field (index = value;
/// higher values print as numbers), as llvm-mc-22 prints them.
pub(crate) const BUF_FMT_GFX11: &[&str] = &[
    "INVALID",
    "8_UNORM",
    "8_SNORM",
    "8_USCALED",
    "8_SSCALED",
    "8_UINT",
    "8_SINT",
    "16_UNORM",
    "16_SNORM",
    "16_USCALED",
    "16_SSCALED",
    "16_UINT",
    "16_SINT",
    "16_FLOAT",
    "8_8_UNORM",
    "8_8_SNORM",
    "8_8_USCALED",
    "8_8_SSCALED",
    "8_8_UINT",
    "8_8_SINT",
    "32_UINT",
    "32_SINT",
    "32_FLOAT",
    "16_16_UNORM",
    "16_16_SNORM",
    "16_16_USCALED",
    "16_16_SSCALED",
    "16_16_UINT",
    "16_16_SINT",
    "16_16_FLOAT",
    "10_11_11_FLOAT",
    "11_11_10_FLOAT",
    "10_10_10_2_UNORM",
    "10_10_10_2_SNORM",
    "10_10_10_2_UINT",
    "10_10_10_2_SINT",
    "2_10_10_10_UNORM",
    "2_10_10_10_SNORM",
    "2_10_10_10_USCALED",
    "2_10_10_10_SSCALED",
    "2_10_10_10_UINT",
    "2_10_10_10_SINT",
    "8_8_8_8_UNORM",
    "8_8_8_8_SNORM",
    "8_8_8_8_USCALED",
    "8_8_8_8_SSCALED",
    "8_8_8_8_UINT",
    "8_8_8_8_SINT",
    "32_32_UINT",
    "32_32_SINT",
    "32_32_FLOAT",
    "16_16_16_16_UNORM",
    "16_16_16_16_SNORM",
    "16_16_16_16_USCALED",
    "16_16_16_16_SSCALED",
    "16_16_16_16_UINT",
    "16_16_16_16_SINT",
    "16_16_16_16_FLOAT",
    "32_32_32_UINT",
    "32_32_32_SINT",
    "32_32_32_FLOAT",
    "32_32_32_32_UINT",
    "32_32_32_32_SINT",
    "32_32_32_32_FLOAT",
];
