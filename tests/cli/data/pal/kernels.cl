// Compute kernels of the PAL and Mesa fixtures (gen.sh). No HSA-only built-ins:
// work-item IDs from the amdgcn built-ins, no OpenCL library.
kernel void vadd(global const float *a, global const float *b, global float *c) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  c[i] = a[i] + b[i];
}

kernel void reverse_lds(global int *data) {
  local int tmp[64];
  uint l = __builtin_amdgcn_workitem_id_x();
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + l;
  tmp[l] = data[i];
  __builtin_amdgcn_s_barrier();
  data[i] = tmp[63 - l];
}
