//! Offload bundles and embedded AMDGPU code objects: find the device code objects
//! inside a host program, a fat binary or any other file.
//!
//! Formats read (see the submodule docs for their layouts):
//! - uncompressed clang offload bundles (`__CLANG_OFFLOAD_BUNDLE__`), [`parse_bundle`];
//! - compressed bundles (`CCOB`, versions 1 to 3, zlib or zstd),
//!   [`decompress_bundle`];
//! - LLVM OffloadBinary (`0x10FF10AD`, version 1), [`parse_offload_binary`];
//! - host ELF files (executables, shared libraries, relocatable objects): the
//!   `.hip_fatbin` and `.llvm.offloading` sections, and the
//!   `__CLANG_OFFLOAD_BUNDLE__<id>` sections `clang-offload-bundler --type=o` adds
//!   to a host object;
//! - AMDGPU code objects embedded raw anywhere in a file (found by their ELF header
//!   and sized by their header tables).
//!
//! [`embedded_objects`] returns every entry found; [`code_objects`] keeps the AMDGPU
//! code objects only. Readers return [`crate::Error`]s with offsets in the
//! buffer they were given and never panic; decompression is bounded by the
//! declared size and [`MAX_UNCOMPRESSED_SIZE`].
//!
//! ```
//! use hsaco_elf::bundle::{code_objects, write_bundle, ContainerKind};
//! // a (fake) code object: an ELF header with e_machine EM_AMDGPU and no tables
//! let mut co = vec![0u8; 64];
//! co[..6].copy_from_slice(b"\x7fELF\x02\x01");
//! co[0x12] = 224;
//! co[0x34] = 64;
//! let bundle = write_bundle(
//!     &[("host-x86_64-unknown-linux-gnu-", &[]), ("hipv4-amdgcn-amd-amdhsa--gfx906", &co)],
//!     4096,
//! )
//! .unwrap();
//! let found = code_objects(&bundle).unwrap();
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].container, ContainerKind::Bundle);
//! assert_eq!(found[0].target_id.as_deref(), Some("gfx906"));
//! assert_eq!(&found[0].bytes[..], &co[..]);
//! assert_eq!(found[0].output_file_name("k", 0), "k-0-hipv4-amdgcn-amd-amdhsa--gfx906.co");
//! ```

mod bytes;
mod compressed;
mod host;
mod offload_binary;
mod plain;

use std::borrow::Cow;
use std::fmt;

pub use compressed::{
    compress_bundle, decompress_bundle, is_compressed_bundle, parse_compressed_header,
    CompressedBundle, CompressedHeader, CompressionMethod, CCOB_MAGIC, MAX_UNCOMPRESSED_SIZE,
};
pub use offload_binary::{
    is_offload_binary, parse_offload_binary, ImageKind, OffloadBinary, OffloadKind,
    OFFLOAD_BINARY_MAGIC,
};
pub use plain::{
    is_bundle, parse_bundle, parse_entry_id, write_bundle, BundleEntry, BundleEntryId,
    OffloadBundle, BUNDLE_MAGIC,
};

use crate::{Error, Result};

/// The container an embedded object was found in (the innermost one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContainerKind {
    /// The input itself is an AMDGPU code object.
    Plain,
    /// An AMDGPU code object found by scanning for its ELF header.
    RawElf,
    /// An entry of an uncompressed offload bundle.
    Bundle,
    /// An entry of a compressed offload bundle.
    CompressedBundle {
        /// `CCOB` format version.
        version: u16,
        /// Compression method.
        method: CompressionMethod,
    },
    /// The image of an LLVM OffloadBinary.
    OffloadBinary {
        /// What the image is (object, bitcode, ...).
        image_kind: ImageKind,
        /// Who produced it (HIP, OpenMP, ...).
        offload_kind: OffloadKind,
    },
    /// A `__CLANG_OFFLOAD_BUNDLE__<id>` section of a host object (what
    /// `clang-offload-bundler --type=o` writes when its host input is an object).
    BundleSection,
}

impl fmt::Display for ContainerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Plain => f.write_str("plain code object"),
            Self::RawElf => f.write_str("embedded ELF"),
            Self::Bundle => f.write_str("offload bundle"),
            Self::CompressedBundle { version, method } => {
                write!(f, "compressed offload bundle v{version} ({method})")
            }
            Self::OffloadBinary {
                image_kind,
                offload_kind,
            } => write!(f, "OffloadBinary ({offload_kind}, {image_kind})"),
            Self::BundleSection => f.write_str("offload bundle section"),
        }
    }
}

/// One object found inside a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbeddedObject<'a> {
    /// The innermost container that held the bytes.
    pub container: ContainerKind,
    /// The host ELF section the container was found in (`.hip_fatbin`,
    /// `.llvm.offloading`, `__CLANG_OFFLOAD_BUNDLE__...`), if any.
    pub section: Option<String>,
    /// The bundle entry ID (`hipv4-amdgcn-amd-amdhsa--gfx906:xnack-`). For an
    /// OffloadBinary image it is made in the same shape from its offload kind,
    /// triple (completed to four components) and arch:
    /// `hip-amdgcn-amd-amdhsa--gfx1030`. Empty for [`ContainerKind::Plain`] and
    /// [`ContainerKind::RawElf`].
    pub entry_id: String,
    /// The target ID part of the entry ID (`gfx906:xnack-`), if any.
    pub target_id: Option<String>,
    /// Offset in the outer file: of the bytes themselves when they are stored
    /// uncompressed, of the compressed bundle's header when they were decompressed.
    pub offset: u64,
    /// The object's bytes: borrowed from the input, or owned after decompression.
    pub bytes: Cow<'a, [u8]>,
}

impl EmbeddedObject<'_> {
    /// Whether the bytes are an AMDGPU ELF file (`e_machine` `EM_AMDGPU`): 64-bit
    /// (amdgcn) or 32-bit (r600).
    pub fn is_amdgpu_code_object(&self) -> bool {
        host::elf_machine(&self.bytes) == Some(host::EM_AMDGPU)
    }

    /// Whether this is the host entry of a bundle (ID kind `host`).
    pub fn is_host_entry(&self) -> bool {
        self.entry_id.starts_with("host-")
    }

    /// A file name for writing this object out; see [`output_file_name`].
    pub fn output_file_name(&self, stem: &str, index: usize) -> String {
        output_file_name(stem, self, index)
    }
}

/// The file name for the `index`-th object found in input `stem`:
/// `<stem>-<index>-<entry ID>.<ext>`, or `<stem>-<index>.<ext>` when the entry ID
/// is empty.
///
/// In the entry ID every character other than ASCII letters, digits, `+`, `-` and
/// `.` becomes `_` (so `gfx906:xnack-` becomes `gfx906_xnack-`); the index keeps
/// names unique even when two entries share an ID or two IDs map to the same text.
/// The extension is `co` for an AMDGPU code object, `o` for any other ELF file,
/// `bc` for LLVM bitcode and `bin` otherwise.
pub fn output_file_name(stem: &str, object: &EmbeddedObject<'_>, index: usize) -> String {
    let ext = if object.is_amdgpu_code_object() {
        "co"
    } else if host::is_elf(&object.bytes) {
        "o"
    } else if object.bytes.starts_with(b"BC\xc0\xde") {
        "bc"
    } else {
        "bin"
    };
    let id: String = object
        .entry_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if id.is_empty() {
        format!("{stem}-{index}.{ext}")
    } else {
        format!("{stem}-{index}-{id}.{ext}")
    }
}

/// Every object embedded in `data`, in file order.
///
/// - An AMDGPU code object yields itself ([`ContainerKind::Plain`]).
/// - A host ELF file yields the entries of its `.hip_fatbin` and
///   `.llvm.offloading` sections and its `__CLANG_OFFLOAD_BUNDLE__<id>` sections.
/// - A file that starts with a bundle, compressed bundle or OffloadBinary magic is
///   read as a sequence of those.
/// - Otherwise, and for a host ELF file without offload sections, AMDGPU code
///   objects found anywhere in the bytes ([`ContainerKind::RawElf`]).
///
/// Host entries (empty in HIP bundles) and non-ELF images (bitcode) are included;
/// see [`code_objects`]. All decompression in one call produces at most
/// [`MAX_UNCOMPRESSED_SIZE`] bytes; the raw scan reads a bounded number of headers.
pub fn embedded_objects(data: &[u8]) -> Result<Vec<EmbeddedObject<'_>>> {
    let mut out = Vec::new();
    if let Some(machine) = host::elf_machine(data) {
        if machine == host::EM_AMDGPU {
            out.push(EmbeddedObject {
                container: ContainerKind::Plain,
                section: None,
                entry_id: String::new(),
                target_id: None,
                offset: 0,
                bytes: Cow::Borrowed(data),
            });
            return Ok(out);
        }
        let mut found_section = false;
        let mut allowance = MAX_UNCOMPRESSED_SIZE;
        for s in host::sections(data)? {
            if let Some(id) = s.name.strip_prefix("__CLANG_OFFLOAD_BUNDLE__") {
                found_section = true;
                out.push(EmbeddedObject {
                    container: ContainerKind::BundleSection,
                    section: Some(s.name.to_string()),
                    entry_id: id.to_string(),
                    target_id: target_of(id),
                    offset: s.offset,
                    bytes: Cow::Borrowed(s.data),
                });
            } else if s.name == ".hip_fatbin" || s.name == ".llvm.offloading" {
                found_section = true;
                containers(s.data, s.offset, Some(s.name), &mut allowance, &mut out)?;
            }
        }
        if found_section {
            return Ok(out);
        }
    } else if is_bundle(data) || is_compressed_bundle(data) || is_offload_binary(data) {
        let mut allowance = MAX_UNCOMPRESSED_SIZE;
        containers(data, 0, None, &mut allowance, &mut out)?;
        return Ok(out);
    }
    raw_elfs(data, &mut out);
    Ok(out)
}

/// The AMDGPU code objects embedded in `data`: [`embedded_objects`] without host
/// entries and without images that are not AMDGPU ELF files.
pub fn code_objects(data: &[u8]) -> Result<Vec<EmbeddedObject<'_>>> {
    let mut all = embedded_objects(data)?;
    all.retain(|o| !o.is_host_entry() && o.is_amdgpu_code_object());
    Ok(all)
}

fn target_of(id: &str) -> Option<String> {
    parse_entry_id(id).and_then(|p| p.target_id.map(str::to_string))
}

/// Reads the sequence of containers in `region` (a section or a whole file at
/// file offset `base`): bundles, compressed bundles and OffloadBinaries, each
/// sized by its own header, with zero padding allowed between them. All
/// decompression together produces at most `allowance` bytes.
fn containers<'a>(
    region: &'a [u8],
    base: u64,
    section: Option<&str>,
    allowance: &mut u64,
    out: &mut Vec<EmbeddedObject<'a>>,
) -> Result<()> {
    let mut pos = 0usize;
    loop {
        while region.get(pos) == Some(&0) {
            pos += 1;
        }
        let Some(here) = region.get(pos..).filter(|r| !r.is_empty()) else {
            return Ok(());
        };
        let at = base.saturating_add(pos as u64);
        let size = container(here, at, section, allowance, out).map_err(|e| e.rebase(at))?;
        // every container has a header, so `size` is never 0; stay safe anyway
        pos = pos.saturating_add(usize::try_from(size.max(1)).unwrap_or(usize::MAX));
    }
}

/// Reads one container at `here[0]` (file offset `at`) and returns its size.
fn container<'a>(
    here: &'a [u8],
    at: u64,
    section: Option<&str>,
    allowance: &mut u64,
    out: &mut Vec<EmbeddedObject<'a>>,
) -> Result<u64> {
    let section = section.map(str::to_string);
    if is_bundle(here) {
        let b = parse_bundle(here)?;
        for e in b.entries {
            out.push(EmbeddedObject {
                container: ContainerKind::Bundle,
                section: section.clone(),
                entry_id: e.id.to_string(),
                target_id: target_of(e.id),
                offset: at.saturating_add(e.offset),
                bytes: Cow::Borrowed(e.bytes),
            });
        }
        Ok(b.size)
    } else if is_compressed_bundle(here) {
        let c = compressed::decompress_bundle_within(here, *allowance)?;
        *allowance -= c.bundle.len() as u64;
        let kind = ContainerKind::CompressedBundle {
            version: c.header.version,
            method: c.header.method,
        };
        let inner = parse_bundle(&c.bundle).map_err(|e| {
            Error::new(
                0,
                format!("in the decompressed bundle at offset {:#x}: {e}", e.offset),
            )
        })?;
        for e in inner.entries {
            out.push(EmbeddedObject {
                container: kind,
                section: section.clone(),
                entry_id: e.id.to_string(),
                target_id: target_of(e.id),
                offset: at,
                bytes: Cow::Owned(e.bytes.to_vec()),
            });
        }
        Ok(c.size)
    } else if is_offload_binary(here) {
        let b = parse_offload_binary(here)?;
        let triple = b.triple().unwrap_or("");
        let arch = b.arch().unwrap_or("");
        // complete a three-component triple with an empty environment, as bundle
        // entry IDs do
        let dashes = triple.matches('-').count();
        let sep = if dashes == 2 { "--" } else { "-" };
        out.push(EmbeddedObject {
            container: ContainerKind::OffloadBinary {
                image_kind: b.image_kind,
                offload_kind: b.offload_kind,
            },
            section,
            entry_id: format!("{}-{triple}{sep}{arch}", b.offload_kind.name()),
            target_id: (!arch.is_empty()).then(|| arch.to_string()),
            offset: at.saturating_add(b.image_offset),
            bytes: Cow::Borrowed(b.image),
        });
        Ok(b.size)
    } else {
        Err(Error::new(
            0,
            "expected an offload bundle, compressed bundle or OffloadBinary",
        ))
    }
}

/// Program and section headers the raw scan reads at most, over all candidates.
const RAW_SCAN_BUDGET: u64 = 1 << 22;

/// Appends every AMDGPU code object found by its ELF header in `data`.
/// Header reads are limited to [`RAW_SCAN_BUDGET`].
fn raw_elfs<'a>(data: &'a [u8], out: &mut Vec<EmbeddedObject<'a>>) {
    let mut budget = RAW_SCAN_BUDGET;
    let mut pos = 0usize;
    while let Some(found) = bytes::find(data, b"\x7fELF", pos) {
        let here = &data[found..];
        match host::amdgpu_elf_extent(here, &mut budget) {
            Some(len) => {
                out.push(EmbeddedObject {
                    container: ContainerKind::RawElf,
                    section: None,
                    entry_id: String::new(),
                    target_id: None,
                    offset: found as u64,
                    bytes: Cow::Borrowed(&here[..len as usize]),
                });
                pos = found + (len as usize).max(1);
            }
            None => pos = found + 1,
        }
    }
}

/// The fuzz entry point (see `hsaco_elf::fuzzing::bundle`): runs every reader of
/// this module on `data`. Never panics.
#[doc(hidden)]
pub fn fuzz_entry(data: &[u8]) {
    if let Ok(objects) = embedded_objects(data) {
        for (i, o) in objects.iter().enumerate() {
            let _ = o.output_file_name("fuzz", i);
            let _ = o.to_string();
        }
    }
    let _ = code_objects(data);
    let _ = parse_bundle(data);
    let _ = decompress_bundle(data);
    let _ = parse_offload_binary(data);
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = parse_entry_id(s);
    }
}

impl fmt::Display for EmbeddedObject<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {:#x}", self.container, self.offset)?;
        if let Some(s) = &self.section {
            write!(f, " in {s}")?;
        }
        if !self.entry_id.is_empty() {
            write!(f, ": {}", self.entry_id)?;
        }
        write!(f, " ({} bytes)", self.bytes.len())
    }
}
