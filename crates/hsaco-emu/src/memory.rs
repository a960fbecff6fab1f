//! The device's global address space: bounds-checked regions at fixed 64-bit addresses.
//!
//! Nothing is mapped below [`layout::LOWEST`], so null and near-null pointers fault as
//! on a GPU. Every access names its address; an access that is not wholly inside one
//! region is a fault (the caller adds the lane, instruction and PC).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Where the dispatcher places things (realistic, widely spaced canonical addresses,
/// like those ROCr hands out on a 48-bit virtual address space).
pub mod layout {
    /// Nothing is mapped below this address.
    pub const LOWEST: u64 = 0x1_0000_0000;
    /// The loaded code object image.
    pub const CODE: u64 = 0x7f3a_1200_0000;
    /// The `amd_queue_t` object and its packet ring.
    pub const QUEUE: u64 = 0x7f3a_4000_0000;
    /// The kernarg segment.
    pub const KERNARG: u64 = 0x7f3a_5000_0000;
    /// The queue's scratch backing memory.
    pub const SCRATCH: u64 = 0x7f3b_0000_0000;
    /// The first global allocation; the next ones follow every [`GLOBAL_STRIDE`] bytes.
    pub const GLOBAL: u64 = 0x7f40_0000_0000;
    /// Distance between global allocations (4 GiB: a 32-bit overflow never lands in a
    /// neighbouring buffer).
    pub const GLOBAL_STRIDE: u64 = 0x1_0000_0000;
}

/// One mapped range.
#[derive(Clone, Debug)]
pub struct Region {
    /// First address.
    pub base: u64,
    /// Contents (while the region is shared, see [`Memory::share`], as they were
    /// when sharing began; their length is the region's).
    pub data: Vec<u8>,
    /// What it is (for messages): `kernarg`, `arg 2`, `code`, ...
    pub name: String,
    /// The contents while shared between host threads: little-endian 8-byte words that
    /// every thread reads and writes with atomic operations.
    shared: Option<Arc<[AtomicU64]>>,
}

/// The bytes `off..off + out.len()` of shared words.
fn shared_read(w: &[AtomicU64], off: usize, out: &mut [u8]) {
    for (k, b) in out.iter_mut().enumerate() {
        let at = off + k;
        *b = w
            .get(at / 8)
            .map_or(0, |x| (x.load(Ordering::Relaxed) >> (8 * (at % 8))) as u8);
    }
}

/// Write bytes into shared words: a whole word with one store, part of one by clearing
/// and setting only its bytes, so that other threads' writes to the other bytes of the
/// word stay.
fn shared_write(w: &[AtomicU64], off: usize, bytes: &[u8]) {
    let mut k = 0;
    while k < bytes.len() {
        let at = off + k;
        let (word, sh) = (at / 8, at % 8);
        let n = (8 - sh).min(bytes.len() - k);
        let Some(x) = w.get(word) else { return };
        let mut v = [0u8; 8];
        v[sh..sh + n].copy_from_slice(&bytes[k..k + n]);
        let v = u64::from_le_bytes(v);
        if n == 8 {
            x.store(v, Ordering::Relaxed);
        } else {
            let mask = (u64::MAX >> (64 - 8 * n)) << (8 * sh);
            x.fetch_and(!mask, Ordering::Relaxed);
            x.fetch_or(v, Ordering::Relaxed);
        }
        k += n;
    }
}

/// The address space: regions sorted by base, never overlapping.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    regions: Vec<Region>,
    /// The region the last access hit (accesses of a wave mostly stay in one).
    last: std::cell::Cell<usize>,
}

/// An address that is not mapped (or an access that crosses a region's end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmapped(pub u64);

impl Memory {
    /// An empty address space.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Map `data` at `base`. Fails if it overlaps a mapped region or lies below
    /// [`layout::LOWEST`].
    pub fn map(&mut self, base: u64, data: Vec<u8>, name: &str) -> Result<(), String> {
        let end = base
            .checked_add(data.len() as u64)
            .ok_or_else(|| format!("{name}: region at {base:#x} wraps the address space"))?;
        if base < layout::LOWEST {
            return Err(format!(
                "{name}: region at {base:#x} below {:#x}",
                layout::LOWEST
            ));
        }
        let pos = self.regions.partition_point(|r| r.base < base);
        let overlaps_prev = pos > 0 && {
            let p = &self.regions[pos - 1];
            p.base + p.data.len() as u64 > base
        };
        let overlaps_next = pos < self.regions.len() && self.regions[pos].base < end;
        if overlaps_prev || overlaps_next {
            return Err(format!("{name}: region at {base:#x} overlaps another"));
        }
        self.regions.insert(
            pos,
            Region {
                base,
                data,
                name: name.to_string(),
                shared: None,
            },
        );
        Ok(())
    }

    /// The mapped regions, by address.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The region that starts at `base`.
    pub fn region_at(&self, base: u64) -> Option<&Region> {
        self.regions.iter().find(|r| r.base == base)
    }

    #[inline(always)]
    fn locate(&self, addr: u64, len: usize) -> Result<(usize, usize), Unmapped> {
        if let Some(r) = self.regions.get(self.last.get()) {
            let off = addr.wrapping_sub(r.base);
            if off < r.data.len() as u64 && off + len as u64 <= r.data.len() as u64 {
                return Ok((self.last.get(), off as usize));
            }
        }
        let pos = self.regions.partition_point(|r| r.base <= addr);
        if pos == 0 {
            return Err(Unmapped(addr));
        }
        let r = &self.regions[pos - 1];
        let off = addr - r.base;
        if off
            .checked_add(len as u64)
            .is_some_and(|e| e <= r.data.len() as u64)
        {
            Ok((pos - 1, off as usize))
        } else {
            Err(Unmapped(addr.max(r.base + r.data.len() as u64)))
        }
    }

    /// Share the regions that start at `bases` (the buffers) between the clones of this
    /// memory, for running work-groups on several host threads: from then on every
    /// access to them, from any clone, goes to one set of atomic words, and the atomic
    /// operations ([`Memory::atomic`]) are atomic across the threads.
    /// [`Memory::unshare`] brings the contents back into [`Region::data`].
    pub fn share(&mut self, bases: &[u64]) {
        for r in self.regions.iter_mut() {
            if r.shared.is_none() && bases.contains(&r.base) {
                let words: Vec<AtomicU64> = r
                    .data
                    .chunks(8)
                    .map(|c| {
                        let mut v = [0u8; 8];
                        v[..c.len()].copy_from_slice(c);
                        AtomicU64::new(u64::from_le_bytes(v))
                    })
                    .collect();
                r.shared = Some(words.into());
            }
        }
    }

    /// Copy the shared regions' words back into their bytes and stop sharing them.
    pub fn unshare(&mut self) {
        for r in self.regions.iter_mut() {
            if let Some(w) = r.shared.take() {
                shared_read(&w, 0, &mut r.data);
            }
        }
    }

    /// An atomic read-modify-write of `n` (1 to 8) bytes at `addr`: `op` gives the new
    /// value from the old one; returns the old one. Atomic across threads in a shared
    /// region when the access is naturally aligned (as the hardware requires of
    /// atomics); an unaligned one there is a read and a write.
    pub fn atomic(
        &mut self,
        addr: u64,
        n: usize,
        op: impl Fn(u64) -> u64,
    ) -> Result<u64, Unmapped> {
        let n = n.clamp(1, 8);
        let (i, off) = self.locate(addr, n)?;
        let r = &mut self.regions[i];
        let mask = u64::MAX >> (64 - 8 * n);
        if let Some(w) = &r.shared {
            let sh = 8 * (off % 8);
            if let (Some(x), true) = (w.get(off / 8), off % n == 0 && off % 8 + n <= 8) {
                let mut old = 0;
                let _ = x.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |word| {
                    old = (word >> sh) & mask;
                    Some(word & !(mask << sh) | (op(old) & mask) << sh)
                });
                return Ok(old);
            }
            let mut b = [0u8; 8];
            shared_read(w, off, &mut b[..n]);
            let old = u64::from_le_bytes(b);
            shared_write(w, off, &(op(old) & mask).to_le_bytes()[..n]);
            return Ok(old);
        }
        let cell = &mut r.data[off..off + n];
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(cell);
        let old = u64::from_le_bytes(b);
        cell.copy_from_slice(&(op(old) & mask).to_le_bytes()[..n]);
        Ok(old)
    }

    /// Read `out.len()` bytes at `addr`.
    #[inline]
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), Unmapped> {
        let (i, off) = self.locate(addr, out.len())?;
        let r = &self.regions[i];
        match &r.shared {
            None => out.copy_from_slice(&r.data[off..off + out.len()]),
            Some(w) => shared_read(w, off, out),
        }
        Ok(())
    }

    /// Write `bytes` at `addr`.
    #[inline]
    pub fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), Unmapped> {
        let (i, off) = self.locate(addr, bytes.len())?;
        let r = &mut self.regions[i];
        match &r.shared {
            None => r.data[off..off + bytes.len()].copy_from_slice(bytes),
            Some(w) => shared_write(w, off, bytes),
        }
        Ok(())
    }

    /// The bytes `addr..addr+len` to read and modify in place; not for a shared region
    /// (see [`Memory::share`]: its accesses go through [`Memory::read`],
    /// [`Memory::write`] and [`Memory::atomic`]), which gives `Unmapped(addr)`.
    #[inline]
    pub fn slice_mut(&mut self, addr: u64, len: usize) -> Result<&mut [u8], Unmapped> {
        let (i, off) = self.locate(addr, len)?;
        let r = &mut self.regions[i];
        if r.shared.is_some() {
            return Err(Unmapped(addr));
        }
        Ok(&mut r.data[off..off + len])
    }

    /// The region holding all of `addr..addr+len`: its base and contents (None for a
    /// shared region too: use [`Memory::read`]).
    #[inline]
    pub fn span(&self, addr: u64, len: u64) -> Option<(u64, &[u8])> {
        let (i, _) = self.locate(addr, usize::try_from(len).ok()?).ok()?;
        let r = &self.regions[i];
        if r.shared.is_some() {
            return None;
        }
        Some((r.base, &r.data))
    }

    /// As [`Memory::span`], to modify.
    #[inline]
    pub fn span_mut(&mut self, addr: u64, len: u64) -> Option<(u64, &mut [u8])> {
        let (i, _) = self.locate(addr, usize::try_from(len).ok()?).ok()?;
        let r = &mut self.regions[i];
        if r.shared.is_some() {
            return None;
        }
        Some((r.base, &mut r.data))
    }

    /// A little-endian u32 at `addr`.
    #[inline]
    pub fn read_u32(&self, addr: u64) -> Result<u32, Unmapped> {
        let (i, off) = self.locate(addr, 4)?;
        if let Some(w) = &self.regions[i].shared {
            let mut b = [0u8; 4];
            shared_read(w, off, &mut b);
            return Ok(u32::from_le_bytes(b));
        }
        let d = &self.regions[i].data;
        Ok(u32::from_le_bytes([
            d[off],
            d[off + 1],
            d[off + 2],
            d[off + 3],
        ]))
    }

    /// Write a little-endian u32 at `addr`.
    #[inline]
    pub fn write_u32(&mut self, addr: u64, v: u32) -> Result<(), Unmapped> {
        let (i, off) = self.locate(addr, 4)?;
        if let Some(w) = &self.regions[i].shared {
            shared_write(w, off, &v.to_le_bytes());
            return Ok(());
        }
        let d = &mut self.regions[i].data;
        let b = v.to_le_bytes();
        d[off] = b[0];
        d[off + 1] = b[1];
        d[off + 2] = b[2];
        d[off + 3] = b[3];
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_and_near_null_fault() {
        let mut m = Memory::new();
        m.map(layout::GLOBAL, vec![0; 16], "a").unwrap();
        assert_eq!(m.read_u32(0), Err(Unmapped(0)));
        assert_eq!(m.read_u32(0x1000), Err(Unmapped(0x1000)));
        assert!(m.map(0, vec![0; 4], "null").is_err());
    }

    #[test]
    fn shared_regions_are_atomic_across_clones_and_threads() {
        let mut m = Memory::new();
        m.map(layout::GLOBAL, vec![0; 20], "a").unwrap();
        m.map(layout::KERNARG, vec![0; 8], "k").unwrap();
        m.share(&[layout::GLOBAL]);
        std::thread::scope(|sc| {
            for t in 0..2u8 {
                let mut c = m.clone();
                sc.spawn(move || {
                    for _ in 0..20_000 {
                        // a 32-bit counter in the middle of a word, a 64-bit one
                        c.atomic(layout::GLOBAL + 4, 4, |x| x + 1).unwrap();
                        c.atomic(layout::GLOBAL + 8, 8, |x| x + 3).unwrap();
                    }
                    // plain byte stores to the two threads' own bytes of one word
                    c.write(layout::GLOBAL + 16 + u64::from(t), &[t + 1])
                        .unwrap();
                    // the unshared region is the clone's own
                    c.write(layout::KERNARG, &[9]).unwrap();
                });
            }
        });
        assert_eq!(m.read_u32(layout::GLOBAL + 4), Ok(40_000));
        m.unshare();
        let d = &m.region_at(layout::GLOBAL).unwrap().data;
        assert_eq!(u64::from_le_bytes(d[8..16].try_into().unwrap()), 120_000);
        assert_eq!(&d[16..20], &[1, 2, 0, 0]);
        assert_eq!(m.region_at(layout::KERNARG).unwrap().data[0], 0);
        // an access past the end of a shared region still faults
        m.share(&[layout::GLOBAL]);
        assert_eq!(
            m.atomic(layout::GLOBAL + 18, 4, |x| x),
            Err(Unmapped(layout::GLOBAL + 20))
        );
        assert!(m.span(layout::GLOBAL, 4).is_none());
    }

    #[test]
    fn bounds_are_exact() {
        let mut m = Memory::new();
        m.map(layout::GLOBAL, vec![0; 16], "a").unwrap();
        m.write(layout::GLOBAL + 12, &7u32.to_le_bytes()).unwrap();
        assert_eq!(m.read_u32(layout::GLOBAL + 12), Ok(7));
        // the last byte of the access is one past the end
        assert_eq!(
            m.read_u32(layout::GLOBAL + 13),
            Err(Unmapped(layout::GLOBAL + 16))
        );
        assert_eq!(
            m.read_u32(layout::GLOBAL - 4),
            Err(Unmapped(layout::GLOBAL - 4))
        );
        assert!(m.map(layout::GLOBAL + 8, vec![0; 16], "b").is_err());
    }
}
