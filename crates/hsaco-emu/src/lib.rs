//! Run a real AMD GPU code object's kernel on the CPU, set up exactly as the ROCm
//! runtime and the command processor set it up (AMDGPUUsage "Kernel Dispatch",
//! "Initial Kernel Execution State"), executed one pre-decoded instruction at a time.
//!
//! ```
//! use hsaco_emu::{run, ArgValue, Dispatch, Elem, RunOptions};
//! // 01_vadd.cl of the corpus built by clang-22 for gfx90a, code object v5
//! let co = std::fs::read(concat!(
//!     env!("CARGO_MANIFEST_DIR"),
//!     "/tests/data/01_vadd_gfx90a_cov5.co"
//! ))
//! .unwrap();
//! let f = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
//! let disp = Dispatch {
//!     grid: [1000, 1, 1],
//!     block: [256, 1, 1],
//!     dynamic_lds: 0,
//!     args: vec![
//!         ArgValue::Buffer { elem: Elem::F32, data: f(&[1.0; 1000]) },
//!         ArgValue::Buffer { elem: Elem::F32, data: f(&[2.0; 1000]) },
//!         ArgValue::Buffer { elem: Elem::F32, data: f(&[0.0; 1000]) },
//!         ArgValue::Scalar(1000u32.to_le_bytes().to_vec()),
//!     ],
//! };
//! let out = run(&co, "vadd_f32", &disp, &RunOptions::default()).unwrap();
//! // c = a + b for every element
//! assert!(out.buffers[2].data.chunks(4).all(|c| c == 3.0f32.to_le_bytes()));
//! ```

// lanes are indexed by number throughout: lane l of one array goes with lane l of
// another and with bit l of EXEC, which an iterator chain would only obscure
#![allow(clippy::needless_range_loop)]

pub mod dispatch;
pub mod exec;
pub mod fuzzing;
pub mod kernel;
pub mod memory;
pub mod ops;
pub mod printf;
pub mod translate;

pub use dispatch::{ArgValue, Dispatch, Elem};
pub use kernel::{kernel_names, load, Device, Kernel};

use exec::{Ctx, Fault, Stop, Wave, LANES};
use hsaco_isa::Decoder;
use memory::Memory;
use std::fmt;
use translate::Program;

/// The stack of the threads that run work-groups (virtual memory; only what is used is
/// touched): the interpreter's frame is large in unoptimised builds.
const WORKER_STACK: usize = 64 << 20;
/// Everything that can go wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmuError {
    /// The code object cannot be loaded.
    Load(String),
    /// No kernel of that name.
    NoKernel {
        /// Name asked for.
        name: String,
        /// Kernels there are.
        available: Vec<String>,
    },
    /// The arguments or dispatch shape do not fit the kernel.
    Args(String),
    /// The kernel failed while running.
    Exec(Box<ExecError>),
}

/// Where and how a running kernel failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError {
    /// Kernel name.
    pub kernel: String,
    /// Address of the instruction.
    pub pc: u64,
    /// Offset of the instruction from the kernel's entry.
    pub entry_offset: i64,
    /// The function and offset of the instruction (`in_lds+0xc`; the kernel and the
    /// offset from its entry where no function symbol covers it).
    pub place: String,
    /// The instruction as llvm-objdump prints it.
    pub text: String,
    /// Work-group.
    pub group: [u32; 3],
    /// Wave within its work-group.
    pub wave: u32,
    /// What happened.
    pub fault: Fault,
    /// The traced wave's instructions up to the fault (when tracing).
    pub trace: Vec<String>,
}

impl fmt::Display for EmuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmuError::Load(m) => write!(f, "cannot load the code object: {m}"),
            EmuError::NoKernel { name, available } => write!(
                f,
                "no kernel named {name} (the code object has: {})",
                available.join(", ")
            ),
            EmuError::Args(m) => f.write_str(m),
            EmuError::Exec(x) => {
                let ExecError {
                    kernel,
                    pc,
                    place,
                    text,
                    group,
                    wave,
                    fault,
                    ..
                } = &**x;
                let place = format!(
                    "in kernel {kernel} at pc {pc:#x} ({place}), \
                     work-group ({},{},{}) wave {wave}: `{text}`",
                    group[0], group[1], group[2]
                );
                match fault {
                    Fault::Unimplemented => write!(f, "unimplemented operation {place}"),
                    Fault::Invalid => write!(f, "undecodable instruction {place}"),
                    Fault::Memory { addr, lane, space } => match lane {
                        Some(l) => write!(
                            f,
                            "memory fault: {space} address {addr:#x} is not mapped (lane {l}) {place}"
                        ),
                        None => write!(
                            f,
                            "memory fault: {space} address {addr:#x} is not mapped {place}"
                        ),
                    },
                    Fault::BadJump(a) => write!(f, "jump to {a:#x}, where no instruction starts, {place}"),
                    Fault::Trap(c) => write!(f, "trap {c:#x} (s_trap: the llvm.trap path) {place}"),
                    Fault::PartialExec => write!(
                        f,
                        "matrix operation with lanes of the wave off (EXEC not full: undefined by the manuals) {place}"
                    ),
                    Fault::Budget(n) => write!(
                        f,
                        "instruction budget exceeded ({n} instructions in one wave) {place}"
                    ),
                }
            }
        }
    }
}

impl std::error::Error for EmuError {}

/// Options of a run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Wave-instructions one wave may execute before the run fails.
    pub budget: u64,
    /// Host threads to run work-groups on (see [`Stats::threads`]).
    pub threads: usize,
    /// Trace the instructions of this wave: (work-group, wave in the group).
    pub trace: Option<([u32; 3], u32)>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            budget: 100_000_000,
            threads: 1,
            trace: None,
        }
    }
}

/// A buffer argument after the run.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferOut {
    /// Index among the explicit arguments.
    pub arg: usize,
    /// Element type.
    pub elem: Elem,
    /// Contents.
    pub data: Vec<u8>,
}

/// Counters of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Wave-instructions executed.
    pub wave_instructions: u64,
    /// Active lanes of vector instructions.
    pub lane_operations: u64,
    /// Seconds spent executing (not loading).
    pub seconds: f64,
    /// Host threads that ran work-groups (1 when the kernel has printf or clock
    /// reads; with global/flat atomics the threads share the buffers).
    pub threads: usize,
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Every buffer argument, in argument order.
    pub buffers: Vec<BufferOut>,
    /// Counters.
    pub stats: Stats,
    /// The traced wave's instructions (`address: text`), if one was asked for.
    pub trace: Vec<String>,
    /// What the kernel printed with `printf`, formatted as the runtime prints it.
    pub printf: String,
}

/// What one thread's share of the work-groups gives: counters and the trace.
type RangeResult = Result<(Stats, Vec<String>), EmuError>;

/// The traced wave right after one of its instructions ran, as a [`TraceObserver`]
/// sees it: the instruction and read-only access to the wave's registers and to the
/// memory it sees.
pub struct TracedStep<'a> {
    /// Address of the instruction that ran.
    pub address: u64,
    /// The address of the next instruction the wave runs (`None` once it ended).
    pub next: Option<u64>,
    /// The trace line of the instruction (`address: text`, as [`RunResult::trace`]).
    pub line: String,
    wave: &'a Wave,
    mem: &'a Memory,
    lds: &'a [u8],
}

impl TracedStep<'_> {
    /// Lanes of the wave (32 or 64).
    pub fn wave_size(&self) -> u32 {
        self.wave.lanes
    }
    /// Scalar register by operand code (`s0`..`s105`, then VCC at 106-107, ...).
    pub fn sgpr(&self, n: u32) -> Option<u32> {
        self.wave.s.get(n as usize).copied()
    }
    /// Lane `lane`'s element of VGPR `n` (AGPRs follow the 256 VGPRs on gfx90a/gfx942).
    pub fn vgpr(&self, n: u32, lane: u32) -> Option<u32> {
        if lane >= self.wave.lanes {
            return None;
        }
        self.wave
            .v
            .get(n as usize * exec::LANES + lane as usize)
            .copied()
    }
    /// The EXEC mask.
    pub fn exec(&self) -> u64 {
        self.wave.exec()
    }
    /// Lane `lane`'s private (scratch) bytes at per-lane `offset`, through the
    /// swizzle scratch accesses use; `false` when they are not mapped.
    pub fn private(&self, lane: u32, offset: u32, out: &mut [u8]) -> bool {
        if lane >= self.wave.lanes {
            return false;
        }
        for (k, b) in out.iter_mut().enumerate() {
            let a = exec::scratch_addr(self.wave, offset.wrapping_add(k as u32), lane as usize);
            if self.mem.read(a, std::slice::from_mut(b)).is_err() {
                return false;
            }
        }
        true
    }
    /// Global memory bytes at `address`; `false` when they are not mapped.
    pub fn global(&self, address: u64, out: &mut [u8]) -> bool {
        self.mem.read(address, out).is_ok()
    }
    /// The work-group's LDS bytes at `offset`; `false` past its end.
    pub fn lds(&self, offset: u32, out: &mut [u8]) -> bool {
        let o = offset as usize;
        match self.lds.get(o..o + out.len()) {
            Some(b) => {
                out.copy_from_slice(b);
                true
            }
            None => false,
        }
    }
}

/// Sees the traced wave ([`RunOptions::trace`]) after each of its instructions
/// ([`run_observed`]); the wave runs one instruction at a time meanwhile.
pub trait TraceObserver {
    /// One instruction ran (not called for an instruction that faulted).
    fn step(&mut self, step: &TracedStep<'_>);
}

/// [`run`] with `observer` called after each instruction of the traced wave
/// ([`RunOptions::trace`]; nothing is observed without it).
pub fn run_observed(
    data: &[u8],
    name: &str,
    disp: &Dispatch,
    opts: &RunOptions,
    observer: &mut (dyn TraceObserver + Send),
) -> Result<RunResult, EmuError> {
    let k = load(data, name)?;
    run_kernel_with(&k, disp, opts, Some(observer))
}

/// Load a code object, dispatch kernel `name` and run it to completion.
pub fn run(
    data: &[u8],
    name: &str,
    disp: &Dispatch,
    opts: &RunOptions,
) -> Result<RunResult, EmuError> {
    let k = load(data, name)?;
    run_kernel(&k, disp, opts)
}

/// Run an already loaded kernel.
pub fn run_kernel(k: &Kernel, disp: &Dispatch, opts: &RunOptions) -> Result<RunResult, EmuError> {
    run_kernel_with(k, disp, opts, None)
}

fn run_kernel_with(
    k: &Kernel,
    disp: &Dispatch,
    opts: &RunOptions,
    observer: Option<&mut (dyn TraceObserver + Send)>,
) -> Result<RunResult, EmuError> {
    let observer = std::sync::Mutex::new(observer);
    if k.device.generation < hsaco_target::Generation::Gfx8 {
        // SMRD offsets in dwords, the gfx6/gfx7 buffer forms: not done, and running
        // them as gfx8 code would give wrong answers
        return Err(EmuError::Load(format!(
            "{}: gfx6/gfx7 kernels are not run yet",
            k.device.processor.name
        )));
    }
    let mut mem = Memory::new();
    let placed = dispatch::place(k, disp, &mut mem)?;
    let mut dec = Decoder::for_processor(k.device.processor.name).ok_or_else(|| {
        EmuError::Load(format!(
            "no instruction set description for {}",
            k.device.processor.name
        ))
    })?;
    let wave_size = k.wave_size();
    if wave_size == 64 && k.device.generation >= hsaco_target::Generation::Gfx10 {
        dec = dec.wave64();
    }
    let apertures = (k.device.shared_aperture, k.device.private_aperture);
    let prog = Program::translate(&dec, &k.image, k.load_base, &k.code_ranges, apertures);
    let entry = prog
        .index_of(k.entry)
        .ok_or_else(|| EmuError::Load(format!("no instruction at the entry {:#x}", k.entry)))?;
    let kernarg_bytes = mem
        .region_at(placed.kernarg)
        .map(|r| r.data.clone())
        .unwrap_or_default();

    let rsrc1 = k.descriptor.compute_pgm_rsrc1();
    let rsrc2 = k.descriptor.compute_pgm_rsrc2();
    let ftz32 = rsrc1.float_denorm_mode_32() != 3;
    // MODE from the descriptor: FP_ROUND 3:0, FP_DENORM 7:4, DX10_CLAMP 8, IEEE 9
    let mode = rsrc1.float_round_mode_32()
        | rsrc1.float_round_mode_16_64() << 2
        | rsrc1.float_denorm_mode_32() << 4
        | rsrc1.float_denorm_mode_16_64() << 6
        | u32::from(rsrc1.enable_dx10_clamp()) << 8
        | u32::from(rsrc1.enable_ieee_mode()) << 9;
    let groups = disp.groups();
    let ngroups = u64::from(groups[0]) * u64::from(groups[1]) * u64::from(groups[2]);
    let architected = k.device.flat_scratch == hsaco_target::FlatScratch::Architected;
    // the work-groups `range` (linear, X fastest) on one thread, with its own waves,
    // LDS and memory
    let run_range = |range: std::ops::Range<u64>, mem: &mut Memory| -> RangeResult {
        let mut lds = vec![0u8; placed.lds_bytes as usize];
        let mut waves: Vec<Wave> = Vec::new();
        let mut stats = Stats::default();
        let mut clock = 0u64;
        let mut trace = Vec::new();
        for lin in range {
            let gx = (lin % u64::from(groups[0])) as u32;
            let gy = (lin / u64::from(groups[0]) % u64::from(groups[1])) as u32;
            let gz = (lin / (u64::from(groups[0]) * u64::from(groups[1]))) as u32;
            {
                {
                    let g = [gx, gy, gz];
                    // the size of this work-group (the last one of a dimension may be partial)
                    let size: [u32; 3] =
                        [0, 1, 2].map(|d| disp.block[d].min(disp.grid[d] - g[d] * disp.block[d]));
                    let items = size[0] * size[1] * size[2];
                    let nwaves = items.div_ceil(wave_size);
                    while waves.len() < nwaves as usize {
                        waves.push(Wave::new(wave_size));
                    }
                    lds.iter_mut().for_each(|b| *b = 0);
                    for wi in 0..nwaves {
                        let w = &mut waves[wi as usize];
                        w.s = [0; 128];
                        w.scc = false;
                        w.pc = entry;
                        w.done = false;
                        w.count = 0;
                        w.lane_ops = 0;
                        w.index = wi;
                        w.scratch_offset = u64::from(wi) * placed.wave_scratch;
                        w.mode = mode;
                        let sg = dispatch::initial_sgprs(k, &placed, g, wi, nwaves, &kernarg_bytes);
                        w.s[..sg.len()].copy_from_slice(&sg);
                        if k.device.generation >= hsaco_target::Generation::Gfx12 {
                            // architected SGPRs (observed in clang-22's gfx12 code):
                            // work-group ID X in ttmp9, Y and Z in ttmp7's halves
                            w.s[108 + 9] = gx;
                            w.s[108 + 7] = (gy & 0xffff) | gz << 16;
                        }
                        w.flat_scratch_in_sgprs =
                            k.device.generation < hsaco_target::Generation::Gfx10;
                        w.flat_scratch = 0;
                        if architected {
                            // the wave's own slot (AMDGPUUsage "Flat Scratch": with
                            // architected flat scratch the hardware sets FLAT_SCRATCH)
                            let fs = memory::layout::SCRATCH + w.scratch_offset;
                            if w.flat_scratch_in_sgprs {
                                w.s[102] = fs as u32;
                                w.s[103] = (fs >> 32) as u32;
                            } else {
                                w.flat_scratch = fs;
                            }
                        }
                        let mut live = 0u64;
                        // the work-item ID of the wave's first lane, then counted up
                        // (X fastest) without a division per lane
                        let first = wi * wave_size;
                        let mut id = [
                            first % size[0],
                            first / size[0] % size[1],
                            first / (size[0] * size[1]),
                        ];
                        for l in 0..wave_size {
                            if first + l >= items {
                                break;
                            }
                            live |= 1 << l;
                            let regs = dispatch::workitem_vgprs(
                                k.device.packed_work_item_ids,
                                rsrc2.enable_vgpr_workitem_id(),
                                id,
                            );
                            for (r, v) in regs.iter().enumerate() {
                                if let Some(v) = v {
                                    w.v[r * LANES + l as usize] = *v;
                                }
                            }
                            id[0] += 1;
                            if id[0] == size[0] {
                                id[0] = 0;
                                id[1] += 1;
                                if id[1] == size[1] {
                                    id[1] = 0;
                                    id[2] += 1;
                                }
                            }
                        }
                        w.live = live;
                        w.s[126] = live as u32;
                        w.s[127] = if wave_size == 64 {
                            (live >> 32) as u32
                        } else {
                            0
                        };
                    }
                    // run the waves of the group; barriers release when every wave that
                    // has not ended waits at one
                    let mut cx = Ctx {
                        prog: &prog,
                        mem,
                        lds: &mut lds,
                        apertures,
                        budget: opts.budget,
                        clock,
                        ftz32,
                        trace: None,
                        step: false,
                        stepped: false,
                    };
                    loop {
                        let mut all_done = true;
                        for wi in 0..nwaves as usize {
                            let w = &mut waves[wi];
                            if w.done {
                                continue;
                            }
                            let traced = opts.trace == Some((g, wi as u32));
                            if traced {
                                cx.trace = Some(Vec::new());
                            }
                            let mut guard = if traced { observer.lock().ok() } else { None };
                            let r = match guard.as_mut().and_then(|o| o.as_mut()) {
                                None => exec::run(w, &mut cx),
                                Some(obs) => {
                                    // one instruction at a time, each shown to the observer
                                    cx.step = true;
                                    let r = loop {
                                        cx.stepped = false;
                                        let r = exec::run(w, &mut cx);
                                        let last = cx.trace.as_ref().and_then(|t| t.last());
                                        if let (Ok(_), Some(&pc)) = (&r, last) {
                                            let inst = prog.raw[pc];
                                            let text = if inst.op == u16::MAX {
                                                "<invalid>".to_string()
                                            } else {
                                                dec.text(&inst)
                                            };
                                            let ended = matches!(r, Ok(Stop::Ended));
                                            obs.step(&TracedStep {
                                                address: prog.addr[pc],
                                                next: if ended {
                                                    None
                                                } else {
                                                    prog.addr.get(w.pc).copied()
                                                },
                                                line: format!("{:#x}: {text}", prog.addr[pc]),
                                                wave: w,
                                                mem: cx.mem,
                                                lds: cx.lds,
                                            });
                                        }
                                        if !matches!(r, Ok(Stop::Step)) {
                                            break r;
                                        }
                                    };
                                    cx.step = false;
                                    cx.stepped = false;
                                    r
                                }
                            };
                            drop(guard);
                            if let Some(t) = cx.trace.take() {
                                for pc in t {
                                    let inst = prog.raw[pc];
                                    trace.push(format!(
                                        "{:#x}: {}",
                                        prog.addr[pc],
                                        if inst.op == u16::MAX {
                                            "<invalid>".to_string()
                                        } else {
                                            dec.text(&inst)
                                        }
                                    ));
                                }
                            }
                            match r {
                                Ok(Stop::Ended) => {}
                                Ok(Stop::Barrier) | Ok(Stop::Step) => all_done = false,
                                Err((pc, fault)) => {
                                    let inst = prog.raw[pc.min(prog.raw.len() - 1)];
                                    let text = if inst.op == u16::MAX {
                                        format!(".long {:#010x}", inst.raw as u32)
                                    } else {
                                        dec.text(&inst)
                                    };
                                    let addr = prog.addr[pc.min(prog.addr.len() - 1)];
                                    return Err(EmuError::Exec(Box::new(ExecError {
                                        kernel: k.name.clone(),
                                        pc: addr,
                                        entry_offset: addr as i64 - k.entry as i64,
                                        place: k.place(addr),
                                        text,
                                        group: g,
                                        wave: wi as u32,
                                        fault,
                                        trace,
                                    })));
                                }
                            }
                        }
                        if all_done {
                            break;
                        }
                    }
                    clock = cx.clock;
                    for w in &waves[..nwaves as usize] {
                        stats.wave_instructions += w.count;
                        stats.lane_operations += w.lane_ops;
                    }
                }
            }
        }
        Ok((stats, trace))
    };
    // several threads when the outcome cannot depend on the order of the work-groups'
    // runs beyond what a GPU leaves open: no printf, no clock; each thread runs a
    // contiguous share of the groups on its own copy of memory, and the bytes each
    // changed in the buffers are merged afterwards; with global/flat atomics the
    // buffers are shared by the threads instead (every access to them atomic, the
    // atomic operations read-modify-writes), so atomics are atomic across threads and
    // a work-group sees what the others wrote as on a GPU
    let independent = !prog
        .insts
        .iter()
        .any(|i| matches!(i.op, ops::Op::SMemtime | ops::Op::SMemrealtime))
        && placed.printf_buffer.is_none();
    let atomics = prog.insts.iter().any(|i| i.op == ops::Op::MemAtomic);
    let threads = if independent && opts.trace.is_none() {
        (opts.threads.max(1) as u64).min(ngroups.max(1)) as usize
    } else {
        1
    };
    if threads > 1 && atomics {
        let bases: Vec<u64> = placed.buffers.iter().map(|b| b.1).collect();
        mem.share(&bases);
    }
    let start = std::time::Instant::now();
    let (mut stats, trace) = if threads <= 1 {
        // (on a thread of its own with a known stack: the interpreter's frame is large
        // in unoptimised builds, more than a test thread's 2 MiB)
        std::thread::scope(|sc| {
            std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(sc, || run_range(0..ngroups, &mut mem))
                .map_err(|e| EmuError::Load(format!("cannot start the emulator thread: {e}")))?
                .join()
                .unwrap_or_else(|_| Err(EmuError::Load("the emulator thread panicked".into())))
        })?
    } else {
        let per = ngroups.div_ceil(threads as u64);
        let results: Vec<(RangeResult, Memory)> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads as u64)
                .map(|t| {
                    let mut m = mem.clone();
                    let range = (t * per).min(ngroups)..((t + 1) * per).min(ngroups);
                    let run_range = &run_range;
                    std::thread::Builder::new()
                        .stack_size(WORKER_STACK)
                        .spawn_scoped(sc, move || (run_range(range, &mut m), m))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    let Ok(h) = h else {
                        return (
                            Err(EmuError::Load("cannot start a worker thread".into())),
                            Memory::new(),
                        );
                    };
                    h.join().unwrap_or_else(|_| {
                        (
                            Err(EmuError::Load("a worker thread panicked".into())),
                            Memory::new(),
                        )
                    })
                })
                .collect()
        });
        // the shared buffers' final contents (the threads' copies of them are stale and
        // not merged)
        mem.unshare();
        let mut total = Stats::default();
        let mut merged: Vec<(u64, Vec<u8>)> = Vec::new();
        for (_, addr, _, len) in &placed.buffers {
            if *len > 0 && !atomics {
                if let Some(r) = mem.region_at(*addr) {
                    merged.push((*addr, r.data.clone()));
                }
            }
        }
        for (r, m) in &results {
            // the first failing share (in group order) is the error
            let (st, _) = r.as_ref().map_err(Clone::clone)?;
            total.wave_instructions += st.wave_instructions;
            total.lane_operations += st.lane_operations;
            for (addr, out) in merged.iter_mut() {
                let (Some(orig), Some(got)) = (mem.region_at(*addr), m.region_at(*addr)) else {
                    continue;
                };
                for (j, b) in got.data.iter().enumerate() {
                    if *b != orig.data[j] {
                        out[j] = *b;
                    }
                }
            }
        }
        for (addr, data) in merged {
            let _ = mem.write(addr, &data);
        }
        (total, Vec::new())
    };
    stats.seconds = start.elapsed().as_secs_f64();
    stats.threads = threads;
    let mut buffers = Vec::new();
    for (arg, addr, elem, len) in &placed.buffers {
        let data = if *len == 0 {
            Vec::new()
        } else {
            mem.region_at(*addr)
                .map(|r| r.data.clone())
                .unwrap_or_default()
        };
        buffers.push(BufferOut {
            arg: *arg,
            elem: *elem,
            data,
        });
    }
    let printf = match placed.printf_buffer.and_then(|a| mem.region_at(a)) {
        Some(r) => printf::format_buffer(&r.data, &k.printf),
        None => String::new(),
    };
    Ok(RunResult {
        buffers,
        stats,
        trace,
        printf,
    })
}

/// Run bare instruction bytes (ending in `s_endpgm`) on one wave whose registers
/// the caller set: for per-operation tests and experiments. The code is mapped at
/// [`memory::layout::CODE`]; `mem` and `lds` are what the wave sees.
pub fn run_code(
    processor: &str,
    code: &[u8],
    w: &mut Wave,
    mem: &mut Memory,
    lds: &mut [u8],
) -> Result<Stop, (u64, Fault)> {
    run_code_budget(processor, code, w, mem, lds, 1_000_000)
}

/// [`run_code`] with a budget of `budget` wave-instructions (the fuzz entry keeps it
/// small so that random loops end quickly).
pub fn run_code_budget(
    processor: &str,
    code: &[u8],
    w: &mut Wave,
    mem: &mut Memory,
    lds: &mut [u8],
    budget: u64,
) -> Result<Stop, (u64, Fault)> {
    let mut dec = Decoder::for_processor(processor).ok_or((0, Fault::Invalid))?;
    if w.lanes == 64
        && hsaco_target::Processor::by_name(processor)
            .is_some_and(|p| p.generation >= hsaco_target::Generation::Gfx10)
    {
        dec = dec.wave64();
    }
    let base = memory::layout::CODE;
    let apertures = (0x1_0000_0000_0000, 0x2_0000_0000_0000);
    let prog = Program::translate(
        &dec,
        code,
        base,
        &[(base, base + code.len() as u64)],
        apertures,
    );
    w.pc = 0;
    let mut cx = Ctx {
        prog: &prog,
        mem,
        lds,
        apertures,
        budget,
        clock: 0,
        ftz32: false,
        trace: None,
        step: false,
        stepped: false,
    };
    exec::run(w, &mut cx).map_err(|(pc, f)| (prog.addr.get(pc).copied().unwrap_or(0), f))
}
