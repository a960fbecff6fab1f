#!/usr/bin/env python3
"""Operand rules an encoder must obey (constant bus, literals, operand classes), learned
from llvm-mc-22 as a black box: assemble instruction texts and see which it accepts and
which it rejects with which message.

    python3 scripts/encrules.py [GEN...]            # write tests/data/encrules/<gen>.txt
                                                    # and the `rule` lines of defs/<gen>.txt
    python3 scripts/encrules.py --check [GEN...]    # fail if LLVM disagrees with both

Two phases per processor (see DESIGN.md "Operand rules"):
1. probes: for every VALU/SALU op and encoding form (VOP1/2/C e32, VOP3 e64, VOP3P,
   VOP1/2/C SDWA and DPP, SOP1/2/C), the all-VGPR (SALU: all-SGPR) text, then each source alone
   replaced by an SGPR, a special register, an inline constant and a literal, then k
   distinct SGPRs in k sources. From the answers: the generation's constant-bus limit,
   the encodings that may carry a literal, and per op the facts that differ from the
   defaults (`rule op ...` lines of the defs header).
2. mixes: seeded random mixes of VGPR/SGPR/special/inline/literal sources per op and
   form, with repeated SGPRs and literals; every answer is one line of
   tests/data/encrules/<gen>.txt, which tests/encrules.rs checks the rule function
   against.

Line format (tab separated):
    PROC  ENC  MNEMONIC  OPERANDS  RESULT  TEXT
OPERANDS lists every operand of the op line in order: Vn.c (VGPRs n..n+c-1), Hn.l /
Hn.h (true16 half), Sn.c (SGPRs), Kcode.c (special scalar register by encoding value:
106 vcc, 124 m0, 126 exec), In (inline integer), Fcode (inline float by encoding),
Lhex (literal). RESULT is `ok WORDS` (the encoding, 32-bit words in hex) or
`err bus|literal|unique|operand` (LLVM's message: "invalid operand (violates constant
bus restrictions)", "literal operands are not supported", "only one unique literal
operand is allowed", "invalid operand for instruction"). Texts LLVM rejects with any
other message are not written; the header counts them per message.
"""
import itertools
import os
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LLVM_MC = "llvm-mc-22"

PROCS = {
    "gfx6": ["gfx600"],
    "gfx7": ["gfx700"],
    "gfx8": ["gfx803"],
    "gfx9": ["gfx900", "gfx942"],
    "gfx10": ["gfx1010", "gfx1030"],
    "gfx11": ["gfx1100"],
    "gfx12": ["gfx1201", "gfx1250"],
}
VALU = ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P")
SALU = ("SOP1", "SOP2", "SOPC")
SRC_ROLES = ("src0", "src1", "src2", "ssrc0", "ssrc1")
DST_ROLES = ("vdst", "sdst", "sdst8")
SKIP_FLAGS = {"mai", "wmma", "bitop3", "matrix_fmt", "byte_sel", "index_key"}
CATEGORY = [
    ("violates constant bus restrictions", "bus"),
    ("literal operands are not supported", "literal"),
    ("only one unique literal operand is allowed", "unique"),
    ("invalid operand for instruction", "operand"),
    ("source operand must be a VGPR", "operand"),
]
FLOAT_INLINE = {"0.5": 240, "-4.0": 247}
LITS = (0x1234, 0x4567)
# a literal that needs 64 bits (gfx1250 VOP1/2/C and SOP1/2/C carry it in 64-bit operands)
LIT64 = 0x123456789


def parse_defs(gen):
    path = os.path.join(ROOT, "defs", gen + ".txt")
    procs, encs, ops = [], {}, []
    cur = None
    for line in open(path):
        t = line.split("#")[0].split()
        if not t:
            continue
        if t[0] == "processor":
            procs.append(t[1])
        elif t[0] == "encoding":
            cur = {"name": t[1], "fields": {}, "base": None,
                   "match": int(t[3], 0), "mask": int(t[4], 0), "words": int(t[2])}
            for o in t[5:]:
                if o.startswith("base="):
                    cur["base"] = o[5:]
            encs[t[1]] = cur
        elif t[0] == "field":
            cur["fields"][t[1]] = t[4]
        elif t[0] == "op":
            if any(x.startswith("?") for x in t):
                continue
            op = {"mn": t[1], "encs": {}, "operands": [], "flags": set(), "procs": None,
                  "reads": set()}
            for e in t[2].split(","):
                p = None
                if "@" in e:
                    e, p = e.split("@")
                    p = set(p.split("+"))
                name, opc = e.split("=")
                op["encs"][name] = p
            for tok in t[3:]:
                if tok == "-":
                    continue
                if tok.startswith("!"):
                    op["flags"].add(tok[1:])
                elif tok.startswith("@"):
                    op["procs"] = set(tok[1:].split("+"))
                elif tok.startswith("reads="):
                    op["reads"] = set(tok[6:].split(","))
                elif tok.startswith("writes="):
                    pass
                else:
                    role, ty = tok.split(":")
                    op["operands"].append((role, ty))
            ops.append(op)
    return procs, encs, ops


def width(ty):
    m = re.search(r"(\d+)$", ty)
    return int(m.group(1)) if m else 32


def regs(ty):
    return max(1, (width(ty) + 31) // 32)


def is_float(ty):
    return ty.startswith("f")


def rng(first, count, prefix):
    return "%s%d" % (prefix, first) if count == 1 else "%s[%d:%d]" % (prefix, first, first + count - 1)


class Form:
    """One way to write an op: encoding name (of the defs) and text suffix."""

    def __init__(self, enc, suffix, tail=""):
        self.enc, self.suffix, self.tail = enc, suffix, tail


def forms(gen, proc, op, encs):
    """The encodings of `op` available on `proc`, as Forms."""
    avail = []
    for e, p in op["encs"].items():
        if op["procs"] and proc not in op["procs"] and proc in PROC_INDEX[gen]:
            continue
        if p and proc not in p:
            continue
        avail.append(e)
    out = []
    has32 = any(e in ("VOP1", "VOP2", "VOPC") for e in avail)
    has64 = "VOP3" in avail
    both = has32 and has64 and "no_suffix" not in op["flags"]
    for e in avail:
        if e in ("VOP1", "VOP2", "VOPC"):
            out.append(Form(e, "_e32" if both else ""))
            # VOPC op lines of gfx9/gfx10 carry no `!dpp`: probed anyway, LLVM's answers
            # say which ops have the form (gfx9: none, "dpp variant of this instruction
            # is not supported")
            sdwa = "sdwa" in op["flags"]
            dpp = "dpp" in op["flags"] or (e == "VOPC" and gen in ("gfx9", "gfx10"))
            if sdwa and (e + "_SDWA") in encs:
                out.append(Form(e + "_SDWA", "_sdwa"))
            if dpp and (e + "_DPP") in encs:
                out.append(Form(e + "_DPP", "_dpp",
                                " quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"))
            if dpp and (e + "_DPP8") in encs:
                out.append(Form(e + "_DPP8", "_dpp", " dpp8:[7,6,5,4,3,2,1,0]"))
        elif e == "VOP3":
            out.append(Form(e, "_e64" if both else ""))
        elif e in ("VOP3P",) or e in SALU:
            out.append(Form(e, ""))
    return out


PROC_INDEX = {}


def usable(op):
    if op["flags"] & SKIP_FLAGS:
        return False
    srcs = 0
    for role, ty in op["operands"]:
        r = role.split("|")[0]
        if r in SRC_ROLES:
            srcs += 1
        elif r in DST_ROLES or role == "lit" or role in ("vcc",):
            pass
        else:
            return False
        if not re.match(r"^[bfiu](16|32|64|96|128)$", ty):
            return False
    return srcs > 0


def sources(op, form, encs):
    """Indices of the operand list that are sources held in fields of this form."""
    e = encs[form.enc]
    out = []
    for i, (role, ty) in enumerate(op["operands"]):
        r = role.split("|")[0]
        if r in SRC_ROLES and r in e["fields"]:
            out.append(i)
    return out


# --- operand values -------------------------------------------------------------------

def v_val(gen, ty, n, enc):
    """VGPR value: (text, token)."""
    c = regs(ty)
    if gen == "gfx11" and width(ty) == 16:
        return "v%d.l" % n, "H%d.l" % n
    return rng(n, c, "v"), "V%d.%d" % (n, c)


def s_val(ty, n):
    c = regs(ty)
    if c > 2:
        n = 8 + 4 * (n // 4)
    return rng(n, c, "s"), "S%d.%d" % (n, c)


def special_vals(gen, ty):
    c = regs(ty)
    if c == 1:
        return [("vcc_lo", "K106.1"), ("m0", "K124.1"), ("exec_lo", "K126.1")]
    if c == 2:
        return [("vcc", "K106.2"), ("exec", "K126.2")]
    return []


def inline_vals(ty, gen=None):
    if gen in ("gfx6", "gfx7") and width(ty) == 16:
        # no 16-bit inline constants before gfx8: LLVM encodes "5" as a literal
        return [("5", "L5")]
    v = [("5", "I5"), ("-3", "I-3")]
    if is_float(ty):
        v += [(k, "F%d" % c) for k, c in FLOAT_INLINE.items()]
    return v


def lit_val(x):
    return "0x%x" % x, "L%x" % x


def lane_mask(gen, ty):
    """Text/token for a fixed vcc operand of type ty."""
    if regs(ty) == 2:
        return "vcc", "K106.2"
    return "vcc_lo", "K106.1"


def build(gen, op, form, encs, choice):
    """Text and operand tokens with `choice` {operand index: (text, token)} for sources;
    other sources VGPRs (SALU: SGPRs)."""
    e = encs[form.enc]
    salu = form.enc in SALU
    texts, toks = [], []
    for i, (role, ty) in enumerate(op["operands"]):
        parts = role.split("|")
        r = parts[0]
        if role == "lit":
            t = choice.get(i, lit_val(LITS[0]))
        elif r not in e["fields"] and len(parts) == 2:
            t = lane_mask(gen, ty)
        elif role == "vcc":
            t = lane_mask(gen, ty)
        elif r == "vdst":
            t = v_val(gen, ty, 0, form.enc)
        elif r in ("sdst", "sdst8"):
            t = s_val(ty, 10) if not salu else s_val(ty, 20)
        elif i in choice:
            t = choice[i]
        elif salu:
            t = s_val(ty, 30 + 4 * i)
        else:
            t = v_val(gen, ty, 2 + 4 * i, form.enc)
        texts.append(t[0])
        toks.append(t[1])
    if form.enc in ("VOP2", "VOP2_SDWA", "VOP2_DPP", "VOPC") and not e["fields"].get("sdst8"):
        pass
    return "%s%s %s%s" % (op["mn"], form.suffix, ", ".join(texts), form.tail), " ".join(toks)


# --- llvm-mc -------------------------------------------------------------------------

_ENC = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")
_ERR = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$")


# extra llvm-mc options (the wave64 phase sets +wavefrontsize64)
MATTR = []


def assemble(texts, mcpu):
    """Per text: ("ok", words hex) or ("err", message)."""
    res = [None] * len(texts)
    step = 4000
    for s in range(0, len(texts), step):
        chunk = texts[s:s + step]
        p = subprocess.run([LLVM_MC, "-triple=amdgcn", "-mcpu=" + mcpu, "-show-encoding"] + MATTR,
                           input="\n".join(chunk) + "\n", capture_output=True, text=True)
        bad = {}
        for l in p.stderr.splitlines():
            m = _ERR.match(l)
            if m and int(m.group(1)) - 1 not in bad:
                bad[int(m.group(1)) - 1] = m.group(2).strip()
        outs = [m for m in (_ENC.match(l) for l in p.stdout.splitlines()) if m]
        k = 0
        for i in range(len(chunk)):
            if i in bad:
                res[s + i] = ("err", bad[i])
            else:
                b = bytes(int(x, 16) for x in outs[k].group(2).split(","))
                k += 1
                words = [int.from_bytes(b[j:j + 4], "little") for j in range(0, len(b), 4)]
                res[s + i] = ("ok", " ".join("%08x" % w for w in words))
        assert k == len(outs), (mcpu, k, len(outs))
    return res


def category(msg):
    for m, c in CATEGORY:
        if m in msg:
            return c
    return None


# --- probing --------------------------------------------------------------------------

def default_mask(form, encs, role):
    """Classes (V S I L) the field kind alone allows; whether the encoding may carry a
    literal at all is the separate `rule literal` list."""
    e = encs[form.enc]
    r = role.split("|")[0]
    if role == "lit":
        return "L"
    kind = e["fields"].get(r)
    sflag = {"src0": "s0", "src1": "s1"}.get(r)
    if kind == "vgpr":
        return "VSI" if sflag in e["fields"] else "V"
    if kind == "ssrc":
        return "SIL"
    return "VSIL"


def wave_regs(gen):
    return 2 if gen in ("gfx6", "gfx7", "gfx8", "gfx9") else 1


def scalar_count(gen, op, toks, fields=None):
    """Scalar values read: distinct SGPR/special operands among the sources, one for any
    literals, plus the implicit VCC/M0 reads. An implicit VCC read, and the fixed vcc
    source of a VOP2/SDWA carry or cndmask, is the register pair VCC even in wave32
    (llvm-mc-22 counts `vcc_lo` beside it as another value)."""
    seen, lits = set(), set()
    for (role, ty), t in zip(op["operands"], toks):
        r = role.split("|")[0]
        if r not in SRC_ROLES and role != "lit":
            continue
        if "|" in role and fields is not None and r not in fields:
            seen.add("K106.2")
        elif t[0] in "SK":
            seen.add(t)
        elif t[0] == "L":
            lits.add(t)
    if "vcc" in op["reads"]:
        seen.add("K106.2")
    if "m0" in op["reads"]:
        seen.add("K124.1")
    return len(seen) + (1 if lits else 0)


def enc_ok(encs, form, words):
    e = encs[form.enc]
    w = [int(x, 16) for x in words.split()]
    return w[0] & e["mask"] == e["match"] and len(w) >= e["words"]


def class_vals(gen, ty, n):
    """Candidate values per class for a source of type ty (n varies registers)."""
    return {
        "V": v_val(gen, ty, 40 + 4 * n, None),
        "S": s_val(ty, 2),
        "K": (special_vals(gen, ty) or [s_val(ty, 2)])[0],
        "I": inline_vals(ty, gen)[0],
        "L": lit_val(LITS[0]),
        **({"W": lit_val(LIT64)} if regs(ty) == 2 else {}),
    }


def run(jobs, proc, encs, results, other):
    """Assemble jobs [(key, op, form, text, toks, tag)]; append classified answers."""
    res = assemble([j[3] for j in jobs], proc)
    out = []
    for j, r in zip(jobs, res):
        key, op, f, text, toks, tag = j
        if r[0] == "ok":
            if not enc_ok(encs, f, r[1]):
                if tag[0] == "mix":
                    other["accepted in another encoding"] += 1
                out.append((j, None))
                continue
            out.append((j, ("ok", r[1])))
        else:
            c = category(r[1])
            if c is None and tag[0] == "mix":
                other[r[1]] += 1
            out.append((j, ("err", c) if c else None))
    for j, r in out:
        if r is not None and j[5][0] == "mix":
            results.append((proc, j[2].enc, j[1]["mn"], j[4], r, j[3]))
    return out


def probe(gen, proc, ops, encs, results, other):
    """Probe texts for every usable op and form on `proc`; returns per (mn, enc) facts:
    {"base": toks or None, "slot": {(i, cls): answer}, "counts": [(count, answer)]}."""
    items = []
    jobs = []
    for op in ops:
        if not usable(op):
            continue
        for f in forms(gen, proc, op, encs):
            srcs = sources(op, f, encs)
            if not srcs:
                continue
            items.append((op, f, srcs))
            # base candidates: every source a VGPR or an SGPR (SALU: SGPRs only)
            salu = f.enc in SALU
            combos = [()] if salu else sorted(
                itertools.product("VSI", repeat=len(srcs)),
                key=lambda c: (sum(x != "V" for x in c), c))
            for combo in combos:
                ch = {}
                for b, (i, cls) in enumerate(zip(srcs, combo)):
                    ty = op["operands"][i][1]
                    if cls == "S":
                        ch[i] = s_val(ty, 2)
                    elif cls == "I":
                        ch[i] = inline_vals(ty, gen)[0]
                text, toks = build(gen, op, f, encs, ch)
                jobs.append(((op["mn"], f.enc), op, f, text, toks.split(), ("base", combo)))
    facts = {}
    for j, r in run(jobs, proc, encs, results, other):
        d = facts.setdefault(j[0], {"base": None, "choice": None, "slot": {}, "counts": []})
        if r and r[0] == "ok" and d["base"] is None:
            d["base"] = j[4]
            d["choice"] = j[5][1]
        if r:
            d["counts"].append((scalar_count(gen, j[1], j[4], encs[j[2].enc]["fields"]), r))
    jobs = []
    for op, f, srcs in items:
        key = (op["mn"], f.enc)
        d = facts[key]
        if d["base"] is None:
            continue
        salu = f.enc in SALU

        def with_(ch, d=d, op=op, f=f, srcs=srcs, salu=salu):
            full = {}
            for b, i in enumerate(srcs):
                ty = op["operands"][i][1]
                cls = "S" if salu else d["choice"][b]
                if cls == "S":
                    full[i] = s_val(ty, 30 + 4 * b)
                elif cls == "I":
                    full[i] = inline_vals(ty, gen)[0]
            full.update(ch)
            return build(gen, op, f, encs, full)
        for n, i in enumerate(srcs):
            for cls, val in class_vals(gen, op["operands"][i][1], n).items():
                text, toks = with_({i: val})
                jobs.append((key, op, f, text, toks.split(), ("slot", (i, cls))))
        for k in range(2, len(srcs) + 1):
            ch = {i: s_val(op["operands"][i][1], 2 + 4 * n) for n, i in enumerate(srcs[:k])}
            text, toks = with_(ch)
            jobs.append((key, op, f, text, toks.split(), ("bus", k)))
        if len(srcs) >= 2:
            for a, b in ((0, 1), (1, 0)):
                ch = {srcs[a]: s_val(op["operands"][srcs[a]][1], 2),
                      srcs[b]: lit_val(LITS[0])}
                text, toks = with_(ch)
                jobs.append((key, op, f, text, toks.split(), ("bus", "sl")))
        if len(srcs) >= 2 and not salu:
            for a in srcs:
                for b in srcs:
                    if a != b and regs(op["operands"][b][1]) == 1:
                        ch = {a: s_val(op["operands"][a][1], 2), b: ("m0", "K124.1")}
                        text, toks = with_(ch)
                        jobs.append((key, op, f, text, toks.split(), ("m0", b)))
    for j, r in run(jobs, proc, encs, results, other):
        d = facts[j[0]]
        if j[5][0] == "slot":
            d["slot"][j[5][1]] = r
        if j[5][0] == "m0":
            d.setdefault("m0", []).append((j[5][1], scalar_count(gen, j[1], j[4], encs[j[2].enc]["fields"]), r))
        elif r:
            d["counts"].append((scalar_count(gen, j[1], j[4], encs[j[2].enc]["fields"]), r))
    return items, facts


def is_vector(enc):
    return enc in VALU or enc.endswith(("_SDWA", "_DPP", "_DPP8"))


def derive(gen, proc, encs, items, facts):
    """Constants of `proc` and per (op, form) facts that differ from the defaults:
    (bus, literal encodings, {(mn, enc): [(what, value)]}, stats)."""
    lit_votes, lit64_encs = Counter(), set()
    exact = Counter()
    limits = {}
    for op, f, srcs in items:
        d = facts[(op["mn"], f.enc)]
        if d["base"] is None:
            continue
        for (i, cls), r in d["slot"].items():
            if cls == "L" and r and r[0] == "ok":
                lit_votes[f.enc] += 1
            if cls == "L" and r and r[0] == "err" and r[1] == "literal":
                lit_votes[f.enc] -= 1
            if cls == "W" and r and r[0] == "ok":
                lit64_encs.add(f.enc)
        if not is_vector(f.enc):
            continue
        acc = [c for c, r in d["counts"] if r[0] == "ok"]
        rej = [c for c, r in d["counts"] if r[0] == "err" and r[1] == "bus"]
        a = max(acc) if acc else 0
        rr = min(rej) if rej else None
        limits[(op["mn"], f.enc)] = (a, rr)
        if rr == a + 1:
            exact[a] += 1
    # an encoding carries literals if more of its probed ops accept one than reject it
    # with "literal operands are not supported" (gfx950 VOP3: a few ops do)
    lit_encs = {e for e, v in lit_votes.items() if v > 0}
    bus = exact.most_common(1)[0][0] if exact else None
    facts_out = {}
    for op, f, srcs in items:
        key = (op["mn"], f.enc)
        d = facts[key]
        if d["base"] is None:
            continue
        rows = []
        if key in limits and bus is not None:
            a, rr = limits[key]
            lim = bus
            if (rr == a + 1 and a != bus) or a > bus:
                rows.append(("bus", a))
                lim = a
            free = set()
            for b, count, r in d.get("m0", []):
                if r and r[0] == "ok" and count > lim:
                    free.add(b)
            for b in sorted(free):
                rows.append(("m0free", op["operands"][b][0].split("|")[0]))
        for i in srcs:
            role = op["operands"][i][0]
            meas = ""
            for cls in "VSIL":
                r = d["slot"].get((i, cls))
                if r is None:
                    continue
                if r[0] == "ok" or r[1] in ("bus", "unique") or (
                        r[1] == "literal" and cls == "L" and f.enc not in lit_encs):
                    meas += cls
            lit_exception = f.enc not in lit_encs and "L" in meas and \
                d["slot"].get((i, "L"), ("err",))[0] == "ok"
            if meas != default_mask(f, encs, role):
                rows.append((role.split("|")[0], meas))
            if lit_exception:
                rows.append(("literal", role.split("|")[0]))
        facts_out[key] = rows
    return bus, lit_encs, lit64_encs, facts_out


def mixes(gen, proc, encs, items, facts, results, other, rnd, n_mix):
    jobs = []
    for op, f, srcs in items:
        key = (op["mn"], f.enc)
        if facts[key]["base"] is None:
            continue
        salu = f.enc in SALU
        for _ in range(n_mix):
            ch = {}
            for n, i in enumerate(srcs):
                ty = op["operands"][i][1]
                cls = rnd.choice("VSSKIIL" if not salu else "SSKIILLV")
                if cls == "V":
                    ch[i] = v_val(gen, ty, 40 + 4 * n, None)
                elif cls == "S":
                    ch[i] = s_val(ty, rnd.choice((2, 4)))
                elif cls == "K":
                    sv = special_vals(gen, ty)
                    ch[i] = rnd.choice(sv) if sv else s_val(ty, 2)
                elif cls == "I":
                    ch[i] = rnd.choice(inline_vals(ty, gen))
                elif regs(ty) == 2 and rnd.random() < 0.3:
                    ch[i] = lit_val(LIT64)
                else:
                    ch[i] = lit_val(rnd.choice(LITS))
            if not salu:
                for b, i in enumerate(srcs):
                    if facts[key]["choice"][b] != "V" and rnd.random() < 0.5:
                        ty = op["operands"][i][1]
                        ch[i] = s_val(ty, rnd.choice((2, 4))) if facts[key]["choice"][b] == "S" \
                            else rnd.choice(inline_vals(ty, gen))
            text, toks = build(gen, op, f, encs, ch)
            jobs.append((key, op, f, text, toks.split(), ("mix", None)))
    run(jobs, proc, encs, results, other)


RULES_BEGIN = "# --- operand rules (scripts/encrules.py writes these lines; DESIGN.md \"Operand rules\") ---"
RULES_END = "# --- end of operand rules ---"


def rule_lines(gen, procs_probed, per_proc):
    """The `rule` lines of the defs header from each probed processor's facts."""
    out = [RULES_BEGIN]
    def at(ps):
        return "" if set(ps) == set(procs_probed) else " @" + "+".join(ps)
    buses = defaultdict(list)
    lits = defaultdict(list)
    lits64 = defaultdict(list)
    for p in procs_probed:
        bus, lit, lit64, _ = per_proc[p]
        buses[bus].append(p)
        lits[" ".join(sorted(lit))].append(p)
        if lit64:
            lits64[" ".join(sorted(lit64))].append(p)
    for b, ps in sorted(buses.items(), key=lambda x: str(x[0])):
        out.append("rule bus %s%s" % (b, at(ps)))
    for l, ps in sorted(lits.items()):
        out.append("rule literal %s%s" % (l, at(ps)))
    for l, ps in sorted(lits64.items()):
        out.append("rule literal64 %s @%s" % (l, "+".join(ps)))
    rows = defaultdict(list)  # (mn, enc, what, value) -> procs
    seen = defaultdict(set)   # (mn, enc) -> procs where probed
    order = []
    for p in procs_probed:
        for key, rs in per_proc[p][3].items():
            seen[key].add(p)
            for what, val in rs:
                k = (key[0], key[1], what, val)
                if k not in rows:
                    order.append(k)
                rows[k].append(p)
    for k in order:
        mn, enc, what, val = k
        ps = rows[k]
        cond = "" if set(ps) == seen[(mn, enc)] else " @" + "+".join(ps)
        out.append("rule op %s %s %s=%s%s" % (mn, enc, what, val, cond))
    out.append(RULES_END)
    return out


def write_defs(gen, lines):
    path = os.path.join(ROOT, "defs", gen + ".txt")
    text = open(path).read()
    block = "\n".join(lines) + "\n"
    if RULES_BEGIN in text:
        a = text.index(RULES_BEGIN)
        b = text.index(RULES_END) + len(RULES_END) + 1
        new = text[:a] + block + text[b:]
    else:
        # before the first op line
        m = re.search(r"^op ", text, re.M)
        a = text.rfind("\n\n", 0, m.start()) + 2
        new = text[:a] + block + "\n" + text[a:]
    return path, text, new


def generate(gen):
    n_mix = 6 if len(PROCS[gen]) == 1 else 3
    procs, encs, ops = parse_defs(gen)
    PROC_INDEX[gen] = set(procs)
    results, other = [], Counter()
    per_proc = {}
    rnd = random.Random("encrules-" + gen)
    for proc in procs:
        items, facts = probe(gen, proc, ops, encs, results, other)
        per_proc[proc] = derive(gen, proc, encs, items, facts)
        if proc in PROCS[gen]:
            mixes(gen, proc, encs, items, facts, results, other, rnd, n_mix)
    seen = set()
    lines = []
    for proc, enc, mn, toks, r, text in results:
        k = (proc, text)
        if k in seen:
            continue
        seen.add(k)
        res = "ok " + r[1] if r[0] == "ok" else "err " + r[1]
        lines.append("\t".join((proc, enc, mn, " ".join(toks), res)))
    head = ["# Operand-rule vectors of %s from llvm-mc-22 (scripts/encrules.py; do not edit)." % gen,
            "# PROC ENC MNEMONIC OPERANDS RESULT (tab separated; format: encrules.py).",
            "# %d texts; rejected for messages outside the rules (not listed):" % len(lines)]
    for m, c in sorted(other.items()):
        head.append("#   %d: %s" % (c, m))
    rules = rule_lines(gen, procs, per_proc)
    extra = {}
    if gen in W64_PROCS:
        extra[gen + ".w64.txt"] = wave64(gen, procs, encs, ops)
    if gen in VOPD_GENS:
        # dual issue (VOPD, VOPD3): scripts/encrules_vopd.py
        import encrules_vopd
        vrules, vdata = encrules_vopd.generate(gen)
        rules = rules[:-1] + vrules + rules[-1:]
        extra[gen + ".vopd.txt"] = vdata
    if gen in VOPD_GENS:
        # VOP3/VOP3P with a DPP word (e64_dpp): scripts/encrules_dpp.py
        import encrules_dpp
        drules, ddata = encrules_dpp.generate(gen)
        rules = rules[:-1] + drules + rules[-1:]
        extra[gen + ".dpp.txt"] = ddata
    return rules, head + lines, extra


VOPD_GENS = ("gfx11", "gfx12")
# wave64 mixes (gfx10+): one processor per generation
W64_PROCS = {"gfx10": "gfx1030", "gfx11": "gfx1100", "gfx12": "gfx1201"}


def widen(gen, encs, ops):
    """Op lines as in wave64: lane masks (the fixed-vcc roles `X|vcc`, sdst/sdst8 of
    vector encodings, v_cndmask's VOP3 src2) are register pairs."""
    out = []
    for op in ops:
        vector = any(is_vector(e) for e in op["encs"])
        o = dict(op)
        o["operands"] = []
        for role, ty in op["operands"]:
            r = role.split("|")[0]
            mask = vector and ("|" in role or r in ("sdst", "sdst8") or (
                op["mn"].startswith("v_cndmask") and r == "src2"))
            o["operands"].append((role, "b64" if mask and width(ty) == 32 else ty))
        out.append(o)
    return out


def wave64(gen, procs, encs, ops):
    """Mixes of the wave64 processor of gen (llvm-mc-22 -mattr=+wavefrontsize64); the
    rules are those of wave32 (lane-mask pairs count once on the bus, as `vcc`)."""
    proc = W64_PROCS[gen]
    ops64 = widen(gen, encs, ops)
    results, other = [], Counter()
    rnd = random.Random("encrules-w64-" + gen)
    MATTR[:] = ["-mattr=+wavefrontsize64"]
    try:
        items, facts = probe(gen, proc, ops64, encs, [], Counter())
        mixes(gen, proc, encs, items, facts, results, other, rnd, 3)
    finally:
        MATTR[:] = []
    seen = set()
    lines = []
    for p, enc, mn, toks, r, text in results:
        if text in seen:
            continue
        seen.add(text)
        res = "ok " + r[1] if r[0] == "ok" else "err " + r[1]
        lines.append("\t".join((p + ":w64", enc, mn, " ".join(toks), res)))
    head = ["# Operand-rule vectors of %s in wave64 from llvm-mc-22 -mattr=+wavefrontsize64"
            " (scripts/encrules.py; do not edit)." % gen,
            "# PROC:w64 ENC MNEMONIC OPERANDS RESULT (as <gen>.txt; lane masks are pairs).",
            "# %d texts; rejected for messages outside the rules (not listed):" % len(lines)]
    for m, c in sorted(other.items()):
        head.append("#   %d: %s" % (c, m))
    return head + lines


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    check = "--check" in sys.argv
    bad = 0
    for gen in args or list(PROCS):
        rules, data, extra = generate(gen)
        path, old, new = write_defs(gen, rules)
        files = [(path, old, new)]
        for name, d in [(gen + ".txt", data)] + sorted(extra.items()):
            dpath = os.path.join(ROOT, "tests", "data", "encrules", name)
            dtext = "\n".join(d) + "\n"
            ok = sum(1 for l in d if "\tok " in l)
            n = sum(1 for l in d if not l.startswith("#"))
            print("%s: %d vectors (%d accepted)" % (name, n, ok))
            files.append((dpath, open(dpath).read() if os.path.exists(dpath) else "", dtext))
        print("%s: %d rule lines" % (gen, len(rules) - 2))
        for p, a, b in files:
            if check and a != b:
                print("  DIFFERS:", p)
                bad += 1
            elif not check:
                open(p, "w").write(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
