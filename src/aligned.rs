//! A byte buffer whose first byte sits on a 64-byte boundary, for reading files into.
//!
//! The kernel copies a file's bytes out of its page cache, where byte `x` of the file
//! sits at `x % 4096` in its page. When the buffer's byte `x` sits a few bytes after
//! that (its address, modulo 4096, is 1 to 31 bytes past the page cache's), the copy
//! is two to three times slower on the AMD EPYC of this project's VM: the copy's stores
//! and its next loads look alike to the processor. A `Vec<u8>` from the allocator
//! starts 16 bytes into a page when it is large (glibc maps large blocks and keeps a
//! 16-byte header), which is exactly that case: reading the corpus's 2326 files
//! (18.8 MB) took 21.7 ms with the buffer 16 bytes past a page boundary and 11.0 ms
//! with it on one (1 byte: 31.4 ms; 32, 48, 64, 256, 2048 bytes: 11.0-11.4 ms).
//! Starting on a 64-byte boundary puts the two a whole number of cache lines apart.

use std::ops::{Deref, DerefMut};

/// The boundary the bytes start on.
const ALIGN: usize = 64;

/// A growable byte buffer starting on a [`ALIGN`]-byte boundary.
#[derive(Default)]
pub struct AlignedBuf {
    /// The allocation; the bytes are `raw[start..start + len]`.
    raw: Vec<u8>,
    start: usize,
    len: usize,
}

impl AlignedBuf {
    /// Sets the length to `len`, keeping the bytes before it; new bytes are zero.
    pub fn resize(&mut self, len: usize) {
        if len <= self.len {
            self.len = len;
            return;
        }
        if self.start + len <= self.raw.len() {
            self.raw[self.start + self.len..self.start + len].fill(0);
            self.len = len;
            return;
        }
        self.reallocate(len, self.len);
    }

    /// Sets the length to `len`, keeping the first `keep` bytes: those after them
    /// are zero or whatever the buffer held before, for a caller that overwrites
    /// them. Growing, the allocation doubles at least (its pages untouched until
    /// written) and only the kept bytes are copied, so a buffer reused for files of
    /// growing sizes neither fills nor copies what the next file overwrites anyway.
    pub fn resize_keeping(&mut self, len: usize, keep: usize) {
        if self.start + len <= self.raw.len() {
            if len > self.len && self.len < keep {
                // (bytes before `keep` must be as `resize` leaves them)
                let end = keep.min(len);
                self.raw[self.start + self.len..self.start + end].fill(0);
            }
            self.len = len;
            return;
        }
        let capacity = len.max(2 * self.raw.len().saturating_sub(ALIGN));
        self.reallocate(capacity, keep.min(self.len).min(len));
        self.len = len;
    }

    /// A new allocation of `len` bytes, holding the first `keep` bytes of this one.
    fn reallocate(&mut self, len: usize, keep: usize) {
        // (zeroed memory comes as fresh pages: no fill pass)
        let mut raw = vec![0u8; len + ALIGN - 1];
        let start = (ALIGN - raw.as_ptr() as usize % ALIGN) % ALIGN;
        raw[start..start + keep].copy_from_slice(&self.raw[self.start..self.start + keep]);
        *self = AlignedBuf { raw, start, len };
    }
}

impl From<&[u8]> for AlignedBuf {
    fn from(bytes: &[u8]) -> AlignedBuf {
        let mut b = AlignedBuf::default();
        b.resize(bytes.len());
        b.copy_from_slice(bytes);
        b
    }
}

impl std::fmt::Debug for AlignedBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AlignedBuf({} bytes)", self.len)
    }
}

impl Deref for AlignedBuf {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.raw[self.start..self.start + self.len]
    }
}

impl DerefMut for AlignedBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.raw[self.start..self.start + self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resize_keeping_keeps_the_bytes_asked_for() {
        let mut b = AlignedBuf::default();
        for (len, keep) in [
            (10, 0),
            (100, 50),
            (5000, 64),
            (40, 40),
            (1 << 18, 1000),
            (300, 300),
            (1 << 17, 64),
        ] {
            let before: Vec<u8> = b[..keep.min(b.len())].to_vec();
            b.resize_keeping(len, keep);
            assert_eq!(b.len(), len);
            assert_eq!(b.as_ptr() as usize % ALIGN, 0, "length {len}");
            let kept = before.len().min(len);
            assert!(b[..kept] == before[..kept], "length {len}, keep {keep}");
            // bytes between the old length and `keep` read as zero, as after `resize`
            assert!(
                b[kept..keep.min(len)].iter().all(|&x| x == 0),
                "length {len}"
            );
            for (i, x) in b.iter_mut().enumerate() {
                *x = (i * 7 + len) as u8 | 1;
            }
        }
    }

    #[test]
    fn starts_on_the_boundary_and_keeps_its_bytes_as_it_grows() {
        let mut b = AlignedBuf::default();
        assert!(b.is_empty());
        let mut want = Vec::new();
        for len in [1, 100, 64, 5000, 4999, 1 << 17, 3, 1 << 20] {
            b.resize(len);
            want.resize(len, 0);
            assert_eq!(b.len(), len);
            assert_eq!(b.as_ptr() as usize % ALIGN, 0, "length {len}");
            assert!(b[..] == want[..], "length {len}");
            // new content, checked after the next resize
            for (i, (x, y)) in b.iter_mut().zip(want.iter_mut()).enumerate() {
                *x = (i * 7 + len) as u8;
                *y = *x;
            }
        }
    }
}
