//! The operations the emulator implements: ONE list, keyed by operation.
//!
//! Each row names an operation ([`Op`]) and the mnemonics it has in the instruction
//! set descriptions of `hsaco-isa` (`v_add_u32` of gfx9 is `v_add_nc_u32` of gfx10+;
//! `v_add_co_u32` of gfx9 is `v_add_i32` of gfx8). The semantics of an operation are
//! written once (in `exec.rs`, one `match` arm per [`Op`]) and serve every generation
//! whose description has one of its mnemonics. [`coverage`] lists, per generation,
//! the operations of its description that are implemented and those that are not;
//! `hsaco run --coverage` prints it.

use hsaco_isa::IsaDesc;

macro_rules! ops {
    ($($name:ident = [$($mn:literal),+],)*) => {
        /// An implemented operation.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum Op {
            /// Not implemented (the translator keeps the instruction so that running
            /// it is an error naming it).
            Unimplemented,
            /// Bytes the decoder could not decode.
            Invalid,
            $($name,)*
        }

        /// Every implemented operation and its mnemonics.
        pub const OPS: &[(Op, &[&str])] = &[$((Op::$name, &[$($mn),+]),)*];
    };
}

ops! {
    // ---- SOPP: program control
    SEndpgm = ["s_endpgm"],
    SNop = ["s_nop", "s_waitcnt", "s_sleep", "s_setprio", "s_dcache_wb", "s_dcache_inv",
            "s_icache_inv", "buffer_wbinvl1", "buffer_wbinvl1_vol", "s_waitcnt_vscnt",
            "s_waitcnt_vmcnt", "s_waitcnt_lgkmcnt", "s_waitcnt_expcnt", "s_waitcnt_depctr",
            "s_delay_alu", "s_clause", "s_inst_prefetch", "s_code_end", "s_ttracedata",
            "buffer_gl0_inv", "buffer_gl1_inv", "buffer_wbl2", "buffer_inv", "buffer_wbinvl1_sc",
            "s_setkill", "s_set_inst_prefetch_distance", "s_sendmsg",
            "s_icache_inv_b", "global_wb", "global_inv", "s_dcache_wb_vol", "s_dcache_inv_vol", "s_wait_loadcnt", "s_wait_storecnt",
            "s_wait_kmcnt", "s_wait_dscnt", "s_wait_samplecnt", "s_wait_bvhcnt",
            "s_wait_expcnt", "s_wait_alu", "s_wait_loadcnt_dscnt", "s_wait_storecnt_dscnt",
            "s_wakeup", "s_barrier_wait"],
    // gfx12: `s_barrier_signal -1` + `s_barrier_wait -1` are the work-group barrier
    // (translation refuses other barrier ids)
    SBarrier = ["s_barrier", "s_barrier_signal"],
    SBranch = ["s_branch"],
    SCbranchScc0 = ["s_cbranch_scc0"],
    SCbranchScc1 = ["s_cbranch_scc1"],
    SCbranchVccz = ["s_cbranch_vccz"],
    SCbranchVccnz = ["s_cbranch_vccnz"],
    SCbranchExecz = ["s_cbranch_execz"],
    SCbranchExecnz = ["s_cbranch_execnz"],
    STrap = ["s_trap"],
    // ---- SOP1
    SMovB32 = ["s_mov_b32"],
    SMovB64 = ["s_mov_b64"],
    SCmovB32 = ["s_cmov_b32"],
    SCmovB64 = ["s_cmov_b64"],
    SNotB32 = ["s_not_b32"],
    SNotB64 = ["s_not_b64"],
    SBrevB32 = ["s_brev_b32"],
    SBcnt1B32 = ["s_bcnt1_i32_b32"],
    SBcnt1B64 = ["s_bcnt1_i32_b64"],
    SFf1B32 = ["s_ff1_i32_b32", "s_ctz_i32_b32"],
    SFf1B64 = ["s_ff1_i32_b64", "s_ctz_i32_b64"],
    SFlbitB32 = ["s_flbit_i32_b32", "s_clz_i32_u32"],
    SSextI8 = ["s_sext_i32_i8"],
    SSextI16 = ["s_sext_i32_i16"],
    SAbsI32 = ["s_abs_i32"],
    SGetpcB64 = ["s_getpc_b64"],
    SSetpcB64 = ["s_setpc_b64"],
    SSwappcB64 = ["s_swappc_b64"],
    SAndSaveexecB64 = ["s_and_saveexec_b64"],
    SOrSaveexecB64 = ["s_or_saveexec_b64"],
    SXorSaveexecB64 = ["s_xor_saveexec_b64"],
    SAndn2SaveexecB64 = ["s_andn2_saveexec_b64", "s_and_not1_saveexec_b64"],
    SOrn2SaveexecB64 = ["s_orn2_saveexec_b64", "s_or_not1_saveexec_b64"],
    SAndSaveexecB32 = ["s_and_saveexec_b32"],
    SOrSaveexecB32 = ["s_or_saveexec_b32"],
    SXorSaveexecB32 = ["s_xor_saveexec_b32"],
    SAndn2SaveexecB32 = ["s_andn2_saveexec_b32", "s_and_not1_saveexec_b32"],
    // ---- SOP2
    SAddU32 = ["s_add_u32", "s_add_co_u32"],
    SSubU32 = ["s_sub_u32", "s_sub_co_u32"],
    SAddcU32 = ["s_addc_u32", "s_add_co_ci_u32"],
    SSubbU32 = ["s_subb_u32", "s_sub_co_ci_u32"],
    SAddI32 = ["s_add_i32", "s_add_co_i32"],
    SSubI32 = ["s_sub_i32", "s_sub_co_i32"],
    SAddNcU64 = ["s_add_nc_u64"],
    SSubNcU64 = ["s_sub_nc_u64"],
    SMulI32 = ["s_mul_i32"],
    SMulHiU32 = ["s_mul_hi_u32"],
    SMulHiI32 = ["s_mul_hi_i32"],
    SAndB32 = ["s_and_b32"],
    SOrB32 = ["s_or_b32"],
    SXorB32 = ["s_xor_b32"],
    SAndn2B32 = ["s_andn2_b32", "s_and_not1_b32"],
    SOrn2B32 = ["s_orn2_b32", "s_or_not1_b32"],
    SNandB32 = ["s_nand_b32"],
    SNorB32 = ["s_nor_b32"],
    SXnorB32 = ["s_xnor_b32"],
    SAndB64 = ["s_and_b64"],
    SOrB64 = ["s_or_b64"],
    SXorB64 = ["s_xor_b64"],
    SAndn2B64 = ["s_andn2_b64", "s_and_not1_b64"],
    SOrn2B64 = ["s_orn2_b64", "s_or_not1_b64"],
    SNandB64 = ["s_nand_b64"],
    SNorB64 = ["s_nor_b64"],
    SXnorB64 = ["s_xnor_b64"],
    SLshlB32 = ["s_lshl_b32"],
    SLshrB32 = ["s_lshr_b32"],
    SAshrI32 = ["s_ashr_i32"],
    SLshlB64 = ["s_lshl_b64"],
    SLshrB64 = ["s_lshr_b64"],
    SAshrI64 = ["s_ashr_i64"],
    SLshl1AddU32 = ["s_lshl1_add_u32"],
    SLshl2AddU32 = ["s_lshl2_add_u32"],
    SLshl3AddU32 = ["s_lshl3_add_u32"],
    SLshl4AddU32 = ["s_lshl4_add_u32"],
    SMinI32 = ["s_min_i32"],
    SMinU32 = ["s_min_u32"],
    SMaxI32 = ["s_max_i32"],
    SMaxU32 = ["s_max_u32"],
    SCselectB32 = ["s_cselect_b32"],
    SCselectB64 = ["s_cselect_b64"],
    SBfeU32 = ["s_bfe_u32"],
    SBfeI32 = ["s_bfe_i32"],
    SBfmB32 = ["s_bfm_b32"],
    SPackLlB32B16 = ["s_pack_ll_b32_b16"],
    SAbsdiffI32 = ["s_absdiff_i32"],
    // ---- SOPK
    SMovkI32 = ["s_movk_i32"],
    SCmovkI32 = ["s_cmovk_i32"],
    SAddkI32 = ["s_addk_i32", "s_addk_co_i32"],
    SMulkI32 = ["s_mulk_i32"],
    SCmpkEqI32 = ["s_cmpk_eq_i32"],
    SCmpkLgI32 = ["s_cmpk_lg_i32"],
    SCmpkGtI32 = ["s_cmpk_gt_i32"],
    SCmpkGeI32 = ["s_cmpk_ge_i32"],
    SCmpkLtI32 = ["s_cmpk_lt_i32"],
    SCmpkLeI32 = ["s_cmpk_le_i32"],
    SCmpkEqU32 = ["s_cmpk_eq_u32"],
    SCmpkLgU32 = ["s_cmpk_lg_u32"],
    SCmpkGtU32 = ["s_cmpk_gt_u32"],
    SCmpkGeU32 = ["s_cmpk_ge_u32"],
    SCmpkLtU32 = ["s_cmpk_lt_u32"],
    SCmpkLeU32 = ["s_cmpk_le_u32"],
    // ---- SOPC
    SCmpEqI32 = ["s_cmp_eq_i32"],
    SCmpLgI32 = ["s_cmp_lg_i32"],
    SCmpGtI32 = ["s_cmp_gt_i32"],
    SCmpGeI32 = ["s_cmp_ge_i32"],
    SCmpLtI32 = ["s_cmp_lt_i32"],
    SCmpLeI32 = ["s_cmp_le_i32"],
    SCmpEqU32 = ["s_cmp_eq_u32"],
    SCmpLgU32 = ["s_cmp_lg_u32"],
    SCmpGtU32 = ["s_cmp_gt_u32"],
    SCmpGeU32 = ["s_cmp_ge_u32"],
    SCmpLtU32 = ["s_cmp_lt_u32"],
    SCmpLeU32 = ["s_cmp_le_u32"],
    SCmpEqU64 = ["s_cmp_eq_u64"],
    SCmpLgU64 = ["s_cmp_lg_u64"],
    SBitcmp0B32 = ["s_bitcmp0_b32"],
    SBitcmp1B32 = ["s_bitcmp1_b32"],
    // ---- SMEM
    SLoad = ["s_load_dword", "s_load_dwordx2", "s_load_dwordx4", "s_load_dwordx8",
             "s_load_dwordx16", "s_load_b32", "s_load_b64", "s_load_b128", "s_load_b256",
             "s_load_b512", "s_load_b96", "s_load_dwordx3"],
    SMemtime = ["s_memtime"],
    SMemrealtime = ["s_memrealtime"],
    // ---- VOP1 / VOP2 / VOP3: integer
    VMovB32 = ["v_mov_b32"],
    VMovB64 = ["v_mov_b64"],
    VReadfirstlaneB32 = ["v_readfirstlane_b32"],
    VReadlaneB32 = ["v_readlane_b32"],
    VWritelaneB32 = ["v_writelane_b32"],
    VPermlane16B32 = ["v_permlane16_b32"],
    VPermlanex16B32 = ["v_permlanex16_b32"],
    VCndmaskB32 = ["v_cndmask_b32"],
    VAddU32 = ["v_add_u32", "v_add_nc_u32"],
    VSubU32 = ["v_sub_u32", "v_sub_nc_u32"],
    VSubrevU32 = ["v_subrev_u32", "v_subrev_nc_u32"],
    VAddCoU32 = ["v_add_co_u32", "v_add_i32"],
    VSubCoU32 = ["v_sub_co_u32", "v_sub_i32"],
    VSubrevCoU32 = ["v_subrev_co_u32", "v_subrev_i32"],
    VAddcCoU32 = ["v_addc_co_u32", "v_addc_u32", "v_add_co_ci_u32"],
    VSubbCoU32 = ["v_subb_co_u32", "v_subb_u32", "v_sub_co_ci_u32"],
    VSubbrevCoU32 = ["v_subbrev_co_u32", "v_subbrev_u32", "v_subrev_co_ci_u32"],
    VAndB32 = ["v_and_b32"],
    VOrB32 = ["v_or_b32"],
    VXorB32 = ["v_xor_b32"],
    VNotB32 = ["v_not_b32"],
    VLshlrevB32 = ["v_lshlrev_b32"],
    VLshrrevB32 = ["v_lshrrev_b32"],
    VAshrrevI32 = ["v_ashrrev_i32"],
    VLshlrevB64 = ["v_lshlrev_b64"],
    VLshrrevB64 = ["v_lshrrev_b64"],
    VAshrrevI64 = ["v_ashrrev_i64"],
    VLshlAddU32 = ["v_lshl_add_u32"],
    VAddLshlU32 = ["v_add_lshl_u32"],
    VLshlOrB32 = ["v_lshl_or_b32"],
    VAndOrB32 = ["v_and_or_b32"],
    VOr3B32 = ["v_or3_b32"],
    VXor3B32 = ["v_xor3_b32"],
    VXadU32 = ["v_xad_u32"],
    VAdd3U32 = ["v_add3_u32"],
    VMulLoU32 = ["v_mul_lo_u32"],
    VMulHiU32 = ["v_mul_hi_u32"],
    VMulHiI32 = ["v_mul_hi_i32"],
    VMulU32U24 = ["v_mul_u32_u24"],
    VMulI32I24 = ["v_mul_i32_i24"],
    VMulHiU32U24 = ["v_mul_hi_u32_u24"],
    VMadU32U24 = ["v_mad_u32_u24"],
    VMadI32I24 = ["v_mad_i32_i24"],
    VMadU64U32 = ["v_mad_u64_u32", "v_mad_co_u64_u32"],
    VMadI64I32 = ["v_mad_i64_i32", "v_mad_co_i64_i32"],
    VLshlAddU64 = ["v_lshl_add_u64"],
    VMinI32 = ["v_min_i32"],
    VMaxI32 = ["v_max_i32"],
    VMinU32 = ["v_min_u32"],
    VMaxU32 = ["v_max_u32"],
    VBfeU32 = ["v_bfe_u32"],
    VBfeI32 = ["v_bfe_i32"],
    VBfiB32 = ["v_bfi_b32"],
    VBfmB32 = ["v_bfm_b32"],
    VAlignbitB32 = ["v_alignbit_b32"],
    VAlignbyteB32 = ["v_alignbyte_b32"],
    VPermB32 = ["v_perm_b32"],
    VBfrevB32 = ["v_bfrev_b32"],
    VFfbhU32 = ["v_ffbh_u32", "v_clz_i32_u32"],
    VFfblB32 = ["v_ffbl_b32", "v_ctz_i32_b32"],
    VFfbhI32 = ["v_ffbh_i32", "v_cls_i32"],
    VBcntU32B32 = ["v_bcnt_u32_b32"],
    VMbcntLoU32B32 = ["v_mbcnt_lo_u32_b32"],
    VMbcntHiU32B32 = ["v_mbcnt_hi_u32_b32"],
    // ---- float 32
    // the SALU float operations of gfx12 are the VALU ones on one value
    VAddF32 = ["v_add_f32", "s_add_f32"],
    VSubF32 = ["v_sub_f32", "s_sub_f32"],
    VSubrevF32 = ["v_subrev_f32"],
    VMulF32 = ["v_mul_f32", "s_mul_f32"],
    VFmaF32 = ["v_fma_f32"],
    VFmacF32 = ["v_fmac_f32"],
    VMadF32 = ["v_mad_f32"],
    VMacF32 = ["v_mac_f32"],
    VMadmkF32 = ["v_madmk_f32"],
    VMadakF32 = ["v_madak_f32"],
    VFmamkF32 = ["v_fmamk_f32"],
    VFmaakF32 = ["v_fmaak_f32"],
    VMinF32 = ["v_min_f32", "v_min_num_f32", "s_min_num_f32"],
    VMaxF32 = ["v_max_f32", "v_max_num_f32", "s_max_num_f32"],
    VCvtF32U32 = ["v_cvt_f32_u32", "s_cvt_f32_u32"],
    VCvtF32I32 = ["v_cvt_f32_i32", "s_cvt_f32_i32"],
    VCvtU32F32 = ["v_cvt_u32_f32", "s_cvt_u32_f32"],
    VCvtI32F32 = ["v_cvt_i32_f32", "s_cvt_i32_f32"],
    VRcpF32 = ["v_rcp_f32"],
    VRcpIflagF32 = ["v_rcp_iflag_f32"],
    VTruncF32 = ["v_trunc_f32", "s_trunc_f32"],
    VFloorF32 = ["v_floor_f32", "s_floor_f32"],
    VCeilF32 = ["v_ceil_f32", "s_ceil_f32"],
    VSqrtF32 = ["v_sqrt_f32"],
    VLdexpF32 = ["v_ldexp_f32"],
    // ---- float 64
    VAddF64 = ["v_add_f64"],
    VMulF64 = ["v_mul_f64"],
    VFmaF64 = ["v_fma_f64"],
    VMinF64 = ["v_min_f64", "v_min_num_f64"],
    VMaxF64 = ["v_max_f64", "v_max_num_f64"],
    VCvtF64F32 = ["v_cvt_f64_f32"],
    VCvtF32F64 = ["v_cvt_f32_f64"],
    VCvtF64I32 = ["v_cvt_f64_i32"],
    VCvtF64U32 = ["v_cvt_f64_u32"],
    VCvtI32F64 = ["v_cvt_i32_f64"],
    VCvtU32F64 = ["v_cvt_u32_f64"],
    // ---- f32 / f64 more
    VMax3F32 = ["v_max3_f32"],
    VMin3F32 = ["v_min3_f32"],
    VMed3F32 = ["v_med3_f32", "v_med3_num_f32"],
    VMax3I32 = ["v_max3_i32"],
    VMin3I32 = ["v_min3_i32"],
    VMed3I32 = ["v_med3_i32"],
    VMax3U32 = ["v_max3_u32"],
    VMin3U32 = ["v_min3_u32"],
    VMed3U32 = ["v_med3_u32"],
    VDivScaleF32 = ["v_div_scale_f32"],
    VDivFmasF32 = ["v_div_fmas_f32"],
    VDivFixupF32 = ["v_div_fixup_f32"],
    VRsqF32 = ["v_rsq_f32"],
    VExpF32 = ["v_exp_f32"],
    VLogF32 = ["v_log_f32"],
    VRndneF32 = ["v_rndne_f32", "s_rndne_f32"],
    VFractF32 = ["v_fract_f32"],
    VFrexpMantF32 = ["v_frexp_mant_f32"],
    VFrexpExpI32F32 = ["v_frexp_exp_i32_f32"],
    VFmacF64 = ["v_fmac_f64"],
    VRcpF64 = ["v_rcp_f64"],
    VRsqF64 = ["v_rsq_f64"],
    VSqrtF64 = ["v_sqrt_f64"],
    VTruncF64 = ["v_trunc_f64"],
    VFloorF64 = ["v_floor_f64"],
    VCeilF64 = ["v_ceil_f64"],
    VRndneF64 = ["v_rndne_f64"],
    VFractF64 = ["v_fract_f64"],
    VLdexpF64 = ["v_ldexp_f64"],
    VDivScaleF64 = ["v_div_scale_f64"],
    VDivFmasF64 = ["v_div_fmas_f64"],
    VDivFixupF64 = ["v_div_fixup_f64"],
    VFrexpMantF64 = ["v_frexp_mant_f64"],
    VFrexpExpI32F64 = ["v_frexp_exp_i32_f64"],
    VCmpClassF32 = ["v_cmp_class_f32", "v_cmpx_class_f32"],
    VCmpClassF64 = ["v_cmp_class_f64", "v_cmpx_class_f64"],
    // ---- 16-bit
    VAddF16 = ["v_add_f16"],
    VSubF16 = ["v_sub_f16"],
    VSubrevF16 = ["v_subrev_f16"],
    VMulF16 = ["v_mul_f16"],
    VMaxF16 = ["v_max_f16", "v_max_num_f16"],
    VMinF16 = ["v_min_f16", "v_min_num_f16"],
    VFmaF16 = ["v_fma_f16"],
    VFmacF16 = ["v_fmac_f16"],
    VMacF16 = ["v_mac_f16"],
    VMovB16 = ["v_mov_b16"],
    VNotB16 = ["v_not_b16"],
    VAndB16 = ["v_and_b16"],
    VOrB16 = ["v_or_b16"],
    VXorB16 = ["v_xor_b16"],
    VMadF16 = ["v_mad_f16"],
    VCvtF32F16 = ["v_cvt_f32_f16"],
    VCvtF16F32 = ["v_cvt_f16_f32"],
    VCvtPkrtzF16F32 = ["v_cvt_pkrtz_f16_f32", "v_cvt_pk_rtz_f16_f32"],
    VPackB32F16 = ["v_pack_b32_f16"],
    VAddU16 = ["v_add_u16", "v_add_nc_u16"],
    VSubU16 = ["v_sub_u16", "v_sub_nc_u16"],
    VSubrevU16 = ["v_subrev_u16"],
    VMulLoU16 = ["v_mul_lo_u16"],
    VLshlrevB16 = ["v_lshlrev_b16"],
    VLshrrevB16 = ["v_lshrrev_b16"],
    VAshrrevI16 = ["v_ashrrev_i16"],
    VMaxU16 = ["v_max_u16"],
    VMaxI16 = ["v_max_i16"],
    VMinU16 = ["v_min_u16"],
    VMinI16 = ["v_min_i16"],
    VMadU16 = ["v_mad_u16"],
    VAddI16 = ["v_add_i16", "v_add_nc_i16"],
    VSubI16 = ["v_sub_i16", "v_sub_nc_i16"],
    // ---- packed (VOP3P)
    VPkAddF16 = ["v_pk_add_f16"],
    VPkMulF16 = ["v_pk_mul_f16"],
    VPkFmaF16 = ["v_pk_fma_f16"],
    VPkMaxF16 = ["v_pk_max_f16", "v_pk_max_num_f16"],
    VPkMinF16 = ["v_pk_min_f16", "v_pk_min_num_f16"],
    VPkAddU16 = ["v_pk_add_u16"],
    VPkSubU16 = ["v_pk_sub_u16"],
    VPkMulLoU16 = ["v_pk_mul_lo_u16"],
    VPkMovB32 = ["v_pk_mov_b32"],
    VPkFmaF32 = ["v_pk_fma_f32"],
    VPkAddF32 = ["v_pk_add_f32"],
    VPkMulF32 = ["v_pk_mul_f32"],
    // ---- dot products and matrix operations (semantics and layouts in `matrix.rs`)
    VDot2F32F16 = ["v_dot2_f32_f16"],
    // the accumulator is the destination (gfx11 renamed it v_dot2acc)
    VDot2cF32F16 = ["v_dot2c_f32_f16", "v_dot2acc_f32_f16"],
    VDot4I32I8 = ["v_dot4_i32_i8"],
    VDot4cI32I8 = ["v_dot4c_i32_i8"],
    VMfmaF32x16x16x4F32 = ["v_mfma_f32_16x16x4f32", "v_mfma_f32_16x16x4_f32"],
    VMfmaF64x16x16x4F64 = ["v_mfma_f64_16x16x4f64", "v_mfma_f64_16x16x4_f64"],
    VWmmaF32x16x16x16F16 = ["v_wmma_f32_16x16x16_f16"],
    // moves between VGPRs and AGPRs (gfx90a+: AGPRs are VGPR rows 256+)
    VAccvgprMov = ["v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_accvgpr_mov_b32"],
    // ---- hardware registers
    SGetreg = ["s_getreg_b32"],
    SSetreg = ["s_setreg_b32"],
    SSetregImm = ["s_setreg_imm32_b32"],
    SDenormMode = ["s_denorm_mode"],
    SRoundMode = ["s_round_mode"],
    // ---- VOPC
    VCmp = ["v_cmp_<cond>_<type>", "v_cmpx_<cond>_<type>"],
    // ---- DS
    DsReadB32 = ["ds_read_b32", "ds_load_b32"],
    DsReadB64 = ["ds_read_b64", "ds_load_b64"],
    DsReadB128 = ["ds_read_b128", "ds_load_b128"],
    DsReadU8 = ["ds_read_u8", "ds_load_u8"],
    DsReadI8 = ["ds_read_i8", "ds_load_i8"],
    DsReadU16 = ["ds_read_u16", "ds_load_u16"],
    DsReadI16 = ["ds_read_i16", "ds_load_i16"],
    DsRead2B32 = ["ds_read2_b32", "ds_load_2addr_b32"],
    DsRead2st64B32 = ["ds_read2st64_b32", "ds_load_2addr_stride64_b32"],
    DsRead2B64 = ["ds_read2_b64", "ds_load_2addr_b64"],
    DsRead2st64B64 = ["ds_read2st64_b64", "ds_load_2addr_stride64_b64"],
    DsWriteB32 = ["ds_write_b32", "ds_store_b32"],
    DsWriteB64 = ["ds_write_b64", "ds_store_b64"],
    DsWriteB128 = ["ds_write_b128", "ds_store_b128"],
    DsWriteB8 = ["ds_write_b8", "ds_store_b8"],
    DsWriteB16 = ["ds_write_b16", "ds_store_b16"],
    DsWrite2B32 = ["ds_write2_b32", "ds_store_2addr_b32"],
    DsWrite2st64B32 = ["ds_write2st64_b32", "ds_store_2addr_stride64_b32"],
    DsWrite2B64 = ["ds_write2_b64", "ds_store_2addr_b64"],
    DsWrite2st64B64 = ["ds_write2st64_b64", "ds_store_2addr_stride64_b64"],
    DsAddU32 = ["ds_add_u32"],
    DsSubU32 = ["ds_sub_u32"],
    DsMinI32 = ["ds_min_i32"],
    DsMaxI32 = ["ds_max_i32"],
    DsMinU32 = ["ds_min_u32"],
    DsMaxU32 = ["ds_max_u32"],
    DsAndB32 = ["ds_and_b32"],
    DsOrB32 = ["ds_or_b32"],
    DsXorB32 = ["ds_xor_b32"],
    DsAddRtnU32 = ["ds_add_rtn_u32"],
    DsBpermuteB32 = ["ds_bpermute_b32"],
    DsPermuteB32 = ["ds_permute_b32"],
    DsSwizzleB32 = ["ds_swizzle_b32"],
    // ---- global / flat / scratch: by the shape of the name (`memory` below)
    MemLoad = ["global_load_<width>", "flat_load_<width>", "scratch_load_<width>"],
    MemStore = ["global_store_<width>", "flat_store_<width>", "scratch_store_<width>"],
    MemAtomic = ["global_atomic_<op>", "flat_atomic_<op>"],
    // ---- MUBUF
    BufLoad = ["buffer_load_dword", "buffer_load_dwordx2", "buffer_load_dwordx3",
               "buffer_load_dwordx4", "buffer_load_ubyte", "buffer_load_sbyte",
               "buffer_load_ushort", "buffer_load_sshort"],
    BufStore = ["buffer_store_dword", "buffer_store_dwordx2", "buffer_store_dwordx3",
                "buffer_store_dwordx4", "buffer_store_byte", "buffer_store_short"],
}

/// Vector compares: `v_cmp[x]_<cond>_<type>` for these conditions and types.
pub(crate) fn compare(mnemonic: &str) -> Option<(Cmp, CmpTy, bool)> {
    let (rest, x) = if let Some(r) = mnemonic.strip_prefix("v_cmpx_") {
        (r, true)
    } else if let Some(r) = mnemonic.strip_prefix("v_cmp_") {
        (r, false)
    } else {
        return None;
    };
    let (cond, ty) = rest.rsplit_once('_')?;
    let ty = match ty {
        "u32" => CmpTy::U32,
        "i32" => CmpTy::I32,
        "u64" => CmpTy::U64,
        "i64" => CmpTy::I64,
        "f32" => CmpTy::F32,
        "f64" => CmpTy::F64,
        "u16" => CmpTy::U16,
        "i16" => CmpTy::I16,
        "f16" => CmpTy::F16,
        _ => return None,
    };
    let float = matches!(ty, CmpTy::F32 | CmpTy::F64 | CmpTy::F16);
    let c = match cond {
        "f" => Cmp::F,
        "lt" => Cmp::Lt,
        "eq" => Cmp::Eq,
        "le" => Cmp::Le,
        "gt" => Cmp::Gt,
        "ne" if !float => Cmp::Ne,
        "lg" if float => Cmp::Lg,
        "ge" => Cmp::Ge,
        "t" | "tru" => Cmp::T,
        "o" if float => Cmp::O,
        "u" if float => Cmp::U,
        "nge" if float => Cmp::Nge,
        "nlg" if float => Cmp::Nlg,
        "ngt" if float => Cmp::Ngt,
        "nle" if float => Cmp::Nle,
        "neq" if float => Cmp::Neq,
        "nlt" if float => Cmp::Nlt,
        _ => return None,
    };
    Some((c, ty, x))
}

/// A compare condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Cmp {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Lg,
    Ge,
    T,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
}

/// The operand type of a compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum CmpTy {
    U16,
    I16,
    F16,
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
}

impl Cmp {
    /// The condition on an ordering (`None`: unordered, a NaN operand).
    #[inline]
    pub fn test(self, ord: Option<std::cmp::Ordering>) -> bool {
        use std::cmp::Ordering::*;
        match (self, ord) {
            (Cmp::F, _) => false,
            (Cmp::T, _) => true,
            (Cmp::Lt, Some(o)) => o == Less,
            (Cmp::Eq, Some(o)) => o == Equal,
            (Cmp::Le, Some(o)) => o != Greater,
            (Cmp::Gt, Some(o)) => o == Greater,
            (Cmp::Ne, Some(o)) | (Cmp::Lg, Some(o)) => o != Equal,
            (Cmp::Ge, Some(o)) => o != Less,
            (Cmp::O, o) => o.is_some(),
            (Cmp::U, o) => o.is_none(),
            (Cmp::Nge, o) => o != Some(Greater) && o != Some(Equal),
            (Cmp::Nlg, o) => o.is_none() || o == Some(Equal),
            (Cmp::Ngt, o) => o != Some(Greater),
            (Cmp::Nle, o) => o != Some(Less) && o != Some(Equal),
            (Cmp::Neq, o) => o != Some(Equal),
            (Cmp::Nlt, o) => o != Some(Less),
            (_, None) => false,
        }
    }
}

/// Vector memory operations by their names' shape, for every generation's spelling
/// (`global_load_dword` of gfx9 is `global_load_b32` of gfx11; `flat_`, `global_`,
/// `scratch_`): loads and stores of 1-16 bytes, 16-bit loads and stores of one half
/// (`d16`), and the atomics `exec::ATOMIC_OPS` lists. Not yet: loads to LDS, the
/// transposing and `addtid` forms, buffer atomics, image instructions.
fn memory(mnemonic: &str) -> Option<Op> {
    let rest = ["global_", "flat_", "scratch_"]
        .iter()
        .find_map(|p| mnemonic.strip_prefix(p))?;
    if rest.contains("lds") || rest.contains("_tr") || rest.contains("addtid") {
        return None;
    }
    if let Some(t) = rest.strip_prefix("load_") {
        return (width(t).is_some()).then_some(Op::MemLoad);
    }
    if let Some(t) = rest.strip_prefix("store_") {
        return (width(t).is_some()).then_some(Op::MemStore);
    }
    if let Some(t) = rest.strip_prefix("atomic_") {
        return atomic(t).map(|_| Op::MemAtomic);
    }
    None
}

/// Bytes, sign extension and 16-bit half (`0` none, `1` low, `2` high) of a load or
/// store by the tail of its name (`dwordx2`, `b64`, `sbyte`, `i8`, `short_d16_hi`,
/// `d16_hi_b16`, ...).
pub fn width(tail: &str) -> Option<(u32, bool, u8)> {
    let (t, half) = if let Some(t) = tail.strip_suffix("_d16_hi") {
        (t, 2)
    } else if let Some(t) = tail.strip_suffix("_d16") {
        (t, 1)
    } else if let Some(t) = tail.strip_prefix("d16_hi_") {
        (t, 2)
    } else if let Some(t) = tail.strip_prefix("d16_") {
        (t, 1)
    } else {
        (tail, 0)
    };
    let (bytes, signed) = match t {
        "dword" | "b32" => (4, false),
        "dwordx2" | "b64" => (8, false),
        "dwordx3" | "b96" => (12, false),
        "dwordx4" | "b128" => (16, false),
        "ubyte" | "u8" | "byte" | "b8" => (1, false),
        "sbyte" | "i8" => (1, true),
        "ushort" | "u16" | "short" | "b16" => (2, false),
        "sshort" | "i16" => (2, true),
        _ => return None,
    };
    Some((bytes, signed, half))
}

/// An atomic by the tail of its name (`add`, `add_x2`, `add_u32`, `cmpswap_b64`,
/// `add_f32`, ...): the operation (an `exec::ATOMIC_OPS` entry) and its bytes.
pub fn atomic(tail: &str) -> Option<(&'static str, u32)> {
    let (t, wide) = match tail.strip_suffix("_x2") {
        Some(t) => (t, true),
        None => (tail, false),
    };
    let (t, bytes) = if let Some(x) = t.strip_suffix("_f32") {
        (
            match x {
                "add" => "add_f32",
                // gfx12 spells them max_num/min_num
                "max" | "max_num" => "max_f32",
                "min" | "min_num" => "min_f32",
                _ => return None,
            },
            4,
        )
    } else if let Some(x) = t.strip_suffix("_f64") {
        (
            match x {
                "add" => "add_f64",
                "max" | "max_num" => "max_f64",
                "min" | "min_num" => "min_f64",
                _ => return None,
            },
            8,
        )
    } else if matches!(t, "fmax" | "fmin") {
        // gfx10 spells the float min/max `fmin`/`fmax` (`_x2`: f64)
        let f = &t[1..];
        match (f, wide) {
            ("max", false) => ("max_f32", 4),
            ("min", false) => ("min_f32", 4),
            ("max", true) => ("max_f64", 8),
            _ => ("min_f64", 8),
        }
    } else if let Some(x) = ["_u32", "_i32", "_b32"]
        .iter()
        .find_map(|s| t.strip_suffix(s))
    {
        // gfx10+ spell smin/umin as min_i32/min_u32
        let signed = t.ends_with("_i32");
        (minmax(x, signed), 4)
    } else if let Some(x) = ["_u64", "_i64", "_b64"]
        .iter()
        .find_map(|s| t.strip_suffix(s))
    {
        let signed = t.ends_with("_i64");
        (minmax(x, signed), 8)
    } else {
        (t, if wide { 8 } else { 4 })
    };
    let name = crate::exec::ATOMIC_OPS.iter().find(|n| **n == t)?;
    Some((name, bytes))
}

fn minmax(op: &str, signed: bool) -> &str {
    match (op, signed) {
        ("min", true) => "smin",
        ("min", false) => "umin",
        ("max", true) => "smax",
        ("max", false) => "umax",
        _ => op,
    }
}

/// The operation a mnemonic names, if implemented.
pub fn lookup(mnemonic: &str) -> Option<Op> {
    if compare(mnemonic).is_some() {
        return Some(Op::VCmp);
    }
    if let Some(op) = memory(mnemonic) {
        return Some(op);
    }
    // VOPD halves are the plain operations (`v_dual_mov_b32` is `v_mov_b32`)
    if let Some(rest) = mnemonic.strip_prefix("v_dual_") {
        return lookup(&format!("v_{rest}"));
    }
    OPS.iter()
        .find(|(op, names)| {
            !matches!(op, Op::VCmp | Op::MemLoad | Op::MemStore | Op::MemAtomic)
                && names.contains(&mnemonic)
        })
        .map(|(op, _)| *op)
}

/// Implemented and missing mnemonics of one generation's description.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    /// Generation (`gfx9`).
    pub generation: &'static str,
    /// Mnemonics with semantics.
    pub implemented: Vec<&'static str>,
    /// Mnemonics without.
    pub missing: Vec<&'static str>,
}

/// What the emulator implements of a generation's instruction set.
pub fn coverage(isa: &IsaDesc) -> Coverage {
    let mut c = Coverage {
        generation: isa.generation,
        ..Coverage::default()
    };
    for op in isa.ops {
        if lookup(op.mnemonic).is_some() {
            c.implemented.push(op.mnemonic);
        } else {
            c.missing.push(op.mnemonic);
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mnemonic_names_one_op() {
        let mut seen = std::collections::HashMap::new();
        for (op, names) in OPS {
            for n in *names {
                assert!(seen.insert(*n, *op).is_none(), "{n} listed twice");
            }
        }
    }

    #[test]
    fn compares_parse() {
        assert_eq!(compare("v_cmp_gt_u32"), Some((Cmp::Gt, CmpTy::U32, false)));
        assert_eq!(
            compare("v_cmpx_nlt_f32"),
            Some((Cmp::Nlt, CmpTy::F32, true))
        );
        assert_eq!(compare("v_cmp_class_f32"), None);
        assert_eq!(compare("v_cmp_ne_f32"), None);
    }

    #[test]
    fn unordered_compares() {
        // a compare with a NaN operand is false for the ordered conditions and true
        // for the negated ones (the n* conditions are "not (a op b)")
        assert!(!Cmp::Lt.test(None));
        assert!(!Cmp::Eq.test(None));
        assert!(Cmp::Nlt.test(None));
        assert!(Cmp::Neq.test(None));
        assert!(Cmp::U.test(None));
        assert!(!Cmp::O.test(None));
        assert!(Cmp::Nge.test(Some(std::cmp::Ordering::Less)));
        assert!(!Cmp::Nge.test(Some(std::cmp::Ordering::Equal)));
    }
}
