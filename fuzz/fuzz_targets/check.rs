#![no_main]
use libfuzzer_sys::fuzz_target;

// the whole `hsaco check` of one file (code objects and bundles, device and runtime
// rules, conformance, ABI lints over decoded code, text and JSON reports)
fuzz_target!(|data: &[u8]| {
    hsaco_check::fuzz_entry(data);
});
