//! The device's global address space: bounds-checked regions at fixed 64-bit addresses.
//!
//! Nothing is mapped below [`layout::LOWEST`], so null and near-null pointers fault as
//! on a GPU. Every access names its address; an access that is not wholly inside one
//! region is a fault (the caller adds the lane, instruction and PC).

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
    /// Contents.
    pub data: Vec<u8>,
    /// What it is (for messages): `kernarg`, `arg 2`, `code`, ...
    pub name: String,
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

    /// Read `out.len()` bytes at `addr`.
    #[inline]
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), Unmapped> {
        let (i, off) = self.locate(addr, out.len())?;
        out.copy_from_slice(&self.regions[i].data[off..off + out.len()]);
        Ok(())
    }

    /// Write `bytes` at `addr`.
    #[inline]
    pub fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), Unmapped> {
        let (i, off) = self.locate(addr, bytes.len())?;
        self.regions[i].data[off..off + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    /// The bytes `addr..addr+len` to read and modify in place.
    #[inline]
    pub fn slice_mut(&mut self, addr: u64, len: usize) -> Result<&mut [u8], Unmapped> {
        let (i, off) = self.locate(addr, len)?;
        Ok(&mut self.regions[i].data[off..off + len])
    }

    /// The region holding all of `addr..addr+len`: its base and contents.
    #[inline]
    pub fn span(&self, addr: u64, len: u64) -> Option<(u64, &[u8])> {
        let (i, _) = self.locate(addr, usize::try_from(len).ok()?).ok()?;
        let r = &self.regions[i];
        Some((r.base, &r.data))
    }

    /// As [`Memory::span`], to modify.
    #[inline]
    pub fn span_mut(&mut self, addr: u64, len: u64) -> Option<(u64, &mut [u8])> {
        let (i, _) = self.locate(addr, usize::try_from(len).ok()?).ok()?;
        let r = &mut self.regions[i];
        Some((r.base, &mut r.data))
    }

    /// A little-endian u32 at `addr`.
    #[inline]
    pub fn read_u32(&self, addr: u64) -> Result<u32, Unmapped> {
        let (i, off) = self.locate(addr, 4)?;
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
