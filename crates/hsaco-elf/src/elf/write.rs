//! The ELF64 writer: builds AMDGPU code objects from parts.
//!
//! A [`Builder`] holds the header fields, sections with their data, symbols and
//! relocations. [`Builder::write`] lays the file out and adds the tables it owns:
//! `.rela<name>` for each section with relocations, `.symtab` (locals first,
//! `sh_info` = first global), `.strtab` and `.shstrtab`. User section `SectionId(n)`
//! becomes section header `n + 1`; the automatic sections follow the user sections.
//!
//! For `ET_DYN` and `ET_EXEC` files the writer also lays out program headers:
//! `PT_PHDR`, one `PT_LOAD` per run of allocated sections with the same permissions
//! (page-aligned, file offset congruent to address modulo the page size, the first
//! one covering the headers), `PT_NOTE` for each allocated note section and
//! `PT_DYNAMIC` for an `SHT_DYNAMIC` section. Allocated sections are given addresses
//! unless they come with one. Call [`Builder::layout`] to learn addresses before
//! writing (to fill in addresses in data or symbol values, the sizes must not change).
//!
//! ```
//! use hsaco_elf::elf::{write::{Builder, SectionSpec}, consts::*, Elf};
//! let mut b = Builder::new(ET_REL, ELFOSABI_AMDGPU_HSA, ELFABIVERSION_AMDGPU_HSA_V5, 0x52f);
//! b.add_section(SectionSpec::progbits(".text", SHF_ALLOC | SHF_EXECINSTR, 256, vec![0; 4]));
//! let bytes = b.write().unwrap();
//! let elf = Elf::parse(&bytes).unwrap();
//! assert_eq!(elf.section_by_name(".text").unwrap().addralign, 256);
//! ```

use super::consts::*;
use super::read::Elf;
use crate::note::{encode_notes, NoteRecord};
use crate::{Error, Result};

/// The page size used to align loadable segments.
pub const PAGE_SIZE: u64 = 0x1000;

/// The largest section alignment the writer lays out.
pub const MAX_ALIGN: u64 = 0x1_0000;

/// A user section, by the order it was added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SectionId(pub usize);

impl SectionId {
    /// The section header index this section gets in the output.
    pub fn header_index(self) -> usize {
        self.0 + 1
    }
}

/// A symbol, by the order it was added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SymbolId(pub usize);

/// What `sh_link` or `sh_info` of a section refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// 0.
    None,
    /// A user section.
    Section(SectionId),
    /// The `.symtab` the writer builds.
    Symtab,
    /// The `.strtab` the writer builds.
    Strtab,
    /// A raw number.
    Raw(u32),
}

/// A section to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSpec {
    /// Name.
    pub name: String,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addr`: kept if given; for allocated sections of files with program headers,
    /// `None` lets the writer choose the address (otherwise `None` means 0).
    pub addr: Option<u64>,
    /// Contents (ignored for `SHT_NOBITS`).
    pub data: Vec<u8>,
    /// Size of an `SHT_NOBITS` section.
    pub nobits_size: u64,
    /// `sh_addralign` (0 and 1 mean unaligned).
    pub align: u64,
    /// `sh_entsize`.
    pub entsize: u64,
    /// `sh_link`.
    pub link: Link,
    /// `sh_info`.
    pub info: Link,
}

impl SectionSpec {
    /// An `SHT_PROGBITS` section.
    pub fn progbits(name: &str, flags: u64, align: u64, data: Vec<u8>) -> Self {
        SectionSpec {
            name: name.to_string(),
            sh_type: SHT_PROGBITS,
            flags,
            addr: None,
            data,
            nobits_size: 0,
            align,
            entsize: 0,
            link: Link::None,
            info: Link::None,
        }
    }

    /// An `SHT_NOBITS` section of `size` bytes.
    pub fn nobits(name: &str, flags: u64, align: u64, size: u64) -> Self {
        SectionSpec {
            sh_type: SHT_NOBITS,
            nobits_size: size,
            ..SectionSpec::progbits(name, flags, align, Vec::new())
        }
    }

    /// An `SHT_NOTE` section holding `notes` (4-byte aligned records, `sh_addralign` 4).
    pub fn notes(name: &str, flags: u64, notes: &[NoteRecord]) -> Self {
        SectionSpec {
            sh_type: SHT_NOTE,
            ..SectionSpec::progbits(name, flags, 4, encode_notes(notes))
        }
    }

    /// The size of the section in memory.
    pub fn size(&self) -> u64 {
        if self.sh_type == SHT_NOBITS {
            self.nobits_size
        } else {
            self.data.len() as u64
        }
    }

    fn is_nobits(&self) -> bool {
        self.sh_type == SHT_NOBITS
    }
}

/// Where a symbol is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolSection {
    /// `SHN_UNDEF`.
    Undefined,
    /// `SHN_ABS`.
    Absolute,
    /// `SHN_COMMON`.
    Common,
    /// A user section.
    Section(SectionId),
    /// A raw `st_shndx` (e.g. `SHN_AMDGPU_LDS`).
    Raw(u16),
}

/// A symbol to write into `.symtab`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolSpec {
    /// Name.
    pub name: String,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// Type (`STT_*`).
    pub st_type: u8,
    /// Binding (`STB_*`).
    pub bind: u8,
    /// `st_other` (visibility in the low two bits).
    pub other: u8,
    /// Defining section.
    pub section: SymbolSection,
}

/// A relocation to write into the `.rela` section of its target section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelocSpec {
    /// `r_offset`.
    pub offset: u64,
    /// Relocation type (`R_AMDGPU_*`).
    pub r_type: u32,
    /// Symbol, or `None` for `STN_UNDEF`.
    pub symbol: Option<SymbolId>,
    /// `r_addend`.
    pub addend: i64,
}

/// A string table under construction (`\0` first, no deduplication of suffixes).
#[derive(Clone, Debug, Default)]
pub struct StringTable {
    bytes: Vec<u8>,
    index: std::collections::HashMap<Vec<u8>, u32>,
}

impl StringTable {
    /// A table holding only the empty string.
    pub fn new() -> Self {
        StringTable {
            bytes: vec![0],
            index: Default::default(),
        }
    }

    /// The offset of `name`, adding it if new. The empty name is offset 0.
    pub fn add(&mut self, name: &[u8]) -> u32 {
        if name.is_empty() {
            return 0;
        }
        if let Some(&at) = self.index.get(name) {
            return at;
        }
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(name);
        self.bytes.push(0);
        self.index.insert(name.to_vec(), at);
        at
    }

    /// The table's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Appends an `Elf64_Sym`.
pub fn encode_symbol64(
    out: &mut Vec<u8>,
    st_name: u32,
    info: u8,
    other: u8,
    shndx: u16,
    value: u64,
    size: u64,
) {
    out.extend_from_slice(&st_name.to_le_bytes());
    out.push(info);
    out.push(other);
    out.extend_from_slice(&shndx.to_le_bytes());
    out.extend_from_slice(&value.to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
}

/// Appends an `Elf64_Rela`.
pub fn encode_rela64(out: &mut Vec<u8>, offset: u64, symbol: u32, r_type: u32, addend: i64) {
    out.extend_from_slice(&offset.to_le_bytes());
    out.extend_from_slice(&((u64::from(symbol) << 32) | u64::from(r_type)).to_le_bytes());
    out.extend_from_slice(&addend.to_le_bytes());
}

/// Where the writer puts each user section and which program headers it writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// File offset of each user section, by [`SectionId`].
    pub offsets: Vec<u64>,
    /// Address of each user section, by [`SectionId`].
    pub addrs: Vec<u64>,
    /// The program headers, in order.
    pub segments: Vec<SegmentSpec>,
    /// File offset just past the last user section.
    pub end: u64,
}

/// A program header the writer emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentSpec {
    /// `p_type`.
    pub p_type: u32,
    /// `p_flags`.
    pub flags: u32,
    /// `p_offset`.
    pub offset: u64,
    /// `p_vaddr` (and `p_paddr`).
    pub vaddr: u64,
    /// `p_filesz`.
    pub filesz: u64,
    /// `p_memsz`.
    pub memsz: u64,
    /// `p_align`.
    pub align: u64,
}

/// A file layout chosen by the caller, for [`Builder::write_fixed`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixedLayout {
    /// File offset of each user section, by [`SectionId`].
    pub offsets: Vec<u64>,
    /// `sh_name` of each user section, by [`SectionId`] (offsets into the user section
    /// named by `shstrndx`).
    pub name_offsets: Vec<u32>,
    /// The section holding the section names (`e_shstrndx`), if any.
    pub shstrndx: Option<SectionId>,
    /// The program headers, in order.
    pub segments: Vec<SegmentSpec>,
    /// `e_shoff`: where the section headers go.
    pub shoff: u64,
}

/// Builds an ELF64 little-endian AMDGPU object.
#[derive(Clone, Debug)]
pub struct Builder {
    /// `e_type`.
    pub e_type: u16,
    /// `e_ident[EI_OSABI]`.
    pub os_abi: u8,
    /// `e_ident[EI_ABIVERSION]`.
    pub abi_version: u8,
    /// `e_flags`.
    pub e_flags: u32,
    /// `e_entry`.
    pub entry: u64,
    /// `e_machine` (`EM_AMDGPU` by default).
    pub e_machine: u16,
    sections: Vec<SectionSpec>,
    symbols: Vec<SymbolSpec>,
    relocs: Vec<(SectionId, RelocSpec)>,
    /// Write `.symtab`/`.strtab` even without symbols.
    pub always_symtab: bool,
    /// For `ET_REL` files: program headers of the given `p_type`, each covering one
    /// user section (offset, `sh_addr` as address, size, alignment), as the HSA
    /// runtime's finalizer wrote code object v1 (`PT_AMDGPU_HSA_LOAD_CODE_AGENT` over
    /// `.hsatext`). Ignored for `ET_DYN`/`ET_EXEC`, whose segments the writer lays out.
    pub section_segments: Vec<(u32, SectionId)>,
}

fn align_up(value: u64, align: u64) -> Option<u64> {
    let align = align.max(1);
    value.checked_add(align - 1).map(|v| v / align * align)
}

fn seg_flags(section: &SectionSpec) -> u32 {
    let mut flags = PF_R;
    if section.flags & SHF_WRITE != 0 {
        flags |= PF_W;
    }
    if section.flags & SHF_EXECINSTR != 0 {
        flags |= PF_X;
    }
    flags
}

fn overflow() -> Error {
    Error::new(0, "layout overflows 64 bits")
}

impl Builder {
    /// A builder for a file of type `e_type` (`ET_REL`, `ET_DYN`) with the given OS
    /// ABI, ABI version and `e_flags`.
    pub fn new(e_type: u16, os_abi: u8, abi_version: u8, e_flags: u32) -> Self {
        Builder {
            e_type,
            os_abi,
            abi_version,
            e_flags,
            entry: 0,
            e_machine: EM_AMDGPU,
            sections: Vec::new(),
            symbols: Vec::new(),
            relocs: Vec::new(),
            always_symtab: false,
            section_segments: Vec::new(),
        }
    }

    /// Adds a section.
    pub fn add_section(&mut self, section: SectionSpec) -> SectionId {
        self.sections.push(section);
        SectionId(self.sections.len() - 1)
    }

    /// The section `id`.
    pub fn section(&self, id: SectionId) -> Option<&SectionSpec> {
        self.sections.get(id.0)
    }

    /// The section `id`, to change (e.g. to patch addresses into its data after
    /// [`Builder::layout`]).
    pub fn section_mut(&mut self, id: SectionId) -> Option<&mut SectionSpec> {
        self.sections.get_mut(id.0)
    }

    /// The user sections.
    pub fn sections(&self) -> &[SectionSpec] {
        &self.sections
    }

    /// Adds a symbol. Local symbols are written before the others whatever the order
    /// of the calls.
    pub fn add_symbol(&mut self, symbol: SymbolSpec) -> SymbolId {
        self.symbols.push(symbol);
        SymbolId(self.symbols.len() - 1)
    }

    /// The symbol `id`, to change.
    pub fn symbol_mut(&mut self, id: SymbolId) -> Option<&mut SymbolSpec> {
        self.symbols.get_mut(id.0)
    }

    /// Adds a relocation applying to section `target`.
    pub fn add_relocation(&mut self, target: SectionId, reloc: RelocSpec) {
        self.relocs.push((target, reloc));
    }

    /// The `.symtab` index each symbol gets (locals first, after the null symbol).
    pub fn symbol_indices(&self) -> Vec<u32> {
        let mut indices = vec![0u32; self.symbols.len()];
        let mut next = 1u32;
        for local in [true, false] {
            for (i, s) in self.symbols.iter().enumerate() {
                if (s.bind == STB_LOCAL) == local {
                    indices[i] = next;
                    next += 1;
                }
            }
        }
        indices
    }

    fn has_program_headers(&self) -> bool {
        matches!(self.e_type, ET_DYN | ET_EXEC)
    }

    /// Computes section offsets and addresses and the program headers.
    pub fn layout(&self) -> Result<Layout> {
        for s in &self.sections {
            if s.align > MAX_ALIGN {
                return Err(Error::new(
                    0,
                    format!(
                        "section {} alignment {:#x} above the supported {MAX_ALIGN:#x}",
                        s.name, s.align
                    ),
                ));
            }
        }
        if !self.has_program_headers() {
            let phnum = self.section_segments.len();
            let mut off = (ELF64_EHDR_SIZE + phnum * ELF64_PHDR_SIZE) as u64;
            let mut offsets = Vec::with_capacity(self.sections.len());
            for s in &self.sections {
                off = align_up(off, s.align).ok_or_else(overflow)?;
                offsets.push(off);
                if !s.is_nobits() {
                    off = off.checked_add(s.size()).ok_or_else(overflow)?;
                }
            }
            let addrs: Vec<u64> = self.sections.iter().map(|s| s.addr.unwrap_or(0)).collect();
            let mut segments = Vec::with_capacity(phnum);
            for &(p_type, id) in &self.section_segments {
                let s = self.sections.get(id.0).ok_or_else(|| {
                    Error::new(0, format!("segment over section id {} out of range", id.0))
                })?;
                segments.push(SegmentSpec {
                    p_type,
                    flags: seg_flags(s),
                    offset: offsets[id.0],
                    vaddr: addrs[id.0],
                    filesz: if s.is_nobits() { 0 } else { s.size() },
                    memsz: s.size(),
                    align: s.align.max(1),
                });
            }
            return Ok(Layout {
                offsets,
                addrs,
                segments,
                end: off,
            });
        }
        let mut phnum = 2 + self
            .sections
            .iter()
            .filter(|s| s.flags & SHF_ALLOC != 0 && matches!(s.sh_type, SHT_NOTE | SHT_DYNAMIC))
            .count();
        for _ in 0..8 {
            let layout = self.layout_with(phnum)?;
            if layout.segments.len() == phnum {
                return Ok(layout);
            }
            phnum = layout.segments.len();
        }
        Err(Error::new(0, "program header layout does not converge"))
    }

    fn layout_with(&self, phnum: usize) -> Result<Layout> {
        let headers_end = (ELF64_EHDR_SIZE + phnum * ELF64_PHDR_SIZE) as u64;
        let n = self.sections.len();
        let mut offsets = vec![0u64; n];
        let mut addrs: Vec<u64> = self.sections.iter().map(|s| s.addr.unwrap_or(0)).collect();
        let mut off = headers_end;

        // pass 1: allocated sections get offsets and addresses
        let mut cur_flags = PF_R;
        let mut cur_delta: u64 = 0; // vaddr - offset, wrapping
        let mut cur_nobits = false;
        let mut mem_end = headers_end;
        for (i, s) in self.sections.iter().enumerate() {
            if s.flags & SHF_ALLOC == 0 {
                continue;
            }
            let flags = seg_flags(s);
            let align = s.align.max(1);
            let vaddr;
            if let Some(addr) = s.addr {
                // smallest offset >= off congruent to addr modulo the page size
                let page = PAGE_SIZE.max(align);
                let want = addr % page;
                let base = off - off % page;
                off = if base + want >= off {
                    base + want
                } else {
                    base.checked_add(page + want).ok_or_else(overflow)?
                };
                vaddr = addr;
            } else {
                off = align_up(off, align).ok_or_else(overflow)?;
                let joins = flags == cur_flags && (!cur_nobits || s.is_nobits());
                if joins {
                    vaddr = if s.is_nobits() {
                        align_up(mem_end, align).ok_or_else(overflow)?
                    } else {
                        off.wrapping_add(cur_delta)
                    };
                } else {
                    let page = PAGE_SIZE.max(align);
                    vaddr = align_up(mem_end, page)
                        .and_then(|v| v.checked_add(off % page))
                        .ok_or_else(overflow)?;
                }
            }
            offsets[i] = off;
            addrs[i] = vaddr;
            if flags != cur_flags || vaddr.wrapping_sub(off) != cur_delta && !s.is_nobits() {
                cur_nobits = false;
            }
            cur_flags = flags;
            if !s.is_nobits() {
                cur_delta = vaddr.wrapping_sub(off);
                off = off.checked_add(s.size()).ok_or_else(overflow)?;
            } else {
                cur_nobits = true;
            }
            mem_end = vaddr
                .checked_add(s.size())
                .ok_or_else(overflow)?
                .max(mem_end);
        }
        let alloc_end = off;

        // pass 2: the segments those addresses imply
        let mut loads: Vec<(SegmentSpec, bool)> = vec![(
            SegmentSpec {
                p_type: PT_LOAD,
                flags: PF_R,
                offset: 0,
                vaddr: 0,
                filesz: headers_end,
                memsz: headers_end,
                align: PAGE_SIZE,
            },
            false,
        )];
        for (i, s) in self.sections.iter().enumerate() {
            if s.flags & SHF_ALLOC == 0 {
                continue;
            }
            let flags = seg_flags(s);
            let (off, vaddr, size) = (offsets[i], addrs[i], s.size());
            let (last, last_nobits) = loads
                .last_mut()
                .expect("the header segment is always there");
            let file_end = last.offset.saturating_add(last.filesz);
            let joins = flags == last.flags
                && if s.is_nobits() {
                    vaddr >= last.vaddr.saturating_add(last.memsz)
                } else {
                    !*last_nobits
                        && off >= file_end
                        && vaddr.wrapping_sub(off) == last.vaddr.wrapping_sub(last.offset)
                };
            if joins {
                if !s.is_nobits() {
                    last.filesz = off.saturating_add(size).saturating_sub(last.offset);
                } else {
                    *last_nobits = true;
                }
                last.memsz = last
                    .memsz
                    .max(vaddr.saturating_add(size).saturating_sub(last.vaddr));
            } else {
                loads.push((
                    SegmentSpec {
                        p_type: PT_LOAD,
                        flags,
                        offset: off,
                        vaddr,
                        filesz: if s.is_nobits() { 0 } else { size },
                        memsz: size,
                        align: PAGE_SIZE,
                    },
                    s.is_nobits(),
                ));
            }
        }
        let mut segments = vec![SegmentSpec {
            p_type: PT_PHDR,
            flags: PF_R,
            offset: ELF64_EHDR_SIZE as u64,
            vaddr: ELF64_EHDR_SIZE as u64,
            filesz: headers_end - ELF64_EHDR_SIZE as u64,
            memsz: headers_end - ELF64_EHDR_SIZE as u64,
            align: 8,
        }];
        segments.extend(loads.into_iter().map(|(seg, _)| seg));
        for (i, s) in self.sections.iter().enumerate() {
            if s.flags & SHF_ALLOC != 0 && matches!(s.sh_type, SHT_NOTE | SHT_DYNAMIC) {
                let (p_type, flags) = if s.sh_type == SHT_NOTE {
                    (PT_NOTE, PF_R)
                } else {
                    (PT_DYNAMIC, PF_R | PF_W)
                };
                segments.push(SegmentSpec {
                    p_type,
                    flags,
                    offset: offsets[i],
                    vaddr: addrs[i],
                    filesz: s.size(),
                    memsz: s.size(),
                    align: s.align.max(1),
                });
            }
        }

        // pass 3: the other sections
        off = alloc_end;
        for (i, s) in self.sections.iter().enumerate() {
            if s.flags & SHF_ALLOC != 0 {
                continue;
            }
            off = align_up(off, s.align).ok_or_else(overflow)?;
            offsets[i] = off;
            if !s.is_nobits() {
                off = off.checked_add(s.size()).ok_or_else(overflow)?;
            }
        }
        Ok(Layout {
            offsets,
            addrs,
            segments,
            end: off,
        })
    }

    fn link_value(&self, link: Link, symtab_index: u32, strtab_index: u32) -> Result<u32> {
        Ok(match link {
            Link::None => 0,
            Link::Raw(value) => value,
            Link::Symtab => symtab_index,
            Link::Strtab => strtab_index,
            Link::Section(id) => {
                if id.0 >= self.sections.len() {
                    return Err(Error::new(
                        0,
                        format!("link to section id {} out of range", id.0),
                    ));
                }
                id.header_index() as u32
            }
        })
    }

    /// `.symtab`'s bytes (the null symbol, then the symbols in `sym_indices` order)
    /// and the index of its first non-local symbol; `shndx` gives a user section's
    /// header index, `name` a name's string table offset.
    fn encode_symtab(
        &self,
        sym_indices: &[u32],
        shndx: impl Fn(SectionId) -> Option<u16>,
        mut name: impl FnMut(&[u8]) -> u32,
    ) -> Result<(Vec<u8>, u32)> {
        let mut symtab = Vec::new();
        encode_symbol64(&mut symtab, 0, 0, 0, 0, 0, 0);
        let mut first_global = 1u32;
        let mut order: Vec<usize> = (0..self.symbols.len()).collect();
        order.sort_by_key(|&i| sym_indices[i]);
        for i in order {
            let s = &self.symbols[i];
            if s.bind == STB_LOCAL {
                first_global = sym_indices[i] + 1;
            }
            let index = match s.section {
                SymbolSection::Undefined => SHN_UNDEF,
                SymbolSection::Absolute => SHN_ABS,
                SymbolSection::Common => SHN_COMMON,
                SymbolSection::Raw(raw) => raw,
                SymbolSection::Section(id) => shndx(id).ok_or_else(|| {
                    Error::new(
                        0,
                        format!("symbol {} in section id {} out of range", s.name, id.0),
                    )
                })?,
            };
            encode_symbol64(
                &mut symtab,
                name(s.name.as_bytes()),
                st_info(s.bind, s.st_type),
                s.other,
                index,
                s.value,
                s.size,
            );
        }
        Ok((symtab, first_global))
    }

    /// Lays out and writes the file.
    pub fn write(&self) -> Result<Vec<u8>> {
        let layout = self.layout()?;
        let mut out = Vec::new();

        // automatic sections: .rela<name>..., .symtab, .strtab, .shstrtab
        let sym_indices = self.symbol_indices();
        let mut rela_targets: Vec<SectionId> = Vec::new();
        for (target, _) in &self.relocs {
            if target.0 >= self.sections.len() {
                return Err(Error::new(
                    0,
                    format!("relocation target section id {} out of range", target.0),
                ));
            }
            if !rela_targets.contains(target) {
                rela_targets.push(*target);
            }
        }
        let want_symtab = !self.symbols.is_empty() || !self.relocs.is_empty() || self.always_symtab;
        let n_user = self.sections.len();
        let first_rela = n_user + 1;
        let symtab_index = (first_rela + rela_targets.len()) as u32;
        let strtab_index = symtab_index + 1;
        let shstrtab_index = if want_symtab {
            strtab_index + 1
        } else {
            symtab_index
        };
        let shnum = shstrtab_index as usize + 1;
        if shnum >= usize::from(SHN_LORESERVE) {
            return Err(Error::new(
                0,
                format!("{shnum} sections need extended numbering, not supported"),
            ));
        }

        let mut shstrtab = StringTable::new();
        let mut strtab = StringTable::new();
        let (symtab, first_global) = if want_symtab {
            self.encode_symtab(
                &sym_indices,
                |id| Some(id.header_index() as u16).filter(|_| id.0 < n_user),
                |name| strtab.add(name),
            )?
        } else {
            (Vec::new(), 1)
        };
        let mut relas: Vec<Vec<u8>> = Vec::new();
        for target in &rela_targets {
            let mut data = Vec::new();
            for (t, r) in &self.relocs {
                if t == target {
                    let symbol = match r.symbol {
                        None => 0,
                        Some(id) => *sym_indices.get(id.0).ok_or_else(|| {
                            Error::new(0, format!("relocation symbol id {} out of range", id.0))
                        })?,
                    };
                    encode_rela64(&mut data, r.offset, symbol, r.r_type, r.addend);
                }
            }
            relas.push(data);
        }

        // header and program headers are written last into the reserved space
        out.resize(layout.end as usize, 0);
        for (i, s) in self.sections.iter().enumerate() {
            if !s.is_nobits() {
                let at = layout.offsets[i] as usize;
                out[at..at + s.data.len()].copy_from_slice(&s.data);
            }
        }
        let mut headers: Vec<[u64; 10]> = vec![[0; 10]]; // name,type,flags,addr,offset,size,link,info,align,entsize
        for (i, s) in self.sections.iter().enumerate() {
            headers.push([
                u64::from(shstrtab.add(s.name.as_bytes())),
                u64::from(s.sh_type),
                s.flags,
                layout.addrs[i],
                layout.offsets[i],
                s.size(),
                u64::from(self.link_value(s.link, symtab_index, strtab_index)?),
                u64::from(self.link_value(s.info, symtab_index, strtab_index)?),
                s.align,
                s.entsize,
            ]);
        }
        let append = |out: &mut Vec<u8>, data: &[u8], align: u64| -> u64 {
            let at = align_up(out.len() as u64, align).unwrap_or(out.len() as u64);
            out.resize(at as usize, 0);
            out.extend_from_slice(data);
            at
        };
        for (k, target) in rela_targets.iter().enumerate() {
            let name = format!(".rela{}", self.sections[target.0].name);
            let at = append(&mut out, &relas[k], 8);
            headers.push([
                u64::from(shstrtab.add(name.as_bytes())),
                u64::from(SHT_RELA),
                SHF_INFO_LINK,
                0,
                at,
                relas[k].len() as u64,
                u64::from(symtab_index),
                target.header_index() as u64,
                8,
                ELF64_RELA_SIZE as u64,
            ]);
        }
        if want_symtab {
            let at = append(&mut out, &symtab, 8);
            headers.push([
                u64::from(shstrtab.add(b".symtab")),
                u64::from(SHT_SYMTAB),
                0,
                0,
                at,
                symtab.len() as u64,
                u64::from(strtab_index),
                u64::from(first_global),
                8,
                ELF64_SYM_SIZE as u64,
            ]);
            let at = append(&mut out, strtab.bytes(), 1);
            headers.push([
                u64::from(shstrtab.add(b".strtab")),
                u64::from(SHT_STRTAB),
                0,
                0,
                at,
                strtab.bytes().len() as u64,
                0,
                0,
                1,
                0,
            ]);
        }
        let shstrtab_name = u64::from(shstrtab.add(b".shstrtab"));
        let at = append(&mut out, shstrtab.bytes(), 1);
        headers.push([
            shstrtab_name,
            u64::from(SHT_STRTAB),
            0,
            0,
            at,
            shstrtab.bytes().len() as u64,
            0,
            0,
            1,
            0,
        ]);
        let shoff = append(&mut out, &[], 8);
        for h in &headers {
            out.extend_from_slice(&(h[0] as u32).to_le_bytes());
            out.extend_from_slice(&(h[1] as u32).to_le_bytes());
            out.extend_from_slice(&h[2].to_le_bytes());
            out.extend_from_slice(&h[3].to_le_bytes());
            out.extend_from_slice(&h[4].to_le_bytes());
            out.extend_from_slice(&h[5].to_le_bytes());
            out.extend_from_slice(&(h[6] as u32).to_le_bytes());
            out.extend_from_slice(&(h[7] as u32).to_le_bytes());
            out.extend_from_slice(&h[8].to_le_bytes());
            out.extend_from_slice(&h[9].to_le_bytes());
        }

        let eh = self.header_bytes(&layout.segments, shoff, shnum as u16, shstrtab_index as u16);
        if out.len() < eh.len() {
            out.resize(eh.len(), 0);
        }
        out[..eh.len()].copy_from_slice(&eh);
        Ok(out)
    }

    /// Writes the user sections at the file offsets the caller chose, with the program
    /// headers it chose, and no tables of the writer's own: for a linker that lays the
    /// file out itself (`.symtab`, `.strtab`, `.shstrtab` and the dynamic tables are
    /// then user sections). Symbols and relocations added to the builder are refused.
    /// `sh_addr` is the section's `addr` (or 0). The program headers follow the ELF
    /// header; the section headers are written at `fixed.shoff`.
    pub fn write_fixed(&self, fixed: &FixedLayout) -> Result<Vec<u8>> {
        let n = self.sections.len();
        if !self.symbols.is_empty() || !self.relocs.is_empty() {
            return Err(Error::new(
                0,
                "write_fixed writes user sections only (symbols or relocations were added)",
            ));
        }
        if fixed.offsets.len() != n || fixed.name_offsets.len() != n {
            return Err(Error::new(
                0,
                format!(
                    "fixed layout has {} offsets and {} names for {n} sections",
                    fixed.offsets.len(),
                    fixed.name_offsets.len()
                ),
            ));
        }
        let shnum = n + 1;
        if shnum >= usize::from(SHN_LORESERVE) {
            return Err(Error::new(
                0,
                format!("{shnum} sections need extended numbering, not supported"),
            ));
        }
        let shstrndx = match fixed.shstrndx {
            Some(id) if id.0 < n => id.header_index() as u16,
            Some(id) => {
                return Err(Error::new(
                    0,
                    format!("section name table id {} out of range", id.0),
                ))
            }
            None => 0,
        };
        let phnum = fixed.segments.len();
        if phnum >= 0xffff {
            return Err(Error::new(0, format!("{phnum} program headers")));
        }
        let headers_end = (ELF64_EHDR_SIZE + phnum * ELF64_PHDR_SIZE) as u64;
        let shdrs_end = (shnum as u64)
            .checked_mul(ELF64_SHDR_SIZE as u64)
            .and_then(|size| fixed.shoff.checked_add(size))
            .ok_or_else(overflow)?;
        let mut end = headers_end.max(shdrs_end);
        for (i, s) in self.sections.iter().enumerate() {
            if !s.is_nobits() {
                let at = fixed.offsets[i];
                if at < headers_end && !s.data.is_empty() {
                    return Err(Error::new(
                        0,
                        format!("section {} at {at:#x} overlaps the headers", s.name),
                    ));
                }
                end = end.max(at.checked_add(s.size()).ok_or_else(overflow)?);
            }
        }
        if end > u64::from(u32::MAX) {
            return Err(Error::new(0, format!("file size {end:#x} above 4 GiB")));
        }
        let mut out = vec![0u8; end as usize];
        for (i, s) in self.sections.iter().enumerate() {
            if !s.is_nobits() {
                let at = fixed.offsets[i] as usize;
                out[at..at + s.data.len()].copy_from_slice(&s.data);
            }
        }
        let link = |link: Link| -> Result<u32> {
            match link {
                Link::None => Ok(0),
                Link::Raw(v) => Ok(v),
                Link::Section(id) if id.0 < n => Ok(id.header_index() as u32),
                Link::Section(id) => Err(Error::new(
                    0,
                    format!("section link to id {} out of range", id.0),
                )),
                Link::Symtab | Link::Strtab => Err(Error::new(
                    0,
                    "write_fixed has no .symtab/.strtab of its own to link to",
                )),
            }
        };
        let mut sh = Vec::with_capacity(shnum * ELF64_SHDR_SIZE);
        sh.resize(ELF64_SHDR_SIZE, 0);
        for (i, s) in self.sections.iter().enumerate() {
            sh.extend_from_slice(&fixed.name_offsets[i].to_le_bytes());
            sh.extend_from_slice(&s.sh_type.to_le_bytes());
            sh.extend_from_slice(&s.flags.to_le_bytes());
            sh.extend_from_slice(&s.addr.unwrap_or(0).to_le_bytes());
            sh.extend_from_slice(&fixed.offsets[i].to_le_bytes());
            sh.extend_from_slice(&s.size().to_le_bytes());
            sh.extend_from_slice(&link(s.link)?.to_le_bytes());
            sh.extend_from_slice(&link(s.info)?.to_le_bytes());
            sh.extend_from_slice(&s.align.to_le_bytes());
            sh.extend_from_slice(&s.entsize.to_le_bytes());
        }
        let at = fixed.shoff as usize;
        out[at..at + sh.len()].copy_from_slice(&sh);
        let eh = self.header_bytes(&fixed.segments, fixed.shoff, shnum as u16, shstrndx);
        out[..eh.len()].copy_from_slice(&eh);
        Ok(out)
    }

    /// The ELF header followed by the program headers.
    fn header_bytes(
        &self,
        segments: &[SegmentSpec],
        shoff: u64,
        shnum: u16,
        shstrndx: u16,
    ) -> Vec<u8> {
        let phnum = segments.len();
        let mut eh = Vec::with_capacity(ELF64_EHDR_SIZE + phnum * ELF64_PHDR_SIZE);
        eh.extend_from_slice(&ELFMAG);
        eh.extend_from_slice(&[
            ELFCLASS64,
            ELFDATA2LSB,
            EV_CURRENT,
            self.os_abi,
            self.abi_version,
        ]);
        eh.resize(EI_NIDENT, 0);
        eh.extend_from_slice(&self.e_type.to_le_bytes());
        eh.extend_from_slice(&self.e_machine.to_le_bytes());
        eh.extend_from_slice(&1u32.to_le_bytes());
        eh.extend_from_slice(&self.entry.to_le_bytes());
        eh.extend_from_slice(&(if phnum > 0 { ELF64_EHDR_SIZE as u64 } else { 0 }).to_le_bytes());
        eh.extend_from_slice(&shoff.to_le_bytes());
        eh.extend_from_slice(&self.e_flags.to_le_bytes());
        eh.extend_from_slice(&(ELF64_EHDR_SIZE as u16).to_le_bytes());
        eh.extend_from_slice(&(if phnum > 0 { ELF64_PHDR_SIZE as u16 } else { 0 }).to_le_bytes());
        eh.extend_from_slice(&(phnum as u16).to_le_bytes());
        eh.extend_from_slice(&(ELF64_SHDR_SIZE as u16).to_le_bytes());
        eh.extend_from_slice(&shnum.to_le_bytes());
        eh.extend_from_slice(&shstrndx.to_le_bytes());
        for seg in segments {
            eh.extend_from_slice(&seg.p_type.to_le_bytes());
            eh.extend_from_slice(&seg.flags.to_le_bytes());
            eh.extend_from_slice(&seg.offset.to_le_bytes());
            eh.extend_from_slice(&seg.vaddr.to_le_bytes());
            eh.extend_from_slice(&seg.vaddr.to_le_bytes());
            eh.extend_from_slice(&seg.filesz.to_le_bytes());
            eh.extend_from_slice(&seg.memsz.to_le_bytes());
            eh.extend_from_slice(&seg.align.to_le_bytes());
        }
        eh
    }

    /// A builder holding the contents of `elf` (an ELF64 file): the header fields,
    /// every section except the null section, `.symtab`, its string table, the section
    /// name table and the `SHT_RELA` tables of `.symtab` (which become relocations),
    /// the `.symtab` symbols, and those relocations. Addresses of allocated sections
    /// are kept. Writing it gives a file with the same sections, symbols, relocations
    /// and notes, possibly at other file offsets.
    pub fn from_elf(elf: &Elf<'_>) -> Result<Builder> {
        let header = elf.header();
        if !elf.is_64() {
            return Err(Error::new(4, "the writer writes ELF64 only"));
        }
        let mut b = Builder::new(
            header.e_type.0,
            header.os_abi.0,
            header.abi_version,
            header.e_flags,
        );
        b.e_machine = header.e_machine.0;
        b.entry = header.entry;
        let symtab = elf.symtab()?;
        let symtab_index = symtab.as_ref().map(|t| t.section().index);
        let strtab_index = symtab.as_ref().map(|t| t.section().link as usize);
        let is_static_rela = |s: &super::read::Section<'_>| {
            s.sh_type.0 == SHT_RELA && Some(s.link as usize) == symtab_index && s.info != 0
        };
        // old section index -> new id
        let mut map: Vec<Option<SectionId>> = vec![None; elf.section_count()];
        let mut kept = Vec::new();
        for section in elf.sections() {
            let s = section?;
            let skip = s.index == 0
                || Some(s.index) == symtab_index
                || Some(s.index) == strtab_index
                || s.index == elf.shstrndx()
                || is_static_rela(&s);
            if !skip {
                map[s.index] = Some(SectionId(kept.len()));
                kept.push(s);
            }
        }
        let map_link = |value: u32, symtab_link: bool| -> Link {
            let index = value as usize;
            if symtab_link && Some(index) == symtab_index {
                Link::Symtab
            } else if symtab_link && Some(index) == strtab_index && index != 0 {
                Link::Strtab
            } else {
                match map.get(index).copied().flatten() {
                    Some(id) => Link::Section(id),
                    None => Link::Raw(value),
                }
            }
        };
        for s in &kept {
            let info_is_section =
                s.flags & SHF_INFO_LINK != 0 || matches!(s.sh_type.0, SHT_REL | SHT_RELA);
            b.add_section(SectionSpec {
                name: String::from_utf8_lossy(s.name).into_owned(),
                sh_type: s.sh_type.0,
                flags: s.flags,
                addr: if s.is_alloc() || s.addr != 0 {
                    Some(s.addr)
                } else {
                    None
                },
                data: s.data()?.to_vec(),
                nobits_size: if s.sh_type.0 == SHT_NOBITS { s.size } else { 0 },
                align: s.addralign,
                entsize: s.entsize,
                link: if s.link == 0 {
                    Link::None
                } else {
                    map_link(s.link, true)
                },
                info: if info_is_section && s.info != 0 {
                    map_link(s.info, false)
                } else if s.info == 0 {
                    Link::None
                } else {
                    Link::Raw(s.info)
                },
            });
        }
        let mut sym_ids: Vec<Option<SymbolId>> = Vec::new();
        if let Some(table) = &symtab {
            sym_ids = vec![None; table.len()];
            for sym in table.iter().skip(1) {
                let sym = sym?;
                let section = match sym.shndx {
                    SHN_UNDEF => SymbolSection::Undefined,
                    SHN_ABS => SymbolSection::Absolute,
                    SHN_COMMON => SymbolSection::Common,
                    raw if raw >= SHN_LORESERVE => SymbolSection::Raw(raw),
                    index => match map.get(usize::from(index)).copied().flatten() {
                        Some(id) => SymbolSection::Section(id),
                        None => SymbolSection::Raw(index),
                    },
                };
                sym_ids[sym.index] = Some(b.add_symbol(SymbolSpec {
                    name: String::from_utf8_lossy(sym.name).into_owned(),
                    value: sym.value,
                    size: sym.size,
                    st_type: sym.st_type().0,
                    bind: sym.bind().0,
                    other: sym.other,
                    section,
                }));
            }
            b.always_symtab = true;
        }
        for section in elf.sections() {
            let s = section?;
            if !is_static_rela(&s) {
                continue;
            }
            let Some(target) = map.get(s.info as usize).copied().flatten() else {
                return Err(Error::new(
                    s.header_offset,
                    format!(
                        "relocation section {} applies to section {} which is not kept",
                        s.index, s.info
                    ),
                ));
            };
            for r in elf.relocation_table(&s)?.iter() {
                let symbol = if r.symbol == 0 {
                    None
                } else {
                    Some(
                        sym_ids
                            .get(r.symbol as usize)
                            .copied()
                            .flatten()
                            .ok_or_else(|| {
                                Error::new(
                                    r.entry_offset,
                                    format!("relocation symbol index {} out of range", r.symbol),
                                )
                            })?,
                    )
                };
                b.add_relocation(
                    target,
                    RelocSpec {
                        offset: r.offset,
                        r_type: r.r_type.0,
                        symbol,
                        addend: r.addend,
                    },
                );
            }
        }
        Ok(b)
    }
}

/// A string table laid out as LLVM's object writer lays out `.strtab`: every name
/// once, sorted by its bytes read from the end (greatest first), and a name that ends
/// the name before it stored inside that one (`.text` inside `.rela.text`).
fn tail_merged(names: &[&[u8]]) -> (Vec<u8>, std::collections::HashMap<Vec<u8>, u32>) {
    let mut unique: Vec<&[u8]> = names.iter().copied().filter(|n| !n.is_empty()).collect();
    unique.sort_by(|a, b| b.iter().rev().cmp(a.iter().rev()));
    unique.dedup();
    let mut bytes = vec![0u8];
    let mut at = std::collections::HashMap::new();
    let mut prev: Option<(&[u8], u32)> = None;
    for n in unique {
        let offset = match prev {
            Some((p, off)) if p.ends_with(n) => off + (p.len() - n.len()) as u32,
            _ => {
                let off = bytes.len() as u32;
                bytes.extend_from_slice(n);
                bytes.push(0);
                prev = Some((n, off));
                off
            }
        };
        at.insert(n.to_vec(), offset);
    }
    (bytes, at)
}

impl Builder {
    /// Writes an `ET_REL` file laid out as llvm-mc and clang write one: section headers
    /// null, `.strtab` (one table for section and symbol names, `tail_merged`), the
    /// user sections in order each followed by its `.rela` table, `.symtab` last; in
    /// the file the user sections' contents, then `.symtab`, the `.rela` tables,
    /// `SHT_LLVM_ADDRSIG` contents, `.strtab` and the section headers.
    pub fn write_llvm_object(&self) -> Result<Vec<u8>> {
        let layout = self.layout()?;
        let n_user = self.sections.len();
        let sym_indices = self.symbol_indices();
        let mut has_relocs = vec![false; n_user];
        for (target, _) in &self.relocs {
            match has_relocs.get_mut(target.0) {
                Some(h) => *h = true,
                None => {
                    return Err(Error::new(
                        0,
                        format!("relocation target section id {} out of range", target.0),
                    ))
                }
            }
        }
        // header indices: 0 null, 1 .strtab, then each user section and its .rela
        let mut header_of = Vec::with_capacity(n_user);
        let mut rela_header_of = vec![0u32; n_user];
        let mut next = 2u32;
        for i in 0..n_user {
            header_of.push(next);
            next += 1;
            if has_relocs[i] {
                rela_header_of[i] = next;
                next += 1;
            }
        }
        let symtab_index = next;
        let shnum = symtab_index as usize + 1;
        if shnum >= usize::from(SHN_LORESERVE) {
            return Err(Error::new(
                0,
                format!("{shnum} sections need extended numbering, not supported"),
            ));
        }
        let section_index = |id: SectionId| -> Result<u32> {
            header_of.get(id.0).copied().ok_or_else(|| {
                Error::new(0, format!("reference to section id {} out of range", id.0))
            })
        };
        let link = |l: Link| -> Result<u32> {
            Ok(match l {
                Link::None => 0,
                Link::Raw(v) => v,
                Link::Symtab => symtab_index,
                Link::Strtab => 1,
                Link::Section(id) => section_index(id)?,
            })
        };

        let rela_names: Vec<Vec<u8>> = (0..n_user)
            .map(|i| format!(".rela{}", self.sections[i].name).into_bytes())
            .collect();
        let mut names: Vec<&[u8]> = vec![b".strtab", b".symtab"];
        for (i, s) in self.sections.iter().enumerate() {
            names.push(s.name.as_bytes());
            if has_relocs[i] {
                names.push(&rela_names[i]);
            }
        }
        names.extend(self.symbols.iter().map(|s| s.name.as_bytes()));
        let (strtab, name_at) = tail_merged(&names);
        let name_of = |n: &[u8]| -> u32 { name_at.get(n).copied().unwrap_or(0) };

        let (symtab, first_global) = self.encode_symtab(
            &sym_indices,
            |id| header_of.get(id.0).map(|&h| h as u16),
            |name| name_of(name),
        )?;

        let mut out = vec![0u8; layout.end as usize];
        for (i, s) in self.sections.iter().enumerate() {
            if !s.is_nobits() && s.sh_type != SHT_LLVM_ADDRSIG {
                let at = layout.offsets[i] as usize;
                out[at..at + s.data.len()].copy_from_slice(&s.data);
            }
        }
        let append = |out: &mut Vec<u8>, data: &[u8], align: u64| -> u64 {
            let at = align_up(out.len() as u64, align).unwrap_or(out.len() as u64);
            out.resize(at as usize, 0);
            out.extend_from_slice(data);
            at
        };
        let symtab_at = append(&mut out, &symtab, 8);
        let mut rela_at = vec![(0u64, 0u64); n_user];
        for i in (0..n_user).filter(|&i| has_relocs[i]) {
            let mut data = Vec::new();
            for (_, r) in self.relocs.iter().filter(|(t, _)| t.0 == i) {
                let symbol = match r.symbol {
                    None => 0,
                    Some(id) => *sym_indices.get(id.0).ok_or_else(|| {
                        Error::new(0, format!("relocation symbol id {} out of range", id.0))
                    })?,
                };
                encode_rela64(&mut data, r.offset, symbol, r.r_type, r.addend);
            }
            rela_at[i] = (append(&mut out, &data, 8), data.len() as u64);
        }
        let mut offsets = layout.offsets.clone();
        for (i, s) in self.sections.iter().enumerate() {
            if s.sh_type == SHT_LLVM_ADDRSIG {
                offsets[i] = append(&mut out, &s.data, s.align);
            }
        }
        let strtab_at = append(&mut out, &strtab, 1);
        let shoff = append(&mut out, &[], 8);

        let mut header = |h: [u64; 10]| {
            out.extend_from_slice(&(h[0] as u32).to_le_bytes());
            out.extend_from_slice(&(h[1] as u32).to_le_bytes());
            for v in &h[2..6] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&(h[6] as u32).to_le_bytes());
            out.extend_from_slice(&(h[7] as u32).to_le_bytes());
            out.extend_from_slice(&h[8].to_le_bytes());
            out.extend_from_slice(&h[9].to_le_bytes());
        };
        // name, type, flags, addr, offset, size, link, info, align, entsize
        header([0; 10]);
        header([
            u64::from(name_of(b".strtab")),
            u64::from(SHT_STRTAB),
            0,
            0,
            strtab_at,
            strtab.len() as u64,
            0,
            0,
            1,
            0,
        ]);
        for (i, s) in self.sections.iter().enumerate() {
            header([
                u64::from(name_of(s.name.as_bytes())),
                u64::from(s.sh_type),
                s.flags,
                layout.addrs[i],
                offsets[i],
                s.size(),
                u64::from(link(s.link)?),
                u64::from(link(s.info)?),
                s.align,
                s.entsize,
            ]);
            if has_relocs[i] {
                header([
                    u64::from(name_of(&rela_names[i])),
                    u64::from(SHT_RELA),
                    SHF_INFO_LINK,
                    0,
                    rela_at[i].0,
                    rela_at[i].1,
                    u64::from(symtab_index),
                    u64::from(header_of[i]),
                    8,
                    ELF64_RELA_SIZE as u64,
                ]);
            }
        }
        header([
            u64::from(name_of(b".symtab")),
            u64::from(SHT_SYMTAB),
            0,
            0,
            symtab_at,
            symtab.len() as u64,
            1,
            u64::from(first_global),
            8,
            ELF64_SYM_SIZE as u64,
        ]);

        let eh = self.header_bytes(&layout.segments, shoff, shnum as u16, 1);
        if out.len() < eh.len() {
            out.resize(eh.len(), 0);
        }
        out[..eh.len()].copy_from_slice(&eh);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order and sharing llvm-readelf-22 -p .strtab shows in llvm-mc-22's object
    /// of a corpus file (06_calls, gfx90a): `.rela.text` at 1 holding `.text`, then
    /// `.comment` at 0xc, `weight` at 0x15, `collatz_steps` at 0x1c.
    #[test]
    fn string_table_as_llvm_orders_and_shares_it() {
        let names: &[&[u8]] = &[
            b"weight",
            b".text",
            b"collatz_steps",
            b".comment",
            b".rela.text",
            b"",
        ];
        let (bytes, at) = tail_merged(names);
        assert_eq!(bytes, b"\0.rela.text\0.comment\0weight\0collatz_steps\0");
        assert_eq!(at[&b".rela.text"[..]], 1);
        assert_eq!(at[&b".text"[..]], 6);
        assert_eq!(at[&b".comment"[..]], 0xc);
        assert_eq!(at[&b"weight"[..]], 0x15);
        assert_eq!(at[&b"collatz_steps"[..]], 0x1c);
    }
}
