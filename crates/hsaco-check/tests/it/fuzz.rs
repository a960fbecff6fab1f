//! No panic on any input: the whole check over mutated real code objects.

use crate::object;

#[test]
fn mutation_smoke() {
    let seeds: Vec<Vec<u8>> = [
        "gfx803-cov5.co",
        "gfx906-cov4.co",
        "gfx1030-cov5.co",
        "mixed-gfx803-cov5-gfx906-cov6.bundle",
    ]
    .iter()
    .map(|f| object(f))
    .collect();
    let refs: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
    let n =
        hsaco_elf::fuzzing::mutation_smoke(hsaco_check::fuzz_entry, &refs, ITERATIONS, 0x4348_4543);
    assert_eq!(n, ITERATIONS);
}

const ITERATIONS: usize = 20_000;
