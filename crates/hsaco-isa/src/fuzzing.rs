//! Bodies of this crate's cargo-fuzz targets (`fuzz/fuzz_targets/dis.rs`, `asm.rs`), kept here so
//! that `cargo test` runs the same code under the seeded mutation driver
//! ([`hsaco_elf::fuzzing::mutation_smoke`], tests/isa.rs). Each takes arbitrary bytes
//! and must not panic: undecodable words are errors (the listing prints them as
//! `.long`), never crashes.

use crate::listing::{self, Label, Options};
use crate::{Decoder, Instructions};

/// The processors [`dis`] chooses from: one or more of every generation and of the
/// feature variants that change decoding (gfx6 to gfx12 and gfx1250).
pub const PROCESSORS: &[&str] = &[
    "gfx600", "gfx700", "gfx801", "gfx803", "gfx810", "gfx900", "gfx906", "gfx908", "gfx90a",
    "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1201", "gfx1250",
];

/// The fuzz target `dis`: the first byte picks the processor ([`PROCESSORS`], and
/// wave64 mode with its high bit), the rest is an instruction stream.
pub fn dis(data: &[u8]) {
    let Some((&pick, stream)) = data.split_first() else {
        return;
    };
    let name = PROCESSORS[usize::from(pick & 0x7f) % PROCESSORS.len()];
    let Some(dec) = Decoder::for_processor(name) else {
        return;
    };
    stream_on(if pick & 0x80 != 0 { dec.wave64() } else { dec }, stream);
}

/// [`dis`]'s work for each of `processors` (names [`Decoder::for_processor`] knows).
pub fn dis_on(processors: &[&str], data: &[u8]) {
    for dec in processors.iter().filter_map(|p| Decoder::for_processor(p)) {
        stream_on(dec, data);
    }
}

/// Lists `data` as code (with a label inside it, so that label and branch-target
/// handling run), then decodes and prints every instruction on its own.
fn stream_on(dec: Decoder, data: &[u8]) {
    let labels = [Label {
        address: 8,
        name: "f",
        kind: 0,
    }];
    let mut out = Vec::new();
    // writing to a Vec cannot fail: an error would be the listing's own (a finding)
    if let Err(e) = listing::write_code(&mut out, dec, data, 0, &labels, &Options::default()) {
        panic!("listing into a Vec failed: {e}");
    }
    let mut text = String::new();
    for (_, r) in Instructions::new(dec, data) {
        if let Ok(i) = r {
            text.clear();
            crate::print::print(&dec, &i, &mut text);
            let _ = dec.vopd_y(&i);
        }
    }
}

/// A [`crate::asm::SymbolLookup`] for fuzzing: expressions starting with `.L` or
/// containing `@` are symbols, numbers are constants, anything else is an error.
struct FuzzSymbols;

impl crate::asm::SymbolLookup for FuzzSymbols {
    fn expr(&mut self, text: &str) -> Result<crate::asm::ExprValue, String> {
        if text.starts_with(".L") || text.contains('@') {
            Ok(crate::asm::ExprValue::Symbolic {
                symbol: text.to_string(),
                addend: 0,
                variant: crate::asm::RelocVariant::None,
            })
        } else {
            text.parse()
                .map(crate::asm::ExprValue::Const)
                .map_err(|_| format!("no value for {text}"))
        }
    }
}

/// The fuzz target `asm`: the first byte picks the processor ([`PROCESSORS`], and
/// wave64 mode with its high bit), the rest is statement text (lossy UTF-8, one
/// statement per line). Encoding must never panic; a success must append exactly the
/// bytes it reports, and they must decode.
pub fn asm(data: &[u8]) {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let name = PROCESSORS[usize::from(pick & 0x7f) % PROCESSORS.len()];
    let Some(asm) = crate::asm::Assembler::for_processor(name) else {
        return;
    };
    let asm = if pick & 0x80 != 0 { asm.wave64() } else { asm };
    let text = String::from_utf8_lossy(text);
    let mut out = Vec::new();
    for line in text.lines().take(64) {
        out.clear();
        if let Ok(e) = asm.encode(line, 0, &mut FuzzSymbols, &mut out) {
            assert_eq!(usize::from(e.size), out.len(), "size of {line:?}");
            assert!(
                asm.decoder().decode(&out).is_ok(),
                "{line:?} encoded to undecodable bytes"
            );
        }
    }
}
