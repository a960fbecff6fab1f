//! Bytes -> [`Instruction`].

use crate::desc::{flags, EncodingDesc, FieldKind, IsaDesc, OpDesc, Role, Ty};
use crate::{Field, Instruction, Operand};

/// Why bytes did not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Fewer bytes than the instruction needs.
    Truncated,
    /// No instruction of this processor has this encoding.
    Invalid,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DecodeError::Truncated => "truncated instruction",
            DecodeError::Invalid => "invalid instruction encoding",
        })
    }
}

impl std::error::Error for DecodeError {}

/// A decoder for one processor.
#[derive(Clone, Copy, Debug)]
pub struct Decoder {
    isa: &'static IsaDesc,
    proc_bit: u32,
    buckets: &'static Buckets,
    /// [`traits`] of the processor, asked per instruction (so no name comparisons).
    pub(crate) traits: u16,
}

/// Facts about a decoder's processor and generation, as bits of `Decoder::traits`.
pub(crate) mod traits {
    /// gfx10, gfx11, gfx12.
    pub const RDNA: u16 = 1;
    /// gfx6, gfx7, gfx8.
    pub const OLD_GCN: u16 = 2;
    /// gfx6, gfx7.
    pub const GFX6_7: u16 = 4;
    /// gfx7.
    pub const GFX7: u16 = 8;
    /// gfx10.
    pub const GFX10: u16 = 16;
    /// gfx12.
    pub const GFX12: u16 = 32;
    /// gfx942, gfx950.
    pub const GFX940: u16 = 64;
    /// gfx90a.
    pub const GFX90A: u16 = 128;
    /// gfx908.
    pub const GFX908: u16 = 256;
    /// gfx1250.
    pub const GFX1250: u16 = 512;
    /// gfx9.
    pub const GFX9: u16 = 1024;
    /// gfx8.
    pub const GFX8: u16 = 2048;
    /// gfx10+ in wave64 mode (`+wavefrontsize64`), set by [`super::Decoder::wave64`].
    pub const WAVE64: u16 = 4096;

    /// The traits of a processor of a generation.
    pub fn of(generation: &str, processor: &str) -> u16 {
        let mut t = match generation {
            "gfx6" => OLD_GCN | GFX6_7,
            "gfx7" => OLD_GCN | GFX6_7 | GFX7,
            "gfx8" => OLD_GCN | GFX8,
            "gfx9" => GFX9,
            "gfx10" => RDNA | GFX10,
            "gfx11" => RDNA,
            "gfx12" => RDNA | GFX12,
            _ => 0,
        };
        t |= match processor {
            "gfx942" | "gfx950" => GFX940,
            "gfx90a" => GFX90A,
            "gfx908" => GFX908,
            "gfx1250" => GFX1250,
            _ => 0,
        };
        t
    }
}

/// What the printer and listing need to know of an operation, worked out once per
/// generation instead of per instruction.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OpPlan {
    /// It also has a VOP3 encoding (its VOP1/VOP2/VOPC form prints `_e32`).
    pub has_vop3: bool,
    /// It also has a VOP1/VOP2/VOPC encoding (its VOP3 form prints `_e64`).
    pub has_vop12c: bool,
    /// VOP3b: it has a scalar destination (`sdst`).
    pub vop3b: bool,
    /// It has no `vdst` operand (a returning atomic inserts one).
    pub no_vdst: bool,
    /// It has an `sbase` operand.
    pub sbase: bool,
    /// It writes no register operand (`v_cmpx_*`: exec only).
    pub no_sdst_or_vdst: bool,
    /// It has no `sdata` register operand (SMEM discards, prefetches; a probe's
    /// number is no register).
    pub no_sdata: bool,
    /// Index of its branch-target (label) operand, or `u8::MAX`.
    pub label: u8,
    /// Number of src0/src1/src2 operands.
    pub srcs: u8,
    /// Processors (bit mask) with a VOP3 encoding, and with a VOP1/VOP2/VOPC one
    /// (`v_mul_legacy_f32` is VOP3-only from gfx90a): `has_vop3`/`has_vop12c` as the
    /// decoder's processor sees them.
    vop3_procs: u32,
    vop12c_procs: u32,
    /// It has a VOPC encoding (a compare).
    pub vopc: bool,
}

impl OpPlan {
    /// The plan of `op`, operation `index` of `isa`.
    fn new(isa: &IsaDesc, index: usize, op: &OpDesc) -> OpPlan {
        use crate::desc::Form;
        // processors with an opcode of this operation in an encoding of these forms
        let procs_of = |forms: &[Form]| {
            let mut procs = 0;
            for (e, key) in op.encodings {
                if let Some(enc) = isa.encodings.get(usize::from(*e)) {
                    if forms.contains(&enc.form) {
                        let table = enc.base.and_then(|b| isa.encodings.get(usize::from(b)));
                        // (the rows are sorted by key: only this key's are looked at;
                        // scanning every row for every operation was a tenth of the
                        // start-up of `hsaco dis`)
                        let rows = table.unwrap_or(enc).opcodes;
                        let first = rows.partition_point(|r| r.key < *key);
                        procs |= rows[first..]
                            .iter()
                            .take_while(|r| r.key == *key)
                            .filter(|r| usize::from(r.op) == index)
                            .fold(0, |m, r| m | r.procs);
                    }
                }
            }
            procs
        };
        let vop3_procs = procs_of(&[Form::Vop3]);
        let vop12c_procs = procs_of(&[Form::Vop1, Form::Vop2, Form::Vopc]);
        let roles = || op.operands.iter().map(|o| o.role);
        OpPlan {
            has_vop3: vop3_procs != 0,
            has_vop12c: vop12c_procs != 0,
            vop3_procs,
            vop12c_procs,
            vop3b: roles()
                .any(|r| matches!(r, Role::Field(Field::Sdst) | Role::FieldOr(Field::Sdst, _))),
            no_vdst: !roles().any(|r| r == Role::Field(Field::Vdst)),
            sbase: roles().any(|r| r == Role::Field(Field::Sbase)),
            no_sdst_or_vdst: !roles().any(|r| {
                matches!(
                    r,
                    Role::Field(Field::Vdst | Field::Sdst | Field::Sdst8)
                        | Role::FieldOr(Field::Sdst | Field::Sdst8, _)
                )
            }),
            no_sdata: !op.operands.iter().any(|o| {
                o.role == Role::Field(Field::Sdata) && o.ty.bits() >= 32 && o.ty != Ty::Dec16
            }),
            label: op
                .operands
                .iter()
                .position(|o| o.ty == Ty::Label)
                .map_or(u8::MAX, |i| i as u8),
            srcs: roles()
                .filter(|r| matches!(r, Role::Field(Field::Src0 | Field::Src1 | Field::Src2)))
                .count() as u8,
            vopc: procs_of(&[Form::Vopc]) != 0,
        }
    }
}

/// The encodings (indices, in the generation's priority order) that can match a first
/// word, by its top 9 bits: decoding tries only those.
#[derive(Debug)]
struct Buckets {
    start: Vec<u16>,
    list: Vec<u8>,
    /// Per encoding: opcode key -> index of its first row in the encoding's opcode
    /// table (`u16::MAX`: no row), so decoding needs no search.
    rows: Vec<Vec<u16>>,
    /// Per encoding: field (as index) -> 1 + its index in the encoding's field list, or 0.
    slots: Vec<[u8; FIELD_SLOTS]>,
    /// gfx11+: scalar codes 124 and 125 are `null` and `m0` (swapped to the gfx10
    /// numbering when decoding).
    swap_m0_null: bool,
    /// gfx11: 16-bit VGPR operands are true16 halves (`v1.l`); gfx10 and gfx12 (as
    /// llvm-mc-22 decodes them) read them as whole registers.
    true16: bool,
    /// Index of the VOPD Y-half opcode table (`VOPDY`), if the generation has one.
    vopdy: Option<usize>,
    /// gfx10+: codes 102-105 are SGPRs, SGPR/TTMP tuples are aligned (pairs to 2,
    /// larger to 4), SMEM base and buffer resources may be trap temporaries.
    rdna: bool,
    /// Per operation ([`IsaDesc::ops`] index), worked out on first use: a run meets
    /// a few hundred of a generation's operations, and working out all of them was
    /// most of the decoder's set-up (0.6M instructions of `hsaco dis`'s start).
    plans: Vec<std::sync::OnceLock<OpPlan>>,
    isa: &'static IsaDesc,
}

/// More than the number of distinct field names of all generations.
const FIELD_SLOTS: usize = 128;

const TOP_SHIFT: u32 = 23;

impl Buckets {
    fn new(isa: &'static IsaDesc) -> Buckets {
        let top = u32::MAX << TOP_SHIFT;
        let mut start = Vec::with_capacity(513);
        let mut list = Vec::new();
        for t in 0u32..512 {
            start.push(list.len() as u16);
            let w = t << TOP_SHIFT;
            for (i, e) in isa.encodings.iter().enumerate() {
                if w & e.mask & top == e.match_bits & e.mask & top {
                    list.push(i as u8);
                }
            }
        }
        start.push(list.len() as u16);
        let rows = isa
            .encodings
            .iter()
            .map(|e| {
                let bits: u32 = e
                    .key
                    .iter()
                    .filter_map(|k| e.field(*k))
                    .map(|f| u32::from(f.width))
                    .sum();
                let mut rows = vec![u16::MAX; if bits <= 12 { 1 << bits } else { 0 }];
                for (i, r) in e.opcodes.iter().enumerate().rev() {
                    if let Some(slot) = rows.get_mut(usize::from(r.key)) {
                        *slot = i as u16;
                    }
                }
                rows
            })
            .collect();
        let slots = isa
            .encodings
            .iter()
            .map(|e| {
                let mut slots = [0u8; FIELD_SLOTS];
                for (i, f) in e.fields.iter().enumerate() {
                    if let Some(s) = slots.get_mut(f.field as usize) {
                        *s = i as u8 + 1;
                    }
                }
                slots
            })
            .collect();
        Buckets {
            start,
            list,
            rows,
            slots,
            swap_m0_null: !matches!(isa.generation, "gfx9" | "gfx8" | "gfx7" | "gfx6" | "gfx10"),
            vopdy: isa.encodings.iter().position(|e| e.name == "VOPDY"),
            true16: isa.generation == "gfx11",
            rdna: matches!(isa.generation, "gfx10" | "gfx11" | "gfx12"),
            plans: isa.ops.iter().map(|_| std::sync::OnceLock::new()).collect(),
            isa,
        }
    }

    /// The plan of operation `at` of the generation.
    fn plan(&self, at: usize) -> Option<OpPlan> {
        let (cell, op) = (self.plans.get(at)?, self.isa.ops.get(at)?);
        Some(*cell.get_or_init(|| OpPlan::new(self.isa, at, op)))
    }

    fn candidates(&self, w0: u32) -> &[u8] {
        let t = (w0 >> TOP_SHIFT) as usize;
        let (a, b) = (self.start[t], self.start[t + 1]);
        &self.list[usize::from(a)..usize::from(b)]
    }
}

/// The tables of a generation ([`crate::generations`] index), built on first use (only
/// the generations a run decodes are built).
fn buckets(generation: usize) -> &'static Buckets {
    use std::sync::OnceLock;
    static ALL: [OnceLock<Buckets>; 8] = [const { OnceLock::new() }; 8];
    let isa = crate::generations()[generation];
    match ALL.get(generation) {
        Some(b) => b.get_or_init(|| Buckets::new(isa)),
        // (more generations than slots, which a test rules out: built each time)
        None => Box::leak(Box::new(Buckets::new(isa))),
    }
}

fn word(bytes: &[u8], i: usize) -> Option<u32> {
    let b = bytes.get(i * 4..i * 4 + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl Decoder {
    /// The decoder for a processor name (`gfx906`, `gfx90a`, `gfx9-generic`), if its
    /// generation is described.
    pub fn for_processor(name: &str) -> Option<Decoder> {
        for (gi, isa) in crate::generations().iter().enumerate() {
            let name = isa
                .aliases
                .iter()
                .find(|(a, _)| *a == name)
                .map(|(_, b)| *b)
                .unwrap_or(name);
            if let Some(i) = isa.processors.iter().position(|p| *p == name) {
                return Some(Decoder {
                    isa,
                    proc_bit: 1 << i,
                    buckets: buckets(gi),
                    traits: traits::of(isa.generation, name),
                });
            }
        }
        None
    }

    /// This decoder in wave64 mode (gfx10 and later; as LLVM's `+wavefrontsize64`):
    /// lane masks are register pairs (`vcc`, `s[0:1]`), matrix operands are narrower.
    /// Earlier generations are always wave64 and are unchanged.
    pub fn wave64(mut self) -> Decoder {
        if self.traits & traits::RDNA != 0 {
            self.traits |= traits::WAVE64;
        }
        self
    }

    /// The processor whose instruction set this decoder decodes (the canonical one for
    /// an alias: `gfx900` for `gfx9-generic`).
    pub fn processor(&self) -> &'static str {
        let i = self.proc_bit.trailing_zeros() as usize;
        self.isa.processors.get(i).copied().unwrap_or("")
    }

    /// The description of `field` in encoding `encoding` (an index), by table lookup.
    #[inline]
    pub(crate) fn field_desc(
        &self,
        encoding: usize,
        field: Field,
    ) -> Option<&'static crate::desc::FieldDesc> {
        let slot = *self.buckets.slots.get(encoding)?.get(field as usize)?;
        self.isa
            .encodings
            .get(encoding)?
            .fields
            .get(usize::from(slot).checked_sub(1)?)
    }

    /// The precomputed facts about an instruction's operation.
    #[inline]
    pub(crate) fn plan(&self, inst: &Instruction) -> OpPlan {
        let mut plan = self.buckets.plan(usize::from(inst.op)).unwrap_or_default();
        plan.has_vop3 = plan.vop3_procs & self.proc_bit != 0;
        plan.has_vop12c = plan.vop12c_procs & self.proc_bit != 0;
        plan
    }

    /// The bit of this decoder's processor in the `procs` masks of the description.
    #[inline]
    /// Whether this decoder is in wave64 mode: gfx6-gfx9 always, gfx10+ after
    /// [`Decoder::wave64`].
    pub fn is_wave64(&self) -> bool {
        self.traits & traits::RDNA == 0 || self.traits & traits::WAVE64 != 0
    }

    pub(crate) fn proc_bit(&self) -> u32 {
        self.proc_bit
    }

    /// The generation's description.
    pub fn isa(&self) -> &'static IsaDesc {
        self.isa
    }

    /// Whether an instruction of `op` in encoding `enc` is decoded with a look at the
    /// bytes after it: gfx950's `v_mfma_ld_scale_b32` (a gfx9 VOP3P op without a
    /// destination) is an instruction of its own, and the first half of a scaled MFMA
    /// when a `v_mfma_*_f8f6f4` with abid 1 follows. The same bytes alone then list
    /// otherwise than with what follows them.
    pub(crate) fn looks_past(&self, enc: &crate::desc::EncodingDesc, op: &OpDesc) -> bool {
        enc.form == crate::desc::Form::Vop3p && !self.buckets.rdna && !op.has_field(Field::Vdst)
    }

    /// Decode the instruction at the start of `bytes`.
    pub fn decode(&self, bytes: &[u8]) -> Result<Instruction, DecodeError> {
        let w0 = word(bytes, 0).ok_or(DecodeError::Truncated)?;
        let (ei, enc) = self
            .buckets
            .candidates(w0)
            .iter()
            .filter_map(|&i| Some((usize::from(i), self.isa.encodings.get(usize::from(i))?)))
            .find(|(_, e)| w0 & e.mask == e.match_bits)
            .ok_or(DecodeError::Invalid)?;
        let w1 = if enc.words > 1 {
            word(bytes, 1).ok_or(DecodeError::Truncated)?
        } else {
            0
        };
        let raw = u64::from(w0) | (u64::from(w1) << 32);
        let mut key: u32 = 0;
        for k in enc.key {
            let f = self.field_desc(ei, *k).ok_or(DecodeError::Invalid)?;
            key = (key << f.width) | f.get(raw);
        }
        let table = match enc.base {
            Some(b) => self
                .isa
                .encodings
                .get(usize::from(b))
                .ok_or(DecodeError::Invalid)?,
            None => enc,
        };
        let table_index = enc.base.map_or(ei, usize::from);
        let start = match self.buckets.rows.get(table_index) {
            Some(rows) if !rows.is_empty() => match rows.get(key as usize) {
                Some(&i) if i != u16::MAX => usize::from(i),
                _ => return Err(DecodeError::Invalid),
            },
            _ => table.opcodes.partition_point(|r| u32::from(r.key) < key),
        };
        let row = table
            .opcodes
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(|r| u32::from(r.key) == key)
            .find(|r| r.procs & self.proc_bit != 0)
            .ok_or(DecodeError::Invalid)?;
        let op = self
            .isa
            .ops
            .get(usize::from(row.op))
            .ok_or(DecodeError::Invalid)?;
        // gfx950 v_mfma_ld_scale_b32 (a gfx9 VOP3P op without a destination) followed
        // by a v_mfma_*_f8f6f4 with abid 1: one scaled MFMA (`Form::Vop3px2`)
        if self.looks_past(enc, op) {
            match self.scaled_mfma(bytes, ei, raw) {
                Scaled::Pair(inst) => return Ok(inst),
                Scaled::Invalid => return Err(DecodeError::Invalid),
                Scaled::No => {}
            }
        }
        if enc.base.is_some() {
            let need = match enc.form {
                crate::desc::Form::Sdwa => crate::desc::flags::SDWA,
                _ => crate::desc::flags::DPP,
            };
            if op.flags & need == 0 {
                return Err(DecodeError::Invalid);
            }
            // RDNA DPP16: neg/abs bits of a source that takes no modifiers are invalid
            if self.buckets.rdna && enc.form == crate::desc::Form::Dpp {
                for (i, (n, a)) in [
                    (Field::Src0Neg, Field::Src0Abs),
                    (Field::Src1Neg, Field::Src1Abs),
                ]
                .into_iter()
                .enumerate()
                {
                    let bits = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
                    if bits(n) | bits(a) != 0
                        && crate::rdna::dpp_mods(op, i) == crate::rdna::DppMods::Reject
                    {
                        return Err(DecodeError::Invalid);
                    }
                }
            }
            // gfx12: a 16-bit vdst of a DPP form is one of v0-v127
            if enc.form == crate::desc::Form::Dpp
                && op.flags & crate::desc::flags::DPP_LO128_VDST != 0
                && self
                    .field_desc(ei, Field::Vdst)
                    .is_some_and(|f| f.get(raw) >= 128)
            {
                return Err(DecodeError::Invalid);
            }
        }
        // RDNA operand-less VOP1 ops (v_nop, v_pipeflush, v_clrexcp): the vdst field must
        // be 0 (src0 is ignored; observed)
        if self.buckets.rdna
            && enc.form == crate::desc::Form::Vop1
            && op.operands.is_empty()
            && self
                .field_desc(ei, Field::Vdst)
                .is_some_and(|f| f.get(raw) != 0)
        {
            return Err(DecodeError::Invalid);
        }
        // gfx12 VOP1/VOP2/VOPC (e32): the same 16-bit vdst is one of v0-v127 (observed)
        if self.buckets.swap_m0_null
            && matches!(
                enc.form,
                crate::desc::Form::Vop1 | crate::desc::Form::Vop2 | crate::desc::Form::Vopc
            )
            && op.flags & crate::desc::flags::DPP_LO128_VDST != 0
            && self
                .field_desc(ei, Field::Vdst)
                .is_some_and(|f| f.get(raw) >= 128)
        {
            return Err(DecodeError::Invalid);
        }
        if self.buckets.rdna && enc.form == crate::desc::Form::Mtbuf {
            // llvm-mc-22 has no MTBUF forms with tfe on gfx10+, nor reserved scalar
            // codes (209-229, 232-234) or (gfx11+) 254 as soffset (gfx10 prints
            // src_lds_direct with an Invalid-register mark, print.rs)
            let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
            // (nor a resource tuple of s104-s107 or (gfx10) s124-s127 (gfx12: m0, exec),
            // nor gfx12 offsets of 2^23 and more or bits 48-49 set)
            let srsrc_quad = self
                .field_desc(ei, Field::Srsrc)
                .is_some_and(|d| d.kind == FieldKind::Srsrc);
            if get(Field::Tfe) != 0
                || (self
                    .field_desc(ei, Field::Soffset)
                    .is_some_and(|d| d.width == 8)
                    && (matches!(get(Field::Soffset), 209..=229 | 232..=234)
                        || get(Field::Soffset) == 254 && self.traits & traits::GFX10 == 0))
                || (srsrc_quad && get(Field::Srsrc) == 26)
                || (srsrc_quad && get(Field::Srsrc) == 31 && !self.buckets.swap_m0_null)
                || (enc.words == 3 && raw >> 48 & 3 != 0)
                || (!srsrc_quad && matches!(get(Field::Srsrc), 104..=107 | 125..))
                || (enc.words == 3
                    && self
                        .field_desc(ei, Field::Offset)
                        .is_some_and(|d| d.get_wide(raw, word(bytes, 2).unwrap_or(0)) >= 1 << 23))
            {
                return Err(DecodeError::Invalid);
            }
        }
        if matches!(self.isa.generation, "gfx8" | "gfx9")
            && matches!(
                enc.form,
                crate::desc::Form::Mubuf | crate::desc::Form::Mtbuf
            )
            && !op.operands.is_empty()
        {
            // gfx8/gfx9 buffer ops: llvm-mc-22 rejects reserved scalar codes (209-229,
            // 232-234, 249, 250) and a literal (255) as soffset, and the resource
            // tuples s[104:107] and s[124:127] (gfx8 also s[108:111], tba/tma) (probed
            // over every value on gfx803/gfx810/gfx900/gfx90a/gfx942/gfx950)
            let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
            let gfx8 = self.isa.generation == "gfx8";
            if matches!(get(Field::Soffset), 209..=229 | 232..=234 | 249 | 250 | 255)
                || matches!(get(Field::Srsrc), 26 | 31)
                || (gfx8 && get(Field::Srsrc) == 27)
            {
                return Err(DecodeError::Invalid);
            }
        }
        if enc.form == crate::desc::Form::Mubuf
            && self.traits & (traits::GFX8 | traits::GFX9 | traits::GFX10) != 0
            && !self.mubuf_fields_valid(ei, op, raw)
        {
            return Err(DecodeError::Invalid);
        }
        if enc.form == crate::desc::Form::Vop3p && !self.vop3p_modifiers_valid(ei, op, raw) {
            return Err(DecodeError::Invalid);
        }
        // gfx12 s_prefetch_*: the count (sdata) is 0-31
        if enc.form == crate::desc::Form::Smem
            && op.has_field(Field::Soffset)
            && self
                .field_desc(ei, Field::Sdata)
                .is_some_and(|d| d.get(raw) >= 32)
        {
            return Err(DecodeError::Invalid);
        }
        if enc.form == crate::desc::Form::Ds && !self.ds_fields_valid(ei, op, raw) {
            return Err(DecodeError::Invalid);
        }
        if op.flags & crate::desc::flags::WMMA != 0 && !self.matrix_modifiers_valid(ei, op, raw) {
            return Err(DecodeError::Invalid);
        }
        // gfx950 v_mfma_*_f8f6f4: abid must be 0 (abid 1 is the scaled pair's mark)
        if op.flags & crate::desc::flags::MAI_FMT != 0
            && self.field_desc(ei, Field::Abid).map_or(0, |d| d.get(raw)) != 0
        {
            return Err(DecodeError::Invalid);
        }
        // gfx9 VOP3P without a destination (gfx950 v_mfma_ld_scale_b32): the vdst field
        // must be 0, and so must clamp (the op has none) and the op_sel, neg_lo and
        // neg_hi bits of src2, which it lacks (op_sel_hi's and the neg bits of its two
        // sources are ignored; observed with llvm-mc-22)
        if enc.form == crate::desc::Form::Vop3p && !self.buckets.rdna && !op.has_field(Field::Vdst)
        {
            let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
            if get(Field::Vdst) != 0
                || (op.flags & crate::desc::flags::CLAMP == 0 && get(Field::Clamp) != 0)
                || (get(Field::Opsel) | get(Field::Neg) | get(Field::NegHi)) & 4 != 0
            {
                return Err(DecodeError::Invalid);
            }
        }
        // an operand-less SOPP instruction (s_barrier, s_wakeup, ...) with a non-zero
        // immediate is not one (llvm-mc-22 rejects it)
        if enc.form == crate::desc::Form::Sopp && op.operands.is_empty() && raw & 0xffff != 0 {
            return Err(DecodeError::Invalid);
        }
        // gfx9/gfx10 FLAT loads to LDS (bit 13; gfx940's scratch sve): only the byte,
        // short and dword loads of global and scratch (what llvm-mc-22 accepts)
        if enc.form == crate::desc::Form::Flat
            && (!self.buckets.rdna || self.traits & traits::GFX10 != 0)
            && self.traits & traits::GFX940 == 0
            && self
                .field_desc(ei, Field::Lds)
                .is_some_and(|f| f.get(raw) != 0)
            && op.flags & flags::LDS_DMA == 0
        {
            return Err(DecodeError::Invalid);
        }
        if enc.form == crate::desc::Form::Smem
            && enc.words == 2
            && matches!(self.isa.generation, "gfx8" | "gfx9")
            && !smem_registers_valid(op, self.isa.generation == "gfx8", |f| {
                self.field_desc(ei, f).map(|d| d.get(raw))
            })
        {
            return Err(DecodeError::Invalid);
        }
        // gfx12 FLAT/GLOBAL: a scalar base is a register pair (not vcc_hi (107), m0 (raw
        // 125) or 127); only gfx1250 takes one in the FLAT segment (0), and gfx1201
        // requires null (124) there (observed with llvm-mc-22)
        if enc.form == crate::desc::Form::Flat && self.traits & traits::GFX12 != 0 {
            let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
            let (seg, saddr) = (get(Field::Seg), get(Field::Saddr));
            if (seg != 1 && matches!(saddr, 107 | 125 | 127))
                || (seg == 0 && self.traits & traits::GFX1250 == 0 && saddr != 124)
            {
                return Err(DecodeError::Invalid);
            }
        }
        // gfx940+ flat_* (segment 0): bit 13 (scratch's sve there) must be clear
        if enc.form == crate::desc::Form::Flat
            && self.traits & traits::GFX940 != 0
            && self.isa.generation == "gfx9"
            && self.field_desc(ei, Field::Seg).map_or(1, |d| d.get(raw)) == 0
            && raw >> 13 & 1 != 0
        {
            return Err(DecodeError::Invalid);
        }
        // gfx9 FLAT segment 0 (flat_*): the scalar base field must be 0
        // (llvm-mc-22 rejects every other value, 0x7f (off) included)
        if enc.form == crate::desc::Form::Flat
            && self.isa.generation == "gfx9"
            && self.field_desc(ei, Field::Seg).map_or(1, |d| d.get(raw)) == 0
            && self.field_desc(ei, Field::Saddr).map_or(0, |d| d.get(raw)) != 0
        {
            return Err(DecodeError::Invalid);
        }
        // gfx900-gfx908 FLAT and MTBUF: bit 55 (acc from gfx90a; MTBUF's tfe, which
        // llvm-mc-22 rejects there) must be clear, but for returning flat_* atomics
        // (segment 0, glc), whose data and result it reads as AGPRs (as gfx8)
        // (other gfx900-gfx908 FLAT words with bit 55: LLVM reads the data registers as
        // AGPRs and prints them with an Invalid-register mark, `print::flat_register_mark`)
        if enc.form == crate::desc::Form::Mtbuf
            && self.isa.generation == "gfx9"
            && self.traits & (traits::GFX90A | traits::GFX940) == 0
            && raw >> 55 & 1 != 0
        {
            return Err(DecodeError::Invalid);
        }
        if enc.form == crate::desc::Form::Flat
            && self.isa.generation == "gfx9"
            && !self.gfx9_global_scratch_valid(ei, op, raw)
        {
            return Err(DecodeError::Invalid);
        }
        let mut inst = Instruction {
            op: row.op,
            encoding: ei as u8,
            size: enc.words * 4,
            operands: [Operand::None; crate::MAX_OPERANDS],
            literal: 0,
            raw,
            nsa: 0,
        };
        if enc.words > 2 {
            // gfx12 three-word encodings: the third word is kept in `literal`.
            inst.literal = word(bytes, 2).ok_or(DecodeError::Truncated)?;
        }
        let w2 = inst.literal;
        // gfx10+ buffer loads with tfe return one more register (the status)
        let tfe = self.buckets.rdna
            && matches!(
                enc.form,
                crate::desc::Form::Mubuf | crate::desc::Form::Mtbuf
            )
            && self
                .field_desc(ei, Field::Tfe)
                .is_some_and(|f| f.get_wide(raw, w2) != 0);
        let mut literal = false;
        let mut literal64 = false;
        for (slot, od) in inst.operands.iter_mut().zip(op.operands) {
            let o = self.operand(ei, od.role, od.ty, raw, w2)?;
            if matches!(o, Operand::Literal) {
                literal = true;
            }
            literal64 |= matches!(o, Operand::Literal64);
            *slot = match (tfe, od.role, o) {
                (true, Role::Field(Field::Vdata), Operand::Vgpr { first, count }) => {
                    Operand::Vgpr {
                        first,
                        count: count + 1,
                    }
                }
                _ => o,
            };
        }
        if op.flags & crate::desc::flags::WMMA != 0
            && !matrix_operands_valid(op, self.traits & traits::GFX1250 != 0, |f| {
                self.field_desc(ei, f).map_or(0, |d| d.get(raw))
            })
        {
            return Err(DecodeError::Invalid);
        }
        if op.flags & crate::desc::flags::MATRIX_FMT != 0 {
            let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
            matrix_fmt_widths(&mut inst, op, matrix_fmts(get));
        }
        if op.flags & crate::desc::flags::MAI_FMT != 0 {
            let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
            mai_fmt_widths(&mut inst, op, get(Field::Cbsz), get(Field::Blgp));
            // Scalar operands (observed on gfx950): llvm-mc-22 rejects the word, or
            // prints the operand with an `Invalid register`/`Invalid immediate` comment,
            // for every scalar src0/src1 but null (which takes the 8-register width
            // only) and for every scalar src2 but null and the inline constants; hsaco
            // rejects them all (as random_diff.py counts such words)
            let bad = |f: Field| {
                let v = get(f);
                let fmt = match f {
                    Field::Src0 => get(Field::Cbsz),
                    _ => get(Field::Blgp),
                };
                match f {
                    Field::Src2 => !matches!(v, 125 | 128..=208 | 240..=248 | 256..),
                    _ => v < 256 && !(v == 125 && fmt_regs(8, fmt) == 8),
                }
            };
            if bad(Field::Src0) || bad(Field::Src1) || bad(Field::Src2) {
                return Err(DecodeError::Invalid);
            }
        }
        // gfx9 matrix ops (MFMA, SMFMAC; not v_accvgpr_*, nor the f8f6f4 ops above):
        // llvm-mc-22 rejects the word, or prints the operand with an `Invalid register`/
        // `Invalid immediate` comment, for every scalar source code but these (swept over
        // all 256 codes of each source, gfx908/gfx90a/gfx942/gfx950, old and gfx950
        // ops): src0/src1 null, and up to 64 bits wide also src_shared_base/limit,
        // src_private_base/limit, src_pops_exiting_wave_id (230 (+231 at 32 bits),
        // 235-239) and src_vccz/execz/scc (251-253); a src2 wider than 64 bits null and
        // the inline constants, a 64-bit one those and the 64-bit src_* registers, the
        // 32-bit SMFMAC index null and the src_* registers. hsaco rejects the rest.
        if self.isa.generation == "gfx9"
            && (enc.form == crate::desc::Form::Mai || op.flags & crate::desc::flags::MAI != 0)
            && op.flags & crate::desc::flags::MAI_FMT == 0
            && !self.mai_scalar_sources_valid(ei, op, raw)
        {
            return Err(DecodeError::Invalid);
        }
        // RDNA: a source with a reserved scalar code (209-229, 232-234, 249, 250) is
        // invalid in every encoding (llvm-mc-22 prints no `unknown_N`); gfx11+ VOP3/VOP3P
        // src0 233, 234 and 250 announce a DPP word
        // (VINTERP's 16-bit sources are VGPRs whatever the code, see below)
        // (gfx9 VOP3P and MAI too: llvm-mc-22 rejects them on gfx900-gfx950)
        let vop3p9 = self.isa.generation == "gfx9"
            && matches!(enc.form, crate::desc::Form::Vop3p | crate::desc::Form::Mai);
        if (self.buckets.rdna || vop3p9) && enc.field(Field::WaitExp).is_none() {
            let dpp_src0 = self.buckets.swap_m0_null
                && matches!(enc.form, crate::desc::Form::Vop3 | crate::desc::Form::Vop3p);
            for (o, od) in inst.operands.iter().zip(op.operands) {
                let (Role::Field(f) | Role::FieldOr(f, _)) = od.role else {
                    continue;
                };
                if let Operand::Special { code, .. } = *o {
                    // (gfx1250: 254 is no src_lds_direct, only a 64-bit literal's code)
                    let reserved = matches!(code, 209..=229 | 232..=234 | 249 | 250)
                        || (code == 254 && self.traits & traits::GFX1250 != 0);
                    let marker = dpp_src0 && f == Field::Src0 && matches!(code, 233 | 234 | 250);
                    // a VALU source of 64 bits or more is no 32-bit-only register:
                    // vcc_hi, m0, exec_hi, src_flat_scratch_base_hi, nor src_lds_direct
                    // (gfx10-gfx12, every VOP form; scripts/enc_vectors.py family
                    // `align`; m0 is 124 here whatever the generation encodes; gfx1250's
                    // 254 is a 64-bit literal)
                    let half = od.ty.bits() >= 64
                        && matches!(code, 107 | 124 | 127 | 231 | 254)
                        && enc.form.is_vop()
                        && matches!(f, Field::Src0 | Field::Src1 | Field::Src2);
                    if half {
                        return Err(DecodeError::Invalid);
                    }
                    if reserved
                        && !marker
                        && matches!(
                            f,
                            Field::Src0
                                | Field::Src1
                                | Field::Src2
                                | Field::Ssrc0
                                | Field::Ssrc1
                                | Field::Sdst8
                        )
                    {
                        return Err(DecodeError::Invalid);
                    }
                }
            }
        }
        // gfx11+ VALU: a source an op's `rule op ... =V` fact limits to VGPRs takes no
        // literal; wider than 64 bits no special register but null and no scalar tuple
        // past s105 or ttmp15 (swept: every code 0-255 of a 32-, 64- and 256-bit one on
        // gfx1250; print.rs `valu_register_mark` prints the rest with LLVM's comment)
        if self.buckets.swap_m0_null && enc.form.is_vop() {
            for (i, o) in inst.operands.iter().enumerate().take(op.operands.len()) {
                let bad = match *o {
                    Operand::Literal | Operand::Literal64 => true,
                    Operand::Special { code, count } => count > 2 && code != 125,
                    Operand::Sgpr { first, count } => count > 2 && first + count > 106,
                    Operand::Ttmp { first, count } => count > 2 && first + count > 16,
                    _ => false,
                };
                if bad && self.vgpr_only(row.op, ei as u8, i) {
                    return Err(DecodeError::Invalid);
                }
            }
        }
        if enc.form == crate::desc::Form::Vop3 && enc.field(Field::WaitExp).is_some() {
            // gfx11+ VINTERP: sources are VGPRs; a 16-bit one (gfx11 true16) is taken from
            // the low 8 bits; a 32-bit one below 256 decodes as a scalar source (printed
            // with LLVM's comment but for null and the src_* registers, see print.rs),
            // except the reserved codes and a literal, which LLVM rejects (swept, every
            // source of every op on gfx1100/gfx1201)
            for (o, od) in inst.operands.iter_mut().zip(op.operands) {
                let Role::Field(f @ (Field::Src0 | Field::Src1 | Field::Src2)) = od.role else {
                    continue;
                };
                let v = self.field_desc(ei, f).map_or(0, |d| d.get(raw));
                if v < 256 {
                    if od.ty.bits() == 16 {
                        *o = self.half(ei, f, v as u8, raw);
                    } else if matches!(v, 209..=229 | 232..=234 | 249 | 250 | 255) {
                        return Err(DecodeError::Invalid);
                    }
                }
            }
            // (no literal word: a 16-bit source coded 255 is v255's half)
            literal = false;
            literal64 = false;
        }
        if enc.form == crate::desc::Form::Vopd {
            let (yop, y) = self.vopd_y(&inst).ok_or(DecodeError::Invalid)?;
            literal |= y.contains(&Operand::Literal);
            if !self.vopd_fields_valid(ei, op, yop, raw, w2) {
                return Err(DecodeError::Invalid);
            }
            if enc.words == 3 {
                // (no literal word follows a VOPD3 instruction)
                literal = false;
                literal64 = false;
            }
        }
        // gfx90a and gfx940+: bit 55 of MUBUF (tfe before) and FLAT is acc: the data
        // registers are AGPRs
        let acc_data = self.traits & (traits::GFX90A | traits::GFX940) != 0
            && matches!(
                enc.form,
                crate::desc::Form::Mubuf | crate::desc::Form::Mtbuf | crate::desc::Form::Flat
            );
        // tfe (gfx6-gfx9; gfx10+ is handled above): a load also writes a status dword
        // after its data (and a buffer store's data tuple is one longer too)
        if !self.buckets.rdna
            && !acc_data
            && self
                .field_desc(ei, Field::Tfe)
                .is_some_and(|t| t.get(raw) != 0)
            && (op.flags & flags::LOAD != 0
                || matches!(
                    enc.form,
                    crate::desc::Form::Mubuf | crate::desc::Form::Mtbuf
                ))
        {
            for (o, od) in inst.operands.iter_mut().zip(op.operands) {
                if let (Role::Field(Field::Vdata | Field::Vdst), Operand::Vgpr { count, .. }) =
                    (od.role, o)
                {
                    *count += 1;
                }
            }
        }
        if enc.form == crate::desc::Form::Mimg && self.buckets.rdna {
            image_rdna(&mut inst, enc, op, bytes)?;
            return Ok(inst);
        }
        if enc.form == crate::desc::Form::Mimg {
            mimg(
                &mut inst,
                enc,
                op,
                self.processor() == "gfx90a",
                matches!(self.isa.generation, "gfx6" | "gfx7"),
            );
        }
        if enc.form == crate::desc::Form::Ds
            && self
                .field_desc(ei, Field::Acc)
                .is_some_and(|a| a.get(raw) != 0)
        {
            ds_acc(&mut inst, op)?;
        }
        if enc.form == crate::desc::Form::Mai
            || op.flags & crate::desc::flags::MAI != 0
            || op.flags & (flags::ACC_VDST | flags::ACC_SRC0) != 0
        {
            self.accumulators(&mut inst, enc, op);
        }
        // gfx950 f8f6f4 MFMA: an AGPR tuple past a255 is rejected (llvm-mc-22)
        if op.flags & crate::desc::flags::MAI_FMT != 0
            && inst.operands.iter().zip(op.operands).any(|(o, od)| {
                // (for src0/src1 LLVM checks the described 8-bit format's width, also
                // in FP6/FP4)
                let n = |count: u8| match od.role {
                    Role::Field(Field::Src0 | Field::Src1) => count.max(regs(od.ty)),
                    _ => count,
                };
                matches!(*o, Operand::Agpr { first, count }
                    if u16::from(first) + u16::from(n(count)) > 256)
            })
        {
            return Err(DecodeError::Invalid);
        }
        if self.traits & traits::WAVE64 != 0 {
            wave64_widths(&mut inst, enc, op, self.traits & traits::GFX12 != 0);
        }
        let returns = op.flags & crate::desc::flags::GLC_RTN != 0
            && (self
                .field_desc(ei, Field::Glc)
                .is_some_and(|g| g.get(raw) != 0)
                || self
                    .field_desc(ei, Field::Th)
                    .is_some_and(|t| t.get(raw) & 1 != 0))
            && !op.has_field(Field::Vdst);
        if returns {
            rtn(&mut inst, enc, op, raw)?;
        }
        // gfx8 FLAT: llvm-objdump reads bit 55 (tfe) as acc too, for returning atomics
        // (other forms it flags as invalid registers); gfx900-gfx908 FLAT: on every word
        // (it marks them Invalid but on returning flat_* atomics: `flat_register_mark`)
        let gfx8_flat_rtn = enc.form == crate::desc::Form::Flat
            && ((returns && self.isa.generation == "gfx8")
                || (self.isa.generation == "gfx9"
                    && self.traits & (traits::GFX90A | traits::GFX940) == 0));
        if (acc_data || gfx8_flat_rtn) && raw >> 55 & 1 != 0 {
            // (a returning atomic's operand 0 is the vdst that `rtn` inserted)
            let roles = returns
                .then_some(Role::Field(Field::Vdst))
                .into_iter()
                .chain(op.operands.iter().map(|o| o.role));
            for (o, role) in inst.operands.iter_mut().zip(roles) {
                if let (
                    Role::Field(Field::Vdata | Field::Vdst | Field::Data),
                    Operand::Vgpr { first, count },
                ) = (role, *o)
                {
                    // LLVM has no AGPR tuple past a255: it rejects the word (seen on
                    // gfx90a/gfx940+ MTBUF)
                    if (acc_data || self.isa.generation == "gfx9")
                        && u16::from(first) + u16::from(count) > 256
                    {
                        return Err(DecodeError::Invalid);
                    }
                    *o = Operand::Agpr { first, count };
                }
            }
        }
        // gfx7 SMRD: an SGPR offset of 255 means a 32-bit literal offset follows.
        if enc.form == crate::desc::Form::Smem
            && enc.words == 1
            && self
                .field_desc(ei, Field::Imm)
                .is_some_and(|f| f.get(raw) == 0)
            && self
                .field_desc(ei, Field::Offset)
                .is_some_and(|f| f.get(raw) == 0xff)
        {
            literal = true;
        }
        if self.buckets.swap_m0_null
            && matches!(enc.form, crate::desc::Form::Vop3 | crate::desc::Form::Vop3p)
            && enc.field(Field::WaitExp).is_none()
            && self
                .field_desc(ei, Field::Src0)
                .is_some_and(|f| matches!(f.get(raw), 0xfa | 0xe9 | 0xea))
        {
            // gfx11+ VOP3 with a DPP16 (src0 = 0xfa) or DPP8 (0xe9, 0xea with fi) word:
            // src0 is its VGPR; the word is kept in `literal` (see `Decoder::vop3_dpp`).
            if op.flags & crate::desc::flags::VOP3_DPP == 0 {
                return Err(DecodeError::Invalid);
            }
            if enc.form == crate::desc::Form::Vop3 && !self.vop3_modifiers_valid(ei, op, raw, true)
            {
                return Err(DecodeError::Invalid);
            }
            let w = word(bytes, 2).ok_or(DecodeError::Truncated)?;
            // DPP16 control 0xff read as a source code is a literal: no instruction
            if op.flags & crate::desc::flags::DPP_CTRL_AS_SRC != 0
                && self.field_desc(ei, Field::Src0).map(|f| f.get(raw)) == Some(0xfa)
                && w >> 8 & 0x1ff == 0xff
            {
                return Err(DecodeError::Invalid);
            }
            for (o, od) in inst.operands.iter_mut().zip(op.operands) {
                if od.role == Role::Field(Field::Src0) {
                    // a true16 source is the half op_sel picks
                    *o = if od.ty.bits() == 16 && self.buckets.true16 {
                        self.half(ei, Field::Src0, w as u8, raw)
                    } else {
                        Operand::Vgpr {
                            first: w as u8,
                            count: regs(od.ty),
                        }
                    };
                }
            }
            inst.literal = w;
            inst.size += 4;
            return Ok(inst);
        }
        // RDNA plain VOP3: the same modifier rules as its DPP form (observed)
        if self.buckets.rdna
            && enc.form == crate::desc::Form::Vop3
            && enc.field(Field::WaitExp).is_none()
            && !self.vop3_modifiers_valid(ei, op, raw, false)
        {
            return Err(DecodeError::Invalid);
        }
        if literal64 {
            // two literal words after the encoding's one or two (VOP3); the high one
            // goes to `nsa` (see Instruction::literal64)
            if enc.words > 2 {
                return Err(DecodeError::Invalid);
            }
            let n = usize::from(enc.words);
            inst.literal = word(bytes, n).ok_or(DecodeError::Truncated)?;
            inst.nsa = u64::from(word(bytes, n + 1).ok_or(DecodeError::Truncated)?);
            inst.size += 8;
            return Ok(inst);
        }
        if literal {
            let n = usize::from(enc.words);
            inst.literal = word(bytes, n).ok_or(DecodeError::Truncated)?;
            inst.size += 4;
        }
        Ok(inst)
    }
}

impl Decoder {
    /// gfx11+ VOP3 in DPP form: LLVM rejects modifier bits the operation does not take
    /// (neg/abs of an operation with neither float modifiers nor op_sel, or of a source
    /// it lacks; clamp; omod; op_sel bits are ignored);
    /// VOP3b (`sdst`) operations have no abs/op_sel/clamp bits.
    /// (`dpp`: the DPP form, where no source is a literal; else the plain VOP3 form.)
    fn vop3_modifiers_valid(&self, ei: usize, op: &OpDesc, raw: u64, dpp: bool) -> bool {
        use crate::desc::flags;
        let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
        // (every gfx10+ VOP3 word comes here: the plan is the generation's, found from
        // the operation's place in `ops`, not searched for and worked out again)
        let at = (op as *const OpDesc as usize).wrapping_sub(self.isa.ops.as_ptr() as usize)
            / std::mem::size_of::<OpDesc>().max(1);
        let plan = match (self.isa.ops.get(at), self.buckets.plan(at)) {
            (Some(o), Some(plan)) if std::ptr::eq(o, op) => plan,
            _ => {
                let index = self
                    .isa
                    .ops
                    .iter()
                    .position(|o| std::ptr::eq(o, op))
                    .unwrap_or(0);
                OpPlan::new(self.isa, index, op)
            }
        };
        let srcs = (1u32 << plan.srcs) - 1;
        // (op_sel lives in the same per-source modifier operands as neg/abs in LLVM; an
        // op_sel bit of an operand the op lacks selects LLVM's plain form, whose integer
        // sources take no modifiers)
        let has_vdst = op.has_field(Field::Vdst);
        // (a byte select lives in the bits of src2 and vdst)
        let byte_sel = op.flags & flags::BYTE_SEL != 0;
        let used_sel =
            srcs | if has_vdst { 8 } else { 0 } | if byte_sel { byte_sel_bits(op) } else { 0 };
        // (the plain form rejects op_sel bits of the sources; the DPP form ignores them)
        if byte_sel && !dpp && op.flags & flags::OPSEL == 0 && get(Field::Opsel) & srcs != 0 {
            return false;
        }
        let plain = get(Field::Opsel) & !used_sel & 0xf != 0;
        // an operation with op_sel and only a VOP3 form (v_pack_b32_f16, v_sub_nc_i16,
        // v_maximum_f16) has no plain form to fall back to: such a bit is invalid
        // (gfx12, where llvm-mc-22 has no true16 forms, has no fallback for any op_sel op:
        // v_cvt_f32_bf16, v_cvt_pk_f16_fp8)
        if plain
            && op.flags & flags::OPSEL != 0
            && (!plan.has_vop12c || self.traits & traits::GFX12 != 0)
        {
            return false;
        }
        // the lane mask of v_cndmask (src2) takes no float modifiers (integer sources
        // do: v_ldexp's, v_cmpx_class's src1 accept and ignore them)
        // (nor the attribute of v_interp_*_f16)
        let int_srcs = lane_mask_sources(op)
            | op.operands
                .iter()
                .filter(|o| o.ty == Ty::Attr)
                .fold(0, |m, o| {
                    m | match o.role {
                        Role::Field(Field::Src0) => 1,
                        Role::Field(Field::Src1) => 2,
                        _ => 4,
                    }
                });
        // a compare's integer source (v_cmp_class_f32/f64's src1) takes none either, but
        // in a v_cmpx that falls back to the plain form in its DPP form or on gfx10
        // (observed)
        let gfx10 = self.traits & traits::GFX10 != 0;
        let int_srcs = if plan.vopc && !(plan.no_sdst_or_vdst && plain && (dpp || gfx10)) {
            int_srcs
                | op.operands
                    .iter()
                    .filter(|o| {
                        matches!(
                            o.ty,
                            Ty::I16 | Ty::I32 | Ty::I64 | Ty::U16 | Ty::U32 | Ty::U64
                        )
                    })
                    .fold(0, |m, o| {
                        m | match o.role {
                            Role::Field(Field::Src0) => 1,
                            Role::Field(Field::Src1) => 2,
                            Role::Field(Field::Src2) => 4,
                            _ => 0,
                        }
                    })
        } else {
            int_srcs
        };
        // (v_permlane*16_b32: op_sel holds fi/bound_ctrl, the sources take no neg/abs)
        let mods = if op.flags & flags::FPMODS != 0 {
            srcs & !int_srcs
        } else if op.flags & flags::OPSEL != 0 && !plain && op.flags & flags::OPSEL_FI_BOUND == 0 {
            srcs
        } else {
            0
        };
        // a compare's scalar destination is a register (no constant or reserved code),
        // and no source is a reserved scalar code
        if op.operands.iter().any(|o| {
            matches!(
                o.role,
                Role::Field(Field::Sdst8) | Role::FieldOr(Field::Sdst8, _)
            )
        }) && if dpp || gfx10 {
            matches!(get(Field::Sdst8), 128..=234 | 240..=250 | 255)
        } else {
            // (gfx11+ plain VOP3, swept over every code: a constant is printed with
            // `/*Invalid immediate*/` (print.rs), src_flat_scratch_base_lo/hi plainly)
            matches!(get(Field::Sdst8), 209..=229 | 232..=234 | 249 | 250 | 255)
        } {
            return false;
        }
        // (nor a literal: the DPP word takes its place)
        // (the plain form's src0 too; the DPP form's is the DPP marker)
        if [(Field::Src0, 1), (Field::Src1, 2), (Field::Src2, 3)]
            .into_iter()
            .filter(|(f, _)| !dpp || *f != Field::Src0)
            .any(|(f, n)| {
                plan.srcs >= n
                    && (matches!(get(f), 209..=229 | 232..=234 | 249 | 250)
                        || (dpp && get(f) == 255))
            })
        {
            return false;
        }
        // (v_bitop3_*: neg, abs and omod hold the truth table)
        if op.flags & flags::BITOP3 != 0 {
            return (op.flags & flags::CLAMP != 0 || get(Field::Clamp) == 0)
                && (op.flags & flags::OPSEL != 0 || get(Field::Opsel) == 0);
        }
        if get(Field::Neg) & !mods != 0 {
            return false;
        }
        // (VOP3b: no output modifier either)
        if plan.vop3b {
            return op.flags & flags::OMOD != 0 || get(Field::Omod) == 0;
        }
        (get(Field::Abs) & !mods == 0)
            && (op.flags & flags::CLAMP != 0 || get(Field::Clamp) == 0)
            && (op.flags & flags::OMOD != 0 || get(Field::Omod) == 0)
    }
}

impl Decoder {
    /// The scalar source codes of a gfx9 matrix op llvm-mc-22 prints without a comment
    /// (see the caller).
    fn mai_scalar_sources_valid(&self, ei: usize, op: &OpDesc, raw: u64) -> bool {
        if !op.has_field(Field::Src2) {
            return true;
        }
        let src_regs = |code: u32, bits: u32| match code {
            125 => true,
            230 | 235..=239 | 251..=253 => bits <= 64,
            231 => bits <= 32,
            _ => false,
        };
        op.operands.iter().all(|o| {
            let (Role::Field(f) | Role::FieldOr(f, _)) = o.role else {
                return true;
            };
            let v = self.field_desc(ei, f).map_or(256, |d| d.get(raw));
            let bits = o.ty.bits();
            v >= 256
                || match f {
                    Field::Src0 | Field::Src1 => src_regs(v, bits),
                    Field::Src2 if bits > 32 => {
                        matches!(v, 125 | 128..=208 | 240..=248) || (bits == 64 && src_regs(v, 64))
                    }
                    Field::Src2 => src_regs(v, 32),
                    _ => true,
                }
        })
    }

    /// VOP3P operations (RDNA: on 32-bit registers; gfx9: all but MAI, the packed f32
    /// ops included) (observed with llvm-mc-22): op_sel,
    /// neg_lo and neg_hi bits of a source the operation lacks are invalid; without op_sel
    /// (the integer dot products) op_sel must be 0 and clamp 0 where the operation has
    /// none; one without neg lists either takes op_sel_hi only at its default and
    /// neg_lo/neg_hi only on src2 (the fp8 dot products, now checked with the matrix
    /// ops by `matrix_modifiers_valid`, were the case).
    fn vop3p_modifiers_valid(&self, ei: usize, op: &OpDesc, raw: u64) -> bool {
        use crate::desc::flags;
        let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
        // (matrix ops, and the fp8 dot products that share their rules, are checked by
        // `matrix_modifiers_valid`)
        if op.flags & (flags::MAI | flags::WMMA) != 0
            || (self.buckets.rdna && op.operands.iter().any(|o| o.ty.bits() > 32))
        {
            return true;
        }
        // gfx90a+ packed f32 ops: m0 (124) as a 64-bit source rejects the word (observed
        // on gfx950 for each source of v_pk_fma_f32; null, vcc, exec print)
        if !self.buckets.rdna
            && op.operands.iter().any(|o| {
                o.ty.bits() == 64
                    && matches!(o.role,
                        Role::Field(f @ (Field::Src0 | Field::Src1 | Field::Src2)) if get(f) == 124)
            })
        {
            return false;
        }
        // op_sel, neg_lo and neg_hi bits of a source the operation lacks are invalid
        // (op_sel_hi's are ignored)
        let srcs = op.operands.iter().fold(0, |m, o| {
            m | match o.role {
                Role::Field(Field::Src0) => 1,
                Role::Field(Field::Src1) => 2,
                Role::Field(Field::Src2) => 4,
                _ => 0,
            }
        });
        if (get(Field::Opsel) | get(Field::Neg) | get(Field::NegHi)) & !srcs & 7 != 0 {
            return false;
        }
        if op.flags & flags::OPSEL != 0 {
            return true;
        }
        if get(Field::Opsel) != 0 || (op.flags & flags::CLAMP == 0 && get(Field::Clamp) != 0) {
            return false;
        }
        op.flags & flags::NEG != 0
            || (get(Field::OpselHi) | get(Field::OpselHi2) << 2 == 7
                && (get(Field::Neg) | get(Field::NegHi)) & 3 == 0)
    }
}

/// The op_sel bits that hold the byte select of a [`crate::desc::flags::BYTE_SEL`]
/// operation: 0-1 for one source (`v_cvt_f16_fp8`), else 2-3 (`v_cvt_sr_fp8_f32`).
pub(crate) fn byte_sel_bits(op: &OpDesc) -> u32 {
    let srcs = op
        .operands
        .iter()
        .filter(|o| matches!(o.role, Role::Field(Field::Src0 | Field::Src1 | Field::Src2)))
        .count();
    if srcs == 1 {
        3
    } else {
        0xc
    }
}

/// The byte select of a [`crate::desc::flags::BYTE_SEL`] operation from its op_sel
/// field (one source: bit 0 is the high bit, bit 1 the low one; observed).
pub(crate) fn byte_sel(op: &OpDesc, sel: u32) -> u32 {
    if byte_sel_bits(op) == 3 {
        (sel & 1) << 1 | (sel >> 1 & 1)
    } else {
        sel >> 2 & 3
    }
}

/// The sources of `op` that are a lane mask (`v_cndmask_*`'s src2, bit 2): no float
/// modifiers, no op_sel bit, though the operation has both for its other sources.
pub(crate) fn lane_mask_sources(op: &OpDesc) -> u32 {
    if op.flags & flags::LANE_MASK != 0 {
        4
    } else {
        0
    }
}

/// The sources of `op` that are packed pairs without an op_sel bit of their own
/// (`v_dot2_f16_f16`/`v_dot2_bf16_bf16` src0 and src1: llvm-mc-22 prints their op_sel
/// entries as 0 and ignores the bits).
pub(crate) fn packed_sources_without_opsel(op: &OpDesc) -> u32 {
    if op.flags & flags::PACKED_NO_OPSEL != 0 {
        3
    } else {
        0
    }
}

/// The kind of DPP word of a gfx11+ VOP3/VOP3P instruction in DPP form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vop3Dpp {
    /// `quad_perm`, `row_*` controls, masks, `bound_ctrl`, `fi` (src0 = 0xfa).
    Dpp16,
    /// `dpp8:[..]` lane selects (src0 = 0xe9, or 0xea with `fi:1`).
    Dpp8 {
        /// fetch inactive lanes (`fi:1`)
        fi: bool,
    },
}

impl Decoder {
    /// The DPP word of a gfx11+ VOP3 instruction in its DPP form (`v_add3_u32_e64_dpp`),
    /// if it is one: the DPP16 control word, or (`Vop3Dpp::Dpp8`) the DPP8 lane selects.
    pub fn vop3_dpp(&self, inst: &Instruction) -> Option<u32> {
        self.vop3_dpp_kind(inst).map(|_| inst.literal)
    }

    /// Which DPP word a gfx11+ VOP3 instruction carries, if any.
    pub fn vop3_dpp_kind(&self, inst: &Instruction) -> Option<Vop3Dpp> {
        let enc = self.isa.encodings.get(usize::from(inst.encoding))?;
        if !(self.buckets.swap_m0_null
            && matches!(enc.form, crate::desc::Form::Vop3 | crate::desc::Form::Vop3p)
            && enc.field(Field::WaitExp).is_none()
            && inst.size == 12)
        {
            return None;
        }
        match enc.field(Field::Src0)?.get(inst.raw) {
            0xfa => Some(Vop3Dpp::Dpp16),
            0xe9 => Some(Vop3Dpp::Dpp8 { fi: false }),
            0xea => Some(Vop3Dpp::Dpp8 { fi: true }),
            _ => None,
        }
    }

    /// The Y half of a VOPD (dual-issue) instruction: its operation and operands
    /// (`vdsty`, `src0y`, `vsrc1y` and a literal, in printing order). None for other
    /// instructions or an undefined Y opcode.
    pub fn vopd_y(&self, inst: &Instruction) -> Option<(&'static OpDesc, [Operand; 4])> {
        let enc = self.isa.encodings.get(usize::from(inst.encoding))?;
        if enc.form != crate::desc::Form::Vopd || enc.name.ends_with('Y') {
            return None;
        }
        // The Y table of VOPD is VOPDY, of gfx1250's VOPD3 VOPD3Y.
        let yi = match enc.name {
            "VOPD" => self.buckets.vopdy?,
            name => self.isa.encodings.iter().position(|e| {
                e.name.len() == name.len() + 1 && e.name.starts_with(name) && e.name.ends_with('Y')
            })?,
        };
        let ytab = self.isa.encodings.get(yi)?;
        let key = ytab.field(Field::Opy)?.get(inst.raw);
        let row = ytab
            .opcodes
            .iter()
            .find(|r| u32::from(r.key) == key && r.procs & self.proc_bit != 0)?;
        let op = self.isa.ops.get(usize::from(row.op))?;
        let mut out = [Operand::None; 4];
        for (slot, od) in out.iter_mut().zip(op.operands) {
            *slot = match od.role {
                Role::Field(Field::Vdsty) if ytab.field(Field::Vdsty)?.width == 7 => {
                    let x = enc.field(Field::Vdstx)?.get(inst.raw);
                    let y = ytab.field(Field::Vdsty)?.get(inst.raw);
                    Operand::Vgpr {
                        first: ((y << 1) | ((x & 1) ^ 1)) as u8,
                        count: 1,
                    }
                }
                r => self.operand(yi, r, od.ty, inst.raw, inst.literal).ok()?,
            };
        }
        Some((op, out))
    }

    /// The scaled MFMA (`Form::Vop3px2`) that starts with the `v_mfma_ld_scale_b32` word
    /// pair `ld` (encoding `ld_ei`) at `bytes`, if the next pair is a `v_mfma_*_f8f6f4`
    /// with abid 1 that decodes (with abid 0) as itself. Observed with llvm-mc-22: the
    /// ld_scale pair's vdst, clamp and neg bits are ignored then, its sources must not
    /// be a literal or an unnamed scalar code; else the ld_scale pair decodes alone.
    fn scaled_mfma(&self, bytes: &[u8], ld_ei: usize, ld: u64) -> Scaled {
        match self.scaled_pair(bytes, ld_ei, ld) {
            Some(inst) => Scaled::Pair(inst),
            None if self.scaled_pair_rejected(bytes) => Scaled::Invalid,
            None => Scaled::No,
        }
    }

    /// Whether llvm-mc-22 rejects the whole 16 bytes of a would-be scaled MFMA instead of
    /// decoding the ld_scale pair alone (observed on gfx950): the MFMA half (abid 1) has
    /// a src0/src1 inline constant other than 0-64 or a literal, a literal src2, or, in
    /// a format narrower than 8 bits, a trap temporary or null src0/src1.
    fn scaled_pair_rejected(&self, bytes: &[u8]) -> bool {
        let (Some(w2), Some(w3)) = (word(bytes, 2), word(bytes, 3)) else {
            return false;
        };
        let raw = u64::from(w2) | u64::from(w3) << 32;
        let Some(x) = self
            .isa
            .encodings
            .iter()
            .find(|e| e.form == crate::desc::Form::Vop3px2)
        else {
            return false;
        };
        let get = |f: Field| x.field(f).map_or(0, |d| d.get(raw));
        let vop3p = w2 & 0xff80_0000 == 0xd380_0000;
        let key = get(Field::Op);
        let row = x
            .opcodes
            .iter()
            .any(|r| u32::from(r.key) == key && r.procs & self.proc_bit != 0);
        if !vop3p || !row || get(Field::Abid) != 1 {
            return false;
        }
        let src = |f: Field, fmt: Field| {
            let v = get(f);
            matches!(v, 193..=255) || (fmt_regs(8, get(fmt)) != 8 && matches!(v, 108..=119 | 125))
        };
        src(Field::Src0, Field::Cbsz) || src(Field::Src1, Field::Blgp) || get(Field::Src2) == 255
    }

    fn scaled_pair(&self, bytes: &[u8], ld_ei: usize, ld: u64) -> Option<Instruction> {
        use crate::desc::Form;
        let xi = self
            .isa
            .encodings
            .iter()
            .position(|e| e.form == Form::Vop3px2)?;
        let x = self.isa.encodings.get(xi)?;
        let raw = u64::from(word(bytes, 2)?) | u64::from(word(bytes, 3)?) << 32;
        let abid = x.field(Field::Abid)?;
        if abid.get(raw) != 1 {
            return None;
        }
        let mask = ((1u64 << abid.width) - 1) << abid.lo;
        let mfma = self.decode(&(raw & !mask).to_le_bytes()).ok()?;
        if self.op(&mfma).flags & crate::desc::flags::MAI_FMT == 0 || mfma.size != 8 {
            return None;
        }
        let key = x.field(Field::Op)?.get(raw);
        let row = x
            .opcodes
            .iter()
            .find(|r| u32::from(r.key) == key && r.procs & self.proc_bit != 0)?;
        let op = self.isa.ops.get(usize::from(row.op))?;
        let mut inst = Instruction {
            op: row.op,
            encoding: xi as u8,
            size: 16,
            operands: [Operand::None; crate::MAX_OPERANDS],
            literal: 0,
            raw,
            nsa: ld,
        };
        for (i, (slot, od)) in inst.operands.iter_mut().zip(op.operands).enumerate() {
            *slot = match od.role {
                Role::Field(Field::ScaleSrc0) => self.scale_source(ld_ei, Field::Src0, ld)?,
                Role::Field(Field::ScaleSrc1) => self.scale_source(ld_ei, Field::Src1, ld)?,
                _ => *mfma.operands.get(i)?,
            };
        }
        Some(inst)
    }

    /// A source of the ld_scale half of a scaled MFMA: no literal, no unnamed code.
    fn scale_source(&self, ld_ei: usize, f: Field, ld: u64) -> Option<Operand> {
        let o = self.operand(ld_ei, Role::Field(f), Ty::B32, ld, 0).ok()?;
        match o {
            Operand::Literal => None,
            Operand::Special {
                code: 209..=229 | 232..=234 | 249 | 250,
                ..
            } => None,
            o => Some(o),
        }
    }

    /// Whether a VOPD (gfx11+) or gfx1250 VOPD3 word is one llvm-mc-22 decodes (learned
    /// with scripts/vopd3_vectors.py): a register field its half has no operand for is
    /// zero (`vsrc1` of v_dual_mov_b32, VOPD3 `src2` of the two-source operations), no
    /// unnamed code as a scalar source (nor 254 in gfx1250 VOPD). VOPD3 only: the neg bits
    /// (41-43 X, 44-46 Y: src0, vsrc1, src2) only on operations with float source
    /// modifiers (`!fpmods`) and only for sources they have (not a lane mask); no literal
    /// (255) unless another scalar source is 254 (print.rs `vopd`); a 64-bit src0 is no
    /// odd half (vcc_hi, m0, exec_hi, src_flat_scratch_base_hi). (Register banks are the
    /// assembler's rule: the disassembler takes any.)
    fn vopd_fields_valid(&self, ei: usize, x: &OpDesc, y: &OpDesc, raw: u64, w2: u32) -> bool {
        use crate::desc::flags;
        let three = self.isa.encodings[ei].words == 3;
        let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get_wide(raw, w2));
        let neg = get(Field::Neg);
        let halves = [
            (
                x,
                [Field::Src0x, Field::Vsrc1x, Field::Src2x],
                Field::Ssrc2x,
                0,
            ),
            (
                y,
                [Field::Src0y, Field::Vsrc1y, Field::Src2y],
                Field::Ssrc2y,
                3,
            ),
        ];
        let (mut lit, mut lit254) = (false, false);
        for (op, [src0, vsrc1, src2], ssrc2, shift) in halves {
            let has = |f: Field| op.field_operand(f);
            let lane_mask = has(ssrc2).is_some();
            for (i, f) in [src0, vsrc1, src2].into_iter().enumerate() {
                let used = has(f).is_some() || (f == src2 && lane_mask);
                if !used && get(f) != 0 {
                    return false;
                }
                let negated = neg >> (shift + i) & 1 != 0;
                if negated && (op.flags & flags::FPMODS == 0 || has(f).is_none()) {
                    return false;
                }
            }
            let s0 = get(src0);
            // (codes without a name: 209-229, 232-234, 249, 250)
            let unnamed = |c: u32| matches!(c, 209..=229 | 232..=234 | 249 | 250);
            // (gfx1250 VOPD: no src_lds_direct, and 254 is no constant there)
            if unnamed(s0)
                || (!three && s0 == 254 && self.traits & traits::GFX1250 != 0)
                || (has(src0).is_some_and(|o| o.ty.bits() == 64)
                    && matches!(s0, 107 | 125 | 127 | 231))
                || (lane_mask && unnamed(get(ssrc2)))
            {
                return false;
            }
            for c in [Some(s0), lane_mask.then(|| get(ssrc2))]
                .into_iter()
                .flatten()
            {
                lit |= c == 255;
                lit254 |= c == 254;
            }
        }
        // VOPD3: a literal (255) only next to a 254 (llvm-mc-22 then reads both from the
        // second word, print.rs `vopd`)
        !three || !lit || lit254
    }

    /// A gfx12+ matrix op (`flags::WMMA`: WMMA/SWMMAC, gfx12's fp8 dot products): LLVM
    /// rejects op_sel_hi bits other than all ones (but where they hold matrix_b_fmt or,
    /// bit 14, matrix_b_reuse), op_sel bits that are not index_key/reuse/format, and
    /// neg_lo/neg_hi/clamp bits the op does not take (see `flags::WMMA`).
    fn matrix_modifiers_valid(&self, ei: usize, op: &OpDesc, raw: u64) -> bool {
        use crate::desc::flags::*;
        let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
        let has = |flag: u64| op.flags & flag != 0;
        let fmt = has(MATRIX_FMT);
        let reuse = has(MATRIX_REUSE);
        if !fmt && (get(Field::OpselHi) != 3 || (!reuse && get(Field::OpselHi2) != 1)) {
            return false;
        }
        let sel = if fmt {
            7
        } else {
            u32::from(has(INDEX_KEY)) | if reuse { 4 } else { 0 }
        };
        let ab = |flag: u64| if has(flag) { 3 } else { 0 };
        let c = if has(FPMODS) { 4 } else { 0 };
        get(Field::Opsel) & !sel == 0
            && (has(CLAMP) || get(Field::Clamp) == 0)
            && get(Field::Neg) & !(ab(NEG) | c) == 0
            && get(Field::NegHi) & !(ab(NEG_HI) | c) == 0
    }

    /// Whether a gfx9 FLAT word (mostly global_* / scratch_*, segments 2 and 1) is one
    /// llvm-mc-22 decodes (observed on gfx900/906/908/90a/942/950 by sweeping the
    /// flags, the scalar base and the register parities of every operation; round gfx9gs,
    /// `git show bbbbee4:crates/hsaco-isa/NOTES.md`):
    /// * gfx90a/gfx940+ (all three segments): register tuples start at an even
    ///   register (the 64-bit address, data and result; not the data and result of a
    ///   returning atomic in AGPRs); LLVM prints the others with an Invalid-register
    ///   comment (`VReg_64_Align2`, `AV_64_Align2`), which hsaco rejects as it rejects
    ///   the gfx900-gfx908 words LLVM marks so;
    /// * global: the scalar base is a pair or `off` (127): flat_scratch_hi (103),
    ///   xnack_mask_hi (105), vcc_hi (107) and m0 (124) are rejected; exec (126) is
    ///   a base only for the loads to LDS (LLVM marks it Invalid on the others);
    /// * gfx940+: bit 13 (scratch's sve) is rejected on every global word, and bit 55
    ///   (acc) on the loads to LDS (`*_load_lds_*`); gfx900-gfx90a: the loads to LDS
    ///   (bit 13) take no acc bit either;
    /// * float atomics (`FP_ATOMIC`): gfx908 has neither a returning (glc) nor an scc
    ///   form; gfx90a no scc form; gfx940+ no returning form with AGPRs (f32/pk_f16)
    ///   or with AGPRs and sc1 (f64).
    fn gfx9_global_scratch_valid(&self, ei: usize, op: &OpDesc, raw: u64) -> bool {
        let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
        let seg = get(Field::Seg);
        let gfx940 = self.traits & traits::GFX940 != 0;
        let (lds, glc, sc1, acc) = (
            get(Field::Lds),
            get(Field::Glc),
            get(Field::Sc1),
            get(Field::Nv),
        );
        // (gfx90a/gfx940+ register tuples that start at an odd register are printed
        // with LLVM's Invalid-register mark: `print::flat_register_mark`)
        if op.flags & crate::desc::flags::FP_ATOMIC != 0 {
            let f64 = op.operands.iter().any(|o| o.ty == Ty::F64);
            let bad = if gfx940 {
                glc != 0 && acc != 0 && (!f64 || sc1 != 0)
            } else if self.traits & traits::GFX90A != 0 {
                sc1 != 0
            } else {
                glc != 0 || sc1 != 0
            };
            if bad {
                return false;
            }
        }
        if seg == 0 {
            return true;
        }
        // (exec is a base only for the loads to LDS; LLVM marks it on the others:
        // `print::flat_register_mark`)
        let load_lds = flat_load_lds(op);
        if seg == 2 && matches!(get(Field::Saddr), 103 | 105 | 107 | 124) {
            return false;
        }
        if gfx940 {
            if (seg == 2 && lds != 0) || (acc != 0 && load_lds) {
                return false;
            }
        } else if lds != 0 && acc != 0 {
            return false;
        }
        // gfx900-gfx908: a returning global atomic takes no AGPRs (flat_* ones do)
        if self.traits & (traits::GFX90A | traits::GFX940) == 0
            && acc != 0
            && glc != 0
            && op.flags & crate::desc::flags::GLC_RTN != 0
            && !op.has_field(Field::Vdst)
        {
            return false;
        }
        true
    }

    /// A gfx900-gfx908 flat_* atomic (FLAT segment 0) that returns (glc set).
    pub(crate) fn flat_seg0_rtn(&self, ei: usize, op: &OpDesc, raw: u64) -> bool {
        let get = |f: Field| self.field_desc(ei, f).map_or(1, |d| d.get(raw));
        self.isa.generation == "gfx9"
            && self.traits & (traits::GFX90A | traits::GFX940) == 0
            && self.isa.encodings[ei].form == crate::desc::Form::Flat
            && op.flags & crate::desc::flags::GLC_RTN != 0
            && get(Field::Seg) == 0
            && get(Field::Glc) != 0
    }

    /// Whether a DS word is one LLVM decodes (gfx8+; gfx6/gfx7, which LLVM cannot
    /// disassemble, are not checked): every register field the operation has no operand
    /// for is zero (and ds_nop's offset), the `gds` bit is set only where the operation
    /// has it and always for GDS-only operations, and the `acc` bit only on
    /// gfx90a/gfx940+ (before, gfx8 included, for GDS-only operations, loads and stores)
    /// and not on an operation without operands.
    /// gfx8-gfx10 MUBUF: the field combinations llvm-mc-22 decodes (each rule found by
    /// setting single bits and pairs of bits of every opcode on every processor; the
    /// words it rejects are in tests/data/<gen>.mubuf.invalid).
    fn mubuf_fields_valid(&self, ei: usize, op: &OpDesc, raw: u64) -> bool {
        use crate::desc::flags;
        let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
        let has = |f: Field| op.has_field(f);
        let bit = |b: u32| raw >> b & 1 != 0;
        let gfx10 = self.traits & traits::GFX10 != 0;
        let gfx90a = self.traits & traits::GFX90A != 0;
        let gfx940 = self.traits & traits::GFX940 != 0;
        let lds = get(Field::Lds) != 0;
        // the lds bit only on the ops that load to LDS (`!lds`), required by the one
        // that has no data operand (buffer_store_lds_dword), never with bit 55 (tfe, or
        // acc from gfx90a)
        if lds && (op.flags & flags::LDS == 0 || bit(55)) {
            return false;
        }
        if op.flags & flags::LDS != 0 && !has(Field::Vdata) && !lds {
            return false;
        }
        // no address operand: offen and idxen clear; no data operand: bit 55 clear
        if !has(Field::Vaddr) && (get(Field::Offen) | get(Field::Idxen)) != 0 {
            return false;
        }
        if !has(Field::Vdata) && bit(55) {
            return false;
        }
        // gfx8/gfx9: bit 25 is reserved (gfx10: the opcode's top bit)
        if !gfx10 && bit(25) {
            return false;
        }
        // operand-less cache ops: bits 14 and 15 (glc, dlc / scc / sc0, sc1) clear, but
        // on gfx940+ (printed sc0 sc1) and gfx90a buffer_wbl2 (accepted, not printed)
        if op.operands.is_empty()
            && (bit(14) || bit(15))
            && !gfx940
            && !(gfx90a && op.mnemonic == "buffer_wbl2")
        {
            return false;
        }
        if op.flags & flags::ATOMIC != 0 {
            // tfe (gfx8, gfx900-gfx908, gfx10) and dlc (gfx10) are not atomics' bits
            if !(gfx90a || gfx940) && bit(55) {
                return false;
            }
            if gfx10 && get(Field::Dlc) != 0 {
                return false;
            }
            // gfx908: the float add atomics do not return (glc clear); gfx90a: the float
            // atomics take no scc (bit 15)
            let float_add = matches!(
                op.mnemonic,
                "buffer_atomic_add_f32" | "buffer_atomic_pk_add_f16"
            );
            if self.traits & traits::GFX908 != 0 && float_add && bit(14) {
                return false;
            }
            if gfx90a && bit(15) && (float_add || op.mnemonic.ends_with("_f64")) {
                return false;
            }
        }
        // gfx10: reserved scalar codes (209-229, 232-234, 249, 250) are no soffset
        // (src_lds_direct, 254, is printed with an Invalid-register mark), s[104:107]
        // and s[124:127] no resource (gfx8/gfx9: the buffer rule above)
        if gfx10
            && !op.operands.is_empty()
            && (matches!(get(Field::Soffset), 209..=229 | 232..=234 | 249 | 250)
                || matches!(get(Field::Srsrc), 26 | 31))
        {
            return false;
        }
        true
    }

    fn ds_fields_valid(&self, ei: usize, op: &OpDesc, raw: u64) -> bool {
        use crate::desc::flags;
        if self.traits & traits::GFX6_7 != 0 {
            return true;
        }
        let get = |f: Field| self.field_desc(ei, f).map_or(0, |d| d.get(raw));
        for f in [Field::Addr, Field::Data0, Field::Data1, Field::Vdst] {
            if get(f) != 0 && !op.has_field(f) {
                return false;
            }
        }
        // ds_nop (no operands, no gds) has no offset either
        if op.operands.is_empty()
            && op.flags & flags::GDS == 0
            && (get(Field::Offset0) != 0 || get(Field::Offset1) != 0)
        {
            return false;
        }
        let gds = get(Field::Gds) != 0;
        if (gds && op.flags & flags::GDS == 0) || (!gds && op.flags & flags::GDS_ONLY != 0) {
            return false;
        }
        // before gfx90a LLVM takes AGPRs in the GDS-only operations, and in loads and
        // stores (which it marks "Invalid register"); it rejects the other words
        get(Field::Acc) == 0
            || (!op.operands.is_empty()
                && (self.traits & (traits::GFX90A | traits::GFX940) != 0
                    || op.flags & flags::GDS_ONLY != 0
                    || ds_data_operands(op) == 1))
    }

    /// Turn the VGPR operands of matrix and accumulator-move instructions that name
    /// AGPRs into [`Operand::Agpr`]: vdst and (MFMA) src2 on gfx908 or with `acc_cd`,
    /// src0/src1 with their `acc` bit; v_accvgpr_* by their flags.
    fn accumulators(&self, inst: &mut Instruction, enc: &EncodingDesc, op: &OpDesc) {
        let get = |f: Field| enc.field(f).map_or(0, |d| d.get(inst.raw));
        let (dst, srcs) = if op.flags & (flags::ACC_VDST | flags::ACC_SRC0) != 0 {
            (
                op.flags & flags::ACC_VDST != 0,
                u32::from(op.flags & flags::ACC_SRC0 != 0),
            )
        } else {
            let cd = self.traits & traits::GFX908 != 0 || get(Field::AccCd) != 0;
            let mut srcs = get(Field::Acc);
            if cd && op.flags & flags::ACC_C != 0 {
                srcs |= 4;
            }
            (cd, srcs)
        };
        for (o, od) in inst.operands.iter_mut().zip(op.operands) {
            let agpr = match od.role {
                Role::Field(Field::Vdst) => dst,
                Role::Field(Field::Src0) => srcs & 1 != 0,
                Role::Field(Field::Src1) => srcs & 2 != 0,
                Role::Field(Field::Src2) => srcs & 4 != 0,
                _ => false,
            };
            if let (true, Operand::Vgpr { first, count }) = (agpr, *o) {
                *o = Operand::Agpr { first, count };
            }
        }
    }
}

/// gfx8/gfx9 SMEM register fields as llvm-mc-22 accepts them (probed over every
/// value): a data tuple must lie in s0-s103 starting at or below s101 (after the usual
/// alignment) or start in the trap temporaries (108-123; gfx8: 112-123) and end by
/// code 123 (gfx8: 127); pairs may also be flat_scratch, xnack_mask or vcc (gfx8: tba,
/// tma); single registers anything but m0 and exec; `null` (125) always. A 64-bit base
/// may be any pair but m0; a buffer resource only an SGPR or ttmp quad. Operations
/// without an offset operand need imm clear.
fn smem_registers_valid(op: &OpDesc, gfx8: bool, field: impl Fn(Field) -> Option<u32>) -> bool {
    let (ttmp, ttmp_end) = if gfx8 { (112, 127) } else { (108, 123) };
    // s_dcache_*, s_memtime: no offset operand, and imm must be clear
    if field(Field::Imm) == Some(1) && !op.has_field(Field::Offset) {
        return false;
    }
    let tuple_ok = |v: u32, count: u32| {
        let align = |x: u32| match count {
            1 => x,
            2 => x & !1,
            _ => x & !3,
        };
        match v {
            125 => true,
            0..=101 => align(v) + count - 1 <= 103,
            108..=123 if v >= ttmp => ttmp + align(v - ttmp) + count - 1 <= ttmp_end,
            _ => match count {
                1 => !matches!(v, 124 | 126 | 127),
                2 => matches!(v, 102 | 104 | 106) || (gfx8 && matches!(v, 108 | 110)),
                _ => false,
            },
        }
    };
    op.operands.iter().all(|od| match od.role {
        Role::Field(Field::Sdata) if od.ty.bits() >= 32 && od.ty != Ty::Dec16 => {
            field(Field::Sdata).is_none_or(|v| tuple_ok(v, od.ty.regs().into()))
        }
        Role::Field(Field::Sbase) => field(Field::Sbase).is_none_or(|b| {
            if od.ty.regs() > 2 {
                b <= 50 || (ttmp / 2..=61).contains(&b)
            } else {
                b != 62
            }
        }),
        _ => true,
    })
}

/// The number of data and returned-data operands (`vdst`, `data0`, `data1`) of a DS
/// operation: 1 for loads and stores, more for returning atomics and two-data stores.
pub(crate) fn ds_data_operands(op: &OpDesc) -> usize {
    op.operands
        .iter()
        .filter(|d| {
            matches!(
                d.role,
                Role::Field(Field::Vdst | Field::Data0 | Field::Data1)
            )
        })
        .count()
}

/// A GDS-only DS operation without a returned value (`ds_gws_*`): its one register, in
/// the address field, is data.
pub(crate) fn ds_gws(op: &OpDesc) -> bool {
    op.flags & crate::desc::flags::GDS_ONLY != 0 && !op.has_field(Field::Vdst)
}

/// DS with the `acc` bit (gfx90a+; before, GDS-only operations, loads and stores): the
/// data and returned registers are AGPRs. The address stays a VGPR, but for `ds_gws_*`,
/// whose one register in the address field is data.
fn ds_acc(inst: &mut Instruction, op: &OpDesc) -> Result<(), DecodeError> {
    let gws = ds_gws(op);
    for (o, od) in inst.operands.iter_mut().zip(op.operands) {
        let data = match od.role {
            Role::Field(Field::Vdst | Field::Data0 | Field::Data1) => true,
            Role::Field(Field::Addr) => gws,
            _ => false,
        };
        if let (true, Operand::Vgpr { first, count }) = (data, *o) {
            // LLVM has no AGPR tuple past a255 (it shows v[255:256], not a[255:256])
            if u16::from(first) + u16::from(count) > 256 {
                return Err(DecodeError::Invalid);
            }
            *o = Operand::Agpr { first, count };
        }
    }
    Ok(())
}

/// gfx10+ in wave64: a lane mask (carry, compare result, `v_cndmask` selector; the
/// operands that are `vcc` in the 32-bit encodings) is a register pair; the matrix
/// operands of WMMA/SWMMAC (gfx11: the accumulator and result only) and the data of
/// the transposing loads hold half as many registers per lane.
fn wave64_widths(inst: &mut Instruction, enc: &EncodingDesc, op: &OpDesc, gfx12: bool) {
    use crate::desc::Form;
    let vector = matches!(
        enc.form,
        Form::Vop1 | Form::Vop2 | Form::Vopc | Form::Vop3 | Form::Sdwa | Form::Dpp
    );
    let matrix = op.flags & flags::MATRIX != 0;
    let transpose = op.flags & flags::TRANSPOSE != 0;
    let cndmask = op.flags & flags::LANE_MASK != 0;
    // A scalar destination beside a vector one is a carry or `v_div_scale`'s flag: a
    // lane mask; alone (`v_readlane`, `v_readfirstlane`, gfx12's `v_s_*`) it is one
    // value, a single SGPR as llvm-objdump prints it.
    let beside_vdst = op
        .operands
        .iter()
        .any(|od| od.role == Role::Field(Field::Vdst));
    for (o, od) in inst.operands.iter_mut().zip(op.operands) {
        let mask = vector
            && (matches!(od.role, Role::FieldOr(_, 106))
                || (beside_vdst && matches!(od.role, Role::Field(Field::Sdst | Field::Sdst8)))
                || (cndmask && od.role == Role::Field(Field::Src2)));
        if mask {
            // (pairs start at an even register)
            *o = match *o {
                Operand::Sgpr { first, count: 1 } => Operand::Sgpr {
                    first: first & !1,
                    count: 2,
                },
                Operand::Ttmp { first, count: 1 } => Operand::Ttmp {
                    first: first & !1,
                    count: 2,
                },
                Operand::Special { code, count: 1 } => Operand::Special { code, count: 2 },
                Operand::Vgpr { first, count: 1 } => Operand::Vgpr { first, count: 2 },
                other => other,
            };
            continue;
        }
        let halve = (matrix
            && (gfx12 || matches!(od.role, Role::Field(Field::Vdst | Field::Src2))))
            || (transpose && matches!(od.role, Role::Field(Field::Vdst)));
        if let (true, Operand::Vgpr { first, count }) = (halve, *o) {
            if count >= 2 {
                *o = Operand::Vgpr {
                    first,
                    count: count / 2,
                };
            }
        }
    }
}

/// The operands of a matrix op (`flags::WMMA` with a result wider than 64 bits: not
/// gfx12's fp8 dot products) as llvm-mc-22 takes them without an `Invalid` comment:
/// VGPRs (gfx1250: tuples from an even register, the result too) or `null`; a 32- or
/// 64-bit source (A/B of the narrow ops, a SWMMAC's sparse index) also a
/// `src_*` special register (230 (32-bit: 231), 235-239, 251-253); an inline constant or
/// a literal only as the accumulator C (src2 not narrower than the result; a SWMMAC's
/// index is). Anything else makes the word invalid (observed on gfx1201 and gfx1250).
fn matrix_operands_valid(op: &OpDesc, align: bool, field: impl Fn(Field) -> u32) -> bool {
    let bits = |f: Field| op.field_operand(f).map_or(0, |o| o.ty.bits());
    let vdst = bits(Field::Vdst);
    if vdst <= 64 {
        return true;
    }
    let even = |reg: u32, bits: u32| !align || bits <= 32 || reg.is_multiple_of(2);
    even(field(Field::Vdst), vdst)
        && [Field::Src0, Field::Src1, Field::Src2]
            .into_iter()
            .all(|f| {
                let (v, b) = (field(f), bits(f));
                match v {
                    256.. => even(v - 256, b),
                    124 => true,
                    230 | 235..=239 | 251..=253 => b <= 64,
                    231 => b <= 32,
                    128..=208 | 240..=248 | 255 => f == Field::Src2 && b >= vdst,
                    _ => false,
                }
            })
}

/// The A and B formats of `v_wmma_*_f8f6f4` (`flags::MATRIX_FMT`): matrix_a_fmt in
/// op_sel, matrix_b_fmt in op_sel_hi with bit 14 above it.
pub(crate) fn matrix_fmts(get: impl Fn(Field) -> u32) -> (u32, u32) {
    (
        get(Field::Opsel),
        get(Field::OpselHi) | get(Field::OpselHi2) << 2,
    )
}

/// The A and B registers of `v_wmma_*_f8f6f4` hold 128 elements of their format per
/// lane group: 16 registers of 8-bit (FP8/BF8), 12 of 6-bit (FP6/BF6), 8 of 4-bit (FP4).
/// With a format LLVM has no name for (5-7) in either, both stay 16 (observed).
fn matrix_fmt_widths(inst: &mut Instruction, op: &OpDesc, (a, b): (u32, u32)) {
    let regs = |fmt: u32| match fmt {
        _ if a > 4 || b > 4 => 16,
        2 | 3 => 12,
        4 => 8,
        _ => 16,
    };
    for (o, od) in inst.operands.iter_mut().zip(op.operands) {
        let fmt = match od.role {
            Role::Field(Field::Src0) => a,
            Role::Field(Field::Src1) => b,
            _ => continue,
        };
        if let Operand::Vgpr { count, .. } = o {
            *count = regs(fmt);
        }
    }
}

/// What a `v_mfma_ld_scale_b32` word pair starts (see `Decoder::scaled_mfma`).
enum Scaled {
    /// A scaled MFMA of 16 bytes.
    Pair(Instruction),
    /// Bytes llvm-mc-22 rejects as a whole.
    Invalid,
    /// The ld_scale pair alone.
    No,
}

/// gfx950 `v_mfma_*_f8f6f4` (`flags::MAI_FMT`): src0 holds its elements in the format
/// cbsz names, src1 in blgp's; the description gives the 8-bit width (8 registers),
/// 6-bit formats (FP6/BF6: 2, 3) take 3/4 of it, FP4 (4) half; the unnamed 5-7 keep it.
/// Unlike `v_wmma_*_f8f6f4`, each operand goes by its own format (observed).
fn mai_fmt_widths(inst: &mut Instruction, op: &OpDesc, cbsz: u32, blgp: u32) {
    for (o, od) in inst.operands.iter_mut().zip(op.operands) {
        let fmt = match od.role {
            Role::Field(Field::Src0) => cbsz,
            Role::Field(Field::Src1) => blgp,
            _ => continue,
        };
        if let Operand::Vgpr { count, .. } = o {
            *count = fmt_regs(*count, fmt);
        }
    }
}

/// The registers of an f8f6f4 MFMA source of `fp8` registers in 8-bit formats, in
/// format `fmt` (cbsz/blgp): 3/4 of them for FP6/BF6 (2, 3), half for FP4 (4).
fn fmt_regs(fp8: u8, fmt: u32) -> u8 {
    match fmt {
        2 | 3 => fp8 * 3 / 4,
        4 => fp8 / 2,
        _ => fp8,
    }
}

/// Image data and resource widths come from the modifiers: one data register per
/// `dmask` bit (gather4: four), two channels per register with `d16` (packed, as on
/// gfx9), one more with `tfe` (the resource stays 8 registers with `r128`, as LLVM
/// reads and writes it). On gfx90a the tfe bit is `acc`: the data are AGPRs.
fn mimg(inst: &mut Instruction, enc: &EncodingDesc, op: &OpDesc, gfx90a: bool, old: bool) {
    let get = |f: Field| enc.field(f).map_or(0, |d| d.get(inst.raw));
    let d16 = get(Field::D16) != 0;
    // gfx90a: the tfe bit is acc
    let (tfe, acc) = if gfx90a {
        (0, get(Field::Tfe) != 0)
    } else {
        (get(Field::Tfe), false)
    };
    let channels = get(Field::Dmask).count_ones().max(1);
    // The data width LLVM shows: one register per channel (two channels per register
    // with d16; gather4 always has four) plus the status with tfe, when the
    // instruction has a variant of that width and the registers fit below v256;
    // otherwise the width it starts from (2 for gather4 and cmpswap, else 1).
    let gather = op.flags & flags::GATHER4 != 0;
    let cmpswap = op.flags & flags::CMPSWAP != 0;
    let atomic = op.flags & flags::ATOMIC != 0;
    let (n, widths) = match (gather, d16) {
        (true, true) => (2 + tfe, 2..=2),
        (true, false) => (4 + tfe, 4..=5),
        _ if cmpswap => (channels + tfe, 2..=5),
        _ if atomic => (channels + tfe, 1..=3),
        (false, true) => (channels.div_ceil(2) + tfe, 1..=5),
        (false, false) => (channels + tfe, 1..=5),
    };
    let first = u32::from(inst_vdata_first(inst, op));
    let fallback = if gather || cmpswap { 2 } else { 1 };
    let data = if widths.contains(&n) && first + n <= 256 {
        n
    } else {
        fallback
    };
    // gfx90a: a tuple must start at an even register; LLVM shows a misaligned one as
    // its first register
    let data = if gfx90a && data > 1 && first % 2 == 1 {
        1
    } else {
        data
    };
    for (o, od) in inst.operands.iter_mut().zip(op.operands) {
        match (od.role, *o) {
            (Role::Field(Field::Vdata), Operand::Vgpr { first, .. }) => {
                let count = data as u8;
                *o = if acc {
                    Operand::Agpr { first, count }
                } else {
                    Operand::Vgpr { first, count }
                };
            }
            // gfx6/gfx7 (text for llvm-mc to assemble, which LLVM cannot disassemble):
            // the address width is not encoded; keep the range inside v0-v255. gfx8+
            // prints what LLVM prints, v[255:256] included.
            (Role::Field(Field::Vaddr), Operand::Vgpr { first, count }) if old => {
                *o = Operand::Vgpr {
                    first,
                    count: (u16::from(count).min(256 - u16::from(first))) as u8,
                }
            }
            _ => {}
        }
    }
}

/// The first register of an instruction's `vdata` operand (0 if it has none).
fn inst_vdata_first(inst: &Instruction, op: &OpDesc) -> u8 {
    inst.operands
        .iter()
        .zip(op.operands)
        .find_map(|(o, od)| match (od.role, *o) {
            (Role::Field(Field::Vdata), Operand::Vgpr { first, .. }) => Some(first),
            _ => None,
        })
        .unwrap_or(0)
}

/// Address dwords a gfx10+ image instruction reads, by the parts of its mnemonic (as
/// llvm-mc-22 prints the register ranges): one each for bias, z-compare and offset
/// (`_b`, `_c`, `_o`); the gradients of `_d`/`_cd` (two vectors of the dim's gradient
/// components, packed in 16-bit pairs per vector with `_g16`); the coordinates of the
/// dim plus lod, clamp or mip level (`_l`, `_cl`, `_mip`), packed in pairs with a16.
/// BVH ray queries ([`flags::BVH`]) have the fixed size of their address operand in the
/// description (11 or 12), 3 fewer with a16 but for gfx12's [`flags::BVH8`] layout.
pub fn image_addresses(op: &OpDesc, dim: u32, a16: bool) -> u8 {
    // coordinates and gradient components per dim: 1D, 2D, 3D, cube, 1D array,
    // 2D array, 2D MSAA, 2D MSAA array
    const COORDS: [u8; 8] = [1, 2, 3, 3, 2, 3, 3, 4];
    const GRADS: [u8; 8] = [1, 2, 3, 2, 1, 2, 2, 2];
    let a16 = u8::from(a16);
    if op.flags & flags::BVH != 0 {
        let regs = op.field_operand(Field::Vaddr).map_or(11, |o| o.ty.regs());
        // (gfx12 bvh8/dual: node pointer and extent pairs, origin, direction, offsets;
        // a16 packs only the two directions of the others)
        return if op.flags & flags::BVH8 != 0 {
            regs
        } else {
            regs - 3 * a16
        };
    }
    let mnemonic = op.mnemonic;
    // (the mip level alone)
    if mnemonic == "image_get_resinfo" {
        return 1;
    }
    let dim = (dim & 7) as usize;
    let (mut extra, mut lod, mut grads, mut g16) = (0u8, 0u8, false, false);
    for part in mnemonic.split('_').skip(1) {
        match part {
            "b" | "c" | "o" => extra += 1,
            "l" | "cl" | "mip" => lod += 1,
            "d" | "cd" => grads = true,
            "g16" => g16 = true,
            _ => {}
        }
    }
    let grads = match (grads, g16) {
        (false, _) => 0,
        (true, false) => 2 * GRADS[dim],
        (true, true) => 2 * GRADS[dim].div_ceil(2),
    };
    let coords = COORDS[dim] + lod;
    extra + grads + if a16 != 0 { coords.div_ceil(2) } else { coords }
}

/// gfx10+ image instructions: the NSA address words, then the data and address widths
/// LLVM prints. Data: one register per `dmask` bit (gather4: four), halved (rounded up)
/// with d16, one more with tfe. Addresses: [`image_addresses`]. Where llvm-mc-22 has no
/// instruction form for those widths (or they run past v255) it prints the widths its
/// decoder first read, which the op line records; an NSA form with more address words
/// than the addresses need is invalid.
fn image_rdna(
    inst: &mut Instruction,
    enc: &EncodingDesc,
    op: &OpDesc,
    bytes: &[u8],
) -> Result<(), DecodeError> {
    let get = |f: Field| enc.field(f).map_or(0, |d| d.get(inst.raw));
    let bvh = op.flags & crate::desc::flags::BVH != 0;
    let sampler = op.has_field(Field::Ssamp);
    if get(Field::D16) != 0 && op.flags & crate::desc::flags::D16 == 0 {
        return Err(DecodeError::Invalid);
    }
    if bvh
        && (get(Field::Dmask) != 0xf
            || (enc.field(Field::Unorm).is_some() && get(Field::Unorm) == 0)
            || get(Field::R128) == 0
            || (get(Field::Glc) | get(Field::Slc) | get(Field::Dlc)) != 0
            || (get(Field::Tfe) | get(Field::Lwe) | get(Field::D16)) != 0)
    {
        return Err(DecodeError::Invalid);
    }
    // gfx11: one NSA word whose last address starts a tuple (partial NSA)
    let partial = enc.field(Field::Nsa).is_some_and(|f| f.width == 1);
    // gfx12 VIMAGE/VSAMPLE: three words, SGPR numbers, always a list of addresses
    let gfx12 = enc.words == 3;
    // instructions without a sampler need the sampler field zero; resource and sampler
    // tuples lie wholly in s0-s105 or in ttmp0-15
    if !sampler && get(Field::Ssamp) != 0 {
        return Err(DecodeError::Invalid);
    }
    for od in op.operands {
        if let Role::Field(f @ (Field::Srsrc | Field::Ssamp)) = od.role {
            let n = u32::from(od.ty.regs());
            // (gfx12: an SGPR number, aligned down to 4)
            let code = if gfx12 { get(f) & !3 } else { get(f) * 4 };
            // (gfx11+: code 124 is `null`)
            let null = (partial && code == 124) || (gfx12 && get(f) == 124);
            if !(code + n <= 106 || (108..=124 - n).contains(&code) || null) {
                return Err(DecodeError::Invalid);
            }
        }
    }
    let nsa = get(Field::Nsa);
    if gfx12 {
        // addresses 1-3: the third word's upper bytes; 4: VIMAGE's bits 56-63
        let v4 = if enc.field(Field::Ssamp).is_some() {
            0
        } else {
            inst.raw >> 56
        };
        inst.nsa = u64::from(inst.literal >> 8) | (v4 << 24);
    }
    if nsa > 0 {
        inst.literal = word(bytes, 2).ok_or(DecodeError::Truncated)?;
        for i in 1..nsa {
            let w = word(bytes, 2 + i as usize).ok_or(DecodeError::Truncated)?;
            inst.nsa |= u64::from(w) << (32 * (i - 1));
        }
        inst.size = (8 + 4 * nsa) as u8;
    }
    let a16 = get(Field::A16) != 0;
    let n = image_addresses(op, get(Field::Dim), a16);
    // the largest address count of the opcode's forms (MSAA arrays excepted)
    let max = if bvh {
        n
    } else {
        (0..7)
            .map(|d| image_addresses(op, d, false))
            .max()
            .unwrap_or(1)
    };
    // NSA words for v addresses
    let words = |v: u8| {
        if partial {
            u32::from(v > 1)
        } else {
            (u32::from(v) + 2) / 4
        }
    };
    // whether LLVM has a form with the address count; the NSA form its decoder read
    let (mut fits, vaddr_decoded) = if gfx12 {
        let decoded = inst
            .operands
            .iter()
            .zip(op.operands)
            .find_map(|(o, od)| match (od.role, o) {
                (Role::Field(Field::Vaddr), Operand::Vgpr { count, .. }) => Some(*count),
                _ => None,
            })
            .unwrap_or(1);
        let top = if bvh || sampler { max } else { max.max(4) };
        (n <= top, Some(decoded))
    } else if nsa > 0 {
        // NSA forms of `lo` to `top` addresses; the decoder reads the largest that has
        // `nsa` address words (none: invalid)
        let (lo, top) = if bvh {
            (image_addresses(op, 0, true), image_addresses(op, 0, false))
        } else if sampler {
            (2, max)
        } else {
            (2, max.max(4))
        };
        // (gfx11: the form of five single registers, or fewer; a BVH query's own)
        let read = match (partial, bvh) {
            (true, true) => n,
            (true, false) => top.min(5),
            (false, _) => top,
        };
        let decoded = (lo..=read)
            .rev()
            .find(|&v| words(v) == nsa)
            .ok_or(DecodeError::Invalid)?;
        (
            (partial || n <= 1 + 4 * nsa as u8) && (lo..=top).contains(&n),
            Some(decoded),
        )
    } else {
        // (a sampling op's forms stop at its largest count, MSAA arrays excepted, but
        // have 8 where that is 7)
        (n <= max.max(4) || (n == 8 && max == 7), None)
    };
    let vaddr = if n > 12 { 16 } else { n };
    let gather = op.flags & flags::GATHER4 != 0;
    // four components whatever dmask says: gather4, and gfx11+'s msaa_load
    let mut data = if op.flags & flags::FOUR_CHANNELS != 0 {
        4
    } else {
        get(Field::Dmask).count_ones().max(1) as u8
    };
    if get(Field::D16) != 0 {
        data = data.div_ceil(2);
    }
    data += get(Field::Tfe) as u8;
    if bvh {
        // the op line's width (4, gfx12's bvh8/dual 10)
        data = inst
            .operands
            .iter()
            .zip(op.operands)
            .find_map(|(o, od)| match (od.role, o) {
                (Role::Field(Field::Vdata), Operand::Vgpr { count, .. }) => Some(*count),
                _ => None,
            })
            .unwrap_or(4);
    }
    // data widths with a form: 1-5 registers; gather4 2, 4, 5; compare-swaps 2-5,
    // other atomics 1-3
    fits &= if gather {
        matches!(data, 2 | 4 | 5)
    } else if op.flags & flags::CMPSWAP != 0 {
        (2..=5).contains(&data)
    } else if op.flags & flags::ATOMIC != 0 {
        data <= 3
    } else {
        data <= 5
    };
    // LLVM widens the data, then the address tuple, from the decoded form; a tuple
    // running past v255 leaves the instruction as decoded
    for (o, od) in inst.operands.iter().zip(op.operands) {
        let past_v255 = |first: u8, count: u8, want: u8| {
            want != count && u16::from(first) + u16::from(want) > 256
        };
        match (od.role, *o) {
            (Role::Field(Field::Vdata), Operand::Vgpr { first, count })
                if past_v255(first, count, data) =>
            {
                fits = false
            }
            (Role::Field(Field::Vaddr), Operand::Vgpr { first, count })
                if !gfx12 && nsa == 0 && past_v255(first, count, vaddr) =>
            {
                fits = false
            }
            _ => {}
        }
    }
    // a form was found, but its NSA words are fewer than the instruction's
    if fits && !gfx12 && nsa > 0 && words(n) != nsa {
        return Err(DecodeError::Invalid);
    }
    for (o, od) in inst.operands.iter_mut().zip(op.operands) {
        match (od.role, *o) {
            (Role::Field(Field::Vdata), Operand::Vgpr { first, .. }) if fits => {
                *o = Operand::Vgpr { first, count: data }
            }
            (Role::Field(Field::Vaddr), Operand::Vgpr { first, count }) => {
                *o = match (fits, vaddr_decoded) {
                    (true, None) => Operand::Vgpr {
                        first,
                        count: vaddr,
                    },
                    (true, Some(_)) if gfx12 && n == 1 => Operand::Vgpr { first, count: 1 },
                    (false, Some(1)) if gfx12 => Operand::Vgpr { first, count: 1 },
                    (true, Some(_)) => Operand::VgprNsa {
                        first,
                        count: n,
                        in_nsa: gfx12,
                    },
                    (false, Some(d)) => Operand::VgprNsa {
                        first,
                        count: d,
                        in_nsa: gfx12,
                    },
                    (false, None) => Operand::Vgpr { first, count },
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Insert the returned value of an atomic (`vdst`) before the other operands.
fn rtn(
    inst: &mut Instruction,
    enc: &EncodingDesc,
    op: &OpDesc,
    raw: u64,
) -> Result<(), DecodeError> {
    let vdst = enc.field(Field::Vdst).ok_or(DecodeError::Invalid)?.get(raw);
    let data = op
        .field_operand(Field::Data)
        .map(|o| o.ty.regs())
        .unwrap_or(1);
    let count = if op.flags & flags::CMPSWAP != 0 {
        (data / 2).max(1)
    } else {
        data
    };
    inst.operands.copy_within(0..crate::MAX_OPERANDS - 1, 1);
    inst.operands[0] = Operand::Vgpr {
        first: vdst as u8,
        count,
    };
    Ok(())
}

/// A gfx9 FLAT load to LDS without a destination register (gfx940+ global_load_lds_*;
/// before gfx940 the lds bit makes any load one).
pub(crate) fn flat_load_lds(op: &OpDesc) -> bool {
    op.flags & flags::LOAD != 0 && !op.has_field(Field::Vdst)
}

fn regs(ty: Ty) -> u8 {
    ty.regs().max(1)
}

/// gfx10+ scalar operand rules (observed with llvm-mc-22): codes 102-105 are `s102` to
/// `s105`; register tuples are aligned (a pair to 2, four or more to 4); an SMEM base or
/// buffer resource field names trap temporaries like any scalar operand.
fn rdna_scalar_fixup(o: Operand, kind: FieldKind, v: u32, ty: Ty) -> Operand {
    let o = match kind {
        FieldKind::Sbase => scalar(v * 2, ty),
        FieldKind::Srsrc => scalar(v * 4, ty),
        _ => o,
    };
    let align = |first: u8, count: u8| match count {
        0 | 1 => first,
        2 => first & !1,
        _ => first & !3,
    };
    match o {
        Operand::Special { code, count } if (102..=105).contains(&code) => Operand::Sgpr {
            first: align(code, count),
            count,
        },
        Operand::Sgpr { first, count } => Operand::Sgpr {
            first: align(first, count),
            count,
        },
        Operand::Ttmp { first, count } => Operand::Ttmp {
            first: align(first, count),
            count,
        },
        o => o,
    }
}

/// Decode an 8-bit scalar operand value.
pub(crate) fn scalar(v: u32, ty: Ty) -> Operand {
    let count = regs(ty);
    match v {
        0..=101 => Operand::Sgpr {
            first: align_sgpr(v, count),
            count,
        },
        108..=123 => Operand::Ttmp {
            first: align_sgpr(v - 108, count),
            count,
        },
        128..=192 => Operand::Int((v - 128) as i8),
        193..=208 => Operand::Int(-((v - 192) as i8)),
        240..=248 => Operand::Float(v as u8),
        255 => Operand::Literal,
        _ => Operand::Special {
            code: v as u8,
            count,
        },
    }
}

/// The first register of a scalar register tuple as the hardware reads it (and LLVM
/// prints it): pairs start at an even register, larger tuples at a multiple of 4.
fn align_sgpr(v: u32, count: u8) -> u8 {
    let v = v as u8;
    match count {
        0 | 1 => v,
        2 => v & !1,
        _ => v & !3,
    }
}

/// Whether `isa` is a generation before gfx9 (gfx6, gfx7, gfx8).
pub(crate) fn old_gcn(isa: &IsaDesc) -> bool {
    matches!(isa.generation, "gfx6" | "gfx7" | "gfx8")
}

/// Decode an 8-bit scalar operand value for a generation: before gfx9, 108-111 are
/// `tba`/`tma` and the trap temporaries start at 112.
pub(crate) fn scalar_in(isa: &IsaDesc, v: u32, ty: Ty) -> Operand {
    if (108..=123).contains(&v) && old_gcn(isa) {
        return if v >= 112 {
            Operand::Ttmp {
                first: align_sgpr(v - 112, regs(ty)),
                count: regs(ty),
            }
        } else {
            Operand::Special {
                code: v as u8,
                count: regs(ty),
            }
        };
    }
    scalar(v, ty)
}

impl Decoder {
    #[inline(always)]
    fn operand(
        &self,
        ei: usize,
        role: Role,
        ty: Ty,
        raw: u64,
        w2: u32,
    ) -> Result<Operand, DecodeError> {
        let field = match role {
            Role::Literal if ty.bits() == 64 && self.traits & traits::GFX1250 != 0 => {
                return Ok(Operand::Literal64)
            }
            Role::Literal => return Ok(Operand::Literal),
            Role::Fixed(code) => {
                return Ok(Operand::Special {
                    code,
                    count: regs(ty),
                })
            }
            Role::Field(f) => f,
            Role::FieldOr(f, code) => match self.field_desc(ei, f) {
                Some(_) => f,
                None => {
                    return Ok(Operand::Special {
                        code,
                        count: regs(ty),
                    })
                }
            },
        };
        let fd = self.field_desc(ei, field).ok_or(DecodeError::Invalid)?;
        let v = fd.get_wide(raw, w2);
        let o = self.field_operand(ei, field, fd.kind, ty, v, raw);
        let o = if self.buckets.rdna {
            rdna_scalar_fixup(o, fd.kind, v, ty)
        } else {
            o
        };
        Ok(match o {
            Operand::Special { code, count } if self.buckets.swap_m0_null && code & !1 == 124 => {
                Operand::Special {
                    code: code ^ 1,
                    count,
                }
            }
            // (gfx11 true16; gfx8-gfx10 and gfx12 16-bit operands are whole VGPRs)
            Operand::Vgpr { first, .. } if ty.bits() == 16 && self.buckets.true16 => {
                self.half(ei, field, first, raw)
            }
            Operand::Special { code: 254, .. }
                if ty.bits() == 64 && self.traits & traits::GFX1250 != 0 =>
            {
                Operand::Literal64
            }
            o => o,
        })
    }

    /// A true16 operand (gfx11+): in VOP3 forms the register is the whole field and
    /// `op_sel` picks the half (bits 0-2 sources, 3 destination); elsewhere bit 7 of the
    /// register number picks it.
    fn half(&self, ei: usize, field: Field, v: u8, raw: u64) -> Operand {
        match self.field_desc(ei, Field::Opsel) {
            Some(sel) => {
                let bit = match field {
                    Field::Src0 => 0,
                    Field::Src1 => 1,
                    Field::Src2 => 2,
                    _ => 3,
                };
                Operand::VgprHalf {
                    reg: v,
                    hi: sel.get(raw) >> bit & 1 != 0,
                }
            }
            None => Operand::VgprHalf {
                reg: v & 0x7f,
                hi: v & 0x80 != 0,
            },
        }
    }

    #[inline(always)]
    fn field_operand(
        &self,
        ei: usize,
        field: Field,
        kind: FieldKind,
        ty: Ty,
        v: u32,
        raw: u64,
    ) -> Operand {
        let count = regs(ty);
        match kind {
            // an immediate in a register field (s_set_gpr_idx_on's mode, s_atc_probe's
            // probe number, s_sendmsg_rtn's message: 255 is no literal there)
            FieldKind::Sdst | FieldKind::Ssrc
                if matches!(ty, Ty::GprIdx | Ty::Dec16 | Ty::SendmsgRtn) =>
            {
                Operand::Imm(v as u16)
            }
            FieldKind::Sdst | FieldKind::Ssrc => scalar_in(self.isa, v, ty),
            FieldKind::Src9 if ty == Ty::Attr => Operand::Imm(v as u16),
            FieldKind::Src9 if v >= 256 => Operand::Vgpr {
                first: (v - 256) as u8,
                count,
            },
            FieldKind::Src9 => scalar_in(self.isa, v, ty),
            FieldKind::Vgpr => {
                // SDWA sources may be scalar (bit s0/s1).
                let sgpr = match field {
                    Field::Src0 => self
                        .field_desc(ei, Field::S0)
                        .is_some_and(|s| s.get(raw) != 0),
                    Field::Src1 => self
                        .field_desc(ei, Field::S1)
                        .is_some_and(|s| s.get(raw) != 0),
                    _ => false,
                };
                if sgpr {
                    scalar_in(self.isa, v, ty)
                } else {
                    Operand::Vgpr {
                        first: v as u8,
                        count,
                    }
                }
            }
            // SGPR pairs / quads; trap temporaries too (ttmp[8:11])
            FieldKind::Sbase => scalar_in(self.isa, v * 2, ty),
            FieldKind::Srsrc => scalar_in(self.isa, v * 4, ty),
            FieldKind::Imm | FieldKind::Flag | FieldKind::Op => Operand::Imm(v as u16),
        }
    }
}

/// Decoded instructions of a byte stream, with their byte offsets.
///
/// An undecodable word is an `Err` and decoding goes on at the next word; a stream
/// that ends inside an instruction ends with [`DecodeError::Truncated`].
///
/// ```
/// use hsaco_isa::{DecodeError, Decoder, Instructions};
/// let dec = Decoder::for_processor("gfx906").unwrap();
/// let words: [u32; 6] = [
///     0xc0020002, 0x0000002c, // s_load_dword s0, s[4:5], 0x2c
///     0xbf8c007f,             // s_waitcnt lgkmcnt(0)
///     0xffffffff,             // not an instruction
///     0xbf810000,             // s_endpgm
///     0x7e0002ff,             // v_mov_b32_e32 v0, <literal>: the literal is missing
/// ];
/// let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
/// let listing: Vec<(usize, String)> = Instructions::new(dec, &bytes)
///     .map(|(at, r)| (at, r.map_or_else(|e| e.to_string(), |i| dec.text(&i))))
///     .collect();
/// assert_eq!(listing[0], (0, "s_load_dword s0, s[4:5], 0x2c".to_string()));
/// assert_eq!(listing[1], (8, "s_waitcnt vmcnt(15) lgkmcnt(0)".to_string()));
/// assert_eq!(listing[2].0, 12); // the invalid word, then the next one
/// assert_eq!(listing[3], (16, "s_endpgm".to_string()));
/// assert_eq!(listing[4].0, 20);
/// assert_eq!(listing[4].1, DecodeError::Truncated.to_string());
/// assert_eq!(listing.len(), 5);
/// ```
#[derive(Clone, Debug)]
pub struct Instructions<'a> {
    decoder: Decoder,
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Instructions<'a> {
    /// Iterate over `bytes` with `decoder`.
    pub fn new(decoder: Decoder, bytes: &'a [u8]) -> Self {
        Instructions {
            decoder,
            bytes,
            offset: 0,
        }
    }
}

impl Iterator for Instructions<'_> {
    /// Byte offset and the instruction, or the error; after an invalid word the
    /// iterator continues with the next word, after a truncation it stops.
    type Item = (usize, Result<Instruction, DecodeError>);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.bytes.get(self.offset..)?;
        if rest.is_empty() {
            return None;
        }
        let at = self.offset;
        let r = self.decoder.decode(rest);
        self.offset = match &r {
            Ok(i) => at + usize::from(i.size),
            Err(DecodeError::Invalid) => at + 4,
            Err(DecodeError::Truncated) => self.bytes.len(),
        };
        Some((at, r))
    }
}
