	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl f
	.protected f
f:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, hwfn@rel32@lo+4
	s_addc_u32 s5, s5, hwfn@rel32@hi+12
	s_endpgm
	.weak wfn
	.weak hwfn
	.hidden hwfn
