#![no_main]
use libfuzzer_sys::fuzz_target;

// first byte: processor (hsaco_isa::fuzzing::PROCESSORS) and wave64; then statement text
fuzz_target!(|data: &[u8]| {
    hsaco_isa::fuzzing::asm(data);
});
