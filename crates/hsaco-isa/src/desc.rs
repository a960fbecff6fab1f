//! The shape of the instruction-set description, as the generated tables hold it.
//!
//! One [`IsaDesc`] per generation is generated from `defs/<gen>.txt` by
//! `cargo xtask codegen`. Decoder, printer and (later) encoder and emulator read only
//! these tables; see `DESIGN.md` for the text format.

pub use crate::gen::Field;

/// How the bits of a field are read as an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// Opcode bits (part of the lookup key).
    Op,
    /// 7- or 8-bit scalar destination: SGPRs, `vcc`, `exec`, `m0`, trap temporaries.
    Sdst,
    /// 8-bit scalar source: scalar registers, inline constants, 255 = literal.
    Ssrc,
    /// 9-bit source: as [`FieldKind::Ssrc`] below 256, VGPR `n - 256` above.
    Src9,
    /// 8-bit VGPR number.
    Vgpr,
    /// SGPR pair number / 2 (SMEM base address).
    Sbase,
    /// SGPR quad number / 4 (buffer resource).
    Srsrc,
    /// Plain unsigned immediate.
    Imm,
    /// One-bit modifier.
    Flag,
}

/// One field of an encoding.
#[derive(Clone, Copy, Debug)]
pub struct FieldDesc {
    /// Which field.
    pub field: Field,
    /// Lowest bit in the 64-bit little-endian value of the first two words.
    pub lo: u8,
    /// Width in bits.
    pub width: u8,
    /// How the field is read.
    pub kind: FieldKind,
}

impl FieldDesc {
    /// The field's value in `raw` (first two instruction words).
    #[inline]
    pub fn get(&self, raw: u64) -> u32 {
        if self.lo >= 64 {
            return 0;
        }
        ((raw >> self.lo) & ((1u64 << self.width) - 1)) as u32
    }

    /// The field's value in a three-word instruction (gfx12 VFLAT/VBUFFER): bits 64-95
    /// are in `w2`, the third word.
    #[inline]
    pub fn get_wide(&self, raw: u64, w2: u32) -> u32 {
        match self.lo.checked_sub(64) {
            Some(lo) if lo < 32 => ((u64::from(w2) >> lo) & ((1u64 << self.width) - 1)) as u32,
            Some(_) => 0,
            None => self.get(raw),
        }
    }
}

/// Encoding families, which decide how modifiers are printed and executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Form {
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Vop3p,
    /// Matrix (MFMA/SMFMAC) and accumulator-move instructions of gfx908+.
    Mai,
    /// gfx950 scaled MFMA (`v_mfma_scale_*`, 16 bytes): a `v_mfma_ld_scale_b32` word
    /// pair (its sources are the scale operands, its op_sel/op_sel_hi bits the scale
    /// selects; kept in [`crate::Instruction::nsa`]) followed by a `v_mfma_*_f8f6f4`
    /// pair with abid 1 (kept in `raw`, read through the encoding's fields). The
    /// encoding never matches a word by itself: the decoder builds it from the pair.
    Vop3px2,
    Sdwa,
    Dpp,
    Ds,
    Flat,
    Mubuf,
    /// Typed buffer access (`tbuffer_*`, `format:`).
    Mtbuf,
    /// Image instructions (gfx6-gfx9 layout).
    Mimg,
    /// Export (`exp TARGET ...`).
    Exp,
    /// Parameter interpolation (`v_interp_*`, gfx6-gfx8 VINTRP layout).
    Vintrp,
    /// gfx11+ dual-issue VALU (`v_dual_X ... :: v_dual_Y ...`): the X half; `VOPDY` (the
    /// Y half's opcode table) has this form too.
    Vopd,
}

impl Form {
    /// The VALU forms whose operand fields are VOP sources and destinations: VOP1, VOP2,
    /// VOPC, VOP3 and VOP3P (not SDWA, DPP or VOPD).
    pub fn is_vop(self) -> bool {
        matches!(
            self,
            Form::Vop1 | Form::Vop2 | Form::Vopc | Form::Vop3 | Form::Vop3p
        )
    }
}

/// One encoding (instruction format) of a generation.
#[derive(Debug)]
pub struct EncodingDesc {
    /// Name as in the description (`VOP3`, `VOP2_SDWA`).
    pub name: &'static str,
    /// Family.
    pub form: Form,
    /// Words without a literal constant.
    pub words: u8,
    /// Value of the first word under `mask` that selects this encoding.
    pub match_bits: u32,
    /// Mask of the identifying bits of the first word.
    pub mask: u32,
    /// Fields.
    pub fields: &'static [FieldDesc],
    /// Fields whose values, concatenated (first is most significant), form the opcode key.
    pub key: &'static [Field],
    /// Encoding whose opcode table this one shares (SDWA and DPP forms), by index.
    pub base: Option<u8>,
    /// Opcode key -> instructions, sorted by key; several rows with one key differ in
    /// processors.
    pub opcodes: &'static [OpcodeRow],
}

impl EncodingDesc {
    /// The description of `field`, if this encoding has it.
    #[inline]
    pub fn field(&self, field: Field) -> Option<&'static FieldDesc> {
        self.fields.iter().find(|f| f.field == field)
    }
}

/// One row of an encoding's opcode table.
#[derive(Clone, Copy, Debug)]
pub struct OpcodeRow {
    /// Opcode key.
    pub key: u16,
    /// Instruction index in [`IsaDesc::ops`].
    pub op: u16,
    /// Processors (bit i = [`IsaDesc::processors`]\[i\]) that have this opcode.
    pub procs: u32,
}

/// The data type of an operand, or the syntax of an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Ty {
    B16,
    B32,
    B64,
    B96,
    B128,
    B160,
    B192,
    B256,
    /// gfx12 `image_bvh8_intersect_ray` data (10 registers).
    B320,
    /// gfx10.3 `image_bvh_intersect_ray` addresses (11 registers).
    B352,
    /// gfx10.3 `image_bvh64_intersect_ray` addresses (12 registers).
    B384,
    B512,
    B1024,
    /// A matrix accumulator of eight f16 (WMMA C/D, 128 bits): a literal is a 16-bit
    /// one (printed as f16 sources are).
    F16x8,
    /// A matrix accumulator of eight bf16 (128 bits): a 32-bit literal, inline when its
    /// low half is a bf16 inline constant.
    Bf16x8,
    F16,
    F32,
    F64,
    I16,
    I32,
    I64,
    U16,
    U32,
    U64,
    /// 16-bit immediate printed in hex (`0x1234`).
    Hex16,
    /// 16-bit immediate printed in decimal.
    Dec16,
    /// 16-bit immediate printed in decimal, omitted when zero.
    Opt16,
    /// Signed 16-bit branch offset in words (printed as unsigned).
    Label,
    /// `hwreg(...)`.
    Hwreg,
    /// `sendmsg(...)`.
    Sendmsg,
    /// `vmcnt(..) expcnt(..) lgkmcnt(..)`.
    Waitcnt,
    /// `gpr_idx(...)`.
    GprIdx,
    /// `attrN.c` of the gfx8/gfx9 VOP3 `v_interp_*_f16`: attribute in bits 0-5 of src0,
    /// channel in 6-7 (bit 8, `high`, is printed as a modifier).
    Attr,
    /// SMEM offset: immediate or SGPR.
    SmemOffset,
    /// gfx11+ `s_delay_alu` operand: `instid0(...) | instskip(...) | instid1(...)`.
    DelayAlu,
    /// gfx10+ `s_waitcnt_depctr` operand: `depctr_va_vdst(0)` ...
    Depctr,
    /// `s_sendmsg_rtn_*` message: `sendmsg(MSG_RTN_...)`.
    SendmsgRtn,
    /// gfx1250 `v_dual_bitop2_b32` truth table, printed as the modifier ` bitop3:0x..`.
    Bitop3,
}

impl Ty {
    /// Width in bits of a register or constant operand (32 for immediates).
    pub fn bits(self) -> u32 {
        use Ty::*;
        match self {
            B16 | F16 | I16 | U16 => 16,
            B64 | F64 | I64 | U64 => 64,
            B96 => 96,
            B128 | F16x8 | Bf16x8 => 128,
            B160 => 160,
            B192 => 192,
            B256 => 256,
            B320 => 320,
            B352 => 352,
            B384 => 384,
            B512 => 512,
            B1024 => 1024,
            _ => 32,
        }
    }

    /// Number of 32-bit registers an operand of this type occupies.
    pub fn regs(self) -> u8 {
        self.bits().div_ceil(32) as u8
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }
}

/// Where an operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A field of the encoding.
    Field(Field),
    /// A field if the encoding has it, else a fixed register (scalar encoding value, e.g.
    /// 106 = `vcc`): `sdst|vcc` is `vcc` in VOP2 and the `sdst` field in VOP3.
    FieldOr(Field, u8),
    /// A fixed register (scalar encoding value).
    Fixed(u8),
    /// The literal constant that follows the instruction words.
    Literal,
}

/// One operand of an instruction, in printing order.
#[derive(Clone, Copy, Debug)]
pub struct OperandDesc {
    /// Where it comes from.
    pub role: Role,
    /// Its type.
    pub ty: Ty,
}

/// Flags of an instruction (bit set).
pub mod flags {
    /// Floating-point source modifiers (`neg`, `abs`) in VOP3/SDWA/DPP forms.
    pub const FPMODS: u64 = 1 << 0;
    /// `clamp`.
    pub const CLAMP: u64 = 1 << 1;
    /// Output modifier (`mul:2`, `mul:4`, `div:2`).
    pub const OMOD: u64 = 1 << 2;
    /// Has an SDWA form.
    pub const SDWA: u64 = 1 << 3;
    /// Has a DPP form.
    pub const DPP: u64 = 1 << 4;
    /// VOP3P `neg_lo`/`neg_hi`.
    pub const NEG: u64 = 1 << 5;
    /// `op_sel`.
    pub const OPSEL: u64 = 1 << 6;
    /// DS: two 8-bit offsets (`offset0`, `offset1`) instead of one 16-bit offset.
    pub const OFFSET2: u64 = 1 << 7;
    /// DS: `gds` (the bit may be set).
    pub const GDS: u64 = 1 << 8;
    /// FLAT atomics: with `glc` the pre-op value is returned in `vdst`, printed first.
    pub const GLC_RTN: u64 = 1 << 9;
    /// gfx10+ MIMG: accepts packed 16-bit data (`d16`).
    pub const D16: u64 = 1 << 10;
    /// DS: GDS only (`ds_gws_*`, `ds_ordered_count`, ...): the `gds` bit must be set.
    pub const GDS_ONLY: u64 = 1 << 11;
    /// gfx12 DPP forms: `vdst` must be one of v0-v127 (a 16-bit operand LLVM decodes as
    /// a low-128 register; a higher number makes the word invalid).
    pub const DPP_LO128_VDST: u64 = 1 << 12;
    /// gfx12 DPP forms: `src0` must be one of v0-v127.
    pub const DPP_LO128_SRC0: u64 = 1 << 13;
    /// gfx12 DPP forms: `src1` must be one of v0-v127.
    pub const DPP_LO128_SRC1: u64 = 1 << 14;
    /// gfx10+ DPP16 forms: neg/abs bits of src0 are accepted but not printed.
    pub const DPP_IGNORE_MODS0: u64 = 1 << 15;
    /// gfx10+ DPP16 forms: neg/abs bits of src1 are accepted but not printed.
    pub const DPP_IGNORE_MODS1: u64 = 1 << 16;
    /// gfx10+ DPP16 forms: a neg/abs bit of src0 makes the word invalid.
    pub const DPP_REJECT_MODS0: u64 = 1 << 17;
    /// gfx10+ DPP16 forms: a neg/abs bit of src1 makes the word invalid.
    pub const DPP_REJECT_MODS1: u64 = 1 << 18;
    /// A VOP3P-encoded matrix op (gfx940+ MFMA/SMFMAC below opcode 0x40): read as the
    /// MAI encoding (AGPR operands from acc/acc_cd, cbsz/abid/blgp).
    pub const MAI: u64 = 1 << 19;
    /// gfx11+: has VOP3/VOP3P forms with a DPP16/DPP8 word (`v_add3_u32_e64_dpp`).
    pub const VOP3_DPP: u64 = 1 << 20;
    /// gfx12 `v_cvt_sr_fp8/bf8_*`: op_sel bits 2-3 (src2's and vdst's) are a byte
    /// select, printed ` byte_sel:N` after op_sel; gfx1250 `v_cvt_f16_fp8/bf8` (one
    /// source): op_sel bits 0-1 are, bit 0 the high bit of N.
    pub const BYTE_SEL: u64 = 1 << 21;
    /// gfx12+ VOP3P matrix op (WMMA/SWMMAC): op_sel and op_sel_hi are not printed as
    /// such. op_sel_hi (bits 59-60, and bit 14 unless [`MATRIX_REUSE`]/[`MATRIX_FMT`] use
    /// it) must hold its neutral value, all ones; the op_sel bits hold `index_key`
    /// ([`INDEX_KEY`]), `matrix_a_reuse`/`matrix_b_reuse` ([`MATRIX_REUSE`]) or the
    /// formats ([`MATRIX_FMT`]). A neg_lo/neg_hi/clamp bit the op does not take makes
    /// the word invalid: neg_lo of A/B with [`NEG`], neg_hi of A/B with [`NEG_HI`],
    /// both of the accumulator C (src2: its neg and abs) with [`FPMODS`], clamp with
    /// [`CLAMP`].
    pub const WMMA: u64 = 1 << 22;
    /// WMMA: neg_hi of the A and B matrices (src0, src1; packed 16-bit elements).
    pub const NEG_HI: u64 = 1 << 23;
    /// SWMMAC: op_sel bit 0 (bit 11) is `index_key:N`, which half of the sparse index.
    pub const INDEX_KEY: u64 = 1 << 24;
    /// gfx1250 WMMA/SWMMAC: op_sel bit 2 (bit 13) is `matrix_a_reuse`, bit 14
    /// `matrix_b_reuse`.
    pub const MATRIX_REUSE: u64 = 1 << 25;
    /// gfx1250 `v_wmma_*_f8f6f4`: op_sel (bits 11-13) is `matrix_a_fmt`, op_sel_hi with
    /// bit 14 above it `matrix_b_fmt` (`MATRIX_FMT_FP8`=0 (default), `BF8`, `FP6`, `BF6`,
    /// `FP4`, else a number); they also give the widths of A and B.
    pub const MATRIX_FMT: u64 = 1 << 26;
    /// Printed without `_e32`/`_e64` although it has both a VOP1/VOP2/VOPC and a VOP3
    /// form (gfx1250 `v_cvt_pk_f16_fp8`/`bf8`, observed).
    pub const NO_SUFFIX: u64 = 1 << 27;
    /// gfx950 `v_mfma_*_f8f6f4`: cbsz is the format of src0 (A), blgp that of src1 (B):
    /// FP8/BF8 (0, 1) and the unnamed 5-7 keep the described 8 registers, FP6/BF6 (2, 3)
    /// take 6, FP4 (4) 4 (each operand by its own format; printed as `cbsz:N blgp:N`).
    /// abid must be 0: abid 1 marks the second half of a scaled pair
    /// (`v_mfma_scale_*`, see [`crate::Decoder::decode`]).
    pub const MAI_FMT: u64 = 1 << 28;
    /// gfx9 global float atomics (`global_atomic_add_f32`, `pk_add_f16`,
    /// `add/min/max_f64`): LLVM restricts their returning (glc), scc/sc1 and AGPR forms
    /// by processor (rules in `Decoder::gfx9_global_scratch_valid`).
    pub const FP_ATOMIC: u64 = 1 << 30;
    /// gfx8-gfx10 MUBUF: the `lds` bit (16) may be set (the load goes to LDS at M0):
    /// llvm-mc-22 rejects it on every other buffer op. An op with this flag and no data
    /// operand (`buffer_store_lds_dword`) requires it.
    pub const LDS: u64 = 1 << 29;
    /// gfx11+ VOP3 DPP16 form of the ops with a tied destination half
    /// (`v_fma_mixlo/hi_f16`, gfx12 `v_cvt_pk_fp8_f32`, gfx1250 `v_fma_mixlo/hi_bf16`):
    /// llvm-mc-22 reads a DPP control below 0x100 as if it were a source-operand code:
    /// 0x80-0xc0 (the inline integers 0-64) print as the control minus 0x80, 0xc1-0xd0
    /// and 0xf0-0xf8 (negative integers, floats) as `/* Invalid dpp_ctrl value */`, 0xff
    /// (literal) makes the word invalid; every other control is as usual (swept, all
    /// 512 controls on gfx1100/gfx1201/gfx1250).
    pub const DPP_CTRL_AS_SRC: u64 = 1 << 31;

    // Bits 28-31 are for flags added in parallel (28: MAI_FMT, 29: LDS, 30: FP_ATOMIC, 31:
    // DPP_CTRL_AS_SRC); the printing and decoding quirks below, set by
    // `scripts/quirks.py` on the op lines, start at 32.
    /// DS: a data tuple of any alignment is valid, no `Align2` register comment on
    /// gfx90a+/gfx1250 (the 96-bit transposing loads `ds_read_b96_tr_b6`,
    /// `ds_load_tr6_b96`, observed).
    pub const DS_ANY_ALIGN: u64 = 1 << 32;
    /// gfx12 DPP16 (`v_cndmask_b32`): the `|..|` of an abs src1 closes after the lane
    /// mask operand (`|v1, vcc_lo|`, llvm-mc-22).
    pub const ABS_AFTER_LANE_MASK: u64 = 1 << 33;
    /// `v_mad_mix*`/`v_fma_mix*`: VOP3P op with op_sel but no neg lists: neg_lo prints
    /// as `-`, neg_hi as `|..|`; op_sel_hi is printed when set (default 0).
    pub const MIX: u64 = 1 << 34;
    /// RDNA `v_fma_mix*` f16 forms: a literal source is read as f16 whatever op_sel_hi
    /// says (llvm-mc-22 prints its low half).
    pub const LITERAL_F16: u64 = 1 << 35;
    /// gfx11+ tied mac ops (`v_fmac_*`) in VOP3 DPP form: an inline constant src1 prints
    /// as its raw operand code in hex (`v_fmac_f32_e64_dpp v1, v2, 0xf2`, llvm-mc-22).
    pub const DPP_RAW_SRC1: u64 = 1 << 36;
    /// `v_bitop3_*` (gfx950, gfx1250): neg, abs and omod hold the 8-bit truth table,
    /// printed ` bitop3:N`.
    pub const BITOP3: u64 = 1 << 37;
    /// `v_permlane16_b32`/`v_permlanex16_b32`: the two op_sel bits are fi and
    /// bound_ctrl, printed as a two-entry op_sel without the destination's (observed).
    pub const OPSEL_FI_BOUND: u64 = 1 << 38;
    /// SMEM probes and discards (`s_atc_probe*`, `s_dcache_discard*`): no cache bits
    /// printed (glc, dlc, th, scope).
    pub const SMEM_NO_CACHE: u64 = 1 << 39;
    /// gfx9 VOP3 op_sel lists a third source, the byte select of a tied destination
    /// (`v_cvt_sr_fp8_f32`/`v_cvt_sr_bf8_f32` on gfx942/gfx950, observed).
    pub const OPSEL_SRC2: u64 = 1 << 40;
    /// An accumulator move in MAI form (`v_accvgpr_read/write_b32`): no cbsz/abid/blgp.
    pub const NO_MAI_MODS: u64 = 1 << 41;
    /// `ds_swizzle_b32`: the offset is printed as `swizzle(...)`.
    pub const SWIZZLE: u64 = 1 << 42;
    /// BVH ray queries (`image_bvh*`): no dmask/dim/unorm/r128 printed, a grouped NSA
    /// address list; the address tuple's width in the description gives the node
    /// pointer's (or, with [`BVH8`], the offsets') registers: width - 10.
    pub const BVH: u64 = 1 << 43;
    /// gfx12 `image_bvh8_intersect_ray`/`image_bvh_dual_intersect_ray`: addresses
    /// grouped as node pointers (2), extents (2), origin (3), direction (3), offsets.
    pub const BVH8: u64 = 1 << 44;
    /// VOPD `v_dual_fmamk_f32` as the X half: a Y half that has a constant K too shows
    /// a literal source as the inline constant it equals, without lit() (llvm-mc-22).
    pub const VOPD_SHARED_K: u64 = 1 << 45;
    /// VOPD sources are packed f16 pairs (`v_dual_dot2acc_f32_f16`): a literal is
    /// inline (and printed in lit()) only as such.
    pub const PACKED_F16: u64 = 1 << 46;
    /// As [`PACKED_F16`], packed bf16 pairs (`v_dual_dot2acc_f32_bf16`).
    pub const PACKED_BF16: u64 = 1 << 47;
    /// Vector memory atomics: gfx12 th prints the `TH_ATOMIC_*` names; gfx1250 FLAT
    /// with `exec` as scalar base prints no register-class comment; image atomics take
    /// data widths 1-3 ([`CMPSWAP`] 2-5).
    pub const ATOMIC: u64 = 1 << 48;
    /// gfx12 memory stores (and `tensor_save`): th prints the `TH_STORE_*` names.
    pub const STORE: u64 = 1 << 49;
    /// Vector memory loads: with tfe (gfx6-gfx9) a status dword follows the data.
    pub const LOAD: u64 = 1 << 50;
    /// gfx9/gfx10 FLAT loads that may write to LDS (the `lds` bit): the byte, short and
    /// dword loads of global and scratch (what llvm-mc-22 accepts).
    pub const LDS_DMA: u64 = 1 << 51;
    /// `v_cndmask_*`: src2 is a lane mask (no float modifiers, no op_sel bit, a register
    /// pair in wave64), though the op has both for its other sources.
    pub const LANE_MASK: u64 = 1 << 52;
    /// src0/src1 are packed pairs without op_sel bits of their own
    /// (`v_dot2_f16_f16`/`v_dot2_bf16_bf16`: llvm-mc-22 prints their op_sel entries as 0
    /// and ignores the bits).
    pub const PACKED_NO_OPSEL: u64 = 1 << 53;
    /// WMMA/SWMMAC: in wave64 the matrix operands hold half as many registers (gfx11:
    /// the accumulator and result only).
    pub const MATRIX: u64 = 1 << 54;
    /// Transposing loads (`*_load_tr*`): in wave64 the data holds half as many registers.
    pub const TRANSPOSE: u64 = 1 << 55;
    /// Accumulator moves: vdst is an AGPR (`v_accvgpr_write_b32`, `v_accvgpr_mov_b32`).
    pub const ACC_VDST: u64 = 1 << 56;
    /// Accumulator moves: src0 is an AGPR (`v_accvgpr_read_b32`, `v_accvgpr_mov_b32`).
    pub const ACC_SRC0: u64 = 1 << 57;
    /// MFMA: src2 (the accumulator C) is in AGPRs when vdst is (gfx908, `acc_cd`); not
    /// SMFMAC, whose src2 is the sparse index.
    pub const ACC_C: u64 = 1 << 58;
    /// Compare-and-swap atomics: the data holds the compare and swap values, the
    /// returned value half as many registers; image data widths 2-5.
    pub const CMPSWAP: u64 = 1 << 59;
    /// `image_gather4*`: data widths 2 (d16), 4 and 5 (tfe) only.
    pub const GATHER4: u64 = 1 << 60;
    /// Image ops that return four components whatever dmask says (`image_gather4*`;
    /// gfx11+ `image_msaa_load`).
    pub const FOUR_CHANNELS: u64 = 1 << 61;
}

/// Implicitly read or written registers (bit set), for the emulator and for hazards.
pub mod implicit {
    /// `scc`.
    pub const SCC: u8 = 1 << 0;
    /// `vcc`.
    pub const VCC: u8 = 1 << 1;
    /// `exec`.
    pub const EXEC: u8 = 1 << 2;
    /// `m0`.
    pub const M0: u8 = 1 << 3;
    /// Not a register: in [`OpDesc::reads`](super::OpDesc::reads), the op ignores the EXEC
    /// lane mask that its (vector) encoding otherwise implies (`v_readlane_b32`,
    /// `v_writelane_b32`). `reads=unmasked` in the description; `Decoder::implicit` never
    /// returns it.
    pub const UNMASKED: u8 = 1 << 7;
    /// The register bits (SCC | VCC | EXEC | M0).
    pub const REGS: u8 = SCC | VCC | EXEC | M0;
}

/// One instruction (operation) of a generation, whatever its encodings.
#[derive(Debug)]
pub struct OpDesc {
    /// Mnemonic without encoding suffix (`v_add_f32`, not `v_add_f32_e32`).
    pub mnemonic: &'static str,
    /// Operands in printing order.
    pub operands: &'static [OperandDesc],
    /// [`flags`].
    pub flags: u64,
    /// Processors that have it (bit i = [`IsaDesc::processors`]\[i\]).
    pub procs: u32,
    /// Implicitly read registers ([`implicit`]), beyond those in `operands`.
    pub reads: u8,
    /// Implicitly written registers ([`implicit`]).
    pub writes: u8,
    /// Encodings (index into [`IsaDesc::encodings`]) and opcode keys.
    pub encodings: &'static [(u8, u16)],
}

impl OpDesc {
    /// The operand written in encoding field `field`, if the instruction has one.
    pub fn field_operand(&self, field: Field) -> Option<&'static OperandDesc> {
        self.operands.iter().find(|o| o.role == Role::Field(field))
    }

    /// Whether the instruction has an operand in encoding field `field`.
    pub fn has_field(&self, field: Field) -> bool {
        self.field_operand(field).is_some()
    }
}

/// The description of one generation.
#[derive(Debug)]
pub struct IsaDesc {
    /// `gfx9`.
    pub generation: &'static str,
    /// Processors whose instruction sets differ (bit positions of `procs` masks).
    pub processors: &'static [&'static str],
    /// Other processor names and the processor they decode like.
    pub aliases: &'static [(&'static str, &'static str)],
    /// Encodings, most specific mask first (the decoder tries them in this order).
    pub encodings: &'static [EncodingDesc],
    /// Instructions.
    pub ops: &'static [OpDesc],
    /// Operand rules for an encoder ([`crate::rules`]).
    pub rules: OperandRules,
}

/// Operand rules an encoder must obey (constant bus, literals, operand classes), from
/// the `rule` lines of the description (written by `scripts/encrules.py` from
/// llvm-mc-22's answers; DESIGN.md "Operand rules"). [`crate::rules`] applies them.
#[derive(Debug)]
pub struct OperandRules {
    /// Scalar values (SGPRs, special registers, a literal) one VALU instruction may read:
    /// `(processors, limit)`; the first row whose processors include the decoder's.
    pub constant_bus: &'static [(u32, u8)],
    /// Encodings (index into [`IsaDesc::encodings`]) whose sources may be a 32-bit
    /// literal constant, and on which processors.
    pub literal: &'static [(u8, u32)],
    /// Encodings whose 64-bit sources may be a 64-bit literal (gfx1250: VOP1/2/C and
    /// SOP1/2/C; a value that does not fit 32 bits is rejected elsewhere).
    pub literal64: &'static [(u8, u32)],
    /// Facts of single operations that differ from the defaults, sorted by `op`.
    pub ops: &'static [OpRule],
    /// Dual-issue rules (VOPD gfx11/gfx12, VOPD3 gfx1250) per encoding of the X half.
    pub vopd: &'static [VopdRule],
    /// Source classes of VOP3/VOP3P with a DPP word (gfx11+ `_e64_dpp`, DPP16 and DPP8;
    /// `rule dpp` lines, learned by `scripts/encrules_dpp.py`).
    pub dpp: &'static [DppRule],
}

/// The source slots of an encoding in its DPP form (gfx11+ VOP3/VOP3P with a DPP16 or
/// DPP8 word in place of the literal): which [`operand_class`] bits src0, src1 and src2
/// accept, for every op of the encoding (`op: None`) or one op (its line wins per slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DppRule {
    /// Encoding index (VOP3 or VOP3P).
    pub encoding: u8,
    /// The op it is about (index in [`IsaDesc::ops`]), or every op of the encoding.
    pub op: Option<u16>,
    /// Processors it holds on.
    pub procs: u32,
    /// [`operand_class`] bits of src0, src1, src2 (0: not given here).
    pub classes: [u8; 3],
}

/// What a dual-issue encoding (VOPD, VOPD3) asks of its two halves together
/// (`rule vopd` lines; learned by `scripts/encrules_vopd.py`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VopdRule {
    /// Encoding index (the X half's table: VOPD or VOPD3).
    pub encoding: u8,
    /// Processors it holds on.
    pub procs: u32,
    /// Scalar values both halves together may read (SGPRs, special registers, one
    /// literal, the implicit VCC of `v_dual_cndmask_b32`).
    pub bus: u8,
    /// Per read port (0: src0, 1: vsrc1, 2: the third operand) the bank modulus: the X
    /// and Y VGPRs of a port must differ modulo it (0: no rule).
    pub banks: [u8; 3],
    /// The same VGPR in both halves of a port is no conflict (gfx1250).
    pub same_reg: bool,
    /// The destinations: one even and one odd, or only distinct.
    pub dst: VopdDst,
    /// An operation whose src0 bank is not checked when both halves are it (gfx12:
    /// `v_dual_mov_b32`).
    pub pair_free: Option<&'static str>,
    /// src0 may be a literal (one value over both halves).
    pub literal: bool,
    /// Only in wave32 (llvm-mc-22: "instruction requires wavesize=32").
    pub wave32: bool,
}

/// The destination rule of a dual-issue encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VopdDst {
    /// One destination VGPR even, the other odd (VOPD: the Y field holds vdst >> 1).
    Parity,
    /// Only distinct (gfx1250 VOPD3).
    Distinct,
}

/// One operation's exception to the default operand rules, in one encoding.
#[derive(Clone, Copy, Debug)]
pub struct OpRule {
    /// Instruction index in [`IsaDesc::ops`].
    pub op: u16,
    /// Encoding index in [`IsaDesc::encodings`].
    pub encoding: u8,
    /// Processors it holds on.
    pub procs: u32,
    /// The fact.
    pub fact: OpFact,
}

/// What an [`OpRule`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpFact {
    /// The constant-bus limit of this operation (e.g. 1 for gfx10+ `v_lshlrev_b64`).
    ConstantBus(u8),
    /// Operand `operand` (index in [`OpDesc::operands`]) accepts only these
    /// [`operand_class`] bits (e.g. `v_readfirstlane_b32` src0: VGPR only).
    Accepts {
        /// Operand index.
        operand: u8,
        /// [`operand_class`] bits.
        classes: u8,
    },
    /// Operand `operand` may be a literal although the encoding is not in
    /// [`OperandRules::literal`] (gfx950: a few VOP3 ops).
    Literal {
        /// Operand index.
        operand: u8,
    },
    /// `m0` in operand `operand` does not count on the constant bus (gfx6-gfx9
    /// `v_writelane_b32` lane select).
    FreeM0 {
        /// Operand index.
        operand: u8,
    },
    /// Dual issue: operand `operand` reads on VGPR port `port` (the accumulator of
    /// `v_dual_fmac_f32` and the addend of `v_dual_fmamk_f32` use the third port).
    Port {
        /// Operand index.
        operand: u8,
        /// Read port (0, 1, 2).
        port: u8,
    },
}

/// Operand classes of the operand rules (bit set).
pub mod operand_class {
    /// A VGPR (or one half of one, or an AGPR).
    pub const VGPR: u8 = 1;
    /// A scalar register: SGPR, trap temporary, `vcc`, `m0`, `exec`, ...
    pub const SCALAR: u8 = 2;
    /// An inline constant (integer -16..64 or one of the inline floats).
    pub const INLINE: u8 = 4;
    /// A literal constant that follows the instruction words.
    pub const LITERAL: u8 = 8;
}
