#![no_main]
use libfuzzer_sys::fuzz_target;

// the DWARF reader and printer (with every variable's location evaluated): an ELF
// file, then the same bytes as raw sections, then as one location expression
fuzz_target!(|data: &[u8]| {
    hsaco_dwarf::fuzzing::dwarf_elf(data);
    hsaco_dwarf::fuzzing::dwarf_sections(data);
    hsaco_dwarf::fuzzing::dwarf_expression(data);
});
