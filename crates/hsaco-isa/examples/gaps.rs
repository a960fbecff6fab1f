//! Print the rows of a known-gaps list with LLVM's text and hsaco's:
//! `gaps VECTORS.txt [INVALID] KNOWN-GAPS` -> `hex | processor | want | got`.
//! Used to group the known gaps into classes (round rdnagaps: `git log --grep rdnagaps`). (Hex words on
//! stdin -> hsaco's text, one instruction per line: `examples/lines.rs`.)
use std::collections::HashMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: gaps VECTORS.txt [INVALID] KNOWN-GAPS");
        std::process::exit(2);
    }
    let read = |p: &str| std::fs::read_to_string(p).expect("read");
    let mut want: HashMap<String, String> = HashMap::new();
    for line in read(&args[1])
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (hex, rest) = line.split_once(" | ").expect("vector line");
        let (text, procs) = rest.rsplit_once(" | ").expect("vector line");
        for p in procs.split(',') {
            want.insert(format!("{hex} | {p}"), text.to_string());
        }
    }
    if args.len() > 3 {
        for line in read(&args[2])
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (hex, procs) = line.split_once(" | ").expect("invalid line");
            for p in procs.split(',') {
                want.insert(format!("{hex} | {p}"), "<invalid>".to_string());
            }
        }
    }
    for line in read(args.last().unwrap())
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (hex, p) = line.split_once(" | ").expect("gap line");
        let bytes: Vec<u8> = hex
            .split_whitespace()
            .flat_map(|w| u32::from_str_radix(w, 16).expect("hex").to_le_bytes())
            .collect();
        let got = text(p, &bytes);
        let w = want.get(line).map(String::as_str).unwrap_or("?");
        println!("{hex} | {p} | {w} | {got}");
    }
}

fn text(p: &str, bytes: &[u8]) -> String {
    let dec = hsaco_isa::Decoder::for_processor(p).expect("processor");
    match dec.decode(bytes) {
        Ok(i) if usize::from(i.size) == bytes.len() => dec.text(&i),
        Ok(i) => format!("{} (size {})", dec.text(&i), i.size),
        Err(e) => format!("<error: {e}>"),
    }
}
