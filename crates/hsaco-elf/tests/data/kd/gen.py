#!/usr/bin/env python3
"""Regenerate the kernel descriptor goldens from LLVM 22 (not needed by cargo test).

  python3 gen.py blocks  CORPUS_DIR   # blocks/<target>_cov<N>.txt from real code objects
  python3 gen.py flips   CORPUS_DIR   # flips/<target>_cov<N>.txt: one bit flipped at a time
  python3 gen.py code_t               # code_t/<cpu>.txt: amd_kernel_code_t via llvm-mc
  python3 gen.py extras  CORPUS_DIR   # blocks/gfx900_cov{2,3}.txt (EI_ABIVERSION patched),
                                      # blocks/gfx90a_xnack+_mattr_cov5.txt (--mattr=+xnack)

CORPUS_DIR is a directory <target>/cov<N>/*.co of clang-22 code objects (e.g.
/work/corpus/out/nogpulib). Expected text always comes from llvm-objdump-22 / llvm-mc-22.
"""
import os, random, re, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def kd_symbols(path):
    """{symbol: file offset} of the *.kd symbols, from llvm-readelf."""
    out = subprocess.run(['llvm-readelf-22', '-sSW', path], capture_output=True, text=True, check=True).stdout
    secs = {}
    for m in re.finditer(r'\[\s*(\d+)\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)', out):
        secs[int(m.group(1))] = (int(m.group(3), 16), int(m.group(4), 16))
    res = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 8 and p[7].endswith('.kd') and p[6].isdigit():
            addr, off = secs[int(p[6])]
            res[p[7]] = int(p[1], 16) - addr + off
    return res


def mcpu_of(target):
    return target.split('_')[0]


def objdump_blocks(path, mcpu, syms, mattr=None):
    extra = ['--mattr=' + mattr] if mattr else []
    out = subprocess.run(['llvm-objdump-22', '-D', '--mcpu=' + mcpu] + extra +
                         ['--disassemble-symbols=' + ','.join(syms), path],
                         capture_output=True, text=True).stdout
    blocks, cur, name = {}, None, None
    for line in out.splitlines():
        m = re.match(r'^[0-9a-f]+ <(.*)\.kd>:$', line)
        if m:
            name, cur = m.group(1), None
            continue
        if name is None:
            continue
        if line.startswith('; error decoding '):
            blocks[name] = line + '\n'
            name = None
        elif line.startswith('.amdhsa_kernel'):
            cur = [line]
        elif cur is not None:
            cur.append(line)
            if line.startswith('.end_amdhsa_kernel'):
                blocks[name] = '\n'.join(cur) + '\n'
                name, cur = None, None
    return blocks


def cov_of(path):
    with open(path, 'rb') as f:
        head = f.read(9)
    return head[8] + 2


MAX_PER_FILE = 3
BLOCK_COVS = {'gfx90a': (4, 5, 6), 'gfx1100': (4, 5, 6), 'gfx942': (4, 5, 6)}


def blocks(corpus):
    os.makedirs(os.path.join(HERE, 'blocks'), exist_ok=True)
    for target in sorted(os.listdir(corpus)):
        default = (5,) if os.path.isdir(os.path.join(corpus, target, 'cov5')) else (6,)
        for cov in BLOCK_COVS.get(target, default):
            d = os.path.join(corpus, target, 'cov%d' % cov)
            if not os.path.isdir(d):
                continue
            candidates = []
            for co in sorted(os.listdir(d)):
                if not co.endswith('.co') or co == 'all.co':
                    continue
                path = os.path.join(d, co)
                syms = kd_symbols(path)
                data = open(path, 'rb').read()
                got = objdump_blocks(path, mcpu_of(target), sorted(syms))
                for sym, off in sorted(syms.items()):
                    name = sym[:-3]
                    if name in got:
                        candidates.append((co, name, data[off:off + 64].hex(), got[name]))
            # greedy: up to MAX_PER_FILE descriptors covering the most distinct
            # directive values (sizes and register counts aside)
            def keys(block):
                return set(l for l in block.splitlines()[1:] if not any(
                    k in l for k in ('segment_fixed_size', 'kernarg_size', 'next_free', 'accum_offset', 'inst_pref')))
            seen_lines, chosen = set(), []
            while len(chosen) < MAX_PER_FILE:
                best = max(candidates, key=lambda c: len(keys(c[3]) - seen_lines), default=None)
                if best is None or not keys(best[3]) - seen_lines and chosen:
                    break
                seen_lines |= keys(best[3])
                chosen.append(best)
                candidates.remove(best)
            # one more with a big register count, scratch and LDS
            if candidates:
                chosen.append(max(candidates, key=lambda c: c[3]))
            out = os.path.join(HERE, 'blocks', '%s_cov%d.txt' % (target, cov))
            with open(out, 'w') as f:
                f.write('# llvm-objdump-22 -D --mcpu=%s --disassemble-symbols=<kernel>.kd <file>\n' % mcpu_of(target))
                f.write('processor %s\ncov %d\nxnack default\n' % (mcpu_of(target), cov))
                for co, name, hexkd, block in chosen:
                    f.write('\nfile %s\nkernel %s\nbytes %s\n%s' % (co, name, hexkd, block))
            print(out, len(chosen))


def patched_block(path, sym, off, kd, mcpu):
    data = bytearray(open(path, 'rb').read())
    data[off:off + 64] = kd
    fd, tmp = tempfile.mkstemp(suffix='.co')
    os.write(fd, data)
    os.close(fd)
    try:
        return objdump_blocks(tmp, mcpu, [sym]).get(sym[:-3], '')
    finally:
        os.unlink(tmp)


FLIP_TARGETS = [('gfx803', 5), ('gfx900', 5), ('gfx90a', 4), ('gfx90a', 5), ('gfx942', 5),
                ('gfx1030', 5), ('gfx1100', 5), ('gfx1201', 5), ('gfx1250', 6)]


def flips(corpus):
    """For each bit: 'E <message>' or the lines removed (-) and added (+)."""
    os.makedirs(os.path.join(HERE, 'flips'), exist_ok=True)
    for target, cov in FLIP_TARGETS:
        path = os.path.join(corpus, target, 'cov%d' % cov, '07_scratch.co')
        sym = 'private_array.kd'
        off = kd_symbols(path)[sym]
        base_kd = open(path, 'rb').read()[off:off + 64]
        mcpu = mcpu_of(target)
        base = patched_block(path, sym, off, base_kd, mcpu)
        base_lines = base.splitlines()
        out = os.path.join(HERE, 'flips', '%s_cov%d.txt' % (target, cov))
        with open(out, 'w') as f:
            f.write('# each bit of the descriptor flipped alone; llvm-objdump-22 --mcpu=%s\n' % mcpu)
            f.write('processor %s\ncov %d\nxnack default\nbytes %s\n%s' % (mcpu, cov, base_kd.hex(), base))
            # random multi-bit flips check the order in which errors are reported
            rng = random.Random(target + str(cov))
            cases = [[b] for b in range(512)] + [sorted(rng.sample(range(512), rng.randint(2, 6))) for _ in range(64)]
            for bits in cases:
                kd = bytearray(base_kd)
                for b in bits:
                    kd[b // 8] ^= 1 << (b % 8)
                got = patched_block(path, sym, off, kd, mcpu)
                f.write('flip %s\n' % ','.join(map(str, bits)))
                if got.startswith('; error decoding'):
                    f.write('E %s\n' % got.split(': ', 1)[1].rstrip('\n'))
                    continue
                lines = got.splitlines()
                for l in base_lines:
                    if l not in lines:
                        f.write('- %s\n' % l)
                for l in lines:
                    if l not in base_lines:
                        f.write('+ %s\n' % l)
        print(out)


CODE_T_CPUS = ['gfx803', 'gfx900', 'gfx90a', 'gfx942', 'gfx1010', 'gfx1100', 'gfx1201', 'gfx1250']


def code_t():
    """Random .amd_kernel_code_t blocks assembled by llvm-mc: bytes and llvm-mc's printout."""
    os.makedirs(os.path.join(HERE, 'code_t'), exist_ok=True)
    widths = {}
    for cpu in CODE_T_CPUS:
        rng = random.Random(cpu)
        out = os.path.join(HERE, 'code_t', '%s.txt' % cpu)
        with open(out, 'w') as f:
            f.write('# llvm-mc-22 -triple=amdgcn-mesa-mesa3d -mcpu=%s: printed block and .text bytes\n' % cpu)
            for case in range(4):
                body = random_code_t(rng, cpu, case)
                text, code = assemble(body, cpu)
                f.write('case %d\nbytes %s\n%s' % (case, code.hex(), text))
                if case == 0:
                    defaults = text
            # llvm-mc prints 64-bit keys truncated to 32 bits: for values that do not fit,
            # the expected text is the source that llvm-mc assembled into the bytes.
            big = {'kernel_code_entry_byte_offset': -0x123456789ab,
                   'kernel_code_prefetch_byte_size': 0x7123456789abcdef,
                   'kernarg_segment_byte_size': -2,
                   'runtime_loader_kernel_symbol': 0x100000000}
            source = ''.join(
                '\t\t%s = %d\n' % (l.split()[0], big[l.split()[0]]) if l.split()[0] in big else l + '\n'
                for l in defaults.splitlines())
            body = '\n'.join(l.strip() for l in source.splitlines()[1:-1])
            printed, code = assemble(body, cpu)
            assert printed != source
            f.write('case source\nbytes %s\n%s' % (code.hex(), source))
        print(out)


# key: (bits, signed) of the values written by random_code_t (ranges LLVM prints back as-is)
KEYS = {
    'amd_code_version_major': (31, 0), 'amd_code_version_minor': (31, 0),
    'amd_machine_kind': (16, 0), 'amd_machine_version_major': (16, 0),
    'amd_machine_version_minor': (16, 0), 'amd_machine_version_stepping': (16, 0),
    'kernel_code_entry_byte_offset': (31, 1), 'kernel_code_prefetch_byte_size': (31, 0),
    'granulated_workitem_vgpr_count': (6, 0), 'granulated_wavefront_sgpr_count': (4, 0),
    'priority': (2, 0), 'float_mode': (8, 0), 'priv': (1, 0), 'enable_dx10_clamp': (1, 0),
    'debug_mode': (1, 0), 'enable_ieee_mode': (1, 0),
    'enable_sgpr_private_segment_wave_byte_offset': (1, 0), 'user_sgpr_count': (5, 0),
    'enable_trap_handler': (1, 0), 'enable_sgpr_workgroup_id_x': (1, 0),
    'enable_sgpr_workgroup_id_y': (1, 0), 'enable_sgpr_workgroup_id_z': (1, 0),
    'enable_sgpr_workgroup_info': (1, 0), 'enable_vgpr_workitem_id': (2, 0),
    'enable_exception_msb': (2, 0), 'granulated_lds_size': (9, 0), 'enable_exception': (7, 0),
    'enable_sgpr_private_segment_buffer': (1, 0), 'enable_sgpr_dispatch_ptr': (1, 0),
    'enable_sgpr_queue_ptr': (1, 0), 'enable_sgpr_kernarg_segment_ptr': (1, 0),
    'enable_sgpr_dispatch_id': (1, 0), 'enable_sgpr_flat_scratch_init': (1, 0),
    'enable_sgpr_private_segment_size': (1, 0), 'enable_sgpr_grid_workgroup_count_x': (1, 0),
    'enable_sgpr_grid_workgroup_count_y': (1, 0), 'enable_sgpr_grid_workgroup_count_z': (1, 0),
    'enable_ordered_append_gds': (1, 0), 'private_element_size': (2, 0), 'is_ptr64': (1, 0),
    'is_dynamic_callstack': (1, 0), 'is_debug_enabled': (1, 0), 'is_xnack_enabled': (1, 0),
    'workitem_private_segment_byte_size': (32, 0), 'workgroup_group_segment_byte_size': (31, 0),
    'gds_segment_byte_size': (31, 0), 'kernarg_segment_byte_size': (31, 0),
    'workgroup_fbarrier_count': (31, 0), 'wavefront_sgpr_count': (16, 0),
    'workitem_vgpr_count': (16, 0), 'reserved_vgpr_first': (16, 0), 'reserved_vgpr_count': (16, 0),
    'reserved_sgpr_first': (16, 0), 'reserved_sgpr_count': (16, 0),
    'debug_wavefront_private_segment_offset_sgpr': (16, 0),
    'debug_private_segment_buffer_sgpr': (16, 0), 'kernarg_segment_alignment': (8, 0),
    'group_segment_alignment': (8, 0), 'private_segment_alignment': (8, 0),
    'wavefront_size': (8, 0), 'call_convention': (31, 1), 'runtime_loader_kernel_symbol': (31, 0),
}


def random_code_t(rng, cpu, case):
    lines = []
    gfx10 = cpu.startswith('gfx1')
    for key, (bits, signed) in KEYS.items():
        if case == 0:
            continue  # all defaults
        if rng.random() < 0.5:
            continue
        v = rng.getrandbits(bits)
        if signed and rng.random() < 0.5:
            v = -v
        lines.append('%s = %d' % (key, v))
    if cpu.startswith('gfx12'):
        lines = [l for l in lines if not l.startswith(('enable_dx10_clamp', 'enable_ieee_mode'))]
    if gfx10:
        for key in ('enable_wgp_mode', 'enable_mem_ordered', 'enable_fwd_progress'):
            lines.append('%s = %d' % (key, rng.getrandbits(1)))
    return '\n'.join(lines)


def assemble(body, cpu):
    src = ('.text\n.globl k\n.p2align 8\n.amdgpu_hsa_kernel k\nk:\n.amd_kernel_code_t\n%s\n'
           '.end_amd_kernel_code_t\ns_endpgm\n' % body)
    with tempfile.TemporaryDirectory() as t:
        s = os.path.join(t, 'a.s')
        open(s, 'w').write(src)
        base = ['llvm-mc-22', '-triple=amdgcn-mesa-mesa3d', '-mcpu=' + cpu]
        text = subprocess.run(base + [s], capture_output=True, text=True, check=True).stdout
        o = os.path.join(t, 'a.o')
        subprocess.run(base + ['-filetype=obj', '-o', o, s], check=True)
        b = os.path.join(t, 'a.bin')
        subprocess.run(['llvm-objcopy-22', '-O', 'binary', '--only-section=.text', o, b], check=True)
        code = open(b, 'rb').read()[:256]
    m = re.search(r'(\t\.amd_kernel_code_t\n.*?\t\.end_amd_kernel_code_t\n)', text, re.S)
    return m.group(1), code


def extras(corpus):
    def write(out, header, opts, path, data, got, syms):
        with open(os.path.join(HERE, 'blocks', out), 'w') as f:
            f.write(header + opts)
            for sym, off in sorted(syms.items()):
                f.write('\nfile 07_scratch.co\nkernel %s\nbytes %s\n%s' % (sym[:-3], data[off:off + 64].hex(), got[sym[:-3]]))
    src = os.path.join(corpus, 'gfx900', 'cov4', '07_scratch.co')
    for abi, cov in ((1, 3), (0, 2)):
        d = bytearray(open(src, 'rb').read())
        d[8] = abi
        with tempfile.TemporaryDirectory() as t:
            tmp = os.path.join(t, 'a.co')
            open(tmp, 'wb').write(d)
            syms = kd_symbols(tmp)
            got = objdump_blocks(tmp, 'gfx900', sorted(syms))
        write('gfx900_cov%d.txt' % cov,
              '# 07_scratch.co of gfx900 cov4 with EI_ABIVERSION set to %d; llvm-objdump-22 -D --mcpu=gfx900\n' % abi,
              'processor gfx900\ncov %d\nxnack default\n' % cov, tmp, d, got, syms)
    path = os.path.join(corpus, 'gfx90a_xnack+', 'cov5', '07_scratch.co')
    syms = kd_symbols(path)
    got = objdump_blocks(path, 'gfx90a', sorted(syms), mattr='+xnack')
    write('gfx90a_xnack+_mattr_cov5.txt',
          '# llvm-objdump-22 -D --mcpu=gfx90a --mattr=+xnack --disassemble-symbols=<kernel>.kd <file>\n',
          'processor gfx90a\ncov 5\nxnack 1\n', path, open(path, 'rb').read(), got, syms)


if __name__ == '__main__':
    what = sys.argv[1]
    if what == 'blocks':
        blocks(sys.argv[2])
    elif what == 'flips':
        flips(sys.argv[2])
    elif what == 'code_t':
        code_t()
    elif what == 'extras':
        extras(sys.argv[2])
