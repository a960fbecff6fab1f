; An LDS kernel of the r600 fixtures (gen.sh; Evergreen and later): 256 bytes of
; LDS give SQ_LDS_ALLOC 64 (dwords). In IR because clang-22 cannot build an OpenCL
; kernel that uses __local for r600 (its __clang_ocl_kern_imp_ copy "uses local
; memory in a non-kernel function" and calls abort).
target datalayout = "e-m:e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1"
@tmp = internal addrspace(3) global [64 x i32] poison, align 4

define amdgpu_kernel void @lds_reverse(ptr addrspace(1) %data) {
  %l = call i32 @llvm.r600.read.tidig.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @tmp, i32 0, i32 %l
  store i32 %l, ptr addrspace(3) %p
  %r = sub i32 63, %l
  %q = getelementptr [64 x i32], ptr addrspace(3) @tmp, i32 0, i32 %r
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %data, i32 %l
  store i32 %v, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.r600.read.tidig.x()
