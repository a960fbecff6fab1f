; MCPU: gfx1100
	.text
	v_add_f32 v0, v1, v2
	.data
	.long 1
	s_nop 0
