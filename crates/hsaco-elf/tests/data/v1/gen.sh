#!/bin/sh
# Regenerates the LLVM-made inputs of the code object v1 fixtures: for each
# processor, the bytes of .hsatext (kernels.s assembled by llvm-mc-22: two
# amd_kernel_code_t headers and their code), its relocations and kernel symbols
# as text. The v1 objects themselves (*.co) are then written by our own ELF
# writer from these and the layout in AMDGPUUsage (notes, sections, symbols):
# `BLESS=1 cargo test -p hsaco-elf --test it v1` (crates/hsaco-elf/tests/it/v1.rs).
set -eu
cd "$(dirname "$0")"
for cpu in gfx700 gfx803 gfx900; do
  o=$(mktemp)
  llvm-mc-22 -triple=amdgcn-mesa-mesa3d -mcpu=$cpu -filetype=obj kernels.s -o "$o"
  llvm-objcopy-22 -O binary --only-section=.text "$o" $cpu.hsatext.bin
  # "offset type" per relocation (R_AMDGPU_ABS32_LO = 1, R_AMDGPU_ABS32_HI = 2)
  llvm-readelf-22 -r "$o" | awk '/R_AMDGPU_/ { t = ($3 == "R_AMDGPU_ABS32_LO") ? 1 : 2; print $1, t }' > $cpu.relocs
  # "value name" per label (kernel start and end)
  llvm-readelf-22 -s "$o" | awk '$7 == "2" { print $2, $8 }' > $cpu.symbols
  chmod 644 $cpu.hsatext.bin
  rm -f "$o"
done
# What llvm-readelf-22 makes of the objects' notes (once they are written): it pads
# the AMD records of the 8-aligned .note to 8, warns "ELF note overflows container"
# and prints a bogus third note. Kept to compare: hsaco reads all five.
# And what llvm-objdump-22 lists (it needs the triple, e_flags name no processor;
# it refuses each amd_kernel_code_t, "code object v2 is not supported", and dumps
# its 256 bytes as .byte lines before the code): hsaco dis lists the same
# instructions (tests/cli.rs compares them). llvm-objdump-22 does not disassemble
# gfx7 ("disassembly not yet supported for subtarget"); for gfx700 the text of
# `hsaco dis` was checked by assembling it back with llvm-mc-22 (same words).
if [ -f v1_gfx803.co ]; then
  llvm-readelf-22 --notes v1_gfx803.co > v1_gfx803.llvm-readelf-notes 2>&1 || true
  # an offload bundle holding two of them, as clang-offload-bundler-22 writes it
  clang-offload-bundler-22 -type=o \
    -targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx803,hipv4-amdgcn-amd-amdhsa--gfx900 \
    -input=/dev/null -input=v1_gfx803.co -input=v1_gfx900.co -output=v1_bundle.hipfb
  for cpu in gfx803 gfx900; do
    llvm-objdump-22 -d --triple=amdgcn-amd-amdhsa --mcpu=$cpu v1_$cpu.co > v1_$cpu.llvm-objdump
  done
fi
