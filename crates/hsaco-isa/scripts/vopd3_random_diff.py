#!/usr/bin/env python3
"""Compare `hsaco dis --raw` with llvm-mc-22 --disassemble on random gfx1250 VOPD3 words
(random_diff.py handles encodings with one opcode field; VOPD3 has two).

    python3 crates/hsaco-isa/scripts/vopd3_random_diff.py [--seed 1] [-n 3000]
        [--quirk] [--hsaco PATH]

Default: every field random (opcodes of the tables, 5% any), neg and ignored bits
sometimes, 15% of the scalar sources special codes. --quirk: sources biased to 254/255
and small values in the fields the operations have (the constant llvm-mc-22 reads from
the second and third words). Both draw the words of scripts/vopd3_words.py, as
vopd3_vectors.py does. Checks text, length and that both
reject the same words; prints the classes that differ, exit status 1 if any.
"""
import argparse
import collections
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from llvm_mc import disassemble  # noqa: E402
from vopd3_words import DEFS, hexw, quirk_word, random_word, table  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "../../.."))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
NOP = 0xBF800000
STRIDE = 8


def ours(hsaco, words_list):
    """hsaco's (text, bytes) per word list, or None; each list is padded with s_nop to
    STRIDE words so that a rejected word cannot run into the next one."""
    stream = []
    for ws in words_list:
        stream += list(ws) + [NOP] * (STRIDE - len(ws))
    out = subprocess.run([hsaco, "dis", "--raw", "--mcpu=gfx1250", "-"],
                         input=" ".join("%08X" % w for w in stream),
                         capture_output=True, text=True).stdout
    at = {}
    for line in out.splitlines():
        m = re.match(r"^\t(.*?)\s*// ([0-9A-F]{12}): (.*)$", line)
        if m:
            at[int(m.group(2), 16)] = (m.group(1).strip(), 4 * len(m.group(3).split()))
    res = []
    for i in range(len(words_list)):
        a = at.get(i * STRIDE * 4)
        if a is None:
            raise SystemExit("hsaco output out of step at word list %d" % i)
        res.append(None if a[0].startswith(".long") else a)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=3000)
    ap.add_argument("--quirk", action="store_true")
    ap.add_argument("--hsaco", default=os.path.join(TARGET, "release", "hsaco"))
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    defs = open(DEFS).read()
    xt, yt = table(defs, "VOPD3"), table(defs, "VOPD3Y")
    if a.quirk:
        cases = [quirk_word(rnd, xt, yt) for _ in range(a.n)]
    else:
        cases = [random_word(rnd, sorted(xt), sorted(yt), any_opcode=0.05, flip=0.15,
                             special=0.15) for _ in range(a.n)]
    llvm = disassemble(cases, "gfx1250")
    got = ours(a.hsaco, cases)
    classes, examples, decoded = collections.Counter(), {}, 0
    for w, l, g in zip(cases, llvm, got):
        decoded += l is not None
        if l == g:
            continue
        k = ("LLVM rejects, hsaco decodes" if l is None else
             "hsaco rejects, LLVM decodes" if g is None else "text or length differs")
        classes[k] += 1
        examples.setdefault(k, []).append((hexw(w), l, g))
    print("gfx1250 VOPD3: %d/%d agree (%d decoded by LLVM)" % (
        a.n - sum(classes.values()), a.n, decoded))
    for k, ex in examples.items():
        print("== %s: %d" % (k, classes[k]))
        for w, l, g in ex[:8]:
            print("  %s\n    llvm:  %s\n    hsaco: %s" % (w, l, g))
    sys.exit(1 if classes else 0)


if __name__ == "__main__":
    main()
