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
