; MCPU: gfx900
	.data
	.long 1 +
	.byte (2
	.bogus_directive 3
	.long undefined_thing / 2
label:
label:
	.p2align 3, 0, 1, 2
	.byte 300
