// Two kernels in the shape of the HSA runtime's image-extension blit kernels
// (code object v1): an amd_kernel_code_t (256 bytes) at each kernel symbol, the
// code at kernel_code_entry_byte_offset 256 after it. One source for gfx700,
// gfx803 and gfx900 (gen.sh assembles it with llvm-mc-22 for each). The table
// address is a relocated literal (R_AMDGPU_ABS32_LO/HI), as in the finalizer's
// objects.
.text
.p2align 8
copy:
  .amd_kernel_code_t
    amd_code_version_major = 1
    amd_code_version_minor = 1
    amd_machine_kind = 1
    amd_machine_version_major = 0
    amd_machine_version_minor = 0
    amd_machine_version_stepping = 0
    kernel_code_entry_byte_offset = 256
    granulated_workitem_vgpr_count = 0
    granulated_wavefront_sgpr_count = 1
    float_mode = 192
    enable_dx10_clamp = 1
    enable_ieee_mode = 1
    user_sgpr_count = 6
    enable_sgpr_workgroup_id_x = 1
    enable_sgpr_private_segment_buffer = 1
    enable_sgpr_kernarg_segment_ptr = 1
    private_element_size = 1
    is_ptr64 = 1
    kernarg_segment_byte_size = 16
    wavefront_sgpr_count = 12
    workitem_vgpr_count = 3
    kernarg_segment_alignment = 4
    group_segment_alignment = 4
    private_segment_alignment = 4
    wavefront_size = 6
  .end_amd_kernel_code_t
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_mov_b32 s2, table@abs32@lo
  s_mov_b32 s3, table@abs32@hi
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v0, s0
  v_mov_b32 v1, s1
  v_mov_b32 v2, s2
  flat_store_dword v[0:1], v2
  s_endpgm
copy_end:

.p2align 8
clear:
  .amd_kernel_code_t
    amd_code_version_major = 1
    amd_code_version_minor = 1
    amd_machine_kind = 1
    amd_machine_version_major = 0
    amd_machine_version_minor = 0
    amd_machine_version_stepping = 0
    kernel_code_entry_byte_offset = 256
    granulated_workitem_vgpr_count = 0
    granulated_wavefront_sgpr_count = 0
    float_mode = 192
    enable_dx10_clamp = 1
    enable_ieee_mode = 1
    user_sgpr_count = 6
    enable_sgpr_workgroup_id_x = 1
    enable_sgpr_private_segment_buffer = 1
    enable_sgpr_kernarg_segment_ptr = 1
    private_element_size = 1
    is_ptr64 = 1
    kernarg_segment_byte_size = 16
    wavefront_sgpr_count = 8
    workitem_vgpr_count = 3
    kernarg_segment_alignment = 4
    group_segment_alignment = 4
    private_segment_alignment = 4
    wavefront_size = 6
  .end_amd_kernel_code_t
  s_load_dwordx4 s[0:3], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v0, s2
  v_mov_b32 v1, s3
  v_mov_b32 v2, 0
  flat_store_dword v[0:1], v2
  s_endpgm
clear_end:
