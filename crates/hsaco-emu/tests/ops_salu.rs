//! Per-operation tests of the scalar ALU (SOP1, SOP2, SOPK, SOPC) from the ISA
//! manuals' descriptions: results and SCC over edge values, the expected values
//! computed here.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;

const P: [&str; 4] = ALL;

fn nz(x: u32) -> Option<bool> {
    Some(x != 0)
}

fn b2(
    f: impl Fn(u32, u32) -> (u32, Option<bool>),
) -> impl Fn(&[u32], bool) -> (Vec<u32>, Option<bool>) {
    move |s, _| {
        let (r, c) = f(s[0], s[1]);
        (vec![r], c)
    }
}

fn text2(mn: &str) -> String {
    format!("{mn} s30, s20, s21")
}

#[test]
fn arithmetic_and_carries() {
    let c = spairs(&EDGE32);
    let t = |m: &str| text2(m);
    sop(
        &P,
        &[&t("s_add_u32")],
        &c,
        1,
        b2(|a, b| {
            let (r, o) = a.overflowing_add(b);
            (r, Some(o))
        }),
    );
    sop(
        &P,
        &[&t("s_sub_u32")],
        &c,
        1,
        b2(|a, b| {
            let (r, o) = a.overflowing_sub(b);
            (r, Some(o))
        }),
    );
    sop(&P, &[&t("s_addc_u32")], &c, 1, |s, scc| {
        let r = u64::from(s[0]) + u64::from(s[1]) + u64::from(scc);
        (vec![r as u32], Some(r >> 32 != 0))
    });
    sop(&P, &[&t("s_subb_u32")], &c, 1, |s, scc| {
        let r = i64::from(s[0]) - i64::from(s[1]) - i64::from(scc);
        (vec![r as u32], Some(r < 0))
    });
    // signed: SCC = overflow
    sop(
        &P,
        &[&t("s_add_i32")],
        &c,
        1,
        b2(|a, b| {
            let (r, o) = (a as i32).overflowing_add(b as i32);
            (r as u32, Some(o))
        }),
    );
    sop(
        &P,
        &[&t("s_sub_i32")],
        &c,
        1,
        b2(|a, b| {
            let (r, o) = (a as i32).overflowing_sub(b as i32);
            (r as u32, Some(o))
        }),
    );
    sop(
        &P,
        &[&t("s_mul_i32")],
        &c,
        1,
        b2(|a, b| (a.wrapping_mul(b), None)),
    );
    sop(
        &P,
        &[&t("s_mul_hi_u32")],
        &c,
        1,
        b2(|a, b| (((u64::from(a) * u64::from(b)) >> 32) as u32, None)),
    );
    sop(
        &P,
        &[&t("s_mul_hi_i32")],
        &c,
        1,
        b2(|a, b| {
            (
                ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
                None,
            )
        }),
    );
    sop(
        &P,
        &[&t("s_absdiff_i32")],
        &c,
        1,
        b2(|a, b| {
            let r = (a as i32).wrapping_sub(b as i32).wrapping_abs() as u32;
            (r, nz(r))
        }),
    );
    // SCC = 1 when S0 is the one chosen
    sop(
        &P,
        &[&t("s_min_i32")],
        &c,
        1,
        b2(|a, b| {
            (
                (a as i32).min(b as i32) as u32,
                Some((a as i32) < (b as i32)),
            )
        }),
    );
    sop(
        &P,
        &[&t("s_max_i32")],
        &c,
        1,
        b2(|a, b| {
            (
                (a as i32).max(b as i32) as u32,
                Some((a as i32) > (b as i32)),
            )
        }),
    );
    sop(
        &P,
        &[&t("s_min_u32")],
        &c,
        1,
        b2(|a, b| (a.min(b), Some(a < b))),
    );
    sop(
        &P,
        &[&t("s_max_u32")],
        &c,
        1,
        b2(|a, b| (a.max(b), Some(a > b))),
    );
    // (S0 << n) + S1, SCC = the sum is 2^32 or more (the shift done in 64 bits)
    for (n, mn) in [
        (1u32, "s_lshl1_add_u32"),
        (2, "s_lshl2_add_u32"),
        (3, "s_lshl3_add_u32"),
        (4, "s_lshl4_add_u32"),
    ] {
        sop(
            &P,
            &[&t(mn)],
            &c,
            1,
            b2(move |a, b| {
                let r = (u64::from(a) << n) + u64::from(b);
                (r as u32, Some(r >> 32 != 0))
            }),
        );
    }
}

#[test]
fn logic_and_shifts() {
    let c = spairs(&EDGE32);
    let t = |m: &str| text2(m);
    type Op1 = fn(u32, u32) -> u32;
    let ops: [(&str, Op1); 10] = [
        ("s_and_b32", |a, b| a & b),
        ("s_or_b32", |a, b| a | b),
        ("s_xor_b32", |a, b| a ^ b),
        ("s_andn2_b32", |a, b| a & !b),
        ("s_orn2_b32", |a, b| a | !b),
        ("s_nand_b32", |a, b| !(a & b)),
        ("s_nor_b32", |a, b| !(a | b)),
        ("s_xnor_b32", |a, b| !(a ^ b)),
        // shift counts: S1[4:0]
        ("s_lshl_b32", |a, b| a << (b & 31)),
        ("s_lshr_b32", |a, b| a >> (b & 31)),
    ];
    for (mn, f) in ops {
        let gfx11 = mn.replace("andn2", "and_not1").replace("orn2", "or_not1");
        sop(
            &P,
            &[&t(mn), &t(&gfx11)],
            &c,
            1,
            b2(move |a, b| {
                let r = f(a, b);
                (r, nz(r))
            }),
        );
    }
    sop(
        &P,
        &[&t("s_ashr_i32")],
        &c,
        1,
        b2(|a, b| {
            let r = ((a as i32) >> (b & 31)) as u32;
            (r, nz(r))
        }),
    );
    sop(
        &P,
        &[&t("s_bfm_b32")],
        &c,
        1,
        b2(|a, b| ((((1u64 << (a & 31)) - 1) as u32) << (b & 31), None)),
    );
    sop(
        &P,
        &[&t("s_pack_ll_b32_b16")],
        &c,
        1,
        b2(|a, b| ((a & 0xffff) | (b << 16), None)),
    );
    // cselect: D = SCC ? S0 : S1, SCC unchanged
    sop(&P, &[&t("s_cselect_b32")], &c, 1, |s, scc| {
        (vec![if scc { s[0] } else { s[1] }], None)
    });
}

/// 64-bit operands: s[20:21] and s[22:23], the result in s[30:31].
fn cases64() -> Vec<SCase> {
    let v: [u64; 7] = [
        0,
        1,
        63,
        64,
        0x8000_0000_0000_0000,
        u64::MAX,
        0x1234_5678_0000_ffff,
    ];
    let mut c = Vec::new();
    for x in v {
        for y in v {
            c.push(SCase {
                s: vec![x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32],
                scc: c.len() % 2 == 0,
            });
        }
    }
    c
}

fn q(s: &[u32], i: usize) -> u64 {
    u64::from(s[i]) | u64::from(s[i + 1]) << 32
}

fn split(x: u64) -> Vec<u32> {
    vec![x as u32, (x >> 32) as u32]
}

#[test]
fn sixty_four_bit() {
    let c = cases64();
    type Op2 = fn(u64, u64) -> u64;
    let ops: [(&str, Op2); 8] = [
        ("s_and_b64", |a, b| a & b),
        ("s_or_b64", |a, b| a | b),
        ("s_xor_b64", |a, b| a ^ b),
        ("s_andn2_b64", |a, b| a & !b),
        ("s_orn2_b64", |a, b| a | !b),
        ("s_nand_b64", |a, b| !(a & b)),
        ("s_nor_b64", |a, b| !(a | b)),
        ("s_xnor_b64", |a, b| !(a ^ b)),
    ];
    for (mn, f) in ops {
        let gfx11 = mn.replace("andn2", "and_not1").replace("orn2", "or_not1");
        let a = format!("{mn} s[30:31], s[20:21], s[22:23]");
        let b = format!("{gfx11} s[30:31], s[20:21], s[22:23]");
        sop(&P, &[&a, &b], &c, 2, move |s, _| {
            let r = f(q(s, 0), q(s, 2));
            (split(r), Some(r != 0))
        });
    }
    // shifts of 64 bits: count S1[5:0]
    type Op3 = fn(u64, u32) -> u64;
    let sh: [(&str, Op3); 3] = [
        ("s_lshl_b64", |a, n| a << (n & 63)),
        ("s_lshr_b64", |a, n| a >> (n & 63)),
        ("s_ashr_i64", |a, n| ((a as i64) >> (n & 63)) as u64),
    ];
    for (mn, f) in sh {
        sop(
            &P,
            &[&format!("{mn} s[30:31], s[20:21], s22")],
            &c,
            2,
            move |s, _| {
                let r = f(q(s, 0), s[2]);
                (split(r), Some(r != 0))
            },
        );
    }
    sop(
        &P,
        &["s_cselect_b64 s[30:31], s[20:21], s[22:23]"],
        &c,
        2,
        |s, scc| (split(if scc { q(s, 0) } else { q(s, 2) }), None),
    );
    sop(&P, &["s_mov_b64 s[30:31], s[20:21]"], &c, 2, |s, _| {
        (split(q(s, 0)), None)
    });
    sop(&P, &["s_not_b64 s[30:31], s[20:21]"], &c, 2, |s, _| {
        let r = !q(s, 0);
        (split(r), Some(r != 0))
    });
    sop_seq(
        &P,
        &[
            "s_mov_b64 s[30:31], s[22:23]",
            "s_cmov_b64 s[30:31], s[20:21]",
        ],
        &c,
        2,
        |s, scc| (split(if scc { q(s, 0) } else { q(s, 2) }), None),
    );
    sop(&P, &["s_bcnt1_i32_b64 s30, s[20:21]"], &c, 1, |s, _| {
        let r = q(s, 0).count_ones();
        (vec![r], nz(r))
    });
    sop(
        &P,
        &["s_ff1_i32_b64 s30, s[20:21]", "s_ctz_i32_b64 s30, s[20:21]"],
        &c,
        1,
        |s, _| {
            let x = q(s, 0);
            (
                vec![if x == 0 { u32::MAX } else { x.trailing_zeros() }],
                None,
            )
        },
    );
    // compares of 64 bits (gfx8 and later)
    sop(&P, &["s_cmp_eq_u64 s[20:21], s[22:23]"], &c, 0, |s, _| {
        (vec![], Some(q(s, 0) == q(s, 2)))
    });
    sop(&P, &["s_cmp_lg_u64 s[20:21], s[22:23]"], &c, 0, |s, _| {
        (vec![], Some(q(s, 0) != q(s, 2)))
    });
}

#[test]
fn unary() {
    let c: Vec<SCase> = EDGE32
        .iter()
        .chain(&[0x80u32, 0x7f, 0xff80, 0x7fff, 0x8000_0001])
        .enumerate()
        .map(|(i, x)| SCase {
            s: vec![*x, 0x5a5a_5a5a],
            scc: i % 2 == 0,
        })
        .collect();
    let u = |f: fn(u32) -> (u32, Option<bool>)| {
        move |s: &[u32], _| {
            let (r, c) = f(s[0]);
            (vec![r], c)
        }
    };
    sop_seq(&P, &["s_mov_b32 s30, s20"], &c, 1, u(|a| (a, None)));
    sop(&P, &["s_not_b32 s30, s20"], &c, 1, u(|a| (!a, nz(!a))));
    sop(
        &P,
        &["s_brev_b32 s30, s20"],
        &c,
        1,
        u(|a| (a.reverse_bits(), None)),
    );
    sop(
        &P,
        &["s_bcnt1_i32_b32 s30, s20"],
        &c,
        1,
        u(|a| (a.count_ones(), nz(a.count_ones()))),
    );
    sop(
        &P,
        &["s_ff1_i32_b32 s30, s20", "s_ctz_i32_b32 s30, s20"],
        &c,
        1,
        u(|a| (if a == 0 { u32::MAX } else { a.trailing_zeros() }, None)),
    );
    sop(
        &P,
        &["s_flbit_i32_b32 s30, s20", "s_clz_i32_u32 s30, s20"],
        &c,
        1,
        u(|a| (if a == 0 { u32::MAX } else { a.leading_zeros() }, None)),
    );
    sop(
        &P,
        &["s_sext_i32_i8 s30, s20"],
        &c,
        1,
        u(|a| (a as u8 as i8 as i32 as u32, None)),
    );
    sop(
        &P,
        &["s_sext_i32_i16 s30, s20"],
        &c,
        1,
        u(|a| (a as u16 as i16 as i32 as u32, None)),
    );
    // |S0|, of i32::MIN itself; SCC = result != 0
    sop(
        &P,
        &["s_abs_i32 s30, s20"],
        &c,
        1,
        u(|a| {
            let r = (a as i32).wrapping_abs() as u32;
            (r, nz(r))
        }),
    );
    // conditional moves: the destination keeps s21's value when SCC = 0
    sop_seq(
        &P,
        &["s_mov_b32 s30, s21", "s_cmov_b32 s30, s20"],
        &c,
        1,
        |s, scc| (vec![if scc { s[0] } else { s[1] }], None),
    );
}

#[test]
fn sopk() {
    let c: Vec<SCase> = EDGE32
        .iter()
        .enumerate()
        .map(|(i, x)| SCase {
            s: vec![*x],
            scc: i % 2 == 1,
        })
        .collect();
    for k in [0i32, 1, -1, 0x7fff, -0x8000, 0x1234] {
        let ku = k as u32; // the 16-bit immediate sign-extended
        sop(
            &P,
            &[&format!("s_movk_i32 s30, {k}")],
            &c,
            1,
            move |_, _| (vec![ku], None),
        );
        sop_seq(
            &P,
            &["s_mov_b32 s30, s20", &format!("s_cmovk_i32 s30, {k}")],
            &c,
            1,
            move |s, scc| (vec![if scc { ku } else { s[0] }], None),
        );
        // D = D + simm16, SCC = signed overflow
        sop_seq(
            &P,
            &["s_mov_b32 s30, s20", &format!("s_addk_i32 s30, {k}")],
            &c,
            1,
            move |s, _| {
                let (r, o) = (s[0] as i32).overflowing_add(k);
                (vec![r as u32], Some(o))
            },
        );
        sop_seq(
            &P,
            &["s_mov_b32 s30, s20", &format!("s_mulk_i32 s30, {k}")],
            &c,
            1,
            move |s, _| (vec![(s[0] as i32).wrapping_mul(k) as u32], None),
        );
        // compares: the immediate sign-extended for _i32, zero-extended for _u32
        let kz = ku & 0xffff;
        type C = fn(std::cmp::Ordering) -> bool;
        let conds: [(&str, &str, C); 6] = [
            ("s_cmpk_eq_i32", "s_cmpk_eq_u32", |o| o.is_eq()),
            ("s_cmpk_lg_i32", "s_cmpk_lg_u32", |o| o.is_ne()),
            ("s_cmpk_gt_i32", "s_cmpk_gt_u32", |o| o.is_gt()),
            ("s_cmpk_ge_i32", "s_cmpk_ge_u32", |o| o.is_ge()),
            ("s_cmpk_lt_i32", "s_cmpk_lt_u32", |o| o.is_lt()),
            ("s_cmpk_le_i32", "s_cmpk_le_u32", |o| o.is_le()),
        ];
        for (mi, mu, f) in conds {
            sop(&P, &[&format!("{mi} s20, {k}")], &c, 0, move |s, _| {
                (vec![], Some(f((s[0] as i32).cmp(&k))))
            });
            sop(&P, &[&format!("{mu} s20, {kz:#x}")], &c, 0, move |s, _| {
                (vec![], Some(f(s[0].cmp(&kz))))
            });
        }
    }
}

#[test]
fn compares() {
    let c = spairs(&EDGE32);
    type C = fn(std::cmp::Ordering) -> bool;
    let conds: [(&str, &str, C); 6] = [
        ("s_cmp_eq_i32", "s_cmp_eq_u32", |o| o.is_eq()),
        ("s_cmp_lg_i32", "s_cmp_lg_u32", |o| o.is_ne()),
        ("s_cmp_gt_i32", "s_cmp_gt_u32", |o| o.is_gt()),
        ("s_cmp_ge_i32", "s_cmp_ge_u32", |o| o.is_ge()),
        ("s_cmp_lt_i32", "s_cmp_lt_u32", |o| o.is_lt()),
        ("s_cmp_le_i32", "s_cmp_le_u32", |o| o.is_le()),
    ];
    for (mi, mu, f) in conds {
        sop(&P, &[&format!("{mi} s20, s21")], &c, 0, move |s, _| {
            (vec![], Some(f((s[0] as i32).cmp(&(s[1] as i32)))))
        });
        sop(&P, &[&format!("{mu} s20, s21")], &c, 0, move |s, _| {
            (vec![], Some(f(s[0].cmp(&s[1]))))
        });
    }
    // SCC = S0[S1[4:0]] == 0 / == 1
    sop(&P, &["s_bitcmp0_b32 s20, s21"], &c, 0, |s, _| {
        (vec![], Some(s[0] >> (s[1] & 31) & 1 == 0))
    });
    sop(&P, &["s_bitcmp1_b32 s20, s21"], &c, 0, |s, _| {
        (vec![], Some(s[0] >> (s[1] & 31) & 1 == 1))
    });
}

#[test]
fn bitfield_extract() {
    // S1[4:0] offset, S1[22:16] width; SCC = result != 0
    let mut c = Vec::new();
    for a in [0u32, 0xffff_ffff, 0x8765_4321, 0x0000_8000] {
        for o in [0u32, 1, 7, 16, 31] {
            for w in [0u32, 1, 8, 15, 16] {
                if o + w <= 32 {
                    c.push(SCase {
                        s: vec![a, o | w << 16],
                        scc: c.len() % 2 == 0,
                    });
                }
            }
        }
    }
    sop(&P, &["s_bfe_u32 s30, s20, s21"], &c, 1, |s, _| {
        let (o, w) = (s[1] & 31, (s[1] >> 16) & 0x7f);
        let r = ((u64::from(s[0]) >> o) & ((1u64 << w) - 1)) as u32;
        (vec![r], nz(r))
    });
    sop(&P, &["s_bfe_i32 s30, s20, s21"], &c, 1, |s, _| {
        let (o, w) = (s[1] & 31, (s[1] >> 16) & 0x7f);
        let r = if w == 0 {
            0
        } else {
            (((s[0] << (32 - o - w)) as i32) >> (32 - w)) as u32
        };
        (vec![r], nz(r))
    });
}
