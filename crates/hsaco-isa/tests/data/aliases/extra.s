## gfx1030 alias spellings llvm-mc-22 accepts (not from LLVM's tests)
## gfx1100 alias spellings llvm-mc-22 accepts (not from LLVM's tests)
v_add_u32 v0, v1, v2
v_sub_u32 v0, v1, v2
v_subrev_u32 v0, v1, v2
v_add_u32_e64 v0, v1, s2
v_cvt_pkrtz_f16_f32 v0, v1, v2
v_cvt_pkrtz_f16_f32_e64 v0, v1, s2
v_cvt_pknorm_i16_f32 v0, v1, v2
v_cvt_pknorm_u16_f32 v0, v1, v2
s_load_dword s0, s[2:3], 0x0
s_load_dwordx2 s[0:1], s[2:3], 0x0
s_load_dwordx4 s[0:3], s[2:3], 0x0
s_load_dwordx8 s[0:7], s[2:3], 0x0
s_load_dwordx16 s[0:15], s[2:3], 0x0
s_buffer_load_dword s0, s[4:7], 0x0
s_buffer_load_dwordx2 s[0:1], s[4:7], 0x0
s_buffer_load_dwordx4 s[0:3], s[4:7], 0x0
s_buffer_load_dwordx8 s[0:7], s[4:7], 0x0
s_buffer_load_dwordx16 s[0:15], s[4:7], 0x0
s_andn2_b32 s0, s1, s2
s_orn2_b32 s0, s1, s2
s_andn2_b64 s[0:1], s[2:3], s[4:5]
s_orn2_b64 s[0:1], s[2:3], s[4:5]
s_andn2_saveexec_b32 s0, s1
s_orn2_saveexec_b32 s0, s1
s_andn2_saveexec_b64 s[0:1], s[2:3]
s_andn1_saveexec_b32 s0, s1
s_andn2_wrexec_b32 s0, s1
s_andn1_wrexec_b32 s0, s1
s_inst_prefetch 1
global_load_dword v0, v[2:3], off
global_load_dwordx2 v[0:1], v[2:3], off
global_load_dwordx3 v[0:2], v[2:3], off
global_load_dwordx4 v[0:3], v[2:3], off
global_load_ubyte v0, v[2:3], off
global_load_sbyte v0, v[2:3], off
global_load_ushort v0, v[2:3], off
global_load_sshort v0, v[2:3], off
global_load_short_d16 v0, v[2:3], off
global_load_short_d16_hi v0, v[2:3], off
global_load_ubyte_d16 v0, v[2:3], off
global_load_ubyte_d16_hi v0, v[2:3], off
global_load_sbyte_d16 v0, v[2:3], off
global_load_sbyte_d16_hi v0, v[2:3], off
global_store_dword v[2:3], v0, off
global_store_dwordx2 v[2:3], v[0:1], off
global_store_dwordx3 v[2:3], v[4:6], off
global_store_dwordx4 v[2:3], v[4:7], off
global_store_byte v[2:3], v0, off
global_store_short v[2:3], v0, off
global_store_byte_d16_hi v[2:3], v0, off
global_store_short_d16_hi v[2:3], v0, off
global_atomic_add v[2:3], v0, off
global_atomic_add_x2 v[2:3], v[0:1], off
global_atomic_swap v[2:3], v0, off
global_atomic_cmpswap v[2:3], v[0:1], off
global_atomic_cmpswap_x2 v[2:3], v[4:7], off
global_atomic_smax v[2:3], v0, off
global_atomic_umin v[2:3], v0, off
global_atomic_inc v[2:3], v0, off
global_atomic_dec v[2:3], v0, off
global_atomic_fcmpswap v[2:3], v[0:1], off
global_atomic_fmin v[2:3], v0, off
global_atomic_fmax v[2:3], v0, off
global_atomic_csub v0, v[2:3], v1, off glc
flat_load_dword v0, v[2:3]
flat_store_dword v[2:3], v0
flat_atomic_add v[2:3], v0
flat_atomic_fcmpswap v[2:3], v[0:1]
flat_atomic_fmin v[2:3], v0
flat_atomic_fmax v[2:3], v0
scratch_load_dword v0, off, s2
scratch_store_dword off, v0, s2
ds_read_b32 v0, v1
ds_read_b64 v[0:1], v1
ds_read_b96 v[0:2], v1
ds_read_b128 v[0:3], v1
ds_read_u8 v0, v1
ds_read_i8 v0, v1
ds_read_u16 v0, v1
ds_read_i16 v0, v1
ds_read2_b32 v[0:1], v1 offset1:1
ds_read2st64_b32 v[0:1], v1 offset1:1
ds_read2_b64 v[0:3], v1 offset1:1
ds_read_addtid_b32 v0
ds_read_u8_d16 v0, v1
ds_read_u8_d16_hi v0, v1
ds_read_i8_d16 v0, v1
ds_read_u16_d16 v0, v1
ds_read_u16_d16_hi v0, v1
ds_write_b32 v1, v0
ds_write_b64 v1, v[2:3]
ds_write_b96 v1, v[2:4]
ds_write_b128 v1, v[2:5]
ds_write_b8 v1, v0
ds_write_b16 v1, v0
ds_write2_b32 v1, v2, v3 offset1:1
ds_write2st64_b32 v1, v2, v3 offset1:1
ds_write2_b64 v1, v[2:3], v[4:5] offset1:1
ds_write_b8_d16_hi v1, v0
ds_write_b16_d16_hi v1, v0
ds_write_addtid_b32 v0
ds_wrxchg_rtn_b32 v0, v1, v2
ds_wrxchg2_rtn_b32 v[0:1], v1, v2, v3 offset1:1
buffer_load_dword v5, off, s[8:11], s3 offset:4095
buffer_load_dwordx2 v[5:6], off, s[8:11], s3 offset:4095
buffer_load_dwordx3 v[5:7], off, s[8:11], s3 offset:4095
buffer_load_dwordx4 v[5:8], off, s[8:11], s3 offset:4095
buffer_load_ubyte v5, off, s[8:11], s3 offset:4095
buffer_load_sbyte v5, off, s[8:11], s3 offset:4095
buffer_load_ushort v5, off, s[8:11], s3 offset:4095
buffer_load_sshort v5, off, s[8:11], s3 offset:4095
buffer_load_short_d16 v5, off, s[8:11], s3 offset:4095
buffer_load_short_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_load_ubyte_d16 v5, off, s[8:11], s3 offset:4095
buffer_load_ubyte_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_load_sbyte_d16 v5, off, s[8:11], s3 offset:4095
buffer_load_sbyte_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_load_format_d16_x v5, off, s[8:11], s3 offset:4095
buffer_load_format_d16_xy v5, off, s[8:11], s3 offset:4095
buffer_load_format_d16_xyz v[5:6], off, s[8:11], s3 offset:4095
buffer_load_format_d16_xyzw v[5:6], off, s[8:11], s3 offset:4095
buffer_load_format_d16_hi_x v5, off, s[8:11], s3 offset:4095
buffer_store_dword v5, off, s[8:11], s3 offset:4095
buffer_store_dwordx2 v[5:6], off, s[8:11], s3 offset:4095
buffer_store_dwordx3 v[5:7], off, s[8:11], s3 offset:4095
buffer_store_dwordx4 v[5:8], off, s[8:11], s3 offset:4095
buffer_store_byte v5, off, s[8:11], s3 offset:4095
buffer_store_short v5, off, s[8:11], s3 offset:4095
buffer_store_byte_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_store_short_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_store_format_d16_x v5, off, s[8:11], s3 offset:4095
buffer_store_format_d16_xy v5, off, s[8:11], s3 offset:4095
buffer_store_format_d16_xyz v[5:6], off, s[8:11], s3 offset:4095
buffer_store_format_d16_xyzw v[5:6], off, s[8:11], s3 offset:4095
buffer_store_format_d16_hi_x v5, off, s[8:11], s3 offset:4095
buffer_atomic_add v5, off, s[8:11], s3 offset:4095
buffer_atomic_add_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_and v5, off, s[8:11], s3 offset:4095
buffer_atomic_and_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_dec v5, off, s[8:11], s3 offset:4095
buffer_atomic_dec_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_inc v5, off, s[8:11], s3 offset:4095
buffer_atomic_inc_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_smax v5, off, s[8:11], s3 offset:4095
buffer_atomic_smax_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_umax v5, off, s[8:11], s3 offset:4095
buffer_atomic_umax_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_smin v5, off, s[8:11], s3 offset:4095
buffer_atomic_smin_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_umin v5, off, s[8:11], s3 offset:4095
buffer_atomic_umin_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_or v5, off, s[8:11], s3 offset:4095
buffer_atomic_or_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_sub v5, off, s[8:11], s3 offset:4095
buffer_atomic_sub_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_swap v5, off, s[8:11], s3 offset:4095
buffer_atomic_swap_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_xor v5, off, s[8:11], s3 offset:4095
buffer_atomic_xor_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_cmpswap v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_cmpswap_x2 v[5:8], off, s[8:11], s3 offset:4095
buffer_atomic_fcmpswap v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_fmin v5, off, s[8:11], s3 offset:4095
buffer_atomic_fmax v5, off, s[8:11], s3 offset:4095
buffer_atomic_csub v5, off, s[8:11], s3 offset:4095 glc
## gfx1200 alias spellings llvm-mc-22 accepts (not from LLVM's tests)
v_add_u32 v0, v1, v2
v_sub_u32 v0, v1, v2
v_subrev_u32 v0, v1, v2
v_add_u32_e64 v0, v1, s2
v_cvt_pkrtz_f16_f32 v0, v1, v2
v_cvt_pkrtz_f16_f32_e64 v0, v1, s2
v_mad_u64_u32 v[0:1], s6, v1, v2, v[4:5]
v_mad_i64_i32 v[0:1], s6, v1, v2, v[4:5]
v_cvt_pknorm_i16_f32 v0, v1, v2
v_cvt_pknorm_u16_f32 v0, v1, v2
v_min3_f32 v0, v1, v2, v3
v_med3_f32 v0, v1, v2, v3
v_min_f32 v0, v1, v2
v_max_f32 v0, v1, v2
v_min_f64 v[0:1], v[2:3], v[4:5]
v_max_f64 v[0:1], v[2:3], v[4:5]
s_load_dword s0, s[2:3], 0x0
s_load_dwordx2 s[0:1], s[2:3], 0x0
s_load_dwordx4 s[0:3], s[2:3], 0x0
s_load_dwordx8 s[0:7], s[2:3], 0x0
s_load_dwordx16 s[0:15], s[2:3], 0x0
s_buffer_load_dword s0, s[4:7], 0x0
s_buffer_load_dwordx2 s[0:1], s[4:7], 0x0
s_buffer_load_dwordx4 s[0:3], s[4:7], 0x0
s_buffer_load_dwordx8 s[0:7], s[4:7], 0x0
s_buffer_load_dwordx16 s[0:15], s[4:7], 0x0
s_add_i32 s0, s1, s2
s_add_u32 s0, s1, s2
s_addc_u32 s0, s1, s2
s_sub_i32 s0, s1, s2
s_sub_u32 s0, s1, s2
s_subb_u32 s0, s1, s2
s_addk_i32 s0, 0x1234
s_andn2_b32 s0, s1, s2
s_orn2_b32 s0, s1, s2
s_andn2_b64 s[0:1], s[2:3], s[4:5]
s_orn2_b64 s[0:1], s[2:3], s[4:5]
s_andn2_saveexec_b32 s0, s1
s_orn2_saveexec_b32 s0, s1
s_andn2_saveexec_b64 s[0:1], s[2:3]
s_andn1_saveexec_b32 s0, s1
s_andn2_wrexec_b32 s0, s1
s_andn1_wrexec_b32 s0, s1
global_load_dword v0, v[2:3], off
global_load_dwordx2 v[0:1], v[2:3], off
global_load_dwordx3 v[0:2], v[2:3], off
global_load_dwordx4 v[0:3], v[2:3], off
global_load_ubyte v0, v[2:3], off
global_load_sbyte v0, v[2:3], off
global_load_ushort v0, v[2:3], off
global_load_sshort v0, v[2:3], off
global_load_short_d16 v0, v[2:3], off
global_load_short_d16_hi v0, v[2:3], off
global_load_ubyte_d16 v0, v[2:3], off
global_load_ubyte_d16_hi v0, v[2:3], off
global_load_sbyte_d16 v0, v[2:3], off
global_load_sbyte_d16_hi v0, v[2:3], off
global_store_dword v[2:3], v0, off
global_store_dwordx2 v[2:3], v[0:1], off
global_store_dwordx3 v[2:3], v[4:6], off
global_store_dwordx4 v[2:3], v[4:7], off
global_store_byte v[2:3], v0, off
global_store_short v[2:3], v0, off
global_store_byte_d16_hi v[2:3], v0, off
global_store_short_d16_hi v[2:3], v0, off
global_atomic_add v[2:3], v0, off
global_atomic_add_x2 v[2:3], v[0:1], off
global_atomic_swap v[2:3], v0, off
global_atomic_cmpswap v[2:3], v[0:1], off
global_atomic_cmpswap_x2 v[2:3], v[4:7], off
global_atomic_smax v[2:3], v0, off
global_atomic_umin v[2:3], v0, off
global_atomic_inc v[2:3], v0, off
global_atomic_dec v[2:3], v0, off
global_atomic_fmin v[2:3], v0, off
global_atomic_fmax v[2:3], v0, off
flat_load_dword v0, v[2:3]
flat_store_dword v[2:3], v0
flat_atomic_add v[2:3], v0
flat_atomic_fmin v[2:3], v0
flat_atomic_fmax v[2:3], v0
scratch_load_dword v0, off, s2
scratch_store_dword off, v0, s2
ds_read_b32 v0, v1
ds_read_b64 v[0:1], v1
ds_read_b96 v[0:2], v1
ds_read_b128 v[0:3], v1
ds_read_u8 v0, v1
ds_read_i8 v0, v1
ds_read_u16 v0, v1
ds_read_i16 v0, v1
ds_read2_b32 v[0:1], v1 offset1:1
ds_read2st64_b32 v[0:1], v1 offset1:1
ds_read2_b64 v[0:3], v1 offset1:1
ds_read_addtid_b32 v0
ds_read_u8_d16 v0, v1
ds_read_u8_d16_hi v0, v1
ds_read_i8_d16 v0, v1
ds_read_u16_d16 v0, v1
ds_read_u16_d16_hi v0, v1
ds_write_b32 v1, v0
ds_write_b64 v1, v[2:3]
ds_write_b96 v1, v[2:4]
ds_write_b128 v1, v[2:5]
ds_write_b8 v1, v0
ds_write_b16 v1, v0
ds_write2_b32 v1, v2, v3 offset1:1
ds_write2st64_b32 v1, v2, v3 offset1:1
ds_write2_b64 v1, v[2:3], v[4:5] offset1:1
ds_write_b8_d16_hi v1, v0
ds_write_b16_d16_hi v1, v0
ds_write_addtid_b32 v0
ds_wrxchg_rtn_b32 v0, v1, v2
ds_wrxchg2_rtn_b32 v[0:1], v1, v2, v3 offset1:1
ds_max_f32 v1, v2
ds_min_f32 v1, v2
ds_max_rtn_f32 v0, v1, v2
ds_min_f64 v1, v[2:3]
buffer_load_dword v5, off, s[8:11], s3 offset:4095
buffer_load_dwordx2 v[5:6], off, s[8:11], s3 offset:4095
buffer_load_dwordx3 v[5:7], off, s[8:11], s3 offset:4095
buffer_load_dwordx4 v[5:8], off, s[8:11], s3 offset:4095
buffer_load_ubyte v5, off, s[8:11], s3 offset:4095
buffer_load_sbyte v5, off, s[8:11], s3 offset:4095
buffer_load_ushort v5, off, s[8:11], s3 offset:4095
buffer_load_sshort v5, off, s[8:11], s3 offset:4095
buffer_load_short_d16 v5, off, s[8:11], s3 offset:4095
buffer_load_short_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_load_ubyte_d16 v5, off, s[8:11], s3 offset:4095
buffer_load_ubyte_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_load_sbyte_d16 v5, off, s[8:11], s3 offset:4095
buffer_load_sbyte_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_load_format_d16_x v5, off, s[8:11], s3 offset:4095
buffer_load_format_d16_xy v5, off, s[8:11], s3 offset:4095
buffer_load_format_d16_xyz v[5:6], off, s[8:11], s3 offset:4095
buffer_load_format_d16_xyzw v[5:6], off, s[8:11], s3 offset:4095
buffer_load_format_d16_hi_x v5, off, s[8:11], s3 offset:4095
buffer_store_dword v5, off, s[8:11], s3 offset:4095
buffer_store_dwordx2 v[5:6], off, s[8:11], s3 offset:4095
buffer_store_dwordx3 v[5:7], off, s[8:11], s3 offset:4095
buffer_store_dwordx4 v[5:8], off, s[8:11], s3 offset:4095
buffer_store_byte v5, off, s[8:11], s3 offset:4095
buffer_store_short v5, off, s[8:11], s3 offset:4095
buffer_store_byte_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_store_short_d16_hi v5, off, s[8:11], s3 offset:4095
buffer_store_format_d16_x v5, off, s[8:11], s3 offset:4095
buffer_store_format_d16_xy v5, off, s[8:11], s3 offset:4095
buffer_store_format_d16_xyz v[5:6], off, s[8:11], s3 offset:4095
buffer_store_format_d16_xyzw v[5:6], off, s[8:11], s3 offset:4095
buffer_store_format_d16_hi_x v5, off, s[8:11], s3 offset:4095
buffer_atomic_add v5, off, s[8:11], s3 offset:4095
buffer_atomic_add_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_and v5, off, s[8:11], s3 offset:4095
buffer_atomic_and_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_dec v5, off, s[8:11], s3 offset:4095
buffer_atomic_dec_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_inc v5, off, s[8:11], s3 offset:4095
buffer_atomic_inc_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_smax v5, off, s[8:11], s3 offset:4095
buffer_atomic_smax_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_umax v5, off, s[8:11], s3 offset:4095
buffer_atomic_umax_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_smin v5, off, s[8:11], s3 offset:4095
buffer_atomic_smin_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_umin v5, off, s[8:11], s3 offset:4095
buffer_atomic_umin_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_or v5, off, s[8:11], s3 offset:4095
buffer_atomic_or_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_sub v5, off, s[8:11], s3 offset:4095
buffer_atomic_sub_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_swap v5, off, s[8:11], s3 offset:4095
buffer_atomic_swap_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_xor v5, off, s[8:11], s3 offset:4095
buffer_atomic_xor_x2 v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_cmpswap v[5:6], off, s[8:11], s3 offset:4095
buffer_atomic_cmpswap_x2 v[5:8], off, s[8:11], s3 offset:4095
buffer_atomic_fmin v5, off, s[8:11], s3 offset:4095
buffer_atomic_fmax v5, off, s[8:11], s3 offset:4095
## gfx900 alias spellings llvm-mc-22 accepts (not from LLVM's tests)
## gfx803 alias spellings llvm-mc-22 accepts (not from LLVM's tests)
## gfx600 alias spellings llvm-mc-22 accepts (not from LLVM's tests)
v_add_co_u32 v0, vcc, v1, v2
