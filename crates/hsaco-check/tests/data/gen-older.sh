#!/bin/sh
# Objects as older compilers write them (issue 13, item 2), for the severity
# tests in tests/it/conformance.rs: built from the corpus's 01_vadd.cl with
# Debian's clang-15 / clang-14 and their ld.lld.
#   clang15-gfx906-cov4.co  .uses_dynamic_stack in code object v4 metadata
#                           (AMDGPUUsage adds the key in v5)
#   clang14-gfx90a-cov4.co  no .agpr_count (AMDGPUUsage requires it for gfx90a)
#   clang14-gfx1030-cov4.co GRANULATED_WAVEFRONT_SGPR_COUNT set, reserved on GFX10+
#   clang14-gfx906-cov3.co  code object v3, which the runtime table does not know
#                           whether ROCm 6.x loads
set -eu
SRC=${SRC:-/work/shared/corpus/cl}
cd "$(dirname "$0")/objects"
T=$(mktemp -d)
build() { # clang-version processor cov output
  "clang-$1" -target amdgcn-amd-amdhsa -mcpu="$2" -mcode-object-version="$3" -nogpulib -O2 \
    -c -x cl -cl-std=CL2.0 -I"$SRC" "$SRC/01_vadd.cl" -o "$T/k.o"
  "ld.lld-$1" -shared "$T/k.o" -o "$4"
}
build 15 gfx906 4 clang15-gfx906-cov4.co
build 14 gfx90a 4 clang14-gfx90a-cov4.co
build 14 gfx1030 4 clang14-gfx1030-cov4.co
build 14 gfx906 3 clang14-gfx906-cov3.co
rm -rf "$T"
