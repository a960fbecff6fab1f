//! Per-operation tests of the 32-bit integer vector operations, from the ISA manuals'
//! descriptions (Vega "AMD Instinct MI25/Vega ISA", CDNA2, RDNA3 guides): each over
//! every pair (or triple) of edge values, the expected value computed here.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;

const P: [&str; 4] = ALL;

#[test]
fn moves_and_logic() {
    un32(&P, &["v_mov_b32 v24, v8"], &EDGE32, |a| a);
    un32(&P, &["v_not_b32 v24, v8"], &EDGE32, |a| !a);
    bin32(&P, &["v_and_b32 v24, v8, v12"], |a, b| a & b);
    bin32(&P, &["v_or_b32 v24, v8, v12"], |a, b| a | b);
    bin32(&P, &["v_xor_b32 v24, v8, v12"], |a, b| a ^ b);
    tri32(
        &P,
        &["v_and_or_b32 v24, v8, v12, v16"],
        &EDGE32[..6],
        |a, b, c| (a & b) | c,
    );
    tri32(
        &P,
        &["v_or3_b32 v24, v8, v12, v16"],
        &EDGE32[8..],
        |a, b, c| a | b | c,
    );
    // gfx10+ (RDNA guides: "D = S0 ^ S1 ^ S2"); not on gfx9 before gfx950
    tri32(
        &["gfx1100"],
        &["v_xor3_b32 v24, v8, v12, v16"],
        &EDGE32[6..14],
        |a, b, c| a ^ b ^ c,
    );
}

#[test]
fn shifts_take_the_low_five_bits_of_the_count() {
    // "D = S1 << S0[4:0]": a count of 32 or more uses its low 5 bits
    bin32(&P, &["v_lshlrev_b32 v24, v8, v12"], |a, b| b << (a & 31));
    bin32(&P, &["v_lshrrev_b32 v24, v8, v12"], |a, b| b >> (a & 31));
    bin32(&P, &["v_ashrrev_i32 v24, v8, v12"], |a, b| {
        ((b as i32) >> (a & 31)) as u32
    });
    tri32(
        &P,
        &["v_lshl_add_u32 v24, v8, v12, v16"],
        &EDGE32[..8],
        |a, b, c| (a << (b & 31)).wrapping_add(c),
    );
    tri32(
        &P,
        &["v_add_lshl_u32 v24, v8, v12, v16"],
        &EDGE32[..8],
        |a, b, c| a.wrapping_add(b) << (c & 31),
    );
    tri32(
        &P,
        &["v_lshl_or_b32 v24, v8, v12, v16"],
        &EDGE32[4..12],
        |a, b, c| (a << (b & 31)) | c,
    );
}

#[test]
fn sixty_four_bit_shifts_take_six_bits() {
    let counts = [0u32, 1, 31, 32, 33, 63, 64, 65, 0xffff_ffff];
    let vals = [
        1u64,
        0x8000_0000_0000_0000,
        0x1234_5678_9abc_def0,
        u64::MAX,
        0xffff_ffff,
    ];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for c in counts {
        for x in vals {
            a.push(c);
            b.push(x);
        }
    }
    let n = a.len();
    type Shift = fn(u32, u64) -> u64;
    let cases: [(&[&str], Shift); 3] = [
        (&["v_lshlrev_b64 v[24:25], v8, v[12:13]"], |c, x| {
            x << (c & 63)
        }),
        (&["v_lshrrev_b64 v[24:25], v8, v[12:13]"], |c, x| {
            x >> (c & 63)
        }),
        (&["v_ashrrev_i64 v[24:25], v8, v[12:13]"], |c, x| {
            ((x as i64) >> (c & 63)) as u64
        }),
    ];
    for (alts, f) in cases {
        each(&P, alts, &[in32(&a), in64(&b)], 2, |p, got| {
            for i in 0..n {
                let g = u64::from(got[2 * i]) | u64::from(got[2 * i + 1]) << 32;
                assert_eq!(g, f(a[i], b[i]), "{p} {} lane {i}", alts[0]);
            }
        });
    }
}

#[test]
fn adds_and_subs_wrap() {
    bin32(
        &P,
        &["v_add_u32 v24, v8, v12", "v_add_nc_u32 v24, v8, v12"],
        u32::wrapping_add,
    );
    bin32(
        &P,
        &["v_sub_u32 v24, v8, v12", "v_sub_nc_u32 v24, v8, v12"],
        u32::wrapping_sub,
    );
    bin32(
        &P,
        &["v_subrev_u32 v24, v8, v12", "v_subrev_nc_u32 v24, v8, v12"],
        |a, b| b.wrapping_sub(a),
    );
    tri32(
        &P,
        &["v_add3_u32 v24, v8, v12, v16"],
        &EDGE32[6..14],
        |a, b, c| a.wrapping_add(b).wrapping_add(c),
    );
    tri32(
        &P,
        &["v_xad_u32 v24, v8, v12, v16"],
        &EDGE32[6..14],
        |a, b, c| (a ^ b).wrapping_add(c),
    );
}

/// The carry out of each lane (bit `lane` of the SGPR pair the operation wrote) and the
/// result, stored as the output's two dwords.
fn with_carry(alts: &[&str], carry_in: bool, f: impl Fn(u32, u32, u32) -> (u32, bool)) {
    let (a, b) = pairs(&EDGE32[6..14]);
    // the carry-in per lane: lane i has bit (i % 3 == 0)
    let cin = |i: usize| carry_in && i.is_multiple_of(3);
    for p in GFX9.iter().chain(["gfx803"].iter()) {
        let Some(text) = spelling(p, alts) else {
            assert!(generation(p) != Gen::Gfx9, "{p}: {alts:?}");
            continue;
        };
        let out = run(p, &[in32(&a), in32(&b)], &[1, 1], |k| {
            // VCC = carry-in mask: lanes with v0 % 3 == 0
            k.i("v_mul_u32_u24 v41, 0xaaab, v0");
            // lane % 3 == 0  <=>  (lane * 0xaaab) >> 17 == lane / 3 exactly; use cmp
            k.i("v_lshrrev_b32 v41, 17, v41");
            k.i("v_mul_u32_u24 v41, 3, v41");
            k.i("v_cmp_eq_u32 vcc, v41, v0");
            k.i(&text);
            k.i("v_cndmask_b32 v28, 0, 1, s[20:21]");
        });
        for i in 0..a.len() {
            let (r, c) = f(a[i], b[i], u32::from(cin(i)));
            assert_eq!(out[0][i], r, "{p} {text} lane {i}");
            assert_eq!(out[1][i], u32::from(c), "{p} {text} carry lane {i}");
        }
    }
}

#[test]
fn carries_and_borrows() {
    with_carry(
        &[
            "v_add_co_u32 v24, s[20:21], v8, v12",
            "v_add_i32 v24, s[20:21], v8, v12",
            "v_add_u32 v24, s[20:21], v8, v12",
        ],
        false,
        |a, b, _| {
            let (r, c) = a.overflowing_add(b);
            (r, c)
        },
    );
    with_carry(
        &[
            "v_sub_co_u32 v24, s[20:21], v8, v12",
            "v_sub_u32 v24, s[20:21], v8, v12",
        ],
        false,
        |a, b, _| a.overflowing_sub(b),
    );
    with_carry(
        &[
            "v_subrev_co_u32 v24, s[20:21], v8, v12",
            "v_subrev_u32 v24, s[20:21], v8, v12",
        ],
        false,
        |a, b, _| b.overflowing_sub(a),
    );
    // carry-in from VCC; carry out = the 33-bit sum's bit 32
    with_carry(
        &[
            "v_addc_co_u32 v24, s[20:21], v8, v12, vcc",
            "v_addc_u32 v24, s[20:21], v8, v12, vcc",
        ],
        true,
        |a, b, c| {
            let s = u64::from(a) + u64::from(b) + u64::from(c);
            (s as u32, s >> 32 != 0)
        },
    );
    with_carry(
        &[
            "v_subb_co_u32 v24, s[20:21], v8, v12, vcc",
            "v_subb_u32 v24, s[20:21], v8, v12, vcc",
        ],
        true,
        |a, b, c| {
            let s = i64::from(a) - i64::from(b) - i64::from(c);
            (s as u32, s < 0)
        },
    );
    with_carry(
        &[
            "v_subbrev_co_u32 v24, s[20:21], v8, v12, vcc",
            "v_subbrev_u32 v24, s[20:21], v8, v12, vcc",
        ],
        true,
        |a, b, c| {
            let s = i64::from(b) - i64::from(a) - i64::from(c);
            (s as u32, s < 0)
        },
    );
}

#[test]
fn multiplies() {
    bin32(&P, &["v_mul_lo_u32 v24, v8, v12"], u32::wrapping_mul);
    bin32(&P, &["v_mul_hi_u32 v24, v8, v12"], |a, b| {
        ((u64::from(a) * u64::from(b)) >> 32) as u32
    });
    bin32(&P, &["v_mul_hi_i32 v24, v8, v12"], |a, b| {
        ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
    });
    // 24-bit: the operands' low 24 bits (signed for i24)
    let s24 = |x: u32| ((x << 8) as i32 >> 8) as i64;
    bin32(&P, &["v_mul_u32_u24 v24, v8, v12"], |a, b| {
        (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)
    });
    bin32(&P, &["v_mul_i32_i24 v24, v8, v12"], move |a, b| {
        (s24(a) * s24(b)) as u32
    });
    bin32(&P, &["v_mul_hi_u32_u24 v24, v8, v12"], |a, b| {
        ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32
    });
    tri32(
        &P,
        &["v_mad_u32_u24 v24, v8, v12, v16"],
        &EDGE32[8..14],
        |a, b, c| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c),
    );
    tri32(
        &P,
        &["v_mad_i32_i24 v24, v8, v12, v16"],
        &EDGE32[8..14],
        move |a, b, c| ((s24(a) * s24(b)) as u32).wrapping_add(c),
    );
}

#[test]
fn wide_multiply_adds() {
    let v = [0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x1234_5678];
    let w = [0u64, 1, u64::MAX, 0x8000_0000_0000_0000, 0x1_0000_0000];
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in v {
        for y in v {
            for z in w {
                a.push(x);
                b.push(y);
                c.push(z);
            }
        }
    }
    let n = a.len();
    type Mad = fn(u32, u32, u64) -> u64;
    let cases: [(&[&str], Mad); 2] = [
        (
            &[
                "v_mad_u64_u32 v[24:25], s[20:21], v8, v12, v[16:17]",
                "v_mad_u64_u32 v[24:25], s20, v8, v12, v[16:17]",
            ],
            |a, b, c| (u64::from(a) * u64::from(b)).wrapping_add(c),
        ),
        (
            &[
                "v_mad_i64_i32 v[24:25], s[20:21], v8, v12, v[16:17]",
                "v_mad_i64_i32 v[24:25], s20, v8, v12, v[16:17]",
            ],
            |a, b, c| ((i64::from(a as i32) * i64::from(b as i32)) as u64).wrapping_add(c),
        ),
    ];
    for (alts, f) in cases {
        each(&P, alts, &[in32(&a), in32(&b), in64(&c)], 2, |p, got| {
            for i in 0..n {
                let g = u64::from(got[2 * i]) | u64::from(got[2 * i + 1]) << 32;
                assert_eq!(g, f(a[i], b[i], c[i]), "{p} {} lane {i}", alts[0]);
            }
        });
    }
}

#[test]
fn min_max_med() {
    bin32(&P, &["v_min_i32 v24, v8, v12"], |a, b| {
        (a as i32).min(b as i32) as u32
    });
    bin32(&P, &["v_max_i32 v24, v8, v12"], |a, b| {
        (a as i32).max(b as i32) as u32
    });
    bin32(&P, &["v_min_u32 v24, v8, v12"], u32::min);
    bin32(&P, &["v_max_u32 v24, v8, v12"], u32::max);
    let t = &EDGE32[7..13];
    let med = |a: i64, b: i64, c: i64| a.max(b).min(a.min(b).max(c));
    tri32(&P, &["v_min3_i32 v24, v8, v12, v16"], t, |a, b, c| {
        (a as i32).min(b as i32).min(c as i32) as u32
    });
    tri32(&P, &["v_max3_i32 v24, v8, v12, v16"], t, |a, b, c| {
        (a as i32).max(b as i32).max(c as i32) as u32
    });
    tri32(&P, &["v_med3_i32 v24, v8, v12, v16"], t, move |a, b, c| {
        med(
            i64::from(a as i32),
            i64::from(b as i32),
            i64::from(c as i32),
        ) as u32
    });
    tri32(&P, &["v_min3_u32 v24, v8, v12, v16"], t, |a, b, c| {
        a.min(b).min(c)
    });
    tri32(&P, &["v_max3_u32 v24, v8, v12, v16"], t, |a, b, c| {
        a.max(b).max(c)
    });
    tri32(&P, &["v_med3_u32 v24, v8, v12, v16"], t, move |a, b, c| {
        med(i64::from(a), i64::from(b), i64::from(c)) as u32
    });
}

#[test]
fn bitfields() {
    // BFE: offset S1[4:0], width S2[4:0]; width 0 gives 0
    let bfe_u = |a: u32, b: u32, c: u32| {
        let (o, w) = (b & 31, c & 31);
        if w == 0 {
            0
        } else {
            (a >> o) & ((1u32 << w) - 1)
        }
    };
    let bfe_i = |a: u32, b: u32, c: u32| {
        let (o, w) = (b & 31, c & 31);
        if w == 0 {
            0
        } else if o + w < 32 {
            (((a << (32 - o - w)) as i32) >> (32 - w)) as u32
        } else {
            ((a as i32) >> o) as u32
        }
    };
    let vals = [0u32, 1, 4, 16, 31, 32, 0xffff_ffff, 0x8765_4321];
    tri32(&P, &["v_bfe_u32 v24, v8, v12, v16"], &vals, bfe_u);
    tri32(&P, &["v_bfe_i32 v24, v8, v12, v16"], &vals, bfe_i);
    tri32(&P, &["v_bfi_b32 v24, v8, v12, v16"], &vals, |a, b, c| {
        (a & b) | (!a & c)
    });
    bin32(&P, &["v_bfm_b32 v24, v8, v12"], |a, b| {
        (((1u64 << (a & 31)) - 1) as u32).wrapping_shl(b & 31)
    });
    un32(&P, &["v_bfrev_b32 v24, v8"], &EDGE32, u32::reverse_bits);
    un32(
        &P,
        &["v_bcnt_u32_b32 v24, v8, 0", "v_bcnt_u32_b32_e64 v24, v8, 0"],
        &EDGE32,
        u32::count_ones,
    );
    bin32(&P, &["v_bcnt_u32_b32 v24, v8, v12"], |a, b| {
        a.count_ones().wrapping_add(b)
    });
    // first bit from the top / bottom; -1 (all ones) when none
    un32(
        &P,
        &["v_ffbh_u32 v24, v8", "v_clz_i32_u32 v24, v8"],
        &EDGE32,
        |a| {
            if a == 0 {
                u32::MAX
            } else {
                a.leading_zeros()
            }
        },
    );
    un32(
        &P,
        &["v_ffbl_b32 v24, v8", "v_ctz_i32_b32 v24, v8"],
        &EDGE32,
        |a| {
            if a == 0 {
                u32::MAX
            } else {
                a.trailing_zeros()
            }
        },
    );
    // ffbh_i32: the first bit that differs from the sign bit; -1 for 0 and -1
    un32(
        &P,
        &["v_ffbh_i32 v24, v8", "v_cls_i32 v24, v8"],
        &EDGE32,
        |a| {
            if a == 0 || a == u32::MAX {
                u32::MAX
            } else if (a as i32) < 0 {
                (!a).leading_zeros()
            } else {
                a.leading_zeros()
            }
        },
    );
}

#[test]
fn aligns_and_perm() {
    // gfx1100 gives the shift operand as a 16-bit register (`v16.l`), a true16 operand
    // the emulator does not take yet (NOTES "Left"): gfx9 and gfx8 only
    let procs = ["gfx900", "gfx90a", "gfx803"];
    let vals = [0u32, 1, 8, 31, 32, 0x8765_4321, 0xffff_ffff];
    // ({S0, S1} >> S2[4:0])[31:0]; alignbyte by S2[1:0] bytes
    tri32(
        &procs,
        &["v_alignbit_b32 v24, v8, v12, v16"],
        &vals,
        |a, b, c| (((u64::from(a) << 32) | u64::from(b)) >> (c & 31)) as u32,
    );
    tri32(
        &procs,
        &["v_alignbyte_b32 v24, v8, v12, v16"],
        &vals,
        |a, b, c| (((u64::from(a) << 32) | u64::from(b)) >> (8 * (c & 3))) as u32,
    );
    // v_perm_b32: each selector byte picks a byte of {S0, S1} (0-7), or a constant
    // (8-11 the sign of a 16-bit half's top byte, 12 = 0x00, >= 13 = 0xff)
    let sels = [
        0x0706_0504u32,
        0x0001_0203,
        0x0c0d_0e0f,
        0x0809_0a0b,
        0x0400_0501,
    ];
    let data = [0x8081_8283u32, 0x0102_0304, 0xfe7f_80ff];
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in data {
        for y in data {
            for s in sels {
                a.push(x);
                b.push(y);
                c.push(s);
            }
        }
    }
    let perm = |s0: u32, s1: u32, sel: u32| {
        let bytes = (u64::from(s0) << 32) | u64::from(s1);
        let mut r = 0u32;
        for i in 0..4 {
            let s = (sel >> (8 * i)) & 0xff;
            let byte = match s {
                0..=7 => (bytes >> (8 * s)) as u8,
                8 => {
                    if s1 & 0x8000 != 0 {
                        0xff
                    } else {
                        0
                    }
                }
                9 => {
                    if s1 & 0x8000_0000 != 0 {
                        0xff
                    } else {
                        0
                    }
                }
                10 => {
                    if s0 & 0x8000 != 0 {
                        0xff
                    } else {
                        0
                    }
                }
                11 => {
                    if s0 & 0x8000_0000 != 0 {
                        0xff
                    } else {
                        0
                    }
                }
                12 => 0,
                _ => 0xff,
            };
            r |= u32::from(byte) << (8 * i);
        }
        r
    };
    let n = a.len();
    each(
        &P,
        &["v_perm_b32 v24, v8, v12, v16"],
        &[in32(&a), in32(&b), in32(&c)],
        1,
        |p, got| check(p, "v_perm_b32", got, |i| perm(a[i], b[i], c[i]), n),
    );
}

#[test]
fn cndmask_and_inactive_lanes() {
    // D = VCC[lane] ? S1 : S0; lanes EXEC leaves out keep the sentinel
    for p in ALL {
        let lanes = lanes(p) as usize;
        let a: Vec<u32> = (0..lanes as u32).collect();
        let b: Vec<u32> = (0..lanes as u32).map(|x| 1000 + x).collect();
        let vcc: u64 = 0x5555_aaaa_0f0f_f0f0;
        let exec: u64 = 0xffff_0000_ff00_fff1;
        let out = run(p, &[in32(&a), in32(&b)], &[1], |k| {
            let vc = if k.lanes == 64 { "vcc" } else { "vcc_lo" };
            if k.lanes == 64 {
                k.i(&format!("s_mov_b32 vcc_lo, {:#x}", vcc as u32));
                k.i(&format!("s_mov_b32 vcc_hi, {:#x}", (vcc >> 32) as u32));
            } else {
                k.i(&format!("s_mov_b32 vcc_lo, {:#x}", vcc as u32));
            }
            k.exec(exec);
            k.i(&format!("v_cndmask_b32 v24, v8, v12, {vc}"));
        });
        for l in 0..lanes {
            let want = if exec >> l & 1 == 0 {
                SENTINEL
            } else if vcc >> l & 1 == 1 {
                b[l]
            } else {
                a[l]
            };
            assert_eq!(out[0][l], want, "{p} lane {l}");
        }
        // EXEC = 0: nothing is written
        let out = run(p, &[in32(&a), in32(&b)], &[1], |k| {
            k.exec(0);
            k.i("v_mov_b32 v24, v8");
            k.i("v_not_b32 v24, v8");
        });
        assert!(
            out[0][..lanes].iter().all(|x| *x == SENTINEL),
            "{p} EXEC = 0"
        );
    }
}
