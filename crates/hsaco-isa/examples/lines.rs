//! Decode each line of hex words on stdin on its own: `lines MCPU < words.txt` prints,
//! per input line, `BYTES<TAB>TEXT` (the length decoded and hsaco's text) or `-<TAB>invalid`.
//! A fast companion of scripts that compare many single instructions with llvm-mc-22.
use std::io::{BufRead, Write};

fn main() {
    let Some(mcpu) = std::env::args().nth(1) else {
        eprintln!("usage: lines MCPU < HEXWORDS");
        std::process::exit(2);
    };
    let Some(dec) = hsaco_isa::Decoder::for_processor(&mcpu) else {
        eprintln!("unknown processor {mcpu}");
        std::process::exit(2);
    };
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("read stdin");
        let bytes: Vec<u8> = line
            .split_whitespace()
            .filter_map(|w| u32::from_str_radix(w, 16).ok())
            .flat_map(u32::to_le_bytes)
            .collect();
        match dec.decode(&bytes) {
            Ok(inst) => writeln!(out, "{}\t{}", inst.size, dec.text(&inst)),
            Err(_) => writeln!(out, "-\tinvalid"),
        }
        .expect("write");
    }
}
