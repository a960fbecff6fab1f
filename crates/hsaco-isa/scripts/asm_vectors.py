#!/usr/bin/env python3
"""Write tests/data/<gen>.asm.txt: vectors from assembly text, for instructions the
sweeps leave without a passing vector (operand-less ones, lane and permute ops, f64
compares in VOP3, ...). Each text is assembled by llvm-mc-22 -show-encoding and the
bytes disassembled again by llvm-mc-22 --disassemble (the vector's text is LLVM's
disassembly, not the input), on every listed processor.

gfx6 and gfx7, which LLVM 22 cannot disassemble, are learned from the assembler side:
the text is what -show-encoding prints when that text assembles back to the same bytes,
and otherwise the input text, which does (the round trip is what hsaco promises there:
LLVM prints the VOP3 form of v_nop as `v_nop`, which assembles to the VOP1 form).

    python3 crates/hsaco-isa/scripts/asm_vectors.py gfx9
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROCS = {
    "gfx6": ["tahiti"], "gfx7": ["bonaire"],
    "gfx8": ["gfx803"], "gfx9": ["gfx900", "gfx90a", "gfx942"],
    "gfx10": ["gfx1010", "gfx1030"], "gfx11": ["gfx1100"], "gfx12": ["gfx1201", "gfx1250"],
}
TEXTS = [
    "v_nop", "v_nop_e64", "v_illegal", "v_clrexcp", "v_clrexcp_e64", "v_pipeflush", "v_pipeflush_e64",
    "buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_gl0_inv", "buffer_gl1_inv",
    "buffer_invl2", "buffer_wbl2", "buffer_inv", "buffer_wbl2 sc1", "buffer_inv sc1",
    "v_readlane_b32 s5, v1, s2", "v_writelane_b32 v1, s5, s2",
    "v_readlane_b32 s5, v1, 7", "v_writelane_b32 v1, 3, s2",
    "v_permlane16_b32 v1, v2, s3, s4", "v_permlanex16_b32 v1, v2, s3, s4",
    "v_permlane16_b32 v1, v2, s3, s4 op_sel:[1,1]",
    "v_cmp_t_u32_e64 s[4:5], v1, v2", "v_cmpx_ne_u16_e64 s[4:5], v1, v2",
    "v_cmpx_nlt_f32_e64 s[4:5], v1, v2", "v_cmpx_tru_f32_e64 s[4:5], v1, v2",
    "v_sub_u16_e64 v1, v2, v3", "v_subrev_u16_e64 v1, v2, v3",
    "v_pk_add_u16 v1, v2, v3", "v_pk_add_u16 v1, v2, v3 op_sel:[1,0] clamp",
    "v_fma_mix_f32 v1, v2, v3, v4", "v_fma_mixlo_f16 v1, v2, v3, v4",
    "v_fma_mixhi_f16 v1, v2, v3, v4", "v_fma_mix_f32 v1, -v2, |v3|, v4 op_sel_hi:[1,1,1]",
    "v_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v4, v5",
] + ["v_cmp_%s_f64_e64 s[4:5], v[2:3], v[4:5]" % c
     for c in ("f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt")] + [
    "image_load v[1:4], v2, s[4:11] dmask:0xf", "image_store v[1:4], v2, s[4:11] dmask:0xf",
    "image_load_pck v1, v2, s[4:11] dmask:0x1", "image_load_mip_pck v1, v2, s[4:11] dmask:0x1",
    "image_load_mip_pck_sgn v1, v2, s[4:11] dmask:0x1",
    "image_store_pck v1, v2, s[4:11] dmask:0x1", "image_store_mip v[1:4], v2, s[4:11] dmask:0xf",
    "image_store_mip_pck v1, v2, s[4:11] dmask:0x1", "image_get_resinfo v[1:4], v2, s[4:11] dmask:0xf",
    # gfx12 / gfx1250
    # (not yet: v_cvt_pk_f16_bf8/fp8, which LLVM prints without _e32/_e64 on gfx1250,
    # and gfx12 tbuffer_* with format:[...]; see NOTES)
    "v_fmaak_f64 v[0:1], v[2:3], v[4:5], 0x3ff0000000000001",
    "v_fmamk_f64 v[0:1], v[2:3], 0x3ff0000000000001, v[4:5]",
    "v_permlane_bcast_b32 v1, v2, s3, s4", "v_permlane_down_b32 v1, v2, s3, s4",
    "v_permlane_up_b32 v1, v2, s3, s4", "v_permlane_xor_b32 v1, v2, s3, s4",
    "v_permlane_idx_gen_b32 v1, v2, s3",
] + ["v_s_%s s5, s2" % o for o in ("exp_f16", "exp_f32", "log_f16", "log_f32", "rcp_f16",
                                   "rcp_f32", "rsq_f16", "rsq_f32", "sqrt_f16", "sqrt_f32")] + ["image_atomic_%s v1, v2, s[4:11] dmask:0x1" % a
     for a in ("swap", "add", "sub", "smin", "umin", "smax", "umax", "and", "or", "xor",
               "inc", "dec")] + ["image_atomic_cmpswap v[1:2], v2, s[4:11] dmask:0x3"]


def run(args, text):
    return subprocess.run(args, input=text, capture_output=True, text=True)


def encode(proc, text):
    """The encoding llvm-mc-22 gives `text` on `proc`, as its `[0x..,...]` list, or None."""
    r = run(["llvm-mc-22", "-triple=amdgcn", "-mcpu=" + proc, "-show-encoding"], text + "\n")
    m = re.search(r"encoding: \[([^\]]*)\]", r.stdout)
    if r.returncode != 0 or not m or "error" in r.stderr:
        return None
    return m.group(1)


def roundtrip_text(proc, text, shown, encoding):
    """gfx6/gfx7: the text -show-encoding printed for `text` if it assembles to the same
    `encoding`, else `text` itself (which does, by construction)."""
    printed = shown.split(";")[0].strip()
    if printed and encode(proc, printed) == encoding:
        return printed
    return text


def main():
    gen = sys.argv[1]
    rows = {}
    for proc in PROCS[gen]:
        for t in TEXTS:
            r = run(["llvm-mc-22", "-triple=amdgcn", "-mcpu=" + proc, "-show-encoding"], t + "\n")
            m = re.search(r"encoding: \[([^\]]*)\]", r.stdout)
            if r.returncode != 0 or not m or "error" in r.stderr:
                continue
            data = m.group(1).replace(",", " ")
            if gen in ("gfx6", "gfx7"):
                text = roundtrip_text(proc, t, r.stdout, m.group(1))
                if text is None:
                    continue
                lines = [text]
            else:
                d = run(["llvm-mc-22", "--disassemble", "-triple=amdgcn", "-mcpu=" + proc],
                        data)
                lines = [l.strip() for l in d.stdout.splitlines()
                         if l.strip() and not l.strip().startswith(".text")]
                if "warning" in d.stderr or len(lines) != 1:
                    continue
            bs = [int(x, 16) for x in data.split()]
            words = " ".join("%08X" % int.from_bytes(bytes(bs[i:i + 4]), "little")
                             for i in range(0, len(bs), 4))
            rows.setdefault((words, lines[0]), []).append(proc)
    path = os.path.join(HERE, "..", "tests", "data", gen + ".asm.txt")
    how = ("-show-encoding, text that assembles back to the same bytes"
           if gen in ("gfx6", "gfx7") else "-show-encoding, then --disassemble")
    with open(path, "w") as f:
        f.write("# generated by scripts/asm_vectors.py %s: llvm-mc-22 %s; do not edit\n"
                % (gen, how))
        f.write("# hex words | text | processors\n")
        for (w, t), ps in rows.items():
            f.write("%s | %s | %s\n" % (w, t, ",".join(ps)))
    print(gen, len(rows), "vectors")


if __name__ == "__main__":
    main()
