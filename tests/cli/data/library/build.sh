#!/bin/sh
# Rebuild the library-shaped fixtures and the expectations taken from LLVM.
# Needs clang-22, clang-15, llvm-objcopy-22, llvm-nm-22, llvm-cxxfilt-22 and llvm-objdump-22.
#
#   library-gfx90a.co            clang-22, code object v5: 120 template instantiations with
#                                long mangled names (gen_library.py 120), stripped of .symtab
#                                (the dynamic symbols name the kernels)
#   library-gfx90a-clang15-v4.co clang-15, code object v4, 40 kernels: every kernel's metadata
#                                has .uses_dynamic_stack, a v5 key (one finding per kernel)
#   cxx-names-gfx90a.co          clang-22 -O1 of cxx-names.hip: C++ names of many shapes
#   demangle.txt                 every _Z symbol of the three and of an -O0 build of
#                                cxx-names.hip (which keeps every function), TAB,
#                                llvm-cxxfilt-22's text
#   ../../dis-demangle.stdout    llvm-objdump-22 -d -C of cxx-names-gfx90a.co
#   ../../read-kd-demangle.stdout the same file's descriptors, llvm-objdump-22 -D -C -j .rodata
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hip="-x hip --cuda-device-only --no-gpu-bundle-output -nogpuinc -nogpulib --offload-arch=gfx90a -c"
python3 gen_library.py 120 > "$tmp/lib120.hip"
python3 gen_library.py 40 > "$tmp/lib40.hip"
clang-22 $hip -O2 -mcode-object-version=5 "$tmp/lib120.hip" -o "$tmp/lib120.co"
llvm-objcopy-22 --strip-unneeded "$tmp/lib120.co" library-gfx90a.co
clang-15 $hip -O2 -mcode-object-version=4 "$tmp/lib40.hip" -o "$tmp/lib40.co"
llvm-objcopy-22 --strip-unneeded "$tmp/lib40.co" library-gfx90a-clang15-v4.co
clang-22 $hip -O1 cxx-names.hip -o cxx-names-gfx90a.co
clang-22 $hip -O0 cxx-names.hip -o "$tmp/cxx-names-O0.co"
for f in library-gfx90a.co library-gfx90a-clang15-v4.co cxx-names-gfx90a.co "$tmp/cxx-names-O0.co"; do
    llvm-nm-22 -j "$f"
    llvm-nm-22 -D -j "$f"
done | grep '^_Z' | LC_ALL=C sort -u > "$tmp/names"
llvm-cxxfilt-22 < "$tmp/names" | paste "$tmp/names" - > demangle.txt
# (the file line names the file as the test runs it, from the repository root)
(cd ../../../.. && llvm-objdump-22 -d -C tests/cli/data/library/cxx-names-gfx90a.co) > ../../dis-demangle.stdout
# llvm-objdump-22 -D -C of the descriptors section without its 5 header lines: what
# `hsaco read -C --kernel-descriptors` prints
(cd ../../../.. && llvm-objdump-22 -D -C -j .rodata tests/cli/data/library/cxx-names-gfx90a.co) | tail -n +6 > ../../read-kd-demangle.stdout
