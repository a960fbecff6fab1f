#!/usr/bin/env python3
"""Operand rules of gfx11+ VOP3/VOP3P instructions with a DPP word (`v_fma_f32_e64_dpp
... quad_perm:[..]` and `... dpp8:[..]`), learned from llvm-mc-22 as a black box. They
share the VOP3/VOP3P encoding with the plain form, so the rules name them as a form of
that encoding: `rule dpp ENC src0=C src1=C src2=C [@procs]` (the classes V S I L each
source slot accepts besides the op's own `rule op ENC` facts; never a literal: the DPP
word takes its place). Run by encrules.py for gfx11/gfx12, or alone:

    python3 scripts/encrules_dpp.py [GEN]   # print the rule lines and counts

Data lines as encrules.py's, ENC `VOP3:dpp16`, `VOP3:dpp8`, `VOP3P:dpp16`, ... ->
tests/data/encrules/<gen>.dpp.txt (wave64 mixes as `PROC:w64`).
"""
import random
import sys
from collections import Counter, defaultdict

import encrules as E

PROCS = {"gfx11": ["gfx1100", "gfx1150"], "gfx12": ["gfx1201", "gfx1250"]}
W64 = {"gfx11": "gfx1100", "gfx12": "gfx1201"}
TAILS = {
    "dpp16": " quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
    "dpp8": " dpp8:[7,6,5,4,3,2,1,0]",
}
ROLES = ("src0", "src1", "src2")
CATEGORY = E.CATEGORY + [("immediate operand invalid for instruction", "operand")]


def category(msg):
    for m, c in CATEGORY:
        if m in msg:
            return c
    return None


def forms(gen, proc, op, encs):
    out = []
    if "vop3dpp" not in op["flags"]:
        return out
    for f in E.forms(gen, proc, op, encs):
        if f.enc in ("VOP3", "VOP3P"):
            suffix = "_e64_dpp" if f.enc == "VOP3" else "_e64_dpp"
            for kind, tail in TAILS.items():
                g = E.Form(f.enc, suffix, tail)
                g.kind = kind
                out.append(g)
    return out


def assemble_jobs(jobs, proc, encs, other, results, tag):
    """jobs: [(op, form, text, toks)] -> answers; mix answers go to results."""
    res = E.assemble([j[2] for j in jobs], proc)
    out = []
    for j, r in zip(jobs, res):
        op, f, text, toks = j
        if r[0] == "ok":
            w = [int(x, 16) for x in r[1].split()]
            e = encs[f.enc]
            # the DPP form: src0 field 0xfa (DPP16) or 0xe9/0xea (DPP8) and a third word
            if w[0] & e["mask"] != e["match"] or len(w) != 3 or (w[1] & 0x1ff) not in (
                    0xfa, 0xe9, 0xea):
                if tag == "mix":
                    other["accepted in another encoding"] += 1
                out.append(None)
                continue
            a = ("ok", r[1])
        else:
            c = category(r[1])
            if c is None:
                if tag == "mix":
                    other[r[1]] += 1
                out.append(None)
                continue
            a = ("err", c)
        out.append(a)
        if tag is not None:
            results.append((proc if tag == "mix" else tag, "%s:%s" % (f.enc, f.kind),
                            op["mn"], toks, a, text))
    return out


def probe(gen, proc, ops, encs, other):
    """Per (op, form): the all-VGPR answer and each source alone as S, I, L."""
    jobs, keys = [], []
    items = []
    for op in ops:
        if not E.usable(op):
            continue
        for f in forms(gen, proc, op, encs):
            srcs = E.sources(op, f, encs)
            if not srcs:
                continue
            items.append((op, f, srcs))
            text, toks = E.build(gen, op, f, encs, {})
            jobs.append((op, f, text, toks.split()))
            keys.append((op["mn"], f.enc, f.kind, None, None))
            for i in srcs:
                ty = op["operands"][i][1]
                vals = E.class_vals(gen, ty, 0)
                for c in "SIL":
                    text, toks = E.build(gen, op, f, encs, {i: vals[c]})
                    jobs.append((op, f, text, toks.split()))
                    keys.append((op["mn"], f.enc, f.kind, op["operands"][i][0].split("|")[0], c))
    ans = assemble_jobs(jobs, proc, encs, Counter(), [], None)
    got = defaultdict(dict)
    for k, a in zip(keys, ans):
        got[k[:3]][k[3:]] = a
    return items, got


def own_classes(g):
    """Per role the classes one op's probes accepted (V when its all-VGPR text is)."""
    out = {}
    for (role, c), a in g.items():
        if role is None:
            continue
        out.setdefault(role, "V")
        if a is not None and a[0] == "ok":
            out[role] += c
    return out


def derive(got, facts_of, mix_ops):
    """Per encoding the classes each role accepts on most ops (ops without a `rule op`
    class fact, not the !mix ops, whose all-VGPR text is accepted); then per op the
    roles that differ from that default (after the op's plain-form fact)."""
    votes = defaultdict(Counter)  # (enc, role) -> Counter(classes)
    own = {}
    for (mn, enc, kind), g in got.items():
        if not g.get((None, None)) or g[(None, None)][0] != "ok":
            continue
        o = own_classes(g)
        prev = own.setdefault((mn, enc), o)
        if prev != o:
            raise SystemExit("dpp16 and dpp8 differ: %s %s %s %s" % (mn, enc, prev, o))
        if mn in mix_ops:
            continue
        for role, cl in o.items():
            if (mn, enc, role) not in facts_of:
                votes[(enc, role)][cl] += 1
    default = {k: v.most_common(1)[0][0] for k, v in votes.items()}
    per_op = {}
    for (mn, enc), o in own.items():
        diff = {}
        for role, cl in o.items():
            d = default.get((enc, role), "V")
            f = facts_of.get((mn, enc, role))
            exp = "".join(x for x in d if f is None or x in f)
            if set(cl) != set(exp):
                diff[role] = cl
        if diff:
            per_op[(mn, enc)] = diff
    return default, per_op


def plain_facts(gen):
    """(mn, enc, role) -> classes of the plain form's `rule op` class facts."""
    import os
    out = {}
    for line in open(os.path.join(E.ROOT, "defs", gen + ".txt")):
        t = line.split()
        if len(t) >= 5 and t[0] == "rule" and t[1] == "op" and "=" in t[4] and len(t) == 5:
            role, cl = t[4].split("=")
            if role in ROLES:
                out[(t[2], t[3], role)] = cl
    return out


def mixes(gen, proc, encs, items, results, other, rnd, n_mix):
    jobs = []
    for op, f, srcs in items:
        for _ in range(n_mix):
            ch = {}
            for n, i in enumerate(srcs):
                ty = op["operands"][i][1]
                cls = rnd.choice("VVVSSKIL")
                if cls == "V":
                    ch[i] = E.v_val(gen, ty, 40 + 4 * n, None)
                elif cls == "S":
                    ch[i] = E.s_val(ty, rnd.choice((2, 4)))
                elif cls == "K":
                    sv = E.special_vals(gen, ty)
                    ch[i] = rnd.choice(sv) if sv else E.s_val(ty, 2)
                elif cls == "I":
                    ch[i] = rnd.choice(E.inline_vals(ty, gen))
                else:
                    ch[i] = E.lit_val(rnd.choice(E.LITS))
            text, toks = E.build(gen, op, f, encs, ch)
            jobs.append((op, f, text, toks.split()))
    assemble_jobs(jobs, proc, encs, other, results, "mix")


def generate(gen):
    """(rule lines, data lines) of gen."""
    procs, encs, ops = E.parse_defs(gen)
    E.PROC_INDEX[gen] = set(procs)
    facts_of = plain_facts(gen)
    mix_ops = {op["mn"] for op in ops if "mix" in op["flags"]}
    results, other = [], Counter()
    rnd = random.Random("encrules-dpp-" + gen)
    per_proc = {}
    for proc in PROCS[gen]:
        items, got = probe(gen, proc, ops, encs, other)
        per_proc[proc] = derive(got, facts_of, mix_ops)
        mixes(gen, proc, encs, items, results, other, rnd, 4)
    # wave64: lane masks as pairs
    ops64 = E.widen(gen, encs, ops)
    p = W64[gen]
    E.MATTR[:] = ["-mattr=+wavefrontsize64"]
    try:
        items, _ = probe(gen, p, ops64, encs, Counter())
        r64 = []
        mixes(gen, p, encs, items, r64, other, rnd, 2)
    finally:
        E.MATTR[:] = []
    results += [(r[0] + ":w64",) + tuple(r[1:]) for r in r64]
    # rule lines: per encoding, then per op, with the processors where they hold
    rows = defaultdict(list)
    for proc in PROCS[gen]:
        default, per_op = per_proc[proc]
        for enc in ("VOP3", "VOP3P"):
            cls = " ".join("%s=%s" % (r, default[(enc, r)]) for r in ROLES if (enc, r) in default)
            if cls:
                rows[(enc, "", cls)].append(proc)
        for (mn, enc), diff in per_op.items():
            cls = " ".join("%s=%s" % (r, diff[r]) for r in ROLES if r in diff)
            rows[(enc, mn, cls)].append(proc)
    rules = []
    for (enc, mn, cls), ps in rows.items():
        at = "" if set(ps) == set(procs) else " @" + "+".join(ps)
        rules.append("rule dpp %s%s %s%s" % (enc, " " + mn if mn else "", cls, at))
    seen = set()
    lines = []
    for proc, enc, mn, toks, r, text in results:
        if (proc, text) in seen:
            continue
        seen.add((proc, text))
        res = "ok " + r[1] if r[0] == "ok" else "err " + r[1]
        lines.append("\t".join((proc, enc, mn, " ".join(toks), res)))
    head = ["# Operand-rule vectors of %s VOP3/VOP3P with a DPP word (e64_dpp) from llvm-mc-22"
            " (scripts/encrules_dpp.py; do not edit)." % gen,
            "# PROC ENC:dpp16|dpp8 MNEMONIC OPERANDS RESULT (as <gen>.txt; PROC:w64 in wave64).",
            "# %d texts; rejected for messages outside the rules (not listed):" % len(lines)]
    for m, c in sorted(other.items()):
        head.append("#   %d: %s" % (c, m))
    return rules, head + lines


if __name__ == "__main__":
    for gen in sys.argv[1:] or list(PROCS):
        rules, data = generate(gen)
        print("\n".join(rules))
        print("%s: %d texts, %d accepted" % (gen, sum(1 for l in data if not l.startswith("#")),
                                              sum(1 for l in data if "\tok " in l)))
        print("\n".join(l for l in data if l.startswith("#")))
