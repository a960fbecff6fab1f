//! The entry point shared by the cargo-fuzz target (`fuzz/fuzz_targets/link.rs`) and
//! the seeded smoke test of `cargo test`. It takes arbitrary bytes and must never
//! panic.

/// Links `data` as one input, then as two copies of itself (which exercises the
/// duplicate-symbol and merge paths); the results are ignored.
pub fn link(data: &[u8]) {
    let options = crate::Options {
        comment: Some("Linker: fuzz".into()),
    };
    let one = crate::Input::new("a.o", data);
    if let Ok(out) = crate::link(&[one], &options) {
        // the output must read back
        let _ = hsaco_elf::elf::Elf::parse(&out).map(|e| e.section_count());
    }
    let _ = crate::link(&[one, crate::Input::new("b.o", data)], &options);
}
