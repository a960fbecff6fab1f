//! Per-operation tests: hand-encoded gfx90a words (the encodings llvm-mc-22 gives for
//! the assembly in each comment), run on one wave; expected values from the ISA
//! manuals' descriptions of each operation, edge values included.

use hsaco_emu::exec::{Wave, LANES};
use hsaco_emu::memory::Memory;
use hsaco_emu::run_code;

const ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];

fn wave() -> Wave {
    let mut w = Wave::new(64);
    w.s[126] = u32::MAX;
    w.s[127] = u32::MAX;
    w
}

fn run(w: &mut Wave, code: &[u8]) {
    let mut c = code.to_vec();
    c.extend_from_slice(&ENDPGM);
    let mut mem = Memory::new();
    run_code("gfx90a", &c, w, &mut mem, &mut []).unwrap();
}

fn v(w: &Wave, r: usize, l: usize) -> u32 {
    w.v[r * LANES + l]
}
fn set(w: &mut Wave, r: usize, vals: &[u32]) {
    for (l, x) in vals.iter().enumerate() {
        w.v[r * LANES + l] = *x;
    }
}
fn fb(x: f32) -> u32 {
    x.to_bits()
}

const NAN: u32 = 0x7fc0_0000;
const INF: u32 = 0x7f80_0000;
const NINF: u32 = 0xff80_0000;
const NZERO: u32 = 0x8000_0000;
const DENORM: u32 = 0x0000_0001;

#[test]
fn v_add_f32() {
    // v_add_f32_e32 v2, v0, v1
    let mut w = wave();
    let a = [
        fb(1.5),
        INF,
        INF,
        NAN,
        NZERO,
        DENORM,
        fb(f32::MAX),
        fb(-2.0),
    ];
    let b = [
        fb(2.25),
        NINF,
        fb(1.0),
        fb(1.0),
        NZERO,
        DENORM,
        fb(f32::MAX),
        fb(2.0),
    ];
    set(&mut w, 0, &a);
    set(&mut w, 1, &b);
    run(&mut w, &[0x00, 0x03, 0x04, 0x02]);
    assert_eq!(v(&w, 2, 0), fb(3.75));
    assert!(f32::from_bits(v(&w, 2, 1)).is_nan(), "inf + -inf");
    assert_eq!(v(&w, 2, 2), INF);
    assert!(f32::from_bits(v(&w, 2, 3)).is_nan());
    assert_eq!(v(&w, 2, 4), NZERO, "-0 + -0 = -0");
    // denormals kept (run_code's MODE keeps them)
    assert_eq!(v(&w, 2, 5), 2);
    assert_eq!(v(&w, 2, 6), INF, "overflow");
    assert_eq!(v(&w, 2, 7), 0, "-2 + 2 = +0");
}

#[test]
fn v_max_min_f32_ieee() {
    // v_max_f32_e32 v2, v0, v1 ; v_min_f32_e32 v3, v0, v1 (v3: re-encoded vdst)
    let mut w = wave();
    set(&mut w, 0, &[NAN, fb(1.0), NZERO, fb(-3.0)]);
    set(&mut w, 1, &[fb(2.0), NAN, 0, fb(-4.0)]);
    run(&mut w, &[0x00, 0x03, 0x04, 0x16, 0x00, 0x03, 0x06, 0x14]);
    // a quiet NaN operand loses to a number
    assert_eq!(v(&w, 2, 0), fb(2.0));
    assert_eq!(v(&w, 2, 1), fb(1.0));
    assert_eq!(v(&w, 3, 0), fb(2.0));
    // max(-0, +0) = +0, min(-0, +0) = -0
    assert_eq!(v(&w, 2, 2), 0);
    assert_eq!(v(&w, 3, 2), NZERO);
    assert_eq!(v(&w, 2, 3), fb(-3.0));
    assert_eq!(v(&w, 3, 3), fb(-4.0));
}

#[test]
fn source_modifiers_and_clamp() {
    // v_mul_f32_e64 v2, -v0, |v1| ; v_add_f32_e64 v3, v0, v1 clamp
    let mut w = wave();
    set(&mut w, 0, &[fb(2.0), fb(0.75), fb(-1.0)]);
    set(&mut w, 1, &[fb(-3.0), fb(0.5), NAN]);
    run(
        &mut w,
        &[
            0x02, 0x02, 0x05, 0xd1, 0x00, 0x03, 0x02, 0x20, //
            0x03, 0x80, 0x01, 0xd1, 0x00, 0x03, 0x02, 0x00,
        ],
    );
    assert_eq!(v(&w, 2, 0), fb(-6.0));
    assert_eq!(v(&w, 2, 1), fb(-0.375));
    // clamp to [0, 1]; NaN clamps to 0
    assert_eq!(v(&w, 3, 0), 0, "2 + -3 clamps to 0");
    assert_eq!(v(&w, 3, 1), fb(1.0), "1.25 clamps to 1");
    assert_eq!(v(&w, 3, 2), 0, "NaN clamps to 0");
}

#[test]
fn carries() {
    // v_add_co_u32_e32 v2, vcc, v0, v1 ; v_addc_co_u32_e32 v3, vcc, v0, v1, vcc
    let mut w = wave();
    set(&mut w, 0, &[u32::MAX, 5, 0x8000_0000]);
    set(&mut w, 1, &[1, 6, 0x8000_0000]);
    run(&mut w, &[0x00, 0x03, 0x04, 0x32, 0x00, 0x03, 0x06, 0x38]);
    assert_eq!((v(&w, 2, 0), v(&w, 2, 1), v(&w, 2, 2)), (0, 11, 0));
    // carry-in from the first add: lanes 0 and 2 (and carries out again)
    assert_eq!((v(&w, 3, 0), v(&w, 3, 1), v(&w, 3, 2)), (1, 11, 1));
    assert_eq!(w.s[106] & 7, 0b101);
    // lanes 3.. : 0 + 0 + 0
    assert_eq!(v(&w, 3, 5), 0);

    // v_sub_co_u32_e64 v2, s[4:5], v0, v1: borrow
    let mut w = wave();
    set(&mut w, 0, &[0, 5]);
    set(&mut w, 1, &[1, 5]);
    run(&mut w, &[0x02, 0x04, 0x1a, 0xd1, 0x00, 0x03, 0x02, 0x00]);
    assert_eq!((v(&w, 2, 0), v(&w, 2, 1)), (u32::MAX, 0));
    assert_eq!(w.s[4] & 3, 0b01);
}

#[test]
fn shifts_use_low_bits_of_the_count() {
    // v_lshlrev_b32 v2, v0, v1 ; v_lshrrev_b32 v3, v0, v1 ; v_ashrrev_i32 v4, v0, v1
    let mut w = wave();
    set(&mut w, 0, &[1, 32, 33, 31]);
    set(&mut w, 1, &[0x8000_0001; 4]);
    run(
        &mut w,
        &[
            0x00, 0x03, 0x04, 0x24, 0x00, 0x03, 0x06, 0x20, 0x00, 0x03, 0x08, 0x22,
        ],
    );
    assert_eq!(v(&w, 2, 0), 2);
    assert_eq!(v(&w, 2, 1), 0x8000_0001, "shift by 32 is by 0");
    assert_eq!(v(&w, 2, 2), 2, "33 is 1");
    assert_eq!(v(&w, 3, 3), 1);
    assert_eq!(v(&w, 4, 3), u32::MAX, "arithmetic shift keeps the sign");
    // v_lshlrev_b64 v[2:3], v0, v[4:5]: counts 0..63
    let mut w = wave();
    set(&mut w, 0, &[32, 63, 64, 1]);
    set(&mut w, 4, &[1, 1, 1, 0x8000_0000]);
    set(&mut w, 5, &[0, 0, 0, 0]);
    run(&mut w, &[0x02, 0x00, 0x8f, 0xd2, 0x00, 0x09, 0x02, 0x00]);
    assert_eq!((v(&w, 2, 0), v(&w, 3, 0)), (0, 1));
    assert_eq!((v(&w, 2, 1), v(&w, 3, 1)), (0, 0x8000_0000));
    assert_eq!((v(&w, 2, 2), v(&w, 3, 2)), (1, 0), "64 is 0");
    assert_eq!((v(&w, 2, 3), v(&w, 3, 3)), (0, 1));
}

#[test]
fn compares_and_exec() {
    // v_cmp_lt_f32_e32 vcc, v0, v1 ; v_cmp_nlt_f32_e64 s[4:5], v0, v1
    let mut w = wave();
    w.s[127] = 0; // lanes 32..63 off: their bits are 0
    set(&mut w, 0, &[fb(1.0), NAN, fb(3.0), fb(1.0)]);
    set(&mut w, 1, &[fb(2.0), fb(1.0), fb(2.0), fb(1.0)]);
    run(
        &mut w,
        &[
            0x00, 0x03, 0x82, 0x7c, 0x04, 0x00, 0x4e, 0xd0, 0x00, 0x03, 0x02, 0x00,
        ],
    );
    assert_eq!(w.s[106] & 0xf, 0b0001);
    // not-less-than is true for unordered operands
    assert_eq!(w.s[4] & 0xf, 0b1110);
    assert_eq!(w.s[107], 0);
    assert_eq!(w.s[5], 0);
    // v_cmpx_gt_i32_e32 vcc, v0, v1 writes EXEC
    let mut w = wave();
    set(&mut w, 0, &[5, (-5i32) as u32, 0]);
    set(&mut w, 1, &[(-1i32) as u32, 3, 0]);
    run(&mut w, &[0x00, 0x03, 0xa8, 0x7d]);
    assert_eq!((w.s[126], w.s[127]), (0b001, 0));
}

#[test]
fn inactive_lanes_keep_their_values() {
    // v_add_f32_e32 v2, v0, v1 with EXEC = lane 1 only
    let mut w = wave();
    w.s[126] = 0b10;
    w.s[127] = 0;
    set(&mut w, 0, &[fb(1.0), fb(1.0), fb(1.0)]);
    set(&mut w, 1, &[fb(1.0), fb(1.0), fb(1.0)]);
    set(&mut w, 2, &[7, 7, 7]);
    run(&mut w, &[0x00, 0x03, 0x04, 0x02]);
    assert_eq!((v(&w, 2, 0), v(&w, 2, 1), v(&w, 2, 2)), (7, fb(2.0), 7));
    // EXEC = 0: nothing written
    let mut w = wave();
    w.s[126] = 0;
    w.s[127] = 0;
    set(&mut w, 2, &[7]);
    run(&mut w, &[0x00, 0x03, 0x04, 0x02]);
    assert_eq!(v(&w, 2, 0), 7);
}

#[test]
fn conversions_saturate() {
    // v_cvt_u32_f32 v2, v0 ; v_cvt_i32_f32 v3, v0
    let mut w = wave();
    set(
        &mut w,
        0,
        &[
            fb(-1.5),
            fb(4.0e9),
            fb(5.0e9),
            NAN,
            fb(2.9),
            fb(-3.0e9),
            INF,
        ],
    );
    run(&mut w, &[0x00, 0x0f, 0x04, 0x7e, 0x00, 0x11, 0x06, 0x7e]);
    let u: Vec<u32> = (0..7).map(|l| v(&w, 2, l)).collect();
    let i: Vec<i32> = (0..7).map(|l| v(&w, 3, l) as i32).collect();
    // round toward zero, clamp to the range, NaN to 0
    assert_eq!(u, vec![0, 4_000_000_000, u32::MAX, 0, 2, 0, u32::MAX]);
    assert_eq!(i, vec![-1, i32::MAX, i32::MAX, 0, 2, i32::MIN, i32::MAX]);
}

#[test]
fn wide_multiplies() {
    // v_mul_hi_u32 v2, v0, v1 ; v_mul_hi_i32 v3, v0, v1
    let mut w = wave();
    set(&mut w, 0, &[u32::MAX, 0x8000_0000, 3]);
    set(&mut w, 1, &[u32::MAX, 2, (-1i32) as u32]);
    run(
        &mut w,
        &[
            0x02, 0x00, 0x86, 0xd2, 0x00, 0x03, 0x02, 0x00, //
            0x03, 0x00, 0x87, 0xd2, 0x00, 0x03, 0x02, 0x00,
        ],
    );
    assert_eq!(v(&w, 2, 0), 0xffff_fffe);
    assert_eq!(v(&w, 2, 1), 1);
    assert_eq!(v(&w, 3, 0), 0, "(-1) * (-1) = 1: high word 0");
    assert_eq!(v(&w, 3, 1), u32::MAX, "i32::MIN * 2: high word -1");
    assert_eq!(v(&w, 3, 2), u32::MAX, "3 * -1");
    // v_mad_u64_u32 v[2:3], s[4:5], v0, v1, v[4:5]: carry-out on 64-bit overflow
    let mut w = wave();
    set(&mut w, 0, &[u32::MAX, 2]);
    set(&mut w, 1, &[u32::MAX, 3]);
    set(&mut w, 4, &[u32::MAX, 1]);
    set(&mut w, 5, &[u32::MAX, 0]);
    run(&mut w, &[0x02, 0x04, 0xe8, 0xd1, 0x00, 0x03, 0x12, 0x04]);
    let r0 = u64::from(v(&w, 2, 0)) | u64::from(v(&w, 3, 0)) << 32;
    let want0 = (u128::from(u32::MAX) * u128::from(u32::MAX) + u128::from(u64::MAX)) as u64;
    assert_eq!(r0, want0);
    assert_eq!((v(&w, 2, 1), v(&w, 3, 1)), (7, 0));
    assert_eq!(w.s[4] & 3, 0b01);
}

#[test]
fn bitfields_and_lane_counts() {
    // v_bfe_u32 v2, v0, 4, 8 ; v_bfe_i32 v3, v0, 4, 8
    let mut w = wave();
    set(&mut w, 0, &[0xabc, 0xf80]);
    run(
        &mut w,
        &[
            0x02, 0x00, 0xc8, 0xd1, 0x00, 0x09, 0x21, 0x02, //
            0x03, 0x00, 0xc9, 0xd1, 0x00, 0x09, 0x21, 0x02,
        ],
    );
    assert_eq!((v(&w, 2, 0), v(&w, 3, 0)), (0xab, 0xffff_ffab));
    assert_eq!((v(&w, 2, 1), v(&w, 3, 1)), (0xf8, 0xffff_fff8));
    // v_mbcnt_lo_u32_b32 v2, -1, 0 ; v_mbcnt_hi_u32_b32 v2, -1, v2: lane index
    let mut w = wave();
    run(
        &mut w,
        &[
            0x02, 0x00, 0x8c, 0xd2, 0xc1, 0x00, 0x01, 0x00, //
            0x02, 0x00, 0x8d, 0xd2, 0xc1, 0x04, 0x02, 0x00,
        ],
    );
    for l in 0..64 {
        assert_eq!(v(&w, 2, l), l as u32);
    }
}

#[test]
fn scalar_arithmetic() {
    // s_add_u32 s6, s0, s1 ; s_addc_u32 s7, s2, s3: a 64-bit add
    let mut w = wave();
    w.s[..4].copy_from_slice(&[u32::MAX, 1, 5, 6]);
    run(&mut w, &[0x00, 0x01, 0x06, 0x80, 0x02, 0x03, 0x07, 0x82]);
    assert_eq!((w.s[6], w.s[7]), (0, 12));
    assert!(!w.scc);
    // s_lshl_b32 s6, s0, s1: SCC = result != 0
    let mut w = wave();
    w.s[..2].copy_from_slice(&[0x8000_0000, 1]);
    run(&mut w, &[0x00, 0x01, 0x06, 0x8e]);
    assert_eq!(w.s[6], 0);
    assert!(!w.scc);
    // s_bfe_i32 s6, s0, 0x80004 (offset 4, width 8)
    let mut w = wave();
    w.s[0] = 0xf80;
    run(&mut w, &[0x00, 0xff, 0x06, 0x93, 0x04, 0x00, 0x08, 0x00]);
    assert_eq!(w.s[6], 0xffff_fff8);
    // s_ff1_i32_b64 s6, s[0:1]: first one, -1 when none
    let mut w = wave();
    w.s[..2].copy_from_slice(&[0, 0x10]);
    run(&mut w, &[0x00, 0x11, 0x86, 0xbe]);
    assert_eq!(w.s[6], 36);
    let mut w = wave();
    run(&mut w, &[0x00, 0x11, 0x86, 0xbe]);
    assert_eq!(w.s[6], u32::MAX);
}

#[test]
fn readfirstlane_picks_the_first_active_lane() {
    // v_readfirstlane_b32 s6, v0
    let mut w = wave();
    w.s[126] = 0b1100;
    set(&mut w, 0, &[10, 11, 12, 13]);
    run(&mut w, &[0x00, 0x05, 0x0c, 0x7e]);
    assert_eq!(w.s[6], 12);
}

/// Random instruction words never crash the emulator: every run ends in `s_endpgm`,
/// a barrier or an error.
#[test]
fn random_words_do_not_panic() {
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for proc in ["gfx900", "gfx90a", "gfx1100", "gfx803"] {
        for _ in 0..3000 {
            let n = 1 + (next() % 8) as usize;
            let mut code: Vec<u8> = (0..n).flat_map(|_| (next() as u32).to_le_bytes()).collect();
            code.extend_from_slice(&ENDPGM);
            let mut w = Wave::new(if proc == "gfx1100" { 32 } else { 64 });
            w.s[126] = next() as u32;
            w.s[127] = next() as u32;
            for x in w.v.iter_mut().take(64 * 8) {
                *x = next() as u32;
            }
            let mut mem = Memory::new();
            mem.map(0x7f40_0000_0000, vec![0; 4096], "buf").unwrap();
            let mut lds = vec![0u8; 1024];
            let _ = run_code(proc, &code, &mut w, &mut mem, &mut lds);
        }
    }
}
