#!/bin/sh
# Builds the r600 fixtures: one object per r600 processor LLVM 22 knows
# (`llvm-mc-22 --arch=r600 -mcpu=help`), each the compute kernels of kernels.cl
# with the shaders of shaders.ll and (Evergreen onwards) the LDS kernel of lds.ll
# linked in (-mlink-bitcode-file), and beside each the references the tests
# compare hsaco's output with:
#   <cpu>.o.readelf   llvm-readelf-22 -h -S -s -r
#   <cpu>.o.config    llvm-objdump-22 -s -j .AMDGPU.config (the register pairs)
#   <cpu>.o.asm       the `.long` pairs and STACK_SIZE comments of clang-22 -S
# Usage: gen.sh [--check]  (--check compares with LLVM instead of writing)
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp"
status=0
cpus="r600 r630 rs880 rv670 rv710 rv730 rv770 cedar cypress juniper redwood sumo barts caicos cayman turks"
for cpu in $cpus; do
    case $cpu in
        r600 | r630 | rs880 | rv670 | rv710 | rv730 | rv770) def= links=shaders ;;
        *) def=-DGLOBAL_STORES links="shaders lds" ;;
    esac
    link=
    for l in $links; do
        llvm-as-22 $l.ll -o "$tmp/$l.bc"
        link="$link -Xclang -mlink-bitcode-file -Xclang $tmp/$l.bc"
    done
    for out in c S; do
        # shellcheck disable=SC2086
        clang-22 -target r600 -mcpu=$cpu -O2 $def -$out -x cl kernels.cl $link \
            -o "$tmp/$cpu.$(echo $out | sed 's/c/o/;s/S/s/')"
    done
    llvm-readelf-22 -h -S -s -r "$tmp/$cpu.o" | sed "s|$tmp/||" > "$tmp/$cpu.o.readelf"
    llvm-objdump-22 -s -j .AMDGPU.config "$tmp/$cpu.o" | sed "s|$tmp/||" > "$tmp/$cpu.o.config"
    grep -E '^[A-Za-z_.$][A-Za-z0-9_.$]*:|^	\.long	|STACK_SIZE|\.section	\.AMDGPU\.config' "$tmp/$cpu.s" |
        grep -v '^\.L' > "$tmp/$cpu.o.asm"
    for f in $cpu.o $cpu.o.readelf $cpu.o.config $cpu.o.asm; do
        if [ "$1" = "--check" ]; then
            cmp -s "$tmp/$f" "$f" || { echo "differs: $f"; status=1; }
        else
            cp "$tmp/$f" "$f"
        fi
    done
done
exit $status
