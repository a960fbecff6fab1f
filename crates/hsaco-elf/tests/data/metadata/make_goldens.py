#!/usr/bin/env python3
"""Regenerate the metadata goldens: descriptor bytes (.msgpack / .yaml) and what
llvm-readelf-22 --notes prints for a minimal ELF holding just that note
(.readelf.txt). Expected text always comes from LLVM, never from hsaco.

usage: make_goldens.py [corpus dir, default /work/corpus/out]
"""
import os, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = sys.argv[1] if len(sys.argv) > 1 else '/work/corpus/out'
READELF = os.environ.get('LLVM_READELF', 'llvm-readelf-22')

def notes(path):
    d = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum = struct.unpack_from('<HH', d, 0x3a)
    out = []
    for i in range(shnum):
        _, typ, _, _, off, size = struct.unpack_from('<IIQQQQ', d, shoff + i * shentsize)
        if typ != 7:
            continue
        p, end = off, off + size
        while p + 12 <= end:
            nsz, dsz, nt = struct.unpack_from('<III', d, p); p += 12
            name = d[p:p + nsz]; p += (nsz + 3) & ~3
            out.append((name.rstrip(b'\0'), nt, d[p:p + dsz])); p += (dsz + 3) & ~3
    return out

def note(name, typ, desc):
    n = name + b'\0'
    return struct.pack('<III', len(n), len(desc), typ) + n + b'\0' * (-len(n) % 4) + desc + b'\0' * (-len(desc) % 4)

def mkelf(name, typ, desc, abiver):
    body = note(name, typ, desc)
    shstr = b'\0.note\0.shstrtab\0'
    shstr_off = 64 + len(body)
    shoff = (shstr_off + len(shstr) + 7) & ~7
    ident = b'\x7fELF' + bytes([2, 1, 1, 64, abiver]) + b'\0' * 7
    hdr = ident + struct.pack('<HHIQQQIHHHHHH', 1, 224, 1, 0, 0, shoff, 0x42f, 64, 0, 0, 64, 3, 2)
    data = bytearray(hdr + body + shstr)
    data += b'\0' * (shoff - len(data)) + b'\0' * 64
    data += struct.pack('<IIQQQQIIQQ', 1, 7, 2, 0, 64, len(body), 0, 0, 4, 0)
    data += struct.pack('<IIQQQQIIQQ', 7, 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0)
    return bytes(data)

def readelf(name, typ, desc, abiver):
    with tempfile.NamedTemporaryFile(suffix='.o') as f:
        f.write(mkelf(name, typ, desc, abiver)); f.flush()
        return subprocess.run([READELF, '--notes', f.name], capture_output=True, check=True).stdout

def write(stem, ext, name, typ, desc, abiver=3):
    open(os.path.join(HERE, stem + ext), 'wb').write(desc)
    open(os.path.join(HERE, stem + '.readelf.txt'), 'wb').write(readelf(name, typ, desc, abiver))

# ---- MessagePack writer for the synthetic cases (smallest encodings)
def enc(v):
    if v is None: return b'\xc0'
    if v is True: return b'\xc3'
    if v is False: return b'\xc2'
    if isinstance(v, int):
        if 0 <= v < 128: return bytes([v])
        if -32 <= v < 0: return struct.pack('b', v)
        if v >= 0:
            for c, f in ((0xcc, 'B'), (0xcd, 'H'), (0xce, 'I'), (0xcf, 'Q')):
                try: return bytes([c]) + struct.pack('>' + f, v)
                except struct.error: pass
        for c, f in ((0xd0, 'b'), (0xd1, 'h'), (0xd2, 'i'), (0xd3, 'q')):
            try: return bytes([c]) + struct.pack('>' + f, v)
            except struct.error: pass
    if isinstance(v, float): return b'\xcb' + struct.pack('>d', v)
    if isinstance(v, tuple) and v[0] == 'f32': return b'\xca' + struct.pack('>f', v[1])
    if isinstance(v, tuple) and v[0] == 'raw': return v[1]
    if isinstance(v, tuple) and v[0] == 'rawstr':
        b = v[1]; return (bytes([0xa0 | len(b)]) if len(b) < 32 else b'\xd9' + bytes([len(b)])) + b
    if isinstance(v, str):
        b = v.encode()
        if len(b) < 32: return bytes([0xa0 | len(b)]) + b
        if len(b) < 256: return b'\xd9' + bytes([len(b)]) + b
        return b'\xda' + struct.pack('>H', len(b)) + b
    if isinstance(v, list):
        h = bytes([0x90 | len(v)]) if len(v) < 16 else b'\xdc' + struct.pack('>H', len(v))
        return h + b''.join(enc(x) for x in v)
    if isinstance(v, dict) or (isinstance(v, tuple) and v[0] == 'map'):
        items = list(v.items()) if isinstance(v, dict) else v[1]
        h = bytes([0x80 | len(items)]) if len(items) < 16 else b'\xde' + struct.pack('>H', len(items))
        return h + b''.join(enc(k) + enc(x) for k, x in items)
    raise TypeError(v)

CORPUS_CASES = [
    # stem, file, substring that picks the note (for all.co), abi version
    ('cov5_gfx906_vadd', 'nogpulib/gfx906/cov5/01_vadd.co', b'', 3),
    ('cov4_gfx803_printf', 'nogpulib/gfx803/cov4/all.co', b'amdhsa.printf', 2),
    ('cov6_gfx12_generic_printf', 'nogpulib/gfx12-generic/cov6/all.co', b'amdhsa.printf', 4),
    ('cov6_gfx803_image', 'nogpulib/gfx803/cov6/18_image_sampler.o', b'', 4),
    ('cov6_gfx1250_dyn_lds', 'nogpulib/gfx1250/cov6/all.co', b'hidden_dynamic_lds_size', 4),
    ('cov4_gfx90a_xnack_matrix', 'nogpulib/gfx90a_xnack+/cov4/16_matrix.co', b'', 2),
    ('cov6_gfx11_generic_calls', 'nogpulib/gfx11-generic/cov6/06_calls.co', b'', 4),
    ('cov5_gfx942_sramecc_reqd', 'nogpulib/gfx942_sramecc+_xnack-/cov5/all.co', b'reqd_workgroup_size', 3),
    ('cov4_gfx1030_image', 'nogpulib/gfx1030/cov4/18_image_sampler.o', b'', 2),
    ('cov6_gfx10_3_generic_libm', 'nogpulib/gfx10-3-generic/cov6/19_libm.o', b'', 4),
]

V2_YAML = b"""---
Version:         [ 1, 0 ]
Printf:
  - '1:1:4:%d\\n'
Kernels:
  - Name:            test
    SymbolName:      'test@kd'
    Language:        OpenCL C
    LanguageVersion: [ 2, 0 ]
    Attrs:
      ReqdWorkGroupSize: [ 64, 1, 1 ]
    Args:
      - Name:            a
        TypeName:        'float*'
        Size:            8
        Align:           8
        ValueKind:       GlobalBuffer
        ValueType:       F32
        AddrSpaceQual:   Global
        AccQual:         Default
        IsConst:         true
      - Size:            8
        Align:           8
        ValueKind:       HiddenGlobalOffsetX
        ValueType:       I64
    CodeProps:
      KernargSegmentSize: 16
      GroupSegmentFixedSize: 0
      PrivateSegmentFixedSize: 0
      KernargSegmentAlign: 8
      WavefrontSize:   64
      NumSGPRs:        8
      NumVGPRs:        4
      MaxFlatWorkGroupSize: 64
      IsXNACKEnabled:  false
...
\0"""

STRINGS = ["123", "true", "1.5", "", "a: b", "foo bar", "'x'", 'x"y', "x\ny", "~", "null", "-", "0x10",
           "#x", "Yes", "no", ".inf", "x:", "x #y", "a,b", "[a]", "*a", "!a", "|", "%x", "@x", "`x", "-1",
           "1e5", "0o17", "+1", ".5", "1_000", "12:30", "0b11", "2001-01-01", " lead", "trail ", "tab\tx",
           "\u00e9", "\x01", "NaN", ".nan", "False", "NULL", "?x", "x?", "a-b", "x]", "a'b", "TRUE", "inf",
           "nan(123)", "0x1p3", "1.", "1e", "0x", "00", "08", "+.5", "-0x10", "\x7f", "\r", "\x00", "\x1b",
           "\x07\x08\x0b\x0c", "\u0085", "\u00a0", "\u2028", "\u2029", "\ufeff", "\u00ad", "\u0300", "\u200b",
           "\ue000", "\ufffd", "\uffff", "\U0001f600", "\U0010ffff", "\u0378", "\u3000", "\u1680",
           "0x7fffffffffffffffff", "18446744073709551616", "-9223372036854775809", "1e400", "0X10", "0B11",
           "0O17", "x^y", "x~", "_a", ".a", "/a", "infinity", "-Infinity", "\t", "\t1", "\n1", "1\n", " ",
           'q\x01"\\', ('rawstr', b'\xff'), ('rawstr', b'a\xc3Abc'), ('rawstr', b'x\x00abc'), 'x' * 40 + ' y' * 30]

SYNTHETIC = {
    'edge_strings': {'s': STRINGS},
    'edge_scalars': ('map', [
        ('ints', [0, 127, 128, 255, 256, 65535, 65536, 2**32, 2**64 - 1, -1, -32, -33, -129, -2**63,
                  ('raw', b'\xd0\x05'), ('raw', b'\xcd\x00\x05')]),
        ('floats', [1.5, 0.1, 1e300, -0.0, float('inf'), float('-inf'), float('nan'), 1e-5, ('f32', 1.5),
                    ('f32', 0.1), 123456789.0, 5e-324, 0.0]),
        ('other', [None, True, False]),
        ('keys', ('map', [(1, 'one'), (-1, 'neg'), (True, 't'), (None, 'nil'), (1.5, 'f'), ('123', 's'),
                          ('', ''), ('null', 1), ('~', 2), (' a', 3), ('a\nb', 4), ('\u00e9', 5),
                          ('x' * 15, 6), ('x' * 16, 7), ('x' * 17, 8)])),
        ('empty_map', {}), ('empty_seq', []),
    ]),
    'edge_nesting': {'r': [[{'a': 1, 'b': 2}], [[1, 2], [3]], {'a': [[]]}, [{'a': []}], [[], 1], [1, []],
                           [[[]]], {'a': [], 'b': 1}, [{'a': [[]], 'b': 2}], [{}, [{}], {'a': {}}],
                           {'x': {'y': {'z': [1]}}}]},
    'edge_invalid': {'amdhsa.kernels': [{'.name': 'k', '.symbol': 'k.kd'}], 'amdhsa.version': [1, 2]},
    'edge_not_checked': {'amdhsa': 1, 'b': [1, 2]},
    'edge_duplicate_key': ('map', [('amdhsa.version', [1, 2]), ('a', ('map', [('b', 1), ('b', 2)]))]),
    'edge_trailing_bytes': ('raw', enc({'a': 1}) + b'\x81\xa1b\x02'),
    'edge_root_array': [{'amdhsa.version': [1, 2]}, 5],
    'edge_root_scalar': 7,
    'edge_ext': {'a': ('raw', b'\xd4\x01\x02')},
    'edge_empty': ('raw', b''),
}

def main():
    for stem, rel, pick, abiver in CORPUS_CASES:
        descs = [d for n, t, d in notes(os.path.join(CORPUS, rel)) if t == 32 and pick in d]
        write(stem, '.msgpack', b'AMDGPU', 32, descs[0], abiver)
    for stem, value in SYNTHETIC.items():
        write(stem, '.msgpack', b'AMDGPU', 32, enc(value))
    write('v2_kernel', '.yaml', b'AMD', 10, V2_YAML, 0)
    write('v2_odd_text', '.yaml', b'AMD', 10, b'not: [yaml\n\tx\x01\n', 0)

if __name__ == '__main__':
    main()
