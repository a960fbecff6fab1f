//! The DWARF sections of a code object, relocated: in a relocatable object
//! (`ET_REL`) the `.rela.debug_*` records are applied (`R_AMDGPU_ABS32`,
//! `R_AMDGPU_ABS64`: symbol value plus addend), as a debugger or llvm-dwarfdump sees
//! the addresses.

use crate::Error;
use hsaco_elf::elf::consts::{R_AMDGPU_ABS32, R_AMDGPU_ABS64, SHT_REL, SHT_RELA};
use hsaco_elf::elf::Elf;
use std::borrow::Cow;

/// The debug sections one dump may read.
pub const SECTION_NAMES: &[&str] = &[
    ".debug_abbrev",
    ".debug_addr",
    ".debug_aranges",
    ".debug_frame",
    ".debug_info",
    ".debug_line",
    ".debug_line_str",
    ".debug_loclists",
    ".debug_rnglists",
    ".debug_str",
    ".debug_str_offsets",
    ".debug_loc",
    ".debug_ranges",
    ".debug_types",
];

/// A code object's DWARF sections (relocated copies), and what went wrong reading
/// them.
#[derive(Default)]
pub struct DwarfObject<'a> {
    /// Borrowed from the file, copied only where relocations are applied.
    sections: Vec<(&'static str, Cow<'a, [u8]>)>,
    /// Relocations or sections that could not be read (the rest was).
    pub errors: Vec<Error>,
}

impl<'a> DwarfObject<'a> {
    /// The debug sections of the ELF file `data`. An ELF that does not parse gives
    /// an error; a section or relocation that does not read is recorded in
    /// [`Self::errors`] and skipped.
    pub fn from_elf(data: &'a [u8]) -> Result<Self, Error> {
        Self::from_elf_placed(data, &[])
    }

    /// As [`Self::from_elf`], with the sections of a relocatable object placed apart:
    /// a relocation against a symbol of section index `i` adds the base that `bases`
    /// gives for `i` (0 for the others). With code in several sections that all start
    /// at 0 (`-ffunction-sections`), distinct bases keep their addresses apart, as a
    /// section-aware reader (llvm-objdump) sees them.
    pub fn from_elf_placed(data: &'a [u8], bases: &[(usize, u64)]) -> Result<Self, Error> {
        let elf = Elf::parse(data).map_err(|e| elf_error(e, ""))?;
        // (room for every debug section at once: growing these was 0.7% of the run)
        let mut obj = DwarfObject {
            sections: Vec::with_capacity(SECTION_NAMES.len()),
            errors: Vec::new(),
        };
        let mut index_of = Vec::with_capacity(SECTION_NAMES.len());
        // Only the sections whose name starts with `.debug_` are read in full:
        // resolving every header (a code object has ~38) was 4% of `read
        // --debug-info` over the -g corpus (callgrind, 2026-11-27).
        let names = elf
            .section(elf.shstrndx())
            .ok()
            .filter(|_| elf.shstrndx() != 0)
            .and_then(|s| s.data().ok());
        let shdr = if elf.is_64() { 64 } else { 40 };
        let shoff = elf.header().shoff as usize;
        // a header's (sh_name, sh_type), read from the file
        let name_and_type = |index: usize| -> Option<(u32, u32)> {
            let at = shoff.checked_add(index.checked_mul(shdr)?)?;
            let b = elf.data().get(at..at.checked_add(8)?)?;
            let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
            Some((word(0), word(4)))
        };
        let maybe_debug = |index: usize| -> bool {
            let (Some(names), Some((name, _))) = (names, name_and_type(index)) else {
                return true;
            };
            let name = names.get(name as usize..);
            // (anything unexpected: looked at in full, as before)
            name.is_none_or(|n| n.starts_with(b".debug_"))
        };
        for index in 0..elf.section_count() {
            if !maybe_debug(index) {
                continue;
            }
            let Ok(s) = elf.section(index) else {
                continue;
            };
            let Some(name) = SECTION_NAMES.iter().find(|n| n.as_bytes() == s.name) else {
                continue;
            };
            match s.data() {
                Ok(d) => {
                    index_of.push((s.index, obj.sections.len()));
                    obj.sections.push((name, Cow::Borrowed(d)));
                }
                Err(e) => obj.errors.push(elf_error(e, name)),
            }
        }
        if elf.header().e_type.0 == hsaco_elf::elf::consts::ET_REL {
            let last_nul = names.and_then(|n| n.iter().rposition(|&b| b == 0));
            // `elf.relocation_tables()`, without resolving every header: one that is
            // not a relocation table and whose name reads is passed over (as there),
            // the others are resolved as there, errors included
            let tables = (0..elf.section_count()).filter_map(|index| {
                if let (Some(_), Some((name, ty))) = (names, name_and_type(index)) {
                    // (a name reads when a NUL follows its start: at or before the last
                    // NUL of the table; a search per header was ~1% of the run)
                    let named = last_nul.is_some_and(|end| name as usize <= end);
                    if named && ty != SHT_REL && ty != SHT_RELA {
                        return None;
                    }
                }
                match elf.section(index) {
                    Err(e) => Some(Err(e)),
                    Ok(s) if matches!(s.sh_type.0, SHT_REL | SHT_RELA) => {
                        Some(elf.relocation_table(&s))
                    }
                    Ok(_) => None,
                }
            });
            // The symbol table (every table of the corpus links the same one) and each
            // symbol's relocated value, read once per object: a look-up per relocation
            // (37,021 over the -g corpus) was ~1% of the run. Errors are not cached
            // (reported at every use, as before).
            let mut symtab_cache: Option<(usize, hsaco_elf::elf::SymbolTable<'a>)> = None;
            let mut values: Vec<Option<u64>> = Vec::new();
            for table in tables {
                let table = match table {
                    Ok(t) => t,
                    Err(e) => {
                        obj.errors.push(elf_error(e, "relocations"));
                        break;
                    }
                };
                let target = table.target_section_index();
                let Some(&(_, slot)) = index_of.iter().find(|(i, _)| *i == target) else {
                    continue;
                };
                let link = table.symbol_table_index();
                let symtab = match symtab_cache {
                    Some((i, t)) if i == link => Ok(t),
                    _ => elf.section(link).and_then(|s| elf.symbol_table(&s)),
                };
                let symtab = match symtab {
                    Ok(t) => {
                        if symtab_cache.is_none_or(|(i, _)| i != link) {
                            symtab_cache = Some((link, t));
                            values.clear();
                            // (bounded: a huge count in a bad header allocates nothing)
                            values.resize(t.len().min(1 << 16), None);
                        }
                        t
                    }
                    Err(e) => {
                        obj.errors.push(elf_error(e, obj.sections[slot].0));
                        continue;
                    }
                };
                let (name, bytes) = &mut obj.sections[slot];
                let name: &'static str = name;
                // (copied once, at its first relocation)
                let bytes = bytes.to_mut();
                for r in table.iter() {
                    let cached = values.get(r.symbol as usize).copied().flatten();
                    let s = match cached.ok_or_else(|| symtab.get(r.symbol as usize)) {
                        Ok(v) => v,
                        Err(Ok(sym)) => {
                            let base = sym
                                .section_index()
                                .and_then(|i| bases.iter().find(|(j, _)| *j == i).map(|(_, b)| *b));
                            let v = sym.value.wrapping_add(base.unwrap_or(0));
                            if let Some(slot) = values.get_mut(r.symbol as usize) {
                                *slot = Some(v);
                            }
                            v
                        }
                        Err(Err(e)) => {
                            obj.errors.push(elf_error(e, name));
                            continue;
                        }
                    };
                    let value = s.wrapping_add(r.addend as u64);
                    let at = r.offset as usize;
                    let ok = match r.r_type.0 {
                        R_AMDGPU_ABS32 => put(bytes, at, &(value as u32).to_le_bytes()),
                        R_AMDGPU_ABS64 => put(bytes, at, &value.to_le_bytes()),
                        other => {
                            obj.errors.push(Error::new(
                                name,
                                r.offset,
                                format!("relocation type {other} not applied"),
                            ));
                            true
                        }
                    };
                    if !ok {
                        obj.errors.push(Error::new(
                            name,
                            r.offset,
                            "relocation past the end of the section",
                        ));
                    }
                }
            }
        }
        Ok(obj)
    }

    /// The bytes of section `name` (empty when absent).
    pub fn section(&self, name: &str) -> &[u8] {
        self.sections
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(&[][..], |(_, d)| &d[..])
    }

    /// Whether the object has section `name`.
    pub fn has(&self, name: &str) -> bool {
        self.sections.iter().any(|(n, _)| *n == name)
    }

    /// An object made of the given sections (for tests and fixtures).
    pub fn from_sections(sections: Vec<(&'static str, Vec<u8>)>) -> Self {
        DwarfObject {
            sections: sections
                .into_iter()
                .map(|(n, d)| (n, Cow::Owned(d)))
                .collect(),
            errors: Vec::new(),
        }
    }

    /// The sections as gimli reads them.
    pub fn gimli(&self) -> gimli::Dwarf<Slice<'_>> {
        let get = |id: gimli::SectionId| -> Result<Slice<'_>, ()> {
            Ok(gimli::EndianSlice::new(
                self.section(id.name()),
                gimli::LittleEndian,
            ))
        };
        gimli::Dwarf::load(get).unwrap_or_default()
    }
}

/// The reader type of the sections.
pub type Slice<'a> = gimli::EndianSlice<'a, gimli::LittleEndian>;

/// An ELF reading error: the section is `ELF` and the offset one in the file;
/// `what` (a section name) goes before the message.
fn elf_error(e: hsaco_elf::Error, what: &str) -> Error {
    let message = if what.is_empty() {
        e.message.into_owned()
    } else {
        format!("{what}: {}", e.message)
    };
    Error::new("ELF", e.offset, message)
}

fn put(bytes: &mut [u8], at: usize, v: &[u8]) -> bool {
    match bytes.get_mut(at..at.saturating_add(v.len())) {
        Some(dst) => {
            dst.copy_from_slice(v);
            true
        }
        None => false,
    }
}
