; MCPU: gfx1250 
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.amdhsa_code_object_version 6
	.text
	.globl k1250
	.p2align 8
	.type k1250,@function
k1250:
	.long 0xbf810000
.Lfunc_end0:
	.size k1250, .Lfunc_end0-k1250
	.globl helper
	.type helper,@function
helper:
	.long 0xbf810000
	.rodata
	.p2align 6
	.amdhsa_kernel k1250
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 24
		.amdhsa_next_free_vgpr k1250.num_vgpr
		.amdhsa_next_free_sgpr 20
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_vgpr_workitem_id 2
		.amdhsa_float_round_mode_32 1
		.amdhsa_float_denorm_mode_32 2
		.amdhsa_exception_fp_ieee_div_zero 1
		.amdhsa_exception_int_div_zero 1
		.amdhsa_named_barrier_count 2
		.amdhsa_round_robin_scheduling 1
		.amdhsa_inst_pref_size 5
		.amdhsa_user_sgpr_count 8
	.end_amdhsa_kernel
	.amdhsa_kernel helper
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 1

	.end_amdhsa_kernel
	.set k1250.num_vgpr, max(3, 17)
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
    .name:           k1250
    .private_segment_fixed_size: 16
    .sgpr_count:     22
    .symbol:         k1250.kd
    .vgpr_count:     17
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx1250
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
