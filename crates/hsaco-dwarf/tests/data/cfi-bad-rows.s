.cfi_sections .debug_frame
.text
f:
.cfi_startproc
s_nop 0
.cfi_def_cfa_offset 16
.cfi_offset 65, -8
.cfi_register 16, 2600
.cfi_undefined 2560
.cfi_same_value 33
.cfi_def_cfa_register 64
.cfi_def_cfa 65, 8
.cfi_escape 0x10, 0x10, 0x02, 0x90, 0x41
.cfi_remember_state
.cfi_restore_state
.cfi_rel_offset 66, 12
.cfi_restore 65
.cfi_adjust_cfa_offset 4
.cfi_val_offset 67, -4
s_nop 0
.cfi_escape 0x0f, 0x03, 0x90, 0x41, 0x06
s_nop 0
.cfi_escape 0x16, 0x90, 0x14, 0x02, 0x90, 0x41
.cfi_escape 0x14, 0x41, 0x08
.cfi_escape 0x15, 0x41, 0x7e
.cfi_escape 0x12, 0x41, 0x10
.cfi_escape 0x13, 0x7e
.cfi_escape 0x05, 0x41, 0x08
.cfi_escape 0x11, 0x41, 0x7e
s_endpgm
.cfi_endproc
