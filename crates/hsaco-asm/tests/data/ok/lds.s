; MCPU: gfx906
	.amdgpu_lds lds_a, 256, 16
	.amdgpu_lds lds_b, 4
	.data
	.long lds_a
	.long lds_b
