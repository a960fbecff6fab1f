// Seed 001 fixture: on gfx6-gfx8 at code object v5 the shared aperture base is a
// hidden argument (implicit block offset 196). A non-kernel function that needs it
// (here: is this generic pointer in LDS?) should read it through its implicit-argument
// pointer; LLVM 22 reads it from the absolute address 0xc4 instead.
__attribute__((noinline)) int in_lds(__generic int *p) {
    return __builtin_amdgcn_is_shared((const __generic void *)p);
}

__kernel void hidden_in_callee(__global int *out) {
    __local int tile[64];
    uint i = __builtin_amdgcn_workitem_id_x();
    tile[i] = (int)i;
    out[i] = in_lds((__generic int *)&tile[i]) + in_lds((__generic int *)&out[i]) * 2;
}
