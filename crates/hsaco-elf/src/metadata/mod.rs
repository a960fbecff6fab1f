//! (being written)

#[doc(hidden)]
pub fn fuzz_msgpack(_data: &[u8]) {}

#[doc(hidden)]
pub fn fuzz_yaml(_data: &[u8]) {}
