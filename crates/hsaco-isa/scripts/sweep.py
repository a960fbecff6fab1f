#!/usr/bin/env python3
"""Learn opcode numbers and operand syntax of a generation by sweeping opcode fields
through llvm-mc-22 --disassemble (LLVM used as a black box), and write the `op` lines of
defs/<gen>.txt.

    python3 scripts/sweep.py gfx9          # rewrite the op section of defs/gfx9.txt
    python3 scripts/sweep.py gfx9 --check  # fail if the committed op lines differ

The encoding/field section of the defs file is hand-written from the spec; this script
reads it to build probe words. For every opcode value it disassembles a probe whose
register fields hold distinct numbers, so the printed text tells which field each operand
comes from and how wide it is.
"""
import os
import re
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(__file__))
import implicit  # noqa: E402  (reads=/writes= of each op line)
import quirks  # noqa: E402  (quirk flags of each op line)
from llvm_mc import disassemble  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFS = os.path.join(HERE, "..", "defs")
MARK = "# ---- op lines below are written by scripts/sweep.py; edit with care ----"


def parse_defs(text):
    encs = OrderedDict()
    procs = []
    cur = None
    for line in text.splitlines():
        if line.startswith(MARK):
            break
        t = line.split("#")[0].split()
        if not t:
            continue
        if t[0] == "processor":
            procs.append(t[1])
        elif t[0] == "encoding":
            cur = dict(name=t[1], words=int(t[2]), match=int(t[3], 16), fields={}, opts={})
            for o in t[5:]:
                k, v = o.split("=")
                cur["opts"][k] = v
            encs[t[1]] = cur
        elif t[0] == "field":
            cur["fields"][t[1]] = (int(t[2]), int(t[3]), t[4])
    return procs, encs


def build(enc, vals):
    v = enc["match"]
    for name, val in vals.items():
        if name not in enc["fields"]:
            continue  # a probe value for a field this generation's encoding lacks
        lo, w, _ = enc["fields"][name]
        v &= ~(((1 << w) - 1) << lo)
        v |= (val & ((1 << w) - 1)) << lo
    return [(v >> (32 * i)) & 0xFFFFFFFF for i in range(enc["words"])]


# Probe register numbers: each role gets a distinct first register.
# (field values, {printed first register -> role})
# Scalar code of `null` (no soffset/saddr): 0x7f before gfx10 (saddr "off"), 125 on
# gfx10, 124 on gfx11+ (set by main from the generation).
NULL = 0x7F
# Whether 16-bit operands are VGPR halves (true16, gfx11+): `v1.l` is typed 16-bit.
TRUE16 = False
SIXTEEN = False
# Generations whose buffer resource field is an SGPR number (gfx12), not number / 4.
GEN_SGPR_RSRC = set()
# Whether MIMG probes record LLVM's decoded (not widened) operand widths (gfx10+).
MIMG_DECODED = False


def probes(encname):
    S = lambda n: n  # noqa: E731
    V = lambda n: 256 + n  # noqa: E731
    if encname == "SOP2":
        return dict(sdst=10, ssrc0=20, ssrc1=30), {"s10": "sdst", "s20": "ssrc0", "s30": "ssrc1"}
    if encname == "SOP1":
        return dict(sdst=10, ssrc0=20), {"s10": "sdst", "s20": "ssrc0"}
    if encname == "SOPC":
        return dict(ssrc0=20, ssrc1=30), {"s20": "ssrc0", "s30": "ssrc1"}
    if encname == "SOPK":
        return dict(sdst=10, simm16=0x1234), {"s10": "sdst"}
    if encname == "SOPP":
        return dict(simm16=0x3), {}
    if encname == "SMEM":
        return dict(sdata=16, sbase=10, imm=1, offset=0x2C, soffset=NULL), {
            "s16": "sdata", "s20": "sbase"}
    if encname == "VOP1":
        return dict(vdst=10, src0=V(20)), {"v10": "vdst", "v20": "src0", "s10": "sdst8"}
    if encname == "VOP2":
        return dict(vdst=10, src0=V(20), src1=30), {"v10": "vdst", "v20": "src0", "v30": "src1"}
    if encname == "VOPC":
        return dict(src0=V(20), src1=30), {"v20": "src0", "v30": "src1"}
    if encname == "VOP3":
        return dict(vdst=10, src0=V(20), src1=V(30), src2=V(40)), {
            "v10": "vdst", "s10": "sdst8", "v20": "src0", "v30": "src1", "v40": "src2",
            "s0": "sdst", "s20": "src0", "s30": "src1", "s40": "src2", "a10": "vdst"}
    if encname == "LDSDIR":
        return dict(vdst=10, attr=3, attrchan=1), {"v10": "vdst"}
    if encname == "VINTERP":
        return dict(vdst=10, src0=V(20), src1=V(30), src2=V(40)), {
            "v10": "vdst", "v20": "src0", "v30": "src1", "v40": "src2"}
    if encname == "VOP3P":
        return dict(vdst=10, src0=V(20), src1=V(30), src2=V(40), opsel_hi=3, opsel_hi2=1), {
            "v10": "vdst", "v20": "src0", "v30": "src1", "v40": "src2", "a10": "vdst"}
    if encname == "DS":
        return dict(vdst=10, addr=20, data0=30, data1=40), {
            "v10": "vdst", "v20": "addr", "v30": "data0", "v40": "data1"}
    if encname == "FLAT":
        return dict(vdst=10, addr=20, data=30, saddr=NULL), {
            "v10": "vdst", "v20": "addr", "v30": "data", "off": "saddr", "s50": "saddr"}
    if encname == "MUBUF":
        rsrc = 40 if "srsrc" in GEN_SGPR_RSRC else 10
        return dict(vdata=10, vaddr=20, srsrc=rsrc, soffset=50, offen=1), {
            "v10": "vdata", "v20": "vaddr", "s40": "srsrc", "s50": "soffset"}
    if encname == "MTBUF":
        rsrc = 40 if "srsrc" in GEN_SGPR_RSRC else 10
        return dict(vdata=10, vaddr=20, srsrc=rsrc, soffset=50, offen=1, dfmt=4, nfmt=7,
                    format=22), {
            "v10": "vdata", "v20": "vaddr", "s40": "srsrc", "s50": "soffset"}
    if encname in ("VIMAGE", "VSAMPLE"):
        # gfx12: SGPR numbers; address bytes 20, 21, 22, 23 (and 24)
        # (dmask 0xf: four data registers past v255 keep even compare-swaps decoded)
        return dict(vdata=255, vaddr=20, srsrc=40, ssamp=52, dmask=0xF), {
            "v255": "vdata", "v20": "vaddr", "s40": "srsrc", "s52": "ssamp"}
    if encname == "MIMG" and MIMG_DECODED:
        # gfx10+: a data tuple running past v255 makes LLVM keep the instruction as its
        # decoder table first read it, so the op line records those widths: what LLVM
        # prints when it finds no form for the address count the opcode, dim and a16
        # need (decode.rs uses the computed widths otherwise)
        return dict(vdata=255, vaddr=20, srsrc=10, ssamp=13, dmask=0x3), {
            "v255": "vdata", "v20": "vaddr", "s40": "srsrc", "s52": "ssamp"}
    if encname == "MIMG":
        return dict(vdata=10, vaddr=20, srsrc=10, ssamp=13, dmask=0xF), {
            "v10": "vdata", "v20": "vaddr", "s40": "srsrc", "s52": "ssamp"}
    if encname == "EXP":
        return dict(en=0xF, vsrc0=10, vsrc1=20, vsrc2=30, vsrc3=40), {
            "v10": "vsrc0", "v20": "vsrc1", "v30": "vsrc2", "v40": "vsrc3"}
    if encname == "VINTRP":
        return dict(vdst=10, vsrc=20, attr=3, attrchan=1), {"v10": "vdst", "v20": "vsrc"}
    if encname == "VOPD":
        return dict(src0x=256 + 20, vsrc1x=0, vdstx=10, src0y=256 + 50, vsrc1y=0, vdsty=35,
                    opy=8), {}
    if encname == "VOPD3":
        return dict(src0x=256 + 20, vsrc1x=0, vdstx=10, src0y=256 + 50, vsrc1y=0, vdsty=71,
                    opy=8, src2x=0, src2y=0), {}
    raise KeyError(encname)


REG = re.compile(r"^([sva])(\d+)$|^([sva])\[(\d+):(\d+)\]$")


def operand_token(text, rolemap):
    """Map one printed operand to role:width, or a fixed register name."""
    t = text.strip()
    half = re.match(r"^(v\d+)\.[lh]$", t)
    if half:
        # true16 (gfx11+): one 16-bit half of a VGPR
        if half.group(1) in rolemap:
            return rolemap[half.group(1)], 16
        return None
    if t in ("vcc_lo", "exec_lo"):
        return "=" + t[:-3], 32
    m = REG.match(t)
    if m:
        if m.group(1):
            first, n = m.group(1) + m.group(2), 1
        else:
            first = m.group(3) + m.group(4)
            n = int(m.group(5)) - int(m.group(4)) + 1
        if first in rolemap:
            return rolemap[first], n * 32
        return None
    if t in rolemap:
        return rolemap[t], 64
    if t in ("vcc", "exec", "m0", "scc"):
        return "=" + t, 64 if t in ("vcc", "exec") else 32
    return None


TYPE = re.compile(r"_([fiub])(16|32|64|128)")


def types_of(mn):
    base = re.sub(r"_(e32|e64|sdwa|dpp)$", "", mn)
    ts = TYPE.findall(base)
    if not ts:
        return None, None
    if base.startswith("v_cvt_") and len(ts) >= 2:
        return ts[0][0] + ts[0][1], ts[1][0] + ts[1][1]
    t = ts[-1][0] + ts[-1][1]
    return t, t


def typed(role, bits, mn, is_dst):
    dt, st = types_of(mn)
    t = dt if is_dst else st
    # the exponent, the class mask (true16 v_cmp_class_f16 takes float modifiers there)
    if role == "src1" and (mn.startswith("v_ldexp")
                           or ("_class_" in mn and not (TRUE16 and "_f16" in mn))):
        t = "i%d" % bits
    if mn.startswith("v_trig_preop") and role == "src1":
        t = "u32"  # the segment select
    if t is None or int(t[1:]) != bits:
        if bits == 16 and not TRUE16:
            bits = 32
        t = "b%d" % bits
    return "%s:%s" % (role, t)


def split_operands(rest):
    # operands are separated by ", "; modifiers follow the last operand after spaces
    parts = []
    for p in rest.split(", "):
        # hwreg(52, 8, 3): commas inside parentheses do not separate operands
        if parts and parts[-1].count("(") > parts[-1].count(")"):
            parts[-1] += ", " + p
        else:
            parts.append(p)
    last = parts[-1].split(" ") if parts else []
    ops = parts[:-1] + last[:1]
    mods = last[1:]
    return [o for o in ops if o], mods



# Alternative probes tried when LLVM flags an operand of the first one as invalid.
ALTERNATIVES = {
    "VOP3": [dict(src1=30), dict(src0=20, src1=30), dict(src2=40), dict(src1=30, src2=40),
             dict(src0=20, src1=30, src2=40), dict(vdst=0, src0=0, src1=0, src2=0)],
    "VOP3P": [dict(src2=40)],
    "VOP1": [dict(src0=20), dict(vdst=0, src0=0)],
    # operand-less or fixed-operand forms (s_memtime, s_dcache_inv, ds_gws_*) reject
    # probe registers in unused fields
    "SMEM": [dict(sbase=0, offset=0, imm=0), dict(sdata=0, sbase=0, offset=0, imm=0)],
    "SOPP": [dict(simm16=0)],
    "DS": [dict(data1=0), dict(data0=0, data1=0), dict(vdst=0), dict(vdst=0, data1=0),
           dict(vdst=0, data0=0, data1=0), dict(addr=0, data0=0, data1=0),
           dict(addr=0, vdst=0, data0=0, data1=0), dict(data0=0, data1=0, gds=1),
           dict(data0=0, data1=0, vdst=0, gds=1), dict(addr=0, data0=0, data1=0, vdst=0, gds=1)],
    "FLAT": [dict(data=0), dict(vdst=0), dict(saddr=50), dict(saddr=50, data=0),
             dict(saddr=50, vdst=0)],
    "MUBUF": [dict(offen=0)],
    "VINTRP": [dict(vsrc=1)],
    "MIMG": [dict(dmask=1), dict(dmask=3), dict(ssamp=0), dict(ssamp=0, dmask=1),
             dict(ssamp=0, dmask=3),
             # gfx10.3 image_bvh*_intersect_ray: dmask 0xf, unorm and r128 set, no sampler
             dict(ssamp=0, unorm=1, r128=1, dmask=0xF)],
    "VIMAGE": [dict(dmask=1), dict(dmask=3), dict(dmask=0xF), dict(dmask=0xF, r128=1),
               dict(dmask=1, dim=6)],
    "VSAMPLE": [dict(dmask=1), dict(dmask=3), dict(ssamp=0, dmask=1, dim=6)],
}
# Probes that reveal optional modifiers: (field values, flag, pattern in the text).
MOD_PROBES = {
    # (neg=2: v_interp_*_f16, whose src0 is the attribute, take modifiers on src1)
    "VOP3": [(dict(neg=1), "fpmods", r", -| -[v|]"), (dict(neg=2), "fpmods", r", -| -[v|]"),
             (dict(clamp=1), "clamp", " clamp"),
             (dict(omod=1), "omod", " mul:2"), (dict(opsel=8), "opsel", "op_sel:"),
             # (true16 VOPC: a dst op_sel bit makes LLVM fall back to plain registers)
             (dict(opsel=1), "opsel", "op_sel:")],
    "FLAT": [(dict(glc=1), "glcrtn", r" v(10|\[10:\d+\]), "),
             (dict(th=1), "glcrtn", r" v(10|\[10:\d+\]), .*TH_ATOMIC_RETURN")],
    "DS": [(dict(offset0=1, offset1=2), "offset2", "offset1:2"), (dict(gds=1), "gds", " gds")],
    "VINTERP": [(dict(neg=1), "fpmods", r", -| -[v|]"), (dict(clamp=1), "clamp", " clamp"),
                (dict(opsel=1), "opsel", "op_sel:")],
    "VOP3P": [(dict(neg=1), "neg", "neg_lo:"), (dict(clamp=1), "clamp", " clamp"),
              (dict(opsel=1), "opsel", "op_sel:")],
    # gfx10+ MIMG: packed 16-bit data (LLVM rejects d16 on atomics, *_pck, get_resinfo...)
    "MIMG": [(dict(d16=1), "d16", " d16$")],
    "VIMAGE": [(dict(d16=1), "d16", " d16$")],
    "VSAMPLE": [(dict(d16=1), "d16", " d16$")],
}


def more_specific(encs, enc, word):
    pc = lambda m: bin(m).count("1")  # noqa: E731
    for o in encs.values():
        if o is enc or "base" in o["opts"]:
            continue
        if pc(o["mask"]) > pc(enc["mask"]) and (word & o["mask"]) == o["match"]:
            return True
    return False


def sweep_enc(procs, encs, encname, keyvals, extra=None):
    """Returns {key: {proc: text}} for one encoding."""
    enc = encs[encname]
    vals, _ = probes(encname)
    alts = [dict()] + ALTERNATIVES.get(encname, [])
    if extra is not None:
        alts = [dict(a, **extra) for a in alts]
    out = {}
    for proc in procs:
        todo = [kv for kv in keyvals if not more_specific(encs, enc, build(enc, dict(vals, **kv))[0])]
        for alt in alts:
            lines = [build(enc, dict(vals, **alt, **kv)) for kv in todo]
            res = disassemble(lines, proc)
            again = []
            for kv, r in zip(todo, res):
                key = tuple(sorted(kv.items()))
                if r and "Invalid" not in r[0]:
                    out.setdefault(key, {})[proc] = r[0]
                else:
                    again.append(kv)
            todo = again
    return out


def imm_kind(mn, text):
    if text.startswith("hwreg("):
        return "hwreg"
    if text.startswith("sendmsg("):
        return "sendmsg"
    if text.startswith("instid0(") or text.startswith("instskip(") or text.startswith("instid1("):
        return "delayalu"
    if text.startswith("depctr_"):
        return "depctr"
    if text.startswith("gpr_idx("):
        return "gpridx"
    if "cnt(" in text:
        return "waitcnt"
    if text.startswith("0x"):
        return "hex16"
    if re.match(r"^-?\d+$", text):
        if "branch" in mn or "call" in mn or "fork" in mn:
            return "label"
        return "dec16"
    return None


def tokens_for(encname, mn, rest):
    _, rolemap = probes(encname)
    # gfx12 image address lists `[v20, v21, v[22:23]]`: one operand, as its registers
    def addr_list(m):
        regs = re.findall(r"v(\d+)|v\[(\d+):(\d+)\]", m.group(1))
        n = sum(1 if a else int(c) - int(b) + 1 for a, b, c in regs)
        first = regs[0][0] or regs[0][1]
        return "v%s" % first if n == 1 else "v[%s:%d]" % (first, int(first) + n - 1)
    rest = re.sub(r"\[((?:v\d+|v\[\d+:\d+\])(?:, (?:v\d+|v\[\d+:\d+\]))+)\]", addr_list, rest)
    # hwreg(A, B, C) and sendmsg(A, B, C) are one operand
    rest = re.sub(r"\(([^)]*)\)", lambda m: "(" + m.group(1).replace(", ", ",") + ")", rest)
    ops, mods = split_operands(rest.strip())
    if encname in ("SOPP",) and rest:
        k = imm_kind(mn, rest.strip())
        return ["simm16:" + (k or "?" + rest)], []
    toks = []
    if encname == "EXP" and ops:
        ops[0] = ops[0].split(" ", 1)[-1]  # the target (mrt0) is not an operand
    for i, o in enumerate(ops):
        if encname == "DS" and o == "gds":
            continue  # a modifier after no operands
        if encname == "VOP3" and re.match(r"^attr\d+\.[xyzw]$", o):
            toks.append("src0:attr")  # v_interp_*_f16: attribute and channel in src0
            continue
        if encname == "VINTRP" and re.match(r"^(attr\d+\.[xyzw]|p10|p20|p0|invalid_param_\d+)$", o):
            continue  # attribute and parameter slot: printed from their fields
        clean = o.strip("|-")
        tok = operand_token(clean, rolemap)
        if tok is None:
            if encname == "SOPK" and (i == len(ops) - 1 or o.startswith("hwreg")):
                k = imm_kind(mn, o)
                if k:
                    toks.append("simm16:" + k)
                    continue
            if encname == "SOP1" and o.startswith("sendmsg("):
                toks.append("ssrc0:sendmsgrtn")
                break
            if encname == "SMEM" and o == "0x2c":
                toks.append("offset:smem")
                continue
            if encname == "SMEM" and o == "16":
                toks.append("sdata:dec16")  # s_atc_probe: the probe number
                continue
            if encname == "SOPC" and mn == "s_set_gpr_idx_on" and i == 1:
                toks.append("ssrc1:gpridx")  # the index mode (probe 30 prints as hex)
                continue
            if re.match(r"^(0x[0-9a-f]+|-?\d+\.\d+)$", o):
                t = types_of(mn)[1] or "b32"
                toks.append("lit:" + t)
                continue
            toks.append("?" + o)
            continue
        role, bits = tok
        if role.startswith("="):
            toks.append(role[1:] + ":b%d" % bits)
        else:
            toks.append(typed(role, bits, mn, i == 0 and role in ("vdst", "sdst", "sdst8", "sdata")))
    if encname == "FLAT" and len([t for t in toks if t.startswith("saddr:")]) == 2:
        toks[toks.index("saddr:b64")] = "addr:b32"
    return toks, mods


def merge_tokens(a, b):
    """Merge operand lists of two encodings of one instruction, or None."""
    if len(a) != len(b):
        return None
    out = []
    for x, y in zip(a, b):
        if x == y:
            out.append(x)
            continue
        if ":" not in x or ":" not in y:
            return None
        rx, tx = x.split(":", 1)
        ry, ty = y.split(":", 1)
        fixed = ("vcc", "exec", "m0", "scc")
        if rx in fixed and ry not in fixed:
            out.append("%s|%s:%s" % (ry, rx, tx))
        elif ry in fixed and rx not in fixed:
            out.append("%s|%s:%s" % (rx, ry, ty))
        elif rx == ry and "|" not in rx:
            # same role, width guessed differently: keep the first
            out.append(x)
        elif rx.split("|")[0] == ry.split("|")[0]:
            out.append(x if "|" in rx else y)
        else:
            return None
    return out


def vopd_lines(procs, encs, variants, name="VOPD", flags=None):
    """Sweep opx (with opy = mov) and opy (with opx = mov) of the dual-issue encoding
    (VOPD, or gfx1250's three-word VOPD3 with third sources and a plain vdsty). VOPD3
    also probes the half's src0 neg bit (field `neg`: X bits 0-2, Y 3-5): an operation
    LLVM prints `-v20` / `-v[20:21]` (X) or `-v50` (Y) for gets `fpmods` in `flags` (LLVM
    rejects the bit on the others)."""
    enc = encs[name]
    three = name == "VOPD3"
    base = dict(src0x=256 + 20, vsrc1x=30, vdstx=10, src0y=256 + 50, vsrc1y=60,
                vdsty=71 if three else 35, src2x=0, src2y=0)
    roles = {"x": {"v10": "vdstx", "v20": "src0x", "v30": "vsrc1x", "v40": "src2x",
                   "s40": "ssrc2x"},
             "y": {"v71": "vdsty", "v50": "src0y", "v60": "vsrc1y", "v80": "src2y",
                   "s80": "ssrc2y"}}
    for half, field, encname, other in (("x", "opx", name, "opy"), ("y", "opy", name + "Y", "opx")):
        n = 1 << enc["fields"][field][1]
        own, oth = ("vsrc1x", "vsrc1y") if half == "x" else ("vsrc1y", "vsrc1x")
        src2 = dict(src2x=40) if half == "x" else dict(src2y=80)
        for proc in procs:
            tries = [dict(src2), dict(src2, **{own: 0}), {}, {own: 0}] if three else [{}, {own: 0}]
            res = None
            negs = [False] * n
            for t in tries:
                lines = [build(enc, dict(base, **t, **{field: o, other: 8, oth: 0}))
                         for o in range(n)]
                got = disassemble(lines, proc)
                res = got if res is None else [a if a and " :: " in a[0] else b
                                               for a, b in zip(res, got)]
                if three and flags is not None and "neg" in enc["fields"]:
                    neg = dict(neg=1 if half == "x" else 8)
                    lines = [build(enc, dict(base, **t, **neg, **{field: o, other: 8, oth: 0}))
                             for o in range(n)]
                    src0 = r" -v(20|\[20:)" if half == "x" else r" -v(50|\[50:)"
                    for o, r in enumerate(disassemble(lines, proc)):
                        if r and " :: " in r[0]:
                            negs[o] |= bool(re.search(src0, r[0].split(" :: ")[0 if half == "x" else 1]))
            for o, r in enumerate(res):
                if not r or "Invalid" in r[0] or " :: " not in r[0]:
                    r = None
                if not r or "Invalid" in r[0] or " :: " not in r[0]:
                    continue
                txt = r[0].split(" :: ")[0 if half == "x" else 1]
                mn, _, rest = txt.partition(" ")
                toks = []
                # gfx1250 v_dual_bitop2_b32: the truth table (src2 bits) as a modifier
                m = re.match(r"^(.*) bitop3:\S+$", rest)
                if m:
                    rest = m.group(1)
                    toks_tail = ["src2" + half + ":bitop3"]
                else:
                    toks_tail = []
                for t in rest.split(", "):
                    rng = re.match(r"^([vs])\[(\d+):(\d+)\]$", t)
                    if rng and rng.group(1) + rng.group(2) in roles[half]:
                        n = int(rng.group(3)) - int(rng.group(2)) + 1
                        ty = types_of(mn)[1] or "b32"
                        ty = ty if ty.endswith(str(32 * n)) else "b%d" % (32 * n)
                        toks.append(roles[half][rng.group(1) + rng.group(2)] + ":" + ty)
                    elif t in roles[half]:
                        ty = types_of(mn)[1] or "b32"
                        toks.append(roles[half][t] + ":" + ("b32" if ty.endswith("16") else ty))
                    elif re.match(r"^0x[0-9a-f]+$", t):
                        toks.append("lit:" + (types_of(mn)[1] or "b32"))
                    else:
                        toks.append("?" + t)
                toks += toks_tail
                if negs[o]:
                    flags.setdefault((mn, encname), set()).add("fpmods")
                v = variants.setdefault((mn, encname, tuple(toks)), {})
                v.setdefault(o, set()).add(proc)


def sixteen_bit_types(procs, encs, ops, literals=False):
    """gfx8/gfx9: {mnemonic: {source: type}} for the sources LLVM reads as 16 bits. A
    literal source 0 that prints as its low half is 16-bit (f16 unless the next probe
    says integer); a source whose inline 0.5 prints as 0x3800 is a 16-bit integer."""
    probes_ = []  # (words, mnemonic, what)
    for base, lst in ops.items():
        for toks, encl in lst:
            if any(t.startswith("lit:") for t in toks):
                continue  # v_madmk/v_madak: their constant is the literal
            for encname, opc, _ in encl:
                enc = encs[encname]
                vals, _ = probes(encname)
                if encname in ("VOP1", "VOP2", "VOPC"):
                    w = build(enc, dict(vals, op=opc, src0=255))
                    probes_.append((w + [0x12345678], base, "lit0"))
                    probes_.append((build(enc, dict(vals, op=opc, src0=240)), base, "f0"))
                elif encname == "VOP3":
                    for k in range(3):
                        w = build(enc, dict(vals, op=opc, **{"src%d" % k: 240}))
                        probes_.append((w, base, "f%d" % k))
                        # (gfx10+ VOP3 takes a literal: a 16-bit source prints its low half)
                        if literals:
                            w = build(enc, dict(vals, op=opc, **{"src%d" % k: 255}))
                            probes_.append((w + [0x12345678], base, "lit%d" % k))
    found = {}
    for proc in procs:
        res = disassemble([w for w, _, _ in probes_], proc)
        for (_, base, what), r in zip(probes_, res):
            if not r or not r[0].startswith(base):
                continue
            d = found.setdefault(base, set())
            if what.startswith("lit") and re.search(r"[ (]0x5678\b", r[0]):
                d.add(what)
            elif not what.startswith("lit") and "0x3800" in r[0]:
                d.add(what)
    types = {}
    for base, d in found.items():
        ity = "b16" if base.endswith("_b16") else "i16" if "_i16" in base else "u16"
        t = {"src%d" % k: ity for k in range(3) if "f%d" % k in d}
        for k in range(3):
            if "lit%d" % k in d and "src%d" % k not in t:
                t["src%d" % k] = "f16"
        if t:
            types[base] = t
    return types


def dpp_facts(procs, encs):
    """RDNA DPP forms of VOP1/VOP2/VOPC, per (mnemonic, base encoding): what LLVM does
    with the neg/abs bits of src0/src1 of a DPP16 word (printed: no flag; accepted and
    not printed: `dppigN`; invalid: `dpprejN`), and which VGPR operands must be v0-v127
    in a DPP8 word (`dpplo128d`, `dpplo128s0`, `dpplo128s1`: a 16-bit operand that gfx12
    decodes as a low-128 register; a higher vdst is invalid, a higher source is printed
    with an `Invalid register` comment)."""
    out = {}
    for encname in ("VOP1", "VOP2", "VOPC"):
        base_enc = encs[encname]
        d16, d8 = encs[encname + "_DPP"], encs[encname + "_DPP8"]
        opw = base_enc["fields"]["op"][1]
        clean = dict(vdst=1, src0=2, src1=3, dpp_ctrl=0xE4, row_mask=0xF, bank_mask=0xF,
                     dpp8=0xFAC688)
        variants = [("base16", d16, {})]
        for i in (0, 1):
            if "src%d_neg" % i in d16["fields"]:
                variants += [("neg%d" % i, d16, {"src%d_neg" % i: 1}),
                             ("abs%d" % i, d16, {"src%d_abs" % i: 1})]
        variants.append(("base8", d8, {}))
        for f, fl in (("vdst", "dpplo128d"), ("src0", "dpplo128s0"), ("src1", "dpplo128s1")):
            if f in d8["fields"]:
                variants.append((fl, d8, {f: 200}))
        for proc in procs:
            lines = []
            for o in range(1 << opw):
                for _, en, v in variants:
                    lines.append(build(en, dict(clean, op=o, **v)))
            res = disassemble(lines, proc)
            n = len(variants)
            for o in range(1 << opw):
                r = dict((variants[k][0], res[o * n + k]) for k in range(n))
                if not r["base16"] or "row_mask" not in r["base16"][0]:
                    continue
                mn = r["base16"][0].split(" ")[0]
                base = mn[:-4] if mn.endswith("_dpp") else re.sub(r"_e32$", "", mn)
                fl = out.setdefault((base, encname), set())
                for i in (0, 1):
                    if "neg%d" % i not in r:
                        continue
                    a, b = r["neg%d" % i], r["abs%d" % i]
                    if not a or not b:
                        fl.add("dpprej%d" % i)
                        continue
                    regs = [x for x in a[0].split(", ") if ("v%d" % (2 + i)) in x]
                    if not (regs and "-" in regs[0]):
                        fl.add("dppig%d" % i)
                if r["base8"]:
                    for f in ("dpplo128d", "dpplo128s0", "dpplo128s1"):
                        # (a high vdst is invalid; LLVM prints a high source with
                        # an `Invalid register` comment)
                        if f in r and (not r[f] or "VGPR_32_Lo128" in r[f][0]):
                            fl.add(f)
    return out


def vop3_dpp_facts(procs, encs):
    """gfx11+: the VOP3/VOP3P operations LLVM decodes with a DPP16 (src0 = 0xfa) or DPP8
    (0xe9) third word: flag `vop3dpp` per (mnemonic, encoding)."""
    out = {}
    for encname in ("VOP3", "VOP3P"):
        en = encs[encname]
        vals, _ = probes(encname)
        alts = [{}] + ALTERNATIVES.get(encname, [])
        opw = en["fields"]["op"][1]
        for proc in procs:
            lines = []
            for o in range(1 << opw):
                for alt in alts:
                    for s0, w2 in ((0xFA, 0xFF00E414), (0xE9, 0xFAC68814)):
                        v = dict(vals, **alt)
                        lines.append(build(en, dict(v, op=o, src0=s0)) + [w2])
            res = disassemble(lines, proc)
            n = 2 * len(alts)
            for o in range(1 << opw):
                for r in res[o * n:(o + 1) * n]:
                    if r and r[1] == 12:
                        mn = r[0].split(" ")[0]
                        base = re.sub(r"(_e64)?_dpp$", "", mn)
                        out.setdefault((base, encname), set()).add("vop3dpp")
                        break
    return out


def wmma_facts(procs, encs):
    """gfx12+ VOP3P matrix ops (WMMA/SWMMAC): those whose base probe (op_sel_hi all
    ones) decodes while op_sel_hi = 0 is rejected or prints a `matrix_` modifier get
    `wmma`; single-bit probes then give `fpmods` (neg_lo/neg_hi of the accumulator,
    src2), `neghi` (neg_hi of src0), `ikey` (op_sel bit 0 is index_key), `reuse` (op_sel
    bit 2 is matrix_a_reuse) and `fmt` (op_sel is matrix_a_fmt), and a literal
    accumulator probe the element type of a 128-bit src2 (`acc:f16x8`, `acc:bf16x8`:
    main() retypes the operand). {(mnemonic, "VOP3P"): flags}; an op's flags are those
    of every processor that has it."""
    en = encs["VOP3P"]
    vals, _ = probes("VOP3P")
    opw = en["fields"]["op"][1]
    variants = [({}, None), (dict(opsel_hi=0, opsel_hi2=0), None),
                (dict(neg=4, neg_hi=4), ("fpmods", "neg_lo:[0,0,1] neg_hi:[0,0,1]")),
                (dict(neg_hi=1), ("neghi", "neg_hi:[1,0,0]")),
                (dict(opsel=1), ("ikey", "index_key:1")),
                (dict(opsel=4), ("reuse", " matrix_a_reuse")),
                (dict(opsel=1), ("fmt", "matrix_a_fmt:")),
                # a literal accumulator: 16-bit (f16 elements) or bf16 (low half not
                # inline, printed whole) instead of 32-bit (`lit(0x3e22f983)`)
                (dict(src2=255), ("acc:f16x8", ", 0xf983")),
                (dict(src2=255), ("acc:bf16x8", ", 0x3e22f983"))]
    out = {}
    for proc in procs:
        lines = [build(en, dict(vals, op=o, **v)) + [0x3E22F983]
                 for o in range(1 << opw) for v, _ in variants]
        res = disassemble(lines, proc)
        n = len(variants)
        for o in range(1 << opw):
            rs = res[o * n:(o + 1) * n]
            base, zero = rs[0], rs[1]
            if not base or "Invalid" in base[0] or "op_sel_hi" in base[0]:
                continue
            if zero and "matrix_" not in zero[0] + base[0]:
                continue
            fl = out.setdefault((base[0].split(" ")[0], "VOP3P"), set())
            fl.add("wmma")
            for (_, probe), r in zip(variants[2:], rs[2:]):
                if r and probe[1] in r[0]:
                    fl.add(probe[0])
    return out


def vop3_int_srcs(procs, encs, text):
    """RDNA VOP3 ops with float modifiers whose source N llvm-mc-22 prints without the
    neg bit's `-` (an integer source: v_cvt_pk_u8_f32's src1/src2, v_trig_preop's src1):
    {mnemonic: {N}} (their op-line type becomes uBITS)."""
    en = encs["VOP3"]
    vals, _ = probes("VOP3")
    ops = {}
    for line in text.split("\n"):
        t = line.split()
        if t and t[0] == "op" and "!fpmods" in t:
            for e in t[2].split(","):
                if e.startswith("VOP3="):
                    ops[int(e.split("@")[0].split("=")[1], 16)] = t[1]
    keys = sorted(ops)
    out = {}
    for i in range(3):
        lines = [build(en, dict(vals, op=o, neg=1 << i)) for o in keys]
        for o, r in zip(keys, disassemble(lines, procs[0])):
            if not r:
                continue
            reg = "v%d" % (20 + 10 * i)
            hit = [x for x in r[0].split(" ", 1)[1].split(", ")
                   if re.search(r"(^|[-|(])" + reg + r"(\b|\.)", x)]
            if hit and "-" not in hit[0]:
                out.setdefault(ops[o], set()).add(i)
    return out


def set_generation(gen):
    """Per-generation probe facts: the code of `null`, true16 operands."""
    global NULL, TRUE16, GEN_SGPR_RSRC, MIMG_DECODED, SIXTEEN
    # gfx8/gfx9 16-bit sources (whole VGPRs; see sixteen_bit_types)
    # (and gfx10/gfx12, which llvm-mc-22 decodes without true16 halves)
    SIXTEEN = gen in ("gfx8", "gfx9", "gfx10", "gfx12")
    MIMG_DECODED = gen in ("gfx10", "gfx11")
    GEN_SGPR_RSRC = {"srsrc"} if gen == "gfx12" else set()
    NULL = {"gfx10": 125, "gfx11": 124, "gfx12": 124}.get(gen, 0x7F)
    TRUE16 = gen in ("gfx11", "gfx12")


def main():
    gen = sys.argv[1]
    set_generation(gen)
    check = "--check" in sys.argv
    path = os.path.join(DEFS, gen + ".txt")
    text = open(path).read()
    procs, encs = parse_defs(text)
    for e in encs.values():
        e["mask"] = int(text.split("encoding %s " % e["name"])[1].split()[2], 16)
    variants = OrderedDict()  # (mnemonic, encoding, tokens) -> {opc: procs}
    flags = {}  # (mnemonic, encoding) -> set of flags

    # --only ENC[,ENC]: sweep only these encodings and print their op lines (for adding
    # an encoding to a defs file whose other op lines are not re-swept)
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    for encname, enc in encs.items():
        if "base" in enc["opts"] or encname in ("VOPD", "VOPDY", "VOPD3", "VOPD3Y"):
            continue
        if only and encname not in only:
            continue
        opw = enc["fields"]["op"][1]
        lo, w, _ = enc["fields"]["op"]
        if encname == "FLAT" and "seg" in enc["fields"]:
            keyvals = [dict(seg=s, op=o) for s in range(3) for o in range(128)]
        elif "opm" in enc["fields"]:
            # gfx10 MIMG: bit 0 of the first word is the opcode's top bit (key=opm+op)
            keyvals = [dict(opm=o >> w, op=o & ((1 << w) - 1)) for o in range(2 << w)]
        elif lo + w == 32:
            keyvals = [dict(op=enc["match"] >> lo)]  # EXP: the encoding bits are the key
        else:
            keyvals = [dict(op=o) for o in range(1 << opw)]
        res = sweep_enc(procs, encs, encname, keyvals)
        for key, per in res.items():
            kv = dict(key)
            opc = kv["op"] | (kv.get("seg", 0) << 7) | (kv.get("opm", 0) << opw)
            for proc, txt in per.items():
                mn, _, rest = txt.partition(" ")
                base = mn
                m = re.match(r"^(.*)_(e32|e64)$", mn)
                if m and encname.startswith("VOP"):
                    base = m.group(1)
                toks, _ = tokens_for(encname, mn, rest)
                # (no _e32/_e64 although the op may have both forms: kept below only for
                # ops that have both)
                if encname in ("VOP1", "VOP2", "VOPC", "VOP3") and not m and rest:
                    flags.setdefault((base, encname), set()).add("nosfx")
                v = variants.setdefault((base, encname, tuple(toks)), {})
                v.setdefault(opc, set()).add(proc)
        for fv, flag, pat in MOD_PROBES.get(encname, []):
            r2 = sweep_enc(procs, encs, encname, keyvals, extra=fv)
            for key, per in r2.items():
                for proc, txt in per.items():
                    if re.search(pat, txt) and (flag != "glcrtn" or "atomic" in txt):
                        mn = txt.split(" ")[0]
                        base = re.sub(r"_(e32|e64)$", "", mn)
                        flags.setdefault((base, encname), set()).add(flag)
    # SOPP immediates that are not printed when zero
    r0 = sweep_enc(procs, encs, "SOPP", [dict(op=o) for o in range(128)], extra=dict(simm16=0))
    optional = set()
    for key, per in r0.items():
        for proc, txt in per.items():
            if " " not in txt:
                optional.add(txt)
    for (base, encname, toks) in list(variants):
        if encname == "SOPP" and base in optional and toks == ("simm16:dec16",):
            variants[(base, encname, ("simm16:opt16",))] = variants.pop((base, encname, toks))
    # SDWA / DPP availability, per base encoding
    for var, src0, word1, encname in () if only else (
            ("sdwa", 0xF9, 0x00060614, "VOP1"), ("sdwa", 0xF9, 0x06060614, "VOP2"),
            ("sdwa", 0xF9, 0x06060014, "VOPC"), ("dpp", 0xFA, 0xFF011114, "VOP1"),
            ("dpp", 0xFA, 0xFF011114, "VOP2"), ("dpp", 0xFA, 0xFF011114, "VOPC")):
        if True:
            enc = encs[encname]
            vals, _ = probes(encname)
            opw = enc["fields"]["op"][1]
            for proc in procs:
                lines = []
                for o in range(1 << opw):
                    w = build(enc, dict(vals, op=o, src0=src0))[0]
                    lines.append([w, word1])
                for o, r in enumerate(disassemble(lines, proc)):
                    mn = r[0].split(" ")[0] if r else ""
                    if r and r[1] == 8 and ("_" + var) in mn:
                        base = mn[: -len(var) - 1]
                        flags.setdefault((base, encname), set()).add(var)
                    elif r and r[1] == 8 and var == "dpp" and "row_mask:" in r[0]:
                        # gfx11+ VOPC in DPP form prints no `_dpp` suffix
                        base = re.sub(r"_e32$", "", mn)
                        flags.setdefault((base, encname), set()).add(var)
    # DPP source-modifier rules and gfx12 low-128 register operands (rdna)
    if "VOP1_DPP8" in encs and not only:
        for key, fl in dpp_facts(procs, encs).items():
            flags.setdefault(key, set()).update(fl)
    if "VOPD" in encs and not only:
        for key, fl in vop3_dpp_facts(procs, encs).items():
            flags.setdefault(key, set()).update(fl)
    if GEN_SGPR_RSRC and not only:
        for key, fl in wmma_facts(procs, encs).items():
            flags.setdefault(key, set()).update(fl)
    # VOPD (gfx11+): X and Y halves, each swept with the other half a v_dual_mov_b32
    if "VOPD" in encs and not only:
        vopd_lines(procs, encs, variants)
    if "VOPD3" in encs and not only:
        vopd_lines(procs, encs, variants, "VOPD3", flags)
    # merge encodings of one instruction
    ops = OrderedDict()  # mnemonic -> list of [tokens, [(enc, opc, procs)]]
    for (base, encname, toks), opcs in variants.items():
        lst = ops.setdefault(base, [])
        for ent in lst:
            mt = merge_tokens(ent[0], list(toks))
            if mt is not None and encname not in [e for e, _, _ in ent[1]]:
                ent[0] = mt
                break
        else:
            ent = [list(toks), []]
            lst.append(ent)
        for opc, ps in sorted(opcs.items()):
            ent[1].append((encname, opc, frozenset(ps)))
    sixteen = sixteen_bit_types(procs, encs, ops, gen in ("gfx10", "gfx12")) if SIXTEEN else {}
    lines = []
    intsrc = vop3_int_srcs(procs, encs, text) if "VOPD" in encs and not only else {}
    for base, lst in ops.items():
        for toks, encl in lst:
            if base in intsrc and any(e == "VOP3" for e, _, _ in encl):
                toks = [re.sub(r"^src([012]):[fb](16|32|64)$",
                               lambda m: "src%s:u%s" % (m.group(1), m.group(2))
                               if int(m.group(1)) in intsrc[base] else m.group(0), x)
                        for x in toks]
            t16 = sixteen.get(base, {})
            toks = [r + ":" + t16[r] if t == "b32" and r in t16 else x
                    for x in toks for r, _, t in [x.partition(":")]]
            allp = set().union(*[ps for _, _, ps in encl])
            opcs = ",".join("%s=0x%x%s" % (e, o, "" if ps == allp else
                                            "@" + "+".join(p for p in procs if p in ps))
                            for e, o, ps in encl)
            pr = "" if len(allp) == len(procs) else " @" + "+".join(p for p in procs if p in allp)
            fl = set()
            for e, _, _ in encl:
                fl |= flags.get((base, e), set())
            for acc in [f for f in fl if f.startswith("acc:")]:
                fl.discard(acc)
                toks = [acc.replace("acc:", "src2:") if x == "src2:b128" else x for x in toks]
            encs_of = {e for e, _, _ in encl}
            if not (encs_of & {"VOP1", "VOP2", "VOPC"} and "VOP3" in encs_of and all(
                    "nosfx" in flags.get((base, e), set()) for e in encs_of
                    if e in ("VOP1", "VOP2", "VOPC", "VOP3"))):
                fl.discard("nosfx")
            fl = "".join(" !" + f for f in sorted(fl))
            lines.append("op %s %s %s%s%s" % (base, opcs, " ".join(toks) or "-", fl, pr))
    body = "\n".join(implicit.annotate(gen, quirks.annotate(gen, ln)) for ln in lines) + "\n"
    if only:
        print(body, end="")
        return
    head = text.split(MARK)[0]
    new = head + MARK + "\n" + body
    if check:
        if new != text:
            sys.exit("defs/%s.txt differs from what LLVM says; run scripts/sweep.py %s" % (gen, gen))
        return
    open(path, "w").write(new)
    print("%d op lines" % len(lines))


if __name__ == "__main__":
    main()
