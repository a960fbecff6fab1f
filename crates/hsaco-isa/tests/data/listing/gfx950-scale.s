.text
v_mfma_ld_scale_b32 v20, v40
v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[20:23], v24, v25 op_sel:[1,0,0] op_sel_hi:[0,1,0] cbsz:1 blgp:1
v_mfma_f32_16x16x128_f8f6f4 a[0:3], v[4:9], a[12:15], a[20:23] cbsz:2 blgp:4
v_mfma_scale_f32_32x32x64_f8f6f4 a[0:15], v[16:19], v[24:29], a[32:47], v1, v49 cbsz:4 blgp:3
v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[32:47]
.long 0xd3ac0000, 0x00025114, 0xd3ad180a, 0x04a23d14
s_endpgm
