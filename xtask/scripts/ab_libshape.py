#!/usr/bin/env python3
"""Two hsaco binaries and the LLVM tools on the library-shaped objects, interleaved.

    cargo xtask libshape                       # the objects, into target/libshape
    python3 xtask/scripts/ab_libshape.py OLD_HSACO NEW_HSACO [ROUNDS]

For each large object `dis` (against llvm-objdump-22 -d) and for `read --metadata`
over the 40 smaller ones (against llvm-readelf-22 --notes): per round each hsaco runs
once for its wall time and once under `perf stat -e task-clock` for its CPU time (the
LLVM tool every third round); prints best and median of both and the ratios. CPU time
is the steadier number on a busy machine; wall time is what a user waits for.
"""
import os, subprocess, sys, time, glob, statistics
N = int(sys.argv[3]) if len(sys.argv) > 3 else 21
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
STAT = "/tmp/ab_libshape.%d.stat" % os.getpid()
def run(cmd):
    # wall time of the command alone; then its CPU time (task-clock) in a second run
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w = time.perf_counter() - t
    out = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", "-o", STAT] + cmd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = 0.0
    for line in open(STAT):
        f = line.split(",")
        if len(f) > 2 and f[2] == "task-clock":
            c = float(f[0]) / 1e3
    return w, c
def main():
    lib = os.path.join(ROOT, "target/libshape")
    bins = {"old": sys.argv[1], "new": sys.argv[2]}
    many = sorted(glob.glob(lib + "/lib*.co"))
    cases = [("dis " + b, ["dis", f"{lib}/{b}.co"], ["llvm-objdump-22", "-d", f"{lib}/{b}.co"]) for b in ["big-gfx90a-a", "big-gfx90a-b", "big-gfx942", "big-gfx1100"]]
    cases.append(("read --metadata 40 objects", ["read", "--metadata"] + many, ["llvm-readelf-22", "--notes"] + many))
    for name, args, llvm in cases:
        res = {k: ([], []) for k in list(bins) + ["llvm"]}
        for r in range(N + 1):
            for k, b in bins.items():
                w, c = run([b] + args)
                if r: res[k][0].append(w); res[k][1].append(c)
            if r % 3 == 0 or r == 1:
                w, c = run(llvm)
                if r: res["llvm"][0].append(w); res["llvm"][1].append(c)
        print(name)
        for k, (w, c) in res.items():
            print("  %-5s wall best %7.2f med %7.2f ms   cpu best %7.2f med %7.2f ms" % (k, min(w)*1e3, statistics.median(w)*1e3, min(c)*1e3, statistics.median(c)*1e3))
        lw, lc = min(res["llvm"][0]), min(res["llvm"][1])
        for k in bins:
            w, c = res[k]
            print("  ratio %-5s best wall %.1fx  median wall %.1fx  cpu (median) %.1fx" % (k, lw/min(w), statistics.median(res["llvm"][0])/statistics.median(w), statistics.median(res["llvm"][1])/statistics.median(c)))
        sys.stdout.flush()
    os.unlink(STAT)


if __name__ == "__main__":
    main()
