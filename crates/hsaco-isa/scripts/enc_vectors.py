#!/usr/bin/env python3
"""Write LLVM test vectors for one RDNA encoding family: tests/data/<gen>.<family>.txt
(`hex words | llvm text | processors`, every line must match, tests/isa.rs
`rdna_family_vectors`) and tests/data/<gen>.<family>.invalid (`hex words | processors`:
words llvm-mc-22 --disassemble rejects, hsaco must reject them too).

    python3 scripts/enc_vectors.py gfx11 dpp      # VOP1/VOP2/VOPC DPP16 + DPP8
    python3 scripts/enc_vectors.py gfx11 vop3dpp  # VOP3 with a DPP16/DPP8 word (gfx11+)
    python3 scripts/enc_vectors.py gfx11 mtbuf    # and exp, vinterp, ldsdir (as described)
    python3 scripts/enc_vectors.py gfx12 wmma     # matrix ops and !nosfx ops, modifiers
    python3 scripts/enc_vectors.py gfx11 salu     # SOP1/2/C/K ops limited by @processor
    python3 scripts/enc_vectors.py gfx9 flat      # FLAT segment 0 (gfx900-gfx90a)
    python3 scripts/enc_vectors.py gfx9 mai950    # gfx950 f8f6f4 MFMA, ld_scale (+ pairs)
    python3 scripts/enc_vectors.py gfx9 mubuf     # MUBUF field rules (gfx8, gfx9, gfx10)
    python3 scripts/enc_vectors.py gfx9 gs        # global_*/scratch_* (FLAT segments 2, 1)
    python3 scripts/enc_vectors.py gfx12 dppsrc   # every DPP16 control of the !dppsrc ops
    python3 scripts/enc_vectors.py gfx12 vinterpsrc  # every VINTERP source code below 256
    python3 scripts/enc_vectors.py gfx12 align    # 64-bit+ VALU operands (gfx1250 Align2)
    python3 scripts/enc_vectors.py gfx11 lanesrc  # sources limited by `rule op` facts

Every opcode of the family's encodings (from the op lines of defs/<gen>.txt; for the
DPP forms every opcode of the base table, so the `!dpp` flags are checked too) gets a
clean probe and RANDOM_PER_OPCODE words with random (seeded) other fields, each
disassembled on every processor of the generation (LLVM as a black box); equal texts
are merged across processors.
"""
import os
import random
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(__file__))
from llvm_mc import disassemble  # noqa: E402
import sweep  # noqa: E402
from sweep import DEFS, parse_defs, build  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RANDOM_PER_OPCODE = 4

# DPP16 controls LLVM names (others are reserved): quad_perm, row_shl/shr/ror,
# mirrors, row_share/row_xmask (gfx10+), and a few reserved values.
DPP_CTRLS = (list(range(0x100)) + list(range(0x101, 0x110)) + list(range(0x111, 0x120))
             + list(range(0x121, 0x130)) + [0x140, 0x141] + list(range(0x150, 0x170))
             + [0x100, 0x110, 0x120, 0x130, 0x142, 0x170, 0x1ff])


def opcodes(text, encname, restricted=False, names=None):
    """Opcode values of encoding `encname` in the op lines (restricted: only of the op
    lines limited to some processors with `@`; names: only of these mnemonics)."""
    out = []
    for line in text.splitlines():
        if not line.startswith("op "):
            continue
        if restricted and " @" not in line:
            continue
        if names is not None and line.split()[1] not in names:
            continue
        for e in line.split()[2].split(","):
            enc, opc = e.split("@")[0].split("=")
            if enc == encname:
                out.append(int(opc, 16))
    return sorted(set(out))


def rand_fields(rng, en, skip=()):
    v = {}
    for name, (lo, w, kind) in en["fields"].items():
        if kind != "op" and name not in skip:
            v[name] = rng.getrandbits(w)
    return v


def dpp_words(rng, text, encs):
    """VOP1/VOP2/VOPC in DPP16 and DPP8 forms, every opcode of the base tables."""
    words = []
    for base in ("VOP1", "VOP2", "VOPC"):
        for opc in opcodes(text, base):
            for form in ("_DPP", "_DPP8", "_DPP8FI"):
                en = encs.get(base + form)
                if en is None:
                    continue
                clean = dict(op=opc, vdst=1, src0=2, src1=3, dpp_ctrl=0xE4, row_mask=0xF,
                             bank_mask=0xF, dpp8=0xFAC688)
                words.append(build(en, clean))
                for _ in range(RANDOM_PER_OPCODE):
                    # (fi of DPP8 is bit 1 of src0 = 0xe9/0xea: fixed by the encoding)
                    v = rand_fields(rng, en, skip=("fi",) if "dpp8" in en["fields"] else ())
                    v.update(op=opc)
                    if "dpp_ctrl" in v:
                        v["dpp_ctrl"] = rng.choice(DPP_CTRLS)
                    words.append(build(en, v))
    return words


def vop3dpp_words(rng, text, encs):
    """gfx11+ VOP3 (and VOP3P) with src0 = 0xfa (DPP16 word) or 0xe9/0xea (DPP8 word)."""
    words = []
    for encname in ("VOP3", "VOP3P"):
        en = encs[encname]
        for opc in opcodes(text, encname):
            for s0 in (0xFA, 0xE9, 0xEA):
                clean = dict(op=opc, vdst=1, sdst=0x6A, src0=s0, src1=256 + 3, src2=256 + 4)
                dpp = (0xFF0000E4 | 2) if s0 == 0xFA else (0xFAC688 << 8 | 2)
                words.append(build(en, clean) + [dpp])
                for i in range(RANDOM_PER_OPCODE):
                    v = rand_fields(rng, en)
                    v.update(op=opc, src0=s0)
                    # mostly VGPR sources (LLVM takes SGPRs/constants in src1/src2 too)
                    for s in ("src1", "src2"):
                        if s in v and rng.random() < 0.6:
                            v[s] = 256 + rng.getrandbits(8)
                    if i < 2:
                        for m in ("clamp", "omod", "opsel", "abs", "neg", "neg_hi",
                                  "opsel_hi", "opsel_hi2"):
                            if m in v and rng.random() < 0.7:
                                v[m] = 0
                    if s0 == 0xFA:
                        w2 = (rng.getrandbits(8) | rng.choice(DPP_CTRLS) << 8
                              | rng.getrandbits(1) << 18 | rng.getrandbits(1) << 19
                              | rng.getrandbits(4) << 24 | rng.getrandbits(4) << 28)
                        w2 |= rng.getrandbits(4) << 20 if rng.random() < 0.2 else 0
                    else:
                        w2 = rng.getrandbits(32)
                    words.append(build(en, v) + [w2])
    return words


def dppsrc_words(rng, text, encs):
    """The `!dppsrc` ops (VOP3/VOP3P DPP16 form, control read like a source code): every
    one of the 512 DPP16 controls with a clean probe, random masks, bound_ctrl and fi."""
    words = []
    for _name, opcs in flagged(text, "dppsrc"):
        for encname, opc in opcs.items():
            if encname not in ("VOP3", "VOP3P"):
                continue
            en = encs[encname]
            clean = dict(op=opc, vdst=1, src0=0xFA, src1=256 + 3)
            if encname == "VOP3P":  # (v_cvt_pk_fp8_f32, VOP3, has two sources)
                clean["src2"] = 256 + 4
            base = build(en, clean)
            for c in range(0x200):
                w2 = (0xE6 | c << 8 | rng.getrandbits(1) << 18 | rng.getrandbits(1) << 19
                      | rng.getrandbits(4) << 24 | rng.getrandbits(4) << 28)
                words.append(base + [w2])
    return words


def vinterpsrc_words(rng, text, encs):
    """gfx11+ VINTERP: each source of every opcode set to each code below 256 (the other
    sources VGPRs), with random wait_exp, op_sel, neg and clamp."""
    words = []
    en = encs["VINTERP"]
    for opc in opcodes(text, "VINTERP"):
        for f in ("src0", "src1", "src2"):
            for c in range(256):
                v = dict(op=opc, vdst=rng.getrandbits(8), src0=256 + rng.getrandbits(8),
                         src1=256 + rng.getrandbits(8), src2=256 + rng.getrandbits(8),
                         wait_exp=rng.getrandbits(3), opsel=rng.getrandbits(4),
                         clamp=rng.getrandbits(1), neg=rng.getrandbits(3))
                v[f] = c
                words.append(build(en, v))
    return words


def plain_words(rng, text, encs, encnames, restricted=False, names=None):
    """Every opcode of the named encodings: a clean probe and random fields."""
    words = []
    for encname in encnames:
        en = encs.get(encname)
        if en is None:
            continue
        lo, w, _ = en["fields"]["op"]
        # ops with an operand-less literal (s_fmaak_f32 ...) get a literal word
        lit = set()
        for line in text.splitlines():
            if line.startswith("op ") and " lit:" in line:
                for e in line.split()[2].split(","):
                    enc_, opc_ = e.split("@")[0].split("=")
                    if enc_ == encname:
                        lit.add(int(opc_, 16))
        for opc in opcodes(text, encname, restricted, names):
            if (restricted or names) and opc in lit:
                for v_ in (0x3F800000, rng.getrandbits(32)):
                    vals, _ = sweep.probes(encname)
                    words.append(build(en, dict(vals, op=opc)) + [v_])
                    r_ = rand_fields(rng, en)
                    r_.update(op=opc)
                    words.append(build(en, r_) + [v_])
            vals, _ = sweep.probes(encname)
            key = dict(op=opc) if lo + w != 32 else {}
            if "opm" in en["fields"]:
                key = dict(op=opc & ((1 << w) - 1), opm=opc >> w)  # gfx10 MTBUF/MIMG
            words.append(build(en, dict(vals, **key)))
            # words with bits no field describes set (LLVM may reject them)
            mask = int(text.split("encoding %s " % encname)[1].split()[2], 16)
            covered = mask
            for lo_, w_, _k in en["fields"].values():
                covered |= ((1 << w_) - 1) << lo_
            free = ~covered & ((1 << (32 * en["words"])) - 1)
            if free:
                for _ in range(4):
                    ws = build(en, dict(vals, **key))
                    extra = rng.getrandbits(32 * en["words"]) & free
                    words.append([w | (extra >> (32 * i)) & 0xFFFFFFFF
                                  for i, w in enumerate(ws)])
            for _ in range(16):
                v = rand_fields(rng, en)
                v.update(key)
                for name, (_, _, kind) in en["fields"].items():
                    if kind == "src9" and rng.random() < 0.8:
                        v[name] = 256 + rng.getrandbits(8)  # mostly VGPRs
                words.append(build(en, v))
    return words


def exp_words(rng, text, encs):
    """EXP: every target with random sources/flags, every enable mask with and without
    each flag."""
    en = encs["EXP"]
    words = []
    for tgt in range(64):
        for _ in range(2):
            v = rand_fields(rng, en)
            v["tgt"] = tgt
            words.append(build(en, v))
    for mask in range(16):
        for fl in ("", "compr", "done", "vm", "row_en"):
            if fl and fl not in en["fields"]:
                continue
            v = dict(en=mask, tgt=rng.choice((0, 8, 12, 20, 33)), vsrc0=1, vsrc1=2,
                     vsrc2=3, vsrc3=4)
            if fl:
                v[fl] = 1
            words.append(build(en, v))
    return words


def flagged(text, flag):
    """(mnemonic, {encoding: opcode}) of the op lines with `!flag`."""
    out = []
    for line in text.splitlines():
        t = line.split()
        if t and t[0] == "op" and "!" + flag in t:
            out.append((t[1], {e.split("@")[0].split("=")[0]: int(e.split("@")[0].split("=")[1], 16)
                               for e in t[2].split(",")}))
    return out


def wmma_words(rng, text, encs):
    """gfx12+ matrix ops (`!wmma`: WMMA/SWMMAC, gfx12 fp8 dot products): a clean probe,
    every modifier bit alone (op_sel, op_sel_hi and bit 14, neg_lo, neg_hi, clamp),
    random modifier sets with the neutral op_sel_hi, every matrix_a_fmt x matrix_b_fmt
    pair of the f8f6f4 op, accumulators that are constants or a literal, high registers;
    and the ops printed without _e32/_e64 (`!nosfx`) in their VOP1, VOP3 and DPP forms."""
    V = lambda n: 256 + n  # noqa: E731
    en = encs["VOP3P"]
    words = []
    for mn, opc in flagged(text, "wmma"):
        base = dict(op=opc["VOP3P"], vdst=10, src0=V(20), src1=V(40), src2=V(80), opsel_hi=3,
                    opsel_hi2=1)
        words.append(build(en, base))
        for field, width in (("opsel", 3), ("opsel_hi", 2), ("opsel_hi2", 1), ("neg", 3),
                             ("neg_hi", 3), ("clamp", 1)):
            for b in range(width):
                words.append(build(en, dict(base, **{field: base.get(field, 0) ^ 1 << b})))
        for _ in range(8):
            v = dict(base, opsel=rng.getrandbits(3), opsel_hi2=rng.getrandbits(1),
                     neg=rng.getrandbits(3), neg_hi=rng.getrandbits(3),
                     clamp=rng.getrandbits(1))
            v.update(vdst=2 * rng.randrange(0, 100), src0=V(2 * rng.randrange(0, 100)),
                     src1=V(2 * rng.randrange(0, 100)), src2=V(2 * rng.randrange(0, 100)))
            words.append(build(en, v))
        # accumulators: inline constants, a literal, null; registers near v255
        for c in (128, 129, 193, 242, 247, 124):
            words.append(build(en, dict(base, src2=c)))
        for lit in (0x3F800000, 0x12345678, 0x3E22F983, 0x3C00):
            words.append(build(en, dict(base, src2=255)) + [lit])
        words.append(build(en, dict(base, src0=255)) + [0x3F800000])
        # null, src_* registers, an SGPR, odd registers (gfx1250: tuples are even)
        for f, v in (("src0", 124), ("src1", 124), ("src2", 230), ("src2", 253),
                     ("src0", 230), ("src1", 2), ("src0", V(21)), ("vdst", 11), ("src2", V(81))):
            words.append(build(en, dict(base, **{f: v})))
        words.append(build(en, dict(base, vdst=240, src0=V(232), src1=V(224), src2=V(240))))
        if "fmt" in [x[1:] for x in text.split("op " + mn + " ")[1].split("\n")[0].split()
                     if x.startswith("!")]:
            for a in range(8):
                for b in range(8):
                    words.append(build(en, dict(base, opsel=a, opsel_hi=b & 3, opsel_hi2=b >> 2)))
    for mn, opc in flagged(text, "nosfx"):
        if "VOP1" in opc:
            e1 = encs["VOP1"]
            for s0 in (V(2), V(130), 1, 106, 128, 193, 242):
                words.append(build(e1, dict(op=opc["VOP1"], vdst=5, src0=s0)))
            words.append(build(e1, dict(op=opc["VOP1"], vdst=5, src0=255)) + [0x00003C00])
            # DPP16 and DPP8
            words.append(build(e1, dict(op=opc["VOP1"], vdst=5, src0=0xFA)) + [0xFF00E402])
            words.append(build(e1, dict(op=opc["VOP1"], vdst=5, src0=0xE9)) + [0x00FAC602])
        if "VOP3" in opc:
            e3 = encs["VOP3"]
            b3 = dict(op=opc["VOP3"], vdst=5, src0=V(2))
            words.append(build(e3, b3))
            for field, width in (("abs", 3), ("opsel", 4), ("clamp", 1), ("omod", 2),
                                 ("neg", 3)):
                for b in range(width):
                    words.append(build(e3, dict(b3, **{field: 1 << b})))
            words.append(build(e3, dict(b3, src0=1)))
            words.append(build(e3, dict(b3, src0=0xFA)) + [0xFF00E402])
            words.append(build(e3, dict(b3, src0=0xFA, opsel=9)) + [0xFF00E402])
            words.append(build(e3, dict(b3, src0=0xE9)) + [0x00FAC602])
    return words


# ops added to a description after its op lines were swept (found missing by
# scripts/missing.py): family `added` makes vectors for exactly these
GEN = None
ADDED = {
    "gfx9": ["s_dcache_inv", "s_dcache_wb", "s_dcache_inv_vol", "s_dcache_wb_vol",
             "s_memtime", "s_memrealtime"],
    # MUBUF d16 formats (opcode bit 25) and the dot ops of gfx1011/gfx1012
    "gfx10": ["buffer_load_format_d16_x", "buffer_load_format_d16_xy",
              "buffer_load_format_d16_xyz", "buffer_load_format_d16_xyzw",
              "buffer_store_format_d16_x", "buffer_store_format_d16_xy",
              "buffer_store_format_d16_xyz", "buffer_store_format_d16_xyzw",
              "v_dot2c_f32_f16", "v_dot4c_i32_i8", "v_dot2_f32_f16", "v_dot2_i32_i16",
              "v_dot2_u32_u16", "v_dot4_i32_i8", "v_dot4_u32_u8", "v_dot8_i32_i4",
              "v_dot8_u32_u4"],
}


def added_words(rng, text, encs):
    names = set(ADDED[GEN])
    used = sorted({e.split("@")[0].split("=")[0] for line in text.splitlines()
                   if line.startswith("op ") and line.split()[1] in names
                   for e in line.split()[2].split(",")})
    return plain_words(rng, text, encs, used, names=names)


def flat_words(rng, text, encs):
    """gfx9 FLAT segment 0 (flat_*): a clean probe per opcode (saddr 0, which segment 0
    requires there), random fields with seg 0 and mostly saddr 0, and a few words with
    another saddr, lds or a random segment-0 opcode."""
    en = encs["FLAT"]
    words = []
    ops = [o for o in opcodes(text, "FLAT") if o < 0x80]
    for opc in ops:
        vals, _ = sweep.probes("FLAT")
        words.append(build(en, dict(vals, op=opc, seg=0, saddr=0)))
        for i in range(12):
            v = rand_fields(rng, en)
            v.update(op=opc, seg=0)
            if i < 9:
                v["saddr"] = 0
            if i < 6:
                v["lds"] = 0
            if i < 3:
                v["nv"] = 0
            words.append(build(en, v))
    return words


def mai950_words(rng, text, encs):
    """gfx950 v_mfma_*_f8f6f4 and v_mfma_ld_scale_b32 (VOP3P 0x2c-0x2e): every cbsz x
    blgp format pair (the src0/src1 widths) with VGPR operands and once more with random
    acc/acc_cd (AGPR forms), a few aligned register numbers and inline-constant src2;
    abid values (only 0 is valid alone); v_mfma_ld_scale_b32 with every single
    modifier bit, scalar/constant sources and random words."""
    en = encs["VOP3P"]
    words = []
    vg = lambda n: 256 + n  # noqa: E731
    for opc in (0x2d, 0x2e):
        for cbsz in range(8):
            for blgp in range(8):
                base = dict(op=opc, vdst=0, src0=vg(8), src1=vg(16), src2=vg(32),
                            cbsz=cbsz, blgp=blgp)
                words.append(build(en, base))
                words.append(build(en, dict(base, acc=rng.getrandbits(2),
                                            acc_cd=rng.getrandbits(1),
                                            vdst=2 * rng.getrandbits(6),
                                            src0=vg(2 * rng.getrandbits(6)),
                                            src1=vg(2 * rng.getrandbits(6)),
                                            src2=vg(2 * rng.getrandbits(6)))))
        for abid in range(16):
            words.append(build(en, dict(op=opc, vdst=4, src0=vg(8), src1=vg(16),
                                        src2=vg(32), abid=abid)))
        for src2 in (128, 129, 192, 193, 240, 242, 247, 248):
            words.append(build(en, dict(op=opc, vdst=4, src0=vg(8), src1=vg(16),
                                        src2=src2, acc_cd=rng.getrandbits(1))))
    ld = dict(op=0x2c, vdst=0, src0=vg(20), src1=vg(40), src2=0, opsel_hi=3, opsel_hi2=1)
    words.append(build(en, ld))
    for name, (lo, w, kind) in en["fields"].items():
        if kind == "op":
            continue
        for bit in range(w):
            words.append(build(en, dict(ld, **{name: ld.get(name, 0) ^ (1 << bit)})))
    for src in list(range(0, 128, 7)) + [102, 104, 106, 124, 125, 126, 127, 128, 136,
                                          192, 193, 208, 235, 240, 248, 251, 252, 253,
                                          254, 255, 511]:
        words.append(build(en, dict(ld, src0=src)))
        words.append(build(en, dict(ld, src1=src, opsel_hi=rng.getrandbits(2))))
    # scaled pairs (v_mfma_scale_*): ld_scale with random modifier bits, then the MFMA
    # with abid 1, every format pair; random pairs (also abid other than 1, another op)
    for opc in (0x2d, 0x2e):
        for cbsz in range(8):
            for blgp in range(8):
                first = build(en, dict(ld, src0=vg(rng.getrandbits(8)),
                                       src1=vg(rng.getrandbits(8)), vdst=rng.getrandbits(8),
                                       opsel=rng.getrandbits(3), opsel_hi=rng.getrandbits(2),
                                       opsel_hi2=rng.getrandbits(1), clamp=rng.getrandbits(1),
                                       neg=rng.getrandbits(3), neg_hi=rng.getrandbits(3)))
                words.append(first + build(en, dict(
                    op=opc, vdst=2 * rng.getrandbits(6), src0=vg(2 * rng.getrandbits(6)),
                    src1=vg(2 * rng.getrandbits(6)), src2=vg(2 * rng.getrandbits(6)),
                    cbsz=cbsz, blgp=blgp, abid=1, acc=rng.getrandbits(2),
                    acc_cd=rng.getrandbits(1))))
    for _ in range(160):
        first = rand_fields(rng, en)
        first.update(op=0x2c)
        second = rand_fields(rng, en)
        second.update(op=rng.choice([0x2d, 0x2e, 0x2d, 0x2e, 0x35]),
                      abid=rng.choice([1, 1, 1, 0, 3, 9]))
        if rng.random() < 0.7:
            first.update(src0=vg(rng.getrandbits(8)), src1=vg(rng.getrandbits(8)))
            second.update(src0=vg(2 * rng.getrandbits(6)), src1=vg(2 * rng.getrandbits(6)),
                          src2=vg(2 * rng.getrandbits(6)), vdst=2 * rng.getrandbits(6))
        words.append(build(en, first) + build(en, second))
    for _ in range(96):
        v = rand_fields(rng, en)
        v.update(op=0x2c)
        if rng.random() < 0.75:
            v.update(vdst=0, clamp=0, opsel=v["opsel"] & 3, neg=v["neg"] & 3,
                     neg_hi=v["neg_hi"] & 3)
        words.append(build(en, v))

def mubuf_words(rng, text, encs):
    """gfx8-gfx10 MUBUF: plain_words, plus per opcode the clean probe with each flag or
    reserved bit set alone, lds with bit 55 (tfe/acc), and offen with idxen (the rules
    of `Decoder::mubuf_fields_valid`)."""
    en = encs["MUBUF"]
    words = plain_words(rng, text, encs, ["MUBUF"])
    lo, w, _ = en["fields"]["op"]
    vals, _ = sweep.probes("MUBUF")
    for opc in opcodes(text, "MUBUF"):
        key = dict(op=opc & ((1 << w) - 1))
        if "opm" in en["fields"]:
            key["opm"] = opc >> w
        base = build(en, dict(vals, **key))
        for bits in ([12], [13], [14], [15], [16], [17], [25], [53], [54], [55],
                     [16, 55], [12, 13], [16, 14], [16, 12]):
            ws = list(base)
            for b in bits:
                if b == 25 and "opm" in en["fields"]:
                    continue
                ws[b // 32] |= 1 << (b % 32)
            words.append(ws)
        # loads to LDS (and buffer_store_lds_dword, which needs lds and no address)
        words.append(build(en, dict(vals, **key, lds=1, offen=0, idxen=0, tfe=0)))
        for i in range(6):
            v = rand_fields(rng, en)
            v.update(key, lds=1, tfe=0)
            if i < 3:
                v.update(offen=0, idxen=0)
            words.append(build(en, v))
    return words


def gs_words(rng, text, encs):
    """gfx9 global_*/scratch_* (FLAT segments 2 and 1): a clean probe per opcode, random
    words whose flags (lds/sve, glc, slc, sc1, acc) are random and whose registers are
    small (odd or even: the gfx90a/gfx940+ tuple alignment), with a scalar base that is
    often one of the edge values (off, exec, m0, vcc_hi, flat_scratch_hi, odd SGPRs);
    plus flat_* (segment 0) words with small odd or even registers."""
    en = encs["FLAT"]
    words = []
    edge = [0x7F, 0x7F, 0x7F, 126, 124, 125, 107, 106, 105, 104, 103, 102, 1, 3, 108, 123]
    for opc in opcodes(text, "FLAT"):
        seg, op = opc >> 7, opc & 0x7F
        vals, _ = sweep.probes("FLAT")
        if seg == 0:
            for i in range(4):
                v = rand_fields(rng, en)
                v.update(op=op, seg=0, saddr=0, lds=0, sc1=rng.getrandbits(1),
                         nv=rng.getrandbits(1), glc=rng.getrandbits(1))
                for f in ("addr", "data", "vdst"):
                    v[f] = rng.getrandbits(4)
                words.append(build(en, v))
            continue
        words.append(build(en, dict(vals, op=op, seg=seg)))
        for i in range(16):
            v = rand_fields(rng, en)
            v.update(op=op, seg=seg)
            if i < 12:
                for f in ("addr", "data", "vdst"):
                    v[f] = rng.getrandbits(4)
            if i % 2 == 0:
                v["saddr"] = rng.choice(edge)
            words.append(build(en, v))
    return words


WIDE = {"f64", "b64", "i64", "u64", "b96", "b128", "b160", "b192", "b256", "b512"}


def wide_ops(text, encnames):
    """(encoding, opcode) of every op line with an operand of 64 bits or more."""
    out = []
    for line in text.splitlines():
        if not line.startswith("op "):
            continue
        t = line.split()
        if not any(x.split(":")[1] in WIDE for x in t[3:] if ":" in x and not x.startswith("@")):
            continue
        for e in t[2].split(","):
            enc, opc = e.split("@")[0].split("=")
            if enc in encnames:
                out.append((enc, int(opc, 16)))
    return sorted(set(out))


def align_words(rng, text, encs):
    """Ops with 64-bit or wider operands (VOP1/VOP2/VOPC/VOP3/VOP3P, their DPP16/DPP8
    forms and the VOP3 DPP word): every register field in turn an odd VGPR (gfx1250
    prints an `..._Align2` mark), v255, an odd SGPR, the odd halves vcc_hi/m0/exec_hi/
    src_flat_scratch_base_hi, null, an inline constant, a literal; plus random words."""
    words = []
    clean = dict(vdst=2, src0=256 + 4, src1=256 + 6, src2=256 + 8, dpp_ctrl=0xE4,
                 row_mask=0xF, bank_mask=0xF, dpp8=0xFAC688)
    scalar = [5, 107, 124, 125, 127, 231, 230, 240, 255]
    for encname, opc in wide_ops(text, ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P")):
        if encname in ("VOP1", "VOP2", "VOPC"):
            forms = [(encname, None), (encname + "_DPP", None), (encname + "_DPP8", None)]
        else:
            forms = [(encname, None), (encname, 0xFA), (encname, 0xE9)]
        for fname, dppsrc in forms:
            en = encs.get(fname)
            if en is None:
                continue
            fields = en["fields"]

            def word(v):
                ws = build(en, v)
                if dppsrc == 0xFA:
                    ws.append(0xFF0000E4 | v.get("dppv", 4))
                elif dppsrc == 0xE9:
                    ws.append(0xFAC688 << 8 | v.get("dppv", 4))
                elif any(fields.get(f, (0, 0, ""))[2] == "src9" and v.get(f) == 255
                         for f in ("src0", "src1", "src2")):
                    ws.append(0x40490FDB)
                return ws

            base = dict(clean, op=opc)
            if dppsrc is not None:
                base["src0"] = dppsrc
            regs = [f for f, (lo, w, k) in fields.items()
                    if k in ("vgpr", "src9") and not (dppsrc is not None and f == "src0")]
            words.append(word(base))
            if dppsrc is not None:
                words.append(word(dict(base, dppv=5)))
            # (LLVM has no DPP form of these ops: a few words are enough there)
            dpp = dppsrc is not None or "_DPP" in fname
            for f in regs:
                vals = [5, 255] if fields[f][2] == "vgpr" else [256 + 5, 256 + 255] + scalar
                for v in vals[:1] if dpp else vals:
                    words.append(word(dict(base, **{f: v})))
            for _ in range(1 if dpp else RANDOM_PER_OPCODE):
                v = rand_fields(rng, en, skip=("fi",) if "dpp8" in fields else ())
                v.update(op=opc)
                if dppsrc is not None:
                    v["src0"] = dppsrc
                    v["dppv"] = rng.getrandbits(8)
                for f in regs:
                    if rng.random() < 0.6:
                        v[f] = (256 if fields[f][2] == "src9" else 0) + rng.getrandbits(5)
                if "dpp_ctrl" in v:
                    v["dpp_ctrl"] = rng.choice(DPP_CTRLS)
                words.append(word(v))
    return words


def lanesrc_words(rng, text, encs):
    """Ops with `rule op ... srcN=CLASSES` facts (VGPR-only or scalar-only sources:
    v_readlane/writelane, v_permlane*, v_readfirstlane, v_movrel*, v_swap*...): each such
    source in turn a set of codes (SGPRs, specials, constants, src_*, literal, VGPRs),
    plus random words (modifier bits included)."""
    words = []
    names = set()
    for line in text.splitlines():
        t = line.split()
        if line.startswith("rule op ") and t[3] in ("VOP1", "VOP3") and "=" in t[4] \
                and t[4].split("=")[0].startswith("src"):
            names.add((t[2], t[3]))
    codes = [4, 5, 106, 124, 125, 126, 128, 193, 230, 231, 235, 240, 251, 254, 255,
             256 + 2, 256 + 255]
    for name, encname in sorted(names):
        en = encs[encname]
        for opc in opcodes(text, encname, names={name}):
            base = dict(op=opc, vdst=1, sdst8=3, src0=256 + 2, src1=4, src2=6)
            fields = [f for f in ("src0", "src1", "src2") if f in en["fields"]]
            for f in fields:
                for c in codes:
                    ws = build(en, dict(base, **{f: c}))
                    words.append(ws + ([0x12345678] if c == 255 else []))
            for _ in range(8):
                v = rand_fields(rng, en)
                v.update(op=opc)
                words.append(build(en, v))
    return words


# words LLVM shows with an Invalid-register comment count as rejected for these
# families (none now: round invcomments made hsaco print gfx9 FLAT's marks)
INVALID_AS_REJECTED = set()

# families whose vectors keep LLVM's `/*Invalid register ...*/` texts (hsaco prints them)
KEEP_MARKS = {"mubuf", "gs", "flat", "vinterpsrc", "align", "lanesrc", "vop3p9"}
# families whose marked words are vectors only with an Align2 mark (round vop3p9: hsaco
# rejects the scalar-source words LLVM marks `Invalid`, as random_diff counts them)
ALIGN2_MARKS_ONLY = {"vop3p9"}

# processors a family is generated for (default: all of the generation); gfx9 flat_*
# is described for gfx900-gfx90a only so far
FAMILY_PROCS = {}

def vop3p9_words(rng, text, encs):
    """gfx9 VOP3P and MAI (round vop3p9): per opcode a clean probe, each single bit of
    the modifier fields (8-15, 59-63) flipped, each source set to a sample of scalar codes,
    and each register operand at an odd register (VGPRs, then AGPRs)."""
    words = []
    for encname in ("VOP3P", "MAI"):
        en = encs[encname]
        for opc in opcodes(text, encname):
            if opc == 0x2c or encname == "VOP3P" and opc >= 0x40:
                continue  # (v_mfma_ld_scale_b32: family mai950)
            base = 0xd3800000 | (opc & 0x7f) << 16 | 32
            w1 = 0x100 | 0x140 << 9 | 0x180 << 18
            if encname == "VOP3P" and opc < 0x2c:
                clean = (base | 0x4000, w1 | 3 << 27)
            else:
                clean = (base, w1)
            words.append(list(clean))
            for b in list(range(8, 16)):
                words.append([clean[0] ^ (1 << b), clean[1]])
            for b in range(27, 32):
                words.append([clean[0], clean[1] ^ (1 << b)])
            for i, sh in enumerate((0, 9, 18)):
                for code in (0, 7, 102, 103, 106, 124, 125, 126, 128, 136, 193, 230, 231,
                             235, 240, 251, 254):
                    words.append([clean[0], clean[1] & ~(0x1ff << sh) | code << sh])
                words.append([clean[0], clean[1] + (1 << sh)])
            words.append([clean[0] + 1, clean[1]])
            words.append([clean[0] | 0x8000 | 1, clean[1] | 3 << 27 | 0x41 | 1 << 9 | 1 << 18])
            rand = rand_fields(rng, en)
            words.append(build(en, dict(rand, **key(opc))))
    return words


def key(opc):
    return dict(op=opc & 0x7f)


FAMILIES = {
    "flat": flat_words,
    "mai950": mai950_words,
    "vop3p9": vop3p9_words,
    "gs": gs_words,
    "dpp": dpp_words,
    "vop3dpp": vop3dpp_words,
    "dppsrc": dppsrc_words,
    "align": align_words,
    "lanesrc": lanesrc_words,
    "vinterpsrc": vinterpsrc_words,
    "mtbuf": lambda r, t, e: plain_words(r, t, e, ["MTBUF"]),
    "mubuf": mubuf_words,
    "exp": exp_words,
    "vinterp": lambda r, t, e: plain_words(r, t, e, ["VINTERP", "VINTRP"]),
    "ldsdir": lambda r, t, e: plain_words(r, t, e, ["LDSDIR"]),
    "wmma": wmma_words,
    # scalar ops only some processors of the generation have (gfx11.5 SALU float)
    "added": added_words,
    "salu": lambda r, t, e: plain_words(r, t, e, ["SOP1", "SOP2", "SOPC", "SOPK"],
                                        restricted=True),
}


def main():
    global GEN
    gen, family = sys.argv[1], sys.argv[2]
    GEN = gen
    sweep.set_generation(gen)
    text = open(os.path.join(DEFS, gen + ".txt")).read()
    procs, encs = parse_defs(text)
    rng = random.Random(7)
    words = []
    seen = set()
    for ws in FAMILIES[family](rng, text, encs):
        if tuple(ws) not in seen:
            seen.add(tuple(ws))
            words.append(ws)
    per = OrderedDict()
    bad = OrderedDict()
    for proc in FAMILY_PROCS.get(family, procs):
        for ws, r in zip(words, disassemble(words, proc)):
            if not r or (family in INVALID_AS_REJECTED and "Invalid register" in r[0]
                          and r[1] == 4 * len(ws)):
                bad.setdefault(tuple(ws), []).append(proc)
                continue
            if family in ALIGN2_MARKS_ONLY and "Invalid" in r[0] and "_Align2" not in r[0]:
                continue  # (neither a vector nor a rejected word)
            if r[1] != 4 * len(ws) or ("/*" in r[0] and not ("VGPR_32_Lo128" in r[0] or "dpp_ctrl" in r[0]
                                                  or family in KEEP_MARKS)):
                continue  # decoded as something shorter (another encoding)
            per.setdefault((tuple(ws), r[0]), []).append(proc)
    hexw = lambda ws: " ".join("%08x" % w for w in ws)  # noqa: E731
    head = "# generated by scripts/enc_vectors.py %s %s from llvm-mc-22 --disassemble; do not edit" % (gen, family)
    out = [head, "# hex words | llvm text | processors"]
    for (ws, txt), ps in per.items():
        out.append("%s | %s | %s" % (hexw(ws), txt, ",".join(ps)))
    inv = [head.replace("from llvm-mc-22", "(words llvm-mc-22 rejects) from llvm-mc-22"),
           "# hex words | processors"]
    for ws, ps in bad.items():
        inv.append("%s | %s" % (hexw(ws), ",".join(ps)))
    base = os.path.join(HERE, "..", "tests", "data", "%s.%s" % (gen, family))
    open(base + ".txt", "w").write("\n".join(out) + "\n")
    open(base + ".invalid", "w").write("\n".join(inv) + "\n")
    print("%s %s: %d vectors, %d rejected words" % (gen, family, len(out) - 2, len(inv) - 2))


if __name__ == "__main__":
    main()
