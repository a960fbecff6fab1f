//! The amdgcn instruction sets: one description per generation (`defs/<gen>.txt`),
//! generated tables, a decoder to a small `Copy` [`Instruction`] and a printer whose text
//! matches llvm-objdump.
//!
//! ```
//! use hsaco_isa::Decoder;
//! let dec = Decoder::for_processor("gfx906").unwrap();
//! // s_load_dword s0, s[4:5], 0x2c
//! let bytes = [0x02, 0x00, 0x02, 0xc0, 0x2c, 0x00, 0x00, 0x00];
//! let inst = dec.decode(&bytes).unwrap();
//! assert_eq!(inst.size, 8);
//! assert_eq!(dec.text(&inst), "s_load_dword s0, s[4:5], 0x2c");
//! ```

pub mod asm;
pub mod decode;
pub mod desc;
pub mod fuzzing;
mod imm;
#[rustfmt::skip]
pub mod gen;
pub mod listing;
pub mod print;
mod rdna;
pub mod rules;

pub use decode::{DecodeError, Decoder, Instructions};
pub use desc::{IsaDesc, OpDesc};
pub use gen::Field;

/// Most operands any instruction has.
pub const MAX_OPERANDS: usize = 6;

/// Every described generation.
pub fn generations() -> &'static [&'static IsaDesc] {
    static ALL: [&IsaDesc; 7] = [
        &gen::gfx9::ISA,
        &gen::gfx8::ISA,
        &gen::gfx7::ISA,
        &gen::gfx6::ISA,
        &gen::gfx10::ISA,
        &gen::gfx11::ISA,
        &gen::gfx12::ISA,
    ];
    &ALL
}

/// One decoded operand (4 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// No operand in this slot.
    None,
    /// SGPRs `s[first:first+count-1]`.
    Sgpr {
        /// First register.
        first: u8,
        /// Number of 32-bit registers.
        count: u8,
    },
    /// VGPRs.
    Vgpr {
        /// First register.
        first: u8,
        /// Number of 32-bit registers.
        count: u8,
    },
    /// One 16-bit half of a VGPR (true16 operands of gfx11+: `v1.l`, `v1.h`).
    VgprHalf {
        /// Register.
        reg: u8,
        /// The high half.
        hi: bool,
    },
    /// Accumulation VGPRs.
    Agpr {
        /// First register.
        first: u8,
        /// Number of 32-bit registers.
        count: u8,
    },
    /// Trap temporaries `ttmp[first:...]`.
    Ttmp {
        /// First register.
        first: u8,
        /// Number of 32-bit registers.
        count: u8,
    },
    /// Other scalar operand by its 8-bit encoding (106 = `vcc_lo`, 126 = `exec_lo`,
    /// 124 = `m0`, 251 = `src_vccz`, ...).
    Special {
        /// Encoding value.
        code: u8,
        /// Number of 32-bit registers.
        count: u8,
    },
    /// Inline integer constant -16..=64.
    Int(i8),
    /// Inline float constant by encoding (240 = 0.5 ... 248 = 1/(2*pi)).
    Float(u8),
    /// The literal constant ([`Instruction::literal`]).
    Literal,
    /// A 64-bit literal constant (gfx1250, operand code 254 or a 64-bit `K` of
    /// one-word encodings): low word in [`Instruction::literal`], high word in the
    /// upper half of [`Instruction::raw`].
    Literal64,
    /// Immediate field value (offsets, `simm16`).
    Imm(u16),
    /// The non-sequential address VGPRs of a gfx10+ image instruction (MIMG NSA form,
    /// gfx12 VIMAGE/VSAMPLE): `first` and `count - 1` more, which need not be
    /// consecutive ([`Instruction::nsa_vgpr`]).
    VgprNsa {
        /// First address register (the `vaddr` field).
        first: u8,
        /// Number of address registers.
        count: u8,
        /// The other addresses are the bytes of [`Instruction::nsa`] alone (gfx12),
        /// not of `literal` and then `nsa` (gfx10/gfx11 NSA words).
        in_nsa: bool,
    },
}

/// One decoded instruction: small, `Copy`, no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// Index into the generation's [`IsaDesc::ops`].
    pub op: u16,
    /// Index into the generation's [`IsaDesc::encodings`].
    pub encoding: u8,
    /// Size in bytes, including a literal.
    pub size: u8,
    /// Operands in printing order ([`Operand::None`] after the last).
    pub operands: [Operand; MAX_OPERANDS],
    /// Literal constant, if an operand is [`Operand::Literal`].
    pub literal: u32,
    /// The first two instruction words (modifier fields are read from here through the
    /// encoding's field table, see [`Decoder::field`]).
    pub raw: u64,
    /// The fourth and fifth words of a gfx10+ MIMG NSA instruction (address VGPRs 5-12;
    /// 1-4 are in `literal`); gfx12 image instructions: address VGPRs 1-4; a gfx1250
    /// 64-bit literal ([`Operand::Literal64`]): its high word; else 0.
    pub nsa: u64,
}

impl Instruction {
    /// The value of a gfx1250 64-bit literal ([`Operand::Literal64`]): `literal` is its
    /// low word, `nsa` its high one.
    pub fn literal64(&self) -> u64 {
        u64::from(self.literal) | self.nsa << 32
    }

    /// Address VGPR `i` of an image instruction's [`Operand::VgprNsa`] (`first`,
    /// `in_nsa`): 0 is the `vaddr` field, the others bytes of the later words.
    pub fn nsa_vgpr(&self, first: u8, in_nsa: bool, i: usize) -> u8 {
        match (i, in_nsa) {
            (0, _) => first,
            (1..=8, true) => (self.nsa >> (8 * (i - 1))) as u8,
            (1..=4, false) => (self.literal >> (8 * (i - 1))) as u8,
            (5..=12, false) => (self.nsa >> (8 * (i - 5))) as u8,
            _ => 0,
        }
    }
}

impl Decoder {
    /// The description of a decoded instruction.
    pub fn op(&self, inst: &Instruction) -> &'static OpDesc {
        &self.isa().ops[usize::from(inst.op)]
    }

    /// The encoding of a decoded instruction.
    pub fn encoding(&self, inst: &Instruction) -> &'static desc::EncodingDesc {
        &self.isa().encodings[usize::from(inst.encoding)]
    }

    /// Value of a modifier field of the instruction's encoding (None if the encoding has
    /// no such field).
    pub fn field(&self, inst: &Instruction, field: Field) -> Option<u32> {
        // (a gfx950 scaled MFMA's scale sources are in its first word pair, `nsa`)
        let raw = match field {
            Field::ScaleSrc0 | Field::ScaleSrc1 => inst.nsa,
            _ => inst.raw,
        };
        self.field_desc(usize::from(inst.encoding), field)
            .map(|f| f.get_wide(raw, inst.literal))
    }

    /// The registers among SCC, VCC, EXEC and M0 ([`desc::implicit`] bits) that the
    /// instruction reads and writes *beyond its printed operands*: `(reads, writes)`.
    ///
    /// It combines
    /// * the operation's own sets ([`OpDesc::reads`]/[`OpDesc::writes`], from the
    ///   `reads=`/`writes=` of the description; for a VOPD instruction those of both
    ///   halves), e.g. SCC written by `s_add_u32`, EXEC written by `v_cmpx_*`;
    /// * the encoding rule: every vector encoding (VALU, LDS, memory, export,
    ///   interpolation: all but SOP1/SOP2/SOPK/SOPC/SOPP/SMEM) reads EXEC as its lane
    ///   mask, except the operations marked [`desc::implicit::UNMASKED`]
    ///   (`v_readlane_b32`, `v_writelane_b32`);
    /// * modifier and operand rules: a MUBUF load with the `lds` bit reads M0 (the LDS
    ///   address), a gfx9/gfx10 DS instruction with the `gds` bit reads M0 (GDS base and
    ///   size), and a `src_lds_direct` operand (gfx6-gfx10) reads M0.
    ///
    /// A register printed as an operand (`vcc` of `v_addc_co_u32_e32`, `m0` of
    /// `s_mov_b32 m0, s0`) is not included. Mode-dependent reads (M0 of VALU operands
    /// while gfx8/gfx9 `s_set_gpr_idx_on` indexing is enabled) are not included either.
    ///
    /// ```
    /// use hsaco_isa::{desc::implicit, Decoder};
    /// let dec = Decoder::for_processor("gfx906").unwrap();
    /// // s_addc_u32 s0, s1, s2: D = S0 + S1 + SCC; SCC = carry
    /// let inst = dec.decode(&[0x01, 0x02, 0x00, 0x82]).unwrap();
    /// assert_eq!(dec.implicit(&inst), (implicit::SCC, implicit::SCC));
    /// ```
    pub fn implicit(&self, inst: &Instruction) -> (u8, u8) {
        use desc::{implicit as im, Form};
        let op = self.op(inst);
        let enc = self.encoding(inst);
        let (mut reads, mut writes) = (op.reads, op.writes);
        if let Some((y, _)) = self.vopd_y(inst) {
            reads |= y.reads;
            writes |= y.writes;
        }
        let scalar = matches!(
            enc.form,
            Form::Sop1 | Form::Sop2 | Form::Sopk | Form::Sopc | Form::Sopp | Form::Smem
        );
        if !scalar && reads & im::UNMASKED == 0 {
            reads |= im::EXEC;
        }
        if enc.form == Form::Mubuf && self.field(inst, Field::Lds) == Some(1) {
            reads |= im::M0;
        }
        let gen = self.isa().generation;
        if enc.form == Form::Ds
            && matches!(gen, "gfx9" | "gfx10")
            && self.field(inst, Field::Gds) == Some(1)
        {
            reads |= im::M0;
        }
        if matches!(gen, "gfx6" | "gfx7" | "gfx8" | "gfx9" | "gfx10")
            && inst
                .operands
                .iter()
                .any(|o| matches!(o, Operand::Special { code: 254, .. }))
        {
            reads |= im::M0;
        }
        (reads & im::REGS, writes & im::REGS)
    }

    /// The instruction as llvm-objdump prints it.
    pub fn text(&self, inst: &Instruction) -> String {
        let mut s = String::new();
        print::print(self, inst, &mut s);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generation_has_a_table_slot() {
        // decode.rs keeps the decoding tables of 8 generations
        assert!(generations().len() <= 8);
    }

    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<Operand>(), 4);
        // 40 bytes before gfx10 MIMG NSA address words (`nsa`) were added
        assert!(std::mem::size_of::<Instruction>() <= 48);
    }
}
