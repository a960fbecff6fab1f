//! Disassemble a raw byte stream: `dis MCPU FILE [BASE]` prints `ADDRESS<TAB>TEXT` per
//! instruction (hex address = BASE + offset). Used by scripts/corpus_diff.py.
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: dis MCPU FILE [BASE]");
        std::process::exit(2);
    }
    let Some(dec) = hsaco_isa::Decoder::for_processor(&args[1]) else {
        eprintln!("unknown processor {}", args[1]);
        std::process::exit(2);
    };
    let bytes = std::fs::read(&args[2]).expect("read");
    let base = args
        .get(3)
        .map(|b| u64::from_str_radix(b.trim_start_matches("0x"), 16).expect("base"))
        .unwrap_or(0);
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut text = String::new();
    for (off, r) in hsaco_isa::Instructions::new(dec, &bytes) {
        text.clear();
        match r {
            Ok(i) => hsaco_isa::print::print(&dec, &i, &mut text),
            Err(e) => text.push_str(&format!("<{e}>")),
        }
        writeln!(out, "{:x}\t{}", base + off as u64, text).expect("write");
    }
}
