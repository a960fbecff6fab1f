//! ELF note records: a zero-copy iterator over the records of a note section or
//! `PT_NOTE` segment, the names of the AMDGPU note types, the typed decode of the
//! code object V2 "AMD" notes, and the encoder the writer uses.
//!
//! A record is `namesz`, `descsz`, `type` (three little-endian u32), the owner name
//! (`namesz` bytes including its NUL), padding to the record alignment, the
//! description (`descsz` bytes) and padding to the record alignment. Records of the
//! owners `AMD` and `AMDGPU` are padded to 4 bytes whatever the section's
//! `sh_addralign`, as the ROCr loader reads them (its ELF reader, ROCR-Runtime
//! `amd_elf_image.cpp`, steps from record to record by `namesz` and `descsz` each
//! rounded up to 4, and so do CLR's and LLVM offload's metadata lookups): the HSA
//! runtime's finalizer wrote
//! code object v1 `.note` sections with `sh_addralign` 8 and 4-byte padded records
//! (llvm-readelf-22 applies 8 to them, warns "ELF note overflows container" and
//! prints a bogus record). Records of other owners in a section with `sh_addralign`
//! 8 use 8-byte alignment as the gABI allows; [`Notes::repadded`] tells whether a
//! record was read with 4 where the section's alignment would have put it elsewhere.
//!
//! ```
//! use hsaco_elf::note::{self, Notes, NoteRecord};
//! let mut bytes = Vec::new();
//! NoteRecord::new(b"AMDGPU", note::NT_AMDGPU_METADATA, vec![0x80]).encode(&mut bytes);
//! let n = Notes::new(&bytes, 4).next().unwrap().unwrap();
//! assert_eq!(n.owner, b"AMDGPU");
//! assert_eq!(n.kind().to_string(), "NT_AMDGPU_METADATA (AMDGPU Metadata)");
//! ```

use std::fmt;

use crate::{Error, Result};

pub use crate::elf::consts::{
    NOTE_OWNER_AMD, NOTE_OWNER_AMDGPU, NT_AMDGPU_METADATA, NT_AMD_HSA_CODE_OBJECT_VERSION,
    NT_AMD_HSA_EXTENSION, NT_AMD_HSA_HSAIL, NT_AMD_HSA_ISA_NAME, NT_AMD_HSA_ISA_VERSION,
    NT_AMD_HSA_METADATA, NT_AMD_HSA_PRODUCER, NT_AMD_HSA_PRODUCER_OPTIONS, NT_AMD_PAL_METADATA,
};

/// One note record, borrowed from the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note<'data> {
    /// The owner ("vendor") name without its terminating NUL.
    pub owner: &'data [u8],
    /// The note type (`n_type`); its meaning depends on the owner.
    pub n_type: u32,
    /// The description bytes (exactly `descsz` bytes, without padding).
    pub desc: &'data [u8],
    /// Byte offset of the record header in the file (or the buffer given to [`Notes`]).
    pub offset: u64,
    /// Byte offset of `desc` in the file.
    pub desc_offset: u64,
}

/// Iterator over the note records of a byte slice. Yields `Err` once and stops on a
/// malformed record.
#[derive(Clone, Debug)]
pub struct Notes<'data> {
    data: &'data [u8],
    pos: usize,
    align: usize,
    base: u64,
    done: bool,
    repadded: bool,
}

impl<'data> Notes<'data> {
    /// Records of `data`, aligned to `align` (anything but 8 means 4, as in the gABI
    /// and LLVM; `AMD` and `AMDGPU` records are always read with 4, see the module
    /// docs). Offsets in records and errors are relative to `data`.
    pub fn new(data: &'data [u8], align: u64) -> Self {
        Notes {
            data,
            pos: 0,
            align: if align == 8 { 8 } else { 4 },
            base: 0,
            done: false,
            repadded: false,
        }
    }

    /// Whether a record read so far is an `AMD` or `AMDGPU` record that was read with
    /// 4-byte padding where the section's 8-byte alignment would have placed its
    /// description or the next record elsewhere (the finalizer's code object v1
    /// notes). Informational: the records were read as the loader reads them.
    pub fn repadded(&self) -> bool {
        self.repadded
    }

    /// The same iterator, with offsets reported relative to a buffer in which `data`
    /// starts at `base` (the file offset of the section).
    pub fn with_base(mut self, base: u64) -> Self {
        self.base = base;
        self
    }

    fn parse_next(&mut self) -> Result<Note<'data>> {
        let pos = self.pos;
        let at = self.base.saturating_add(pos as u64);
        let header = self
            .data
            .get(pos..)
            .and_then(|rest| rest.get(..12))
            .ok_or_else(|| Error::new(at, "note header truncated"))?;
        let namesz = u32_at(header, 0) as usize;
        let descsz = u32_at(header, 4) as usize;
        let n_type = u32_at(header, 8);
        let name_start = pos + 12;
        let name_end = name_start
            .checked_add(namesz)
            .filter(|&end| end <= self.data.len())
            .ok_or_else(|| {
                Error::new(at, format!("note name size {namesz:#x} past end of notes"))
            })?;
        let mut owner = &self.data[name_start..name_end];
        if let [rest @ .., 0] = owner {
            owner = rest;
        }
        let align = if matches!(owner, NOTE_OWNER_AMD | NOTE_OWNER_AMDGPU) {
            4
        } else {
            self.align
        };
        let desc_start = align_up(name_end, align)
            .filter(|&start| start <= self.data.len())
            .ok_or_else(|| Error::new(at, "note name padding past end of notes"))?;
        let desc_end = desc_start
            .checked_add(descsz)
            .filter(|&end| end <= self.data.len())
            .ok_or_else(|| {
                Error::new(
                    at,
                    format!("note description size {descsz:#x} past end of notes"),
                )
            })?;
        if align != self.align
            && (align_up(name_end, self.align) != Some(desc_start)
                || align_up(desc_end, self.align) != align_up(desc_end, align))
        {
            self.repadded = true;
        }
        // the padding after the last record may be missing
        self.pos = align_up(desc_end, align).map_or(self.data.len(), |p| p.min(self.data.len()));
        Ok(Note {
            owner,
            n_type,
            desc: &self.data[desc_start..desc_end],
            offset: at,
            desc_offset: self.base.saturating_add(desc_start as u64),
        })
    }
}

impl<'data> Iterator for Notes<'data> {
    type Item = Result<Note<'data>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.pos >= self.data.len() {
            return None;
        }
        let note = self.parse_next();
        if note.is_err() {
            self.done = true;
        }
        Some(note)
    }
}

fn align_up(value: usize, align: usize) -> Option<usize> {
    Some(value.checked_add(align - 1)? & !(align - 1))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    if let Some(src) = bytes.get(at..at + 4) {
        word.copy_from_slice(src);
    }
    u32::from_le_bytes(word)
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    let mut word = [0u8; 2];
    if let Some(src) = bytes.get(at..at + 2) {
        word.copy_from_slice(src);
    }
    u16::from_le_bytes(word)
}

/// Whose namespace a note type lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoteOwner {
    /// "AMD": code object V2 notes and the PAL metadata note.
    Amd,
    /// "AMDGPU": code object V3 and later notes.
    Amdgpu,
    /// Any other owner.
    Other,
}

impl NoteOwner {
    /// Classifies an owner name (without NUL).
    pub fn from_name(owner: &[u8]) -> Self {
        match owner {
            NOTE_OWNER_AMD => NoteOwner::Amd,
            NOTE_OWNER_AMDGPU => NoteOwner::Amdgpu,
            _ => NoteOwner::Other,
        }
    }
}

/// A note type together with its owner, which is what gives it a meaning.
///
/// Displays like `llvm-readelf --notes` describes it:
/// `NT_AMDGPU_METADATA (AMDGPU Metadata)`, or `Unknown note type: (0x00000004)` for
/// types llvm-readelf does not name (including the finalizer-era producer notes, whose
/// constant names [`NoteType::name`] still knows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NoteType {
    /// The owner namespace.
    pub owner: NoteOwner,
    /// The raw `n_type`.
    pub n_type: u32,
}

impl NoteType {
    /// The type of a note of `owner` with raw type `n_type`.
    pub fn new(owner: &[u8], n_type: u32) -> Self {
        NoteType {
            owner: NoteOwner::from_name(owner),
            n_type,
        }
    }

    /// The constant name (`NT_AMD_HSA_ISA_VERSION`), if known.
    pub fn name(self) -> Option<&'static str> {
        Some(match (self.owner, self.n_type) {
            (NoteOwner::Amd, NT_AMD_HSA_CODE_OBJECT_VERSION) => "NT_AMD_HSA_CODE_OBJECT_VERSION",
            (NoteOwner::Amd, NT_AMD_HSA_HSAIL) => "NT_AMD_HSA_HSAIL",
            (NoteOwner::Amd, NT_AMD_HSA_ISA_VERSION) => "NT_AMD_HSA_ISA_VERSION",
            (NoteOwner::Amd, NT_AMD_HSA_PRODUCER) => "NT_AMD_HSA_PRODUCER",
            (NoteOwner::Amd, NT_AMD_HSA_PRODUCER_OPTIONS) => "NT_AMD_HSA_PRODUCER_OPTIONS",
            (NoteOwner::Amd, NT_AMD_HSA_EXTENSION) => "NT_AMD_HSA_EXTENSION",
            (NoteOwner::Amd, NT_AMD_HSA_METADATA) => "NT_AMD_HSA_METADATA",
            (NoteOwner::Amd, NT_AMD_HSA_ISA_NAME) => "NT_AMD_HSA_ISA_NAME",
            (NoteOwner::Amd, NT_AMD_PAL_METADATA) => "NT_AMD_PAL_METADATA",
            (NoteOwner::Amdgpu, NT_AMDGPU_METADATA) => "NT_AMDGPU_METADATA",
            _ => return None,
        })
    }

    /// The description llvm-readelf puts in parentheses (`AMD HSA ISA Version`), for
    /// the types llvm-readelf knows.
    pub fn description(self) -> Option<&'static str> {
        Some(match (self.owner, self.n_type) {
            (NoteOwner::Amd, NT_AMD_HSA_CODE_OBJECT_VERSION) => "AMD HSA Code Object Version",
            (NoteOwner::Amd, NT_AMD_HSA_HSAIL) => "AMD HSA HSAIL Properties",
            (NoteOwner::Amd, NT_AMD_HSA_ISA_VERSION) => "AMD HSA ISA Version",
            (NoteOwner::Amd, NT_AMD_HSA_METADATA) => "AMD HSA Metadata",
            (NoteOwner::Amd, NT_AMD_HSA_ISA_NAME) => "AMD HSA ISA Name",
            (NoteOwner::Amd, NT_AMD_PAL_METADATA) => "AMD PAL Metadata",
            (NoteOwner::Amdgpu, NT_AMDGPU_METADATA) => "AMDGPU Metadata",
            _ => return None,
        })
    }
}

impl fmt::Display for NoteType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.name(), self.description()) {
            (Some(name), Some(description)) => write!(f, "{name} ({description})"),
            _ => write!(f, "Unknown note type: ({:#010x})", self.n_type),
        }
    }
}

impl<'data> Note<'data> {
    /// The type of this note, given its owner.
    pub fn kind(&self) -> NoteType {
        NoteType::new(self.owner, self.n_type)
    }

    /// Decodes the description of the AMDGPU note types; other notes decode to
    /// [`AmdNote::Other`].
    pub fn decode(&self) -> Result<AmdNote<'data>> {
        let desc = self.desc;
        let at = self.desc_offset;
        let kind = self.kind();
        Ok(match (kind.owner, kind.n_type) {
            (NoteOwner::Amd, NT_AMD_HSA_CODE_OBJECT_VERSION) => {
                need(desc, 8, at, "code object version")?;
                AmdNote::CodeObjectVersion(CodeObjectVersion {
                    major: u32_at(desc, 0),
                    minor: u32_at(desc, 4),
                })
            }
            (NoteOwner::Amd, NT_AMD_HSA_HSAIL) => {
                need(desc, 11, at, "HSAIL properties")?;
                AmdNote::Hsail(Hsail {
                    major: u32_at(desc, 0),
                    minor: u32_at(desc, 4),
                    profile: desc[8],
                    machine_model: desc[9],
                    default_float_round: desc[10],
                })
            }
            (NoteOwner::Amd, NT_AMD_HSA_ISA_VERSION) => {
                need(desc, 16, at, "ISA version")?;
                let vendor_size = usize::from(u16_at(desc, 0));
                let arch_size = usize::from(u16_at(desc, 2));
                let vendor = desc.get(16..16 + vendor_size).ok_or_else(|| {
                    Error::new(
                        at,
                        format!("ISA version vendor name size {vendor_size} past end of note"),
                    )
                })?;
                let arch_start = 16 + vendor_size;
                // The finalizer's code object v1 notes count the architecture name's
                // NUL in its size but not in `descsz` (26 for "AMD", "AMDGPU"): the
                // NUL is the record's padding. Accept a name that overruns so by one.
                let arch_end = match arch_start + arch_size {
                    end if end == desc.len() + 1 => desc.len(),
                    end => end,
                };
                let architecture = desc.get(arch_start..arch_end).ok_or_else(|| {
                    Error::new(
                        at,
                        format!("ISA version architecture name size {arch_size} past end of note"),
                    )
                })?;
                AmdNote::IsaVersion(IsaVersion {
                    vendor: trim_nul(vendor),
                    architecture: trim_nul(architecture),
                    major: u32_at(desc, 4),
                    minor: u32_at(desc, 8),
                    stepping: u32_at(desc, 12),
                })
            }
            (NoteOwner::Amd, NT_AMD_HSA_PRODUCER) => {
                need(desc, 12, at, "producer")?;
                let size = usize::from(u16_at(desc, 0));
                let name = desc.get(12..12 + size).ok_or_else(|| {
                    Error::new(at, format!("producer name size {size} past end of note"))
                })?;
                AmdNote::Producer(Producer {
                    name: trim_nul(name),
                    major: u32_at(desc, 4),
                    minor: u32_at(desc, 8),
                })
            }
            (NoteOwner::Amd, NT_AMD_HSA_PRODUCER_OPTIONS) => {
                need(desc, 2, at, "producer options")?;
                let size = usize::from(u16_at(desc, 0));
                let options = desc.get(2..2 + size).ok_or_else(|| {
                    Error::new(at, format!("producer options size {size} past end of note"))
                })?;
                AmdNote::ProducerOptions(trim_nul(options))
            }
            (NoteOwner::Amd, NT_AMD_HSA_METADATA) => AmdNote::HsaMetadata(trim_nul(desc)),
            (NoteOwner::Amd, NT_AMD_HSA_ISA_NAME) => AmdNote::IsaName(trim_nul(desc)),
            (NoteOwner::Amd, NT_AMD_PAL_METADATA) => {
                if desc.len() & 7 != 0 {
                    return Err(Error::new(
                        at,
                        format!("PAL metadata size {:#x} is not a multiple of 8", desc.len()),
                    ));
                }
                AmdNote::PalMetadata(PalMetadata { desc })
            }
            (NoteOwner::Amdgpu, NT_AMDGPU_METADATA) => AmdNote::AmdgpuMetadata(desc),
            _ => AmdNote::Other,
        })
    }
}

fn need(desc: &[u8], size: usize, at: u64, what: &str) -> Result<()> {
    if desc.len() < size {
        return Err(Error::new(
            at,
            format!(
                "{what} note description is {} bytes, needs {size}",
                desc.len()
            ),
        ));
    }
    Ok(())
}

fn trim_nul(bytes: &[u8]) -> &[u8] {
    let mut bytes = bytes;
    while let [rest @ .., 0] = bytes {
        bytes = rest;
    }
    bytes
}

/// The decoded description of an AMDGPU note.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmdNote<'data> {
    /// `NT_AMD_HSA_CODE_OBJECT_VERSION`.
    CodeObjectVersion(CodeObjectVersion),
    /// `NT_AMD_HSA_HSAIL`.
    Hsail(Hsail),
    /// `NT_AMD_HSA_ISA_VERSION`.
    IsaVersion(IsaVersion<'data>),
    /// `NT_AMD_HSA_PRODUCER`.
    Producer(Producer<'data>),
    /// `NT_AMD_HSA_PRODUCER_OPTIONS`: the options string.
    ProducerOptions(&'data [u8]),
    /// `NT_AMD_HSA_METADATA`: the V2 metadata YAML text (trailing NULs removed).
    HsaMetadata(&'data [u8]),
    /// `NT_AMD_HSA_ISA_NAME`: the ISA name (`AMD:AMDGPU:9:0:6`, trailing NULs removed).
    IsaName(&'data [u8]),
    /// `NT_AMD_PAL_METADATA`: register/value pairs.
    PalMetadata(PalMetadata<'data>),
    /// `NT_AMDGPU_METADATA`: the MessagePack metadata blob.
    AmdgpuMetadata(&'data [u8]),
    /// A note of another owner or type.
    Other,
}

/// The detail llvm-readelf prints under a decoded note, e.g.
/// `[Major: 2, Minor: 1]`, `[Vendor: AMD, Architecture: AMDGPU, Major: 8, Minor: 0,
/// Stepping: 3]`, the ISA name or the YAML text. MessagePack metadata, PAL metadata
/// and other notes print nothing here (their decoders live elsewhere).
impl fmt::Display for AmdNote<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        match self {
            AmdNote::CodeObjectVersion(v) => write!(f, "[Major: {}, Minor: {}]", v.major, v.minor),
            AmdNote::Hsail(h) => write!(
                f,
                "[HSAIL Major: {}, HSAIL Minor: {}, Profile: {}, Machine Model: {}, Default Float Round: {}]",
                h.major, h.minor, h.profile, h.machine_model, h.default_float_round
            ),
            AmdNote::IsaVersion(isa) => write!(
                f,
                "[Vendor: {}, Architecture: {}, Major: {}, Minor: {}, Stepping: {}]",
                text(isa.vendor),
                text(isa.architecture),
                isa.major,
                isa.minor,
                isa.stepping
            ),
            AmdNote::Producer(p) => write!(f, "[Producer: {}, Major: {}, Minor: {}]", text(p.name), p.major, p.minor),
            AmdNote::ProducerOptions(options) => f.write_str(&text(options)),
            AmdNote::HsaMetadata(yaml) => f.write_str(&text(yaml)),
            AmdNote::IsaName(name) => f.write_str(&text(name)),
            AmdNote::PalMetadata(_) | AmdNote::AmdgpuMetadata(_) | AmdNote::Other => Ok(()),
        }
    }
}

/// `NT_AMD_HSA_CODE_OBJECT_VERSION` description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeObjectVersion {
    /// Major version (at most 2 for code object V2).
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

impl CodeObjectVersion {
    /// The description bytes.
    pub fn to_desc(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8);
        out.extend_from_slice(&self.major.to_le_bytes());
        out.extend_from_slice(&self.minor.to_le_bytes());
        out
    }
}

/// `NT_AMD_HSA_HSAIL` description (written by the HSAIL finalizer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hsail {
    /// HSAIL major version.
    pub major: u32,
    /// HSAIL minor version.
    pub minor: u32,
    /// HSAIL profile.
    pub profile: u8,
    /// HSAIL machine model.
    pub machine_model: u8,
    /// HSAIL default float rounding mode.
    pub default_float_round: u8,
}

impl Hsail {
    /// The description bytes (the 11 bytes of fields plus one byte of struct padding).
    pub fn to_desc(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12);
        out.extend_from_slice(&self.major.to_le_bytes());
        out.extend_from_slice(&self.minor.to_le_bytes());
        out.extend_from_slice(&[
            self.profile,
            self.machine_model,
            self.default_float_round,
            0,
        ]);
        out
    }
}

/// `NT_AMD_HSA_ISA_VERSION` description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IsaVersion<'data> {
    /// Vendor name without NUL ("AMD").
    pub vendor: &'data [u8],
    /// Architecture name without NUL ("AMDGPU").
    pub architecture: &'data [u8],
    /// ISA major version.
    pub major: u32,
    /// ISA minor version.
    pub minor: u32,
    /// ISA stepping.
    pub stepping: u32,
}

impl IsaVersion<'_> {
    /// The description bytes: sizes include the NULs, names follow the fixed part.
    pub fn to_desc(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&((self.vendor.len() + 1) as u16).to_le_bytes());
        out.extend_from_slice(&((self.architecture.len() + 1) as u16).to_le_bytes());
        out.extend_from_slice(&self.major.to_le_bytes());
        out.extend_from_slice(&self.minor.to_le_bytes());
        out.extend_from_slice(&self.stepping.to_le_bytes());
        out.extend_from_slice(self.vendor);
        out.push(0);
        out.extend_from_slice(self.architecture);
        out.push(0);
        out
    }
}

/// `NT_AMD_HSA_PRODUCER` description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Producer<'data> {
    /// Producer name without NUL.
    pub name: &'data [u8],
    /// Producer major version.
    pub major: u32,
    /// Producer minor version.
    pub minor: u32,
}

impl Producer<'_> {
    /// The description bytes: name size (with NUL), reserved u16, versions, name.
    pub fn to_desc(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&((self.name.len() + 1) as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&self.major.to_le_bytes());
        out.extend_from_slice(&self.minor.to_le_bytes());
        out.extend_from_slice(self.name);
        out.push(0);
        out
    }
}

/// The description bytes of an `NT_AMD_HSA_PRODUCER_OPTIONS` note: the u16 length
/// of the options (without NUL), the options, a NUL.
pub fn producer_options_desc(options: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(options.len() as u16).to_le_bytes());
    out.extend_from_slice(options);
    out.push(0);
    out
}

/// `NT_AMD_PAL_METADATA` description: (register, value) pairs of u32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PalMetadata<'data> {
    desc: &'data [u8],
}

impl<'data> PalMetadata<'data> {
    /// The (register, value) pairs.
    pub fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + 'data {
        self.desc
            .chunks_exact(8)
            .map(|pair| (u32_at(pair, 0), u32_at(pair, 4)))
    }
}

/// An owned note record, for writing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteRecord {
    /// Owner name without NUL.
    pub owner: Vec<u8>,
    /// Note type.
    pub n_type: u32,
    /// Description bytes.
    pub desc: Vec<u8>,
}

impl NoteRecord {
    /// A record of `owner` (without NUL), `n_type` and `desc`.
    pub fn new(owner: &[u8], n_type: u32, desc: Vec<u8>) -> Self {
        NoteRecord {
            owner: owner.to_vec(),
            n_type,
            desc,
        }
    }

    /// Appends the record with 4-byte alignment (name NUL-terminated, name and
    /// description zero-padded to multiples of 4). `out` must be 4-byte aligned
    /// relative to the start of the notes.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&((self.owner.len() + 1) as u32).to_le_bytes());
        out.extend_from_slice(&(self.desc.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.n_type.to_le_bytes());
        out.extend_from_slice(&self.owner);
        out.push(0);
        pad4(out);
        out.extend_from_slice(&self.desc);
        pad4(out);
    }
}

impl From<&Note<'_>> for NoteRecord {
    fn from(note: &Note<'_>) -> Self {
        NoteRecord::new(note.owner, note.n_type, note.desc.to_vec())
    }
}

fn pad4(out: &mut Vec<u8>) {
    while out.len() & 3 != 0 {
        out.push(0);
    }
}

/// Encodes `notes` one after the other (the contents of a `.note` section).
pub fn encode_notes(notes: &[NoteRecord]) -> Vec<u8> {
    let mut out = Vec::new();
    for note in notes {
        note.encode(&mut out);
    }
    out
}

#[doc(hidden)]
pub fn fuzz_entry(data: &[u8]) {
    for align in [4, 8] {
        for note in Notes::new(data, align).with_base(16) {
            match note {
                Ok(note) => {
                    let _ = note.kind().to_string();
                    // decode as every owner, so every decoder sees the bytes
                    for owner in [NOTE_OWNER_AMD, NOTE_OWNER_AMDGPU] {
                        let as_owner = Note { owner, ..note };
                        if let Ok(AmdNote::PalMetadata(pal)) = as_owner.decode() {
                            let _ = pal.pairs().count();
                        }
                    }
                }
                Err(error) => {
                    let _ = error.to_string();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_records_are_errors_with_offsets() {
        let mut bytes = Vec::new();
        NoteRecord::new(b"AMD", NT_AMD_HSA_ISA_NAME, b"AMD:AMDGPU:9:0:6".to_vec())
            .encode(&mut bytes);
        let mut second = Vec::new();
        NoteRecord::new(b"AMD", 1, vec![2, 0, 0, 0, 1, 0, 0, 0]).encode(&mut second);
        let first_len = bytes.len();
        bytes.extend_from_slice(&second[..second.len() - 3]);
        let all: Vec<_> = Notes::new(&bytes, 4).with_base(0x100).collect();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].as_ref().unwrap().desc, b"AMD:AMDGPU:9:0:6");
        let err = all[1].as_ref().unwrap_err();
        assert_eq!(err.offset, 0x100 + first_len as u64);
        assert!(err.message.contains("description size"), "{err}");
    }

    #[test]
    fn huge_sizes_do_not_overflow() {
        let mut bytes = vec![0xff; 12];
        bytes.extend_from_slice(&[0; 8]);
        let all: Vec<_> = Notes::new(&bytes, 8).collect();
        assert_eq!(all.len(), 1);
        assert!(all[0].is_err());
    }

    /// The finalizer's code object v1 `.note`: five `AMD` records padded to 4 bytes in
    /// a section with `sh_addralign` 8. The ISA record's description is 26 bytes
    /// (16 + "AMD\0" + "AMDGPU\0"), so 8-byte padding would put the next record
    /// 4 bytes late and read "AMD\0" as its description size (0x444d41).
    #[test]
    fn amd_records_are_4_padded_in_an_8_aligned_section() {
        let isa = IsaVersion {
            vendor: b"AMD",
            architecture: b"AMDGPU",
            major: 8,
            minor: 0,
            stepping: 3,
        };
        let mut producer = vec![25, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
        producer.extend_from_slice(b"AMD HSA Runtime Finalizer\0\0\0\0");
        let records = [
            NoteRecord::new(
                b"AMD",
                1,
                CodeObjectVersion { major: 1, minor: 0 }.to_desc(),
            ),
            NoteRecord::new(b"AMD", 2, vec![1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 0]),
            NoteRecord::new(b"AMD", 3, isa.to_desc()),
            NoteRecord::new(b"AMD", 4, producer),
            NoteRecord::new(b"AMD", 5, producer_options_desc(b"-hsa_call_convention=0")),
        ];
        let bytes = encode_notes(&records);
        assert_eq!(isa.to_desc().len(), 27);
        // the finalizer's ISA description: 26 bytes, the architecture's NUL left to
        // the padding
        let mut short = Vec::new();
        let mut desc = isa.to_desc();
        desc.pop();
        NoteRecord::new(b"AMD", 3, desc).encode(&mut short);
        let n = Notes::new(&short, 8).next().unwrap().unwrap();
        assert_eq!(n.desc.len(), 26);
        assert_eq!(
            n.decode().unwrap().to_string(),
            "[Vendor: AMD, Architecture: AMDGPU, Major: 8, Minor: 0, Stepping: 3]"
        );
        let mut shorter = n.desc[..25].to_vec();
        shorter.extend_from_slice(&[0; 3]);
        let bad = Note {
            desc: &shorter[..25],
            ..n
        };
        assert!(bad.decode().is_err());
        let mut notes = Notes::new(&bytes, 8);
        let all: Vec<_> = notes.by_ref().collect::<Result<_>>().unwrap();
        assert!(notes.repadded());
        let decoded: Vec<String> = all
            .iter()
            .map(|n| n.decode().unwrap().to_string())
            .collect();
        assert_eq!(
            decoded,
            [
                "[Major: 1, Minor: 0]",
                "[HSAIL Major: 1, HSAIL Minor: 0, Profile: 1, Machine Model: 1, Default Float Round: 2]",
                "[Vendor: AMD, Architecture: AMDGPU, Major: 8, Minor: 0, Stepping: 3]",
                "[Producer: AMD HSA Runtime Finalizer, Major: 1, Minor: 0]",
                "-hsa_call_convention=0",
            ]
        );
        // read with 4 from the start: the same records, nothing re-padded
        let mut four = Notes::new(&bytes, 4);
        assert_eq!(four.by_ref().count(), 5);
        assert!(!four.repadded());
        // another owner keeps the section's 8-byte alignment
        let mut other = Vec::new();
        NoteRecord::new(b"GNU", 1, vec![1, 2, 3, 4]).encode(&mut other);
        other.extend_from_slice(&[0; 4]);
        NoteRecord::new(b"GNU", 2, vec![5; 8]).encode(&mut other);
        let gnu: Vec<_> = Notes::new(&other, 8).collect::<Result<_>>().unwrap();
        assert_eq!(gnu[1].desc, [5; 8]);
    }
}
