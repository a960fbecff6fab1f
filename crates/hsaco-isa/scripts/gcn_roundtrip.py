#!/usr/bin/env python3
"""gfx6 / gfx7 round trip: bytes -> `hsaco dis` text -> llvm-mc-22 -> bytes.

    python3 crates/hsaco-isa/scripts/gcn_roundtrip.py [--hsaco PATH] [-v] [--write]
                                                      [gfx6|gfx7 ...]

LLVM 22 cannot disassemble gfx6/gfx7, so the instructions come from its assembler:
every probe text of scripts/sweep_asm.py (one per opcode and encoding of the gfx8
description, gfx6/7 analogs and hand probes) and every text of the gfx8 test vectors
(tests/data/gfx8.txt: random registers, constants, literals and modifiers) is assembled
with llvm-mc-22 -show-encoding for tahiti (gfx6) and bonaire (gfx7); each accepted one
gives bytes and LLVM's printed text. Per unique byte string: `hsaco dis --raw` prints
our text, llvm-mc-22 assembles it again, and the bytes must be identical.

Prints per generation: instructions, round trips that are the identity, and our texts
identical to LLVM's printed text; -v lists failures. --write also writes the vectors
(`hex words | LLVM text | processors`) to tests/data/<gen>.txt for `cargo test`, which
checks our text against LLVM's without LLVM (known gaps in tests/data/<gen>.known-gaps,
`BLESS=1 cargo test -p hsaco-isa --test isa`). Exit status 1 if a round trip fails.
"""
import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from llvm_mc import assemble, assemble_text  # noqa: E402
from sweep_asm import (MARK, analogs, gfx8_probes, op_lines, read_defs,  # noqa: E402
                       spec_probes)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../.."))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
MCPU = {"gfx6": "tahiti", "gfx7": "bonaire"}
# processors the vectors are checked on in cargo test (aliases of the generation)
PROCS = {"gfx6": "gfx600,tahiti", "gfx7": "gfx700,bonaire,hawaii"}


def candidate_texts(gen):
    text, _, encs = read_defs(gen, MARK)
    _, _, encs8 = read_defs("gfx8", "# ---- op lines below")
    t8 = open(os.path.join(HERE, "../defs/gfx8.txt")).read()
    texts = [p[4] for p in gfx8_probes(encs, encs8, op_lines(t8))]
    for line in open(os.path.join(HERE, "../tests/data/gfx8.txt")):
        if line.startswith("#"):
            continue
        t = line.split(" | ")[1]
        texts.append(t)
        mn, _, rest = t.partition(" ")
        for suffix in ("", "_e32", "_e64"):
            if suffix and mn.endswith(suffix):
                for other in analogs(mn[: -len(suffix)]):
                    texts.append(other + suffix + " " + rest)
        for other in analogs(mn):
            texts.append(other + " " + rest)
    # MTBUF, MIMG, EXP, VINTRP: the spec's instructions with modifier variants
    for mn, enc, _, _, cands in spec_probes():
        t = cands[0]
        texts.append(t)
        if enc == "MIMG":
            for m in (" unorm", " glc", " slc", " da", " lwe", " unorm glc slc da"):
                texts.append(t + m)
            texts.append(t.replace("v10", "v[10:11]").replace("dmask:0x1", "dmask:0x1 tfe"))
            texts.append(t.replace("s[40:47]", "ttmp[4:11]").replace("v20", "v255"))
        elif enc == "MTBUF":
            for a, b in (("format:22", "format:1"), ("format:22", "format:127"),
                         (" idxen", " offen"), (" idxen", " idxen offen"),
                         ("v20", "v[20:21]"), (" idxen", " addr64"),
                         ("offset:4", "offset:4095 glc slc tfe"), ("s50", "0")):
                texts.append(t.replace(a, b))
        elif enc == "EXP":
            for tgt in ("mrt7", "mrtz", "null", "pos0", "pos3", "param0", "param31"):
                texts.append(t.replace("mrt0", tgt))
            texts += ["exp mrt0 v10, off, v30, off done", "exp pos0 v1, v1, v3, v3 compr vm",
                      "exp param5 off, off, off, off done vm", "exp mrt1 off, off, off, v255"]
        elif enc == "VINTRP":
            for a, b in (("attr3.y", "attr0.x"), ("attr3.y", "attr31.w"), ("v10", "v255"),
                         ("p20", "p10"), ("p20", "p0"), ("v20", "v0")):
                texts.append(t.replace(a, b))
    texts += ["v_readlane_b32 s10, v20, s30", "v_readlane_b32 ttmp0, v255, m0",
              "v_readlane_b32 vcc_lo, v0, 63", "v_writelane_b32 v10, s20, 5",
              "v_writelane_b32 v255, exec_hi, s101", "v_writelane_b32 v0, 0x1234, s7"]
    seen = set()
    out = []
    for t in texts:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def ours(job):
    hsaco, mcpu, bs = job
    hexs = " ".join("%08x" % int.from_bytes(bs[i:i + 4], "little") for i in range(0, len(bs), 4))
    r = subprocess.run([hsaco, "dis", "--raw", "--mcpu=" + mcpu, "-"], input=hexs,
                       capture_output=True, text=True)
    lines = [l for l in r.stdout.splitlines() if l.startswith("\t")]
    if len(lines) != 1 or "//" not in lines[0]:
        return None, lines
    return lines[0].split("//")[0].strip(), lines


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    write = "--write" in args
    hsaco = os.path.join(TARGET, "debug/hsaco")
    if "--hsaco" in args:
        hsaco = args[args.index("--hsaco") + 1]
    gens = [a for a in args if a in MCPU] or ["gfx6", "gfx7"]
    bad = False
    for gen in gens:
        mcpu = MCPU[gen]
        texts = candidate_texts(gen)
        vectors = {}
        for r in assemble_text(texts, mcpu):
            if r and len(r[1]) % 4 == 0 and r[1] not in vectors:
                vectors[r[1]] = r[0]
        items = list(vectors.items())
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            got = list(pool.map(ours, [(hsaco, mcpu, bs) for bs, _ in items]))
        back = assemble([g[0] or "<none>" for g in got], mcpu)
        same_bytes = same_text = 0
        fails = []
        for (bs, want), (g, lines), b2 in zip(items, got, back):
            if g == want:
                same_text += 1
            if b2 == bs:
                same_bytes += 1
            else:
                fails.append((bs, want, g or " / ".join(lines), b2))
        n = len(items)
        print("%s (%s): %d instructions; round trip identical %d (%.2f%%); text identical to "
              "LLVM's %d (%.2f%%)" % (gen, mcpu, n, same_bytes, 100.0 * same_bytes / max(n, 1),
                                      same_text, 100.0 * same_text / max(n, 1)))
        shown = fails if verbose else fails[:15]
        for bs, want, g, b2 in shown:
            print("    %s\n      llvm %s\n      ours %s\n      back %s" % (
                bs.hex(), want, g, b2.hex() if b2 else "rejected"))
        bad = bad or bool(fails)
        if write:
            out = ["# generated by scripts/gcn_roundtrip.py --write from llvm-mc-22 -show-encoding "
                   "(-mcpu=%s); do not edit" % mcpu,
                   "# hex words | llvm text | processors"]
            for bs, want in items:
                ws = " ".join("%08x" % int.from_bytes(bs[i:i + 4], "little")
                              for i in range(0, len(bs), 4))
                out.append("%s | %s | %s" % (ws, want, PROCS[gen]))
            path = os.path.join(HERE, "..", "tests", "data", gen + ".txt")
            open(path, "w").write("\n".join(out) + "\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
