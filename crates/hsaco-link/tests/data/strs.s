	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl f
	.protected f
f:
	s_endpgm
	.section .rodata.str1.1,"aMS",@progbits,1
	.asciz "alpha"
	.asciz "beta"
	.asciz "gamma"
	.asciz "delta"
	.asciz "alpha"
	.asciz "epsilon"
	.asciz "zeta"
	.asciz ""
	.section .rodata.cst8,"aM",@progbits,8
	.quad 1
	.quad 2
	.quad 3
	.quad 1
	.quad 4
