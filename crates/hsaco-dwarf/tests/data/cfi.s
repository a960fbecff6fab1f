.cfi_sections .debug_frame
.text
f:
.cfi_startproc
.cfi_def_cfa 64, 0
s_nop 0
.cfi_def_cfa_offset 16
.cfi_offset 65, -8
.cfi_register 16, 2600
s_nop 0
.cfi_undefined 2560
.cfi_undefined 1542
.cfi_offset 0, 4
.cfi_same_value 33
.cfi_escape 0x10, 0x10, 0x02, 0x90, 0x41
s_endpgm
.cfi_endproc
