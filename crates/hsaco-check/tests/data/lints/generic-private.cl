// Lint fixture compiled by clang-22 (gen.sh): an entry kernel that makes generic
// pointers to private and LDS memory, and a non-entry helper. At code object v5 on
// gfx803 the kernel loads hidden_private_base and hidden_shared_base from its kernarg
// pointer, and LLVM 22 loads them in the non-entry function __clang_ocl_kern_imp_*
// from the constant addresses 0xc0 and 0xc4 (the write-up's root cause 2). On gfx900
// the apertures come from hardware registers: nothing to report.
__attribute__((noinline)) void store_generic(int *p, int v) { *p = v; }
kernel void generic_private(global int *out, int n) {
  int tmp[16];
  for (int i = 0; i < 16; i++) tmp[i] = n + i;
  int *g = tmp + (n & 15);   // a generic pointer to private memory
  out[0] = *g;
  __local int l[16];
  int *gl = l + (n & 15);    // a generic pointer to LDS
  *gl = n;
  __builtin_amdgcn_s_barrier();
  out[1] = *(volatile int *)gl + *(volatile int *)g;
}
