//! Per-operation tests of the f64 vector operations, from the ISA manuals: IEEE results
//! computed here with Rust's f64 (denormals are kept: FLOAT_DENORM_MODE_16_64 = 3, the
//! `.amdhsa_kernel` default), special values by bit pattern, 1 ulp for rcp/rsq.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::float::f64bits::*;
use common::float::{max_num, min_num};
use common::*;

const P: [&str; 4] = ALL;

const DEN: u64 = 1;

fn vals() -> Vec<u64> {
    vec![
        0,
        NZERO,
        db(1.0),
        db(-1.0),
        db(1.5),
        db(0.1),
        db(-2.75e300),
        db(f64::MAX),
        db(f64::MIN_POSITIVE),
        DEN,
        0x800f_ffff_ffff_ffff,
        INF,
        NINF,
        NAN,
    ]
}

fn q(o: &[u32], i: usize) -> u64 {
    u64::from(o[2 * i]) | u64::from(o[2 * i + 1]) << 32
}

fn bin64(alts: &[&str], f: impl Fn(f64, f64) -> f64) {
    let v = vals();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in &v {
        for y in &v {
            a.push(*x);
            b.push(*y);
        }
    }
    each(&P, alts, &[in64(&a), in64(&b)], 2, |p, got| {
        for i in 0..a.len() {
            let w = db(f(bd(a[i]), bd(b[i])));
            assert!(
                same(q(got, i), w),
                "{p} {} ({:e}, {:e}): got {:#x} want {w:#x}",
                alts[0],
                bd(a[i]),
                bd(b[i]),
                q(got, i)
            );
        }
    });
}

fn un64(alts: &[&str], v: &[u64], f: impl Fn(f64) -> u64) {
    each(&P, alts, &[in64(v)], 2, |p, got| {
        for i in 0..v.len() {
            let w = f(bd(v[i]));
            assert!(
                same(q(got, i), w),
                "{p} {} ({:e}): got {:#x} want {w:#x}",
                alts[0],
                bd(v[i]),
                q(got, i)
            );
        }
    });
}

#[test]
fn arithmetic_is_ieee() {
    bin64(&["v_add_f64 v[24:25], v[8:9], v[12:13]"], |a, b| a + b);
    bin64(&["v_mul_f64 v[24:25], v[8:9], v[12:13]"], |a, b| a * b);
    bin64(&["v_min_f64 v[24:25], v[8:9], v[12:13]"], min_num);
    bin64(&["v_max_f64 v[24:25], v[8:9], v[12:13]"], max_num);
    let t = [
        0,
        NZERO,
        db(1.0),
        db(-1.5),
        db(0.1),
        db(1.0 + f64::EPSILON),
        db(1e308),
        INF,
        NAN,
    ];
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
        &P,
        &["v_fma_f64 v[24:25], v[8:9], v[12:13], v[16:17]"],
        &[in64(&a), in64(&b), in64(&c)],
        2,
        |p, got| {
            for i in 0..a.len() {
                let w = db(bd(a[i]).mul_add(bd(b[i]), bd(c[i])));
                assert!(same(q(got, i), w), "{p} v_fma_f64 lane {i}");
            }
        },
    );
    // fmac (gfx90a): D = S0 * S1 + D
    let out = run("gfx90a", &[in64(&a), in64(&b), in64(&c)], &[2], |k| {
        k.i("v_mov_b32 v24, v16");
        k.i("v_mov_b32 v25, v17");
        k.i("v_fmac_f64 v[24:25], v[8:9], v[12:13]");
    });
    for i in 0..a.len() {
        let w = db(bd(a[i]).mul_add(bd(b[i]), bd(c[i])));
        assert!(same(q(&out[0], i), w), "gfx90a v_fmac_f64 lane {i}");
    }
    // div_fmas with VCC clear is the fma
    for p in GFX9 {
        let out = run(p, &[in64(&a), in64(&b), in64(&c)], &[2], |k| {
            k.i("s_mov_b64 vcc, 0");
            k.i("v_div_fmas_f64 v[24:25], v[8:9], v[12:13], v[16:17]");
        });
        for i in 0..a.len() {
            let w = db(bd(a[i]).mul_add(bd(b[i]), bd(c[i])));
            assert!(same(q(&out[0], i), w), "{p} v_div_fmas_f64 lane {i}");
        }
    }
}

#[test]
fn conversions() {
    let f = [
        0,
        NZERO,
        db(1.9),
        db(-1.9),
        db(5.0e9),
        db(-3.0e9),
        db(2147483647.5),
        INF,
        NINF,
        NAN,
        DEN,
    ];
    // to integers: toward zero, saturating, NaN to 0
    each(
        &P,
        &["v_cvt_i32_f64 v24, v[8:9]"],
        &[in64(&f)],
        1,
        |p, got| check(p, "v_cvt_i32_f64", got, |i| bd(f[i]) as i32 as u32, f.len()),
    );
    each(
        &P,
        &["v_cvt_u32_f64 v24, v[8:9]"],
        &[in64(&f)],
        1,
        |p, got| check(p, "v_cvt_u32_f64", got, |i| bd(f[i]) as u32, f.len()),
    );
    // to f32: rounded to nearest even; overflow to infinity; denormal results kept
    // (the f32 mode of the harness keeps them)
    let g = [
        db(1.0 + 2f64.powi(-24)),
        db(1.0 + 3.0 * 2f64.powi(-24)),
        db(1e39),
        db(-1e-40),
        db(1e-50),
        NAN,
        INF,
        NZERO,
    ];
    each(
        &P,
        &["v_cvt_f32_f64 v24, v[8:9]"],
        &[in64(&g)],
        1,
        |p, got| {
            for i in 0..g.len() {
                let w = (bd(g[i]) as f32).to_bits();
                assert!(
                    got[i] == w || (f32::from_bits(got[i]).is_nan() && bd(g[i]).is_nan()),
                    "{p} v_cvt_f32_f64 {:e}: {:#x} want {w:#x}",
                    bd(g[i]),
                    got[i]
                );
            }
        },
    );
    let h: Vec<u32> = [1.5f32, -0.0, f32::MAX, f32::from_bits(1), f32::INFINITY]
        .iter()
        .map(|x| x.to_bits())
        .chain([0x7fc0_0000])
        .collect();
    each(
        &P,
        &["v_cvt_f64_f32 v[24:25], v8"],
        &[in32(&h)],
        2,
        |p, got| {
            for i in 0..h.len() {
                let w = db(f64::from(f32::from_bits(h[i])));
                assert!(same(q(got, i), w), "{p} v_cvt_f64_f32 {:#x}", h[i]);
            }
        },
    );
    let ints = [0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];
    each(
        &P,
        &["v_cvt_f64_i32 v[24:25], v8"],
        &[in32(&ints)],
        2,
        |p, got| {
            for (i, x) in ints.iter().enumerate() {
                assert_eq!(
                    q(got, i),
                    db(f64::from(*x as i32)),
                    "{p} v_cvt_f64_i32 {x:#x}"
                );
            }
        },
    );
    each(
        &P,
        &["v_cvt_f64_u32 v[24:25], v8"],
        &[in32(&ints)],
        2,
        |p, got| {
            for (i, x) in ints.iter().enumerate() {
                assert_eq!(q(got, i), db(f64::from(*x)), "{p} v_cvt_f64_u32 {x:#x}");
            }
        },
    );
}

#[test]
fn rounding_frexp_ldexp() {
    let v = [
        0,
        NZERO,
        db(1.5),
        db(2.5),
        db(-1.5),
        db(-2.5),
        db(-0.1),
        db(4503599627370497.0),
        INF,
        NINF,
        NAN,
        DEN,
    ];
    un64(&["v_trunc_f64 v[24:25], v[8:9]"], &v, |x| db(x.trunc()));
    un64(&["v_floor_f64 v[24:25], v[8:9]"], &v, |x| db(x.floor()));
    un64(&["v_ceil_f64 v[24:25], v[8:9]"], &v, |x| db(x.ceil()));
    un64(&["v_rndne_f64 v[24:25], v[8:9]"], &v, |x| {
        db(x.round_ties_even())
    });
    let fr = [db(1.25), db(-1.25), db(7.75), db(-1e-20), INF, NAN];
    un64(&["v_fract_f64 v[24:25], v[8:9]"], &fr, |x| {
        if x.is_infinite() {
            NAN
        } else {
            db((x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff)))
        }
    });
    let frexp = |x: f64| -> (f64, i32) {
        if x == 0.0 || !x.is_finite() {
            return (x, 0);
        }
        let (mut m, mut e) = (x, 0);
        // scale denormals up first (exact)
        if m.abs() < f64::MIN_POSITIVE {
            m *= 2f64.powi(64);
            e -= 64;
        }
        while m.abs() >= 1.0 {
            m /= 2.0;
            e += 1;
        }
        while m.abs() < 0.5 {
            m *= 2.0;
            e -= 1;
        }
        (m, e)
    };
    let v = [
        db(1.0),
        db(-6.0),
        db(0.3),
        0,
        NZERO,
        DEN,
        db(f64::MAX),
        INF,
        NAN,
    ];
    un64(&["v_frexp_mant_f64 v[24:25], v[8:9]"], &v, move |x| {
        db(frexp(x).0)
    });
    each(
        &P,
        &["v_frexp_exp_i32_f64 v24, v[8:9]"],
        &[in64(&v)],
        1,
        |p, got| {
            check(
                p,
                "v_frexp_exp_i32_f64",
                got,
                |i| frexp(bd(v[i])).1 as u32,
                v.len(),
            )
        },
    );
    let xs = [db(1.5), db(-3.0), DEN, db(f64::MAX), NZERO, INF, NAN];
    let es = [0i32, 1, -1, 1000, -1074, -1100, 2000, i32::MIN, i32::MAX];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in xs {
        for e in es {
            a.push(x);
            b.push(e as u32);
        }
    }
    // x * 2^e with one rounding: scaled in exact power-of-two steps (each step exact
    // until the last, which rounds once)
    let ld = |x: f64, e: i32| -> f64 {
        if x == 0.0 || !x.is_finite() {
            return x;
        }
        let e = e.clamp(-2200, 2200);
        let mut r = x;
        let mut left = e;
        while left != 0 {
            let s = left.clamp(-1000, 1000);
            let next = r * 2f64.powi(s);
            if next == 0.0 || next.is_infinite() || next.abs() < f64::MIN_POSITIVE {
                // the final (rounding) step: do the rest at once in steps that stay exact
                // until the result, i.e. scale the remaining exponent in one go
                r = if left < -1000 {
                    r * 2f64.powi(-1000) * 2f64.powi(left + 1000)
                } else {
                    next
                };
                break;
            }
            r = next;
            left -= s;
        }
        r
    };
    each(
        &P,
        &["v_ldexp_f64 v[24:25], v[8:9], v12"],
        &[in64(&a), in32(&b)],
        2,
        |p, got| {
            for i in 0..a.len() {
                let w = db(ld(bd(a[i]), b[i] as i32));
                assert!(
                    same(q(got, i), w),
                    "{p} v_ldexp_f64 ({:e}, {}): got {:e} want {:e}",
                    bd(a[i]),
                    b[i] as i32,
                    bd(q(got, i)),
                    bd(w)
                );
            }
        },
    );
}

#[test]
fn reciprocal_and_roots() {
    let v: Vec<u64> = [0.5f64, 1.0, 3.0, 1e-300, 1e300, 0.1, -2.0]
        .iter()
        .map(|x| db(*x))
        .chain([0, NZERO, INF, NINF, NAN])
        .collect();
    let near = |g: u64, w: f64| {
        if w.is_nan() || w.is_infinite() || w == 0.0 {
            same(g, db(w))
        } else {
            (g as i128 - db(w) as i128).abs() <= 1
        }
    };
    type Op1 = fn(f64) -> f64;
    let cases: [(&str, Op1); 3] = [
        ("v_rcp_f64 v[24:25], v[8:9]", |x| 1.0 / x),
        ("v_rsq_f64 v[24:25], v[8:9]", |x| 1.0 / x.sqrt()),
        ("v_sqrt_f64 v[24:25], v[8:9]", f64::sqrt),
    ];
    for (t, f) in cases {
        each(&P, &[t], &[in64(&v)], 2, |p, got| {
            for i in 0..v.len() {
                let w = f(bd(v[i]));
                assert!(
                    near(q(got, i), w),
                    "{p} {t} ({:e}): got {:e} want {w:e}",
                    bd(v[i]),
                    bd(q(got, i))
                );
            }
        });
    }
}

#[test]
fn division_steps_and_class() {
    // div_scale in the normal range: S0 unchanged, VCC clear
    let num = [db(1.0), db(-3.0), db(100.0)];
    let den = [db(3.0), db(0.5), db(-7.0)];
    for p in GFX9 {
        let out = run(p, &[in64(&num), in64(&den)], &[2, 1], |k| {
            k.i("v_div_scale_f64 v[24:25], vcc, v[8:9], v[12:13], v[8:9]");
            k.i("v_cndmask_b32 v28, 0, 1, vcc");
        });
        for i in 0..3 {
            assert_eq!(q(&out[0], i), num[i], "{p} div_scale_f64 lane {i}");
            assert_eq!(out[1][i], 0, "{p} div_scale_f64 VCC lane {i}");
        }
    }
    // div_fixup(quotient, denominator, numerator) special cases (manual pseudocode)
    let qt = db(0.25);
    let cases = [
        (qt, db(4.0), db(1.0), qt),
        (qt, 0, 0, NAN),
        (qt, INF, NINF, NAN),
        (qt, 0, db(-2.0), NINF),
        (qt, NZERO, db(-2.0), INF),
        (qt, INF, db(3.0), 0),
        (qt, NINF, db(3.0), NZERO),
        (qt, NAN, db(1.0), NAN),
        (qt, db(1.0), NAN, NAN),
    ];
    let a: Vec<u64> = cases.iter().map(|c| c.0).collect();
    let b: Vec<u64> = cases.iter().map(|c| c.1).collect();
    let c: Vec<u64> = cases.iter().map(|c| c.2).collect();
    each(
        &P,
        &["v_div_fixup_f64 v[24:25], v[8:9], v[12:13], v[16:17]"],
        &[in64(&a), in64(&b), in64(&c)],
        2,
        |p, got| {
            for (i, cs) in cases.iter().enumerate() {
                assert!(
                    same(q(got, i), cs.3),
                    "{p} v_div_fixup_f64 case {i}: {:#x}",
                    q(got, i)
                );
            }
        },
    );
    // class: bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0,
    // 7 +denormal, 8 +normal, 9 +inf
    let v = [
        0x7ff0_0000_0000_0001u64,
        NAN,
        NINF,
        db(-1.0),
        0x8000_0000_0000_0001,
        NZERO,
        0,
        DEN,
        db(2.0),
        INF,
    ];
    let (mut a, mut m) = (Vec::new(), Vec::new());
    for x in v {
        for bit in 0..10u32 {
            a.push(x);
            m.push(1u32 << bit);
        }
    }
    for p in P {
        let out = run(p, &[in64(&a), in32(&m)], &[1], |k| {
            let vc = if k.lanes == 64 { "vcc" } else { "vcc_lo" };
            k.i(&format!("v_cmp_class_f64 {vc}, v[8:9], v12"));
            k.i(&format!("v_cndmask_b32 v24, 0, 1, {vc}"));
        });
        for i in 0..a.len() {
            assert_eq!(
                out[0][i],
                u32::from(i / 10 == i % 10),
                "{p} class_f64 of {:#x} bit {}",
                a[i],
                i % 10
            );
        }
    }
}

/// 2^e as f64 bits, written from the format (normal: biased exponent e + 1023 and a zero
/// mantissa; subnormal: the one mantissa bit e + 1074), not through f64 arithmetic.
fn p2(e: i32) -> u64 {
    assert!((-1074..=1023).contains(&e));
    if e >= -1022 {
        ((e + 1023) as u64) << 52
    } else {
        1 << (e + 1074)
    }
}

const SIGN: u64 = 1 << 63;

/// `v_div_scale_f64 D, VCC, S0, S1 (denominator), S2 (numerator)` on the cases of the
/// manuals' pseudocode (RDNA3 and CDNA3 ISA guides, V_DIV_SCALE_F64: NaN for a zero
/// S1 or S2; VCC and only the denominator scaled by 2^128 when exponent(S2) -
/// exponent(S1) >= 768; both scaled by 2^128 for a denormal S1; VCC and the denominator
/// scaled by 2^128 when 1/S1 and S2/S1 are both denormal; both scaled by 2^-128 when
/// only 1/S1 is; VCC and only the numerator scaled by 2^128 when only S2/S1 is; both
/// scaled by 2^128 when exponent(S2) <= 53), with S0 the numerator (`v[8:9], v[12:13],
/// v[8:9]`) and S0 the denominator (`v[12:13], v[12:13], v[8:9]`, VCC into an SGPR
/// pair as LLVM writes it). Expected bits written from the pseudocode by hand. Lanes 1
/// and 6 are inactive: their D keeps the sentinel and their VCC bit is 0 although VCC
/// was all ones before.
#[test]
fn division_scale_special_operands() {
    // biased exponent 1790 with an all-ones mantissa: just under 2^768
    let below_768 = (1790u64 << 52) | 0x000f_ffff_ffff_ffff;
    // 2^1022 * (1 + 2^-52): 1/S1 rounds to the largest denormal
    let above_1022 = p2(1022) | 1;
    // (numerator, denominator, D with S0 = numerator, D with S0 = denominator, VCC)
    let cases: [(u64, u64, u64, u64, u32); 26] = [
        // an infinite or NaN numerator: exponent 2047, the gap >= 768: VCC, only a
        // denominator in S0 scaled
        (INF, p2(1), INF, p2(129), 1),
        (NAN, p2(0), NAN, p2(128), 1),
        // the gap exactly 768 (2^768 / 1.0), and 767 with the largest mantissa
        (p2(768), p2(0), p2(768), p2(128), 1),
        (below_768, p2(0), below_768, p2(0), 0),
        // the gap counts exponents, not values: 2^768 / 1.5 (quotient under 2^768)
        (
            p2(768),
            db(1.5),
            p2(768),
            (1151u64 << 52) | 0x0008_0000_0000_0000,
            1,
        ),
        // signs do not enter the exponents; scaling keeps them
        (p2(768) | SIGN, db(-1.0), p2(768) | SIGN, p2(128) | SIGN, 1),
        // a zero numerator or denominator (either sign): NaN, VCC clear
        (0, db(3.0), NAN, NAN, 0),
        (db(3.0), 0, NAN, NAN, 0),
        (NZERO, db(3.0), NAN, NAN, 0),
        (db(3.0), NZERO, NAN, NAN, 0),
        // a denormal denominator (2^-1074, exponent 0) under 2^-300 (exponent 723, the
        // gap under 768): both scaled by 2^128
        (p2(-300), DEN, p2(-172), p2(-946), 0),
        // ... under 2^-255 (exponent 768): the gap case, VCC set
        (p2(-255), DEN, p2(-255), p2(-946), 1),
        (p2(0), DEN, p2(0), p2(-946), 1),
        // 1/S1 denormal (S1 = 2^1023), quotient 2^-23 normal: both scaled by 2^-128
        (p2(1000), p2(1023), p2(872), p2(895), 0),
        // the same with S1 just above 2^1022 (1/S1 rounds to the largest denormal)
        (p2(1000), above_1022, p2(872), (1917u64 << 52) | 1, 0),
        // S1 = 2^1022 exactly: 1/S1 = 2^-1022 is normal, nothing to do
        (p2(1000), p2(1022), p2(1000), p2(1022), 0),
        // 1/S1 and S2/S1 both denormal (1 / 2^1023): VCC, a denominator in S0 scaled by
        // 2^128 as the manual writes it, which overflows to infinity
        (p2(0), p2(1023), p2(0), INF, 1),
        // a denormal quotient (2^-1000 / 2^40), 1/S1 normal: VCC, only a numerator in
        // S0 scaled
        (p2(-1000), p2(40), p2(-872), p2(40), 1),
        // a denormal numerator over 1.0: the quotient is denormal
        (DEN, p2(0), p2(-946), p2(0), 1),
        // a tiny numerator: exponent(S2) = 53 (2^-970) scales both by 2^128, 54 not
        (p2(-970), p2(0), p2(-842), p2(128), 0),
        (p2(-969), p2(0), p2(-969), p2(0), 0),
        (p2(-970), p2(-60), p2(-842), p2(68), 0),
        // a quotient below the denormals (2^-1000 / 2^100 rounds to 0 in f64, not a
        // denormal): the tiny-numerator case
        (p2(-1000), p2(100), p2(-872), p2(228), 0),
        // an infinite denominator: 1/S1 = 0 and S2/S1 = 0 are not denormal
        (db(1.0), INF, db(1.0), INF, 0),
        // ordinary quotients: unchanged
        (db(6.0), db(3.0), db(6.0), db(3.0), 0),
        (db(-0.1), db(7.0), db(-0.1), db(7.0), 0),
    ];
    let num: Vec<u64> = cases.iter().map(|c| c.0).collect();
    let den: Vec<u64> = cases.iter().map(|c| c.1).collect();
    let inactive = [1usize, 6];
    let mask = !inactive.iter().fold(0u64, |m, l| m | 1 << l);
    for p in GFX9.iter().chain(["gfx803"].iter()) {
        let out = run(p, &[in64(&num), in64(&den)], &[2, 2, 1, 1], |k| {
            k.i("s_mov_b64 vcc, -1");
            k.i("s_mov_b64 s[20:21], -1");
            k.exec(mask);
            k.i("v_div_scale_f64 v[24:25], vcc, v[8:9], v[12:13], v[8:9]");
            k.i("v_div_scale_f64 v[28:29], s[20:21], v[12:13], v[12:13], v[8:9]");
            k.exec(u64::MAX);
            k.i("v_cndmask_b32 v32, 0, 1, vcc");
            k.i("v_cndmask_b32_e64 v36, 0, 1, s[20:21]");
        });
        for (i, c) in cases.iter().enumerate() {
            if inactive.contains(&i) {
                let s = u64::from(SENTINEL) << 32 | u64::from(SENTINEL);
                assert_eq!(q(&out[0], i), s, "{p} inactive lane {i} written");
                assert_eq!(q(&out[1], i), s, "{p} inactive lane {i} written");
                assert_eq!(out[2][i], 0, "{p} inactive lane {i}: VCC bit set");
                assert_eq!(out[3][i], 0, "{p} inactive lane {i}: SGPR bit set");
                continue;
            }
            assert!(
                same(q(&out[0], i), c.2),
                "{p} div_scale_f64 num lane {i}: {:#x}, want {:#x}",
                q(&out[0], i),
                c.2
            );
            assert!(
                same(q(&out[1], i), c.3),
                "{p} div_scale_f64 den lane {i}: {:#x}, want {:#x}",
                q(&out[1], i),
                c.3
            );
            assert_eq!(out[2][i], c.4, "{p} div_scale_f64 VCC (num) lane {i}");
            assert_eq!(out[3][i], c.4, "{p} div_scale_f64 VCC (den) lane {i}");
        }
    }
}

/// The f64 division macro as clang-22 emits it for `a / b` (gfx90a, -O2: div_scale of
/// the denominator and the numerator, rcp, two Newton-Raphson steps, the quotient and
/// its residual, div_fmas with VCC from the numerator's div_scale, div_fixup) on
/// extreme quotients, against the host's correctly rounded `a / b`, except where the
/// manuals' div_scale pseudocode (followed literally) leads the macro astray: listed
/// in `astray` with what the emulator gives (NOTES "Float details").
#[test]
fn division_macro_extreme_quotients() {
    let min = f64::MIN_POSITIVE;
    let den = f64::from_bits(DEN);
    let cases: Vec<(f64, f64)> = vec![
        (1.0, 3.0),
        (22.0, 7.0),
        (-7.5, 2.5),
        (0.1, 0.3),
        // overflow to infinity (exponent gap >= 768: VCC and a scaled denominator)
        (1e300, 1e-300),
        (-1e300, 1e-300),
        (1e200, 1e-200),
        (f64::MAX, 0.5),
        (f64::MAX, min),
        // huge but finite quotients in the gap case (scaled back by 2^128)
        (1e150, 1e-150),
        (bd(p2(800)) * 1.5, bd(p2(30))),
        (f64::MAX, 2.0),
        (1e308, 3.0),
        // denormal quotients (only the numerator scaled, VCC, scaled back by 2^-128)
        (1e-300, 1e10),
        (1e-10, 1e300),
        (min, 3.0),
        (-min, 7.0),
        (den, 2.0),
        (3.0 * den, 2.0),
        (1e-310, 3.0),
        // quotients below the denormals
        (min, f64::MAX),
        (bd(p2(-1000)), bd(p2(100))),
        // denormal denominators (both scaled by 2^128)
        (1.0, den),
        (1.0, 1e-310),
        (1e-10, 3e-310),
        (1e-320, 1e-320),
        (12345.0 * den, 7.0 * den),
        (1.0, 2.5e-308),
        // tiny numerators (both scaled by 2^128)
        (bd(p2(-970)), 3.0),
        (1e-300, 1e-10),
        // huge denominators with 1/S1 denormal and a normal quotient (both scaled by
        // 2^-128)
        (bd(p2(1000)), bd(p2(1023))),
        (1e308, 9e307),
        (f64::MAX, f64::MAX),
        // special operands (div_fixup)
        (0.0, 0.0),
        (1.0, 0.0),
        (-1.0, 0.0),
        (f64::INFINITY, 2.0),
        (2.0, f64::INFINITY),
        (f64::NAN, 1.0),
    ];
    // 1/S1 and S2/S1 both denormal (S1 >= 2^1022, the quotient under 2^-1022): the
    // manual scales the denominator up by 2^128 to infinity, rcp gives 0, the
    // Newton-Raphson fma 0 * inf a NaN, and div_fixup turns the NaN estimate into the
    // overflow infinity: wrong (the true quotients are denormal or 0)
    let astray: Vec<(f64, f64, u64)> = vec![
        (1.0, bd(p2(1023)), INF),
        (1e-10, 5e307, INF),
        (-min, 4e307, NINF),
    ];
    let num: Vec<u64> = cases
        .iter()
        .map(|c| db(c.0))
        .chain(astray.iter().map(|c| db(c.0)))
        .collect();
    let dnm: Vec<u64> = cases
        .iter()
        .map(|c| db(c.1))
        .chain(astray.iter().map(|c| db(c.1)))
        .collect();
    for p in GFX9 {
        let out = run(p, &[in64(&num), in64(&dnm)], &[2], |k| {
            for t in [
                "v_div_scale_f64 v[40:41], s[20:21], v[12:13], v[12:13], v[8:9]",
                "v_rcp_f64 v[42:43], v[40:41]",
                "v_div_scale_f64 v[44:45], vcc, v[8:9], v[12:13], v[8:9]",
                "v_fma_f64 v[46:47], -v[40:41], v[42:43], 1.0",
                "v_fma_f64 v[42:43], v[42:43], v[46:47], v[42:43]",
                "v_fma_f64 v[46:47], -v[40:41], v[42:43], 1.0",
                "v_fma_f64 v[42:43], v[42:43], v[46:47], v[42:43]",
                "v_mul_f64 v[46:47], v[44:45], v[42:43]",
                "v_fma_f64 v[40:41], -v[40:41], v[46:47], v[44:45]",
                "v_div_fmas_f64 v[40:41], v[40:41], v[42:43], v[46:47]",
                "v_div_fixup_f64 v[24:25], v[40:41], v[12:13], v[8:9]",
            ] {
                k.i(t);
            }
        });
        for (i, (a, b)) in cases.iter().enumerate() {
            let want = db(a / b);
            assert!(
                same(q(&out[0], i), want),
                "{p} {a:e} / {b:e}: {:e} ({:#x}), want {:e}",
                bd(q(&out[0], i)),
                q(&out[0], i),
                a / b
            );
        }
        for (j, (a, b, want)) in astray.iter().enumerate() {
            let i = cases.len() + j;
            assert!(
                same(q(&out[0], i), *want),
                "{p} {a:e} / {b:e} (astray): {:e} ({:#x})",
                bd(q(&out[0], i)),
                q(&out[0], i)
            );
        }
    }
}
