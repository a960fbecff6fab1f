	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl g
	.protected g
g:
	s_endpgm
	.data
	.long ext
	.quad ext
