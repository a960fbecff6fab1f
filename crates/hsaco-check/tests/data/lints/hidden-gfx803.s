// Lint fixture (hsaco-check code-hidden-arg-*): kernels that load the code object v5
// hidden_private_base (192), hidden_shared_base (196) and hidden_queue_ptr (200) of the
// implicit-argument block from the kernarg segment pointer s[4:5]. The block starts at
// kernarg offset 8 (one explicit pointer argument), so the fields are at 200, 204, 208.
// Positive: reads_private_base (0xc8 = 200), reads_shared_base_via_add (s[6:7] = s[4:5] +
// 0xc0, then +0xc = 204), reads_unlisted_queue_ptr (208, not in its metadata).
// Negative: reads_block_count_only (the explicit argument, hidden_block_count_x at 8, and
// 0xc4 = 196 through a copy of the pointer: 196 is before the block's field at 200).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
	.amdhsa_code_object_version 5

	.text
	.protected	reads_private_base
	.globl	reads_private_base
	.p2align	8
	.type	reads_private_base,@function
reads_private_base:
	s_load_dword s0, s[4:5], 0xc8
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lreads_private_base_end:
	.size	reads_private_base, .Lreads_private_base_end-reads_private_base

	.rodata
	.p2align	6
	.amdhsa_kernel reads_private_base
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
	.protected	reads_shared_base_via_add
	.globl	reads_shared_base_via_add
	.p2align	8
	.type	reads_shared_base_via_add,@function
reads_shared_base_via_add:
	s_add_u32 s6, s4, 0xc0
	s_addc_u32 s7, s5, 0
	s_load_dword s1, s[6:7], 0xc
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lreads_shared_base_via_add_end:
	.size	reads_shared_base_via_add, .Lreads_shared_base_via_add_end-reads_shared_base_via_add

	.rodata
	.p2align	6
	.amdhsa_kernel reads_shared_base_via_add
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
	.protected	reads_unlisted_queue_ptr
	.globl	reads_unlisted_queue_ptr
	.p2align	8
	.type	reads_unlisted_queue_ptr,@function
reads_unlisted_queue_ptr:
	s_load_dwordx2 s[2:3], s[4:5], 0xd0
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lreads_unlisted_queue_ptr_end:
	.size	reads_unlisted_queue_ptr, .Lreads_unlisted_queue_ptr_end-reads_unlisted_queue_ptr

	.rodata
	.p2align	6
	.amdhsa_kernel reads_unlisted_queue_ptr
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
	.protected	reads_block_count_only
	.globl	reads_block_count_only
	.p2align	8
	.type	reads_block_count_only,@function
reads_block_count_only:
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s2, s[4:5], 0x8
	s_mov_b64 s[6:7], s[4:5]
	s_load_dword s3, s[6:7], 0xc4
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lreads_block_count_only_end:
	.size	reads_block_count_only, .Lreads_block_count_only_end-reads_block_count_only

	.rodata
	.p2align	6
	.amdhsa_kernel reads_block_count_only
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
  - .name: reads_private_base
    .symbol: reads_private_base.kd
    .args:
      - .offset: 0
        .size: 8
        .address_space: global
        .value_kind: global_buffer
      - .offset: 8
        .size: 4
        .value_kind: hidden_block_count_x
      - .offset: 200
        .size: 4
        .value_kind: hidden_private_base
      - .offset: 204
        .size: 4
        .value_kind: hidden_shared_base
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
  - .name: reads_shared_base_via_add
    .symbol: reads_shared_base_via_add.kd
    .args:
      - .offset: 0
        .size: 8
        .address_space: global
        .value_kind: global_buffer
      - .offset: 8
        .size: 4
        .value_kind: hidden_block_count_x
      - .offset: 200
        .size: 4
        .value_kind: hidden_private_base
      - .offset: 204
        .size: 4
        .value_kind: hidden_shared_base
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
  - .name: reads_unlisted_queue_ptr
    .symbol: reads_unlisted_queue_ptr.kd
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
  - .name: reads_block_count_only
    .symbol: reads_block_count_only.kd
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
amdhsa.target: amdgcn-amd-amdhsa--gfx803
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
