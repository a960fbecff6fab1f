"""gfx1250 VOPD3 words built from the field layout of defs/gfx12.txt, and the random
words that scripts/vopd3_vectors.py (vectors for tests/data) and
scripts/vopd3_random_diff.py (hsaco against llvm-mc-22) both draw.

One generator: vopd3_vectors.py calls it with the defaults, which keep the sequence the
committed gfx12.vopd3.txt/.invalid were written with (seed 1); vopd3_random_diff.py asks
for some opcodes outside the tables, more flipped bits and a share of special scalar
codes.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DEFS = os.path.join(HERE, "..", "defs", "gfx12.txt")


def layout(defs):
    """{field: (lo, width)} of the VOPD3 encoding."""
    fields, cur = {}, False
    for line in defs.splitlines():
        if line.startswith("encoding "):
            cur = line.split()[1] == "VOPD3"
        elif cur and line.startswith("field "):
            _, name, lo, width, _ = line.split()
            fields[name] = (int(lo), int(width))
    return fields


def table(defs, enc):
    """{opcode: (mnemonic, [operand roles], float modifiers?, 64-bit?)}."""
    out = {}
    for m in re.finditer(r"^op (\S+) (\S+) (.*)$", defs, re.M):
        for e in m.group(2).split(","):
            name, _, rest = e.partition("=")
            if name == enc:
                toks = m.group(3).split()
                roles = [t.split(":")[0] for t in toks if ":" in t and not t.startswith("!")]
                out[int(rest.split("@")[0], 16)] = (
                    m.group(1), roles, "!fpmods" in toks, any(t.endswith(":f64") for t in toks))
    return out


FIELDS = layout(open(DEFS).read())


def build(raw=0, **vals):
    """The three words of a VOPD3 instruction with these field values (and raw bits)."""
    v = 0xCF000000 | raw
    for name, x in vals.items():
        lo, w = FIELDS[name]
        v |= (x & ((1 << w) - 1)) << lo
    return [(v >> (32 * i)) & 0xFFFFFFFF for i in range(3)]


def hexw(words):
    return " ".join("%08X" % w for w in words)


# Field values near the constants: 0x3f/0x40/0x3c/0x38/0x44 make the second and third
# words f32/f64 bit patterns of inline floats; 0x80 (0), 0xc1 (-1), 0xf0/0xf5/0xf8 (0.5,
# -2.0, 1/(2*pi)) inline constants themselves.
SMALL = [0x3F, 0x40, 0x3C, 0x38, 0x44, 0x80, 0xC1, 0xF0, 0xF5, 0xF8]

# Scalar source codes worth a bias: vcc, vcc_hi, null/m0, exec, exec_hi, the src_*
# registers, codes LLVM rejects (249, 250) and the 254/255 quirk.
SPECIAL = [106, 107, 124, 125, 126, 127, 230, 231, 235, 239, 249, 250, 251, 253, 254, 255]

# Bits that are not fields of a half: 9-11 and 47 (ignored), 41-46 (neg of each source).
FREE_BITS = list(range(9, 12)) + list(range(41, 48))


def small(rnd):
    """A small field value: 0 (30%), below 16 (20%), one of SMALL (10%), else any byte."""
    r = rnd.random()
    if r < 0.3:
        return 0
    if r < 0.5:
        return rnd.randrange(16)
    if r < 0.6:
        return rnd.choice(SMALL)
    return rnd.randrange(256)


def src9(rnd, special=0.0):
    """A 9-bit source: a VGPR (45%), an SGPR below vcc (15%), a code of SPECIAL (the
    share `special`), else any other scalar code."""
    r = rnd.random()
    if r < 0.45:
        return 256 + rnd.randrange(256)
    if r < 0.6:
        return rnd.randrange(106)
    if r < 0.6 + special:
        return rnd.choice(SPECIAL)
    return rnd.randrange(106, 256)


def random_word(rnd, xs, ys, any_opcode=0.0, flip=0.12, special=0.0):
    """Every field random: opcodes of the tables xs/ys (the share `any_opcode` any of
    64), the second source registers and lane masks set 60% of the time, each free bit
    set with probability `flip`."""

    def opcode(tab):
        if any_opcode and rnd.random() >= 1 - any_opcode:
            return rnd.randrange(64)
        return rnd.choice(tab)

    d = dict(opx=opcode(xs), opy=opcode(ys), src0x=src9(rnd, special),
             src0y=src9(rnd, special), vdstx=rnd.randrange(256), vdsty=rnd.randrange(256))
    for f in ("vsrc1x", "src2x", "vsrc1y", "src2y"):
        d[f] = rnd.randrange(256) if rnd.random() < 0.6 else 0
    raw = 0
    for b in FREE_BITS:
        if rnd.random() < flip:
            raw |= 1 << b
    return build(raw, **d)


def quirk_word(rnd, xt, yt):
    """A word around the 254/255 quirk: the fields the two operations have (tables xt/yt
    from `table`), small values (so that the second and third words are often inline
    constants or fit in 32 bits), first sources and lane masks often 254 or 255, neg bits
    of sources that take them (20%)."""
    ox, oy = rnd.choice(sorted(xt)), rnd.choice(sorted(yt))
    d = dict(opx=ox, opy=oy)
    raw = 0
    for h, (_, roles, fp, _) in (("x", xt[ox]), ("y", yt[oy])):
        d["vdst" + h] = small(rnd)
        d["src0" + h] = rnd.choice([254, 254, 255, small(rnd), 256 + small(rnd)])
        if "vsrc1" + h in roles:
            d["vsrc1" + h] = small(rnd)
        if "src2" + h in roles:
            d["src2" + h] = small(rnd)
        if "ssrc2" + h in roles:
            d["src2" + h] = rnd.choice([254, 255, 106, small(rnd)])
        for i, r in enumerate(("src0", "vsrc1", "src2")):
            if fp and r + h in roles and rnd.random() < 0.2:
                raw |= 1 << ((41 if h == "x" else 44) + i)
    return build(raw, **d)
