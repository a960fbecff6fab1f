//! `.AMDGPU.config`: the register settings LLVM writes for each program of an r600
//! object and of an amdgcn object for Mesa (`amdgcn-mesa-mesa3d`): little-endian
//! (register, value) pairs of 32-bit words, one block per function, in the order of
//! the functions in `.text` (clang-22's assembly puts each block just before its
//! function).
//!
//! Registers are byte addresses in the GPU's register space. r600 objects write
//! `SQ_PGM_RESOURCES_{PS,VS,GS,LS}` (`NUM_GPRS` bits 7:0, `STACK_SIZE` bits 15:8),
//! `DB_SHADER_CONTROL` and, for compute kernels, `SQ_LDS_ALLOC` (the LDS size in
//! dwords); amdgcn objects write `COMPUTE_PGM_RSRC1/2` or the
//! `SPI_SHADER_PGM_RSRC1/2_*` of the stage, `COMPUTE_TMPRING_SIZE` or
//! `SPI_TMPRING_SIZE`, and LLVM's own pseudo-registers 4 (`SPILLED_SGPRS`) and 8
//! (`SPILLED_VGPRS`). A block starts at its program resource register
//! (`SQ_PGM_RESOURCES_*`, `*_PGM_RSRC1*`).
//!
//! Sources: the r600 register addresses and field values checked against clang-22's
//! output for every r600 processor (`tests/data/r600`: `.long` pairs in `-S` output,
//! with the `;SQ_PGM_RESOURCES:STACK_SIZE = 1` comments it prints beside them; 256
//! bytes of LDS give `SQ_LDS_ALLOC` 64); the names are AMD's register names from the
//! R600/Evergreen register references. The amdgcn names are those of
//! [`crate::metadata::pal::register_name`] at `address / 4`.
//!
//! ```
//! use hsaco_elf::config::{self, ConfigEntry};
//! use hsaco_target::Processor;
//! let cypress = Processor::by_name("cypress").unwrap();
//! // SQ_PGM_RESOURCES_LS = 2, DB_SHADER_CONTROL = 0, SQ_LDS_ALLOC = 64
//! let words: Vec<u8> = [0x288d4u32, 2, 0x2880c, 0, 0x288e8, 64]
//!     .iter().flat_map(|w| w.to_le_bytes()).collect();
//! let entries = config::parse(&words, 0x100).unwrap();
//! assert_eq!(entries[2], ConfigEntry { offset: 0x110, register: 0x288e8, value: 64 });
//! assert_eq!(config::register_name(cypress, 0x288d4), Some("SQ_PGM_RESOURCES_LS"));
//! let blocks = config::programs(cypress, &entries);
//! assert_eq!(blocks.len(), 1);
//! let f = config::register_fields(cypress, 0x288e8, 64);
//! assert_eq!((f[0].name, f[0].value), ("SIZE_DWORDS", 64));
//! ```

use crate::elf::consts::{STT_AMDGPU_HSA_KERNEL, STT_FUNC};
use crate::metadata::pal::{self, RegisterField};
use crate::{CodeObject, Error, Result};
use hsaco_target::{Arch, Generation, Processor};

/// The section's name.
pub const SECTION_NAME: &str = ".AMDGPU.config";

/// One (register, value) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigEntry {
    /// File offset of the pair.
    pub offset: u64,
    /// The register's byte address.
    pub register: u32,
    /// Its value.
    pub value: u32,
}

/// The block of one program (function).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramConfig {
    /// The function it belongs to, when the blocks and the functions of `.text`
    /// are as many.
    pub function: Option<String>,
    /// Its pairs.
    pub entries: Vec<ConfigEntry>,
}

/// The pairs of a `.AMDGPU.config` section's contents `data` (at file offset
/// `offset`); an error if its size is not a multiple of 8.
pub fn parse(data: &[u8], offset: u64) -> Result<Vec<ConfigEntry>> {
    if !data.len().is_multiple_of(8) {
        return Err(Error::new(
            offset,
            format!(
                "{SECTION_NAME} size {:#x} is not a multiple of 8 (register/value pairs)",
                data.len()
            ),
        ));
    }
    Ok(data
        .chunks_exact(8)
        .enumerate()
        .map(|(i, pair)| ConfigEntry {
            offset: offset + 8 * i as u64,
            register: u32::from_le_bytes([pair[0], pair[1], pair[2], pair[3]]),
            value: u32::from_le_bytes([pair[4], pair[5], pair[6], pair[7]]),
        })
        .collect())
}

/// Evergreen and later r600 processors (Evergreen, Northern Islands).
fn evergreen(p: &Processor) -> bool {
    matches!(
        p.generation,
        Generation::Evergreen | Generation::NorthernIslands
    )
}

/// The name of a `.AMDGPU.config` register of `processor`.
pub fn register_name(processor: &Processor, register: u32) -> Option<&'static str> {
    if processor.arch == Arch::R600 {
        let eg = evergreen(processor);
        return Some(match register {
            0x02_880c => "DB_SHADER_CONTROL",
            0x02_88e8 => "SQ_LDS_ALLOC",
            0x02_8850 if !eg => "SQ_PGM_RESOURCES_PS",
            0x02_8868 if !eg => "SQ_PGM_RESOURCES_VS",
            0x02_8844 if eg => "SQ_PGM_RESOURCES_PS",
            0x02_8860 if eg => "SQ_PGM_RESOURCES_VS",
            0x02_8878 if eg => "SQ_PGM_RESOURCES_GS",
            0x02_88d4 if eg => "SQ_PGM_RESOURCES_LS",
            _ => return None,
        });
    }
    match register {
        4 => Some("SPILLED_SGPRS"),
        8 => Some("SPILLED_VGPRS"),
        r if r.is_multiple_of(4) => pal::register_name(r / 4),
        _ => None,
    }
}

/// Whether `register` starts a program's block.
fn starts_program(processor: &Processor, register: u32) -> bool {
    register_name(processor, register).is_some_and(|n| {
        n.starts_with("SQ_PGM_RESOURCES_")
            || n == "COMPUTE_PGM_RSRC1"
            || n.starts_with("SPI_SHADER_PGM_RSRC1_")
    })
}

/// The decoded fields of a `.AMDGPU.config` register: r600's `SQ_PGM_RESOURCES_*`
/// and `SQ_LDS_ALLOC`, amdgcn's `COMPUTE_PGM_RSRC1/2` (see
/// [`pal::PalRegister::fields`]); empty for the others.
pub fn register_fields(processor: &Processor, register: u32, value: u32) -> Vec<RegisterField> {
    let f = |name, value| RegisterField { name, value };
    if processor.arch == Arch::R600 {
        return match register_name(processor, register) {
            Some(n) if n.starts_with("SQ_PGM_RESOURCES_") => vec![
                f("NUM_GPRS", value & 0xff),
                f("STACK_SIZE", (value >> 8) & 0xff),
            ],
            Some("SQ_LDS_ALLOC") => vec![f("SIZE_DWORDS", value)],
            _ => Vec::new(),
        };
    }
    if !register.is_multiple_of(4) {
        return Vec::new();
    }
    pal::PalRegister::new(register / 4, value).fields(Some(processor))
}

/// The pairs cut into programs at each program resource register (pairs before
/// the first one form a block of their own).
pub fn programs(processor: &Processor, entries: &[ConfigEntry]) -> Vec<ProgramConfig> {
    let mut out: Vec<ProgramConfig> = Vec::new();
    for e in entries {
        if out.is_empty() || starts_program(processor, e.register) {
            out.push(ProgramConfig {
                function: None,
                entries: Vec::new(),
            });
        }
        if let Some(last) = out.last_mut() {
            last.entries.push(*e);
        }
    }
    out
}

/// The `.AMDGPU.config` section of a code object, cut into programs, each named
/// after its function when the section has as many blocks as `.text` has functions
/// (`STT_FUNC` or `STT_AMDGPU_HSA_KERNEL` symbols at distinct addresses). `Ok(None)`
/// without the section.
pub fn read(co: &CodeObject<'_>, processor: &Processor) -> Result<Option<Vec<ProgramConfig>>> {
    let Some(section) = co.elf.section_by_name(SECTION_NAME) else {
        return Ok(None);
    };
    let entries = parse(section.data()?, section.offset)?;
    let mut blocks = programs(processor, &entries);
    let text = co.elf.section_by_name(".text").map(|s| s.index);
    let mut functions: Vec<(u64, String)> = Vec::new();
    if let (Some(text), Ok(Some(symtab))) = (text, co.elf.symtab()) {
        for sym in symtab.iter().flatten() {
            let t = sym.st_type().0;
            if (t == STT_FUNC || t == STT_AMDGPU_HSA_KERNEL)
                && sym.section_index() == Some(text)
                && !functions.iter().any(|(v, _)| *v == sym.value)
            {
                functions.push((sym.value, sym.name_str().into_owned()));
            }
        }
    }
    functions.sort();
    if functions.len() == blocks.len() {
        for (b, (_, name)) in blocks.iter_mut().zip(functions) {
            b.function = Some(name);
        }
    }
    Ok(Some(blocks))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Blocks as clang-22 writes them: r600 (R600/R700) pixel and vertex shader,
    /// Evergreen compute kernels, a Mesa gfx1100 kernel.
    #[test]
    fn blocks_split_at_program_registers() {
        let r600 = Processor::by_name("r600").unwrap();
        let e = parse(
            &words(&[0x28850, 1, 0x2880c, 0, 0x28868, 0x101, 0x2880c, 0]),
            0,
        )
        .unwrap();
        let b = programs(r600, &e);
        assert_eq!(b.len(), 2);
        assert_eq!(register_name(r600, 0x28868), Some("SQ_PGM_RESOURCES_VS"));
        // Evergreen moved the VS resources; 0x28868 means nothing there
        let cayman = Processor::by_name("cayman").unwrap();
        assert_eq!(register_name(cayman, 0x28868), None);
        assert_eq!(register_name(cayman, 0x28860), Some("SQ_PGM_RESOURCES_VS"));
        let f = register_fields(r600, 0x28868, 0x101);
        assert_eq!((f[0].value, f[1].value), (1, 1));
        let gfx1100 = Processor::by_name("gfx1100").unwrap();
        let e = parse(
            &words(&[0xb848, 0xe0af0000, 0xb84c, 0x9e, 0xb860, 0, 4, 0, 8, 0]),
            0,
        )
        .unwrap();
        assert_eq!(programs(gfx1100, &e).len(), 1);
        assert_eq!(register_name(gfx1100, 0xb848), Some("COMPUTE_PGM_RSRC1"));
        assert_eq!(register_name(gfx1100, 0xb860), Some("COMPUTE_TMPRING_SIZE"));
        assert_eq!(register_name(gfx1100, 4), Some("SPILLED_SGPRS"));
        assert!(parse(&[0; 12], 0x40)
            .unwrap_err()
            .to_string()
            .contains("0x40"));
    }
}
