; MCPU: gfx950
	.amdhsa_code_object_version 6
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	.long 0xbf810000
	.rodata
	.p2align 6
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 33
		.amdhsa_next_free_sgpr 17
		.amdhsa_accum_offset 36
	.end_amdhsa_kernel
