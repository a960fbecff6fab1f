	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl f
	.protected f
	.p2align 8
f:
	s_branch target
	s_endpgm
	.section .text.t,"ax",@progbits
	.globl target
	.hidden target
target:
	s_endpgm
	.set absv, 0x123456789a
	.set absv2, 0x1234
	.globl absv
	.protected absv
	.data
	.long absv2
	.quad absv
