; MCPU: gfx906
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.amdhsa_code_object_version 9
	.include "missing.inc"
