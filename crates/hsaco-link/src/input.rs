//! Reading the relocatable inputs: sections, symbols and relocations, checked.

use crate::error::{LinkError, Place};
use hsaco_elf::elf::consts::*;
use hsaco_elf::elf::Elf;

/// One section of an input.
#[derive(Clone, Debug)]
pub(crate) struct InSection<'a> {
    pub name: &'a [u8],
    pub sh_type: u32,
    pub flags: u64,
    pub align: u64,
    pub entsize: u64,
    pub data: &'a [u8],
    pub size: u64,
    /// Copied to the output (not a table the linker rebuilds, not discarded).
    pub keep: bool,
}

/// One symbol of an input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InSymbol<'a> {
    pub name: &'a [u8],
    pub value: u64,
    pub size: u64,
    pub info: u8,
    pub other: u8,
    pub shndx: u16,
}

impl InSymbol<'_> {
    pub fn bind(&self) -> u8 {
        self.info >> 4
    }
    pub fn st_type(&self) -> u8 {
        self.info & 0xf
    }
    pub fn visibility(&self) -> u8 {
        self.other & 3
    }
}

/// One relocation (always with an addend).
#[derive(Clone, Copy, Debug)]
pub(crate) struct InReloc {
    pub offset: u64,
    pub r_type: u32,
    pub symbol: u32,
    pub addend: i64,
}

/// A parsed input.
#[derive(Clone, Debug)]
pub(crate) struct InFile<'a> {
    pub name: String,
    pub e_flags: u32,
    pub os_abi: u8,
    pub abi_version: u8,
    pub sections: Vec<InSection<'a>>,
    pub symbols: Vec<InSymbol<'a>>,
    /// (target section index, relocations)
    pub relocs: Vec<(usize, Vec<InReloc>)>,
    /// COMDAT groups: signature and member sections.
    pub comdats: Vec<(&'a [u8], Vec<usize>)>,
}

/// Keeps the first COMDAT group of each signature, as ld.lld does: the members of
/// later groups with the same signature are not copied and their relocations dropped
/// (their symbols then resolve to the kept group's).
pub(crate) fn drop_duplicate_comdats(files: &mut [InFile<'_>]) {
    let mut seen = std::collections::HashSet::new();
    for f in files.iter_mut() {
        let mut dropped = false;
        for (signature, members) in &f.comdats {
            if !seen.insert(signature.to_vec()) {
                for &m in members {
                    if let Some(s) = f.sections.get_mut(m) {
                        s.keep = false;
                        dropped = true;
                    }
                }
            }
        }
        if dropped {
            let sections = &f.sections;
            f.relocs.retain(|(target, _)| sections[*target].keep);
        }
    }
}

impl InFile<'_> {
    /// The section name of `index` as text.
    pub fn section_name(&self, index: usize) -> String {
        self.sections
            .get(index)
            .map(|s| String::from_utf8_lossy(s.name).into_owned())
            .unwrap_or_default()
    }

    pub fn place(&self, section: usize, offset: u64) -> Place {
        Place {
            file: self.name.clone(),
            section: self.section_name(section),
            offset,
        }
    }

    /// Where symbol `index` is defined.
    pub fn symbol_place(&self, index: usize) -> Place {
        match self.symbols.get(index) {
            Some(s) if usize::from(s.shndx) < self.sections.len() && s.shndx != SHN_UNDEF => {
                self.place(usize::from(s.shndx), s.value)
            }
            _ => Place {
                file: self.name.clone(),
                section: String::new(),
                offset: 0,
            },
        }
    }
}

/// Sections the linker never copies: the tables it rebuilds and the markers it drops.
fn dropped(name: &[u8], sh_type: u32, flags: u64) -> bool {
    matches!(
        sh_type,
        SHT_NULL | SHT_SYMTAB | SHT_STRTAB | SHT_REL | SHT_RELA | SHT_LLVM_ADDRSIG | SHT_GROUP
    ) || flags & SHF_EXCLUDE != 0
        || name == b".note.GNU-stack"
}

pub(crate) fn read<'a>(name: &str, data: &'a [u8]) -> Result<InFile<'a>, LinkError> {
    let malformed = |error| LinkError::Malformed {
        file: name.to_string(),
        error,
    };
    let not_rel = |what: String| LinkError::NotRelocatable {
        file: name.to_string(),
        what,
    };
    let elf = Elf::parse(data).map_err(malformed)?;
    let header = elf.header();
    if !elf.is_64() {
        return Err(not_rel("ELF32".into()));
    }
    if header.e_machine.0 != EM_AMDGPU {
        return Err(not_rel(format!("machine {}", header.e_machine)));
    }
    if header.e_type.0 != ET_REL {
        return Err(not_rel(format!("type {}", header.e_type)));
    }
    let mut sections = Vec::with_capacity(elf.section_count());
    let mut symtab_index = None;
    for section in elf.sections() {
        let s = section.map_err(malformed)?;
        let data = if s.sh_type.0 == SHT_NOBITS {
            &[][..]
        } else {
            s.data().map_err(malformed)?
        };
        if s.sh_type.0 == SHT_SYMTAB {
            if symtab_index.is_some() {
                return Err(malformed(hsaco_elf::Error::new(
                    s.header_offset,
                    "more than one SHT_SYMTAB",
                )));
            }
            symtab_index = Some(s.index);
        }
        if s.flags & SHF_TLS != 0 {
            return Err(LinkError::Unsupported {
                file: name.to_string(),
                message: format!("thread-local section {}", s.name_str()),
            });
        }
        if s.flags & SHF_COMPRESSED != 0 {
            return Err(LinkError::Unsupported {
                file: name.to_string(),
                message: format!("compressed section {}", s.name_str()),
            });
        }
        let align = s.addralign.max(1);
        if !align.is_power_of_two() || align > hsaco_elf::elf::write::MAX_ALIGN {
            return Err(malformed(hsaco_elf::Error::new(
                s.header_offset,
                format!("section alignment {:#x}", s.addralign),
            )));
        }
        sections.push(InSection {
            name: s.name,
            sh_type: s.sh_type.0,
            flags: s.flags,
            align,
            entsize: s.entsize,
            data,
            size: s.size,
            keep: s.index != 0 && !dropped(s.name, s.sh_type.0, s.flags),
        });
    }
    let mut symbols = Vec::new();
    if let Some(table) = elf.symtab().map_err(malformed)? {
        symbols.reserve(table.len());
        for sym in table.iter() {
            let sym = sym.map_err(malformed)?;
            if sym.shndx == SHN_XINDEX {
                return Err(LinkError::Unsupported {
                    file: name.to_string(),
                    message: "extended section indices (SHN_XINDEX)".into(),
                });
            }
            if sym.shndx != SHN_UNDEF
                && sym.shndx < SHN_LORESERVE
                && usize::from(sym.shndx) >= sections.len()
            {
                return Err(malformed(hsaco_elf::Error::new(
                    sym.offset,
                    format!("symbol section index {} out of range", sym.shndx),
                )));
            }
            symbols.push(InSymbol {
                name: sym.name,
                value: sym.value,
                size: sym.size,
                info: sym.info,
                other: sym.other,
                shndx: sym.shndx,
            });
        }
    }
    let mut comdats = Vec::new();
    for section in elf.sections() {
        let s = section.map_err(malformed)?;
        if s.sh_type.0 != SHT_GROUP {
            continue;
        }
        let words: Vec<u32> = s
            .data()
            .map_err(malformed)?
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        const GRP_COMDAT: u32 = 1;
        if words.first().is_none_or(|&flags| flags & GRP_COMDAT == 0) {
            continue;
        }
        let signature = symbols
            .get(s.info as usize)
            .map(|sym| sym.name)
            .ok_or_else(|| {
                malformed(hsaco_elf::Error::new(
                    s.header_offset,
                    format!("group signature symbol {} out of range", s.info),
                ))
            })?;
        let mut members = Vec::with_capacity(words.len() - 1);
        for &m in &words[1..] {
            if m as usize >= sections.len() {
                return Err(malformed(hsaco_elf::Error::new(
                    s.header_offset,
                    format!("group member section {m} out of range"),
                )));
            }
            members.push(m as usize);
        }
        comdats.push((signature, members));
    }
    let mut relocs = Vec::new();
    for section in elf.sections() {
        let s = section.map_err(malformed)?;
        if !matches!(s.sh_type.0, SHT_REL | SHT_RELA) {
            continue;
        }
        if s.sh_type.0 == SHT_REL {
            return Err(LinkError::Unsupported {
                file: name.to_string(),
                message: format!("SHT_REL section {} (AMDGPU uses SHT_RELA)", s.name_str()),
            });
        }
        if Some(s.link as usize) != symtab_index {
            return Err(malformed(hsaco_elf::Error::new(
                s.header_offset,
                format!(
                    "relocation section {} does not link to .symtab",
                    s.name_str()
                ),
            )));
        }
        let target = s.info as usize;
        let Some(target_section) = sections.get(target) else {
            return Err(malformed(hsaco_elf::Error::new(
                s.header_offset,
                format!("relocation section applies to section {target}, out of range"),
            )));
        };
        if !target_section.keep {
            continue;
        }
        let table = elf.relocation_table(&s).map_err(malformed)?;
        let mut list = Vec::with_capacity(table.len());
        for r in table.iter() {
            if r.symbol as usize >= symbols.len().max(1) {
                return Err(malformed(hsaco_elf::Error::new(
                    r.entry_offset,
                    format!("relocation symbol index {} out of range", r.symbol),
                )));
            }
            list.push(InReloc {
                offset: r.offset,
                r_type: r.r_type.0,
                symbol: r.symbol,
                addend: r.addend,
            });
        }
        relocs.push((target, list));
    }
    Ok(InFile {
        name: name.to_string(),
        e_flags: header.e_flags,
        os_abi: header.os_abi.0,
        abi_version: header.abi_version,
        sections,
        symbols,
        relocs,
        comdats,
    })
}
