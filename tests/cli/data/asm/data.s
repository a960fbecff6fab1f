	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.data
	.globl table
table:
	.long 1, 2, 3
1:	.quad table + 4
	.quad 1b
