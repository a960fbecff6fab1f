// An old-style PAL object (gen.sh): `.amd_amdgpu_pal_metadata` makes llvm-mc-22 write
// an NT_AMD_PAL_METADATA note of (register, value) pairs instead of MessagePack. The
// values are those of kernels.cl's reverse_lds for gfx900 (COMPUTE_PGM_RSRC1/2) and
// SPI_PS_INPUT_ENA 1.
	.amd_amdgpu_pal_metadata 0x2e12, 0xaf0041, 0x2e13, 0x8084, 0xa1b3, 1
	.text
	s_endpgm
