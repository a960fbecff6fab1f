//! Per-operation tests of the vector compares `v_cmp_<cond>_<type>` and
//! `v_cmpx_<cond>_<type>` for every type and condition (the manuals: the integer
//! conditions on the ordering; the float ones on IEEE ordering, where a NaN operand
//! makes every ordered condition false and every negated (`n*`) one true, `o`/`u` test
//! for NaN). The mask goes to VCC (read back with v_cndmask); the X forms write EXEC
//! as well (read back as the lanes a following move writes).

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;
use std::cmp::Ordering;

fn holds(cond: &str, o: Option<Ordering>) -> bool {
    use Ordering::*;
    match cond {
        "f" => false,
        "t" | "tru" => true,
        "lt" => o == Some(Less),
        "eq" => o == Some(Equal),
        "le" => o == Some(Less) || o == Some(Equal),
        "gt" => o == Some(Greater),
        "ne" | "lg" => o == Some(Less) || o == Some(Greater),
        "ge" => o == Some(Greater) || o == Some(Equal),
        "o" => o.is_some(),
        "u" => o.is_none(),
        "nge" => !(o == Some(Greater) || o == Some(Equal)),
        "nlg" => !(o == Some(Less) || o == Some(Greater)),
        "ngt" => o != Some(Greater),
        "nle" => !(o == Some(Less) || o == Some(Equal)),
        "neq" => o != Some(Equal),
        "nlt" => o != Some(Less),
        _ => unreachable!("{cond}"),
    }
}

const INT_CONDS: [&str; 8] = ["f", "lt", "eq", "le", "gt", "ne", "ge", "t"];
const FLOAT_CONDS: [&str; 16] = [
    "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt",
    "tru",
];

/// Run `v_cmp` and `v_cmpx` of `ty` and `cond` over the operand pairs; `ord` gives
/// the ordering of pair `i`.
fn cmp_case(
    procs: &[&'static str],
    ty: &str,
    cond: &str,
    ins: &[In],
    n: usize,
    wide: bool,
    ord: &dyn Fn(usize) -> Option<Ordering>,
) {
    let (s0, s1) = if wide {
        ("v[8:9]", "v[12:13]")
    } else {
        ("v8", "v12")
    };
    for p in procs {
        let lanes = lanes(p);
        let vc = if lanes == 64 { "vcc" } else { "vcc_lo" };
        // gfx11 spells the always-true float condition `t`
        let c = if generation(p) == Gen::Gfx11 && cond == "tru" {
            "t"
        } else {
            cond
        };
        let cmp = format!("v_cmp_{c}_{ty} {vc}, {s0}, {s1}");
        let cmpx = if generation(p) == Gen::Gfx11 {
            format!("v_cmpx_{c}_{ty} {s0}, {s1}")
        } else {
            format!("v_cmpx_{c}_{ty} {vc}, {s0}, {s1}")
        };
        assert!(has(p, &cmp), "{p}: {cmp}");
        let out = run(p, ins, &[1, 1], |k| {
            k.i(&cmp);
            k.i(&format!("v_cndmask_b32 v24, 0, 1, {vc}"));
            k.i(&cmpx);
            k.i("v_mov_b32 v28, 1");
        });
        for i in 0..n {
            let want = holds(cond, ord(i));
            assert_eq!(out[0][i], u32::from(want), "{p} {cmp} case {i}");
            assert_eq!(
                out[1][i],
                if want { 1 } else { SENTINEL },
                "{p} {cmpx} case {i}"
            );
        }
    }
}

#[test]
fn integer_32() {
    let (a, b) = pairs(&EDGE32);
    for cond in INT_CONDS {
        cmp_case(
            &ALL,
            "u32",
            cond,
            &[in32(&a), in32(&b)],
            a.len(),
            false,
            &|i| Some(a[i].cmp(&b[i])),
        );
        cmp_case(
            &ALL,
            "i32",
            cond,
            &[in32(&a), in32(&b)],
            a.len(),
            false,
            &|i| Some((a[i] as i32).cmp(&(b[i] as i32))),
        );
    }
}

#[test]
fn integer_64() {
    let v = [
        0u64,
        1,
        0xffff_ffff,
        0x1_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        u64::MAX,
    ];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in v {
        for y in v {
            a.push(x);
            b.push(y);
        }
    }
    for cond in INT_CONDS {
        cmp_case(
            &ALL,
            "u64",
            cond,
            &[in64(&a), in64(&b)],
            a.len(),
            true,
            &|i| Some(a[i].cmp(&b[i])),
        );
        cmp_case(
            &ALL,
            "i64",
            cond,
            &[in64(&a), in64(&b)],
            a.len(),
            true,
            &|i| Some((a[i] as i64).cmp(&(b[i] as i64))),
        );
    }
}

#[test]
fn integer_16() {
    // gfx1100 takes true16 operands here (not run yet): gfx9 and gfx8
    let p16 = ["gfx900", "gfx90a", "gfx803"];
    let v = [0u32, 1, 0x7fff, 0x8000, 0xffff, 0x1234];
    let (a, b) = pairs(&v);
    for cond in INT_CONDS {
        cmp_case(
            &p16,
            "u16",
            cond,
            &[in32(&a), in32(&b)],
            a.len(),
            false,
            &|i| Some((a[i] as u16).cmp(&(b[i] as u16))),
        );
        cmp_case(
            &p16,
            "i16",
            cond,
            &[in32(&a), in32(&b)],
            a.len(),
            false,
            &|i| Some((a[i] as i16).cmp(&(b[i] as i16))),
        );
    }
}

#[test]
fn float_32_and_64() {
    let f: [f32; 8] = [
        0.0,
        -0.0,
        1.0,
        -1.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(1),
    ];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in f {
        for y in f {
            a.push(x);
            b.push(y);
        }
    }
    let a32: Vec<u32> = a.iter().map(|x| x.to_bits()).collect();
    let b32: Vec<u32> = b.iter().map(|x| x.to_bits()).collect();
    let a64: Vec<u64> = a.iter().map(|x| f64::from(*x).to_bits()).collect();
    let b64: Vec<u64> = b.iter().map(|x| f64::from(*x).to_bits()).collect();
    for cond in FLOAT_CONDS {
        cmp_case(
            &ALL,
            "f32",
            cond,
            &[in32(&a32), in32(&b32)],
            a.len(),
            false,
            &|i| a[i].partial_cmp(&b[i]),
        );
        cmp_case(
            &ALL,
            "f64",
            cond,
            &[in64(&a64), in64(&b64)],
            a.len(),
            true,
            &|i| a[i].partial_cmp(&b[i]),
        );
    }
}

#[test]
fn float_16() {
    let p16 = ["gfx900", "gfx90a", "gfx803"];
    // 0, -0, 1, -1.5, inf, -inf, NaN, the smallest denormal
    let h = [0u32, 0x8000, 0x3c00, 0xbe00, 0x7c00, 0xfc00, 0x7e00, 0x0001];
    let val = |x: u32| -> f64 {
        match x {
            0x7c00 => f64::INFINITY,
            0xfc00 => f64::NEG_INFINITY,
            0x7e00 => f64::NAN,
            0x3c00 => 1.0,
            0xbe00 => -1.5,
            0x0001 => 2f64.powi(-24),
            0x8000 => -0.0,
            _ => 0.0,
        }
    };
    let (a, b) = pairs(&h);
    for cond in FLOAT_CONDS {
        cmp_case(
            &p16,
            "f16",
            cond,
            &[in32(&a), in32(&b)],
            a.len(),
            false,
            &|i| val(a[i]).partial_cmp(&val(b[i])),
        );
    }
}
