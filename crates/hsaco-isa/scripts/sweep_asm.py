#!/usr/bin/env python3
"""Learn the gfx6 / gfx7 op lines from the assembler side (LLVM 22 cannot disassemble
them) and write the op section of defs/<gen>.txt.

    python3 scripts/sweep_asm.py gfx6          # rewrite the op lines of defs/gfx6.txt
    python3 scripts/sweep_asm.py gfx7 --check  # fail if the committed op lines differ

LLVM is a black box here:
1. Every op line of defs/gfx8.txt gives probe words (scripts/sweep.py's probes);
   llvm-mc-22 --disassemble -mcpu=gfx803 turns them into gfx8 assembly text.
2. That text, and for instructions the gfx8 description lacks, text built from the
   instruction list of the spec (../shared/spec/llvm/AMDGPUAsmGFX7.rst, operand widths
   learned from the operand ids that step 1 resolved), is assembled by
   llvm-mc-22 -show-encoding -mcpu=<processor of the generation>.
3. The bytes are split with this generation's hand-written encoding/field lines: the
   encoding and the opcode field give the opcode; the fields holding the probe registers
   give the operands (step 1: checked against the gfx8 roles).
"""
import os
import re
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(__file__))
import implicit  # noqa: E402  (reads=/writes= of each op line)
import quirks  # noqa: E402  (quirk flags of each op line)
from llvm_mc import assemble, disassemble  # noqa: E402
from sweep import DEFS, parse_defs, build, probes, typed, ALTERNATIVES  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "../../../../shared/spec/llvm/AMDGPUAsmGFX7.rst")
if not os.path.exists(SPEC):
    SPEC = "/work/shared/spec/llvm/AMDGPUAsmGFX7.rst"
MARK = "# ---- op lines below are written by scripts/sweep_asm.py; edit with care ----"
# gfx8 encoding -> this generation's encoding of the same family
RENAME = {"SMEM": "SMRD"}
MCPU = {"gfx6": "gfx600", "gfx7": "gfx700"}
VOP = ("VOP1", "VOP2", "VOPC", "VOP3")
# (mnemonic, tokens, probe text) for gfx6/7 instructions without a gfx8 analog of the
# same operand widths
VOP3_FLAGS = ["clamp", "fpmods", "omod"]
EXTRA = [
    ("v_lshl_b64", "VOP3", ["vdst:b64", "src0:b64", "src1:b32"], VOP3_FLAGS,
     "v_lshl_b64 v[10:11], v[20:21], v30"),
    ("v_lshr_b64", "VOP3", ["vdst:b64", "src0:b64", "src1:b32"], VOP3_FLAGS,
     "v_lshr_b64 v[10:11], v[20:21], v30"),
    ("v_ashr_i64", "VOP3", ["vdst:i64", "src0:i64", "src1:b32"], VOP3_FLAGS,
     "v_ashr_i64 v[10:11], v[20:21], v30"),
    ("v_readlane_b32", "VOP2", ["sdst8:b32", "src0:b32", "ssrc1:b32"], [],
     "v_readlane_b32 s10, v20, s30"),
    # gfx6 only (not in the GFX7 list nor in gfx8)
    ("buffer_wbinvl1_sc", "MUBUF", [], [], "buffer_wbinvl1_sc"),
    ("v_writelane_b32", "VOP2", ["vdst:b32", "src0:b32", "ssrc1:b32"], [],
     "v_writelane_b32 v10, s20, 5"),
]


def analogs(mn):
    """gfx6/7 instruction names whose syntax is a gfx8 instruction's under another name
    (probe hints only: the bytes LLVM assembles decide)."""
    out = []
    m = re.match(r"^v_cmp(x?)_(\w+)_f(32|64)$", mn)
    if m:
        out.append("v_cmps%s_%s_f%s" % m.groups())
    table = {
        "v_add_u32": ["v_add_i32"], "v_sub_u32": ["v_sub_i32"],
        "v_subrev_u32": ["v_subrev_i32"], "v_lshlrev_b32": ["v_lshl_b32"],
        "v_lshrrev_b32": ["v_lshr_b32"], "v_ashrrev_i32": ["v_ashr_i32"],
        "v_mul_lo_u32": ["v_mul_lo_i32"], "v_min_f32": ["v_min_legacy_f32"],
        "v_max_f32": ["v_max_legacy_f32"], "v_mac_f32": ["v_mac_legacy_f32"],
        "v_mad_f32": ["v_mullit_f32"],
        "v_rcp_f32": ["v_rcp_legacy_f32", "v_rcp_clamp_f32"],
        "v_rsq_f32": ["v_rsq_legacy_f32", "v_rsq_clamp_f32"],
        "v_rcp_f64": ["v_rcp_clamp_f64"], "v_rsq_f64": ["v_rsq_clamp_f64"],
        "v_log_f32": ["v_log_clamp_f32"],
        "buffer_atomic_cmpswap": ["buffer_atomic_fcmpswap"],
        "buffer_atomic_cmpswap_x2": ["buffer_atomic_fcmpswap_x2"],
        "buffer_atomic_smin": ["buffer_atomic_fmin"], "buffer_atomic_smax": ["buffer_atomic_fmax"],
        "buffer_atomic_smin_x2": ["buffer_atomic_fmin_x2"],
        "buffer_atomic_smax_x2": ["buffer_atomic_fmax_x2"],
        "flat_atomic_cmpswap": ["flat_atomic_fcmpswap"],
        "flat_atomic_cmpswap_x2": ["flat_atomic_fcmpswap_x2"],
        "flat_atomic_smin": ["flat_atomic_fmin"], "flat_atomic_smax": ["flat_atomic_fmax"],
        "flat_atomic_smin_x2": ["flat_atomic_fmin_x2"],
        "flat_atomic_smax_x2": ["flat_atomic_fmax_x2"],
    }
    return out + table.get(mn, [])


def read_defs(gen, mark):
    text = open(os.path.join(DEFS, gen + ".txt")).read()
    head = text.split(mark)[0] if mark in text else text
    procs, encs = parse_defs(head)
    for e in encs.values():
        line = [l for l in head.splitlines() if l.startswith("encoding %s " % e["name"])][0]
        e["mask"] = int(line.split()[4], 16)
    return text, procs, encs


def op_lines(text):
    out = []
    for line in text.splitlines():
        if line.startswith("op "):
            t = line.split()
            encs = [e.split("@")[0].split("=") for e in t[2].split(",")]
            toks = [x for x in t[3:] if not x.startswith(("!", "@", "reads=", "writes="))]
            flags = [x[1:] for x in t[3:] if x.startswith("!")]
            if toks == ["-"]:
                toks = []
            out.append((t[1], [(e, int(o, 16)) for e, o in encs], toks, flags))
    return out


def split_encoding(encs, bs):
    """(encoding name, 64-bit value, opcode key) of assembled bytes, most specific first."""
    if len(bs) < 4:
        return None
    w0 = int.from_bytes(bs[0:4], "little")
    w1 = int.from_bytes(bs[4:8], "little") if len(bs) >= 8 else 0
    best = None
    for e in encs.values():
        if "base" in e["opts"]:
            continue
        if w0 & e["mask"] == e["match"]:
            if best is None or bin(e["mask"]).count("1") > bin(best["mask"]).count("1"):
                best = e
    if best is None:
        return None
    raw = w0 | (w1 << 32)
    lo, w, _ = best["fields"]["op"]
    return best["name"], raw, (raw >> lo) & ((1 << w) - 1), best


def field(enc, raw, name):
    lo, w, _ = enc["fields"][name]
    return (raw >> lo) & ((1 << w) - 1)


# ---- the spec's instruction list -------------------------------------------------------

def spec_instructions():
    """section -> [(mnemonic, [(name, id)], [modifier names])]"""
    lines = open(SPEC).read().splitlines()
    sec = None
    rows = OrderedDict()
    for i, l in enumerate(lines):
        if re.match(r"^[A-Z0-9_]+$", l) and i + 1 < len(lines) and lines[i + 1].startswith("--"):
            sec = l
            continue
        m = re.match(r"^    ([a-z][a-z0-9_]+)\s*(.*)$", l)
        if m and sec and not m.group(1).startswith("gfx7_"):  # not the operand toctree
            parts = re.split(r"\s{2,}", m.group(2).strip())
            ops, mods = [], []
            for p in parts:
                refs = re.findall(r":ref:`([^<`]+)<amdgpu_synid_([^>]+)>`", p)
                if not refs:
                    continue
                name, ident = refs[0]
                if p.rstrip().endswith(",") or (ident.startswith("gfx7_") and not mods):
                    ops.append((name, ident))
                else:
                    mods += [r[0] for r in refs]
            rows.setdefault(sec, []).append((m.group(1), ops, mods))
    return rows


def gfx8_probes(encs, encs8, ops8):
    """(mnemonic, gfx8 encoding, tokens, flags, text): gfx8 assembly text of a probe of
    every gfx8 op line whose encoding family this generation has, plus the same text
    under the names of gfx6/7 analogs, plus the hand probes (EXTRA)."""
    probes_text = []  # (mnemonic, gfx8 encoding, tokens, flags, text)
    # MTBUF, MIMG, EXP, VINTRP come from the spec's list (spec_probes), with gfx6/7 widths
    todo = [(mn, enc, opc, toks, flags) for mn, el, toks, flags in ops8 for enc, opc in el
            if (enc in RENAME or enc in encs) and enc not in ("MTBUF", "MIMG", "EXP", "VINTRP")]
    for k in range(16):
        batch = []
        for item in todo:
            alts = [dict()] + ALTERNATIVES.get(item[1], [])
            if k < len(alts):
                vals, _ = probes(item[1])
                batch.append((item, build(encs8[item[1]], dict(vals, **alts[k], op=item[2]))))
        if not batch:
            break
        again = []
        for (item, _), r in zip(batch, disassemble([w for _, w in batch], "gfx803")):
            mn, enc, opc, toks, flags = item
            if r and r[0].split(" ")[0].startswith(mn):
                probes_text.append((mn, enc, toks, flags, r[0]))
                if enc == "VOP3" and "v[40:41]" in r[0]:
                    # LLVM's disassembler prints a VGPR carry-in the assembler rejects
                    probes_text.append((mn, enc, toks, flags, r[0].replace("v[40:41]", "s[40:41]")))
                m0, _, rest = r[0].partition(" ")
                if m0 == mn and enc == "VOP3":
                    # VOP3-only on gfx8; may have a VOP2/VOP1/VOPC form here
                    probes_text.append((mn, enc, toks, flags, mn + "_e64 " + rest))
                for other in analogs(mn):
                    probes_text.append((other, enc, toks, flags, other + m0[len(mn):] + " " + rest))
                    if m0 == mn and enc == "VOP3":
                        probes_text.append((other, enc, toks, flags, other + "_e64 " + rest))
            else:
                again.append(item)
        todo = again
    # hand probes for instructions whose operand widths differ from their gfx8 analog
    for mn, enc, toks, flags, txt in EXTRA:
        probes_text.append((mn, enc, toks, flags, txt))
    return probes_text


def reg(prefix, first, n):
    return "%s%d" % (prefix, first) if n == 1 else "%s[%d:%d]" % (prefix, first, first + n - 1)


def spec_probes():
    """(mnemonic, encoding, tokens, flags, [candidate texts, preferred first]) for the
    spec's MTBUF, MIMG, EXP and VINTRP instructions (no gfx8 description to start from);
    register widths that LLVM accepts are found by trying candidates."""
    out = []
    # address widths of the gfx8 description (what LLVM's gfx8 disassembler prints)
    w8 = {}
    for mn, _, toks, _ in op_lines(open(os.path.join(DEFS, "gfx8.txt")).read()):
        for t in toks:
            if t.startswith("vaddr:b"):
                w8[mn] = int(t[7:]) // 32
    for sec, rows in spec_instructions().items():
        for mn, ops, mods in rows:
            names = [n for n, _ in ops]
            if sec == "MTBUF":
                n = len(mn.rsplit("_", 1)[1])
                toks = ["vdata:b%d" % (32 * n), "vaddr:b32", "srsrc:b128", "soffset:b32"]
                out.append((mn, "MTBUF", toks, [], [
                    "%s %s, v20, s[40:43], s50 format:22 idxen offset:4" % (mn, reg("v", 10, n))]))
            elif sec == "VINTRP":
                if "mov" in mn:
                    out.append((mn, "VINTRP", ["vdst:f32"], [],
                                ["%s v10, p20, attr3.y" % mn]))
                else:
                    out.append((mn, "VINTRP", ["vdst:f32", "vsrc:f32"], [],
                                ["%s v10, v20, attr3.y" % mn]))
            elif sec == "EXP":
                out.append((mn, "EXP", ["vsrc0:b32", "vsrc1:b32", "vsrc2:b32", "vsrc3:b32"], [],
                            ["exp mrt0 v10, v20, v30, v40"]))
            elif sec == "MIMG":
                samp = "ssamp" in names
                cands = []
                datas = [4, 1, 2, 3] if "gather4" not in mn else [4]
                for nd in datas:
                    dmask = (1 << nd) - 1 if "gather4" not in mn else 1
                    widths = [4, 1, 2, 3, 5, 6, 7, 8]
                    if mn in w8:
                        widths.remove(w8[mn])
                        widths.insert(0, w8[mn])
                    for na in widths:
                        t = "%s %s, %s, s[40:47]" % (mn, reg("v", 10, nd), reg("v", 20, na))
                        if samp:
                            t += ", s[52:55]"
                        t += " dmask:0x%x" % dmask
                        if "atomic" in mn:
                            t += " unorm glc"
                        cands.append((nd, na, t))
                for nd, na, t in cands:
                    toks = ["vdata:b%d" % (32 * nd), "vaddr:b%d" % (32 * na), "srsrc:b256"]
                    if samp:
                        toks.append("ssamp:b128")
                    out.append((mn, "MIMG", toks, [], [t]))
    return out


def main():
    gen = sys.argv[1]
    check = "--check" in sys.argv
    mcpu = MCPU[gen]
    text, procs, encs = read_defs(gen, MARK)
    t8, procs8, encs8 = read_defs("gfx8", "# ---- op lines below")
    ops8 = op_lines(t8)

    probes_text = gfx8_probes(encs, encs8, ops8)
    # spec-only encodings: the first accepted candidate per instruction
    spec = spec_probes()
    got = assemble([c[4][0] for c in spec], mcpu)
    taken = set()
    for c, bs in zip(spec, got):
        if bs is not None and c[0] not in taken:
            taken.add(c[0])
            probes_text.append((c[0], c[1], c[2], c[3], c[4][0]))
    res = assemble([p[4] for p in probes_text], mcpu)
    variants = OrderedDict()  # (mnemonic, tokens) -> [flags, {encoding: opcode}]
    for (mn, enc, toks, flags, txt), bs in zip(probes_text, res):
        if bs is None:
            continue
        s = split_encoding(encs, bs)
        if s is None:
            continue
        ename, raw, opc, e = s
        if ename != RENAME.get(enc, enc) and not (enc in VOP and ename in VOP):
            continue
        # roles from the gfx8 description must name fields this encoding has (or a
        # fixed register)
        fixed = ("vcc", "exec", "m0", "scc", "lit")

        def known_role(t):
            alts = t.split(":")[0].split("|")
            return any(a in e["fields"] or a in fixed for a in alts)
        if not all(known_role(t) for t in toks):
            continue
        v = variants.setdefault((mn, tuple(toks)), [set(), OrderedDict()])
        v[0] |= {f for f in flags if f not in ("sdwa", "dpp")}
        v[1][ename] = opc
    lines = []
    for (mn, toks), (flags, el) in variants.items():
        opcs = ",".join("%s=0x%x" % (e, o) for e, o in el.items())
        fl = "".join(" !" + f for f in sorted(flags))
        lines.append("op %s %s %s%s" % (mn, opcs, " ".join(toks) or "-", fl))
    known = {mn for mn, _ in variants}
    missing = [(sec, mn) for sec, rows in spec_instructions().items() for mn, _, _ in rows
               if re.sub(r"_e(32|64)$", "", mn) not in known]
    body = "\n".join(implicit.annotate(gen, quirks.annotate(gen, ln)) for ln in lines) + "\n"
    head = text.split(MARK)[0]
    new = head + MARK + "\n" + body
    if check:
        if new != text:
            sys.exit("defs/%s.txt differs from what LLVM says; run scripts/sweep_asm.py %s"
                     % (gen, gen))
        return
    open(os.path.join(DEFS, gen + ".txt"), "w").write(new)
    print("%d op lines; %d spec instructions not described" % (len(lines), len(missing)))
    if "-v" in sys.argv:
        for sec, mn in missing:
            print("  missing %s %s" % (sec, mn))


if __name__ == "__main__":
    main()
