	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.set ext, 0x55
	.globl ext
	.protected ext
