//! No panic on any input: the whole check (code objects and bundles, device and
//! runtime rules, conformance, the ABI lints over decoded code, text and JSON
//! reports) over mutated real code objects.

use crate::{data_dir, object};

#[test]
fn mutation_smoke() {
    let lint = |f: &str| std::fs::read(data_dir().join("lints").join(f)).unwrap();
    // small seeds that reach every stage: the lint fixtures (gfx8 and gfx9 code with
    // calls, hidden-field loads and m0), an LLVM-built wave32 object and a bundle of
    // two LLVM-built objects
    let seeds: Vec<Vec<u8>> = vec![
        lint("m0-gfx803.co"),
        lint("wrong-base-gfx900.co"),
        lint("generic-private-gfx803.co"),
        object("gfx1030-cov5.co"),
        object("mixed-gfx803-cov5-gfx906-cov6.bundle"),
    ];
    let refs: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    let n =
        hsaco_elf::fuzzing::mutation_smoke(hsaco_check::fuzz_entry, &refs, ITERATIONS, 0x4348_4543);
    assert_eq!(n, ITERATIONS);
}

/// 100,000 inputs. Unoptimized this takes ~40 s on the shared 2-core machine under
/// load 5 (~15 s idle); with `opt-level = 1` for hsaco-check, hsaco-isa, hsaco-abi and
/// hsaco-target in the workspace's dev profile (as hsaco-elf has) ~8.7 s under the
/// same load. Measured with `cargo test -p hsaco-check --test it mutation_smoke`.
const ITERATIONS: usize = 100_000;
