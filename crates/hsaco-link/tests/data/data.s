	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.amdhsa_code_object_version 5
	.text
	.globl	kern
	.p2align	8
	.type	kern,@function
	.protected kern
kern:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, counter@rel32@lo+4
	s_addc_u32 s5, s5, counter@rel32@hi+12
	s_getpc_b64 s[6:7]
	s_add_u32 s6, s6, shared_var@gotpcrel32@lo+4
	s_addc_u32 s7, s7, shared_var@gotpcrel32@hi+12
	s_getpc_b64 s[6:7]
	s_add_u32 s6, s6, hidden_var@gotpcrel32@lo+4
	s_addc_u32 s7, s7, hidden_var@gotpcrel32@hi+12
.Lloop:
	s_branch .Lloop
	s_endpgm
.Lfunc_end0:
	.size	kern, .Lfunc_end0-kern

	.section .text.helper,"ax",@progbits
	.globl helper
	.hidden helper
	.type helper,@function
helper:
	s_setpc_b64 s[30:31]

	.data
	.globl shared_var
	.type shared_var,@object
	.p2align 3
shared_var:
	.quad kern
	.quad local_obj
	.quad shared_var
	.quad ext_weak
	.size shared_var, 32
	.globl hidden_var
	.hidden hidden_var
hidden_var:
	.long 7
local_obj:
	.long 9

	.bss
	.globl counter
	.protected counter
	.p2align 2
counter:
	.zero 64

	.section .rodata.cst8,"aM",@progbits,8
	.p2align 3
.Lc1:
	.quad 0x1122334455667788
.Lc2:
	.quad 0x1122334455667788
	.section .rodata.str1.1,"aMS",@progbits,1
.Lstr:
	.asciz "hello"
	.weak ext_weak
	.rodata
	.p2align 6
	.amdhsa_kernel kern
	.amdhsa_next_free_vgpr 1
	.amdhsa_next_free_sgpr 8
	.amdhsa_accum_offset 4
	.end_amdhsa_kernel
