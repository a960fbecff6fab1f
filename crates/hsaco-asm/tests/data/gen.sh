#!/bin/sh
# Regenerate the expected objects of the positive fixtures with llvm-mc-22:
#   crates/hsaco-asm/tests/data/gen.sh
# and the reference messages of the negative ones (err/*.llvm.txt, read by people
# when they review err/*.stderr, which BLESS=1 cargo test writes from hsaco).
# The first line of each fixture says the options: `; MCPU: <cpu> [-mattr=...]`.
set -e
cd "$(dirname "$0")"
for dir in ok err; do
  (
    cd $dir
    for f in *.s; do
      set -- $(head -1 "$f" | sed 's/^; MCPU: //')
      cpu=$1
      shift
      # code object v2 and v3: LLVM 22 no longer writes them, llvm-mc-14 does
      mc=llvm-mc-22
      case "$*" in *code-object-version=[23]*) mc=llvm-mc-14 ;; esac
      if [ $dir = ok ]; then
        $mc -triple=amdgcn-amd-amdhsa -mcpu="$cpu" "$@" -filetype=obj "$f" -o "${f%.s}.o"
      else
        llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu="$cpu" "$@" -filetype=obj "$f" -o /dev/null \
          2> "${f%.s}.llvm.txt" || true
      fi
    done
  )
done
