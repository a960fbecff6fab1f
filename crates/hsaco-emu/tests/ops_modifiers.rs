//! SDWA and DPP (gfx8/gfx9) on a few operations, from the manuals: SDWA selects a
//! byte or word of each source (sign-extended with `sext`) and writes a byte or word
//! of the destination (the rest zeroed, sign-extended or preserved per dst_unused);
//! DPP moves each lane's source from another lane of its row (quad_perm, row shifts,
//! rotates), lanes with no source keeping the old value, or 0 with bound_ctrl.

// lanes are indexed by number, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;

#[test]
fn sdwa_selects() {
    let a: Vec<u32> = (0..64u32)
        .map(|l| 0x8180_7f01u32.wrapping_mul(l + 1))
        .collect();
    let b: Vec<u32> = (0..64u32).map(|l| 0xf00d_8001u32 ^ (l << 9)).collect();
    for p in ["gfx900", "gfx90a", "gfx803"] {
        let add = if generation(p) == Gen::Gfx8 {
            "v_add_u32_sdwa v24, vcc, v8, v12"
        } else {
            "v_add_u32_sdwa v24, v8, v12"
        };
        let out = run(p, &[in32(&a), in32(&b)], &[1, 1, 1], |k| {
            k.i(&format!(
                "{add} dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_0"
            ));
            k.i("v_mov_b32 v28, 0x12345678");
            k.i(&format!(
                "{} dst_sel:BYTE_0 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_3 src1_sel:BYTE_2",
                add.replace("v24", "v28")
            ));
            k.i("v_mov_b32_sdwa v32, sext(v8) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1");
        });
        for l in 0..64 {
            let (x, y) = (a[l], b[l]);
            let s = ((x >> 8) & 0xff).wrapping_add(y & 0xffff);
            assert_eq!(
                out[0][l],
                (s & 0xffff) << 16,
                "{p} sdwa WORD_1/BYTE_1/WORD_0 lane {l}"
            );
            let s2 = ((x >> 24) & 0xff).wrapping_add((y >> 16) & 0xff);
            assert_eq!(
                out[1][l],
                0x1234_5600 | (s2 & 0xff),
                "{p} sdwa BYTE_0 preserve lane {l}"
            );
            assert_eq!(
                out[2][l],
                (x >> 16) as u16 as i16 as i32 as u32,
                "{p} sdwa sext WORD_1 lane {l}"
            );
        }
    }
}

#[test]
fn dpp_moves() {
    let a: Vec<u32> = (0..64u32).map(|l| 100 + l).collect();
    for p in ["gfx900", "gfx90a", "gfx803"] {
        let out = run(p, &[in32(&a)], &[1, 1, 1, 1], |k| {
            k.i("v_mov_b32 v24, 7");
            k.i("v_mov_b32_dpp v24, v8 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf");
            k.i("v_mov_b32 v28, 7");
            k.i("v_mov_b32_dpp v28, v8 row_shr:1 row_mask:0xf bank_mask:0xf");
            k.i("v_mov_b32 v32, 7");
            k.i("v_mov_b32_dpp v32, v8 row_shl:2 row_mask:0xf bank_mask:0xf bound_ctrl:1");
            k.i("v_mov_b32 v36, 7");
            k.i("v_mov_b32_dpp v36, v8 row_ror:4 row_mask:0x5 bank_mask:0xf");
        });
        for l in 0..64 {
            let (row, i) = (l / 16 * 16, l % 16);
            assert_eq!(
                out[0][l],
                a[l / 4 * 4 + (3 - l % 4)],
                "{p} quad_perm lane {l}"
            );
            // row_shr:1: lane i reads lane i-1 of its row; lane 0 of the row has no
            // source and keeps its old value
            assert_eq!(
                out[1][l],
                if i == 0 { 7 } else { a[l - 1] },
                "{p} row_shr lane {l}"
            );
            // row_shl:2 with bound_ctrl: lanes past the row read 0
            assert_eq!(
                out[2][l],
                if i >= 14 { 0 } else { a[l + 2] },
                "{p} row_shl bound_ctrl lane {l}"
            );
            // row_ror:4 (data rotates toward higher lanes, as row_shr: lane i reads
            // lane i-4 of its row, wrapping) in rows 0 and 2 (row_mask 0x5); rows 1 and
            // 3 keep the old value
            let want = if (l / 16) % 2 == 0 {
                a[row + (i + 12) % 16]
            } else {
                7
            };
            assert_eq!(out[3][l], want, "{p} row_ror row_mask lane {l}");
        }
    }
}
