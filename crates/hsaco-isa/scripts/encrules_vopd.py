#!/usr/bin/env python3
"""Dual-issue (VOPD gfx11/gfx12, VOPD3 gfx1250) operand rules, learned from llvm-mc-22
(-mattr=+wavefrontsize32) as a black box; the VOPD phase of scripts/encrules.py.

    python3 scripts/encrules_vopd.py [GEN...]   # print the rule lines and counts only

encrules.py calls `generate(gen)` for gfx11 and gfx12: it returns the `rule vopd` /
`rule op ... portN=` lines for the defs header and the lines of
tests/data/encrules/<gen>.vopd.txt.

Probes (per processor; DESIGN.md "Operand rules"):
* register sweeps: one read port (src0, vsrc1, the third port) of X and Y gets VGPRs
  a in 0..8 and b in 0..8 (others fixed, conflict free); the bank modulus is the m of
  {1,2,4,8} with "rejected iff a%m == b%m" (a == b accepted: `samereg`); the same for
  the two destinations (`dst=parity`: rejected iff a%2 == b%2; `dst=distinct`: iff a ==
  b). On gfx1250 LLVM falls back from VOPD to VOPD3: the VOPD rule is read from which
  texts it encodes as VOPD, the VOPD3 rule from texts whose destinations are both even.
* third-port operands: the accumulator of v_dual_fmac/dot2acc (vdst) and the addend of
  v_dual_fmamk (vsrc1) are candidates; a candidate is written only when its sweep
  against the same op shows a conflict (`rule op MN ENC port2=ROLE`).
* constant bus: scalar values of both halves together (SGPRs, special registers, one
  literal, the implicit VCC of v_dual_cndmask); the limit is the largest accepted count.
* literals: src0 may be one; at most one distinct value over both halves.
* wave32: the first text again with +wavefrontsize64 (gfx11/gfx1201: "instruction
  requires wavesize=32").

Mixes: seeded random pairs (X op, Y op) with random VGPRs v0..v15 and src0 from VGPR /
SGPR / special / inline / literal. Line format (tab separated):
    PROC  ENC  XMN  XOPERANDS  YMN  YOPERANDS  RESULT
PROC:w64 marks texts assembled with +wavefrontsize64 instead. ENC is the encoding LLVM chose (VOPD or VOPD3) for `ok WORDS`; for `err CATEGORY`
(bank, dst, bus, unique, operand) it is VOPD, or VOPD3 when only VOPD3 has both ops.
"""
import os
import random
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import encrules as E  # noqa: E402

PROCS = {"gfx11": ["gfx1100"], "gfx12": ["gfx1201", "gfx1250"]}
CATEGORY = [
    ("must use different VGPR banks", "bank"),
    ("dst register must be even and the other odd", "dst"),
    ("dst registers must be distinct", "dst"),
    ("instruction requires wavesize=32", "wave"),
] + E.CATEGORY
ROLES = ("vdst", "src0", "vsrc1", "src2", "lit", "ssrc2")
# operands that may read on the third port beside an explicit src2 (checked by probes)
PORT2_CANDIDATES = {"v_dual_fmac_f32": "vdst", "v_dual_dot2acc_f32_f16": "vdst",
                    "v_dual_dot2acc_f32_bf16": "vdst", "v_dual_fmamk_f32": "vsrc1"}
N_MIX = 12
N_WAVE64 = 60
# ops whose pairs the rules do not model yet (NOTES.md, round encrules2): gfx1250
# v_dual_dot2acc_f32_bf16 (LLVM picks VOPD3 for it as X where the VOPD rules allow VOPD,
# and its VOPD3 bank conflicts follow another pattern)
NOT_MODELLED = {("gfx1250", "v_dual_dot2acc_f32_bf16")}
_ERR = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$")
_ENC = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")


def assemble(texts, proc, wave64=False):
    import subprocess
    res = [None] * len(texts)
    step = 4000
    for s in range(0, len(texts), step):
        chunk = texts[s:s + step]
        p = subprocess.run(
            [E.LLVM_MC, "-triple=amdgcn", "-mcpu=" + proc, "-show-encoding",
             "-mattr=" + ("+wavefrontsize64" if wave64 else "+wavefrontsize32")],
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
        assert k == len(outs), (proc, k, len(outs))
    return res


def category(msg):
    for m, c in CATEGORY:
        if m in msg:
            return c
    return None


def enc_of(words, encs):
    w = int(words.split()[0], 16)
    for name in ("VOPD3", "VOPD"):
        e = encs.get(name)
        if e and w & e["mask"] == e["match"]:
            return name
    return None


def halves(gen, proc, ops):
    """{enc: {mnemonic: op line}} of the X tables (VOPD, VOPD3) and Y tables (VOPDY,
    VOPD3Y) on proc, for op lines with 32-bit operands of the roles above."""
    out = {"VOPD": {}, "VOPDY": {}, "VOPD3": {}, "VOPD3Y": {}}
    for op in ops:
        if op["procs"] and proc not in op["procs"]:
            continue
        if any(role(r) not in ROLES or E.width(t) != 32 for r, t in op["operands"]):
            continue
        for e, p in op["encs"].items():
            if e in out and (p is None or proc in p):
                out[e][op["mn"]] = op
    return out


def role(r):
    return r if r == "lit" else r.rstrip("xy")


def text_half(op, regs):
    """Text and tokens of one half; regs: {role: (text, token)}."""
    texts, toks = [], []
    for r, ty in op["operands"]:
        t = regs[role(r)]
        texts.append(t[0])
        toks.append(t[1])
    return op["mn"] + " " + ", ".join(texts), " ".join(toks)


def v(n):
    return "v%d" % n, "V%d.1" % n


def pair_text(x, y, xr, yr):
    tx, kx = text_half(x, xr)
    ty, ky = text_half(y, yr)
    return tx + " :: " + ty, kx, ky


def base_regs(side):
    """Conflict-free defaults: X banks 0/1 (port 2 even), Y banks 2/3 (port 2 odd)."""
    if side == "x":
        return {"vdst": v(20), "src0": v(40), "vsrc1": v(41), "src2": v(44), "ssrc2": E.s_val("b32", 6),
                "lit": E.lit_val(E.LITS[0])}
    return {"vdst": v(63), "src0": v(82), "vsrc1": v(83), "src2": v(87), "ssrc2": E.s_val("b32", 7),
            "lit": E.lit_val(E.LITS[0])}


def sweep(proc, x, y, rx, ry, both_even=False):
    """Texts with X role rx = va and Y role ry = vb, a, b in 0..8."""
    texts = []
    for a in range(9):
        for b in range(9):
            xr, yr = base_regs("x"), base_regs("y")
            if both_even:
                yr["vdst"] = v(62)
                if role(rx) != "vdst" and role(ry) != "vdst":
                    # keep third-port accumulators apart in VOPD3 (mod 4)
                    xr["vdst"], yr["vdst"] = v(20), v(62)
            xr[rx] = v(a)
            yr[ry] = v(b)
            texts.append(pair_text(x, y, xr, yr)[0])
    return texts


def fit(answers, accept):
    """The modulus m of {1,2,4,8} (or 0: none) and samereg such that answer (a, b) is
    rejected iff a%m == b%m (and not a == b when samereg); None if no m fits."""
    for m in (0, 1, 2, 4, 8):
        for same in (False, True):
            ok = True
            for (a, b), r in answers:
                conflict = m != 0 and a % m == b % m and not (same and a == b)
                if conflict == accept(r):
                    ok = False
                    break
            if ok:
                return m, same
    return None


def grid(res):
    return [((i // 9, i % 9), r) for i, r in enumerate(res)]


def learn(gen, proc, encs, tabs):
    """Facts of proc: {enc: {"bus", "banks": [m0, m1, m2], "same", "dst", "pairfree",
    "wave32", "literal"}} and port-2 facts [(mn, enc, role)]."""
    facts, ports = {}, []
    X, Y = tabs["VOPD"], tabs["VOPDY"]
    has3 = bool(tabs["VOPD3"])
    mul = "v_dual_mul_f32"

    def as_vopd(r):
        return r[0] == "ok" and enc_of(r[1], encs) == "VOPD"

    def as_vopd3(r):
        return r[0] == "ok" and enc_of(r[1], encs) == "VOPD3"

    def any_ok(r):
        return r[0] == "ok"
    encs_learn = [("VOPD", as_vopd if has3 else any_ok, False)]
    if has3:
        encs_learn.append(("VOPD3", as_vopd3, True))
    for enc, acc, even in encs_learn:
        xt, yt = (tabs["VOPD3"], tabs["VOPD3Y"]) if enc == "VOPD3" else (X, Y)
        f = {"banks": [0, 0, 0], "same": False}
        sweeps = [(0, mul, "src0", mul, "src0"), (1, mul, "vsrc1", mul, "vsrc1")]
        if enc == "VOPD3":
            sweeps.append((2, "v_dual_fma_f32", "src2", "v_dual_fma_f32", "src2"))
        else:
            sweeps.append((2, "v_dual_fmamk_f32", "vsrc1", "v_dual_fmamk_f32", "vsrc1"))
        for port, xm, rx, ym, ry in sweeps:
            res = assemble(sweep(proc, xt[xm], yt[ym], rx, ry, even), proc)
            m = fit(grid(res), acc)
            assert m, (proc, enc, port, res)
            f["banks"][port] = m[0]
            f["same"] = f["same"] or m[1]
        res = assemble(sweep(proc, xt[mul], yt[mul], "vdst", "vdst"), proc)
        g = grid(res)
        if enc == "VOPD3":
            # both even never fits VOPD: what is left is VOPD3's own rule
            g = [(ab, r) for ab, r in g if ab[0] % 2 == 0 and ab[1] % 2 == 0]
        if all((a % 2 == b % 2) != acc(r) for (a, b), r in g):
            f["dst"] = "parity"
        else:
            assert all((a == b) != acc(r) for (a, b), r in g), (proc, enc, res)
            f["dst"] = "distinct"
        mov = "v_dual_mov_b32"
        res = assemble(sweep(proc, xt[mov], yt[mov], "src0", "src0", even), proc)
        f["pairfree"] = mov if all(r[0] == "ok" for r in res) else None
        # constant bus: two SGPRs accepted; two SGPRs and a literal (where the X table
        # has v_dual_fmaak) rejected as "constant bus" (VOPD3 carries no literal: its
        # scalar sources are the two src0, never more than two values)
        two = pair_text(xt[mul], yt[mul], {**base_regs("x"), "src0": ("s1", "")},
                        {**base_regs("y"), "src0": ("s2", "")})[0]
        texts = [two]
        if "v_dual_fmaak_f32" in xt:
            texts.append(pair_text(xt["v_dual_fmaak_f32"], yt[mul],
                                   {**base_regs("x"), "src0": ("s1", "")},
                                   {**base_regs("y"), "src0": ("s2", "")})[0])
        if even:
            texts = [t.replace(":: v_dual_mul_f32 v63", ":: v_dual_mul_f32 v62") for t in texts]
        r = assemble(texts, proc)
        f["bus"] = 1 if r[0][0] != "ok" else 3 if len(r) > 1 and r[1][0] == "ok" else 2
        lit = pair_text(xt[mul], yt[mul], {**base_regs("x"), "src0": E.lit_val(E.LITS[0])},
                        base_regs("y"))[0]
        if even:
            lit = lit.replace(":: v_dual_mul_f32 v63", ":: v_dual_mul_f32 v62")
        f["literal"] = assemble([lit], proc)[0][0] == "ok"
        w = assemble([lit], proc, wave64=True)[0]
        f["wave32"] = w[0] == "err" and category(w[1]) == "wave"
        facts[enc] = f
        # third-port operands: a candidate whose register, against a candidate of the
        # other half (VOPD3: against v_dual_fma's src2), conflicts exactly at the third
        # port's modulus (texts that break the destination rule left out)
        cands = [(mn, rl) for mn, rl in sorted(PORT2_CANDIDATES.items())
                 if mn in xt and mn in yt]
        refs = [("v_dual_fma_f32", "src2")] if enc == "VOPD3" else cands
        for mn, rl in cands:
            hit = False
            for m2, r2 in refs:
                if m2 == mn or hit:
                    continue
                answers = []
                texts = []
                for a in range(9):
                    for b in range(10, 19):
                        xr, yr = base_regs("x"), base_regs("y")
                        if even:
                            yr["vdst"] = v(62)
                        xr[rl] = v(a)
                        yr[r2] = v(b)
                        dx, dy = int(xr["vdst"][0][1:]), int(yr["vdst"][0][1:])
                        if (f["dst"] == "parity" and dx % 2 == dy % 2) or dx == dy or \
                                (even and dx % 2 == 1):
                            continue
                        texts.append(pair_text(xt[mn], yt[m2], xr, yr)[0])
                        answers.append((a, b))
                res = assemble(texts, proc)
                m = fit(list(zip(answers, res)), acc)
                hit = bool(m) and m[0] == f["banks"][2] and m[0] > 1
            if hit:
                xs = [r for r, _ in xt[mn]["operands"] if role(r) == rl]
                ys = [r for r, _ in yt[mn]["operands"] if role(r) == rl]
                ports.append((mn, enc, xs[0]))
                ports.append((mn, enc + "Y", ys[0]))
    return facts, ports


def rule_lines(per_proc, procs):
    out = []
    rows = {}
    order = []
    for p in procs:
        facts, ports = per_proc[p]
        for enc, f in facts.items():
            parts = ["bus=%d" % f["bus"]] + ["port%d=%d" % (i, m) for i, m in enumerate(f["banks"])]
            parts.append("dst=" + f["dst"])
            if f["same"]:
                parts.append("samereg")
            if f["pairfree"]:
                parts.append("pairfree=" + f["pairfree"])
            if f["literal"]:
                parts.append("literal")
            if f["wave32"]:
                parts.append("wave32")
            k = "rule vopd %s %s" % (enc, " ".join(parts))
            if k not in rows:
                order.append(k)
                rows[k] = []
            rows[k].append(p)
        for mn, enc, r in ports:
            k = "rule op %s %s port2=%s" % (mn, enc, r)
            if k not in rows:
                order.append(k)
                rows[k] = []
            rows[k].append(p)
    for k in order:
        ps = rows[k]
        out.append(k + ("" if set(ps) == set(procs) else " @" + "+".join(ps)))
    return out


def mixes(gen, proc, encs, tabs, rnd, other):
    """Random pairs; returns data lines."""
    pairs = []
    xs = sorted(set(tabs["VOPD"]) | set(tabs["VOPD3"]))
    ys = sorted(set(tabs["VOPDY"]) | set(tabs["VOPD3Y"]))
    for xm in xs:
        for ym in ys:
            e = None
            if xm in tabs["VOPD"] and ym in tabs["VOPDY"]:
                e = "VOPD"
            elif xm in tabs["VOPD3"] and ym in tabs["VOPD3Y"]:
                e = "VOPD3"
            if e and ((proc, xm) in NOT_MODELLED or (proc, ym) in NOT_MODELLED):
                other["pairs not modelled (%s %s), not assembled" % (proc, (
                    xm if (proc, xm) in NOT_MODELLED else ym))] += N_MIX
            elif e:
                pairs.append((xm, ym, e))
    jobs = []
    for xm, ym, e in pairs:
        x = tabs[e][xm]
        y = tabs[e + "Y"][ym]
        for _ in range(N_MIX):
            regs = []
            for side, half in (("x", x), ("y", y)):
                # float inline constants only where src0 is a float (as the other mixes)
                ty = [t for r, t in half["operands"] if role(r) == "src0"][0]
                r = {k: v(rnd.randrange(16)) for k in ("vdst", "src0", "vsrc1", "src2")}
                c = rnd.choice("VVVSSKIL")
                if c == "S":
                    r["src0"] = E.s_val("b32", rnd.choice((1, 2, 4)))
                elif c == "K":
                    r["src0"] = rnd.choice(E.special_vals(gen, "b32"))
                elif c == "I":
                    r["src0"] = rnd.choice(E.inline_vals(ty, gen))
                elif c == "L":
                    r["src0"] = E.lit_val(rnd.choice(E.LITS))
                if rnd.random() < 0.03:
                    r["vsrc1"] = E.s_val("b32", 1)
                r["lit"] = E.lit_val(rnd.choice(E.LITS))
                if any(role(q) == "ssrc2" for q, _ in half["operands"]):
                    # the explicit lane mask of the VOPD3 v_dual_cndmask_b32
                    r["ssrc2"] = rnd.choice([E.s_val("b32", n) for n in (1, 2, 4, 6)]
                                            + [("vcc_lo", "K106.1")])
                regs.append(r)
            text, kx, ky = pair_text(x, y, regs[0], regs[1])
            jobs.append((xm, ym, e, text, kx, ky))
    res = assemble([j[3] for j in jobs], proc)
    # the first N_WAVE64 texts once more in wave64 (PROC written as PROC:w64)
    w64 = assemble([j[3] for j in jobs[:N_WAVE64]], proc, wave64=True)
    lines = []
    seen = set()
    for j, r, w in zip(jobs + jobs[:N_WAVE64], res + w64,
                       [""] * len(jobs) + [":w64"] * N_WAVE64):
        xm, ym, e, text, kx, ky = j
        text += w
        if text in seen:
            continue
        seen.add(text)
        if r[0] == "ok":
            got = enc_of(r[1], encs)
            if got is None or xm not in tabs[got] or ym not in tabs[got + "Y"]:
                other["accepted in another encoding"] += 1
                continue
            out = (got, "ok " + r[1])
        else:
            c = category(r[1])
            if c is None:
                other[r[1]] += 1
                if os.environ.get("VOPD_DEBUG"):
                    print(proc, text, r[1], file=sys.stderr)
                continue
            out = (e, "err " + c)
        lines.append("\t".join((proc + w, out[0], xm, kx, ym, ky, out[1])))
    return lines


def generate(gen):
    procs, encs, ops = E.parse_defs(gen)
    per_proc = {}
    lines = []
    other = Counter()
    rnd = random.Random("encrules-vopd-" + gen)
    vopd_procs = [p for p in procs if p.startswith("gfx11") or p.startswith("gfx12")]
    for proc in vopd_procs:
        tabs = halves(gen, proc, ops)
        if not tabs["VOPD"]:
            continue
        per_proc[proc] = learn(gen, proc, encs, tabs)
        if proc in PROCS[gen]:
            lines += mixes(gen, proc, encs, tabs, rnd, other)
    head = ["# Dual-issue operand-rule vectors of %s from llvm-mc-22 -mattr=+wavefrontsize32"
            " (scripts/encrules_vopd.py; do not edit)." % gen,
            "# PROC ENC XMN XOPERANDS YMN YOPERANDS RESULT (tab separated).",
            "# %d texts; not listed:" % len(lines)]
    for m, c in sorted(other.items()):
        head.append("#   %d: %s" % (c, m))
    return rule_lines(per_proc, list(per_proc)), head + lines


if __name__ == "__main__":
    for gen in sys.argv[1:] or list(PROCS):
        rules, data = generate(gen)
        print("\n".join(rules))
        n = sum(1 for l in data if not l.startswith("#"))
        ok = sum(1 for l in data if "\tok " in l)
        print(gen, n, "texts", ok, "accepted")
        print("\n".join(data[:6]))
        print(Counter(l.rsplit("\t", 1)[1].split()[0] + " " + (l.split("\t")[1]) for l in data if not l.startswith("#")))
