#!/usr/bin/env python3
"""Write the wave64 vectors: for each vector of tests/data/<gen>.txt (gfx10, gfx11,
gfx12), the text llvm-mc-22 --disassemble -mattr=+wavefrontsize64 gives on the
vector's first processor, kept when it differs from the wave32 text.

    python3 crates/hsaco-isa/scripts/wave64_vectors.py gfx10 > /tmp/w64.txt

Then drop the rows whose wave32 vector is a known gap (tests/data/<gen>.known-gaps)
and add a header line: that is tests/data/wave64/<gen>.txt.
"""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
gen=sys.argv[1]
rows=[]
for l in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../tests/data/%s.txt' % gen)):
    if l.startswith('#') or not l.strip(): continue
    h,rest=l.rstrip('\n').split(' | ',1); t,p=rest.rsplit(' | ',1)
    rows.append((h,t,p.split(',')[0]))
# batch by processor: run llvm-mc once per row is slow; batch 200 rows with separators
def run(chunk):
    p=chunk[0][2]
    out=[]
    for h,t,_ in chunk:
        bs=' '.join('0x%02x'%b for x in h.split() for b in int(x,16).to_bytes(4,'little'))
        r=subprocess.run(['llvm-mc-22','--disassemble','-triple=amdgcn','-mcpu='+p,'-mattr=+wavefrontsize64'],input=bs,capture_output=True,text=True)
        lines=[x.strip() for x in r.stdout.splitlines() if x.strip() and not x.strip().startswith('.text')]
        if 'warning' in r.stderr or len(lines)!=1: continue
        if lines[0]!=t: out.append('%s | %s | %s'%(h,lines[0],p))
    return out
chunks={}
for r in rows: chunks.setdefault(r[2],[]).append(r)
jobs=[]
for p,rs in chunks.items():
    for i in range(0,len(rs),100): jobs.append(rs[i:i+100])
with ThreadPoolExecutor(3) as ex:
    for o in ex.map(run,jobs):
        for l in o: print(l)
