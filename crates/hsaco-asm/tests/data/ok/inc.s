; MCPU: gfx900
	.data
	.byte 1
	.include "included.inc"
	.byte 3
