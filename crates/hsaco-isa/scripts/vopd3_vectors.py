#!/usr/bin/env python3
"""Write tests/data/gfx12.vopd3.txt and gfx12.vopd3.invalid: LLVM vectors for the gfx1250
VOPD3 dual-issue encoding (three words, 0xcf in the top byte), from words built with the
field layout of defs/gfx12.txt and disassembled by llvm-mc-22.

    python3 crates/hsaco-isa/scripts/vopd3_vectors.py [--seed 1] [-n 1500]

Facts this relies on (learned with llvm-mc-22 -show-encoding / --disassemble, see
NOTES.md "Round vopd3"):
* a register field the half has no operand for must be zero (vsrc1 of v_dual_mov_b32,
  src2 of the two-source operations): words with plain values in every field, as
  probe_vectors.py built them, are rejected for most pairs;
* neg bits 41-43 (X: src0, vsrc1, src2) and 44-46 (Y) only on the operations with
  float source modifiers and only for sources they have; bits 9-11 and 47 are ignored;
* no unnamed scalar codes, no literal (src 255) unless another scalar source (src0 or a
  lane mask) is 254: llvm-mc-22 then prints both as a constant read from the second
  instruction word (254 as a 64-bit source: the second and third), though nothing
  follows the instruction (a decoder quirk, reproduced by hsaco);
* register banks are only checked by the assembler.

Vectors (`hex words | text | processors`, all must match): every X operation with
every Y operation (clean registers, banks the assembler accepts), each half's neg bits,
scalar / inline-constant / special sources, lane masks, bitop3 tables, odd 64-bit
tuples, ignored bits, the 254/255 quirk (also random words around it), and random
words over the valid opcodes.
Rejected words
(`hex words | processors`): each rule above broken once per operation, undefined
opcodes, and random words LLVM rejects; all VOPD3 words are rejected on gfx1201.
"""
import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from llvm_mc import disassemble  # noqa: E402

from vopd3_words import DEFS, build, hexw, quirk_word, random_word, table  # noqa: E402

DATA = os.path.join(HERE, "..", "tests", "data")
PROC = "gfx1250"


# Registers per half that satisfy the assembler's bank rules (src0, vsrc1 and src2 of
# X and Y in different banks of four, a 64-bit tuple occupying two, distinct dsts).
X32 = dict(src0x=256 + 1, vsrc1x=2, src2x=3, vdstx=4)
Y32 = dict(src0y=256 + 6, vsrc1y=7, src2y=8, vdsty=9)
X64 = dict(src0x=256 + 2, vsrc1x=4, src2x=6, vdstx=10)
Y64 = dict(src0y=256 + 13, vsrc1y=14, src2y=16, vdsty=9)


def half_fields(roles, half, regs):
    """The register fields of one half for an operation with these operand roles."""
    d = {}
    for r in roles:
        if r.startswith("ssrc2"):
            d["src2" + half] = 106  # vcc_lo
        elif r in regs:
            d[r] = regs[r]
    for f in ("vdst", "src0"):
        d[f + half] = regs[f + half]
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=1500, help="random words")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    defs = open(DEFS).read()
    xt, yt = table(defs, "VOPD3"), table(defs, "VOPD3Y")
    cases = []  # words

    def pair(ox, oy, raw=0, xo=None, yo=None):
        mx, rx, _, x64 = xt[ox]
        my, ry, _, _ = yt[oy]
        d = dict(opx=ox, opy=oy)
        d.update(half_fields(rx, "x", X64 if x64 else X32))
        d.update(half_fields(ry, "y", Y64 if x64 else Y32))
        d.update(xo or {})
        d.update(yo or {})
        return build(raw, **d)

    ADD = 4  # v_dual_add_f32, in both tables
    # every X with every Y
    for ox in sorted(xt):
        for oy in sorted(yt):
            cases.append(pair(ox, oy))
    # neg bits of each source, one at a time and all together
    for ox, (_, roles, fp, _) in sorted(xt.items()):
        if fp:
            n = [i for i, r in enumerate(("src0x", "vsrc1x", "src2x")) if r in roles]
            for i in n:
                cases.append(pair(ox, ADD, raw=1 << (41 + i)))
            cases.append(pair(ox, ADD, raw=sum(1 << (41 + i) for i in n) | 3 << 44))
    for oy, (_, roles, fp, _) in sorted(yt.items()):
        if fp:
            n = [i for i, r in enumerate(("src0y", "vsrc1y", "src2y")) if r in roles]
            for i in n:
                cases.append(pair(ADD, oy, raw=1 << (44 + i)))
            cases.append(pair(ADD, oy, raw=sum(1 << (44 + i) for i in n) | 3 << 41))
    # scalar, inline and special first sources, plain and negated
    srcs = [1, 104, 105, 106, 107, 108, 123, 124, 125, 126, 127, 128, 129, 192, 193, 208,
            230, 231, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248,
            251, 252, 253, 256 + 255]
    for ox in sorted(xt):
        for s in srcs:
            cases.append(pair(ox, ADD, xo=dict(src0x=s)))
            if xt[ox][2]:
                cases.append(pair(ox, ADD, raw=1 << 41, xo=dict(src0x=s)))
    for oy in sorted(yt):
        for s in srcs:
            cases.append(pair(ADD, oy, yo=dict(src0y=s)))
            if yt[oy][2]:
                cases.append(pair(ADD, oy, raw=1 << 44, yo=dict(src0y=s)))
    # v_dual_cndmask_b32 lane masks (constants print "Invalid immediate")
    for s in [0, 1, 105, 106, 107, 108, 123, 124, 125, 126, 127, 128, 193, 240, 248, 253]:
        cases.append(pair(9, 9, xo=dict(src2x=s), yo=dict(src2y=(s + 1) % 256)))
    # v_dual_bitop2_b32 truth tables
    for t in [0, 1, 2, 9, 10, 11, 0x58, 0x80, 0xFE, 0xFF]:
        cases.append(pair(ADD, 0x12, yo=dict(src2y=t)))
    # odd 64-bit tuples (LLVM marks them "Invalid register") and the top registers
    for ox, (_, roles, _, x64) in sorted(xt.items()):
        if x64:
            for r in (1, 3, 254, 255):
                cases.append(pair(ox, ADD, xo={f: (r + 256 if f == "src0x" else r)
                                                for f in ("src0x", "vsrc1x", "src2x", "vdstx")
                                                if f in roles}))
    # the 254 quirk: a constant read from the second word (and 255 next to a 254)
    for ox in sorted(xt):
        for sx, sy in ((254, 256 + 6), (256 + 1, 254), (254, 254), (255, 254), (254, 255)):
            for w1 in (0, 0x40, 0x3F800000, 0x12345678):
                # the second word's bits are src0y, neg and X's vsrc1/src2 (kept only
                # where the operation has them)
                xo = dict(src0x=sx)
                if sy == 256 + 6:
                    xo.update(vsrc1x=w1 >> 16 & 0xFF, src2x=w1 >> 24)
                w = pair(ox, ADD, xo=xo, yo=dict(src0y=sy))
                cases.append(w)
    for oy in sorted(yt):
        for sx, sy in ((256 + 1, 254), (254, 254), (255, 254)):
            cases.append(pair(ADD, oy, xo=dict(src0x=sx), yo=dict(src0y=sy)))
    # (a third word of 0: lit64(...); a 255 whose second word could be inline: lit(...))
    zero3 = dict(vdsty=0, vsrc1y=0, src2y=0)
    for ox, (_, _, fp, _) in sorted(xt.items()):
        for s0y in (0x40, 0x106, 0xF0):
            cases.append(pair(ox, ADD, xo=dict(src0x=254, vdstx=0), yo=dict(zero3, src0y=s0y)))
            if fp:
                cases.append(pair(ox, ADD, raw=1 << 41, xo=dict(src0x=254, vdstx=0),
                                  yo=dict(zero3, src0y=s0y)))
        for s0y in (0x40, 0xC1, 0xF2):
            cases.append(pair(ox, 9, xo=dict(src0x=255), yo=dict(src0y=s0y, src2y=254)))
    # (a lane mask of 255 next to a 254: the second word as a 32-bit constant)
    for s0y in (14, 0xC1, 0xF0, 0x106):
        cases.append(pair(8, 9, xo=dict(src0x=254), yo=dict(src0y=s0y, src2y=255)))
    for mx, my in ((254, 106), (106, 254), (255, 254), (254, 255), (254, 254)):
        cases.append(pair(9, 9, xo=dict(src2x=mx), yo=dict(src2y=my)))
        cases.append(pair(9, 9, raw=1 << 41 | 1 << 44, xo=dict(src0x=254, src2x=mx),
                          yo=dict(src0y=254, src2y=my)))
    # ignored bits (9-11, 47)
    for b in (9, 10, 11, 47):
        cases.append(pair(0x13, 0x13, raw=1 << b))
        cases.append(pair(8, 8, raw=1 << b))
    # random words over the valid opcodes (every field random, neg bits sometimes)
    rand = [random_word(rnd, sorted(xt), sorted(yt)) for _ in range(a.n)]
    cases += rand
    # random words around the 254/255 quirk: valid fields, small values (so that the
    # second and third words are often inline constants or fit in 32 bits), neg bits
    cases += [quirk_word(rnd, xt, yt) for _ in range(a.n // 3)]

    # words LLVM must reject: each rule broken once per operation
    bad = []
    for ox, (_, roles, fp, _) in sorted(xt.items()):
        if "vsrc1x" not in roles:
            bad.append(pair(ox, ADD, xo=dict(vsrc1x=5)))
        if "src2x" not in roles and "ssrc2x" not in roles:
            bad.append(pair(ox, ADD, xo=dict(src2x=5)))
        for i, r in enumerate(("src0x", "vsrc1x", "src2x")):
            if not fp or r not in roles:
                bad.append(pair(ox, ADD, raw=1 << (41 + i)))
        for s in (255, 209, 229, 232, 234, 249, 250):
            bad.append(pair(ox, ADD, xo=dict(src0x=s)))
        if xt[ox][3]:
            for s in (107, 125, 127):
                bad.append(pair(ox, ADD, xo=dict(src0x=s)))
    for oy, (_, roles, fp, _) in sorted(yt.items()):
        if "vsrc1y" not in roles:
            bad.append(pair(ADD, oy, yo=dict(vsrc1y=5)))
        if "src2y" not in roles and "ssrc2y" not in roles:
            bad.append(pair(ADD, oy, yo=dict(src2y=5)))
        for i, r in enumerate(("src0y", "vsrc1y", "src2y")):
            if not fp or r not in roles:
                bad.append(pair(ADD, oy, raw=1 << (44 + i)))
        for s in (255, 209, 249, 250):
            bad.append(pair(ADD, oy, yo=dict(src0y=s)))
    for s in (255, 250, 220):
        bad.append(pair(9, 9, xo=dict(src2x=s)))
        bad.append(pair(9, 9, yo=dict(src2y=s)))
    # opcodes outside the tables (X: the Y-only and VOPD-only ones, 0x25-0x3f; Y: the
    # 64-bit ones, 0x19-0x3f)
    for ox in range(64):
        if ox not in xt:
            bad.append(build(opx=ox, opy=ADD, **dict(X32, src2x=0), **dict(Y32, src2y=0)))
    for oy in range(64):
        if oy not in yt:
            bad.append(build(opx=ADD, opy=oy, **dict(X32, src2x=0), **Y32))

    res = disassemble(cases + bad, PROC)
    rows, seen = [], set()
    rejected = []
    for words, r in zip(cases, res[:len(cases)]):
        if r is None:
            if words in rand:
                rejected.append(words)
            continue
        if r[1] != 12:
            raise SystemExit("unexpected length %d: %s" % (r[1], hexw(words)))
        key = hexw(words)
        if key not in seen:
            seen.add(key)
            rows.append("%s | %s | %s" % (key, r[0], PROC))
    for words, r in zip(bad, res[len(cases):]):
        if r is not None:
            raise SystemExit("expected a rejection, LLVM decodes %s: %s" % (hexw(words), r[0]))
        rejected.append(words)
    # no VOPD3 on gfx1201: the clean pairs must be rejected there
    clean = cases[:len(xt) * len(yt)]
    r1201 = disassemble(clean, "gfx1201")
    inval = ["%s | %s" % (hexw(w), PROC) for w in rejected]
    inval += ["%s | gfx1201" % hexw(w) for w, r in zip(clean, r1201) if r is None]
    with open(os.path.join(DATA, "gfx12.vopd3.txt"), "w") as f:
        f.write("# generated by scripts/vopd3_vectors.py (llvm-mc-22 --disassemble); do not edit\n")
        f.write("# hex words | text | processors\n" + "\n".join(rows) + "\n")
    with open(os.path.join(DATA, "gfx12.vopd3.invalid"), "w") as f:
        f.write("# generated by scripts/vopd3_vectors.py: words llvm-mc-22 rejects; do not edit\n")
        f.write("# hex words | processors\n" + "\n".join(inval) + "\n")
    print("gfx12 VOPD3: %d vectors, %d rejected words" % (len(rows), len(inval)))


if __name__ == "__main__":
    main()
