#!/bin/sh
# Regenerates the llvm-readelf goldens of the objects in this directory.
# The objects themselves: corpus copies, `llvm-mc-22` of the .s files beside them
# (gfx900_lds.o: -triple=amdgcn-amd-amdhsa -mcpu=gfx900; r600_redwood.o:
# -triple=r600 -mcpu=redwood), and v2_gfx803.o / v3_gfx900.co written by the
# hsaco-elf writer (BLESS=1 cargo test -p hsaco-elf generated_objects).
# With --check, compares instead of writing (the live LLVM comparison).
set -e
cd "$(dirname "$0")"
status=0
for f in *.o *.co; do
    out=$(llvm-readelf-22 -h -S -l -s -r --notes "$f")
    if [ "$1" = "--check" ]; then
        echo "$out" | diff -u "$f.readelf" - || status=1
    else
        echo "$out" > "$f.readelf"
    fi
done
exit $status
