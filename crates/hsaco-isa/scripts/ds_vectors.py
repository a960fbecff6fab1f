#!/usr/bin/env python3
"""Write tests/data/<gen>.ds.txt: LLVM test vectors for every DS (LDS/GDS) instruction.

    python3 scripts/ds_vectors.py gfx8 gfx9 gfx10 gfx11 gfx12   # default: all five
    python3 scripts/ds_vectors.py --missing gfx12               # opcodes LLVM knows, we don't

LLVM is the oracle, used as a black box: every encoding below is handed to
`llvm-mc-22 --disassemble -triple=amdgcn -mcpu=P` for every processor of the generation
(the `processor` lines of defs/<gen>.txt), and a vector `hex words | llvm text |
processors` is written for each (words, text) LLVM prints, merged across processors.

Encodings per DS opcode of defs/<gen>.txt (op lines with DS=...): only the fields the
op has operands for are set (unused fields stay zero):
  * registers addr=v1, data0=v2, data1=v6, vdst=v10 (even, so 64/128/256-bit tuples are
    aligned as gfx90a+ requires), no offset;
  * high registers (addr=v255 or the highest aligned tuples) with offset0=0x34,
    offset1=0x12 (one 16-bit offset, or offset0/offset1 for the 2-address forms);
  * offset0 only and offset1 only (0xff);
  * the gds bit (generations that have GDS);
  * for ds_swizzle_b32, the offsets of SWIZZLE below;
  * the acc bit (bit 25: AGPR data/vdst) on gfx9 (gfx90a+ print AGPRs);
  * RANDOM_PER_OP encodings with seeded random values in the op's register fields and in
    offset0/offset1/gds/acc (misaligned tuples, tuples past v255, acc/gds where LLVM
    ignores them); LLVM rejects a DS word with a non-zero register field the op does
    not use, so those stay zero;
  * RANDOM_ANY_PER_OP encodings with random values in any field (each non-zero with
    probability 1/2) and, half of the time, one bit of the first word no field covers
    (gfx10+ bit 16): mostly words LLVM rejects (see .ds.invalid below);
Processors: the `processor` lines and (ALIASES) the `alias` lines of the description.
  * misaligned (odd) first registers of wide operands (and with acc on gfx9);
Only inputs LLVM decodes as one whole 8-byte instruction are kept, and texts LLVM marks
with a comment (`/*`) are left out, but for the "Invalid register ... _Align2" mark of
misaligned tuples (gfx90a+, gfx1250) and the "Invalid register" mark of AGPRs in loads
and stores before gfx90a.

It also writes tests/data/<gen>.ds.invalid: `hex words | processors` of the words above
and of the words of invalid_candidates() (a register field the op does not use set, the
gds bit flipped, the acc bit set) that LLVM rejects on those processors; hsaco must
reject them too.
"""
import os
import random
import re
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(__file__))
from llvm_mc import disassemble  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFS = os.path.join(HERE, "..", "defs")
DATA = os.path.join(HERE, "..", "tests", "data")
GENS = ["gfx8", "gfx9", "gfx10", "gfx11", "gfx12"]
# Also ask LLVM about every alias processor of the description (gfx1013, gfx1151,
# gfx90c, the generic targets, ...): they must decode as the processor they alias.
ALIASES = True
RANDOM_PER_OP = 3
RANDOM_ANY_PER_OP = 3
# The only comment kept in texts: gfx90a+ mark a misaligned register tuple.
ALIGN2 = re.compile(r"/\*Invalid register, operand has '\w+_Align2' register class\*/")
# ... and gfx900-gfx908's mark of AGPRs in a load or store.
AGPR_MARK = re.compile(r"/\*Invalid register, operand has '(VGPR_32|VReg_\d+)' register class\*/")
REGS = dict(addr=1, data0=2, data1=6, vdst=10)
# ds_swizzle_b32 offsets: each mode (bit-mask: SWAP, REVERSE, BROADCAST, BITMASK_PERM;
# QUAD_PERM; gfx9+ ROTATE and FFT) and the numbers around their edges.
SWIZZLE = [0x0001, 0x001F, 0x041F, 0x081F, 0x0C1F, 0x3C1F, 0x7C1F, 0x001E, 0x001C, 0x0018,
           0x0010, 0x0030, 0x03E0, 0x7FFF, 0x1234, 0x8000, 0x80E4, 0x801B, 0x80FF, 0x8100,
           0xA000, 0xBFFF, 0xC000, 0xC400, 0xC020, 0xC7FF, 0xC800, 0xDFFF, 0xE000, 0xE001,
           0xE01F, 0xE020, 0xFFFF]


def parse(gen):
    """(processors, DS fields {name: (lo, width)}, [(mnemonic, opcode, {operand: width})])"""
    procs, fields, ops = [], {}, []
    cur = None
    for line in open(os.path.join(DEFS, gen + ".txt")):
        t = line.split()
        if not t or t[0].startswith("#"):
            continue
        if t[0] == "processor":
            procs.append(t[1])
        elif t[0] == "alias" and ALIASES:
            procs.append(t[1])
        elif t[0] == "encoding":
            cur = t[1]
            if cur == "DS":
                fields["match"] = int(t[3], 16)
        elif t[0] == "field" and cur == "DS":
            fields[t[1]] = (int(t[2]), int(t[3]))
        elif t[0] == "op":
            for e in t[2].split(","):
                enc, _, opc = e.split("@")[0].partition("=")
                if enc != "DS":
                    continue
                operands = {}
                if "!gdsonly" in t:
                    operands["gds"] = 1  # GDS-only: the gds bit is always set
                for o in t[3:]:
                    if ":" in o and not o.startswith(("!", "@")):
                        name, kind = o.split(":", 1)
                        digits = "".join(c for c in kind if c.isdigit())
                        operands[name] = int(digits) if digits else 32
                ops.append((t[1], int(opc, 16), operands))
    return procs, fields, ops


def build(fields, vals):
    v = fields["match"]
    for name, x in vals.items():
        lo, w = fields[name]
        assert 0 <= x < (1 << w), (name, x)
        v |= x << lo
    return [v & 0xFFFFFFFF, v >> 32]


def candidates(gen, fields, mnemonic, opc, operands):
    regs = {k: r for k, r in REGS.items() if k in operands}
    base = dict(op=opc, **regs)
    if "gds" in operands:
        base["gds"] = 1
    out = [base]
    high = dict(base)
    for k, width in operands.items():
        if k in REGS:
            n = max(1, width // 32)
            top = 256 - n
            high[k] = top - (top % 2) if n > 1 else 255
    high.update(offset0=0x34, offset1=0x12)
    out.append(high)
    out.append(dict(base, offset0=0xFF))
    out.append(dict(base, offset1=0xFF))
    if gen != "gfx12":
        out.append(dict(base, offset0=0x10, gds=1))
    if mnemonic == "ds_swizzle_b32":
        for o in SWIZZLE:
            out.append(dict(base, offset0=o & 0xFF, offset1=o >> 8))
    if "acc" in fields:
        out.append(dict(base, acc=1))
        out.append(dict(high, acc=1))
    # odd first registers of tuples (gfx90a+ and gfx1250 mark them "Invalid register")
    for k, width in operands.items():
        if k in REGS and width > 32:
            out.append(dict(base, **{k: base[k] + 1}))
            if "acc" in fields:
                out.append(dict(base, acc=1, **{k: base[k] + 1}))
    # random values in every field but the opcode (seeded: reruns write the same file)
    rng = random.Random("%s %d" % (gen, opc))
    for _ in range(RANDOM_PER_OP):
        out.append(dict({k: rng.getrandbits(f[1]) for k, f in fields.items()
                         if k in operands or k in ("offset0", "offset1", "gds", "acc")},
                        op=opc, **({"gds": 1} if "gds" in operands else {})))
    words = [build(fields, c) for c in out]
    # and any field, or a bit of the first word no field covers (seeded random)
    used = 0
    for k, f in fields.items():
        if k != "match":
            used |= ((1 << f[1]) - 1) << f[0]
    free = [b for b in range(26) if not (used >> b) & 1]
    for _ in range(RANDOM_ANY_PER_OP):
        ws = build(fields, dict({k: rng.getrandbits(f[1]) if rng.random() < 0.5 else 0
                                 for k, f in fields.items() if k not in ("op", "match")},
                                op=opc))
        if free and rng.random() < 0.5:
            ws[0] |= 1 << rng.choice(free)
        words.append(ws)
    return words


def invalid_candidates(gen, fields, opc, operands):
    """Words LLVM may reject: a register field the op has no operand for set, the gds bit
    flipped, the acc bit set."""
    base = dict(op=opc, **{k: r for k, r in REGS.items() if k in operands})
    if "gds" in operands:
        base["gds"] = 1
    out = [dict(base, **{k: 3}) for k in REGS if k not in operands and k in fields]
    if "gds" in fields:
        out.append(dict(base, gds=0 if "gds" in operands else 1))
    if "acc" in fields:
        out.append(dict(base, acc=1))
    return [build(fields, c) for c in out]


def generic(gen, fields, opc):
    """Encodings for an opcode the description does not have (only for --missing): each
    subset of the register fields LLVM may require to be zero."""
    subsets = [(), ("addr",), ("vdst",), ("addr", "vdst"), ("addr", "data0"),
               ("addr", "data0", "vdst"), ("addr", "data0", "data1"),
               ("addr", "data0", "data1", "vdst"), ("data0",)]
    gds = [{}, {"gds": 1}] if gen != "gfx12" else [{}]
    return [build(fields, dict(g, op=opc, **{k: REGS[k] for k in s}))
            for s in subsets for g in gds]


def vectors(gen, missing=False):
    procs, fields, ops = parse(gen)
    words = []
    seen = set()
    known = {opc for _, opc, _ in ops}
    if missing:
        todo = [generic(gen, fields, o) for o in range(1 << fields["op"][1])
                if o not in known]
    else:
        todo = [candidates(gen, fields, m, opc, operands) for m, opc, operands in ops]
        todo += [invalid_candidates(gen, fields, opc, operands) for _, opc, operands in ops]
    for cands in todo:
        for ws in cands:
            if tuple(ws) not in seen:
                seen.add(tuple(ws))
                words.append(ws)
    per = OrderedDict()
    rejected = OrderedDict()
    for proc in procs:
        res = disassemble(words, proc)
        if not any(res):
            continue  # a processor llvm-mc-22 does not know (gfx940, gfx941)
        for ws, r in zip(words, res):
            if not r:
                rejected.setdefault(tuple(ws), []).append(proc)
            elif "/*" not in AGPR_MARK.sub("", ALIGN2.sub("", r[0])) and r[1] == 8:
                per.setdefault((tuple(ws), r[0]), []).append(proc)
    return per, rejected


def main():
    args = sys.argv[1:]
    missing = "--missing" in args
    gens = [a for a in args if not a.startswith("--")] or GENS
    for gen in gens:
        per, rejected = vectors(gen, missing)
        if missing:
            for (ws, txt), ps in per.items():
                print("%s: %08x %08x | %s | %s" % (gen, ws[0], ws[1], txt, ",".join(ps)))
            continue
        out = [
            "# DS (LDS/GDS) vectors: generated by scripts/ds_vectors.py %s from" % gen,
            "# llvm-mc-22 --disassemble -triple=amdgcn -mcpu=P (P = the processors of",
            "# defs/%s.txt); do not edit, rerun the script." % gen,
            "# hex words | llvm text | processors",
        ]
        for (ws, txt), ps in per.items():
            out.append("%s | %s | %s" % (" ".join("%08x" % w for w in ws), txt, ",".join(ps)))
        path = os.path.join(DATA, gen + ".ds.txt")
        open(path, "w").write("\n".join(out) + "\n")
        out = [
            "# DS words llvm-mc-22 --disassemble rejects (invalid instruction encoding):",
            "# generated by scripts/ds_vectors.py %s; do not edit, rerun the script." % gen,
            "# hex words | processors",
        ]
        for ws, ps in rejected.items():
            out.append("%s | %s" % (" ".join("%08x" % w for w in ws), ",".join(ps)))
        open(os.path.join(DATA, gen + ".ds.invalid"), "w").write("\n".join(out) + "\n")
        print("%s: %d vectors, %d rejected words" % (gen, len(per), len(rejected)))


if __name__ == "__main__":
    main()
