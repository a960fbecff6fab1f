//! The processor table. (Skeleton: the full table is being filled in.)

/// Target architecture (the first component of the target triple).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arch {
    /// `r600`: the R600 family up to Northern Islands (ELF32).
    R600,
    /// `amdgcn`: GCN and later (ELF64).
    Amdgcn,
}

/// Hardware generation, as the processor tables of AMDGPUUsage group them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Generation {
    R600,
    R700,
    Evergreen,
    NorthernIslands,
    Gfx6,
    Gfx7,
    Gfx8,
    Gfx9,
    Gfx10,
    Gfx11,
    Gfx12,
    /// GFX12.5 (gfx1250, gfx1251).
    Gfx125,
}

/// One processor (or generic target) of the processor table.
#[derive(Debug, PartialEq, Eq)]
pub struct Processor {
    /// Canonical name, as in `-mcpu` (`gfx906`, `gfx9-generic`, `r600`).
    pub name: &'static str,
    /// Alternative processor names accepted by LLVM (`tahiti`, `polaris10`, ...).
    pub aliases: &'static [&'static str],
    /// `EF_AMDGPU_MACH_*` value stored in `e_flags`.
    pub mach: u32,
    pub arch: Arch,
    pub generation: Generation,
    /// Version as (major, minor, stepping): gfx90a is (9, 0, 10), gfx1030 is (10, 3, 0).
    /// Generic targets carry the lowest version of their family.
    pub version: (u8, u8, u8),
}

static PROCESSORS: &[Processor] = &[Processor {
    name: "gfx906",
    aliases: &[],
    mach: 0x02f,
    arch: Arch::Amdgcn,
    generation: Generation::Gfx9,
    version: (9, 0, 6),
}];

impl Processor {
    /// Every processor and generic target, in table order.
    pub fn all() -> &'static [Processor] {
        PROCESSORS
    }

    /// Look a processor up by its canonical or alternative name.
    pub fn by_name(name: &str) -> Option<&'static Processor> {
        PROCESSORS
            .iter()
            .find(|p| p.name == name || p.aliases.contains(&name))
    }

    /// Look a processor up by its `EF_AMDGPU_MACH_*` value.
    pub fn by_mach(mach: u32) -> Option<&'static Processor> {
        PROCESSORS.iter().find(|p| p.mach == mach)
    }
}
