	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl h
	.protected h
h:
	s_mov_b32 s0, ext@abs32@lo
	s_endpgm
