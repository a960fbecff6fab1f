	.text
	.globl k
k:
	.data
	.long 1 +
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 1
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
