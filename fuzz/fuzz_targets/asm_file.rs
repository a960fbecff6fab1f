#![no_main]
use libfuzzer_sys::fuzz_target;

// a whole assembler source file (directives, macros, expressions, instructions)
fuzz_target!(|data: &[u8]| {
    hsaco_asm::fuzzing::asm(data);
});
