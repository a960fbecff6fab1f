//! Per-operation tests of the 16-bit and packed (VOP3P) vector operations, from the
//! ISA manuals: f16 results from exact f64 arithmetic and one round-to-nearest-even to
//! f16 written here, integer results wrapping as the manuals say. gfx1100 takes these
//! operations' 16-bit operands as true16 registers, not run by the emulator yet (NOTES
//! "Left"), so the scalar 16-bit tests run on gfx9 and gfx8; the packed ones on gfx9
//! and gfx1100.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::float::{max_num, min_num};
use common::*;

const P16: [&str; 3] = ["gfx900", "gfx90a", "gfx803"];
const PK: [&str; 3] = ["gfx900", "gfx90a", "gfx1100"];

const H_NAN: u16 = 0x7e00;

/// f16 bits to f64 (exact).
fn h2f(h: u16) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = (h >> 10) & 0x1f;
    let m = f64::from(h & 0x3ff);
    s * match e {
        0 => m * 2f64.powi(-24),
        31 => {
            if m == 0.0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        _ => (1.0 + m / 1024.0) * 2f64.powi(i32::from(e) - 15),
    }
}

/// f64 to f16 bits, rounded to nearest even (IEEE), overflow to infinity.
fn f2h(x: f64) -> u16 {
    if x.is_nan() {
        return H_NAN;
    }
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // subnormal (or rounds up to the smallest normal, encoding 0x400)
        return sign | (a * 2f64.powi(24)).round_ties_even() as u16;
    }
    let mut e = 0i32;
    let mut m = a;
    while m >= 2.0 {
        m /= 2.0;
        e += 1;
    }
    while m < 1.0 {
        m *= 2.0;
        e -= 1;
    }
    let mut frac = ((m - 1.0) * 1024.0).round_ties_even() as u32;
    if frac == 1024 {
        frac = 0;
        e += 1;
    }
    if e + 15 >= 31 {
        return sign | 0x7c00;
    }
    sign | (((e + 15) as u16) << 10) | frac as u16
}

fn same16(g: u16, w: u16) -> bool {
    g == w || (h2f(g).is_nan() && h2f(w).is_nan())
}

const HV: [u16; 14] = [
    0, 0x8000, 0x3c00, 0xbe00, 0x7bff, 0x0400, 0x0001, 0x03ff, 0x7c00, 0xfc00, H_NAN, 0x2e66,
    0x4200, 0xc900,
];

fn h_pairs() -> (Vec<u32>, Vec<u32>) {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for x in HV {
        for y in HV {
            a.push(u32::from(x));
            b.push(u32::from(y));
        }
    }
    (a, b)
}

fn hbin(procs: &[&'static str], alts: &[&str], f: impl Fn(f64, f64) -> f64) {
    let (a, b) = h_pairs();
    each(procs, alts, &[in32(&a), in32(&b)], 1, |p, got| {
        for i in 0..a.len() {
            let w = f2h(f(h2f(a[i] as u16), h2f(b[i] as u16)));
            assert!(
                same16(got[i] as u16, w),
                "{p} {} ({:#06x}, {:#06x}): got {:#06x} want {w:#06x}",
                alts[0],
                a[i],
                b[i],
                got[i] as u16
            );
        }
    });
}

#[test]
fn f16_arithmetic() {
    hbin(&P16, &["v_add_f16 v24, v8, v12"], |a, b| a + b);
    hbin(&P16, &["v_sub_f16 v24, v8, v12"], |a, b| a - b);
    hbin(&P16, &["v_subrev_f16 v24, v8, v12"], |a, b| b - a);
    hbin(&P16, &["v_mul_f16 v24, v8, v12"], |a, b| a * b);
    hbin(&P16, &["v_max_f16 v24, v8, v12"], max_num);
    hbin(&P16, &["v_min_f16 v24, v8, v12"], min_num);
    // fma: one rounding (the f64 sum is exact for these operands)
    let t = [
        0u16, 0x8000, 0x3c00, 0xbe00, 0x2e66, 0x4200, 0x7c00, H_NAN, 0x0001,
    ];
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in t {
        for y in t {
            for z in t {
                a.push(u32::from(x));
                b.push(u32::from(y));
                c.push(u32::from(z));
            }
        }
    }
    each(
        &P16,
        &["v_fma_f16 v24, v8, v12, v16"],
        &[in32(&a), in32(&b), in32(&c)],
        1,
        |p, got| {
            for i in 0..a.len() {
                let w = f2h(h2f(a[i] as u16) * h2f(b[i] as u16) + h2f(c[i] as u16));
                assert!(
                    same16(got[i] as u16, w),
                    "{p} v_fma_f16 lane {i}: {:#06x} want {w:#06x}",
                    got[i] as u16
                );
            }
        },
    );
    // mad: the product rounded to f16, then the sum (normal operands)
    let t = [0x3c00u16, 0xbe00, 0x2e66, 0x4200, 0x3555, 0x7bff];
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in t {
        for y in t {
            for z in t {
                a.push(u32::from(x));
                b.push(u32::from(y));
                c.push(u32::from(z));
            }
        }
    }
    each(
        &P16,
        &["v_mad_f16 v24, v8, v12, v16"],
        &[in32(&a), in32(&b), in32(&c)],
        1,
        |p, got| {
            for i in 0..a.len() {
                let prod = h2f(f2h(h2f(a[i] as u16) * h2f(b[i] as u16)));
                let w = f2h(prod + h2f(c[i] as u16));
                assert!(
                    same16(got[i] as u16, w),
                    "{p} v_mad_f16 lane {i}: {:#06x} want {w:#06x}",
                    got[i] as u16
                );
            }
        },
    );
}

#[test]
fn f16_conversions() {
    let hv: Vec<u32> = HV.iter().map(|x| u32::from(*x)).collect();
    each(
        &P16,
        &["v_cvt_f32_f16 v24, v8"],
        &[in32(&hv)],
        1,
        |p, got| {
            for (i, h) in HV.iter().enumerate() {
                let w = (h2f(*h) as f32).to_bits();
                assert!(
                    got[i] == w || (h2f(*h).is_nan() && f32::from_bits(got[i]).is_nan()),
                    "{p} v_cvt_f32_f16 {h:#06x}: {:#x}",
                    got[i]
                );
            }
        },
    );
    let fv: Vec<u32> = [
        1.0f32,
        -0.0,
        65504.0,
        65520.0,
        65519.0,
        1.0e-8,
        3.0e-5,
        0.1,
        1.0 + 1.0 / 2048.0,
        f32::INFINITY,
    ]
    .iter()
    .map(|x| x.to_bits())
    .chain([0x7fc0_0000])
    .collect();
    each(
        &P16,
        &["v_cvt_f16_f32 v24, v8"],
        &[in32(&fv)],
        1,
        |p, got| {
            for (i, x) in fv.iter().enumerate() {
                let w = f2h(f64::from(f32::from_bits(*x)));
                assert!(
                    same16(got[i] as u16, w),
                    "{p} v_cvt_f16_f32 {:e}: {:#06x} want {w:#06x}",
                    f32::from_bits(*x),
                    got[i] as u16
                );
            }
        },
    );
    // pkrtz: both halves rounded toward zero (so overflow gives the largest finite)
    let rtz = |x: f32| -> u16 {
        let r = f2h(f64::from(x));
        if x.is_nan() || x.is_infinite() {
            return r;
        }
        // step back toward zero when rounding went away from zero
        if h2f(r).abs() > f64::from(x).abs() {
            r - 1
        } else {
            r
        }
    };
    let (a, b) = pairs(&fv);
    each(
        &["gfx900", "gfx90a", "gfx803", "gfx1100"],
        &[
            "v_cvt_pkrtz_f16_f32 v24, v8, v12",
            "v_cvt_pk_rtz_f16_f32 v24, v8, v12",
        ],
        &[in32(&a), in32(&b)],
        1,
        |p, got| {
            for i in 0..a.len() {
                let (x, y) = (f32::from_bits(a[i]), f32::from_bits(b[i]));
                let (lo, hi) = (rtz(x), rtz(y));
                assert!(
                    same16(got[i] as u16, lo) && same16((got[i] >> 16) as u16, hi),
                    "{p} pkrtz ({x:e}, {y:e}): {:#010x} want {hi:04x}{lo:04x}",
                    got[i]
                );
            }
        },
    );
    // pack: D = {S1[15:0], S0[15:0]}
    let (a, b) = h_pairs();
    each(
        &["gfx900", "gfx90a"],
        &["v_pack_b32_f16 v24, v8, v12"],
        &[in32(&a), in32(&b)],
        1,
        |p, got| {
            check(
                p,
                "v_pack_b32_f16",
                got,
                |i| a[i] & 0xffff | b[i] << 16,
                a.len(),
            )
        },
    );
}

const IV: [u32; 10] = [0, 1, 2, 15, 16, 17, 0x7fff, 0x8000, 0xffff, 0x1234];

fn ibin(alts: &[&str], f: impl Fn(u16, u16) -> u16) {
    let (a, b) = pairs(&IV);
    each(&P16, alts, &[in32(&a), in32(&b)], 1, |p, got| {
        for i in 0..a.len() {
            let w = f(a[i] as u16, b[i] as u16);
            assert_eq!(
                got[i] as u16, w,
                "{p} {} ({:#x}, {:#x})",
                alts[0], a[i], b[i]
            );
        }
    });
}

#[test]
fn u16_and_i16() {
    ibin(&["v_add_u16 v24, v8, v12"], u16::wrapping_add);
    ibin(&["v_sub_u16 v24, v8, v12"], u16::wrapping_sub);
    ibin(&["v_subrev_u16 v24, v8, v12"], |a, b| b.wrapping_sub(a));
    ibin(&["v_mul_lo_u16 v24, v8, v12"], u16::wrapping_mul);
    // shift counts: S0[3:0]
    ibin(&["v_lshlrev_b16 v24, v8, v12"], |a, b| b << (a & 15));
    ibin(&["v_lshrrev_b16 v24, v8, v12"], |a, b| b >> (a & 15));
    ibin(&["v_ashrrev_i16 v24, v8, v12"], |a, b| {
        ((b as i16) >> (a & 15)) as u16
    });
    ibin(&["v_max_u16 v24, v8, v12"], u16::max);
    ibin(&["v_min_u16 v24, v8, v12"], u16::min);
    ibin(&["v_max_i16 v24, v8, v12"], |a, b| {
        (a as i16).max(b as i16) as u16
    });
    ibin(&["v_min_i16 v24, v8, v12"], |a, b| {
        (a as i16).min(b as i16) as u16
    });
    // signed adds (VOP3, gfx9): wrapping, saturating with clamp
    let (a, b) = pairs(&IV);
    for p in GFX9 {
        let out = run(p, &[in32(&a), in32(&b)], &[1, 1, 1, 1], |k| {
            k.i("v_add_i16 v24, v8, v12");
            k.i("v_sub_i16 v28, v8, v12");
            k.i("v_add_i16 v32, v8, v12 clamp");
            k.i("v_sub_i16 v36, v8, v12 clamp");
        });
        for i in 0..a.len() {
            let (x, y) = (a[i] as u16 as i16, b[i] as u16 as i16);
            assert_eq!(
                out[0][i] as u16,
                x.wrapping_add(y) as u16,
                "{p} v_add_i16 {x} {y}"
            );
            assert_eq!(
                out[1][i] as u16,
                x.wrapping_sub(y) as u16,
                "{p} v_sub_i16 {x} {y}"
            );
            assert_eq!(
                out[2][i] as u16,
                x.saturating_add(y) as u16,
                "{p} v_add_i16 clamp {x} {y}"
            );
            assert_eq!(
                out[3][i] as u16,
                x.saturating_sub(y) as u16,
                "{p} v_sub_i16 clamp {x} {y}"
            );
        }
    }
    let t = [0u32, 1, 0x8000, 0xffff, 0x1234];
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in t {
        for y in t {
            for z in t {
                a.push(x);
                b.push(y);
                c.push(z);
            }
        }
    }
    each(
        &P16,
        &["v_mad_u16 v24, v8, v12, v16"],
        &[in32(&a), in32(&b), in32(&c)],
        1,
        |p, got| {
            for i in 0..a.len() {
                let w = (a[i] as u16)
                    .wrapping_mul(b[i] as u16)
                    .wrapping_add(c[i] as u16);
                assert_eq!(got[i] as u16, w, "{p} v_mad_u16 lane {i}");
            }
        },
    );
}

/// Packed operands: two halves per dword.
fn pk_pairs() -> (Vec<u32>, Vec<u32>) {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for (i, x) in HV.iter().enumerate() {
        for (j, y) in HV.iter().enumerate() {
            let x2 = HV[(i + 3) % HV.len()];
            let y2 = HV[(j + 5) % HV.len()];
            a.push(u32::from(*x) | u32::from(x2) << 16);
            b.push(u32::from(*y) | u32::from(y2) << 16);
        }
    }
    (a, b)
}

#[test]
fn packed_f16_and_u16() {
    let (a, b) = pk_pairs();
    let halves = |x: u32| [x as u16, (x >> 16) as u16];
    type Op1 = fn(f64, f64) -> f64;
    let fops: [(&str, Op1); 4] = [
        ("v_pk_add_f16 v24, v8, v12", |a, b| a + b),
        ("v_pk_mul_f16 v24, v8, v12", |a, b| a * b),
        ("v_pk_max_f16 v24, v8, v12", max_num),
        ("v_pk_min_f16 v24, v8, v12", min_num),
    ];
    for (t, f) in fops {
        each(&PK, &[t], &[in32(&a), in32(&b)], 1, |p, got| {
            for i in 0..a.len() {
                for h in 0..2 {
                    let w = f2h(f(h2f(halves(a[i])[h]), h2f(halves(b[i])[h])));
                    assert!(
                        same16(halves(got[i])[h], w),
                        "{p} {t} lane {i} half {h}: {:#010x} want {w:#06x}",
                        got[i]
                    );
                }
            }
        });
    }
    type Op2 = fn(u16, u16) -> u16;
    let iops: [(&str, Op2); 3] = [
        ("v_pk_add_u16 v24, v8, v12", u16::wrapping_add),
        ("v_pk_sub_u16 v24, v8, v12", u16::wrapping_sub),
        ("v_pk_mul_lo_u16 v24, v8, v12", u16::wrapping_mul),
    ];
    for (t, f) in iops {
        each(&PK, &[t], &[in32(&a), in32(&b)], 1, |p, got| {
            for i in 0..a.len() {
                for h in 0..2 {
                    assert_eq!(
                        halves(got[i])[h],
                        f(halves(a[i])[h], halves(b[i])[h]),
                        "{p} {t} lane {i} half {h}"
                    );
                }
            }
        });
    }
    // fma with op_sel: each result half takes the halves op_sel/op_sel_hi pick
    let c: Vec<u32> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| x.rotate_left(16) ^ (y & 0x8000_8000))
        .collect();
    each(
        &PK,
        &["v_pk_fma_f16 v24, v8, v12, v16 op_sel:[1,0,0] op_sel_hi:[0,1,1]"],
        &[in32(&a), in32(&b), in32(&c)],
        1,
        |p, got| {
            for i in 0..a.len() {
                let (ah, bh, ch) = (halves(a[i]), halves(b[i]), halves(c[i]));
                let lo = f2h(h2f(ah[1]) * h2f(bh[0]) + h2f(ch[0]));
                let hi = f2h(h2f(ah[0]) * h2f(bh[1]) + h2f(ch[1]));
                assert!(
                    same16(halves(got[i])[0], lo) && same16(halves(got[i])[1], hi),
                    "{p} v_pk_fma_f16 op_sel lane {i}: {:#010x} want {hi:04x}{lo:04x}",
                    got[i]
                );
            }
        },
    );
}

#[test]
fn packed_f32_gfx90a() {
    // gfx90a: two f32 lanes in a register pair
    let v: Vec<u64> = [
        1.5f32,
        -0.0,
        f32::MAX,
        0.1,
        f32::INFINITY,
        f32::NAN,
        f32::from_bits(1),
    ]
    .iter()
    .flat_map(|x| {
        [1.0f32, -2.5, 3.0e38].map(|y| u64::from(x.to_bits()) | u64::from(y.to_bits()) << 32)
    })
    .collect();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in &v {
        for y in &v {
            a.push(*x);
            b.push(*y);
        }
    }
    let c: Vec<u64> = b.iter().map(|x| x.rotate_left(32)).collect();
    let f = |x: u64, h: u32| f32::from_bits((x >> (32 * h)) as u32);
    let same = |g: u32, w: f32| g == w.to_bits() || (f32::from_bits(g).is_nan() && w.is_nan());
    let out = run(
        "gfx90a",
        &[in64(&a), in64(&b), in64(&c)],
        &[2, 2, 2, 2],
        |k| {
            k.i("v_pk_add_f32 v[24:25], v[8:9], v[12:13]");
            k.i("v_pk_mul_f32 v[28:29], v[8:9], v[12:13]");
            k.i("v_pk_fma_f32 v[32:33], v[8:9], v[12:13], v[16:17]");
            k.i("v_pk_mov_b32 v[36:37], v[8:9], v[12:13] op_sel:[1,0]");
        },
    );
    for i in 0..a.len() {
        for h in 0..2u32 {
            let (x, y, z) = (f(a[i], h), f(b[i], h), f(c[i], h));
            let g = |o: &[u32]| o[2 * i + h as usize];
            assert!(same(g(&out[0]), x + y), "v_pk_add_f32 lane {i} half {h}");
            assert!(same(g(&out[1]), x * y), "v_pk_mul_f32 lane {i} half {h}");
            assert!(
                same(g(&out[2]), x.mul_add(y, z)),
                "v_pk_fma_f32 lane {i} half {h}"
            );
        }
        // pk_mov op_sel:[1,0]: the low result is src0's high half, the high result
        // src1's low half
        assert_eq!(
            out[3][2 * i],
            (a[i] >> 32) as u32,
            "v_pk_mov_b32 lo lane {i}"
        );
        assert_eq!(out[3][2 * i + 1], b[i] as u32, "v_pk_mov_b32 hi lane {i}");
    }
}

#[test]
fn mac_f16_accumulates_into_the_destination() {
    // v_mac_f16: D.f16 = S0.f16 * S1.f16 + D.f16, the product rounded to f16 as in
    // v_mad_f16; lanes that are off keep D
    let t = [
        0x3c00u16, 0xbe00, 0x2e66, 0x4200, 0x3555, 0x7bff, 0, 0x8000, 0x7c00, H_NAN,
    ];
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in t {
        for y in t {
            for z in [0x3c00u16, 0x8000, 0xc900, 0xfc00] {
                a.push(u32::from(x));
                b.push(u32::from(y));
                c.push(u32::from(z));
            }
        }
    }
    for p in P16 {
        let got = run(p, &[in32(&a), in32(&b), in32(&c)], &[1], |k| {
            k.i("v_mov_b32 v24, v16");
            // lane 5 of each wave is off
            k.exec(!(1u64 << 5));
            k.i("v_mac_f16 v24, v8, v12");
        });
        for i in 0..a.len() {
            let g = got[0][i] as u16;
            if i % 64 == 5 {
                assert_eq!(
                    got[0][i], c[i],
                    "{p} lane {i}: an inactive lane was written"
                );
                continue;
            }
            let prod = h2f(f2h(h2f(a[i] as u16) * h2f(b[i] as u16)));
            let w = f2h(prod + h2f(c[i] as u16));
            assert!(
                same16(g, w),
                "{p} v_mac_f16 lane {i}: {g:#06x} want {w:#06x}"
            );
        }
    }
}
