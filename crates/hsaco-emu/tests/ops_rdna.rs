//! gfx11/gfx12 operations the corpus kernels use only in easy cases: hand-encoded words
//! (the encodings llvm-mc-22 gives for the assembly in each comment) run on one wave32;
//! expected values from the RDNA3/RDNA4 ISA guides' descriptions (permlane lane
//! selects, true16 halves, DPP16/DPP8 lane patterns, SALU floats, float atomics).

use hsaco_emu::exec::{Wave, LANES};
use hsaco_emu::memory::Memory;
use hsaco_emu::run_code;

const ENDPGM: [u8; 4] = [0x00, 0x00, 0xb0, 0xbf];

fn wave() -> Wave {
    let mut w = Wave::new(32);
    w.s[126] = u32::MAX;
    w
}

fn run_on(cpu: &str, w: &mut Wave, mem: &mut Memory, code: &[u8]) {
    let mut c = code.to_vec();
    c.extend_from_slice(&ENDPGM);
    run_code(cpu, &c, w, mem, &mut []).unwrap();
}

fn run(w: &mut Wave, code: &[u8]) {
    run_on("gfx1100", w, &mut Memory::new(), code);
}

fn v(w: &Wave, r: usize, l: usize) -> u32 {
    w.v[r * LANES + l]
}
fn set_lanes(w: &mut Wave, r: usize, f: impl Fn(usize) -> u32) {
    for l in 0..32 {
        w.v[r * LANES + l] = f(l);
    }
}

#[test]
fn permlane16_and_permlanex16() {
    // v_permlane16_b32 v1, v0, s0, s1 ; v_permlanex16_b32 v2, v0, s2, s3
    let mut w = wave();
    set_lanes(&mut w, 0, |l| 0x100 + l as u32);
    // lanes 0-7 select 15..8, lanes 8-15 select 7..0: each row reversed
    w.s[0] = 0x89ab_cdef;
    w.s[1] = 0x0123_4567;
    // identity selects, from the other row
    w.s[2] = 0x7654_3210;
    w.s[3] = 0xfedc_ba98;
    run(
        &mut w,
        &[
            0x01, 0x00, 0x5b, 0xd6, 0x00, 0x01, 0x04, 0x00, //
            0x02, 0x00, 0x5c, 0xd6, 0x00, 0x05, 0x0c, 0x00,
        ],
    );
    for l in 0..32 {
        let rev = (l & !15) + 15 - (l & 15);
        assert_eq!(v(&w, 1, l), 0x100 + rev as u32, "permlane16 lane {l}");
        assert_eq!(v(&w, 2, l), 0x100 + (l ^ 16) as u32, "permlanex16 lane {l}");
    }
}

#[test]
fn true16_halves() {
    // v_mov_b16_e32 v1.h, v0.l ; v_add_nc_u16 v2.l, v0.h, v0.l op_sel:[1,0,0] ;
    // v_fmac_f16_e32 v3.h, v0.l, v4.l ; v_cvt_f32_f16_e32 v5, v6.h ;
    // v_and_b16 v8.l, v0.h, 0xff0f op_sel:[1,0,0]
    let mut w = wave();
    set_lanes(&mut w, 0, |_| 0xaaaa_4000); // v0.l = 2.0 (f16)
    set_lanes(&mut w, 1, |_| 0x1111_2222);
    set_lanes(&mut w, 2, |_| 0x5555_0000);
    set_lanes(&mut w, 3, |_| 0x3c00_1234); // v3.h = 1.0
    set_lanes(&mut w, 4, |_| 0x7777_4200); // v4.l = 3.0
    set_lanes(&mut w, 6, |_| 0xc100_0000); // v6.h = -2.5
    set_lanes(&mut w, 8, |_| 0x9999_9999);
    run(
        &mut w,
        &[
            0x00, 0x39, 0x02, 0x7f, //
            0x02, 0x08, 0x03, 0xd7, 0x00, 0x01, 0x02, 0x00, //
            0x00, 0x09, 0x06, 0x6d, //
            0x86, 0x17, 0x0a, 0x7e, //
            0x08, 0x08, 0x62, 0xd7, 0x00, 0xff, 0x01, 0x00, 0x0f, 0xff, 0x00, 0x00,
        ],
    );
    for l in [0, 31] {
        // a write to one half keeps the other
        assert_eq!(v(&w, 1, l), 0x4000_2222, "v_mov_b16 to .h");
        assert_eq!(v(&w, 2, l), 0x5555_eaaa, "0xaaaa + 0x4000 to .l");
        // 2 * 3 + 1 = 7 (0x4700) to .h, .l kept
        assert_eq!(v(&w, 3, l), 0x4700_1234, "v_fmac_f16 on .h");
        assert_eq!(v(&w, 5, l), (-2.5f32).to_bits(), "v_cvt_f32_f16 of .h");
        assert_eq!(v(&w, 8, l), 0x9999_aa0a, "v_and_b16 of .h");
    }
}

#[test]
fn dpp16_and_dpp8_lane_patterns() {
    // v_mov_b32_dpp v1, v0 dpp8:[7,6,5,4,3,2,1,0] ;
    // v_mov_b32_dpp v2, v0 row_xmask:1 ; v_mov_b32_dpp v3, v0 row_share:3 ;
    // v_add3_u32_e64_dpp v4, v0, v7, v7 row_shr:1 bound_ctrl:1
    let mut w = wave();
    set_lanes(&mut w, 0, |l| 0x100 + l as u32);
    set_lanes(&mut w, 7, |_| 1);
    run(
        &mut w,
        &[
            0xe9, 0x02, 0x02, 0x7e, 0x00, 0x77, 0x39, 0x05, //
            0xfa, 0x02, 0x04, 0x7e, 0x00, 0x61, 0x01, 0xff, //
            0xfa, 0x02, 0x06, 0x7e, 0x00, 0x53, 0x01, 0xff, //
            0x04, 0x00, 0x55, 0xd6, 0xfa, 0x0e, 0x1e, 0x04, 0x00, 0x11, 0x09, 0xff,
        ],
    );
    for l in 0..32 {
        let src = |k: usize| 0x100 + k as u32;
        assert_eq!(v(&w, 1, l), src((l & !7) + 7 - (l & 7)), "dpp8 lane {l}");
        assert_eq!(v(&w, 2, l), src(l ^ 1), "row_xmask:1 lane {l}");
        assert_eq!(v(&w, 3, l), src((l & !15) + 3), "row_share:3 lane {l}");
        // row_shr:1: lane 0 of a row has no source; bound_ctrl reads it as 0
        let s0 = if l % 16 == 0 { 0 } else { src(l - 1) };
        assert_eq!(v(&w, 4, l), s0 + 2, "VOP3 DPP row_shr:1 lane {l}");
    }
}

#[test]
fn gfx12_salu_float_and_64bit_add() {
    // s_add_f32 s2, s0, s1 ; s_cvt_u32_f32 s3, s4 ;
    // s_add_nc_u64 s[6:7], s[8:9], s[10:11] ; s_mul_f32 s5, s0, 0.5
    let mut w = wave();
    w.s[0] = 1.5f32.to_bits();
    w.s[1] = (-4.0f32).to_bits();
    w.s[4] = 3e9f32.to_bits();
    w.s[8] = 0xffff_ffff;
    w.s[9] = 1;
    w.s[10] = 1;
    w.s[11] = 2;
    w.scc = true;
    set_lanes(&mut w, 0, |_| 0xdead);
    run_on(
        "gfx1200",
        &mut w,
        &mut Memory::new(),
        &[
            0x00, 0x01, 0x02, 0xa0, //
            0x04, 0x67, 0x83, 0xbe, //
            0x08, 0x0a, 0x86, 0xa9, //
            0x00, 0xf0, 0x05, 0xa2,
        ],
    );
    assert_eq!(w.s[2], (-2.5f32).to_bits());
    assert_eq!(w.s[3], 3_000_000_000);
    assert_eq!((w.s[6], w.s[7]), (0, 4), "carry into the high word");
    assert!(w.scc, "s_add_nc_u64 leaves SCC");
    assert_eq!(w.s[5], 0.75f32.to_bits());
    // no vector register is written
    assert_eq!(v(&w, 0, 0), 0xdead);
    assert_eq!(w.s[126], u32::MAX, "EXEC unchanged");
}

#[test]
fn gfx12_float_atomic_max_min() {
    // global_atomic_max_num_f32 v1, v0, s[0:1] offset:4 ;
    // global_atomic_min_num_f32 v1, v2, s[0:1] offset:8
    let base = 0x7f40_0000_0000u64;
    let mut mem = Memory::new();
    let mut bytes = vec![0u8; 16];
    bytes[4..8].copy_from_slice(&1.0f32.to_bits().to_le_bytes());
    bytes[8..12].copy_from_slice(&0f32.to_bits().to_le_bytes());
    mem.map(base, bytes, "buf").unwrap();
    let mut w = wave();
    w.s[0] = base as u32;
    w.s[1] = (base >> 32) as u32;
    w.s[126] = 0b111;
    set_lanes(&mut w, 1, |_| 0);
    // max: 1 vs NaN, 3, -0 ; min: +0 vs -0, NaN, 5
    let maxv = [f32::NAN.to_bits(), 3f32.to_bits(), 0x8000_0000];
    let minv = [0x8000_0000, f32::NAN.to_bits(), 5f32.to_bits()];
    set_lanes(&mut w, 0, |l| maxv.get(l).copied().unwrap_or(0));
    set_lanes(&mut w, 2, |l| minv.get(l).copied().unwrap_or(0));
    run_on(
        "gfx1200",
        &mut w,
        &mut mem,
        &[
            0x00, 0x80, 0x14, 0xee, 0x00, 0x00, 0x00, 0x00, 0x01, 0x04, 0x00, 0x00, //
            0x00, 0x40, 0x14, 0xee, 0x00, 0x00, 0x00, 0x01, 0x01, 0x08, 0x00, 0x00,
        ],
    );
    // IEEE maxNum/minNum: a NaN operand gives the other value; -0 < +0
    assert_eq!(mem.read_u32(base + 4).unwrap(), 3f32.to_bits());
    assert_eq!(mem.read_u32(base + 8).unwrap(), 0x8000_0000);
}

#[test]
fn gfx12_64bit_subtract() {
    // s_sub_nc_u64 s[4:5], s[0:1], s[2:3] ; s_sub_nc_u64 s[6:7], s[0:1], 5
    let mut w = wave();
    w.s[0] = 3;
    w.s[1] = 1;
    w.s[2] = 4;
    w.s[3] = 0;
    w.scc = true;
    run_on(
        "gfx1200",
        &mut w,
        &mut Memory::new(),
        &[0x00, 0x02, 0x04, 0xaa, 0x00, 0x85, 0x06, 0xaa],
    );
    // 0x1_0000_0003 - 4: a borrow from the high word
    assert_eq!((w.s[4], w.s[5]), (0xffff_ffff, 0), "borrow");
    assert_eq!((w.s[6], w.s[7]), (0xffff_fffe, 0), "inline constant");
    assert!(w.scc, "s_sub_nc_u64 leaves SCC");
    // wrapping below zero
    let mut w = wave();
    w.s[2] = 1;
    w.scc = false;
    run_on(
        "gfx1200",
        &mut w,
        &mut Memory::new(),
        &[0x00, 0x02, 0x04, 0xaa],
    );
    assert_eq!((w.s[4], w.s[5]), (u32::MAX, u32::MAX), "0 - 1 wraps");
    assert!(!w.scc, "s_sub_nc_u64 leaves SCC");
}

#[test]
fn true16_not_or_xor() {
    // v_not_b16_e32 v1.h, v0.l ; v_not_b16_e32 v2.l, v0.h ;
    // v_or_b16 v3.l, v0.l, v4.h op_sel:[0,1,0] ; v_xor_b16 v5.h, v0.h, v4.l op_sel:[1,0,1] ;
    // v_or_b16 v6.l, v0.l, 0x8001
    let mut w = wave();
    set_lanes(&mut w, 0, |l| 0xf0f0_0000 | l as u32);
    set_lanes(&mut w, 1, |_| 0x1111_2222);
    set_lanes(&mut w, 2, |_| 0x3333_4444);
    set_lanes(&mut w, 3, |_| 0x5555_6666);
    set_lanes(&mut w, 4, |_| 0x0ff0_00ff);
    set_lanes(&mut w, 5, |_| 0x7777_8888);
    set_lanes(&mut w, 6, |_| 0x9999_aaaa);
    // lane 7 is off: it keeps every destination
    w.s[126] = !(1 << 7);
    run(
        &mut w,
        &[
            0x00, 0xd3, 0x02, 0x7f, //
            0x80, 0xd3, 0x04, 0x7e, //
            0x03, 0x10, 0x63, 0xd7, 0x00, 0x09, 0x02, 0x00, //
            0x05, 0x48, 0x64, 0xd7, 0x00, 0x09, 0x02, 0x00, //
            0x06, 0x00, 0x63, 0xd7, 0x00, 0xff, 0x01, 0x00, 0x01, 0x80, 0x00, 0x00,
        ],
    );
    for l in 0..32u32 {
        if l == 7 {
            assert_eq!(v(&w, 1, 7), 0x1111_2222);
            assert_eq!(v(&w, 3, 7), 0x5555_6666);
            assert_eq!(v(&w, 5, 7), 0x7777_8888);
            continue;
        }
        let lo = l; // v0.l
        let l = l as usize;
        assert_eq!(
            v(&w, 1, l),
            (!lo & 0xffff) << 16 | 0x2222,
            "not into .h keeps .l, lane {l}"
        );
        assert_eq!(
            v(&w, 2, l),
            0x3333_0000 | 0x0f0f,
            "not of .h into .l keeps .h, lane {l}"
        );
        assert_eq!(v(&w, 3, l), 0x5555_0000 | (lo | 0x0ff0), "or, lane {l}");
        assert_eq!(
            v(&w, 5, l),
            (0xf0f0 ^ 0x00ff) << 16 | 0x8888,
            "xor into .h, lane {l}"
        );
        assert_eq!(
            v(&w, 6, l),
            0x9999_0000 | (lo | 0x8001),
            "or with a literal, lane {l}"
        );
    }
}
