#!/usr/bin/env python3
"""Find instructions the descriptions LACK: what llvm-mc-22 --disassemble decodes that
`hsaco dis --raw` prints as `.long` or as another mnemonic (the coverage test only counts
what is in the tables, so a missing encoding or opcode is invisible to it).

    python3 crates/hsaco-isa/scripts/missing.py                 # report, all processors
    python3 crates/hsaco-isa/scripts/missing.py --gen gfx11     # one generation
    python3 crates/hsaco-isa/scripts/missing.py --mcpu gfx1150  # some processors
    python3 crates/hsaco-isa/scripts/missing.py --check         # fail on rows not in
                                         # tests/data/missing.known (a ratchet: rows
                                         # may only go away; --write rewrites it)

Two probes per processor (LLVM as a black box; gfx6/gfx7 are not swept: llvm-mc-22
cannot disassemble them):
 1. opcode sweep: every opcode value of every encoding of defs/<gen>.txt (FLAT segments,
    gfx10 opm bit too) with the register-distinct probe fields of sweep.py;
 2. prefix sweep: for every value of the top 9 bits of the first word, PER_PREFIX
    seeded random 3-word instructions: finds whole encodings a description lacks (e.g.
    gfx9 MTBUF).
A row is `processor | llvm mnemonic | hsaco mnemonic | example words`; one row per
(processor, llvm mnemonic, hsaco mnemonic). Rows whose llvm mnemonic (without
_e32/_e64/_sdwa/_dpp) is not named by any op line that applies to the processor are
marked MISSING (an opcode or encoding to add); the others are decoder/printer
differences of a described op (prefix-sweep rows of random words are listed only when
MISSING: random fields make many words invalid in one tool but not the other).
Needs a release build of hsaco (CARGO_TARGET_DIR honoured).
"""
import argparse
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
KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                     "missing.known")

PROCS = {
    "gfx8": ["gfx801", "gfx803", "gfx810"],
    "gfx9": ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx90c", "gfx942", "gfx950"],
    "gfx10": ["gfx1010", "gfx1011", "gfx1013", "gfx1030", "gfx1036"],
    "gfx11": ["gfx1100", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153"],
    "gfx12": ["gfx1200", "gfx1201", "gfx1250"],
}
PER_PREFIX = 6
# (sweep.py has no MAI probe: aligned VGPR tuples, small enough for the widest ops)
MAI_PROBE = dict(vdst=0, src0=256 + 20, src1=256 + 40, src2=256 + 64)
NOP = 0xBF800000
SUFFIX = re.compile(r"_(e32|e64|sdwa|dpp|e64_dpp)$")


def aliases(text):
    al = {}
    for line in text.splitlines():
        t = line.split()
        if len(t) == 3 and t[0] == "alias":
            al[t[1]] = t[2]
    return al


def described(text, canon):
    """Mnemonics (without encoding suffixes) of the op lines that apply to `canon`."""
    out = set()
    for line in text.splitlines():
        if not line.startswith("op "):
            continue
        t = line.split()
        ps = [x[1:].split("+") for x in t if x.startswith("@")]
        if ps and canon not in ps[0]:
            continue
        out.add(SUFFIX.sub("", t[1]))
    return out


def opcode_probes(encs):
    words = []
    for encname, enc in encs.items():
        if "base" in enc["opts"] or encname.startswith("VOPD") or "op" not in enc["fields"]:
            continue
        try:
            vals, _ = sweep.probes(encname) if encname != "MAI" else (MAI_PROBE, None)
        except KeyError:
            print("  (no probe for encoding %s: not swept)" % encname, file=sys.stderr)
            continue
        lo, w, _ = enc["fields"]["op"]
        if "seg" in enc["fields"]:
            keys = [dict(seg=s, op=o) for s in range(4) for o in range(1 << w)]
        elif "opm" in enc["fields"]:
            keys = [dict(opm=o >> w, op=o & ((1 << w) - 1)) for o in range(2 << w)]
        elif lo + w == 32:
            keys = [dict(op=enc["match"] >> lo)]
        else:
            keys = [dict(op=o) for o in range(1 << w)]
        if "seg" in enc["fields"]:
            # gfx9 flat_* (segment 0): llvm-mc-22 rejects a saddr field other than 0
            keys += [dict(seg=0, op=o, saddr=0) for o in range(1 << w)]
        for k in keys:
            words.append(("op", build(enc, dict(vals, **k))))
    return words


def prefix_probes(rng):
    words = []
    for top in range(512):
        for _ in range(PER_PREFIX):
            w0 = (top << 23) | rng.getrandbits(23)
            # small register numbers in the later words, so that tuples fit
            words.append(("prefix", [w0] + [rng.getrandbits(32) & 0x3F3F3F3F
                                            for _ in range(2)]))
    return words


def hsaco_first(hsaco, proc, probes):
    """hsaco's text of the instruction at the start of each probe."""
    stream = []
    offs = []
    for ws in probes:
        offs.append(4 * len(stream))
        stream += list(ws) + [NOP] * 4
    out = subprocess.run([hsaco, "dis", "--raw", "--mcpu=" + proc, "-"],
                         input=" ".join("%08X" % w for w in stream),
                         capture_output=True, text=True).stdout
    at = {}
    for line in out.splitlines():
        if not line.startswith("\t"):
            continue
        m = re.search(r"//\s*([0-9A-Fa-f]+):", line)
        if m:
            at[int(m.group(1), 16)] = line.split("//")[0].strip()
    return [at.get(o, "<desync>") for o in offs]


def sweep_proc(hsaco, gen, proc, text, encs, rng):
    canon = aliases(text).get(proc, proc)
    desc = described(text, canon)
    probes = opcode_probes(encs) + prefix_probes(rng)
    ws = [p[1] for p in probes]
    want = disassemble(ws, proc)
    got = hsaco_first(hsaco, proc, ws)
    rows = {}
    for (kind, w), r, g in zip(probes, want, got):
        if r is None or "/*" in r[0] or "Invalid" in r[0]:
            continue
        lm = r[0].split()[0]
        hm = g.split()[0] if g else ""
        if lm == hm:
            continue
        missing = SUFFIX.sub("", lm) not in desc
        if kind == "prefix" and not missing:
            continue
        key = (proc, lm, hm)
        if key not in rows:
            rows[key] = (missing, " ".join("%08x" % x for x in w[:r[1] // 4]))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen")
    ap.add_argument("--mcpu")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--hsaco", default=os.path.join(TARGET, "release", "hsaco"))
    a = ap.parse_args()
    gens = [a.gen] if a.gen else list(PROCS)
    allrows = {}
    swept = set()
    for gen in gens:
        sweep.set_generation(gen)
        text = open(os.path.join(DEFS, gen + ".txt")).read()
        _, encs = parse_defs(text)
        procs = PROCS[gen]
        if a.mcpu:
            procs = [p for p in a.mcpu.split(",") if p in procs]
        for proc in procs:
            rng = random.Random(proc)
            rows = sweep_proc(a.hsaco, gen, proc, text, encs, rng)
            swept.add(proc)
            nmiss = sum(1 for m, _ in rows.values() if m)
            print("%-8s %3d rows, %3d MISSING" % (proc, len(rows), nmiss), file=sys.stderr)
            allrows.update(rows)
    lines = ["%s | %s | %s | %s%s" % (p, lm, hm or "-", ex, " | MISSING" if m else "")
             for (p, lm, hm), (m, ex) in sorted(allrows.items())]
    if not (a.check or a.write):
        print("\n".join(lines))
        return
    known = [l for l in open(KNOWN).read().splitlines() if l and not l.startswith("#")] \
        if os.path.exists(KNOWN) else []
    # (rows of the processors swept this time are compared, also of those that have no
    # row left; others are kept)
    key = lambda l: tuple(x.strip() for x in l.split("|")[:3])  # noqa: E731
    now = {key(l): l for l in lines}
    old = {key(l): l for l in known if key(l)[0] in swept}
    new = [now[k] for k in now if k not in old]
    gone = [old[k] for k in old if k not in now]
    if a.write:
        keep = [l for l in known if key(l)[0] not in swept]
        out = ["# generated by scripts/missing.py --write (llvm-mc-22 vs hsaco dis --raw);",
               "# processor | llvm mnemonic | hsaco mnemonic | example words [| MISSING]"]
        open(KNOWN, "w").write("\n".join(out + sorted(keep + lines)) + "\n")
        print("wrote %d rows (%d new, %d gone)" % (len(keep) + len(lines), len(new), len(gone)))
        return
    for l in new:
        print("NEW  " + l)
    for l in gone:
        print("GONE " + l + "   (shrink missing.known: --write)")
    if new or gone:
        sys.exit(1)
    print("missing.py --check: %d rows as recorded" % len(lines))


if __name__ == "__main__":
    main()
