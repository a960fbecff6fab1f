//! Throughput of the readelf metadata printer
//! ([`hsaco_elf::metadata::write_amdgpu_metadata_block`]) on real descriptors: the
//! distinct `NT_AMDGPU_METADATA` descriptors of the code objects under a directory
//! (default `/work/corpus/out`; `*.o` and `*.co`), printed in order `N` times
//! (default 200), each pass on a new thread as one `hsaco read` run would. Prints ns per note, MB/s of YAML written, and a checksum of one pass's
//! output so runs before and after a change can be compared.
//!
//! `cargo run --release -p hsaco-elf --example metadata_printer_bench -- [DIR] [N]`
//!
//! A measurement to repeat, not a test: nothing here asserts a time.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use hsaco_elf::metadata::write_amdgpu_metadata_block;
use hsaco_elf::{CodeObject, MetadataNote};

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, files);
        } else if p.extension().is_some_and(|x| x == "o" || x == "co") {
            files.push(p);
        }
    }
}

/// FNV-1a, enough to tell two outputs apart.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "/work/corpus/out".into()));
    let reps: usize = args.next().map_or(200, |n| n.parse().expect("N: a number"));

    let mut files = Vec::new();
    walk(&dir, &mut files);
    files.sort();
    let mut seen = HashSet::new();
    let mut descs: Vec<Vec<u8>> = Vec::new();
    for f in &files {
        let Ok(data) = std::fs::read(f) else { continue };
        let Ok(co) = CodeObject::parse(&data) else {
            continue;
        };
        if let Ok(Some(MetadataNote::MsgPack { desc, .. })) = co.metadata_note() {
            if !desc.is_empty() && seen.insert(desc.to_vec()) {
                descs.push(desc.to_vec());
            }
        }
    }
    assert!(
        !descs.is_empty(),
        "no metadata notes under {}",
        dir.display()
    );

    let mut out = Vec::new();
    for d in &descs {
        write_amdgpu_metadata_block(d, &mut out);
    }
    let pass_bytes = out.len();
    let sum = fnv(&out);

    let mut best = f64::INFINITY;
    let mut total = 0f64;
    let rounds = 5;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..reps {
            // each pass on a new thread: the printer keeps per-thread state (a memo
            // of printed argument maps), which would otherwise be warm with every
            // note of the pass before, unlike in one run of `hsaco read`
            std::thread::scope(|s| {
                s.spawn(|| {
                    out.clear();
                    for d in &descs {
                        write_amdgpu_metadata_block(d, &mut out);
                    }
                    std::hint::black_box(&out);
                });
            });
        }
        let s = t.elapsed().as_secs_f64();
        best = best.min(s);
        total += s;
    }
    let notes = (descs.len() * reps) as f64;
    let in_bytes: usize = descs.iter().map(Vec::len).sum();
    println!(
        "{} files, {} distinct notes ({} B msgpack -> {} B YAML per pass), {} passes x {} rounds",
        files.len(),
        descs.len(),
        in_bytes,
        pass_bytes,
        reps,
        rounds
    );
    println!(
        "best: {:.0} ns/note, {:.0} MB/s out; mean: {:.0} ns/note; output fnv {:016x}",
        best * 1e9 / notes,
        (pass_bytes * reps) as f64 / best / 1e6,
        total / rounds as f64 * 1e9 / notes,
        sum
    );
}
