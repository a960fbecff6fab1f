.text
.globl foo
foo:
.long 0
.long foo
