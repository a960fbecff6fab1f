#!/bin/sh
# Regenerates the hsaco-link test fixtures: relocatable objects from the sources here
# (clang-22 for .cl, llvm-mc-22 for .s) and, for each link the tests make, what
# ld.lld-22 -shared writes (the expected output) or says (for the links it refuses).
# Run from this directory: sh gen.sh
set -eu
CLANG=${CLANG:-clang-22}
MC=${MC:-llvm-mc-22}
LLD=${LLD:-ld.lld-22}
cl() { "$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c "$1.cl" -o "$1.o"; }
# HIP device code as -fgpu-rdc compiles it (bitcode, then an object): COMDAT kernels,
# device globals in .data/.bss with absolute addresses
hip() {
  "$CLANG" -x hip --cuda-device-only -nogpulib -nogpuinc --offload-arch=gfx90a -O2 -fgpu-rdc -c "$1.hip" -o "$1.bc"
  "$CLANG" -target amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c "$1.bc" -o "$1.o"
  rm -f "$1.bc"
}
mc() { "$MC" -triple amdgcn-amd-amdhsa -mcpu="$2" -filetype=obj "$1.s" -o "$1.o"; }
cl kernel
cl multi_a
cl multi_b
hip hip_a
hip hip_b
# kernel.cl again with DWARF: relocations in non-allocated sections
"$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -g -c kernel.cl -o kernel_g.o
mc data gfx90a
mc strs gfx90a
mc relro gfx90a
mc relro2 gfx90a
mc got gfx90a
mc comdat_a gfx90a
mc rel16 gfx90a
mc weak_undef gfx90a
mc abs_a gfx90a
mc abs_b gfx90a
mc abs32_lo gfx90a
mc comdat_b gfx90a
mc rodata_abs64 gfx90a
mc undef gfx90a
mc dup_a gfx90a
mc dup_b gfx90a
mc gfx1100 gfx1100
"$LLD" -shared kernel.o -o kernel.co
"$LLD" -shared multi_a.o multi_b.o -o multi.co
"$LLD" -shared data.o -o data.co
"$LLD" -shared strs.o -o strs.co
"$LLD" -shared kernel_g.o -o kernel_g.co
"$LLD" -shared relro.o relro2.o -o relro.co
"$LLD" -shared got.o -o got.co
"$LLD" -shared comdat_a.o comdat_b.o -o comdat.co
"$LLD" -shared hip_a.o hip_b.o -o hip.co
"$LLD" -shared rel16.o abs_a.o abs_b.o -o abs.co
"$LLD" -shared weak_undef.o -o weak_undef.co
# the version line ld.lld puts in .comment
"$LLD" --version | sed -e 's/ (compatible with GNU linkers)//' -e 's/^/Linker: /' > lld-comment.txt
# what ld.lld says where it refuses (the tests check hsaco names the same symbols and places)
for link in "undef.o" "dup_a.o dup_b.o" "data.o gfx1100.o" "rodata_abs64.o" "hip_b.o" "abs32_lo.o abs_b.o"; do
  name=$(echo "$link" | sed -e 's/\.o//g' -e 's/ /+/g')
  # shellcheck disable=SC2086
  if "$LLD" -shared --no-undefined $link -o /dev/null 2> "$name.lld-error"; then
    echo "ld.lld links $link" >&2; exit 1
  fi
done
