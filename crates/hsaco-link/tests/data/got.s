	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl f
	.protected f
f:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, wk@gotpcrel32@lo+4
	s_addc_u32 s5, s5, wk@gotpcrel32@hi+12
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, absv@gotpcrel32@lo+4
	s_addc_u32 s5, s5, absv@gotpcrel32@hi+12
	s_endpgm
	.weak wk
	.set absv, 0x42
	.globl absv
	.protected absv
