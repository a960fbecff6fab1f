// Lint fixture (hsaco-check code-m0-not-restored, code-m0-across-call): on gfx6-gfx8 m0
// bounds LDS accesses. Positive: clobbers_m0 writes m0 (a dynamic v_writelane_b32 lane
// select, as LLVM 22 lowers it) and returns; uses_m0_after_call runs ds_write_b32 after
// calling it without setting m0 again. Negative: restores_m0 (saves and restores m0),
// sets_lds_bound (m0 = -1, the value LLVM keeps for LDS), resets_m0_after_call. On gfx9
// m0 does not bound LDS, so the gfx900 build is negative throughout.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.amdhsa_code_object_version 5

	.text
	.protected	clobbers_m0
	.globl	clobbers_m0
	.p2align	2
	.type	clobbers_m0,@function
clobbers_m0:
	s_mov_b32 m0, s16
	v_writelane_b32 v1, s17, m0
	s_setpc_b64 s[30:31]
.Lclobbers_m0_end:
	.size	clobbers_m0, .Lclobbers_m0_end-clobbers_m0

	.text
	.protected	restores_m0
	.globl	restores_m0
	.p2align	2
	.type	restores_m0,@function
restores_m0:
	s_mov_b32 s18, m0
	s_mov_b32 m0, s16
	v_writelane_b32 v1, s17, m0
	s_mov_b32 m0, s18
	s_setpc_b64 s[30:31]
.Lrestores_m0_end:
	.size	restores_m0, .Lrestores_m0_end-restores_m0

	.text
	.protected	sets_lds_bound
	.globl	sets_lds_bound
	.p2align	2
	.type	sets_lds_bound,@function
sets_lds_bound:
	s_mov_b32 m0, -1
	ds_write_b32 v0, v1
	s_setpc_b64 s[30:31]
.Lsets_lds_bound_end:
	.size	sets_lds_bound, .Lsets_lds_bound_end-sets_lds_bound

	.text
	.protected	uses_m0_after_call
	.globl	uses_m0_after_call
	.p2align	8
	.type	uses_m0_after_call,@function
uses_m0_after_call:
	s_mov_b32 m0, -1
	s_getpc_b64 s[8:9]
	s_add_u32 s8, s8, clobbers_m0@rel32@lo+4
	s_addc_u32 s9, s9, clobbers_m0@rel32@hi+12
	s_swappc_b64 s[30:31], s[8:9]
	ds_write_b32 v0, v1
	s_endpgm
.Luses_m0_after_call_end:
	.size	uses_m0_after_call, .Luses_m0_after_call_end-uses_m0_after_call

	.rodata
	.p2align	6
	.amdhsa_kernel uses_m0_after_call
		.amdhsa_kernarg_size 264
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 16
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.text
	.protected	resets_m0_after_call
	.globl	resets_m0_after_call
	.p2align	8
	.type	resets_m0_after_call,@function
resets_m0_after_call:
	s_mov_b32 m0, -1
	s_getpc_b64 s[8:9]
	s_add_u32 s8, s8, clobbers_m0@rel32@lo+4
	s_addc_u32 s9, s9, clobbers_m0@rel32@hi+12
	s_swappc_b64 s[30:31], s[8:9]
	s_mov_b32 m0, -1
	ds_write_b32 v0, v1
	s_getpc_b64 s[8:9]
	s_add_u32 s8, s8, restores_m0@rel32@lo+4
	s_addc_u32 s9, s9, restores_m0@rel32@hi+12
	s_swappc_b64 s[30:31], s[8:9]
	s_getpc_b64 s[8:9]
	s_add_u32 s8, s8, sets_lds_bound@rel32@lo+4
	s_addc_u32 s9, s9, sets_lds_bound@rel32@hi+12
	s_swappc_b64 s[30:31], s[8:9]
	s_endpgm
.Lresets_m0_after_call_end:
	.size	resets_m0_after_call, .Lresets_m0_after_call_end-resets_m0_after_call

	.rodata
	.p2align	6
	.amdhsa_kernel resets_m0_after_call
		.amdhsa_kernarg_size 264
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 16
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .name: uses_m0_after_call
    .symbol: uses_m0_after_call.kd
    .args:
      - .offset: 0
        .size: 8
        .address_space: global
        .value_kind: global_buffer
      - .offset: 8
        .size: 4
        .value_kind: hidden_block_count_x
    .kernarg_segment_size: 264
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .sgpr_count: 16
    .vgpr_count: 4
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name: resets_m0_after_call
    .symbol: resets_m0_after_call.kd
    .args:
      - .offset: 0
        .size: 8
        .address_space: global
        .value_kind: global_buffer
      - .offset: 8
        .size: 4
        .value_kind: hidden_block_count_x
    .kernarg_segment_size: 264
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .sgpr_count: 16
    .vgpr_count: 4
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
