//! Assembling one instruction statement: LLVM's AMDGPU assembler syntax (the text the
//! printer writes, and the other forms llvm-mc accepts) to instruction words.
//!
//! This module knows instructions only. Files, labels, directives, sections and the
//! evaluation of symbol expressions belong to `hsaco-asm`, which calls
//! [`Assembler::encode`] once per instruction statement and gives it a
//! [`SymbolLookup`] for the operands that are expressions.
//!
//! The contract between the two:
//! * `text` is one statement without label, comment or trailing newline
//!   (`v_add_f32_e32 v0, v1, v2`, `s_cbranch_scc1 .LBB0_2`, `s_add_u32 s4, s4,
//!   foo@rel32@lo+4`).
//! * An operand that is neither a register, a number, an inline constant nor a
//!   modifier is an expression: its text (up to the comma that ends it, or the end of
//!   the operand list) goes to [`SymbolLookup::expr`]. A [`ExprValue::Const`] is encoded
//!   as a number would be (an inline constant when it is one, else a literal); a
//!   [`ExprValue::Symbolic`] is encoded as zero and reported as the [`Fixup`] of the
//!   result, which the caller resolves (branch targets in the same section) or turns
//!   into a relocation.
//! * Errors carry the byte range in `text` that they are about, so the caller can print
//!   `file:line:col` and a caret.

use crate::Decoder;

mod enc;
mod lex;

/// The value of an operand expression, as the caller evaluated it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprValue {
    /// An absolute value known now.
    Const(i64),
    /// A value known only at link time or after the section is laid out: `symbol +
    /// addend` with the `@` variant the expression named.
    Symbolic {
        /// Symbol name.
        symbol: String,
        /// Constant added to the symbol.
        addend: i64,
        /// `@rel32@lo`, `@abs32@hi`, ...
        variant: RelocVariant,
    },
}

/// The `@` variant of a symbol reference (AMDGPUUsage, "Relocation Records").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocVariant {
    /// No variant: the symbol's value (a branch target, or `R_AMDGPU_ABS32`/`ABS64`).
    None,
    /// `@abs32@lo`: `R_AMDGPU_ABS32_LO`.
    Abs32Lo,
    /// `@abs32@hi`: `R_AMDGPU_ABS32_HI`.
    Abs32Hi,
    /// `@rel32@lo`: `R_AMDGPU_REL32_LO`.
    Rel32Lo,
    /// `@rel32@hi`: `R_AMDGPU_REL32_HI`.
    Rel32Hi,
    /// `@rel64`: `R_AMDGPU_REL64`.
    Rel64,
    /// `@gotpcrel`: `R_AMDGPU_GOTPCREL`.
    GotPcRel,
    /// `@gotpcrel32@lo`: `R_AMDGPU_GOTPCREL32_LO`.
    GotPcRel32Lo,
    /// `@gotpcrel32@hi`: `R_AMDGPU_GOTPCREL32_HI`.
    GotPcRel32Hi,
}

/// Evaluates the operands of an instruction that are symbol expressions.
pub trait SymbolLookup {
    /// The value of the expression `text` (an operand's whole text, e.g. `.LBB0_2`,
    /// `foo@rel32@lo+4`, `(2f-1b)/4`), or a message saying why it has none.
    fn expr(&mut self, text: &str) -> Result<ExprValue, String>;
}

/// A [`SymbolLookup`] for text without symbols: every expression is an error.
pub struct NoSymbols;

impl SymbolLookup for NoSymbols {
    fn expr(&mut self, text: &str) -> Result<ExprValue, String> {
        Err(format!("unknown symbol or expression '{text}'"))
    }
}

/// Where in the instruction a symbolic value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixupKind {
    /// The 16-bit branch offset of a SOPP branch (`s_branch`, `s_cbranch_*`): in words,
    /// relative to the instruction's end: `(target - (pc + 4)) / 4`.
    Branch16,
    /// A 32-bit literal constant (at [`Fixup::offset`]), absolute or PC-relative as the
    /// variant says.
    Literal32,
    /// A 64-bit literal constant (gfx1250 `@rel64` operands of 64-bit SALU/VALU
    /// instructions, operand code 254) at [`Fixup::offset`], eight bytes.
    Literal64,
}

/// A symbolic operand left for the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixup {
    /// Byte offset in the instruction of the bits to fill (the literal's, or 0 for the
    /// branch offset in the first word).
    pub offset: u8,
    /// What to fill.
    pub kind: FixupKind,
    /// Symbol name.
    pub symbol: String,
    /// Constant added to the symbol.
    pub addend: i64,
    /// `@` variant.
    pub variant: RelocVariant,
}

/// One encoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// Bytes appended to the output.
    pub size: u8,
    /// The symbolic operand, if any.
    pub fixup: Option<Fixup>,
    /// A warning about an instruction that is encoded anyway (e.g. a word the decoder
    /// prints but LLVM's assembler refuses), with the byte range it is about.
    pub warning: Option<AsmError>,
}

/// Why a statement cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// Byte range in the statement's text (the operand or modifier at fault; the
    /// mnemonic when the instruction does not exist).
    pub span: std::ops::Range<usize>,
    /// The message, as precise as llvm-mc's or better ("this operand takes a VGPR").
    pub message: String,
}

impl std::fmt::Display for AsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AsmError {}

/// Encodes instruction statements for one processor.
#[derive(Clone, Copy, Debug)]
pub struct Assembler {
    dec: Decoder,
    /// Remember the result of statements without expression operands (per thread).
    cache: bool,
}

impl Assembler {
    /// The assembler for a processor name (`gfx906`, `gfx1100`, `gfx9-generic`).
    pub fn for_processor(name: &str) -> Option<Assembler> {
        Decoder::for_processor(name).map(|dec| Assembler { dec, cache: true })
    }

    /// The assembler for what `dec` decodes (its processor and wave mode).
    pub fn for_decoder(dec: Decoder) -> Assembler {
        Assembler { dec, cache: true }
    }

    /// This assembler in wave64 mode (gfx10 and later, `+wavefrontsize64`).
    pub fn wave64(self) -> Assembler {
        Assembler {
            dec: self.dec.wave64(),
            cache: self.cache,
        }
    }

    /// This assembler without the statement cache: every statement is encoded from
    /// scratch (for measuring; results are the same).
    pub fn uncached(self) -> Assembler {
        Assembler {
            cache: false,
            ..self
        }
    }

    /// The decoder of the same processor and mode.
    pub fn decoder(&self) -> &Decoder {
        &self.dec
    }

    /// Encode one instruction statement at address `pc`, appending its bytes to `out`.
    /// On error nothing is appended.
    ///
    /// A statement without expression operands is a pure function of its text and the
    /// processor: its result is remembered (per thread, up to 2^20 statements), so a
    /// repeated statement costs a hash lookup.
    pub fn encode(
        &self,
        text: &str,
        pc: u64,
        syms: &mut dyn SymbolLookup,
        out: &mut Vec<u8>,
    ) -> Result<Encoded, AsmError> {
        if self.cache {
            enc::encode_cached(&self.dec, text, pc, syms, out)
        } else {
            enc::encode(&self.dec, text, pc, syms, out)
        }
    }
}
