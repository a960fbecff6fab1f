#!/usr/bin/env python3
"""Write a HIP device-only source with N template instantiations of a few kernels in
nested namespaces: the shape of a ROCm library object (hundreds of kernels with long
mangled names). Usage: gen.py N > lib.hip"""
import itertools, sys

n = int(sys.argv[1])
types = ["float", "double", "int", "unsigned int", "long", "short",
         "rocfake::detail::complex<float>", "rocfake::detail::complex<double>"]
blocks = [64, 128, 256, 512]
kernels = ["gemm_batched_strided_kernel", "axpy_reduce_kernel", "trsv_lower_unit_kernel"]
print("""#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
namespace rocfake { namespace detail {
template <typename T> struct complex { T re, im;
  __device__ complex operator+(complex o) const { return {re + o.re, im + o.im}; }
  __device__ complex operator*(complex o) const { return {re * o.re - im * o.im, re * o.im + im * o.re}; } };
template <typename T, typename U, int BLOCK, bool TRANS> struct op {
  __device__ static T f(T a, U b) { return TRANS ? a * (T)b : a + (T)b; } };
template <typename T> struct op<complex<T>, complex<T>, 64, true> {
  __device__ static complex<T> f(complex<T> a, complex<T> b) { return a * b; } };
}
namespace blas { namespace kernels {
using namespace rocfake::detail;""")
for k in kernels:
    print(f"""template <typename T, typename U, int BLOCK, bool TRANS>
__global__ void {k}(const T* __restrict__ a, const U* __restrict__ b, T* c, long lda, int n) {{
  long i = __builtin_amdgcn_workitem_id_x() + (long)__builtin_amdgcn_workgroup_id_x() * BLOCK;
  if (i < n) c[i * lda] = op<T, U, BLOCK, TRANS>::f(a[i], b[i]);
}}""")
combos = ((k, t, u, blk, tr) for t, u, blk, tr, k in itertools.product(types, types, blocks, [False, True], kernels))
count = 0
for k, t, u, blk, tr in combos:
    if count == n:
        break
    if ("complex" in t) != ("complex" in u):
        continue
    if "complex" in t and t != u:
        continue
    print(f"template __global__ void {k}<{t}, {u}, {blk}, {'true' if tr else 'false'}>"
          f"(const {t}*, const {u}*, {t}*, long, int);")
    count += 1
print("}}}")
if count < n:
    sys.exit(f"only {count} combinations")
