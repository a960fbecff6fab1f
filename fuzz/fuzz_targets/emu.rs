#![no_main]
use libfuzzer_sys::fuzz_target;

// The emulator: random instruction words on one wave, and mutated code objects with
// random dispatch shapes (hsaco_emu::fuzzing describes the input); errors only, never
// a panic. The seeded smoke run is crates/hsaco-emu/tests/fuzz_smoke.rs.
fuzz_target!(|data: &[u8]| {
    hsaco_emu::fuzzing::emu(data);
});
