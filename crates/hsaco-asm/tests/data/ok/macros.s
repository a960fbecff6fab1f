; MCPU: gfx1201
	.data
	.macro pair a, b=7
	.byte \a, \b
	.endm
	.macro twice x
	pair \x
	pair \x, \x
	.endm
	pair 1, 2
	pair 3
	twice 4
	.rept 3
	.byte 0xee
	.endr
	.irp v, 10, 11, 12
	.short \v
	.endr
	.irpc c, 123
	.byte \c
	.endr
	.set flag, 1
	.if flag
	.byte 0x11
	.else
	.byte 0x22
	.endif
	.if flag - 1
	.byte 0x33
	.elseif flag
	.byte 0x44
	.else
	.byte 0x55
	.endif
	.ifdef flag
	.byte 0x66
	.endif
	.ifndef nothere
	.byte 0x77
	.endif
	.ifeq flag - 1
	.byte 0x88
	.endif
	.ifne flag
	.byte 0x99
	.endif
	.ifgt flag
	.byte 0xaa
	.endif
	.iflt flag
	.byte 0xbb
	.endif
	.ifb
	.byte 0xcc
	.endif
	.ifnb x
	.byte 0xdd
	.endif
	.if 0
	.if 1
	.byte 0xde
	.endif
	.endif
