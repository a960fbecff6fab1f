//! Implicit register reads and writes (`Decoder::implicit`, the `reads=`/`writes=` of the
//! descriptions, written by `scripts/implicit.py`).
//!
//! The spot-check table: instruction bytes come from `llvm-mc-22 -show-encoding` (LLVM
//! as the encoder only; the mnemonic check below makes sure the bytes are the
//! instruction the row is about); the expected registers come from the AMD ISA
//! reference manuals, cited per row (SI = Southern Islands (gfx6), CI = Sea Islands
//! (gfx7), GCN3 = gfx8, Vega = gfx9, RDNA1 = gfx10, RDNA3 = gfx11, RDNA4 = gfx12), never
//! from hsaco. The consistency checks run over every op of every generation.

use hsaco_isa::desc::{implicit as im, Form, Role};
use hsaco_isa::{generations, Decoder};

const S: u8 = im::SCC;
const V: u8 = im::VCC;
const E: u8 = im::EXEC;
const M: u8 = im::M0;

/// (processor, mnemonic, bytes, reads, writes, source in the manual).
type Row = (
    &'static str,
    &'static str,
    &'static [u8],
    u8,
    u8,
    &'static str,
);

#[rustfmt::skip]
const SPOT: &[Row] = &[
    // gfx6
    ("gfx600", "s_addc_u32", &[0x01, 0x02, 0x00, 0x82], S, S, "SI S_ADDC_U32: D = S0 + S1 + SCC; SCC = carry out"),
    ("gfx600", "s_cbranch_scc1", &[0x00, 0x00, 0x85, 0xbf], S, 0, "SI S_CBRANCH_SCC1: if SCC == 1 then PC = ..."),
    ("gfx600", "ds_read_b32", &[0x00, 0x00, 0xd8, 0xd8, 0x01, 0x00, 0x00, 0x00], M | E, 0, "SI DS: M0 holds the LDS size limit; EXEC masks lanes"),
    ("gfx600", "v_cmpx_eq_f32", &[0x00, 0x03, 0x24, 0x7c], E, E, "SI V_CMPX_EQ_F32: EXEC = VCC = (S0 == S1); vcc is printed"),
    ("gfx600", "v_cmpsx_eq_f32", &[0x00, 0x03, 0xa4, 0x7c], E, E, "SI V_CMPSX_EQ_F32: writes EXEC like V_CMPX"),
    ("gfx600", "v_interp_p1_f32", &[0x01, 0x00, 0x00, 0xc8], M | E, 0, "SI VINTRP: parameter from LDS, M0 = LDS parameter base"),
    ("gfx600", "s_and_saveexec_b64", &[0x02, 0x24, 0x80, 0xbe], E, E | S, "SI S_AND_SAVEEXEC_B64: D = EXEC; EXEC = S0 & EXEC; SCC = EXEC != 0"),
    ("gfx600", "v_readlane_b32", &[0x01, 0x05, 0x00, 0x02], 0, 0, "SI V_READLANE_B32: lane select, EXEC ignored"),
    ("gfx600", "s_sendmsg", &[0x01, 0x00, 0x90, 0xbf], M, 0, "SI S_SENDMSG: M0 supplies message data"),
    ("gfx600", "buffer_load_dword", &[0x00, 0x00, 0x31, 0xe0, 0x00, 0x00, 0x00, 0x80], M | E, 0, "SI MUBUF LDS=1: data to LDS at M0"),
    ("gfx600", "buffer_load_dword", &[0x00, 0x00, 0x30, 0xe0, 0x00, 0x00, 0x00, 0x80], E, 0, "SI MUBUF LDS=0: to VGPRs, no M0"),
    ("gfx600", "v_div_fmas_f32", &[0x00, 0x00, 0xde, 0xd2, 0x01, 0x05, 0x0e, 0x04], V | E, 0, "SI V_DIV_FMAS_F32: if VCC[lane] scale by 2**32"),
    ("gfx600", "s_movrels_b32", &[0x01, 0x2e, 0x80, 0xbe], M, 0, "SI S_MOVRELS_B32: D = SGPR[S0 + M0]"),
    ("gfx600", "s_cbranch_join", &[0x00, 0x32, 0x80, 0xbe], 0, E, "SI S_CBRANCH_JOIN: EXEC = SGPR[CSP]"),
    ("gfx600", "s_mov_b32", &[0x00, 0x03, 0xfc, 0xbe], 0, 0, "m0 is the printed destination, not implicit"),
    // gfx7
    ("gfx700", "s_cmp_eq_u32", &[0x00, 0x01, 0x06, 0xbf], 0, S, "CI S_CMP_EQ_U32: SCC = S0 == S1"),
    ("gfx700", "s_bitcmp1_b32", &[0x00, 0x81, 0x0d, 0xbf], 0, S, "CI S_BITCMP1_B32: SCC = S0[S1] == 1"),
    ("gfx700", "ds_write_b32", &[0x00, 0x00, 0x34, 0xd8, 0x00, 0x01, 0x00, 0x00], M | E, 0, "CI DS: M0 = LDS size limit"),
    ("gfx700", "flat_load_dword", &[0x00, 0x00, 0x30, 0xdc, 0x00, 0x00, 0x00, 0x00], E, 0, "CI FLAT: EXEC masks lanes"),
    ("gfx700", "s_cbranch_execz", &[0x00, 0x00, 0x88, 0xbf], E, 0, "CI S_CBRANCH_EXECZ: if EXEC == 0 jump"),
    // gfx8
    ("gfx803", "s_set_gpr_idx_on", &[0x00, 0x01, 0x11, 0xbf], M, M, "GCN3 S_SET_GPR_IDX_ON: M0[7:0] = S0; M0[15:12] = SIMM4 (other bits kept)"),
    ("gfx803", "s_set_gpr_idx_mode", &[0x01, 0x00, 0x9d, 0xbf], M, M, "GCN3 S_SET_GPR_IDX_MODE: M0[15:12] = SIMM4"),
    ("gfx803", "v_movrels_b32", &[0x01, 0x6f, 0x00, 0x7e], M | E, 0, "GCN3 V_MOVRELS_B32: D = VGPR[S0 + M0]"),
    ("gfx803", "v_interp_p1ll_f16", &[0x00, 0x00, 0x74, 0xd2, 0x00, 0x02, 0x02, 0x00], M | E, 0, "GCN3 V_INTERP_P1LL_F16: LDS parameter at M0"),
    ("gfx803", "s_cmovk_i32", &[0x01, 0x00, 0x80, 0xb0], S, 0, "GCN3 S_CMOVK_I32: if SCC then D = SIMM16"),
    ("gfx803", "v_cmpx_lt_f32", &[0x00, 0x00, 0x51, 0xd0, 0x00, 0x03, 0x02, 0x00], E, E, "GCN3 V_CMPX_LT_F32 (VOP3): EXEC = SDST = result"),
    ("gfx803", "s_ttracedata", &[0x00, 0x00, 0x96, 0xbf], M, 0, "GCN3 S_TTRACEDATA: send M0 as user data"),
    ("gfx803", "s_mul_i32", &[0x01, 0x02, 0x00, 0x92], 0, 0, "GCN3 S_MUL_I32: no SCC"),
    // gfx9
    ("gfx900", "ds_read_b32", &[0x00, 0x00, 0x6c, 0xd8, 0x01, 0x00, 0x00, 0x00], E, 0, "Vega: LDS instructions no longer use M0 as a limit"),
    ("gfx900", "ds_gws_init", &[0x00, 0x00, 0x33, 0xd9, 0x00, 0x00, 0x00, 0x00], M | E, 0, "Vega DS_GWS_INIT: M0[21:16] resource base"),
    ("gfx900", "ds_add_u32", &[0x00, 0x00, 0x01, 0xd8, 0x00, 0x01, 0x00, 0x00], M | E, 0, "Vega GDS=1: M0 = GDS base and size"),
    ("gfx900", "s_lshl1_add_u32", &[0x01, 0x02, 0x00, 0x97], 0, S, "Vega S_LSHL1_ADD_U32: SCC = overflow"),
    ("gfx900", "v_mov_b32", &[0xfe, 0x02, 0x00, 0x7e], M | E, 0, "Vega LDS_DIRECT source: LDS[M0]"),
    ("gfx900", "s_cbranch_vccz", &[0x00, 0x00, 0x86, 0xbf], V, 0, "Vega S_CBRANCH_VCCZ: if VCCZ jump"),
    ("gfx900", "v_add_co_u32", &[0x01, 0x05, 0x00, 0x32], E, 0, "Vega V_ADD_CO_U32: VCC = carry, printed"),
    ("gfx900", "v_cndmask_b32", &[0x01, 0x05, 0x00, 0x00], E, 0, "Vega V_CNDMASK_B32: VCC printed as src2"),
    ("gfx900", "v_writelane_b32", &[0x00, 0x00, 0x8a, 0xd2, 0x01, 0x00, 0x01, 0x00], 0, 0, "Vega V_WRITELANE_B32: ignores EXEC"),
    ("gfx900", "s_load_dword", &[0x00, 0x00, 0x02, 0xc0, 0x00, 0x00, 0x00, 0x00], 0, 0, "SMEM: scalar, no lane mask"),
    ("gfx942", "global_load_lds_dword", &[0x00, 0x80, 0xa8, 0xdc, 0x00, 0x00, 0x7f, 0x00], M | E, 0, "MI300 GLOBAL_LOAD_LDS_DWORD: LDS address from M0"),
    // gfx10
    ("gfx1010", "s_andn2_wrexec_b32", &[0x01, 0x47, 0x80, 0xbe], E, E | S, "RDNA1 S_ANDN2_WREXEC_B32: EXEC = S0 & ~EXEC; D = EXEC; SCC = EXEC != 0"),
    ("gfx1010", "v_cmpx_eq_f32", &[0x00, 0x03, 0x24, 0x7c], E, E, "RDNA1 V_CMPX_EQ_F32: EXEC = result, no VCC"),
    ("gfx1010", "v_cmpx_eq_f32", &[0x7e, 0x00, 0x12, 0xd4, 0x00, 0x03, 0x02, 0x00], E, E, "RDNA1 V_CMPX_EQ_F32 (VOP3): EXEC = result"),
    ("gfx1010", "v_readfirstlane_b32", &[0x01, 0x05, 0x00, 0x7e], E, 0, "RDNA1 V_READFIRSTLANE_B32: lane = first set bit of EXEC"),
    ("gfx1010", "v_interp_p1_f32_e32", &[0x01, 0x00, 0x00, 0xc8], M | E, 0, "RDNA1 VINTRP: M0 = LDS parameter base"),
    ("gfx1010", "ds_read_addtid_b32", &[0x00, 0x00, 0xc4, 0xda, 0x00, 0x00, 0x00, 0x00], M | E, 0, "RDNA1 DS_READ_ADDTID_B32: addr = M0.base + TID*4"),
    ("gfx1010", "exp", &[0x0f, 0x00, 0x00, 0xf8, 0x00, 0x00, 0x00, 0x00], E, 0, "RDNA1 EXP: EXEC gives the valid lanes"),
    ("gfx1010", "s_and_b32", &[0x01, 0x02, 0x00, 0x87], 0, S, "RDNA1 S_AND_B32: SCC = D != 0"),
    // gfx11
    ("gfx1100", "lds_param_load", &[0x00, 0x00, 0x00, 0xce], M | E, 0, "RDNA3 LDS_PARAM_LOAD: M0 = LDS parameter base / primitive mask"),
    ("gfx1100", "v_interp_p10_f32", &[0x00, 0x00, 0x00, 0xcd, 0x01, 0x05, 0x0e, 0x04], E, 0, "RDNA3 V_INTERP_P10_F32: parameter in a VGPR, no M0"),
    ("gfx1100", "v_dual_cndmask_b32", &[0x01, 0x05, 0x50, 0xca, 0x04, 0x01, 0x02, 0x00], V | E, 0, "RDNA3 VOPD V_DUAL_CNDMASK_B32 (X): VCC selects"),
    ("gfx1100", "v_dual_mov_b32", &[0x04, 0x01, 0x12, 0xca, 0x01, 0x05, 0x00, 0x03], V | E, 0, "RDNA3 VOPD: Y half V_DUAL_CNDMASK_B32 reads VCC"),
    ("gfx1200", "s_cmp_lt_f32", &[0x00, 0x01, 0x41, 0xbf], 0, S, "RDNA4 S_CMP_LT_F32: SCC = S0 < S1"),
    ("gfx1100", "s_and_not1_saveexec_b32", &[0x01, 0x30, 0x80, 0xbe], E, E | S, "RDNA3 S_AND_NOT1_SAVEEXEC_B32: SCC = EXEC != 0"),
    ("gfx1100", "s_sendmsg_rtn_b32", &[0x80, 0x4c, 0x80, 0xbe], 0, 0, "RDNA3 S_SENDMSG_RTN_B32: message type in SSRC0, result in SDST, no M0"),
    ("gfx1100", "v_writelane_b32", &[0x00, 0x00, 0x61, 0xd7, 0x01, 0x00, 0x01, 0x00], 0, 0, "RDNA3 V_WRITELANE_B32: ignores EXEC"),
    ("gfx1100", "ds_load_addtid_b32", &[0x00, 0x00, 0xc4, 0xda, 0x00, 0x00, 0x00, 0x00], M | E, 0, "RDNA3 DS_LOAD_ADDTID_B32: addr = M0.base + TID*4"),
    // gfx12
    ("gfx1200", "s_add_co_ci_u32", &[0x01, 0x02, 0x00, 0x82], S, S, "RDNA4 S_ADD_CO_CI_U32: D = S0 + S1 + SCC; SCC = carry"),
    ("gfx1200", "s_cselect_b32", &[0x01, 0x02, 0x00, 0x98], S, 0, "RDNA4 S_CSELECT_B32: D = SCC ? S0 : S1"),
    ("gfx1200", "ds_param_load", &[0x00, 0x00, 0x00, 0xce], M | E, 0, "RDNA4 DS_PARAM_LOAD: M0 = LDS parameter base"),
    ("gfx1200", "s_cbranch_execnz", &[0x00, 0x00, 0xa6, 0xbf], E, 0, "RDNA4 S_CBRANCH_EXECNZ"),
    ("gfx1200", "s_barrier_signal_isfirst", &[0xc1, 0x4f, 0x80, 0xbe], 0, S, "RDNA4 S_BARRIER_SIGNAL_ISFIRST: SCC = first to signal"),
    ("gfx1200", "v_cmpx_class_f32", &[0x00, 0x03, 0xfc, 0x7d], E, E, "RDNA4 V_CMPX_CLASS_F32: EXEC = result"),
    ("gfx1200", "s_sendmsg", &[0x01, 0x00, 0xb6, 0xbf], M, 0, "RDNA4 S_SENDMSG: M0 message data"),
    ("gfx1200", "ds_append", &[0x00, 0x00, 0xf8, 0xd8, 0x00, 0x00, 0x00, 0x00], M | E, 0, "RDNA4 DS_APPEND: M0 base"),
    ("gfx1200", "global_load_b32", &[0x7c, 0x00, 0x05, 0xee, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], E, 0, "RDNA4 VGLOBAL: EXEC masks lanes"),
    ("gfx1200", "s_mul_hi_u32", &[0x01, 0x02, 0x80, 0x96], 0, 0, "RDNA4 S_MUL_HI_U32: no SCC"),
];

#[test]
fn spot_checks_from_the_manuals() {
    let mut bad = Vec::new();
    for &(proc, mn, bytes, reads, writes, why) in SPOT {
        let dec = Decoder::for_processor(proc).expect(proc);
        let inst = dec
            .decode(bytes)
            .unwrap_or_else(|e| panic!("{proc} {mn}: {e:?}"));
        assert_eq!(dec.op(&inst).mnemonic, mn, "{proc}: bytes of the row");
        let got = dec.implicit(&inst);
        if got != (reads, writes) {
            bad.push(format!(
                "{proc} {}: got reads {:#x} writes {:#x}, want {reads:#x} {writes:#x} ({why})",
                dec.text(&inst),
                got.0,
                got.1
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_generation_has_spot_checks() {
    for isa in generations() {
        let n = SPOT
            .iter()
            .filter(|r| {
                Decoder::for_processor(r.0).map(|d| d.isa().generation) == Some(isa.generation)
            })
            .count();
        assert!(n >= 5, "{}: {n} spot checks", isa.generation);
    }
}

fn is_scalar(form: Form) -> bool {
    matches!(
        form,
        Form::Sop1 | Form::Sop2 | Form::Sopk | Form::Sopc | Form::Sopp | Form::Smem
    )
}

/// Every op of every generation, with whether any of its encodings is a vector one.
fn all_ops() -> impl Iterator<Item = (&'static str, &'static hsaco_isa::OpDesc, bool)> {
    generations().iter().flat_map(|isa| {
        isa.ops.iter().map(move |op| {
            let vector = op
                .encodings
                .iter()
                .any(|&(e, _)| !is_scalar(isa.encodings[usize::from(e)].form));
            (isa.generation, op, vector)
        })
    })
}

#[test]
fn family_rules() {
    let mut bad = Vec::new();
    let mut check = |gen: &str, mn: &str, ok: bool, what: &str| {
        if !ok {
            bad.push(format!("{gen} {mn}: {what}"));
        }
    };
    for (gen, op, vector) in all_ops() {
        let mn = op.mnemonic;
        let (r, w) = (op.reads, op.writes);
        if mn.starts_with("s_cbranch_scc") {
            check(gen, mn, r & S != 0, "s_cbranch_scc* reads SCC");
        }
        if mn.starts_with("s_cbranch_vcc") {
            check(gen, mn, r & V != 0, "s_cbranch_vcc* reads VCC");
        }
        if mn.starts_with("s_cbranch_exec") {
            check(gen, mn, r & E != 0, "s_cbranch_exec* reads EXEC");
        }
        if mn.starts_with("v_cmpx_") || mn.starts_with("v_cmpsx_") {
            check(gen, mn, w & E != 0, "v_cmpx writes EXEC");
            check(
                gen,
                mn,
                vector,
                "v_cmpx is a vector op (reads EXEC by the rule)",
            );
        }
        if mn.contains("_saveexec_") || mn.contains("_wrexec_") {
            check(
                gen,
                mn,
                r & E != 0 && w & (E | S) == E | S,
                "saveexec/wrexec: EXEC -> EXEC, SCC",
            );
        }
        if mn.starts_with("s_cmp_") || mn.starts_with("s_cmpk_") || mn.starts_with("s_bitcmp") {
            check(gen, mn, w & S != 0 && r & S == 0, "compare writes SCC");
        }
        if mn.starts_with("s_cselect_") || mn.starts_with("s_cmov") {
            check(
                gen,
                mn,
                r & S != 0 && w & S == 0,
                "select/cmov reads SCC only",
            );
        }
        if [
            "s_addc_u32",
            "s_subb_u32",
            "s_add_co_ci_u32",
            "s_sub_co_ci_u32",
        ]
        .contains(&mn)
        {
            check(gen, mn, r & S != 0 && w & S != 0, "carry in and out in SCC");
        }
        if mn.starts_with("s_movrel") || mn.starts_with("v_movrel") || mn == "s_sendmsg" {
            check(gen, mn, r & M != 0, "reads M0");
        }
        if mn.starts_with("ds_gws_") || mn == "ds_append" || mn == "ds_consume" {
            check(gen, mn, r & M != 0, "GWS/append/consume read M0");
        }
        if mn.starts_with("v_div_fmas_") {
            check(gen, mn, r & V != 0, "v_div_fmas reads VCC");
        }
        if mn.starts_with("ds_") && matches!(gen, "gfx6" | "gfx7" | "gfx8") {
            check(gen, mn, r & M != 0, "gfx6-gfx8 DS reads M0 (LDS limit)");
        }
        // SALU ops that compute no condition write no SCC
        if [
            "s_mov_b32",
            "s_mov_b64",
            "s_movk_i32",
            "s_mul_i32",
            "s_getpc_b64",
            "s_nop",
        ]
        .contains(&mn)
        {
            check(gen, mn, r == 0 && w == 0, "no implicit registers");
        }
        // the lane-mask exception only makes sense for vector ops
        if r & im::UNMASKED != 0 {
            check(gen, mn, vector, "`unmasked` on a scalar op");
            check(
                gen,
                mn,
                mn == "v_readlane_b32" || mn == "v_writelane_b32",
                "unexpected `unmasked`",
            );
        }
        // EXEC as the lane mask is the encoding rule's, not listed per op
        if vector && !(mn.starts_with("v_cmpx_") || mn.starts_with("v_cmpsx_")) {
            check(gen, mn, r & E == 0 && w & E == 0, "vector op lists EXEC");
        }
        check(
            gen,
            mn,
            (r | w) & !(im::REGS | im::UNMASKED) == 0 && w & im::UNMASKED == 0,
            "bits",
        );
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A register printed as an operand (fixed, or the `field|reg` alternative) is not also
/// listed as implicit.
#[test]
fn printed_registers_are_not_implicit() {
    // scalar encoding values: vcc (106/107), m0 (124), exec (126/127), scc (253)
    let bit = |code: u8| match code {
        106 | 107 => V,
        124 => M,
        126 | 127 => E,
        253 => S,
        _ => 0,
    };
    let mut bad = Vec::new();
    for (gen, op, _) in all_ops() {
        for od in op.operands {
            let b = match od.role {
                Role::Fixed(c) | Role::FieldOr(_, c) => bit(c),
                _ => 0,
            };
            if (op.reads | op.writes) & b != 0 {
                bad.push(format!("{gen} {}", op.mnemonic));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Lower bounds of the per-op annotation (ops with any reads=/writes=) per generation,
/// so that a sweep that drops the tokens fails here.
#[test]
fn annotated_op_counts() {
    for isa in generations() {
        let n = isa.ops.iter().filter(|o| o.reads | o.writes != 0).count();
        let min = match isa.generation {
            "gfx6" | "gfx7" | "gfx8" => 300,
            _ => 200,
        };
        assert!(
            n >= min,
            "{}: only {n} ops carry implicit registers",
            isa.generation
        );
    }
}
