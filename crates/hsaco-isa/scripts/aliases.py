"""Mnemonic aliases, learnt from llvm-mc-22 as a black box.

Input: tests/data/aliases/*.s, statements in sections headed `## <mcpu> <where from>`
(llvm-tests.s: the statements of LLVM's llvm/test/MC/AMDGPU/*alias*.s files; extra.s:
other alias spellings). Each statement is assembled alone with
`llvm-mc-22 -triple=amdgcn -mcpu=<mcpu> -show-encoding`; a statement llvm-mc rejects
is reported and left out.

Output (both committed):
* tests/data/aliases/encodings.txt: `mcpu | bytes | statement | llvm-mc's text`, the
  golden file `tests/aliases.rs` checks the encoder against (no LLVM needed);
* defs/aliases.list: `<generation> <alias> <canonical>` for every statement whose
  mnemonic (without an _e32/_e64/_dpp/_sdwa suffix) differs from the one llvm-mc prints
  (the canonical name keeps llvm-mc's suffix when the alias names one encoding only),
  and `<generation> hwreg:<name> hwreg:<canonical>` for a hwreg register name llvm-mc
  prints otherwise.

Run: python3 crates/hsaco-isa/scripts/aliases.py   (from the repository root or the crate)
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CRATE = os.path.dirname(HERE)
DATA = os.path.join(CRATE, "tests", "data", "aliases")
ENC = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")
SUFFIXES = ["_e64_dpp", "_e32", "_e64", "_sdwa", "_dpp"]


def base(m):
    for s in SUFFIXES:
        if m.endswith(s):
            return m[: -len(s)]
    return m


def generation(mcpu):
    n = mcpu[3:]  # gfx600 .. gfx1201
    return "gfx" + (n[:2] if len(n) == 4 else n[:1])


def assemble(mcpu, stmt):
    r = subprocess.run(["llvm-mc-22", "-triple=amdgcn", "-mcpu=" + mcpu, "-show-encoding"],
                       input=stmt + "\n", capture_output=True, text=True)
    hits = [ENC.match(l) for l in r.stdout.splitlines()]
    hits = [h for h in hits if h]
    if r.returncode != 0 or "error" in r.stderr or len(hits) != 1:
        return None
    text, enc = hits[0].groups()
    return text, " ".join("%02x" % int(b, 16) for b in enc.split(","))


def main():
    golden, pairs, rejected = [], {}, 0
    for name in sorted(os.listdir(DATA)):
        if not name.endswith(".s"):
            continue
        mcpu = None
        for line in open(os.path.join(DATA, name)):
            line = line.strip()
            if line.startswith("## "):
                mcpu = line.split()[1]
                golden.append("# %s: %s" % (name, line[3:]))
                continue
            if not line or line.startswith("#"):
                continue
            got = assemble(mcpu, line)
            if got is None:
                print("llvm-mc-22 rejects (%s): %s" % (mcpu, line), file=sys.stderr)
                rejected += 1
                continue
            text, hexbytes = got
            golden.append("%s | %s | %s | %s" % (mcpu, hexbytes, line, text))
            # operand aliases: a hwreg register name llvm-mc prints otherwise
            hw_in = re.search(r"hwreg\((\w+)", line)
            hw_out = re.search(r"hwreg\((\w+)", text)
            if hw_in and hw_out and hw_in.group(1) != hw_out.group(1):
                pairs[(generation(mcpu), "hwreg:" + hw_in.group(1))] = "hwreg:" + hw_out.group(1)
            a, printed = base(line.split()[0]), text.split()[0]
            c = base(printed)
            if a != c:
                # an alias that only names one encoding (gfx6 `v_add_co_u32` is
                # `v_add_i32_e64`): the canonical name keeps the suffix when the
                # statement has none and the unsuffixed canonical text encodes otherwise
                if a == line.split()[0] and printed != c:
                    plain = assemble(mcpu, c + text[len(printed):])
                    if plain is None or plain[1] != hexbytes:
                        c = printed
                pairs[(generation(mcpu), a)] = c
    with open(os.path.join(DATA, "encodings.txt"), "w") as f:
        f.write("# written by crates/hsaco-isa/scripts/aliases.py (llvm-mc-22 -show-encoding)\n")
        f.write("# mcpu | bytes | statement | llvm-mc-22's text\n")
        f.write("\n".join(golden) + "\n")
    with open(os.path.join(CRATE, "defs", "aliases.list"), "w") as f:
        f.write("# Mnemonic aliases: <generation> <alias> <canonical mnemonic>.\n")
        f.write("# Learnt from llvm-mc-22 (crates/hsaco-isa/scripts/aliases.py): the alias\n")
        f.write("# assembles to the canonical instruction's encoding and prints as it.\n")
        f.write("# The encoder looks here only for a mnemonic it does not know.\n")
        for (g, a), c in sorted(pairs.items()):
            f.write("%s %s %s\n" % (g, a, c))
    print("%d statements, %d rejected, %d aliases" % (len([g for g in golden if not g.startswith("#")]), rejected, len(pairs)))


if __name__ == "__main__":
    main()
