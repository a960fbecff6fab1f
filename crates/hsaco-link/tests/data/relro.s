	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl f
	.protected f
f:
	s_endpgm
	.section .data.rel.ro,"aw",@progbits
	.p2align 3
ptr:
	.quad f
	.section .note.extra,"a",@note
	.p2align 2
	.long 4, 4, 1
	.asciz "ABC"
	.long 0
	.section .note.wide,"a",@note
	.p2align 3
	.long 4, 8, 2
	.asciz "XYZ"
	.quad 0
	.set absval, 0x1234
	.globl absval
	.data
	.long absval
	.weak wdef
wdef:
	.long 1
	.section .debug_str,"MS",@progbits,1
	.asciz "dbg"
	.section .custom,"a",@progbits
	.byte 1
