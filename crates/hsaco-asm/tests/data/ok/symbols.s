; MCPU: gfx942
	.text
	.globl gfunc
	.p2align 2
	.type gfunc,@function
gfunc:
	.long 0, 0
.Lend:
	.size gfunc, .Lend-gfunc
	.weak wsym
wsym:
	.long 1
	.local lsym
lsym:
	.long 2
	.hidden hsym
	.globl hsym
hsym:
	.protected psym
	.globl psym
psym:
	.type obj,@object
	.data
obj:
	.long 3
	.size obj, 4
	.set abs1, 42
	.equ abs2, abs1 * 2
	abs3 = abs2 - 1
	.set rel1, obj + 2
	.set late, later_defined + 1
	.set later_defined, 7
	.long abs3, late
	.globl undef_used
	.quad undef_used
	.quad undef_plain + 8
	.long gfunc
	.quad obj + 4
	.quad .Lend
	.globl unused_global
"quoted sym":
	.long 5
