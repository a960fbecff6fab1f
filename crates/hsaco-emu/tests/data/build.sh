#!/usr/bin/env bash
# Build the code objects the hsaco-emu tests run, from the OpenCL C corpus, with the
# corpus builder's flags (../shared/corpus/build-cl-corpus.sh, xtask/src/corpus.rs:
# nogpulib configuration), linked with ld.lld-22 -shared and stripped (-s: the kernels
# stay in .dynsym) to keep the files small.
#
#   crates/hsaco-emu/tests/data/build.sh      (from anywhere; needs clang-22, ld.lld-22)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${SRC:-$HERE/../../../../../shared/corpus/cl}
[ -d "$SRC" ] || SRC=/work/shared/corpus/cl
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# every non-image corpus kernel but 19_libm (below) for each target at code object v4
# and v5
for target in gfx900 gfx906 gfx90a gfx942 gfx1100 gfx803 gfx1030 gfx1200; do
  for cov in 4 5; do
    for k in 01_vadd 02_reduce_lds 03_atomics 04_fp64 05_half 06_calls 07_scratch 08_dyn_lds 09_matmul_tiled 10_histogram 11_scan 12_intops 13_control_flow 14_vectors 15_wave_intrinsics 16_matrix 17_printf; do
      clang-22 -target amdgcn-amd-amdhsa -mcpu=$target -mcode-object-version=$cov \
        -O2 -x cl -cl-std=CL2.0 -DCORPUS_COV=$cov -I"$SRC" -nogpulib \
        -c "$SRC/$k.cl" -o "$TMP/$k.o" 2>/dev/null
      ld.lld-22 -shared --no-undefined -s "$TMP/$k.o" -o "$HERE/${k}_${target}_cov$cov.co"
    done
  done
done
# gfx10's absolute flat scratch (FLAT_SCRATCH written by the prolog with s_setreg):
# clang uses it on gfx10 only with the enable-flat-scratch feature
for cov in 4 5; do
  clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx1030 -mcode-object-version=$cov \
    -O2 -x cl -cl-std=CL2.0 -nogpulib -Xclang -target-feature -Xclang +enable-flat-scratch \
    -c "$HERE/flat_scratch.cl" -o "$TMP/flat_scratch.o" 2>/dev/null
  ld.lld-22 -shared --no-undefined -s "$TMP/flat_scratch.o" -o "$HERE/flat_scratch_gfx1030_cov$cov.co"
done
# gfx1100 in wave64 (-mwavefrontsize64): lane masks are SGPR pairs on an RDNA target.
# 16_matrix is not built: clang-22 refuses it there ("'__builtin_amdgcn_wmma_f32_16x16x16_f16_w32'
# needs target feature gfx11-insts,wavefrontsize32"; the source calls the wave32 builtin)
for cov in 4 5; do
  for k in 01_vadd 02_reduce_lds 03_atomics 04_fp64 05_half 06_calls 07_scratch 08_dyn_lds 09_matmul_tiled 10_histogram 11_scan 12_intops 13_control_flow 14_vectors 15_wave_intrinsics 17_printf; do
    clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -mwavefrontsize64 -mcode-object-version=$cov \
      -O2 -x cl -cl-std=CL2.0 -DCORPUS_COV=$cov -I"$SRC" -nogpulib \
      -c "$SRC/$k.cl" -o "$TMP/$k.o" 2>/dev/null
    ld.lld-22 -shared --no-undefined -s "$TMP/$k.o" -o "$HERE/${k}_gfx1100w64_cov$cov.co"
  done
done
# gfx11 WMMA in wave64 and the f16 dot product there (wmma_w64.cl: 16_matrix's wave32
# builtin does not build for wave64)
for cov in 4 5; do
  clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -mwavefrontsize64 -mcode-object-version=$cov \
    -O2 -x cl -cl-std=CL2.0 -DCORPUS_COV=$cov -I"$SRC" -nogpulib \
    -c "$HERE/wmma_w64.cl" -o "$TMP/wmma_w64.o" 2>/dev/null
  ld.lld-22 -shared --no-undefined -s "$TMP/wmma_w64.o" -o "$HERE/wmma_w64_gfx1100w64_cov$cov.co"
done
# 19_libm (OpenCL built-ins from the ROCm device libraries) in the corpus's devlibs
# configuration (../shared/corpus/build-cl-corpus.sh, xtask/src/corpus.rs): Debian's
# rocm-device-libs 5.2 bitcode plus oclc_daz_opt_off.bc. It has oclc_isa_version_*.bc
# for gfx803/900/906/908/90a/940/1010-1036 only, so gfx942, gfx1100 and gfx1200 do not
# build ("cannot find ROCm device library for gfx942"). libm_parts.cl (one built-in per
# kernel, checked each against its own ULP bound) at v5 only: its math code is the same
# at v4.
DEVLIBS=${DEVLIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
DL=(-DUSE_DEVLIBS "--rocm-device-lib-path=$DEVLIBS" -Xclang -mlink-builtin-bitcode
    -Xclang "$DEVLIBS/oclc_daz_opt_off.bc")
for target in gfx803 gfx900 gfx906 gfx90a gfx1030; do
  for cov in 4 5; do
    clang-22 -target amdgcn-amd-amdhsa -mcpu=$target -mcode-object-version=$cov \
      -O2 -x cl -cl-std=CL2.0 -DCORPUS_COV=$cov -I"$SRC" "${DL[@]}" \
      -c "$SRC/19_libm.cl" -o "$TMP/19_libm.o" 2>/dev/null
    ld.lld-22 -shared --no-undefined -s "$TMP/19_libm.o" -o "$HERE/19_libm_${target}_cov$cov.co"
  done
  clang-22 -target amdgcn-amd-amdhsa -mcpu=$target -mcode-object-version=5 \
    -O2 -x cl -cl-std=CL2.0 "${DL[@]}" \
    -c "$HERE/libm_parts.cl" -o "$TMP/libm_parts.o" 2>/dev/null
  ld.lld-22 -shared --no-undefined -s "$TMP/libm_parts.o" -o "$HERE/libm_parts_${target}_cov5.co"
done
# f64 references for tanh/cbrt/erf (mpmath): libm_ref.py > libm_f64_ref.txt
