	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.data
	.globl wdef
wdef:
	.long 2
	.globl g2
	.hidden g2
g2: .long 3
