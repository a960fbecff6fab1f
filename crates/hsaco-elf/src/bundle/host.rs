//! A minimal, bounds-checked walk over the section headers of a 64-bit
//! little-endian host ELF file, to find the sections that hold offload code.
//!
// TODO(lead): replace with crate::elf reader

use super::bytes::{add, mul, slice, u16_at, u32_at, u64_at};
use crate::{Error, Result};

const SHT_NOBITS: u32 = 8;
const SHN_XINDEX: u16 = 0xffff;

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

/// `e_machine` of a 64-bit little-endian ELF header, if `data` has one.
pub(crate) fn elf64_machine(data: &[u8]) -> Option<u16> {
    if !is_elf(data) || data.get(4) != Some(&2) || data.get(5) != Some(&1) {
        return None;
    }
    u16_at(data, 0x12, "e_machine").ok()
}

/// The named sections of a 64-bit little-endian ELF file (SHT_NOBITS sections have
/// empty data).
pub(crate) fn sections(data: &[u8]) -> Result<Vec<HostSection<'_>>> {
    if elf64_machine(data).is_none() {
        return Err(Error::new(4, "not a 64-bit little-endian ELF file"));
    }
    let shoff = u64_at(data, 0x28, "e_shoff")?;
    let shentsize = u64::from(u16_at(data, 0x3a, "e_shentsize")?);
    let mut shnum = u64::from(u16_at(data, 0x3c, "e_shnum")?);
    let mut shstrndx = u32::from(u16_at(data, 0x3e, "e_shstrndx")?);
    if shoff == 0 {
        return Ok(Vec::new());
    }
    if shentsize < 64 {
        return Err(Error::new(
            0x3a,
            format!("e_shentsize {shentsize} is under 64"),
        ));
    }
    if shnum == 0 || shstrndx == u32::from(SHN_XINDEX) {
        // the real values live in section header 0
        if shnum == 0 {
            shnum = u64_at(
                data,
                add(shoff, 0x20, 0x28, "e_shoff")?,
                "section 0 sh_size",
            )?;
        }
        if shstrndx == u32::from(SHN_XINDEX) {
            shstrndx = u32_at(
                data,
                add(shoff, 0x28, 0x28, "e_shoff")?,
                "section 0 sh_link",
            )?;
        }
    }
    let table_len = mul(shnum, shentsize, 0x3c, "section header table size")?;
    slice(data, shoff, table_len, "section header table")?;
    let header = |i: u64| shoff + i * shentsize;
    let field_range = |i: u64| -> Result<(u32, u32, u64, u64)> {
        let h = header(i);
        Ok((
            u32_at(data, h, "sh_name")?,
            u32_at(data, h + 4, "sh_type")?,
            u64_at(data, h + 0x18, "sh_offset")?,
            u64_at(data, h + 0x20, "sh_size")?,
        ))
    };
    if u64::from(shstrndx) >= shnum {
        return Err(Error::new(
            0x3e,
            format!("e_shstrndx {shstrndx} is out of range"),
        ));
    }
    let (_, _, str_off, str_size) = field_range(u64::from(shstrndx))?;
    let strtab = slice(data, str_off, str_size, "section name table")
        .map_err(|e| Error::new(header(u64::from(shstrndx)), e.message))?;
    let mut out = Vec::new();
    for i in 1..shnum {
        let (name_off, kind, offset, size) = field_range(i)?;
        let name = strtab
            .get(name_off as usize..)
            .and_then(|s| s.iter().position(|&b| b == 0).map(|n| &s[..n]))
            .and_then(|s| std::str::from_utf8(s).ok())
            .ok_or_else(|| Error::new(header(i), format!("section {i} has a bad name offset")))?;
        let data = if kind == SHT_NOBITS {
            &[][..]
        } else {
            slice(data, offset, size, "section contents")
                .map_err(|e| Error::new(header(i), format!("section `{name}`: {}", e.message)))?
        };
        out.push(HostSection { name, offset, data });
    }
    Ok(out)
}

/// The extent of the 64-bit little-endian AMDGPU ELF file that starts at
/// `data[0]`: the furthest end of its header, program and section header tables,
/// segments and sections. `None` if it is not one or does not fit in `data`.
/// Each program or section header read takes one unit of `budget`; `None` once it
/// runs out (so a file packed with fake headers cannot make a scan quadratic).
pub(crate) fn amdgpu_elf_extent(data: &[u8], budget: &mut u64) -> Option<u64> {
    if elf64_machine(data)? != EM_AMDGPU {
        return None;
    }
    let rd16 = |o: u64| u16_at(data, o, "").ok().map(u64::from);
    let rd64 = |o: u64| u64_at(data, o, "").ok();
    let len = data.len() as u64;
    let mut end = u64::from(u16_at(data, 0x34, "").ok()?).max(64);
    let (phoff, phentsize, phnum) = (rd64(0x20)?, rd16(0x36)?, rd16(0x38)?);
    if phnum > 0 {
        if phentsize < 56 {
            return None;
        }
        end = end.max(phoff.checked_add(phnum * phentsize)?);
        *budget = budget.checked_sub(phnum)?;
        for i in 0..phnum {
            let h = phoff.checked_add(i * phentsize)?;
            let (off, filesz) = (rd64(h + 8)?, rd64(h + 0x20)?);
            end = end.max(off.checked_add(filesz)?);
        }
    }
    let (shoff, shentsize, shnum) = (rd64(0x28)?, rd16(0x3a)?, rd16(0x3c)?);
    if shnum > 0 {
        if shentsize < 64 {
            return None;
        }
        end = end.max(shoff.checked_add(shnum * shentsize)?);
        *budget = budget.checked_sub(shnum)?;
        for i in 0..shnum {
            let h = shoff.checked_add(i * shentsize)?;
            let kind = u32_at(data, h + 4, "").ok()?;
            if kind != SHT_NOBITS {
                let (off, size) = (rd64(h + 0x18)?, rd64(h + 0x20)?);
                end = end.max(off.checked_add(size)?);
            }
        }
    }
    (end <= len).then_some(end)
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
