//! The execution core: wavefront state and the loop over pre-decoded instructions.
//!
//! Vector operations gather their sources into per-lane arrays (a VGPR row is copied,
//! a scalar or constant is broadcast), compute every lane with one pure function of
//! the operation, and scatter the results to the lanes EXEC enables. The per-lane
//! functions are written once per [`Op`] and shared by every generation.

use crate::memory::{Memory, Unmapped};
use crate::ops::{Cmp, CmpTy, Op};
use crate::translate::{m, DInst, Dst, Program, Src};

/// Most lanes of a wave.
pub const LANES: usize = 64;
/// VGPR rows per wave (256 VGPRs, 256 AGPRs, and 4 rows the SDWA/DPP forms use for
/// their selected operands).
pub const VROWS: usize = 516;
/// The first of the rows SDWA/DPP use.
const TMP_ROW: u16 = 512;

/// Where a wave stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `s_endpgm`.
    Ended,
    /// At an `s_barrier`.
    Barrier,
    /// One instruction ran ([`Ctx::step`]: the traced wave is run one instruction at
    /// a time for a [`crate::TraceObserver`]).
    Step,
}

/// Why execution failed (the caller adds kernel, PC and instruction text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No semantics for the operation.
    Unimplemented,
    /// Undecodable bytes.
    Invalid,
    /// A memory access outside every mapping.
    Memory {
        /// Address.
        addr: u64,
        /// Lane (None for scalar accesses).
        lane: Option<u32>,
        /// `global`, `LDS`, `scratch`, ...
        space: &'static str,
    },
    /// A branch or jump to an address without an instruction.
    BadJump(u64),
    /// `s_trap`.
    Trap(u32),
    /// The instruction budget ran out.
    Budget(u64),
    /// A matrix operation (MFMA, WMMA) with some lanes of the wave off: the manuals
    /// leave its result undefined.
    PartialExec,
}

#[path = "matrix.rs"]
mod matrix;

/// One wavefront.
#[derive(Clone)]
pub struct Wave {
    /// Scalar registers by operand code.
    pub s: [u32; 128],
    /// SCC.
    pub scc: bool,
    /// VGPRs, row-major (`v[reg * 64 + lane]`).
    pub v: Vec<u32>,
    /// Index of the next instruction.
    pub pc: usize,
    /// Lanes (32 or 64).
    pub lanes: u32,
    /// Lanes that exist (a partial wave of a partial work-group has fewer).
    pub live: u64,
    /// Index of the wave in its work-group (scratch slot).
    pub index: u32,
    /// Wave-instructions executed.
    pub count: u64,
    /// Lane operations executed (active lanes of vector instructions).
    pub lane_ops: u64,
    /// Finished.
    pub done: bool,
    /// Byte offset of the wave's scratch from the queue's scratch base.
    pub scratch_offset: u64,
    /// The MODE register (round modes 3:0, denormal modes 7:4, DX10 clamp 8, IEEE 9).
    pub mode: u32,
    /// FLAT_SCRATCH on gfx10+, where it is no SGPR (s102/s103 are ordinary registers):
    /// set at dispatch when architected, else by `s_setreg` of `HW_REG_FLAT_SCR_LO/HI`.
    /// On gfx9 and earlier FLAT_SCRATCH is `s[102:103]` and this is unused.
    pub flat_scratch: u64,
    /// FLAT_SCRATCH is `s[102:103]` (gfx9 and earlier) rather than `flat_scratch`.
    pub flat_scratch_in_sgprs: bool,
}

impl Wave {
    /// A wave with all registers zero.
    pub fn new(lanes: u32) -> Wave {
        Wave {
            s: [0; 128],
            scc: false,
            v: vec![0; VROWS * LANES],
            pc: 0,
            lanes,
            live: 0,
            index: 0,
            count: 0,
            lane_ops: 0,
            done: false,
            scratch_offset: 0,
            // denormals kept, IEEE mode: what LLVM's default descriptor asks for
            mode: 0xf0 | 1 << 9,
            flat_scratch: 0,
            flat_scratch_in_sgprs: true,
        }
    }

    /// The lanes a vector operation computes: 32 or 64 (at most `LANES`).
    #[inline(always)]
    fn width(&self) -> usize {
        if self.lanes == 32 {
            32
        } else {
            LANES
        }
    }

    /// EXEC.
    #[inline(always)]
    pub fn exec(&self) -> u64 {
        if self.lanes == 32 {
            u64::from(self.s[126])
        } else {
            u64::from(self.s[126]) | u64::from(self.s[127]) << 32
        }
    }

    #[inline(always)]
    fn vcc(&self) -> u64 {
        if self.lanes == 32 {
            u64::from(self.s[106])
        } else {
            u64::from(self.s[106]) | u64::from(self.s[107]) << 32
        }
    }

    #[inline(always)]
    fn sread(&self, s: Src) -> u32 {
        match s {
            Src::S(c) => self.s[usize::from(c & 127)],
            Src::K(k) => k as u32,
            Src::Scc => u32::from(self.scc),
            Src::Vccz => u32::from(self.vcc() == 0),
            Src::Execz => u32::from(self.exec() == 0),
            Src::V(_) | Src::None => 0,
        }
    }

    #[inline(always)]
    fn sread64(&self, s: Src) -> u64 {
        match s {
            Src::S(c) => {
                let c = usize::from(c & 127);
                u64::from(self.s[c]) | u64::from(self.s[(c + 1) & 127]) << 32
            }
            Src::K(k) => k,
            other => u64::from(self.sread(other)),
        }
    }

    #[inline(always)]
    fn swrite(&mut self, d: Dst, v: u32) {
        if let Dst::S(c) = d {
            self.s[usize::from(c & 127)] = v;
        }
    }

    #[inline(always)]
    fn swrite64(&mut self, d: Dst, v: u64) {
        if let Dst::S(c) = d {
            let c = usize::from(c & 127);
            self.s[c] = v as u32;
            if self.lanes == 32 && (c == 106 || c == 126) {
                return;
            }
            self.s[(c + 1) & 127] = (v >> 32) as u32;
        }
    }

    /// A lane mask destination (VCC, an SGPR pair, or one SGPR in wave32).
    #[inline(always)]
    fn write_mask(&mut self, d: Dst, v: u64) {
        if self.lanes == 32 {
            self.swrite(d, v as u32);
        } else {
            self.swrite64(d, v);
        }
    }

    #[inline(always)]
    fn read_mask(&self, s: Src) -> u64 {
        if self.lanes == 32 {
            u64::from(self.sread(s))
        } else {
            self.sread64(s)
        }
    }

    /// A 32-bit source for every lane, borrowed: a VGPR row in place, a scalar or
    /// constant broadcast into `tmp` (no copy of the row, unlike [`Wave::gather`]).
    #[inline(always)]
    fn row<'a>(&'a self, s: Src, tmp: &'a mut [u32; LANES]) -> &'a [u32; LANES] {
        if let Src::V(r) = s {
            if let Some(row) = self.v[usize::from(r) * LANES..].first_chunk::<LANES>() {
                return row;
            }
        }
        *tmp = [self.sread(s); LANES];
        tmp
    }

    /// A 32-bit float source with its abs/neg modifiers (source `k`): borrowed when
    /// it has none, else a modified copy in `tmp`.
    #[inline(always)]
    fn frow<'a>(&'a self, i: &DInst, k: u32, tmp: &'a mut [u32; LANES]) -> &'a [u32; LANES] {
        if i.mods >> k & (1 << m::NEG | 1 << m::ABS) == 0 {
            self.row(i.src[k as usize], tmp)
        } else {
            self.gather(i.src[k as usize], tmp);
            fmods32(i, k, tmp);
            tmp
        }
    }

    /// Write a row of 32-bit results: all `width()` lanes at once when EXEC has them
    /// all, else lane by lane.
    #[inline(always)]
    fn put(&mut self, d: Dst, vals: &[u32; LANES], exec: u64) {
        if let Dst::V(r) = d {
            let b = usize::from(r) * LANES;
            let lanes = self.lanes;
            let Some(row) = self.v[b..].first_chunk_mut::<LANES>() else {
                return;
            };
            if lanes == 32 && exec == u64::from(u32::MAX) {
                row[..32].copy_from_slice(&vals[..32]);
            } else if exec == u64::MAX {
                *row = *vals;
            } else {
                for k in 0..LANES / 8 {
                    let e = &EXPAND[(exec >> (8 * k)) as usize & 255];
                    for j in 0..8 {
                        let l = 8 * k + j;
                        row[l] = (vals[l] & e[j]) | (row[l] & !e[j]);
                    }
                }
            }
        }
    }

    /// Gather a 32-bit source for every lane.
    #[inline(always)]
    fn gather(&self, s: Src, out: &mut [u32; LANES]) {
        match s {
            Src::V(r) => {
                let b = usize::from(r) * LANES;
                out.copy_from_slice(&self.v[b..b + LANES]);
            }
            other => *out = [self.sread(other); LANES],
        }
    }

    /// Gather a 64-bit source for every lane.
    #[inline(always)]
    fn gather64(&self, s: Src, out: &mut [u64; LANES]) {
        match s {
            Src::V(r) => {
                let b = usize::from(r) * LANES;
                let b2 = (usize::from(r) + 1) % VROWS * LANES;
                for l in 0..LANES {
                    out[l] = u64::from(self.v[b + l]) | u64::from(self.v[b2 + l]) << 32;
                }
            }
            other => *out = [self.sread64(other); LANES],
        }
    }

    /// Write 32-bit results to the lanes EXEC enables.
    #[inline(always)]
    fn scatter(&mut self, d: Dst, vals: &[u32; LANES], exec: u64) {
        if let Dst::V(r) = d {
            let b = usize::from(r) * LANES;
            let n = self.width();
            let row = &mut self.v[b..b + LANES];
            if exec == u64::MAX >> (LANES - n) {
                row[..n].copy_from_slice(&vals[..n]);
            } else {
                for l in 0..LANES {
                    if exec >> l & 1 != 0 {
                        row[l] = vals[l];
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn scatter64(&mut self, d: Dst, vals: &[u64; LANES], exec: u64) {
        if let Dst::V(r) = d {
            let b = usize::from(r) * LANES;
            let b2 = (usize::from(r) + 1) % VROWS * LANES;
            for l in 0..LANES {
                if exec >> l & 1 != 0 {
                    self.v[b + l] = vals[l] as u32;
                    self.v[b2 + l] = (vals[l] >> 32) as u32;
                }
            }
        }
    }
}

/// What a work-group's waves share while running.
pub struct Ctx<'a> {
    /// The program.
    pub prog: &'a Program,
    /// Global memory.
    pub mem: &'a mut Memory,
    /// The work-group's LDS.
    pub lds: &'a mut [u8],
    /// Flat shared and private aperture bases.
    pub apertures: (u64, u64),
    /// Instructions a wave may execute.
    pub budget: u64,
    /// Deterministic clock for `s_memtime`.
    pub clock: u64,
    /// Denormals flushed for f32 (MODE from the descriptor).
    pub ftz32: bool,
    /// Instruction indices executed by the traced wave.
    pub trace: Option<Vec<usize>>,
    /// With `trace`: return [`Stop::Step`] after each instruction.
    pub step: bool,
    /// (An instruction ran in this call, when stepping.)
    pub stepped: bool,
}

#[inline(always)]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}
#[inline(always)]
fn d(x: u64) -> f64 {
    f64::from_bits(x)
}

/// Source modifiers of float operands (abs, then neg), 32-bit.
#[inline(always)]
fn fmods32(i: &DInst, k: u32, v: &mut [u32; LANES]) {
    let mods = i.mods;
    let abs = mods >> (m::ABS + k) & 1 != 0;
    let neg = mods >> (m::NEG + k) & 1 != 0;
    if abs || neg {
        for x in v.iter_mut() {
            if abs {
                *x &= 0x7fff_ffff;
            }
            if neg {
                *x ^= 0x8000_0000;
            }
        }
    }
}

#[inline(always)]
fn fmods64(i: &DInst, k: u32, v: &mut [u64; LANES]) {
    let mods = i.mods;
    let abs = mods >> (m::ABS + k) & 1 != 0;
    let neg = mods >> (m::NEG + k) & 1 != 0;
    if abs || neg {
        for x in v.iter_mut() {
            if abs {
                *x &= !(1 << 63);
            }
            if neg {
                *x ^= 1 << 63;
            }
        }
    }
}

#[inline(always)]
fn flush32(x: f32, ftz: bool) -> f32 {
    // a zero exponent: a denormal (to a signed zero) or a zero (unchanged); no branch
    let u = x.to_bits();
    if ftz && u & 0x7f80_0000 == 0 {
        f32::from_bits(u & 0x8000_0000)
    } else {
        x
    }
}

/// f32 fused multiply-add, exactly rounded, without the libm call `f32::mul_add` is when
/// the build has no target FMA. The product of two f32 values is exact in f64, so
/// `a * b + c` in f64 is one rounding of the exact result; rounding that to f32 again
/// is the exact f32 rounding unless the f64 value is an f32 midpoint (the low 29
/// mantissa bits `0x1000_0000`; then the first rounding may have made the tie) or the
/// result is not a normal finite f32 (subnormal results round at a higher bit, and
/// NaN payloads are left to `mul_add`): those rare cases take `f32::mul_add`.
#[inline(always)]
fn fma32(a: f32, b: f32, c: f32) -> f32 {
    let r = f64::from(a) * f64::from(b) + f64::from(c);
    let u = r.to_bits();
    let e = (u >> 52) & 0x7ff;
    if (0x381..0x7ff).contains(&e) && u & 0x1fff_ffff != 0x1000_0000 {
        r as f32
    } else {
        a.mul_add(b, c)
    }
}

/// A two-source f32 operation `op` on every lane, as `fout32(op(flush32(a),
/// flush32(b)))` per lane, in a loop without branches: the flushes selected per lane,
/// the output modifiers applied afterwards when the instruction has any.
#[inline]
fn f2_lanes(w: &mut Wave, i: &DInst, ftz: bool, op: impl Fn(f32, f32) -> f32) {
    #[inline(always)]
    fn go<const FTZ: bool>(
        n: usize,
        a: &[u32; LANES],
        b: &[u32; LANES],
        r: &mut [u32; LANES],
        op: impl Fn(f32, f32) -> f32,
    ) {
        let fl = |u: u32| -> u32 {
            if FTZ && u & 0x7f80_0000 == 0 {
                u & 0x8000_0000
            } else {
                u
            }
        };
        for l in 0..n {
            r[l] = fl(op(f(fl(a[l])), f(fl(b[l]))).to_bits());
        }
    }
    let (mut ta, mut tb) = ([0u32; LANES], [0u32; LANES]);
    let mut r = [0u32; LANES];
    {
        let (a, b) = if i.mods & m::FLOAT != 0 {
            (w.frow(i, 0, &mut ta), w.frow(i, 1, &mut tb))
        } else {
            (w.row(i.src[0], &mut ta), w.row(i.src[1], &mut tb))
        };
        if ftz {
            go::<true>(w.width(), a, b, &mut r, op);
        } else {
            go::<false>(w.width(), a, b, &mut r, op);
        }
    }
    if i.mods & (3 << m::OMOD | m::CLAMP) != 0 {
        for x in r[..w.width()].iter_mut() {
            *x = fout32(i, f(*x), ftz);
        }
    }
    let ex = w.exec();
    w.put(i.dst, &r, ex);
}

/// [`fma32`] of the first `n` lanes with denormals flushed per `ftz`, then the output
/// modifiers ([`fout32`]): the same bits as `fout32(fma32(..))` per lane, but the f64
/// route's rare cases (see [`fma32`]) are looked for over the whole row and, when any
/// lane has one, the row is computed again lane by lane, so that the common loop has no
/// branch.
#[inline(always)]
fn fma_lanes(i: &DInst, n: usize, s: [&[u32; LANES]; 3], ftz: bool, r: &mut [u32; LANES]) {
    #[inline(always)]
    fn go<const FTZ: bool>(n: usize, [a, b, c]: [&[u32; LANES]; 3], r: &mut [u32; LANES]) {
        let fl = |u: u32| -> u32 {
            if FTZ && u & 0x7f80_0000 == 0 {
                u & 0x8000_0000
            } else {
                u
            }
        };
        let mut rare = false;
        for l in 0..n {
            let p = f64::from(f(fl(a[l]))) * f64::from(f(fl(b[l]))) + f64::from(f(fl(c[l])));
            let u = p.to_bits();
            let e = (u >> 52) & 0x7ff;
            rare |= !(0x381..0x7ff).contains(&e) | (u & 0x1fff_ffff == 0x1000_0000);
            r[l] = fl((p as f32).to_bits());
        }
        if rare {
            for l in 0..n {
                r[l] = fl(fma32(f(fl(a[l])), f(fl(b[l])), f(fl(c[l]))).to_bits());
            }
        }
    }
    if ftz {
        go::<true>(n, s, r);
    } else {
        go::<false>(n, s, r);
    }
    if i.mods & (3 << m::OMOD | m::CLAMP) != 0 {
        for x in r[..n].iter_mut() {
            *x = fout32(i, f(*x), ftz);
        }
    }
}

/// Output modifiers of a 32-bit float result: omod, then clamp to [0, 1].
#[inline(always)]
fn fout32(i: &DInst, x: f32, ftz: bool) -> u32 {
    let mut x = flush32(x, ftz);
    if i.mods & (3 << m::OMOD | m::CLAMP) == 0 {
        return x.to_bits();
    }
    match i.mods >> m::OMOD & 3 {
        1 => x *= 2.0,
        2 => x *= 4.0,
        3 => x *= 0.5,
        _ => {}
    }
    if i.mods & m::CLAMP != 0 {
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    x.to_bits()
}

#[inline(always)]
fn fout64(i: &DInst, mut x: f64) -> u64 {
    match i.mods >> m::OMOD & 3 {
        1 => x *= 2.0,
        2 => x *= 4.0,
        3 => x *= 0.5,
        _ => {}
    }
    if i.mods & m::CLAMP != 0 {
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    x.to_bits()
}

/// IEEE-754 minNum/maxNum: a quiet NaN operand loses to a number.
#[inline(always)]
fn fmin32(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        // -0 < +0
        f32::from_bits(a.to_bits() | b.to_bits())
    } else {
        a.min(b)
    }
}
#[inline(always)]
fn fmax32(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        f32::from_bits(a.to_bits() & b.to_bits())
    } else {
        a.max(b)
    }
}
#[inline(always)]
fn fmin64(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        f64::from_bits(a.to_bits() | b.to_bits())
    } else {
        a.min(b)
    }
}
#[inline(always)]
fn fmax64(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        f64::from_bits(a.to_bits() & b.to_bits())
    } else {
        a.max(b)
    }
}

/// f32 -> u32 conversion: round toward zero, NaN to 0, saturating.
fn cvt_u32(x: f32) -> u32 {
    x as u32
}
fn cvt_i32(x: f32) -> i32 {
    x as i32
}

/// Source `k` of a vector operation, borrowed: with its float modifiers when the
/// operation is a float one.
macro_rules! src_row {
    ($w:expr, $i:expr, $k:expr, $tmp:expr) => {
        if $i.mods & m::FLOAT != 0 {
            $w.frow($i, $k, $tmp)
        } else {
            $w.row($i.src[$k as usize], $tmp)
        }
    };
}

macro_rules! v1 {
    ($w:expr, $i:expr, |$a:ident| $e:expr) => {{
        let mut ta = [0u32; LANES];
        let mut r = [0u32; LANES];
        {
            let a = src_row!($w, $i, 0u32, &mut ta);
            for l in 0..$w.width() {
                let $a = a[l];
                r[l] = $e;
            }
        }
        let ex = $w.exec();
        $w.put($i.dst, &r, ex);
    }};
}

macro_rules! v2 {
    ($w:expr, $i:expr, |$a:ident, $b:ident| $e:expr) => {{
        let mut ta = [0u32; LANES];
        let mut tb = [0u32; LANES];
        let mut r = [0u32; LANES];
        {
            let a = src_row!($w, $i, 0u32, &mut ta);
            let b = src_row!($w, $i, 1u32, &mut tb);
            for l in 0..$w.width() {
                let $a = a[l];
                let $b = b[l];
                r[l] = $e;
            }
        }
        let ex = $w.exec();
        $w.put($i.dst, &r, ex);
    }};
}

macro_rules! v3 {
    ($w:expr, $i:expr, |$a:ident, $b:ident, $c:ident| $e:expr) => {{
        let mut ta = [0u32; LANES];
        let mut tb = [0u32; LANES];
        let mut tc = [0u32; LANES];
        let mut r = [0u32; LANES];
        {
            let a = src_row!($w, $i, 0u32, &mut ta);
            let b = src_row!($w, $i, 1u32, &mut tb);
            let c = src_row!($w, $i, 2u32, &mut tc);
            for l in 0..$w.width() {
                let $a = a[l];
                let $b = b[l];
                let $c = c[l];
                r[l] = $e;
            }
        }
        let ex = $w.exec();
        $w.put($i.dst, &r, ex);
    }};
}

/// A 64-bit result from 64-bit sources (`$k`: which sources are 64-bit is by op).
macro_rules! v64 {
    ($w:expr, $i:expr, |$a:ident, $b:ident, $c:ident| $e:expr) => {{
        let mut a = [0u64; LANES];
        let mut b = [0u64; LANES];
        let mut c = [0u64; LANES];
        $w.gather64($i.src[0], &mut a);
        $w.gather64($i.src[1], &mut b);
        if $i.src[2] != Src::None {
            $w.gather64($i.src[2], &mut c);
        }
        if $i.mods & m::FLOAT != 0 {
            fmods64($i, 0, &mut a);
            fmods64($i, 1, &mut b);
            fmods64($i, 2, &mut c);
        }
        let mut r = [0u64; LANES];
        for l in 0..LANES {
            let $a = a[l];
            let $b = b[l];
            let $c = c[l];
            r[l] = $e;
        }
        let ex = $w.exec();
        $w.scatter64($i.dst, &r, ex);
    }};
}

/// Carry-out operations: `$e` gives `(result, carry)`; the carry mask goes to `sdst`.
macro_rules! vcarry {
    ($w:expr, $i:expr, |$a:ident, $b:ident, $c:ident| $e:expr) => {{
        let (mut ta, mut tb) = ([0u32; LANES], [0u32; LANES]);
        let cin = if $i.src[2] != Src::None {
            $w.read_mask($i.src[2])
        } else {
            0
        };
        let ex = $w.exec();
        let mut r = [0u32; LANES];
        let mut bits = [0u8; LANES];
        {
            let a = $w.row($i.src[0], &mut ta);
            let b = $w.row($i.src[1], &mut tb);
            for l in 0..LANES {
                let $a = a[l];
                let $b = b[l];
                let $c = (cin >> l & 1) as u32;
                let (v, co): (u32, bool) = $e;
                r[l] = v;
                bits[l] = u8::from(co);
            }
        }
        $w.put($i.dst, &r, ex);
        $w.write_mask($i.sdst, pack_lanes(&bits) & ex);
    }};
}

/// Each byte value as eight lane masks (bit `j` set: lane `j` all ones), for selecting
/// lanes by a mask without a shift per lane.
static EXPAND: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut i = 0;
    while i < 256 {
        let mut j = 0;
        while j < 8 {
            if i >> j & 1 != 0 {
                t[i][j] = u32::MAX;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Per lane `if mask has the lane { b } else { a }`, for the first `n` lanes (a
/// multiple of 8).
#[inline(always)]
fn select_lanes(n: usize, mask: u64, a: &[u32; LANES], b: &[u32; LANES], r: &mut [u32; LANES]) {
    for k in 0..n / 8 {
        let e = &EXPAND[(mask >> (8 * k)) as usize & 255];
        for j in 0..8 {
            let l = 8 * k + j;
            r[l] = (b[l] & e[j]) | (a[l] & !e[j]);
        }
    }
}

/// A compare of the first `n` lanes as a lane mask, the condition matched once and
/// each lane compared by the same closure (the operands converted by `conv`): for
/// integers every pair is ordered, so the float forms of the conditions serve both.
// meant for floats: the negated conditions are true for unordered operands, `x == x`
// is false for a NaN, and `x < y || x > y` (ordered, not equal) is not `x != y`
#[allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::eq_op,
    clippy::double_comparisons
)]
#[inline]
fn cmp_mask<T: PartialOrd + Copy>(
    c: Cmp,
    n: usize,
    a: &[u32; LANES],
    b: &[u32; LANES],
    conv: impl Fn(u32) -> T + Copy,
) -> u64 {
    #[inline(always)]
    fn go<T: Copy>(
        n: usize,
        a: &[u32; LANES],
        b: &[u32; LANES],
        conv: impl Fn(u32) -> T,
        t: impl Fn(T, T) -> bool,
    ) -> u64 {
        let mut bits = [0u8; LANES];
        for l in 0..n {
            bits[l] = u8::from(t(conv(a[l]), conv(b[l])));
        }
        pack_lanes(&bits)
    }
    match c {
        Cmp::F => 0,
        Cmp::T => go(n, a, b, conv, |_, _| true),
        Cmp::Lt => go(n, a, b, conv, |x, y| x < y),
        Cmp::Eq => go(n, a, b, conv, |x, y| x == y),
        Cmp::Le => go(n, a, b, conv, |x, y| x <= y),
        Cmp::Gt => go(n, a, b, conv, |x, y| x > y),
        Cmp::Ne | Cmp::Lg => go(n, a, b, conv, |x, y| x < y || x > y),
        Cmp::Ge => go(n, a, b, conv, |x, y| x >= y),
        Cmp::O => go(n, a, b, conv, |x, y| x == x && y == y),
        Cmp::U => go(n, a, b, conv, |x, y| x != x || y != y),
        Cmp::Nge => go(n, a, b, conv, |x, y| !(x >= y)),
        Cmp::Nlg => go(n, a, b, conv, |x, y| !(x < y || x > y)),
        Cmp::Ngt => go(n, a, b, conv, |x, y| !(x > y)),
        Cmp::Nle => go(n, a, b, conv, |x, y| !(x <= y)),
        Cmp::Neq => go(n, a, b, conv, |x, y| x != y),
        Cmp::Nlt => go(n, a, b, conv, |x, y| !(x < y)),
    }
}

/// A lane mask from one byte per lane (each 0 or 1): eight lanes per multiplication,
/// which moves byte `k` of a word to bit `56 + k` without carries.
#[inline(always)]
fn pack_lanes(bits: &[u8; LANES]) -> u64 {
    let mut mask = 0u64;
    for (k, c) in bits.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        mask |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    mask
}

#[inline(always)]
fn sext64(v: u64, bits: u32) -> u64 {
    let s = 64 - bits;
    (((v << s) as i64) >> s) as u64
}

/// Run one wave until it ends, reaches a barrier, or fails.
pub fn run(w: &mut Wave, cx: &mut Ctx<'_>) -> Result<Stop, (usize, Fault)> {
    let prog = cx.prog;
    let insts = &prog.insts[..];
    loop {
        let pc = w.pc;
        let Some(i) = insts.get(pc) else {
            return Err((pc.saturating_sub(1), Fault::BadJump(0)));
        };
        w.count += 1;
        if w.count > cx.budget {
            return Err((pc, Fault::Budget(cx.budget)));
        }
        w.pc = pc + 1;
        if let Some(t) = &mut cx.trace {
            if cx.step && cx.stepped {
                // one instruction a call: give this one back
                w.pc = pc;
                w.count -= 1;
                cx.stepped = false;
                return Ok(Stop::Step);
            }
            cx.stepped = true;
            t.push(pc);
        }
        let r = if i.mods & (m::SDWA | m::DPP | m::VOPD | m::SALU) == 0 {
            step(w, cx, i)
        } else if i.mods & m::SALU != 0 {
            step_salu(w, cx, i)
        } else if i.mods & m::VOPD != 0 {
            let mut x = *i;
            x.mods &= !m::VOPD;
            match prog.vopd_y.get(i.imm2 as usize) {
                Some(y) => step_vopd(w, cx, &x, y),
                None => Err(Fault::Invalid),
            }
        } else {
            step_sdwa_dpp(w, cx, i)
        };
        match r {
            Ok(None) => {}
            Ok(Some(stop)) => return Ok(stop),
            Err(f) => return Err((pc, f)),
        }
    }
}

/// A VOPD pair: both halves read their sources before either writes. clang pairs
/// `v_dual_mov_b32 v12, v2 :: v_dual_add_nc_u32 v1, v12, v1` (gfx1200, ocml's sin/cos
/// argument reduction) where the Y half reads the v12 of before the X half's write;
/// the Y half cannot write a source of X after X has run, so X runs first and, when Y
/// reads X's destination, with that register's old value in place.
fn step_vopd(w: &mut Wave, cx: &mut Ctx<'_>, x: &DInst, y: &DInst) -> Result<Option<Stop>, Fault> {
    let Dst::V(xd) = x.dst else {
        return Err(Fault::Invalid);
    };
    if !y.src.contains(&Src::V(xd)) {
        step(w, cx, x)?;
        return step(w, cx, y);
    }
    let row = usize::from(xd) * LANES..usize::from(xd) * LANES + LANES;
    let old: Vec<u32> = w.v[row.clone()].to_vec();
    step(w, cx, x)?;
    let new: Vec<u32> = w.v[row.clone()].to_vec();
    w.v[row.clone()].copy_from_slice(&old);
    step(w, cx, y)?;
    w.v[row].copy_from_slice(&new);
    Ok(None)
}

#[inline(always)]
fn branch(w: &mut Wave, i: &DInst, taken: bool) -> Result<Option<Stop>, Fault> {
    if taken {
        if i.imm < 0 {
            return Err(Fault::BadJump(0));
        }
        w.pc = i.imm as usize;
    }
    Ok(None)
}

fn jump(w: &mut Wave, prog: &Program, addr: u64) -> Result<(), Fault> {
    match prog.index_of(addr) {
        Some(ix) => {
            w.pc = ix;
            Ok(())
        }
        None => Err(Fault::BadJump(addr)),
    }
}

/// One instruction.
#[inline(always)]
fn step(w: &mut Wave, cx: &mut Ctx<'_>, i: &DInst) -> Result<Option<Stop>, Fault> {
    let ex = w.exec();
    // (scalar operations, branches and the like never have a vector destination)
    if let Dst::V(_) = i.dst {
        w.lane_ops += u64::from(ex.count_ones());
    }
    macro_rules! s2 {
        (|$a:ident, $b:ident| $e:expr) => {{
            let $a = w.sread(i.src[0]);
            let $b = w.sread(i.src[1]);
            let (r, scc): (u32, Option<bool>) = $e;
            w.swrite(i.dst, r);
            if let Some(c) = scc {
                w.scc = c;
            }
        }};
    }
    macro_rules! s2_64 {
        (|$a:ident, $b:ident| $e:expr) => {{
            let $a = w.sread64(i.src[0]);
            let $b = w.sread64(i.src[1]);
            let r: u64 = $e;
            w.swrite64(i.dst, r);
            w.scc = r != 0;
        }};
    }
    macro_rules! scmp {
        (|$a:ident, $b:ident| $e:expr) => {{
            let $a = w.sread(i.src[0]);
            let $b = w.sread(i.src[1]);
            w.scc = $e;
        }};
    }
    macro_rules! saveexec {
        (|$s:ident, $e:ident| $x:expr) => {{
            let $s = w.sread64(i.src[0]);
            let $e = w.exec();
            w.swrite64(i.dst, $e);
            let n: u64 = $x;
            w.swrite64(Dst::S(126), n);
            w.scc = n != 0;
        }};
    }
    let ftz = w.mode >> 4 & 3 != 3;
    let _ = cx.ftz32;
    match i.op {
        Op::Unimplemented => return Err(Fault::Unimplemented),
        Op::Invalid => return Err(Fault::Invalid),
        Op::SNop => {}
        Op::SEndpgm => {
            w.done = true;
            return Ok(Some(Stop::Ended));
        }
        Op::SBarrier => return Ok(Some(Stop::Barrier)),
        Op::STrap => return Err(Fault::Trap(i.imm as u32 & 0xff)),
        Op::SBranch => return branch(w, i, true),
        Op::SCbranchScc0 => return branch(w, i, !w.scc),
        Op::SCbranchScc1 => return branch(w, i, w.scc),
        Op::SCbranchVccz => return branch(w, i, w.vcc() == 0),
        Op::SCbranchVccnz => return branch(w, i, w.vcc() != 0),
        Op::SCbranchExecz => return branch(w, i, ex == 0),
        Op::SCbranchExecnz => return branch(w, i, ex != 0),
        // ---- SOP1
        Op::SMovB32 => {
            let v = w.sread(i.src[0]);
            w.swrite(i.dst, v);
        }
        Op::SMovB64 => {
            let v = w.sread64(i.src[0]);
            w.swrite64(i.dst, v);
        }
        Op::SCmovB32 => {
            if w.scc {
                let v = w.sread(i.src[0]);
                w.swrite(i.dst, v);
            }
        }
        Op::SCmovB64 => {
            if w.scc {
                let v = w.sread64(i.src[0]);
                w.swrite64(i.dst, v);
            }
        }
        Op::SNotB32 => s2!(|a, _b| (!a, Some(!a != 0))),
        Op::SNotB64 => {
            let r = !w.sread64(i.src[0]);
            w.swrite64(i.dst, r);
            w.scc = r != 0;
        }
        Op::SBrevB32 => s2!(|a, _b| (a.reverse_bits(), None)),
        Op::SBcnt1B32 => s2!(|a, _b| (a.count_ones(), Some(a != 0))),
        Op::SBcnt1B64 => {
            let a = w.sread64(i.src[0]);
            w.swrite(i.dst, a.count_ones());
            w.scc = a != 0;
        }
        Op::SFf1B32 => s2!(|a, _b| (if a == 0 { u32::MAX } else { a.trailing_zeros() }, None)),
        Op::SFf1B64 => {
            let a = w.sread64(i.src[0]);
            w.swrite(i.dst, if a == 0 { u32::MAX } else { a.trailing_zeros() });
        }
        Op::SFlbitB32 => s2!(|a, _b| (if a == 0 { u32::MAX } else { a.leading_zeros() }, None)),
        Op::SSextI8 => s2!(|a, _b| (a as u8 as i8 as i32 as u32, None)),
        Op::SSextI16 => s2!(|a, _b| (a as u16 as i16 as i32 as u32, None)),
        Op::SAbsI32 => s2!(|a, _b| {
            let r = (a as i32).wrapping_abs() as u32;
            (r, Some(r != 0))
        }),
        Op::SGetpcB64 => {
            let next = cx.prog.addr.get(w.pc).copied().unwrap_or(0);
            w.swrite64(i.dst, next);
        }
        Op::SSetpcB64 => {
            let a = w.sread64(i.src[0]);
            jump(w, cx.prog, a)?;
        }
        Op::SSwappcB64 => {
            let a = w.sread64(i.src[0]);
            let next = cx.prog.addr.get(w.pc).copied().unwrap_or(0);
            w.swrite64(i.dst, next);
            jump(w, cx.prog, a)?;
        }
        Op::SAndSaveexecB64 => saveexec!(|s, e| s & e),
        Op::SOrSaveexecB64 => saveexec!(|s, e| s | e),
        Op::SXorSaveexecB64 => saveexec!(|s, e| s ^ e),
        Op::SAndn2SaveexecB64 => saveexec!(|s, e| s & !e),
        Op::SOrn2SaveexecB64 => saveexec!(|s, e| s | !e),
        Op::SAndSaveexecB32 | Op::SOrSaveexecB32 | Op::SXorSaveexecB32 | Op::SAndn2SaveexecB32 => {
            let s = w.sread(i.src[0]);
            let e = w.s[126];
            w.swrite(i.dst, e);
            let n = match i.op {
                Op::SAndSaveexecB32 => s & e,
                Op::SOrSaveexecB32 => s | e,
                Op::SXorSaveexecB32 => s ^ e,
                _ => s & !e,
            };
            w.s[126] = n;
            w.scc = n != 0;
        }
        // ---- SOP2
        Op::SAddU32 => s2!(|a, b| {
            let (r, c) = a.overflowing_add(b);
            (r, Some(c))
        }),
        Op::SSubU32 => s2!(|a, b| {
            let (r, c) = a.overflowing_sub(b);
            (r, Some(c))
        }),
        // gfx12 64-bit adds without a carry: SCC unchanged
        Op::SAddNcU64 => {
            let r = w.sread64(i.src[0]).wrapping_add(w.sread64(i.src[1]));
            w.swrite64(i.dst, r);
        }
        Op::SSubNcU64 => {
            let r = w.sread64(i.src[0]).wrapping_sub(w.sread64(i.src[1]));
            w.swrite64(i.dst, r);
        }
        Op::SAddcU32 => {
            let cin = u64::from(w.scc);
            s2!(|a, b| {
                let t = u64::from(a) + u64::from(b) + cin;
                (t as u32, Some(t >> 32 != 0))
            })
        }
        Op::SSubbU32 => {
            let cin = u64::from(w.scc);
            s2!(|a, b| {
                let t = u64::from(a).wrapping_sub(u64::from(b)).wrapping_sub(cin);
                (t as u32, Some(u64::from(b) + cin > u64::from(a)))
            })
        }
        Op::SAddI32 => s2!(|a, b| {
            let (r, o) = (a as i32).overflowing_add(b as i32);
            (r as u32, Some(o))
        }),
        Op::SSubI32 => s2!(|a, b| {
            let (r, o) = (a as i32).overflowing_sub(b as i32);
            (r as u32, Some(o))
        }),
        Op::SMulI32 => s2!(|a, b| (a.wrapping_mul(b), None)),
        Op::SMulHiU32 => s2!(|a, b| (((u64::from(a) * u64::from(b)) >> 32) as u32, None)),
        Op::SMulHiI32 => s2!(|a, b| (
            ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
            None
        )),
        Op::SAndB32 => s2!(|a, b| (a & b, Some(a & b != 0))),
        Op::SOrB32 => s2!(|a, b| (a | b, Some(a | b != 0))),
        Op::SXorB32 => s2!(|a, b| (a ^ b, Some(a ^ b != 0))),
        Op::SAndn2B32 => s2!(|a, b| (a & !b, Some(a & !b != 0))),
        Op::SOrn2B32 => s2!(|a, b| (a | !b, Some(a | !b != 0))),
        Op::SNandB32 => s2!(|a, b| (!(a & b), Some(!(a & b) != 0))),
        Op::SNorB32 => s2!(|a, b| (!(a | b), Some(!(a | b) != 0))),
        Op::SXnorB32 => s2!(|a, b| (!(a ^ b), Some(!(a ^ b) != 0))),
        Op::SAndB64 => s2_64!(|a, b| a & b),
        Op::SOrB64 => s2_64!(|a, b| a | b),
        Op::SXorB64 => s2_64!(|a, b| a ^ b),
        Op::SAndn2B64 => s2_64!(|a, b| a & !b),
        Op::SOrn2B64 => s2_64!(|a, b| a | !b),
        Op::SNandB64 => s2_64!(|a, b| !(a & b)),
        Op::SNorB64 => s2_64!(|a, b| !(a | b)),
        Op::SXnorB64 => s2_64!(|a, b| !(a ^ b)),
        Op::SLshlB32 => s2!(|a, b| {
            let r = a << (b & 31);
            (r, Some(r != 0))
        }),
        Op::SLshrB32 => s2!(|a, b| {
            let r = a >> (b & 31);
            (r, Some(r != 0))
        }),
        Op::SAshrI32 => s2!(|a, b| {
            let r = ((a as i32) >> (b & 31)) as u32;
            (r, Some(r != 0))
        }),
        Op::SLshlB64 | Op::SLshrB64 | Op::SAshrI64 => {
            let a = w.sread64(i.src[0]);
            let b = w.sread(i.src[1]) & 63;
            let r = match i.op {
                Op::SLshlB64 => a << b,
                Op::SLshrB64 => a >> b,
                _ => ((a as i64) >> b) as u64,
            };
            w.swrite64(i.dst, r);
            w.scc = r != 0;
        }
        Op::SLshl1AddU32 | Op::SLshl2AddU32 | Op::SLshl3AddU32 | Op::SLshl4AddU32 => {
            let n = match i.op {
                Op::SLshl1AddU32 => 1,
                Op::SLshl2AddU32 => 2,
                Op::SLshl3AddU32 => 3,
                _ => 4,
            };
            s2!(|a, b| {
                let t = (u64::from(a) << n) + u64::from(b);
                (t as u32, Some(t >> 32 != 0))
            })
        }
        Op::SMinI32 => s2!(|a, b| (
            (a as i32).min(b as i32) as u32,
            Some((a as i32) < (b as i32))
        )),
        Op::SMinU32 => s2!(|a, b| (a.min(b), Some(a < b))),
        Op::SMaxI32 => s2!(|a, b| (
            (a as i32).max(b as i32) as u32,
            Some((a as i32) > (b as i32))
        )),
        Op::SMaxU32 => s2!(|a, b| (a.max(b), Some(a > b))),
        Op::SCselectB32 => {
            let sc = w.scc;
            s2!(|a, b| (if sc { a } else { b }, None))
        }
        Op::SCselectB64 => {
            let a = w.sread64(i.src[0]);
            let b = w.sread64(i.src[1]);
            let r = if w.scc { a } else { b };
            w.swrite64(i.dst, r);
        }
        Op::SBfeU32 => s2!(|a, b| {
            let off = b & 31;
            let width = (b >> 16) & 0x7f;
            let r = if width == 0 {
                0
            } else {
                ((u64::from(a) >> off) & ((1u64 << width.min(32)) - 1)) as u32
            };
            (r, Some(r != 0))
        }),
        Op::SBfeI32 => s2!(|a, b| {
            let off = b & 31;
            let width = (b >> 16) & 0x7f;
            let r = if width == 0 {
                0
            } else {
                let x = a >> off;
                let wdt = width.min(32);
                (((x << (32 - wdt)) as i32) >> (32 - wdt)) as u32
            };
            (r, Some(r != 0))
        }),
        Op::SBfmB32 => s2!(|a, b| ((((1u64 << (a & 31)) - 1) as u32) << (b & 31), None)),
        Op::SPackLlB32B16 => s2!(|a, b| ((a & 0xffff) | (b << 16), None)),
        Op::SAbsdiffI32 => s2!(|a, b| {
            let r = (a as i32).wrapping_sub(b as i32).wrapping_abs() as u32;
            (r, Some(r != 0))
        }),
        // ---- SOPK (src0 = sdst, src1 = the constant)
        Op::SMovkI32 => {
            let v = w.sread(i.src[1]);
            w.swrite(i.dst, v);
        }
        Op::SCmovkI32 => {
            if w.scc {
                let v = w.sread(i.src[1]);
                w.swrite(i.dst, v);
            }
        }
        Op::SAddkI32 => s2!(|a, b| {
            let (r, o) = (a as i32).overflowing_add(b as i32);
            (r as u32, Some(o))
        }),
        Op::SMulkI32 => s2!(|a, b| (a.wrapping_mul(b), None)),
        Op::SCmpkEqI32 | Op::SCmpEqI32 => scmp!(|a, b| a == b),
        Op::SCmpkLgI32 | Op::SCmpLgI32 => scmp!(|a, b| a != b),
        Op::SCmpkGtI32 | Op::SCmpGtI32 => scmp!(|a, b| (a as i32) > (b as i32)),
        Op::SCmpkGeI32 | Op::SCmpGeI32 => scmp!(|a, b| (a as i32) >= (b as i32)),
        Op::SCmpkLtI32 | Op::SCmpLtI32 => scmp!(|a, b| (a as i32) < (b as i32)),
        Op::SCmpkLeI32 | Op::SCmpLeI32 => scmp!(|a, b| (a as i32) <= (b as i32)),
        Op::SCmpkEqU32 | Op::SCmpEqU32 => scmp!(|a, b| a == b),
        Op::SCmpkLgU32 | Op::SCmpLgU32 => scmp!(|a, b| a != b),
        Op::SCmpkGtU32 | Op::SCmpGtU32 => scmp!(|a, b| a > b),
        Op::SCmpkGeU32 | Op::SCmpGeU32 => scmp!(|a, b| a >= b),
        Op::SCmpkLtU32 | Op::SCmpLtU32 => scmp!(|a, b| a < b),
        Op::SCmpkLeU32 | Op::SCmpLeU32 => scmp!(|a, b| a <= b),
        Op::SCmpEqU64 => w.scc = w.sread64(i.src[0]) == w.sread64(i.src[1]),
        Op::SCmpLgU64 => w.scc = w.sread64(i.src[0]) != w.sread64(i.src[1]),
        Op::SBitcmp0B32 => scmp!(|a, b| a >> (b & 31) & 1 == 0),
        Op::SBitcmp1B32 => scmp!(|a, b| a >> (b & 31) & 1 == 1),
        // ---- SMEM
        Op::SLoad => {
            let base = w.sread64(i.src[0]) & 0xffff_ffff_ffff;
            let mut off = i.imm as u64;
            if i.mods & m::SOFF != 0 {
                off = u64::from(w.sread(i.src[1]));
            }
            if i.src[2] != Src::None {
                off = off.wrapping_add(u64::from(w.sread(i.src[2])));
            }
            // the dword address: the low two bits are ignored
            let addr = base.wrapping_add(off) & !3;
            if let Dst::S(c) = i.dst {
                for k in 0..i.imm2 as usize {
                    let a = addr + 4 * k as u64;
                    let v = cx.mem.read_u32(a).map_err(|Unmapped(x)| Fault::Memory {
                        addr: x,
                        lane: None,
                        space: "global (scalar)",
                    })?;
                    w.s[(usize::from(c) + k) & 127] = v;
                }
            }
        }
        Op::SMemtime | Op::SMemrealtime => {
            cx.clock += 1;
            let t = cx.clock + w.count;
            w.swrite64(i.dst, t);
        }
        // ---- VALU integer
        Op::VMovB32 | Op::VAccvgprMov => v1!(w, i, |a| a),
        Op::VDot2F32F16 => matrix::dot2_f32_f16(w, i, false, ftz),
        Op::VDot2cF32F16 => matrix::dot2_f32_f16(w, i, true, ftz),
        Op::VDot4I32I8 => matrix::dot4_i32_i8(w, i, false),
        Op::VDot4cI32I8 => matrix::dot4_i32_i8(w, i, true),
        Op::VMfmaF32x16x16x4F32 => matrix::mfma_f32_16x16x4_f32(w, i)?,
        Op::VMfmaF64x16x16x4F64 => matrix::mfma_f64_16x16x4_f64(w, i)?,
        Op::VWmmaF32x16x16x16F16 => matrix::wmma_f32_16x16x16_f16(w, i, i.sub == 1)?,
        Op::VMovB64 => {
            let mut a = [0u64; LANES];
            w.gather64(i.src[0], &mut a);
            w.scatter64(i.dst, &a, ex);
        }
        Op::VNotB32 => v1!(w, i, |a| !a),
        Op::VBfrevB32 => v1!(w, i, |a| a.reverse_bits()),
        Op::VFfbhU32 => v1!(w, i, |a| if a == 0 { u32::MAX } else { a.leading_zeros() }),
        Op::VFfblB32 => v1!(w, i, |a| if a == 0 { u32::MAX } else { a.trailing_zeros() }),
        Op::VFfbhI32 => v1!(w, i, |a| {
            let x = if (a as i32) < 0 { !a } else { a };
            if a == 0 || a == u32::MAX {
                u32::MAX
            } else {
                // the count of leading bits equal to the sign bit (the manual's
                // loop from bit 31 down, which includes the sign bit itself)
                x.leading_zeros()
            }
        }),
        Op::VReadfirstlaneB32 => {
            let lane = if ex == 0 {
                0
            } else {
                ex.trailing_zeros() as usize
            };
            let v = match i.src[0] {
                Src::V(r) => w.v[usize::from(r) * LANES + lane],
                s => w.sread(s),
            };
            w.swrite(i.dst, v);
        }
        Op::VReadlaneB32 => {
            let lane = (w.sread(i.src[1]) % w.lanes) as usize;
            let v = match i.src[0] {
                Src::V(r) => w.v[usize::from(r) * LANES + lane],
                s => w.sread(s),
            };
            w.swrite(i.dst, v);
        }
        Op::VWritelaneB32 => {
            let v = w.sread(i.src[0]);
            let lane = (w.sread(i.src[1]) % w.lanes) as usize;
            if let Dst::V(r) = i.dst {
                w.v[usize::from(r) * LANES + lane] = v;
            }
        }
        Op::VPermlane16B32 | Op::VPermlanex16B32 => {
            // each lane reads lane `sel` of its row of 16 (permlanex16: of the other row
            // of its 32-lane half); sel = 4 bits per lane of {S2, S1}. A disabled source
            // lane gives 0 with bound_ctrl (op_sel[1]) or leaves D alone, unless FI
            // (op_sel[0]) fetches it anyway.
            let sel = u64::from(w.sread(i.src[1])) | u64::from(w.sread(i.src[2])) << 32;
            let fi = i.mods >> m::OPSEL & 1 != 0;
            let bound = i.mods >> (m::OPSEL + 1) & 1 != 0;
            let mut a = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            let mut r = [0u32; LANES];
            if let Dst::V(row) = i.dst {
                w.gather(Src::V(row), &mut r);
            }
            for l in 0..w.lanes as usize {
                let row = if i.op == Op::VPermlanex16B32 {
                    (l & !15) ^ 16
                } else {
                    l & !15
                };
                let from = row + (sel >> ((l & 15) * 4) & 15) as usize;
                if fi || ex >> from & 1 != 0 {
                    r[l] = a[from];
                } else if bound {
                    r[l] = 0;
                }
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::VCndmaskB32 => {
            let mask = w.read_mask(i.src[2]);
            let (mut ta, mut tb) = ([0u32; LANES], [0u32; LANES]);
            let mut r = [0u32; LANES];
            {
                let a = w.frow(i, 0, &mut ta);
                let b = w.frow(i, 1, &mut tb);
                select_lanes(w.width(), mask, a, b, &mut r);
            }
            w.put(i.dst, &r, ex);
        }
        Op::VAddU32 => v2!(w, i, |a, b| a.wrapping_add(b)),
        Op::VSubU32 => v2!(w, i, |a, b| a.wrapping_sub(b)),
        Op::VSubrevU32 => v2!(w, i, |a, b| b.wrapping_sub(a)),
        Op::VAddCoU32 => vcarry!(w, i, |a, b, _c| a.overflowing_add(b)),
        Op::VSubCoU32 => vcarry!(w, i, |a, b, _c| a.overflowing_sub(b)),
        Op::VSubrevCoU32 => vcarry!(w, i, |a, b, _c| b.overflowing_sub(a)),
        Op::VAddcCoU32 => vcarry!(w, i, |a, b, c| {
            let t = u64::from(a) + u64::from(b) + u64::from(c);
            (t as u32, t >> 32 != 0)
        }),
        Op::VSubbCoU32 => vcarry!(w, i, |a, b, c| {
            let t = u64::from(a).wrapping_sub(u64::from(b) + u64::from(c));
            (t as u32, u64::from(b) + u64::from(c) > u64::from(a))
        }),
        Op::VSubbrevCoU32 => vcarry!(w, i, |a, b, c| {
            let t = u64::from(b).wrapping_sub(u64::from(a) + u64::from(c));
            (t as u32, u64::from(a) + u64::from(c) > u64::from(b))
        }),
        Op::VAndB32 => v2!(w, i, |a, b| a & b),
        Op::VOrB32 => v2!(w, i, |a, b| a | b),
        Op::VXorB32 => v2!(w, i, |a, b| a ^ b),
        Op::VLshlrevB32 => v2!(w, i, |a, b| b << (a & 31)),
        Op::VLshrrevB32 => v2!(w, i, |a, b| b >> (a & 31)),
        Op::VAshrrevI32 => v2!(w, i, |a, b| ((b as i32) >> (a & 31)) as u32),
        Op::VLshlrevB64 | Op::VLshrrevB64 | Op::VAshrrevI64 => {
            let mut a = [0u32; LANES];
            let mut b = [0u64; LANES];
            w.gather(i.src[0], &mut a);
            w.gather64(i.src[1], &mut b);
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                let s = a[l] & 63;
                r[l] = match i.op {
                    Op::VLshlrevB64 => b[l] << s,
                    Op::VLshrrevB64 => b[l] >> s,
                    _ => ((b[l] as i64) >> s) as u64,
                };
            }
            w.scatter64(i.dst, &r, ex);
        }
        Op::VLshlAddU32 => v3!(w, i, |a, b, c| (a << (b & 31)).wrapping_add(c)),
        Op::VAddLshlU32 => v3!(w, i, |a, b, c| a.wrapping_add(b) << (c & 31)),
        Op::VLshlOrB32 => v3!(w, i, |a, b, c| (a << (b & 31)) | c),
        Op::VAndOrB32 => v3!(w, i, |a, b, c| (a & b) | c),
        Op::VOr3B32 => v3!(w, i, |a, b, c| a | b | c),
        Op::VXor3B32 => v3!(w, i, |a, b, c| a ^ b ^ c),
        Op::VXadU32 => v3!(w, i, |a, b, c| (a ^ b).wrapping_add(c)),
        Op::VAdd3U32 => v3!(w, i, |a, b, c| a.wrapping_add(b).wrapping_add(c)),
        Op::VMulLoU32 => v2!(w, i, |a, b| a.wrapping_mul(b)),
        Op::VMulHiU32 => v2!(w, i, |a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32),
        Op::VMulHiI32 => v2!(
            w,
            i,
            |a, b| ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
        ),
        Op::VMulU32U24 => v2!(w, i, |a, b| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)),
        Op::VMulHiU32U24 => v2!(
            w,
            i,
            |a, b| ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32
        ),
        Op::VMulI32I24 => v2!(w, i, |a, b| (((a << 8) as i32 >> 8)
            .wrapping_mul((b << 8) as i32 >> 8))
            as u32),
        Op::VMadU32U24 => v3!(w, i, |a, b, c| (a & 0xff_ffff)
            .wrapping_mul(b & 0xff_ffff)
            .wrapping_add(c)),
        Op::VMadI32I24 => v3!(w, i, |a, b, c| (((a << 8) as i32 >> 8)
            .wrapping_mul((b << 8) as i32 >> 8)
            as u32)
            .wrapping_add(c)),
        Op::VMadU64U32 | Op::VMadI64I32 => {
            let mut a = [0u32; LANES];
            let mut b = [0u32; LANES];
            let mut c = [0u64; LANES];
            w.gather(i.src[0], &mut a);
            w.gather(i.src[1], &mut b);
            w.gather64(i.src[2], &mut c);
            let mut r = [0u64; LANES];
            let mut mask = 0u64;
            for l in 0..LANES {
                let (v, o) = if i.op == Op::VMadU64U32 {
                    (u128::from(a[l]) * u128::from(b[l]) + u128::from(c[l]))
                        .to_le_bytes()
                        .split_at(8)
                        .0
                        .try_into()
                        .map(|x: [u8; 8]| {
                            let t = u128::from(a[l]) * u128::from(b[l]) + u128::from(c[l]);
                            (u64::from_le_bytes(x), t >> 64 != 0)
                        })
                        .unwrap_or((0, false))
                } else {
                    let t =
                        i128::from(a[l] as i32) * i128::from(b[l] as i32) + i128::from(c[l] as i64);
                    (t as u64, t != i128::from(t as i64))
                };
                r[l] = v;
                mask |= u64::from(o) << l;
            }
            w.scatter64(i.dst, &r, ex);
            w.write_mask(i.sdst, mask & ex);
        }
        Op::VLshlAddU64 => {
            let mut a = [0u64; LANES];
            let mut b = [0u32; LANES];
            let mut c = [0u64; LANES];
            w.gather64(i.src[0], &mut a);
            w.gather(i.src[1], &mut b);
            w.gather64(i.src[2], &mut c);
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                // shift counts 0-4 (larger ones are not defined by the manual: taken
                // modulo 64 here)
                r[l] = (a[l] << (b[l] & 63)).wrapping_add(c[l]);
            }
            w.scatter64(i.dst, &r, ex);
        }
        Op::VMinI32 => v2!(w, i, |a, b| (a as i32).min(b as i32) as u32),
        Op::VMaxI32 => v2!(w, i, |a, b| (a as i32).max(b as i32) as u32),
        Op::VMinU32 => v2!(w, i, |a, b| a.min(b)),
        Op::VMaxU32 => v2!(w, i, |a, b| a.max(b)),
        Op::VBfeU32 => v3!(w, i, |a, b, c| {
            let off = b & 31;
            let wd = c & 31;
            if wd == 0 {
                0
            } else {
                (a >> off) & ((1u32 << wd).wrapping_sub(1))
            }
        }),
        Op::VBfeI32 => v3!(w, i, |a, b, c| {
            let off = b & 31;
            let wd = c & 31;
            if wd == 0 {
                0
            } else if off + wd < 32 {
                (((a << (32 - off - wd)) as i32) >> (32 - wd)) as u32
            } else {
                ((a as i32) >> off) as u32
            }
        }),
        Op::VBfiB32 => v3!(w, i, |a, b, c| (a & b) | (!a & c)),
        Op::VBfmB32 => v2!(w, i, |a, b| ((1u32 << (a & 31)).wrapping_sub(1))
            << (b & 31)),
        Op::VAlignbitB32 => v3!(
            w,
            i,
            |a, b, c| ((u64::from(a) << 32 | u64::from(b)) >> (c & 31)) as u32
        ),
        Op::VAlignbyteB32 => v3!(w, i, |a, b, c| ((u64::from(a) << 32 | u64::from(b))
            >> (8 * (c & 3))) as u32),
        Op::VPermB32 => v3!(w, i, |a, b, c| {
            let bytes = (u64::from(a) << 32 | u64::from(b)).to_le_bytes();
            let mut r = 0u32;
            for k in 0..4 {
                let sel = (c >> (8 * k)) & 0xff;
                let byte: u32 = match sel {
                    0..=7 => u32::from(bytes[sel as usize]),
                    8 => {
                        if bytes[1] & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    }
                    9 => {
                        if bytes[3] & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    }
                    10 => {
                        if bytes[5] & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    }
                    11 => {
                        if bytes[7] & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    }
                    12 => 0,
                    _ => 0xff,
                };
                r |= byte << (8 * k);
            }
            r
        }),
        Op::VBcntU32B32 => v2!(w, i, |a, b| a.count_ones().wrapping_add(b)),
        Op::VMbcntLoU32B32 => {
            let mut a = [0u32; LANES];
            let mut b = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            w.gather(i.src[1], &mut b);
            let mut r = [0u32; LANES];
            for l in 0..LANES {
                let below = if l >= 32 { u32::MAX } else { (1u32 << l) - 1 };
                r[l] = (a[l] & below).count_ones().wrapping_add(b[l]);
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::VMbcntHiU32B32 => {
            let mut a = [0u32; LANES];
            let mut b = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            w.gather(i.src[1], &mut b);
            let mut r = [0u32; LANES];
            for l in 0..LANES {
                let below = if l < 32 {
                    0
                } else {
                    ((1u64 << (l - 32)) - 1) as u32
                };
                r[l] = (a[l] & below).count_ones().wrapping_add(b[l]);
            }
            w.scatter(i.dst, &r, ex);
        }
        // ---- VALU f32
        Op::VAddF32 => f2_lanes(w, i, ftz, |a, b| a + b),
        Op::VSubF32 => f2_lanes(w, i, ftz, |a, b| a - b),
        Op::VSubrevF32 => f2_lanes(w, i, ftz, |a, b| b - a),
        Op::VMulF32 => f2_lanes(w, i, ftz, |a, b| a * b),
        Op::VFmaF32 => {
            let (mut ta, mut tb, mut tc) = ([0u32; LANES], [0u32; LANES], [0u32; LANES]);
            let mut r = [0u32; LANES];
            {
                let a = src_row!(w, i, 0u32, &mut ta);
                let b = src_row!(w, i, 1u32, &mut tb);
                let c = src_row!(w, i, 2u32, &mut tc);
                fma_lanes(i, w.width(), [a, b, c], ftz, &mut r);
            }
            w.put(i.dst, &r, ex);
        }
        Op::VMadF32 => v3!(w, i, |a, b, c| fout32(
            i,
            flush32(flush32(f(a), true) * flush32(f(b), true), true) + flush32(f(c), true),
            true
        )),
        Op::VFmacF32 => {
            // D = S0 * S1 + D
            let (mut ta, mut tb, mut tc) = ([0u32; LANES], [0u32; LANES], [0u32; LANES]);
            let mut r = [0u32; LANES];
            {
                let a = w.frow(i, 0, &mut ta);
                let b = w.frow(i, 1, &mut tb);
                let c = match i.dst {
                    Dst::V(r) => w.row(Src::V(r), &mut tc),
                    _ => &tc,
                };
                fma_lanes(i, w.width(), [a, b, c], ftz, &mut r);
            }
            w.put(i.dst, &r, ex);
        }
        Op::VMacF32 => {
            // D = S0 * S1 + D
            let mut a = [0u32; LANES];
            let mut b = [0u32; LANES];
            let mut c = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            w.gather(i.src[1], &mut b);
            if let Dst::V(r) = i.dst {
                w.gather(Src::V(r), &mut c);
            }
            fmods32(i, 0, &mut a);
            fmods32(i, 1, &mut b);
            let mut r = [0u32; LANES];
            for l in 0..w.width() {
                r[l] = fout32(
                    i,
                    flush32(flush32(f(a[l]), true) * flush32(f(b[l]), true), true)
                        + flush32(f(c[l]), true),
                    true,
                );
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::VFmamkF32 | Op::VFmaakF32 => {
            // fmamk: D = S0 * K + S1 (printed src0, K, src1); fmaak: D = S0 * S1 + K
            v3!(w, i, |a, b, c| fout32(
                i,
                fma32(flush32(f(a), ftz), flush32(f(b), ftz), flush32(f(c), ftz)),
                ftz
            ))
        }
        Op::VMadmkF32 | Op::VMadakF32 => {
            // the mad forms: a rounded product, then a rounded sum, denormals flushed
            // as for v_mad_f32
            v3!(w, i, |a, b, c| fout32(
                i,
                flush32(flush32(f(a), true) * flush32(f(b), true), true) + flush32(f(c), true),
                true
            ))
        }
        Op::VMinF32 => v2!(w, i, |a, b| fout32(
            i,
            fmin32(flush32(f(a), ftz), flush32(f(b), ftz)),
            ftz
        )),
        Op::VMaxF32 => v2!(w, i, |a, b| fout32(
            i,
            fmax32(flush32(f(a), ftz), flush32(f(b), ftz)),
            ftz
        )),
        Op::VCvtF32U32 => v1!(w, i, |a| fout32(i, a as f32, ftz)),
        Op::VCvtF32I32 => v1!(w, i, |a| fout32(i, a as i32 as f32, ftz)),
        Op::VCvtU32F32 => v1!(w, i, |a| cvt_u32(flush32(f(a), ftz))),
        Op::VCvtI32F32 => v1!(w, i, |a| cvt_i32(flush32(f(a), ftz)) as u32),
        Op::VRcpF32 | Op::VRcpIflagF32 => v1!(w, i, |a| fout32(i, 1.0 / flush32(f(a), ftz), ftz)),
        Op::VTruncF32 => v1!(w, i, |a| fout32(i, f(a).trunc(), ftz)),
        Op::VFloorF32 => v1!(w, i, |a| fout32(i, f(a).floor(), ftz)),
        Op::VCeilF32 => v1!(w, i, |a| fout32(i, f(a).ceil(), ftz)),
        Op::VSqrtF32 => v1!(w, i, |a| fout32(i, flush32(f(a), ftz).sqrt(), ftz)),
        Op::VLdexpF32 => v2!(w, i, |a, b| fout32(
            i,
            ldexp32(flush32(f(a), ftz), b as i32),
            ftz
        )),
        // ---- f64
        Op::VAddF64 => v64!(w, i, |a, b, _c| fout64(i, d(a) + d(b))),
        Op::VMulF64 => v64!(w, i, |a, b, _c| fout64(i, d(a) * d(b))),
        Op::VFmaF64 => v64!(w, i, |a, b, c| fout64(i, d(a).mul_add(d(b), d(c)))),
        Op::VMinF64 => v64!(w, i, |a, b, _c| fout64(i, fmin64(d(a), d(b)))),
        Op::VMaxF64 => v64!(w, i, |a, b, _c| fout64(i, fmax64(d(a), d(b)))),
        Op::VCvtF64F32 => {
            let mut a = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            fmods32(i, 0, &mut a);
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                r[l] = fout64(i, f64::from(f(a[l])));
            }
            w.scatter64(i.dst, &r, ex);
        }
        Op::VCvtF64I32 | Op::VCvtF64U32 => {
            let mut a = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                let x = if i.op == Op::VCvtF64I32 {
                    f64::from(a[l] as i32)
                } else {
                    f64::from(a[l])
                };
                r[l] = fout64(i, x);
            }
            w.scatter64(i.dst, &r, ex);
        }
        Op::VCvtF32F64 | Op::VCvtI32F64 | Op::VCvtU32F64 => {
            let mut a = [0u64; LANES];
            w.gather64(i.src[0], &mut a);
            fmods64(i, 0, &mut a);
            let mut r = [0u32; LANES];
            for l in 0..LANES {
                r[l] = match i.op {
                    Op::VCvtF32F64 => fout32(i, d(a[l]) as f32, ftz),
                    Op::VCvtI32F64 => d(a[l]) as i32 as u32,
                    _ => d(a[l]) as u32,
                };
            }
            w.scatter(i.dst, &r, ex);
        }
        // ---- VOPC
        Op::VCmp => {
            let (c, t) = i.cmp;
            let mut mask = 0u64;
            match t {
                CmpTy::U16 | CmpTy::I16 | CmpTy::F16 => {
                    let mut a = [0u16; LANES];
                    let mut b = [0u16; LANES];
                    h_src(w, i, 0, &mut a);
                    h_src(w, i, 1, &mut b);
                    for l in 0..LANES {
                        let o = match t {
                            CmpTy::U16 => Some(a[l].cmp(&b[l])),
                            CmpTy::I16 => Some((a[l] as i16).cmp(&(b[l] as i16))),
                            _ => h2f(a[l]).partial_cmp(&h2f(b[l])),
                        };
                        mask |= u64::from(c.test(o)) << l;
                    }
                }
                CmpTy::U32 | CmpTy::I32 | CmpTy::F32 => {
                    let (mut ta, mut tb) = ([0u32; LANES], [0u32; LANES]);
                    let (a, b) = if t == CmpTy::F32 {
                        (w.frow(i, 0, &mut ta), w.frow(i, 1, &mut tb))
                    } else {
                        (w.row(i.src[0], &mut ta), w.row(i.src[1], &mut tb))
                    };
                    // one loop per type and condition, over the wave's lanes (mask is
                    // ANDed with EXEC); one byte per lane, packed into the mask afterwards
                    let n = w.width();
                    mask = match t {
                        CmpTy::U32 => cmp_mask(c, n, a, b, |x| x),
                        CmpTy::I32 => cmp_mask(c, n, a, b, |x| x as i32),
                        _ => cmp_mask(c, n, a, b, f),
                    };
                }
                _ => {
                    let mut a = [0u64; LANES];
                    let mut b = [0u64; LANES];
                    w.gather64(i.src[0], &mut a);
                    w.gather64(i.src[1], &mut b);
                    if t == CmpTy::F64 {
                        fmods64(i, 0, &mut a);
                        fmods64(i, 1, &mut b);
                    }
                    for l in 0..LANES {
                        let o = match t {
                            CmpTy::U64 => Some(a[l].cmp(&b[l])),
                            CmpTy::I64 => Some((a[l] as i64).cmp(&(b[l] as i64))),
                            _ => d(a[l]).partial_cmp(&d(b[l])),
                        };
                        mask |= u64::from(c.test(o)) << l;
                    }
                }
            }
            mask &= ex;
            if i.sdst != Dst::None {
                w.write_mask(i.sdst, mask);
            }
            if i.mods & m::CMPX != 0 {
                w.write_mask(Dst::S(126), mask);
            }
            let _ = Cmp::F;
        }

        // ---- more f32
        Op::VMax3F32 => v3!(w, i, |a, b, c| fout32(
            i,
            fmax32(fmax32(f(a), f(b)), f(c)),
            ftz
        )),
        Op::VMin3F32 => v3!(w, i, |a, b, c| fout32(
            i,
            fmin32(fmin32(f(a), f(b)), f(c)),
            ftz
        )),
        Op::VMed3F32 => v3!(w, i, |a, b, c| fout32(i, med3f(f(a), f(b), f(c)), ftz)),
        Op::VMax3I32 => v3!(w, i, |a, b, c| (a as i32).max(b as i32).max(c as i32)
            as u32),
        Op::VMin3I32 => v3!(w, i, |a, b, c| (a as i32).min(b as i32).min(c as i32)
            as u32),
        Op::VMed3I32 => v3!(w, i, |a, b, c| {
            let (a, b, c) = (a as i32, b as i32, c as i32);
            a.max(b).min(a.min(b).max(c)) as u32
        }),
        Op::VMax3U32 => v3!(w, i, |a, b, c| a.max(b).max(c)),
        Op::VMin3U32 => v3!(w, i, |a, b, c| a.min(b).min(c)),
        Op::VMed3U32 => v3!(w, i, |a, b, c| a.max(b).min(a.min(b).max(c))),
        // one rounding of the exact value (the manuals give 1 ULP; 1 / sqrt in f32
        // rounds twice and can be 1.05 ULP off, e.g. for 5.494071)
        Op::VRsqF32 => v1!(w, i, |a| fout32(
            i,
            (1.0 / f64::from(flush32(f(a), ftz)).sqrt()) as f32,
            ftz
        )),
        Op::VExpF32 => v1!(w, i, |a| fout32(i, libm::exp2f(flush32(f(a), ftz)), ftz)),
        Op::VLogF32 => v1!(w, i, |a| fout32(i, libm::log2f(flush32(f(a), ftz)), ftz)),
        Op::VRndneF32 => v1!(w, i, |a| fout32(i, f(a).round_ties_even(), ftz)),
        Op::VFractF32 => v1!(w, i, |a| {
            let x = f(a);
            let r = if x.is_infinite() {
                f32::NAN
            } else {
                (x - x.floor()).min(f32::from_bits(0x3f7f_ffff))
            };
            fout32(i, r, ftz)
        }),
        Op::VFrexpMantF32 => v1!(w, i, |a| frexp32(f(a)).0.to_bits()),
        Op::VFrexpExpI32F32 => v1!(w, i, |a| frexp32(f(a)).1 as u32),
        // division steps: the scale step as the manuals' pseudocode has it (see
        // `div_scale32`); fixup handles the special values
        Op::VDivScaleF32 => {
            let mut a = [0u32; LANES];
            let mut b = [0u32; LANES];
            let mut c = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            w.gather(i.src[1], &mut b);
            w.gather(i.src[2], &mut c);
            fmods32(i, 0, &mut a);
            fmods32(i, 1, &mut b);
            fmods32(i, 2, &mut c);
            let mut vcc = 0u64;
            for l in 0..w.lanes as usize {
                let (r, set) = div_scale32(f(a[l]), f(b[l]), f(c[l]));
                a[l] = r.to_bits();
                if set && ex >> l & 1 != 0 {
                    vcc |= 1 << l;
                }
            }
            w.scatter(i.dst, &a, ex);
            w.write_mask(i.sdst, vcc);
        }
        Op::VDivFmasF32 => {
            let vcc = w.vcc();
            let mut a = [0u32; LANES];
            let mut b = [0u32; LANES];
            let mut c = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            w.gather(i.src[1], &mut b);
            w.gather(i.src[2], &mut c);
            fmods32(i, 0, &mut a);
            fmods32(i, 1, &mut b);
            fmods32(i, 2, &mut c);
            let mut r = [0u32; LANES];
            for l in 0..LANES {
                let mut x = fma32(f(a[l]), f(b[l]), f(c[l]));
                if vcc >> l & 1 != 0 {
                    // undo `v_div_scale_f32`'s 2^64 (see `div_fmas_scale`)
                    x = (f64::from(x) * div_fmas_scale((c[l] >> 23 & 0xff) > 127, 64)) as f32;
                }
                r[l] = fout32(i, x, ftz);
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::VDivFixupF32 => v3!(w, i, |a, b, c| fout32(
            i,
            div_fixup(f64::from(f(a)), f64::from(f(b)), f64::from(f(c))) as f32,
            ftz
        )),
        // ---- more f64
        Op::VFmacF64 => {
            let mut a = [0u64; LANES];
            let mut b = [0u64; LANES];
            let mut c = [0u64; LANES];
            w.gather64(i.src[0], &mut a);
            w.gather64(i.src[1], &mut b);
            if let Dst::V(r) = i.dst {
                w.gather64(Src::V(r), &mut c);
            }
            fmods64(i, 0, &mut a);
            fmods64(i, 1, &mut b);
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                r[l] = fout64(i, d(a[l]).mul_add(d(b[l]), d(c[l])));
            }
            w.scatter64(i.dst, &r, ex);
        }
        Op::VRcpF64 => v64!(w, i, |a, _b, _c| fout64(i, 1.0 / d(a))),
        Op::VRsqF64 => v64!(w, i, |a, _b, _c| fout64(i, 1.0 / d(a).sqrt())),
        Op::VSqrtF64 => v64!(w, i, |a, _b, _c| fout64(i, d(a).sqrt())),
        Op::VTruncF64 => v64!(w, i, |a, _b, _c| fout64(i, d(a).trunc())),
        Op::VFloorF64 => v64!(w, i, |a, _b, _c| fout64(i, d(a).floor())),
        Op::VCeilF64 => v64!(w, i, |a, _b, _c| fout64(i, d(a).ceil())),
        Op::VRndneF64 => v64!(w, i, |a, _b, _c| fout64(i, d(a).round_ties_even())),
        Op::VFractF64 => v64!(w, i, |a, _b, _c| {
            let x = d(a);
            let r = if x.is_infinite() {
                f64::NAN
            } else {
                (x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff))
            };
            fout64(i, r)
        }),
        Op::VFrexpMantF64 => v64!(w, i, |a, _b, _c| frexp64(d(a)).0.to_bits()),
        Op::VFrexpExpI32F64 => {
            let mut a = [0u64; LANES];
            w.gather64(i.src[0], &mut a);
            fmods64(i, 0, &mut a);
            let mut r = [0u32; LANES];
            for l in 0..LANES {
                r[l] = frexp64(d(a[l])).1 as u32;
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::VLdexpF64 => {
            let mut a = [0u64; LANES];
            let mut b = [0u32; LANES];
            w.gather64(i.src[0], &mut a);
            w.gather(i.src[1], &mut b);
            fmods64(i, 0, &mut a);
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                r[l] = fout64(i, ldexp64(d(a[l]), b[l] as i32));
            }
            w.scatter64(i.dst, &r, ex);
        }
        Op::VDivScaleF64 => {
            let mut a = [0u64; LANES];
            let mut b = [0u64; LANES];
            let mut c = [0u64; LANES];
            w.gather64(i.src[0], &mut a);
            w.gather64(i.src[1], &mut b);
            w.gather64(i.src[2], &mut c);
            fmods64(i, 0, &mut a);
            fmods64(i, 1, &mut b);
            fmods64(i, 2, &mut c);
            let mut vcc = 0u64;
            for l in 0..w.lanes as usize {
                let (r, set) = div_scale64(d(a[l]), d(b[l]), d(c[l]));
                a[l] = r.to_bits();
                if set && ex >> l & 1 != 0 {
                    vcc |= 1 << l;
                }
            }
            w.scatter64(i.dst, &a, ex);
            w.write_mask(i.sdst, vcc);
        }
        Op::VDivFmasF64 => {
            let vcc = w.vcc();
            let mut a = [0u64; LANES];
            let mut b = [0u64; LANES];
            let mut c = [0u64; LANES];
            w.gather64(i.src[0], &mut a);
            w.gather64(i.src[1], &mut b);
            w.gather64(i.src[2], &mut c);
            fmods64(i, 0, &mut a);
            fmods64(i, 1, &mut b);
            fmods64(i, 2, &mut c);
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                let mut x = d(a[l]).mul_add(d(b[l]), d(c[l]));
                if vcc >> l & 1 != 0 {
                    // undo `v_div_scale_f64`'s 2^128 (see `div_fmas_scale`)
                    x *= div_fmas_scale((c[l] >> 52 & 0x7ff) > 1023, 128);
                }
                r[l] = fout64(i, x);
            }
            w.scatter64(i.dst, &r, ex);
        }
        Op::VDivFixupF64 => v64!(w, i, |a, b, c| fout64(i, div_fixup(d(a), d(b), d(c)))),
        Op::VCmpClassF32 | Op::VCmpClassF64 => {
            let mut b = [0u32; LANES];
            w.gather(i.src[1], &mut b);
            let mut mask = 0u64;
            if i.op == Op::VCmpClassF32 {
                let mut a = [0u32; LANES];
                w.gather(i.src[0], &mut a);
                fmods32(i, 0, &mut a);
                for l in 0..LANES {
                    mask |= u64::from(
                        b[l] >> class(
                            f64::from(f(a[l])),
                            f(a[l]).is_subnormal(),
                            a[l] == 0x7fc0_0000 || (f(a[l]).is_nan() && a[l] & 0x40_0000 != 0),
                        ) & 1
                            != 0,
                    ) << l;
                }
            } else {
                let mut a = [0u64; LANES];
                w.gather64(i.src[0], &mut a);
                fmods64(i, 0, &mut a);
                for l in 0..LANES {
                    let x = d(a[l]);
                    mask |= u64::from(
                        b[l] >> class(x, x.is_subnormal(), x.is_nan() && a[l] & (1 << 51) != 0) & 1
                            != 0,
                    ) << l;
                }
            }
            mask &= ex;
            if i.sdst != Dst::None {
                w.write_mask(i.sdst, mask);
            }
            if i.mods & m::CMPX != 0 {
                w.write_mask(Dst::S(126), mask);
            }
        }
        // ---- 16-bit: sources are the low halves (VOP3 op_sel picks the high ones); the
        // result goes to the low half with the high half zeroed, or with op_sel[3] to
        // the high half, the low half kept
        Op::VAddF16 => h2(w, i, |a, b| f2h(h2f(a) + h2f(b))),
        Op::VSubF16 => h2(w, i, |a, b| f2h(h2f(a) - h2f(b))),
        Op::VSubrevF16 => h2(w, i, |a, b| f2h(h2f(b) - h2f(a))),
        Op::VMulF16 => h2(w, i, |a, b| f2h(h2f(a) * h2f(b))),
        Op::VMaxF16 => h2(w, i, |a, b| f2h(fmax64(h2f(a), h2f(b)))),
        Op::VMinF16 => h2(w, i, |a, b| f2h(fmin64(h2f(a), h2f(b)))),
        Op::VFmaF16 => h3(w, i, |a, b, c| f2h(h2f(a).mul_add(h2f(b), h2f(c)))),
        Op::VMadF16 => h3(w, i, |a, b, c| f2h(h2f(f2h(h2f(a) * h2f(b))) + h2f(c))),
        // D = S0 * S1 + D: translation makes the destination (its half) source 2
        Op::VFmacF16 => h3(w, i, |a, b, c| f2h(h2f(a).mul_add(h2f(b), h2f(c)))),
        Op::VMacF16 => h3(w, i, |a, b, c| f2h(h2f(f2h(h2f(a) * h2f(b))) + h2f(c))),
        Op::VMovB16 => h2(w, i, |a, _| a),
        Op::VNotB16 => h2(w, i, |a, _| !a),
        Op::VAndB16 => h2(w, i, |a, b| a & b),
        Op::VOrB16 => h2(w, i, |a, b| a | b),
        Op::VXorB16 => h2(w, i, |a, b| a ^ b),
        Op::VAddU16 => h2(w, i, |a, b| a.wrapping_add(b)),
        Op::VSubU16 => h2(w, i, |a, b| a.wrapping_sub(b)),
        Op::VSubrevU16 => h2(w, i, |a, b| b.wrapping_sub(a)),
        Op::VMulLoU16 => h2(w, i, |a, b| a.wrapping_mul(b)),
        Op::VLshlrevB16 => h2(w, i, |a, b| b << (a & 15)),
        Op::VLshrrevB16 => h2(w, i, |a, b| b >> (a & 15)),
        Op::VAshrrevI16 => h2(w, i, |a, b| ((b as i16) >> (a & 15)) as u16),
        Op::VMaxU16 => h2(w, i, |a, b| a.max(b)),
        Op::VMinU16 => h2(w, i, |a, b| a.min(b)),
        Op::VMaxI16 => h2(w, i, |a, b| (a as i16).max(b as i16) as u16),
        Op::VMinI16 => h2(w, i, |a, b| (a as i16).min(b as i16) as u16),
        Op::VMadU16 => h3(w, i, |a, b, c| a.wrapping_mul(b).wrapping_add(c)),
        Op::VAddI16 => {
            let clamp = i.mods & m::CLAMP != 0;
            h2(w, i, |a, b| {
                if clamp {
                    (a as i16).saturating_add(b as i16) as u16
                } else {
                    a.wrapping_add(b)
                }
            })
        }
        Op::VSubI16 => {
            let clamp = i.mods & m::CLAMP != 0;
            h2(w, i, |a, b| {
                if clamp {
                    (a as i16).saturating_sub(b as i16) as u16
                } else {
                    a.wrapping_sub(b)
                }
            })
        }
        Op::VCvtF32F16 => {
            let mut a = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            let sel = i.mods >> m::OPSEL & 1 != 0;
            let mut r = [0u32; LANES];
            for l in 0..LANES {
                let mut h = if sel {
                    (a[l] >> 16) as u16
                } else {
                    a[l] as u16
                };
                if i.mods >> m::ABS & 1 != 0 {
                    h &= 0x7fff;
                }
                if i.mods >> m::NEG & 1 != 0 {
                    h ^= 0x8000;
                }
                r[l] = fout32(i, h2f(h) as f32, false);
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::VCvtF16F32 => {
            let mut a = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            fmods32(i, 0, &mut a);
            let mut r = [0u32; LANES];
            for l in 0..LANES {
                r[l] = u32::from(f2h(f64::from(f(a[l]))));
            }
            h_write(w, i, &r, ex);
        }
        Op::VCvtPkrtzF16F32 => v2!(w, i, |a, b| u32::from(f2h_rtz(f(a)))
            | u32::from(f2h_rtz(f(b))) << 16),
        Op::VPackB32F16 => {
            let s0 = i.mods >> m::OPSEL & 1 != 0;
            let s1 = i.mods >> (m::OPSEL + 1) & 1 != 0;
            v2!(w, i, |a, b| {
                let lo = if s0 { a >> 16 } else { a & 0xffff };
                let hi = if s1 { b >> 16 } else { b & 0xffff };
                lo | hi << 16
            })
        }
        // ---- packed
        Op::VPkAddF16 => pk2(w, i, |a, b| f2h(h2f(a) + h2f(b))),
        Op::VPkMulF16 => pk2(w, i, |a, b| f2h(h2f(a) * h2f(b))),
        Op::VPkMaxF16 => pk2(w, i, |a, b| f2h(fmax64(h2f(a), h2f(b)))),
        Op::VPkMinF16 => pk2(w, i, |a, b| f2h(fmin64(h2f(a), h2f(b)))),
        Op::VPkFmaF16 => pk3(w, i, |a, b, c| f2h(h2f(a).mul_add(h2f(b), h2f(c)))),
        Op::VPkAddU16 => pk2(w, i, |a, b| a.wrapping_add(b)),
        Op::VPkSubU16 => pk2(w, i, |a, b| a.wrapping_sub(b)),
        Op::VPkMulLoU16 => pk2(w, i, |a, b| a.wrapping_mul(b)),
        Op::VPkMovB32 => {
            let mut a = [0u64; LANES];
            let mut b = [0u64; LANES];
            w.gather64(i.src[0], &mut a);
            w.gather64(i.src[1], &mut b);
            let s0 = i.mods >> m::OPSEL & 1 != 0;
            let s1 = i.mods >> (m::OPSEL + 1) & 1 != 0;
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                let lo = if s0 { a[l] >> 32 } else { a[l] & 0xffff_ffff };
                let hi = if s1 { b[l] >> 32 } else { b[l] & 0xffff_ffff };
                r[l] = lo | hi << 32;
            }
            w.scatter64(i.dst, &r, ex);
        }
        Op::VPkFmaF32 | Op::VPkAddF32 | Op::VPkMulF32 => {
            let n = if i.op == Op::VPkFmaF32 { 3 } else { 2 };
            let mut srcs = [[0u64; LANES]; 3];
            for k in 0..n {
                w.gather64(i.src[k], &mut srcs[k]);
            }
            let mut r = [0u64; LANES];
            for l in 0..LANES {
                let mut out = 0u64;
                for half in 0..2 {
                    let mut x = [0f32; 3];
                    for k in 0..n {
                        let (selb, negb) = if half == 0 {
                            (m::OPSEL, m::NEG)
                        } else {
                            (m::OPSEL_HI, m::NEG_HI)
                        };
                        let sel = i.mods >> (selb + k as u32) & 1 != 0;
                        let mut v = if sel {
                            (srcs[k][l] >> 32) as u32
                        } else {
                            srcs[k][l] as u32
                        };
                        if i.mods >> (negb + k as u32) & 1 != 0 {
                            v ^= 0x8000_0000;
                        }
                        x[k] = flush32(f(v), ftz);
                    }
                    let y = match i.op {
                        Op::VPkFmaF32 => fma32(x[0], x[1], x[2]),
                        Op::VPkAddF32 => x[0] + x[1],
                        _ => x[0] * x[1],
                    };
                    let mut y = flush32(y, ftz);
                    if i.mods & m::CLAMP != 0 {
                        y = if y.is_nan() { 0.0 } else { y.clamp(0.0, 1.0) };
                    }
                    out |= u64::from(y.to_bits()) << (32 * half);
                }
                r[l] = out;
            }
            w.scatter64(i.dst, &r, ex);
        }
        // ---- hardware registers (MODE only)
        Op::SGetreg => {
            let (id, off, size) = hwreg(i.imm as u32);
            let v = match id {
                1 => w.mode,
                // gfx10+: HW_REG_FLAT_SCR_LO/HI (ids 20/21 there; gfx940's 20 is another)
                20 if !w.flat_scratch_in_sgprs => w.flat_scratch as u32,
                21 if !w.flat_scratch_in_sgprs => (w.flat_scratch >> 32) as u32,
                _ => return Err(Fault::Unimplemented),
            };
            let mask = if size >= 32 {
                u32::MAX
            } else {
                (1 << size) - 1
            };
            w.swrite(i.dst, (v >> off) & mask);
        }
        Op::SSetreg | Op::SSetregImm => {
            let (id, off, size) = hwreg(i.imm as u32);
            // s_setreg_b32: the SGPR; s_setreg_imm32_b32: the literal (both in src[0])
            let v = w.sread(i.src[0]);
            let mask = if size >= 32 {
                u32::MAX
            } else {
                ((1u32 << size) - 1) << off
            };
            let field = |old: u32| (old & !mask) | ((v << off) & mask);
            match id {
                1 => w.mode = field(w.mode),
                // gfx10+ FLAT_SCRATCH, which the prolog sets without architected flat
                // scratch (gfx10 with flat scratch enabled)
                20 if !w.flat_scratch_in_sgprs => {
                    let lo = field(w.flat_scratch as u32);
                    w.flat_scratch = (w.flat_scratch & !0xffff_ffff) | u64::from(lo);
                }
                21 if !w.flat_scratch_in_sgprs => {
                    let hi = field((w.flat_scratch >> 32) as u32);
                    w.flat_scratch = (w.flat_scratch & 0xffff_ffff) | u64::from(hi) << 32;
                }
                _ => return Err(Fault::Unimplemented),
            }
        }
        Op::SDenormMode => {
            let v = i.imm as u32 & 0xf;
            w.mode = (w.mode & !0xf0) | v << 4;
        }
        Op::SRoundMode => {
            let v = i.imm as u32 & 0xf;
            w.mode = (w.mode & !0xf) | v;
        }
        // ---- memory
        Op::DsReadB32
        | Op::DsReadB64
        | Op::DsReadB128
        | Op::DsReadU8
        | Op::DsReadI8
        | Op::DsReadU16
        | Op::DsReadI16 => {
            let (n, signed) = match i.op {
                Op::DsReadB32 => (4, false),
                Op::DsReadB64 => (8, false),
                Op::DsReadB128 => (16, false),
                Op::DsReadU8 => (1, false),
                Op::DsReadI8 => (1, true),
                Op::DsReadU16 => (2, false),
                _ => (2, true),
            };
            ds_load(w, cx, i, n, signed, &[i.imm as u32])?;
        }
        Op::DsRead2B32 | Op::DsRead2st64B32 | Op::DsRead2B64 | Op::DsRead2st64B64 => {
            let (n, scale) = match i.op {
                Op::DsRead2B32 => (4, 4),
                Op::DsRead2st64B32 => (4, 256),
                Op::DsRead2B64 => (8, 8),
                _ => (8, 512),
            };
            ds_load(w, cx, i, n, false, &[i.imm as u32 * scale, i.imm2 * scale])?;
        }
        Op::DsWriteB32 | Op::DsWriteB64 | Op::DsWriteB128 | Op::DsWriteB8 | Op::DsWriteB16 => {
            let n = match i.op {
                Op::DsWriteB32 => 4,
                Op::DsWriteB64 => 8,
                Op::DsWriteB128 => 16,
                Op::DsWriteB8 => 1,
                _ => 2,
            };
            ds_store(w, cx, i, n, &[i.imm as u32])?;
        }
        Op::DsWrite2B32 | Op::DsWrite2st64B32 | Op::DsWrite2B64 | Op::DsWrite2st64B64 => {
            let (n, scale) = match i.op {
                Op::DsWrite2B32 => (4, 4),
                Op::DsWrite2st64B32 => (4, 256),
                Op::DsWrite2B64 => (8, 8),
                _ => (8, 512),
            };
            ds_store(w, cx, i, n, &[i.imm as u32 * scale, i.imm2 * scale])?;
        }
        Op::DsAddU32
        | Op::DsSubU32
        | Op::DsMinI32
        | Op::DsMaxI32
        | Op::DsMinU32
        | Op::DsMaxU32
        | Op::DsAndB32
        | Op::DsOrB32
        | Op::DsXorB32
        | Op::DsAddRtnU32 => {
            let mut a = [0u32; LANES];
            let mut dat = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            w.gather(i.src[1], &mut dat);
            let mut r = [0u32; LANES];
            for l in 0..w.lanes as usize {
                if ex >> l & 1 == 0 {
                    continue;
                }
                let addr = a[l].wrapping_add(i.imm as u32) as usize;
                let cell = cx
                    .lds
                    .get_mut(addr..addr.wrapping_add(4))
                    .ok_or(Fault::Memory {
                        addr: addr as u64,
                        lane: Some(l as u32),
                        space: "LDS",
                    })?;
                let old = u32::from_le_bytes([cell[0], cell[1], cell[2], cell[3]]);
                let x = dat[l];
                let new = match i.op {
                    Op::DsAddU32 | Op::DsAddRtnU32 => old.wrapping_add(x),
                    Op::DsSubU32 => old.wrapping_sub(x),
                    Op::DsMinI32 => (old as i32).min(x as i32) as u32,
                    Op::DsMaxI32 => (old as i32).max(x as i32) as u32,
                    Op::DsMinU32 => old.min(x),
                    Op::DsMaxU32 => old.max(x),
                    Op::DsAndB32 => old & x,
                    Op::DsOrB32 => old | x,
                    _ => old ^ x,
                };
                cell.copy_from_slice(&new.to_le_bytes());
                r[l] = old;
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::DsBpermuteB32 | Op::DsPermuteB32 => {
            let mut a = [0u32; LANES];
            let mut dat = [0u32; LANES];
            w.gather(i.src[0], &mut a);
            w.gather(i.src[1], &mut dat);
            let n = w.lanes as usize;
            let mut r = [0u32; LANES];
            if let Dst::V(row) = i.dst {
                let b = usize::from(row) * LANES;
                r[..LANES].copy_from_slice(&w.v[b..b + LANES]);
            }
            for l in 0..n {
                if ex >> l & 1 == 0 {
                    continue;
                }
                let sel = (a[l].wrapping_add(i.imm as u32) / 4) as usize % n;
                if i.op == Op::DsBpermuteB32 {
                    // read from lane sel (0 if that lane is inactive)
                    r[l] = if ex >> sel & 1 != 0 { dat[sel] } else { 0 };
                } else {
                    r[sel] = dat[l];
                }
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::DsSwizzleB32 => {
            let mut a = [0u32; LANES];
            let src = i.src[0];
            w.gather(src, &mut a);
            let off = i.imm as u32;
            let n = w.lanes as usize;
            let mut r = [0u32; LANES];
            for l in 0..n {
                let s = if off & 0x8000 != 0 {
                    (l & !3) + ((off >> (2 * (l & 3))) & 3) as usize
                } else {
                    let and = (off & 31) as usize;
                    let or = ((off >> 5) & 31) as usize;
                    let xor = ((off >> 10) & 31) as usize;
                    ((((l & 31) & and) | or) ^ xor) | (l & 32)
                };
                r[l] = if s < n && ex >> s & 1 != 0 { a[s] } else { 0 };
            }
            w.scatter(i.dst, &r, ex);
        }
        Op::MemLoad => mem_load(w, cx, i)?,
        Op::MemStore => mem_store(w, cx, i)?,
        Op::MemAtomic => mem_atomic(w, cx, i)?,
        Op::BufLoad | Op::BufStore => buffer(w, cx, i)?,
    }
    Ok(None)
}

/// A gfx12 SALU float operation: the VALU operation's semantics on lane 0 of a
/// temporary row (EXEC = lane 0 meanwhile), copied to the scalar destination.
fn step_salu(w: &mut Wave, cx: &mut Ctx<'_>, i: &DInst) -> Result<Option<Stop>, Fault> {
    let mut j = *i;
    j.mods &= !m::SALU;
    let tmp = TMP_ROW + 3;
    j.dst = Dst::V(tmp);
    let (e0, e1) = (w.s[126], w.s[127]);
    w.s[126] = 1;
    w.s[127] = 0;
    let r = step(w, cx, &j);
    w.s[126] = e0;
    w.s[127] = e1;
    let v = w.v[usize::from(tmp) * LANES];
    w.swrite(i.dst, v);
    r
}

/// An SDWA or DPP instruction: its selected sources go to temporary rows, the plain
/// operation runs on them, and the result is merged into the destination.
fn step_sdwa_dpp(w: &mut Wave, cx: &mut Ctx<'_>, i: &DInst) -> Result<Option<Stop>, Fault> {
    let ex = w.exec();
    let n = w.lanes as usize;
    let mut j = *i;
    j.mods &= !(m::SDWA | m::DPP);
    if i.mods & m::SDWA != 0 {
        let sel = i.imm2;
        for k in 0..2 {
            let (s, sext) = ((sel >> (4 * k)) & 7, (sel >> (4 * k + 3)) & 1 != 0);
            if i.src[k] == Src::None {
                continue;
            }
            let mut a = [0u32; LANES];
            w.gather(i.src[k], &mut a);
            for x in a.iter_mut() {
                *x = sdwa_select(*x, s, sext);
            }
            let row = TMP_ROW + k as u16;
            let b = usize::from(row) * LANES;
            w.v[b..b + LANES].copy_from_slice(&a);
            j.src[k] = Src::V(row);
        }
        let real = i.dst;
        let tmp = TMP_ROW + 2;
        if let Dst::V(_) = real {
            j.dst = Dst::V(tmp);
        }
        let r = step(w, cx, &j)?;
        if let Dst::V(d) = real {
            let dst_sel = (sel >> 8) & 7;
            let unused = (sel >> 11) & 3;
            let (db, tb) = (usize::from(d) * LANES, usize::from(tmp) * LANES);
            for l in 0..n {
                if ex >> l & 1 != 0 {
                    w.v[db + l] = sdwa_place(w.v[tb + l], w.v[db + l], dst_sel, unused);
                }
            }
        }
        return Ok(r);
    }
    // DPP: src0 read from another lane
    let dpp8 = i.imm2 & crate::translate::dpp::DPP8 != 0;
    let ctrl = i.imm2 & 0x1ff;
    let (row_mask, bank_mask) = if dpp8 {
        (0xf, 0xf)
    } else {
        ((i.imm2 >> 9) & 0xf, (i.imm2 >> 13) & 0xf)
    };
    // DPP8 has no bound_ctrl: a disabled source lane reads as 0
    let bound_ctrl = dpp8 || (i.imm2 >> 17) & 1 != 0;
    // fetch inactive (gfx10+): a disabled source lane is read anyway
    let fi = (i.imm2 >> if dpp8 { 24 } else { 18 }) & 1 != 0;
    let mut a = [0u32; LANES];
    w.gather(i.src[0], &mut a);
    let mut p = [0u32; LANES];
    let mut write = 0u64;
    for l in 0..n {
        if row_mask >> (l / 16) & 1 == 0 || bank_mask >> ((l >> 2) & 3) & 1 == 0 {
            continue;
        }
        let from = if dpp8 {
            Some((l & !7) + (i.imm2 >> (3 * (l & 7)) & 7) as usize)
        } else {
            dpp_source(ctrl, l, n)
        };
        match from {
            Some(src) if fi || ex >> src & 1 != 0 => {
                p[l] = a[src];
                write |= 1 << l;
            }
            _ if bound_ctrl => {
                p[l] = 0;
                write |= 1 << l;
            }
            _ => {}
        }
    }
    let row = TMP_ROW;
    let b = usize::from(row) * LANES;
    w.v[b..b + LANES].copy_from_slice(&p);
    j.src[0] = Src::V(row);
    // lanes whose source is invalid are not written: run with them masked off
    let (e0, e1) = (w.s[126], w.s[127]);
    let masked = ex & write;
    w.s[126] = masked as u32;
    if w.lanes == 64 {
        w.s[127] = (masked >> 32) as u32;
    }
    let r = step(w, cx, &j);
    // EXEC itself is not an output of the DPP forms of VOP1/VOP2
    w.s[126] = e0;
    w.s[127] = e1;
    r
}

/// The lane DPP control `ctrl` reads for lane `l` (None: out of range).
fn dpp_source(ctrl: u32, l: usize, n: usize) -> Option<usize> {
    let row = l & !15;
    let rl = l & 15;
    match ctrl {
        0x000..=0x0ff => Some((l & !3) + ((ctrl >> (2 * (l & 3))) & 3) as usize),
        0x101..=0x10f => {
            let k = (ctrl & 15) as usize;
            (rl + k < 16).then_some(l + k)
        }
        0x111..=0x11f => {
            let k = (ctrl & 15) as usize;
            (rl >= k).then(|| l - k)
        }
        0x121..=0x12f => {
            let k = (ctrl & 15) as usize;
            Some(row + (rl + 16 - k) % 16)
        }
        0x130 => (l + 1 < n).then_some(l + 1),
        0x134 => Some((l + 1) % n),
        0x138 => l.checked_sub(1),
        0x13c => Some((l + n - 1) % n),
        0x140 => Some(row + 15 - rl),
        0x141 => Some((l & !7) + 7 - (l & 7)),
        0x142 => (l >= 16).then(|| row - 1),
        0x143 => (l >= 32).then_some(31),
        // gfx10+: row_share (lane k of the row), row_xmask (lane rl ^ k)
        0x150..=0x15f => Some(row + (ctrl & 15) as usize),
        0x160..=0x16f => Some(row + (rl ^ (ctrl & 15) as usize)),
        _ => None,
    }
}

/// An SDWA source selection: 0-3 bytes, 4-5 words, 6 the dword; zero- or
/// sign-extended.
fn sdwa_select(x: u32, sel: u32, sext: bool) -> u32 {
    match sel {
        0..=3 => {
            let b = (x >> (8 * sel)) & 0xff;
            if sext {
                b as u8 as i8 as i32 as u32
            } else {
                b
            }
        }
        4 | 5 => {
            let h = (x >> (16 * (sel - 4))) & 0xffff;
            if sext {
                h as u16 as i16 as i32 as u32
            } else {
                h
            }
        }
        _ => x,
    }
}

/// An SDWA destination: the result's low bits placed at `sel` of the old value, the
/// other bits zero (UNUSED_PAD), sign-extended (UNUSED_SEXT) or kept
/// (UNUSED_PRESERVE).
fn sdwa_place(r: u32, old: u32, sel: u32, unused: u32) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return r,
    };
    let mask = ((1u64 << width) - 1) as u32;
    let v = (r & mask) << shift;
    match unused {
        2 => (old & !(mask << shift)) | v,
        1 => {
            // sign-extend above the field; bits below stay 0
            let top = (r >> (width - 1)) & 1;
            let above = if top != 0 && shift + width < 32 {
                u32::MAX << (shift + width)
            } else {
                0
            };
            v | above
        }
        _ => v,
    }
}

/// `hwreg(id, offset, size)` of an `s_getreg`/`s_setreg` immediate.
fn hwreg(imm: u32) -> (u32, u32, u32) {
    (imm & 0x3f, (imm >> 6) & 0x1f, ((imm >> 11) & 0x1f) + 1)
}

fn med3f(a: f32, b: f32, c: f32) -> f32 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return fmin32(fmin32(a, b), c);
    }
    let mx = fmax32(fmax32(a, b), c);
    if mx == a {
        fmax32(b, c)
    } else if mx == b {
        fmax32(a, c)
    } else {
        fmax32(a, b)
    }
}

fn frexp32(x: f32) -> (f32, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (m, e) = frexp64(f64::from(x));
    (m as f32, e)
}

fn frexp64(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let mut e = 0;
    let mut y = x;
    if y.is_subnormal() {
        y *= 2f64.powi(64);
        e -= 64;
    }
    let bits = y.to_bits();
    let be = ((bits >> 52) & 0x7ff) as i32;
    e += be - 1022;
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, e)
}

fn ldexp64(x: f64, e: i32) -> f64 {
    let e = e.clamp(-2200, 2200);
    // in steps that stay exact
    let mut r = x;
    let mut k = e;
    while k > 1000 {
        r *= 2f64.powi(1000);
        k -= 1000;
    }
    while k < -1000 {
        r *= 2f64.powi(-1000);
        k += 1000;
    }
    r * 2f64.powi(k)
}

/// The special cases of a division: `q` is the quotient computed for numerator `n`
/// and denominator `den`.
fn div_fixup(q: f64, den: f64, n: f64) -> f64 {
    let neg = (den.is_sign_negative()) != (n.is_sign_negative());
    let sign = |x: f64| if neg { -x } else { x };
    if n.is_nan()
        || den.is_nan()
        || (den == 0.0 && n == 0.0)
        || (den.is_infinite() && n.is_infinite())
    {
        f64::NAN
    } else if den == 0.0 || n.is_infinite() {
        sign(f64::INFINITY)
    } else if den.is_infinite() || n == 0.0 {
        sign(0.0)
    } else if q.is_nan() {
        // ordinary operands and a NaN estimate: the division macro's quotient
        // overflowed (q' = inf, then inf - inf in div_fmas); the hardware gives the
        // infinity (NOTES "Float details": the manuals' branch `exponent(S1) == 2047`
        // -> OVERFLOW cannot be reached as written, S1 being inf or NaN was handled)
        sign(f64::INFINITY)
    } else {
        sign(q.abs())
    }
}

/// The bit of a `v_cmp_class` mask a value has: 0 signaling NaN, 1 quiet NaN, 2 -inf,
/// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
fn class(x: f64, subnormal: bool, quiet: bool) -> u32 {
    if x.is_nan() {
        return if quiet { 1 } else { 0 };
    }
    let neg = x.is_sign_negative();
    match (neg, x.is_infinite(), x == 0.0, subnormal) {
        (true, true, _, _) => 2,
        (true, _, true, _) => 5,
        (true, _, _, true) => 4,
        (true, _, _, _) => 3,
        (false, true, _, _) => 9,
        (false, _, true, _) => 6,
        (false, _, _, true) => 7,
        _ => 8,
    }
}

/// f16 bits to a double (exact).
#[inline]
pub fn h2f(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = (h >> 10) & 0x1f;
    let m = f64::from(h & 0x3ff);
    match e {
        0 => sign * m * 2f64.powi(-24),
        31 if m == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        _ => sign * (1.0 + m / 1024.0) * 2f64.powi(i32::from(e) - 15),
    }
}

/// A double rounded to f16 (round to nearest even).
#[inline]
pub fn f2h(x: f64) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return 0x7e00;
    }
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // subnormal (or rounds up to the smallest normal, whose encoding follows)
        let q = (a * 2f64.powi(24)).round_ties_even() as u16;
        return sign | q;
    }
    let bits = a.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let mant = a / 2f64.powi(e);
    let mut q = ((mant - 1.0) * 1024.0).round_ties_even() as u32;
    if q == 1024 {
        q = 0;
        e += 1;
    }
    if e > 15 {
        return sign | 0x7c00;
    }
    sign | (((e + 15) as u16) << 10) | q as u16
}

/// f32 to f16 rounding toward zero.
fn f2h_rtz(x: f32) -> u16 {
    let h = f2h(f64::from(x));
    if x.is_nan() || x.is_infinite() {
        return h;
    }
    // the nearest may be away from zero: step back one unit if so
    if h2f(h).abs() > f64::from(x).abs() {
        if h & 0x7fff == 0x7c00 {
            (h & 0x8000) | 0x7bff
        } else {
            h - 1
        }
    } else {
        h
    }
}

/// A 16-bit result: to the low half (high half zeroed; kept when the destination is a
/// true16 half, gfx11+ `v0.l`) or, with op_sel[3] (`v0.h`), to the high half (low half
/// kept).
#[inline]
fn h_write(w: &mut Wave, i: &DInst, r: &[u32; LANES], ex: u64) {
    if i.mods & m::T16 != 0 && i.mods >> (m::OPSEL + 3) & 1 == 0 {
        if let Dst::V(row) = i.dst {
            let b = usize::from(row) * LANES;
            for l in 0..LANES {
                if ex >> l & 1 != 0 {
                    w.v[b + l] = (w.v[b + l] & 0xffff_0000) | (r[l] & 0xffff);
                }
            }
        }
    } else if i.mods >> (m::OPSEL + 3) & 1 != 0 {
        if let Dst::V(row) = i.dst {
            let b = usize::from(row) * LANES;
            for l in 0..LANES {
                if ex >> l & 1 != 0 {
                    w.v[b + l] = (w.v[b + l] & 0xffff) | (r[l] & 0xffff) << 16;
                }
            }
        }
    } else {
        let mut z = [0u32; LANES];
        for l in 0..LANES {
            z[l] = r[l] & 0xffff;
        }
        w.scatter(i.dst, &z, ex);
    }
}

#[inline]
fn h_src(w: &Wave, i: &DInst, k: usize, out: &mut [u16; LANES]) {
    let mut a = [0u32; LANES];
    w.gather(i.src[k], &mut a);
    let hi = i.mods >> (m::OPSEL + k as u32) & 1 != 0;
    let float = i.mods & m::FLOAT != 0;
    let abs = float && i.mods >> (m::ABS + k as u32) & 1 != 0;
    let neg = float && i.mods >> (m::NEG + k as u32) & 1 != 0;
    for l in 0..LANES {
        let mut h = if hi { (a[l] >> 16) as u16 } else { a[l] as u16 };
        if abs {
            h &= 0x7fff;
        }
        if neg {
            h ^= 0x8000;
        }
        out[l] = h;
    }
}

fn h2(w: &mut Wave, i: &DInst, op: impl Fn(u16, u16) -> u16) {
    let ex = w.exec();
    let mut a = [0u16; LANES];
    let mut b = [0u16; LANES];
    h_src(w, i, 0, &mut a);
    h_src(w, i, 1, &mut b);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        r[l] = u32::from(op(a[l], b[l]));
    }
    h_clamp(i, &mut r);
    h_write(w, i, &r, ex);
}

fn h3(w: &mut Wave, i: &DInst, op: impl Fn(u16, u16, u16) -> u16) {
    let ex = w.exec();
    let mut a = [0u16; LANES];
    let mut b = [0u16; LANES];
    let mut c = [0u16; LANES];
    h_src(w, i, 0, &mut a);
    h_src(w, i, 1, &mut b);
    h_src(w, i, 2, &mut c);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        r[l] = u32::from(op(a[l], b[l], c[l]));
    }
    h_clamp(i, &mut r);
    h_write(w, i, &r, ex);
}

/// Clamp of a 16-bit float result to [0, 1].
fn h_clamp(i: &DInst, r: &mut [u32; LANES]) {
    if i.mods & m::CLAMP != 0 && i.mods & m::FLOAT != 0 {
        for x in r.iter_mut() {
            let v = h2f(*x as u16);
            *x = u32::from(f2h(if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) }));
        }
    }
}

/// A packed 16-bit source half: op_sel (low result) / op_sel_hi (high result) pick
/// the half, neg / neg_hi flip its sign (float ops).
#[inline]
fn pk_half(i: &DInst, k: usize, x: u32, high: bool, float: bool) -> u16 {
    let (selb, negb) = if high {
        (m::OPSEL_HI, m::NEG_HI)
    } else {
        (m::OPSEL, m::NEG)
    };
    let sel = i.mods >> (selb + k as u32) & 1 != 0;
    let mut h = if sel { (x >> 16) as u16 } else { x as u16 };
    if float && i.mods >> (negb + k as u32) & 1 != 0 {
        h ^= 0x8000;
    }
    h
}

fn pk2(w: &mut Wave, i: &DInst, op: impl Fn(u16, u16) -> u16) {
    pk_n(w, i, 2, |x| op(x[0], x[1]));
}
fn pk3(w: &mut Wave, i: &DInst, op: impl Fn(u16, u16, u16) -> u16) {
    pk_n(w, i, 3, |x| op(x[0], x[1], x[2]));
}

fn pk_n(w: &mut Wave, i: &DInst, n: usize, op: impl Fn([u16; 3]) -> u16) {
    let ex = w.exec();
    let mut srcs = [[0u32; LANES]; 3];
    for k in 0..n {
        w.gather(i.src[k], &mut srcs[k]);
    }
    // integer packed operations: neg bits and a float clamp do not apply
    let float = matches!(
        i.op,
        Op::VPkAddF16 | Op::VPkMulF16 | Op::VPkMaxF16 | Op::VPkMinF16 | Op::VPkFmaF16
    );
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let mut out = 0u32;
        for (half, high) in [false, true].into_iter().enumerate() {
            let mut x = [0u16; 3];
            for k in 0..n {
                x[k] = pk_half(i, k, srcs[k][l], high, float);
            }
            let mut y = op(x);
            if float && i.mods & m::CLAMP != 0 {
                let v = h2f(y);
                y = f2h(if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) });
            }
            out |= u32::from(y) << (16 * half);
        }
        r[l] = out;
    }
    w.scatter(i.dst, &r, ex);
}

fn ldexp32(x: f32, e: i32) -> f32 {
    let e = e.clamp(-400, 400);
    let mut r = f64::from(x);
    r *= 2f64.powi(e);
    r as f32
}

fn lds_fault(addr: u64, lane: usize) -> Fault {
    Fault::Memory {
        addr,
        lane: Some(lane as u32),
        space: "LDS",
    }
}

fn ds_load(
    w: &mut Wave,
    cx: &mut Ctx<'_>,
    i: &DInst,
    n: usize,
    signed: bool,
    offsets: &[u32],
) -> Result<(), Fault> {
    let ex = w.exec();
    let mut a = [0u32; LANES];
    w.gather(i.src[0], &mut a);
    let Dst::V(row) = i.dst else { return Ok(()) };
    let row = usize::from(row);
    let dwords = n.div_ceil(4);
    for l in 0..w.lanes as usize {
        if ex >> l & 1 == 0 {
            continue;
        }
        for (k, off) in offsets.iter().enumerate() {
            let addr = a[l].wrapping_add(*off) as usize;
            let bytes = cx
                .lds
                .get(addr..addr.wrapping_add(n))
                .ok_or_else(|| lds_fault(addr as u64, l))?;
            let base_row = row + k * dwords;
            store_lane(w, base_row, l, bytes, signed);
        }
    }
    Ok(())
}

/// Put `bytes` (1, 2 or 4k bytes) into VGPR rows from `row` at `lane`.
#[inline]
fn store_lane(w: &mut Wave, row: usize, lane: usize, bytes: &[u8], signed: bool) {
    match bytes.len() {
        1 => {
            w.v[(row % VROWS) * LANES + lane] = if signed {
                bytes[0] as i8 as i32 as u32
            } else {
                u32::from(bytes[0])
            }
        }
        2 => {
            let h = u16::from_le_bytes([bytes[0], bytes[1]]);
            w.v[(row % VROWS) * LANES + lane] = if signed {
                h as i16 as i32 as u32
            } else {
                u32::from(h)
            }
        }
        _ => {
            for (k, c) in bytes.chunks(4).enumerate() {
                let mut b = [0u8; 4];
                b[..c.len()].copy_from_slice(c);
                w.v[((row + k) % VROWS) * LANES + lane] = u32::from_le_bytes(b);
            }
        }
    }
}

/// The `n` bytes of data VGPRs from `row` at `lane`.
#[inline]
fn lane_bytes(w: &Wave, row: usize, lane: usize, n: usize) -> [u8; 16] {
    let mut b = [0u8; 16];
    for k in 0..n.div_ceil(4) {
        let v = w.v[((row + k) % VROWS) * LANES + lane].to_le_bytes();
        b[4 * k..4 * k + 4].copy_from_slice(&v);
    }
    b
}

fn ds_store(
    w: &mut Wave,
    cx: &mut Ctx<'_>,
    i: &DInst,
    n: usize,
    offsets: &[u32],
) -> Result<(), Fault> {
    let ex = w.exec();
    let mut a = [0u32; LANES];
    w.gather(i.src[0], &mut a);
    for l in 0..w.lanes as usize {
        if ex >> l & 1 == 0 {
            continue;
        }
        for (k, off) in offsets.iter().enumerate() {
            let Src::V(row) = i.src[1 + k] else { continue };
            let data = lane_bytes(w, usize::from(row), l, n);
            let addr = a[l].wrapping_add(*off) as usize;
            let cell = cx
                .lds
                .get_mut(addr..addr.wrapping_add(n))
                .ok_or_else(|| lds_fault(addr as u64, l))?;
            cell.copy_from_slice(&data[..n]);
        }
    }
    Ok(())
}

/// The address space a flat address falls in.
enum Space {
    Global(u64),
    Lds(usize),
    Scratch(u64),
}

/// Classify a flat (or global/scratch) address of lane `l`.
#[inline]
fn classify(w: &Wave, cx: &Ctx<'_>, i: &DInst, addr: u64, lane: usize) -> Space {
    match i.mods >> m::SEG & 3 {
        1 => Space::Scratch(scratch_addr(w, addr as u32, lane)),
        2 => Space::Global(addr),
        _ => {
            let hi = addr >> 32;
            if hi == cx.apertures.0 >> 32 {
                Space::Lds(addr as u32 as usize)
            } else if hi == cx.apertures.1 >> 32 {
                Space::Scratch(scratch_addr(w, addr as u32, lane))
            } else {
                Space::Global(addr)
            }
        }
    }
}

/// The backing-memory address of private byte `off` of a lane: swizzled in dwords,
/// lanes interleaved (AMDGPUUsage "Private Segment Buffer": element size 4, index
/// stride = the wave size), from the wave's FLAT_SCRATCH base.
#[inline]
pub(crate) fn scratch_addr(w: &Wave, off: u32, lane: usize) -> u64 {
    let base = if w.flat_scratch_in_sgprs {
        u64::from(w.s[102]) | u64::from(w.s[103]) << 32
    } else {
        w.flat_scratch
    };
    let off = u64::from(off);
    base + (off / 4) * 4 * u64::from(w.lanes) + lane as u64 * 4 + off % 4
}

fn vmem_addr(w: &Wave, i: &DInst, a: &[u64; LANES], lane: usize) -> u64 {
    let seg = i.mods >> m::SEG & 3;
    if i.mods & m::SADDR != 0 {
        let base = if seg == 1 {
            u64::from(w.sread(i.src[2]))
        } else {
            w.sread64(i.src[2])
        };
        let v = if matches!(i.src[0], Src::V(_)) {
            a[lane] & 0xffff_ffff
        } else {
            0
        };
        base.wrapping_add(v).wrapping_add(i.imm as u64)
    } else if seg == 1 {
        (a[lane] & 0xffff_ffff).wrapping_add(i.imm as u64)
    } else {
        a[lane].wrapping_add(i.imm as u64)
    }
}

/// The addresses of a global (not flat, not scratch) access for every lane, as
/// [`vmem_addr`] computes them lane by lane, and the span `[lo, hi)` of the `n`-byte
/// accesses of the lanes `ex` enables (`lo >= hi` when there are none).
#[inline(always)]
fn global_addrs(w: &Wave, i: &DInst, ex: u64, n: u64, addrs: &mut [u64; LANES]) -> (u64, u64) {
    let imm = i.imm as u64;
    let width = w.width();
    if i.mods & m::SADDR != 0 {
        let base = w.sread64(i.src[2]).wrapping_add(imm);
        match i.src[0] {
            Src::V(r) => {
                let b = usize::from(r) * LANES;
                for (a, v) in addrs.iter_mut().zip(&w.v[b..b + LANES]) {
                    *a = base.wrapping_add(u64::from(*v));
                }
            }
            _ => *addrs = [base; LANES],
        }
    } else {
        match i.src[0] {
            Src::V(r) => {
                let b = usize::from(r) * LANES;
                let b2 = (usize::from(r) + 1) % VROWS * LANES;
                let (lo, hi) = (&w.v[b..b + LANES], &w.v[b2..b2 + LANES]);
                for l in 0..LANES {
                    addrs[l] = (u64::from(lo[l]) | u64::from(hi[l]) << 32).wrapping_add(imm);
                }
            }
            other => *addrs = [w.sread64(other).wrapping_add(imm); LANES],
        }
    }
    let (mut lo, mut hi) = (u64::MAX, 0u64);
    for (l, &ad) in addrs.iter().enumerate().take(width) {
        if ex >> l & 1 != 0 {
            lo = lo.min(ad);
            hi = hi.max(ad.saturating_add(n));
        }
    }
    (lo, hi)
}

/// Every one of the `width` lanes is active and lane `l` accesses the dword at
/// `addrs[0] + 4 * l`.
#[inline(always)]
fn contiguous(addrs: &[u64; LANES], width: usize, ex: u64) -> bool {
    if ex != u64::MAX >> (LANES - width) {
        return false;
    }
    let a0 = addrs[0];
    let mut ok = true;
    for (l, &a) in addrs.iter().enumerate().take(width) {
        ok &= a == a0.wrapping_add(4 * l as u64);
    }
    ok
}

fn gather_addr(w: &Wave, i: &DInst) -> [u64; LANES] {
    let mut a = [0u64; LANES];
    let seg = i.mods >> m::SEG & 3;
    if i.mods & m::SADDR != 0 || seg == 1 {
        if let Src::V(_) = i.src[0] {
            let mut t = [0u32; LANES];
            w.gather(i.src[0], &mut t);
            for l in 0..LANES {
                a[l] = u64::from(t[l]);
            }
        }
    } else {
        w.gather64(i.src[0], &mut a);
    }
    a
}

fn mem_read(cx: &Ctx<'_>, sp: Space, out: &mut [u8], lane: usize) -> Result<(), Fault> {
    match sp {
        Space::Global(a) => cx.mem.read(a, out).map_err(|Unmapped(x)| Fault::Memory {
            addr: x,
            lane: Some(lane as u32),
            space: "global",
        }),
        Space::Scratch(a) => cx.mem.read(a, out).map_err(|Unmapped(x)| Fault::Memory {
            addr: x,
            lane: Some(lane as u32),
            space: "scratch",
        }),
        Space::Lds(a) => {
            let src = cx
                .lds
                .get(a..a.wrapping_add(out.len()))
                .ok_or_else(|| lds_fault(a as u64, lane))?;
            out.copy_from_slice(src);
            Ok(())
        }
    }
}

fn mem_slice<'c>(
    cx: &'c mut Ctx<'_>,
    sp: Space,
    n: usize,
    lane: usize,
) -> Result<&'c mut [u8], Fault> {
    match sp {
        Space::Global(a) => cx.mem.slice_mut(a, n).map_err(|Unmapped(x)| Fault::Memory {
            addr: x,
            lane: Some(lane as u32),
            space: "global",
        }),
        Space::Scratch(a) => cx.mem.slice_mut(a, n).map_err(|Unmapped(x)| Fault::Memory {
            addr: x,
            lane: Some(lane as u32),
            space: "scratch",
        }),
        Space::Lds(a) => cx
            .lds
            .get_mut(a..a.wrapping_add(n))
            .ok_or_else(|| lds_fault(a as u64, lane)),
    }
}

/// The fault of an unmapped global or scratch access of `lane`.
fn memory_fault(sp: &Space, Unmapped(addr): Unmapped, lane: usize) -> Fault {
    Fault::Memory {
        addr,
        lane: Some(lane as u32),
        space: if matches!(sp, Space::Scratch(_)) {
            "scratch"
        } else {
            "global"
        },
    }
}

/// Write `bytes` to a space (through [`Memory::write`], which also serves regions
/// shared between threads).
fn mem_write(cx: &mut Ctx<'_>, sp: Space, bytes: &[u8], lane: usize) -> Result<(), Fault> {
    match sp {
        Space::Global(a) | Space::Scratch(a) => cx
            .mem
            .write(a, bytes)
            .map_err(|u| memory_fault(&sp, u, lane)),
        Space::Lds(_) => {
            mem_slice(cx, sp, bytes.len(), lane).map(|cell| cell.copy_from_slice(bytes))
        }
    }
}

/// Scratch is swizzled per dword: a wider access is one dword at a time.
fn split_scratch(sp: &Space) -> bool {
    matches!(sp, Space::Scratch(_))
}

fn mem_load(w: &mut Wave, cx: &mut Ctx<'_>, i: &DInst) -> Result<(), Fault> {
    let ex = w.exec();
    let n = i.imm2 as usize;
    let Dst::V(row) = i.dst else { return Ok(()) };
    let row = usize::from(row);
    let signed = i.mods & m::SIGNED != 0;
    let mut buf = [0u8; 16];
    // the common case: dwords from global memory, straight into the VGPRs
    if n.is_multiple_of(4) && (i.mods >> m::D16) & 3 == 0 && (i.mods >> m::SEG) & 3 == 2 {
        // all lanes in one region: one bounds check for the wave
        let mut addrs = [0u64; LANES];
        let (lo, hi) = global_addrs(w, i, ex, n as u64, &mut addrs);
        if lo < hi {
            if let Some((base, data)) = cx.mem.span(lo, hi - lo) {
                let width = w.width();
                if n == 4 && contiguous(&addrs, width, ex) {
                    // every lane, one dword after another: one copy of the row
                    let rb = (row % VROWS) * LANES;
                    let o = (lo - base) as usize;
                    if let Some(src) = data.get(o..o + 4 * width) {
                        for (d, c) in w.v[rb..rb + width].iter_mut().zip(src.chunks_exact(4)) {
                            *d = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                        }
                        return Ok(());
                    }
                }
                for k in 0..n / 4 {
                    let rb = ((row + k) % VROWS) * LANES;
                    let dst = &mut w.v[rb..rb + LANES];
                    for l in 0..width {
                        if ex >> l & 1 != 0 {
                            let o = (addrs[l] - base) as usize + 4 * k;
                            if let Some(b) = data.get(o..).and_then(|d| d.first_chunk::<4>()) {
                                dst[l] = u32::from_le_bytes(*b);
                            }
                        }
                    }
                }
                return Ok(());
            }
        }
        let a = gather_addr(w, i);
        for l in 0..w.lanes as usize {
            if ex >> l & 1 == 0 {
                continue;
            }
            let addr = vmem_addr(w, i, &a, l);
            for k in 0..n / 4 {
                let at = addr.wrapping_add(4 * k as u64);
                let v = cx.mem.read_u32(at).map_err(|Unmapped(x)| Fault::Memory {
                    addr: x,
                    lane: Some(l as u32),
                    space: "global",
                })?;
                w.v[((row + k) % VROWS) * LANES + l] = v;
            }
        }
        return Ok(());
    }
    let a = gather_addr(w, i);
    for l in 0..w.lanes as usize {
        if ex >> l & 1 == 0 {
            continue;
        }
        let addr = vmem_addr(w, i, &a, l);
        let sp = classify(w, cx, i, addr, l);
        if split_scratch(&sp) && n > 4 {
            for k in 0..n / 4 {
                let sp = classify(w, cx, i, addr + 4 * k as u64, l);
                mem_read(cx, sp, &mut buf[4 * k..4 * k + 4], l)?;
            }
        } else {
            mem_read(cx, sp, &mut buf[..n], l)?;
        }
        let half = (i.mods >> m::D16) & 3;
        if half != 0 {
            // d16: one 16-bit half of the VGPR, the other half kept
            let v = match (n, signed) {
                (1, true) => buf[0] as i8 as i16 as u16,
                (1, false) => u16::from(buf[0]),
                _ => u16::from_le_bytes([buf[0], buf[1]]),
            };
            let cell = &mut w.v[(row % VROWS) * LANES + l];
            *cell = if half == 1 {
                (*cell & 0xffff_0000) | u32::from(v)
            } else {
                (*cell & 0xffff) | u32::from(v) << 16
            };
            continue;
        }
        store_lane(w, row, l, &buf[..n], signed);
    }
    Ok(())
}

fn mem_store(w: &mut Wave, cx: &mut Ctx<'_>, i: &DInst) -> Result<(), Fault> {
    let ex = w.exec();
    let n = i.imm2 as usize;
    let Src::V(row) = i.src[1] else { return Ok(()) };
    let row = usize::from(row);
    if n.is_multiple_of(4) && (i.mods >> m::D16) & 3 == 0 && (i.mods >> m::SEG) & 3 == 2 {
        let mut addrs = [0u64; LANES];
        let (lo, hi) = global_addrs(w, i, ex, n as u64, &mut addrs);
        if lo < hi {
            let width = w.width();
            if let Some((base, data)) = cx.mem.span_mut(lo, hi - lo) {
                if n == 4 && contiguous(&addrs, width, ex) {
                    let rb = (row % VROWS) * LANES;
                    let o = (lo - base) as usize;
                    if let Some(dst) = data.get_mut(o..o + 4 * width) {
                        for (c, v) in dst.chunks_exact_mut(4).zip(&w.v[rb..rb + width]) {
                            c.copy_from_slice(&v.to_le_bytes());
                        }
                        return Ok(());
                    }
                }
                for k in 0..n / 4 {
                    let rb = ((row + k) % VROWS) * LANES;
                    let src = &w.v[rb..rb + LANES];
                    for l in 0..width {
                        if ex >> l & 1 != 0 {
                            let o = (addrs[l] - base) as usize + 4 * k;
                            if let Some(b) =
                                data.get_mut(o..).and_then(|d| d.first_chunk_mut::<4>())
                            {
                                *b = src[l].to_le_bytes();
                            }
                        }
                    }
                }
                return Ok(());
            }
        }
        let a = gather_addr(w, i);
        for l in 0..w.lanes as usize {
            if ex >> l & 1 == 0 {
                continue;
            }
            let addr = vmem_addr(w, i, &a, l);
            for k in 0..n / 4 {
                let v = w.v[((row + k) % VROWS) * LANES + l];
                cx.mem
                    .write_u32(addr.wrapping_add(4 * k as u64), v)
                    .map_err(|Unmapped(x)| Fault::Memory {
                        addr: x,
                        lane: Some(l as u32),
                        space: "global",
                    })?;
            }
        }
        return Ok(());
    }
    let a = gather_addr(w, i);
    for l in 0..w.lanes as usize {
        if ex >> l & 1 == 0 {
            continue;
        }
        let mut data = lane_bytes(w, row, l, n);
        if (i.mods >> m::D16) & 3 == 2 {
            // d16_hi: the high half of the VGPR
            data[0] = data[2];
            data[1] = data[3];
        }
        let addr = vmem_addr(w, i, &a, l);
        let sp = classify(w, cx, i, addr, l);
        if split_scratch(&sp) && n > 4 {
            for k in 0..n / 4 {
                let sp = classify(w, cx, i, addr + 4 * k as u64, l);
                mem_write(cx, sp, &data[4 * k..4 * k + 4], l)?;
            }
        } else {
            mem_write(cx, sp, &data[..n], l)?;
        }
    }
    Ok(())
}

/// The value an atomic operation (`op`, a name of [`ATOMIC_OPS`]) of `n` bytes leaves
/// in memory that held `old`, with data `x` (and `cmp` for cmpswap); None for an
/// operation without semantics.
fn atomic_new(op: &str, n: usize, old: u64, x: u64, cmp: u64) -> Option<u64> {
    let bits = 8 * n as u32;
    let mask = if n == 8 { u64::MAX } else { 0xffff_ffff };
    let sx = |v: u64| sext64(v, bits) as i64;
    let new = match op {
        "add" => old.wrapping_add(x),
        "sub" => old.wrapping_sub(x),
        "smin" => sx(old).min(sx(x)) as u64,
        "smax" => sx(old).max(sx(x)) as u64,
        "umin" => old.min(x),
        "umax" => old.max(x),
        "and" => old & x,
        "or" => old | x,
        "xor" => old ^ x,
        "swap" => x,
        // data = {src, cmp}: store src if old == cmp
        "cmpswap" => {
            if old == cmp {
                x
            } else {
                old
            }
        }
        "inc" => {
            if old >= x {
                0
            } else {
                old + 1
            }
        }
        "dec" => {
            if old == 0 || old > x {
                x
            } else {
                old - 1
            }
        }
        "add_f32" => u64::from((f32::from_bits(old as u32) + f32::from_bits(x as u32)).to_bits()),
        "add_f64" => (f64::from_bits(old) + f64::from_bits(x)).to_bits(),
        // IEEE maxNum/minNum (a NaN operand gives the other one), -0 < +0
        "max_f32" => u64::from(fmax32(f(old as u32), f(x as u32)).to_bits()),
        "min_f32" => u64::from(fmin32(f(old as u32), f(x as u32)).to_bits()),
        "max_f64" => fmax64(d(old), d(x)).to_bits(),
        "min_f64" => fmin64(d(old), d(x)).to_bits(),
        _ => return None,
    } & mask;
    Some(new)
}

fn mem_atomic(w: &mut Wave, cx: &mut Ctx<'_>, i: &DInst) -> Result<(), Fault> {
    let ex = w.exec();
    let a = gather_addr(w, i);
    let n = i.imm2 as usize;
    let Src::V(drow) = i.src[1] else {
        return Ok(());
    };
    let drow = usize::from(drow);
    let op = ATOMIC_OPS.get(usize::from(i.sub)).copied().unwrap_or("");
    for l in 0..w.lanes as usize {
        if ex >> l & 1 == 0 {
            continue;
        }
        let addr = vmem_addr(w, i, &a, l);
        let sp = classify(w, cx, i, addr, l);
        let data = lane_bytes(w, drow, l, 2 * n);
        let mut xb = [0u8; 8];
        xb[..n].copy_from_slice(&data[..n]);
        let x = u64::from_le_bytes(xb);
        let mut cb = [0u8; 8];
        cb[..n].copy_from_slice(&data[n..2 * n]);
        let cmp = u64::from_le_bytes(cb);
        if atomic_new(op, n, 0, x, cmp).is_none() {
            return Err(Fault::Unimplemented);
        }
        let apply = |old: u64| atomic_new(op, n, old, x, cmp).unwrap_or(old);
        let old = match sp {
            Space::Global(a) | Space::Scratch(a) => cx
                .mem
                .atomic(a, n, apply)
                .map_err(|u| memory_fault(&sp, u, l))?,
            Space::Lds(_) => {
                let cell = mem_slice(cx, sp, n, l)?;
                let mut ob = [0u8; 8];
                ob[..n].copy_from_slice(cell);
                let old = u64::from_le_bytes(ob);
                cell.copy_from_slice(&apply(old).to_le_bytes()[..n]);
                old
            }
        };
        if i.mods & m::RTN != 0 {
            if let Dst::V(r) = i.dst {
                store_lane(w, usize::from(r), l, &old.to_le_bytes()[..n], false);
            }
        }
    }
    Ok(())
}

/// MUBUF: the buffer resource (V#) in `src[2]`, soffset in `src[3]`; swizzled
/// addressing when the V# says so (scratch), as the ISA manual's "buffer addressing"
/// gives it.
fn buffer(w: &mut Wave, cx: &mut Ctx<'_>, i: &DInst) -> Result<(), Fault> {
    let ex = w.exec();
    let Src::S(rs) = i.src[2] else {
        return Err(Fault::Unimplemented);
    };
    let rs = usize::from(rs);
    let v0 = w.s[rs & 127];
    let v1 = w.s[(rs + 1) & 127];
    let v2 = w.s[(rs + 2) & 127];
    let v3 = w.s[(rs + 3) & 127];
    let base = u64::from(v0) | u64::from(v1 & 0xffff) << 32;
    let stride = u64::from((v1 >> 16) & 0x3fff);
    let swizzle = v1 >> 31 != 0;
    let num_records = u64::from(v2);
    let elem_size = [2u64, 4, 8, 16][((v3 >> 19) & 3) as usize];
    let index_stride = [8u64, 16, 32, 64][((v3 >> 21) & 3) as usize];
    let add_tid = v3 >> 23 & 1 != 0;
    let soff = u64::from(w.sread(i.src[3]));
    let mut va = [0u32; LANES];
    w.gather(i.src[0], &mut va);
    let n = i.imm2 as usize;
    let load = i.op == Op::BufLoad;
    let signed = i.mods & m::SIGNED != 0;
    for l in 0..w.lanes as usize {
        if ex >> l & 1 == 0 {
            continue;
        }
        let mut index = if i.mods & m::IDXEN != 0 {
            u64::from(va[l])
        } else {
            0
        };
        let voff = if i.mods & m::OFFEN != 0 {
            // with idxen too, the offset is the next VGPR
            if i.mods & m::IDXEN != 0 {
                if let Src::V(r) = i.src[0] {
                    u64::from(w.v[((usize::from(r) + 1) % VROWS) * LANES + l])
                } else {
                    0
                }
            } else {
                u64::from(va[l])
            }
        } else {
            0
        };
        if add_tid {
            index += l as u64;
        }
        let offset = voff + i.imm as u64;
        let mut buf = [0u8; 16];
        if !load {
            let Src::V(r) = i.src[1] else { return Ok(()) };
            buf = lane_bytes(w, usize::from(r), l, n);
        }
        // one element at a time (swizzle splits wider accesses)
        let step = if swizzle {
            elem_size.min(4) as usize
        } else {
            n.max(1)
        };
        let mut k = 0;
        while k < n {
            let len = step.min(n - k);
            let off = offset + k as u64;
            let addr = if swizzle {
                let (imsb, ilsb) = (index / index_stride, index % index_stride);
                let (omsb, olsb) = (off / elem_size, off % elem_size);
                base + soff
                    + (imsb * stride + omsb * elem_size) * index_stride
                    + ilsb * elem_size
                    + olsb
            } else {
                // raw buffer: range check against num_records (bytes when stride 0)
                if stride == 0 && off + len as u64 > num_records {
                    if load {
                        k += len;
                        continue; // out of range loads return 0
                    } else {
                        k += len;
                        continue; // and stores are dropped
                    }
                }
                base + soff + index * stride + off
            };
            if load {
                mem_read(cx, Space::Global(addr), &mut buf[k..k + len], l)?;
            } else {
                mem_write(cx, Space::Global(addr), &buf[k..k + len], l)?;
            }
            k += len;
        }
        if load {
            if let Dst::V(r) = i.dst {
                store_lane(w, usize::from(r), l, &buf[..n], signed);
            }
        }
    }
    Ok(())
}

/// The atomic operations by [`DInst::sub`] (the mnemonic's tail, `_x2` removed).
pub const ATOMIC_OPS: &[&str] = &[
    "add", "sub", "smin", "smax", "umin", "umax", "and", "or", "xor", "swap", "cmpswap", "inc",
    "dec", "add_f32", "add_f64", "max_f32", "min_f32", "max_f64", "min_f64",
];

/// `v_div_scale_f32` with S0 `s0`, denominator `s1` and numerator `s2`, as the RDNA3
/// and CDNA3 manuals' pseudocode gives it: S0 unchanged, or scaled by 2^64 (2^-64) where
/// the quotient or the reciprocal would leave the normal range, and whether VCC is set
/// (the later `v_div_fmas_f32` then scales the result back); NaN when either S1 or S2
/// is 0.
fn div_scale32(s0: f32, s1: f32, s2: f32) -> (f32, bool) {
    let exponent = |x: f32| ((x.to_bits() >> 23) & 0xff) as i32;
    let scaled = |x: f32, e: i32| (f64::from(x) * 2f64.powi(e)) as f32;
    // a value of f32's denormal range (not 0), the reciprocal computed in f64
    let denormal = |x: f64| x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE);
    if s2 == 0.0 || s1 == 0.0 {
        return (f32::NAN, false);
    }
    if exponent(s2) - exponent(s1) >= 96 {
        // N/D near the largest f32: only the denominator is scaled
        return (if s0 == s1 { scaled(s0, 64) } else { s0 }, true);
    }
    if s1.is_subnormal() {
        return (scaled(s0, 64), false);
    }
    let reciprocal_denormal = denormal(1.0 / f64::from(s1));
    let quotient_denormal = (s2 / s1).is_subnormal();
    if reciprocal_denormal && quotient_denormal {
        return (if s0 == s1 { scaled(s0, 64) } else { s0 }, true);
    }
    if reciprocal_denormal {
        return (scaled(s0, -64), false);
    }
    if quotient_denormal {
        // only the numerator is scaled
        return (if s0 == s2 { scaled(s0, 64) } else { s0 }, true);
    }
    if exponent(s2) <= 23 {
        // a tiny numerator
        return (scaled(s0, 64), false);
    }
    (s0, false)
}

/// `v_div_scale_f64` with S0 `s0`, denominator `s1` and numerator `s2`, as the RDNA3
/// and CDNA3 manuals' pseudocode gives it (V_DIV_SCALE_F64): S0 unchanged, or scaled
/// by 2^128 (2^-128) where the quotient or the reciprocal would leave the normal range,
/// and whether VCC is set (the later `v_div_fmas_f64` then scales the result back); NaN
/// when either S1 or S2 is 0. The pseudocode's `== DENORM` tests are read as "is
/// subnormal" of the value computed in f64 (round to nearest even), `exponent` as the
/// biased exponent field (2047 for infinities and NaNs, 0 for denormals).
///
/// Followed literally, also where the macro then goes wrong: when 1/S1 and S2/S1 are
/// both subnormal the manual scales the denominator *up* by 2^128 (it is at least
/// 2^1022, so it becomes infinite); NOTES "Float details" lists what the division
/// macro then gives.
fn div_scale64(s0: f64, s1: f64, s2: f64) -> (f64, bool) {
    let exponent = |x: f64| ((x.to_bits() >> 52) & 0x7ff) as i32;
    // ldexp by +-128: one multiplication by a power of two, exact unless the result
    // overflows or is subnormal (then rounded once, as ldexp rounds)
    let scaled = |x: f64, e: i32| x * 2f64.powi(e);
    if s2 == 0.0 || s1 == 0.0 {
        return (f64::NAN, false);
    }
    if exponent(s2) - exponent(s1) >= 768 {
        // N/D near the largest f64: only the denominator is scaled
        return (if s0 == s1 { scaled(s0, 128) } else { s0 }, true);
    }
    if s1.is_subnormal() {
        return (scaled(s0, 128), false);
    }
    let reciprocal_denormal = (1.0 / s1).is_subnormal();
    let quotient_denormal = (s2 / s1).is_subnormal();
    if reciprocal_denormal && quotient_denormal {
        return (if s0 == s1 { scaled(s0, 128) } else { s0 }, true);
    }
    if reciprocal_denormal {
        return (scaled(s0, -128), false);
    }
    if quotient_denormal {
        // only the numerator is scaled
        return (if s0 == s2 { scaled(s0, 128) } else { s0 }, true);
    }
    if exponent(s2) <= 53 {
        // a tiny numerator
        return (scaled(s0, 128), false);
    }
    (s0, false)
}

/// The factor `v_div_fmas` multiplies its fma by when the lane's VCC is set: 2^`e` when
/// S2 (the scaled quotient estimate in the division macro) has a biased exponent above
/// the bias (|S2| >= 2, an infinity or a NaN), else 2^-`e`. `e` is the scale
/// `v_div_scale` applied (64 for f32, 128 for f64), so that the pair cancels: the
/// manuals' V_DIV_FMAS pseudocode writes a fixed 2^32 (f32) or 2^64 (f64), which would
/// leave every VCC-scaled quotient off by that factor (NOTES "Float details").
fn div_fmas_scale(up: bool, e: i32) -> f64 {
    2f64.powi(if up { e } else { -e })
}

#[cfg(test)]
mod tests {
    use super::fma32;

    fn same(a: f32, b: f32, c: f32) {
        let want = a.mul_add(b, c);
        let got = fma32(a, b, c);
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "fma({a:e}, {b:e}, {c:e}) = {got:e}, want {want:e}"
        );
    }

    /// `fma32` against std's exactly rounded `f32::mul_add`: cases where a double rounding
    /// through f64 goes wrong (an f64 result on an f32 midpoint, in the normal and the
    /// subnormal range), overflow at the boundary, specials, and random values.
    #[test]
    fn fma32_is_exactly_rounded() {
        let p = |e: i32| 2f32.powi(e);
        // 1 + 2^-24 (an f32 midpoint) plus a tiny term that f64 rounds away: the exact
        // result is above the midpoint and must round up
        // exact: (1 + 2^-23) + 2^-24 - 2^-70, just below the midpoint, so 1 + 2^-23; the
        // f64 sum is the midpoint itself, which ties to the even 1 + 2^-22
        same(p(-24) * (1.0 + p(-23)), 1.0 - p(-23), 1.0 + p(-23));
        same(-p(-24) * (1.0 + p(-23)), 1.0 - p(-23), -(1.0 + p(-23)));
        // the same in the subnormal range: (2^-127 + 2^-149) + 2^-150 - 2^-196
        same(
            p(-75) * (1.0 + p(-23)),
            p(-75) * (1.0 - p(-23)),
            p(-127) + p(-149),
        );
        same(p(-70), p(-80), p(-127));
        // overflow boundary, infinities, NaN, signed zeros
        same(f32::MAX, 1.0 + p(-23), 0.0);
        same(f32::MAX, 1.0, f32::MAX * p(-24));
        same(f32::MAX, 1.0, f32::MAX * p(-25));
        same(f32::INFINITY, 0.0, 1.0);
        same(f32::INFINITY, 1.0, f32::NEG_INFINITY);
        same(f32::NAN, 1.0, 1.0);
        same(-0.0, 0.0, -0.0);
        same(0.0, -1.0, 0.0);
        same(1.0, -1.0, 1.0);
        // random values: xorshift over bit patterns and over values near 1
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..200_000 {
            let r = next();
            let (a, b, c) = (r as u32, (r >> 32) as u32, next() as u32);
            same(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
            // products and sums with heavy cancellation and few significant bits
            let a = f32::from_bits(0x3f80_0000 | (a & 0xfff));
            let b = f32::from_bits(0x3f80_0000 | (b & 0xfff));
            let c = -f32::from_bits(0x3f80_0000 | (c & 0x7f_ffff));
            same(a, b, c);
            same(a * p(-70), b * p(-60), c * p(-129));
        }
    }
}
