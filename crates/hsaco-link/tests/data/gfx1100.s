	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	.globl other
other:
	s_endpgm
