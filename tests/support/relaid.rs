// Test support shared by tests/read_fast_path.rs and the unit tests of
// src/cmd/read/fast.rs (with `include!`): an ELF object laid out again so that
// the read fast path must read it in parts.

/// `data` (a 64-bit ELF file) laid out again, larger than the fast path's first read:
/// `gap` zero bytes after it, then (with `spread`) a copy of every section with
/// contents, each after `gap` more zeros, then `gap` zeros and the section header
/// table, pointing at the copies, at the end (where LLVM puts it). The fast path
/// reads such a file in parts (src/cmd/read/files.rs, `read_parts`); with `spread`
/// every section it needs lies outside the first read and the headers' read.
fn relaid(data: &[u8], gap: usize, spread: bool) -> Option<Vec<u8>> {
    let u64_at = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
    if data.len() < 64 || data[..4] != *b"\x7fELF" || data[4] != 2 {
        return None;
    }
    let shoff = usize::try_from(u64_at(data, 40)).ok()?;
    let shnum = usize::from(u16::from_le_bytes([data[60], data[61]]));
    let mut headers = data.get(shoff..shoff.checked_add(shnum * 64)?)?.to_vec();
    let mut out = data.to_vec();
    if spread {
        for h in headers.chunks_exact_mut(64) {
            let kind = u32::from_le_bytes(h[4..8].try_into().unwrap());
            let (off, size) = (u64_at(h, 24) as usize, u64_at(h, 32) as usize);
            let Some(bytes) = data.get(off..off.saturating_add(size)) else {
                continue;
            };
            if kind == 0 || kind == 8 || size == 0 {
                continue;
            }
            let at = (out.len() + gap).next_multiple_of(8);
            out.resize(at, 0);
            out.extend_from_slice(bytes);
            h[24..32].copy_from_slice(&(at as u64).to_le_bytes());
        }
    }
    let at = (out.len() + gap).next_multiple_of(8);
    out.resize(at, 0);
    out.extend_from_slice(&headers);
    out[40..48].copy_from_slice(&(at as u64).to_le_bytes());
    Some(out)
}
