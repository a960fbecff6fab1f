.globl lds_var
.amdgpu_lds lds_var, 64, 16
.text
s_mov_b32 s0, lds_var@abs32@lo
s_endpgm
