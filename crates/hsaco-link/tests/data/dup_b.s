	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	s_nop 0
	s_nop 0
	.globl dup
dup:
	s_endpgm
