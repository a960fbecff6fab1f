//! Per-operation tests of the f32 vector operations, from the ISA manuals: IEEE
//! results computed here with Rust's f32 (the manuals say IEEE for add/mul/fma and the
//! conversions), hand-written bit patterns for the special values, and the documented
//! error bound (1 ulp) for the transcendental approximations. Denormals are kept
//! (the descriptor's FLOAT_DENORM_MODE_32 = 3, the `.amdhsa_kernel` default) unless a
//! test sets the mode to flush.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::float::f32bits::*;
use common::float::{max_num, min_num};
use common::*;

const P: [&str; 4] = ALL;

const DEN: u32 = 0x0000_0001;
const DEN_MAX: u32 = 0x007f_ffff;
const NDEN: u32 = 0x8000_0003;

/// The f32 operands: zeros of both signs, normals, extremes, denormals, infinities,
/// a quiet NaN.
fn vals() -> Vec<u32> {
    vec![
        0,
        NZERO,
        fb(1.0),
        fb(-1.0),
        fb(1.5),
        fb(-2.75),
        fb(0.1),
        fb(3.0e38),
        fb(f32::MAX),
        fb(f32::MIN_POSITIVE),
        DEN,
        DEN_MAX,
        NDEN,
        INF,
        NINF,
        NAN,
        fb(1.0e10),
        fb(-7.0),
    ]
}

fn fcheck(
    p: &str,
    what: &str,
    got: &[u32],
    want: impl Fn(usize) -> u32,
    ins: impl Fn(usize) -> String,
    n: usize,
) {
    for i in 0..n {
        let w = want(i);
        assert!(
            same(got[i], w),
            "{p} {what} {}: got {:#010x} ({}), want {w:#010x} ({})",
            ins(i),
            got[i],
            bf(got[i]),
            bf(w)
        );
    }
}

fn fbin(procs: &[&'static str], alts: &[&str], f: impl Fn(f32, f32) -> f32) {
    let (a, b) = pairs(&vals());
    each(procs, alts, &[in32(&a), in32(&b)], 1, |p, got| {
        fcheck(
            p,
            alts[0],
            got,
            |i| fb(f(bf(a[i]), bf(b[i]))),
            |i| format!("({:e}, {:e})", bf(a[i]), bf(b[i])),
            a.len(),
        )
    });
}

fn fun(procs: &[&'static str], alts: &[&str], vals: &[u32], f: impl Fn(f32) -> u32) {
    each(procs, alts, &[in32(vals)], 1, |p, got| {
        fcheck(
            p,
            alts[0],
            got,
            |i| f(bf(vals[i])),
            |i| format!("{:e}", bf(vals[i])),
            vals.len(),
        )
    });
}

fn triples(v: &[u32]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in v {
        for y in v {
            for z in v {
                a.push(*x);
                b.push(*y);
                c.push(*z);
            }
        }
    }
    (a, b, c)
}

fn ftri(procs: &[&'static str], alts: &[&str], v: &[u32], f: impl Fn(f32, f32, f32) -> u32) {
    let (a, b, c) = triples(v);
    each(procs, alts, &[in32(&a), in32(&b), in32(&c)], 1, |p, got| {
        fcheck(
            p,
            alts[0],
            got,
            |i| f(bf(a[i]), bf(b[i]), bf(c[i])),
            |i| format!("({:e}, {:e}, {:e})", bf(a[i]), bf(b[i]), bf(c[i])),
            a.len(),
        )
    });
}

#[test]
fn add_sub_mul_are_ieee() {
    fbin(&P, &["v_add_f32 v24, v8, v12"], |a, b| a + b);
    fbin(&P, &["v_sub_f32 v24, v8, v12"], |a, b| a - b);
    fbin(&P, &["v_subrev_f32 v24, v8, v12"], |a, b| b - a);
    fbin(&P, &["v_mul_f32 v24, v8, v12"], |a, b| a * b);
    fbin(&P, &["v_min_f32 v24, v8, v12"], min_num);
    fbin(&P, &["v_max_f32 v24, v8, v12"], max_num);
}

#[test]
fn denormals_flush_when_the_mode_says_so() {
    // FLOAT_DENORM_MODE_32 = 0: denormal inputs and results are flushed to zero
    // (keeping the sign)
    let a = [DEN, NDEN, DEN_MAX, fb(f32::MIN_POSITIVE), fb(1.0)];
    let b = [DEN, NZERO, 0, NZERO, DEN];
    for p in P {
        let out = run_full(
            p,
            &[in32(&a), in32(&b)],
            &[1],
            &[],
            &[("float_denorm_mode_32", 0)],
            |k| {
                k.i("v_add_f32 v24, v8, v12");
            },
        )
        .unwrap();
        let got = dwords(&out[0]);
        assert_eq!(got[0], 0, "{p} den + den");
        assert_eq!(got[1], NZERO, "{p} -den + -0 = -0 (the flushed -den is -0)");
        assert_eq!(got[2], 0, "{p} den_max + 0");
        assert_eq!(got[3], fb(f32::MIN_POSITIVE), "{p} min normal - 0");
        assert_eq!(got[4], fb(1.0), "{p} 1 + den");
    }
}

#[test]
fn fused_and_unfused_multiply_adds() {
    let v = [
        0,
        NZERO,
        fb(1.0),
        fb(-1.5),
        fb(3.0e38),
        DEN_MAX,
        INF,
        NAN,
        fb(0.1),
        fb(1.0 + f32::EPSILON),
    ];
    ftri(&P, &["v_fma_f32 v24, v8, v12, v16"], &v, |a, b, c| {
        fb(a.mul_add(b, c))
    });
    // fmac: D = S0 * S1 + D
    let (a, b, c) = triples(&v);
    let n = a.len();
    for p in P {
        let Some(t) = spelling(p, &["v_fmac_f32 v24, v8, v12"]) else {
            continue;
        };
        let out = run(p, &[in32(&a), in32(&b), in32(&c)], &[1], |k| {
            k.i("v_mov_b32 v24, v16");
            k.i(&t);
        });
        fcheck(
            p,
            &t,
            &out[0],
            |i| fb(bf(a[i]).mul_add(bf(b[i]), bf(c[i]))),
            |i| format!("{i}"),
            n,
        );
    }
    // v_mad_f32 / v_mac_f32: a rounded product then a rounded sum, denormals flushed
    // (the manuals: "denormals are not supported")
    let ftz = |x: f32| {
        if x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    };
    let mad = move |a: f32, b: f32, c: f32| fb(ftz(ftz(ftz(a) * ftz(b)) + ftz(c)));
    let vm = [
        0,
        fb(1.0),
        fb(-1.5),
        fb(3.0e38),
        INF,
        NAN,
        fb(0.1),
        fb(1.0 + f32::EPSILON),
        fb(1.0e-20),
    ];
    ftri(
        &["gfx900", "gfx90a", "gfx803"],
        &["v_mad_f32 v24, v8, v12, v16"],
        &vm,
        mad,
    );
    let (a, b, c) = triples(&vm);
    for p in ["gfx900", "gfx90a", "gfx803"] {
        let out = run(p, &[in32(&a), in32(&b), in32(&c)], &[1], |k| {
            k.i("v_mov_b32 v24, v16");
            k.i("v_mac_f32 v24, v8, v12");
        });
        fcheck(
            p,
            "v_mac_f32",
            &out[0],
            |i| mad(bf(a[i]), bf(b[i]), bf(c[i])),
            |i| format!("{i}"),
            a.len(),
        );
    }
    // madmk: S0 * K + S1; madak: S0 * S1 + K (gfx10+: the fused fmamk/fmaak)
    let k = 0.75f32;
    let (a, b) = pairs(&vm);
    for p in P {
        let fused = generation(p) == Gen::Gfx11;
        let (mk, ak) = if fused {
            (
                "v_fmamk_f32 v24, v8, 0x3f400000, v12",
                "v_fmaak_f32 v28, v8, v12, 0x3f400000",
            )
        } else {
            (
                "v_madmk_f32 v24, v8, 0x3f400000, v12",
                "v_madak_f32 v28, v8, v12, 0x3f400000",
            )
        };
        let out = run(p, &[in32(&a), in32(&b)], &[1, 1], |kk| {
            kk.i(mk);
            kk.i(ak);
        });
        for i in 0..a.len() {
            let (x, y) = (bf(a[i]), bf(b[i]));
            let (wk, wa) = if fused {
                (fb(x.mul_add(k, y)), fb(x.mul_add(y, k)))
            } else {
                (mad(x, k, y), mad(x, y, k))
            };
            assert!(
                same(out[0][i], wk),
                "{p} {mk} ({x:e}, {y:e}): {:#x} want {wk:#x}",
                out[0][i]
            );
            assert!(
                same(out[1][i], wa),
                "{p} {ak} ({x:e}, {y:e}): {:#x} want {wa:#x}",
                out[1][i]
            );
        }
    }
}

#[test]
fn three_operand_min_max_med() {
    let v = [0, NZERO, fb(1.0), fb(-1.5), INF, NINF, NAN];
    ftri(&P, &["v_min3_f32 v24, v8, v12, v16"], &v, |a, b, c| {
        fb(min_num(min_num(a, b), c))
    });
    ftri(&P, &["v_max3_f32 v24, v8, v12, v16"], &v, |a, b, c| {
        fb(max_num(max_num(a, b), c))
    });
    // med3 without NaN operands: the middle value (ties: any of the equal values)
    let v = [fb(2.0), fb(1.0), fb(-1.5), INF, NINF, fb(7.0)];
    ftri(&P, &["v_med3_f32 v24, v8, v12, v16"], &v, |a, b, c| {
        let mut s = [a, b, c];
        s.sort_by(|x, y| x.partial_cmp(y).unwrap());
        fb(s[1])
    });
    // gfx12's spelling (RDNA4 guide: the median with the `_num` min/max)
    assert!(has("gfx1200", "v_med3_num_f32 v24, v8, v12, v16"));
    ftri(
        &["gfx1200"],
        &["v_med3_num_f32 v24, v8, v12, v16"],
        &v,
        |a, b, c| {
            let mut s = [a, b, c];
            s.sort_by(|x, y| x.partial_cmp(y).unwrap());
            fb(s[1])
        },
    );
}

#[test]
fn conversions_round_and_saturate() {
    let ints = [
        0u32,
        1,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x0100_0001,
        0x0100_0003,
        16_777_217,
        0xffff_ff7f,
    ];
    let check_int = |alts: &[&str], f: fn(u32) -> f32| {
        each(&P, alts, &[in32(&ints)], 1, |p, got| {
            for (i, x) in ints.iter().enumerate() {
                assert_eq!(got[i], fb(f(*x)), "{p} {} {x:#x}", alts[0]);
            }
        });
    };
    check_int(&["v_cvt_f32_u32 v24, v8"], |x| x as f32);
    check_int(&["v_cvt_f32_i32 v24, v8"], |x| x as i32 as f32);
    // float to integer: toward zero, saturating, NaN to 0 (as Rust's `as`)
    let f = [
        0,
        NZERO,
        fb(1.9),
        fb(-1.9),
        fb(4.0e9),
        fb(-3.0e9),
        fb(2.147_483_6e9),
        INF,
        NINF,
        NAN,
        DEN,
        fb(-0.5),
    ];
    fun(&P, &["v_cvt_u32_f32 v24, v8"], &f, |x| x as u32);
    fun(&P, &["v_cvt_i32_f32 v24, v8"], &f, |x| x as i32 as u32);
}

#[test]
fn rounding() {
    let v = [
        0,
        NZERO,
        fb(1.5),
        fb(2.5),
        fb(-1.5),
        fb(-2.5),
        fb(0.49999997),
        fb(-0.1),
        fb(8388609.0),
        INF,
        NINF,
        NAN,
        DEN,
        NDEN,
    ];
    fun(&P, &["v_trunc_f32 v24, v8"], &v, |x| fb(x.trunc()));
    fun(&P, &["v_floor_f32 v24, v8"], &v, |x| fb(x.floor()));
    fun(&P, &["v_ceil_f32 v24, v8"], &v, |x| fb(x.ceil()));
    fun(
        &P,
        &["v_rndne_f32 v24, v8"],
        &v,
        |x| fb(x.round_ties_even()),
    );
    // fract: x - floor(x), below 1 (the largest float below 1 when the difference
    // rounds to 1); infinities give NaN
    let v = [
        fb(1.25),
        fb(-1.25),
        fb(0.0),
        fb(-1.0e-10),
        fb(7.75),
        INF,
        NINF,
        NAN,
    ];
    fun(&P, &["v_fract_f32 v24, v8"], &v, |x| {
        if x.is_infinite() {
            NAN
        } else {
            fb((x - x.floor()).min(f32::from_bits(0x3f7f_ffff)))
        }
    });
}

#[test]
fn frexp_and_ldexp() {
    let v = [
        fb(1.0),
        fb(-6.0),
        fb(0.3),
        0,
        NZERO,
        DEN,
        DEN_MAX,
        fb(f32::MAX),
        INF,
        NINF,
        NAN,
    ];
    // mant: in [0.5, 1) with the sign; exp: x = mant * 2^exp; zeros give 0 and 0;
    // infinities and NaN give themselves (mant) and 0 (exp)
    let frexp = |x: f32| -> (f32, i32) {
        if x == 0.0 || !x.is_finite() {
            return (x, 0);
        }
        let mut e = 0;
        let mut m = f64::from(x);
        while m.abs() >= 1.0 {
            m /= 2.0;
            e += 1;
        }
        while m.abs() < 0.5 {
            m *= 2.0;
            e -= 1;
        }
        (m as f32, e)
    };
    fun(&P, &["v_frexp_mant_f32 v24, v8"], &v, move |x| {
        fb(frexp(x).0)
    });
    fun(&P, &["v_frexp_exp_i32_f32 v24, v8"], &v, move |x| {
        frexp(x).1 as u32
    });
    // ldexp: S0 * 2^S1 with one rounding; overflow to infinity, underflow to denormals
    let xs = [
        fb(1.5),
        fb(-3.0),
        DEN,
        fb(f32::MAX),
        0,
        NZERO,
        INF,
        NAN,
        fb(0.75),
    ];
    let es = [0i32, 1, -1, 100, -140, -150, 200, -200, i32::MIN, i32::MAX];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in xs {
        for e in es {
            a.push(x);
            b.push(e as u32);
        }
    }
    let ld = |x: f32, e: i32| -> f32 {
        let e = e.clamp(-400, 400);
        let mut r = f64::from(x);
        // exact in f64 for these ranges (scaled in two steps to stay in range)
        r *= 2f64.powi(e / 2);
        r *= 2f64.powi(e - e / 2);
        r as f32
    };
    each(
        &P,
        &["v_ldexp_f32 v24, v8, v12", "v_ldexp_f32_e64 v24, v8, v12"],
        &[in32(&a), in32(&b)],
        1,
        |p, got| {
            fcheck(
                p,
                "v_ldexp_f32",
                got,
                |i| fb(ld(bf(a[i]), b[i] as i32)),
                |i| format!("({:e}, {})", bf(a[i]), b[i] as i32),
                a.len(),
            )
        },
    );
}

/// Within `ulps` units in the last place of the exactly rounded `want`, or the same
/// special value.
fn near(got: u32, want: f64, ulps: u32) -> bool {
    let w = want as f32;
    if w.is_nan() || w.is_infinite() || w == 0.0 {
        return same(got, fb(w));
    }
    let g = bf(got);
    g.is_sign_negative() == w.is_sign_negative()
        && (got as i64 - fb(w) as i64).unsigned_abs() <= u64::from(ulps)
}

#[test]
fn transcendentals_within_one_ulp() {
    let v: Vec<u32> = [
        0.5f32, 1.0, 2.0, 3.0, 10.0, 1.0e-30, 1.0e30, 0.1, 123.456, 7.0e-5, -2.0, -0.75,
    ]
    .iter()
    .map(|x| fb(*x))
    .chain([0, NZERO, INF, NINF, NAN])
    .collect();
    type F = fn(f64) -> f64;
    let cases: [(&str, F); 6] = [
        ("v_rcp_f32 v24, v8", |x| 1.0 / x),
        ("v_rcp_iflag_f32 v24, v8", |x| 1.0 / x),
        ("v_sqrt_f32 v24, v8", f64::sqrt),
        ("v_rsq_f32 v24, v8", |x| 1.0 / x.sqrt()),
        ("v_exp_f32 v24, v8", f64::exp2),
        ("v_log_f32 v24, v8", f64::log2),
    ];
    for (t, f) in cases {
        each(&P, &[t], &[in32(&v)], 1, |p, got| {
            for (i, x) in v.iter().enumerate() {
                let want = f(f64::from(bf(*x)));
                // exp of a large argument overflows: infinity
                assert!(
                    near(got[i], want, 1),
                    "{p} {t} ({:e}): got {:e}, want {want:e}",
                    bf(*x),
                    bf(got[i])
                );
            }
        });
    }
}

#[test]
fn rsq_within_one_ulp_of_the_exact_value() {
    // the manuals give V_RSQ_F32 1 ULP; measured from the exact value (not from its
    // rounding, as above), with operands where 1 / sqrt rounded twice in f32 is over
    // 1 ULP off (5.494071: 1.05 ULP)
    let v = [
        0x40af_cf6e_u32,
        fb(3.0),
        fb(0.3),
        fb(1.0e-20),
        1,
        fb(7.5e37),
    ];
    each(&P, &["v_rsq_f32 v24, v8"], &[in32(&v)], 1, |p, got| {
        for (i, x) in v.iter().enumerate() {
            let xf = f64::from(bf(*x));
            let want = 1.0 / xf.sqrt();
            let e = ((want.to_bits() >> 52) & 0x7ff) as i32 - 1023;
            let ulp = 2f64.powi(e - 23);
            let g = f64::from(bf(got[i]));
            assert!(
                (g - want).abs() <= ulp,
                "{p} v_rsq_f32({xf:e}) = {g:e}, want {want:e} within 1 ulp"
            );
        }
    });
}

#[test]
fn division_steps() {
    // div_scale with operands in the normal range leaves the operand alone and clears
    // VCC; a NaN or infinite S0 is passed through with VCC set (manual pseudocode)
    let num = [fb(1.0), fb(-3.0), fb(100.0), INF, NAN];
    let den = [fb(3.0), fb(0.5), fb(-7.0), fb(2.0), fb(1.0)];
    for p in GFX9.iter().chain(["gfx803"].iter()) {
        let out = run(p, &[in32(&num), in32(&den)], &[1, 1], |k| {
            k.i("v_div_scale_f32 v24, vcc, v8, v12, v8");
            k.i("v_cndmask_b32 v28, 0, 1, vcc");
        });
        for i in 0..3 {
            assert_eq!(out[0][i], num[i], "{p} div_scale lane {i}");
            assert_eq!(out[1][i], 0, "{p} div_scale VCC lane {i}");
        }
    }
    // div_fmas with VCC clear: the plain fma
    let v = [fb(1.0), fb(-1.5), fb(0.1), fb(3.0), INF, NAN];
    let (a, b, c) = triples(&v);
    for p in GFX9.iter().chain(["gfx803"].iter()) {
        let out = run(p, &[in32(&a), in32(&b), in32(&c)], &[1], |k| {
            k.i("s_mov_b64 vcc, 0");
            k.i("v_div_fmas_f32 v24, v8, v12, v16");
        });
        fcheck(
            p,
            "v_div_fmas_f32",
            &out[0],
            |i| fb(bf(a[i]).mul_add(bf(b[i]), bf(c[i]))),
            |i| format!("{i}"),
            a.len(),
        );
    }
    // div_fixup(quotient, denominator, numerator): the special cases of division
    let q = fb(0.25);
    let cases: [(u32, u32, u32); 9] = [
        (q, fb(4.0), fb(1.0), q),  // ordinary: the quotient
        (q, 0, 0, NAN),            // 0/0
        (q, INF, NINF, NAN),       // inf/inf
        (q, 0, fb(-2.0), NINF),    // -2/+0
        (q, NZERO, fb(-2.0), INF), // -2/-0
        (q, INF, fb(3.0), 0),      // 3/inf
        (q, NINF, fb(3.0), NZERO), // 3/-inf
        (q, NAN, fb(1.0), NAN),    // NaN denominator
        (q, fb(1.0), NAN, NAN),    // NaN numerator
    ]
    .map(|(a, b, c, _)| (a, b, c));
    let want = [q, NAN, NAN, NINF, INF, 0, NZERO, NAN, NAN];
    let a: Vec<u32> = cases.iter().map(|c| c.0).collect();
    let b: Vec<u32> = cases.iter().map(|c| c.1).collect();
    let c: Vec<u32> = cases.iter().map(|c| c.2).collect();
    each(
        &P,
        &["v_div_fixup_f32 v24, v8, v12, v16"],
        &[in32(&a), in32(&b), in32(&c)],
        1,
        |p, got| {
            fcheck(
                p,
                "v_div_fixup_f32",
                got,
                |i| want[i],
                |i| format!("case {i}"),
                want.len(),
            )
        },
    );
}

/// `v_div_scale_f32 D, VCC, S0, S1 (denominator), S2 (numerator)` on the cases of the
/// manuals' pseudocode (RDNA3 and CDNA3 ISA guides, V_DIV_SCALE_F32), with S0 the
/// numerator (`v8, v12, v8`) and with S0 the denominator (`v12, v12, v8`): expected
/// values written from the pseudocode by hand.
#[test]
fn division_scale_special_operands() {
    let p64 = 2f32.powi(64);
    // (numerator, denominator, D with S0 = numerator, D with S0 = denominator, VCC)
    let cases: [(u32, u32, u32, u32, u32); 10] = [
        // an infinite or NaN numerator: exponent(S2) - exponent(S1) >= 96, VCC set,
        // only a denominator in S0 scaled
        (INF, fb(2.0), INF, fb(2.0 * p64), 1),
        (NAN, fb(1.0), NAN, fb(p64), 1),
        // 2^100 / 2^-10: the same case with finite values
        (
            fb(2f32.powi(100)),
            fb(2f32.powi(-10)),
            fb(2f32.powi(100)),
            fb(2f32.powi(54)),
            1,
        ),
        // a zero numerator or denominator: NaN, VCC clear
        (0, fb(3.0), NAN, NAN, 0),
        (fb(3.0), 0, NAN, NAN, 0),
        // a denormal denominator (2^-149) under a small numerator (2^-60, so that the
        // exponents differ by less than 96): both scaled by 2^64
        (
            fb(2f32.powi(-60)),
            DEN,
            fb(2f32.powi(4)),
            fb(2f32.powi(-85)),
            0,
        ),
        // a denormal denominator under 1.0: the exponents differ by 127, VCC set
        (fb(1.0), DEN, fb(1.0), fb(2f32.powi(-85)), 1),
        // 1/S1 denormal (S1 = 2^127), quotient normal: both scaled by 2^-64
        (
            fb(2f32.powi(100)),
            fb(2f32.powi(127)),
            fb(2f32.powi(36)),
            fb(2f32.powi(63)),
            0,
        ),
        // a denormal quotient (2^-100 / 2^40), 1/S1 normal: VCC set, only a numerator in
        // S0 scaled
        (
            fb(2f32.powi(-100)),
            fb(2f32.powi(40)),
            fb(2f32.powi(-36)),
            fb(2f32.powi(40)),
            1,
        ),
        // an ordinary quotient: unchanged
        (fb(6.0), fb(3.0), fb(6.0), fb(3.0), 0),
    ];
    let num: Vec<u32> = cases.iter().map(|c| c.0).collect();
    let den: Vec<u32> = cases.iter().map(|c| c.1).collect();
    for p in GFX9 {
        let out = run(p, &[in32(&num), in32(&den)], &[1, 1, 1, 1], |k| {
            k.i("v_div_scale_f32 v24, vcc, v8, v12, v8");
            k.i("v_cndmask_b32 v28, 0, 1, vcc");
            k.i("v_div_scale_f32 v32, vcc, v12, v12, v8");
            k.i("v_cndmask_b32 v36, 0, 1, vcc");
        });
        for (i, c) in cases.iter().enumerate() {
            assert!(
                same(out[0][i], c.2),
                "{p} div_scale num lane {i}: {:#x}",
                out[0][i]
            );
            assert_eq!(out[1][i], c.4, "{p} div_scale VCC (num) lane {i}");
            assert!(
                same(out[2][i], c.3),
                "{p} div_scale den lane {i}: {:#x}",
                out[2][i]
            );
            assert_eq!(out[3][i], c.4, "{p} div_scale VCC (den) lane {i}");
        }
    }
}

#[test]
fn class_tests() {
    // v_cmp_class_f32: S1's bits select classes: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
    // 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf
    let v = [
        0x7f80_0001u32,
        NAN,
        NINF,
        fb(-1.0),
        NDEN,
        NZERO,
        0,
        DEN,
        fb(2.0),
        INF,
    ];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (cls, x) in v.iter().enumerate() {
        for bit in 0..10u32 {
            a.push(*x);
            b.push(1 << bit);
        }
        a.push(*x);
        b.push(0x3ff & !(1 << cls));
    }
    for p in P {
        let out = run(p, &[in32(&a), in32(&b)], &[1, 1], |k| {
            let vc = if k.lanes == 64 { "vcc" } else { "vcc_lo" };
            k.i(&format!("v_cmp_class_f32 {vc}, v8, v12"));
            k.i(&format!("v_cndmask_b32 v24, 0, 1, {vc}"));
            // the VOPX form writes EXEC: lanes of no class stay at the sentinel
            k.i(&format!(
                "v_cmpx_class_f32 {}, v8, v12",
                if k.gen == Gen::Gfx11 { "" } else { vc }
            )
            .replace(" , ", " "));
            k.i("v_mov_b32 v28, 7");
        });
        for i in 0..a.len() {
            let cls = i / 11;
            let want = if i % 11 == 10 {
                0
            } else {
                u32::from(i % 11 == cls)
            };
            assert_eq!(out[0][i], want, "{p} class of {:#x} mask {:#x}", a[i], b[i]);
            let x = if want == 1 { 7 } else { SENTINEL };
            assert_eq!(
                out[1][i], x,
                "{p} cmpx_class of {:#x} mask {:#x}",
                a[i], b[i]
            );
        }
    }
}

/// The f32 division macro as clang-22 emits it for a correctly rounded `a / b`
/// (gfx90a, -O2 -cl-fp32-correctly-rounded-divide-sqrt, f32 denormals kept) on extreme
/// quotients, against the host's correctly rounded `a / b`, except where the manuals'
/// div_scale pseudocode (followed literally) leads the macro astray: listed in
/// `astray` with what the emulator gives (NOTES "Float details").
#[test]
fn division_macro_extreme_quotients() {
    let min = f32::MIN_POSITIVE;
    let den = bf(DEN);
    let cases: Vec<(f32, f32)> = vec![
        (1.0, 3.0),
        (22.0, 7.0),
        (-7.5, 2.5),
        (0.1, 0.3),
        // overflow (exponent gap >= 96: VCC, the denominator scaled by 2^64)
        (1e30, 1e-30),
        (-1e30, 1e-30),
        (f32::MAX, 0.5),
        // huge finite quotients in the gap case (scaled back by 2^64)
        (1e20, 1e-10),
        (f32::MAX, 2.0),
        (3e38, 1e-3),
        // denormal quotients (VCC, the numerator scaled, scaled back by 2^-64)
        (1e-30, 1e10),
        (min, 3.0),
        (-min, 7.0),
        (den, 2.0),
        (3.0 * den, 2.0),
        // below the denormals
        (min, f32::MAX),
        (-1e-10, 3e38),
        // denormal denominators (both scaled by 2^64)
        (1.0, den),
        (1e-40, 3e-41),
        (1e-30, 1e-39),
        // tiny numerators
        (1e-38, 3.0),
        // 1/S1 denormal, the quotient normal (both scaled by 2^-64)
        (1e30, 3e38),
        (f32::MAX, f32::MAX),
        // special operands (div_fixup)
        (0.0, 0.0),
        (1.0, 0.0),
        (f32::INFINITY, 2.0),
        (2.0, f32::INFINITY),
        (f32::NAN, 1.0),
    ];
    // 1/S1 and S2/S1 both denormal: the manual scales the denominator up by 2^64 to
    // infinity and the macro ends in the overflow infinity, not the denormal quotient
    let astray: Vec<(f32, f32, u32)> = vec![(1.0, 1e38, INF), (-1e-5, 1e38, NINF)];
    let num: Vec<u32> = cases
        .iter()
        .map(|c| fb(c.0))
        .chain(astray.iter().map(|c| fb(c.0)))
        .collect();
    let dnm: Vec<u32> = cases
        .iter()
        .map(|c| fb(c.1))
        .chain(astray.iter().map(|c| fb(c.1)))
        .collect();
    for p in GFX9 {
        let out = run(p, &[in32(&num), in32(&dnm)], &[1], |k| {
            for t in [
                "v_div_scale_f32 v40, s[20:21], v12, v12, v8",
                "v_rcp_f32 v41, v40",
                "v_div_scale_f32 v42, vcc, v8, v12, v8",
                "v_fma_f32 v43, -v40, v41, 1.0",
                "v_fma_f32 v41, v43, v41, v41",
                "v_mul_f32 v43, v42, v41",
                "v_fma_f32 v44, -v40, v43, v42",
                "v_fma_f32 v43, v44, v41, v43",
                "v_fma_f32 v40, -v40, v43, v42",
                "v_div_fmas_f32 v40, v40, v41, v43",
                "v_div_fixup_f32 v24, v40, v12, v8",
            ] {
                k.i(t);
            }
        });
        for (i, (a, b)) in cases.iter().enumerate() {
            let want = fb(a / b);
            assert!(
                same(out[0][i], want),
                "{p} {a:e} / {b:e}: {:e} ({:#x}), want {:e}",
                bf(out[0][i]),
                out[0][i],
                a / b
            );
        }
        for (j, (a, b, want)) in astray.iter().enumerate() {
            let i = cases.len() + j;
            assert!(
                same(out[0][i], *want),
                "{p} {a:e} / {b:e} (astray): {:e} ({:#x})",
                bf(out[0][i]),
                out[0][i]
            );
        }
    }
}
