#!/usr/bin/env python3
"""Time `hsaco dis` against `llvm-objdump-22 -d` on one large code object.

    cargo build --release            # the hsaco binary under test
    python3 crates/hsaco-isa/scripts/dis_bench.py [--hsaco PATH] [--copies N] [OBJECT]

Without OBJECT it links one: every gfx90a cov5 corpus .o without undefined symbols,
copied N times (default 12) with llvm-objcopy --prefix-symbols=cI_ so names stay unique,
then ld.lld-22 -shared (about 170,000 instructions). Prints the instruction count, the
best of 5 wall times of each tool writing to /dev/null, the ratio, and whether the two
outputs are identical; then the peak resident memory of each tool (`/usr/bin/time -f
%M`, the best of 3 runs, output to /dev/null) and hsaco's peak divided by the input
size and by the output size.
"""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
CORPUS = os.path.join(os.environ.get("HSACO_CORPUS", "/work/corpus/out"), "nogpulib/gfx90a/cov5")


def build_object(tmp, copies):
    objs = []
    for c in range(copies):
        for f in sorted(os.listdir(CORPUS)):
            if not f.endswith(".o"):
                continue
            src = os.path.join(CORPUS, f)
            if subprocess.run(["llvm-nm-22", "-u", src], capture_output=True, text=True).stdout.strip():
                continue
            dst = os.path.join(tmp, "c%d_%s" % (c, f))
            subprocess.run(["llvm-objcopy-22", "--prefix-symbols=c%d_" % c, src, dst], check=True)
            objs.append(dst)
    out = os.path.join(tmp, "big.co")
    subprocess.run(["ld.lld-22", "-shared", "-o", out] + objs, check=True)
    return out


def best(cmd, n=5):
    t = None
    for _ in range(n):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        d = time.perf_counter() - start
        t = d if t is None else min(t, d)
    return t


def peak_rss(cmd, n=3):
    """Smallest peak resident set size (bytes) of n runs, by /usr/bin/time -f %M."""
    best_kb = None
    for _ in range(n):
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, check=True)
        kb = int(r.stderr.strip().splitlines()[-1])
        best_kb = kb if best_kb is None else min(best_kb, kb)
    return best_kb * 1024


def main():
    args = sys.argv[1:]
    hsaco = os.path.join(TARGET, "release/hsaco")
    copies = 12
    if "--hsaco" in args:
        i = args.index("--hsaco")
        hsaco = args[i + 1]
        del args[i:i + 2]
    if "--copies" in args:
        i = args.index("--copies")
        copies = int(args[i + 1])
        del args[i:i + 2]
    with tempfile.TemporaryDirectory() as tmp:
        obj = args[0] if args else build_object(tmp, copies)
        llvm = subprocess.run(["llvm-objdump-22", "-d", obj], capture_output=True, text=True).stdout
        ours = subprocess.run([hsaco, "dis", obj], capture_output=True, text=True).stdout
        n = sum(1 for l in llvm.splitlines() if l.startswith("\t") and "// " in l)
        same = sum(1 for a, b in zip(llvm.splitlines(), ours.splitlines()) if a == b)
        print("%s: %d bytes, %d instructions; %d/%d output lines identical"
              % (os.path.basename(obj), os.path.getsize(obj), n, same, len(llvm.splitlines())))
        t_ours = best([hsaco, "dis", obj])
        t_llvm = best(["llvm-objdump-22", "-d", obj])
        print("hsaco dis %.3f s   llvm-objdump-22 -d %.3f s   ratio %.1fx (best of 5, output to /dev/null)"
              % (t_ours, t_llvm, t_llvm / max(t_ours, 1e-9)))
        m_ours = peak_rss([hsaco, "dis", obj])
        m_llvm = peak_rss(["llvm-objdump-22", "-d", obj])
        size_in = os.path.getsize(obj)
        size_out = len(ours.encode())
        print("peak RSS: hsaco dis %.1f MiB   llvm-objdump-22 -d %.1f MiB   (input %.2f MiB, output %.2f MiB)"
              % (m_ours / 2**20, m_llvm / 2**20, size_in / 2**20, size_out / 2**20))
        print("hsaco peak RSS / input size %.2f   / output size %.2f   (llvm-objdump-22: %.2f, %.2f)"
              % (m_ours / size_in, m_ours / size_out, m_llvm / size_in, m_llvm / size_out))
        # what the input costs beyond the program itself (an empty --raw stream)
        m_base = peak_rss([hsaco, "dis", "--raw", "--mcpu=gfx90a", os.devnull])
        print("hsaco peak RSS above its start-up RSS (%.1f MiB): %.1f MiB = %.2f x input, %.2f x output"
              % (m_base / 2**20, (m_ours - m_base) / 2**20, (m_ours - m_base) / size_in,
                 (m_ours - m_base) / size_out))


if __name__ == "__main__":
    main()
