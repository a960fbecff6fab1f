	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl dup
	.p2align 8
dup:
	s_endpgm
