#!/usr/bin/env python3
"""Printing/decoding quirks of single operations, as op flags of defs/<gen>.txt.

    python3 scripts/quirks.py [gfxN ...] [--check]

rewrites the quirk flags (`!bvh`, `!mix`, ... : QUIRKS below) of the op lines of
defs/<gen>.txt (all seven generations by default) from the rule table RULES; `--check` fails
if a file differs. scripts/sweep.py and scripts/sweep_asm.py call `annotate` on every op
line they write, so a sweep keeps the flags.

Each rule is one behaviour of llvm-mc-22/llvm-objdump-22 (observed as a black box, with the
vectors of tests/data) that belongs to a few operations rather than to an encoding; the
decoder and printer test the flag (crates/hsaco-isa/src/desc.rs, `flags`), never the
mnemonic. The flags are documented there; the generator's name map is in
xtask/src/codegen.rs (`flag`).
"""

import os
import re
import sys

DEFS = os.path.join(os.path.dirname(__file__), "..", "defs")
GENS = ["gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx11", "gfx12"]
ALL = range(6, 13)
RDNA = range(10, 13)

# vector memory operations that take a cache policy (th, scope; gfx12 has no scalar
# stores or atomics)
MEM = r"(?:buffer|tbuffer|global|flat|scratch|image|cluster)_"

# (mnemonic regex (full match), generations, flag, what LLVM does).
RULES = [
    (r"ds_read_b96_tr_b6|ds_load_tr6_b96", ALL, "anyalign",
     "96-bit transposing loads take a tuple of any alignment: no Align2 comment"),
    (r"v_cndmask_b32", [12], "abslate",
     "gfx12 DPP16: the abs of src1 closes after vcc_lo (`|v1, vcc_lo|`)"),
    (r"v_(fma|mad)_mix\w*", ALL, "mix",
     "neg_lo/neg_hi print as -/|..|; op_sel_hi printed when set"),
    (r"v_fma_mix(?!\w*bf16$)\w*", RDNA, "litf16",
     "RDNA: a literal source prints as f16 (its low half) whatever op_sel_hi says"),
    (r"v_fmac_\w+", [11, 12], "dppraw1",
     "VOP3 DPP form: an inline constant src1 prints as its raw code (`0xf2`)"),
    (r"v_fma_mix(lo|hi)_(f16|bf16)|v_cvt_pk_fp8_f32", [11, 12], "dppsrc",
     "VOP3 DPP16 form: a control below 0x100 is read like a source code (0x80-0xc0 minus "
     "0x80, 0xc1-0xd0/0xf0-0xf8 invalid comment, 0xff rejected)"),
    (r"v_bitop3_\w+", ALL, "bitop3",
     "neg/abs/omod hold the truth table, printed ` bitop3:N`"),
    (r"v_permlanex?16_b32", ALL, "fibound",
     "op_sel bits are fi and bound_ctrl: a two-entry op_sel, no destination entry"),
    (r"s_atc_probe\w*|s_dcache_discard\w*", ALL, "nocache",
     "SMEM: no glc/dlc/th/scope printed"),
    (r"v_cvt_sr_(fp8|bf8)_f32", [9], "opsel3",
     "gfx942/gfx950: op_sel lists a third source (the tied destination's byte select)"),
    (r"v_accvgpr_(read|write)_b32", ALL, "nomaimods",
     "MAI form without cbsz/abid/blgp"),
    (r"ds_swizzle_b32", ALL, "swizzle", "offset printed as swizzle(...)"),
    (r"image_bvh\w*", ALL, "bvh",
     "no dmask/dim/unorm/r128 printed; grouped NSA addresses; fixed modifiers checked"),
    (r"image_bvh8_intersect_ray|image_bvh_dual_intersect_ray", ALL, "bvh8",
     "gfx12: addresses grouped 2, 2, 3, 3, offsets"),
    (r"v_dual_fmamk_f32", ALL, "sharedk",
     "X half: a Y literal source equal to an inline constant prints as it, without lit()"),
    (r"v_dual_dot2acc_f32_f16", ALL, "pkf16", "sources are packed f16 pairs"),
    (r"v_dual_dot2acc_f32_bf16", ALL, "pkbf16", "sources are packed bf16 pairs"),
    (MEM + r"\w*atomic\w*", ALL, "atomic",
     "gfx12 th prints TH_ATOMIC_* names; gfx1250 FLAT exec base: no register-class "
     "comment; image data widths 1-3"),
    (MEM + r"\w*store\w*|tensor_save", [12], "store", "th prints TH_STORE_* names"),
    (MEM + r"(?:\w*_)?load\w*", ALL, "load", "gfx6-gfx9 tfe: a status dword follows the data"),
    (r"(global|scratch)_load_(ubyte|sbyte|ushort|sshort|dword)", [9, 10], "ldsdma",
     "gfx9/gfx10 FLAT: the lds bit (load to LDS) is valid"),
    (r"v_cndmask_\w+", ALL, "lanemask",
     "src2 is a lane mask: no float modifiers or op_sel bit; a pair in wave64"),
    (r"v_dot2_f16_f16|v_dot2_bf16_bf16", ALL, "pknosel",
     "src0/src1 are packed pairs without op_sel bits (printed 0, ignored)"),
    (r"v_wmma\w*|v_swmmac\w*", ALL, "matrix",
     "wave64: matrix operands hold half the registers (gfx11: C and D only)"),
    (r"\w*_load_tr\w*", ALL, "loadtr", "wave64: the transposed data holds half the registers"),
    (r"v_accvgpr_(write|mov)_b32", ALL, "accd", "vdst is an AGPR"),
    (r"v_accvgpr_(read|mov)_b32", ALL, "acc0", "src0 is an AGPR"),
    (r"v_mfma(?!_ld_scale)\w*", ALL, "accc", "src2 (C) is in AGPRs as vdst is (gfx908, acc_cd)"),
    (MEM + r"\w*cmpswap\w*", ALL, "cmpswap",
     "data is compare and swap values: returns half of it; image data widths 2-5"),
    (r"image_gather4\w*", ALL, "gather4", "image data widths 2 (d16), 4, 5 (tfe)"),
    (r"image_gather4\w*", ALL, "rgba", "four components whatever dmask says"),
    (r"image_msaa_load", [11, 12], "rgba", "gfx11+: four components whatever dmask says"),
]

QUIRKS = {flag for _, _, flag, _ in RULES}

_compiled = [(re.compile("(?:" + rx + r")$"), set(gens), f, s) for rx, gens, f, s in RULES]


def flags_for(gen, mnemonic):
    """The quirk flags of mnemonic in generation gen ("gfx9")."""
    n = int(gen[3:])
    return sorted({f for rx, gens, f, _ in _compiled if n in gens and rx.match(mnemonic)})


def annotate(gen, line):
    """The op line with its quirk flags set from RULES (after its other `!` flags)."""
    if not line.startswith("op "):
        return line
    toks = [t for t in line.split() if not (t.startswith("!") and t[1:] in QUIRKS)]
    add = ["!" + f for f in flags_for(gen, toks[1])]
    if not add:
        return " ".join(toks)
    # before the processor list and the implicit registers, as sweep.py orders them
    at = next((i for i, t in enumerate(toks) if i >= 3 and
               t.startswith(("@", "reads=", "writes="))), len(toks))
    return " ".join(toks[:at] + add + toks[at:])


def main():
    check = "--check" in sys.argv
    gens = [a for a in sys.argv[1:] if not a.startswith("--")] or GENS
    bad = []
    for gen in gens:
        path = os.path.join(DEFS, gen + ".txt")
        text = open(path).read()
        new = "\n".join(annotate(gen, ln) for ln in text.split("\n"))
        ops = [ln for ln in new.split("\n") if ln.startswith("op ")]
        n = sum(1 for ln in ops if any(t[1:] in QUIRKS for t in ln.split() if t[0] == "!"))
        print("%s: %d op lines, %d with a quirk flag" % (gen, len(ops), n))
        if check:
            if new != text:
                bad.append(gen)
        elif new != text:
            open(path, "w").write(new)
    if bad:
        sys.exit("quirk flags differ in %s; run scripts/quirks.py" % " ".join(bad))


if __name__ == "__main__":
    main()
