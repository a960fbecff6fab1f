; MCPU: gfx803 
	.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
	.amdhsa_code_object_version 4
	.text
	.globl k803
	.p2align 8
	.type k803,@function
k803:
	.long 0xbf810000
.Lfunc_end0:
	.size k803, .Lfunc_end0-k803
	.globl helper
	.type helper,@function
helper:
	.long 0xbf810000
	.rodata
	.p2align 6
	.amdhsa_kernel k803
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 24
		.amdhsa_next_free_vgpr k803.num_vgpr
		.amdhsa_next_free_sgpr 20
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_vgpr_workitem_id 2
		.amdhsa_float_round_mode_32 1
		.amdhsa_float_denorm_mode_32 2
		.amdhsa_exception_fp_ieee_div_zero 1
		.amdhsa_exception_int_div_zero 1
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_dx10_clamp 0
		.amdhsa_ieee_mode 0
	.end_amdhsa_kernel
	.amdhsa_kernel helper
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 1

	.end_amdhsa_kernel
	.set k803.num_vgpr, max(3, 17)
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
    .name:           k803
    .private_segment_fixed_size: 16
    .sgpr_count:     22
    .symbol:         k803.kd
    .vgpr_count:     17
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx803
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
