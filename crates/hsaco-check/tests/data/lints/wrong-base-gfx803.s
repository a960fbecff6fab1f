// Lint fixture (hsaco-check code-hidden-arg-wrong-base, code-implicit-arg-past-block):
// non-entry functions reading hidden fields. The function ABI passes the implicit-argument
// pointer in s[8:9] (and the dispatch pointer in s[4:5], the queue pointer in s[6:7]).
// Positive: no_base (the queue pointer's offset 0xc8 used as an address, as LLVM 22 emits
// for llvm.trap on gfx803 in non-entry functions), no_base_private (0xc0), dispatch_base
// (offset 0xc4 from the dispatch pointer), past_block (implicit-argument pointer + 0x1c0).
// Negative: implicit_ok (0xc0, 0xc8, 0xc4 from s[8:9] and a copy of it; 0xc0 from the
// queue pointer, which is amd_queue_t, not the block).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
	.amdhsa_code_object_version 5

	.text
	.protected	no_base
	.globl	no_base
	.p2align	2
	.type	no_base,@function
no_base:
	s_mov_b64 s[4:5], 0xc8
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_waitcnt lgkmcnt(0)
	s_setpc_b64 s[30:31]
.Lno_base_end:
	.size	no_base, .Lno_base_end-no_base

	.text
	.protected	no_base_private
	.globl	no_base_private
	.p2align	2
	.type	no_base_private,@function
no_base_private:
	s_mov_b64 s[16:17], 0xc0
	s_load_dword s0, s[16:17], 0x0
	s_waitcnt lgkmcnt(0)
	s_setpc_b64 s[30:31]
.Lno_base_private_end:
	.size	no_base_private, .Lno_base_private_end-no_base_private

	.text
	.protected	dispatch_base
	.globl	dispatch_base
	.p2align	2
	.type	dispatch_base,@function
dispatch_base:
	s_load_dword s0, s[4:5], 0xc4
	s_waitcnt lgkmcnt(0)
	s_setpc_b64 s[30:31]
.Ldispatch_base_end:
	.size	dispatch_base, .Ldispatch_base_end-dispatch_base

	.text
	.protected	past_block
	.globl	past_block
	.p2align	2
	.type	past_block,@function
past_block:
	s_add_u32 s10, s8, 0x100
	s_addc_u32 s11, s9, 0
	s_load_dword s0, s[10:11], 0xc0
	s_waitcnt lgkmcnt(0)
	s_setpc_b64 s[30:31]
.Lpast_block_end:
	.size	past_block, .Lpast_block_end-past_block

	.text
	.protected	implicit_ok
	.globl	implicit_ok
	.p2align	2
	.type	implicit_ok,@function
implicit_ok:
	s_load_dword s0, s[8:9], 0xc0
	s_load_dwordx2 s[2:3], s[8:9], 0xc8
	s_mov_b64 s[10:11], s[8:9]
	s_load_dword s1, s[10:11], 0xc4
	s_load_dwordx2 s[4:5], s[6:7], 0xc0
	s_waitcnt lgkmcnt(0)
	s_setpc_b64 s[30:31]
.Limplicit_ok_end:
	.size	implicit_ok, .Limplicit_ok_end-implicit_ok

	.text
	.protected	calls_helpers
	.globl	calls_helpers
	.p2align	8
	.type	calls_helpers,@function
calls_helpers:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, no_base@rel32@lo+4
	s_addc_u32 s5, s5, no_base@rel32@hi+12
	s_swappc_b64 s[30:31], s[4:5]
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, implicit_ok@rel32@lo+4
	s_addc_u32 s5, s5, implicit_ok@rel32@hi+12
	s_swappc_b64 s[30:31], s[4:5]
	s_endpgm
.Lcalls_helpers_end:
	.size	calls_helpers, .Lcalls_helpers_end-calls_helpers

	.rodata
	.p2align	6
	.amdhsa_kernel calls_helpers
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
  - .name: calls_helpers
    .symbol: calls_helpers.kd
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
      - .offset: 208
        .size: 8
        .value_kind: hidden_queue_ptr
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
