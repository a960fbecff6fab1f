#!/bin/sh
# Builds the -g fixtures of `hsaco run --trace-vars` (tests/cli.rs trace_vars_*):
# clang-22, OpenCL C 2.0, no device library (the work-item ID is the builtin),
# gfx90a (wave64), -O0 (variables in scratch, the kernel calling its body; MUBUF
# scratch, the frame pointer s33 an unswizzled wave offset) and -O2 (variables in
# VGPRs, location lists); gfx1100 (wave32) -O0 (architected flat scratch: scratch_
# instructions take s33 as the per-lane offset).
set -e
cd "$(dirname "$0")"
for O in O0 O2; do
  clang-22 -x cl -cl-std=CL2.0 -nogpulib -target amdgcn-amd-amdhsa -mcpu=gfx90a \
    -$O -g -o add-g-$O-gfx90a.co add.cl
done
clang-22 -x cl -cl-std=CL2.0 -nogpulib -target amdgcn-amd-amdhsa -mcpu=gfx1100 \
  -O0 -g -o add-g-O0-gfx1100.co add.cl
