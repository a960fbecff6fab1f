//! Dot products and matrix operations (MFMA on gfx90a/gfx942, WMMA on gfx11/gfx12):
//! the semantics of each, written once and shared by the generations that have it.
//! A child module of `exec` (it uses the wave's register access).
//!
//! Register layouts (row `i`, column `j`, inner index `k`), from AMD's matrix
//! instruction calculator (the tool AMD publishes with the CDNA/RDNA ISA guides) and
//! the RDNA3/RDNA4 WMMA guides:
//!
//! * `v_mfma_f32_16x16x4f32` (one block, wave64): A[i][k] in lane `16k + i` of the one
//!   source VGPR, B[k][j] in lane `16k + j`, C/D[i][j] in VGPR `i % 4`, lane
//!   `16 * (i / 4) + j` (four VGPRs).
//! * `v_mfma_f64_16x16x4f64` (one block, wave64): A and B as above in a VGPR pair,
//!   C/D[i][j] in the VGPR pair `2 * (i / 4)`, lane `16 * (i % 4) + j` (eight VGPRs).
//! * gfx11 `v_wmma_f32_16x16x16_f16`: A[i][k] is 16-bit element `k` (VGPR `k / 2`, half
//!   `k % 2`) of lane `i`, replicated in every 16-lane group (lanes `i + 16g`); B[k][j]
//!   likewise in lane `j + 16g`; C/D[i][j] in VGPR `i / (W / 16)`, lane
//!   `(16 * i + j) % W` (W the wave size: wave32 VGPR `i / 2`, lane `16 * (i % 2) + j`).
//!   The guides require the replicas to be equal; this reads the copy in lanes 0-15.
//! * gfx12 `v_wmma_f32_16x16x16_f16` (wave32): A[i][k] is element `k % 8` of lane
//!   `i + 16 * (k / 8)` (four VGPRs), B[k][j] element `k % 8` of lane `j + 16 * (k / 8)`,
//!   C/D[i][j] in VGPR `i % 8`, lane `j + 16 * (i / 8)`.
//!
//! Rounding: the ISA guides say what is multiplied and added but not the internal
//! precision or order of the matrix units. The f32 and f64 MFMA (not xf32) are a chain
//! of IEEE fused multiply-adds in k order starting from C, rounded to nearest even,
//! denormals kept: the model MMA-Sim (Microsoft Research, arXiv 2511.10909, "bitwise
//! equivalence with real hardware", CDNA1-CDNA3) gives for them. WMMA and the f16 dot
//! products have no such published model: here every product is exact (f16 x f16 is
//! exact in f32), the terms are summed in f64 from C in k order and rounded once to
//! f32 (the f64 sum itself is exact unless the terms' exponents spread over more than
//! about 29 bits). Exact inputs (every partial sum representable) give the same bits
//! under any order and precision; the corpus test checks those bit for bit and random
//! inputs within the error bound of any summation order.
//!
//! The matrix operations need every lane of the wave: the manuals leave a partial
//! EXEC undefined, so it is an error here ([`Fault::PartialExec`]).

use super::{flush32, Fault, Wave, LANES};
use crate::translate::{m, DInst, Dst, Src};

/// f16 bits to f32 (exact).
#[inline]
fn h(x: u32) -> f64 {
    super::h2f((x & 0xffff) as u16)
}

/// The 16-bit half `hi` of a packed source, with the VOP3P neg bit of `k`/`hi`.
#[inline]
fn half(i: &DInst, k: usize, x: u32, high: bool) -> f64 {
    h(u32::from(super::pk_half(i, k, x, high, true)))
}

/// The row of VGPR `r + off` (AGPRs are rows 256+).
#[inline]
fn row(s: Src, off: usize) -> Option<usize> {
    match s {
        Src::V(r) => Some((usize::from(r) + off) % super::VROWS),
        _ => None,
    }
}

fn dst_row(d: Dst, off: usize) -> Option<usize> {
    match d {
        Dst::V(r) => Some((usize::from(r) + off) % super::VROWS),
        _ => None,
    }
}

/// A 32-bit operand of lane `l`: a VGPR row (register `off` of the tuple) or a
/// scalar/constant (the same for every lane).
#[inline]
fn rd(w: &Wave, s: Src, off: usize, l: usize) -> u32 {
    match row(s, off) {
        Some(r) => w.v[r * LANES + l],
        None if off == 0 => w.sread(s),
        None => 0,
    }
}

/// `v_dot2_f32_f16` (VOP3P: D = S0.lo*S1.lo + S0.hi*S1.hi + S2) and `v_dot2c_f32_f16` /
/// gfx11 `v_dot2acc_f32_f16` (VOP2: the accumulator is D), fused: exact products, one
/// rounding to f32.
pub(super) fn dot2_f32_f16(w: &mut Wave, i: &DInst, acc_is_dst: bool, ftz: bool) {
    let ex = w.exec();
    let mut r = [0u32; LANES];
    for l in 0..w.width() {
        let a = rd(w, i.src[0], 0, l);
        let b = rd(w, i.src[1], 0, l);
        let c = if acc_is_dst {
            match dst_row(i.dst, 0) {
                Some(d) => w.v[d * LANES + l],
                None => 0,
            }
        } else {
            let mut c = rd(w, i.src[2], 0, l);
            if i.mods >> (m::NEG + 2) & 1 != 0 {
                c ^= 0x8000_0000;
            }
            c
        };
        let c = f64::from(flush32(f32::from_bits(c), ftz));
        // the VOP2/VOP3 forms (dot2c) have no op_sel/neg: low with low, high with high
        let (lo, hi) = if acc_is_dst {
            (h(a) * h(b), h(a >> 16) * h(b >> 16))
        } else {
            (
                half(i, 0, a, false) * half(i, 1, b, false),
                half(i, 0, a, true) * half(i, 1, b, true),
            )
        };
        let mut y = flush32((c + lo + hi) as f32, ftz);
        if i.mods & m::CLAMP != 0 {
            y = if y.is_nan() { 0.0 } else { y.clamp(0.0, 1.0) };
        }
        r[l] = y.to_bits();
    }
    w.scatter(i.dst, &r, ex);
}

/// `v_dot4_i32_i8` (D = sum of the four signed byte products + S2) and
/// `v_dot4c_i32_i8` (the accumulator is D): wrapping, or saturating with clamp.
pub(super) fn dot4_i32_i8(w: &mut Wave, i: &DInst, acc_is_dst: bool) {
    let ex = w.exec();
    let mut r = [0u32; LANES];
    for l in 0..w.width() {
        let a = rd(w, i.src[0], 0, l);
        let b = rd(w, i.src[1], 0, l);
        let c = if acc_is_dst {
            dst_row(i.dst, 0).map_or(0, |d| w.v[d * LANES + l])
        } else {
            rd(w, i.src[2], 0, l)
        };
        let mut s = i64::from(c as i32);
        for byte in 0..4 {
            let x = i64::from((a >> (8 * byte)) as u8 as i8);
            let y = i64::from((b >> (8 * byte)) as u8 as i8);
            s += x * y;
        }
        r[l] = if i.mods & m::CLAMP != 0 {
            s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
        } else {
            s as u32
        };
    }
    w.scatter(i.dst, &r, ex);
}

/// Every lane of the wave must be on.
fn full_exec(w: &Wave) -> Result<(), Fault> {
    let all = if w.lanes == 32 {
        u64::from(u32::MAX)
    } else {
        u64::MAX
    };
    if w.exec() == all {
        Ok(())
    } else {
        Err(Fault::PartialExec)
    }
}

/// `v_mfma_f32_16x16x4f32` (gfx942 `v_mfma_f32_16x16x4_f32`): D = A (16x4) * B (4x16) + C.
pub(super) fn mfma_f32_16x16x4_f32(w: &mut Wave, i: &DInst) -> Result<(), Fault> {
    full_exec(w)?;
    let a = |l: usize| f32::from_bits(rd(w, i.src[0], 0, l));
    let b = |l: usize| f32::from_bits(rd(w, i.src[1], 0, l));
    let mut out = [[0u32; 16]; 16];
    for (ii, orow) in out.iter_mut().enumerate() {
        for (j, o) in orow.iter_mut().enumerate() {
            let lane = 16 * (ii / 4) + j;
            // a chain of f32 fused multiply-adds in k order from C, denormals kept
            let mut s = f32::from_bits(rd(w, i.src[2], ii % 4, lane));
            for k in 0..4 {
                s = super::fma32(a(16 * k + ii), b(16 * k + j), s);
            }
            *o = s.to_bits();
        }
    }
    for (ii, orow) in out.iter().enumerate() {
        if let Some(d) = dst_row(i.dst, ii % 4) {
            for (j, o) in orow.iter().enumerate() {
                w.v[d * LANES + 16 * (ii / 4) + j] = *o;
            }
        }
    }
    Ok(())
}

/// A 64-bit operand of lane `l` (register pair `2 * pair` of the tuple).
fn rd64(w: &Wave, s: Src, pair: usize, l: usize) -> f64 {
    match s {
        Src::V(_) => {
            let lo = rd(w, s, 2 * pair, l);
            let hi = rd(w, s, 2 * pair + 1, l);
            f64::from_bits(u64::from(lo) | u64::from(hi) << 32)
        }
        _ if pair == 0 => f64::from_bits(w.sread64(s)),
        _ => 0.0,
    }
}

/// `v_mfma_f64_16x16x4f64` (gfx942 `v_mfma_f64_16x16x4_f64`): D = A * B + C in f64, each
/// output a chain of fused multiply-adds in k order from C.
pub(super) fn mfma_f64_16x16x4_f64(w: &mut Wave, i: &DInst) -> Result<(), Fault> {
    full_exec(w)?;
    let mut out = [[0u64; 16]; 16];
    for (ii, orow) in out.iter_mut().enumerate() {
        for (j, o) in orow.iter_mut().enumerate() {
            let lane = 16 * (ii % 4) + j;
            let mut s = rd64(w, i.src[2], ii / 4, lane);
            for k in 0..4 {
                s = rd64(w, i.src[0], 0, 16 * k + ii).mul_add(rd64(w, i.src[1], 0, 16 * k + j), s);
            }
            *o = s.to_bits();
        }
    }
    for (ii, orow) in out.iter().enumerate() {
        let (Some(lo), Some(hi)) = (
            dst_row(i.dst, 2 * (ii / 4)),
            dst_row(i.dst, 2 * (ii / 4) + 1),
        ) else {
            continue;
        };
        for (j, o) in orow.iter().enumerate() {
            let lane = 16 * (ii % 4) + j;
            w.v[lo * LANES + lane] = *o as u32;
            w.v[hi * LANES + lane] = (*o >> 32) as u32;
        }
    }
    Ok(())
}

/// `v_wmma_f32_16x16x16_f16`: D (f32) = A (f16) * B (f16) + C (f32), in the gfx11 layout
/// (`gfx12` false; wave32 or wave64) or the gfx12 one (wave32).
pub(super) fn wmma_f32_16x16x16_f16(w: &mut Wave, i: &DInst, gfx12: bool) -> Result<(), Fault> {
    full_exec(w)?;
    let wave = w.lanes as usize;
    if gfx12 && wave != 32 {
        return Err(Fault::Unimplemented);
    }
    // element `e` (16-bit) of a lane of a packed-f16 tuple
    let elem = |s: Src, lane: usize, e: usize| -> f64 {
        let x = rd(w, s, e / 2, lane);
        h(if e % 2 == 1 { x >> 16 } else { x & 0xffff })
    };
    // (A element, B element) pairs for output (i, j), in k order
    let a_of = |ii: usize, k: usize| {
        if gfx12 {
            elem(i.src[0], ii + 16 * (k / 8), k % 8)
        } else {
            elem(i.src[0], ii, k)
        }
    };
    let b_of = |k: usize, j: usize| {
        if gfx12 {
            elem(i.src[1], j + 16 * (k / 8), k % 8)
        } else {
            elem(i.src[1], j, k)
        }
    };
    // where C/D[i][j] lives: (VGPR of the tuple, lane)
    let place = |ii: usize, j: usize| -> (usize, usize) {
        if gfx12 {
            (ii % 8, j + 16 * (ii / 8))
        } else {
            (ii / (wave / 16), (16 * ii + j) % wave)
        }
    };
    let mut out = [[0u32; 16]; 16];
    for (ii, orow) in out.iter_mut().enumerate() {
        for (j, o) in orow.iter_mut().enumerate() {
            let (r, lane) = place(ii, j);
            let mut s = f64::from(f32::from_bits(rd(w, i.src[2], r, lane)));
            for k in 0..16 {
                s += a_of(ii, k) * b_of(k, j);
            }
            *o = (s as f32).to_bits();
        }
    }
    for (ii, orow) in out.iter().enumerate() {
        for (j, o) in orow.iter().enumerate() {
            let (r, lane) = place(ii, j);
            if let Some(d) = dst_row(i.dst, r) {
                w.v[d * LANES + lane] = *o;
            }
        }
    }
    Ok(())
}
