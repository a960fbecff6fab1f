; MCPU: gfx942
	.amdhsa_code_object_version 5
	.text
	.globl k
	.p2align 8
k:
	.long 0xbf810000
	.rodata
	.p2align 6
	.amdhsa_kernel k
	  .amdhsa_next_free_vgpr 4
	  .amdhsa_next_free_sgpr 4
	  .amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.amdgpu_metadata
# written by hand: flow sequences, comments, quoting, booleans, negative numbers
amdhsa.version: [ 1, 2 ]
amdhsa.target: "amdgcn-amd-amdhsa--gfx942"
amdhsa.kernels:
  - .name: k
    .symbol: k.kd   # the descriptor
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 4
    .vgpr_count: 4
    .max_flat_workgroup_size: 1024
    .uses_dynamic_stack: false
    .reqd_workgroup_size: [64, 1, 1]
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - .offset: 8
        .size: 4
        .value_kind: by_value
        .name: 'n'
	.end_amdgpu_metadata
