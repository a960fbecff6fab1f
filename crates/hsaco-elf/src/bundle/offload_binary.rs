//! LLVM OffloadBinary (magic `10 FF 10 AD`), format version 1, as written by
//! `clang-offload-packager` and the new offload driver into `.llvm.offloading`.
//!
//! Layout (little-endian; offsets absolute from the start of the binary): header
//! {magic, `u32` version, `u64` size, `u64` entry offset, `u64` entry size}; entry
//! {`u16` image kind, `u16` offload kind, `u32` flags, `u64` string-entry offset,
//! `u64` string count, `u64` image offset, `u64` image size}; string entries
//! {`u64` key offset, `u64` value offset} pointing at NUL-terminated strings.
//! Several binaries may be concatenated (each sized by its header).

use std::fmt;

use super::bytes::{mul, slice, u16_at, u32_at, u64_at};
use crate::{Error, Result};

/// The magic bytes of an OffloadBinary.
pub const OFFLOAD_BINARY_MAGIC: &[u8; 4] = &[0x10, 0xff, 0x10, 0xad];

/// What an OffloadBinary image contains (`IMG_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageKind(pub u16);

impl ImageKind {
    /// `IMG_None`: not stated.
    pub const IMG_NONE: Self = Self(0);
    /// `IMG_Object`: an object file (for AMDGPU, a code object).
    pub const IMG_OBJECT: Self = Self(1);
    /// `IMG_Bitcode`: LLVM bitcode.
    pub const IMG_BITCODE: Self = Self(2);
    /// `IMG_Cubin`.
    pub const IMG_CUBIN: Self = Self(3);
    /// `IMG_Fatbinary`.
    pub const IMG_FATBINARY: Self = Self(4);
    /// `IMG_PTX`.
    pub const IMG_PTX: Self = Self(5);
    /// `IMG_SPIRV`.
    pub const IMG_SPIRV: Self = Self(6);
}

impl fmt::Display for ImageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("none"),
            1 => f.write_str("elf"),
            2 => f.write_str("llvm ir"),
            3 => f.write_str("cubin"),
            4 => f.write_str("fatbinary"),
            5 => f.write_str("ptx"),
            6 => f.write_str("spir-v"),
            n => write!(f, "image kind {n}"),
        }
    }
}

/// The producer of an OffloadBinary image (`OFK_*`, one bit each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OffloadKind(pub u16);

impl OffloadKind {
    /// `OFK_None`.
    pub const OFK_NONE: Self = Self(0);
    /// `OFK_OpenMP`.
    pub const OFK_OPENMP: Self = Self(1);
    /// `OFK_Cuda`.
    pub const OFK_CUDA: Self = Self(2);
    /// `OFK_HIP`.
    pub const OFK_HIP: Self = Self(4);
    /// `OFK_SYCL`.
    pub const OFK_SYCL: Self = Self(8);

    /// The name used in bundle entry IDs (`openmp`, `cuda`, `hip`, `sycl`), or
    /// `none`/`unknown`.
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "none",
            1 => "openmp",
            2 => "cuda",
            4 => "hip",
            8 => "sycl",
            _ => "unknown",
        }
    }
}

impl fmt::Display for OffloadKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One parsed OffloadBinary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffloadBinary<'a> {
    /// Format version (1).
    pub version: u32,
    /// Bytes the binary occupies (its header's size field).
    pub size: u64,
    /// Image kind.
    pub image_kind: ImageKind,
    /// Offload kind.
    pub offload_kind: OffloadKind,
    /// Entry flags.
    pub flags: u32,
    /// The key/value strings (`triple`, `arch`, ...), in table order.
    pub strings: Vec<(&'a str, &'a str)>,
    /// Offset of the image from the start of the binary.
    pub image_offset: u64,
    /// The device image.
    pub image: &'a [u8],
}

impl<'a> OffloadBinary<'a> {
    /// The value of string `key`, if present.
    pub fn string(&self, key: &str) -> Option<&'a str> {
        self.strings
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    /// The `triple` string.
    pub fn triple(&self) -> Option<&'a str> {
        self.string("triple")
    }

    /// The `arch` string (for AMDGPU, a target ID such as `gfx90a:xnack+`).
    pub fn arch(&self) -> Option<&'a str> {
        self.string("arch")
    }
}

/// Whether `data` starts with the OffloadBinary magic.
pub fn is_offload_binary(data: &[u8]) -> bool {
    data.starts_with(OFFLOAD_BINARY_MAGIC)
}

fn c_str<'a>(data: &'a [u8], off: u64, what: &str) -> Result<&'a str> {
    let start = usize::try_from(off)
        .ok()
        .filter(|&s| s < data.len())
        .ok_or_else(|| Error::new(off, format!("{what} is outside the binary")))?;
    let rest = &data[start..];
    let len = rest
        .iter()
        .position(|&b| b == 0)
        .ok_or_else(|| Error::new(off, format!("{what} is not NUL-terminated")))?;
    std::str::from_utf8(&rest[..len]).map_err(|_| Error::new(off, format!("{what} is not UTF-8")))
}

/// Parses the OffloadBinary at `data[0]`; bytes after its size are ignored.
pub fn parse_offload_binary(data: &[u8]) -> Result<OffloadBinary<'_>> {
    if !is_offload_binary(data) {
        return Err(Error::new(0, "not an OffloadBinary (no 0x10FF10AD magic)"));
    }
    let version = u32_at(data, 4, "OffloadBinary version")?;
    if version != 1 {
        return Err(Error::new(
            4,
            format!("unsupported OffloadBinary version {version}"),
        ));
    }
    let size = u64_at(data, 8, "OffloadBinary size")?;
    let entry_offset = u64_at(data, 16, "OffloadBinary entry offset")?;
    let entry_size = u64_at(data, 24, "OffloadBinary entry size")?;
    if size < 32 {
        return Err(Error::new(
            8,
            format!("OffloadBinary size {size:#x} is smaller than its header"),
        ));
    }
    let bin = slice(data, 0, size, "OffloadBinary")?;
    if entry_size < 40 {
        return Err(Error::new(
            24,
            format!("OffloadBinary entry size {entry_size:#x} is under 40"),
        ));
    }
    slice(bin, entry_offset, entry_size, "OffloadBinary entry")?;
    let e = entry_offset;
    let image_kind = ImageKind(u16_at(bin, e, "image kind")?);
    let offload_kind = OffloadKind(u16_at(bin, e + 2, "offload kind")?);
    let flags = u32_at(bin, e + 4, "flags")?;
    let string_offset = u64_at(bin, e + 8, "string offset")?;
    let num_strings = u64_at(bin, e + 16, "string count")?;
    let image_offset = u64_at(bin, e + 24, "image offset")?;
    let image_size = u64_at(bin, e + 32, "image size")?;
    let table_len = mul(num_strings, 16, e + 16, "string table size")?;
    let table = slice(
        bin,
        string_offset,
        table_len,
        "OffloadBinary string entries",
    )?;
    let mut strings = Vec::with_capacity(num_strings as usize);
    for (i, pair) in table.chunks_exact(16).enumerate() {
        let at = string_offset + 16 * i as u64;
        let key = c_str(bin, u64_at(pair, 0, "key offset")?, "string key")
            .map_err(|x| Error::new(at, x.message))?;
        let value = c_str(bin, u64_at(pair, 8, "value offset")?, "string value")
            .map_err(|x| Error::new(at + 8, x.message))?;
        strings.push((key, value));
    }
    let image = slice(bin, image_offset, image_size, "OffloadBinary image")?;
    Ok(OffloadBinary {
        version,
        size,
        image_kind,
        offload_kind,
        flags,
        strings,
        image_offset,
        image,
    })
}
