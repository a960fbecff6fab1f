// one kernel calling a helper (hidden) and a second kernel
static float scale(float x, float k) { return x * k + 1.0f; }

__kernel void saxpy(__global float *y, __global const float *x, float a, uint n) {
  uint i = (__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x());
  if (i < n)
    y[i] = scale(x[i], a) + y[i];
}

__kernel void fill(__global int *p, int v) { p[(__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x())] = v; }
