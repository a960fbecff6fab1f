#!/bin/sh
# Builds the PAL and Mesa fixtures and the LLVM references beside them:
#   pal-<cpu>.o       clang-22 -target amdgcn-amd-amdpal, kernels.cl (compute)
#   pal-gfx-<cpu>.o   the same target, shaders.ll (vertex and pixel shader)
#   mesa-<cpu>.o      clang-22 -target amdgcn-mesa-mesa3d, kernels.cl
#   pal-legacy.o      llvm-mc-22 of legacy.s (an NT_AMD_PAL_METADATA note)
#   pal-v3.o          llvm-mc-22 of v3.s (version 3 metadata, .compute_registers)
# and for each object:
#   <obj>.readelf     llvm-readelf-22 -h -S -s --notes (the OS ABI, the ISA name
#                     note with LLVM's triple, the metadata blocks)
#   <obj>.pal         PAL objects: the metadata block LLVM prints in assembly, with
#                     register names ('0x2e12 (COMPUTE_PGM_RSRC1)': 0xaf0041)
#   <obj>.config      Mesa objects: llvm-objdump-22 -s -j .AMDGPU.config
# Usage: gen.sh [--check]  (--check compares with LLVM instead of writing)
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp"
pal_block() {
    sed -n '/^[[:space:]]*\.amdgpu_pal_metadata/,/\.end_amdgpu_pal_metadata/p;/\.amd_amdgpu_pal_metadata/p' "$1"
}
for cpu in gfx900 gfx1030 gfx1100 gfx1201; do
    for out in c S; do
        ext=$(echo $out | sed 's/c/o/;s/S/s/')
        clang-22 -target amdgcn-amd-amdpal -mcpu=$cpu -O2 -nogpulib -$out -x cl kernels.cl \
            -o "$tmp/pal-$cpu.$ext" 2>/dev/null
    done
    pal_block "$tmp/pal-$cpu.s" > "$tmp/pal-$cpu.o.pal"
done
for cpu in gfx900 gfx1100; do
    for out in c S; do
        ext=$(echo $out | sed 's/c/o/;s/S/s/')
        clang-22 -target amdgcn-amd-amdpal -mcpu=$cpu -O2 -$out -x ir shaders.ll \
            -o "$tmp/pal-gfx-$cpu.$ext" 2>/dev/null
        clang-22 -target amdgcn-mesa-mesa3d -mcpu=$cpu -O2 -nogpulib -$out -x cl kernels.cl \
            -o "$tmp/mesa-$cpu.$ext" 2>/dev/null
    done
    pal_block "$tmp/pal-gfx-$cpu.s" > "$tmp/pal-gfx-$cpu.o.pal"
    llvm-objdump-22 -s -j .AMDGPU.config "$tmp/mesa-$cpu.o" | sed "s|$tmp/||" > "$tmp/mesa-$cpu.o.config"
done
llvm-mc-22 -triple amdgcn-amd-amdpal -mcpu=gfx900 -filetype=obj legacy.s -o "$tmp/pal-legacy.o"
llvm-mc-22 -triple amdgcn-amd-amdpal -mcpu=gfx900 legacy.s > "$tmp/legacy.echo.s"
pal_block "$tmp/legacy.echo.s" > "$tmp/pal-legacy.o.pal"
llvm-mc-22 -triple amdgcn-amd-amdpal -mcpu=gfx1100 -filetype=obj v3.s -o "$tmp/pal-v3.o"
llvm-mc-22 -triple amdgcn-amd-amdpal -mcpu=gfx1100 v3.s > "$tmp/v3.echo.s"
pal_block "$tmp/v3.echo.s" > "$tmp/pal-v3.o.pal"
status=0
for o in "$tmp"/*.o; do
    llvm-readelf-22 -h -S -s --notes "$o" | sed "s|$tmp/||" > "$o.readelf"
done
for f in "$tmp"/*.o "$tmp"/*.o.*; do
    name=$(basename "$f")
    if [ "$1" = "--check" ]; then
        cmp -s "$f" "$name" || { echo "differs: $name"; status=1; }
    else
        cp "$f" "$name"
    fi
done
exit $status
