#!/bin/sh
# Builds the ABI lint fixtures from the .s files beside this script with LLVM 22
# (llvm-mc-22, ld.lld-22 -shared). The .s files are the source; the .co files are
# committed so `cargo test` needs no LLVM. Expected reports: BLESS=1 cargo test -p hsaco-check.
set -eu
cd "$(dirname "$0")"
for s in *.s; do
  b=${s%.s}
  cpu=${b##*-}
  llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj -o "$b.o" "$s"
  ld.lld-22 -shared -o "$b.co" "$b.o"
  rm "$b.o"
done
