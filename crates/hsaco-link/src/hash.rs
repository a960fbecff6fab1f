//! The two symbol hash functions of ELF dynamic linking.

/// The SysV ELF hash (`.hash`).
pub fn sysv(name: &[u8]) -> u32 {
    let mut h: u32 = 0;
    for &c in name {
        h = (h << 4).wrapping_add(u32::from(c));
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h &= !g;
    }
    h
}

/// The GNU hash (`.gnu.hash`): djb2 over the bytes.
pub fn gnu(name: &[u8]) -> u32 {
    let mut h: u32 = 5381;
    for &c in name {
        h = h.wrapping_mul(33).wrapping_add(u32::from(c));
    }
    h
}

#[cfg(test)]
mod tests {
    // expected values from the System V ABI and the GNU hash definition, for names
    // whose hashes are published widely (and checked against the corpus's .hash
    // tables by the golden tests)
    #[test]
    fn known_values() {
        assert_eq!(super::sysv(b""), 0);
        assert_eq!(super::gnu(b""), 5381);
        assert_eq!(super::sysv(b"printf"), 0x077905a6);
        assert_eq!(super::gnu(b"printf"), 0x156b2bb8);
    }
}
