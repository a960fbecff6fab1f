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

use crate::desc::{operand_class as class, Form, OpFact, Role, VopdDst};
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
    /// Dual issue: the X and Y VGPRs of a read port are in the same bank ("src0
    /// operands must use different VGPR banks").
    VgprBank {
        /// Read port (0: src0, 1: vsrc1, 2: the third operand).
        port: u8,
    },
    /// Dual issue: the destinations break the rule ("one dst register must be even and
    /// the other odd", "dst registers must be distinct").
    VopdDst,
    /// Dual issue in wave64 ("instruction requires wavesize=32").
    Wave32Only,
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
            RuleError::VgprBank { port } => {
                write!(f, "read port {port}: X and Y VGPRs in the same bank")
            }
            RuleError::VopdDst => write!(f, "destination registers break the dual-issue rule"),
            RuleError::Wave32Only => write!(f, "dual issue only in wave32"),
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

/// The form of an encoding the operands are in, where one encoding has more than one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The encoding as it is.
    Plain,
    /// gfx11+ VOP3/VOP3P with a DPP16 or DPP8 word (`_e64_dpp`).
    Dpp,
}

fn is_source(f: Field) -> bool {
    matches!(
        f,
        Field::Src0 | Field::Src1 | Field::Src2 | Field::Ssrc0 | Field::Ssrc1
    )
}

impl Decoder {
    /// Whether a `rule op` fact of this processor limits operand `operand` of `op` in
    /// `encoding` to VGPRs (e.g. `v_readfirstlane_b32 VOP1 src0=V`).
    pub(crate) fn vgpr_only(&self, op: u16, encoding: u8, operand: usize) -> bool {
        self.rule_classes(op, encoding, operand) == Some(class::VGPR)
    }

    /// The classes a `rule op` fact of this processor limits operand `operand` of `op`
    /// in `encoding` to, if there is one.
    pub(crate) fn rule_classes(&self, op: u16, encoding: u8, operand: usize) -> Option<u8> {
        let pb = self.proc_bit();
        self.isa().rules.ops.iter().find_map(|r| match r.fact {
            OpFact::Accepts {
                operand: i,
                classes,
            } if r.op == op
                && r.encoding == encoding
                && r.procs & pb != 0
                && usize::from(i) == operand =>
            {
                Some(classes)
            }
            _ => None,
        })
    }

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
    /// the literal (however many operands of one width repeat it; a 32-bit and a 64-bit
    /// operand with the same value count twice where there are no 64-bit literals) and the implicit VCC/M0 reads
    /// ([`OpDesc::reads`](crate::OpDesc::reads)) against `rule bus` (or the op's own
    /// limit).
    pub fn check_operands(
        &self,
        op: u16,
        encoding: u8,
        operands: &[Operand],
        literals: &[u64],
    ) -> Result<(), RuleError> {
        self.check_operands_in(op, encoding, Variant::Plain, operands, literals)
    }

    /// [`Decoder::check_operands`] for the operands of `op` in `variant` of `encoding`:
    /// [`Variant::Dpp`] is a gfx11+ VOP3/VOP3P instruction with a DPP16 or DPP8 word
    /// (`v_fma_f32_e64_dpp`), whose sources accept the classes of the `rule dpp` lines
    /// ([`OperandRules::dpp`](crate::desc::OperandRules::dpp): the op's own line, else
    /// the encoding's, intersected with the op's plain-form class facts; a slot no line
    /// names takes VGPRs only) and no literal unless that class says so.
    pub fn check_operands_in(
        &self,
        op: u16,
        encoding: u8,
        variant: Variant,
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
        let dpp = variant == Variant::Dpp;
        // the DPP form's slot classes: (the op's own line, the encoding's line)
        let dpp_class = |slot: usize| -> (u8, u8) {
            let mut own = 0;
            let mut all = 0;
            for r in rules.dpp.iter().filter(|r| {
                r.encoding == encoding && r.procs & pb != 0 && r.op.is_none_or(|o| o == op)
            }) {
                match r.op {
                    Some(_) => own = r.classes[slot],
                    None => all = r.classes[slot],
                }
            }
            (own, all)
        };
        let literal_ok = !dpp
            && rules
                .literal
                .iter()
                .any(|&(e, p)| e == encoding && p & pb != 0);
        let literal64_ok = rules
            .literal64
            .iter()
            .any(|&(e, p)| e == encoding && p & pb != 0);
        let has_literal64 = rules.literal64.iter().any(|&(_, p)| p & pb != 0);
        let mut invalid = None;
        let mut no_literal = None;
        let mut literal: Option<u64> = None;
        let mut unique = false;
        let mut lit_keys = [(0u64, false); 4];
        let mut n_lits = 0usize;
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
            let slot = match field {
                Some(Field::Src0) => Some(0),
                Some(Field::Src1) => Some(1),
                Some(Field::Src2) => Some(2),
                _ => None,
            };
            let mut dpp_own = false;
            if let (true, Some(slot)) = (dpp, slot) {
                let (own, all) = dpp_class(slot);
                dpp_own = own != 0;
                accepts = if dpp_own {
                    own
                } else if all != 0 {
                    all
                } else {
                    class::VGPR
                };
                if accepts & class::LITERAL != 0 {
                    by_op = true;
                }
            }
            for r in facts.clone() {
                match r.fact {
                    OpFact::Accepts { operand, classes } if usize::from(operand) == i => {
                        if !dpp {
                            accepts = classes
                        } else if !dpp_own {
                            accepts &= classes
                        }
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
                // without 64-bit literals (no `rule literal64`), the same value in a
                // 32-bit and a 64-bit operand is two values on the bus (gfx10-gfx12
                // `v_lshrrev_b64 v[0:1], 0x1234, 0x1234`: rejected; gfx1250 takes it)
                let key = (v, od.ty.bits() == 64 && !has_literal64);
                if !lit_keys[..n_lits].contains(&key) && n_lits < lit_keys.len() {
                    lit_keys[n_lits] = key;
                    n_lits += 1;
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
        let vector = enc.form.is_vop() || matches!(enc.form, Form::Sdwa | Form::Dpp);
        if vector {
            // an implicit VCC read is the pair VCC, in wave32 too (as the fixed vcc)
            if desc.reads & crate::desc::implicit::VCC != 0 {
                add((2, 106, 2), &mut scalars);
            }
            if desc.reads & crate::desc::implicit::M0 != 0 {
                add((2, 124, 1), &mut scalars);
            }
            // (with two different values llvm-mc-22 names the unique-literal rule)
            let used = (n_scalars + if unique { 1 } else { n_lits }) as u8;
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
        let lit = inst.literal64();
        let lits = inst.operands.map(|o| match o {
            Operand::Literal64 => lit,
            _ => u64::from(inst.literal),
        });
        let variant = if self.vop3_dpp_kind(inst).is_some() {
            Variant::Dpp
        } else {
            Variant::Plain
        };
        self.check_operands_in(inst.op, inst.encoding, variant, &inst.operands, &lits)
    }

    /// Whether the two halves of a dual-issue instruction obey the rules of `encoding`
    /// (VOPD, or gfx1250's VOPD3; index in [`IsaDesc::encodings`](crate::IsaDesc::encodings)):
    /// each half's operand classes (src0 takes V S I and, where the rule allows, a
    /// literal; the other sources VGPRs), one literal value over both halves, the
    /// scalar values of both halves together (distinct SGPRs and special registers, one
    /// literal, the implicit VCC of `v_dual_cndmask_b32`) against the rule's limit, per
    /// read port the X and Y VGPRs in different banks (`reg % modulus`; on gfx1250 the
    /// same register is no conflict), the destinations (VOPD: one even and one odd;
    /// VOPD3: distinct), and wave32.
    ///
    /// `x.op` is an operation of the X table (`encoding`), `y.op` one of the Y table
    /// (`<encoding>Y`); operands in the order of their op lines. Without a rule for
    /// `encoding` on this processor: `Ok`.
    pub fn check_vopd(
        &self,
        encoding: u8,
        x: VopdHalf<'_>,
        y: VopdHalf<'_>,
    ) -> Result<(), RuleError> {
        let isa = self.isa();
        let pb = self.proc_bit();
        let Some(rule) = isa
            .rules
            .vopd
            .iter()
            .find(|r| r.encoding == encoding && r.procs & pb != 0)
        else {
            return Ok(());
        };
        let Some(enc) = isa.encodings.get(usize::from(encoding)) else {
            return Ok(());
        };
        let yenc = isa
            .encodings
            .iter()
            .position(|e| {
                e.name.len() == enc.name.len() + 1
                    && e.name.starts_with(enc.name)
                    && e.name.ends_with('Y')
            })
            .unwrap_or(usize::from(encoding)) as u8;
        if rule.wave32 && self.is_wave64() {
            return Err(RuleError::Wave32Only);
        }
        let (Some(xd), Some(yd)) = (
            isa.ops.get(usize::from(x.op)),
            isa.ops.get(usize::from(y.op)),
        ) else {
            return Ok(());
        };
        let mut invalid = None;
        let mut literal: Option<u64> = None;
        let mut unique = false;
        let mut scalars: Vec<(u8, u8, u8)> = Vec::new();
        // per port: the X and Y VGPR; and the destinations
        let mut ports = [[None::<u8>; 2]; 3];
        let mut dst = [None::<u8>; 2];
        let mut base = 0u8;
        for (side, (h, desc, e)) in [(x, xd, encoding), (y, yd, yenc)].into_iter().enumerate() {
            let facts = isa
                .rules
                .ops
                .iter()
                .filter(|r| r.op == h.op && r.encoding == e && r.procs & pb != 0);
            for (i, (od, o)) in desc.operands.iter().zip(h.operands).enumerate() {
                let c = class_of(o);
                let reg = match *o {
                    Operand::Vgpr { first, .. } => Some(first),
                    Operand::VgprHalf { reg, .. } => Some(reg),
                    _ => None,
                };
                let mut port = match od.role {
                    Role::Field(Field::Src0x | Field::Src0y) => Some(0),
                    Role::Field(Field::Vsrc1x | Field::Vsrc1y) => Some(1),
                    Role::Field(Field::Src2x | Field::Src2y) => Some(2),
                    _ => None,
                };
                for r in facts.clone() {
                    if let OpFact::Port { operand, port: p } = r.fact {
                        if usize::from(operand) == i {
                            port = Some(p);
                        }
                    }
                }
                let accepts = match od.role {
                    Role::Literal => class::LITERAL,
                    Role::Field(Field::Src0x | Field::Src0y) => {
                        class::VGPR
                            | class::SCALAR
                            | class::INLINE
                            | if rule.literal { class::LITERAL } else { 0 }
                    }
                    // gfx1250 VOPD3 v_dual_cndmask_b32: the lane mask as an SGPR operand
                    Role::Field(Field::Ssrc2x | Field::Ssrc2y) => class::SCALAR | class::INLINE,
                    Role::Field(Field::Vdstx | Field::Vdsty) => {
                        dst[side] = reg;
                        class::VGPR
                    }
                    _ => class::VGPR,
                };
                if c & accepts == 0 && c != 0 {
                    invalid.get_or_insert(base + i as u8);
                }
                if let (Some(p), Some(r)) = (port, reg) {
                    ports[usize::from(p)][side] = Some(r);
                }
                match *o {
                    Operand::Literal | Operand::Literal64 => {
                        let v = h.literals.get(i).copied().unwrap_or(0);
                        match literal {
                            Some(l) if l != v => unique = true,
                            _ => literal = Some(v),
                        }
                    }
                    Operand::Sgpr { first, count } => scalars.push((0, first, count)),
                    Operand::Ttmp { first, count } => scalars.push((1, first, count)),
                    Operand::Special { code, count } => scalars.push((2, code, count)),
                    _ => {}
                }
            }
            // the implicit VCC of v_dual_cndmask_b32 is the pair VCC (vcc_lo beside it
            // is another value, as in VOP2)
            if desc.reads & crate::desc::implicit::VCC != 0 {
                scalars.push((2, 106, 2));
            }
            base += desc.operands.len() as u8;
        }
        if let Some(operand) = invalid {
            return Err(RuleError::InvalidOperand { operand });
        }
        if unique {
            return Err(RuleError::UniqueLiteral);
        }
        scalars.sort_unstable();
        scalars.dedup();
        let used = (scalars.len() + usize::from(literal.is_some())) as u8;
        if used > rule.bus {
            return Err(RuleError::ConstantBus {
                limit: rule.bus,
                used,
            });
        }
        // llvm-mc-22 names the destinations before the banks
        if let [Some(a), Some(b)] = dst {
            let bad = match rule.dst {
                VopdDst::Parity => a % 2 == b % 2,
                VopdDst::Distinct => a == b,
            };
            if bad {
                return Err(RuleError::VopdDst);
            }
        }
        let pair_free = rule
            .pair_free
            .is_some_and(|m| xd.mnemonic == m && yd.mnemonic == m);
        for (p, (&m, regs)) in rule.banks.iter().zip(ports).enumerate() {
            if let [Some(a), Some(b)] = regs {
                if m != 0 && a % m == b % m && !(rule.same_reg && a == b) && !(p == 0 && pair_free)
                {
                    return Err(RuleError::VgprBank { port: p as u8 });
                }
            }
        }
        Ok(())
    }

    /// Whether a decoded VOPD/VOPD3 instruction obeys the dual-issue rules
    /// ([`Decoder::check_vopd`] with its X operands and the Y half of
    /// [`Decoder::vopd_y`]). `Ok` for other instructions.
    pub fn check_vopd_rules(&self, inst: &Instruction) -> Result<(), RuleError> {
        let Some((yd, yops)) = self.vopd_y(inst) else {
            return Ok(());
        };
        let isa = self.isa();
        let Some(yop) = isa.ops.iter().position(|o| std::ptr::eq(o, yd)) else {
            return Ok(());
        };
        let lit = [u64::from(inst.literal); 4];
        self.check_vopd(
            inst.encoding,
            VopdHalf {
                op: inst.op,
                operands: &inst.operands,
                literals: &lit,
            },
            VopdHalf {
                op: yop as u16,
                operands: &yops,
                literals: &lit,
            },
        )
    }
}

/// One half of a dual-issue instruction for [`Decoder::check_vopd`].
#[derive(Clone, Copy, Debug)]
pub struct VopdHalf<'a> {
    /// Index in [`IsaDesc::ops`](crate::IsaDesc::ops).
    pub op: u16,
    /// Operands in the order of the op line.
    pub operands: &'a [Operand],
    /// `literals[i]`: the value of operand `i` if it is a literal.
    pub literals: &'a [u64],
}
