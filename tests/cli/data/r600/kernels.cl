// Compute kernels of the r600 fixtures (gen.sh). r600 targets have no OpenCL
// library: work-item IDs come from the r600 built-ins. R600/R700 processors
// cannot select global stores in LLVM 22 ("Cannot select: store"), so for them
// (no -DGLOBAL_STORES) the kernel is one with an empty body. The LDS kernel is
// in lds.ll.
#ifdef GLOBAL_STORES
__constant int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
  int i = __builtin_r600_read_tgid_x() * 64 + __builtin_r600_read_tidig_x();
  c[i] = a[i] + b[i];
}

// a __constant table: R_AMDGPU_ABS32 relocations in .rel.text
__kernel void lut(__global int *c) {
  int i = __builtin_r600_read_tidig_x();
  c[i] = table[i & 7];
}
#else
__kernel void nop(__global int *c) {}
#endif
