	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl k_a
	.protected k_a
	.p2align 8
k_a:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, inl@rel32@lo+4
	s_addc_u32 s5, s5, inl@rel32@hi+12
	s_endpgm
	.section .text.inl,"axG",@progbits,inl,comdat
	.weak inl
	.hidden inl
	.type inl,@function
inl:
	s_nop 0
	s_setpc_b64 s[30:31]
	.section .rodata.inl,"aG",@progbits,inl,comdat
	.long 0xaaaa
