## gfx1200 gfx12_asm_vop3_aliases.s
v_min3_f32 v5, v1, v2, v3
v_max3_f32 v5, v1, v2, v3
v_med3_f32 v5, v1, v2, v3
v_med3_f16 v5, v1, v2, v3
v_minmax_f32_e64_dpp v0, -v1, -v2, -v3 dpp8:[0,1,2,3,4,5,6,7]
v_maxmin_f32_e64_dpp v0, v1, v2, v3 clamp dpp8:[0,1,2,3,4,5,6,7]
v_mad_i64_i32 v[5:6], s12, v1, v2, v[3:4]
v_mad_u64_u32 v[5:6], s12, v1, v2, v[3:4]
v_max_f64 v[5:6], s[2:3], s[4:5]
v_min_f64 v[5:6], s[2:3], s[4:5]
v_cvt_pknorm_i16_f16 v5, v1, v2
v_cvt_pknorm_u16_f16 v5, v1, v2
v_add3_nc_u32 v5, v1, v2, s3
v_xor_add_u32 v5, v1, v2, s3
## gfx1200 gfx12_asm_vop2_aliases.s
v_min_f32 v5, v1, v2
v_max_f32 v5, v1, v2
v_max_f64 v[5:6], v[1:2], v[2:3]
v_min_f64 v[5:6], v[1:2], v[2:3]
## gfx1200 gfx12_asm_sopk_alias.s
s_addk_i32 s0, 0x1234
## gfx1200 gfx12_asm_sop2_alias.s
s_add_i32 s0, s1, s2
s_add_u32 s0, s1, s2
s_add_u64 s[0:1], s[2:3], s[4:5]
s_addc_u32 s0, s1, s2
s_sub_i32 s0, s1, s2
s_sub_u32 s0, s1, s2
s_sub_u64 s[0:1], s[2:3], s[4:5]
s_subb_u32 s0, s1, s2
s_min_f32 s5, s1, s2
s_max_f32 s5, s1, s2
s_max_f16 s5, s1, s2
s_min_f16 s5, s1, s2
## gfx1200 gfx12_asm_ds_alias.s
ds_max_f32 v1, v2
ds_max_f64 v1, v[2:3]
ds_max_rtn_f32 v5, v1, v2
ds_max_rtn_f64 v[5:6], v1, v[2:3]
ds_min_f32 v1, v2
ds_min_f64 v1, v[2:3]
ds_min_rtn_f32 v5, v1, v2
ds_min_rtn_f64 v[5:6], v1, v[2:3]
## gfx1200 gfx12_asm_vflat_alias.s
global_atomic_csub v1, v0, v2, s[0:1] offset:64 th:TH_ATOMIC_RETURN
global_atomic_csub_u32 v1, v0, v2, s[0:1] offset:64 th:TH_ATOMIC_RETURN
flat_atomic_csub_u32 v1, v[0:1], v2 offset:64 th:TH_ATOMIC_RETURN
flat_atomic_fmax v[0:1], v2 offset:64
flat_atomic_max_f32 v[0:1], v2 offset:64
flat_atomic_fmin v[0:1], v2 offset:64
flat_atomic_min_f32 v[0:1], v2 offset:64
global_atomic_fmax v0, v2, s[0:1] offset:64
global_atomic_max_f32 v0, v2, s[0:1] offset:64
global_atomic_fmin v0, v2, s[0:1] offset:64
global_atomic_min_f32 v0, v2, s[0:1] offset:64
## gfx1200 gfx12_asm_vbuffer_mubuf_alias.s
buffer_load_dword v5, off, s[8:11], s3 offset:8388607
buffer_load_dwordx2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_load_dwordx3 v[5:7], off, s[8:11], s3 offset:8388607
buffer_load_dwordx4 v[5:8], off, s[8:11], s3 offset:8388607
buffer_load_short_d16 v5, off, s[8:11], s3 offset:8388607
buffer_load_format_d16_x v5, off, s[8:11], s3 offset:8388607
buffer_load_format_d16_xy v5, off, s[8:11], s3 offset:8388607
buffer_load_format_d16_xyz v[5:6], off, s[8:11], s3 offset:8388607
buffer_load_format_d16_xyzw v[5:6], off, s[8:11], s3 offset:8388607
buffer_load_short_d16_hi v5, off, s[8:11], s3 offset:8388607
buffer_load_format_d16_hi_x v5, off, s[8:11], s3 offset:8388607
buffer_load_sbyte_d16_hi v5, off, s[8:11], s3 offset:8388607
buffer_load_ubyte_d16_hi v5, off, s[8:11], s3 offset:8388607
buffer_load_sbyte_d16 v5, off, s[8:11], s3 offset:8388607
buffer_load_ubyte_d16 v5, off, s[8:11], s3 offset:8388607
buffer_load_sbyte v5, off, s[8:11], s3 offset:8388607
buffer_load_sshort v5, off, s[8:11], s3 offset:8388607
buffer_load_ubyte v5, off, s[8:11], s3 offset:8388607
buffer_load_ushort v5, off, s[8:11], s3 offset:8388607
buffer_store_byte v1, off, s[12:15], s4 offset:8388607
buffer_store_short v1, off, s[12:15], s4 offset:8388607
buffer_store_dword v1, off, s[12:15], s4 offset:8388607
buffer_store_dwordx2 v[1:2], off, s[12:15], s4 offset:8388607
buffer_store_dwordx3 v[1:3], off, s[12:15], s4 offset:8388607
buffer_store_dwordx4 v[1:4], off, s[12:15], s4 offset:8388607
buffer_store_format_d16_x v1, off, s[12:15], s4 offset:8388607
buffer_store_format_d16_xy v1, off, s[12:15], s4 offset:8388607
buffer_store_format_d16_xyz v[1:2], off, s[12:15], s4 offset:8388607
buffer_store_format_d16_xyzw v[1:2], off, s[12:15], s4 offset:8388607
buffer_store_byte_d16_hi v1, off, s[12:15], s4 offset:8388607
buffer_store_short_d16_hi v1, off, s[12:15], s4 offset:8388607
buffer_store_format_d16_hi_x v1, off, s[12:15], s4 offset:8388607
buffer_atomic_add v5, off, s[8:11], s3 offset:8388607
buffer_atomic_add_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_and v5, off, s[8:11], s3 offset:8388607
buffer_atomic_and_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_cmpswap v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_cmpswap_x2 v[5:8], off, s[8:11], s3 offset:8388607
buffer_atomic_dec v5, off, s[8:11], s3 offset:8388607
buffer_atomic_dec_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_inc v5, off, s[8:11], s3 offset:8388607
buffer_atomic_inc_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_smax v5, off, s[8:11], s3 offset:8388607
buffer_atomic_smax_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_umax v5, off, s[8:11], s3 offset:8388607
buffer_atomic_umax_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_smin v5, off, s[8:11], s3 offset:8388607
buffer_atomic_smin_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_umin v5, off, s[8:11], s3 offset:8388607
buffer_atomic_umin_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_or v5, off, s[8:11], s3 offset:8388607
buffer_atomic_or_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_sub v5, off, s[8:11], s3 offset:8388607
buffer_atomic_sub_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_swap v5, off, s[8:11], s3 offset:8388607
buffer_atomic_swap_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_xor v5, off, s[8:11], s3 offset:8388607
buffer_atomic_xor_x2 v[5:6], off, s[8:11], s3 offset:8388607
buffer_atomic_csub v5, off, s[8:11], s3 offset:8388607
buffer_atomic_csub_u32 v5, off, s[8:11], s3 offset:8388607
buffer_atomic_fmax v5, off, s[8:11], s3 offset:8388607
buffer_atomic_max_f32 v5, off, s[8:11], s3 offset:8388607
buffer_atomic_fmin v5, off, s[8:11], s3 offset:8388607
buffer_atomic_min_f32 v5, off, s[8:11], s3 offset:8388607
## gfx1100 gfx11_asm_vop3_alias.s
v_cvt_pknorm_i16_f16 v5, v1, v2
v_cvt_pknorm_u16_f16 v5, v1, v2
## gfx1100 gfx11_asm_smem_alias.s
s_load_dword s5, s[2:3], s0
s_load_dwordx2 s[10:11], s[2:3], s0
s_load_dwordx4 s[20:23], s[2:3], s0
s_load_dwordx8 s[20:27], s[2:3], s0
s_load_dwordx16 s[20:35], s[2:3], s0
s_buffer_load_dword s5, s[4:7], s0
s_buffer_load_dwordx2 s[10:11], s[4:7], s0
s_buffer_load_dwordx4 s[20:23], s[4:7], s0
s_buffer_load_dwordx8 s[20:27], s[4:7], s0
s_buffer_load_dwordx16 s[20:35], s[4:7], s0
## gfx1100 gfx11_asm_mubuf_alias.s (first part)
buffer_load_dword v5, off, s[8:11], s3 offset:4095
buffer_load_dword v5, off, s[8:11], -4.0 offset:4095
buffer_load_dword v5, v0, s[8:11], s3 idxen offset:4095
buffer_load_dword v5, v0, s[8:11], s3 offen offset:4095
buffer_load_dword v5, off, s[8:11], s3 offset:4095 glc slc dlc
buffer_load_dwordx2 v[5:6], off, s[8:11], s3 offset:4095
buffer_load_dwordx2 v[5:6], off, s[8:11], -4.0 offset:4095
buffer_load_dwordx2 v[5:6], v0, s[8:11], s3 idxen offset:4095
buffer_load_dwordx2 v[5:6], v0, s[8:11], s3 offen offset:4095
buffer_load_dwordx2 v[5:6], off, s[8:11], s3 offset:4095 glc slc dlc
buffer_load_dwordx3 v[5:7], off, s[8:11], s3 offset:4095
buffer_load_dwordx3 v[5:7], off, s[8:11], -4.0 offset:4095
buffer_load_dwordx3 v[5:7], v0, s[8:11], s3 idxen offset:4095
buffer_load_dwordx3 v[5:7], v0, s[8:11], s3 offen offset:4095
buffer_load_dwordx3 v[5:7], off, s[8:11], s3 offset:4095 glc slc dlc
buffer_load_dwordx4 v[5:8], off, s[8:11], s3 offset:4095
buffer_load_dwordx4 v[5:8], off, s[8:11], -4.0 offset:4095
buffer_load_dwordx4 v[5:8], v0, s[8:11], s3 idxen offset:4095
buffer_load_dwordx4 v[5:8], v0, s[8:11], s3 offen offset:4095
buffer_load_dwordx4 v[5:8], off, s[8:11], s3 offset:4095 glc slc dlc
buffer_load_short_d16 v5, off, s[8:11], s3 offset:4095
buffer_load_short_d16 v5, off, s[8:11], -4.0 offset:4095
buffer_load_short_d16 v5, v0, s[8:11], s3 idxen offset:4095
buffer_load_short_d16 v5, v0, s[8:11], s3 offen offset:4095
buffer_load_short_d16 v5, off, s[8:11], s3 offset:4095 glc slc dlc
buffer_load_format_d16_x v5, off, s[8:11], s3 offset:4095
buffer_load_format_d16_x v5, off, s[8:11], -4.0 offset:4095
buffer_load_format_d16_x v5, v0, s[8:11], s3 idxen offset:4095
buffer_load_format_d16_x v5, v0, s[8:11], s3 offen offset:4095
buffer_load_format_d16_x v5, off, s[8:11], s3 offset:4095 glc slc dlc
buffer_load_format_d16_xy v5, off, s[8:11], s3 offset:4095
buffer_load_format_d16_xy v5, off, s[8:11], -4.0 offset:4095
buffer_load_format_d16_xy v5, v0, s[8:11], s3 idxen offset:4095
buffer_load_format_d16_xy v5, v0, s[8:11], s3 offen offset:4095
buffer_load_format_d16_xy v5, off, s[8:11], s3 offset:4095 glc slc dlc
## gfx1200 gfx12_asm_vbuffer_mtbuf_alias.s
tbuffer_load_format_d16_x v4, off, s[8:11], s3 format:[BUF_FMT_8_UNORM] offset:8388607
tbuffer_load_format_d16_xy v4, off, s[8:11], s3 format:[BUF_FMT_8_SINT] offset:8388607
tbuffer_load_format_d16_xyz v[4:5], off, s[8:11], s3 format:[BUF_FMT_16_UINT] offset:8388607
tbuffer_load_format_d16_xyzw v[4:5], off, s[8:11], s3 format:[BUF_FMT_8_8_USCALED] offset:8388607
tbuffer_store_format_d16_x v4, off, s[8:11], s3 format:[BUF_FMT_2_10_10_10_SINT] offset:8388607
tbuffer_store_format_d16_xy v4, off, s[8:11], s3 format:[BUF_FMT_8_8_8_8_UINT] offset:8388607
tbuffer_store_format_d16_xyz v[4:5], off, s[8:11], s3 format:[BUF_FMT_16_16_16_16_UNORM] offset:8388607
tbuffer_store_format_d16_xyzw v[4:5], off, s[8:11], s3 format:[BUF_FMT_16_16_16_16_SINT] offset:8388607
## gfx1100 gfx11_asm_mtbuf_alias.s
tbuffer_load_format_d16_x v4, off, s[8:11], s3, format:[BUF_FMT_8_UNORM] offset:4095
tbuffer_load_format_d16_xy v4, off, s[8:11], s3, format:[BUF_FMT_8_SINT] offset:4095
tbuffer_load_format_d16_xyz v[4:5], off, s[8:11], s3, format:[BUF_FMT_16_UINT] offset:4095
tbuffer_load_format_d16_xyzw v[4:5], off, s[8:11], s3, format:[BUF_FMT_8_8_USCALED] offset:4095
tbuffer_store_format_d16_x v4, off, s[8:11], s3, format:[BUF_FMT_2_10_10_10_SINT] offset:4095
tbuffer_store_format_d16_xy v4, off, s[8:11], s3, format:[BUF_FMT_8_8_8_8_UINT] offset:4095
tbuffer_store_format_d16_xyz v[4:5], off, s[8:11], s3, format:[BUF_FMT_16_16_16_16_UNORM] offset:4095
tbuffer_store_format_d16_xyzw v[4:5], off, s[8:11], s3, format:[BUF_FMT_16_16_16_16_SINT] offset:4095
## gfx1100 flat-gfx11-mnemonic.s
flat_load_ubyte v1, v[4:5]
flat_load_sbyte v1, v[3:4]
flat_load_ushort v1, v[3:4]
flat_load_sshort v1, v[3:4]
flat_load_dword v1, v[3:4]
flat_load_dwordx2 v[1:2], v[3:4]
flat_load_dwordx3 v[1:3], v[5:6]
flat_load_dwordx4 v[1:4], v[5:6]
flat_store_byte v[3:4], v1
flat_store_short v[3:4], v1
flat_store_dword v[3:4], v1 offset:16
flat_store_dwordx2 v[1:2], v[3:4]
flat_store_dwordx3 v[1:2], v[3:5]
flat_store_dwordx4 v[1:2], v[3:6]
flat_atomic_swap v0, v[1:2], v3 offset:2047 glc
flat_atomic_swap_x2 v[1:2], v[3:4], v[5:6] offset:2047 glc
flat_atomic_add v[3:4], v5 slc
flat_atomic_cmpswap v0, v[1:2], v[3:4] offset:2047 glc
flat_atomic_cmpswap_x2 v[1:2], v[3:4], v[5:8] offset:2047 glc
global_load_ubyte v1, v[3:4], off
global_load_sbyte v1, v[3:4], off
global_load_ushort v1, v[3:4], off
global_load_sshort v1, v[3:4], off
global_load_dword v1, v[3:4], off
global_load_dwordx2 v[1:2], v[3:4], off
global_load_dwordx3 v[1:3], v[5:6], off
global_load_dwordx4 v[1:4], v[5:6], off
global_store_byte v[3:4], v1, off
global_store_short v[3:4], v1, off
global_store_dword v[3:4], v1, off offset:16
global_store_dwordx2 v[1:2], v[3:4], off
global_store_dwordx3 v[1:2], v[3:5], off
global_store_dwordx4 v[1:2], v[3:6], off
global_atomic_swap v0, v[1:2], v3, off offset:2047 glc
global_atomic_swap_x2 v[1:2], v[3:4], v[5:6], off offset:2047 glc
scratch_load_ubyte v1, v2, s1
scratch_load_sbyte v1, v2, s1
scratch_load_ushort v1, v2, s1
scratch_load_sshort v1, v2, s1
scratch_load_dword v1, v2, s1
scratch_load_dwordx2 v[1:2], v2, s1
scratch_load_dwordx3 v[1:3], v2, s1
scratch_load_dwordx4 v[1:4], v2, s1
scratch_store_byte v1, v2, s3
scratch_store_short v1, v2, s3
scratch_store_dword v1, v2, s3
scratch_store_dwordx2 v1, v[2:3], s3
scratch_store_dwordx3 v1, v[2:4], s3
scratch_store_dwordx4 v1, v[2:5], s3
scratch_load_dword v1, v2, s1 offset:2047
scratch_load_dword v1, v2, off offset:2047
scratch_load_dword v1, off, s1 offset:2047
scratch_load_dword v1, off, off offset:2047
scratch_load_dword v1, off, off
scratch_store_dword v1, v2, s3 offset:2047
scratch_store_dword v1, v2, off offset:2047
scratch_store_dword off, v2, s3 offset:2047
scratch_store_dword off, v2, off offset:2047
scratch_load_dword v1, v2, s1 offset:4095
scratch_load_dword v1, v2, s1 offset:-4096
scratch_store_dword v1, v2, s1 offset:4095
scratch_store_dword v1, v2, s1 offset:-4096
scratch_store_dword off, v2, off
## gfx1200 gfx12_asm_sopk_alias.s (hwreg names)
s_getreg_b32 s0, hwreg(HW_REG_DVGPR_ALLOC_HI)
s_getreg_b32 s0, hwreg(HW_REG_DVGPR_ALLOC_LO)
s_getreg_b32 s0, hwreg(HW_REG_EXCP_FLAG_PRIV)
s_getreg_b32 s0, hwreg(HW_REG_EXCP_FLAG_USER)
s_getreg_b32 s0, hwreg(HW_REG_GPR_ALLOC)
s_getreg_b32 s0, hwreg(HW_REG_HW_ID1)
s_getreg_b32 s0, hwreg(HW_REG_HW_ID2)
s_getreg_b32 s0, hwreg(HW_REG_LDS_ALLOC)
s_getreg_b32 s0, hwreg(HW_REG_MODE)
s_getreg_b32 s0, hwreg(HW_REG_SCRATCH_BASE_HI)
s_getreg_b32 s0, hwreg(HW_REG_SCRATCH_BASE_LO)
s_getreg_b32 s0, hwreg(HW_REG_STATE_PRIV)
s_getreg_b32 s0, hwreg(HW_REG_STATUS)
s_getreg_b32 s0, hwreg(HW_REG_TRAP_CTRL)
