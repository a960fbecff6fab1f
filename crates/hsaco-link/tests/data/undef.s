	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl k
	.protected k
	.p2align 8
k:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, missing@rel32@lo+4
	s_addc_u32 s5, s5, missing@rel32@hi+12
	s_endpgm
