#!/bin/sh
# Builds the ABI lint fixtures from the .s files beside this script with LLVM 22
# (llvm-mc-22, ld.lld-22 -shared). The .s files are the source; the .co files are
# committed so `cargo test` needs no LLVM. Expected reports: BLESS=1 cargo test -p hsaco-check.
set -eu
cd "$(dirname "$0")"
# LLVM's own code for the real-world case: clang-22 writes the .s, kept beside the .cl
for cpu in gfx803 gfx900; do
  clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=5 \
    -nogpulib -O2 -S -o generic-private-$cpu.s generic-private.cl 2>/dev/null
done
for s in *.s; do
  b=${s%.s}
  cpu=${b##*-}
  llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj -o "$b.o" "$s"
  ld.lld-22 -shared -o "$b.co" "$b.o"
  rm "$b.o"
done
