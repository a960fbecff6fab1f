/* A private array through gfx10's absolute flat scratch (the prolog writes
 * FLAT_SCRATCH with s_setreg), built with the enable-flat-scratch feature. */
kernel void private_flat(global int *o, int n) {
  int a[64];
  uint i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
           __builtin_amdgcn_workitem_id_x();
  for (int k = 0; k < 64; k++)
    a[k] = o[(i + k) % 64] * n + k;
  o[64 + i] = a[(o[i] + i) & 63];
}
