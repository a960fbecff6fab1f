; MCPU: gfx1100
	.rodata
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 1
		.amdhsa_accum_offset 4
		.amdhsa_float_round_mode_32 9
		.amdhsa_bogus_field 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_next_free_vgpr 2
	.end_amdhsa_kernel
