; MCPU: gfx90a -mattr=+xnack
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:xnack+"
	.amdhsa_code_object_version 5
	.text
	.globl k90a
	.p2align 8
	.type k90a,@function
k90a:
	.long 0xbf810000
.Lfunc_end0:
	.size k90a, .Lfunc_end0-k90a
	.globl helper
	.type helper,@function
helper:
	.long 0xbf810000
	.rodata
	.p2align 6
	.amdhsa_kernel k90a
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 24
		.amdhsa_next_free_vgpr k90a.num_vgpr
		.amdhsa_next_free_sgpr 20
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_vgpr_workitem_id 2
		.amdhsa_float_round_mode_32 1
		.amdhsa_float_denorm_mode_32 2
		.amdhsa_exception_fp_ieee_div_zero 1
		.amdhsa_exception_int_div_zero 1
		.amdhsa_accum_offset 8
		.amdhsa_tg_split 1
		.amdhsa_fp16_overflow 1
		.amdhsa_user_sgpr_kernarg_preload_length 2
		.amdhsa_user_sgpr_kernarg_preload_offset 1
		.amdhsa_uses_dynamic_stack 1
		.amdhsa_reserve_xnack_mask 1
	.end_amdhsa_kernel
	.amdhsa_kernel helper
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 1
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
	.set k90a.num_vgpr, max(3, 17)
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 256
    .name:           k90a
    .private_segment_fixed_size: 16
    .sgpr_count:     22
    .symbol:         k90a.kd
    .vgpr_count:     17
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a:xnack+
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
