; MCPU: gfx906
# a hash comment at the start of a line
	.data ; semicolon comment
	.byte 1 // slash comment
	.byte /* inline block */ 2
/* a block
   over lines .byte 99
*/	.byte 3
	.ascii "not ; a // comment"
    # indented hash
	.byte 4	; tab then comment
