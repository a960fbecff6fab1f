// calls a helper defined in multi_b.cl
int helper(int x);
__kernel void first(__global int *p) { p[(__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x())] = helper(p[0]); }
