; Graphics shaders of the PAL fixtures (gen.sh): a vertex and a pixel shader, whose
; PAL metadata has .vs and .ps hardware stages and SPI_SHADER_* registers.
define amdgpu_vs void @vs_main(<4 x float> inreg %pos, float %x) {
  %v = insertelement <4 x float> %pos, float %x, i32 0
  %a = extractelement <4 x float> %v, i32 0
  %b = extractelement <4 x float> %v, i32 1
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %a, float %b, float %a, float 1.0, i1 true, i1 false)
  ret void
}

define amdgpu_ps void @ps_main(float inreg %c, <2 x float> %uv) {
  %u = extractelement <2 x float> %uv, i32 0
  %w = fmul float %u, %c
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %w, float %u, float %c, float 1.0, i1 true, i1 true)
  ret void
}

declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
