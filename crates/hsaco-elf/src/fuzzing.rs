//! Entry points shared by the cargo-fuzz targets (`fuzz/`) and the seeded smoke tests
//! that `cargo test` runs. Each takes arbitrary bytes and must never panic.

/// The ELF reader: parse, then walk every section, segment, symbol and relocation.
pub fn elf(data: &[u8]) {
    crate::elf::fuzz_entry(data);
}

/// The note record reader (v2 "AMD" notes and v3+ "AMDGPU" notes).
pub fn note(data: &[u8]) {
    crate::note::fuzz_entry(data);
}

/// The MessagePack reader and the v3+ metadata decoder.
pub fn msgpack(data: &[u8]) {
    crate::metadata::fuzz_msgpack(data);
}

/// The YAML reader and the v2 metadata decoder.
pub fn yaml(data: &[u8]) {
    crate::metadata::fuzz_yaml(data);
}

/// The offload bundle / compressed bundle / OffloadBinary readers.
pub fn bundle(data: &[u8]) {
    crate::bundle::fuzz_entry(data);
}

/// Kernel descriptor and amd_kernel_code_t decoding and printing.
pub fn kd(data: &[u8]) {
    crate::kd::fuzz_entry(data);
}

/// A seeded mutation run over `seeds`, for the smoke tests inside `cargo test` and
/// for `cargo xtask fuzz-smoke`: `iterations` inputs, each a seed with one to four
/// mutations (truncation, bit flip, random byte, an aligned field overwritten with a
/// bad offset or a huge count, a block duplicated). Deterministic for a given `seed`.
/// Returns the number of inputs run. A panic in `entry` propagates to the caller.
pub fn mutation_smoke(entry: fn(&[u8]), seeds: &[&[u8]], iterations: usize, seed: u64) -> usize {
    if seeds.is_empty() {
        return 0;
    }
    let mut rng = SplitMix64(seed);
    let mut buf = Vec::new();
    for i in 0..iterations {
        let base = seeds[i % seeds.len()];
        buf.clear();
        buf.extend_from_slice(base);
        for _ in 0..1 + rng.below(4) {
            mutate(&mut buf, &mut rng);
        }
        entry(&buf);
    }
    iterations
}

fn mutate(buf: &mut Vec<u8>, rng: &mut SplitMix64) {
    if buf.is_empty() {
        buf.push(rng.next() as u8);
        return;
    }
    let len = buf.len();
    match rng.below(7) {
        0 => buf.truncate(rng.below(len)),
        1 => {
            let i = rng.below(len);
            buf[i] ^= 1 << rng.below(8);
        }
        2 => {
            let i = rng.below(len);
            buf[i] = rng.next() as u8;
        }
        3 | 4 => {
            // an aligned 4- or 8-byte field replaced by a bad offset or a huge count
            let width = if rng.below(2) == 0 { 4 } else { 8 };
            if len >= width {
                let i = rng.below(len - width + 1) & !(width - 1);
                let value: u64 = match rng.below(5) {
                    0 => u64::MAX,
                    1 => u64::from(u32::MAX),
                    2 => 0x8000_0000,
                    3 => rng.below(len * 2 + 1) as u64,
                    _ => rng.next(),
                };
                buf[i..i + width].copy_from_slice(&value.to_le_bytes()[..width]);
            }
        }
        5 => {
            let start = rng.below(len);
            let end = (start + 1 + rng.below(64)).min(len);
            let block = buf[start..end].to_vec();
            let at = rng.below(len);
            buf.splice(at..at, block);
        }
        _ => {
            let start = rng.below(len);
            let end = (start + 1 + rng.below(256)).min(len);
            buf.drain(start..end);
        }
    }
}

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}
