#!/usr/bin/env python3
"""Every 16-bit immediate of one instruction through llvm-mc-22 --disassemble and
hsaco dis --raw, compared (how the sendmsg, gpr_idx, depctr and delay_alu printers
were checked on all 65,536 values).

    python3 crates/hsaco-isa/scripts/sweep16.py PROCESSOR HI16 [STEP] [SHOWN]

HI16 is the upper half of the word in hex (bf90: gfx6-gfx10 s_sendmsg; bfb6: gfx11+
s_sendmsg; bf9d: s_set_gpr_idx_mode; bfa3: gfx10 s_waitcnt_depctr; bf88: gfx11+;
bf87: s_delay_alu). HSACO (environment) names the binary (default target/release/hsaco).
"""
import os
import subprocess,sys
# usage: sweep16.py PROC OPWORD_HEX(upper 16 bits, e.g. bf90) [step]
p=sys.argv[1]; hi=int(sys.argv[2],16); step=int(sys.argv[3]) if len(sys.argv)>3 else 1
vals=list(range(0,65536,step))
words=['%08x'%((hi<<16)|v) for v in vals]
bs='\n'.join(' '.join('0x%02x'%b for b in int(w,16).to_bytes(4,'little')) for w in words)
r=subprocess.run(['llvm-mc-22','--disassemble','-triple=amdgcn','-mcpu='+p],input=bs,capture_output=True,text=True)
ll=[l.strip() for l in r.stdout.splitlines() if l.strip() and not l.strip().startswith('.text')]
o=subprocess.run([os.environ.get('HSACO', 'target/release/hsaco'),'dis','--raw','--mcpu='+p,'--no-show-raw-insn','-'],input=' '.join(words),capture_output=True,text=True).stdout
ours=[l.split("//")[0].strip() for l in o.splitlines() if l.startswith("\t")]
assert len(ll)==len(vals), (len(ll), r.stderr[:300])
bad=[(w,a,b) for w,a,b in zip(words,ll,ours) if a!=b]
print(p, sys.argv[2], 'checked',len(vals),'differ',len(bad))
for x in bad[:int(sys.argv[4]) if len(sys.argv)>4 else 8]: print('  ',x)
