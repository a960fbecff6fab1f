/* gfx11 WMMA in wave64 (the corpus's 16_matrix calls the wave32 builtin, which
 * clang-22 refuses with -mwavefrontsize64): each work-item loads 16 halves of A and of
 * B and 4 floats of C, as 16_matrix does in wave32; and the f16 dot product. GID0 is
 * the corpus common.h work-item index (built with -I the corpus directory). */
#include "common.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef float v4f __attribute__((ext_vector_type(4)));
typedef half v16h __attribute__((ext_vector_type(16)));

kernel void wmma_w64(global const float *a, global const float *b, global float *c) {
  uint i = GID0();
  v16h x = __builtin_convertvector(*(global const float16 *)(a + 16 * i), v16h);
  v16h y = __builtin_convertvector(*(global const float16 *)(b + 16 * i), v16h);
  global float4 *cp = (global float4 *)(c + 4 * i);
  v4f acc = __builtin_convertvector(*cp, v4f);
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w64(x, y, acc);
  *cp = __builtin_convertvector(acc, float4);
}

kernel void fdot2_w64(global const half2 *a, global const half2 *b, global float *out) {
  uint i = GID0();
  out[i] = __builtin_amdgcn_fdot2(a[i], b[i], out[i], false);
}
