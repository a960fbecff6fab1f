//! Translation, once per code object: the decoder's [`Instruction`]s become compact
//! pre-decoded [`DInst`]s (operation, resolved operands, branch targets as indices)
//! that the execution loop runs without looking at encodings again.

use crate::ops::{self, Cmp, CmpTy, Op};
use hsaco_isa::desc::{flags, Form, Role, Ty};
use hsaco_isa::{Decoder, Field, Instruction, Operand};

/// A source operand, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// No operand.
    None,
    /// A scalar register by its operand code (0-101 SGPRs, 102 `flat_scratch_lo`, 106
    /// `vcc_lo`, 124 `m0`, 126 `exec_lo`, ...); 64-bit operands read `code` and `code+1`.
    S(u8),
    /// A vector register (AGPR `n` is `256 + n`).
    V(u16),
    /// A constant already converted to the operand's type (inline constant, literal,
    /// aperture base).
    K(u64),
    /// `src_scc`.
    Scc,
    /// `src_vccz`.
    Vccz,
    /// `src_execz`.
    Execz,
}

/// A destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dst {
    /// None.
    None,
    /// Scalar register code.
    S(u8),
    /// Vector register.
    V(u16),
}

/// One pre-decoded instruction.
#[derive(Clone, Copy, Debug)]
pub struct DInst {
    /// The operation.
    pub op: Op,
    /// Main destination.
    pub dst: Dst,
    /// Second destination (carry-out / compare mask, `sdst` of VOP3B).
    pub sdst: Dst,
    /// Sources in order (src0, src1, src2; for memory: address, data, ...).
    pub src: [Src; 4],
    /// Immediate: branch target index, SOPK constant, memory offset.
    pub imm: i64,
    /// Second immediate (DS offset1, SMEM byte count, ...).
    pub imm2: u32,
    /// Modifier bits ([`m`]).
    pub mods: u64,
    /// Compare condition (for [`Op::VCmp`]).
    pub cmp: (Cmp, CmpTy),
    /// Sub-operation (atomics: index in [`crate::exec::ATOMIC_OPS`]).
    pub sub: u8,
}

/// Modifier bits of [`DInst::mods`].
pub mod m {
    /// neg of src0/1/2: bits 0-2.
    pub const NEG: u32 = 0;
    /// abs of src0/1/2: bits 3-5.
    pub const ABS: u32 = 3;
    /// clamp.
    pub const CLAMP: u64 = 1 << 6;
    /// omod (2 bits) at bit 7.
    pub const OMOD: u32 = 7;
    /// Compare writes EXEC too (`v_cmpx`).
    pub const CMPX: u64 = 1 << 9;
    /// Memory: the access returns data (atomic with glc).
    pub const RTN: u64 = 1 << 10;
    /// Memory: sign-extend sub-dword loads.
    pub const SIGNED: u64 = 1 << 11;
    /// Memory: segment (2 bits at 12): 0 flat, 1 scratch, 2 global.
    pub const SEG: u32 = 12;
    /// MUBUF `offen`.
    pub const OFFEN: u64 = 1 << 14;
    /// MUBUF `idxen`.
    pub const IDXEN: u64 = 1 << 15;
    /// Float operation (source modifiers apply).
    pub const FLOAT: u64 = 1 << 16;
    /// SMEM: `imm` offset is an SGPR (soffset in `src[1]`).
    pub const SOFF: u64 = 1 << 17;
    /// Flat/global: `saddr` is used (`src[2]`).
    pub const SADDR: u64 = 1 << 18;
    /// op_sel (VOP3: src0-2 and dst, 4 bits; VOP3P: 3 bits) at bit 19.
    pub const OPSEL: u32 = 19;
    /// op_sel_hi (VOP3P, 3 bits) at bit 23.
    pub const OPSEL_HI: u32 = 23;
    /// neg_hi (VOP3P, 3 bits) at bit 26.
    pub const NEG_HI: u32 = 26;
    /// Loads and stores of one 16-bit half (2 bits at 32): 1 low, 2 high.
    pub const D16: u32 = 32;
    /// VOPD: `imm2` is the index of the Y half in `Program::vopd_y`.
    pub const VOPD: u64 = 1 << 34;
    /// The destination is a true16 half (gfx11+ `v0.l`/`v0.h`): a 16-bit result keeps
    /// the other half (`op_sel[3]` says which half is written).
    pub const T16: u64 = 1 << 35;
    /// A SALU float operation (gfx12 `s_add_f32`): the VALU operation on one value,
    /// scalar destination.
    pub const SALU: u64 = 1 << 36;
    /// SDWA form: selections in `imm2` (src0_sel 2:0, src0_sext 3, src1_sel 6:4,
    /// src1_sext 7, dst_sel 10:8, dst_unused 12:11).
    pub const SDWA: u64 = 1 << 29;
    /// DPP form: `imm2` = dpp_ctrl 8:0, row_mask 12:9, bank_mask 16:13, bound_ctrl 17.
    pub const DPP: u64 = 1 << 30;
}

/// The DPP word of [`m::DPP`] instructions (`DInst::imm2`).
pub mod dpp {
    /// DPP16: dpp_ctrl 8:0, row_mask 12:9, bank_mask 16:13, bound_ctrl 17, fi 18.
    /// DPP8 (this bit set): the eight 3-bit lane selects 23:0, fi 24.
    pub const DPP8: u32 = 1 << 31;
}

/// The program: every instruction of the executable ranges, in address order.
#[derive(Clone, Debug)]
pub struct Program {
    /// Pre-decoded instructions.
    pub insts: Vec<DInst>,
    /// The decoded instructions (for messages and traces).
    pub raw: Vec<Instruction>,
    /// Address of each instruction.
    pub addr: Vec<u64>,
    /// `(start address, first index)` of each decoded range, for address lookups.
    ranges: Vec<(u64, u64, Vec<u32>)>,
    /// The Y halves of VOPD instructions (`DInst::imm2` of the X half indexes here).
    pub vopd_y: Vec<DInst>,
}

const NONE_INDEX: u32 = u32::MAX;

impl Program {
    /// The instruction index at a load address, if an instruction starts there.
    pub fn index_of(&self, addr: u64) -> Option<usize> {
        for (start, end, map) in &self.ranges {
            if (*start..*end).contains(&addr) {
                let slot = ((addr - start) / 4) as usize;
                if !(addr - start).is_multiple_of(4) {
                    return None;
                }
                return map
                    .get(slot)
                    .copied()
                    .filter(|&i| i != NONE_INDEX)
                    .map(|i| i as usize);
            }
        }
        None
    }

    /// Decode and translate the executable ranges of an image.
    pub fn translate(
        dec: &Decoder,
        image: &[u8],
        load_base: u64,
        code_ranges: &[(u64, u64)],
        apertures: (u64, u64),
    ) -> Program {
        let mut p = Program {
            insts: Vec::new(),
            raw: Vec::new(),
            addr: Vec::new(),
            ranges: Vec::new(),
            vopd_y: Vec::new(),
        };
        let mut op_cache: Vec<Option<Option<Op>>> = vec![None; dec.isa().ops.len()];
        for &(start, end) in code_ranges {
            let hi = (end.saturating_sub(load_base) as usize).min(image.len());
            let lo = (start.saturating_sub(load_base) as usize).min(hi);
            let mut map = vec![NONE_INDEX; (hi - lo).div_ceil(4)];
            let mut off = lo;
            while off + 4 <= hi {
                let idx = p.raw.len() as u32;
                map[(off - lo) / 4] = idx;
                let (inst, size) = match dec.decode(&image[off..hi]) {
                    Ok(i) => (i, usize::from(i.size).max(4)),
                    Err(_) => (invalid_inst(&image[off..off + 4]), 4),
                };
                p.raw.push(inst);
                p.addr.push(load_base + off as u64);
                off += size;
            }
            p.ranges.push((start, start + (hi - lo) as u64, map));
        }
        // translate (branch targets need the index map)
        for i in 0..p.raw.len() {
            let inst = p.raw[i];
            let d = if inst.op == u16::MAX {
                invalid()
            } else if dec.encoding(&inst).form == Form::Vopd {
                match translate_vopd(dec, &inst, apertures) {
                    Some((mut x, y)) => {
                        x.imm2 = p.vopd_y.len() as u32;
                        x.mods |= m::VOPD;
                        p.vopd_y.push(y);
                        x
                    }
                    None => DInst {
                        op: Op::Unimplemented,
                        ..invalid()
                    },
                }
            } else {
                let opi = usize::from(inst.op);
                let op = *op_cache[opi].get_or_insert_with(|| ops::lookup(dec.op(&inst).mnemonic));
                translate_one(dec, &inst, op, p.addr[i], apertures, &p)
            };
            p.insts.push(d);
        }
        p
    }
}

/// One half of a VOPD instruction: destination first, then the sources in order.
fn vopd_half(
    desc: &hsaco_isa::OpDesc,
    operands: &[Operand],
    literal: u32,
    apertures: (u64, u64),
) -> Option<DInst> {
    let op = ops::lookup(desc.mnemonic)?;
    if operands
        .iter()
        .any(|o| matches!(o, Operand::VgprHalf { .. } | Operand::Literal64))
    {
        return None;
    }
    let mut d = DInst { op, ..invalid() };
    let mut k = 0;
    for (j, od) in desc.operands.iter().enumerate() {
        let o = *operands.get(j)?;
        if j == 0 {
            d.dst = match o {
                Operand::Vgpr { first, .. } => Dst::V(u16::from(first)),
                _ => return None,
            };
            continue;
        }
        if k < 4 {
            d.src[k] = src_of(o, od.ty, literal, apertures);
            k += 1;
        }
    }
    if desc.operands.iter().any(|o| o.ty.is_float()) {
        d.mods |= m::FLOAT;
    }
    if op == Op::VCndmaskB32 {
        // the lane mask of v_dual_cndmask_b32 is VCC, not printed
        d.src[2] = Src::S(106);
    }
    Some(d)
}

fn translate_vopd(
    dec: &Decoder,
    inst: &Instruction,
    apertures: (u64, u64),
) -> Option<(DInst, DInst)> {
    let xd = dec.op(inst);
    let x = vopd_half(xd, &inst.operands, inst.literal, apertures)?;
    let (yd, yops) = dec.vopd_y(inst)?;
    let y = vopd_half(yd, &yops, inst.literal, apertures)?;
    Some((x, y))
}

fn invalid_inst(word: &[u8]) -> Instruction {
    Instruction {
        op: u16::MAX,
        encoding: 0,
        size: 4,
        operands: [Operand::None; hsaco_isa::MAX_OPERANDS],
        literal: 0,
        raw: u64::from(u32::from_le_bytes([word[0], word[1], word[2], word[3]])),
        nsa: 0,
    }
}

fn invalid() -> DInst {
    DInst {
        op: Op::Invalid,
        dst: Dst::None,
        sdst: Dst::None,
        src: [Src::None; 4],
        imm: 0,
        imm2: 0,
        mods: 0,
        cmp: (Cmp::F, CmpTy::U32),
        sub: 0,
    }
}

/// A source operand with its type.
fn src_of(o: Operand, ty: Ty, literal: u32, apertures: (u64, u64)) -> Src {
    let bits = ty.bits();
    match o {
        Operand::Sgpr { first, .. } => Src::S(first),
        Operand::Special { code, .. } => match code {
            235 => Src::K(apertures.0 >> 32 << if bits == 64 { 32 } else { 0 }),
            236 => Src::K(((apertures.0 >> 32) + 1) << if bits == 64 { 32 } else { 0 }),
            237 => Src::K(apertures.1 >> 32 << if bits == 64 { 32 } else { 0 }),
            238 => Src::K(((apertures.1 >> 32) + 1) << if bits == 64 { 32 } else { 0 }),
            251 => Src::Vccz,
            252 => Src::Execz,
            253 => Src::Scc,
            c => Src::S(c),
        },
        Operand::Ttmp { first, .. } => Src::S(108 + first),
        Operand::Vgpr { first, .. } => Src::V(u16::from(first)),
        Operand::VgprHalf { reg, .. } => Src::V(u16::from(reg)),
        Operand::Agpr { first, .. } => Src::V(256 + u16::from(first)),
        Operand::Int(v) => Src::K(if bits == 64 {
            i64::from(v) as u64
        } else if bits == 16 {
            u64::from(v as i16 as u16)
        } else {
            u64::from(v as i32 as u32)
        }),
        Operand::Float(code) => Src::K(inline_float(code, ty)),
        Operand::Literal => Src::K(match ty {
            Ty::F64 => u64::from(literal) << 32,
            Ty::I64 => literal as i32 as i64 as u64,
            _ => u64::from(literal),
        }),
        Operand::Imm(v) => Src::K(u64::from(v)),
        _ => Src::None,
    }
}

/// The value of an inline float constant (operand codes 240-248) as an operand of
/// type `ty` (AMDGPUOperandSyntax "inline constants").
pub fn inline_float(code: u8, ty: Ty) -> u64 {
    let v: f64 = match code {
        240 => 0.5,
        241 => -0.5,
        242 => 1.0,
        243 => -1.0,
        244 => 2.0,
        245 => -2.0,
        246 => 4.0,
        247 => -4.0,
        _ => 0.0,
    };
    match (ty.bits(), code) {
        // 1/(2*pi)
        (64, 248) => 0x3fc4_5f30_6dc9_c882,
        (16, 248) => 0x3118,
        (_, 248) => 0x3e22_f983,
        (64, _) => v.to_bits(),
        (16, _) => u64::from(f16_bits(v)),
        _ => u64::from((v as f32).to_bits()),
    }
}

fn f16_bits(v: f64) -> u16 {
    // exact for the inline constants (powers of two 0.5 .. 4)
    let sign = if v < 0.0 { 0x8000 } else { 0 };
    let a = v.abs();
    if a == 0.0 {
        return sign;
    }
    let e = libm::log2(a) as i32 + 15;
    sign | ((e as u16) << 10)
}

fn sext(v: u32, bits: u32) -> i64 {
    let s = 64 - bits;
    (i64::from(v) << s) >> s
}

fn translate_one(
    dec: &Decoder,
    inst: &Instruction,
    op: Option<Op>,
    addr: u64,
    apertures: (u64, u64),
    p: &Program,
) -> DInst {
    let desc = dec.op(inst);
    let enc = dec.encoding(inst);
    let mut d = DInst {
        op: op.unwrap_or(Op::Unimplemented),
        dst: Dst::None,
        sdst: Dst::None,
        src: [Src::None; 4],
        imm: 0,
        imm2: 0,
        mods: 0,
        cmp: (Cmp::F, CmpTy::U32),
        sub: 0,
    };
    if op.is_none() {
        return d;
    }
    // non-sequential image addresses and 64-bit literals are not resolved yet: refuse
    // rather than read something else
    if inst
        .operands
        .iter()
        .any(|o| matches!(o, Operand::VgprNsa { .. } | Operand::Literal64))
    {
        d.op = Op::Unimplemented;
        return d;
    }
    // SDWA and DPP forms select bytes/words and lanes: not executed yet, and running
    // them as the plain operation would be a silent wrong answer
    let gfx9 = matches!(dec.isa().generation, "gfx8" | "gfx9");
    if enc.form == Form::Sdwa && !gfx9 && dec.isa().generation != "gfx10" {
        // SDWA is gfx8-gfx10 (gfx10's has gfx9's fields)
        d.op = Op::Unimplemented;
        return d;
    }
    let field = |f: Field| dec.field(inst, f).unwrap_or(0);
    let mut nsrc = 0;
    let mut ndst = 0;
    let load = desc.flags & flags::LOAD != 0;
    // an atomic with glc returns the old value: the decoder puts vdst first, before the
    // operands the description lists
    let rtn = desc.flags & flags::GLC_RTN != 0
        && matches!(enc.form, Form::Flat | Form::Mubuf)
        // gfx12: TH_ATOMIC_RETURN (th bit 0) instead of glc
        && (field(Field::Glc) != 0 || field(Field::Th) & 1 != 0)
        && !load;
    let shift = usize::from(rtn);
    if rtn {
        if let Operand::Vgpr { first, .. } = inst.operands[0] {
            d.dst = Dst::V(u16::from(first));
        }
    }
    for (k, od) in desc.operands.iter().enumerate() {
        let Some(&o) = inst.operands.get(k + shift) else {
            break;
        };
        let role_field = match od.role {
            Role::Field(f) | Role::FieldOr(f, _) => Some(f),
            _ => None,
        };
        // memory forms: operands by role
        let slot = match (enc.form, role_field) {
            (Form::Flat, Some(Field::Addr)) | (Form::Ds, Some(Field::Addr)) => Some(0),
            (Form::Flat, Some(Field::Data)) | (Form::Ds, Some(Field::Data0)) => Some(1),
            (Form::Flat, Some(Field::Saddr)) | (Form::Ds, Some(Field::Data1)) => Some(2),
            (Form::Mubuf, Some(Field::Vaddr)) => Some(0),
            (Form::Mubuf, Some(Field::Vdata)) if !load => Some(1),
            (Form::Mubuf, Some(Field::Srsrc)) => Some(2),
            (Form::Mubuf, Some(Field::Soffset)) => Some(3),
            (Form::Smem, Some(Field::Sbase)) => Some(0),
            (Form::Smem, Some(Field::Offset)) => continue,
            _ => None,
        };
        if let Some(sl) = slot {
            d.src[sl] = src_of(o, od.ty, inst.literal, apertures);
            continue;
        }
        let is_dst = matches!(
            role_field,
            Some(Field::Vdst | Field::Sdst | Field::Sdst8 | Field::Sdata)
        ) || (role_field == Some(Field::Vdata) && load);
        if enc.form == Form::Sopk && role_field == Some(Field::Sdst) {
            // SOPK: sdst is also the first source (s_addk, s_cmpk)
            d.dst = match o {
                Operand::Sgpr { first, .. } => Dst::S(first),
                Operand::Special { code, .. } => Dst::S(code),
                _ => Dst::None,
            };
            d.src[0] = src_of(o, od.ty, inst.literal, apertures);
            nsrc = 1;
            continue;
        }
        if is_dst {
            if let Operand::VgprHalf { hi, .. } = o {
                // true16 destination: the half is op_sel[3], the other half is kept
                d.mods |= m::T16 | u64::from(hi) << (m::OPSEL + 3);
            }
            let dst = match o {
                Operand::Vgpr { first, .. } => Dst::V(u16::from(first)),
                Operand::VgprHalf { reg, .. } => Dst::V(u16::from(reg)),
                Operand::Agpr { first, .. } => Dst::V(256 + u16::from(first)),
                Operand::Sgpr { first, .. } => Dst::S(first),
                Operand::Special { code, .. } => Dst::S(code),
                Operand::Ttmp { first, .. } => Dst::S(108 + first),
                _ => Dst::None,
            };
            // a scalar destination of `null` is discarded (by its field: the wave64
            // decoder gives a lane-mask `null` as another register code)
            let null = match dec.isa().generation {
                "gfx6" | "gfx7" | "gfx8" | "gfx9" => None,
                "gfx10" => Some(125),
                _ => Some(124),
            };
            let dst = match role_field {
                Some(f @ (Field::Sdst | Field::Sdst8)) if Some(field(f)) == null => Dst::None,
                _ => dst,
            };
            if ndst == 0 {
                d.dst = dst;
            } else {
                d.sdst = dst;
            }
            ndst += 1;
            continue;
        }
        if matches!(od.role, Role::Field(Field::Simm16)) {
            let v = field(Field::Simm16);
            if od.ty == Ty::Label {
                let target = addr as i64 + 4 + 4 * sext(v, 16);
                d.imm = p.index_of(target as u64).map_or(-1, |i| i as i64);
            } else {
                d.imm = i64::from(v);
                if enc.form == Form::Sopk {
                    d.src[1] = Src::K(if desc.mnemonic.ends_with("u32") {
                        u64::from(v)
                    } else {
                        sext(v, 16) as u32 as u64
                    });
                }
            }
            continue;
        }
        if nsrc < 4 {
            if let Operand::VgprHalf { hi: true, .. } = o {
                // true16 source `v0.h`: op_sel of the source (VOP1/VOP2/VOPC carry it in
                // the register number, VOP3 in op_sel itself)
                d.mods |= 1 << (m::OPSEL + nsrc as u32);
            }
            d.src[nsrc] = src_of(o, od.ty, inst.literal, apertures);
            nsrc += 1;
        }
    }
    if matches!(enc.form, Form::Sop1 | Form::Sop2) && desc.mnemonic.starts_with("s_") {
        let valu = ops::OPS
            .iter()
            .find(|(o, _)| *o == d.op)
            .is_some_and(|(_, names)| names[0].starts_with("v_"));
        if valu {
            d.mods |= m::SALU;
            d.mods &= !m::FLOAT;
        }
    }
    // gfx12's barrier: only the work-group barrier (-1) is implemented
    if desc.mnemonic == "s_barrier_signal"
        && !matches!(inst.operands.first(), Some(Operand::Int(-1)))
    {
        d.op = Op::Unimplemented;
    }
    // v_readlane/v_readfirstlane write one SGPR; the wave64 gfx10+ decoder gives their
    // destination as a lane mask (an aligned pair), so take the register from the field
    if matches!(d.op, Op::VReadlaneB32 | Op::VReadfirstlaneB32) {
        if let (Dst::S(_), Some(r)) = (d.dst, dec.field(inst, Field::Vdst)) {
            d.dst = Dst::S(r as u8);
        }
    }
    // v_fmac_f16/v_mac_f16: D = S0 * S1 + D, the accumulator is the destination (its
    // half, for a true16 `v0.h`)
    if matches!(d.op, Op::VFmacF16 | Op::VMacF16) {
        if let Dst::V(r) = d.dst {
            d.src[2] = Src::V(r);
            d.mods &= !(1 << (m::OPSEL + 2));
            d.mods |= (d.mods >> (m::OPSEL + 3) & 1) << (m::OPSEL + 2);
        }
    }
    // 16-bit float operations: inline float constants are f16 (both halves for packed ops)
    let packed = enc.form == Form::Vop3p;
    let packed16 = packed && (desc.mnemonic.ends_with("_u16") || desc.mnemonic.ends_with("_i16"));
    if (desc.mnemonic.ends_with("_f16") && !desc.mnemonic.starts_with("v_cvt_f32_")) || packed16 {
        let mut k = 0;
        for (j, od) in desc.operands.iter().enumerate() {
            let o = inst
                .operands
                .get(j + shift)
                .copied()
                .unwrap_or(Operand::None);
            let is_src = matches!(
                od.role,
                Role::Field(Field::Src0 | Field::Src1 | Field::Src2)
            );
            if is_src {
                let h = match o {
                    Operand::Float(code) => Some(inline_float(code, Ty::F16)),
                    Operand::Int(v) if packed => Some(u64::from(v as i16 as u16)),
                    _ => None,
                };
                // v_dot2_f32_f16's accumulator (src2) is f32, not f16
                let f32_acc = k == 2 && desc.mnemonic == "v_dot2_f32_f16";
                if let (Some(h), false) = (h, f32_acc) {
                    let v = if packed { h | h << 16 } else { h };
                    // sources are in src[0..] in order
                    if k < 4 {
                        d.src[k] = Src::K(v);
                    }
                }
                k += 1;
            }
        }
    }
    if desc.flags & flags::FPMODS != 0 || desc.operands.iter().any(|o| o.ty.is_float()) {
        d.mods |= m::FLOAT;
    }
    match enc.form {
        Form::Vop3 => {
            d.mods |= u64::from(field(Field::Neg) & 7) << m::NEG;
            d.mods |= u64::from(field(Field::Abs) & 7) << m::ABS;
            if field(Field::Clamp) != 0 {
                d.mods |= m::CLAMP;
            }
            d.mods |= u64::from(field(Field::Omod) & 3) << m::OMOD;
            d.mods |= u64::from(field(Field::Opsel) & 15) << m::OPSEL;
        }
        Form::Vop3p => {
            d.mods |= u64::from(field(Field::Neg) & 7) << m::NEG;
            d.mods |= u64::from(field(Field::NegHi) & 7) << m::NEG_HI;
            if field(Field::Clamp) != 0 {
                d.mods |= m::CLAMP;
            }
            d.mods |= u64::from(field(Field::Opsel) & 7) << m::OPSEL;
            let hi = (field(Field::OpselHi) & 3) | (field(Field::OpselHi2) & 1) << 2;
            d.mods |= u64::from(hi) << m::OPSEL_HI;
            // packed ops: no float modifiers of the VOP3 kind
            d.mods &= !m::FLOAT;
        }
        Form::Sdwa => {
            d.mods |= m::SDWA;
            d.mods |= u64::from(field(Field::Src0Neg) & 1) << m::NEG
                | u64::from(field(Field::Src1Neg) & 1) << (m::NEG + 1);
            d.mods |= u64::from(field(Field::Src0Abs) & 1) << m::ABS
                | u64::from(field(Field::Src1Abs) & 1) << (m::ABS + 1);
            if field(Field::Clamp) != 0 {
                d.mods |= m::CLAMP;
            }
            d.mods |= u64::from(field(Field::Omod) & 3) << m::OMOD;
            let dst_sel = dec.field(inst, Field::DstSel).unwrap_or(6);
            d.imm2 = (field(Field::Src0Sel) & 7)
                | (field(Field::Src0Sext) & 1) << 3
                | (dec.field(inst, Field::Src1Sel).unwrap_or(6) & 7) << 4
                | (field(Field::Src1Sext) & 1) << 7
                | (dst_sel & 7) << 8
                | (field(Field::DstUnused) & 3) << 11;
        }
        Form::Dpp => {
            d.mods |= m::DPP;
            d.mods |= u64::from(field(Field::Src0Neg) & 1) << m::NEG
                | u64::from(field(Field::Src1Neg) & 1) << (m::NEG + 1);
            d.mods |= u64::from(field(Field::Src0Abs) & 1) << m::ABS
                | u64::from(field(Field::Src1Abs) & 1) << (m::ABS + 1);
            d.imm2 = if enc.field(Field::Dpp8).is_some() {
                dpp::DPP8 | (field(Field::Fi) & 1) << 24 | (field(Field::Dpp8) & 0xff_ffff)
            } else {
                (field(Field::DppCtrl) & 0x1ff)
                    | (field(Field::RowMask) & 0xf) << 9
                    | (field(Field::BankMask) & 0xf) << 13
                    | (field(Field::BoundCtrl) & 1) << 17
                    | (field(Field::Fi) & 1) << 18
            };
        }
        Form::Smem => {
            let gen = dec.isa().generation;
            let off_field = enc.field(Field::Offset);
            let off = field(Field::Offset);
            let width = off_field.map_or(20, |f| u32::from(f.width));
            if enc.field(Field::Imm).is_some() {
                // gfx6-gfx9: the imm bit says whether the offset is a constant or an SGPR
                if field(Field::Imm) != 0 {
                    d.imm = if gen == "gfx9" {
                        sext(off, 21)
                    } else {
                        i64::from(off)
                    };
                } else {
                    d.mods |= m::SOFF;
                    d.src[1] = Src::S((off & 0x7f) as u8);
                }
                if field(Field::Soe) != 0 {
                    d.src[2] = Src::S(field(Field::Soffset) as u8);
                }
            } else {
                // gfx10+: a signed constant plus an SGPR unless soffset is null
                d.imm = sext(off, width);
                let null = if matches!(gen, "gfx10") { 125 } else { 124 };
                if let Some(so) = dec.field(inst, Field::Soffset) {
                    if so != null {
                        d.src[2] = Src::S(so as u8);
                    }
                }
            }
            d.imm2 = desc.operands.first().map_or(1, |o| u32::from(o.ty.regs()));
        }
        Form::Ds => {
            let o0 = field(Field::Offset0);
            let o1 = field(Field::Offset1);
            if desc.flags & flags::OFFSET2 != 0 {
                d.imm = i64::from(o0);
                d.imm2 = o1;
            } else {
                d.imm = i64::from(o0 | (o1 << 8));
            }
        }
        Form::Flat => {
            let seg = field(Field::Seg);
            d.mods |= u64::from(seg & 3) << m::SEG;
            let off = field(Field::Offset);
            let width = enc.field(Field::Offset).map_or(13, |f| u32::from(f.width));
            d.imm = if seg == 0 {
                i64::from(off & ((1 << (width - 1)) - 1))
            } else {
                sext(off, width)
            };
            // `off`: 0x7f on gfx9, the null register on gfx10 (125) and gfx11+ (124)
            let saddr = field(Field::Saddr);
            let null = match dec.isa().generation {
                "gfx10" => 125,
                "gfx9" | "gfx8" | "gfx7" => 0x7f,
                _ => 124,
            };
            let has_saddr = saddr != 0x7f && saddr != null;
            if seg != 0 && has_saddr {
                d.mods |= m::SADDR;
            }
            // scratch_: the VGPR offset is there when the SVE bit says so (gfx940, gfx11+),
            // else only when saddr is the "no SGPR" code (gfx9 0x7f, gfx10 null)
            if seg == 1 {
                let vaddr = match dec.field(inst, Field::Sve) {
                    Some(sve) => sve != 0,
                    // gfx940's SVE is bit 13 (gfx9's LDS bit)
                    None if matches!(dec.processor(), "gfx942" | "gfx950") => {
                        field(Field::Lds) != 0
                    }
                    // gfx9: VADDR unless an SGPR; gfx10: VADDR only with saddr = null
                    // (0x7f there is the ST mode: neither register)
                    None => saddr == null,
                };
                if !vaddr {
                    d.src[0] = Src::None;
                }
            }
            if (field(Field::Glc) != 0 || field(Field::Th) & 1 != 0)
                && desc.flags & flags::GLC_RTN != 0
            {
                d.mods |= m::RTN;
            }
            mem_width(desc.mnemonic, &mut d);
            if d.op == Op::MemAtomic {
                let tail = desc.mnemonic.split("atomic_").nth(1).unwrap_or("");
                match ops::atomic(tail) {
                    Some((name, bytes)) => {
                        d.sub = crate::exec::ATOMIC_OPS
                            .iter()
                            .position(|x| *x == name)
                            .map_or(u8::MAX, |p| p as u8);
                        d.imm2 = bytes;
                    }
                    None => d.op = Op::Unimplemented,
                }
            }
        }
        Form::Mubuf => {
            d.imm = i64::from(field(Field::Offset));
            if field(Field::Offen) != 0 {
                d.mods |= m::OFFEN;
            }
            if field(Field::Idxen) != 0 {
                d.mods |= m::IDXEN;
            }
            mem_width(desc.mnemonic, &mut d);
        }
        _ => {}
    }
    // gfx11+ VOP3 in its DPP form: the DPP word follows the instruction (its low byte is
    // src0, which the decoder has already resolved)
    if let Some(kind) = dec.vop3_dpp_kind(inst) {
        let w = inst.literal;
        d.mods |= m::DPP;
        d.imm2 = match kind {
            hsaco_isa::decode::Vop3Dpp::Dpp16 => {
                (w >> 8 & 0x1ff)
                    | (w >> 28 & 0xf) << 9
                    | (w >> 24 & 0xf) << 13
                    | (w >> 19 & 1) << 17
                    | (w >> 18 & 1) << 18
            }
            hsaco_isa::decode::Vop3Dpp::Dpp8 { fi } => {
                dpp::DPP8 | u32::from(fi) << 24 | (w >> 8 & 0xff_ffff)
            }
        };
    }
    // matrix operations: the block broadcasts (cbsz/abid), B lane patterns (blgp; gfx942's
    // f64 negation) and WMMA's negation/clamp are not implemented: refuse rather than
    // compute something else. gfx12 has its own WMMA register layout (`sub` 1).
    match d.op {
        Op::VMfmaF32x16x16x4F32 | Op::VMfmaF64x16x16x4F64
            if field(Field::Cbsz) | field(Field::Abid) | field(Field::Blgp) != 0 =>
        {
            d.op = Op::Unimplemented;
        }
        Op::VWmmaF32x16x16x16F16 => {
            if d.mods & (7 << m::NEG | 7 << m::NEG_HI | 7 << m::OPSEL | m::CLAMP) != 0 {
                d.op = Op::Unimplemented;
            }
            if !matches!(dec.isa().generation, "gfx11") {
                d.sub = 1;
            }
        }
        // the f32 accumulator has no high half to negate (neg_hi[2] is not done)
        Op::VDot2F32F16 if d.mods >> (m::NEG_HI + 2) & 1 != 0 => d.op = Op::Unimplemented,
        _ => {}
    }
    // gfx8's v_add_u32/v_sub_u32/v_subrev_u32 write a carry (gfx9's *_co_u32)
    if matches!(d.op, Op::VAddU32 | Op::VSubU32 | Op::VSubrevU32)
        && desc
            .operands
            .iter()
            .any(|o| matches!(o.role, Role::FieldOr(Field::Sdst, _)))
    {
        d.op = match d.op {
            Op::VAddU32 => Op::VAddCoU32,
            Op::VSubU32 => Op::VSubCoU32,
            _ => Op::VSubrevCoU32,
        };
    }
    if d.op == Op::VCmp {
        if let Some((c, t, x)) = ops::compare(desc.mnemonic) {
            d.cmp = (c, t);
            if x {
                d.mods |= m::CMPX;
            }
        }
    }
    if matches!(d.op, Op::VCmp | Op::VCmpClassF32 | Op::VCmpClassF64) {
        if desc.mnemonic.starts_with("v_cmpx_class") {
            d.mods |= m::CMPX;
        }
        // VOPC: the first operand (vcc / sdst) is the mask destination (class tests
        // too: without this their mask was never written)
        if d.dst != Dst::None && d.sdst == Dst::None {
            d.sdst = d.dst;
            d.dst = Dst::None;
        }
    }
    d
}

/// Bytes per lane of a memory instruction (`imm2`), sign extension and d16 half.
fn mem_width(mnemonic: &str, d: &mut DInst) {
    let tail = ["_load_", "_store_"]
        .iter()
        .find_map(|k| mnemonic.split_once(k).map(|(_, t)| t))
        .unwrap_or("");
    let (bytes, signed, half) = ops::width(tail).unwrap_or((4, false, 0));
    d.imm2 = bytes;
    if signed {
        d.mods |= m::SIGNED;
    }
    d.mods |= u64::from(half) << m::D16;
}
