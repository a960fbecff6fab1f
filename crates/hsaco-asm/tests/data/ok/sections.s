; MCPU: gfx90a
	.text
	.byte 1
	.data
	.byte 2
	.bss
	.zero 16
	.rodata
	.byte 3
	.section .AMDGPU.csdata,"",@progbits
	.section .my.rodata,"a",@progbits
	.byte 4
	.section .my.data,"aw",@progbits
	.byte 5
	.section .my.bss,"aw",@nobits
	.zero 8
	.section .my.str,"aMS",@progbits,1
	.asciz "merge"
	.section .my.exec,"ax",@progbits
	.byte 6
	.section ".note.GNU-stack","",@progbits
	.section .my.note,"a",@note
	.long 0
	.text
	.byte 7
	.previous
	.byte 8
	.pushsection .data
	.byte 9
	.popsection
	.byte 10
