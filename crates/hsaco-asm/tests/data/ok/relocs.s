; MCPU: gfx1030
	.text
	.globl fn
fn:
	.long 0
	.data
	.quad fn
	.quad fn + 16
	.long fn
	.quad ext
	.long ext + 4
	.quad ext@rel64
	.long ext@rel32@lo
	.long ext@rel32@hi
	.long ext@abs32@lo
	.long ext@abs32@hi
	.long ext@gotpcrel32@lo
	.long ext@gotpcrel32@hi
	.quad local_label
	.long local_label - 4
local_label:
	.long 9
	.section .rodata.str1.1,"aMS",@progbits,1
.Lstr:
	.asciz "hello"
	.data
	.quad .Lstr
	.quad .Lstr + 2
