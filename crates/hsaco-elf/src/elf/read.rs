//! The zero-copy ELF reader.

use std::borrow::Cow;

use super::consts::*;
use crate::note::{Note, Notes};
use crate::{Error, Result};

/// Little-endian field reads that never panic: a field out of range reads as zero.
/// Callers check ranges before reading (tables are validated as wholes), so zero is
/// never observed for a well-formed range.
pub(crate) fn u8_at(data: &[u8], at: usize) -> u8 {
    data.get(at).copied().unwrap_or(0)
}

pub(crate) fn u16_at(data: &[u8], at: usize) -> u16 {
    let mut b = [0u8; 2];
    if let Some(s) = at.checked_add(2).and_then(|end| data.get(at..end)) {
        b.copy_from_slice(s);
    }
    u16::from_le_bytes(b)
}

pub(crate) fn u32_at(data: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    if let Some(s) = at.checked_add(4).and_then(|end| data.get(at..end)) {
        b.copy_from_slice(s);
    }
    u32::from_le_bytes(b)
}

pub(crate) fn u64_at(data: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    if let Some(s) = at.checked_add(8).and_then(|end| data.get(at..end)) {
        b.copy_from_slice(s);
    }
    u64::from_le_bytes(b)
}

/// The `[offset, offset + size)` sub-slice of `data`, or `None` if any of it is out of
/// range.
fn range(data: &[u8], offset: u64, size: u64) -> Option<&[u8]> {
    let start = usize::try_from(offset).ok()?;
    let end = start.checked_add(usize::try_from(size).ok()?)?;
    data.get(start..end)
}

/// A NUL-terminated string at `offset` in a string table.
/// `bytes` as text, borrowed when it is UTF-8 (checked by `str::from_utf8`, which
/// goes a word at a time over ASCII, unlike `String::from_utf8_lossy`).
fn utf8_or_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

fn string_at(strtab: &[u8], offset: u32) -> Option<&[u8]> {
    let rest = strtab.get(offset as usize..)?;
    // (`CStr` finds the NUL a word at a time: library objects have thousands of
    // mangled names of a hundred bytes or more, and a byte-by-byte search of them was
    // a tenth of `dis`'s serial time)
    let len = std::ffi::CStr::from_bytes_until_nul(rest)
        .ok()?
        .to_bytes()
        .len();
    Some(&rest[..len])
}

/// The ELF file header, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// `e_ident[EI_CLASS]`.
    pub class: Class,
    /// `e_ident[EI_DATA]` (always `ELFDATA2LSB` in a parsed file).
    pub data_encoding: u8,
    /// `e_ident[EI_VERSION]`.
    pub ident_version: u8,
    /// `e_ident[EI_OSABI]`.
    pub os_abi: OsAbi,
    /// `e_ident[EI_ABIVERSION]`.
    pub abi_version: u8,
    /// `e_type`.
    pub e_type: ElfType,
    /// `e_machine`.
    pub e_machine: Machine,
    /// `e_version`.
    pub e_version: u32,
    /// `e_entry`.
    pub entry: u64,
    /// `e_phoff`.
    pub phoff: u64,
    /// `e_shoff`.
    pub shoff: u64,
    /// `e_flags`, raw (processor and features are decoded by `hsaco-target`).
    pub e_flags: u32,
    /// `e_ehsize`.
    pub ehsize: u16,
    /// `e_phentsize`.
    pub phentsize: u16,
    /// `e_phnum` as stored (see [`Elf::segment_count`] for the real count).
    pub phnum: u16,
    /// `e_shentsize`.
    pub shentsize: u16,
    /// `e_shnum` as stored (see [`Elf::section_count`] for the real count).
    pub shnum: u16,
    /// `e_shstrndx` as stored.
    pub shstrndx: u16,
}

impl Header {
    /// True for a 64-bit file.
    pub fn is_64(&self) -> bool {
        self.class.0 == ELFCLASS64
    }

    /// The code object version (2 to 6) that `e_ident[EI_OSABI]` and
    /// `e_ident[EI_ABIVERSION]` say, for `ELFOSABI_AMDGPU_HSA` files; `None` for other
    /// OS ABIs and unknown ABI versions.
    pub fn code_object_version(&self) -> Option<u32> {
        if self.os_abi.0 != ELFOSABI_AMDGPU_HSA {
            return None;
        }
        match self.abi_version {
            ELFABIVERSION_AMDGPU_HSA_V2 => Some(2),
            ELFABIVERSION_AMDGPU_HSA_V3 => Some(3),
            ELFABIVERSION_AMDGPU_HSA_V4 => Some(4),
            ELFABIVERSION_AMDGPU_HSA_V5 => Some(5),
            ELFABIVERSION_AMDGPU_HSA_V6 => Some(6),
            _ => None,
        }
    }
}

/// A parsed ELF file borrowing its bytes.
///
/// [`Elf::parse`] checks the file header and that the section and program header
/// tables and the section name string table lie inside the file. Everything else
/// (section data, symbol and relocation tables, names, notes) is checked when it is
/// read, with an [`Error`] naming the byte offset of the bad field.
#[derive(Clone, Copy, Debug)]
pub struct Elf<'data> {
    data: &'data [u8],
    header: Header,
    section_count: usize,
    segment_count: usize,
    shstrtab: &'data [u8],
    shstrndx: usize,
}

impl<'data> Elf<'data> {
    /// Parses the file header and locates the header tables.
    pub fn parse(data: &'data [u8]) -> Result<Self> {
        if data.len() < EI_NIDENT {
            return Err(Error::new(
                0,
                format!(
                    "file is {} bytes, too short for ELF identification",
                    data.len()
                ),
            ));
        }
        if data[..4] != ELFMAG {
            return Err(Error::new(0, "not an ELF file (bad magic)"));
        }
        let class = data[EI_CLASS];
        let is_64 = match class {
            ELFCLASS64 => true,
            ELFCLASS32 => false,
            _ => {
                return Err(Error::new(
                    EI_CLASS as u64,
                    format!("invalid ELF class {class}"),
                ))
            }
        };
        if data[EI_DATA] != ELFDATA2LSB {
            return Err(Error::new(
                EI_DATA as u64,
                format!(
                    "unsupported ELF data encoding {} (AMDGPU is little endian)",
                    data[EI_DATA]
                ),
            ));
        }
        let ehdr_size = if is_64 {
            ELF64_EHDR_SIZE
        } else {
            ELF32_EHDR_SIZE
        };
        if data.len() < ehdr_size {
            return Err(Error::new(
                0,
                format!("file is {} bytes, too short for the ELF header", data.len()),
            ));
        }
        let word = |at32: usize, at64: usize| {
            if is_64 {
                u64_at(data, at64)
            } else {
                u64::from(u32_at(data, at32))
            }
        };
        let half = |at32: usize, at64: usize| u16_at(data, if is_64 { at64 } else { at32 });
        let header = Header {
            class: Class(class),
            data_encoding: data[EI_DATA],
            ident_version: data[EI_VERSION],
            os_abi: OsAbi(data[EI_OSABI]),
            abi_version: data[EI_ABIVERSION],
            e_type: ElfType(u16_at(data, 16)),
            e_machine: Machine(u16_at(data, 18)),
            e_version: u32_at(data, 20),
            entry: word(24, 24),
            phoff: word(28, 32),
            shoff: word(32, 40),
            e_flags: u32_at(data, if is_64 { 48 } else { 36 }),
            ehsize: half(40, 52),
            phentsize: half(42, 54),
            phnum: half(44, 56),
            shentsize: half(46, 58),
            shnum: half(48, 60),
            shstrndx: half(50, 62),
        };
        let field = |at32: u64, at64: u64| if is_64 { at64 } else { at32 };

        // section header table
        let shdr_size = if is_64 {
            ELF64_SHDR_SIZE
        } else {
            ELF32_SHDR_SIZE
        };
        let mut section0 = None;
        let section_count = if header.shoff == 0 {
            0
        } else {
            if usize::from(header.shentsize) != shdr_size {
                return Err(Error::new(
                    field(46, 58),
                    format!(
                        "section header size {} (expected {shdr_size})",
                        header.shentsize
                    ),
                ));
            }
            let first = range(data, header.shoff, shdr_size as u64).ok_or_else(|| {
                Error::new(
                    field(32, 40),
                    format!(
                        "section header table offset {:#x} past end of file",
                        header.shoff
                    ),
                )
            })?;
            section0 = Some(first);
            let count = if header.shnum == 0 {
                // extended numbering: the count is in section 0's sh_size
                if is_64 {
                    u64_at(first, 32)
                } else {
                    u64::from(u32_at(first, 20))
                }
            } else {
                u64::from(header.shnum)
            };
            let size = count.checked_mul(shdr_size as u64);
            if size
                .and_then(|size| range(data, header.shoff, size))
                .is_none()
            {
                return Err(Error::new(
                    field(32, 40),
                    format!(
                        "section header table ({count} entries at {:#x}) past end of file",
                        header.shoff
                    ),
                ));
            }
            count as usize
        };

        // program header table
        let phdr_size = if is_64 {
            ELF64_PHDR_SIZE
        } else {
            ELF32_PHDR_SIZE
        };
        let segment_count = if header.phoff == 0 || header.phnum == 0 {
            0
        } else {
            if usize::from(header.phentsize) != phdr_size {
                return Err(Error::new(
                    field(42, 54),
                    format!(
                        "program header size {} (expected {phdr_size})",
                        header.phentsize
                    ),
                ));
            }
            let count = if header.phnum == 0xffff {
                match section0 {
                    Some(first) => u64::from(u32_at(first, if is_64 { 44 } else { 28 })),
                    None => u64::from(header.phnum),
                }
            } else {
                u64::from(header.phnum)
            };
            let size = count.checked_mul(phdr_size as u64);
            if size
                .and_then(|size| range(data, header.phoff, size))
                .is_none()
            {
                return Err(Error::new(
                    field(28, 32),
                    format!(
                        "program header table ({count} entries at {:#x}) past end of file",
                        header.phoff
                    ),
                ));
            }
            count as usize
        };

        let mut elf = Elf {
            data,
            header,
            section_count,
            segment_count,
            shstrtab: &[],
            shstrndx: 0,
        };

        // section name string table
        let shstrndx = if header.shstrndx == SHN_XINDEX {
            section0.map_or(0, |first| {
                u32_at(first, if is_64 { 40 } else { 24 }) as usize
            })
        } else {
            usize::from(header.shstrndx)
        };
        if shstrndx != 0 && section_count != 0 {
            if shstrndx >= section_count {
                return Err(Error::new(
                    field(50, 62),
                    format!("section name table index {shstrndx} out of range ({section_count} sections)"),
                ));
            }
            let raw = elf.raw_section(shstrndx);
            elf.shstrtab = raw.data()?;
            elf.shstrndx = shstrndx;
        }
        Ok(elf)
    }

    /// The bytes of the whole file.
    pub fn data(&self) -> &'data [u8] {
        self.data
    }

    /// The file header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// True for a 64-bit file.
    pub fn is_64(&self) -> bool {
        self.header.is_64()
    }

    /// `e_ident[EI_CLASS]`.
    pub fn class(&self) -> Class {
        self.header.class
    }

    /// `e_ident[EI_OSABI]`.
    pub fn os_abi(&self) -> OsAbi {
        self.header.os_abi
    }

    /// `e_ident[EI_ABIVERSION]`.
    pub fn abi_version(&self) -> u8 {
        self.header.abi_version
    }

    /// `e_type`.
    pub fn e_type(&self) -> ElfType {
        self.header.e_type
    }

    /// `e_machine`.
    pub fn e_machine(&self) -> Machine {
        self.header.e_machine
    }

    /// `e_flags`, raw.
    pub fn e_flags(&self) -> u32 {
        self.header.e_flags
    }

    /// `e_entry`.
    pub fn entry(&self) -> u64 {
        self.header.entry
    }

    /// The code object version (2 to 6) of an `ELFOSABI_AMDGPU_HSA` file; see
    /// [`Header::code_object_version`].
    pub fn code_object_version(&self) -> Option<u32> {
        self.header.code_object_version()
    }

    /// The number of section headers (including the null section 0).
    pub fn section_count(&self) -> usize {
        self.section_count
    }

    /// The number of program headers.
    pub fn segment_count(&self) -> usize {
        self.segment_count
    }

    /// The index of the section name string table (0 if none).
    pub fn shstrndx(&self) -> usize {
        self.shstrndx
    }

    /// The section header at `index` (< section_count), without its name.
    fn raw_section(&self, index: usize) -> Section<'data> {
        let is_64 = self.is_64();
        let shdr_size = if is_64 {
            ELF64_SHDR_SIZE
        } else {
            ELF32_SHDR_SIZE
        };
        let offset = (self.header.shoff as usize).saturating_add(index.saturating_mul(shdr_size));
        let d = self.data.get(offset..).unwrap_or(&[]);
        let word = |at32: usize, at64: usize| {
            if is_64 {
                u64_at(d, at64)
            } else {
                u64::from(u32_at(d, at32))
            }
        };
        Section {
            index,
            name: &[],
            sh_name: u32_at(d, 0),
            sh_type: SectionType(u32_at(d, 4)),
            flags: word(8, 8),
            addr: word(12, 16),
            offset: word(16, 24),
            size: word(20, 32),
            link: u32_at(d, if is_64 { 40 } else { 24 }),
            info: u32_at(d, if is_64 { 44 } else { 28 }),
            addralign: word(32, 48),
            entsize: word(36, 56),
            header_offset: offset as u64,
            file: self.data,
        }
    }

    /// The `sh_type` of the section header at `index` (< section_count), as
    /// [`Self::raw_section`] reads it, without decoding the other fields.
    #[inline]
    fn raw_section_type(&self, index: usize) -> u32 {
        let shdr_size = if self.is_64() {
            ELF64_SHDR_SIZE
        } else {
            ELF32_SHDR_SIZE
        };
        let offset = (self.header.shoff as usize).saturating_add(index.saturating_mul(shdr_size));
        u32_at(self.data.get(offset..).unwrap_or(&[]), 4)
    }

    /// The section at `index`, with its name resolved.
    pub fn section(&self, index: usize) -> Result<Section<'data>> {
        if index >= self.section_count {
            return Err(Error::new(
                self.header.shoff,
                format!(
                    "section index {index} out of range ({} sections)",
                    self.section_count
                ),
            ));
        }
        let mut section = self.raw_section(index);
        if self.shstrndx != 0 {
            section.name = string_at(self.shstrtab, section.sh_name).ok_or_else(|| {
                Error::new(
                    section.header_offset,
                    format!(
                        "section name offset {:#x} past end of section name table",
                        section.sh_name
                    ),
                )
            })?;
        }
        Ok(section)
    }

    /// All sections in index order, starting with the null section 0.
    pub fn sections(&self) -> Sections<'data> {
        Sections {
            elf: *self,
            next: 0,
            done: false,
        }
    }

    /// The first section named `name` (sections whose name cannot be read are skipped).
    pub fn section_by_name(&self, name: &str) -> Option<Section<'data>> {
        self.sections()
            .filter_map(|s| s.ok())
            .find(|s| s.name == name.as_bytes())
    }

    /// The program header at `index`.
    pub fn segment(&self, index: usize) -> Result<Segment<'data>> {
        if index >= self.segment_count {
            return Err(Error::new(
                self.header.phoff,
                format!(
                    "segment index {index} out of range ({} segments)",
                    self.segment_count
                ),
            ));
        }
        let is_64 = self.is_64();
        let phdr_size = if is_64 {
            ELF64_PHDR_SIZE
        } else {
            ELF32_PHDR_SIZE
        };
        let offset = (self.header.phoff as usize).saturating_add(index.saturating_mul(phdr_size));
        let d = self.data.get(offset..).unwrap_or(&[]);
        Ok(if is_64 {
            Segment {
                index,
                p_type: SegmentType(u32_at(d, 0)),
                flags: u32_at(d, 4),
                offset: u64_at(d, 8),
                vaddr: u64_at(d, 16),
                paddr: u64_at(d, 24),
                filesz: u64_at(d, 32),
                memsz: u64_at(d, 40),
                align: u64_at(d, 48),
                header_offset: offset as u64,
                file: self.data,
            }
        } else {
            Segment {
                index,
                p_type: SegmentType(u32_at(d, 0)),
                offset: u64::from(u32_at(d, 4)),
                vaddr: u64::from(u32_at(d, 8)),
                paddr: u64::from(u32_at(d, 12)),
                filesz: u64::from(u32_at(d, 16)),
                memsz: u64::from(u32_at(d, 20)),
                flags: u32_at(d, 24),
                align: u64::from(u32_at(d, 28)),
                header_offset: offset as u64,
                file: self.data,
            }
        })
    }

    /// All program headers.
    pub fn segments(&self) -> impl Iterator<Item = Segment<'data>> + 'data {
        let elf = *self;
        (0..self.segment_count).filter_map(move |i| elf.segment(i).ok())
    }

    /// The symbol table in `section` (an `SHT_SYMTAB` or `SHT_DYNSYM` section), with
    /// the string table its `sh_link` names.
    pub fn symbol_table(&self, section: &Section<'data>) -> Result<SymbolTable<'data>> {
        let sym_size = if self.is_64() {
            ELF64_SYM_SIZE
        } else {
            ELF32_SYM_SIZE
        };
        if section.entsize != 0 && section.entsize != sym_size as u64 {
            return Err(Error::new(
                section.header_offset,
                format!(
                    "symbol table entry size {} (expected {sym_size})",
                    section.entsize
                ),
            ));
        }
        let data = section.data()?;
        let strtab = if section.link == 0 {
            &[][..]
        } else {
            let link = self.link_target(section)?;
            link.data()?
        };
        Ok(SymbolTable {
            section: *section,
            data,
            strtab,
            is_64: self.is_64(),
            count: data.len() / sym_size,
        })
    }

    fn link_target(&self, section: &Section<'data>) -> Result<Section<'data>> {
        let link = section.link as usize;
        if link >= self.section_count {
            return Err(Error::new(
                section.header_offset,
                format!(
                    "section link {link} out of range ({} sections)",
                    self.section_count
                ),
            ));
        }
        Ok(self.raw_section(link))
    }

    /// The first section of type `sh_type`.
    fn first_of_type(&self, sh_type: u32) -> Option<Section<'data>> {
        (0..self.section_count)
            .find(|&i| self.raw_section_type(i) == sh_type)
            .map(|i| self.raw_section(i))
    }

    /// The static symbol table (`SHT_SYMTAB`), if the file has one.
    pub fn symtab(&self) -> Result<Option<SymbolTable<'data>>> {
        match self.first_of_type(SHT_SYMTAB) {
            Some(s) => self.symbol_table(&self.section(s.index)?).map(Some),
            None => Ok(None),
        }
    }

    /// The dynamic symbol table (`SHT_DYNSYM`), if the file has one.
    pub fn dynsym(&self) -> Result<Option<SymbolTable<'data>>> {
        match self.first_of_type(SHT_DYNSYM) {
            Some(s) => self.symbol_table(&self.section(s.index)?).map(Some),
            None => Ok(None),
        }
    }

    /// The relocation table in `section` (an `SHT_REL` or `SHT_RELA` section).
    pub fn relocation_table(&self, section: &Section<'data>) -> Result<RelocationTable<'data>> {
        let is_rela = match section.sh_type.0 {
            SHT_RELA => true,
            SHT_REL => false,
            other => {
                return Err(Error::new(
                    section.header_offset,
                    format!(
                        "section type {} is not a relocation table",
                        SectionType(other)
                    ),
                ))
            }
        };
        let entry_size = match (self.is_64(), is_rela) {
            (true, true) => ELF64_RELA_SIZE,
            (true, false) => ELF64_REL_SIZE,
            (false, true) => ELF32_RELA_SIZE,
            (false, false) => ELF32_REL_SIZE,
        };
        if section.entsize != 0 && section.entsize != entry_size as u64 {
            return Err(Error::new(
                section.header_offset,
                format!(
                    "relocation entry size {} (expected {entry_size})",
                    section.entsize
                ),
            ));
        }
        let data = section.data()?;
        Ok(RelocationTable {
            section: *section,
            data,
            is_64: self.is_64(),
            is_rela,
            entry_size,
            count: data.len() / entry_size,
        })
    }

    /// The relocation tables of the file (`SHT_REL` and `SHT_RELA` sections), in
    /// section order. Stops after the first error.
    pub fn relocation_tables(
        &self,
    ) -> impl Iterator<Item = Result<RelocationTable<'data>>> + 'data {
        let elf = *self;
        let mut failed = false;
        self.sections().filter_map(move |section| {
            if failed {
                return None;
            }
            let result = section.and_then(|s| match s.sh_type.0 {
                SHT_REL | SHT_RELA => elf.relocation_table(&s).map(Some),
                _ => Ok(None),
            });
            match result {
                Ok(table) => table.map(Ok),
                Err(e) => {
                    failed = true;
                    Some(Err(e))
                }
            }
        })
    }

    /// All note records: those of the `SHT_NOTE` sections if the file has any, else
    /// those of the `PT_NOTE` segments (so that a linked object's notes, which are in
    /// both, are seen once). An unreadable record is yielded as an `Err` and ends the
    /// records of its section or segment; the next section or segment is read after
    /// it (one bad note section does not hide the others).
    pub fn notes(&self) -> AllNotes<'data> {
        let from_sections = self.first_of_type(SHT_NOTE).is_some();
        AllNotes {
            elf: *self,
            from_sections,
            next_source: 0,
            current: None,
            done: false,
        }
    }
}

impl<'data> Elf<'data> {
    /// The `SHT_NOTE` sections whose `AMD`/`AMDGPU` records were read with 4-byte
    /// padding although the section's `sh_addralign` is 8 and 8 would have placed
    /// them elsewhere ([`Notes::repadded`]): the finalizer's code object v1 `.note`.
    /// An informational fact for readers, not a defect: the ROCr loader reads them so.
    pub fn repadded_note_sections(&self) -> Vec<Section<'data>> {
        let mut out = Vec::new();
        for index in 0..self.section_count {
            if self.raw_section_type(index) != SHT_NOTE {
                continue;
            }
            let Ok(section) = self.section(index) else {
                continue;
            };
            if section.addralign != 8 {
                continue;
            }
            if let Ok(mut notes) = section.notes() {
                for _ in notes.by_ref() {}
                if notes.repadded() {
                    out.push(section);
                }
            }
        }
        out
    }
}

/// Iterator over the sections of an [`Elf`]; an item is `Err` when the section's name
/// cannot be read (iteration continues with the next section).
#[derive(Clone, Debug)]
pub struct Sections<'data> {
    elf: Elf<'data>,
    next: usize,
    done: bool,
}

impl<'data> Iterator for Sections<'data> {
    type Item = Result<Section<'data>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.next >= self.elf.section_count {
            return None;
        }
        let index = self.next;
        self.next += 1;
        Some(self.elf.section(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.elf.section_count.saturating_sub(self.next);
        (left, Some(left))
    }
}

/// A section header, borrowing the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section<'data> {
    /// Index in the section header table.
    pub index: usize,
    /// Name from the section name string table (empty if the file has none).
    pub name: &'data [u8],
    /// `sh_name`: offset of the name in the section name string table.
    pub sh_name: u32,
    /// `sh_type`.
    pub sh_type: SectionType,
    /// `sh_flags` (`SHF_*`).
    pub flags: u64,
    /// `sh_addr`.
    pub addr: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// `sh_size`.
    pub size: u64,
    /// `sh_link`.
    pub link: u32,
    /// `sh_info`.
    pub info: u32,
    /// `sh_addralign`.
    pub addralign: u64,
    /// `sh_entsize`.
    pub entsize: u64,
    /// File offset of this section header.
    pub header_offset: u64,
    file: &'data [u8],
}

impl<'data> Section<'data> {
    /// The name as text (invalid UTF-8 replaced).
    pub fn name_str(&self) -> Cow<'data, str> {
        utf8_or_lossy(self.name)
    }

    /// The section's bytes in the file; empty for `SHT_NOBITS` and `SHT_NULL`.
    pub fn data(&self) -> Result<&'data [u8]> {
        if matches!(self.sh_type.0, SHT_NOBITS | SHT_NULL) {
            return Ok(&[]);
        }
        range(self.file, self.offset, self.size).ok_or_else(|| {
            Error::new(
                self.header_offset,
                format!(
                    "section {} data (offset {:#x}, size {:#x}) past end of file",
                    self.index, self.offset, self.size
                ),
            )
        })
    }

    /// The note records of this section (aligned per its `sh_addralign`).
    pub fn notes(&self) -> Result<Notes<'data>> {
        Ok(Notes::new(self.data()?, self.addralign).with_base(self.offset))
    }

    /// True if `SHF_ALLOC` is set.
    pub fn is_alloc(&self) -> bool {
        self.flags & SHF_ALLOC != 0
    }
}

/// A program header, borrowing the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment<'data> {
    /// Index in the program header table.
    pub index: usize,
    /// `p_type`.
    pub p_type: SegmentType,
    /// `p_flags` (`PF_*`).
    pub flags: u32,
    /// `p_offset`.
    pub offset: u64,
    /// `p_vaddr`.
    pub vaddr: u64,
    /// `p_paddr`.
    pub paddr: u64,
    /// `p_filesz`.
    pub filesz: u64,
    /// `p_memsz`.
    pub memsz: u64,
    /// `p_align`.
    pub align: u64,
    /// File offset of this program header.
    pub header_offset: u64,
    file: &'data [u8],
}

impl<'data> Segment<'data> {
    /// The segment's bytes in the file (`p_filesz` bytes at `p_offset`).
    pub fn data(&self) -> Result<&'data [u8]> {
        range(self.file, self.offset, self.filesz).ok_or_else(|| {
            Error::new(
                self.header_offset,
                format!(
                    "segment {} data (offset {:#x}, size {:#x}) past end of file",
                    self.index, self.offset, self.filesz
                ),
            )
        })
    }

    /// The note records of this segment.
    pub fn notes(&self) -> Result<Notes<'data>> {
        Ok(Notes::new(self.data()?, self.align).with_base(self.offset))
    }
}

/// A symbol table and its string table.
#[derive(Clone, Copy, Debug)]
pub struct SymbolTable<'data> {
    section: Section<'data>,
    data: &'data [u8],
    strtab: &'data [u8],
    is_64: bool,
    count: usize,
}

impl<'data> SymbolTable<'data> {
    /// The section holding the table.
    pub fn section(&self) -> &Section<'data> {
        &self.section
    }

    /// The number of symbols, including the null symbol 0.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True if the table holds no symbols at all.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The string table the names point into.
    pub fn strtab(&self) -> &'data [u8] {
        self.strtab
    }

    /// The symbol at `index`.
    pub fn get(&self, index: usize) -> Result<Symbol<'data>> {
        let size = if self.is_64 {
            ELF64_SYM_SIZE
        } else {
            ELF32_SYM_SIZE
        };
        if index >= self.count {
            return Err(Error::new(
                self.section.header_offset,
                format!("symbol index {index} out of range ({} symbols)", self.count),
            ));
        }
        let at = index * size;
        let d = &self.data[at..at + size];
        let offset = self.section.offset.saturating_add(at as u64);
        let (st_name, value, size, info, other, shndx) = if self.is_64 {
            (
                u32_at(d, 0),
                u64_at(d, 8),
                u64_at(d, 16),
                u8_at(d, 4),
                u8_at(d, 5),
                u16_at(d, 6),
            )
        } else {
            (
                u32_at(d, 0),
                u64::from(u32_at(d, 4)),
                u64::from(u32_at(d, 8)),
                u8_at(d, 12),
                u8_at(d, 13),
                u16_at(d, 14),
            )
        };
        let name = if st_name == 0 {
            &[][..]
        } else {
            string_at(self.strtab, st_name).ok_or_else(|| {
                Error::new(
                    offset,
                    format!("symbol name offset {st_name:#x} past end of string table"),
                )
            })?
        };
        Ok(Symbol {
            index,
            name,
            st_name,
            value,
            size,
            info,
            other,
            shndx,
            offset,
        })
    }

    /// The symbols `wanted(st_info, st_shndx)` chooses, in index order, and an `Err`
    /// (the one [`iter`](Self::iter) gives) for every symbol whose name cannot be
    /// read, chosen or not: [`iter`](Self::iter) without finding the names of the
    /// others (a library object's thousands of absolute symbols with long names,
    /// when `dis` wants only the code's).
    pub fn iter_where(
        &self,
        wanted: impl Fn(u8, u16) -> bool + 'data,
    ) -> impl Iterator<Item = Result<Symbol<'data>>> + 'data {
        let table = *self;
        // (a name can be read when a NUL ends it: its offset is at most the last NUL's)
        let last_nul = self.strtab.iter().rposition(|&b| b == 0);
        (0..self.count).filter_map(move |i| {
            let size = if table.is_64 {
                ELF64_SYM_SIZE
            } else {
                ELF32_SYM_SIZE
            };
            let d = table.data.get(i * size..(i + 1) * size)?;
            let (st_name, info, shndx) = if table.is_64 {
                (u32_at(d, 0), u8_at(d, 4), u16_at(d, 6))
            } else {
                (u32_at(d, 0), u8_at(d, 12), u16_at(d, 14))
            };
            let readable = st_name == 0 || last_nul.is_some_and(|n| st_name as usize <= n);
            (wanted(info, shndx) || !readable).then(|| table.get(i))
        })
    }

    /// All symbols in index order, starting with the null symbol. An item is `Err`
    /// when a name cannot be read; iteration continues.
    pub fn iter(&self) -> impl Iterator<Item = Result<Symbol<'data>>> + 'data {
        let table = *self;
        (0..self.count).map(move |i| table.get(i))
    }

    /// The first symbol named `name`.
    pub fn by_name(&self, name: &str) -> Option<Symbol<'data>> {
        self.iter()
            .filter_map(|s| s.ok())
            .find(|s| s.name == name.as_bytes() && s.index != 0)
    }
}

/// A symbol, borrowing its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbol<'data> {
    /// Index in its symbol table.
    pub index: usize,
    /// Name (empty for unnamed symbols).
    pub name: &'data [u8],
    /// `st_name`.
    pub st_name: u32,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// `st_info` (binding and type).
    pub info: u8,
    /// `st_other` (visibility).
    pub other: u8,
    /// `st_shndx`: section index or a special `SHN_*` value.
    pub shndx: u16,
    /// File offset of the symbol record.
    pub offset: u64,
}

impl<'data> Symbol<'data> {
    /// The name as text (invalid UTF-8 replaced).
    pub fn name_str(&self) -> Cow<'data, str> {
        utf8_or_lossy(self.name)
    }

    /// The type (`STT_*`).
    pub fn st_type(&self) -> SymbolType {
        SymbolType::from_info(self.info)
    }

    /// The binding (`STB_*`).
    pub fn bind(&self) -> SymbolBind {
        SymbolBind::from_info(self.info)
    }

    /// The visibility (`STV_*`).
    pub fn visibility(&self) -> SymbolVisibility {
        SymbolVisibility::from_other(self.other)
    }

    /// True for `SHN_UNDEF`.
    pub fn is_undefined(&self) -> bool {
        self.shndx == SHN_UNDEF
    }

    /// The index of the section defining the symbol, or `None` for undefined and
    /// special (`SHN_ABS`, `SHN_COMMON`, `SHN_AMDGPU_LDS`, ...) symbols.
    pub fn section_index(&self) -> Option<usize> {
        if self.shndx == SHN_UNDEF || self.shndx >= SHN_LORESERVE {
            None
        } else {
            Some(usize::from(self.shndx))
        }
    }
}

/// A relocation table (`SHT_REL` or `SHT_RELA` section).
#[derive(Clone, Copy, Debug)]
pub struct RelocationTable<'data> {
    section: Section<'data>,
    data: &'data [u8],
    is_64: bool,
    is_rela: bool,
    entry_size: usize,
    count: usize,
}

impl<'data> RelocationTable<'data> {
    /// The section holding the table.
    pub fn section(&self) -> &Section<'data> {
        &self.section
    }

    /// The index of the section the relocations apply to (`sh_info`; 0 for `.rela.dyn`).
    pub fn target_section_index(&self) -> usize {
        self.section.info as usize
    }

    /// The index of the symbol table the symbol indices refer to (`sh_link`).
    pub fn symbol_table_index(&self) -> usize {
        self.section.link as usize
    }

    /// True for `SHT_RELA` (explicit addends).
    pub fn is_rela(&self) -> bool {
        self.is_rela
    }

    /// The number of relocations.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True if the table is empty.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The relocation at `index` (`None` past the end).
    pub fn get(&self, index: usize) -> Option<Relocation> {
        if index >= self.count {
            return None;
        }
        let at = index * self.entry_size;
        let d = &self.data[at..at + self.entry_size];
        let (offset, r_type, symbol, addend) = if self.is_64 {
            let info = u64_at(d, 8);
            let addend = if self.is_rela {
                u64_at(d, 16) as i64
            } else {
                0
            };
            (u64_at(d, 0), info as u32, (info >> 32) as u32, addend)
        } else {
            let info = u32_at(d, 4);
            let addend = if self.is_rela {
                i64::from(u32_at(d, 8) as i32)
            } else {
                0
            };
            (u64::from(u32_at(d, 0)), info & 0xff, info >> 8, addend)
        };
        Some(Relocation {
            offset,
            r_type: RelocType(r_type),
            symbol,
            addend,
            has_addend: self.is_rela,
            entry_offset: self.section.offset.saturating_add(at as u64),
        })
    }

    /// All relocations.
    pub fn iter(&self) -> impl Iterator<Item = Relocation> + 'data {
        let table = *self;
        (0..self.count).filter_map(move |i| table.get(i))
    }
}

/// One relocation record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relocation {
    /// `r_offset`: section offset (ET_REL) or address (ET_DYN) of the field.
    pub offset: u64,
    /// The relocation type.
    pub r_type: RelocType,
    /// The symbol index (0 = `STN_UNDEF`).
    pub symbol: u32,
    /// `r_addend` (0 for `SHT_REL`, where the addend is in the field).
    pub addend: i64,
    /// True if the record came from an `SHT_RELA` table.
    pub has_addend: bool,
    /// File offset of the record.
    pub entry_offset: u64,
}

/// Iterator over all note records of a file; see [`Elf::notes`].
#[derive(Clone, Debug)]
pub struct AllNotes<'data> {
    elf: Elf<'data>,
    from_sections: bool,
    next_source: usize,
    current: Option<Notes<'data>>,
    done: bool,
}

impl<'data> AllNotes<'data> {
    /// The next note source (section or segment), or `None` when there are no more.
    fn next_source(&mut self) -> Option<Result<Notes<'data>>> {
        if self.from_sections {
            while self.next_source < self.elf.section_count {
                let index = self.next_source;
                self.next_source += 1;
                if self.elf.raw_section_type(index) == SHT_NOTE {
                    return Some(self.elf.raw_section(index).notes());
                }
            }
        } else {
            while self.next_source < self.elf.segment_count {
                let index = self.next_source;
                self.next_source += 1;
                match self.elf.segment(index) {
                    Ok(segment) if segment.p_type.0 == PT_NOTE => return Some(segment.notes()),
                    Ok(_) => {}
                    Err(e) => return Some(Err(e)),
                }
            }
        }
        None
    }
}

impl<'data> Iterator for AllNotes<'data> {
    type Item = Result<Note<'data>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            if let Some(current) = &mut self.current {
                match current.next() {
                    Some(Ok(note)) => return Some(Ok(note)),
                    // the rest of this section is unreadable; the next ones may not be
                    Some(Err(e)) => {
                        self.current = None;
                        return Some(Err(e));
                    }
                    None => self.current = None,
                }
            }
            match self.next_source() {
                Some(Ok(notes)) => self.current = Some(notes),
                Some(Err(e)) => return Some(Err(e)),
                None => {
                    self.done = true;
                    return None;
                }
            }
        }
    }
}
