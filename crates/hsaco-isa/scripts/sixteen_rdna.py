#!/usr/bin/env python3
"""gfx10 and gfx12 (fake16 in llvm-mc-22: 16-bit operands are whole VGPRs): type the
16-bit sources of the op lines as sweep.py does for gfx8/gfx9 (`sixteen_bit_types`: a
literal source (src0; any source of VOP3, which takes literals from gfx10) that prints as
its low half is f16 or a 16-bit integer, a source whose inline 0.5 prints as 0x3800 is a
16-bit integer), without re-sweeping the other op lines (sweep.py does the same on a full
run).

    python3 crates/hsaco-isa/scripts/sixteen_rdna.py gfx12 [--write]

Only `b32` source tokens change; everything printed comes from llvm-mc-22.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweep  # noqa: E402


def main():
    gen = sys.argv[1]
    sweep.set_generation(gen)
    path = os.path.join(sweep.DEFS, gen + ".txt")
    text = open(path).read()
    procs, encs = sweep.parse_defs(text)
    head, body = text.split(sweep.MARK)
    ops = {}
    for line in body.splitlines():
        t = line.split()
        if not t or t[0] != "op":
            continue
        encl = []
        for e in t[2].split(","):
            name, rest = e.split("=")
            opc = int(rest.split("@")[0], 16)
            if name in ("VOP1", "VOP2", "VOPC", "VOP3"):
                encl.append((name, opc, frozenset(procs)))
        toks = [x for x in t[3:] if not x.startswith(("!", "@", "reads=", "writes="))]
        ops.setdefault(t[1], []).append((toks, encl))
    types = sweep.sixteen_bit_types(procs, encs, ops, literals=True)
    out = []
    changed = 0
    for line in body.splitlines():
        t = line.split()
        if t and t[0] == "op" and t[1] in types:
            t16 = types[t[1]]
            new = " ".join(
                re.sub(r"^(src[012]):b32$", lambda m: m.group(1) + ":" + t16[m.group(1)], x)
                if x.split(":")[0] in t16 else x
                for x in t)
            if new != line:
                changed += 1
                line = new
        out.append(line)
    print("%d op lines typed (%d operations)" % (changed, len(types)))
    if "--write" in sys.argv:
        open(path, "w").write(head + sweep.MARK + "\n".join(out) + ("\n" if body.endswith("\n") else ""))


if __name__ == "__main__":
    main()
