//! The fuzz entry point shared by the cargo-fuzz target (`fuzz/fuzz_targets/asm.rs`)
//! and the seeded smoke test: any text, never a panic.

use crate::{assemble, NoIncludes, Options};

/// Assemble `data` (as text, lossily) for a processor chosen by its first byte.
pub fn asm(data: &[u8]) {
    let cpus = [
        "gfx900", "gfx90a", "gfx1100", "gfx1250", "gfx803", "gfx1030",
    ];
    let cpu = cpus[data.first().map_or(0, |&b| usize::from(b) % cpus.len())];
    let Some(mut opts) = Options::for_processor(cpu) else {
        return;
    };
    opts.max_statements = 20_000;
    opts.max_section_size = 1 << 20;
    opts.max_evaluations = 100_000;
    let text = String::from_utf8_lossy(data.get(1..).unwrap_or(&[]));
    let mut enc = crate::NoInstructions;
    let _ = assemble("fuzz.s", &text, &opts, &mut enc, &mut NoIncludes);
}
