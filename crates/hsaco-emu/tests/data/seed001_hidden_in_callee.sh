#!/bin/sh
# The seed-001 fixtures (tests/seed001.rs): the same OpenCL C source for gfx803 at code
# object v4 (the shared aperture read from amd_queue_t through the queue pointer) and
# v5 (a hidden argument; LLVM 22 makes the non-kernel function read it from the
# absolute address 0xc4: `s_mov_b64 s[4:5], 0xc4` + `s_load_dword s4, s[4:5], 0x0`,
# see `llvm-objdump-22 -d --mcpu=gfx803`). Made with clang-22 (LLVM 22):
set -e
cd "$(dirname "$0")"
for v in 4 5; do
  clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx803 -nogpulib \
    -mcode-object-version=$v -O2 -o seed001_hidden_in_callee_gfx803_cov$v.co \
    seed001_hidden_in_callee.cl
done
