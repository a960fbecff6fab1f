; MCPU: gfx1030
	.data
	.macro m a
	.byte \a
	.endm
	m 1, 2
	.endif
	.else
	.endr
	.if 1
	.byte 1
