//! A code object as a whole: its ELF, code object version, metadata note and kernels.
//!
//! ```
//! # fn main() -> hsaco_elf::Result<()> {
//! let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/elf/gfx906_cov5_vadd.co")).unwrap();
//! let co = hsaco_elf::CodeObject::parse(&data)?;
//! assert_eq!(co.version(), Some(5));
//! let kernels = co.kernels()?;
//! assert!(kernels.iter().any(|k| k.name == "vadd_f32"));
//! # Ok(())
//! # }
//! ```

use crate::elf::consts::{ElfType, STT_AMDGPU_HSA_KERNEL};
use crate::elf::{Elf, Symbol, SymbolTable};
use crate::note::{AmdNote, IsaVersion};
use crate::{Error, Result};
use hsaco_target::{
    CodeObjectVersion, EFlagsError, EFlagsV2, FeatureSetting, TargetFeature, TargetId, TargetOs,
};

/// Size of a code object v3+ kernel descriptor.
pub const KERNEL_DESCRIPTOR_SIZE: usize = 64;
/// Size of a code object v2 `amd_kernel_code_t`.
pub const AMD_KERNEL_CODE_T_SIZE: usize = 256;

/// An AMDGPU code object: a parsed ELF plus what the AMDGPU ABI puts in it.
#[derive(Clone, Copy, Debug)]
pub struct CodeObject<'d> {
    pub elf: Elf<'d>,
}

/// The metadata note of a code object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataNote<'d> {
    /// `NT_AMDGPU_METADATA` (v3 onwards): MessagePack.
    MsgPack { desc: &'d [u8], offset: u64 },
    /// `NT_AMD_HSA_METADATA` (v2): YAML text.
    Yaml { text: &'d [u8], offset: u64 },
}

/// Where a kernel's descriptor lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescriptorBytes<'d> {
    /// A 64-byte kernel descriptor (`<name>.kd`, code object v3+).
    V3 {
        bytes: &'d [u8],
        offset: u64,
        address: u64,
    },
    /// A 256-byte `amd_kernel_code_t` at the kernel symbol (code object v2).
    AmdKernelCodeT {
        bytes: &'d [u8],
        offset: u64,
        address: u64,
    },
}

impl<'d> DescriptorBytes<'d> {
    /// The raw bytes.
    pub fn bytes(&self) -> &'d [u8] {
        match self {
            DescriptorBytes::V3 { bytes, .. } | DescriptorBytes::AmdKernelCodeT { bytes, .. } => {
                bytes
            }
        }
    }

    /// File offset of the first byte.
    pub fn offset(&self) -> u64 {
        match self {
            DescriptorBytes::V3 { offset, .. } | DescriptorBytes::AmdKernelCodeT { offset, .. } => {
                *offset
            }
        }
    }

    /// The symbol's value (address in a loadable object, section offset in a
    /// relocatable one).
    pub fn address(&self) -> u64 {
        match self {
            DescriptorBytes::V3 { address, .. }
            | DescriptorBytes::AmdKernelCodeT { address, .. } => *address,
        }
    }
}

/// A kernel found through the symbol table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelSymbol<'d> {
    /// The kernel's name (the `.kd` symbol without `.kd`, or the v2 kernel symbol).
    pub name: String,
    /// The descriptor, or why it could not be read.
    pub descriptor: std::result::Result<DescriptorBytes<'d>, Error>,
    /// Size the symbol table gives the descriptor symbol.
    pub symbol_size: u64,
}

impl<'d> CodeObject<'d> {
    /// Parse the ELF; nothing else is read until asked for.
    pub fn parse(data: &'d [u8]) -> Result<Self> {
        Ok(CodeObject {
            elf: Elf::parse(data)?,
        })
    }

    /// The code object version (1 to 6), or `None` for PAL, Mesa and unknown ABI
    /// versions. From `EI_OSABI`/`EI_ABIVERSION`, except that an object whose ABI
    /// version says v2 (`ELFOSABI_AMDGPU_HSA`, ABI version 0) is v1 when its
    /// `NT_AMD_HSA_CODE_OBJECT_VERSION` note says 1.x: the HSA runtime's finalizer
    /// output (`.hsatext`, `amd_kernel_code_t` kernels, no metadata note), which
    /// shares v2's header bytes. An `ELFOSABI_NONE` object with that note is v1 too.
    pub fn version(&self) -> Option<u32> {
        match self.elf.code_object_version() {
            Some(2) if self.is_v1() => Some(1),
            Some(v) => Some(v),
            None if self.elf.os_abi().0 == crate::elf::consts::ELFOSABI_NONE && self.is_v1() => {
                Some(1)
            }
            None => None,
        }
    }

    /// Whether the code object version note says 1.x.
    fn is_v1(&self) -> bool {
        self.code_object_version_note()
            .is_some_and(|v| v.major == 1)
    }

    /// The `NT_AMD_HSA_CODE_OBJECT_VERSION` note of a code object v1 or v2.
    pub fn code_object_version_note(&self) -> Option<crate::note::CodeObjectVersion> {
        self.elf
            .notes()
            .filter_map(|n| n.ok())
            .find_map(|n| match n.decode() {
                Ok(AmdNote::CodeObjectVersion(v)) => Some(v),
                _ => None,
            })
    }

    /// The code object version as hsaco-target models it (PAL and Mesa objects use
    /// the v3 `e_flags` layout; code object v1 uses v2's).
    pub fn e_flags_version(&self) -> Option<CodeObjectVersion> {
        let h = self.elf.header();
        if h.os_abi.0 == crate::elf::consts::ELFOSABI_NONE && self.version() == Some(1) {
            return Some(CodeObjectVersion::V2);
        }
        CodeObjectVersion::for_elf_header(h.os_abi.0, h.abi_version)
    }

    /// The OS of the target triple, from `EI_OSABI` (`amdhsa`, `amdpal`, `mesa3d`). A code
    /// object v1 (the HSA runtime finalizer's, `EI_OSABI` 0) is an HSA object.
    pub fn target_os(&self) -> TargetOs {
        match TargetOs::from_elf_os_abi(self.elf.os_abi().0) {
            TargetOs::Unknown if self.version() == Some(1) => TargetOs::Amdhsa,
            os => os,
        }
    }

    /// The target ID: from `e_flags`, or for a code object v1 or v2 whose `e_flags`
    /// name no processor, from its `NT_AMD_HSA_ISA_VERSION` note.
    pub fn target_id(&self) -> std::result::Result<TargetId, String> {
        let e_flags = self.elf.e_flags();
        let version = self
            .e_flags_version()
            .ok_or_else(|| format!("unknown ABI version {}", self.elf.abi_version()))?;
        match TargetId::from_e_flags(e_flags, version) {
            Ok(t) => Ok(t),
            Err(EFlagsError::NoProcessor(_)) => {
                let isa = self.isa_version_note().ok_or_else(|| {
                    "e_flags name no processor and there is no ISA version note".to_string()
                })?;
                let v = |x: u32| u8::try_from(x).unwrap_or(u8::MAX);
                let mut t = TargetId::from_isa_version(v(isa.major), v(isa.minor), v(isa.stepping))
                    .ok_or_else(|| {
                        format!(
                            "no processor has ISA version {}.{}.{}",
                            isa.major, isa.minor, isa.stepping
                        )
                    })?;
                if EFlagsV2::from_e_flags(e_flags).xnack
                    && t.processor.supports_feature(TargetFeature::Xnack)
                {
                    let _ = t.set(TargetFeature::Xnack, FeatureSetting::On);
                }
                Ok(t)
            }
            Err(e) => Err(e.to_string()),
        }
    }

    /// The first metadata note (v3+ MessagePack, or v2 YAML).
    pub fn metadata_note(&self) -> Result<Option<MetadataNote<'d>>> {
        for note in self.elf.notes() {
            let note = note?;
            match note.decode() {
                Ok(AmdNote::AmdgpuMetadata(desc)) => {
                    return Ok(Some(MetadataNote::MsgPack {
                        desc,
                        offset: note.desc_offset,
                    }))
                }
                Ok(AmdNote::HsaMetadata(text)) => {
                    return Ok(Some(MetadataNote::Yaml {
                        text,
                        offset: note.desc_offset,
                    }))
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// The v1/v2 `NT_AMD_HSA_ISA_VERSION` note, which names the processor of code
    /// objects whose `e_flags` do not.
    pub fn isa_version_note(&self) -> Option<IsaVersion<'d>> {
        self.elf
            .notes()
            .filter_map(|n| n.ok())
            .find_map(|n| match n.decode() {
                Ok(AmdNote::IsaVersion(v)) => Some(v),
                _ => None,
            })
    }

    /// Every kernel: `<name>.kd` symbols (v3+) or `STT_AMDGPU_HSA_KERNEL` symbols
    /// (v1 and v2: an `amd_kernel_code_t` at the symbol; v1 names them `&__name`),
    /// from `.symtab` and `.dynsym`, each once, in address order.
    pub fn kernels(&self) -> Result<Vec<KernelSymbol<'d>>> {
        let (kernels, errors) = self.kernels_partial();
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(kernels),
        }
    }

    /// The kernels [`CodeObject::kernels`] finds, and the errors of the symbols or
    /// symbol tables it could not read: one unreadable symbol does not hide the
    /// other kernels.
    pub fn kernels_partial(&self) -> (Vec<KernelSymbol<'d>>, Vec<Error>) {
        let mut out: Vec<(u64, KernelSymbol<'d>)> = Vec::new();
        let mut errors = Vec::new();
        for table in [self.elf.symtab(), self.elf.dynsym()] {
            match table {
                Ok(Some(table)) => self.collect_kernels(&table, &mut out, &mut errors),
                Ok(None) => {}
                Err(e) => errors.push(e),
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
        (out.into_iter().map(|(_, k)| k).collect(), errors)
    }

    fn collect_kernels(
        &self,
        table: &SymbolTable<'d>,
        out: &mut Vec<(u64, KernelSymbol<'d>)>,
        errors: &mut Vec<Error>,
    ) {
        for sym in table.iter() {
            let sym = match sym {
                Ok(sym) => sym,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let (name, size) = if let Some(stem) = sym.name.strip_suffix(b".kd") {
                (stem, KERNEL_DESCRIPTOR_SIZE)
            } else if sym.st_type().0 == STT_AMDGPU_HSA_KERNEL {
                (sym.name, AMD_KERNEL_CODE_T_SIZE)
            } else {
                continue;
            };
            if sym.is_undefined() {
                continue;
            }
            let name = String::from_utf8_lossy(name).into_owned();
            if out.iter().any(|(_, k)| k.name == name) {
                continue;
            }
            let descriptor = self.symbol_bytes(&sym, size).map(|(bytes, offset)| {
                if size == KERNEL_DESCRIPTOR_SIZE {
                    DescriptorBytes::V3 {
                        bytes,
                        offset,
                        address: sym.value,
                    }
                } else {
                    DescriptorBytes::AmdKernelCodeT {
                        bytes,
                        offset,
                        address: sym.value,
                    }
                }
            });
            out.push((
                sym.value,
                KernelSymbol {
                    name,
                    descriptor,
                    symbol_size: sym.size,
                },
            ));
        }
    }

    /// `len` bytes at a symbol's location, and their file offset.
    pub fn symbol_bytes(&self, sym: &Symbol<'d>, len: usize) -> Result<(&'d [u8], u64)> {
        let index = sym.section_index().ok_or_else(|| {
            Error::new(
                sym.offset,
                format!("symbol {} has no section", sym.name_str()),
            )
        })?;
        let section = self.elf.section(index)?;
        let data = section.data()?;
        let start = if self.elf.e_type() == ElfType(crate::elf::consts::ET_REL) {
            sym.value
        } else {
            sym.value.checked_sub(section.addr).ok_or_else(|| {
                Error::new(
                    sym.offset,
                    format!("symbol {} lies before its section", sym.name_str()),
                )
            })?
        };
        let bytes = usize::try_from(start)
            .ok()
            .and_then(|s| Some((s, s.checked_add(len)?)))
            .and_then(|(s, e)| data.get(s..e))
            .ok_or_else(|| {
                Error::new(
                    sym.offset,
                    format!(
                        "{} bytes at symbol {} (section offset {start:#x}) are past the end of section {}",
                        len,
                        sym.name_str(),
                        section.name_str()
                    ),
                )
            })?;
        Ok((bytes, section.offset.saturating_add(start)))
    }
}
