# DW_OP_LLVM_user (0xe9) with every sub-opcode 0..23 followed by bytes 1..9, then the
# spec's AMDGPU expressions, for llvm-dwarfdump-22 to decode
print('.section .debug_abbrev,"",@progbits')
print('.byte 1,0x11,1, 0x13,0x05, 0,0')
print('.byte 2,0x34,0, 0x02,0x18, 0,0')
print('.byte 0')
print('.section .debug_info,"",@progbits')
print('.long .Lend-.Lstart')
print('.Lstart:')
print('.short 5')
print('.byte 1,8')
print('.long 0')
print('.byte 1')
print('.short 0x15')
for sub in range(0,24):
    e=[0xe9,sub,1,2,3,4,5,6,7,8,9]
    print('.byte 2,%d,%s' % (len(e), ','.join(map(str,e))))
# the spec's AMDGPU idioms, each operation with well-formed operands
for e in ([0x90,0x80,0x14, 0xe9,3, 0x34, 0x1e, 0xe9,4],   # VGPR0, push_lane, lit4, mul, offset
          [0x30, 0x35, 0xe9,2],                          # lit0, lit5, form_aspace_address
          [0xe9,5,0x10], [0x33, 0xe9,6], [0xe9,7,0x41], [0xe9,7,0x86,0x0c],
          [0xe9,8, 0x93,4], [0xe9,9,0x85,0x14,0x78], [0xe9,9,0x86,0x0c,0x08],
          [0xe9,10], [0xe9,11,0x20,0x40], [0xe9,12,0x20,0x40], [0xe9,1],
          [0x92,0x85,0x14,0x78], [0x11,0x78], [0x71,0x7f], [0xe9,5]):
    print('.byte 2,%d,%s' % (len(e), ','.join(map(str,e))))
print('.byte 0')
print('.Lend:')
