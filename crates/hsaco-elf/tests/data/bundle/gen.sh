#!/usr/bin/env bash
# Generates the offload-bundle test data from LLVM 22 (clang-offload-bundler-22,
# clang-offload-packager-22, llvm-offload-binary-22, clang-22, llvm-objcopy-22) and
# the code object corpus.
#
#   gen.sh [OUT_DIR] [--full]
#
# OUT_DIR defaults to this script's directory (the committed test data). --full
# bundles the 01_vadd code object of every corpus processor and compiles HIP for
# more processors (used by the live comparison, `bundle::llvm_diff`).
#
# Writes OUT_DIR/inputs/<name> (files to read), OUT_DIR/expected/<sha256> (the
# bytes LLVM extracts, deduplicated) and OUT_DIR/manifest.txt, one line per
# expected object: `<input> <container> <entry-id> <sha256>` where container is
# plain | raw | bundle | ccob-v<N>-<zlib|zstd> | offload-binary | bundle-section
# and entry-id is `-` for plain and raw objects.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE}
FULL=${2:-}
CORPUS=${HSACO_CORPUS:-/work/corpus/out/nogpulib}
BUNDLER=clang-offload-bundler-22
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "$OUT/inputs" "$OUT/expected"
mkdir -p "$OUT/inputs" "$OUT/expected"
MANIFEST="$OUT/manifest.txt"
: >"$MANIFEST"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"

# record INPUT CONTAINER ID FILE: FILE is what LLVM extracted for entry ID
record() {
  local sha
  sha=$(sha256sum "$4" | cut -d' ' -f1)
  cp "$4" "$OUT/expected/$sha"
  echo "$1 $2 $3 $sha" >>"$MANIFEST"
}

# container tag of the bundle or compressed bundle in FILE, read from its header
container_of() {
  if [ "$(head -c 4 "$1")" = CCOB ]; then
    local v m
    v=$(od -An -tu2 -j4 -N2 "$1" | tr -d ' ')
    m=$(od -An -tu2 -j6 -N2 "$1" | tr -d ' ')
    if [ "$m" = 0 ]; then m=zlib; else m=zstd; fi
    echo "ccob-v$v-$m"
  else
    echo bundle
  fi
}

# unbundle_all INPUT BUNDLEFILE [CONTAINER]: every entry of BUNDLEFILE, as the
# bundler extracts it, recorded for INPUT (with CONTAINER given, host entries are
# left out: for a host object the bundler returns the object itself)
unbundle_all() {
  local c id n=0
  c=${3:-$(container_of "$2")}
  for id in $($BUNDLER --list --type=o --input="$2"); do
    if [ -n "${3:-}" ] && [[ $id == host-* ]]; then continue; fi
    n=$((n + 1))
    $BUNDLER --unbundle --type=o --targets="$id" --input="$2" --output="$T/entry.$n"
    record "$1" "$c" "$id" "$T/entry.$n"
  done
}

# 1. code objects from the corpus: target IDs from the directory names
#    (gfx90a_xnack+ -> gfx90a:xnack+)
if [ "$FULL" = --full ]; then
  # the bundler refuses gfx90a next to gfx90a:xnack+: keep the one with features
  ALL=$(cd "$CORPUS" && ls)
  PROCS=$(for p in $ALL; do echo "$ALL" | grep -q "^${p}_" || echo "$p"; done)
else
  PROCS="gfx906 gfx1030"
fi
TARGETS=host-x86_64-unknown-linux-gnu
INPUTS=--input=/dev/null
for p in $PROCS; do
  id=hipv4-amdgcn-amd-amdhsa--$(echo "$p" | tr _ :)
  [ "$p" = gfx906 ] && id=hipv4-amdgcn-amd-amdhsa--gfx906:xnack-
  for cov in cov5 cov6 cov4; do
    if [ -f "$CORPUS/$p/$cov/01_vadd.co" ]; then
      cp "$CORPUS/$p/$cov/01_vadd.co" "$T/$p.co"
      break
    fi
  done
  TARGETS=$TARGETS,$id
  INPUTS="$INPUTS --input=$T/$p.co"
done
FIRST=$(echo $PROCS | cut -d' ' -f1)

# a plain code object is itself; embedded in junk it is found by its ELF header
cp "$T/$FIRST.co" "$OUT/inputs/plain.co"
record plain.co plain - "$T/$FIRST.co"
{ printf 'junk before \x7fELF not an ELF header '; head -c 100 /dev/zero; cat "$T/$FIRST.co"; printf 'junk after'; } >"$OUT/inputs/embedded.bin"
record embedded.bin raw - "$T/$FIRST.co"

# 2. plain bundle
# shellcheck disable=SC2086
$BUNDLER --type=o --targets="$TARGETS" $INPUTS --output="$OUT/inputs/plain.bundle"
unbundle_all plain.bundle "$OUT/inputs/plain.bundle"

# 3. compressed bundles the bundler writes (zstd; format versions 2 and 3)
for v in 2 3; do
  # shellcheck disable=SC2086
  COMPRESSED_BUNDLE_FORMAT_VERSION=$v $BUNDLER --type=o --targets="$TARGETS" $INPUTS \
    --output="$OUT/inputs/ccob-v$v-zstd.bundle" --compress
  unbundle_all "ccob-v$v-zstd.bundle" "$OUT/inputs/ccob-v$v-zstd.bundle"
done

# 4. compressed bundles the bundler reads but no longer writes (version 1, zlib):
#    built here from the plain bundle with Python's zlib and the zstd tool, then
#    unbundled by the bundler
ccob() { # VERSION METHOD(0 zlib, 1 zstd) IN OUT
  python3 - "$@" <<'PY'
import hashlib, struct, subprocess, sys, zlib
version, method, src, dst = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
data = open(src, 'rb').read()
payload = zlib.compress(data, 6) if method == 0 else subprocess.run(
    ['zstd', '-q', '-c', '-3'], input=data, check=True, capture_output=True).stdout
h = hashlib.md5(data).digest()[:8]
head = b'CCOB' + struct.pack('<HH', version, method)
if version == 1:
    out = head + struct.pack('<I', len(data)) + h
elif version == 2:
    out = head + struct.pack('<II', 24 + len(payload), len(data)) + h
else:
    out = head + struct.pack('<QQ', 32 + len(payload), len(data)) + h
open(dst, 'wb').write(out + payload)
PY
}
for vm in 1-zlib 2-zlib 3-zlib 1-zstd; do
  v=${vm%-*}
  m=0
  [ "${vm#*-}" = zstd ] && m=1
  ccob "$v" "$m" "$OUT/inputs/plain.bundle" "$OUT/inputs/ccob-v$vm.bundle"
  unbundle_all "ccob-v$vm.bundle" "$OUT/inputs/ccob-v$vm.bundle"
done

# 5. HIP host objects, a shared library and an executable with .hip_fatbin
cat >k.hip <<'HIP'
typedef struct { unsigned x, y, z; } dim3_t;
extern "C" int hipLaunchKernel(const void *, dim3_t, dim3_t, void **, unsigned long, void *);
extern "C" int __hipPushCallConfiguration(dim3_t, dim3_t, unsigned long, void *);
extern "C" int __hipPopCallConfiguration(dim3_t *, dim3_t *, unsigned long *, void *);
__attribute__((global)) void k(int *p) { *p = 1; }
HIP
sed 's/void k(/void k2(/; s/= 1;/= 2;/' k.hip >k2.hip
cat >stubs.c <<'C'
int hipLaunchKernel() { return 0; }
int __hipPushCallConfiguration() { return 0; }
int __hipPopCallConfiguration() { return 0; }
void *__hipRegisterFatBinary(void *p) { return p; }
void __hipRegisterFunction() {}
void __hipUnregisterFatBinary() {}
int main() { return 0; }
C
if [ "$FULL" = --full ]; then
  ARCHS="--offload-arch=gfx906 --offload-arch=gfx90a:xnack+ --offload-arch=gfx942:sramecc+:xnack- --offload-arch=gfx1030 --offload-arch=gfx1100 --offload-arch=gfx1201"
else
  ARCHS="--offload-arch=gfx906 --offload-arch=gfx1030"
fi
HIPC="clang-22 -x hip -nogpulib -nogpuinc -fPIC -O1"
# shellcheck disable=SC2086
{
  $HIPC $ARCHS -c k.hip -o "$OUT/inputs/hip.o"
  $HIPC $ARCHS --offload-compress -c k.hip -o "$OUT/inputs/hip-compressed.o"
  $HIPC --offload-arch=gfx90a:xnack+ -c k.hip -o so.o
  $HIPC $ARCHS --offload-compress -c k.hip -o exe1.o
  $HIPC $ARCHS --offload-compress -c k2.hip -o exe2.o
}
clang-22 -c stubs.c -o stubs.o
clang-22 -fuse-ld=lld -shared so.o -o "$OUT/inputs/hip.so"
clang-22 -fuse-ld=lld exe1.o exe2.o stubs.o -o "$OUT/inputs/hip-compressed.exe"
fatbin() { llvm-objcopy-22 --dump-section=.hip_fatbin="$2" "$1"; }
fatbin "$OUT/inputs/hip.o" f1 && unbundle_all hip.o f1
fatbin "$OUT/inputs/hip-compressed.o" f2 && unbundle_all hip-compressed.o f2
fatbin so.o f3 && unbundle_all hip.so f3
# the executable's .hip_fatbin holds both objects' compressed bundles
fatbin exe1.o f4 && unbundle_all hip-compressed.exe f4
fatbin exe2.o f5 && unbundle_all hip-compressed.exe f5

# 6. a host object with __CLANG_OFFLOAD_BUNDLE__<id> sections (bundler, host
#    input an object)
$BUNDLER --type=o --targets="host-x86_64-unknown-linux-gnu,$(echo "$TARGETS" | cut -d, -f2)" \
  --input=stubs.o --input="$T/$FIRST.co" --output="$OUT/inputs/bundle-sections.o"
unbundle_all bundle-sections.o "$OUT/inputs/bundle-sections.o" bundle-section

# 7. OffloadBinary: clang-offload-packager, and the new driver's .llvm.offloading
#    (bitcode images with -fgpu-rdc); extracted by llvm-offload-binary
IMAGES=""
for p in $PROCS; do
  IMAGES="$IMAGES --image=file=$T/$p.co,triple=amdgcn-amd-amdhsa,arch=$(echo "$p" | tr _ :),kind=hip"
done
# shellcheck disable=SC2086
clang-offload-packager-22 -o "$OUT/inputs/packager.bin" $IMAGES
for p in $PROCS; do
  a=$(echo "$p" | tr _ :)
  llvm-offload-binary-22 "$OUT/inputs/packager.bin" --image=file=x.co,triple=amdgcn-amd-amdhsa,arch="$a"
  record packager.bin offload-binary "hip-amdgcn-amd-amdhsa--$a" x.co
done
# shellcheck disable=SC2086
$HIPC $ARCHS --offload-new-driver -fgpu-rdc -c k.hip -o "$OUT/inputs/hip-rdc.o"
for a in $(echo "$ARCHS" | sed 's/--offload-arch=//g'); do
  llvm-offload-binary-22 "$OUT/inputs/hip-rdc.o" --image=file=x.bc,triple=amdgcn-amd-amdhsa,arch="$a"
  record hip-rdc.o offload-binary "hip-amdgcn-amd-amdhsa--$a" x.bc
done
echo "wrote $(wc -l <"$MANIFEST") expected objects to $OUT"
