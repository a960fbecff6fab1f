//! Dot products, matrix operations and the AGPR moves on hand-encoded words (the encodings llvm-mc-22
//! gives for the assembly in each comment), one wave each; expected values from the
//! ISA guides' descriptions: D = A * B + C with the register layouts of AMD's matrix
//! instruction calculator (MFMA) and the RDNA3/RDNA4 WMMA guides, the dot products'
//! sums of 16-bit float or signed byte products. Values are chosen so that every sum
//! is exact (the guides do not give the internal rounding), plus NaN, infinities,
//! -0, denormals, saturation and inactive lanes.

// lanes and matrix indices are numbers, as in the emulator
#![allow(clippy::needless_range_loop)]

use hsaco_emu::exec::{Fault, Wave, LANES};
use hsaco_emu::memory::Memory;
use hsaco_emu::run_code;

const ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];
const ENDPGM_RDNA: [u8; 4] = [0x00, 0x00, 0xb0, 0xbf];

fn wave(lanes: u32) -> Wave {
    let mut w = Wave::new(lanes);
    w.s[126] = u32::MAX;
    if lanes == 64 {
        w.s[127] = u32::MAX;
    }
    w
}

fn go(cpu: &str, w: &mut Wave, code: &[u8]) -> Result<(), Fault> {
    let mut c = code.to_vec();
    // s_endpgm: SOPP 1 on gfx9/gfx10, 48 on gfx11+
    c.extend_from_slice(if cpu.starts_with("gfx9") || cpu.starts_with("gfx10") {
        &ENDPGM
    } else {
        &ENDPGM_RDNA
    });
    run_code(cpu, &c, w, &mut Memory::new(), &mut [])
        .map(|_| ())
        .map_err(|(_, f)| f)
}

fn run(cpu: &str, w: &mut Wave, code: &[u8]) {
    go(cpu, w, code).unwrap_or_else(|f| panic!("{cpu}: {f:?}"));
}

fn v(w: &Wave, r: usize, l: usize) -> u32 {
    w.v[r * LANES + l]
}
fn set(w: &mut Wave, r: usize, l: usize, x: u32) {
    w.v[r * LANES + l] = x;
}

/// f16 bits of a value that is exactly an f16 (test inputs only).
fn h(x: f32) -> u32 {
    if x == 0.0 {
        return if x.is_sign_negative() { 0x8000 } else { 0 };
    }
    let b = x.to_bits();
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&e), "{x} is no normal f16");
    assert_eq!(b & 0x1fff, 0, "{x} is no f16");
    ((b >> 16) & 0x8000) | (e as u32) << 10 | (b >> 13) & 0x3ff
}
fn pk(lo: u32, hi: u32) -> u32 {
    lo | hi << 16
}

const NAN16: u32 = 0x7e00;
const INF16: u32 = 0x7c00;
const NINF16: u32 = 0xfc00;

/// (a, b, c, expected result bits, or None for "a NaN") of the f16 dot products.
fn dot2_cases() -> Vec<(u32, u32, u32, Option<u32>)> {
    let f = |x: f32| x.to_bits();
    vec![
        // 1.5*2 + -2*0.25 + 1 = 3.5
        (
            pk(h(1.5), h(-2.0)),
            pk(h(2.0), h(0.25)),
            f(1.0),
            Some(f(3.5)),
        ),
        // a NaN operand
        (pk(NAN16, h(1.0)), pk(h(1.0), h(1.0)), f(0.0), None),
        // inf * 0
        (pk(INF16, h(1.0)), pk(0, h(1.0)), f(0.0), None),
        // inf + -inf
        (pk(INF16, NINF16), pk(h(1.0), h(1.0)), f(0.0), None),
        // inf + finite
        (
            pk(INF16, h(3.0)),
            pk(h(2.0), h(1.0)),
            f(-5.0),
            Some(f(f32::INFINITY)),
        ),
        // all negative zeros: -0
        (
            pk(0x8000, 0x8000),
            pk(h(1.0), h(1.0)),
            f(-0.0),
            Some(f(-0.0)),
        ),
        // f16 denormals: 2^-24 * 2^-24 = 2^-48, exact in f32
        (pk(1, 0), pk(1, 0), f(0.0), Some(f(2f32.powi(-48)))),
        // the f16 maximum squared twice: 2 * 65504^2, exact in f32
        (
            pk(0x7bff, 0x7bff),
            pk(0x7bff, 0x7bff),
            f(0.0),
            Some(f(2.0 * 65504.0 * 65504.0)),
        ),
        // an f32 denormal accumulator is kept (denormals on)
        (0, 0, 1, Some(1)),
        // the high halves pair with each other (not with the low ones)
        (pk(0, h(3.0)), pk(h(5.0), h(-0.5)), f(0.25), Some(f(-1.25))),
    ]
}

fn check_dot2(cpu: &str, w: &Wave, dst: usize, cases: &[(u32, u32, u32, Option<u32>)]) {
    for (l, (a, b, c, want)) in cases.iter().enumerate() {
        let got = v(w, dst, l);
        match want {
            Some(x) => assert_eq!(got, *x, "{cpu} lane {l}: {a:#x} . {b:#x} + {c:#x}"),
            None => assert!(f32::from_bits(got).is_nan(), "{cpu} lane {l}: {got:#x}"),
        }
    }
}

#[test]
fn dot2_f32_f16_vop3p() {
    // v_dot2_f32_f16 v3, v0, v1, v2 (gfx906, gfx90a; gfx1100/gfx1200 encode it as VOP3P 0x13)
    let gfx9 = [0x03, 0x40, 0xa3, 0xd3, 0x00, 0x03, 0x0a, 0x1c];
    let rdna = [0x03, 0x40, 0x13, 0xcc, 0x00, 0x03, 0x0a, 0x1c];
    let cases = dot2_cases();
    for (cpu, lanes, code) in [
        ("gfx906", 64, &gfx9),
        ("gfx90a", 64, &gfx9),
        ("gfx1100", 32, &rdna),
        ("gfx1200", 32, &rdna),
    ] {
        let mut w = wave(lanes);
        for (l, (a, b, c, _)) in cases.iter().enumerate() {
            set(&mut w, 0, l, *a);
            set(&mut w, 1, l, *b);
            set(&mut w, 2, l, *c);
        }
        // lane 20 is off: it keeps v3
        set(&mut w, 3, 20, 0x1234_5678);
        w.s[126] &= !(1 << 20);
        run(cpu, &mut w, code);
        check_dot2(cpu, &w, 3, &cases);
        assert_eq!(
            v(&w, 3, 20),
            0x1234_5678,
            "{cpu}: an inactive lane was written"
        );
    }
    // clamp: 3.5 -> 1.0, a NaN -> 0; neg_lo:[1,0,0] negates the low half of src0
    // v_dot2_f32_f16 v3, v0, v1, v2 clamp ; v_dot2_f32_f16 v4, v0, v1, v2 neg_lo:[1,0,0]
    let mut w = wave(64);
    for (l, (a, b, c, _)) in cases.iter().enumerate() {
        set(&mut w, 0, l, *a);
        set(&mut w, 1, l, *b);
        set(&mut w, 2, l, *c);
    }
    run(
        "gfx906",
        &mut w,
        &[
            0x03, 0xc0, 0xa3, 0xd3, 0x00, 0x03, 0x0a, 0x1c, //
            0x04, 0x40, 0xa3, 0xd3, 0x00, 0x03, 0x0a, 0x3c,
        ],
    );
    assert_eq!(v(&w, 3, 0), 1f32.to_bits(), "clamp");
    assert_eq!(v(&w, 3, 1), 0, "clamp of a NaN");
    // -1.5*2 + -2*0.25 + 1 = -2.5
    assert_eq!(v(&w, 4, 0), (-2.5f32).to_bits(), "neg_lo");
}

#[test]
fn dot2c_f32_f16_accumulates_into_the_destination() {
    // v_dot2c_f32_f16_e32 v2, v0, v1 (gfx90a); gfx1030 v_dot2c_f32_f16 and gfx1100
    // v_dot2acc_f32_f16 v2, v0, v1 (VOP2 0x2)
    let gfx9 = [0x00, 0x03, 0x04, 0x6e];
    let rdna = [0x00, 0x03, 0x04, 0x04];
    let cases = dot2_cases();
    for (cpu, lanes, code) in [
        ("gfx90a", 64, &gfx9),
        ("gfx942", 64, &gfx9),
        ("gfx1030", 32, &rdna),
        ("gfx1100", 32, &rdna),
    ] {
        let mut w = wave(lanes);
        for (l, (a, b, c, _)) in cases.iter().enumerate() {
            set(&mut w, 0, l, *a);
            set(&mut w, 1, l, *b);
            set(&mut w, 2, l, *c);
        }
        set(&mut w, 2, 20, 0x1234_5678);
        w.s[126] &= !(1 << 20);
        run(cpu, &mut w, code);
        check_dot2(cpu, &w, 2, &cases);
        assert_eq!(
            v(&w, 2, 20),
            0x1234_5678,
            "{cpu}: an inactive lane was written"
        );
    }
}

/// (a, b, c, wrapping result, saturated result) of the signed byte dot products.
fn dot4_cases() -> Vec<(u32, u32, u32, u32, u32)> {
    let b4 = |x: [i8; 4]| u32::from_le_bytes(x.map(|v| v as u8));
    vec![
        (b4([1, 2, 3, 4]), b4([5, 6, 7, 8]), 10, 80, 80),
        (
            b4([-1, 2, -3, 4]),
            b4([5, -6, 7, -8]),
            0,
            (-70i32) as u32,
            (-70i32) as u32,
        ),
        // the largest products: 4 * (-128 * -128) = 65536
        (b4([-128; 4]), b4([-128; 4]), 0, 65536, 65536),
        // overflow: wraps, or saturates with clamp
        (
            b4([-128; 4]),
            b4([-128; 4]),
            i32::MAX as u32,
            (i32::MAX as u32).wrapping_add(65536),
            i32::MAX as u32,
        ),
        (
            b4([-128; 4]),
            b4([127; 4]),
            i32::MIN as u32,
            (i32::MIN as u32).wrapping_sub(65024),
            i32::MIN as u32,
        ),
        (0, 0, 0xdead_beef, 0xdead_beef, 0xdead_beef),
    ]
}

#[test]
fn dot4_i32_i8_and_dot4c() {
    let cases = dot4_cases();
    // v_dot4_i32_i8 v3, v0, v1, v2 ; v_dot4_i32_i8 v4, v0, v1, v2 clamp (gfx906)
    let mut w = wave(64);
    for (l, (a, b, c, _, _)) in cases.iter().enumerate() {
        set(&mut w, 0, l, *a);
        set(&mut w, 1, l, *b);
        set(&mut w, 2, l, *c);
    }
    set(&mut w, 3, 30, 7);
    w.s[126] &= !(1 << 30);
    run(
        "gfx906",
        &mut w,
        &[
            0x03, 0x40, 0xa8, 0xd3, 0x00, 0x03, 0x0a, 0x1c, //
            0x04, 0xc0, 0xa8, 0xd3, 0x00, 0x03, 0x0a, 0x1c,
        ],
    );
    for (l, (_, _, _, wrap, sat)) in cases.iter().enumerate() {
        assert_eq!(v(&w, 3, l), *wrap, "v_dot4_i32_i8 lane {l}");
        assert_eq!(v(&w, 4, l), *sat, "v_dot4_i32_i8 clamp lane {l}");
    }
    assert_eq!(v(&w, 3, 30), 7, "inactive lane");
    // v_dot4c_i32_i8_e32 v2, v0, v1 (gfx90a, gfx942): the accumulator is v2
    for cpu in ["gfx90a", "gfx942"] {
        let mut w = wave(64);
        for (l, (a, b, c, _, _)) in cases.iter().enumerate() {
            set(&mut w, 0, l, *a);
            set(&mut w, 1, l, *b);
            set(&mut w, 2, l, *c);
        }
        run(cpu, &mut w, &[0x00, 0x03, 0x04, 0x72]);
        for (l, (_, _, _, wrap, _)) in cases.iter().enumerate() {
            assert_eq!(v(&w, 2, l), *wrap, "{cpu} v_dot4c_i32_i8 lane {l}");
        }
    }
}

/// A small integer from a lane and an index (exact sums in f32 and f64).
fn small(seed: usize) -> f32 {
    ((seed * 7919 + 13) % 17) as f32 - 8.0
}

#[test]
fn mfma_f32_16x16x4_f32() {
    // v_mfma_f32_16x16x4f32 v[20:23], v0, v1, v[10:13] (gfx90a; gfx942 spells it
    // v_mfma_f32_16x16x4_f32 with the same encoding)
    let code = [0x14, 0x00, 0xc5, 0xd3, 0x00, 0x03, 0x2a, 0x04];
    for cpu in ["gfx90a", "gfx942"] {
        let mut w = wave(64);
        for l in 0..64 {
            set(&mut w, 0, l, small(l).to_bits());
            set(&mut w, 1, l, small(l + 100).to_bits());
            for r in 0..4 {
                set(&mut w, 10 + r, l, small(l * 4 + r + 500).to_bits());
            }
        }
        // A[3][2] (lane 16*2 + 3) is a NaN: row 3 of D is NaN, the rest is not
        set(&mut w, 0, 35, f32::NAN.to_bits());
        run(cpu, &mut w, &code);
        let a = |i: usize, k: usize| f32::from_bits(v(&w, 0, 16 * k + i));
        let b = |k: usize, j: usize| f32::from_bits(v(&w, 1, 16 * k + j));
        for i in 0..16 {
            for j in 0..16 {
                // C/D[i][j]: VGPR i % 4 of lane 16 * (i / 4) + j
                let (r, l) = (i % 4, 16 * (i / 4) + j);
                let c = f32::from_bits(v(&w, 10 + r, l));
                let want = (0..4).fold(c, |s, k| s + a(i, k) * b(k, j));
                let got = f32::from_bits(v(&w, 20 + r, l));
                if i == 3 {
                    assert!(got.is_nan(), "{cpu} D[{i}][{j}]");
                } else {
                    assert_eq!(got.to_bits(), want.to_bits(), "{cpu} D[{i}][{j}]");
                }
            }
        }
        // fused, not rounded after each product (the hardware-validated model of
        // MMA-Sim, arXiv 2511.10909: a chain of f32 fmas from C): (1 + 2^-12)^2 - 1 is
        // 2^-11 + 2^-24, where a rounded product would give 2^-11
        let mut w = wave(64);
        let x = 1.0f32 + 2f32.powi(-12);
        set(&mut w, 0, 0, x.to_bits());
        set(&mut w, 1, 0, x.to_bits());
        set(&mut w, 10, 0, (-1f32).to_bits());
        // and an f32 denormal C with zero products stays (denormals are kept)
        set(&mut w, 11, 0, 1);
        run(cpu, &mut w, &code);
        assert_eq!(
            f32::from_bits(v(&w, 20, 0)),
            2f32.powi(-11) + 2f32.powi(-24),
            "{cpu}"
        );
        assert_eq!(v(&w, 21, 0), 1, "{cpu}: denormal C");
        // EXEC not full: an error (the guides leave the result undefined)
        let mut w = wave(64);
        w.s[127] = 0;
        assert_eq!(go(cpu, &mut w, &code), Err(Fault::PartialExec), "{cpu}");
    }
    // gfx90a with the accumulator in AGPRs: v_accvgpr_write_b32 a5, v2 ;
    // v_accvgpr_mov_b32 a6, a5 ; v_accvgpr_read_b32 v3, a6 ;
    // v_mfma_f32_16x16x4f32 a[0:3], v0, v1, a[0:3]
    let mut w = wave(64);
    for l in 0..64 {
        set(&mut w, 0, l, 1f32.to_bits());
        set(&mut w, 1, l, 2f32.to_bits());
        set(&mut w, 2, l, 0x100 + l as u32);
        set(&mut w, 256, l, 0.5f32.to_bits());
        set(&mut w, 259, l, (-8f32).to_bits());
    }
    run(
        "gfx90a",
        &mut w,
        &[
            0x05, 0x40, 0xd9, 0xd3, 0x02, 0x01, 0x00, 0x18, //
            0x05, 0xa5, 0x0c, 0x7e, //
            0x03, 0x40, 0xd8, 0xd3, 0x06, 0x01, 0x00, 0x18, //
            0x00, 0x80, 0xc5, 0xd3, 0x00, 0x03, 0x02, 0x04,
        ],
    );
    for l in 0..64 {
        assert_eq!(v(&w, 261, l), 0x100 + l as u32, "accvgpr_write lane {l}");
        assert_eq!(v(&w, 262, l), 0x100 + l as u32, "accvgpr_mov lane {l}");
        assert_eq!(v(&w, 3, l), 0x100 + l as u32, "accvgpr_read lane {l}");
        // 4 * (1 * 2) + C
        assert_eq!(f32::from_bits(v(&w, 256, l)), 8.5, "AGPR D lane {l}");
        assert_eq!(f32::from_bits(v(&w, 259, l)), 0.0, "AGPR D lane {l}");
    }
}

#[test]
fn mfma_f64_16x16x4_f64() {
    // v_mfma_f64_16x16x4f64 v[20:27], v[0:1], v[2:3], v[10:17] (gfx90a; gfx942
    // v_mfma_f64_16x16x4_f64, same encoding)
    let code = [0x14, 0x00, 0xee, 0xd3, 0x00, 0x05, 0x2a, 0x04];
    for cpu in ["gfx90a", "gfx942"] {
        let mut w = wave(64);
        let put = |w: &mut Wave, r: usize, l: usize, x: f64| {
            set(w, r, l, x.to_bits() as u32);
            set(w, r + 1, l, (x.to_bits() >> 32) as u32);
        };
        for l in 0..64 {
            put(&mut w, 0, l, f64::from(small(l)) / 1024.0);
            put(&mut w, 2, l, f64::from(small(l + 100)) * 3.0);
            for p in 0..4 {
                put(&mut w, 10 + 2 * p, l, f64::from(small(l * 4 + p + 500)));
            }
        }
        // B[1][5] (lane 16 + 5) is -0 and C is -0 where that matters not; A[0][0] = inf
        // makes row 0 infinite or NaN (inf * 0)
        put(&mut w, 0, 0, f64::INFINITY);
        run(cpu, &mut w, &code);
        let get = |w: &Wave, r: usize, l: usize| {
            f64::from_bits(u64::from(v(w, r, l)) | u64::from(v(w, r + 1, l)) << 32)
        };
        for i in 0..16 {
            for j in 0..16 {
                // C/D[i][j]: VGPR pair 2 * (i / 4) of lane 16 * (i % 4) + j
                let (p, l) = (2 * (i / 4), 16 * (i % 4) + j);
                let c = get(&w, 10 + p, l);
                let want = (0..4).fold(c, |s, k| {
                    s + get(&w, 0, 16 * k + i) * get(&w, 2, 16 * k + j)
                });
                let got = get(&w, 20 + p, l);
                if want.is_nan() {
                    assert!(got.is_nan(), "{cpu} D[{i}][{j}]");
                } else {
                    assert_eq!(got.to_bits(), want.to_bits(), "{cpu} D[{i}][{j}]");
                }
            }
        }
        let mut w = wave(64);
        w.s[126] = 0;
        assert_eq!(go(cpu, &mut w, &code), Err(Fault::PartialExec), "{cpu}");
    }
}

/// Check a WMMA result: `a(i, k)`, `b(k, j)` the inputs and `place(i, j)` the
/// (VGPR of the tuple, lane) of C/D[i][j].
fn check_wmma(
    what: &str,
    w: &Wave,
    a: impl Fn(usize, usize) -> f32,
    b: impl Fn(usize, usize) -> f32,
    place: impl Fn(usize, usize) -> (usize, usize),
) {
    for i in 0..16 {
        for j in 0..16 {
            let (r, l) = place(i, j);
            let c = f32::from_bits(v(w, 16 + r, l));
            let want = (0..16).fold(c, |s, k| s + a(i, k) * b(k, j));
            let got = f32::from_bits(v(w, 24 + r, l));
            if want.is_nan() {
                assert!(got.is_nan(), "{what} D[{i}][{j}]");
            } else {
                assert_eq!(got.to_bits(), want.to_bits(), "{what} D[{i}][{j}]");
            }
        }
    }
}

fn f16_elem(w: &Wave, first: usize, lane: usize, e: usize) -> f32 {
    let x = v(w, first + e / 2, lane) >> (16 * (e % 2)) & 0xffff;
    // the inputs here are small integers or specials
    let sign = if x & 0x8000 != 0 { -1.0 } else { 1.0 };
    let ex = (x >> 10) & 0x1f;
    let m = (x & 0x3ff) as f32;
    match ex {
        0 => sign * m * 2f32.powi(-24),
        31 if m == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + m / 1024.0) * 2f32.powi(ex as i32 - 15),
    }
}

#[test]
fn wmma_f32_16x16x16_f16_gfx11() {
    // v_wmma_f32_16x16x16_f16 v[24:31], v[0:7], v[8:15], v[16:23] (gfx1100), in wave32
    // and wave64: A[i][k] is element k of lane i (replicated in every 16-lane group),
    // B[k][j] element k of lane j, C/D[i][j] VGPR i / (W/16) of lane (16 i + j) % W
    let code = [0x18, 0x40, 0x40, 0xcc, 0x00, 0x11, 0x42, 0x1c];
    for lanes in [32u32, 64] {
        let mut w = wave(lanes);
        let wsz = lanes as usize;
        for l in 0..wsz {
            let row = l % 16;
            for r in 0..8 {
                let e = |k: usize| h(small(row * 16 + k));
                let f = |k: usize| h(small(row * 16 + k + 1000) / 4.0);
                set(&mut w, r, l, pk(e(2 * r), e(2 * r + 1)));
                set(&mut w, 8 + r, l, pk(f(2 * r), f(2 * r + 1)));
                set(&mut w, 16 + r, l, small(l * 8 + r + 77).to_bits());
            }
        }
        // A[5][3] is -inf in every replica: row 5 is -inf or NaN
        for g in 0..wsz / 16 {
            let x = v(&w, 1, 5 + 16 * g);
            set(&mut w, 1, 5 + 16 * g, (x & 0xffff) | NINF16 << 16);
        }
        run("gfx1100", &mut w, &code);
        check_wmma(
            &format!("gfx1100 wave{lanes}"),
            &w,
            |i, k| f16_elem(&w, 0, i, k),
            |k, j| f16_elem(&w, 8, j, k),
            |i, j| (i / (wsz / 16), (16 * i + j) % wsz),
        );
        let mut w = wave(lanes);
        w.s[126] = 0xffff;
        assert_eq!(go("gfx1100", &mut w, &code), Err(Fault::PartialExec));
    }
}

#[test]
fn wmma_f32_16x16x16_f16_gfx12() {
    // v_wmma_f32_16x16x16_f16 v[24:31], v[0:3], v[8:11], v[16:23] (gfx1200): A[i][k] is
    // element k % 8 of lane i + 16 (k / 8), B[k][j] element k % 8 of lane j + 16 (k / 8),
    // C/D[i][j] VGPR i % 8 of lane j + 16 (i / 8)
    let code = [0x18, 0x40, 0x40, 0xcc, 0x00, 0x11, 0x42, 0x1c];
    let mut w = wave(32);
    for l in 0..32 {
        for r in 0..4 {
            let e = |k: usize| h(small(l * 8 + k));
            let f = |k: usize| h(small(l * 8 + k + 1000) * 2.0);
            set(&mut w, r, l, pk(e(2 * r), e(2 * r + 1)));
            set(&mut w, 8 + r, l, pk(f(2 * r), f(2 * r + 1)));
        }
        for r in 0..8 {
            set(&mut w, 16 + r, l, small(l * 8 + r + 77).to_bits());
        }
    }
    // a NaN in B[12][7] (element 4 of lane 7 + 16): column 7 is NaN
    let x = v(&w, 10, 23);
    set(&mut w, 10, 23, (x & 0xffff_0000) | NAN16);
    run("gfx1200", &mut w, &code);
    check_wmma(
        "gfx1200",
        &w,
        |i, k| f16_elem(&w, 0, i + 16 * (k / 8), k % 8),
        |k, j| f16_elem(&w, 8, j + 16 * (k / 8), k % 8),
        |i, j| (i % 8, j + 16 * (i / 8)),
    );
    for i in 0..16 {
        assert!(f32::from_bits(v(&w, 24 + i % 8, 7 + 16 * (i / 8))).is_nan());
    }
    let mut w = wave(32);
    w.s[126] = 0x7fff_ffff;
    assert_eq!(go("gfx1200", &mut w, &code), Err(Fault::PartialExec));
}
