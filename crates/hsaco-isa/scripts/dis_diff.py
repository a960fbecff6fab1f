#!/usr/bin/env python3
"""Compare `hsaco dis` with `llvm-objdump-22 -d --mcpu=P` on code objects.

    python3 crates/hsaco-isa/scripts/dis_diff.py [--hsaco PATH] [-v] [--mcpu] [--symbolize-operands] [FILE|DIR...]

--symbolize-operands is passed to both tools (branch targets as L0, L1, ... labels).

Default inputs: every /work/corpus/out/*/<target>/cov*/*.co. The processor is the
corpus directory name up to the first '_' (gfx90a_xnack+ -> gfx90a), or e_flags via
`llvm-readelf-22 -h` for other paths. hsaco reads the processor from e_flags unless
--mcpu is given (then both get --mcpu).

Per processor it prints: instruction lines identical (the whole line, text, padding,
`// ADDRESS: WORDS` comment and branch target), and other lines (file, section and
symbol label lines) that differ. -v lists every difference class with an example;
otherwise the 15 most common. Exit status 1 if any line differs.
"""
import collections
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
ADDR = re.compile(r"// ([0-9A-F]{12}):")


def processor_of(path):
    parts = path.split(os.sep)
    for p in reversed(parts[:-1]):
        if p.startswith("gfx"):
            return p.split("_")[0]
    out = subprocess.run(["llvm-readelf-22", "-h", path], capture_output=True, text=True).stdout
    m = re.search(r"Flags:\s+0x[0-9a-f]+, (gfx[0-9a-z-]+)", out)
    return m.group(1) if m else None


def instruction_lines(text):
    """address -> line, plus the list of other (non-instruction) lines."""
    ins, other = {}, []
    for line in text.splitlines():
        m = ADDR.search(line) if line.startswith("\t") else None
        if m:
            ins[int(m.group(1), 16)] = line
        else:
            other.append(line)
    return ins, other


def compare(job):
    path, mcpu, hsaco, force, extra = job
    llvm = subprocess.run(["llvm-objdump-22", "-d", "--mcpu=" + mcpu] + extra + [path],
                          capture_output=True, text=True)
    cmd = [hsaco, "dis", path] + extra + (["--mcpu=" + mcpu] if force else [])
    ours = subprocess.run(cmd, capture_output=True, text=True)
    want, want_other = instruction_lines(llvm.stdout)
    got, got_other = instruction_lines(ours.stdout)
    diffs = []
    for addr, w in want.items():
        g = got.get(addr)
        if g != w:
            diffs.append((w, g))
    for addr, g in got.items():
        if addr not in want:
            diffs.append((None, g))
    other = 0 if want_other == got_other else 1
    err = ours.stderr.strip() if ours.returncode else ""
    return path, mcpu, len(want), diffs, other, err


def text_of(line):
    return line.split("//")[0].strip() if line else line


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    force = "--mcpu" in args
    extra = ["--symbolize-operands"] if "--symbolize-operands" in args else []
    hsaco = os.path.join(TARGET, "debug/hsaco")
    if "--hsaco" in args:
        hsaco = args[args.index("--hsaco") + 1]
    paths = [a for a in args if not a.startswith("-") and a != hsaco]
    files = []
    for p in paths or ["/work/corpus/out"]:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "**", "*.co"), recursive=True))
        else:
            files.append(p)
    jobs = []
    for f in files:
        mcpu = processor_of(f)
        if mcpu:
            jobs.append((f, mcpu, hsaco, force, extra))
    per = collections.OrderedDict()
    classes = collections.defaultdict(collections.Counter)
    examples = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for path, mcpu, n, diffs, other, err in pool.map(compare, jobs):
            s = per.setdefault(mcpu, [0, 0, 0, 0, set()])
            s[0] += n
            s[1] += n - sum(1 for w, _ in diffs if w is not None)
            s[2] += other
            s[3] += 1
            if err:
                s[4].add(err.splitlines()[-1][:120])
            for w, g in diffs:
                key = (text_of(w) or text_of(g) or "?").split(" ")[0]
                classes[mcpu][key] += 1
                examples.setdefault((mcpu, key), (w, g, path))
    bad = False
    for mcpu, (n, same, other, nfiles, errs) in sorted(per.items()):
        pct = 100.0 * same / n if n else 100.0
        print("%-16s %7d/%-7d identical instruction lines (%.3f%%), %d/%d files with other lines differing"
              % (mcpu, same, n, pct, other, nfiles))
        for e in sorted(errs):
            print("    error: %s" % e)
        for key, cnt in classes[mcpu].most_common(None if verbose else 15):
            w, g, path = examples[(mcpu, key)]
            print("    %5d %-28s %s\n          want %r\n          got  %r" % (cnt, key, path, w, g))
        bad = bad or same != n or other
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
