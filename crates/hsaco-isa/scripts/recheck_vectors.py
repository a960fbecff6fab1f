#!/usr/bin/env python3
"""Re-check every row of tests/data/<gen>.txt against llvm-mc-22, one instruction per
llvm-mc call, and rewrite the rows that LLVM prints differently.

    python3 scripts/recheck_vectors.py gfx9 [--dry-run]

Batched llvm-mc runs (before the sentinel fix of llvm_mc.py) mislabelled some vectors,
e.g. a VOPC word recorded as `s_nop 0`. Here each (words, processor) is given to
llvm-mc-22 alone, without padding: the row is kept for that processor only if LLVM
decodes exactly one instruction from exactly these words (or from a prefix of them, which
then becomes the row's words) without a warning and without a `/*...*/` comment
(vectors.py drops those too). The text is LLVM's; rows whose text
now differs between processors are split. Nothing is taken from hsaco.
"""
import os
import subprocess
import sys
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM_MC = "llvm-mc-22"


def llvm_text(words, proc):
    bs = []
    for w in words:
        bs += [w & 0xFF, (w >> 8) & 0xFF, (w >> 16) & 0xFF, (w >> 24) & 0xFF]
    r = subprocess.run(
        [LLVM_MC, "-triple=amdgcn", "-mcpu=" + proc, "--disassemble"],
        input=",".join("0x%02x" % b for b in bs) + "\n",
        capture_output=True,
        text=True,
    )
    if r.returncode != 0 or "warning" in r.stderr or "error" in r.stderr:
        return None
    lines = [l.strip() for l in r.stdout.split("\n")]
    lines = [l for l in lines if l and not l.startswith(".text")]
    if len(lines) != 1 or "/*" in lines[0]:
        return None
    return lines[0]


def recheck(hexs, proc):
    """(words, text) of the instruction at `hexs` as LLVM decodes it alone, or None.
    When the words are not exactly one instruction, a shorter prefix may be (a row with
    an unused literal word)."""
    ws = hexs.split()
    for n in range(len(ws), 0, -1):
        t = llvm_text([int(w, 16) for w in ws[:n]], proc)
        if t is not None:
            return " ".join(ws[:n]), t
    return None


def main():
    gen = sys.argv[1]
    dry = "--dry-run" in sys.argv
    path = os.path.join(HERE, "..", "tests", "data", gen + ".txt")
    head, rows = [], []
    for l in open(path):
        l = l.rstrip("\n")
        if l.startswith("#"):
            head.append(l)
            continue
        hexs, rest = l.split(" | ", 1)
        want, procs = rest.rsplit(" | ", 1)
        rows.append((hexs, want, procs.split(",")))
    jobs = [(hexs, p) for hexs, _, ps in rows for p in ps]
    with ThreadPoolExecutor(3) as ex:
        got = dict(zip(jobs, ex.map(lambda j: recheck(j[0], j[1]), jobs)))
    out = OrderedDict()
    changed = dropped = 0
    for hexs, want, ps in rows:
        for p in ps:
            r = got[(hexs, p)]
            if r is None:
                dropped += 1
                print("drop %s | %s | %s" % (hexs, want, p))
                continue
            h, t = r
            if (h, t) != (hexs, want):
                changed += 1
                print("fix  %s | %s -> %s | %s | %s" % (hexs, want, h, t, p))
            ps_out = out.setdefault((h, t), [])
            if p not in ps_out:  # (older files list some processors twice)
                ps_out.append(p)
    print("%d checks, %d texts corrected, %d dropped" % (len(jobs), changed, dropped))
    if not dry:
        lines = head + ["%s | %s | %s" % (h, t, ",".join(ps)) for (h, t), ps in out.items()]
        open(path, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
