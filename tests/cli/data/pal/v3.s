// A PAL object with version-3 metadata as written by hand (gen.sh): amdpal.version
// 3.0, .compute_registers as named fields, more hardware stage keys (.lds_size,
// .wavefront_size, ...) than clang-22 writes for OpenCL.
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .api:            Vulkan
    .compute_registers:
      .tg_size_en:     true
      .tgid_x_en:      true
      .tidig_comp_cnt: 0x1
    .hardware_stages:
      .cs:
        .checksum_value: 0x9444d7d
        .debug_mode:     false
        .entry_point:    _amdgpu_cs_main
        .entry_point_symbol: main
        .lds_size:       0x400
        .mem_ordered:    true
        .sgpr_count:     0x20
        .vgpr_count:     0x10
        .wavefront_size: 0x40
    .registers:
      0x2e12: 0xaf0041
amdpal.version:
  - 0x3
  - 0
...
	.end_amdgpu_pal_metadata
	.text
	s_endpgm
