//! Per-operation tests of the cross-lane and wave-level vector operations:
//! readlane/readfirstlane/writelane, mbcnt, the gfx940 64-bit moves and shift-adds,
//! and the scalar operations that work on EXEC (saveexec), from the manuals.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;

#[test]
fn readlane_writelane_readfirstlane() {
    for p in ALL {
        let lanes = lanes(p) as usize;
        let a: Vec<u32> = (0..lanes as u32).map(|l| 1000 + l * 7).collect();
        let out = run(p, &[in32(&a)], &[1, 1, 1], |k| {
            // readlane with a lane number past the wave: the lane number's low bits
            k.i("v_readlane_b32 s20, v8, 5");
            k.i(&format!("s_mov_b32 s21, {}", k.lanes + 3));
            k.i("v_readlane_b32 s22, v8, s21");
            k.i("v_mov_b32 v24, s20");
            k.i("v_mov_b32 v28, s22");
            // readfirstlane: the first lane EXEC enables
            k.exec(0b1011_0000);
            k.i("v_readfirstlane_b32 s23, v8");
            k.exec(u64::MAX);
            // writelane writes one lane whatever EXEC is
            k.i("v_mov_b32 v32, 0");
            k.exec(0);
            k.i("v_writelane_b32 v32, s23, 9");
        });
        for l in 0..lanes {
            assert_eq!(out[0][l], a[5], "{p} readlane 5");
            assert_eq!(out[1][l], a[3], "{p} readlane past the wave");
            assert_eq!(
                out[2][l],
                if l == 9 { a[4] } else { 0 },
                "{p} readfirstlane/writelane lane {l}"
            );
        }
    }
}

#[test]
fn mbcnt_counts_the_lanes_below() {
    // mbcnt_lo: S1 + popcount(S0 & lanes below this one, of lanes 0-31);
    // mbcnt_hi: the same with lanes 32-63
    let mask: u64 = 0xf0f0_0ff0_1234_8001;
    for p in ALL {
        let lanes = lanes(p) as usize;
        let out = run(p, &[], &[1, 1], |k| {
            k.i(&format!("s_mov_b32 s20, {:#x}", mask as u32));
            k.i(&format!("s_mov_b32 s21, {:#x}", (mask >> 32) as u32));
            k.i("v_mbcnt_lo_u32_b32 v24, s20, 100");
            if k.lanes == 64 {
                k.i("v_mbcnt_hi_u32_b32 v28, s21, v24");
            } else {
                k.i("v_mbcnt_hi_u32_b32 v28, s21, 0");
            }
        });
        for l in 0..lanes {
            let below = if l == 0 { 0 } else { u64::MAX >> (64 - l) };
            let lo = (mask as u32 as u64 & below).count_ones() + 100;
            assert_eq!(out[0][l], lo, "{p} mbcnt_lo lane {l}");
            let hi_mask = mask & 0xffff_ffff_0000_0000 & below;
            let want = if lanes == 64 {
                lo + hi_mask.count_ones()
            } else {
                0
            };
            assert_eq!(out[1][l], want, "{p} mbcnt_hi lane {l}");
        }
    }
}

#[test]
fn gfx940_moves_and_shift_adds() {
    let v = [
        0u64,
        1,
        u64::MAX,
        0x8000_0000_0000_0000,
        0x1234_5678_9abc_def0,
    ];
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in v {
        for y in v {
            for s in [0u32, 1, 3, 4] {
                a.push(x);
                c.push(y);
                b.push(s);
            }
        }
    }
    let out = run("gfx942", &[in64(&a), in32(&b), in64(&c)], &[2, 2], |k| {
        k.i("v_mov_b64 v[24:25], v[8:9]");
        // D = (S0 << S1[2:0]) + S2
        k.i("v_lshl_add_u64 v[28:29], v[8:9], v12, v[16:17]");
    });
    for i in 0..a.len() {
        let g = |o: &[u32]| u64::from(o[2 * i]) | u64::from(o[2 * i + 1]) << 32;
        assert_eq!(g(&out[0]), a[i], "v_mov_b64 lane {i}");
        assert_eq!(
            g(&out[1]),
            (a[i] << (b[i] & 7)).wrapping_add(c[i]),
            "v_lshl_add_u64 lane {i}"
        );
    }
}

#[test]
fn saveexec() {
    // D = EXEC; EXEC = op(S0, EXEC); SCC = EXEC != 0
    let exec0: u64 = 0xffff_0000_ff00_f0f0;
    let cases: [u64; 3] = [0x0f0f_0f0f_0f0f_0f0f, 0, u64::MAX];
    type F = fn(u64, u64) -> u64;
    let ops: [(&str, &str, F); 5] = [
        ("s_and_saveexec_b64", "s_and_saveexec_b32", |s, e| s & e),
        ("s_or_saveexec_b64", "s_or_saveexec_b32", |s, e| s | e),
        ("s_xor_saveexec_b64", "s_xor_saveexec_b32", |s, e| s ^ e),
        ("s_andn2_saveexec_b64", "s_and_not1_saveexec_b32", |s, e| {
            s & !e
        }),
        ("s_orn2_saveexec_b64", "s_or_not1_saveexec_b32", |s, e| {
            s | !e
        }),
    ];
    for p in ALL {
        let wave32 = lanes(p) == 32;
        let full = if wave32 { 0xffff_ffffu64 } else { u64::MAX };
        for (m64, m32, f) in ops {
            let mn = if wave32 {
                // s_or_not1_saveexec_b32 is not implemented (ops_coverage.rs lists the
                // operations; it has none for it)
                if m32 == "s_or_not1_saveexec_b32" {
                    continue;
                }
                m32.to_string()
            } else if generation(p) == Gen::Gfx11 {
                m64.replace("andn2", "and_not1").replace("orn2", "or_not1")
            } else {
                m64.to_string()
            };
            for s in cases {
                let s = s & full;
                let e0 = exec0 & full;
                let out = run(p, &[], &[1, 1, 1], |k| {
                    k.i(&format!("s_mov_b32 s20, {:#x}", s as u32));
                    k.i(&format!("s_mov_b32 s21, {:#x}", (s >> 32) as u32));
                    k.exec(e0);
                    if wave32 {
                        k.i(&format!("{mn} s30, s20"));
                        k.i("s_mov_b32 s31, 0");
                    } else {
                        k.i(&format!("{mn} s[30:31], s[20:21]"));
                    }
                    k.i("s_cselect_b32 s22, 1, 0");
                    // the lanes the new EXEC enables
                    k.i("v_mov_b32 v24, 1");
                    k.exec(full);
                    k.i("v_mov_b32 v28, s30");
                    k.i("v_mov_b32 v32, s22");
                    k.i("v_writelane_b32 v28, s31, 1");
                });
                let e = f(s, e0) & full;
                for l in 0..lanes(p) as usize {
                    assert_eq!(
                        out[0][l],
                        if e >> l & 1 == 1 { 1 } else { SENTINEL },
                        "{p} {mn} s={s:#x} lane {l}"
                    );
                }
                assert_eq!(out[1][0], e0 as u32, "{p} {mn}: the old EXEC");
                assert_eq!(
                    out[1][1],
                    (e0 >> 32) as u32,
                    "{p} {mn}: the old EXEC (high)"
                );
                assert_eq!(out[2][0], u32::from(e != 0), "{p} {mn} SCC");
            }
        }
    }
}

#[test]
fn gfx11_dual_issue() {
    // VOPD: the two halves are the plain operations
    let a: Vec<u32> = (0..32).map(|l| (l as f32 * 0.5 - 3.0).to_bits()).collect();
    let b: Vec<u32> = (0..32).map(|l| (l as f32 + 0.25).to_bits()).collect();
    let c: Vec<u32> = (0..32).map(|l| 0x1000 + l).collect();
    let out = run("gfx1100", &[in32(&a), in32(&b), in32(&c)], &[2, 2], |k| {
        k.i("v_mov_b32 v41, v16");
        k.i("v_dual_mul_f32 v24, v8, v12 :: v_dual_mov_b32 v25, v41");
        k.i("v_mov_b32 v28, v8");
        k.i("v_dual_add_f32 v28, v12, v28 :: v_dual_mov_b32 v29, v41");
    });
    for l in 0..32 {
        let (x, y) = (f32::from_bits(a[l]), f32::from_bits(b[l]));
        assert_eq!(out[0][2 * l], (x * y).to_bits(), "v_dual_mul_f32 lane {l}");
        assert_eq!(out[0][2 * l + 1], c[l], "v_dual_mov_b32 lane {l}");
        assert_eq!(out[1][2 * l], (y + x).to_bits(), "v_dual_add_f32 lane {l}");
        assert_eq!(out[1][2 * l + 1], c[l], "v_dual_mov_b32 lane {l}");
    }
}

#[test]
fn gfx11_dual_issue_reads_before_writes() {
    // RDNA3 ISA guide, VOPD: the two operations "are executed at the same time, so
    // there are no races between them if one reads a VGPR and the other writes the
    // same VGPR. The 'read' gets the old value." clang-22 relies on it (gfx1200 ocml
    // cos: `v_dual_mov_b32 v12, v2 :: v_dual_add_nc_u32 v1, v12, v1`, the add first
    // in the code clang gives with VOPD off).
    let a: Vec<u32> = (0..32).map(|l| 0x100 + l).collect();
    let b: Vec<u32> = (0..32).map(|l| 0x7000_0000 + 3 * l).collect();
    let c: Vec<u32> = (0..32).map(|l| 0x55 * l).collect();
    let out = run("gfx1100", &[in32(&a), in32(&b), in32(&c)], &[2, 2], |k| {
        // inputs in v8, v12, v16 (bank constraints want v9 and v14 here)
        k.i("v_mov_b32 v9, v8");
        k.i("v_mov_b32 v14, v12");
        k.i("v_mov_b32 v24, v16");
        // Y reads v24, which X writes: Y sees c
        k.i("v_dual_mov_b32 v24, v9 :: v_dual_add_nc_u32 v25, v24, v14");
        // a swap: each half reads what the other writes
        k.i("v_mov_b32 v28, v8");
        k.i("v_mov_b32 v29, v12");
        k.i("v_dual_mov_b32 v28, v29 :: v_dual_mov_b32 v29, v28");
    });
    for l in 0..32 {
        assert_eq!(out[0][2 * l], a[l], "X lane {l}");
        assert_eq!(out[0][2 * l + 1], c[l].wrapping_add(b[l]), "Y lane {l}");
        assert_eq!(out[1][2 * l], b[l], "swap X lane {l}");
        assert_eq!(out[1][2 * l + 1], a[l], "swap Y lane {l}");
    }
}
