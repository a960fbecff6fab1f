; MCPU: gfx1100
	.text
	.long 1
	.p2align 2
	.long 2
	.p2align 4
	.long 3
	.balign 16
	.long 4
	.align 8
	.p2alignl 4, 0xbf800001
	.p2align 2, 0x7
	.long 5
	.p2align 5
	.data
	.byte 1
	.p2align 3, 0x5a
	.byte 2
	.balign 8, 0x33
	.short 3
	.balignw 8, 0x1122
	.long 4
	.balignl 16, 0x01020304
	.byte 5
	.p2align 4, 0, 2
	.byte 6
	.p2align 2, 0, 2
