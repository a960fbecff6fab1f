__attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
__kernel void second(__global int *p) { p[(__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x())] = helper(p[1]) + 2; }
