#!/usr/bin/env python3
"""Compare hsaco-isa's instruction text with llvm-objdump-22 on code objects.

    python3 scripts/corpus_diff.py gfx906 /work/corpus/out/*/gfx906/cov5/*.co [-v]

Needs the `dis` example built: cargo build -p hsaco-isa --example dis.
Prints the percentage of identical instruction lines and the most common differences.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(os.path.dirname(__file__), "../../../target"))
DIS = os.path.join(TARGET, "debug/examples/dis")
LINE = re.compile(r"^\t(.*?)\s*// ([0-9A-F]+): ")


def main():
    mcpu = sys.argv[1]
    files = [f for f in sys.argv[2:] if not f.startswith("-")]
    verbose = "-v" in sys.argv
    total = same = 0
    diffs = collections.Counter()
    examples = {}
    for f in files:
        dump = subprocess.run(["llvm-objdump-22", "-d", "--mcpu=" + mcpu, f],
                              capture_output=True, text=True).stdout
        want = {}
        for l in dump.splitlines():
            m = LINE.match(l)
            if m:
                want[int(m.group(2), 16)] = m.group(1)
        hdr = subprocess.run(["llvm-readelf-22", "-S", "-W", f], capture_output=True, text=True).stdout
        m = re.search(r"\.text\s+PROGBITS\s+([0-9a-f]+)", hdr)
        if not m:
            continue
        base = m.group(1)
        with tempfile.NamedTemporaryFile(suffix=".bin") as t:
            subprocess.run(["llvm-objcopy-22", "-O", "binary", "--only-section=.text", f, t.name],
                           check=True)
            got_out = subprocess.run([DIS, mcpu, t.name, base], capture_output=True,
                                     text=True).stdout
        got = {}
        for l in got_out.splitlines():
            a, _, txt = l.partition("\t")
            got[int(a, 16)] = txt
        for addr, w in want.items():
            total += 1
            g = got.get(addr)
            if g == w:
                same += 1
            else:
                key = w.split(" ")[0]
                diffs[key] += 1
                examples.setdefault(key, (w, g, f, addr))
    pct = 100.0 * same / total if total else 0
    print("%s: %d/%d identical (%.2f%%)" % (mcpu, same, total, pct))
    for k, n in diffs.most_common(None if verbose else 25):
        w, g, f, a = examples[k]
        print("  %5d %-28s want %r got %r" % (n, k, w, g))


if __name__ == "__main__":
    main()
