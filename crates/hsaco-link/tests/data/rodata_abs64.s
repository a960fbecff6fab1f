	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl f
	.protected f
f:
	s_endpgm
	.rodata
	.quad f
