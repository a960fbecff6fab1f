//! The seeded smoke run of the emulator's fuzz entry (`fuzz/fuzz_targets/emu.rs`):
//! mutated instruction words for every processor the entry knows and mutated code
//! objects (descriptor, metadata, code) with mutated dispatch shapes never panic.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

use hsaco_build::KernelBuilder;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Instruction-word seeds: a processor selector, EXEC, register seed bytes, then the
/// code of a built kernel (real encodings, so mutations stay near valid instructions).
fn word_seed(sel: u8, exec: u64, proc: &str, body: &[&str]) -> Vec<u8> {
    let mut k = KernelBuilder::new(proc, "f").unwrap();
    for t in body {
        k.inst(t, &[]).unwrap();
    }
    let co = k.finish().unwrap();
    let elf = hsaco_elf::elf::Elf::parse(&co).unwrap();
    let code = elf
        .section_by_name(".text")
        .unwrap()
        .data()
        .unwrap()
        .to_vec();
    let mut s = vec![0u8, sel];
    s.extend_from_slice(&exec.to_le_bytes());
    s.extend((0..32u8).map(|i| i.wrapping_mul(37)));
    s.extend_from_slice(&code);
    s
}

#[test]
fn fuzz_smoke() {
    let gfx9 = [
        "s_load_dwordx4 s[4:7], s[0:1], 0x0",
        "v_add_f32 v1, v2, v3",
        "v_mad_u64_u32 v[4:5], s[8:9], v1, v2, v[4:5]",
        "global_load_dword v6, v1, s[0:1] offset:16",
        "ds_write_b32 v1, v2",
        "ds_read2_b32 v[8:9], v1 offset1:4",
        "v_cmp_gt_f32 vcc, v1, v2",
        "s_and_saveexec_b64 s[10:11], vcc",
        "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
        "s_cbranch_execz 2",
        "v_pk_fma_f16 v1, v2, v3, v4",
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 0xf0",
        "scratch_store_dword off, v1, s2 offset:8",
        "s_branch -3",
    ];
    let gfx11 = [
        "s_load_b128 s[4:7], s[0:1], 0x0",
        "v_add_nc_u32 v1, v2, v3",
        "global_load_b32 v6, v1, s[0:1] offset:16",
        "v_dual_mov_b32 v1, v2 :: v_dual_add_f32 v2, v4, v5",
        "ds_store_b32 v1, v2",
        "v_cmp_lt_u32 vcc_lo, v1, v2",
        "s_and_saveexec_b32 s10, vcc_lo",
        "s_cbranch_execz 1",
        "s_branch -2",
    ];
    let gfx8 = [
        "s_load_dwordx4 s[4:7], s[0:1], 0x0",
        "v_add_u32 v1, vcc, v2, v3",
        "flat_load_dword v6, v[0:1]",
        "v_cmp_gt_i32 vcc, v1, v2",
        "s_branch -2",
    ];
    let mut seeds = vec![
        word_seed(0, u64::MAX, "gfx900", &gfx9),
        word_seed(1, 0x0000_ffff_0f0f_0001, "gfx90a", &gfx9),
        word_seed(2, 0xffff_ffff, "gfx1100", &gfx11),
        word_seed(3, 0, "gfx803", &gfx8),
        word_seed(4, u64::MAX, "gfx942", &gfx9),
        // code objects with a dispatch shape in front
        [
            &[1u8, 64, 1, 1, 2, 3, 0, 0, 0][..],
            &data("01_vadd_gfx90a_cov5.co"),
        ]
        .concat(),
        [
            &[1u8, 32, 1, 1, 3, 0, 1, 0, 1][..],
            &data("02_reduce_lds_gfx1100_cov5.co"),
        ]
        .concat(),
        [
            &[1u8, 64, 1, 1, 1, 7, 0, 0, 0][..],
            &data("13_control_flow_gfx803_cov4.co"),
        ]
        .concat(),
        [
            &[1u8, 16, 2, 1, 2, 1, 1, 1, 4][..],
            &data("07_scratch_gfx900_cov4.co"),
        ]
        .concat(),
    ];
    // descriptor seeds: the fixture's own descriptor bytes (and a variant with every
    // enable bit set) in front of the code object
    for (file, shape) in [
        ("01_vadd_gfx90a_cov5.co", [3u8, 64, 1, 1, 2, 3, 0, 0, 0]),
        ("07_scratch_gfx900_cov4.co", [3, 16, 2, 1, 2, 1, 1, 1, 4]),
        (
            "02_reduce_lds_gfx1100_cov5.co",
            [3, 32, 1, 1, 3, 0, 1, 0, 1],
        ),
    ] {
        let co = data(file);
        let obj = hsaco_elf::CodeObject::parse(&co).unwrap();
        let kernels = obj.kernels().unwrap();
        let Ok(hsaco_elf::DescriptorBytes::V3 { bytes, .. }) = &kernels[0].descriptor else {
            panic!("{file}: no v3+ descriptor");
        };
        let kd = bytes[..64].to_vec();
        seeds.push([&shape[..], &kd, &co].concat());
        let mut all = kd.clone();
        for b in &mut all[48..60] {
            *b = 0xff;
        }
        seeds.push([&shape[..], &all, &co].concat());
    }
    let refs: Vec<&[u8]> = seeds.iter().map(|s| s.as_slice()).collect();
    let iterations = std::env::var("HSACO_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let n =
        hsaco_elf::fuzzing::mutation_smoke(hsaco_emu::fuzzing::emu, &refs, iterations, 0x0e3_5eed);
    assert_eq!(n, iterations);
    // the unmutated seeds run too
    for s in &refs {
        hsaco_emu::fuzzing::emu(s);
    }
}

/// Found by the smoke run (400,000 inputs): a descriptor's LDS size plus a dynamic LDS
/// size past 4 GiB overflowed instead of giving the "needs more LDS" error.
#[test]
fn oversized_lds_is_an_error() {
    let mut k = KernelBuilder::new("gfx90a", "t").unwrap();
    k.field("group_segment_fixed_size", 1024);
    k.inst("s_endpgm", &[]).unwrap();
    let co = k.finish().unwrap();
    let disp = hsaco_emu::Dispatch {
        grid: [64, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: u32::MAX,
        args: vec![],
    };
    let e = hsaco_emu::run(&co, "t", &disp, &hsaco_emu::RunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("bytes of LDS"), "{e}");
}
