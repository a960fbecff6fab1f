//! ABI lints from the code: what the kernels and functions actually load, found
//! with the decoder of `hsaco-isa`.
//!
//! Each function (an `STT_FUNC` symbol with a size) is decoded from its first
//! byte to its last in address order, and a small forward analysis follows the
//! scalar registers that hold a pointer the ABI passes in:
//!
//! - in a kernel, the kernarg segment pointer, in the user SGPRs after the
//!   inputs the descriptor enables before it (private segment buffer 4, dispatch
//!   pointer 2, queue pointer 2: AMDGPUUsage "SGPR register set up order");
//! - in a non-entry function, the implicit-argument pointer in `s[8:9]` and the
//!   other special inputs in `s0`-`s15` (the fixed function ABI as LLVM 22 emits
//!   it: `s[0:3]` private segment buffer, `s[4:5]` dispatch pointer, `s[6:7]`
//!   queue pointer, `s[8:9]` implicit-argument pointer, `s[10:11]` dispatch id,
//!   `s12`-`s14` work-group ids, `s15` LDS kernel id; observed in the corpus).
//!
//! Values move through `s_mov_b32`/`s_mov_b64` and `s_add_u32`/`s_addc_u32` with a
//! constant; any other write forgets the register, a call forgets all of them,
//! and so does every branch target inside the function (where control flow
//! merges). The scan goes in address order, so what it knows at a load holds on
//! every path to it: branches can hide a finding but not invent one.
//!
//! The lints:
//!
//! - **Hidden fields** (`code-hidden-arg-*`): scalar loads (`s_load_dword*`) from
//!   the kernarg segment pointer at offsets inside the code object v5
//!   `hidden_private_base` (192), `hidden_shared_base` (196) or
//!   `hidden_queue_ptr` (200) of the implicit-argument block, which starts where
//!   the metadata puts the kernel's hidden arguments. The reads feed the runtime
//!   check (`runtime-pre-gfx9-hidden-args`), are an error when the metadata does
//!   not list the field (runtimes fill what the metadata lists), and a warning on
//!   gfx9+, where only gfx6-gfx8 code reads them.
//! - **Wrong base in non-entry functions** (the write-up's root cause 2):
//!   `code-implicit-arg-past-block`, a load through the implicit-argument pointer
//!   past the 256-byte block (an offset counted from the kernarg base applied to
//!   the implicit-argument pointer); `code-hidden-arg-wrong-base`, a load at a
//!   hidden-field offset (192-207) from an incoming special register that is
//!   not the implicit-argument pointer. A non-entry function has no kernarg
//!   pointer at all, so loads through a register whose origin the scan cannot
//!   see (a value computed elsewhere, a branch merge) are not judged.
//! - **m0 across calls** (`code-m0-*`, gfx6-gfx8): a non-entry function that
//!   writes `m0` and returns (`s_setpc_b64` to its incoming `s[30:31]`) without
//!   writing it back from a copy of its incoming value; and code that, after a
//!   call, uses `m0` (LDS `ds_*` instructions on gfx6-gfx8, or `m0` as an
//!   operand) before setting it again. On gfx6-gfx8 `m0` bounds every LDS access
//!   and the write-up's patch makes it survive calls; LLVM 22 lowers a dynamic
//!   `v_writelane_b32` lane select through `m0` and does not restore it.
//!
//! # Severity: what the runtimes do
//!
//! | code | severity | why |
//! |---|---|---|
//! | `code-hidden-arg-unlisted` | error | CLR fills only the hidden arguments the metadata lists; the kernel reads what is left in the buffer |
//! | `code-hidden-arg-pre-gfx9` | warning | on gfx9+ whether the field is filled depends on the runtime (the LLVM offload plugin fills the v5 block by its layout, CLR what the metadata lists) |
//! | `code-hidden-arg-wrong-base` | error (warning for the queue pointer) | the load reads unrelated memory on every runtime; the queue pointer is only used when a trap fires |
//! | `code-implicit-arg-past-block` | error | the load reads past the 256-byte block on every runtime |
//! | `code-m0-not-restored` | warning | harmless unless a caller uses LDS after the call without setting m0 again |
//! | `code-m0-across-call` | error | the LDS access is checked against the callee's m0 on gfx6-gfx8 hardware |

use hsaco_abi::HiddenArg;
use hsaco_elf::elf::consts::STT_FUNC;
use hsaco_elf::CodeObject;
use hsaco_isa::desc::{Form, Role};
use hsaco_isa::{Decoder, Field, Instruction, Instructions, Operand};
use hsaco_target::{Generation, Processor};

use crate::Problem;

/// A load of a hidden argument the code shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiddenRead {
    /// The field.
    pub arg: HiddenArg,
    /// Address (or section offset in a relocatable object) of the load.
    pub address: u64,
    /// The instruction as llvm-objdump prints it.
    pub text: String,
}

/// What the metadata says about one kernel, as the lints need it.
pub(crate) struct KernelAbi {
    /// Kernel name (the `.kd` symbol without `.kd`).
    pub name: String,
    /// Kernarg offset of the implicit-argument block (v5+).
    pub implicit_base: Option<u64>,
    /// Hidden arguments the metadata lists.
    pub listed: Vec<HiddenArg>,
    /// First user SGPR of the kernarg segment pointer, when the descriptor enables it.
    pub kernarg_sgpr: Option<u8>,
}

/// The lints' results for one code object.
pub(crate) struct CodeLints {
    /// The decoder's processor, when the code could be decoded.
    pub decoder: Option<&'static str>,
    /// Per kernel, the pre-gfx9 hidden fields it loads.
    pub reads: Vec<(String, Vec<HiddenRead>)>,
    /// Problems.
    pub problems: Vec<Problem>,
}

/// The decoder for a processor's code, if its instruction set is described.
///
/// gfx8 has its own tables once `hsaco-isa` describes it; until then its
/// scalar and memory instructions are read with the gfx9 tables (`gfx900`):
/// the SOP*, SMEM and DS encodings and the opcodes these lints look at are the
/// same in both generations (GCN3 and Vega ISA manuals), the encoding sizes
/// are the same, and every lint only trusts what it decodes.
pub(crate) fn decoder_for(processor: &Processor) -> Option<Decoder> {
    Decoder::for_processor(processor.name).or_else(|| {
        (processor.generation == Generation::Gfx8)
            .then(|| Decoder::for_processor("gfx900"))
            .flatten()
    })
}

const M0: u8 = 124;
/// Largest function the lints decode (bytes); bigger symbols are skipped.
const MAX_FUNCTION: u64 = 8 << 20;
/// Most code the lints decode in one code object (bytes), however many symbols
/// overlap: the rest is not linted.
const MAX_CODE: usize = 64 << 20;
/// Size of the code object v5 implicit-argument block.
const IMPLICIT_BLOCK: i64 = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    Kernarg,
    Implicit,
    /// An incoming special SGPR pair (first register) other than the
    /// implicit-argument pointer.
    Incoming(u8),
    /// No base: a constant address.
    Absolute,
}

/// What the scan knows about one 32-bit SGPR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Unknown,
    /// Low half of `base + offset`.
    Lo(Base, i64),
    /// High half of `base + (some offset)`.
    Hi(Base),
    /// The function's incoming m0.
    InM0,
}

#[derive(Clone, Copy, Debug)]
enum M0State {
    Incoming,
    /// Written by this function (the write is in `m0_write`).
    Clobbered,
    AfterCall(u64),
    Set,
}

const NSGPR: usize = 108;

struct Function<'d> {
    name: String,
    address: u64,
    bytes: &'d [u8],
}

fn functions<'d>(co: &CodeObject<'d>) -> Vec<Function<'d>> {
    let mut out: Vec<Function<'d>> = Vec::new();
    let tables = [co.elf.symtab(), co.elf.dynsym()];
    for table in tables.into_iter().filter_map(|t| t.ok().flatten()) {
        for sym in table.iter().flatten() {
            if sym.st_type().0 != STT_FUNC || sym.is_undefined() || sym.size == 0 {
                continue;
            }
            if sym.size > MAX_FUNCTION || out.iter().any(|f| f.address == sym.value) {
                continue;
            }
            let Ok(len) = usize::try_from(sym.size) else {
                continue;
            };
            let Ok((bytes, _)) = co.symbol_bytes(&sym, len) else {
                continue;
            };
            out.push(Function {
                name: sym.name_str().into_owned(),
                address: sym.value,
                bytes,
            });
        }
    }
    out.sort_by_key(|f| f.address);
    out
}

/// Run the lints over one code object.
pub(crate) fn lint(
    co: &CodeObject<'_>,
    processor: &'static Processor,
    version: u32,
    kernels: &[KernelAbi],
) -> CodeLints {
    let mut out = CodeLints {
        decoder: None,
        reads: Vec::new(),
        problems: Vec::new(),
    };
    let Some(dec) = decoder_for(processor) else {
        return out;
    };
    out.decoder = Some(dec.processor());
    let pre_gfx9 = matches!(
        processor.generation,
        Generation::Gfx6 | Generation::Gfx7 | Generation::Gfx8
    );
    let funcs = functions(co);
    let mut m0_clobbers: Vec<(String, u64, String)> = Vec::new();
    let mut m0_reliance: Vec<(String, u64, u64, String)> = Vec::new();
    let mut budget = MAX_CODE;
    let mut code = Vec::new();
    for f in &funcs {
        let Some(left) = budget.checked_sub(f.bytes.len()) else {
            break;
        };
        budget = left;
        let kernel = kernels.iter().find(|k| k.name == f.name);
        let mut scan = Scan::new(dec, kernel, version);
        scan.run(f, &mut code);
        if let Some(k) = kernel {
            let mut reads = Vec::new();
            for (abs, size, address, text) in &scan.kernarg_loads {
                let Some(base) = k.implicit_base else {
                    continue;
                };
                for arg in [
                    HiddenArg::PrivateBase,
                    HiddenArg::SharedBase,
                    HiddenArg::QueuePtr,
                ] {
                    let Some(o) = arg.v5_offset() else { continue };
                    let lo = base.saturating_add(o) as i64;
                    let hi = lo.saturating_add(arg.size() as i64);
                    if *abs < hi && abs.saturating_add(*size) > lo {
                        reads.push(HiddenRead {
                            arg,
                            address: *address,
                            text: text.clone(),
                        });
                    }
                }
            }
            for r in &reads {
                if !k.listed.contains(&r.arg) {
                    out.problems.push(Problem::error(
                        "code-hidden-arg-unlisted",
                        format!(
                            "kernel {} loads {} (implicit-argument offset {}) at {:#x} (`{}`), but its metadata does not list it",
                            k.name, r.arg, r.arg.v5_offset().unwrap_or(0), r.address, r.text
                        ),
                        "runtimes fill the hidden arguments the metadata lists; the kernel reads whatever is left there".into(),
                        Some("rebuild: the compiler lists every hidden argument the kernel reads".into()),
                    ));
                }
                if !pre_gfx9 {
                    out.problems.push(Problem::warning(
                        "code-hidden-arg-pre-gfx9",
                        format!(
                            "kernel {} loads {} (implicit-argument offset {}) at {:#x} (`{}`) on {}",
                            k.name, r.arg, r.arg.v5_offset().unwrap_or(0), r.address, r.text, processor.name
                        ),
                        "only gfx6-gfx8 code reads the aperture bases and queue pointer from the implicit-argument block (AMDGPUUsage, code object v5 hidden arguments); gfx9+ reads them from hardware registers and runtimes need not fill them".into(),
                        None,
                    ));
                }
            }
            out.reads.push((k.name.clone(), reads));
        } else if version >= 5 {
            for (off, size, address, text) in &scan.implicit_past {
                out.problems.push(Problem::error(
                    "code-implicit-arg-past-block",
                    format!(
                        "function {} loads {size} bytes at implicit-argument pointer + {off:#x} at {address:#x} (`{text}`), past the {IMPLICIT_BLOCK}-byte implicit-argument block",
                        f.name
                    ),
                    "a non-entry function receives the implicit-argument pointer in s[8:9], not the kernarg base; an offset counted from the kernarg base (explicit arguments + field) reads past the block (the write-up's root cause 2)".into(),
                    Some("rebuild with a compiler that addresses hidden arguments from IMPLICIT_ARG_PTR in non-entry functions".into()),
                ));
            }
        }
        if version >= 5 {
            let what = if kernel.is_some() {
                "kernel"
            } else {
                "function"
            };
            for (reg, off, address, text) in &scan.wrong_base {
                let field = hidden_at(*off);
                let named = field.map(|h| format!(" ({h})")).unwrap_or_default();
                let from = match reg {
                    Some(r) => format!("from s[{}:{}]", r, r + 1),
                    None => "from the constant address".to_string(),
                };
                let why_base = match reg {
                    Some(r) => format!("s[{}:{}] holds the {} on entry to a non-entry function", r, r + 1, special_name(*r)),
                    None => format!("the load uses the field's offset {off:#x} as an absolute address, with no base pointer at all"),
                };
                let mut p = Problem::error(
                    "code-hidden-arg-wrong-base",
                    format!(
                        "{what} {} loads offset {off:#x}{named} {from} at {address:#x} (`{text}`), not from its implicit-argument pointer",
                        f.name
                    ),
                    format!("{why_base}; the hidden fields live at the implicit-argument pointer (s[8:9] in a non-entry function), so it reads unrelated memory (the write-up's root cause 2){}",
                        if field == Some(HiddenArg::QueuePtr) { ". Here it is the queue pointer handed to the trap handler: it only goes wrong when the trap fires" } else { "" }),
                    Some("rebuild with a compiler that addresses hidden arguments from IMPLICIT_ARG_PTR in non-entry functions (the write-up's backend patch), or with -mcode-object-version=4 where the runtime supports it".into()),
                );
                if field == Some(HiddenArg::QueuePtr) {
                    p.severity = crate::Severity::Warning;
                }
                out.problems.push(p);
            }
        }
        if pre_gfx9 {
            if kernel.is_none() {
                if let Some((address, text)) = &scan.m0_not_restored {
                    m0_clobbers.push((f.name.clone(), *address, text.clone()));
                }
            }
            for (call, use_at, text) in &scan.m0_after_call {
                let what = if kernel.is_some() {
                    "kernel"
                } else {
                    "function"
                };
                m0_reliance.push((format!("{what} {}", f.name), *call, *use_at, text.clone()));
            }
        }
    }
    for (name, address, text) in &m0_clobbers {
        out.problems.push(Problem::warning(
            "code-m0-not-restored",
            format!(
                "function {name} writes m0 at {address:#x} (`{text}`) and returns without restoring it"
            ),
            format!(
                "on {} (gfx6-gfx8) m0 bounds every LDS access; a caller that set it before the call and uses LDS after it works with this function's value (the write-up's m0 bug: a dynamic v_writelane_b32 lane select lowered through m0)",
                processor.name
            ),
            Some("save m0 on entry and restore it before s_setpc_b64, or rebuild with a compiler that does (the write-up's m0 patch)".into()),
        ));
    }
    for (name, call, use_at, text) in &m0_reliance {
        let clobberers: Vec<&str> = m0_clobbers.iter().map(|c| c.0.as_str()).collect();
        if clobberers.is_empty() {
            continue;
        }
        out.problems.push(Problem::error(
            "code-m0-across-call",
            format!(
                "{name} uses m0 at {use_at:#x} (`{text}`) after the call at {call:#x} without setting it again, and {} clobber{} m0",
                clobberers.join(", "),
                if clobberers.len() == 1 { "s" } else { "" }
            ),
            "on gfx6-gfx8 LDS instructions take their bound from m0; after a call to a function that leaves its own value there, the LDS access is checked against the wrong bound".into(),
            Some("set m0 again after the call (s_mov_b32 m0, -1), or make the callee restore it".into()),
        ));
    }
    out
}

fn hidden_at(off: i64) -> Option<HiddenArg> {
    [
        HiddenArg::PrivateBase,
        HiddenArg::SharedBase,
        HiddenArg::QueuePtr,
    ]
    .into_iter()
    .find(|h| {
        let o = h.v5_offset().unwrap_or(0) as i64;
        off >= o && off < o + h.size() as i64
    })
}

fn special_name(reg: u8) -> &'static str {
    match reg {
        0..=3 => "private segment buffer",
        4 | 5 => "dispatch pointer",
        6 | 7 => "queue pointer",
        10 | 11 => "dispatch id",
        12..=14 => "work-group id",
        _ => "LDS kernel id",
    }
}

struct Scan {
    dec: Decoder,
    regs: [Val; NSGPR],
    m0: M0State,
    is_kernel: bool,
    /// (kernarg offset, size, address, text) of loads through the kernarg pointer.
    kernarg_loads: Vec<(i64, i64, u64, String)>,
    /// (offset, size, address, text) of loads through the implicit-argument
    /// pointer past the block.
    implicit_past: Vec<(i64, i64, u64, String)>,
    /// (incoming register, or none for a constant address; offset, address, text).
    wrong_base: Vec<(Option<u8>, i64, u64, String)>,
    /// The last m0 write, when a return leaves it in place.
    m0_not_restored: Option<(u64, String)>,
    m0_write: Option<(u64, String)>,
    /// (call address, use address, text).
    m0_after_call: Vec<(u64, u64, String)>,
}

impl Scan {
    fn new(dec: Decoder, kernel: Option<&KernelAbi>, version: u32) -> Scan {
        let mut regs = [Val::Unknown; NSGPR];
        let is_kernel = kernel.is_some();
        match kernel {
            Some(k) => {
                if let Some(r) = k.kernarg_sgpr.map(usize::from) {
                    if r + 1 < NSGPR {
                        regs[r] = Val::Lo(Base::Kernarg, 0);
                        regs[r + 1] = Val::Hi(Base::Kernarg);
                    }
                }
            }
            None => {
                if version >= 5 {
                    regs[8] = Val::Lo(Base::Implicit, 0);
                    regs[9] = Val::Hi(Base::Implicit);
                }
                for r in [0u8, 2, 4, 6, 10, 12, 14] {
                    regs[usize::from(r)] = Val::Lo(Base::Incoming(r), 0);
                    regs[usize::from(r) + 1] = Val::Hi(Base::Incoming(r));
                }
            }
        }
        Scan {
            dec,
            regs,
            m0: if is_kernel {
                M0State::Set
            } else {
                M0State::Incoming
            },
            is_kernel,
            kernarg_loads: Vec::new(),
            implicit_past: Vec::new(),
            wrong_base: Vec::new(),
            m0_not_restored: None,
            m0_write: None,
            m0_after_call: Vec::new(),
        }
    }

    /// Scan `f`; `code` is a buffer for its decoded instructions.
    fn run(&mut self, f: &Function<'_>, code: &mut Vec<(u64, Instruction)>) {
        // branch targets inside the function: control flow merges there, so the
        // scan forgets what it knows (a merge can only lose facts)
        code.clear();
        code.extend(
            Instructions::new(self.dec, f.bytes)
                .filter_map(|(off, inst)| Some((f.address.wrapping_add(off as u64), inst.ok()?))),
        );
        let mut targets: Vec<u64> = code
            .iter()
            .filter_map(|(address, inst)| self.dec.branch_target(inst, *address))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        // the return address, for recognizing returns
        let mut ret_addr_live = !self.is_kernel;
        for &(address, inst) in code.iter() {
            if targets.binary_search(&address).is_ok() {
                for r in self.regs.iter_mut() {
                    // the incoming m0 copy survives: it only matters for restores
                    if *r != Val::InM0 {
                        *r = Val::Unknown;
                    }
                }
            }
            let op = self.dec.op(&inst);
            let m = op.mnemonic;
            // reads of m0 (before this instruction's writes)
            if matches!(self.m0, M0State::AfterCall(_)) && self.reads_m0(&inst) {
                if let M0State::AfterCall(call) = self.m0 {
                    self.m0_after_call
                        .push((call, address, self.dec.text(&inst)));
                }
                self.m0 = M0State::Set;
            }
            if m.starts_with("s_load_") {
                self.load(&inst, address);
            }
            match m {
                "s_setpc_b64" => {
                    if ret_addr_live
                        && matches!(
                            inst.operands[0],
                            Operand::Sgpr {
                                first: 30,
                                count: 2
                            }
                        )
                    {
                        if let M0State::Clobbered = self.m0 {
                            if self.m0_not_restored.is_none() {
                                self.m0_not_restored = self.m0_write.clone();
                            }
                        }
                    }
                    continue;
                }
                "s_swappc_b64" | "s_call_b64" => {
                    self.regs = [Val::Unknown; NSGPR];
                    self.m0 = M0State::AfterCall(address);
                    ret_addr_live = false;
                    continue;
                }
                _ => {}
            }
            // writes
            let Some((dst, count)) = self.destination(&inst) else {
                continue;
            };
            match dst {
                Dst::M0 => {
                    // writing back the incoming value, or -1: the value LLVM keeps in
                    // m0 for LDS on gfx6-gfx8 (no bound), which callers rely on
                    let restore = m == "s_mov_b32"
                        && (self.src_val(&inst, 1) == Some(Val::InM0)
                            || self.constant(&inst, 1) == Some(-1));
                    if restore {
                        self.m0 = M0State::Incoming;
                        self.m0_write = None;
                    } else {
                        self.m0 = if self.is_kernel {
                            M0State::Set
                        } else {
                            M0State::Clobbered
                        };
                        if !self.is_kernel {
                            self.m0_write = Some((address, self.dec.text(&inst)));
                        } else {
                            self.m0 = M0State::Set;
                        }
                    }
                }
                Dst::Sgpr(first) => {
                    let new = self.transfer(m, &inst, first);
                    for i in 0..usize::from(count) {
                        let r = usize::from(first) + i;
                        if r == 30 || r == 31 {
                            ret_addr_live = false;
                        }
                        if let Some(slot) = self.regs.get_mut(r) {
                            *slot = new.get(i).copied().unwrap_or(Val::Unknown);
                        }
                    }
                }
            }
        }
    }

    /// The value of source operand `i`, if it is a single SGPR or m0.
    fn src_val(&self, inst: &Instruction, i: usize) -> Option<Val> {
        match inst.operands.get(i)? {
            Operand::Sgpr { first, .. } => self.regs.get(usize::from(*first)).copied(),
            Operand::Special { code: M0, .. } => Some(Val::InM0),
            _ => None,
        }
    }

    fn constant(&self, inst: &Instruction, i: usize) -> Option<i64> {
        match inst.operands.get(i)? {
            Operand::Int(v) => Some(i64::from(*v)),
            Operand::Literal => Some(i64::from(inst.literal as i32)),
            _ => None,
        }
    }

    /// New values for the written registers.
    fn transfer(&self, m: &str, inst: &Instruction, first: u8) -> [Val; 2] {
        let unknown = [Val::Unknown; 2];
        match m {
            "s_mov_b32" => {
                if first == 0xff {
                    return unknown;
                }
                [self.src_val(inst, 1).unwrap_or(Val::Unknown), Val::Unknown]
            }
            "s_mov_b64" => match inst.operands[1] {
                Operand::Sgpr { first: s, count: 2 } => {
                    let a = self.regs.get(usize::from(s)).copied();
                    let b = self.regs.get(usize::from(s) + 1).copied();
                    [a.unwrap_or(Val::Unknown), b.unwrap_or(Val::Unknown)]
                }
                Operand::Int(v) if v >= 0 => [
                    Val::Lo(Base::Absolute, i64::from(v)),
                    Val::Hi(Base::Absolute),
                ],
                Operand::Literal if inst.literal < 0x8000_0000 => [
                    Val::Lo(Base::Absolute, i64::from(inst.literal)),
                    Val::Hi(Base::Absolute),
                ],
                _ => unknown,
            },
            "s_add_u32" | "s_add_i32" => {
                let (a, c) = match (self.src_val(inst, 1), self.src_val(inst, 2)) {
                    (Some(a), _) if self.constant(inst, 2).is_some() => (a, self.constant(inst, 2)),
                    (_, Some(b)) if self.constant(inst, 1).is_some() => (b, self.constant(inst, 1)),
                    _ => return unknown,
                };
                match (a, c) {
                    (Val::Lo(b, o), Some(c)) if m == "s_add_u32" => {
                        [Val::Lo(b, o.saturating_add(c)), Val::Unknown]
                    }
                    _ => unknown,
                }
            }
            "s_addc_u32" => {
                let zero = |i| self.constant(inst, i) == Some(0);
                match (self.src_val(inst, 1), self.src_val(inst, 2)) {
                    (Some(Val::Hi(b)), _) if zero(2) => [Val::Hi(b), Val::Unknown],
                    (_, Some(Val::Hi(b))) if zero(1) => [Val::Hi(b), Val::Unknown],
                    _ => unknown,
                }
            }
            _ => unknown,
        }
    }

    /// The register an instruction writes, by its first operand.
    fn destination(&self, inst: &Instruction) -> Option<(Dst, u8)> {
        let dst = match inst.operands[0] {
            Operand::Sgpr { first, count } => (Dst::Sgpr(first), count),
            Operand::Special { code: M0, .. } => (Dst::M0, 1),
            _ => return None,
        };
        let op = self.dec.op(inst);
        let m = op.mnemonic;
        if m.starts_with("s_store")
            || m.starts_with("s_buffer_store")
            || m.starts_with("s_scratch_store")
            || m.starts_with("s_cmp")
            || m.starts_with("s_bitcmp")
            || m.starts_with("s_set_gpr_idx_on")
            || m == "s_setpc_b64"
        {
            return None;
        }
        let role = op.operands.first()?.role;
        let is_dst_field = match role {
            Role::Field(f) | Role::FieldOr(f, _) => matches!(
                f,
                Field::Sdst | Field::Sdst8 | Field::Sdata | Field::Vdst | Field::Sd
            ),
            Role::Fixed(_) => true,
            Role::Literal => false,
        };
        is_dst_field.then_some(dst)
    }

    /// Whether the instruction reads m0 on gfx6-gfx8: LDS instructions, and m0
    /// as a source operand.
    fn reads_m0(&self, inst: &Instruction) -> bool {
        let enc = self.dec.encoding(inst);
        if enc.form == Form::Ds {
            return true;
        }
        let m = self.dec.op(inst).mnemonic;
        if m.starts_with("s_movrel") || m.starts_with("v_movrel") || m.starts_with("v_interp") {
            return true;
        }
        let start = usize::from(self.destination(inst).is_some());
        inst.operands
            .iter()
            .skip(start)
            .any(|o| matches!(o, Operand::Special { code: M0, .. }))
    }

    fn load(&mut self, inst: &Instruction, address: u64) {
        let op = self.dec.op(inst);
        let Some(bi) = op
            .operands
            .iter()
            .position(|o| o.role == Role::Field(Field::Sbase))
        else {
            return;
        };
        let Operand::Sgpr { first, count: 2 } = inst.operands[bi] else {
            return;
        };
        if self.dec.field(inst, Field::Soe) == Some(1)
            || self.dec.field(inst, Field::Imm) == Some(0)
        {
            return;
        }
        // an SGPR offset added to the immediate one (gfx10+ soffset): not a constant
        let sgpr_offset = op.operands.iter().zip(inst.operands).any(|(d, o)| {
            d.role == Role::Field(Field::Soffset) && matches!(o, Operand::Sgpr { .. })
        });
        if sgpr_offset {
            return;
        }
        let Some(raw) = self.dec.field(inst, Field::Offset) else {
            return;
        };
        // 21-bit signed on gfx9, 20-bit unsigned on gfx8: small offsets agree
        let off = i64::from(raw & 0xf_ffff);
        let size = match inst.operands[0] {
            Operand::Sgpr { count, .. } => i64::from(count) * 4,
            _ => 4,
        };
        let lo = self.regs.get(usize::from(first)).copied();
        let hi = self.regs.get(usize::from(first) + 1).copied();
        let (Some(Val::Lo(base, k)), Some(Val::Hi(hb))) = (lo, hi) else {
            return;
        };
        if base != hb {
            return;
        }
        let at = k.saturating_add(off);
        match base {
            Base::Kernarg => {
                self.kernarg_loads
                    .push((at, size, address, self.dec.text(inst)));
            }
            Base::Implicit => {
                if at.saturating_add(size) > IMPLICIT_BLOCK {
                    self.implicit_past
                        .push((at, size, address, self.dec.text(inst)));
                }
            }
            Base::Incoming(r) => {
                if r != 6 && (192..208).contains(&at) {
                    self.wrong_base
                        .push((Some(r), at, address, self.dec.text(inst)));
                }
            }
            Base::Absolute => {
                if (192..208).contains(&at) {
                    self.wrong_base
                        .push((None, at, address, self.dec.text(inst)));
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Dst {
    Sgpr(u8),
    M0,
}
