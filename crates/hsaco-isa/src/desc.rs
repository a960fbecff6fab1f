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
    pub const FPMODS: u32 = 1 << 0;
    /// `clamp`.
    pub const CLAMP: u32 = 1 << 1;
    /// Output modifier (`mul:2`, `mul:4`, `div:2`).
    pub const OMOD: u32 = 1 << 2;
    /// Has an SDWA form.
    pub const SDWA: u32 = 1 << 3;
    /// Has a DPP form.
    pub const DPP: u32 = 1 << 4;
    /// VOP3P `neg_lo`/`neg_hi`.
    pub const NEG: u32 = 1 << 5;
    /// `op_sel`.
    pub const OPSEL: u32 = 1 << 6;
    /// DS: two 8-bit offsets (`offset0`, `offset1`) instead of one 16-bit offset.
    pub const OFFSET2: u32 = 1 << 7;
    /// DS: `gds` (the bit may be set).
    pub const GDS: u32 = 1 << 8;
    /// FLAT atomics: with `glc` the pre-op value is returned in `vdst`, printed first.
    pub const GLC_RTN: u32 = 1 << 9;
    /// gfx10+ MIMG: accepts packed 16-bit data (`d16`).
    pub const D16: u32 = 1 << 10;
    /// DS: GDS only (`ds_gws_*`, `ds_ordered_count`, ...): the `gds` bit must be set.
    pub const GDS_ONLY: u32 = 1 << 11;
    /// gfx12 DPP forms: `vdst` must be one of v0-v127 (a 16-bit operand LLVM decodes as
    /// a low-128 register; a higher number makes the word invalid).
    pub const DPP_LO128_VDST: u32 = 1 << 12;
    /// gfx12 DPP forms: `src0` must be one of v0-v127.
    pub const DPP_LO128_SRC0: u32 = 1 << 13;
    /// gfx12 DPP forms: `src1` must be one of v0-v127.
    pub const DPP_LO128_SRC1: u32 = 1 << 14;
    /// gfx10+ DPP16 forms: neg/abs bits of src0 are accepted but not printed.
    pub const DPP_IGNORE_MODS0: u32 = 1 << 15;
    /// gfx10+ DPP16 forms: neg/abs bits of src1 are accepted but not printed.
    pub const DPP_IGNORE_MODS1: u32 = 1 << 16;
    /// gfx10+ DPP16 forms: a neg/abs bit of src0 makes the word invalid.
    pub const DPP_REJECT_MODS0: u32 = 1 << 17;
    /// gfx10+ DPP16 forms: a neg/abs bit of src1 makes the word invalid.
    pub const DPP_REJECT_MODS1: u32 = 1 << 18;
    /// A VOP3P-encoded matrix op (gfx940+ MFMA/SMFMAC below opcode 0x40): read as the
    /// MAI encoding (AGPR operands from acc/acc_cd, cbsz/abid/blgp).
    pub const MAI: u32 = 1 << 19;
    /// gfx11+: has VOP3/VOP3P forms with a DPP16/DPP8 word (`v_add3_u32_e64_dpp`).
    pub const VOP3_DPP: u32 = 1 << 20;
    /// gfx12 `v_cvt_sr_fp8/bf8_*`: op_sel bits 2-3 (src2's and vdst's) are a byte
    /// select, printed ` byte_sel:N` after op_sel; gfx1250 `v_cvt_f16_fp8/bf8` (one
    /// source): op_sel bits 0-1 are, bit 0 the high bit of N.
    pub const BYTE_SEL: u32 = 1 << 21;
    /// gfx12+ VOP3P matrix op (WMMA/SWMMAC): op_sel and op_sel_hi are not printed as
    /// such. op_sel_hi (bits 59-60, and bit 14 unless [`MATRIX_REUSE`]/[`MATRIX_FMT`] use
    /// it) must hold its neutral value, all ones; the op_sel bits hold `index_key`
    /// ([`INDEX_KEY`]), `matrix_a_reuse`/`matrix_b_reuse` ([`MATRIX_REUSE`]) or the
    /// formats ([`MATRIX_FMT`]). A neg_lo/neg_hi/clamp bit the op does not take makes
    /// the word invalid: neg_lo of A/B with [`NEG`], neg_hi of A/B with [`NEG_HI`],
    /// both of the accumulator C (src2: its neg and abs) with [`FPMODS`], clamp with
    /// [`CLAMP`].
    pub const WMMA: u32 = 1 << 22;
    /// WMMA: neg_hi of the A and B matrices (src0, src1; packed 16-bit elements).
    pub const NEG_HI: u32 = 1 << 23;
    /// SWMMAC: op_sel bit 0 (bit 11) is `index_key:N`, which half of the sparse index.
    pub const INDEX_KEY: u32 = 1 << 24;
    /// gfx1250 WMMA/SWMMAC: op_sel bit 2 (bit 13) is `matrix_a_reuse`, bit 14
    /// `matrix_b_reuse`.
    pub const MATRIX_REUSE: u32 = 1 << 25;
    /// gfx1250 `v_wmma_*_f8f6f4`: op_sel (bits 11-13) is `matrix_a_fmt`, op_sel_hi with
    /// bit 14 above it `matrix_b_fmt` (`MATRIX_FMT_FP8`=0 (default), `BF8`, `FP6`, `BF6`,
    /// `FP4`, else a number); they also give the widths of A and B.
    pub const MATRIX_FMT: u32 = 1 << 26;
    /// Printed without `_e32`/`_e64` although it has both a VOP1/VOP2/VOPC and a VOP3
    /// form (gfx1250 `v_cvt_pk_f16_fp8`/`bf8`, observed).
    pub const NO_SUFFIX: u32 = 1 << 27;
    /// gfx8-gfx10 MUBUF: the `lds` bit (16) may be set (the load goes to LDS at M0):
    /// llvm-mc-22 rejects it on every other buffer op. An op with this flag and no data
    /// operand (`buffer_store_lds_dword`) requires it.
    pub const LDS: u32 = 1 << 29;
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
    pub flags: u32,
    /// Processors that have it (bit i = [`IsaDesc::processors`]\[i\]).
    pub procs: u32,
    /// Implicitly read registers ([`implicit`]), beyond those in `operands`.
    pub reads: u8,
    /// Implicitly written registers ([`implicit`]).
    pub writes: u8,
    /// Encodings (index into [`IsaDesc::encodings`]) and opcode keys.
    pub encodings: &'static [(u8, u16)],
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
}
