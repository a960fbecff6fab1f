//! Compressed offload bundles (`CCOB`), versions 1, 2 and 3: reader and writer.
//!
//! Header fields (little-endian), after the magic `CCOB`, a `u16` version and a
//! `u16` compression method (0 zlib, 1 zstd):
//!
//! | version | total size      | uncompressed size | hash      | header size |
//! |---------|-----------------|-------------------|-----------|-------------|
//! | 1       | (none)          | `u32` at 8        | 8 at 12   | 20          |
//! | 2       | `u32` at 8      | `u32` at 12       | 8 at 16   | 24          |
//! | 3       | `u64` at 8      | `u64` at 16       | 8 at 24   | 32          |
//!
//! The total size counts the header. The hash is the first eight bytes of the MD5
//! digest of the uncompressed bundle. The compressed data is one zlib stream or one
//! zstd frame whose contents are an uncompressed offload bundle.

use std::fmt;
use std::io::Read;

use super::bytes::{slice, u16_at, u32_at, u64_at};
use crate::{Error, Result};
use md5::{Digest, Md5};

/// The magic that starts a compressed offload bundle.
pub const CCOB_MAGIC: &[u8; 4] = b"CCOB";

/// Decompressed bundles larger than this are refused whatever their header says.
pub const MAX_UNCOMPRESSED_SIZE: u64 = 4 << 30;

/// The compression method of a compressed bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompressionMethod {
    /// zlib (RFC 1950), header value 0.
    Zlib,
    /// Zstandard (RFC 8878), header value 1.
    Zstd,
}

impl CompressionMethod {
    /// The method for a header value.
    pub fn from_raw(raw: u16) -> Option<Self> {
        match raw {
            0 => Some(Self::Zlib),
            1 => Some(Self::Zstd),
            _ => None,
        }
    }

    /// The header value of the method.
    pub fn raw(self) -> u16 {
        match self {
            Self::Zlib => 0,
            Self::Zstd => 1,
        }
    }
}

impl fmt::Display for CompressionMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Zlib => "zlib",
            Self::Zstd => "zstd",
        })
    }
}

/// The decoded header of a compressed bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompressedHeader {
    /// Format version: 1, 2 or 3.
    pub version: u16,
    /// Compression method.
    pub method: CompressionMethod,
    /// Total size including the header (versions 2 and 3).
    pub total_size: Option<u64>,
    /// Size of the uncompressed bundle.
    pub uncompressed_size: u64,
    /// The first eight bytes of the MD5 digest of the uncompressed bundle, read as
    /// a little-endian `u64` (the value `clang-offload-bundler --verbose` prints).
    pub hash: u64,
}

impl CompressedHeader {
    /// Bytes taken by the header of this version.
    pub fn header_size(&self) -> u64 {
        header_size(self.version)
    }
}

fn header_size(version: u16) -> u64 {
    match version {
        1 => 20,
        2 => 24,
        _ => 32,
    }
}

/// A decompressed compressed bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedBundle {
    /// The header.
    pub header: CompressedHeader,
    /// The uncompressed bundle (an uncompressed offload bundle, see
    /// [`parse_bundle`](super::parse_bundle)).
    pub bundle: Vec<u8>,
    /// Bytes the compressed bundle occupies in its input: the total size for
    /// versions 2 and 3, header plus compressed stream for version 1.
    pub size: u64,
}

impl CompressedBundle {
    /// Whether the header's hash matches the MD5 digest of the uncompressed bundle.
    pub fn hash_matches(&self) -> bool {
        truncated_md5(&self.bundle) == self.header.hash
    }
}

/// The first 8 bytes of the bundle's MD5 digest, read little-endian (the bundler's hash
/// field).
fn truncated_md5(data: &[u8]) -> u64 {
    let d = Md5::digest(data);
    u64::from_le_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
}

/// Whether `data` starts with the compressed bundle magic.
pub fn is_compressed_bundle(data: &[u8]) -> bool {
    data.starts_with(CCOB_MAGIC)
}

/// Decodes the header of the compressed bundle at `data[0]`.
pub fn parse_compressed_header(data: &[u8]) -> Result<CompressedHeader> {
    if !is_compressed_bundle(data) {
        return Err(Error::new(
            0,
            "not a compressed offload bundle (no CCOB magic)",
        ));
    }
    let version = u16_at(data, 4, "compressed bundle version")?;
    let raw_method = u16_at(data, 6, "compressed bundle method")?;
    let method = CompressionMethod::from_raw(raw_method)
        .ok_or_else(|| Error::new(6, format!("unknown compression method {raw_method}")))?;
    let (total_size, uncompressed_size, hash_at) = match version {
        1 => (None, u64::from(u32_at(data, 8, "uncompressed size")?), 12),
        2 => (
            Some(u64::from(u32_at(data, 8, "total size")?)),
            u64::from(u32_at(data, 12, "uncompressed size")?),
            16,
        ),
        3 => (
            Some(u64_at(data, 8, "total size")?),
            u64_at(data, 16, "uncompressed size")?,
            24,
        ),
        _ => {
            return Err(Error::new(
                4,
                format!("unsupported compressed bundle version {version}"),
            ))
        }
    };
    let hash = u64_at(data, hash_at, "compressed bundle hash")?;
    if let Some(total) = total_size {
        if total < header_size(version) {
            return Err(Error::new(
                8,
                format!("compressed bundle total size {total:#x} is smaller than its header"),
            ));
        }
    }
    Ok(CompressedHeader {
        version,
        method,
        total_size,
        uncompressed_size,
        hash,
    })
}

/// Decompresses the compressed bundle at `data[0]`. The output is limited to the
/// header's uncompressed size (itself at most [`MAX_UNCOMPRESSED_SIZE`]) and must
/// have exactly that size. The hash is not checked (LLVM does not require it to
/// match either); see [`CompressedBundle::hash_matches`].
pub fn decompress_bundle(data: &[u8]) -> Result<CompressedBundle> {
    decompress_bundle_within(data, MAX_UNCOMPRESSED_SIZE)
}

/// [`decompress_bundle`] with the uncompressed size limited to `limit`.
pub(crate) fn decompress_bundle_within(data: &[u8], limit: u64) -> Result<CompressedBundle> {
    let header = parse_compressed_header(data)?;
    let hsize = header.header_size();
    let expected = header.uncompressed_size;
    if expected > limit {
        return Err(Error::new(
            8,
            format!("uncompressed size {expected:#x} is over the {limit:#x} limit"),
        ));
    }
    let payload = match header.total_size {
        Some(total) => slice(data, hsize, total - hsize, "compressed bundle data")?,
        None => data.get(hsize as usize..).unwrap_or(&[]),
    };
    let (bundle, consumed) = match header.method {
        CompressionMethod::Zlib => inflate_zlib(payload, expected),
        CompressionMethod::Zstd => decode_zstd(payload, expected),
    }
    .map_err(|message| Error::new(hsize, message))?;
    if bundle.len() as u64 != expected {
        return Err(Error::new(
            hsize,
            format!(
                "decompressed {:#x} bytes where the header declares {expected:#x}",
                bundle.len()
            ),
        ));
    }
    let size = header.total_size.unwrap_or(hsize + consumed as u64);
    Ok(CompressedBundle {
        header,
        bundle,
        size,
    })
}

/// Room to reserve for an output of declared size `limit` from `input` bytes:
/// never trust the declared size alone.
fn initial_capacity(limit: u64, input: usize) -> usize {
    limit.min((input as u64).saturating_mul(16)).min(1 << 24) as usize
}

/// Inflates one zlib stream from `input`, refusing more than `limit` bytes of
/// output. Returns the output and the input bytes consumed.
fn inflate_zlib(input: &[u8], limit: u64) -> std::result::Result<(Vec<u8>, usize), String> {
    use miniz_oxide::inflate::stream::{inflate, InflateState};
    use miniz_oxide::{DataFormat, MZFlush, MZStatus};
    let mut state = InflateState::new_boxed(DataFormat::Zlib);
    let mut out = Vec::with_capacity(initial_capacity(limit, input.len()));
    let mut chunk = vec![0u8; 64 * 1024];
    let mut rest = input;
    loop {
        let r = inflate(&mut state, rest, &mut chunk, MZFlush::None);
        rest = rest.get(r.bytes_consumed..).unwrap_or(&[]);
        if (out.len() + r.bytes_written) as u64 > limit {
            return Err(format!(
                "zlib data inflates past the declared size {limit:#x}"
            ));
        }
        out.extend_from_slice(chunk.get(..r.bytes_written).unwrap_or(&[]));
        match r.status {
            Ok(MZStatus::StreamEnd) => break,
            Ok(_) if r.bytes_consumed > 0 || r.bytes_written > 0 => {}
            Ok(_) => return Err("zlib stream ends early".into()),
            Err(e) => return Err(format!("bad zlib data ({e:?})")),
        }
    }
    Ok((out, input.len() - rest.len()))
}

/// Decodes one zstd frame from `input`, refusing more than `limit` bytes of output.
/// Returns the output and the input bytes consumed.
fn decode_zstd(input: &[u8], limit: u64) -> std::result::Result<(Vec<u8>, usize), String> {
    let mut rest = input;
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(&mut rest)
        .map_err(|e| format!("bad zstd frame header ({e})"))?;
    let mut out = Vec::with_capacity(initial_capacity(limit, input.len()));
    (&mut decoder)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| format!("bad zstd data ({e})"))?;
    if out.len() as u64 > limit {
        return Err(format!(
            "zstd data decodes past the declared size {limit:#x}"
        ));
    }
    if !decoder.decoder.is_finished() {
        return Err("zstd frame ends early".into());
    }
    drop(decoder);
    Ok((out, input.len() - rest.len()))
}

/// Compresses the uncompressed offload bundle `bundle` into a compressed bundle of
/// format `version` (1, 2 or 3) with `method`. zlib uses `level` (0 to 10); zstd
/// uses the fastest level of the pure-Rust encoder.
pub fn compress_bundle(
    bundle: &[u8],
    version: u16,
    method: CompressionMethod,
    level: u8,
) -> Result<Vec<u8>> {
    if !(1..=3).contains(&version) {
        return Err(Error::new(
            0,
            format!("cannot write compressed bundle version {version}"),
        ));
    }
    let payload = match method {
        CompressionMethod::Zlib => {
            miniz_oxide::deflate::compress_to_vec_zlib(bundle, level.min(10))
        }
        CompressionMethod::Zstd => {
            ruzstd::encoding::compress_to_vec(bundle, ruzstd::encoding::CompressionLevel::Fastest)
        }
    };
    let hsize = header_size(version);
    let total = hsize + payload.len() as u64;
    let usize_ = bundle.len() as u64;
    if version < 3 && (usize_ > u64::from(u32::MAX) || total > u64::from(u32::MAX)) {
        return Err(Error::new(
            0,
            format!("bundle too large for compressed bundle version {version}"),
        ));
    }
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(CCOB_MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&method.raw().to_le_bytes());
    match version {
        1 => out.extend_from_slice(&(usize_ as u32).to_le_bytes()),
        2 => {
            out.extend_from_slice(&(total as u32).to_le_bytes());
            out.extend_from_slice(&(usize_ as u32).to_le_bytes());
        }
        _ => {
            out.extend_from_slice(&total.to_le_bytes());
            out.extend_from_slice(&usize_.to_le_bytes());
        }
    }
    out.extend_from_slice(&truncated_md5(bundle).to_le_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_version_and_method_round_trips() {
        let bundle =
            super::super::write_bundle(&[("hip-amdgcn-amd-amdhsa--gfx900", &[7u8; 999])], 1)
                .unwrap();
        for version in 1..=3 {
            for method in [CompressionMethod::Zlib, CompressionMethod::Zstd] {
                let mut c = compress_bundle(&bundle, version, method, 6).unwrap();
                let size = c.len() as u64;
                c.extend_from_slice(b"trailing");
                let d = decompress_bundle(&c).unwrap();
                assert_eq!(d.bundle, bundle);
                assert_eq!(d.size, size, "v{version} {method}");
                assert!(d.hash_matches());
                assert_eq!((d.header.version, d.header.method), (version, method));
            }
        }
    }

    #[test]
    fn declared_sizes_are_enforced() {
        let bundle = vec![1u8; 5000];
        let mut c = compress_bundle(&bundle, 3, CompressionMethod::Zstd, 0).unwrap();
        c[16..24].copy_from_slice(&100u64.to_le_bytes());
        assert!(decompress_bundle(&c).is_err());
        c[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decompress_bundle(&c).is_err());
        c[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decompress_bundle(&c).is_err());
    }
}
