import sys
# the boundaries of every range of AMDGPUUsage's DWARF register mapping table
nums = [0,1,2,15,16,17,18,31,32,33,65,95,96,127,128,129,511,512,513,767,768,769,1087,1088,1129,1130,1535,1536,1537,1578,1791,1792,2047,2048,2303,2304,2559,2560,2561,2602,2815,2816,3071,3072,3327,3328,3583,3584,0x10000]
def uleb(n):
    out=[]
    while True:
        b=n&0x7f; n>>=7
        if n: out.append(b|0x80)
        else: out.append(b); break
    return out
print('.section .debug_abbrev,"",@progbits')
print('.byte 1,0x11,1, 0x13,0x05, 0,0')   # CU children yes, DW_AT_language data1
print('.byte 2,0x34,0, 0x02,0x18, 0,0')    # variable, location exprloc
print('.byte 0')
print('.section .debug_info,"",@progbits')
print('.long .Lend-.Lstart')
print('.Lstart:')
print('.short 5')
print('.byte 1,8')
print('.long 0')
print('.byte 1')
print('.short 0x15')
for n in nums:
    for op in ([0x90]+uleb(n), [0x92]+uleb(n)+[0]):
        print('.byte 2,%d,%s' % (len(op), ','.join(map(str,op))))
for r in (0, 1, 2, 16, 17, 31):
    for op in ([0x50+r],[0x70+r,1]):
        print('.byte 2,%d,%s' % (len(op), ','.join(map(str,op))))
print('.byte 0')
print('.Lend:')
