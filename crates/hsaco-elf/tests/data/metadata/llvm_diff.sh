#!/bin/sh
# Live comparison of hsaco's metadata printing with llvm-readelf over a corpus of
# code objects: every metadata note of every .co/.o under $HSACO_CORPUS is printed
# by hsaco_elf::metadata::compare_with_readelf and compared with
# `llvm-readelf-22 --notes`; each document is also validated against its code object
# version and round-tripped. Prints one line per problem and a summary line.
#
#   crates/hsaco-elf/tests/data/metadata/llvm_diff.sh [corpus dir]
set -e
cd "$(dirname "$0")/../../../../.."
HSACO_CORPUS="${1:-${HSACO_CORPUS:-/work/corpus/out}}" \
  exec cargo test -p hsaco-elf --test it metadata::live_llvm_readelf -- --ignored --nocapture
