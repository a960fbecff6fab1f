#!/usr/bin/env python3
"""Compare `hsaco dis --raw` with llvm-mc-22 --disassemble on random words of one
encoding: an opcode of the description's op lines, every other field random (plus
random trailing words). Checks the text, the length and that both reject the same words.

    python3 crates/hsaco-isa/scripts/random_diff.py gfx10 MIMG [-n 6000] [--seed 1]
        [--hsaco PATH] [--mcpu gfx1030,...] [--invalid-comments] [--ops m1,m2,...]

Default processors: every processor of the generation. Prints per processor the words
that differ and a few examples per class; exit status 1 if any differ.
"""
import argparse
import collections
import concurrent.futures
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from llvm_mc import disassemble  # noqa: E402
import sweep  # noqa: E402
from sweep import DEFS, parse_defs, build  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))


def opcodes(text, enc, names=None):
    out = []
    for line in text.splitlines():
        if line.startswith("op ") and (names is None or line.split()[1] in names):
            for e in line.split()[2].split(","):
                name, opc = e.split("@")[0].split("=")
                if name == enc:
                    out.append(int(opc, 16))
    return out


def key_fields(en, opc):
    if "seg" in en["fields"]:
        return dict(op=opc & 0x7F, seg=opc >> 7)
    if "opm" in en["fields"]:
        return dict(op=opc & 0x7F, opm=opc >> 7)
    return dict(op=opc)


def ours(hsaco, proc, words):
    inp = " ".join("%08X" % w for w in words)
    out = subprocess.run([hsaco, "dis", "--raw", "--mcpu=" + proc, "--no-show-raw-insn", "-"],
                         input=inp, capture_output=True, text=True).stdout
    ins = [line.strip() for line in out.splitlines() if line.startswith("\t")]
    return [re.sub(r"\s*//.*$", "", i) for i in ins]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gen")
    ap.add_argument("enc")
    ap.add_argument("-n", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hsaco", default=os.path.join(TARGET, "release", "hsaco"))
    ap.add_argument("--mcpu")
    # only the opcodes of these operations (comma-separated mnemonics)
    ap.add_argument("--ops")
    # llvm-objdump prints words whose text carries an `Invalid ...` comment as that text;
    # by default they count as rejected words (hsaco agrees by rejecting them or by
    # printing the same text), with this flag their text must be printed
    ap.add_argument("--invalid-comments", action="store_true")
    a = ap.parse_args()
    sweep.set_generation(a.gen)
    text = open(os.path.join(DEFS, a.gen + ".txt")).read()
    procs, encs = parse_defs(text)
    if a.mcpu:
        procs = a.mcpu.split(",")
    en = encs[a.enc]
    opcs = opcodes(text, a.enc, a.ops.split(",") if a.ops else None)
    rng = random.Random(a.seed)
    lines = []
    for _ in range(a.n):
        v = {name: rng.getrandbits(w) for name, (lo, w, kind) in en["fields"].items()
             if kind != "op"}
        # small register numbers half the time, so that tuples fit
        for name, (lo, w, kind) in en["fields"].items():
            if kind == "vgpr" and rng.random() < 0.5:
                v[name] = rng.getrandbits(5)
        v.update(key_fields(en, rng.choice(opcs)))
        lines.append(build(en, v) + [rng.getrandbits(32) & 0x7F7F7F7F for _ in range(3)])
    status = 0
    for proc in procs:
        want = disassemble(lines, proc)
        jobs = []
        marked = {}
        for ws, r in zip(lines, want):
            if r is None or ("Invalid" in r[0] and not a.invalid_comments):
                jobs.append((ws[:en["words"]], None))
                if r is not None:
                    # (hsaco may reject it or print LLVM's text, mark included)
                    marked[tuple(ws[:en["words"]])] = r[0]
            else:
                jobs.append((ws[:r[1] // 4], r[0]))
        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            got = list(ex.map(lambda j: ours(a.hsaco, proc, j[0]), jobs))
        classes = collections.Counter()
        examples = {}
        for (ws, w), g in zip(jobs, got):
            first = g[0] if g else ""
            if w is None:
                ok = first.startswith(".long") or (len(g) == 1 and first == marked.get(tuple(ws)))
                cls = "LLVM rejects, hsaco decodes " + first.split(" ")[0]
            else:
                ok = len(g) == 1 and first == w
                cls = "differs: " + w.split(" ")[0]
            if not ok:
                classes[cls] += 1
                examples.setdefault(cls, (ws, w, g))
        bad = sum(classes.values())
        print("%-10s %d/%d random %s words agree (text, length, validity)"
              % (proc, len(jobs) - bad, len(jobs), a.enc))
        for cls, c in classes.most_common(15):
            ws, w, g = examples[cls]
            print("  %5d %s\n        %s\n        want %s\n        got  %s"
                  % (c, cls, " ".join("%08x" % x for x in ws), w, g))
        status |= bad != 0
    sys.exit(status)


if __name__ == "__main__":
    main()
