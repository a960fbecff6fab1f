//! AMDGPU code objects: a zero-copy ELF reader and a writer, note records, code
//! object metadata (YAML for v2, MessagePack for v3 onwards), kernel descriptors and
//! offload bundles.

mod error;

pub use error::{Error, Result};
