//! AMDGPU code objects: a zero-copy ELF reader and a writer, note records, code
//! object metadata (YAML for v2, MessagePack for v3 onwards), kernel descriptors and
//! offload bundles.

mod code_object;
pub mod config;
mod error;

pub mod bundle;
pub mod elf;
pub mod kd;
pub mod metadata;
pub mod msgpack;
pub mod note;
pub mod yaml;

#[doc(hidden)]
pub mod fuzzing;

pub use code_object::{
    CodeObject, DescriptorBytes, KernelSymbol, MetadataNote, AMD_KERNEL_CODE_T_SIZE,
    KERNEL_DESCRIPTOR_SIZE,
};
pub use error::{Error, Result};
