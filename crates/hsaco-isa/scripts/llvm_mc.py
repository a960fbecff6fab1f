"""Run llvm-mc-22 as a black-box disassembler over many instructions at once.

Facts-gathering helper for the sweep scripts: it only observes LLVM's output.
"""
import re
import subprocess

LLVM_MC = "llvm-mc-22"
_WARN = re.compile(r"^<stdin>:(\d+):(\d+): warning: invalid instruction encoding")
_ENC = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")


def disassemble_one(mcpu, words):
    """The text llvm-mc-22 gives for one instruction (32-bit `words`, little-endian), or
    None when it rejects the bytes or they do not make exactly one instruction."""
    data = " ".join("0x%02x" % b for w in words for b in w.to_bytes(4, "little"))
    r = subprocess.run([LLVM_MC, "--disassemble", "-triple=amdgcn", "-mcpu=" + mcpu],
                       input=data, capture_output=True, text=True)
    lines = [l.strip() for l in r.stdout.splitlines()
             if l.strip() and not l.strip().startswith(".text")]
    if "warning" in r.stderr or "error" in r.stderr or len(lines) != 1:
        return None
    return lines[0]


def disassemble(lines, mcpu):
    """As _disassemble, but isolates inputs that crash llvm-mc (result None)."""
    try:
        return _disassemble(lines, mcpu, strict=len(lines) > 1)
    except CrashError:
        if len(lines) == 1:
            return [None]
        h = len(lines) // 2
        return disassemble(lines[:h], mcpu) + disassemble(lines[h:], mcpu)


class CrashError(Exception):
    pass


def _disassemble(lines, mcpu, strict=True):
    """lines: list of lists of 32-bit words. Returns, per line, (text, nbytes) of the
    first instruction decoded at the start of the line, or None if LLVM rejects it.
    Each line gets two `s_nop 0` words appended so a literal can always be read."""
    pad = [0xBF800000, 0xBF800000]
    src = []
    lens = []
    raw = []
    for words in lines:
        ws = list(words) + pad
        bs = []
        for w in ws:
            bs += [w & 0xFF, (w >> 8) & 0xFF, (w >> 16) & 0xFF, (w >> 24) & 0xFF]
        src.append(" ".join("0x%02x" % b for b in bs))
        lens.append(len(bs))
        raw.append(bs)
    p = subprocess.run(
        [LLVM_MC, "-triple=amdgcn", "-mcpu=" + mcpu, "--disassemble", "-show-encoding"],
        input="\n".join(src) + "\n",
        capture_output=True,
        text=True,
    )
    if p.returncode != 0:
        raise CrashError()
    invalid = set()
    for l in p.stderr.split("\n"):
        m = _WARN.match(l)
        if m:
            invalid.add((int(m.group(1)) - 1, (int(m.group(2)) - 1) // 5))
    outs = []
    for l in p.stdout.split("\n"):
        m = _ENC.match(l)
        if not m and l.strip() and not l.strip().startswith(".text"):
            raise RuntimeError("unparsed llvm-mc output: %r" % l)
        if m:
            enc = [int(x, 16) for x in m.group(2).split(",") if x.strip()]
            outs.append((m.group(1), len(enc), enc))
    res = []
    recheck = []
    k = 0
    for i, n in enumerate(lens):
        off = 0
        first = None
        while off < n:
            if (i, off) in invalid:
                if off == 0:
                    first = False
                off += 4
                continue
            if k >= len(outs):
                raise CrashError()
            text, nb, enc = outs[k]
            k += 1
            if off == 0 and raw[i][3:4] != enc[3:4] and strict:
                # Out of step with LLVM's output (an instruction ran into the next
                # line, or LLVM skipped bytes differently): let the caller split the
                # batch. (LLVM prints the canonical encoding, which may differ from the
                # input in ignored bits, so only the first word's top byte, which
                # selects the encoding, is compared; a line alone is in step whatever
                # LLVM re-encodes: e.g. v_readfirstlane_b32 with a constant destination
                # comes back with another top byte.)
                raise CrashError()
            if first is None:
                first = (text, nb)
                if nb > 4 and bytes(enc[-4:]) != bytes(raw[i][nb - 4:nb]):
                    # LLVM's encoding ends in another word than the input has there:
                    # perhaps a literal it made of an inline constant, so its length
                    # need not be the decoded one: measure that (see decoded_length)
                    recheck.append(i)
            off += nb
        if off != n and strict:
            # the last instruction ran into the next line
            raise CrashError()
        res.append(first if first else None)
    if k != len(outs) and strict:
        raise CrashError()
    for i in recheck:
        text, nb = res[i]
        n = decoded_length(lines[i], mcpu, text)
        if n is not None:
            res[i] = (text, n)
    return res


MARK = 0xBF800000  # s_nop 0 (random_diff's trailing words never have 0xbf as top byte)


def decoded_length(words, mcpu, text):
    """The number of bytes llvm-mc-22 decodes for the instruction `text` at the start of
    `words`: the smallest prefix that, followed by two `s_nop 0` markers, disassembles
    to `text` and exactly the two markers (shorter prefixes make LLVM read a marker as
    part of the instruction, longer ones leave words between). -show-encoding gives the
    length of LLVM's re-encoding, which is longer when it prints an inline constant as
    a literal (e.g. an f16 constant of a 16-bit integer operand). None if no prefix
    fits."""
    for n in range(1, len(words) + 1):
        data = " ".join("0x%02x" % b for w in list(words[:n]) + [MARK, MARK]
                        for b in w.to_bytes(4, "little"))
        r = subprocess.run([LLVM_MC, "--disassemble", "-triple=amdgcn", "-mcpu=" + mcpu],
                           input=data, capture_output=True, text=True)
        out = [l.strip() for l in r.stdout.splitlines()
               if l.strip() and not l.strip().startswith(".text")]
        if "warning" not in r.stderr and out == [text, "s_nop 0", "s_nop 0"]:
            return 4 * n
    return None


def assemble(texts, mcpu):
    """texts: list of instruction strings. Returns per line the encoding bytes or None."""
    src = "\n".join(texts) + "\n"
    p = subprocess.run(
        [LLVM_MC, "-triple=amdgcn", "-mcpu=" + mcpu, "-show-encoding"],
        input=src, capture_output=True, text=True,
    )
    bad = set()
    for l in p.stderr.splitlines():
        m = re.match(r"^<stdin>:(\d+):\d+: error", l)
        if m:
            bad.add(int(m.group(1)) - 1)
    outs = [m.group(2) for m in (_ENC.match(l) for l in p.stdout.splitlines()) if m]
    res = []
    k = 0
    for i in range(len(texts)):
        if i in bad:
            res.append(None)
        else:
            res.append(bytes(int(x, 16) for x in outs[k].split(",")))
            k += 1
    return res


def assemble_text(texts, mcpu):
    """As assemble, but per line (LLVM's printed text, encoding bytes) or None: the text
    is LLVM's instruction printer's, i.e. what its disassembler would print."""
    src = "\n".join(texts) + "\n"
    p = subprocess.run(
        [LLVM_MC, "-triple=amdgcn", "-mcpu=" + mcpu, "-show-encoding"],
        input=src, capture_output=True, text=True,
    )
    bad = set()
    for l in p.stderr.splitlines():
        m = re.match(r"^<stdin>:(\d+):\d+: error", l)
        if m:
            bad.add(int(m.group(1)) - 1)
    outs = [m for m in (_ENC.match(l) for l in p.stdout.splitlines()) if m]
    res = []
    k = 0
    for i in range(len(texts)):
        if i in bad:
            res.append(None)
        else:
            m = outs[k]
            res.append((m.group(1), bytes(int(x, 16) for x in m.group(2).split(","))))
            k += 1
    return res


if __name__ == "__main__":
    print(disassemble([[0x80000000], [0xFFFFFFFF], [0x68000006], [0xC0020002, 0x2C]], "gfx900"))
