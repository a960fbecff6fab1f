; Graphics programs of the r600 fixtures (gen.sh): a pixel and a vertex shader,
; whose .AMDGPU.config blocks use SQ_PGM_RESOURCES_PS / _VS (the VS one with
; STACK_SIZE 1).
target datalayout = "e-m:e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1"
define amdgpu_ps void @ps_main(<4 x float> inreg %x) {
  call void @llvm.r600.store.swizzle(<4 x float> %x, i32 0, i32 0)
  ret void
}

define amdgpu_vs void @vs_main(<4 x float> inreg %x) {
  call void @llvm.r600.store.swizzle(<4 x float> %x, i32 60, i32 1)
  ret void
}

declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
