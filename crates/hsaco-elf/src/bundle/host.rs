//! The sections of a host ELF file that hold offload code, and the extent of an
//! AMDGPU code object embedded in a larger file.
//!
//! Both go through [`crate::elf::Elf`].

use super::bytes::u16_at;
use crate::elf::consts::SHT_NOBITS;
use crate::elf::Elf;
use crate::{Error, Result};

/// `EM_AMDGPU`.
pub(crate) const EM_AMDGPU: u16 = 224;

/// One section of a host ELF file.
#[derive(Clone, Debug)]
pub(crate) struct HostSection<'a> {
    pub name: &'a str,
    pub offset: u64,
    pub data: &'a [u8],
}

/// Whether `data` starts with the ELF magic.
pub(crate) fn is_elf(data: &[u8]) -> bool {
    data.starts_with(b"\x7fELF")
}

/// `e_machine` of a little-endian ELF header, 64-bit (amdgcn code objects, host
/// files) or 32-bit (r600 code objects, `ELFCLASS32`), if `data` has one.
pub(crate) fn elf_machine(data: &[u8]) -> Option<u16> {
    // ELFCLASS32 = 1, ELFCLASS64 = 2; ELFDATA2LSB = 1
    if !is_elf(data) || !matches!(data.get(4), Some(1 | 2)) || data.get(5) != Some(&1) {
        return None;
    }
    u16_at(data, 0x12, "e_machine").ok()
}

/// The named sections of an ELF file (SHT_NOBITS sections have empty data).
pub(crate) fn sections(data: &[u8]) -> Result<Vec<HostSection<'_>>> {
    let elf = Elf::parse(data)?;
    let mut out = Vec::new();
    for section in elf.sections().skip(1) {
        let section = section?;
        let name = std::str::from_utf8(section.name).map_err(|_| {
            Error::new(
                section.header_offset,
                format!("section {} has a name that is not UTF-8", section.index),
            )
        })?;
        let data = if section.sh_type.0 == SHT_NOBITS {
            &[][..]
        } else {
            section
                .data()
                .map_err(|e| Error::new(e.offset, format!("section `{name}`: {}", e.message)))?
        };
        out.push(HostSection {
            name,
            offset: section.offset,
            data,
        });
    }
    Ok(out)
}

/// The extent of the little-endian AMDGPU ELF file (64-bit, or 32-bit for r600) that starts at
/// `data[0]`: the furthest end of its header, program and section header tables,
/// segments and sections. `None` if it is not one or does not fit in `data`.
/// Each program or section header read takes one unit of `budget`; `None` once it
/// runs out (so a file packed with fake headers cannot make a scan quadratic).
pub(crate) fn amdgpu_elf_extent(data: &[u8], budget: &mut u64) -> Option<u64> {
    if elf_machine(data)? != EM_AMDGPU {
        return None;
    }
    let elf = Elf::parse(data).ok()?;
    let h = elf.header();
    // (the ELF32 header is 52 bytes, the ELF64 one 64)
    let mut end = u64::from(h.ehsize).max(if elf.is_64() { 64 } else { 52 });
    let segments = elf.segment_count() as u64;
    if segments > 0 {
        end = end.max(
            h.phoff
                .checked_add(segments.checked_mul(u64::from(h.phentsize))?)?,
        );
        *budget = budget.checked_sub(segments)?;
        for seg in elf.segments() {
            end = end.max(seg.offset.checked_add(seg.filesz)?);
        }
    }
    let sections = elf.section_count() as u64;
    if sections > 0 {
        end = end.max(
            h.shoff
                .checked_add(sections.checked_mul(u64::from(h.shentsize))?)?,
        );
        *budget = budget.checked_sub(sections)?;
        for section in elf.sections() {
            let section = section.ok()?;
            if section.sh_type.0 != SHT_NOBITS {
                end = end.max(section.offset.checked_add(section.size)?);
            }
        }
    }
    (end <= data.len() as u64).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal AMDGPU ELF header with one section header (index 1 of 2) whose
    /// contents end at `end`, the table at 0x40.
    fn elf(end: u64) -> Vec<u8> {
        let mut d = vec![0u8; 0x40 + 2 * 64];
        d[..6].copy_from_slice(b"\x7fELF\x02\x01");
        d[0x12] = 224;
        d[0x28..0x30].copy_from_slice(&0x40u64.to_le_bytes());
        d[0x34] = 64;
        d[0x3a] = 64;
        d[0x3c] = 2;
        let sh = 0x40 + 64;
        d[sh + 4] = 1; // SHT_PROGBITS
        d[sh + 0x18..sh + 0x20].copy_from_slice(&0x40u64.to_le_bytes());
        d[sh + 0x20..sh + 0x28].copy_from_slice(&(end - 0x40).to_le_bytes());
        d
    }

    #[test]
    fn extent_covers_tables_and_sections() {
        let mut budget = 100;
        assert_eq!(amdgpu_elf_extent(&elf(0x80), &mut budget), Some(0xc0));
        let mut long = elf(0x100);
        long.resize(0x100, 0);
        assert_eq!(amdgpu_elf_extent(&long, &mut budget), Some(0x100));
        // a section past the end of the data: not an object
        assert_eq!(amdgpu_elf_extent(&elf(0x1000), &mut budget), None);
        let mut empty = 1;
        assert_eq!(amdgpu_elf_extent(&elf(0x80), &mut empty), None);
    }
}
