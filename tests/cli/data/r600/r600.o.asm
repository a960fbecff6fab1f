	.section	.AMDGPU.config,"",@progbits
	.long	165992
	.long	1
	.long	165900
	.long	0
	.long	166120
	.long	0
nop:                                    ; @nop
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	.AMDGPU.config,"",@progbits
	.long	165992
	.long	1
	.long	165900
	.long	0
	.long	166120
	.long	0
__clang_ocl_kern_imp_nop:               ; @__clang_ocl_kern_imp_nop
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	1
	.long	165900
	.long	0
ps_main:                                ; @ps_main
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	.AMDGPU.config,"",@progbits
	.long	165992
	.long	257
	.long	165900
	.long	0
vs_main:                                ; @vs_main
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
