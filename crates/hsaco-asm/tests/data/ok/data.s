; MCPU: gfx900
	.data
bytes:
	.byte 1, 2, -1, 0xff, 'a', 3+4
	.short 0x1234, -2
	.value 6
	.2byte 7
	.long 0xdeadbeef, 1 << 20, (10 - 3) * 2
	.int 8
	.4byte 9
	.quad 0x123456789abcdef0, -1
	.8byte 10
	.ascii "ab\n\t\"\\", "c"
	.asciz "zero", "two"
	.string "str\101\x42"
	.zero 3
	.zero 2, 0x55
	.space 2
	.skip 1, 7
	.fill 2, 4, 0x11223344
	.fill 3, 2, 0xabcd
	.fill 1
	.byte 010, 0b101, 0x7f
end:
	.long end - bytes
