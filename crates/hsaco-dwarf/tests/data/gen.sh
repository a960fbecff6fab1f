#!/usr/bin/env bash
# Regenerates the golden objects of tests/it and llvm-dwarfdump-22's text for them
# (the expected output of `hsaco read --debug-*`). Needs clang-22, ld.lld-22,
# llvm-mc-22, llvm-dwarfdump-22, python3. Run from this directory.
#
#   <name>.o / <name>.co   clang-22 -g objects of the corpus kernels (paths relative
#                          to /work/shared/corpus/cl, the compilation directory)
#   regs.o                 DW_OP_regx/bregx/regN/bregN of every interesting DWARF
#                          register number (regs.py writes the assembly)
#   llvm_attrs.o           DW_AT 0x3e00-0x3e1f and DW_CC 0xc0-0xd0 (llvm_attrs.py)
#   llvm_ops.o             DW_OP_LLVM_user with every sub-opcode 0..23 (llvm_ops.py)
#   cfi.o, cfi-bad-rows.o  .debug_frame with CFA instructions (cfi.s, cfi-bad-rows.s)
#   <name>.dwarfdump       llvm-dwarfdump-22 --debug-info --debug-loclists
#                          --debug-frame --debug-aranges --debug-line <name>
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${SRC:-/work/shared/corpus/cl}
build() { # name processor opt kernel
  (cd "$SRC" && clang-22 -target amdgcn-amd-amdhsa -mcpu="$2" -nogpulib -g "-$3" -c \
     -x cl -cl-std=CL2.0 -I. "$4.cl" -o "$HERE/$1.o")
  ld.lld-22 -shared --no-undefined "$HERE/$1.o" -o "$HERE/$1.co"
}
build vadd-gfx90a-O0 gfx90a O0 01_vadd
build calls-gfx1100-O2 gfx1100 O2 06_calls
build control-gfx803-O2 gfx803 O2 13_control_flow
build vectors-gfx1201-O2 gfx1201 O2 14_vectors
build scratch-gfx1010-O2 gfx1010 O2 07_scratch  # DW_OP_fbreg without DW_AT_frame_base (locate)
rm -f "$HERE/scratch-gfx1010-O2.co"  # (the .o is enough; 180 KB of text less)
# -ffunction-sections: code in several sections that all start at 0 (dis -l/--debug-vars
# look addresses up per section; tests/cli/dis-debug-vars-fsections)
(cd "$SRC" && clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -g -O2 \
   -ffunction-sections -c -x cl -cl-std=CL2.0 -I. 06_calls.cl \
   -o "$HERE/calls-fsections-gfx1100-O2.o")
ld.lld-22 -shared --no-undefined "$HERE/calls-fsections-gfx1100-O2.o" \
  -o "$HERE/calls-fsections-gfx1100-O2.co"  # (a line sequence per function)
# (an address with a line row and no function: llvm-objdump -l repeats the next name;
# tests/cli/dis-lines-fsections-unnamed)
(cd "$SRC" && clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx1030 -nogpulib -g -O2 \
   -ffunction-sections -c -x cl -cl-std=CL2.0 -I. 04_fp64.cl \
   -o "$HERE/fp64-fsections-gfx1030-O2.o")
python3 regs.py > regs.s
llvm-mc-22 -triple amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj regs.s -o regs.o
python3 llvm_attrs.py > llvm_attrs.s
llvm-mc-22 -triple amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj llvm_attrs.s -o llvm_attrs.o
python3 llvm_ops.py > llvm_ops.s
llvm-mc-22 -triple amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj llvm_ops.s -o llvm_ops.o
# call frame instructions (clang-22 emits none for AMDGPU): llvm-mc .cfi_* directives;
# cfi-bad-rows.s sets a CFA offset before any CFA register (no unwind rows printed)
for f in cfi cfi-bad-rows; do
  llvm-mc-22 -triple amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj $f.s -o $f.o
done
# vars-regs.s: clang-22 --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -g -O2 -S of
# `int f(int a, int b) { int c = a * b; c += a; return c * 3 + b; }` (t.c) with its
# .debug_loclists expressions replaced by hand: DW_OP_regx VGPR0 (a), DW_OP_bregx
# VGPR1-4 (b, both entries), to check the labels of register-only locations
# (tests/cli/dis-debug-vars-regs: llvm-objdump-22 -d -l --debug-vars).
llvm-mc-22 -triple amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj vars-regs.s -o vars-regs.o
for f in *.o *.co; do
  (cd "$HERE" && llvm-dwarfdump-22 --debug-info --debug-loclists --debug-frame \
     --debug-aranges --debug-line "$f" > "$f.dwarfdump" || true)  # stderr: cfi-bad-rows.o
done
# src/: copies of the corpus sources (/work/shared/corpus/cl) of the objects above, for
# `hsaco dis -S --prefix=crates/hsaco-dwarf/tests/data/src --prefix-strip=4` (the
# line tables name /work/shared/corpus/cl/NAME.cl). The CLI goldens tests/cli/dis-source-*
# and tests/cli/dis-debug-vars-* are llvm-objdump-22 -d with the options in their .args
# files, run from the repository root (cp "$SRC"/{01_vadd,06_calls}.cl src/);
# tests/cli/dis-lines-fsections*, dis-source-lines-fsections: the -ffunction-sections
# objects above.
