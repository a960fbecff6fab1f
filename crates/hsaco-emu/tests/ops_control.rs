//! Per-operation tests of program control and the hardware-register operations:
//! branches on SCC/VCC/EXEC, s_getpc/s_setpc/s_swappc, s_endpgm, s_trap, the
//! counters, MODE through s_setreg/s_getreg/s_denorm_mode/s_round_mode, and the
//! instructions that only wait (s_nop, s_waitcnt, ...), from the manuals.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;
use hsaco_build::Operand;
use hsaco_emu::EmuError;

/// v24 = 1 if the branch was taken, 2 if not.
fn branch(p: &str, setup: &[String], mn: &str) -> u32 {
    let out = run(p, &[], &[1], |k| {
        for t in setup {
            k.i(t);
        }
        let taken = k.b.label();
        let done = k.b.label();
        k.b.inst(mn, &[Operand::Label(taken)]).unwrap();
        k.i("v_mov_b32 v24, 2");
        k.b.inst("s_branch", &[Operand::Label(done)]).unwrap();
        k.b.bind(taken).unwrap();
        k.i("v_mov_b32 v24, 1");
        k.b.bind(done).unwrap();
    });
    out[0][0]
}

#[test]
fn conditional_branches() {
    for p in ALL {
        let w64 = lanes(p) == 64;
        let vcc = |x: u32| {
            if w64 {
                vec![
                    format!("s_mov_b32 vcc_lo, {x:#x}"),
                    "s_mov_b32 vcc_hi, 0".to_string(),
                ]
            } else {
                vec![format!("s_mov_b32 vcc_lo, {x:#x}")]
            }
        };
        let scc = |x: u32| vec![format!("s_cmp_eq_u32 {x}, 1")];
        let exec = |x: u32| {
            if w64 {
                vec![
                    format!("s_mov_b32 exec_lo, {x:#x}"),
                    "s_mov_b32 exec_hi, 0".to_string(),
                ]
            } else {
                vec![format!("s_mov_b32 exec_lo, {x:#x}")]
            }
        };
        assert_eq!(branch(p, &[], "s_branch"), 1, "{p} s_branch");
        for (v, taken) in [(1u32, true), (0, false)] {
            let t = |b: bool| if b { 1 } else { 2 };
            assert_eq!(
                branch(p, &scc(v), "s_cbranch_scc1"),
                t(taken),
                "{p} scc1 {v}"
            );
            assert_eq!(
                branch(p, &scc(v), "s_cbranch_scc0"),
                t(!taken),
                "{p} scc0 {v}"
            );
            // VCCZ: VCC is all zeros (vcc = 0x10 is not)
            let m = if v == 1 { 0x10 } else { 0 };
            assert_eq!(
                branch(p, &vcc(m), "s_cbranch_vccz"),
                t(m == 0),
                "{p} vccz {m:#x}"
            );
            assert_eq!(
                branch(p, &vcc(m), "s_cbranch_vccnz"),
                t(m != 0),
                "{p} vccnz {m:#x}"
            );
            // EXECZ; lane 0 stays 0 when EXEC leaves it out, so read lane 4 (m = 0x10)
            let out = |mn: &str| {
                let o = run(p, &[], &[1], |k| {
                    for s in exec(m) {
                        k.i(&s);
                    }
                    let taken = k.b.label();
                    let done = k.b.label();
                    k.b.inst(mn, &[Operand::Label(taken)]).unwrap();
                    k.exec(u64::MAX);
                    k.i("v_mov_b32 v24, 2");
                    k.b.inst("s_branch", &[Operand::Label(done)]).unwrap();
                    k.b.bind(taken).unwrap();
                    k.exec(u64::MAX);
                    k.i("v_mov_b32 v24, 1");
                    k.b.bind(done).unwrap();
                });
                o[0][0]
            };
            assert_eq!(out("s_cbranch_execz"), t(m == 0), "{p} execz {m:#x}");
            assert_eq!(out("s_cbranch_execnz"), t(m != 0), "{p} execnz {m:#x}");
        }
    }
}

#[test]
fn pc_operations_and_endpgm() {
    for p in ALL {
        let out = run(p, &[], &[1, 1, 1], |k| {
            // getpc gives the address of the next instruction: two in a row differ by
            // the first one's size (4 bytes)
            k.i("s_getpc_b64 s[20:21]");
            k.i("s_getpc_b64 s[22:23]");
            k.i("s_sub_u32 s24, s22, s20");
            k.i("v_mov_b32 v24, s24");
            // setpc: jump over the 8-byte move with a literal
            k.i("s_getpc_b64 s[20:21]");
            // s20 + 4 (s_add_u32 with an inline constant) + 4 (s_addc_u32) + 4
            // (s_setpc) + 8 (the move)
            k.i("s_add_u32 s20, s20, 20");
            k.i("s_addc_u32 s21, s21, 0");
            k.i("s_setpc_b64 s[20:21]");
            k.i("v_mov_b32 v28, 0x11111111");
            k.i("v_mov_b32 v28, 7");
            // swappc: jump to the target, the return address (the next instruction) in
            // the destination; the callee returns with setpc
            let callee = k.b.label();
            let after = k.b.label();
            k.i("s_getpc_b64 s[26:27]");
            k.b.inst("s_branch", &[Operand::Label(after)]).unwrap();
            k.b.bind(callee).unwrap();
            k.i("v_mov_b32 v32, 9");
            k.i("s_setpc_b64 s[30:31]");
            k.b.bind(after).unwrap();
            // the callee is 4 bytes after s26's address (past the s_branch)
            k.i("s_add_u32 s26, s26, 4");
            k.i("s_addc_u32 s27, s27, 0");
            k.i("s_swappc_b64 s[30:31], s[26:27]");
            k.i(match k.gen {
                Gen::Gfx11 => "v_add_nc_u32 v32, 1, v32",
                Gen::Gfx9 => "v_add_u32 v32, 1, v32",
                Gen::Gfx8 => "v_add_u32 v32, vcc, 1, v32",
            });
        });
        assert_eq!(out[0][0], 4, "{p} getpc");
        assert_eq!(out[1][0], 7, "{p} setpc skipped the move");
        assert_eq!(out[2][0], 10, "{p} swappc called and returned");
    }
    // nothing after s_endpgm runs (the harness's stores come after it: the outputs
    // keep their zero-filled buffers)
    for p in ALL {
        let out = run(p, &[], &[1], |k| {
            k.i("s_endpgm");
        });
        assert!(out[0].iter().all(|x| *x == 0), "{p} s_endpgm");
    }
}

#[test]
fn trap_is_reported() {
    for p in ALL {
        let e = run_full(p, &[], &[1], &[], &[], |k| {
            k.i("s_trap 2");
        })
        .unwrap_err();
        assert!(
            matches!(&e, EmuError::Exec(x) if matches!(x.fault, hsaco_emu::exec::Fault::Trap(2))),
            "{p}: {e}"
        );
    }
}

#[test]
fn counters_increase() {
    // (gfx11 has neither counter instruction)
    for p in ["gfx900", "gfx90a", "gfx803"] {
        let has_real = has(p, "s_memrealtime s[20:21]");
        let out = run(p, &[], &[1, 1], |k| {
            k.i("s_memtime s[20:21]");
            k.i("s_nop 0");
            k.i("s_memtime s[22:23]");
            k.wait();
            k.i("s_sub_u32 s24, s22, s20");
            k.i("s_subb_u32 s25, s23, s21");
            k.i("v_mov_b32 v24, s24");
            k.i("v_mov_b32 v25, s25");
            if has_real {
                k.i("s_memrealtime s[20:21]");
                k.i("s_memrealtime s[22:23]");
                k.wait();
                k.i("s_sub_u32 s24, s22, s20");
                k.i("v_mov_b32 v28, s24");
            } else {
                k.i("v_mov_b32 v28, 1");
            }
        });
        assert!(out[0][0] > 0, "{p} s_memtime advances");
        assert!(out[1][0] > 0, "{p} s_memrealtime advances");
    }
}

#[test]
fn mode_register() {
    let den = [1u32, 3];
    for p in ["gfx900", "gfx90a", "gfx803", "gfx1100"] {
        // MODE[7:4] is FP_DENORM (bits 5:4 f32); 0 flushes f32 denormals
        let out = run(p, &[in32(&den), in32(&den)], &[1, 1, 1], |k| {
            k.i("v_add_f32 v24, v8, v12");
            k.i("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0");
            k.i("v_add_f32 v28, v8, v12");
            k.i("s_getreg_b32 s20, hwreg(HW_REG_MODE, 4, 4)");
            k.i("s_mov_b32 s21, 3");
            k.i("s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s21");
            k.i("s_getreg_b32 s22, hwreg(HW_REG_MODE, 4, 4)");
            k.i("s_lshl_b32 s22, s22, 8");
            k.i("s_or_b32 s20, s20, s22");
            k.i("v_mov_b32 v32, s20");
        });
        assert_eq!(out[0][0], 2, "{p} denormals kept");
        assert_eq!(out[1][0], 0, "{p} denormals flushed after s_setreg_imm32");
        // the f16/f64 bits (7:6) stay 3 from the descriptor
        assert_eq!(out[2][0], 0xc | 0xf << 8, "{p} s_getreg of FP_DENORM");
    }
    // gfx10+: s_denorm_mode sets FP_DENORM directly; s_round_mode the rounding
    let out = run("gfx1100", &[in32(&den), in32(&den)], &[1, 1], |k| {
        k.i("s_denorm_mode 0xc");
        k.i("v_add_f32 v24, v8, v12");
        k.i("s_round_mode 0x3");
        k.i("s_getreg_b32 s20, hwreg(HW_REG_MODE, 0, 8)");
        k.i("v_mov_b32 v28, s20");
    });
    assert_eq!(out[0][0], 0, "gfx1100 s_denorm_mode 0xc flushes f32");
    assert_eq!(
        out[1][0], 0xc3,
        "gfx1100 MODE after s_denorm_mode/s_round_mode"
    );
}

#[test]
fn waits_and_nops_change_nothing() {
    let a: Vec<u32> = (0..64).collect();
    for p in GFX9 {
        let out = run(p, &[in32(&a)], &[1], |k| {
            k.i("v_mov_b32 v24, v8");
            for t in [
                "s_nop 7",
                "s_waitcnt vmcnt(0)",
                "s_sleep 1",
                "s_setprio 2",
                "s_dcache_wb",
                "s_dcache_inv",
                "s_icache_inv",
                "buffer_wbinvl1",
                "buffer_wbinvl1_vol",
                "s_waitcnt lgkmcnt(0)",
            ] {
                k.i(t);
            }
        });
        check(p, "waits", &out[0], |i| i as u32, 64);
    }
    let out = run("gfx1100", &[in32(&a)], &[1], |k| {
        k.i("v_mov_b32 v24, v8");
        for t in [
            "s_waitcnt_vscnt null, 0",
            "s_waitcnt_vmcnt null, 0",
            "s_waitcnt_lgkmcnt null, 0",
            "s_waitcnt_expcnt null, 0",
            "s_waitcnt_depctr 0xfffe",
            "s_delay_alu instid0(VALU_DEP_1)",
            "s_clause 0x1",
            "buffer_gl0_inv",
            "buffer_gl1_inv",
            "s_icache_inv",
        ] {
            k.i(t);
        }
    });
    check("gfx1100", "waits", &out[0], |i| i as u32, 32);
}

#[test]
fn barrier_waits_for_every_wave_of_the_group() {
    // two waves: each lane writes its value to LDS, s_barrier, then reads the value
    // of the same lane of the other wave. Wave 0 can only see wave 1's value if the
    // barrier held it until wave 1 had written.
    for p in ALL {
        let lanes = lanes(p);
        let block = 2 * lanes;
        let a: Vec<u32> = (0..block).map(|i| 0x5000 + i * 3).collect();
        let g11 = generation(p) == Gen::Gfx11;
        let out = run_group(
            p,
            2,
            &[in32(&a)],
            &[1],
            &[],
            &[("group_segment_fixed_size", 4096)],
            |k| {
                k.i("s_mov_b32 m0, -1");
                k.i("v_lshlrev_b32 v40, 2, v0");
                k.i(if g11 {
                    "ds_store_b32 v40, v8"
                } else {
                    "ds_write_b32 v40, v8"
                });
                k.wait();
                k.i("s_barrier");
                // the other wave's lane: (v0 + lanes) % block
                k.i(&format!("v_xor_b32 v41, {}, v0", lanes));
                k.i("v_lshlrev_b32 v41, 2, v41");
                k.i(if g11 {
                    "ds_load_b32 v24, v41"
                } else {
                    "ds_read_b32 v24, v41"
                });
                k.wait();
            },
        )
        .unwrap();
        let got = dwords(&out[0]);
        for i in 0..block as usize {
            assert_eq!(got[i], a[i ^ lanes as usize], "{p} lane {i}");
        }
    }
}
