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
# rocm-device-libs 5.2 bitcode plus oclc_daz_opt_off.bc. libm_parts.cl (one built-in per
# kernel, each checked against its own ULP bound) at v5 only: its math code is the same
# at v4.
DEVLIBS=${DEVLIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
DL=(-DUSE_DEVLIBS "--rocm-device-lib-path=$DEVLIBS" -Xclang -mlink-builtin-bitcode
    -Xclang "$DEVLIBS/oclc_daz_opt_off.bc")
devlibs_build() {   # target cov source output
  clang-22 -target amdgcn-amd-amdhsa -mcpu=$1 -mcode-object-version=$2 \
    -O2 -x cl -cl-std=CL2.0 -DCORPUS_COV=$2 -I"$SRC" "${DL[@]}" \
    -c "$3" -o "$TMP/devlibs.o" 2>/dev/null
  ld.lld-22 -shared --no-undefined -s "$TMP/devlibs.o" -o "$4"
}
for target in gfx803 gfx900 gfx906 gfx90a gfx1030; do
  for cov in 4 5; do
    devlibs_build $target $cov "$SRC/19_libm.cl" "$HERE/19_libm_${target}_cov$cov.co"
  done
  devlibs_build $target 5 "$HERE/libm_parts.cl" "$HERE/libm_parts_${target}_cov5.co"
done
# gfx942, gfx1100 and gfx1200: the 5.2 bitcode has no oclc_isa_version_*.bc for them
# (it has 600-705, 801-810, 900-90c, 940, 1010-1036), and clang-22 stops with "cannot
# find ROCm device library for gfx942". That library defines one constant,
# __oclc_ISA_version (9400 in oclc_isa_version_940.bc), which the 5.2 ocml/ockl/opencl
# compare only with 8000, 9000, 9006, 9008 and 9010; so the missing one is made here
# (9402, 11000, 12000) and the libraries are linked as clang's driver links them
# (these flags give the driver's gfx900 and gfx1030 code objects byte for byte; with
# oclc_isa_version_940.bc or _1036.bc instead, the same code objects again).
DLMANUAL() {   # target isa-version cov wave64(on/off)
  local l=()
  printf 'target datalayout = "%s"\ntarget triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 %s, align 4\n' \
    "m:e-e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32" \
    "$2" >"$TMP/isa.ll"
  llvm-as-22 "$TMP/isa.ll" -o "$TMP/isa.bc"
  for b in opencl ocml ockl oclc_daz_opt_off oclc_unsafe_math_off oclc_finite_only_off \
           oclc_correctly_rounded_sqrt_on "oclc_wavefrontsize64_$4" "oclc_abi_version_${3}00"; do
    l+=(-Xclang -mlink-builtin-bitcode -Xclang "$DEVLIBS/$b.bc")
  done
  l+=(-Xclang -mlink-builtin-bitcode -Xclang "$TMP/isa.bc")
  echo "${l[@]}"
}
# (gfx1100w64: gfx1100 built for wave64, with oclc_wavefrontsize64_on)
for tv in gfx942:gfx942:9402:on gfx1100:gfx1100:11000:off gfx1200:gfx1200:12000:off \
          gfx1100w64:gfx1100:11000:on; do
  IFS=: read -r name target isa w64 <<<"$tv"
  wflag=(); [ $name = gfx1100w64 ] && wflag=(-mwavefrontsize64)
  for cov in 4 5; do
    for f in 19_libm libm_parts; do
      [ $f = libm_parts ] && [ $cov = 4 ] && continue
      src="$SRC/19_libm.cl"; [ $f = libm_parts ] && src="$HERE/libm_parts.cl"
      # shellcheck disable=SC2046
      clang-22 -target amdgcn-amd-amdhsa -mcpu=$target "${wflag[@]}" -mcode-object-version=$cov \
        -O2 -x cl -cl-std=CL2.0 -DCORPUS_COV=$cov -I"$SRC" -DUSE_DEVLIBS -nogpulib \
        $(DLMANUAL $target $isa $cov $w64) -c "$src" -o "$TMP/devlibs.o" 2>/dev/null
      ld.lld-22 -shared --no-undefined -s "$TMP/devlibs.o" -o "$HERE/${f}_${name}_cov$cov.co"
    done
  done
done
# f64 references for tanh/cbrt/erf (mpmath): python3 libm_ref.py > libm_f64_ref.txt
