; MCPU: gfx1100
	.data
	.byte .amdgcn.gfx_generation_number
	.byte .amdgcn.gfx_generation_minor
	.byte .amdgcn.gfx_generation_stepping
	.long 1 == 1, 2 > 1, 3 < 1, 4 != 4, 5 >= 5, 6 <= 5, 1 && 0, 1 || 0, !0, ~0
	.long 7 % 4, 7 / 2, 1 << 3 >> 1, 6 & 3 | 8 ^ 1, -(3)
	.long max(1, 9, 3), max(4), or(0, 0), or(0, 2)
	.long alignto(5, 4), alignto(8, 4)
