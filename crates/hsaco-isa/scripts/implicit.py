#!/usr/bin/env python3
"""Implicit register reads and writes (scc, vcc, exec, m0) of every op line.

    python3 scripts/implicit.py [gfxN ...] [--check]

rewrites the `reads=`/`writes=` tokens of the op lines of defs/<gen>.txt (all seven
generations by default) from the rule table RULES below; `--check` fails if a file differs.
scripts/sweep.py and scripts/sweep_asm.py call `annotate` on every op line they write, so a
sweep keeps the tokens.

Meaning (DESIGN.md, "Implicit registers"): a register is listed when the instruction reads
or writes it *beyond its printed operands* (a `vcc` printed as an operand, fixed or as the
`sdst|vcc` alternative, is an operand and is not listed), and independently of modifier
bits and operand values. EXEC as the lane mask of vector instructions is not listed per op:
`Decoder::implicit` adds it for every vector encoding; `reads=unmasked` marks the ops that
ignore that rule (v_readlane/v_writelane). Field- and operand-dependent reads (MUBUF `lds`,
DS `gds`, `src_lds_direct`) are also added by `Decoder::implicit`, not here.

Facts come from the AMD ISA reference manuals (pseudo-code of each instruction; section
names in the comments: SI/CI = "Southern Islands"/"Sea Islands" ISA, GCN3 = gfx8, Vega =
gfx9, RDNA1/2 = gfx10, RDNA3 = gfx11, RDNA4 = gfx12). No LLVM source or table is used.
"""

import os
import re
import sys

DEFS = os.path.join(os.path.dirname(__file__), "..", "defs")
GENS = ["gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx11", "gfx12"]
ALL = range(6, 13)

# (mnemonic regex (full match), generations, reads, writes, source).
# A later rule adds to an earlier one.
RULES = [
    # --- SCC written by SALU arithmetic/logic (manuals: "SCC = ..." line of each op) ---
    # s_add_u32: SCC = carry out; s_sub_u32: borrow; s_add_i32/s_sub_i32: overflow.
    (r"s_(add|sub)_(u32|i32)|s_(add|sub)_co_(u32|i32)", ALL, "", "scc", "SOP2 S_ADD_U32 etc."),
    # s_addc_u32 = S0 + S1 + SCC, SCC = carry; gfx12 spells it s_add_co_ci_u32.
    (r"s_addc_u32|s_subb_u32|s_(add|sub)_co_ci_u32", ALL, "scc", "scc", "SOP2 S_ADDC_U32"),
    (r"s_(min|max)_[iu]32", ALL, "", "scc", "SOP2 S_MIN_I32: SCC = S0 < S1"),
    (r"s_cselect_b(32|64)", ALL, "scc", "", "SOP2 S_CSELECT_B32: D = SCC ? S0 : S1"),
    (r"s_(and|or|xor|andn2|orn2|nand|nor|xnor|and_not1|or_not1)_b(32|64)", ALL, "", "scc",
     "SOP2 S_AND_B32: SCC = D != 0"),
    (r"s_(lshl|lshr|ashr)_[bi](32|64)", ALL, "", "scc", "SOP2 S_LSHL_B32: SCC = D != 0"),
    (r"s_bfe_[iu](32|64)", ALL, "", "scc", "SOP2 S_BFE_U32: SCC = D != 0"),
    (r"s_absdiff_i32", ALL, "", "scc", "SOP2 S_ABSDIFF_I32: SCC = D != 0"),
    (r"s_lshl[1-4]_add_u32", ALL, "", "scc", "Vega SOP2 S_LSHL1_ADD_U32: SCC = overflow"),
    # SOP1
    (r"s_not_b(32|64)|s_wqm_b(32|64)|s_quadmask_b(32|64)|s_bcnt[01]_i32_b(32|64)|s_abs_i32",
     ALL, "", "scc", "SOP1 S_NOT_B32 / S_WQM / S_BCNT1: SCC = D != 0"),
    (r"s_cmov_b(32|64)", ALL, "scc", "", "SOP1 S_CMOV_B32: if SCC then D = S0"),
    # saveexec: D = EXEC; EXEC = S0 op EXEC; SCC = EXEC != 0. wrexec (gfx10+): EXEC = ...;
    # D = EXEC; SCC = EXEC != 0.
    (r"s_\w+_(saveexec|wrexec)_b(32|64)", ALL, "exec", "exec,scc",
     "SOP1 S_AND_SAVEEXEC_B64 / S_ANDN2_WREXEC_B64"),
    (r"s_movrel(s|d|sd_2)_b(32|64)", ALL, "m0", "", "SOP1 S_MOVRELS_B32: SGPR[S0 + M0]"),
    (r"s_cbranch_join", ALL, "", "exec", "SI/GCN3 SOP1 S_CBRANCH_JOIN: EXEC = SGPR[CSP]"),
    (r"s_set_gpr_idx_idx", ALL, "m0", "m0", "Vega SOP1 S_SET_GPR_IDX_IDX: M0[7:0] = S0[7:0]"),
    (r"s_barrier_signal_isfirst", ALL, "", "scc", "RDNA4 S_BARRIER_SIGNAL_ISFIRST: SCC = first"),
    (r"s_alloc_vgpr", ALL, "", "scc", "gfx1250 S_ALLOC_VGPR: SCC = allocation succeeded"),
    (r"s_cbranch_g_fork", ALL, "exec", "exec", "SI/GCN3 SOP2 S_CBRANCH_G_FORK: EXEC split"),
    # SOPC: every compare and bit test writes SCC.
    (r"s_cmp_\w+|s_bitcmp[01]_b(32|64)", ALL, "", "scc", "SOPC S_CMP_EQ_I32: SCC = S0 == S1"),
    (r"s_set_gpr_idx_on", ALL, "m0", "m0",
     "Vega SOPC S_SET_GPR_IDX_ON: M0[7:0] = S0[7:0]; M0[15:12] = SIMM4"),
    # SOPK
    (r"s_cmpk_\w+", ALL, "", "scc", "SOPK S_CMPK_EQ_I32: SCC = S0 == SIMM16"),
    (r"s_addk_(co_)?i32", ALL, "", "scc", "SOPK S_ADDK_I32: SCC = overflow"),
    (r"s_cmovk_i32", ALL, "scc", "", "SOPK S_CMOVK_I32: if SCC then D = SIMM16"),
    (r"s_cbranch_i_fork", ALL, "exec", "exec", "SI/GCN3 SOPK S_CBRANCH_I_FORK: EXEC split"),
    # SOPP
    (r"s_cbranch_scc[01]", ALL, "scc", "", "SOPP S_CBRANCH_SCC0: if SCC == 0 then jump"),
    (r"s_cbranch_vccn?z", ALL, "vcc", "", "SOPP S_CBRANCH_VCCZ: if VCCZ (VCC == 0) jump"),
    (r"s_cbranch_execn?z", ALL, "exec", "", "SOPP S_CBRANCH_EXECZ: if EXECZ jump"),
    (r"s_sendmsg|s_sendmsghalt", ALL, "m0", "", "SOPP S_SENDMSG: M0 carries message data"),
    (r"s_ttracedata", ALL, "m0", "", "SOPP S_TTRACEDATA: send M0 as user data"),
    (r"s_set_gpr_idx_mode", ALL, "m0", "m0", "Vega SOPP S_SET_GPR_IDX_MODE: M0[15:12] = SIMM4"),
    # --- VALU ---
    # gfx6-gfx9 v_cmpx: EXEC = VCC/SDST = result; gfx10+: EXEC = result only (no sdst).
    (r"v_cmpx_\w+|v_cmpsx_\w+", ALL, "", "exec", "VOPC V_CMPX_*: EXEC = result"),
    (r"v_div_fmas_f(32|64)", ALL, "vcc", "", "VOP3 V_DIV_FMAS_F32: if VCC[lane] scale"),
    (r"v_movrel(s|d|sd|sd_2)_b32", ALL, "m0", "", "VOP1 V_MOVRELS_B32: VGPR[src0 + M0]"),
    # VINTRP (gfx6-gfx10) and the VOP3 16-bit interpolation of gfx8-gfx10 read the
    # parameter from LDS at M0 (M0 = LDS base / primitive mask). gfx11+ VINTERP ops take
    # the parameter from a VGPR (lds_param_load) and read no M0.
    (r"v_interp_(p1|p2|mov)_f32(_e32)?|v_interp_p1l[lv]_f16|v_interp_p2(_legacy)?_f16",
     range(6, 11), "m0", "", "VINTRP V_INTERP_P1_F32: LDS[M0 + attr]"),
    (r"lds_param_load|lds_direct_load|ds_param_load|ds_direct_load", range(11, 13), "m0", "",
     "RDNA3 LDSDIR LDS_PARAM_LOAD: M0 = LDS base / prim mask"),
    # lane access ignores EXEC (readfirstlane does read it: the first active lane).
    (r"v_readlane_b32|v_writelane_b32", ALL, "unmasked", "",
     "VOP3 V_READLANE_B32: lane select ignores EXEC"),
    # --- LDS / GDS ---
    (r"ds_\w+", range(6, 9), "m0", "", "SI/GCN3 DS: M0 = LDS size clamp"),
    (r"ds_gws_\w+|ds_ordered_count|ds_append|ds_consume", ALL, "m0", "",
     "DS_GWS_INIT: M0[21:16] resource base; DS_APPEND: M0 base"),
    (r"ds_(read|write|load|store)_addtid_b32", ALL, "m0", "",
     "Vega DS_READ_ADDTID_B32: addr = M0.base + TID*4"),
    (r"(global|scratch)_load_lds_\w+", ALL, "m0", "", "gfx940 GLOBAL_LOAD_LDS_DWORD: LDS at M0"),
]

_compiled = [(re.compile("(?:" + rx + r")$"), set(gens), r, w, s) for rx, gens, r, w, s in RULES]


def rules_for(gen, mnemonic, operands):
    """(reads, writes, sources) of an op line of generation gen ("gfx9")."""
    n = int(gen[3:])
    reads, writes, src = set(), set(), []
    for rx, gens, r, w, s in _compiled:
        if n in gens and rx.match(mnemonic):
            reads |= {x for x in r.split(",") if x}
            writes |= {x for x in w.split(",") if x}
            src.append(s)
    # VOPD v_dual_cndmask_b32 has no third source: it selects with VCC (RDNA3 VOPD table);
    # the VOPD3 form of gfx1250 names its mask (ssrc2), so that one reads no VCC.
    if mnemonic == "v_dual_cndmask_b32" and not any(
            o.split(":")[0].startswith(("src2", "ssrc2")) for o in operands):
        reads.add("vcc")
        src.append("RDNA3 VOPD V_DUAL_CNDMASK_B32: VCC selects")
    printed = set()
    for o in operands:
        for alt in o.split(":")[0].split("|"):
            if alt in ("scc", "vcc", "exec", "m0"):
                printed.add(alt)
    return reads - printed, writes - printed, src


ORDER = ["scc", "vcc", "exec", "m0", "unmasked"]


def annotate(gen, line):
    """The op line with its reads=/writes= tokens set from RULES."""
    if not line.startswith("op "):
        return line
    toks = [t for t in line.split() if not t.startswith(("reads=", "writes="))]
    operands = [t for t in toks[3:] if not t.startswith(("!", "@")) and t != "-"]
    reads, writes, _ = rules_for(gen, toks[1], operands)
    if reads:
        toks.append("reads=" + ",".join(r for r in ORDER if r in reads))
    if writes:
        toks.append("writes=" + ",".join(w for w in ORDER if w in writes))
    return " ".join(toks)


def main():
    check = "--check" in sys.argv
    gens = [a for a in sys.argv[1:] if not a.startswith("--")] or GENS
    bad = []
    for gen in gens:
        path = os.path.join(DEFS, gen + ".txt")
        text = open(path).read()
        lines = text.split("\n")
        new = "\n".join(annotate(gen, ln) for ln in lines)
        ops = [ln for ln in new.split("\n") if ln.startswith("op ")]
        nr = sum(1 for ln in ops if " reads=" in ln)
        nw = sum(1 for ln in ops if " writes=" in ln)
        both = sum(1 for ln in ops if " reads=" in ln or " writes=" in ln)
        print("%s: %d op lines, %d with reads=, %d with writes=, %d with either"
              % (gen, len(ops), nr, nw, both))
        if check:
            if new != text:
                bad.append(gen)
        elif new != text:
            open(path, "w").write(new)
    if bad:
        sys.exit("implicit registers differ in %s; run scripts/implicit.py" % " ".join(bad))


if __name__ == "__main__":
    main()
