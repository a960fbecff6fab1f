//! Per-operation tests of the memory operations: scalar loads, global/flat loads and
//! stores of every width (sign and zero extension, d16 halves), global atomics
//! (returning the old value), LDS reads/writes/atomics/permutes, MUBUF loads and
//! stores through a V#, from the manuals' descriptions. Extra buffers' pointers are
//! in `s[36+2j : 37+2j]`.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;

/// A buffer of `n` bytes 0x01, 0x82, 0x03, 0x84, ... (every other byte negative as i8).
fn pattern(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_add(1) | if i % 2 == 1 { 0x80 } else { 0 })
        .collect()
}

/// A gfx9 global memory mnemonic as gfx11 spells it.
fn gfx11_mem(gen: Gen, gfx9: &str) -> String {
    if gen != Gen::Gfx11 {
        return gfx9.to_string();
    }
    let (pre, tail) = gfx9.split_at(gfx9.find("_load_").or(gfx9.find("_store_")).unwrap());
    let (kind, w) = tail[1..].split_once('_').unwrap();
    let w11 = match w {
        "ubyte" => "u8",
        "sbyte" => "i8",
        "ushort" => "u16",
        "sshort" => "i16",
        "byte" => "b8",
        "short" => "b16",
        "dword" => "b32",
        "dwordx2" => "b64",
        "dwordx3" => "b96",
        "dwordx4" => "b128",
        "short_d16" => "d16_b16",
        "short_d16_hi" => "d16_hi_b16",
        "sbyte_d16_hi" => "d16_hi_i8",
        "ubyte_d16_hi" => "d16_hi_u8",
        other => other,
    };
    format!("{pre}_{kind}_{w11}")
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn scalar_loads() {
    let buf = pattern(256);
    for p in ["gfx900", "gfx90a", "gfx1100", "gfx803"] {
        let gen = generation(p);
        let out = run_full(p, &[], &[1], std::slice::from_ref(&buf), &[], |k| {
            let l = |w: &str| spell(gen, &format!("s_load_{w}"));
            k.i(&format!("{} s20, s[36:37], 0x4", l("dword")));
            k.i(&format!("{} s[22:23], s[36:37], 0x8", l("dwordx2")));
            k.i(&format!("{} s[24:27], s[36:37], 0x10", l("dwordx4")));
            k.i(&format!("{} s[28:35], s[36:37], 0x20", l("dwordx8")));
            k.wait();
            for r in 20..36 {
                k.i(&format!("v_writelane_b32 v24, s{r}, {}", r - 20));
            }
            k.i(&format!(
                "{} s[20:35], s[36:37], 0x40",
                if gen == Gen::Gfx11 {
                    "s_load_b512".to_string()
                } else {
                    l("dwordx16")
                }
            ));
            k.wait();
            for r in 20..36 {
                k.i(&format!("v_writelane_b32 v24, s{r}, {}", r - 4));
            }
        })
        .unwrap();
        let got = dwords(&out[0]);
        let offs = [
            4usize, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 0,
        ];
        // s20 <- 4; s[22:23] <- 8; s[24:27] <- 0x10; s[28:35] <- 0x20 ; s21 untouched
        let want = |r: usize| -> Option<usize> {
            match r {
                0 => Some(4),
                2 | 3 => Some(8 + (r - 2) * 4),
                4..=7 => Some(0x10 + (r - 4) * 4),
                8..=15 => Some(0x20 + (r - 8) * 4),
                _ => None,
            }
        };
        let _ = offs;
        for r in 0..16 {
            if let Some(o) = want(r) {
                assert_eq!(got[r], le32(&buf, o), "{p} s_load reg s{}", 20 + r);
            }
            assert_eq!(
                got[16 + r],
                le32(&buf, 0x40 + 4 * r),
                "{p} s_load x16 dword {r}"
            );
        }
    }
}

#[test]
fn global_loads_of_every_width() {
    let buf = pattern(64 * 16 + 16);
    // each lane reads at lane * 16 (+ 0..)
    type Ld = fn(&[u8], usize) -> u32;
    let cases: [(&str, usize, Ld); 5] = [
        ("global_load_ubyte", 1, |b, o| u32::from(b[o + 1])),
        ("global_load_sbyte", 1, |b, o| b[o + 1] as i8 as i32 as u32),
        ("global_load_ushort", 2, |b, o| {
            u32::from(u16::from_le_bytes([b[o + 1], b[o + 2]]))
        }),
        ("global_load_sshort", 2, |b, o| {
            i16::from_le_bytes([b[o + 1], b[o + 2]]) as i32 as u32
        }),
        ("global_load_dword", 4, |b, o| le32(b, o + 1)),
    ];
    for p in ["gfx900", "gfx90a", "gfx1100"] {
        let lanes = lanes(p) as usize;
        let g = |mn: &str| gfx11_mem(generation(p), mn);
        for (mn, _, f) in cases {
            let out = run_full(p, &[], &[1], std::slice::from_ref(&buf), &[], |k| {
                k.i("v_lshlrev_b32 v40, 4, v0");
                // unaligned by one byte for the wider ones? the manuals require natural
                // alignment for dword; keep the dword load aligned
                let off = if mn == "global_load_dword" { 4 } else { 1 };
                k.i(&format!("{} v24, v40, s[36:37] offset:{off}", g(mn)));
            })
            .unwrap();
            let got = dwords(&out[0]);
            for l in 0..lanes {
                let w = if mn == "global_load_dword" {
                    le32(&buf, l * 16 + 4)
                } else {
                    f(&buf, l * 16)
                };
                assert_eq!(got[l], w, "{p} {mn} lane {l}");
            }
        }
        // x2/x3/x4 and the d16 halves (which keep the other half of the register)
        let out = run_full(
            p,
            &[],
            &[4, 1, 1, 1],
            std::slice::from_ref(&buf),
            &[],
            |k| {
                k.i("v_lshlrev_b32 v40, 4, v0");
                k.i(&format!(
                    "{} v[24:25], v40, s[36:37]",
                    g("global_load_dwordx2")
                ));
                k.i(&format!(
                    "{} v[26:28], v40, s[36:37] offset:4",
                    g("global_load_dwordx3")
                ));
                k.wait();
                k.i("v_mov_b32 v28, 0x11112222");
                k.i("v_mov_b32 v32, 0x33334444");
                k.i("v_mov_b32 v36, 0x55556666");
                k.wait();
                k.i(&format!(
                    "{} v28, v40, s[36:37] offset:2",
                    g("global_load_short_d16")
                ));
                k.i(&format!(
                    "{} v32, v40, s[36:37] offset:2",
                    g("global_load_short_d16_hi")
                ));
                k.i(&format!(
                    "{} v36, v40, s[36:37] offset:1",
                    g("global_load_sbyte_d16_hi")
                ));
            },
        )
        .unwrap();
        let g0 = dwords(&out[0]);
        let (g1, g2, g3) = (dwords(&out[1]), dwords(&out[2]), dwords(&out[3]));
        for l in 0..lanes {
            let o = l * 16;
            assert_eq!(
                &g0[4 * l..4 * l + 2],
                &[le32(&buf, o), le32(&buf, o + 4)],
                "{p} x2 lane {l}"
            );
            assert_eq!(
                &g0[4 * l + 2..4 * l + 4],
                &[le32(&buf, o + 4), le32(&buf, o + 8)],
                "{p} x3 lane {l}"
            );
            let h = u32::from(u16::from_le_bytes([buf[o + 2], buf[o + 3]]));
            assert_eq!(g1[l], 0x1111_0000 | h, "{p} short_d16 lane {l}");
            assert_eq!(g2[l], h << 16 | 0x4444, "{p} short_d16_hi lane {l}");
            let sb = (buf[o + 1] as i8 as i16 as u16 as u32) << 16;
            assert_eq!(g3[l], sb | 0x6666, "{p} sbyte_d16_hi lane {l}");
        }
    }
}

#[test]
fn global_and_flat_stores() {
    for p in ["gfx900", "gfx90a", "gfx803", "gfx1100"] {
        let lanes = lanes(p) as usize;
        let gen = generation(p);
        let a: Vec<u32> = (0..lanes as u32)
            .map(|l| 0x8070_6050 ^ (l * 0x0101_0101))
            .collect();
        let out = run_full(p, &[in32(&a)], &[], &[vec![0; 64 * 32]], &[], |k| {
            k.i("v_lshlrev_b32 v40, 5, v0");
            k.i("v_mov_b32 v9, 0x0badf00d");
            k.i("v_mov_b32 v10, 0x12345678");
            k.i("v_mov_b32 v11, 0x9abcdef0");
            let stores = [
                ("byte", "b8", "v8", 0),
                ("short", "b16", "v8", 4),
                ("short_d16_hi", "d16_hi_b16", "v8", 8),
                ("byte_d16_hi", "d16_hi_b8", "v8", 11),
                ("dword", "b32", "v8", 12),
                ("dwordx4", "b128", "v[8:11]", 16),
            ];
            if gen == Gen::Gfx8 {
                k.i("v_add_u32 v42, vcc, s36, v40");
                k.i("v_mov_b32 v43, s37");
                k.i("v_addc_u32 v43, vcc, 0, v43, vcc");
            }
            for (w9, w11, data, off) in stores {
                match gen {
                    Gen::Gfx8 => {
                        if w9.contains("d16") {
                            continue;
                        }
                        k.i(&format!("v_add_u32 v44, vcc, {off}, v42"));
                        k.i("v_addc_u32 v45, vcc, 0, v43, vcc");
                        k.i(&format!("flat_store_{w9} v[44:45], {data}"));
                    }
                    Gen::Gfx9 => {
                        k.i(
                            &format!("global_store_{w9} v40, {data}, s[36:37] offset:{off}")
                                .replace(" offset:0", ""),
                        );
                    }
                    Gen::Gfx11 => {
                        k.i(
                            &format!("global_store_{w11} v40, {data}, s[36:37] offset:{off}")
                                .replace(" offset:0", ""),
                        );
                    }
                }
            }
        })
        .unwrap();
        let m = &out[0];
        for l in 0..lanes {
            let o = l * 32;
            let x = a[l].to_le_bytes();
            assert_eq!(m[o], x[0], "{p} store byte lane {l}");
            assert_eq!(&m[o + 4..o + 6], &x[..2], "{p} store short lane {l}");
            if gen != Gen::Gfx8 {
                assert_eq!(
                    &m[o + 8..o + 10],
                    &x[2..4],
                    "{p} store short_d16_hi lane {l}"
                );
                assert_eq!(m[o + 11], x[2], "{p} store byte_d16_hi lane {l}");
            }
            assert_eq!(&m[o + 12..o + 16], &x, "{p} store dword lane {l}");
            let q = [a[l], 0x0bad_f00d, 0x1234_5678, 0x9abc_def0];
            let qb: Vec<u8> = q.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(&m[o + 16..o + 32], &qb[..], "{p} store dwordx4 lane {l}");
        }
    }
}

#[test]
fn global_atomics_return_the_old_value() {
    // each lane its own dword (and qword): results do not depend on lane order
    let old: Vec<u32> = (0..64u32)
        .map(|l| [5u32, 0x8000_0000, 0xffff_ffff, 7][l as usize % 4].wrapping_add(l))
        .collect();
    let src: Vec<u32> = (0..64u32)
        .map(|l| [3, 0x7fff_ffff, 1, 0x8000_0005][l as usize % 4] ^ l)
        .collect();
    type F = fn(u32, u32) -> u32;
    let ops: [(&str, F); 11] = [
        ("add", u32::wrapping_add),
        ("sub", u32::wrapping_sub),
        ("smin", |a, b| (a as i32).min(b as i32) as u32),
        ("umin", u32::min),
        ("smax", |a, b| (a as i32).max(b as i32) as u32),
        ("umax", u32::max),
        ("and", |a, b| a & b),
        ("or", |a, b| a | b),
        ("xor", |a, b| a ^ b),
        ("swap", |_, b| b),
        // inc: old >= src ? 0 : old + 1; dec: old == 0 || old > src ? src : old - 1
        ("inc", |a, b| if a >= b { 0 } else { a + 1 }),
    ];
    let bytes = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    for p in ["gfx900", "gfx90a", "gfx1100"] {
        let g11 = generation(p) == Gen::Gfx11;
        // gfx11 names the type: add_u32, min_i32, and_b32, cmpswap_b32, add_u64
        let name = |op: &str| -> String {
            if !g11 {
                return op.to_string();
            }
            match op {
                "smin" => "min_i32".into(),
                "umin" => "min_u32".into(),
                "smax" => "max_i32".into(),
                "umax" => "max_u32".into(),
                "and" | "or" | "xor" | "swap" | "cmpswap" => format!("{op}_b32"),
                "add_x2" => "add_u64".into(),
                _ => format!("{op}_u32"),
            }
        };
        for (op, f) in ops.iter().chain(
            [(
                "dec",
                (|a: u32, b: u32| if a == 0 || a > b { b } else { a - 1 }) as F,
            )]
            .iter(),
        ) {
            let out = run_full(p, &[in32(&src)], &[1], &[bytes(&old)], &[], |k| {
                k.i("v_lshlrev_b32 v40, 2, v1");
                k.i(&format!(
                    "global_atomic_{} v24, v40, v8, s[36:37] glc",
                    name(op)
                ));
            })
            .unwrap();
            let ret = dwords(&out[0]);
            let mem = dwords(&out[1]);
            for l in 0..64 {
                assert_eq!(ret[l], old[l], "{p} atomic_{op} returned lane {l}");
                assert_eq!(mem[l], f(old[l], src[l]), "{p} atomic_{op} memory lane {l}");
            }
        }
        // cmpswap: data = {src, cmp}; stored when old == cmp
        let cmp: Vec<u32> = (0..64)
            .map(|l| if l % 2 == 0 { old[l] } else { 0 })
            .collect();
        let out = run_full(
            p,
            &[in32(&src), in32(&cmp)],
            &[1],
            &[bytes(&old)],
            &[],
            |k| {
                k.i("v_lshlrev_b32 v40, 2, v1");
                k.i("v_mov_b32 v42, v8");
                k.i("v_mov_b32 v43, v12");
                k.i(&format!(
                    "global_atomic_{} v24, v40, v[42:43], s[36:37] glc",
                    name("cmpswap")
                ));
            },
        )
        .unwrap();
        let (ret, mem) = (dwords(&out[0]), dwords(&out[1]));
        for l in 0..64 {
            assert_eq!(ret[l], old[l], "{p} cmpswap returned lane {l}");
            assert_eq!(
                mem[l],
                if l % 2 == 0 { src[l] } else { old[l] },
                "{p} cmpswap memory lane {l}"
            );
        }
        // 64-bit add
        let old64: Vec<u64> = (0..64u64).map(|l| u64::MAX - l).collect();
        let src64: Vec<u64> = (0..64u64).map(|l| l * 3 + 1).collect();
        let b64: Vec<u8> = old64.iter().flat_map(|x| x.to_le_bytes()).collect();
        let out = run_full(p, &[in64(&src64)], &[2], &[b64], &[], |k| {
            k.i("v_lshlrev_b32 v40, 3, v1");
            k.i(&format!(
                "global_atomic_{} v[24:25], v40, v[8:9], s[36:37] glc",
                name("add_x2")
            ));
        })
        .unwrap();
        let (ret, mem) = (qwords(&out[0]), qwords(&out[1]));
        for l in 0..64 {
            assert_eq!(ret[l], old64[l], "{p} add_x2 returned lane {l}");
            assert_eq!(
                mem[l],
                old64[l].wrapping_add(src64[l]),
                "{p} add_x2 memory lane {l}"
            );
        }
    }
    // float adds (gfx90a): no return form needed; one rounding
    let of: Vec<f32> = (0..64).map(|l| l as f32 * 0.5 - 3.0).collect();
    let sf: Vec<u32> = (0..64).map(|l| (l as f32 * 0.25 + 0.1).to_bits()).collect();
    let out = run_full(
        "gfx90a",
        &[in32(&sf)],
        &[],
        &[of.iter().flat_map(|x| x.to_le_bytes()).collect()],
        &[],
        |k| {
            k.i("v_lshlrev_b32 v40, 2, v0");
            k.i("global_atomic_add_f32 v40, v8, s[36:37]");
        },
    )
    .unwrap();
    let mem = dwords(&out[0]);
    for l in 0..64 {
        assert_eq!(
            mem[l],
            (of[l] + f32::from_bits(sf[l])).to_bits(),
            "gfx90a atomic_add_f32 lane {l}"
        );
    }
    let od: Vec<f64> = (0..64).map(|l| l as f64 * 0.1 - 3.0).collect();
    let sd: Vec<u64> = (0..64)
        .map(|l| (l as f64 * 1e-3 + 1e10).to_bits())
        .collect();
    let out = run_full(
        "gfx90a",
        &[in64(&sd)],
        &[2],
        &[od.iter().flat_map(|x| x.to_le_bytes()).collect()],
        &[],
        |k| {
            k.i("v_lshlrev_b32 v40, 3, v0");
            k.i("global_atomic_add_f64 v[24:25], v40, v[8:9], s[36:37] glc");
        },
    )
    .unwrap();
    let (ret, mem) = (qwords(&out[0]), qwords(&out[1]));
    for l in 0..64 {
        assert_eq!(
            ret[l],
            od[l].to_bits(),
            "gfx90a atomic_add_f64 returned lane {l}"
        );
        assert_eq!(
            mem[l],
            (od[l] + f64::from_bits(sd[l])).to_bits(),
            "gfx90a atomic_add_f64 lane {l}"
        );
    }
}

const LDS: [(&str, i64); 1] = [("group_segment_fixed_size", 16384)];

#[test]
fn lds_reads_and_writes() {
    for p in ["gfx900", "gfx90a", "gfx803", "gfx1100"] {
        let lanes = lanes(p) as usize;
        let g11 = generation(p) == Gen::Gfx11;
        let n = |gfx9: &str, gfx11: &str| {
            if g11 {
                gfx11.to_string()
            } else {
                gfx9.to_string()
            }
        };
        let a: Vec<u32> = (0..lanes as u32)
            .map(|l| 0x8281_8000 + l * 0x0102_0304)
            .collect();
        let out = run_full(p, &[in32(&a)], &[1, 4, 2, 4], &[], &LDS, |k| {
            k.i("s_mov_b32 m0, -1");
            k.i("v_lshlrev_b32 v40, 4, v0");
            k.i("v_mov_b32 v9, 0x11111111");
            k.i("v_mov_b32 v10, 0x22222222");
            k.i("v_mov_b32 v11, 0x33333333");
            k.i(&format!(
                "{} v40, v[8:11]",
                n("ds_write_b128", "ds_store_b128")
            ));
            k.i(&format!(
                "{} v40, v8 offset:1024",
                n("ds_write_b32", "ds_store_b32")
            ));
            k.i(&format!(
                "{} v40, v8 offset:2048",
                n("ds_write_b8", "ds_store_b8")
            ));
            k.i(&format!(
                "{} v40, v8 offset:2050",
                n("ds_write_b16", "ds_store_b16")
            ));
            // write2: two dwords at offset0*4 and offset1*4; st64: in units of 256 bytes
            k.i(&format!(
                "{} v40, v10, v11 offset0:1 offset1:3",
                n("ds_write2_b32", "ds_store_2addr_b32")
            ));
            k.wait();
            k.i(&format!(
                "{} v24, v40 offset:1024",
                n("ds_read_b32", "ds_load_b32")
            ));
            k.i(&format!(
                "{} v[28:31], v40",
                n("ds_read_b128", "ds_load_b128")
            ));
            k.i(&format!(
                "{} v32, v40 offset:2048",
                n("ds_read_u8", "ds_load_u8")
            ));
            k.i(&format!(
                "{} v33, v40 offset:2048",
                n("ds_read_i8", "ds_load_i8")
            ));
            k.i(&format!(
                "{} v36, v40 offset:2050",
                n("ds_read_u16", "ds_load_u16")
            ));
            k.i(&format!(
                "{} v37, v40 offset:2050",
                n("ds_read_i16", "ds_load_i16")
            ));
            k.i(&format!(
                "{} v[38:39], v40 offset1:3",
                n("ds_read2_b32", "ds_load_2addr_b32")
            ));
            k.wait();
        })
        .unwrap();
        let o: Vec<Vec<u32>> = out.iter().map(|b| dwords(b)).collect();
        for l in 0..lanes {
            let x = a[l];
            assert_eq!(o[0][l], x, "{p} ds b32 lane {l}");
            // b128, then write2 over dwords 1 and 3
            assert_eq!(
                &o[1][4 * l..4 * l + 4],
                &[x, 0x2222_2222, 0x2222_2222, 0x3333_3333],
                "{p} ds b128/write2 lane {l}"
            );
            assert_eq!(o[2][2 * l], x & 0xff, "{p} ds u8 lane {l}");
            assert_eq!(
                o[2][2 * l + 1],
                x as u8 as i8 as i32 as u32,
                "{p} ds i8 lane {l}"
            );
            assert_eq!(
                &o[3][4 * l..4 * l + 4],
                &[x & 0xffff, x as u16 as i16 as i32 as u32, x, 0x3333_3333],
                "{p} ds u16/i16/read2 lane {l}"
            );
        }
    }
}

#[test]
fn lds_atomics_and_permutes() {
    for p in ["gfx900", "gfx90a", "gfx803", "gfx1100"] {
        let lanes = lanes(p) as usize;
        let old: Vec<u32> = (0..lanes as u32)
            .map(|l| [5u32, 0x8000_0000, 0xffff_ffff, 7][l as usize % 4].wrapping_add(l))
            .collect();
        let src: Vec<u32> = (0..lanes as u32)
            .map(|l| [3, 0x7fff_ffff, 1, 0x8000_0005][l as usize % 4] ^ l)
            .collect();
        type F = fn(u32, u32) -> u32;
        let ops: [(&str, F); 9] = [
            ("ds_add_u32", u32::wrapping_add),
            ("ds_sub_u32", u32::wrapping_sub),
            ("ds_min_i32", |a, b| (a as i32).min(b as i32) as u32),
            ("ds_max_i32", |a, b| (a as i32).max(b as i32) as u32),
            ("ds_min_u32", u32::min),
            ("ds_max_u32", u32::max),
            ("ds_and_b32", |a, b| a & b),
            ("ds_or_b32", |a, b| a | b),
            ("ds_xor_b32", |a, b| a ^ b),
        ];
        let st = if generation(p) == Gen::Gfx11 {
            "ds_store_b32"
        } else {
            "ds_write_b32"
        };
        let ld = if generation(p) == Gen::Gfx11 {
            "ds_load_b32"
        } else {
            "ds_read_b32"
        };
        for (op, f) in ops {
            let out = run_full(p, &[in32(&old), in32(&src)], &[1, 1], &[], &LDS, |k| {
                k.i("s_mov_b32 m0, -1");
                k.i("v_lshlrev_b32 v40, 2, v0");
                k.i(&format!("{st} v40, v8"));
                k.i(&format!("{op} v40, v12"));
                k.i(&format!("{ld} v24, v40"));
                k.i(&format!("{st} v40, v8 offset:512"));
                k.i("ds_add_rtn_u32 v28, v40, v12 offset:512");
                k.wait();
            })
            .unwrap();
            let (m, r) = (dwords(&out[0]), dwords(&out[1]));
            for l in 0..lanes {
                assert_eq!(m[l], f(old[l], src[l]), "{p} {op} lane {l}");
                assert_eq!(r[l], old[l], "{p} ds_add_rtn_u32 returned lane {l}");
            }
        }
        // bpermute: lane l reads the value of lane (addr / 4) % wave; permute: lane l
        // writes its value to lane (addr / 4) % wave (the highest writer wins)
        let idx: Vec<u32> = (0..lanes as u32)
            .map(|l| {
                ((l * 7 + 3) % lanes as u32) * 4 + if l % 5 == 0 { 4 * lanes as u32 } else { 0 }
            })
            .collect();
        let val: Vec<u32> = (0..lanes as u32).map(|l| 0x1000 + l).collect();
        let out = run_full(p, &[in32(&idx), in32(&val)], &[1, 1], &[], &LDS, |k| {
            k.i("s_mov_b32 m0, -1");
            k.i("ds_bpermute_b32 v24, v8, v12");
            k.i("ds_permute_b32 v28, v8, v12");
            k.wait();
        })
        .unwrap();
        let (bp, pm) = (dwords(&out[0]), dwords(&out[1]));
        for l in 0..lanes {
            let src_lane = (idx[l] / 4) as usize % lanes;
            assert_eq!(bp[l], val[src_lane], "{p} bpermute lane {l}");
            let writers: Vec<usize> = (0..lanes)
                .filter(|w| (idx[*w] / 4) as usize % lanes == l)
                .collect();
            if let Some(w) = writers.last() {
                assert_eq!(pm[l], val[*w], "{p} permute lane {l}");
            }
        }
        // swizzle, bit mode (offset bit 15 = 0): lane l reads lane
        // ((l & and_mask) | or_mask) ^ xor_mask within its group of 32
        // "pp1i0" (bits 4..0): preserve, preserve, 1, invert, 0
        let (and_m, or_m, xor_m) = (0x1au32, 0x04u32, 0x02u32);
        let out = run_full(p, &[in32(&val)], &[1], &[], &LDS, |k| {
            k.i("s_mov_b32 m0, -1");
            k.i("ds_swizzle_b32 v24, v8 offset:swizzle(BITMASK_PERM,\"pp1i0\")");
            k.wait();
        })
        .unwrap();
        let sw = dwords(&out[0]);
        for l in 0..lanes {
            let g = l & !31;
            let from = g + ((((l & 31) as u32 & and_m) | or_m) ^ xor_m) as usize;
            assert_eq!(sw[l], val[from], "{p} swizzle lane {l}");
        }
    }
}

#[test]
fn lds_pair_reads_and_writes() {
    for p in ["gfx900", "gfx90a", "gfx803"] {
        let a: Vec<u64> = (0..64u64)
            .map(|l| 0x0123_4567_89ab_cdef ^ (l * 0x1_0000_0001))
            .collect();
        let out = run_full(p, &[in64(&a)], &[2, 2, 4], &[], &LDS, |k| {
            k.i("s_mov_b32 m0, -1");
            k.i("v_lshlrev_b32 v40, 3, v0");
            k.i("v_not_b32 v10, v8");
            k.i("v_not_b32 v11, v9");
            // write2_b64: offsets in 8-byte units; st64: 512-byte units
            k.i("ds_write_b64 v40, v[10:11] offset:4096");
            k.i("ds_write2_b64 v40, v[8:9], v[10:11] offset1:128");
            k.i("ds_write2st64_b64 v40, v[10:11], v[8:9] offset0:4 offset1:6");
            k.i("ds_write2st64_b32 v40, v8, v9 offset0:24 offset1:26");
            k.wait();
            k.i("ds_read_b64 v[24:25], v40");
            k.i("ds_read_b64 v[28:29], v40 offset:4096");
            k.i("ds_read2_b64 v[32:35], v40 offset1:128");
            k.i("ds_read2st64_b64 v[44:47], v40 offset0:4 offset1:6");
            k.i("ds_read2st64_b32 v[42:43], v40 offset0:24 offset1:26");
            k.wait();
        })
        .unwrap();
        let o: Vec<Vec<u32>> = out.iter().map(|b| dwords(b)).collect();
        for l in 0..64 {
            let (x, y) = (a[l], !a[l]);
            let q = |v: &[u32], i: usize| u64::from(v[i]) | u64::from(v[i + 1]) << 32;
            assert_eq!(q(&o[0], 2 * l), x, "{p} write2_b64 first lane {l}");
            assert_eq!(q(&o[1], 2 * l), y, "{p} write_b64 offset:4096 lane {l}");
            assert_eq!(
                (q(&o[2], 4 * l), q(&o[2], 4 * l + 2)),
                (x, y),
                "{p} read2_b64 lane {l}"
            );
        }
        // the st64 reads: through a second run that stores v42..v47
        let out = run_full(p, &[in64(&a)], &[4, 2], &[], &LDS, |k| {
            k.i("s_mov_b32 m0, -1");
            k.i("v_lshlrev_b32 v40, 3, v0");
            k.i("v_not_b32 v10, v8");
            k.i("v_not_b32 v11, v9");
            k.i("ds_write2st64_b64 v40, v[10:11], v[8:9] offset0:4 offset1:6");
            k.i("ds_write2st64_b32 v40, v8, v9 offset0:24 offset1:26");
            k.wait();
            k.i("ds_read2st64_b64 v[24:27], v40 offset0:4 offset1:6");
            k.i("ds_read2st64_b32 v[28:29], v40 offset0:24 offset1:26");
            k.wait();
        })
        .unwrap();
        let o: Vec<Vec<u32>> = out.iter().map(|b| dwords(b)).collect();
        for l in 0..64 {
            let (x, y) = (a[l], !a[l]);
            let q = |v: &[u32], i: usize| u64::from(v[i]) | u64::from(v[i + 1]) << 32;
            assert_eq!(
                (q(&o[0], 4 * l), q(&o[0], 4 * l + 2)),
                (y, x),
                "{p} read2st64_b64 lane {l}"
            );
            assert_eq!(
                (o[1][2 * l], o[1][2 * l + 1]),
                (x as u32, (x >> 32) as u32),
                "{p} read2st64_b32 lane {l}"
            );
        }
    }
}

/// A buffer resource (V#) in s[40:43] for the extra buffer at s[36:37]: base, stride
/// 0, `records` bytes, the data format gfx9 code uses for raw buffers.
fn vsharp(k: &mut Kern, records: u32) {
    k.i("s_mov_b32 s40, s36");
    k.i("s_and_b32 s41, s37, 0xffff");
    k.i(&format!("s_mov_b32 s42, {records:#x}"));
    k.i("s_mov_b32 s43, 0x27000");
}

#[test]
fn buffer_loads_and_stores() {
    let buf = pattern(64 * 16);
    for p in ["gfx900", "gfx90a", "gfx803"] {
        let out = run_full(
            p,
            &[],
            &[1, 1, 1, 1],
            std::slice::from_ref(&buf),
            &[],
            |k| {
                vsharp(k, 64 * 16);
                k.i("v_lshlrev_b32 v40, 4, v0");
                k.i("buffer_load_dword v24, v40, s[40:43], 0 offen offset:4");
                k.i("buffer_load_ubyte v28, v40, s[40:43], 0 offen offset:1");
                k.i("buffer_load_sbyte v32, v40, s[40:43], 0 offen offset:1");
                k.i("buffer_load_sshort v36, v40, s[40:43], 0 offen offset:2");
            },
        )
        .unwrap();
        let o: Vec<Vec<u32>> = out.iter().map(|b| dwords(b)).collect();
        for l in 0..64 {
            let b = l * 16;
            assert_eq!(o[0][l], le32(&buf, b + 4), "{p} buffer_load_dword lane {l}");
            assert_eq!(
                o[1][l],
                u32::from(buf[b + 1]),
                "{p} buffer_load_ubyte lane {l}"
            );
            assert_eq!(
                o[2][l],
                buf[b + 1] as i8 as i32 as u32,
                "{p} buffer_load_sbyte lane {l}"
            );
            assert_eq!(
                o[3][l],
                i16::from_le_bytes([buf[b + 2], buf[b + 3]]) as i32 as u32,
                "{p} buffer_load_sshort lane {l}"
            );
        }
        let out = run_full(p, &[], &[4, 1], std::slice::from_ref(&buf), &[], |k| {
            vsharp(k, 64 * 16);
            k.i("v_lshlrev_b32 v40, 4, v0");
            k.i("buffer_load_dwordx4 v[24:27], v40, s[40:43], 0 offen");
            k.i("buffer_load_ushort v28, v40, s[40:43], 0 offen offset:6");
            k.wait();
            k.i("buffer_load_dwordx2 v[44:45], v40, s[40:43], 0 offen offset:8");
            k.i("buffer_load_dwordx3 v[44:46], v40, s[40:43], 0 offen offset:4");
        })
        .unwrap();
        let (x4, us) = (dwords(&out[0]), dwords(&out[1]));
        for l in 0..64 {
            let b = l * 16;
            assert_eq!(
                &x4[4 * l..4 * l + 4],
                &[
                    le32(&buf, b),
                    le32(&buf, b + 4),
                    le32(&buf, b + 8),
                    le32(&buf, b + 12)
                ],
                "{p} dwordx4 lane {l}"
            );
            assert_eq!(
                us[l],
                u32::from(u16::from_le_bytes([buf[b + 6], buf[b + 7]])),
                "{p} ushort lane {l}"
            );
        }
        // stores, and x2/x3 loads back through them
        let a: Vec<u32> = (0..64u32).map(|l| 0xa1b2_c3d4 ^ l).collect();
        let out = run_full(p, &[in32(&a)], &[2, 3], &[vec![0; 64 * 64]], &[], |k| {
            vsharp(k, 64 * 64);
            k.i("v_lshlrev_b32 v40, 6, v0");
            k.i("v_not_b32 v9, v8");
            k.i("v_mov_b32 v10, 0x55aa55aa");
            k.i("buffer_store_byte v8, v40, s[40:43], 0 offen");
            k.i("buffer_store_short v8, v40, s[40:43], 0 offen offset:2");
            k.i("buffer_store_dword v8, v40, s[40:43], 0 offen offset:4");
            k.i("buffer_store_dwordx2 v[8:9], v40, s[40:43], 0 offen offset:8");
            k.i("buffer_store_dwordx3 v[8:10], v40, s[40:43], 0 offen offset:16");
            k.i("buffer_store_dwordx4 v[8:11], v40, s[40:43], 0 offen offset:28");
            k.wait();
            k.i("buffer_load_dwordx2 v[24:25], v40, s[40:43], 0 offen offset:8");
            k.i("buffer_load_dwordx3 v[28:30], v40, s[40:43], 0 offen offset:16");
        })
        .unwrap();
        let (x2, x3) = (dwords(&out[0]), dwords(&out[1]));
        let m = &out[2];
        for l in 0..64 {
            let o = l * 64;
            let x = a[l].to_le_bytes();
            assert_eq!(m[o], x[0], "{p} buffer_store_byte lane {l}");
            assert_eq!(&m[o + 2..o + 4], &x[..2], "{p} buffer_store_short lane {l}");
            assert_eq!(&m[o + 4..o + 8], &x, "{p} buffer_store_dword lane {l}");
            assert_eq!(
                &x2[2 * l..2 * l + 2],
                &[a[l], !a[l]],
                "{p} dwordx2 lane {l}"
            );
            assert_eq!(
                &x3[3 * l..3 * l + 3],
                &[a[l], !a[l], 0x55aa_55aa],
                "{p} dwordx3 lane {l}"
            );
        }
    }
}

#[test]
fn buffer_accesses_out_of_range() {
    // the manuals' range check of a raw buffer (stride 0): a load whose offset is at
    // or past NUM_RECORDS returns 0 and a store there is dropped, without a fault
    let buf = pattern(256);
    for p in ["gfx900", "gfx90a", "gfx803"] {
        let out = run_full(p, &[], &[1], std::slice::from_ref(&buf), &[], |k| {
            // 64 bytes of records: lanes 0-15 in range, the rest out
            vsharp(k, 64);
            k.i("v_lshlrev_b32 v40, 2, v0");
            k.i("buffer_load_dword v24, v40, s[40:43], 0 offen");
            k.i("v_mov_b32 v42, 0x77777777");
            k.i("buffer_store_dword v42, v40, s[40:43], 0 offen offset:128");
        })
        .unwrap();
        let got = dwords(&out[0]);
        for l in 0..64 {
            let w = if l < 16 { le32(&buf, 4 * l) } else { 0 };
            assert_eq!(got[l], w, "{p} buffer_load_dword out of range lane {l}");
        }
        // every store was at 128 or more: out of range, dropped
        assert_eq!(out[1], buf, "{p} out-of-range stores are dropped");
    }
}

/// A kernel with flat scratch (gfx9): the kernarg pointer in s[0:1], the flat scratch
/// init in s[2:3], the work-group ID in s4, the scratch wave offset in s5 (AMDGPUUsage's
/// user and system SGPR order); `body` runs after FLAT_SCRATCH is set up with v0 the
/// work-item ID, and stores its results through the `out` pointer loaded into s[6:7].
fn scratch_kernel(p: &str, body: impl FnOnce(&mut hsaco_build::KernelBuilder)) -> Vec<u32> {
    let mut k = hsaco_build::KernelBuilder::new(p, "t").unwrap();
    let out = k.arg("out", hsaco_build::ArgKind::GlobalPtr);
    k.field("user_sgpr_kernarg_segment_ptr", 1)
        .field("user_sgpr_flat_scratch_init", 1)
        .field("user_sgpr_count", 4)
        .field("system_sgpr_private_segment_wavefront_offset", 1)
        .field("private_segment_fixed_size", 64)
        .field("next_free_vgpr", 64)
        .field("next_free_sgpr", 48)
        .field("reserve_flat_scratch", 1);
    for t in [
        "s_add_u32 flat_scratch_lo, s2, s5".to_string(),
        "s_addc_u32 flat_scratch_hi, s3, 0".to_string(),
        format!("s_load_dwordx2 s[6:7], s[0:1], {out}"),
        "s_waitcnt 0".to_string(),
    ] {
        k.inst(&t, &[]).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
    body(&mut k);
    k.inst("s_endpgm", &[]).unwrap();
    let co = k.finish().unwrap_or_else(|e| panic!("{p}: {e}"));
    let disp = hsaco_emu::Dispatch {
        grid: [64, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        args: vec![hsaco_emu::ArgValue::Buffer {
            elem: hsaco_emu::Elem::U32,
            data: vec![0; 64 * 32],
        }],
    };
    let r = hsaco_emu::run(&co, "t", &disp, &hsaco_emu::RunOptions::default())
        .unwrap_or_else(|e| panic!("{p}: {e}"));
    dwords(&r.buffers[0].data)
}

#[test]
fn scratch_loads_and_stores_are_private_to_each_lane() {
    // every lane stores its own values at the same private offsets and reads them back:
    // lanes never see each other's bytes; widths and extensions as for global_
    for p in GFX9 {
        let got = scratch_kernel(p, |k| {
            for t in [
                "v_mul_u32_u24 v8, 0x01030507, v0",
                "v_xor_b32 v8, 0x80808080, v8",
                "v_not_b32 v9, v8",
                "v_mov_b32 v10, 4",
                "v_mov_b32 v11, 0",
                "scratch_store_dword v11, v8, off offset:16",
                "scratch_store_dwordx2 v10, v[8:9], off offset:20",
                "scratch_store_byte v11, v8, off offset:3",
                "scratch_store_short v11, v8, off offset:6",
                "s_waitcnt 0",
                "scratch_load_dword v20, v11, off offset:16",
                "scratch_load_dwordx2 v[22:23], v11, off offset:24",
                "scratch_load_sbyte v21, v11, off offset:3",
                "scratch_load_ushort v24, v11, off offset:6",
                "v_mov_b32 v25, 0x7777",
                "s_waitcnt 0",
                "scratch_load_short_d16_hi v25, v11, off offset:6",
                "s_waitcnt 0",
                "v_mov_b32 v26, 0",
                "v_mov_b32 v27, 0",
                "v_lshlrev_b32 v30, 5, v0",
                "global_store_dwordx4 v30, v[20:23], s[6:7]",
                "global_store_dwordx4 v30, v[24:27], s[6:7] offset:16",
            ] {
                k.inst(t, &[]).unwrap_or_else(|e| panic!("{p}: {t}: {e}"));
            }
        });
        for l in 0..64u32 {
            // v_mul_u32_u24: the 24 low bits of the constant times the lane
            let x = ((0x0103_0507u32 & 0xff_ffff) * l) ^ 0x8080_8080;
            let h = x & 0xffff;
            let w = [
                x,
                x as u8 as i8 as i32 as u32,
                x,
                !x,
                h,
                (h << 16) | 0x7777,
                0,
                0,
            ];
            assert_eq!(
                &got[8 * l as usize..8 * l as usize + 8],
                &w,
                "{p} scratch lane {l}"
            );
        }
    }
}

#[test]
fn inactive_lanes_do_not_access_memory() {
    // lanes EXEC leaves out neither load nor store: with EXEC = 0 an address far past
    // the buffer does not fault, and a partial EXEC stores only the enabled lanes
    for p in ["gfx900", "gfx90a", "gfx1100"] {
        let lanes = lanes(p) as usize;
        let gen = generation(p);
        let exec: u64 = 0x8000_0001_0f0f_00f1 & if lanes == 32 { 0xffff_ffff } else { u64::MAX };
        let out = run_full(p, &[], &[1], &[vec![0xee; 64 * 4]], &[], |k| {
            k.i("v_lshlrev_b32 v40, 2, v0");
            k.i("v_mov_b32 v41, 0x40000000");
            k.exec(0);
            k.i(&format!(
                "{} v24, v41, s[36:37]",
                gfx11_mem(gen, "global_load_dword")
            ));
            k.i(&format!(
                "{} v41, v0, s[36:37]",
                gfx11_mem(gen, "global_store_dword")
            ));
            k.exec(exec);
            k.i(&format!(
                "{} v40, v0, s[36:37]",
                gfx11_mem(gen, "global_store_dword")
            ));
        })
        .unwrap();
        let (v24, mem) = (dwords(&out[0]), dwords(&out[1]));
        for l in 0..lanes {
            assert_eq!(v24[l], SENTINEL, "{p} the EXEC = 0 load wrote lane {l}");
            let w = if exec >> l & 1 == 1 {
                l as u32
            } else {
                0xeeee_eeee
            };
            assert_eq!(mem[l], w, "{p} store with a partial EXEC, lane {l}");
        }
    }
}

#[test]
fn scratch_saddr_is_any_single_sgpr() {
    // `scratch_* off, vN, sODD`: the SGPR offset is that one register (clang's frame
    // pointer s33 at -O0), not the even-aligned pair: a store through s21 (s20 holds
    // something else) is read back through a VGPR address of s21 + 4
    for p in GFX9 {
        let got = scratch_kernel(p, |k| {
            for t in [
                "v_mad_u32_u24 v8, v0, 3, 1",
                "s_mov_b32 s20, 40",
                "s_mov_b32 s21, 8",
                "v_mov_b32 v11, 12",
                "scratch_store_dword off, v8, s21 offset:4",
                "s_waitcnt 0",
                "scratch_load_dword v20, v11, off",
                "s_waitcnt 0",
                "v_lshlrev_b32 v30, 5, v0",
                "global_store_dword v30, v20, s[6:7]",
            ] {
                k.inst(t, &[]).unwrap_or_else(|e| panic!("{p}: {t}: {e}"));
            }
        });
        for l in 0..64usize {
            assert_eq!(got[8 * l], 3 * l as u32 + 1, "{p} lane {l}");
        }
    }
}
