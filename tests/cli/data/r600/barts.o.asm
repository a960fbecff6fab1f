	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	2
	.long	165900
	.long	0
	.long	166120
	.long	0
vadd:                                   ; @vadd
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	2
	.long	165900
	.long	0
	.long	166120
	.long	0
__clang_ocl_kern_imp_vadd:              ; @__clang_ocl_kern_imp_vadd
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	2
	.long	165900
	.long	0
	.long	166120
	.long	0
lut:                                    ; @lut
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	2
	.long	165900
	.long	0
	.long	166120
	.long	0
__clang_ocl_kern_imp_lut:               ; @__clang_ocl_kern_imp_lut
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	.AMDGPU.config,"",@progbits
	.long	165956
	.long	1
	.long	165900
	.long	0
ps_main:                                ; @ps_main
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	.AMDGPU.config,"",@progbits
	.long	165984
	.long	257
	.long	165900
	.long	0
vs_main:                                ; @vs_main
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	2
	.long	165900
	.long	0
	.long	166120
	.long	64
lds_reverse:                            ; @lds_reverse
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
table:
	.long	1                               ; 0x1
	.long	2                               ; 0x2
	.long	3                               ; 0x3
	.long	4                               ; 0x4
	.long	5                               ; 0x5
	.long	6                               ; 0x6
	.long	7                               ; 0x7
	.long	8                               ; 0x8
