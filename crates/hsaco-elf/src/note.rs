//! (being written)

#[doc(hidden)]
pub fn fuzz_entry(_data: &[u8]) {}
