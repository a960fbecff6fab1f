//! [`Instruction`] -> text, as llvm-objdump prints it.

use crate::decode::{traits, Vop3Dpp};
use crate::desc::{flags, FieldKind, Form, Role, Ty};
use crate::imm::{dec, dec_signed, hex, sendmsg};
use crate::{Decoder, Field, Instruction, Operand};
use std::fmt::Write;

fn reg(out: &mut String, prefix: &str, first: u8, count: u8) {
    out.push_str(prefix);
    if count <= 1 {
        dec(out, u32::from(first));
    } else {
        let last = u32::from(first) + u32::from(count) - 1;
        out.push('[');
        dec(out, u32::from(first));
        out.push(':');
        dec(out, last);
        out.push(']');
    }
}

fn special(out: &mut String, code: u8, count: u8) {
    let pair = count >= 2;
    let name = match code {
        102 if pair => "flat_scratch",
        102 => "flat_scratch_lo",
        103 => "flat_scratch_hi",
        104 if pair => "xnack_mask",
        104 => "xnack_mask_lo",
        105 => "xnack_mask_hi",
        // 108-111: trap base and trap memory address before gfx9 (ttmp there since).
        108 if pair => "tba",
        108 => "tba_lo",
        109 => "tba_hi",
        110 if pair => "tma",
        110 => "tma_lo",
        111 => "tma_hi",
        106 if pair => "vcc",
        106 => "vcc_lo",
        107 => "vcc_hi",
        124 => "m0",
        125 => "null",
        126 if pair => "exec",
        126 => "exec_lo",
        127 => "exec_hi",
        230 => "src_flat_scratch_base_lo",
        231 => "src_flat_scratch_base_hi",
        235 => "src_shared_base",
        236 => "src_shared_limit",
        237 => "src_private_base",
        238 => "src_private_limit",
        239 => "src_pops_exiting_wave_id",
        251 => "src_vccz",
        252 => "src_execz",
        253 => "src_scc",
        254 => "src_lds_direct",
        _ => {
            let _ = write!(out, "unknown_{code}");
            return;
        }
    };
    out.push_str(name);
}

fn float(code: u8) -> &'static str {
    match code {
        240 => "0.5",
        241 => "-0.5",
        242 => "1.0",
        243 => "-1.0",
        244 => "2.0",
        245 => "-2.0",
        246 => "4.0",
        247 => "-4.0",
        _ => "0.15915494",
    }
}

/// `s_waitcnt` operands; `vm_hi` says whether vmcnt has its two high bits (14-15, gfx9+).
fn waitcnt(out: &mut String, v: u32, vm_hi: bool) {
    let vm = if vm_hi {
        (v & 0xf) | ((v >> 14) & 3) << 4
    } else {
        v & 0xf
    };
    let vm_max = if vm_hi { 63 } else { 15 };
    let exp = (v >> 4) & 7;
    let lgkm = (v >> 8) & 0xf;
    // every counter at its maximum: all three are printed
    let all = vm == vm_max && exp == 7 && lgkm == 15;
    let mut first = true;
    for (name, value, shown) in [
        ("vmcnt(", vm, vm != vm_max),
        ("expcnt(", exp, exp != 7),
        ("lgkmcnt(", lgkm, lgkm != 15),
    ] {
        if shown || all {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(name);
            dec(out, value);
            out.push(')');
        }
    }
}

/// Whether a 32-bit literal value could have been an inline constant (LLVM then prints
/// it as `lit(...)`).
fn is_inline(v: u32, ty: Ty) -> bool {
    if ty.bits() != 32 {
        return false;
    }
    let i = v as i32;
    (-16..=64).contains(&i)
        || matches!(
            v,
            0x3f000000
                | 0xbf000000
                | 0x3f800000
                | 0xbf800000
                | 0x40000000
                | 0xc0000000
                | 0x40800000
                | 0xc0800000
                | 0x3e22f983
        )
}

/// The f16 bits of the inline float constants 240-248 (0.5, -0.5, 1.0, -1.0, 2.0, -2.0,
/// 4.0, -4.0, 1/(2*pi)).
const F16_INLINE: [u32; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

/// The bf16 bits of the inline float constants 240-248 (as `F16_INLINE`).
const BF16_INLINE: [u32; 9] = [
    0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e22,
];

/// Print one operand (without modifiers).
pub fn operand(out: &mut String, o: Operand, ty: Ty, literal: u32) {
    match o {
        Operand::None => {}
        Operand::Sgpr { first, count } => reg(out, "s", first, count),
        Operand::Vgpr { first, count } => reg(out, "v", first, count),
        Operand::VgprHalf { reg: r, hi } => {
            reg(out, "v", r, 1);
            out.push_str(if hi { ".h" } else { ".l" });
        }
        Operand::Agpr { first, count } => reg(out, "a", first, count),
        Operand::Ttmp { first, count } => reg(out, "ttmp", first, count),
        Operand::Special { code, count } => special(out, code, count),
        Operand::Int(n) => dec_signed(out, i32::from(n)),
        // a 16-bit integer operand shows an inline float as its f16 bits
        Operand::Float(c) if matches!(ty, Ty::I16 | Ty::U16 | Ty::B16) => {
            let i = usize::from(c.saturating_sub(240)).min(8);
            hex(out, u64::from(F16_INLINE[i]));
        }
        Operand::Float(248) if ty.bits() == 64 => out.push_str("0.15915494309189532"),
        Operand::Float(c) => out.push_str(float(c)),
        // a bf16 accumulator: the whole literal, inline when its low half is an integer
        // -16..64 or a bf16 constant (observed)
        Operand::Literal if ty == Ty::Bf16x8 => {
            let low = literal & 0xffff;
            if (-16..=64).contains(&i32::from(low as u16 as i16)) || BF16_INLINE.contains(&low) {
                out.push_str("lit(");
                hex(out, u64::from(literal));
                out.push(')');
            } else {
                hex(out, u64::from(literal));
            }
        }
        // a 16-bit operand reads the low half of the literal; a literal that could have
        // been an inline constant prints whole in lit(): for f16 when its low half is an
        // integer -16..64 or an f16 constant, for 16-bit integers when the whole value
        // is a 32-bit inline constant (an integer -16..64 or an f32 constant's bits;
        // observed)
        Operand::Literal if ty.bits() == 16 || ty == Ty::F16x8 => {
            let low = literal & 0xffff;
            let inline = if matches!(ty, Ty::F16 | Ty::F16x8) {
                (-16..=64).contains(&i32::from(low as u16 as i16)) || F16_INLINE.contains(&low)
            } else {
                is_inline(literal, Ty::B32)
            };
            if inline {
                out.push_str("lit(");
                hex(out, u64::from(literal));
                out.push(')');
            } else {
                hex(out, u64::from(low));
            }
        }
        Operand::Literal64 => hex(out, u64::from(literal)),
        // a matrix accumulator of f32 or i32 elements (wider than 64 bits; f16 and bf16
        // ones have their own types): a 32-bit literal
        Operand::Literal if ty.bits() > 64 => {
            if is_inline(literal, Ty::B32) {
                out.push_str("lit(");
                hex(out, u64::from(literal));
                out.push(')');
            } else {
                hex(out, u64::from(literal));
            }
        }
        Operand::Literal => {
            if is_inline(literal, ty) {
                out.push_str("lit(");
                hex(out, u64::from(literal));
                out.push(')');
            } else {
                hex(out, u64::from(literal));
            }
        }
        // the whole list needs the instruction (see `print`): here only the first
        Operand::VgprNsa { first, .. } => reg(out, "v", first, 1),
        Operand::Imm(v) => match ty {
            Ty::Hex16 => hex(out, u64::from(v)),
            Ty::Label => dec(out, u32::from(v)),
            Ty::Waitcnt => waitcnt(out, u32::from(v), true),
            Ty::GprIdx => gpr_idx(out, v),
            Ty::Attr => {
                out.push_str("attr");
                dec(out, u32::from(v & 0x3f));
                out.push('.');
                out.push(['x', 'y', 'z', 'w'][usize::from(v >> 6 & 3)]);
            }
            // as an inline constant would print: decimal up to 64, else hex
            Ty::Dec16 if v > 64 => hex(out, u64::from(v)),
            _ => dec(out, u32::from(v)),
        },
    }
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` of s_set_gpr_idx_on/_mode: the enabled index modes
/// (bits 0-3); other values in hex (observed).
fn gpr_idx(out: &mut String, v: u16) {
    if v > 15 {
        hex(out, u64::from(v));
        return;
    }
    out.push_str("gpr_idx(");
    let mut first = true;
    for (i, name) in ["SRC0", "SRC1", "SRC2", "DST"].iter().enumerate() {
        if v >> i & 1 != 0 {
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(name);
        }
    }
    out.push(')');
}

/// The literal operand of v_madmk/v_madak (float: always hex) and s_setreg_imm32
/// (integer: as the inline constant it equals, else hex). `old`: gfx6/7, which have no
/// 1/(2*pi) constant.
fn fixed_literal(out: &mut String, v: u32, ty: Ty, old: bool) {
    let i = v as i32;
    if ty.is_float() || !is_inline(v, Ty::B32) || (old && v == 0x3e22f983) {
        let _ = write!(out, "0x{v:x}");
    } else if (-16..=64).contains(&i) {
        let _ = write!(out, "{i}");
    } else {
        let code = match v {
            0x3f000000 => 240,
            0xbf000000 => 241,
            0x3f800000 => 242,
            0xbf800000 => 243,
            0x40000000 => 244,
            0xc0000000 => 245,
            0x40800000 => 246,
            0xc0800000 => 247,
            _ => 248,
        };
        out.push_str(float(code));
    }
}

const SEL: [&str; 8] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "7",
];
const UNUSED: [&str; 4] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "3"];

/// Appends LLVM's `/*Invalid register, operand has 'CLASS' register class*/` mark.
fn invalid_register(out: &mut String, class: std::fmt::Arguments<'_>) {
    let _ = write!(
        out,
        "/*Invalid register, operand has '{class}' register class*/"
    );
}

/// The "Invalid register" mark LLVM prints after some DS registers (gfx8, gfx9,
/// gfx1250). gfx8 and gfx900-gfx908: AGPRs (the `acc` bit) of a load or store, with the
/// VGPR class it wanted (`VGPR_32`, `VReg_<bits>`). gfx90a/gfx940+ and gfx1250: a
/// register tuple that starts at an odd register, with `AV_<bits>_Align2` for the one
/// data operand of a load or store (VGPRs or AGPRs), `VReg_<bits>_Align2` for the VGPRs
/// of an operation with more (atomics that return, two-data stores), which has no mark
/// on AGPRs; always `VReg_<bits>_Align2` on gfx1250 (no AGPRs).
fn ds_register_mark(out: &mut String, traits: u16, op: &crate::desc::OpDesc, o: Operand) {
    let (agpr, first, count) = match o {
        Operand::Vgpr { first, count } => (false, first, count),
        Operand::Agpr { first, count } => (true, first, count),
        _ => return,
    };
    let bits = u32::from(count) * 32;
    if traits & (traits::GFX90A | traits::GFX940 | traits::GFX1250) == 0 {
        if agpr && !crate::decode::ds_gws(op) {
            out.push_str("/*Invalid register, operand has '");
            if count == 1 {
                out.push_str("VGPR_32");
            } else {
                let _ = write!(out, "VReg_{bits}");
            }
            out.push_str("' register class*/");
        }
        return;
    }
    // (the 96-bit transposing loads take any tuple)
    if count < 2 || first % 2 == 0 || op.flags & flags::DS_ANY_ALIGN != 0 {
        return;
    }
    let class = match (crate::decode::ds_data_operands(op), agpr) {
        _ if traits & traits::GFX1250 != 0 => "VReg",
        (1, _) => "AV",
        (_, false) => "VReg",
        (_, true) => return,
    };
    invalid_register(out, format_args!("{class}_{bits}_Align2"));
}

/// The "Invalid register" mark llvm-mc-22 prints after some gfx8-gfx10 MUBUF and MTBUF
/// operands (observed): `src_lds_direct` as soffset (`SReg_32`); on gfx90a/gfx940+ a
/// data tuple (VGPRs or AGPRs) that starts at an odd register (`AV_<bits>_Align2`) and a
/// MUBUF address pair (idxen and offen) that does (`VReg_64_Align2`; none on MTBUF).
fn buffer_register_mark(
    out: &mut String,
    traits: u16,
    form: Form,
    field: Option<Field>,
    o: Operand,
    f: &dyn Fn(Field) -> u32,
) {
    let align2 = traits & (traits::GFX90A | traits::GFX940) != 0;
    match (field, o) {
        (Some(Field::Soffset), _) if f(Field::Soffset) == 254 => {
            out.push_str("/*Invalid register, operand has 'SReg_32' register class*/");
        }
        (Some(Field::Vdata), Operand::Vgpr { first, count } | Operand::Agpr { first, count })
            if align2 && count >= 2 && first % 2 == 1 =>
        {
            invalid_register(out, format_args!("AV_{}_Align2", u32::from(count) * 32));
        }
        (Some(Field::Vaddr), Operand::Vgpr { first, .. })
            if align2
                && form == Form::Mubuf
                && f(Field::Offen) + f(Field::Idxen) == 2
                && first % 2 == 1 =>
        {
            out.push_str("/*Invalid register, operand has 'VReg_64_Align2' register class*/");
        }
        _ => {}
    }
}

/// The "Invalid register" mark llvm-mc-22 prints after a gfx90a/gfx940+ VOP3P or MAI
/// register tuple that starts at an odd register (observed over every operand, VGPRs and
/// AGPRs, of MFMA/SMFMAC/packed-f32 ops on gfx90a, gfx942 and gfx950): matrix ops mark
/// src0/src1 `AV_<bits>_Align2`, the accumulator (vdst, src2) of an MFMA
/// `VReg_<bits>_Align2` or `AReg_<bits>_Align2`, an SMFMAC's vdst `AV_<bits>_Align2`;
/// the packed f32 ops mark vdst `VReg_64_Align2` and their sources `VS_64_Align2`.
fn vop3p_register_mark(
    out: &mut String,
    form: Form,
    op: &crate::desc::OpDesc,
    field: Option<Field>,
    o: Operand,
) {
    let (agpr, first, count) = match o {
        Operand::Vgpr { first, count } => (false, first, count),
        Operand::Agpr { first, count } => (true, first, count),
        _ => return,
    };
    if count < 2 || first % 2 == 0 {
        return;
    }
    let matrix = form != Form::Vop3p || op.flags & flags::MAI != 0;
    let acc = if agpr { "AReg" } else { "VReg" };
    let class = match field {
        Some(Field::Vdst | Field::Src2) if matrix && op.flags & flags::ACC_C != 0 => acc,
        Some(Field::Vdst | Field::Src0 | Field::Src1) if matrix => "AV",
        Some(Field::Vdst) if !matrix => "VReg",
        Some(Field::Src0 | Field::Src1 | Field::Src2) if !matrix => "VS",
        _ => return,
    };
    invalid_register(
        out,
        format_args!("{class}_{}_Align2", u32::from(count) * 32),
    );
}

/// The `Invalid` mark llvm-mc-22 prints after a gfx11+ VALU (VOP1, VOP2, VOPC, VOP3,
/// VOP3P) operand (observed with scripts/enc_vectors.py family `align`): gfx1250 a VGPR
/// tuple of 64 bits or more that starts at an odd register, `VS_<bits>_Align2` on a
/// source that may also be scalar (a 9-bit source field), `VReg_<bits>_Align2` on a
/// VGPR-only one (vdst, the VOP2/VOPC e32 src1, a source an op's `rule op ... =V` fact
/// limits to VGPRs). Such a VGPR-only source given a scalar register is marked with
/// its class too (`VGPR_32`, `VReg_<bits>`, gfx1250 `VReg_<bits>_Align2` from 64 bits),
/// given an inline constant `Invalid immediate`.
fn valu_register_mark(
    out: &mut String,
    traits: u16,
    enc: &crate::desc::EncodingDesc,
    field: Option<Field>,
    classes: impl Fn() -> Option<u8>,
    or_lds: bool,
    o: Operand,
) {
    use crate::desc::operand_class as class;
    let vgpr_only = || classes() == Some(class::VGPR);
    let Some(fd) = field.and_then(|f| enc.field(f)) else {
        return;
    };
    // a scalar-only source (`rule op ... =SIL`, v_permlane*16_b32 src1/src2,
    // v_writelane_b32 src0; not a lane mask) given a VGPR, or src_lds_direct but in src0,
    // is marked too (swept: every code of each source on gfx1100 and gfx1201)
    if matches!(
        o,
        Operand::Vgpr { count: 1, .. } | Operand::Special { code: 254, .. }
    ) && classes().is_some_and(|c| c & class::VGPR == 0 && c & class::INLINE != 0)
    {
        match (field, o) {
            (Some(Field::Src0), Operand::Vgpr { .. }) => {
                out.push_str("/*Invalid register, operand has 'SRegOrLds_32' register class*/")
            }
            (Some(Field::Src0), _) => {}
            _ => out.push_str("/*Invalid register, operand has 'SReg_32' register class*/"),
        }
        return;
    }
    if matches!(
        o,
        Operand::Vgpr { count: ..=1, .. } | Operand::VgprHalf { .. } | Operand::None
    ) {
        return;
    }
    let gfx1250 = traits & traits::GFX1250 != 0;
    let mark = |out: &mut String, class: &str, count: u8| {
        let bits = u32::from(count) * 32;
        match (count, gfx1250) {
            (..=1, _) => invalid_register(out, format_args!("{class}GPR_32")),
            (_, true) => invalid_register(out, format_args!("{class}_{bits}_Align2")),
            (_, false) => invalid_register(out, format_args!("{class}_{bits}")),
        }
    };
    match o {
        Operand::Vgpr { first, count } if gfx1250 && count >= 2 && first % 2 == 1 => {
            match fd.kind {
                FieldKind::Src9 if !vgpr_only() => mark(out, "VS", count),
                FieldKind::Src9 | FieldKind::Vgpr => mark(out, "VReg", count),
                _ => {}
            }
        }
        // (null and the src_* registers print plainly)
        Operand::Special {
            code: 125 | 230 | 231 | 235..=239 | 251..=253,
            ..
        } => {}
        Operand::Special { code: 254, .. } if or_lds => {}
        Operand::Sgpr { count: 1, .. }
        | Operand::Ttmp { count: 1, .. }
        | Operand::Special { count: 1, .. }
            if or_lds && vgpr_only() =>
        {
            out.push_str("/*Invalid register, operand has 'VRegOrLds_32' register class*/")
        }
        Operand::Sgpr { count, .. }
        | Operand::Ttmp { count, .. }
        | Operand::Special { count, .. }
            if vgpr_only() =>
        {
            mark(out, if count >= 2 { "VReg" } else { "V" }, count)
        }
        Operand::Int(_) | Operand::Float(_) if vgpr_only() => out.push_str("/*Invalid immediate*/"),
        _ => {}
    }
}

/// The "Invalid register" mark llvm-mc-22 prints after some gfx9 FLAT (flat_*,
/// global_*, scratch_*) operands (observed; `field` is None for a returning atomic's
/// result): gfx900-gfx908 AGPRs (bit 55) but for a returning flat_* atomic's
/// (`VGPR_32`, `VReg_<bits>`); `exec` as a global base of anything but a load to LDS
/// (`SReg_64_XEXEC_XNULL`); gfx90a/gfx940+ register tuples that start at an odd
/// register: the 64-bit address (`VReg_64_Align2`), a load's result and a store's or
/// non-returning atomic's data (`AV_<bits>_Align2`), a returning atomic's data and
/// result when they are VGPRs (`VReg_<bits>_Align2`; AGPRs have no mark).
fn flat_register_mark(
    out: &mut String,
    dec: &Decoder,
    inst: &Instruction,
    op: &crate::desc::OpDesc,
    field: Option<Field>,
    o: Operand,
    f: &dyn Fn(Field) -> u32,
) {
    let align2 = dec.traits & (traits::GFX90A | traits::GFX940) != 0;
    let mark = |out: &mut String, class: &str| {
        invalid_register(out, format_args!("{class}"));
    };
    if field == Some(Field::Saddr) {
        let to_lds = if dec.traits & traits::GFX940 != 0 {
            crate::decode::flat_load_lds(op)
        } else {
            f(Field::Lds) != 0
        };
        if f(Field::Seg) == 2 && f(Field::Saddr) == 126 && !to_lds {
            mark(out, "SReg_64_XEXEC_XNULL");
        }
        return;
    }
    let (agpr, first, count) = match o {
        Operand::Vgpr { first, count } => (false, first, count),
        Operand::Agpr { first, count } => (true, first, count),
        _ => return,
    };
    let bits = u32::from(count) * 32;
    if !align2 {
        if agpr && !dec.flat_seg0_rtn(inst.encoding as usize, op, inst.raw) {
            if count == 1 {
                mark(out, "VGPR_32");
            } else {
                mark(out, &format!("VReg_{bits}"));
            }
        }
        return;
    }
    if first % 2 == 0 {
        return;
    }
    let rtn = op.flags & flags::GLC_RTN != 0 && f(Field::Glc) != 0;
    let addr64 = f(Field::Seg) == 0 || (f(Field::Seg) == 2 && f(Field::Saddr) == 0x7f);
    let class = match field {
        Some(Field::Addr) => addr64.then(|| "VReg_64_Align2".to_string()),
        _ if count < 2 => None,
        None | Some(Field::Data) if rtn => (!agpr).then(|| format!("VReg_{bits}_Align2")),
        Some(Field::Data | Field::Vdst) => Some(format!("AV_{bits}_Align2")),
        _ => None,
    };
    if let Some(class) = class {
        mark(out, &class);
    }
}

/// The `swizzle(...)` form of a `ds_swizzle_b32` offset (non-zero). The FFT and ROTATE
/// modes (offsets 0xc000-0xffff) are gfx9+ (`fft_rotate`); gfx6-gfx8 print them in
/// decimal.
fn swizzle(out: &mut String, o: u32, fft_rotate: bool) {
    if o & 0xff00 == 0x8000 {
        let _ = write!(
            out,
            "swizzle(QUAD_PERM,{},{},{},{})",
            o & 3,
            o >> 2 & 3,
            o >> 4 & 3,
            o >> 6 & 3
        );
        return;
    }
    match o & 0xe000 {
        0xc000 | 0xe000 if !fft_rotate => {
            let _ = write!(out, "{o}");
            return;
        }
        0xe000 => {
            let _ = write!(out, "swizzle(FFT,{})", o & 0x1f);
            return;
        }
        0xc000 => {
            let _ = write!(out, "swizzle(ROTATE,{},{})", o >> 10 & 1, o >> 5 & 0x1f);
            return;
        }
        0x8000 | 0xa000 => {
            let _ = write!(out, "{o}");
            return;
        }
        _ => {}
    }
    // Bit-mask mode: lane bit = ((lane & and) | or) ^ xor.
    let (and, or, xor) = (o & 0x1f, o >> 5 & 0x1f, o >> 10 & 0x1f);
    if and == 0x1f && or == 0 && xor.is_power_of_two() {
        let _ = write!(out, "swizzle(SWAP,{xor})");
    } else if and == 0x1f && or == 0 && xor > 1 && (xor + 1).is_power_of_two() {
        let _ = write!(out, "swizzle(REVERSE,{})", xor + 1);
    } else if xor == 0 && and != 0x1f && ((!and & 0x1f) + 1).is_power_of_two() && or <= !and & 0x1f
    {
        let _ = write!(out, "swizzle(BROADCAST,{},{or})", (!and & 0x1f) + 1);
    } else {
        out.push_str("swizzle(BITMASK_PERM,\"");
        for bit in (0..5).rev() {
            let (a, r, x) = (and >> bit & 1, or >> bit & 1, xor >> bit & 1);
            out.push(match (a, r, x) {
                (1, 0, 0) => 'p',
                (1, 0, _) => 'i',
                (_, r, x) if r ^ x != 0 => '1',
                _ => '0',
            });
        }
        out.push_str("\")");
    }
}

/// `hwreg(NAME[, offset, size])` of s_getreg/s_setreg: register id in bits 0-5, bit
/// offset in 6-10, size - 1 in 11-15; offset and size are omitted for the whole register.
/// Names as llvm-objdump prints them (ids 1-7; gfx9 adds 15-19, gfx940+ 20-24).
fn hwreg(out: &mut String, v: u32, old: bool, gfx940: bool) {
    let (id, offset, size) = (v & 0x3f, (v >> 6) & 0x1f, (v >> 11) + 1);
    let name = match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        4 => "HW_REG_HW_ID",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 if !old => "HW_REG_SH_MEM_BASES",
        16 if !old => "HW_REG_TBA_LO",
        17 if !old => "HW_REG_TBA_HI",
        18 if !old => "HW_REG_TMA_LO",
        19 if !old => "HW_REG_TMA_HI",
        20 if gfx940 => "HW_REG_XCC_ID",
        21 if gfx940 => "HW_REG_SQ_PERF_SNAPSHOT_DATA",
        22 if gfx940 => "HW_REG_SQ_PERF_SNAPSHOT_DATA1",
        23 if gfx940 => "HW_REG_SQ_PERF_SNAPSHOT_PC_LO",
        24 if gfx940 => "HW_REG_SQ_PERF_SNAPSHOT_PC_HI",
        _ => "",
    };
    out.push_str("hwreg(");
    if name.is_empty() {
        dec(out, id);
    } else {
        out.push_str(name);
    }
    if offset != 0 || size != 32 {
        let _ = write!(out, ", {offset}, {size}");
    }
    out.push(')');
}

/// Whether the decoder is for a generation before gfx9 (gfx6, gfx7, gfx8), whose
/// waitcnt, SMEM and FLAT fields are narrower.
fn old_gcn(dec: &Decoder) -> bool {
    dec.traits & traits::OLD_GCN != 0
}

/// LLVM's names of the `v_wmma_*_f8f6f4` matrix formats (`matrix_a_fmt:`,
/// `matrix_b_fmt:`); 0 (FP8) is the default and not printed, 5-7 print as numbers.
const MATRIX_FMT: [&str; 5] = [
    "MATRIX_FMT_FP8",
    "MATRIX_FMT_BF8",
    "MATRIX_FMT_FP6",
    "MATRIX_FMT_BF6",
    "MATRIX_FMT_FP4",
];

/// The modifiers of a gfx12+ matrix op (`flags::WMMA`), in LLVM's order: index_key,
/// matrix_a_fmt, matrix_b_fmt, matrix_a_reuse, matrix_b_reuse, neg_lo, neg_hi, clamp
/// (op_sel and op_sel_hi are never printed as such; the decoder rejected any bit the op
/// does not take).
fn matrix_modifiers(
    out: &mut String,
    op: &crate::desc::OpDesc,
    f: &dyn Fn(Field) -> u32,
    n: usize,
) {
    let has = |flag: u64| op.flags & flag != 0;
    let sel = f(Field::Opsel);
    if has(flags::INDEX_KEY) && sel & 1 != 0 {
        out.push_str(" index_key:1");
    }
    if has(flags::MATRIX_FMT) {
        let (a, b) = crate::decode::matrix_fmts(f);
        for (name, v) in [("matrix_a_fmt", a), ("matrix_b_fmt", b)] {
            match MATRIX_FMT.get(v as usize) {
                _ if v == 0 => {}
                Some(fmt) => {
                    let _ = write!(out, " {name}:{fmt}");
                }
                None => {
                    let _ = write!(out, " {name}:{v}");
                }
            }
        }
    }
    if has(flags::MATRIX_REUSE) {
        if sel >> 2 & 1 != 0 {
            out.push_str(" matrix_a_reuse");
        }
        if f(Field::OpselHi2) != 0 {
            out.push_str(" matrix_b_reuse");
        }
    }
    for (name, bits) in [("neg_lo", f(Field::Neg)), ("neg_hi", f(Field::NegHi))] {
        if bits != 0 {
            bit_list(out, name, bits, n);
        }
    }
    if has(flags::CLAMP) && f(Field::Clamp) != 0 {
        out.push_str(" clamp");
    }
}

/// ` name:[b0,b1,...]`: the low `n` bits of `bits`, first source first (op_sel,
/// neg_lo, ...).
fn bit_list(out: &mut String, name: &str, bits: u32, n: usize) {
    let _ = write!(out, " {name}:[");
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{}", bits >> i & 1);
    }
    out.push(']');
}

/// Append the text of `inst` to `out`.
pub fn print(dec: &Decoder, inst: &Instruction, out: &mut String) {
    let op = dec.op(inst);
    let enc = dec.encoding(inst);
    let f = |field: Field| dec.field(inst, field).unwrap_or(0);
    if enc.form == Form::Vopd {
        vopd(dec, inst, out);
        return;
    }
    let rdna = dec.traits & traits::RDNA != 0;
    let plan = dec.plan(inst);
    let rdna_gfx11 = dec.isa().generation == "gfx11";
    out.push_str(op.mnemonic);
    // llvm-mc-22 prints two spaces after the mnemonic of a sampling NSA instruction
    if enc.form == Form::Mimg && rdna && f(Field::Nsa) != 0 && op.has_field(Field::Ssamp) {
        out.push(' ');
    }
    match enc.form {
        // (gfx1250 v_cvt_pk_f16_fp8/bf8 print none in either form, but `_e64_dpp`)
        Form::Vop1 | Form::Vop2 | Form::Vopc if op.flags & flags::NO_SUFFIX != 0 => {}
        // (operand-less VOP1 ops such as v_nop print no suffix)
        Form::Vop1 | Form::Vop2 | Form::Vopc if !op.operands.is_empty() && plan.has_vop3 => {
            out.push_str("_e32")
        }
        Form::Vop3 | Form::Vop3p if dec.vop3_dpp(inst).is_some() => out.push_str("_e64_dpp"),
        Form::Vop3 if op.flags & flags::NO_SUFFIX != 0 => {}
        // (an operand-less one, v_nop, has no suffix as llvm-objdump prints it; on
        // gfx6/gfx7, whose text must assemble back to the same bytes, it keeps it)
        Form::Vop3
            if plan.has_vop12c && (!op.operands.is_empty() || dec.traits & traits::GFX6_7 != 0) =>
        {
            out.push_str("_e64")
        }
        // gfx8 prints VOPC in SDWA form without a suffix (`v_cmp_eq_f32 vcc, v1, v2
        // src0_sel:DWORD ...`, llvm-objdump-22)
        Form::Sdwa
            if dec.traits & traits::GFX8 != 0
                && enc
                    .base
                    .and_then(|b| dec.isa().encodings.get(usize::from(b)))
                    .is_some_and(|b| b.form == Form::Vopc) => {}
        Form::Sdwa => out.push_str("_sdwa"),
        // gfx11+ prints VOPC in DPP form without a suffix (`v_cmp_eq_f32 vcc_lo, ...`)
        Form::Dpp
            if rdna
                && dec.isa().generation != "gfx10"
                && enc
                    .base
                    .and_then(|b| dec.isa().encodings.get(usize::from(b)))
                    .is_some_and(|b| b.form == Form::Vopc) => {}
        Form::Dpp => out.push_str("_dpp"),
        _ => {}
    }
    let vop3b = plan.vop3b;
    let mods = op.flags & flags::FPMODS != 0;
    let is_global = enc.form == Form::Flat && f(Field::Seg) == 2;
    let is_scratch = enc.form == Form::Flat && f(Field::Seg) == 1;
    // gfx1250 FLAT (segment 0) takes a scalar base like global: with one, the address
    // is a 32-bit offset VGPR and the pair is printed after the operands (observed)
    let flat_saddr = enc.form == Form::Flat
        && f(Field::Seg) == 0
        && dec.traits & traits::GFX1250 != 0
        && f(Field::Saddr) != 124;
    let gfx940 = dec.traits & traits::GFX940 != 0;
    // Cache-policy bits: glc, slc and (gfx90a) scc; sc0, nt and sc1 on gfx940+.
    let (glc, slc, sc1) = if gfx940 {
        ("sc0", "nt", Some("sc1"))
    } else if dec.traits & traits::GFX90A != 0 {
        ("glc", "slc", Some("scc"))
    } else {
        ("glc", "slc", None)
    };
    if matches!(enc.form, Form::Exp | Form::Vintrp) {
        if enc.field(Field::WaitVdst).is_some() || enc.field(Field::WaitVaVdst).is_some() {
            lds_direct(out, op, enc.field(Field::WaitVdst).is_some(), &f);
        } else {
            exp_or_interp(out, enc.form, dec.isa().generation, &f);
        }
        return;
    }
    // gfx12 v_cndmask_b32 in DPP16 form prints `|v1, vcc_lo|` for an abs src1
    let abs_after_lane_mask = enc.form == Form::Dpp && op.flags & flags::ABS_AFTER_LANE_MASK != 0;
    let mut abs_after_next = false;
    let mut first = true;
    let mut operands = &inst.operands[..];
    if op.flags & flags::GLC_RTN != 0
        && (f(Field::Glc) != 0 || f(Field::Th) & 1 != 0)
        && plan.no_vdst
    {
        if let Some((o, rest)) = operands.split_first() {
            out.push(' ');
            operand(out, *o, Ty::B32, 0);
            if enc.form == Form::Flat && dec.isa().generation == "gfx9" {
                flat_register_mark(out, dec, inst, op, None, *o, &f);
            }
            first = false;
            operands = rest;
        }
    }
    // gfx11+ true16 VOP3: an op_sel bit of an operand that is not a 16-bit register
    // makes LLVM decode the plain (fake16) form: whole registers, no op_sel
    let fake16 = rdna && enc.form == Form::Vop3 && true16_fallback(op, inst, f(Field::Opsel));
    for (slot, (o, od)) in operands.iter().zip(op.operands).enumerate() {
        let o = &match *o {
            Operand::VgprHalf { reg, .. } if fake16 => Operand::Vgpr {
                first: reg,
                count: 1,
            },
            o => o,
        };
        if matches!(o, Operand::None) {
            break;
        }
        if od.ty == Ty::Opt16 && matches!(o, Operand::Imm(0)) {
            continue;
        }
        // MUBUF loads to LDS have no data register
        if enc.form == Form::Mubuf && od.role == Role::Field(Field::Vdata) && f(Field::Lds) != 0 {
            continue;
        }
        // and neither have gfx9/gfx10 FLAT loads to LDS (bit 13; gfx940's scratch `sve`)
        if enc.form == Form::Flat
            && (!rdna || dec.traits & traits::GFX10 != 0)
            && !gfx940
            && od.role == Role::Field(Field::Vdst)
            && f(Field::Lds) != 0
        {
            continue;
        }
        out.push_str(if first { " " } else { ", " });
        first = false;
        let field = match od.role {
            Role::Field(x) | Role::FieldOr(x, _) => Some(x),
            _ => None,
        };
        // source modifiers
        let src = match field {
            Some(Field::Src0) => Some(0),
            Some(Field::Src1) => Some(1),
            Some(Field::Src2) => Some(2),
            _ => None,
        };
        let (mut neg, mut abs, mut sext) = (false, false, false);
        if let Some(i) = src {
            match enc.form {
                // integer operands (v_ldexp's exponent) take no float modifiers
                Form::Vop3
                    if mods
                        && !matches!(
                            od.ty,
                            Ty::I16 | Ty::I32 | Ty::I64 | Ty::U16 | Ty::U32 | Ty::U64
                        ) =>
                {
                    neg = f(Field::Neg) >> i & 1 != 0;
                    abs = !vop3b && f(Field::Abs) >> i & 1 != 0;
                }
                // v_mad_mix/v_fma_mix (op_sel but no neg_lo/neg_hi lists): neg_lo is
                // `-`, neg_hi is `|..|` (gfx950 v_mfma_ld_scale_b32, op_sel without
                // neg lists too, ignores both)
                Form::Vop3p if op.flags & flags::MIX != 0 => {
                    neg = f(Field::Neg) >> i & 1 != 0;
                    abs = f(Field::NegHi) >> i & 1 != 0;
                }
                // RDNA DPP16: only sources that take float modifiers print them (and
                // only src0/src1: v_cndmask's vcc_lo is a third source)
                Form::Dpp
                    if rdna
                        && i < 2
                        && crate::rdna::dpp_mods(op, i) == crate::rdna::DppMods::Print =>
                {
                    let (n, a) = if i == 0 {
                        (Field::Src0Neg, Field::Src0Abs)
                    } else {
                        (Field::Src1Neg, Field::Src1Abs)
                    };
                    neg = f(n) != 0;
                    abs = f(a) != 0;
                }
                Form::Dpp if rdna => {}
                Form::Sdwa | Form::Dpp => {
                    let (n, a, s) = if i == 0 {
                        (Field::Src0Neg, Field::Src0Abs, Field::Src0Sext)
                    } else {
                        (Field::Src1Neg, Field::Src1Abs, Field::Src1Sext)
                    };
                    neg = f(n) != 0;
                    abs = f(a) != 0;
                    sext = f(s) != 0;
                }
                _ => {}
            }
        }
        // A negated constant without abs is `neg(c)`: `-c` would read as another constant.
        let neg_fn =
            neg && !abs && matches!(o, Operand::Int(_) | Operand::Float(_) | Operand::Literal);
        if neg_fn {
            out.push_str("neg(");
        } else if neg {
            out.push('-');
        }
        if abs {
            out.push('|');
        }
        if sext {
            out.push_str("sext(");
        }
        match (enc.form, field) {
            // gfx10+ image NSA addresses: `[v20, v1, v2]`
            (Form::Mimg, _) if matches!(o, Operand::VgprNsa { .. }) => {
                if let Operand::VgprNsa {
                    first,
                    count,
                    in_nsa,
                } = *o
                {
                    out.push('[');
                    // operands before the tuple of the rest: gfx11 5, gfx12 VSAMPLE 4,
                    // VIMAGE 5
                    let slots = match (rdna_gfx11, in_nsa) {
                        (true, _) => Some(5),
                        (false, true) if enc.field(Field::Ssamp).is_some() => Some(4),
                        (false, true) => Some(5),
                        (false, false) => None,
                    };
                    let groups = nsa_groups(op, count, f(Field::A16) != 0, slots);
                    for (i, &n) in groups.iter().enumerate().take_while(|(_, n)| **n > 0) {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        reg(out, "v", inst.nsa_vgpr(first, in_nsa, i), n);
                    }
                    out.push(']');
                }
            }
            // s_setreg_imm32_b32's literal: decimal in -16..=64, else hex (observed)
            // (and inline-float bit patterns by their value)
            (Form::Sopk, None) if rdna && od.role == Role::Literal => {
                let v = inst.literal as i32;
                let float = (240u8..=248).find(|c| inline_float_bits(*c) == inst.literal);
                if (-16..=64).contains(&v) {
                    let _ = write!(out, "{v}");
                } else if let Some(c) = float {
                    out.push_str(self::float(c));
                } else {
                    let _ = write!(out, "0x{:x}", inst.literal);
                }
            }
            // gfx10+ constant operands (`K` of fmaak/fmamk): plain hex, never lit()
            (_, None) if rdna && od.role == Role::Literal && matches!(o, Operand::Literal) => {
                let _ = write!(out, "0x{:x}", inst.literal);
            }
            // packed f32 (b64 VOP3P sources, gfx90a+): 1/(2*pi) is the f32 constant
            (Form::Vop3p, _) if matches!(o, Operand::Float(248)) && od.ty == Ty::B64 => {
                out.push_str(float(248))
            }
            // gfx1250 packed f32 (b64 VOP3P sources): a 32-bit literal that could have
            // been an inline constant prints in lit() (swept with llvm-mc-22)
            (Form::Vop3p, _) if rdna && matches!(o, Operand::Literal) && od.ty == Ty::B64 => {
                if is_inline(inst.literal, Ty::B32) {
                    let _ = write!(out, "lit(0x{:x})", inst.literal);
                } else {
                    let _ = write!(out, "0x{:x}", inst.literal);
                }
            }
            (_, _) if matches!(o, Operand::Literal64) => {
                literal64(out, inst.literal64(), od.ty, od.role == Role::Literal)
            }
            // gfx10+ SOPP decimal immediates and SMEM probe numbers: decimal up to 64,
            // else hex (observed)
            (Form::Sopp | Form::Smem, _) if rdna && od.ty == Ty::Dec16 => {
                if let Operand::Imm(v) = *o {
                    if v <= 64 {
                        let _ = write!(out, "{v}");
                    } else {
                        let _ = write!(out, "0x{v:x}");
                    }
                }
            }
            (_, _)
                if rdna
                    && match *o {
                        Operand::Imm(v) => crate::rdna::imm(
                            out,
                            dec.isa().generation,
                            dec.processor(),
                            od.ty,
                            u32::from(v),
                        ),
                        _ => false,
                    } => {}
            (Form::Sop1, Some(Field::Ssrc0)) if od.ty == Ty::SendmsgRtn => {
                let v = f(Field::Ssrc0);
                crate::rdna::imm(out, dec.isa().generation, dec.processor(), od.ty, v);
            }
            (Form::Smem, Some(Field::Offset)) if rdna => {
                // soffset (null = none), then the signed 21-bit offset
                let so = rdna_scalar(dec, f(Field::Soffset));
                let w = dec
                    .field_desc(usize::from(inst.encoding), Field::Offset)
                    .map_or(21, |d| u32::from(d.width));
                let off = ((f(Field::Offset) << (32 - w)) as i32) >> (32 - w);
                // (gfx12 s_prefetch_*: the offset alone, soffset is an operand of its own)
                let own_soffset = op.has_field(Field::Soffset);
                let null = if dec.isa().generation == "gfx10" {
                    125
                } else {
                    124
                };
                if own_soffset {
                    hex_signed(out, off);
                } else if f(Field::Soffset) != null {
                    operand(out, so, Ty::B32, 0);
                    if off != 0 {
                        out.push_str(" offset:");
                        hex_signed(out, off);
                    }
                } else if off != 0 || dec.isa().generation == "gfx12" {
                    hex_signed(out, off);
                } else {
                    out.push_str("null");
                }
            }
            (Form::Flat, Some(Field::Addr)) if rdna => {
                let null = if dec.isa().generation == "gfx10" {
                    125
                } else {
                    124
                };
                let no_vaddr = if dec.field(inst, Field::Sve).is_some() {
                    f(Field::Sve) == 0
                } else {
                    f(Field::Saddr) != null
                };
                if is_scratch && no_vaddr {
                    out.push_str("off");
                } else if let Operand::Vgpr { first, .. } = *o {
                    let count =
                        if is_scratch || flat_saddr || (is_global && f(Field::Saddr) != null) {
                            1
                        } else {
                            od.ty.regs()
                        };
                    reg(out, "v", first, count);
                }
            }
            (Form::Flat, Some(Field::Saddr)) if rdna => {
                let s = f(Field::Saddr);
                let null = if dec.isa().generation == "gfx10" {
                    125
                } else {
                    124
                };
                let gfx12 = dec.traits & traits::GFX12 != 0;
                // (gfx1250 tensor_save, whose only operand this is, prints null by name)
                let only = op.operands.len() == 1;
                if s == null && only {
                    out.push_str("null");
                } else if s == null || (s == 0x7f && !gfx12) {
                    out.push_str("off");
                } else if gfx12 && is_scratch && s == 0x7f {
                    // (gfx12: 127 is exec_hi, which LLVM prints with a comment)
                    out.push_str(
                        "exec_hi/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/",
                    );
                } else {
                    let count = if is_scratch { 1 } else { 2 };
                    // tuples are aligned like every gfx10+ scalar tuple
                    let align = |first: u8| if count == 2 { first & !1 } else { first };
                    match rdna_scalar(dec, s) {
                        Operand::Sgpr { first, .. } => reg(out, "s", align(first), count),
                        Operand::Ttmp { first, .. } => reg(out, "ttmp", align(first), count),
                        Operand::Special { code, .. } => {
                            operand(out, Operand::Special { code, count }, Ty::B32, 0)
                        }
                        o => operand(out, o, Ty::B32, 0),
                    }
                    if gfx12 && !is_scratch && !only && s == 126 {
                        out.push_str(
                            "/*Invalid register, operand has 'SReg_64_XEXEC_XNULL' register class*/",
                        );
                    }
                }
            }
            (Form::Sopp, _) if !rdna && od.ty == Ty::Waitcnt => {
                if let Operand::Imm(v) = *o {
                    waitcnt(out, u32::from(v), !old_gcn(dec));
                }
            }
            (Form::Sopp, _) if !rdna && od.ty == Ty::Sendmsg => {
                if let Operand::Imm(v) = *o {
                    sendmsg(out, u32::from(v), dec.isa().generation);
                }
            }
            (Form::Sopk, _) if !rdna && od.ty == Ty::Hwreg => {
                if let Operand::Imm(v) = *o {
                    hwreg(out, u32::from(v), old_gcn(dec), gfx940);
                }
            }
            // gfx9 SMEM: soe (bit 14) adds the SGPR of bits 57-63; with imm (bit 17) the
            // offset is a signed 21-bit byte offset (`s20 offset:-0x100`, `-0x100`),
            // without it the offset field holds an SGPR unless soe is set (observed)
            (Form::Smem, Some(Field::Offset)) if dec.field(inst, Field::Soe).is_some() => {
                let off = ((f(Field::Offset) << 11) as i32) >> 11;
                let imm = f(Field::Imm) != 0;
                if f(Field::Soe) != 0 {
                    let so = crate::decode::scalar_in(dec.isa(), f(Field::Soffset), Ty::B32);
                    operand(out, so, Ty::B32, 0);
                    if imm {
                        out.push_str(" offset:");
                        hex_signed(out, off);
                    }
                } else if imm {
                    hex_signed(out, off);
                } else {
                    let so = crate::decode::scalar_in(dec.isa(), f(Field::Offset) & 0x7f, Ty::B32);
                    operand(out, so, Ty::B32, 0);
                }
            }
            (Form::Smem, Some(Field::Offset)) => {
                if f(Field::Imm) != 0 {
                    hex(out, u64::from(f(Field::Offset)));
                } else {
                    // SMEM (gfx8+): an SGPR number in bits 0-6; SMRD: 8 bits, 255 = literal
                    let mask = if enc.words == 1 { 0xff } else { 0x7f };
                    operand(
                        out,
                        crate::decode::scalar_in(dec.isa(), f(Field::Offset) & mask, Ty::B32),
                        Ty::B32,
                        inst.literal,
                    );
                }
            }
            (Form::Flat, Some(Field::Addr)) => {
                // gfx940+ scratch has a VGPR address only with sve (bit 13); earlier
                // processors only without saddr.
                let no_vaddr = if gfx940 {
                    f(Field::Lds) == 0
                } else {
                    f(Field::Saddr) != 0x7f
                };
                if is_scratch && no_vaddr {
                    out.push_str("off");
                } else if let Operand::Vgpr { first, .. } = *o {
                    let count = if is_global && f(Field::Saddr) != 0x7f {
                        1
                    } else {
                        od.ty.regs()
                    };
                    let count = if is_scratch { 1 } else { count };
                    reg(out, "v", first, count);
                }
            }
            (Form::Flat, Some(Field::Saddr)) => {
                let s = f(Field::Saddr);
                if s == 0x7f {
                    out.push_str("off");
                } else {
                    // global: an SGPR or ttmp pair, aligned as every scalar pair
                    let ty = if is_scratch { Ty::B32 } else { Ty::B64 };
                    operand(out, crate::decode::scalar(s, ty), ty, 0);
                }
            }
            (Form::Mubuf | Form::Mtbuf, Some(Field::Vaddr)) => {
                // gfx6/7 addr64: a 64-bit address pair
                let n = f(Field::Offen) + f(Field::Idxen) + 2 * f(Field::Addr64);
                match (*o, n) {
                    (_, 0) => out.push_str("off"),
                    (Operand::Vgpr { first, .. }, n) => reg(out, "v", first, n as u8),
                    _ => {}
                }
            }
            // gfx7: flat_scratch is 104-105 (102-103 from gfx8)
            _ if matches!(
                o,
                Operand::Special {
                    code: 104 | 105,
                    ..
                }
            ) && dec.traits & traits::GFX7 != 0 =>
            {
                if let Operand::Special { code, count } = *o {
                    out.push_str(match (code, count) {
                        (104, 2..) => "flat_scratch",
                        (104, _) => "flat_scratch_lo",
                        _ => "flat_scratch_hi",
                    });
                }
            }
            _ if od.role == Role::Literal => {
                fixed_literal(out, inst.literal, od.ty, dec.traits & traits::GFX6_7 != 0)
            }
            // gfx6/7 have no 1/(2*pi) inline constant: that value is a plain literal
            // (LLVM keeps lit() for SOPC sources)
            _ if matches!(o, Operand::Literal)
                && enc.form != Form::Sopc
                && inst.literal == 0x3e22f983
                && dec.traits & traits::GFX6_7 != 0 =>
            {
                out.push_str("0x3e22f983")
            }
            // gfx10+ prints other decimal immediates (s_subvector_loop_*) in decimal
            // whatever their size; the "hex above 64" rule of `operand` is gfx6-gfx9's
            (_, _) if rdna && od.ty == Ty::Dec16 && matches!(*o, Operand::Imm(_)) => {
                if let Operand::Imm(v) = *o {
                    let _ = write!(out, "{v}");
                }
            }
            // gfx11+ v_fmac_*_e64_dpp (the tied mac ops): an inline constant src1 prints
            // as its raw operand code in hex (llvm-mc-22: `v_fmac_f32_e64_dpp v1, v2, 0xf2`)
            _ if src == Some(1)
                && matches!(o, Operand::Int(_) | Operand::Float(_))
                && op.flags & flags::DPP_RAW_SRC1 != 0
                && dec.vop3_dpp(inst).is_some() =>
            {
                hex(out, u64::from(f(Field::Src1)))
            }
            // RDNA v_fma_mix* (f16 forms): a literal source is read as f16 whatever
            // op_sel_hi says (llvm-mc-22 prints its low half)
            _ if matches!(o, Operand::Literal) && op.flags & flags::LITERAL_F16 != 0 => {
                operand(out, *o, Ty::F16, inst.literal)
            }
            _ => operand(out, *o, od.ty, inst.literal),
        }
        // gfx11+ VINTERP: a 32-bit source below 256 is printed with LLVM's comment (and
        // so are the scalar and constant sources of gfx10's VOP3 v_interp_*_f16)
        let interp_vgpr =
            rdna && matches!(src, Some(1 | 2)) && op.operands.iter().any(|o| o.ty == Ty::Attr);
        let vinterp_src = src.is_some() && enc.field(Field::WaitExp).is_some();
        if vinterp_src || interp_vgpr {
            // (printed plainly: VINTERP null (code 125 here, m0 and null swapped on gfx11+)
            // and the src_* registers but lds_direct;
            // gfx10 the src_*_base/limit registers and the codes from 0xf9)
            let plain = |code: u8| {
                if vinterp_src {
                    matches!(code, 125 | 230 | 231 | 235..=239 | 251..=253)
                } else {
                    (235..=239).contains(&code) || code >= 0xf9
                }
            };
            match *o {
                Operand::Sgpr { .. } | Operand::Ttmp { .. } => {
                    out.push_str("/*Invalid register, operand has 'VGPR_32' register class*/")
                }
                Operand::Special { code, .. } if !plain(code) => {
                    out.push_str("/*Invalid register, operand has 'VGPR_32' register class*/")
                }
                Operand::Int(_) | Operand::Float(_) => out.push_str("/*Invalid immediate*/"),
                _ => {}
            }
        }
        // gfx12 DPP: a 16-bit source past v127 is printed with LLVM's comment
        if enc.form == Form::Dpp && matches!(*o, Operand::Vgpr { first, .. } if first >= 128) {
            let lo128 = match src {
                Some(0) => flags::DPP_LO128_SRC0,
                Some(1) => flags::DPP_LO128_SRC1,
                _ => 0,
            };
            if op.flags & lo128 != 0 {
                out.push_str("/*Invalid register, operand has 'VGPR_32_Lo128' register class*/");
            }
        }
        // and so is one of the e32 forms (src0, which may be scalar, is 'VS_32_Lo128')
        if matches!(enc.form, Form::Vop1 | Form::Vop2 | Form::Vopc)
            && dec.traits & traits::GFX12 != 0
            && matches!(*o, Operand::Vgpr { first, .. } if first >= 128)
        {
            match src {
                Some(0) if op.flags & flags::DPP_LO128_SRC0 != 0 => {
                    out.push_str("/*Invalid register, operand has 'VS_32_Lo128' register class*/")
                }
                Some(1) if op.flags & flags::DPP_LO128_SRC1 != 0 => {
                    out.push_str("/*Invalid register, operand has 'VGPR_32_Lo128' register class*/")
                }
                _ => {}
            }
        }
        // a constant as a VOP3 scalar destination (gfx11+ v_cmp*_e64, v_s_*)
        if rdna && field == Some(Field::Sdst8) && matches!(*o, Operand::Int(_) | Operand::Float(_))
        {
            out.push_str("/*Invalid immediate*/");
        }
        // (and m0 or src_lds_direct as the e32 v_readfirstlane_b32's destination)
        if rdna
            && field == Some(Field::Sdst8)
            && enc.form == Form::Vop1
            && matches!(
                *o,
                Operand::Special {
                    code: 124 | 254,
                    ..
                }
            )
        {
            out.push_str("/*Invalid register, operand has 'SReg_32_XM0' register class*/");
        }
        if rdna && dec.isa().generation != "gfx10" && enc.form.is_vop() {
            let classes = || dec.rule_classes(inst.op, inst.encoding, slot);
            // (v_readlane_b32's src0, VGPR-only, is `VRegOrLds_32`: src_lds_direct too)
            let or_lds = field == Some(Field::Src0) && op.has_field(Field::Sdst8);
            valu_register_mark(out, dec.traits, enc, field, classes, or_lds, *o);
        }
        if sext {
            out.push(')');
        }
        if abs && abs_after_lane_mask && src == Some(1) {
            // llvm-mc-22 closes src1's abs after the vcc_lo operand here
            abs_after_next = true;
        } else if abs || std::mem::take(&mut abs_after_next) {
            out.push('|');
        }
        if neg_fn {
            out.push(')');
        }
        if enc.form == Form::Ds && dec.traits & (traits::GFX8 | traits::GFX9 | traits::GFX1250) != 0
        {
            ds_register_mark(out, dec.traits, op, *o);
        }
        if enc.form == Form::Flat && dec.isa().generation == "gfx9" {
            flat_register_mark(out, dec, inst, op, field, *o, &f);
        }
        if matches!(enc.form, Form::Mubuf | Form::Mtbuf)
            && dec.traits & (traits::GFX8 | traits::GFX9 | traits::GFX10) != 0
        {
            buffer_register_mark(out, dec.traits, enc.form, field, *o, &f);
        }
        if matches!(enc.form, Form::Vop3p | Form::Mai | Form::Vop3px2)
            && dec.traits & (traits::GFX90A | traits::GFX940) != 0
            && dec.isa().generation == "gfx9"
        {
            vop3p_register_mark(out, enc.form, op, field, *o);
        }
    }
    let flag = |out: &mut String, name: &str, field: Field| {
        if f(field) != 0 {
            out.push(' ');
            out.push_str(name);
        }
    };
    match enc.form {
        Form::Vop3 if rdna => {
            // llvm-mc-22: op_sel, then clamp and omod, then the DPP word (VINTERP: clamp,
            // op_sel, wait_exp)
            let vinterp = enc.field(Field::WaitExp).is_some();
            if op.flags & flags::BITOP3 != 0 {
                bitop3_table(
                    out,
                    f(Field::Neg) | f(Field::Abs) << 3 | f(Field::Omod) << 6,
                );
            }
            // gfx10 v_interp_*_f16: bit 8 of the attribute operand (op_sel is ignored)
            if op.operands.iter().any(|o| o.ty == Ty::Attr) && f(Field::Src0) & 0x100 != 0 {
                out.push_str(" high");
            }
            if vinterp && op.flags & flags::CLAMP != 0 {
                flag(out, "clamp", Field::Clamp);
            }
            if op.flags & flags::OPSEL != 0 && !fake16 {
                // (v_permlane16/x16: the two bits are fi and bound_ctrl, shown as a
                // two-entry op_sel, observed)
                let permlane = op.flags & flags::OPSEL_FI_BOUND != 0;
                // (gfx11 v_fmac_f16: a third entry for the tied accumulator, observed)
                let srcs = if permlane {
                    2
                } else if op.flags & flags::OPSEL_SRC2 != 0 {
                    3
                } else {
                    usize::from(plan.srcs)
                };
                // (a byte select's bits are not op_sel's)
                let sel = if op.flags & flags::BYTE_SEL != 0 {
                    f(Field::Opsel) & !crate::decode::byte_sel_bits(op)
                } else {
                    f(Field::Opsel) & !crate::decode::packed_sources_without_opsel(op)
                };
                // (a VOPC in DPP form lists only its sources)
                // (nor does a compare without a destination, v_cmpx_*)
                let dst = !(permlane
                    || (plan.vopc && (dec.vop3_dpp(inst).is_some() || plan.no_sdst_or_vdst)));
                let bits: Vec<u32> = (0..srcs as u32)
                    .map(|i| sel >> i & 1)
                    .chain(dst.then_some(sel >> 3 & 1))
                    .collect();
                if bits.iter().any(|b| *b != 0) {
                    out.push_str(" op_sel:[");
                    for (i, b) in bits.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        out.push(if *b != 0 { '1' } else { '0' });
                    }
                    out.push(']');
                }
            }
            if op.flags & flags::BYTE_SEL != 0 {
                let b = crate::decode::byte_sel(op, f(Field::Opsel));
                if b != 0 {
                    let _ = write!(out, " byte_sel:{b}");
                }
            }
            if !vinterp && op.flags & flags::CLAMP != 0 {
                flag(out, "clamp", Field::Clamp);
            }
            if op.flags & flags::OMOD != 0 {
                match f(Field::Omod) {
                    1 => out.push_str(" mul:2"),
                    2 => out.push_str(" mul:4"),
                    3 => out.push_str(" div:2"),
                    _ => {}
                }
            }
            // gfx11+ VINTERP: always printed
            if vinterp {
                let _ = write!(out, " wait_exp:{}", f(Field::WaitExp));
            }
            vop3_dpp_word(out, dec, inst);
        }
        Form::Dpp if rdna && enc.field(Field::Dpp8).is_some() => {
            dpp8(out, f(Field::Dpp8), f(Field::Fi));
        }
        Form::Dpp if rdna => {
            dpp16(
                out,
                f(Field::DppCtrl),
                f(Field::RowMask),
                f(Field::BankMask),
                f(Field::BoundCtrl),
                f(Field::Fi),
            );
        }
        // cache bits only on loads and stores (a base address and data): not on the
        // probes, prefetches, discards, s_dcache_inv, s_memtime (observed)
        Form::Smem
            if rdna && plan.sbase && !plan.no_sdata && op.flags & flags::SMEM_NO_CACHE == 0 =>
        {
            flag(out, "glc", Field::Glc);
            flag(out, "dlc", Field::Dlc);
            cache_policy(out, op.flags, f(Field::Th), f(Field::Scope));
        }
        Form::Smem if rdna => {}
        Form::Flat if rdna => {
            if flat_saddr {
                out.push_str(", ");
                let s = f(Field::Saddr);
                match rdna_scalar(dec, s) {
                    Operand::Sgpr { first, .. } => reg(out, "s", first & !1, 2),
                    Operand::Ttmp { first, .. } => reg(out, "ttmp", first & !1, 2),
                    Operand::Special { code, .. } => {
                        operand(out, Operand::Special { code, count: 2 }, Ty::B32, 0)
                    }
                    o => operand(out, o, Ty::B32, 0),
                }
                // (flat atomics print no comment on exec, observed)
                if s == 126 && op.flags & flags::ATOMIC == 0 {
                    out.push_str(
                        "/*Invalid register, operand has 'SReg_64_XEXEC_XNULL' register class*/",
                    );
                }
            }
            let w = dec
                .field_desc(usize::from(inst.encoding), Field::Offset)
                .map_or(12, |d| d.width);
            let off = ((f(Field::Offset) << (32 - u32::from(w))) as i32) >> (32 - u32::from(w));
            let off = if f(Field::Seg) == 0 && dec.isa().generation == "gfx10" {
                f(Field::Offset) as i32 & 0xfff
            } else {
                off
            };
            if off != 0 {
                let _ = write!(out, " offset:{off}");
            }
            flag(out, "scale_offset", Field::ScaleOffset);
            flag(out, "glc", Field::Glc);
            flag(out, "slc", Field::Slc);
            flag(out, "dlc", Field::Dlc);
            cache_policy(out, op.flags, f(Field::Th), f(Field::Scope));
            flag(out, "lds", Field::Lds);
        }
        // gfx10 buffer_gl0_inv/gl1_inv: no modifier printed (offset, slc ignored; observed)
        Form::Mubuf if rdna && op.operands.is_empty() => {}
        Form::Mubuf | Form::Mtbuf if rdna => {
            if enc.form == Form::Mtbuf {
                // gfx10+ unified format, omitted at its default (1, BUF_FMT_8_UNORM)
                let fmt = f(Field::Format);
                let names = if dec.isa().generation == "gfx10" {
                    crate::rdna::BUF_FMT_GFX10
                } else {
                    crate::rdna::BUF_FMT_GFX11
                };
                match names.get(fmt as usize) {
                    _ if fmt == 1 => {}
                    Some(name) => {
                        let _ = write!(out, " format:[BUF_FMT_{name}]");
                    }
                    None => {
                        let _ = write!(out, " format:{fmt}");
                    }
                }
            }
            flag(out, "idxen", Field::Idxen);
            flag(out, "offen", Field::Offen);
            if f(Field::Offset) != 0 {
                let _ = write!(out, " offset:{}", f(Field::Offset));
            }
            flag(out, "glc", Field::Glc);
            flag(out, "slc", Field::Slc);
            flag(out, "dlc", Field::Dlc);
            cache_policy(out, op.flags, f(Field::Th), f(Field::Scope));
            flag(out, "lds", Field::Lds);
            flag(out, "tfe", Field::Tfe);
            flag(out, "nv", Field::Nv);
        }
        Form::Vop3 if op.flags & flags::BITOP3 != 0 => {
            // gfx950: the 8-bit truth table is spread over neg (bits 0-2), abs (3-5) and
            // omod (6-7).
            bitop3_table(
                out,
                f(Field::Neg) | f(Field::Abs) << 3 | f(Field::Omod) << 6,
            );
            let sel = f(Field::Opsel);
            // (the 16-bit form takes op_sel)
            if op.operands.iter().any(|o| o.ty.bits() == 16) && sel != 0 {
                let _ = write!(
                    out,
                    " op_sel:[{},{},{},{}]",
                    sel & 1,
                    sel >> 1 & 1,
                    sel >> 2 & 1,
                    sel >> 3 & 1
                );
            }
        }
        Form::Vop3 => {
            // gfx6/7 VOP3b: bit 11 (clamp elsewhere) belongs to sdst; no clamp there
            let clamp_in_sdst = vop3b && {
                let e = usize::from(inst.encoding);
                match (
                    dec.field_desc(e, Field::Clamp),
                    dec.field_desc(e, Field::Sdst),
                ) {
                    (Some(c), Some(s)) => c.lo >= s.lo && c.lo < s.lo + s.width,
                    _ => false,
                }
            };
            // v_interp_*_f16: bit 8 of the attribute operand
            let interp = op.operands.iter().any(|o| o.ty == Ty::Attr);
            if interp && f(Field::Src0) & 0x100 != 0 {
                out.push_str(" high");
            }
            // gfx9 op_sel: one bit per source, then the destination's (bit 3), before clamp
            // (none for the attribute of v_interp_p2_f16)
            if op.flags & flags::OPSEL != 0 {
                let sel = f(Field::Opsel) & if interp { !2 } else { !0 };
                if sel != 0 {
                    // (v_cvt_sr_fp8/bf8_f32 list a third source: the byte select of
                    // their tied destination, observed)
                    let srcs = if op.flags & flags::OPSEL_SRC2 != 0 {
                        3
                    } else {
                        u32::from(plan.srcs)
                    };
                    out.push_str(" op_sel:[");
                    for i in 0..srcs {
                        out.push(if sel >> i & 1 != 0 { '1' } else { '0' });
                        out.push(',');
                    }
                    out.push(if sel >> 3 & 1 != 0 { '1' } else { '0' });
                    out.push(']');
                }
            }
            if op.flags & flags::CLAMP != 0 && !clamp_in_sdst {
                flag(out, "clamp", Field::Clamp);
            }
            if op.flags & flags::OMOD != 0 {
                match f(Field::Omod) {
                    1 => out.push_str(" mul:2"),
                    2 => out.push_str(" mul:4"),
                    3 => out.push_str(" div:2"),
                    _ => {}
                }
            }
        }
        Form::Mai | Form::Vop3p
            if (enc.form == Form::Mai || op.flags & flags::MAI != 0)
                && op.flags & flags::NO_MAI_MODS == 0 =>
        {
            for (name, field) in [
                ("cbsz", Field::Cbsz),
                ("abid", Field::Abid),
                ("blgp", Field::Blgp),
            ] {
                if f(field) != 0 {
                    let _ = write!(out, " {name}:{}", f(field));
                }
            }
        }
        Form::Vop3px2 => {
            // the scale selects, from the ld_scale pair (`nsa`): op_sel (bits 11-12)
            // when set, op_sel_hi (bits 59-60) always, each with a third 0; then the
            // MFMA's formats (its abid 1 is the pair's mark, not printed)
            let ld = inst.nsa;
            let bit = |b: u32| (ld >> b & 1) as u32;
            if bit(11) | bit(12) != 0 {
                bit_list(out, "op_sel", bit(11) | bit(12) << 1, 3);
            }
            bit_list(out, "op_sel_hi", bit(59) | bit(60) << 1, 3);
            for (name, field) in [("cbsz", Field::Cbsz), ("blgp", Field::Blgp)] {
                if f(field) != 0 {
                    let _ = write!(out, " {name}:{}", f(field));
                }
            }
        }
        Form::Vop3p if op.flags & flags::WMMA != 0 => {
            matrix_modifiers(out, op, &f, usize::from(plan.srcs));
            vop3_dpp_word(out, dec, inst);
        }
        Form::Vop3p => {
            let n = usize::from(plan.srcs);
            let list = |out: &mut String, name: &str, bits: u32, default: u32| {
                let mask = (1u32 << n) - 1;
                if bits & mask != default & mask {
                    bit_list(out, name, bits, n);
                }
            };
            // gfx9: integer dot products print no op_sel; the mix ops print their neg
            // bits as source modifiers and op_sel_hi when set
            let mix = op.flags & flags::MIX != 0;
            // (RDNA: an op with op_sel but no neg lists, gfx1250's v_pk_add_max_i16 ...,
            // ignores the neg bits; one with neither, v_dot4_f32_fp8_fp8, prints src2's)
            let neg_lists =
                (rdna && !mix && op.flags & flags::OPSEL == 0) || op.flags & flags::NEG != 0;
            // (RDNA: op_sel_hi only where there is op_sel: v_dot4_u32_u8 ignores it)
            if op.flags & flags::OPSEL != 0 || (rdna && op.flags & flags::NEG == 0) {
                list(out, "op_sel", f(Field::Opsel), 0);
                list(
                    out,
                    "op_sel_hi",
                    f(Field::OpselHi) | f(Field::OpselHi2) << 2,
                    // (neutral all ones but for the mix ops; gfx950's
                    // v_mfma_ld_scale_b32, op_sel without neg lists, too)
                    if mix { 0 } else { 7 },
                );
            }
            if neg_lists {
                list(out, "neg_lo", f(Field::Neg), 0);
                list(out, "neg_hi", f(Field::NegHi), 0);
            }
            flag(out, "clamp", Field::Clamp);
            vop3_dpp_word(out, dec, inst);
        }
        Form::Sdwa => {
            // (VOP1/VOP2 SDWA forms take clamp even where the VOP3 form has none:
            // v_and_b32_sdwa ... clamp, observed)
            if op.flags & flags::CLAMP != 0 || enc.field(Field::DstSel).is_some() {
                flag(out, "clamp", Field::Clamp);
            }
            if op.flags & flags::OMOD != 0 {
                match f(Field::Omod) {
                    1 => out.push_str(" mul:2"),
                    2 => out.push_str(" mul:4"),
                    3 => out.push_str(" div:2"),
                    _ => {}
                }
            }
            let srcs = op
                .operands
                .iter()
                .filter(|o| matches!(o.role, Role::Field(Field::Src0 | Field::Src1)))
                .count();
            if enc.field(Field::DstSel).is_some() {
                let _ = write!(out, " dst_sel:{}", SEL[f(Field::DstSel) as usize & 7]);
                let _ = write!(
                    out,
                    " dst_unused:{}",
                    UNUSED[f(Field::DstUnused) as usize & 3]
                );
            }
            let _ = write!(out, " src0_sel:{}", SEL[f(Field::Src0Sel) as usize & 7]);
            if srcs > 1 {
                let _ = write!(out, " src1_sel:{}", SEL[f(Field::Src1Sel) as usize & 7]);
            }
        }
        Form::Dpp => {
            let c = f(Field::DppCtrl);
            match c {
                0..=0xff => {
                    let _ = write!(
                        out,
                        " quad_perm:[{},{},{},{}]",
                        c & 3,
                        c >> 2 & 3,
                        c >> 4 & 3,
                        c >> 6 & 3
                    );
                }
                0x101..=0x10f => {
                    let _ = write!(out, " row_shl:{}", c & 0xf);
                }
                0x111..=0x11f => {
                    let _ = write!(out, " row_shr:{}", c & 0xf);
                }
                0x121..=0x12f => {
                    let _ = write!(out, " row_ror:{}", c & 0xf);
                }
                0x130 => out.push_str(" wave_shl:1"),
                0x134 => out.push_str(" wave_rol:1"),
                0x138 => out.push_str(" wave_shr:1"),
                0x13c => out.push_str(" wave_ror:1"),
                0x140 => out.push_str(" row_mirror"),
                0x141 => out.push_str(" row_half_mirror"),
                0x142 => out.push_str(" row_bcast:15"),
                0x143 => out.push_str(" row_bcast:31"),
                _ => {}
            }
            let _ = write!(
                out,
                " row_mask:0x{:x} bank_mask:0x{:x}",
                f(Field::RowMask),
                f(Field::BankMask)
            );
            if f(Field::BoundCtrl) != 0 {
                out.push_str(" bound_ctrl:1");
            }
        }
        // no glc on s_dcache_*/s_memtime (no base address) nor on s_dcache_discard and
        // s_atc_probe*
        Form::Smem if plan.sbase && op.flags & flags::SMEM_NO_CACHE == 0 => {
            flag(out, "glc", Field::Glc)
        }
        Form::Ds => {
            if op.flags & flags::OFFSET2 != 0 {
                if f(Field::Offset0) != 0 {
                    out.push_str(" offset0:");
                    self::dec(out, f(Field::Offset0));
                }
                if f(Field::Offset1) != 0 {
                    out.push_str(" offset1:");
                    self::dec(out, f(Field::Offset1));
                }
            } else {
                let o = f(Field::Offset0) | f(Field::Offset1) << 8;
                if o != 0 && op.flags & flags::SWIZZLE != 0 {
                    out.push_str(" offset:");
                    swizzle(out, o, !old_gcn(dec));
                } else if o != 0 {
                    out.push_str(" offset:");
                    self::dec(out, o);
                }
            }
            // gfx90a and gfx940+ have no GDS: LLVM ignores the bit there, but for the
            // GDS-only operations (ds_gws_*)
            if dec.traits & (traits::GFX90A | traits::GFX940) == 0
                || op.flags & flags::GDS_ONLY != 0
            {
                flag(out, "gds", Field::Gds);
            }
        }
        Form::Flat => {
            let raw = f(Field::Offset);
            let off = if enc.form == Form::Flat && f(Field::Seg) != 0 {
                ((raw << 19) as i32) >> 19
            } else if dec.isa().generation == "gfx9" {
                // gfx9 flat_*: all 13 bits, unsigned (observed with llvm-mc-22)
                raw as i32
            } else {
                (raw & 0xfff) as i32
            };
            if off != 0 {
                out.push_str(" offset:");
                dec_signed(out, off);
            }
            flag(out, glc, Field::Glc);
            flag(out, slc, Field::Slc);
            if let Some(sc1) = sc1 {
                flag(out, sc1, Field::Sc1);
            }
            if !gfx940 {
                flag(out, "lds", Field::Lds);
            }
        }
        // operand-less buffer_inv/buffer_wbl2/buffer_wbinvl1: gfx940+ print sc0 and sc1
        // (never nt), earlier processors nothing (observed)
        Form::Mubuf if op.operands.is_empty() && gfx940 => {
            flag(out, "sc0", Field::Glc);
            flag(out, "sc1", Field::Sc1);
        }
        Form::Mubuf if op.operands.is_empty() => {}
        // buffer_store_lds_dword: lds right after the offset (observed)
        Form::Mubuf if !op.has_field(Field::Vdata) => {
            if f(Field::Offset) != 0 {
                out.push_str(" offset:");
                self::dec(out, f(Field::Offset));
            }
            flag(out, "lds", Field::Lds);
            flag(out, glc, Field::Glc);
            flag(out, slc, Field::Slc);
            if let Some(sc1) = sc1 {
                flag(out, sc1, Field::Sc1);
            }
        }
        Form::Mubuf => {
            flag(out, "idxen", Field::Idxen);
            flag(out, "offen", Field::Offen);
            flag(out, "addr64", Field::Addr64);
            if f(Field::Offset) != 0 {
                out.push_str(" offset:");
                self::dec(out, f(Field::Offset));
            }
            flag(out, glc, Field::Glc);
            flag(out, slc, Field::Slc);
            if let Some(sc1) = sc1 {
                flag(out, sc1, Field::Sc1);
            }
            flag(out, "lds", Field::Lds);
            // gfx90a and gfx940+: bit 55 is acc (AGPR data), not tfe
            if dec.traits & (traits::GFX90A | traits::GFX940) == 0 {
                flag(out, "tfe", Field::Tfe);
            }
        }
        Form::Mtbuf => {
            // format:[data format, numeric format], each omitted at its default
            // (BUF_DATA_FORMAT_8, BUF_NUM_FORMAT_UNORM); names as llvm-mc-22 prints them
            let (d, n) = (f(Field::Dfmt) as usize, f(Field::Nfmt) as usize);
            let data = DATA_FORMATS.get(d).copied().unwrap_or("");
            let num = match n {
                6 if old_gcn(dec) && dec.isa().generation != "gfx8" => "SNORM_OGL",
                _ => NUM_FORMATS.get(n).copied().unwrap_or(""),
            };
            match (d != 1, n != 0) {
                (true, true) => {
                    let _ = write!(out, " format:[BUF_DATA_FORMAT_{data},BUF_NUM_FORMAT_{num}]");
                }
                (true, false) => {
                    let _ = write!(out, " format:[BUF_DATA_FORMAT_{data}]");
                }
                (false, true) => {
                    let _ = write!(out, " format:[BUF_NUM_FORMAT_{num}]");
                }
                (false, false) => {}
            }
            flag(out, "idxen", Field::Idxen);
            flag(out, "offen", Field::Offen);
            flag(out, "addr64", Field::Addr64);
            if f(Field::Offset) != 0 {
                let _ = write!(out, " offset:{}", f(Field::Offset));
            }
            // (gfx9: sc0/nt/sc1 on gfx940+, glc/slc/scc on gfx90a, as MUBUF)
            flag(out, glc, Field::Glc);
            flag(out, slc, Field::Slc);
            if let Some(sc1) = sc1 {
                flag(out, sc1, Field::Sc1);
            }
            // gfx90a and gfx940+: bit 55 is acc (AGPR data), not tfe
            if dec.traits & (traits::GFX90A | traits::GFX940) == 0 {
                flag(out, "tfe", Field::Tfe);
            }
        }
        Form::Mimg if rdna && enc.words == 3 => {
            // gfx12 VIMAGE/VSAMPLE
            if op.flags & flags::BVH == 0 {
                if f(Field::Dmask) != 0 {
                    let _ = write!(out, " dmask:0x{:x}", f(Field::Dmask));
                }
                out.push_str(" dim:SQ_RSRC_IMG_");
                out.push_str(IMAGE_DIMS[f(Field::Dim) as usize & 7]);
                flag(out, "unorm", Field::Unorm);
            }
            cache_policy(out, op.flags, f(Field::Th), f(Field::Scope));
            flag(out, "nv", Field::Nv);
            // (the BVH queries require r128 and do not print it)
            if op.flags & flags::BVH == 0 {
                flag(out, "r128", Field::R128);
            }
            flag(out, "a16", Field::A16);
            flag(out, "tfe", Field::Tfe);
            flag(out, "lwe", Field::Lwe);
            flag(out, "d16", Field::D16);
        }
        Form::Mimg if rdna => {
            if op.flags & flags::BVH != 0 {
                flag(out, "a16", Field::A16);
                return;
            }
            if f(Field::Dmask) != 0 {
                let _ = write!(out, " dmask:0x{:x}", f(Field::Dmask));
            }
            out.push_str(" dim:SQ_RSRC_IMG_");
            out.push_str(IMAGE_DIMS[f(Field::Dim) as usize & 7]);
            flag(out, "unorm", Field::Unorm);
            flag(out, "glc", Field::Glc);
            flag(out, "slc", Field::Slc);
            flag(out, "dlc", Field::Dlc);
            flag(out, "r128", Field::R128);
            flag(out, "a16", Field::A16);
            flag(out, "tfe", Field::Tfe);
            flag(out, "lwe", Field::Lwe);
            flag(out, "d16", Field::D16);
        }
        Form::Mimg => {
            if f(Field::Dmask) != 0 {
                let _ = write!(out, " dmask:0x{:x}", f(Field::Dmask));
            }
            flag(out, "unorm", Field::Unorm);
            flag(out, "glc", Field::Glc);
            flag(out, "slc", Field::Slc);
            flag(out, "r128", Field::R128);
            flag(out, "a16", Field::A16);
            // gfx90a reads the tfe bit as acc (AGPR data)
            if dec.processor() != "gfx90a" {
                flag(out, "tfe", Field::Tfe);
            }
            flag(out, "lwe", Field::Lwe);
            flag(out, "da", Field::Da);
            flag(out, "d16", Field::D16);
        }
        _ => {}
    }
}

/// Registers per address operand of an image NSA instruction (0 ends the list): one each
/// on gfx10; on gfx11 (partial NSA) the fifth operand is a tuple of the rest, and the BVH
/// ray queries group node pointer, ray extent, origin, direction and inverse direction
/// (the two directions packed in three registers with a16).
fn nsa_groups(op: &crate::OpDesc, count: u8, a16: bool, slots: Option<u8>) -> [u8; 13] {
    let mut g = [0u8; 13];
    let partial = slots.is_some();
    let slots = slots.unwrap_or(13);
    // (the BVH queries' address tuple is 11 or 12 registers: 10 + the variable group)
    let variable = || {
        op.field_operand(Field::Vaddr)
            .map_or(1, |o| o.ty.regs().saturating_sub(10).max(1))
    };
    if partial && op.flags & flags::BVH8 != 0 {
        // gfx12: node pointers, extents, origin, direction, offsets (dual: two)
        g[..5].copy_from_slice(&[2, 2, 3, 3, variable()]);
    } else if partial && op.flags & flags::BVH != 0 {
        // node pointer: 1 register (64-bit: 2)
        let node = variable();
        let dirs: &[u8] = if a16 { &[3] } else { &[3, 3] };
        g[0] = node;
        g[1] = 1;
        g[2] = 3;
        g[3..3 + dirs.len()].copy_from_slice(dirs);
    } else if count > slots {
        let s = usize::from(slots);
        g[..s - 1].fill(1);
        g[s - 1] = count - (slots - 1);
    } else {
        g[..usize::from(count.min(13))].fill(1);
    }
    g
}

/// `dim:SQ_RSRC_IMG_*` names by value.
const IMAGE_DIMS: [&str; 8] = [
    "1D",
    "2D",
    "3D",
    "CUBE",
    "1D_ARRAY",
    "2D_ARRAY",
    "2D_MSAA",
    "2D_MSAA_ARRAY",
];

/// MTBUF data formats (dfmt) by value.
const DATA_FORMATS: [&str; 16] = [
    "INVALID",
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
    "RESERVED_15",
];

/// MTBUF numeric formats (nfmt) by value (6 is SNORM_OGL on gfx6/7).
const NUM_FORMATS: [&str; 8] = [
    "UNORM",
    "SNORM",
    "USCALED",
    "SSCALED",
    "UINT",
    "SINT",
    "RESERVED_6",
    "FLOAT",
];

/// gfx11+ LDSDIR (`lds_param_load v1, attr3.y wait_vdst:0`, gfx12 `ds_direct_load v1
/// wait_va_vdst:3 wait_vm_vsrc:0`): the wait counts are always printed.
fn lds_direct(out: &mut String, op: &crate::OpDesc, wait_vdst: bool, f: &dyn Fn(Field) -> u32) {
    out.push_str(" v");
    dec(out, f(Field::Vdst));
    if op.has_field(Field::Attr) {
        let _ = write!(
            out,
            ", attr{}.{}",
            f(Field::Attr),
            ["x", "y", "z", "w"][f(Field::Attrchan) as usize & 3]
        );
    }
    // (gfx11 LDSDIR has wait_vdst, gfx12's wait_va_vdst and wait_vm_vsrc)
    if wait_vdst {
        let _ = write!(out, " wait_vdst:{}", f(Field::WaitVdst));
    } else {
        let _ = write!(
            out,
            " wait_va_vdst:{} wait_vm_vsrc:{}",
            f(Field::WaitVaVdst),
            f(Field::WaitVmVsrc)
        );
    }
}

/// The operands of `exp` (target, four sources or `off`, done/compr/vm) and of the
/// VINTRP `v_interp_*` (vdst, vsrc or p10/p20/p0, attrN.c).
fn exp_or_interp(out: &mut String, form: Form, generation: &str, f: &dyn Fn(Field) -> u32) {
    if form == Form::Vintrp {
        out.push_str(" v");
        dec(out, f(Field::Vdst));
        out.push_str(", ");
        if f(Field::Op) == 2 {
            // v_interp_mov_f32: the parameter slot
            match f(Field::Vsrc) {
                0 => out.push_str("p10"),
                1 => out.push_str("p20"),
                2 => out.push_str("p0"),
                v => {
                    out.push_str("invalid_param_");
                    dec(out, v);
                }
            }
        } else {
            out.push('v');
            dec(out, f(Field::Vsrc));
        }
        let _ = write!(
            out,
            ", attr{}.{}",
            f(Field::Attr),
            ["x", "y", "z", "w"][f(Field::Attrchan) as usize & 3]
        );
        return;
    }
    let tgt = f(Field::Tgt);
    out.push(' ');
    // gfx10+ targets as llvm-mc-22 names them: pos4 and prim; gfx11+ drops null and the
    // parameters and adds dual_src_blend0/1
    let rdna = matches!(generation, "gfx10" | "gfx11" | "gfx12");
    let gfx11 = rdna && generation != "gfx10";
    match tgt {
        0..=7 => {
            out.push_str("mrt");
            dec(out, tgt);
        }
        8 => out.push_str("mrtz"),
        9 if !gfx11 => out.push_str("null"),
        12..=15 => {
            out.push_str("pos");
            dec(out, tgt - 12);
        }
        16 if rdna => out.push_str("pos4"),
        20 if rdna => out.push_str("prim"),
        21 | 22 if gfx11 => {
            out.push_str("dual_src_blend");
            dec(out, tgt - 21);
        }
        32..=63 if !gfx11 => {
            out.push_str("param");
            dec(out, tgt - 32);
        }
        _ => {
            let _ = write!(out, "invalid_target_{tgt}");
        }
    }
    let compr = f(Field::Compr) != 0;
    let srcs = [Field::Vsrc0, Field::Vsrc1, Field::Vsrc2, Field::Vsrc3];
    for i in 0..4 {
        out.push_str(if i == 0 { " " } else { ", " });
        if f(Field::En) >> i & 1 == 0 {
            out.push_str("off");
        } else {
            // compressed: two 16-bit halves per register, vsrc0 and vsrc1
            let src = if compr { srcs[i / 2] } else { srcs[i] };
            out.push('v');
            dec(out, f(src));
        }
    }
    for (name, field) in [
        ("done", Field::Done),
        ("compr", Field::Compr),
        ("vm", Field::Vm),
        ("row_en", Field::RowEn),
    ] {
        if f(field) != 0 {
            out.push(' ');
            out.push_str(name);
        }
    }
}

/// Append a signed offset in LLVM's hex form (`0x2c`, `-0x10`; no formatter, no
/// allocation).
fn hex_signed(out: &mut String, v: i32) {
    if v < 0 {
        out.push('-');
    }
    crate::imm::hex(out, u64::from(v.unsigned_abs()));
}

/// `v_dual_X vdstx, src0x, vsrc1x :: v_dual_Y vdsty, src0y, vsrc1y` (gfx11+).
fn vopd(dec: &Decoder, inst: &Instruction, out: &mut String) {
    let op = dec.op(inst);
    // llvm-mc-22 quirk: after an X v_dual_fmamk_f32, a Y half that has a constant K too
    // shows a literal source as the inline constant it equals (`1.0`), without lit()
    let x_fmamk = op.flags & flags::VOPD_SHARED_K != 0;
    // gfx1250 VOPD3: neg bits of src0/vsrc1/src2, X in bits 0-2, Y in 3-5
    let neg = dec.field(inst, Field::Neg).unwrap_or(0);
    // llvm-mc-22 quirk (VOPD3): a scalar source of code 254 reads a 64-bit constant from
    // the second and third instruction words (nothing follows the instruction), and a
    // 255 next to one the second word; see `vopd3_constant`
    let vopd3 = dec.encoding(inst).words == 3;
    let wide = inst.raw >> 32 | u64::from(inst.literal) << 32;
    let quirk = |o: Operand| -> Option<bool> {
        match o {
            Operand::Special { code: 254, .. } | Operand::Literal64 if vopd3 => Some(true),
            Operand::Literal if vopd3 => Some(false),
            _ => None,
        }
    };
    let half = |out: &mut String,
                half_op: &crate::OpDesc,
                ops: &[Operand],
                descs: &[crate::desc::OperandDesc],
                is_y: bool| {
        let shared_k =
            is_y && x_fmamk && descs.iter().any(|d| d.role == crate::desc::Role::Literal);
        let op_flags = half_op.flags;
        out.push_str(half_op.mnemonic);
        for (i, (o, od)) in ops.iter().zip(descs).enumerate() {
            if let (Ty::Bitop3, Operand::Vgpr { first, .. }) = (od.ty, *o) {
                // gfx1250 v_dual_bitop2_b32: the truth table is a modifier
                if first > 10 {
                    let _ = write!(out, " bitop3:0x{first:x}");
                } else if first != 0 {
                    let _ = write!(out, " bitop3:{first}");
                }
                continue;
            }
            out.push_str(if i == 0 { " " } else { ", " });
            let src = match od.role {
                Role::Field(Field::Src0x | Field::Src0y) => Some(0),
                Role::Field(Field::Vsrc1x | Field::Vsrc1y) => Some(1),
                Role::Field(Field::Src2x | Field::Src2y) => Some(2),
                _ => None,
            };
            let negated = src.is_some_and(|k| neg >> (k + if is_y { 3 } else { 0 }) & 1 != 0);
            // a negated constant is `neg(c)` (as in VOP3)
            // (a quirk constant in lit()/lit64() is negated with `-`)
            let neg_fn = negated
                && (matches!(o, Operand::Int(_) | Operand::Float(_))
                    || quirk(*o).is_some_and(|from254| {
                        !vopd3_constant_is_lit(wide, from254, od.ty, op_flags)
                    }));
            if neg_fn {
                out.push_str("neg(");
            } else if negated {
                out.push('-');
            }
            match (od.role, *o) {
                (_, o) if quirk(o).is_some() => {
                    if let Some(from254) = quirk(o) {
                        let lane = matches!(od.role, Role::Field(Field::Ssrc2x | Field::Ssrc2y));
                        if lane && !from254 {
                            // (a lane mask from 255: the second word as a 32-bit constant)
                            fixed_literal(out, wide as u32, Ty::B32, false);
                        } else {
                            vopd3_constant(out, wide, from254, od.ty, op_flags);
                        }
                    }
                }
                // the constant K of fmaak/fmamk: always hex
                (crate::desc::Role::Literal, _) => {
                    let _ = write!(out, "0x{:x}", inst.literal);
                }
                (_, Operand::Literal) if shared_k => {
                    fixed_literal(out, inst.literal, Ty::B32, false)
                }
                // dot2acc: packed 16-bit sources, inline only as such
                (_, Operand::Literal) if packed_inline(op_flags).is_some() => {
                    let v = inst.literal;
                    let float = packed_inline(op_flags).unwrap_or(&F16_INLINE);
                    if (-16..=64).contains(&(v as i32)) || float.contains(&v) {
                        let _ = write!(out, "lit(0x{v:x})");
                    } else {
                        let _ = write!(out, "0x{v:x}");
                    }
                }
                _ => operand(out, *o, od.ty, inst.literal),
            }
            if neg_fn {
                out.push(')');
            }
            match (od.role, *o) {
                // gfx1250 VOPD3 64-bit VGPR operands must be even-aligned (LLVM marks an
                // odd tuple; src0 may also be an SGPR pair, hence its class)
                (Role::Field(f), Operand::Vgpr { first, count: 2 }) if first % 2 == 1 => {
                    let class = if matches!(f, Field::Src0x | Field::Src0y) {
                        "VS"
                    } else {
                        "VReg"
                    };
                    invalid_register(out, format_args!("{class}_64_Align2"));
                }
                // a constant as v_dual_cndmask_b32's lane mask (VOPD3)
                (
                    Role::Field(Field::Ssrc2x | Field::Ssrc2y),
                    Operand::Int(_) | Operand::Float(_),
                ) => out.push_str("/*Invalid immediate*/"),
                // (but not on lit64(...))
                (Role::Field(Field::Ssrc2x | Field::Ssrc2y), o)
                    if quirk(o).is_some_and(|from254| !from254 || wide >> 32 != 0) =>
                {
                    out.push_str("/*Invalid immediate*/")
                }
                _ => {}
            }
        }
    };
    half(out, op, &inst.operands, op.operands, false);
    if let Some((y, ops)) = dec.vopd_y(inst) {
        out.push_str(" :: ");
        half(out, y, &ops, y.operands, true);
    }
}

/// The constant llvm-mc-22 shows for a gfx1250 VOPD3 scalar source of code 254 or 255
/// (next to a 254), `wide` being the second and third instruction words. 254: a value
/// that fits in 32 bits is `lit64(0x..)`; else a 64-bit operand shows the 64-bit value,
/// a 32-bit one the low half, as the inline constant it equals (packed f16/bf16
/// constants for v_dual_dot2acc_*) or in hex. 255: the low half in hex, or (a 32-bit
/// operand) `lit(0x<wide>)` when the low half could have been inline.
fn vopd3_constant(out: &mut String, wide: u64, from254: bool, ty: Ty, op_flags: u64) {
    let v = wide as u32;
    if vopd3_constant_is_lit(wide, from254, ty, op_flags) {
        if from254 {
            let _ = write!(out, "lit64(0x{wide:x})");
        } else {
            let _ = write!(out, "lit(0x{wide:x})");
        }
        return;
    }
    if !from254 {
        let _ = write!(out, "0x{v:x}");
        return;
    }
    if ty.bits() == 64 {
        inline64(out, wide);
        return;
    }
    match packed_inline(op_flags) {
        Some(table) if !(-16..=64).contains(&(v as i32)) => {
            match table.iter().position(|&b| b == v) {
                Some(i) => out.push_str(float(240 + i as u8)),
                None => {
                    let _ = write!(out, "0x{v:x}");
                }
            }
        }
        _ => fixed_literal(out, v, Ty::B32, false),
    }
}

/// Whether [`vopd3_constant`] shows `lit64(..)` (254) or `lit(..)` (255; for the packed
/// sources of v_dual_dot2acc_* when the low half could have been inline).
fn vopd3_constant_is_lit(wide: u64, from254: bool, ty: Ty, op_flags: u64) -> bool {
    if from254 {
        return wide >> 32 == 0;
    }
    let v = wide as u32;
    let Some(table) = packed_inline(op_flags) else {
        return ty.bits() != 64 && is_inline(v, Ty::B32);
    };
    let low = v & 0xffff;
    (-16..=64).contains(&i32::from(low as u16 as i16)) || table.contains(&low)
}

/// The inline float constants of packed 16-bit sources ([`flags::PACKED_F16`],
/// [`flags::PACKED_BF16`]: v_dual_dot2acc_*), if the op's sources are packed.
fn packed_inline(op_flags: u64) -> Option<&'static [u32; 9]> {
    if op_flags & flags::PACKED_F16 != 0 {
        Some(&F16_INLINE)
    } else if op_flags & flags::PACKED_BF16 != 0 {
        Some(&BF16_INLINE)
    } else {
        None
    }
}

/// A 64-bit value as LLVM prints a 64-bit float immediate: an inline integer (-16..64)
/// or float constant by its value, else hex (the high half alone when the low one is 0).
/// A gfx1250 64-bit literal (operand code 254, or the `K` of v_fmamk/fmaak_f64 when
/// `k`) as llvm-objdump-22 shows it (swept over values and operations with llvm-mc-22,
/// see tests/data/lit64): a value that fits in 32 bits is `lit64(0x..)` (a plain
/// constant that small would be encoded as a 32-bit literal or an inline constant); else
/// a source that equals an inline constant shows that constant (`-1`, `1.0`, also for
/// integer operations), but never a `K`; else a double whose low word is 0 shows its
/// high word, as a 32-bit f64 literal is written; else the 64-bit value in hex.
fn literal64(out: &mut String, v: u64, ty: Ty, k: bool) {
    if v >> 32 == 0 {
        let _ = write!(out, "lit64(0x{v:x})");
    } else if !k && inline64_constant(out, v) {
    } else if ty == Ty::F64 && v as u32 == 0 {
        let _ = write!(out, "0x{:x}", v >> 32);
    } else {
        let _ = write!(out, "0x{v:x}");
    }
}

/// Write the inline constant whose 64-bit value is `v`, if there is one.
fn inline64_constant(out: &mut String, v: u64) -> bool {
    let float = [
        (0x3fe0000000000000, "0.5"),
        (0xbfe0000000000000, "-0.5"),
        (0x3ff0000000000000, "1.0"),
        (0xbff0000000000000, "-1.0"),
        (0x4000000000000000, "2.0"),
        (0xc000000000000000, "-2.0"),
        (0x4010000000000000, "4.0"),
        (0xc010000000000000, "-4.0"),
        (0x3fc45f306dc9c882, "0.15915494309189532"),
    ];
    if (-16..=64).contains(&(v as i64)) {
        let _ = write!(out, "{}", v as i64);
    } else if let Some((_, t)) = float.iter().find(|(b, _)| *b == v) {
        out.push_str(t);
    } else {
        return false;
    }
    true
}

fn inline64(out: &mut String, v: u64) {
    if inline64_constant(out, v) {
    } else if v & 0xffff_ffff == 0 {
        // (as LLVM shows a 64-bit float literal: its high half when the low one is 0)
        let _ = write!(out, "0x{:x}", v >> 32);
    } else {
        let _ = write!(out, "0x{v:x}");
    }
}

/// ` bitop3:N` of v_bitop3_*: the 8-bit truth table, decimal up to 10, else hex (none
/// when 0).
fn bitop3_table(out: &mut String, t: u32) {
    if t > 10 {
        let _ = write!(out, " bitop3:0x{t:x}");
    } else if t != 0 {
        let _ = write!(out, " bitop3:{t}");
    }
}

/// Whether a gfx11+ VOP3 instruction with true16 operands has an `op_sel` bit set for
/// an operand it lacks (a third source, a vector destination of a compare): llvm-mc-22
/// then prints whole registers and no `op_sel`.
fn true16_fallback(op: &crate::OpDesc, inst: &Instruction, sel: u32) -> bool {
    if !inst
        .operands
        .iter()
        .any(|o| matches!(o, Operand::VgprHalf { .. }))
    {
        return false;
    }
    let mut used = 0;
    for od in op.operands {
        used |= match od.role {
            Role::Field(Field::Src0) => 1,
            Role::Field(Field::Src1) => 2,
            Role::Field(Field::Src2) => 4,
            Role::Field(Field::Vdst) => 8,
            _ => 0,
        };
    }
    // (v_cndmask_b16's lane mask is a source, but has no op_sel bit)
    sel & !(used & !crate::decode::lane_mask_sources(op)) & 0xf != 0
}

/// The DPP16 or DPP8 word of a gfx11+ VOP3/VOP3P instruction in DPP form, if any.
fn vop3_dpp_word(out: &mut String, dec: &Decoder, inst: &Instruction) {
    let w = inst.literal;
    match dec.vop3_dpp_kind(inst) {
        Some(Vop3Dpp::Dpp16) => dpp16(
            out,
            dpp16_ctrl(dec.op(inst).flags, w >> 8 & 0x1ff),
            w >> 28,
            w >> 24 & 0xf,
            w >> 19 & 1,
            w >> 18 & 1,
        ),
        Some(Vop3Dpp::Dpp8 { fi }) => dpp8(out, w >> 8, u32::from(fi)),
        None => {}
    }
}

/// The DPP16 control as llvm-mc-22 prints it: with [`flags::DPP_CTRL_AS_SRC`] a control
/// below 0x100 is read like a source-operand code (an inline integer 0-64 gives that
/// number; negative integers and floats an invalid control, here 0x100).
fn dpp16_ctrl(op_flags: u64, c: u32) -> u32 {
    if op_flags & flags::DPP_CTRL_AS_SRC == 0 {
        return c;
    }
    match c {
        0x80..=0xc0 => c - 0x80,
        0xc1..=0xd0 | 0xf0..=0xf8 => 0x100,
        _ => c,
    }
}

/// DPP8 lane selects of gfx10+ (`dpp8:[a,b,...]`, eight 3-bit fields from the lowest) and
/// `fi:1`.
fn dpp8(out: &mut String, sel: u32, fi: u32) {
    out.push_str(" dpp8:[");
    for i in 0..8 {
        if i > 0 {
            out.push(',');
        }
        out.push(char::from(b'0' + (sel >> (3 * i) & 7) as u8));
    }
    out.push(']');
    if fi != 0 {
        out.push_str(" fi:1");
    }
}

/// DPP16 controls of gfx10+ (`quad_perm`, `row_shl`, ..., `row_share`, `row_xmask`),
/// masks, `bound_ctrl:1` and `fi:1`.
fn dpp16(out: &mut String, c: u32, row_mask: u32, bank_mask: u32, bound: u32, fi: u32) {
    let _ = match c {
        0..=0xff => write!(
            out,
            " quad_perm:[{},{},{},{}]",
            c & 3,
            c >> 2 & 3,
            c >> 4 & 3,
            c >> 6 & 3
        ),
        0x101..=0x10f => write!(out, " row_shl:{}", c & 0xf),
        0x111..=0x11f => write!(out, " row_shr:{}", c & 0xf),
        0x121..=0x12f => write!(out, " row_ror:{}", c & 0xf),
        0x140 => write!(out, " row_mirror"),
        0x141 => write!(out, " row_half_mirror"),
        0x150..=0x15f => write!(out, " row_share:{}", c & 0xf),
        0x160..=0x16f => write!(out, " row_xmask:{}", c & 0xf),
        _ => write!(out, " /* Invalid dpp_ctrl value */"),
    };
    let _ = write!(out, " row_mask:0x{row_mask:x} bank_mask:0x{bank_mask:x}");
    if bound != 0 {
        out.push_str(" bound_ctrl:1");
    }
    if fi != 0 {
        out.push_str(" fi:1");
    }
}

/// gfx12 cache policy: ` th:TH_...` (by loads, stores and atomics) and ` scope:SCOPE_...`.
fn cache_policy(out: &mut String, op_flags: u64, th: u32, scope: u32) {
    let sys = scope == 3;
    // (atomics print the cascade names from SCOPE_DEV on)
    let cascade = scope >= 2;
    if th != 0 {
        let atomic = op_flags & flags::ATOMIC != 0;
        let name = if atomic {
            match (th, cascade) {
                (1, _) => "TH_ATOMIC_RETURN",
                (2, _) => "TH_ATOMIC_NT",
                (3, _) => "TH_ATOMIC_NT_RETURN",
                (4 | 5, true) => "TH_ATOMIC_CASCADE_RT",
                (6 | 7, true) => "TH_ATOMIC_CASCADE_NT",
                _ => "",
            }
        } else {
            // (tensor_save stores a tensor: the store names)
            let store = op_flags & flags::STORE != 0;
            match (th, store, sys) {
                (1, false, _) => "TH_LOAD_NT",
                (2, false, _) => "TH_LOAD_HT",
                (3, false, false) => "TH_LOAD_LU",
                (3, false, true) => "TH_LOAD_BYPASS",
                (4, false, _) => "TH_LOAD_NT_RT",
                (5, false, _) => "TH_LOAD_RT_NT",
                (6, false, _) => "TH_LOAD_NT_HT",
                (1, true, _) => "TH_STORE_NT",
                (2, true, _) => "TH_STORE_HT",
                (3, true, false) => "TH_STORE_WB",
                (3, true, true) => "TH_STORE_BYPASS",
                (4, true, _) => "TH_STORE_NT_RT",
                (5, true, _) => "TH_STORE_RT_NT",
                (6, true, _) => "TH_STORE_NT_HT",
                (7, true, _) => "TH_STORE_NT_WB",
                _ => "",
            }
        };
        if !name.is_empty() {
            let _ = write!(out, " th:{name}");
        } else if atomic {
            let _ = write!(out, " th:TH_ATOMIC_0x{th:x}");
        } else {
            let _ = write!(out, " th:0x{th:x}");
        }
    }
    const SCOPE: [&str; 4] = ["", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS"];
    if let Some(s) = SCOPE.get(scope as usize).filter(|s| !s.is_empty()) {
        let _ = write!(out, " scope:{s}");
    }
}

/// A raw scalar operand code of an RDNA encoding, with gfx11+'s m0/null swapped to the
/// decoder's numbering (m0 = 124, null = 125).
fn rdna_scalar(dec: &Decoder, v: u32) -> Operand {
    let v = if dec.isa().generation != "gfx10" && v & !1 == 124 {
        v ^ 1
    } else {
        v
    };
    match crate::decode::scalar(v, Ty::B32) {
        // gfx10+ has no flat_scratch/xnack_mask operands: 102-105 are SGPRs
        Operand::Special { code, count } if (102..=105).contains(&code) => {
            Operand::Sgpr { first: code, count }
        }
        o => o,
    }
}

/// The 32-bit pattern of an inline float constant (240 = 0.5 ... 248 = 1/(2*pi)).
pub(crate) fn inline_float_bits(code: u8) -> u32 {
    match code {
        240 => 0x3f000000,
        241 => 0xbf000000,
        242 => 0x3f800000,
        243 => 0xbf800000,
        244 => 0x40000000,
        245 => 0xc0000000,
        246 => 0x40800000,
        247 => 0xc0800000,
        _ => 0x3e22f983,
    }
}
