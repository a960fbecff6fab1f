#!/bin/sh
# Regenerates the hsaco-check test inputs from the LLVM 22 corpus build
# (/work/corpus/out, built by clang-22 -nogpulib from 01_vadd.cl) and
# clang-offload-bundler-22. The expected outputs in golden/ are written by
# `BLESS=1 cargo test -p hsaco-check`; the verdicts they must show are asserted
# in tests/it/combinations.rs from the gfx803 write-up, not from this code.
set -eu
C=${CORPUS:-/work/corpus/out/nogpulib}
cd "$(dirname "$0")/objects"
for p in gfx803 gfx906; do
  for v in 4 5 6; do cp "$C/$p/cov$v/01_vadd.co" "$p-cov$v.co"; done
done
cp "$C/gfx90a_xnack+/cov5/01_vadd.co" gfx90a-xnack+-cov5.co
cp "$C/gfx9-generic/cov6/01_vadd.co" gfx9-generic-cov6.co
cp "$C/gfx1030/cov5/01_vadd.co" gfx1030-cov5.co
cp "$C/gfx10-3-generic/cov6/01_vadd.co" gfx10-3-generic-cov6.co
cp "$C/gfx803/cov5/01_vadd.o" gfx803-cov5.o
# the write-up's last row: gfx803 at v5 and gfx906 at the default (v6) in one binary
clang-offload-bundler-22 --type=o \
  --targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx803,hipv4-amdgcn-amd-amdhsa--gfx906 \
  --input=/dev/null --input=gfx803-cov5.co --input=gfx906-cov6.co \
  --output=mixed-gfx803-cov5-gfx906-cov6.bundle
# a generic and a specific code object: the specific one wins on gfx906
clang-offload-bundler-22 --type=o \
  --targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx9-generic,hipv4-amdgcn-amd-amdhsa--gfx906 \
  --input=/dev/null --input=gfx9-generic-cov6.co --input=gfx906-cov6.co \
  --output=gfx9-generic-and-gfx906.bundle
