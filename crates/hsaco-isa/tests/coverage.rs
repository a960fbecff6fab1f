//! Opcode coverage of the LLVM text vectors: every instruction of every encoding in the
//! generated tables should be checked by at least one vector that hsaco prints exactly as
//! LLVM does. The instructions not yet covered are listed per generation in
//! `tests/data/<gen>.uncovered` (`ENCODING mnemonic` per line); the test fails when an
//! instruction outside that list loses its coverage, and when a listed one has gained it
//! (then `BLESS=1 cargo test -p hsaco-isa --test coverage` shrinks the list: review that
//! it only removed lines).
//!
//! Vectors are read from every `tests/data/<gen>.*txt` file (`<gen>.txt`, `<gen>.mimg.txt`,
//! ...). Encodings that share the opcode table of another (SDWA and DPP forms) are counted
//! under their own name, so `VOP1_SDWA v_mov_b32` is a separate item from `VOP1 v_mov_b32`
//! only when some vector of that form exists; the list of items is the opcode tables of
//! encodings that have their own table.

use hsaco_isa::{generations, Decoder};
use std::collections::BTreeSet;
use std::path::Path;

fn words_to_bytes(hex: &str) -> Vec<u8> {
    hex.split_whitespace()
        .flat_map(|w| u32::from_str_radix(w, 16).expect("hex word").to_le_bytes())
        .collect()
}

/// Items (`ENCODING mnemonic`) of a generation's own opcode tables.
fn items(gen: &hsaco_isa::IsaDesc) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    for enc in gen.encodings.iter().filter(|e| e.base.is_none()) {
        for row in enc.opcodes {
            all.insert(format!(
                "{} {}",
                enc.name,
                gen.ops[usize::from(row.op)].mnemonic
            ));
        }
    }
    all
}

/// Items covered by vectors that hsaco prints exactly as LLVM.
fn covered(gen: &str) -> (BTreeSet<String>, usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with(&format!("{gen}.")) && name.ends_with("txt")
        })
        .collect();
    files.sort();
    let mut seen = BTreeSet::new();
    let mut rows = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("vector file");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let Some((hex, rest)) = line.split_once(" | ") else {
                panic!("bad vector line in {}: {line}", path.display());
            };
            let Some((want, procs)) = rest.rsplit_once(" | ") else {
                panic!("bad vector line in {}: {line}", path.display());
            };
            let bytes = words_to_bytes(hex);
            for p in procs.split(',') {
                let dec = Decoder::for_processor(p).expect("processor");
                let Ok(inst) = dec.decode(&bytes) else {
                    continue;
                };
                if usize::from(inst.size) != bytes.len() || dec.text(&inst) != want {
                    continue;
                }
                rows += 1;
                let enc = dec.encoding(&inst);
                seen.insert(format!("{} {}", enc.name, dec.op(&inst).mnemonic));
                // a dual-issue word covers its Y half too (VOPDY, VOPD3Y)
                if let Some((y, _)) = dec.vopd_y(&inst) {
                    seen.insert(format!("{}Y {}", enc.name, y.mnemonic));
                }
            }
        }
    }
    (seen, rows)
}

#[test]
fn every_opcode_has_a_vector() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut problems = Vec::new();
    let mut summary = Vec::new();
    for isa in generations() {
        let gen = isa.generation;
        let all = items(isa);
        let (seen, rows) = covered(gen);
        let uncovered: BTreeSet<&String> = all.iter().filter(|i| !seen.contains(*i)).collect();
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/{gen}.uncovered"));
        if bless {
            let mut text = String::from(
                "# instructions of the tables without a passing LLVM vector (tests/coverage.rs)\n",
            );
            for i in &uncovered {
                text.push_str(i);
                text.push('\n');
            }
            std::fs::write(&path, text).expect("write uncovered list");
            continue;
        }
        let listed_text = std::fs::read_to_string(&path).unwrap_or_default();
        let listed: BTreeSet<&str> = listed_text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect();
        for i in &uncovered {
            if !listed.contains(i.as_str()) {
                problems.push(format!("{gen}: {i} has no passing vector any more"));
            }
        }
        for l in &listed {
            if seen.contains(*l) {
                problems.push(format!(
                    "{gen}: {l} is covered now: shrink {gen}.uncovered (BLESS=1)"
                ));
            } else if !all.contains(*l) {
                problems.push(format!(
                    "{gen}: {l} is not in the tables: shrink {gen}.uncovered (BLESS=1)"
                ));
            }
        }
        summary.push(format!(
            "{gen}: {} of {} instructions covered by {rows} passing vector checks",
            all.len() - uncovered.len(),
            all.len()
        ));
        assert!(
            !all.is_empty() && rows > 0,
            "{gen}: no tables or no vectors"
        );
    }
    eprintln!("{}", summary.join("\n"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
