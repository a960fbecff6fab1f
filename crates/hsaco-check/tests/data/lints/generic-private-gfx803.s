	.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
	.amdhsa_code_object_version 5
	.text
	.hidden	store_generic                   ; -- Begin function store_generic
	.globl	store_generic
	.p2align	2
	.type	store_generic,@function
store_generic:                          ; @store_generic
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	flat_store_dword v[0:1], v2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end0:
	.size	store_generic, .Lfunc_end0-store_generic
                                        ; -- End function
	.set store_generic.num_vgpr, 3
	.set store_generic.num_agpr, 0
	.set store_generic.numbered_sgpr, 32
	.set store_generic.num_named_barrier, 0
	.set store_generic.private_seg_size, 0
	.set store_generic.uses_vcc, 0
	.set store_generic.uses_flat_scratch, 0
	.set store_generic.has_dyn_sized_stack, 0
	.set store_generic.has_recursion, 0
	.set store_generic.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 20
; TotalNumSgprs: 32
; NumVgprs: 3
; ScratchSize: 0
; MemoryBound: 0
	.text
	.protected	generic_private         ; -- Begin function generic_private
	.globl	generic_private
	.p2align	8
	.type	generic_private,@function
generic_private:                        ; @generic_private
; %bb.0:
	s_add_i32 s6, s6, s9
	s_mov_b32 flat_scratch_lo, s7
	s_lshr_b32 flat_scratch_hi, s6, 8
	s_load_dword s8, s[4:5], 0x8
	s_load_dwordx2 s[6:7], s[4:5], 0xd0
	s_add_u32 s0, s0, s9
	s_addc_u32 s1, s1, 0
	s_load_dwordx2 s[4:5], s[4:5], 0x0
	s_waitcnt lgkmcnt(0)
	s_add_i32 s9, s8, 1
	s_add_i32 s10, s8, 2
	v_mov_b32_e32 v0, s9
	buffer_store_dword v0, off, s[0:3], 0 offset:4
	v_mov_b32_e32 v0, s10
	s_add_i32 s9, s8, 3
	buffer_store_dword v0, off, s[0:3], 0 offset:8
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 4
	buffer_store_dword v0, off, s[0:3], 0 offset:12
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 5
	buffer_store_dword v0, off, s[0:3], 0 offset:16
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 6
	buffer_store_dword v0, off, s[0:3], 0 offset:20
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 7
	buffer_store_dword v0, off, s[0:3], 0 offset:24
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 8
	buffer_store_dword v0, off, s[0:3], 0 offset:28
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 9
	buffer_store_dword v0, off, s[0:3], 0 offset:32
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 10
	buffer_store_dword v0, off, s[0:3], 0 offset:36
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 11
	buffer_store_dword v0, off, s[0:3], 0 offset:40
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 12
	buffer_store_dword v0, off, s[0:3], 0 offset:44
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 13
	buffer_store_dword v0, off, s[0:3], 0 offset:48
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 14
	v_mov_b32_e32 v6, s8
	buffer_store_dword v0, off, s[0:3], 0 offset:52
	v_mov_b32_e32 v0, s9
	s_add_i32 s9, s8, 15
	s_and_b32 s8, s8, 15
	buffer_store_dword v0, off, s[0:3], 0 offset:56
	v_mov_b32_e32 v0, s9
	s_lshl_b32 s8, s8, 2
	buffer_store_dword v6, off, s[0:3], 0
	buffer_store_dword v0, off, s[0:3], 0 offset:60
	v_mov_b32_e32 v0, s8
	buffer_load_dword v7, v0, s[0:3], 0 offen
	v_mov_b32_e32 v2, s4
	v_mov_b32_e32 v3, s5
	v_mov_b32_e32 v5, s7
	v_mov_b32_e32 v4, s8
	s_mov_b32 m0, -1
	v_mov_b32_e32 v1, s6
	ds_write_b32 v4, v6
	s_add_u32 s4, s4, 4
	s_addc_u32 s5, s5, 0
	s_waitcnt vmcnt(0)
	flat_store_dword v[2:3], v7
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	flat_load_dword v2, v[4:5] glc
	s_waitcnt vmcnt(0)
	flat_load_dword v0, v[0:1] glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_add_u32_e32 v2, vcc, v0, v2
	v_mov_b32_e32 v0, s4
	v_mov_b32_e32 v1, s5
	flat_store_dword v[0:1], v2
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel generic_private
		.amdhsa_group_segment_fixed_size 64
		.amdhsa_private_segment_fixed_size 68
		.amdhsa_kernarg_size 272
		.amdhsa_user_sgpr_count 8
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 11
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 0
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end1:
	.size	generic_private, .Lfunc_end1-generic_private
                                        ; -- End function
	.set generic_private.num_vgpr, 8
	.set generic_private.num_agpr, 0
	.set generic_private.numbered_sgpr, 11
	.set generic_private.num_named_barrier, 0
	.set generic_private.private_seg_size, 68
	.set generic_private.uses_vcc, 1
	.set generic_private.uses_flat_scratch, 1
	.set generic_private.has_dyn_sized_stack, 0
	.set generic_private.has_recursion, 0
	.set generic_private.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 428
; TotalNumSgprs: 17
; NumVgprs: 8
; ScratchSize: 68
; MemoryBound: 0
; FloatMode: 192
; IeeeMode: 1
; LDSByteSize: 64 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 17
; NumVGPRsForWavesPerEU: 8
; Occupancy: 10
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 8
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_generic_private ; -- Begin function __clang_ocl_kern_imp_generic_private
	.globl	__clang_ocl_kern_imp_generic_private
	.p2align	2
	.type	__clang_ocl_kern_imp_generic_private,@function
__clang_ocl_kern_imp_generic_private:   ; @__clang_ocl_kern_imp_generic_private
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_add_u32_e32 v3, vcc, 1, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:4
	v_add_u32_e32 v3, vcc, 2, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:8
	v_add_u32_e32 v3, vcc, 3, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:12
	v_add_u32_e32 v3, vcc, 4, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:16
	v_add_u32_e32 v3, vcc, 5, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:20
	v_add_u32_e32 v3, vcc, 6, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:24
	v_add_u32_e32 v3, vcc, 7, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:28
	v_add_u32_e32 v3, vcc, 8, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:32
	v_add_u32_e32 v3, vcc, 9, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:36
	v_add_u32_e32 v3, vcc, 10, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:40
	v_add_u32_e32 v3, vcc, 11, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:44
	v_add_u32_e32 v3, vcc, 12, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:48
	v_add_u32_e32 v3, vcc, 13, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:52
	v_add_u32_e32 v3, vcc, 14, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:56
	v_add_u32_e32 v3, vcc, 15, v2
	buffer_store_dword v3, off, s[0:3], s32 offset:60
	v_lshlrev_b32_e32 v3, 2, v2
	v_and_b32_e32 v3, 60, v3
	s_lshr_b32 s4, s32, 6
	buffer_store_dword v2, off, s[0:3], s32
	v_add_u32_e32 v3, vcc, s4, v3
	buffer_load_dword v6, v3, s[0:3], 0 offen
	s_mov_b64 s[4:5], 0xc0
	s_mov_b64 s[6:7], 0xc4
	s_load_dword s8, s[4:5], 0x0
	s_load_dword s6, s[6:7], 0x0
	s_mov_b64 s[4:5], 0xc8
	s_mov_b32 m0, -1
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v4, s8
	v_mov_b32_e32 v5, s6
	s_waitcnt vmcnt(0)
	flat_store_dword v[0:1], v6
	s_trap 2
	ds_write_b32 v0, v2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	flat_load_dword v2, v[4:5] glc
	s_waitcnt vmcnt(0)
	flat_load_dword v3, v[3:4] glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_add_u32_e32 v2, vcc, v3, v2
	v_add_u32_e32 v0, vcc, 4, v0
	v_addc_u32_e32 v1, vcc, 0, v1, vcc
	flat_store_dword v[0:1], v2
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end2:
	.size	__clang_ocl_kern_imp_generic_private, .Lfunc_end2-__clang_ocl_kern_imp_generic_private
                                        ; -- End function
	.set __clang_ocl_kern_imp_generic_private.num_vgpr, 7
	.set __clang_ocl_kern_imp_generic_private.num_agpr, 0
	.set __clang_ocl_kern_imp_generic_private.numbered_sgpr, 33
	.set __clang_ocl_kern_imp_generic_private.num_named_barrier, 0
	.set __clang_ocl_kern_imp_generic_private.private_seg_size, 68
	.set __clang_ocl_kern_imp_generic_private.uses_vcc, 1
	.set __clang_ocl_kern_imp_generic_private.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_generic_private.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_generic_private.has_recursion, 0
	.set __clang_ocl_kern_imp_generic_private.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 364
; TotalNumSgprs: 35
; NumVgprs: 7
; ScratchSize: 68
; MemoryBound: 0
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 7
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 33
	.set amdgpu.max_num_named_barrier, 0
	.section	.AMDGPU.csdata,"",@progbits
	.ident	"Debian clang version 22.1.8 (1~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.addrsig_sym generic_private.l
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .offset:         16
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         20
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         24
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         28
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         30
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         32
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         34
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         36
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         38
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         56
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         64
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         72
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         80
        .size:           2
        .value_kind:     hidden_grid_dims
      - .offset:         208
        .size:           4
        .value_kind:     hidden_private_base
      - .offset:         212
        .size:           4
        .value_kind:     hidden_shared_base
    .group_segment_fixed_size: 64
    .kernarg_segment_align: 8
    .kernarg_segment_size: 272
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           generic_private
    .private_segment_fixed_size: 68
    .sgpr_count:     17
    .sgpr_spill_count: 0
    .symbol:         generic_private.kd
    .uses_dynamic_stack: false
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx803
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
