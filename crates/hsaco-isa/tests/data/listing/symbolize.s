.text
.globl f
.type f,@function
f:
  s_nop 0
  s_cbranch_scc0 .Lx
  s_nop 1
.Lx:
  s_nop 2
.globl g
.type g,@function
g:
  s_branch g
  s_branch f
  s_branch .Ly
  s_nop 3
.Ly:
  s_endpgm
  s_branch .Lx
