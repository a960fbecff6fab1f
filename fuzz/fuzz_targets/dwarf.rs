#![no_main]
use libfuzzer_sys::fuzz_target;

// the DWARF reader and printer: an ELF file, then the same bytes as raw sections
fuzz_target!(|data: &[u8]| {
    hsaco_dwarf::fuzzing::dwarf_elf(data);
    hsaco_dwarf::fuzzing::dwarf_sections(data);
});
