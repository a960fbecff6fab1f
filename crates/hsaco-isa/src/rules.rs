//! Operand rules an encoder must obey: the constant-bus limit, which encodings and
//! operands may carry a literal constant, at most one distinct literal, and which operand
//! slots accept VGPRs, scalar registers, inline constants or literals.
//!
//! The facts are data of the description (`rule` lines of `defs/<gen>.txt`, generated
//! into [`IsaDesc::rules`](crate::IsaDesc::rules)), learned from llvm-mc-22's answers by
//! `scripts/encrules.py`; DESIGN.md "Operand rules" states them.
//!
//! ```
//! use hsaco_isa::{rules::RuleError, Decoder, Operand};
//! let dec = Decoder::for_processor("gfx900").unwrap();
//! let isa = dec.isa();
//! let op = isa.ops.iter().position(|o| o.mnemonic == "v_add_f32").unwrap() as u16;
//! let vop3 = isa.encodings.iter().position(|e| e.name == "VOP3").unwrap() as u8;
//! let v0 = Operand::Vgpr { first: 0, count: 1 };
//! let s = |n| Operand::Sgpr { first: n, count: 1 };
//! // v_add_f32_e64 v0, s1, s1: one SGPR read twice counts once
//! assert_eq!(dec.check_operands(op, vop3, &[v0, s(1), s(1)], &[0; 3]), Ok(()));
//! // v_add_f32_e64 v0, s1, s2: two scalar values, gfx9 allows one
//! assert_eq!(
//!     dec.check_operands(op, vop3, &[v0, s(1), s(2)], &[0; 3]),
//!     Err(RuleError::ConstantBus { limit: 1, used: 2 })
//! );
//! ```

use crate::desc::{operand_class as class, Form, OpFact, Role};
use crate::{Decoder, Field, Instruction, Operand};

/// Why operands break the rules. The variants follow llvm-mc-22's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// More scalar values than the constant bus carries ("invalid operand (violates
    /// constant bus restrictions)").
    ConstantBus {
        /// The operation's limit.
        limit: u8,
        /// Scalar values read.
        used: u8,
    },
    /// A literal in an encoding that cannot carry one ("literal operands are not
    /// supported").
    LiteralNotSupported {
        /// Operand index.
        operand: u8,
    },
    /// Two different literal values ("only one unique literal operand is allowed").
    UniqueLiteral,
    /// The operand slot does not accept this kind of operand ("invalid operand for
    /// instruction").
    InvalidOperand {
        /// Operand index.
        operand: u8,
    },
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuleError::ConstantBus { limit, used } => write!(
                f,
                "{used} scalar values read, the constant bus carries {limit}"
            ),
            RuleError::LiteralNotSupported { operand } => {
                write!(f, "operand {operand}: this encoding cannot carry a literal")
            }
            RuleError::UniqueLiteral => write!(f, "more than one distinct literal"),
            RuleError::InvalidOperand { operand } => {
                write!(f, "operand {operand}: not accepted in this slot")
            }
        }
    }
}

impl std::error::Error for RuleError {}

/// The [`class`] bit of an operand (0 for immediates and empty slots).
pub fn class_of(o: &Operand) -> u8 {
    match o {
        Operand::Vgpr { .. } | Operand::VgprHalf { .. } | Operand::Agpr { .. } => class::VGPR,
        Operand::Sgpr { .. } | Operand::Ttmp { .. } | Operand::Special { .. } => class::SCALAR,
        Operand::Int(_) | Operand::Float(_) => class::INLINE,
        Operand::Literal | Operand::Literal64 => class::LITERAL,
        Operand::None | Operand::Imm(_) | Operand::VgprNsa { .. } => 0,
    }
}

fn is_source(f: Field) -> bool {
    matches!(
        f,
        Field::Src0 | Field::Src1 | Field::Src2 | Field::Ssrc0 | Field::Ssrc1
    )
}

impl Decoder {
    /// Whether the operands of `op` (index in [`IsaDesc::ops`](crate::IsaDesc::ops)) in
    /// encoding `encoding` obey the operand rules of this processor. `operands` are in
    /// the order of [`OpDesc::operands`](crate::OpDesc::operands) (as in
    /// [`Instruction::operands`]); `literals[i]` is the value of operand `i` if it is a
    /// literal (other entries are ignored; a value above `u32::MAX` is a 64-bit literal,
    /// as is [`Operand::Literal64`]).
    ///
    /// Checked: each source's class against its slot (the field kind: a `vgpr` field takes
    /// VGPRs, plus scalars and inline constants when the encoding has the SDWA `s0`/`s1`
    /// bit; `ssrc` takes no VGPR; then the op's own `rule op` facts), literals only in
    /// the encodings of `rule literal` (or where the op's `literal=` fact allows one),
    /// values wider than 32 bits only in 64-bit operands of the encodings of `rule
    /// literal64`, one distinct literal value, and for vector
    /// encodings the constant bus: distinct scalar registers among the sources, one for
    /// the literal (however many operands repeat it) and the implicit VCC/M0 reads
    /// ([`OpDesc::reads`](crate::OpDesc::reads)) against `rule bus` (or the op's own
    /// limit).
    pub fn check_operands(
        &self,
        op: u16,
        encoding: u8,
        operands: &[Operand],
        literals: &[u64],
    ) -> Result<(), RuleError> {
        let isa = self.isa();
        let Some(desc) = isa.ops.get(usize::from(op)) else {
            return Ok(());
        };
        let Some(enc) = isa.encodings.get(usize::from(encoding)) else {
            return Ok(());
        };
        let rules = &isa.rules;
        let pb = self.proc_bit();
        let facts = rules
            .ops
            .iter()
            .filter(|r| r.op == op && r.encoding == encoding && r.procs & pb != 0);
        let literal_ok = rules
            .literal
            .iter()
            .any(|&(e, p)| e == encoding && p & pb != 0);
        let literal64_ok = rules
            .literal64
            .iter()
            .any(|&(e, p)| e == encoding && p & pb != 0);
        let mut invalid = None;
        let mut no_literal = None;
        let mut literal: Option<u64> = None;
        let mut unique = false;
        let mut scalars: [(u8, u8, u8); 8] = [(0, 0, 0); 8];
        let mut n_scalars = 0usize;
        let mut add = |key: (u8, u8, u8), scalars: &mut [(u8, u8, u8); 8]| {
            if !scalars[..n_scalars].contains(&key) && n_scalars < scalars.len() {
                scalars[n_scalars] = key;
                n_scalars += 1;
            }
        };
        for (i, (od, o)) in desc.operands.iter().zip(operands).enumerate() {
            let field = match od.role {
                Role::Field(f) | Role::FieldOr(f, _) if is_source(f) => Some(f),
                Role::Literal => None,
                _ => continue,
            };
            let c = class_of(o);
            let mut free_m0 = false;
            let mut by_op = false;
            // the classes this slot accepts
            let mut accepts = match field.and_then(|f| enc.field(f)) {
                None if field.is_some() => class::SCALAR, // fixed register (vcc of VOP2)
                None => class::LITERAL,
                Some(fd) => {
                    use crate::desc::FieldKind as K;
                    match fd.kind {
                        K::Vgpr => {
                            let flag = match field {
                                Some(Field::Src0) => Some(Field::S0),
                                Some(Field::Src1) => Some(Field::S1),
                                _ => None,
                            };
                            if flag.is_some_and(|f| enc.field(f).is_some()) {
                                class::VGPR | class::SCALAR | class::INLINE
                            } else {
                                class::VGPR
                            }
                        }
                        K::Ssrc => class::SCALAR | class::INLINE | class::LITERAL,
                        _ => class::VGPR | class::SCALAR | class::INLINE | class::LITERAL,
                    }
                }
            };
            for r in facts.clone() {
                match r.fact {
                    OpFact::Accepts { operand, classes } if usize::from(operand) == i => {
                        accepts = classes
                    }
                    OpFact::Literal { operand } if usize::from(operand) == i => by_op = true,
                    OpFact::FreeM0 { operand } if usize::from(operand) == i => free_m0 = true,
                    _ => {}
                }
            }
            if c & accepts == 0 && c != 0 {
                invalid.get_or_insert(i as u8);
            }
            if c == class::LITERAL {
                let v = literals.get(i).copied().unwrap_or(0);
                let wide = *o == Operand::Literal64 || v > u64::from(u32::MAX);
                if wide && (od.ty.bits() != 64 || !literal64_ok) {
                    // a value that does not fit 32 bits: only gfx1250's 64-bit literals
                    invalid.get_or_insert(i as u8);
                }
                if !literal_ok && !by_op && od.role != Role::Literal {
                    no_literal.get_or_insert(i as u8);
                }
                match literal {
                    Some(l) if l != v => unique = true,
                    _ => literal = Some(v),
                }
            }
            let fixed = matches!(od.role, Role::FieldOr(f, _) if enc.field(f).is_none());
            match *o {
                // the fixed vcc of a VOP2/SDWA carry or cndmask is the pair VCC even in
                // wave32: llvm-mc-22 counts a `vcc_lo` source beside it as another value
                Operand::Special { code, .. } if fixed => add((2, code, 2), &mut scalars),
                Operand::Sgpr { first, count } => add((0, first, count), &mut scalars),
                Operand::Ttmp { first, count } => add((1, first, count), &mut scalars),
                Operand::Special { code, count } if !(free_m0 && code == 124) => {
                    add((2, code, count), &mut scalars)
                }
                _ => {}
            }
        }
        if let Some(operand) = invalid {
            return Err(RuleError::InvalidOperand { operand });
        }
        // llvm-mc-22 names a literal the encoding cannot carry before the constant bus
        if let Some(operand) = no_literal {
            return Err(RuleError::LiteralNotSupported { operand });
        }
        let vector = matches!(
            enc.form,
            Form::Vop1
                | Form::Vop2
                | Form::Vopc
                | Form::Vop3
                | Form::Vop3p
                | Form::Sdwa
                | Form::Dpp
        );
        if vector {
            // an implicit VCC read is the pair VCC, in wave32 too (as the fixed vcc)
            if desc.reads & crate::desc::implicit::VCC != 0 {
                add((2, 106, 2), &mut scalars);
            }
            if desc.reads & crate::desc::implicit::M0 != 0 {
                add((2, 124, 1), &mut scalars);
            }
            let used = (n_scalars + usize::from(literal.is_some())) as u8;
            let limit = facts
                .clone()
                .find_map(|r| match r.fact {
                    OpFact::ConstantBus(n) => Some(n),
                    _ => None,
                })
                .or_else(|| {
                    rules
                        .constant_bus
                        .iter()
                        .find(|&&(p, _)| p & pb != 0)
                        .map(|&(_, n)| n)
                })
                .unwrap_or(u8::MAX);
            if used > limit {
                return Err(RuleError::ConstantBus { limit, used });
            }
        }
        if unique {
            return Err(RuleError::UniqueLiteral);
        }
        Ok(())
    }

    /// Whether a decoded instruction obeys the operand rules ([`Decoder::check_operands`]
    /// with its operands and literal).
    pub fn check_rules(&self, inst: &Instruction) -> Result<(), RuleError> {
        let lit = u64::from(inst.literal) | (inst.raw >> 32 << 32);
        let lits = inst.operands.map(|o| match o {
            Operand::Literal64 => lit,
            _ => u64::from(inst.literal),
        });
        self.check_operands(inst.op, inst.encoding, &inst.operands, &lits)
    }
}
