//! Where a variable lives: a DWARF expression evaluator with the AMDGPU rules of the
//! heterogeneous debugging extensions (location descriptions on the stack, address
//! spaces, lanes, composite pieces), and the lookup of a variable by name and PC
//! ([`find`]).
//!
//! The evaluator ([`evaluate`]) runs the expression stack machine over the standard
//! operations (read with gimli's operation parser) and every `DW_OP_LLVM_*`
//! operation that has a code (`DW_OP_LLVM_user` + sub-opcode, [`crate::names`]), to
//! a [`Location`]: undefined, memory (an address space and an address), register
//! (a DWARF register and a bit offset in it: for a vector register, the lane),
//! implicit (a value), an implicit pointer, or composite pieces. Register and memory
//! contents come from a [`Machine`] the caller implements (the emulator, later);
//! without one ([`Symbolic`]), contents stay symbolic ([`Value`]: `SGPR33 + 28`)
//! and the result is the description a user reads.
//!
//! Semantics (facts only, AMDGPUUsage "DWARF Debug Information" and the extensions
//! text of seed 003): `DW_OP_LLVM_form_aspace_address` pops an address space and an
//! address and pushes a memory location in that space (32-bit addresses in region,
//! local, private_lane, private_wave); `push_lane` pushes the focused lane;
//! `offset`/`offset_uconst`/`bit_offset` move a location's bit offset (bytes x 8, or
//! bits), leaving an undefined location unchanged; `undefined` pushes the undefined
//! location; `aspace_bregx R D` pops an address space and pushes memory at
//! register R's contents + D in it; `piece_end` completes an incomplete composite;
//! `extend S C` makes C parts of S bits of one location; `select_bit_piece S C`
//! pops a mask M, a one-location L1 and a zero-location L0 and makes C parts of S
//! bits, part N from L1 (bit N of M set) or L0, moved by N x S bits;
//! `call_frame_entry_reg R` pushes a location holding R's value on entry to the
//! subprogram (by the call frame information: the machine's business; symbolic
//! without one). `DW_OP_LLVM_aspace_implicit_pointer` has no code LLVM decodes
//! ([`crate::names::LLVM_OPERATIONS_WITHOUT_CODE`]) and cannot be met in bytes;
//! `DW_OP_implicit_pointer` is evaluated (default address space).
//!
//! `DW_OP_call2`/`call4` (a DIE of the unit by its unit offset) and `DW_OP_call_ref`
//! (by its `.debug_info` offset, followed within the unit only) run the DIE's
//! `DW_AT_location` expression (the entry for the PC of a location list) on the same
//! stack, and do nothing when it has none (DWARF 5 section 2.5.1.5), through
//! [`Context::call`]; nested at most 64 deep, the operation limit counts the called
//! expressions. `DW_OP_entry_value` (and `DW_OP_GNU_entry_value`) of a register
//! reads the register on entry. Everything else without a meaning here
//! (`DW_OP_push_object_address`, `DW_OP_form_tls_address`,
//! `DW_OP_GNU_push_tls_address`, `DW_OP_GNU_parameter_ref`, entry values of other
//! expressions, calls without a unit) is an error naming the operation and its byte.
//!
//! `DW_OP_xderef` (`[address space] [address] DW_OP_xderef`): the extensions define it
//! as `DW_OP_swap; DW_OP_LLVM_form_aspace_address; DW_OP_deref`. clang-22 appends
//! `DW_OP_litN, DW_OP_swap, DW_OP_xderef` to every AMDGPU variable location to say
//! which address space the address is in (at -O0, `DW_OP_fbreg +28, DW_OP_lit5,
//! DW_OP_swap, DW_OP_xderef` with frame base `DW_OP_regx SGPR33`: the variable is in
//! scratch at SGPR33 + 28, not at the address stored there). [`Xderef`] chooses the
//! reading: [`Xderef::AddressSpace`] (the default: `xderef` forms the address
//! space address and does not load) or [`Xderef::Load`] (the extensions' text).

use crate::load::{DwarfObject, Slice};
use crate::names::{address_space_name, DwarfRegister, DW_OP_LLVM_USER};
use crate::Error;
use gimli::{Operation, Reader};
use std::fmt;

/// At most this many operations are executed (branches can loop), called
/// expressions included.
const MAX_STEPS: usize = 10_000;
/// Nested `DW_OP_call*` at most (a DIE calling itself is a loop).
const MAX_CALL_DEPTH: usize = 64;
/// At most this many nodes in one symbolic value.
const MAX_NODES: usize = 512;
/// At most this many parts in a composite.
const MAX_PARTS: u64 = 4096;
/// At most this many bytes in a location storage size computation (64-bit bits).
const DEFAULT_ASPACE: u64 = 0;

/// How `DW_OP_xderef` is read (see the module text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Xderef {
    /// clang's idiom: `[space] [address] DW_OP_xderef` is the memory location of
    /// `address` in `space` (no load).
    #[default]
    AddressSpace,
    /// The extensions' definition: `DW_OP_swap; DW_OP_LLVM_form_aspace_address;
    /// DW_OP_deref` (the contents are loaded).
    Load,
}

/// Register and memory contents, as a running (or emulated) wave has them. Every
/// method may answer `None` (not known): the value then stays symbolic.
pub trait Machine {
    /// The contents of DWARF register `reg`; for a vector register, the element of
    /// `lane` (the focused lane, when the caller gave one).
    fn register(&mut self, reg: u64, lane: Option<u32>) -> Option<u64> {
        let _ = (reg, lane);
        None
    }
    /// `size` bytes (1-8, little-endian) at `address` in DWARF address space
    /// `space` (`DW_ASPACE_*`), as seen by `lane` for the per-lane spaces.
    fn memory(&mut self, space: u64, address: u64, size: u8, lane: Option<u32>) -> Option<u64> {
        let _ = (space, address, size, lane);
        None
    }
    /// The value register `reg` had on entry to the current subprogram (by the
    /// call frame information).
    fn entry_register(&mut self, reg: u64) -> Option<u64> {
        let _ = reg;
        None
    }
    /// The canonical frame address of the current subprogram.
    fn call_frame_cfa(&mut self) -> Option<u64> {
        None
    }
    /// The frame address a register frame base (`DW_AT_frame_base DW_OP_regx R`)
    /// stands for, for `DW_OP_fbreg`; `None` (the default): register R's contents.
    /// (clang-22 names SGPR33, the frame pointer, which AMDGPUUsage's calling
    /// convention makes an unswizzled wave offset, while the private_lane address
    /// `DW_OP_fbreg` forms is per lane: a machine can divide by the wave size here.)
    fn frame_base_register(&mut self, reg: u64) -> Option<u64> {
        let _ = reg;
        None
    }
}

/// A [`Machine`] that knows nothing: every content stays symbolic.
pub struct Symbolic;
impl Machine for Symbolic {}

/// A binary operation of a symbolic value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Shra,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

impl BinOp {
    fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
            And => "&",
            Or => "|",
            Xor => "^",
            Shl => "<<",
            Shr => ">>",
            Shra => ">>a",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
        }
    }
}

/// A value on the stack: known, or an expression over contents the caller did not
/// supply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A known 64-bit value (the generic type: any base type is held in 64 bits).
    Const(u64),
    /// The contents of a register (a vector register: the focused lane's element,
    /// `lane` when the caller named it).
    Register {
        /// DWARF register number.
        reg: u64,
        /// The lane, for a vector register when known.
        lane: Option<u32>,
    },
    /// The value a register had on entry to the subprogram.
    EntryRegister(u64),
    /// The focused lane (`DW_OP_LLVM_push_lane` without a lane given).
    Lane,
    /// The canonical frame address.
    Cfa,
    /// The frame base of a subprogram without `DW_AT_frame_base` (`DW_OP_fbreg`
    /// there; clang-22 -O2 emits such, 07_scratch of the -g corpus).
    FrameBase,
    /// `size` bytes loaded from `address` in address space `space`.
    Load {
        /// `DW_ASPACE_*`
        space: u64,
        /// The address.
        address: Box<Value>,
        /// Bytes loaded.
        size: u8,
    },
    /// `a OP b`.
    Binary(BinOp, Box<Value>, Box<Value>),
    /// `-a` (`neg`), `!a` (`not`), `|a|` (`abs`).
    Unary(&'static str, Box<Value>),
}

impl Value {
    fn nodes(&self) -> usize {
        match self {
            Value::Load { address, .. } => 1 + address.nodes(),
            Value::Binary(_, a, b) => 1 + a.nodes() + b.nodes(),
            Value::Unary(_, a) => 1 + a.nodes(),
            _ => 1,
        }
    }

    /// The known value, if any.
    pub fn known(&self) -> Option<u64> {
        match self {
            Value::Const(v) => Some(*v),
            _ => None,
        }
    }

    /// The registers this value reads (DWARF numbers), in order, each once.
    pub fn registers(&self, out: &mut Vec<u64>) {
        match self {
            Value::Register { reg, .. } | Value::EntryRegister(reg) if !out.contains(reg) => {
                out.push(*reg)
            }
            Value::Load { address, .. } => address.registers(out),
            Value::Binary(_, a, b) => {
                a.registers(out);
                b.registers(out);
            }
            Value::Unary(_, a) => a.registers(out),
            _ => {}
        }
    }
}

/// The name of DWARF register `reg` for a reader: the spec's name (`VGPR2`,
/// `SGPR33`, wavefront 32 vector registers as `VGPR2_W32`), else `DWARF register N`.
pub fn register_name(reg: u64) -> String {
    DwarfRegister(reg)
        .spec_name()
        .unwrap_or_else(|| format!("DWARF register {reg}"))
}

/// Whether DWARF register `reg` is a vector register (one element per lane).
pub fn is_vector_register(reg: u64) -> bool {
    use crate::names::AmdgpuRegister::*;
    matches!(
        DwarfRegister(reg).amdgpu(),
        Some(VgprWave32(_) | AgprWave32(_) | VgprWave64(_) | AgprWave64(_))
    )
}

/// The wave size a register number implies (wavefront 32 or 64 numbering).
pub fn register_wave_size(reg: u64) -> Option<u32> {
    use crate::names::AmdgpuRegister::*;
    match DwarfRegister(reg).amdgpu()? {
        ExecMask32 | Vcc32 | VgprWave32(_) | AgprWave32(_) => Some(32),
        ExecMask64 | Vcc64 | VgprWave64(_) | AgprWave64(_) => Some(64),
        _ => None,
    }
}

/// A short address space name: `global` for `DW_ASPACE_LLVM_none`, `private_lane`
/// for `DW_ASPACE_AMDGPU_private_lane` ...; `address space N` when unknown.
pub fn space_name(space: u64) -> String {
    match address_space_name(space) {
        Some("DW_ASPACE_LLVM_none") => "global".to_string(),
        Some(n) => n.trim_start_matches("DW_ASPACE_AMDGPU_").to_string(),
        None => format!("address space {space}"),
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.show(f, true)
    }
}

impl Value {
    fn show(&self, f: &mut fmt::Formatter<'_>, top: bool) -> fmt::Result {
        match self {
            Value::Const(v) => {
                if *v < 0x10000 {
                    write!(f, "{v}")
                } else if (*v as i64) < 0 && (*v as i64) > -0x10000 {
                    write!(f, "{}", *v as i64)
                } else {
                    write!(f, "{v:#x}")
                }
            }
            Value::Register { reg, lane } => {
                f.write_str(&register_name(*reg))?;
                if let Some(l) = lane {
                    write!(f, "[lane {l}]")?;
                }
                Ok(())
            }
            Value::EntryRegister(reg) => write!(f, "{} on entry", register_name(*reg)),
            Value::Lane => f.write_str("lane"),
            Value::Cfa => f.write_str("CFA"),
            Value::FrameBase => f.write_str("frame base (no DW_AT_frame_base)"),
            Value::Load {
                space,
                address,
                size,
            } => {
                write!(f, "load{}({} ", u32::from(*size) * 8, space_name(*space))?;
                address.show(f, true)?;
                f.write_str(")")
            }
            Value::Binary(op, a, b) => {
                if !top {
                    f.write_str("(")?;
                }
                a.show(f, false)?;
                // `x + -8` reads `x - 8`
                match (op, b.as_ref()) {
                    (BinOp::Add, Value::Const(k)) if (*k as i64) < 0 => {
                        write!(f, " - {}", (*k as i64).unsigned_abs())?
                    }
                    _ => {
                        write!(f, " {} ", op.symbol())?;
                        b.show(f, false)?;
                    }
                }
                if !top {
                    f.write_str(")")?;
                }
                Ok(())
            }
            Value::Unary(op, a) => {
                f.write_str(op)?;
                a.show(f, false)
            }
        }
    }
}

/// What an implicit location holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Implicit {
    /// `DW_OP_implicit_value` bytes (or `DW_AT_const_value` bytes).
    Bytes(Vec<u8>),
    /// A value (`DW_OP_stack_value`; or `call_frame_entry_reg`'s entry value).
    Value(Value),
}

/// One part of a composite location: `bits` bits of `location`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Size of the part in bits.
    pub bits: u64,
    /// Where the part's bits are.
    pub location: Location,
}

/// A location description (where an object's bits are).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// Not present in the code (optimised out).
    Undefined,
    /// Memory of address space `space`, at byte `address`, plus `bit_offset` bits.
    Memory {
        /// `DW_ASPACE_*` (0: the default, global).
        space: u64,
        /// The byte address.
        address: Value,
        /// Bits after the byte address (0-7 once normalised).
        bit_offset: u64,
    },
    /// A register, from `bit_offset` (a vector register's lane N element starts at
    /// bit 32 x N).
    Register {
        /// DWARF register number.
        reg: u64,
        /// The bit offset in the register.
        bit_offset: Value,
    },
    /// A value with no storage.
    Implicit {
        /// The value.
        value: Implicit,
        /// Bits into it.
        bit_offset: u64,
    },
    /// A pointer the compiler removed, to the object of DIE `die` (an offset in
    /// `.debug_info`), plus `byte_offset`, in address space `space`.
    ImplicitPointer {
        /// `.debug_info` offset of the pointed-to object's DIE.
        die: u64,
        /// Bytes into it.
        byte_offset: i64,
        /// `DW_ASPACE_*`
        space: u64,
    },
    /// Parts, in order (from bit `bit_offset` of their concatenation).
    Composite {
        /// The parts.
        pieces: Vec<Piece>,
        /// Bits into the concatenation.
        bit_offset: u64,
    },
    /// `DW_OP_LLVM_select_bit_piece` with a mask not known: `count` parts of `bits`
    /// bits, part N from `one` (bit N of `mask` set) or `zero`, moved by N x `bits`.
    Select {
        /// The mask.
        mask: Value,
        /// Where parts come from when their mask bit is 0.
        zero: Box<Location>,
        /// Where parts come from when their mask bit is 1.
        one: Box<Location>,
        /// Bits per part.
        bits: u64,
        /// Parts.
        count: u64,
    },
}

impl Location {
    /// The registers this location names or reads, in order, each once.
    pub fn registers(&self) -> Vec<u64> {
        let mut out = Vec::new();
        self.collect_registers(&mut out);
        out
    }

    fn collect_registers(&self, out: &mut Vec<u64>) {
        match self {
            Location::Memory { address, .. } => address.registers(out),
            Location::Register { reg, bit_offset } => {
                if !out.contains(reg) {
                    out.push(*reg);
                }
                bit_offset.registers(out);
            }
            Location::Implicit {
                value: Implicit::Value(v),
                ..
            } => v.registers(out),
            Location::Composite { pieces, .. } => {
                for p in pieces {
                    p.location.collect_registers(out);
                }
            }
            Location::Select {
                mask, zero, one, ..
            } => {
                mask.registers(out);
                zero.collect_registers(out);
                one.collect_registers(out);
            }
            _ => {}
        }
    }

    /// The kind, one word: `undefined`, `memory`, `register`, `implicit`,
    /// `implicit_pointer`, `composite`, `select`.
    pub fn kind(&self) -> &'static str {
        match self {
            Location::Undefined => "undefined",
            Location::Memory { .. } => "memory",
            Location::Register { .. } => "register",
            Location::Implicit { .. } => "implicit",
            Location::ImplicitPointer { .. } => "implicit_pointer",
            Location::Composite { .. } => "composite",
            Location::Select { .. } => "select",
        }
    }
}

/// The options of one evaluation.
#[derive(Clone, Copy, Default)]
pub struct Options {
    /// The focused lane (`DW_OP_LLVM_push_lane`; a vector register's element).
    pub lane: Option<u32>,
    /// The wave size (32 or 64), for the private_wave address of a private_lane one.
    pub wave_size: Option<u32>,
    /// How `DW_OP_xderef` is read.
    pub xderef: Xderef,
}

/// What an expression needs from its unit.
pub struct Context<'c> {
    /// Address size, format, version of the unit.
    pub encoding: gimli::Encoding,
    /// The frame base of the subprogram (`DW_AT_frame_base` evaluated), for
    /// `DW_OP_fbreg`.
    pub frame_base: Option<Location>,
    /// `DW_OP_addrx` / `DW_OP_constx`: the address of an index in `.debug_addr`.
    pub address_index: Option<&'c dyn Fn(u64) -> Option<u64>>,
    /// `DW_OP_call2`, `DW_OP_call4`, `DW_OP_call_ref`: the `DW_AT_location`
    /// expression of the DIE the operand names (for the PC, when it is a location
    /// list); `Ok(None)` when the DIE has no `DW_AT_location` (the call then has no
    /// effect, DWARF 5 section 2.5.1.5), `Err` with why it cannot be had. `None`:
    /// calls are errors.
    pub call: Option<&'c CallFn<'c>>,
    /// Options.
    pub options: Options,
}

/// The DIE a `DW_OP_call*` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallTarget {
    /// `DW_OP_call2`, `DW_OP_call4`: an offset in the current unit.
    Unit(u64),
    /// `DW_OP_call_ref`: an offset in `.debug_info`.
    DebugInfo(u64),
}

impl fmt::Display for CallTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallTarget::Unit(o) => write!(f, "unit offset {o:#x}"),
            CallTarget::DebugInfo(o) => write!(f, ".debug_info offset {o:#x}"),
        }
    }
}

/// What [`Context::call`] is: the called DIE's location expression, if it has one.
pub type CallFn<'c> = dyn Fn(CallTarget) -> Result<Option<Vec<u8>>, String> + 'c;

/// The name of the operation whose code is `code` (`DW_OP_0xNN` when it has none).
fn op_name(code: u8) -> String {
    match gimli::DwOp(code).static_string() {
        Some(n) => n.to_string(),
        None => format!("DW_OP_{code:#04x}"),
    }
}

/// The result of an evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Where the object is.
    pub location: Location,
    /// Whether the expression chose the lane itself (`DW_OP_LLVM_push_lane`); when
    /// not, a vector register location names the whole register, whose focused
    /// lane's element holds a SIMT thread's value.
    pub lane_selected: bool,
}

#[derive(Clone, Debug)]
enum Entry {
    Value(Value),
    Loc(Location),
    Incomplete(Vec<Piece>),
}

/// An error at byte `at` of the expression (section `expression`).
fn err(at: usize, message: impl Into<String>) -> Error {
    Error::new("expression", at as u64, message.into())
}

struct Eval<'c, 'm> {
    cx: &'c Context<'c>,
    m: &'m mut dyn Machine,
    stack: Vec<Entry>,
    at: usize,
    lane_selected: bool,
    /// `DW_OP_call*` nesting.
    depth: usize,
    /// Operations run, called expressions included.
    steps: usize,
}

/// Evaluates expression `bytes` to a location description. Register and memory
/// contents come from `machine` ([`Symbolic`] for none). Errors name the byte of
/// the expression (section `expression`); callers re-anchor them to the DIE.
pub fn evaluate(
    bytes: &[u8],
    cx: &Context<'_>,
    machine: &mut dyn Machine,
) -> Result<Located, Error> {
    let mut e = Eval {
        cx,
        m: machine,
        stack: Vec::new(),
        at: 0,
        lane_selected: false,
        depth: 0,
        steps: 0,
    };
    e.run(bytes)?;
    let location = match e.stack.pop() {
        None => Location::Undefined,
        Some(Entry::Incomplete(pieces)) => Location::Composite {
            pieces,
            bit_offset: 0,
        },
        Some(entry) => e.to_location(entry)?,
    };
    Ok(Located {
        location,
        lane_selected: e.lane_selected,
    })
}

fn wrap(at: usize) -> impl Fn(gimli::Error) -> Error {
    move |g| err(at, g.to_string())
}

impl Eval<'_, '_> {
    fn pop(&mut self) -> Result<Entry, Error> {
        self.stack
            .pop()
            .ok_or_else(|| err(self.at, "the stack is empty"))
    }

    fn push(&mut self, e: Entry) -> Result<(), Error> {
        if self.stack.len() >= 1024 {
            return Err(err(self.at, "the stack holds more than 1024 entries"));
        }
        self.stack.push(e);
        Ok(())
    }

    fn pop_value(&mut self) -> Result<Value, Error> {
        let e = self.pop()?;
        self.to_value(e)
    }

    fn pop_location(&mut self) -> Result<Location, Error> {
        let e = self.pop()?;
        self.to_location(e)
    }

    /// A value, or a memory location of the default address space at a whole byte
    /// (its address), per the extensions' implicit conversions.
    fn to_value(&self, e: Entry) -> Result<Value, Error> {
        match e {
            Entry::Value(v) => Ok(v),
            Entry::Loc(Location::Memory {
                space: DEFAULT_ASPACE,
                address,
                bit_offset: 0,
            }) => Ok(address),
            Entry::Loc(l) => Err(err(
                self.at,
                format!("a value is needed; the stack holds a {} location", l.kind()),
            )),
            Entry::Incomplete(_) => Err(err(
                self.at,
                "a value is needed; the stack holds an incomplete composite",
            )),
        }
    }

    fn to_location(&self, e: Entry) -> Result<Location, Error> {
        match e {
            Entry::Value(v) => Ok(Location::Memory {
                space: DEFAULT_ASPACE,
                address: v,
                bit_offset: 0,
            }),
            Entry::Loc(l) => Ok(l),
            Entry::Incomplete(_) => Err(err(
                self.at,
                "a location is needed; the stack holds an incomplete composite",
            )),
        }
    }

    fn value(&self, v: Value) -> Result<Value, Error> {
        if v.nodes() > MAX_NODES {
            return Err(err(self.at, "symbolic value too large"));
        }
        Ok(v)
    }

    fn binary(&self, op: BinOp, a: Value, b: Value) -> Result<Value, Error> {
        use BinOp::*;
        if let (Some(x), Some(y)) = (a.known(), b.known()) {
            let r = match op {
                Add => x.wrapping_add(y),
                Sub => x.wrapping_sub(y),
                Mul => x.wrapping_mul(y),
                Div => {
                    if y == 0 {
                        return Err(err(self.at, "division by zero"));
                    }
                    (x as i64).wrapping_div(y as i64) as u64
                }
                Mod => {
                    if y == 0 {
                        return Err(err(self.at, "modulo by zero"));
                    }
                    x % y
                }
                And => x & y,
                Or => x | y,
                Xor => x ^ y,
                Shl => x.checked_shl(y.min(64) as u32).unwrap_or(0),
                Shr => x.checked_shr(y.min(64) as u32).unwrap_or(0),
                Shra => ((x as i64) >> y.min(63)) as u64,
                Eq => (x == y) as u64,
                Ne => (x != y) as u64,
                Lt => ((x as i64) < (y as i64)) as u64,
                Gt => ((x as i64) > (y as i64)) as u64,
                Le => ((x as i64) <= (y as i64)) as u64,
                Ge => ((x as i64) >= (y as i64)) as u64,
            };
            return Ok(Value::Const(r));
        }
        // x + 0, x - 0, x * 1; (x + a) + b
        match (op, &a, b.known()) {
            (Add | Sub | Or | Xor | Shl | Shr, _, Some(0)) | (Mul, _, Some(1)) => return Ok(a),
            (Add, Value::Binary(Add, x, k), Some(y)) if k.known().is_some() => {
                let s = k.known().unwrap_or(0).wrapping_add(y);
                return self.binary(Add, (**x).clone(), Value::Const(s));
            }
            (Sub, _, Some(y)) => return self.binary(Add, a, Value::Const(y.wrapping_neg())),
            _ => {}
        }
        if op == Add && a.known() == Some(0) {
            return Ok(b);
        }
        self.value(Value::Binary(op, Box::new(a), Box::new(b)))
    }

    fn register_value(&mut self, reg: u64) -> Value {
        let lane = if is_vector_register(reg) {
            self.cx.options.lane
        } else {
            None
        };
        match self.m.register(reg, lane) {
            Some(v) => Value::Const(v),
            None => Value::Register { reg, lane },
        }
    }

    /// Moves location `l` by `bits` bits (`DW_OP_LLVM_bit_offset` and friends).
    fn offset(&self, l: Location, bits: Value) -> Result<Location, Error> {
        Ok(match l {
            Location::Undefined => Location::Undefined,
            Location::Memory {
                space,
                address,
                bit_offset,
            } => {
                let (bytes, rest) = match bits.known() {
                    Some(b) => {
                        let total = bit_offset.wrapping_add(b);
                        (Value::Const(total / 8), total % 8)
                    }
                    None => match &bits {
                        // (x * 8): the bytes of DW_OP_LLVM_offset
                        Value::Binary(BinOp::Mul, x, k) if k.known() == Some(8) => {
                            ((**x).clone(), bit_offset)
                        }
                        _ => {
                            return Err(err(
                                self.at,
                                "a bit offset not known, in a memory location",
                            ))
                        }
                    },
                };
                let mut address = self.binary(BinOp::Add, address, bytes)?;
                if matches!(space, 2 | 3 | 5 | 6) {
                    if let Some(a) = address.known() {
                        address = Value::Const(a & 0xffff_ffff);
                    }
                }
                Location::Memory {
                    space,
                    address,
                    bit_offset: rest,
                }
            }
            Location::Register { reg, bit_offset } => Location::Register {
                reg,
                bit_offset: self.binary(BinOp::Add, bit_offset, bits)?,
            },
            Location::Implicit { value, bit_offset } => Location::Implicit {
                value,
                bit_offset: self.known_offset(bit_offset, &bits)?,
            },
            Location::Composite { pieces, bit_offset } => Location::Composite {
                pieces,
                bit_offset: self.known_offset(bit_offset, &bits)?,
            },
            Location::ImplicitPointer { .. } | Location::Select { .. } => {
                return Err(err(
                    self.at,
                    format!("an offset applied to a {} location", l.kind()),
                ))
            }
        })
    }

    fn known_offset(&self, base: u64, bits: &Value) -> Result<u64, Error> {
        match bits.known() {
            Some(b) => Ok(base.wrapping_add(b)),
            None => Err(err(self.at, "a bit offset not known, in this location")),
        }
    }

    fn byte_offset(&self, l: Location, d: Value) -> Result<Location, Error> {
        let bits = self.binary(BinOp::Mul, d, Value::Const(8))?;
        self.offset(l, bits)
    }

    fn form_aspace(&self, space: Value, address: Value) -> Result<Location, Error> {
        let Some(space) = space.known() else {
            return Err(err(self.at, "an address space not known"));
        };
        if address_space_name(space).is_none() {
            return Err(err(
                self.at,
                format!("address space {space} is not AMDGPU's"),
            ));
        }
        let address = match (space, address.known()) {
            (2 | 3 | 5 | 6, Some(a)) => Value::Const(a & 0xffff_ffff),
            _ => address,
        };
        Ok(Location::Memory {
            space,
            address,
            bit_offset: 0,
        })
    }

    /// Reads `size` bytes at location `l` (`DW_OP_deref*`).
    fn deref(&mut self, l: Location, size: u8) -> Result<Value, Error> {
        if size == 0 || size > 8 {
            return Err(err(self.at, format!("a load of {size} bytes")));
        }
        let mask = |v: u64| {
            if size >= 8 {
                v
            } else {
                v & ((1u64 << (size * 8)) - 1)
            }
        };
        match l {
            Location::Memory {
                space,
                address,
                bit_offset: 0,
            } => {
                let lane = self.cx.options.lane;
                if let Some(a) = address.known() {
                    if let Some(v) = self.m.memory(space, a, size, lane) {
                        return Ok(Value::Const(mask(v)));
                    }
                }
                self.value(Value::Load {
                    space,
                    address: Box::new(address),
                    size,
                })
            }
            Location::Register { reg, bit_offset } if bit_offset.known() == Some(0) => {
                let v = self.register_value(reg);
                Ok(match v.known() {
                    Some(k) => Value::Const(mask(k)),
                    None => v,
                })
            }
            Location::Register { reg, bit_offset } => {
                // a lane's element of a vector register
                let lane_of = match bit_offset.known() {
                    Some(b) if b % 32 == 0 && is_vector_register(reg) => Some((b / 32) as u32),
                    _ => None,
                };
                match lane_of.and_then(|lane| self.m.register(reg, Some(lane))) {
                    Some(v) => Ok(Value::Const(mask(v))),
                    None => Err(err(
                        self.at,
                        "a load from a register at a bit offset, without the register's contents",
                    )),
                }
            }
            Location::Implicit {
                value: Implicit::Value(v),
                bit_offset: 0,
            } => Ok(match v.known() {
                Some(k) => Value::Const(mask(k)),
                None => v,
            }),
            Location::Implicit {
                value: Implicit::Bytes(b),
                bit_offset,
            } if bit_offset % 8 == 0 => {
                let start = (bit_offset / 8) as usize;
                let end = start.saturating_add(size as usize);
                let Some(part) = b.get(start..end) else {
                    return Err(err(self.at, "a load past the end of an implicit value"));
                };
                let mut v = 0u64;
                for (i, byte) in part.iter().enumerate() {
                    v |= (*byte as u64) << (8 * i);
                }
                Ok(Value::Const(v))
            }
            l => Err(err(
                self.at,
                format!("a load from a {} location is not supported", l.kind()),
            )),
        }
    }

    fn piece(&mut self, bits: u64, bit_offset: Option<u64>) -> Result<(), Error> {
        let part = match self.stack.last() {
            None | Some(Entry::Incomplete(_)) => Location::Undefined,
            Some(_) => {
                let l = self.pop_location()?;
                match bit_offset {
                    Some(d) if d != 0 => self.offset(l, Value::Const(d))?,
                    _ => l,
                }
            }
        };
        let piece = Piece {
            bits,
            location: part,
        };
        match self.stack.last_mut() {
            Some(Entry::Incomplete(pieces)) => {
                if pieces.len() as u64 >= MAX_PARTS {
                    return Err(err(self.at, "more than 4096 pieces"));
                }
                pieces.push(piece)
            }
            _ => self.push(Entry::Incomplete(vec![piece]))?,
        }
        Ok(())
    }

    fn run(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let encoding = self.cx.encoding;
        let mut r = Slice::new(bytes, gimli::LittleEndian);
        while !r.is_empty() {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err(err(self.at, "more than 10000 operations (a loop?)"));
            }
            self.at = bytes.len() - r.len();
            let at = self.at;
            if r.slice()[0] == DW_OP_LLVM_USER {
                r.read_u8().map_err(wrap(at))?;
                self.llvm(&mut r)?;
                continue;
            }
            if r.slice()[0] == 0x93 {
                // (gimli multiplies the size by 8 unchecked)
                let mut probe = r;
                probe.read_u8().map_err(wrap(at))?;
                if probe.read_uleb128().map_err(wrap(at))? > u64::MAX / 8 {
                    return Err(err(at, "DW_OP_piece of more than 2^61 bytes"));
                }
            }
            let code = r.slice()[0];
            let op = Operation::parse(&mut r, encoding)
                .map_err(|g| err(at, format!("{}: {g}", op_name(code))))?;
            self.standard(op, &mut r, bytes)?;
        }
        Ok(())
    }

    fn llvm(&mut self, r: &mut Slice<'_>) -> Result<(), Error> {
        let at = self.at;
        let sub = r.read_uleb128().map_err(wrap(at))?;
        match sub {
            // nop
            1 => {}
            // form_aspace_address: [address] [space]
            2 => {
                let space = self.pop_value()?;
                let address = self.pop_value()?;
                let l = self.form_aspace(space, address)?;
                self.push(Entry::Loc(l))?;
            }
            // push_lane
            3 => {
                self.lane_selected = true;
                let v = match self.cx.options.lane {
                    Some(l) => Value::Const(l as u64),
                    None => Value::Lane,
                };
                self.push(Entry::Value(v))?;
            }
            // offset: [location] [bytes]
            4 => {
                let d = self.pop_value()?;
                let l = self.pop_location()?;
                let l = self.byte_offset(l, d)?;
                self.push(Entry::Loc(l))?;
            }
            // offset_uconst D
            5 => {
                let d = r.read_uleb128().map_err(wrap(at))?;
                let l = self.pop_location()?;
                let l = self.byte_offset(l, Value::Const(d))?;
                self.push(Entry::Loc(l))?;
            }
            // bit_offset: [location] [bits]
            6 => {
                let d = self.pop_value()?;
                let l = self.pop_location()?;
                let l = self.offset(l, d)?;
                self.push(Entry::Loc(l))?;
            }
            // call_frame_entry_reg R
            7 => {
                let reg = r.read_uleb128().map_err(wrap(at))?;
                let v = match self.m.entry_register(reg) {
                    Some(v) => Value::Const(v),
                    None => Value::EntryRegister(reg),
                };
                self.push(Entry::Loc(Location::Implicit {
                    value: Implicit::Value(v),
                    bit_offset: 0,
                }))?;
            }
            // undefined
            8 => self.push(Entry::Loc(Location::Undefined))?,
            // aspace_bregx R D: [space]
            9 => {
                let reg = r.read_uleb128().map_err(wrap(at))?;
                let d = r.read_uleb128().map_err(wrap(at))?;
                let space = self.pop_value()?;
                let v = self.register_value(reg);
                let address = self.binary(BinOp::Add, v, Value::Const(d))?;
                let l = self.form_aspace(space, address)?;
                self.push(Entry::Loc(l))?;
            }
            // piece_end
            10 => match self.stack.pop() {
                Some(Entry::Incomplete(pieces)) => self.push(Entry::Loc(Location::Composite {
                    pieces,
                    bit_offset: 0,
                }))?,
                _ => {
                    return Err(err(
                        at,
                        "DW_OP_LLVM_piece_end without an incomplete composite",
                    ))
                }
            },
            // extend S C
            11 => {
                let bits = r.read_uleb128().map_err(wrap(at))?;
                let count = r.read_uleb128().map_err(wrap(at))?;
                if bits == 0 || count == 0 || count > MAX_PARTS {
                    return Err(err(
                        at,
                        format!(
                            "DW_OP_LLVM_extend {bits} {count}: a size or count of 0 or above 4096"
                        ),
                    ));
                }
                let l = self.pop_location()?;
                let pieces = (0..count)
                    .map(|_| Piece {
                        bits,
                        location: l.clone(),
                    })
                    .collect();
                self.push(Entry::Loc(Location::Composite {
                    pieces,
                    bit_offset: 0,
                }))?;
            }
            // select_bit_piece S C: [L0] [L1] [mask]
            12 => {
                let bits = r.read_uleb128().map_err(wrap(at))?;
                let count = r.read_uleb128().map_err(wrap(at))?;
                if bits == 0 || count == 0 || count > 64 {
                    return Err(err(
                        at,
                        format!("DW_OP_LLVM_select_bit_piece {bits} {count}: a size or count of 0, or more parts than mask bits"),
                    ));
                }
                let mask = self.pop_value()?;
                let one = self.pop_location()?;
                let zero = self.pop_location()?;
                let l = match mask.known() {
                    Some(m) => {
                        let mut pieces = Vec::new();
                        for n in 0..count {
                            let from = if m >> n & 1 == 1 { &one } else { &zero };
                            let moved =
                                self.offset(from.clone(), Value::Const(n.wrapping_mul(bits)))?;
                            pieces.push(Piece {
                                bits,
                                location: moved,
                            });
                        }
                        Location::Composite {
                            pieces,
                            bit_offset: 0,
                        }
                    }
                    None => Location::Select {
                        mask,
                        zero: Box::new(zero),
                        one: Box::new(one),
                        bits,
                        count,
                    },
                };
                self.push(Entry::Loc(l))?;
            }
            _ => return Err(err(at, format!("DW_OP_LLVM_user sub-opcode {sub} unknown"))),
        }
        Ok(())
    }

    fn standard<'b>(
        &mut self,
        op: Operation<Slice<'b>>,
        r: &mut Slice<'b>,
        bytes: &'b [u8],
    ) -> Result<(), Error> {
        use Operation as O;
        let at = self.at;
        let bin = |s: &mut Self, op: BinOp| -> Result<(), Error> {
            let b = s.pop_value()?;
            let a = s.pop_value()?;
            let v = s.binary(op, a, b)?;
            s.push(Entry::Value(v))
        };
        match op {
            O::Address { address } => self.push(Entry::Loc(Location::Memory {
                space: DEFAULT_ASPACE,
                address: Value::Const(address),
                bit_offset: 0,
            }))?,
            O::AddressIndex { index } | O::ConstantIndex { index } => {
                let a = self
                    .cx
                    .address_index
                    .and_then(|f| f(index.0 as u64))
                    .ok_or_else(|| err(at, format!("address index {} not found", index.0)))?;
                if matches!(op, O::AddressIndex { .. }) {
                    self.push(Entry::Loc(Location::Memory {
                        space: DEFAULT_ASPACE,
                        address: Value::Const(a),
                        bit_offset: 0,
                    }))?
                } else {
                    self.push(Entry::Value(Value::Const(a)))?
                }
            }
            O::UnsignedConstant { value } => self.push(Entry::Value(Value::Const(value)))?,
            O::SignedConstant { value } => self.push(Entry::Value(Value::Const(value as u64)))?,
            O::TypedLiteral { value, .. } => {
                let mut v = 0u64;
                for (i, b) in value.slice().iter().take(8).enumerate() {
                    v |= (*b as u64) << (8 * i);
                }
                self.push(Entry::Value(Value::Const(v)))?
            }
            O::Drop => {
                self.pop()?;
            }
            O::Pick { index } => {
                let i = index as usize;
                let Some(e) = self
                    .stack
                    .len()
                    .checked_sub(i + 1)
                    .and_then(|k| self.stack.get(k))
                else {
                    return Err(err(at, format!("DW_OP_pick {index} past the stack")));
                };
                let e = e.clone();
                self.push(e)?;
            }
            O::Swap => {
                let a = self.pop()?;
                let b = self.pop()?;
                self.push(a)?;
                self.push(b)?;
            }
            O::Rot => {
                let a = self.pop()?;
                let b = self.pop()?;
                let c = self.pop()?;
                self.push(a)?;
                self.push(c)?;
                self.push(b)?;
            }
            O::Abs | O::Neg | O::Not => {
                let a = self.pop_value()?;
                let v = match (a.known(), &op) {
                    (Some(x), O::Abs) => Value::Const((x as i64).unsigned_abs()),
                    (Some(x), O::Neg) => Value::Const(x.wrapping_neg()),
                    (Some(x), _) => Value::Const(!x),
                    (None, O::Abs) => self.value(Value::Unary("abs ", Box::new(a)))?,
                    (None, O::Neg) => self.value(Value::Unary("-", Box::new(a)))?,
                    (None, _) => self.value(Value::Unary("~", Box::new(a)))?,
                };
                self.push(Entry::Value(v))?;
            }
            O::And => bin(self, BinOp::And)?,
            O::Div => bin(self, BinOp::Div)?,
            O::Minus => bin(self, BinOp::Sub)?,
            O::Mod => bin(self, BinOp::Mod)?,
            O::Mul => bin(self, BinOp::Mul)?,
            O::Or => bin(self, BinOp::Or)?,
            O::Plus => bin(self, BinOp::Add)?,
            O::Shl => bin(self, BinOp::Shl)?,
            O::Shr => bin(self, BinOp::Shr)?,
            O::Shra => bin(self, BinOp::Shra)?,
            O::Xor => bin(self, BinOp::Xor)?,
            O::Eq => bin(self, BinOp::Eq)?,
            O::Ne => bin(self, BinOp::Ne)?,
            O::Lt => bin(self, BinOp::Lt)?,
            O::Gt => bin(self, BinOp::Gt)?,
            O::Le => bin(self, BinOp::Le)?,
            O::Ge => bin(self, BinOp::Ge)?,
            O::PlusConstant { value } => {
                let a = self.pop()?;
                match a {
                    // plus_uconst on a location moves it (DW_OP_LLVM_offset)
                    Entry::Loc(l) if !matches!(l, Location::Memory { space: 0, .. }) => {
                        let l = self.byte_offset(l, Value::Const(value))?;
                        self.push(Entry::Loc(l))?
                    }
                    a => {
                        let v = self.to_value(a)?;
                        let v = self.binary(BinOp::Add, v, Value::Const(value))?;
                        self.push(Entry::Value(v))?
                    }
                }
            }
            O::Skip { target } | O::Bra { target } => {
                let taken = match op {
                    O::Bra { .. } => {
                        let c = self.pop_value()?;
                        match c.known() {
                            Some(c) => c != 0,
                            None => {
                                return Err(err(at, format!("DW_OP_bra on a value not known: {c}")))
                            }
                        }
                    }
                    _ => true,
                };
                if taken {
                    let here = (bytes.len() - r.len()) as i64;
                    let to = here + target as i64;
                    if to < 0 || to as usize > bytes.len() {
                        return Err(err(at, "a branch outside the expression"));
                    }
                    *r = Slice::new(&bytes[to as usize..], gimli::LittleEndian);
                }
            }
            O::Register { register } => self.push(Entry::Loc(Location::Register {
                reg: register.0 as u64,
                bit_offset: Value::Const(0),
            }))?,
            O::RegisterOffset {
                register, offset, ..
            } => {
                let v = self.register_value(register.0 as u64);
                let v = self.binary(BinOp::Add, v, Value::Const(offset as u64))?;
                self.push(Entry::Value(v))?;
            }
            O::FrameOffset { offset } => {
                let fb = self.cx.frame_base.clone().unwrap_or(Location::Memory {
                    space: DEFAULT_ASPACE,
                    address: Value::FrameBase,
                    bit_offset: 0,
                });
                // a register frame base holds the frame's address (DWARF 5's
                // convention, what LLVM emits: DW_AT_frame_base DW_OP_regx SGPR33)
                let l = match fb {
                    Location::Register { reg, bit_offset } if bit_offset.known() == Some(0) => {
                        let v = match self.m.frame_base_register(reg) {
                            Some(a) => Value::Const(a),
                            None => self.register_value(reg),
                        };
                        Location::Memory {
                            space: DEFAULT_ASPACE,
                            address: v,
                            bit_offset: 0,
                        }
                    }
                    l => l,
                };
                let l = self.byte_offset(l, Value::Const(offset as u64))?;
                self.push(Entry::Loc(l))?;
            }
            O::Nop => {}
            O::CallFrameCFA => {
                let v = match self.m.call_frame_cfa() {
                    Some(v) => Value::Const(v),
                    None => Value::Cfa,
                };
                self.push(Entry::Loc(Location::Memory {
                    space: DEFAULT_ASPACE,
                    address: v,
                    bit_offset: 0,
                }))?;
            }
            O::Deref {
                size, space: false, ..
            } => {
                let l = self.pop_location()?;
                let v = self.deref(l, size)?;
                self.push(Entry::Value(v))?;
            }
            O::Deref {
                size, space: true, ..
            } => {
                // [space] [address] xderef
                let address = self.pop_value()?;
                let space = self.pop_value()?;
                let l = self.form_aspace(space, address)?;
                match self.cx.options.xderef {
                    Xderef::AddressSpace => self.push(Entry::Loc(l))?,
                    Xderef::Load => {
                        let v = self.deref(l, size)?;
                        self.push(Entry::Value(v))?;
                    }
                }
            }
            O::Piece {
                size_in_bits,
                bit_offset,
            } => self.piece(size_in_bits, bit_offset)?,
            O::ImplicitValue { data } => self.push(Entry::Loc(Location::Implicit {
                value: Implicit::Bytes(data.slice().to_vec()),
                bit_offset: 0,
            }))?,
            O::StackValue => {
                let e = self.pop()?;
                let l = match e {
                    Entry::Value(v) => Location::Implicit {
                        value: Implicit::Value(v),
                        bit_offset: 0,
                    },
                    // a location where the value belongs: the extensions let
                    // DW_OP_stack_value take only a value; a memory location of the
                    // default space converts (its address), others stay as they are
                    Entry::Loc(Location::Memory {
                        space: DEFAULT_ASPACE,
                        address,
                        bit_offset: 0,
                    }) => Location::Implicit {
                        value: Implicit::Value(address),
                        bit_offset: 0,
                    },
                    // clang's `V, DW_OP_litN, DW_OP_swap, DW_OP_xderef,
                    // DW_OP_stack_value` (-O2): the value V, qualified by an
                    // address space (read as clang means it)
                    Entry::Loc(Location::Memory {
                        address,
                        bit_offset: 0,
                        ..
                    }) if self.cx.options.xderef == Xderef::AddressSpace => Location::Implicit {
                        value: Implicit::Value(address),
                        bit_offset: 0,
                    },
                    other => {
                        let l = self.to_location(other)?;
                        return Err(err(
                            at,
                            format!("DW_OP_stack_value on a {} location", l.kind()),
                        ));
                    }
                };
                self.push(Entry::Loc(l))?;
            }
            O::ImplicitPointer { value, byte_offset } => {
                self.push(Entry::Loc(Location::ImplicitPointer {
                    die: value.0 as u64,
                    byte_offset,
                    space: DEFAULT_ASPACE,
                }))?
            }
            O::Convert { .. } | O::Reinterpret { .. } => {
                let v = self.pop_value()?;
                self.push(Entry::Value(v))?;
            }
            O::EntryValue { expression } => {
                // a register location inside: that register's value on entry
                let inner = expression.slice();
                match inner.first() {
                    Some(&op) if (0x50..=0x6f).contains(&op) && inner.len() == 1 => {
                        let reg = (op - 0x50) as u64;
                        let v = self.entry_value(reg);
                        self.push(Entry::Value(v))?
                    }
                    Some(0x90) => {
                        let mut rr = Slice::new(&inner[1..], gimli::LittleEndian);
                        let reg = rr.read_uleb128().map_err(wrap(at))?;
                        if !rr.is_empty() {
                            return Err(err(
                                at,
                                format!(
                                    "{} of an expression not evaluated (only of a register)",
                                    op_name(bytes[at])
                                ),
                            ));
                        }
                        let v = self.entry_value(reg);
                        self.push(Entry::Value(v))?
                    }
                    _ => {
                        return Err(err(
                            at,
                            format!(
                                "{} of an expression not evaluated (only of a register)",
                                op_name(bytes[at])
                            ),
                        ))
                    }
                }
            }
            O::Call { offset } => {
                let target = match offset {
                    gimli::DieReference::UnitRef(o) => CallTarget::Unit(o.0 as u64),
                    gimli::DieReference::DebugInfoRef(o) => CallTarget::DebugInfo(o.0 as u64),
                };
                self.call(op_name(bytes[at]), target)?;
            }
            // (DW_OP_push_object_address, DW_OP_form_tls_address,
            // DW_OP_GNU_parameter_ref, DW_OP_GNU_variable_value, the WebAssembly
            // operations ...: nothing to evaluate them with)
            _ => {
                return Err(err(at, format!("{} not evaluated", op_name(bytes[at]))));
            }
        }
        Ok(())
    }

    /// `DW_OP_call2/call4/call_ref` (DWARF 5 section 2.5.1.5): the called DIE's
    /// `DW_AT_location` expression runs on the same stack; without one, nothing
    /// happens.
    fn call(&mut self, name: String, target: CallTarget) -> Result<(), Error> {
        let at = self.at;
        let Some(f) = self.cx.call else {
            return Err(err(
                at,
                format!("{name} {target} not evaluated (no unit to find it in)"),
            ));
        };
        let callee = f(target).map_err(|m| err(at, format!("{name} {target}: {m}")))?;
        let Some(callee) = callee else {
            return Ok(());
        };
        if self.depth >= MAX_CALL_DEPTH {
            return Err(err(
                at,
                format!("{name} {target}: calls nested more than {MAX_CALL_DEPTH} deep (a loop?)"),
            ));
        }
        self.depth += 1;
        let result = self.run(&callee);
        self.depth -= 1;
        self.at = at;
        if self.depth > 0 {
            // (inside another call: the outermost call names where it started)
            return result;
        }
        result.map_err(|e| {
            err(
                at,
                format!(
                    "{name} {target}: {} (at byte {} of the called expression)",
                    e.message, e.offset
                ),
            )
        })
    }

    fn entry_value(&mut self, reg: u64) -> Value {
        match self.m.entry_register(reg) {
            Some(v) => Value::Const(v),
            None => Value::EntryRegister(reg),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Undefined => f.write_str("undefined (optimised out)"),
            Location::Memory {
                space,
                address,
                bit_offset,
            } => {
                write!(f, "{} address {address}", space_name(*space))?;
                if *bit_offset != 0 {
                    write!(f, " bit {bit_offset}")?;
                }
                Ok(())
            }
            Location::Register { reg, bit_offset } => {
                f.write_str(&register_name(*reg))?;
                match bit_offset.known() {
                    Some(0) => Ok(()),
                    Some(b) if is_vector_register(*reg) && b % 32 == 0 => {
                        write!(f, " lane {}", b / 32)
                    }
                    Some(b) => write!(f, " bit {b}"),
                    None => write!(f, " bit {bit_offset}"),
                }
            }
            Location::Implicit { value, bit_offset } => {
                match value {
                    Implicit::Value(v) => write!(f, "value {v}")?,
                    Implicit::Bytes(b) => {
                        f.write_str("value bytes")?;
                        for x in b.iter().take(32) {
                            write!(f, " {x:02x}")?;
                        }
                        if b.len() > 32 {
                            f.write_str(" ...")?;
                        }
                    }
                }
                if *bit_offset != 0 {
                    write!(f, " from bit {bit_offset}")?;
                }
                Ok(())
            }
            Location::ImplicitPointer {
                die,
                byte_offset,
                space,
            } => write!(
                f,
                "implicit pointer ({}) to the object of DIE {die:#010x} + {byte_offset}",
                space_name(*space)
            ),
            Location::Composite { pieces, bit_offset } => {
                f.write_str("pieces: ")?;
                let mut i = 0;
                let mut bit = 0u64;
                let mut first = true;
                while i < pieces.len() {
                    // runs of equal parts are printed once
                    let mut j = i + 1;
                    while j < pieces.len() && pieces[j] == pieces[i] {
                        j += 1;
                    }
                    if !first {
                        f.write_str("; ")?;
                    }
                    first = false;
                    let p = &pieces[i];
                    let n = (j - i) as u64;
                    let end = bit.saturating_add(p.bits.saturating_mul(n));
                    write!(f, "[bits {bit}..{end}) ")?;
                    if n > 1 {
                        write!(f, "{n} x {} bits of ", p.bits)?;
                    }
                    write!(f, "{}", p.location)?;
                    bit = end;
                    i = j;
                }
                if *bit_offset != 0 {
                    write!(f, " (from bit {bit_offset})")?;
                }
                Ok(())
            }
            Location::Select {
                mask,
                zero,
                one,
                bits,
                count,
            } => write!(
                f,
                "{count} parts of {bits} bits, part N from {{{one}}} where bit N of {mask} is set, else from {{{zero}}}, moved by N x {bits} bits"
            ),
        }
    }
}

// ---------------------------------------------------------------------------
// Variables by name and PC

/// Where one variable is, at one PC.
#[derive(Clone, Debug)]
pub enum Availability {
    /// Its location at the PC, and the expression (bytes) that gave it, with the
    /// location list entry's range (`None`: a single expression for the scope).
    Located {
        /// The evaluated location.
        located: Located,
        /// The expression evaluated.
        expression: Vec<u8>,
        /// The location list entry holding the PC.
        range: Option<(u64, u64)>,
    },
    /// A constant (`DW_AT_const_value`, bytes little-endian).
    Constant(Vec<u8>),
    /// The PC is in the variable's scope but in no entry of its location list
    /// (optimised out here); the ranges of the list's entries.
    NotAvailable(Vec<(u64, u64)>),
    /// No `DW_AT_location` and no `DW_AT_const_value`.
    NoLocation,
    /// The location did not evaluate.
    Error(Error),
}

/// A variable or parameter named as asked.
#[derive(Clone, Debug)]
pub struct Variable {
    /// `.debug_info` offset of its DIE.
    pub die: u64,
    /// `variable` or `parameter`.
    pub kind: &'static str,
    /// The subprogram (or inlined subroutine) chain holding it, outermost first
    /// (linkage names where present).
    pub function: Vec<String>,
    /// The address ranges of its innermost scope with addresses.
    pub scope: Vec<(u64, u64)>,
    /// Whether the PC is in the scope.
    pub in_scope: bool,
    /// Where it is at the PC (when in scope).
    pub availability: Availability,
}

struct Frame {
    depth: isize,
    tag: gimli::DwTag,
    offset: gimli::UnitOffset,
    ranges: Vec<(u64, u64)>,
    /// Linkage name, else name.
    name: Option<String>,
    /// Name.
    plain: Option<String>,
}

/// The variables and parameters named `name` in `obj` whose innermost scope has
/// addresses (concrete instances, inlined ones included), with where each is at
/// `pc` (evaluated when `pc` is in its scope). `function`, when given, keeps those
/// whose subprogram chain has that name (name or linkage name). Units or entries
/// that do not read are reported in the errors and skipped.
pub fn find(
    obj: &DwarfObject<'_>,
    name: &str,
    pc: u64,
    function: Option<&str>,
    options: Options,
    machine: &mut dyn Machine,
) -> (Vec<Variable>, Vec<Error>) {
    let want = Want {
        name: Some(name),
        die: None,
        pc,
        function,
        options,
    };
    walk(obj, &want, machine)
}

/// The variable or parameter of DIE `die` (a `.debug_info` offset), with where it
/// is at `pc`; `None` when no concrete variable with a location has that offset.
pub fn at_die(
    obj: &DwarfObject<'_>,
    die: u64,
    pc: u64,
    options: Options,
    machine: &mut dyn Machine,
) -> (Option<Variable>, Vec<Error>) {
    let want = Want {
        name: None,
        die: Some(die),
        pc,
        function: None,
        options,
    };
    let (v, errors) = walk(obj, &want, machine);
    (v.into_iter().next(), errors)
}

/// Every variable and parameter of `obj` in a concrete scope, with where each is
/// at `pc`.
pub fn variables_at(
    obj: &DwarfObject<'_>,
    pc: u64,
    options: Options,
    machine: &mut dyn Machine,
) -> (Vec<Variable>, Vec<Error>) {
    let want = Want {
        name: None,
        die: None,
        pc,
        function: None,
        options,
    };
    walk(obj, &want, machine)
}

fn walk(
    obj: &DwarfObject<'_>,
    want: &Want<'_>,
    machine: &mut dyn Machine,
) -> (Vec<Variable>, Vec<Error>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    let dwarf = obj.gimli();
    for (header, off) in crate::dump::unit_headers(&dwarf, &mut errors) {
        if let Some(die) = want.die {
            // only the unit holding the DIE
            let end = off.saturating_add(header.length_including_self() as u64);
            if die < off || die >= end {
                continue;
            }
        }
        let Some(unit) = crate::dump::unit_of(&dwarf, header, off, &mut errors) else {
            continue;
        };
        if let Err(e) = find_in_unit(&dwarf, &unit, want, machine, &mut found) {
            errors.push(crate::dump::gerr(".debug_info", off, e));
        }
    }
    (found, errors)
}

struct Want<'a> {
    name: Option<&'a str>,
    die: Option<u64>,
    pc: u64,
    function: Option<&'a str>,
    options: Options,
}

fn attr_name(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    entry: &gimli::DebuggingInformationEntry<'_, '_, Slice<'_>>,
    linkage: bool,
) -> gimli::Result<Option<String>> {
    let mut e = entry.clone();
    for _ in 0..4 {
        let ats: &[gimli::DwAt] = if linkage {
            &[gimli::DW_AT_linkage_name, gimli::DW_AT_name]
        } else {
            &[gimli::DW_AT_name]
        };
        for at in ats {
            if let Some(v) = e.attr_value(*at)? {
                return Ok(Some(
                    dwarf.attr_string(unit, v)?.to_string_lossy().into_owned(),
                ));
            }
        }
        match e.attr_value(gimli::DW_AT_abstract_origin)? {
            Some(gimli::AttributeValue::UnitRef(o)) => e = unit.entry(o)?,
            _ => match e.attr_value(gimli::DW_AT_specification)? {
                Some(gimli::AttributeValue::UnitRef(o)) => e = unit.entry(o)?,
                _ => return Ok(None),
            },
        }
    }
    Ok(None)
}

fn find_in_unit(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    want: &Want<'_>,
    machine: &mut dyn Machine,
    found: &mut Vec<Variable>,
) -> gimli::Result<()> {
    let mut entries = unit.entries();
    let mut depth = 0isize;
    let mut frames: Vec<Frame> = Vec::new();
    while let Some((delta, entry)) = entries.next_dfs()? {
        depth += delta;
        if depth > 1024 {
            return Err(gimli::Error::UnexpectedEof(gimli::ReaderOffsetId(0)));
        }
        while frames.last().is_some_and(|f| f.depth >= depth) {
            frames.pop();
        }
        let tag = entry.tag();
        if matches!(
            tag,
            gimli::DW_TAG_subprogram
                | gimli::DW_TAG_lexical_block
                | gimli::DW_TAG_inlined_subroutine
        ) {
            let ranges = die_ranges(dwarf, unit, entry)?;
            let (name, plain) =
                if tag == gimli::DW_TAG_lexical_block || tag == gimli::DW_TAG_compile_unit {
                    (None, None)
                } else {
                    (
                        attr_name(dwarf, unit, entry, true)?,
                        attr_name(dwarf, unit, entry, false)?,
                    )
                };
            frames.push(Frame {
                depth,
                tag,
                offset: entry.offset(),
                ranges,
                name,
                plain,
            });
            continue;
        }
        let kind = match tag {
            gimli::DW_TAG_variable => "variable",
            gimli::DW_TAG_formal_parameter => "parameter",
            _ => continue,
        };
        // concrete instances: the innermost subprogram-like frame has addresses;
        // in an abstract one (no addresses), only variables with a location (static
        // storage), whose scope is then the unit's
        let func = frames.iter().rev().find(|f| {
            f.tag == gimli::DW_TAG_subprogram || f.tag == gimli::DW_TAG_inlined_subroutine
        });
        let abstract_fn = func.is_some_and(|f| f.ranges.is_empty());
        if abstract_fn && entry.attr_value(gimli::DW_AT_location)?.is_none() {
            continue;
        }
        let scope_ranges = if abstract_fn {
            frames
                .first()
                .filter(|f| f.tag == gimli::DW_TAG_compile_unit)
                .map(|f| f.ranges.clone())
                .unwrap_or_default()
        } else {
            frames
                .iter()
                .rev()
                .find(|f| !f.ranges.is_empty())
                .map(|f| f.ranges.clone())
                .unwrap_or_default()
        };
        let die = entry
            .offset()
            .to_debug_info_offset(&unit.header)
            .map_or(0, |o| o.0 as u64);
        if let Some(n) = want.name {
            if attr_name(dwarf, unit, entry, false)?.as_deref() != Some(n) {
                continue;
            }
        }
        if want.die.is_some_and(|d| d != die) {
            continue;
        }
        let function: Vec<String> = frames.iter().filter_map(|f| f.name.clone()).collect();
        if let Some(func) = want.function {
            let ok = frames
                .iter()
                .any(|f| f.name.as_deref() == Some(func) || f.plain.as_deref() == Some(func));
            if !ok {
                continue;
            }
        }
        let in_scope = scope_ranges
            .iter()
            .any(|&(lo, hi)| lo <= want.pc && want.pc < hi);
        // (evaluated out of scope too: LLVM's location lists can run past the
        // scope's ranges)
        let availability = {
            // the frame base of the innermost concrete subprogram
            let fb_entry = frames
                .iter()
                .rev()
                .find(|f| f.tag == gimli::DW_TAG_subprogram)
                .map(|f| f.offset);
            let fb = match fb_entry {
                Some(o) => frame_base_at(dwarf, unit, o, want, machine)?,
                None => None,
            };
            availability(dwarf, unit, entry, die, fb, want, machine)?
        };
        found.push(Variable {
            die,
            kind,
            function,
            scope: scope_ranges,
            in_scope,
            availability,
        });
    }
    Ok(())
}

/// The address ranges of a scope entry: `DW_AT_low_pc` with `DW_AT_high_pc` (an
/// address or a size; a size past 2^64 is an error), or `DW_AT_ranges`; at most 4096.
fn die_ranges(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    entry: &gimli::DebuggingInformationEntry<'_, '_, Slice<'_>>,
) -> gimli::Result<Vec<(u64, u64)>> {
    let mut out = Vec::new();
    if let Some(v) = entry.attr_value(gimli::DW_AT_ranges)? {
        if let Some(mut it) = dwarf.attr_ranges(unit, v)? {
            while let Some(r) = it.next()? {
                if out.len() < 4096 {
                    out.push((r.begin, r.end));
                }
            }
        }
        return Ok(out);
    }
    let low = match entry.attr_value(gimli::DW_AT_low_pc)? {
        Some(v) => dwarf.attr_address(unit, v)?,
        None => None,
    };
    let Some(low) = low else {
        return Ok(out);
    };
    let high = match entry.attr_value(gimli::DW_AT_high_pc)? {
        Some(gimli::AttributeValue::Udata(n)) => low.checked_add(n),
        Some(v) => match v.udata_value() {
            Some(n)
                if !matches!(
                    v,
                    gimli::AttributeValue::Addr(_) | gimli::AttributeValue::DebugAddrIndex(_)
                ) =>
            {
                low.checked_add(n)
            }
            _ => dwarf.attr_address(unit, v)?,
        },
        None => None,
    };
    // (no end, or one past 2^64: no range)
    if let Some(h) = high {
        out.push((low, h));
    }
    Ok(out)
}

/// The frame base (evaluated at the PC) of the subprogram at `at`.
fn frame_base_at(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    at: gimli::UnitOffset,
    want: &Want<'_>,
    machine: &mut dyn Machine,
) -> gimli::Result<Option<Location>> {
    let entry = unit.entry(at)?;
    let Some(v) = entry.attr_value(gimli::DW_AT_frame_base)? else {
        return Ok(None);
    };
    let bytes = match expression_at(dwarf, unit, v, want.pc)? {
        Some((b, _)) => b,
        None => return Ok(None),
    };
    let cx = context(dwarf, unit, None, want.options);
    Ok(evaluate(&bytes, &cx, machine).ok().map(|l| l.location))
}

fn context<'c>(
    _dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    frame_base: Option<Location>,
    options: Options,
) -> Context<'c> {
    Context {
        encoding: unit.encoding(),
        frame_base,
        address_index: None,
        call: None,
        options,
    }
}

/// The expression of attribute value `v` for `pc`: itself, or the entry of its
/// location list holding `pc` (with its range). `Ok(None)`: a list without such an
/// entry (or not a location form).
#[allow(clippy::type_complexity)]
fn expression_at(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    v: gimli::AttributeValue<Slice<'_>>,
    pc: u64,
) -> gimli::Result<Option<(Vec<u8>, Option<(u64, u64)>)>> {
    if let gimli::AttributeValue::Exprloc(e) = v {
        return Ok(Some((e.0.slice().to_vec(), None)));
    }
    let Some(mut list) = dwarf.attr_locations(unit, v)? else {
        return Ok(None);
    };
    while let Some(entry) = list.next()? {
        if entry.range.begin <= pc && pc < entry.range.end {
            return Ok(Some((
                entry.data.0.slice().to_vec(),
                Some((entry.range.begin, entry.range.end)),
            )));
        }
    }
    Ok(None)
}

/// The `DW_AT_location` expression (for `pc`) of the DIE a `DW_OP_call*` names, in
/// `unit` (a `DW_OP_call_ref` into another unit is not followed).
fn called_expression(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    target: CallTarget,
    pc: u64,
) -> Result<Option<Vec<u8>>, String> {
    let offset = match target {
        CallTarget::Unit(o) => gimli::UnitOffset(o as usize),
        CallTarget::DebugInfo(o) => gimli::DebugInfoOffset(o as usize)
            .to_unit_offset(&unit.header)
            .ok_or("a DIE of another unit is not followed")?,
    };
    let entry = unit
        .entry(offset)
        .map_err(|e| format!("no DIE there ({e})"))?;
    let Some(v) = entry
        .attr_value(gimli::DW_AT_location)
        .map_err(|e| e.to_string())?
    else {
        return Ok(None);
    };
    match expression_at(dwarf, unit, v, pc).map_err(|e| e.to_string())? {
        Some((bytes, _)) => Ok(Some(bytes)),
        None => Err(format!(
            "its DW_AT_location has no expression for PC {pc:#x}"
        )),
    }
}

fn list_ranges(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    v: gimli::AttributeValue<Slice<'_>>,
) -> gimli::Result<Vec<(u64, u64)>> {
    let mut out = Vec::new();
    if let Some(mut list) = dwarf.attr_locations(unit, v)? {
        while let Some(e) = list.next()? {
            if out.len() < 4096 {
                out.push((e.range.begin, e.range.end));
            }
        }
    }
    Ok(out)
}

fn availability(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    entry: &gimli::DebuggingInformationEntry<'_, '_, Slice<'_>>,
    die: u64,
    frame_base: Option<Location>,
    want: &Want<'_>,
    machine: &mut dyn Machine,
) -> gimli::Result<Availability> {
    let Some(v) = entry.attr_value(gimli::DW_AT_location)? else {
        return Ok(match entry.attr_value(gimli::DW_AT_const_value)? {
            Some(c) => Availability::Constant(const_bytes(c)),
            None => Availability::NoLocation,
        });
    };
    let Some((bytes, range)) = expression_at(dwarf, unit, v, want.pc)? else {
        return Ok(Availability::NotAvailable(list_ranges(dwarf, unit, v)?));
    };
    let addr = |i: u64| dwarf.address(unit, gimli::DebugAddrIndex(i as usize)).ok();
    let call = |t: CallTarget| called_expression(dwarf, unit, t, want.pc);
    let mut cx = context(dwarf, unit, frame_base, want.options);
    cx.address_index = Some(&addr);
    cx.call = Some(&call);
    Ok(match evaluate(&bytes, &cx, machine) {
        Ok(located) => Availability::Located {
            located,
            expression: bytes,
            range,
        },
        Err(e) => Availability::Error(Error::new(
            ".debug_info",
            die,
            format!(
                "DW_AT_location: {} (at byte {} of the expression)",
                e.message, e.offset
            ),
        )),
    })
}

fn const_bytes(v: gimli::AttributeValue<Slice<'_>>) -> Vec<u8> {
    use gimli::AttributeValue as A;
    match v {
        A::Block(b) => b.slice().to_vec(),
        A::Data1(x) => vec![x],
        A::Data2(x) => x.to_le_bytes().to_vec(),
        A::Data4(x) => x.to_le_bytes().to_vec(),
        A::Data8(x) => x.to_le_bytes().to_vec(),
        A::Sdata(x) => x.to_le_bytes().to_vec(),
        A::Udata(x) => x.to_le_bytes().to_vec(),
        _ => Vec::new(),
    }
}

/// The text of expression `bytes` as llvm-dwarfdump-22 prints it (32-bit DWARF,
/// 8-byte addresses: what AMDGPU units use).
pub fn expression_text(bytes: &[u8]) -> String {
    let mut s = Vec::new();
    crate::expr::write_expression(
        &mut s,
        bytes,
        crate::expr::ExprContext {
            address_size: 8,
            format: gimli::Format::Dwarf32,
            regs: crate::names::RegisterNames::Llvm,
        },
    );
    String::from_utf8_lossy(&s).into_owned()
}

/// The register R of an expression `DW_OP_bregx R +0, DW_OP_litN, DW_OP_swap,
/// DW_OP_xderef` (or `DW_OP_bregN +0, ...`), with N. clang-22 writes it at -O2 for a
/// variable whose value was promoted to register R: the address space suffix of its
/// declaration (`DW_OP_litN, DW_OP_swap, DW_OP_xderef`) stays on the register's
/// `DW_OP_bregx`. Read as DWARF, R holds the variable's address in space N; but in
/// the -g corpus 270 of the 306 -O2 linked objects with this idiom use no scratch at
/// all (every kernel's `.private_segment_fixed_size` 0, llvm-readelf-22), so R holds
/// the value.
pub fn clang_promoted_register(bytes: &[u8]) -> Option<(u64, u64)> {
    let mut r = Slice::new(bytes, gimli::LittleEndian);
    let op = r.read_u8().ok()?;
    let reg = match op {
        0x92 => r.read_uleb128().ok()?,
        0x70..=0x8f => (op - 0x70) as u64,
        _ => return None,
    };
    if r.read_sleb128().ok()? != 0 {
        return None;
    }
    let rest = r.slice();
    match rest {
        [lit @ 0x30..=0x4f, 0x16, 0x18] => Some((reg, (*lit - 0x30) as u64)),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Types of variables

/// How a variable's bytes read, from its DWARF type (typedefs and cv-qualifiers
/// looked through).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeKind {
    /// `DW_ATE_signed`, `DW_ATE_signed_char`.
    Signed,
    /// `DW_ATE_unsigned`, `DW_ATE_unsigned_char`, `DW_ATE_UTF`.
    Unsigned,
    /// `DW_ATE_float`.
    Float,
    /// `DW_ATE_boolean`.
    Bool,
    /// A pointer or reference.
    Pointer,
    /// Anything else (structures, arrays, enumerations, ...).
    Other,
}

/// A variable's type: how to read it, its size in bytes and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeInfo {
    /// How the bytes read.
    pub kind: TypeKind,
    /// Size in bytes (`DW_AT_byte_size`; a pointer without one: the unit's address
    /// size).
    pub size: u64,
    /// The type's name (`int`, `float`; `T *` for a pointer to T; empty when none).
    pub name: String,
}

/// The name and type of a variable or parameter ([`variable_info`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableInfo {
    /// `DW_AT_name` (empty when none).
    pub name: String,
    /// The type, when it reads.
    pub ty: Option<TypeInfo>,
}

/// The name and type of the variable or parameter of DIE `die` (a `.debug_info`
/// offset), through its `DW_AT_abstract_origin` (inlined and concrete instances
/// carry them on their abstract origin); `None` when the DIE does not read.
pub fn variable_info(obj: &DwarfObject<'_>, die: u64) -> Option<VariableInfo> {
    let dwarf = obj.gimli();
    let mut errors = Vec::new();
    for (header, off) in crate::dump::unit_headers(&dwarf, &mut errors) {
        let end = off.saturating_add(header.length_including_self() as u64);
        if die < off || die >= end {
            continue;
        }
        let unit = crate::dump::unit_of(&dwarf, header, off, &mut errors)?;
        let at = gimli::DebugInfoOffset(die as usize).to_unit_offset(&unit.header)?;
        let mut e = unit.entry(at).ok()?;
        let mut name = None;
        let mut ty = None;
        // name and type are on the abstract origin of a concrete or inlined instance
        for _ in 0..8 {
            if name.is_none() {
                name = e
                    .attr_value(gimli::DW_AT_name)
                    .ok()
                    .flatten()
                    .and_then(|v| dwarf.attr_string(&unit, v).ok())
                    .and_then(|s| s.to_string().ok().map(|s| s.to_string()));
            }
            if ty.is_none() {
                if let Some(gimli::AttributeValue::UnitRef(t)) =
                    e.attr_value(gimli::DW_AT_type).ok().flatten()
                {
                    ty = Some(t);
                }
            }
            if name.is_some() && ty.is_some() {
                break;
            }
            match e.attr_value(gimli::DW_AT_abstract_origin).ok().flatten() {
                Some(gimli::AttributeValue::UnitRef(r)) => e = unit.entry(r).ok()?,
                _ => break,
            }
        }
        return Some(VariableInfo {
            name: name.unwrap_or_default(),
            ty: ty.and_then(|t| type_info(&dwarf, &unit, t, 0)),
        });
    }
    None
}

fn type_info(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    at: gimli::UnitOffset,
    depth: u32,
) -> Option<TypeInfo> {
    if depth > 16 {
        return None;
    }
    let e = unit.entry(at).ok()?;
    let name = e
        .attr_value(gimli::DW_AT_name)
        .ok()
        .flatten()
        .and_then(|v| dwarf.attr_string(unit, v).ok())
        .and_then(|s| s.to_string().ok().map(|s| s.to_string()))
        .unwrap_or_default();
    let size = e
        .attr_value(gimli::DW_AT_byte_size)
        .ok()
        .flatten()
        .and_then(|v| v.udata_value());
    let inner = match e.attr_value(gimli::DW_AT_type).ok().flatten() {
        Some(gimli::AttributeValue::UnitRef(r)) => Some(r),
        _ => None,
    };
    match e.tag() {
        gimli::DW_TAG_base_type => {
            let enc = match e.attr_value(gimli::DW_AT_encoding).ok().flatten() {
                Some(gimli::AttributeValue::Encoding(x)) => x,
                _ => return None,
            };
            let kind = match enc {
                gimli::DW_ATE_signed | gimli::DW_ATE_signed_char => TypeKind::Signed,
                gimli::DW_ATE_unsigned | gimli::DW_ATE_unsigned_char | gimli::DW_ATE_UTF => {
                    TypeKind::Unsigned
                }
                gimli::DW_ATE_float => TypeKind::Float,
                gimli::DW_ATE_boolean => TypeKind::Bool,
                _ => TypeKind::Other,
            };
            Some(TypeInfo {
                kind,
                size: size?,
                name,
            })
        }
        gimli::DW_TAG_pointer_type
        | gimli::DW_TAG_reference_type
        | gimli::DW_TAG_rvalue_reference_type => {
            let pointee = inner
                .and_then(|r| type_info(dwarf, unit, r, depth + 1))
                .map_or_else(|| "void".to_string(), |t| t.name);
            Some(TypeInfo {
                kind: TypeKind::Pointer,
                size: size.unwrap_or(u64::from(unit.header.address_size())),
                name: format!("{pointee} *"),
            })
        }
        gimli::DW_TAG_typedef
        | gimli::DW_TAG_const_type
        | gimli::DW_TAG_volatile_type
        | gimli::DW_TAG_restrict_type
        | gimli::DW_TAG_atomic_type => {
            let mut t = type_info(dwarf, unit, inner?, depth + 1)?;
            match e.tag() {
                gimli::DW_TAG_typedef if !name.is_empty() => t.name = name,
                gimli::DW_TAG_const_type => t.name = format!("const {}", t.name),
                _ => {}
            }
            Some(t)
        }
        _ => Some(TypeInfo {
            kind: TypeKind::Other,
            size: size.unwrap_or(0),
            name,
        }),
    }
}
