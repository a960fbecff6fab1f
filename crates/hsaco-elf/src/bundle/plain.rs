//! Uncompressed clang offload bundles (`__CLANG_OFFLOAD_BUNDLE__`): reader and writer.
//!
//! Layout (all integers little-endian `u64`): the 24-byte magic, the number of
//! entries, then per entry its content offset (from the start of the bundle), its
//! content size, the length of its ID and the ID bytes (no terminator). Contents
//! follow the table, each placed at the next multiple of the bundle alignment.

use super::bytes::{add, slice, u64_at};
use crate::{Error, Result};

/// The magic string that starts an uncompressed offload bundle.
pub const BUNDLE_MAGIC: &[u8; 24] = b"__CLANG_OFFLOAD_BUNDLE__";

/// One entry of an offload bundle: its ID and its bytes (borrowed from the bundle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleEntry<'a> {
    /// The bundle entry ID, e.g. `hipv4-amdgcn-amd-amdhsa--gfx906:xnack-`.
    pub id: &'a str,
    /// Offset of the contents from the start of the bundle.
    pub offset: u64,
    /// The contents (empty for the usual host entry).
    pub bytes: &'a [u8],
}

/// A parsed uncompressed offload bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffloadBundle<'a> {
    /// The entries, in the order of the entry table.
    pub entries: Vec<BundleEntry<'a>>,
    /// Bytes the bundle occupies from its start: the end of the entry table or of
    /// the last content, whichever is further.
    pub size: u64,
}

/// Whether `data` starts with the offload bundle magic.
pub fn is_bundle(data: &[u8]) -> bool {
    data.starts_with(BUNDLE_MAGIC)
}

/// Parses the uncompressed offload bundle that starts at `data[0]`. Bytes after the
/// bundle's extent ([`OffloadBundle::size`]) are ignored. Error offsets are relative
/// to `data`.
pub fn parse_bundle(data: &[u8]) -> Result<OffloadBundle<'_>> {
    if !is_bundle(data) {
        return Err(Error::new(
            0,
            "not an offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)",
        ));
    }
    let count = u64_at(data, 24, "bundle entry count")?;
    let len = data.len() as u64;
    // every table entry takes at least 24 bytes: refuse counts the data cannot hold
    if count > len.saturating_sub(32) / 24 {
        return Err(Error::new(
            24,
            format!("bundle entry count {count} does not fit in {len:#x} bytes"),
        ));
    }
    let mut entries = Vec::with_capacity(count as usize);
    let mut pos: u64 = 32;
    let mut end = 0u64;
    for _ in 0..count {
        let offset = u64_at(data, pos, "bundle entry offset")?;
        let size = u64_at(data, pos + 8, "bundle entry size")?;
        let id_len = u64_at(data, pos + 16, "bundle entry ID length")?;
        let id_at = pos + 24;
        let id_bytes = slice(data, id_at, id_len, "bundle entry ID")?;
        let id = std::str::from_utf8(id_bytes)
            .map_err(|_| Error::new(id_at, "bundle entry ID is not UTF-8"))?;
        let bytes = slice(data, offset, size, "bundle entry contents")
            .map_err(|e| Error::new(pos, format!("entry `{id}`: {}", e.message)))?;
        end = end.max(add(offset, size, pos, "bundle entry extent")?);
        entries.push(BundleEntry { id, offset, bytes });
        pos = id_at + id_len;
    }
    Ok(OffloadBundle {
        entries,
        size: end.max(pos),
    })
}

/// Writes an uncompressed offload bundle holding `entries` (ID, contents) in the
/// given order, each content placed at a multiple of `align` (0 and 1 both mean no
/// alignment). With the entry order and alignment clang uses, the output is
/// byte-identical to `clang-offload-bundler --type=o` with a non-ELF host input,
/// and to the `.hip_fatbin` clang makes (alignment 4096). An alignment over 2^32
/// is an error.
pub fn write_bundle(entries: &[(&str, &[u8])], align: u64) -> Result<Vec<u8>> {
    if align > 1 << 32 {
        return Err(Error::new(
            0,
            format!("bundle alignment {align:#x} is over 2^32"),
        ));
    }
    let align = align.max(1) as usize;
    let table: usize = entries.iter().map(|(id, _)| 24 + id.len()).sum();
    let mut cursor = 32 + table;
    let mut offsets = Vec::with_capacity(entries.len());
    for (_, bytes) in entries {
        cursor = cursor.div_ceil(align) * align;
        offsets.push(cursor);
        cursor += bytes.len();
    }
    let mut out = Vec::with_capacity(cursor);
    out.extend_from_slice(BUNDLE_MAGIC);
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for ((id, bytes), offset) in entries.iter().zip(&offsets) {
        out.extend_from_slice(&(*offset as u64).to_le_bytes());
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(&(id.len() as u64).to_le_bytes());
        out.extend_from_slice(id.as_bytes());
    }
    for ((_, bytes), offset) in entries.iter().zip(&offsets) {
        out.resize(*offset, 0);
        out.extend_from_slice(bytes);
    }
    Ok(out)
}

/// The parts of a bundle entry ID `<offload kind>-<triple>[-<target ID>]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BundleEntryId<'a> {
    /// The offload kind: `host`, `hip`, `hipv4`, `openmp`, ...
    pub kind: &'a str,
    /// The target triple as written (four components, the environment possibly
    /// empty: `amdgcn-amd-amdhsa-`).
    pub triple: &'a str,
    /// The target ID (`gfx906:xnack-`), if the ID has one.
    pub target_id: Option<&'a str>,
}

/// Splits a bundle entry ID into offload kind, triple and target ID. The triple is
/// taken as the next four `-`-separated components (arch, vendor, OS, environment;
/// the environment may be empty); whatever follows is the target ID. If the fourth
/// component looks like a processor (`gfx...`) the triple has three components.
/// Returns `None` for an ID without a kind and an arch.
pub fn parse_entry_id(id: &str) -> Option<BundleEntryId<'_>> {
    let (kind, rest) = id.split_once('-')?;
    if kind.is_empty() || rest.is_empty() {
        return None;
    }
    // byte index just after the third and fourth '-' of `rest`, if any
    let dashes: Vec<usize> = rest.match_indices('-').map(|(i, _)| i).take(4).collect();
    let split = |at: usize| -> BundleEntryId<'_> {
        let target = &rest[at + 1..];
        BundleEntryId {
            kind,
            triple: &rest[..at],
            target_id: (!target.is_empty()).then_some(target),
        }
    };
    match dashes.as_slice() {
        [_, _, third, fourth, ..] => {
            let env = &rest[third + 1..*fourth];
            if env.starts_with("gfx") {
                Some(split(*third))
            } else {
                Some(split(*fourth))
            }
        }
        [_, _, third] => {
            let last = &rest[third + 1..];
            if last.starts_with("gfx") || last.contains(':') {
                Some(split(*third))
            } else {
                Some(BundleEntryId {
                    kind,
                    triple: rest,
                    target_id: None,
                })
            }
        }
        _ => Some(BundleEntryId {
            kind,
            triple: rest,
            target_id: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_ids_split_as_the_spec_describes() {
        let id = parse_entry_id("hipv4-amdgcn-amd-amdhsa--gfx906:xnack-").unwrap();
        assert_eq!(id.kind, "hipv4");
        assert_eq!(id.triple, "amdgcn-amd-amdhsa-");
        assert_eq!(id.target_id, Some("gfx906:xnack-"));
        let host = parse_entry_id("host-x86_64-unknown-linux-gnu-").unwrap();
        assert_eq!(host.triple, "x86_64-unknown-linux-gnu");
        assert_eq!(host.target_id, None);
        let three = parse_entry_id("hip-amdgcn-amd-amdhsa-gfx90a:sramecc+:xnack-").unwrap();
        assert_eq!(three.triple, "amdgcn-amd-amdhsa");
        assert_eq!(three.target_id, Some("gfx90a:sramecc+:xnack-"));
        assert_eq!(parse_entry_id("host"), None);
    }

    #[test]
    fn truncated_tables_are_errors() {
        let b = write_bundle(&[("hip-amdgcn-amd-amdhsa--gfx900", b"abc")], 1).unwrap();
        assert_eq!(parse_bundle(&b).unwrap().entries[0].bytes, b"abc");
        for cut in 0..b.len() {
            assert!(parse_bundle(&b[..cut]).is_err(), "cut at {cut}");
        }
    }
}
