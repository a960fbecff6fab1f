; MCPU: gfx1100 -mattr=+wavefrontsize64
	.text
start:
	.long 1, 2
	.set here, .
	.set size_so_far, . - start
	.long here - start, size_so_far
	.weak weak_undef
	.long weak_undef
	.globl late_global
late_global:
	.long 3
	.size late_global, . - late_global
	.type late_global, @function
	.local forward_local
	.long forward_local
	.data
forward_local:
	.long 4
	.equiv once, 5
	.long once
	.p2align 3
	.quad start + 4, late_global
	.byte 'x', '\n' - 10
	.section .text.hot,"ax",@progbits
	.globl hot
hot:
	.long 0xbf810000
	.text
	.long 0xbf810000
	.ident "first"
	.ident "second"
	.section .note.GNU-stack,"",@progbits
	.addrsig
	.addrsig_sym late_global
	.addrsig_sym never_mentioned
