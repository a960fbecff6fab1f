//! What a processor changes in the kernel descriptor: which layout of
//! `COMPUTE_PGM_RSRC3` applies, register granularities, architected flat scratch, ...

use hsaco_target::{Generation, Processor};

/// The descriptor layouts, one per group of processors whose kernel descriptors have
/// the same fields (AMDGPUUsage "Kernel Descriptor" tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KdFamily {
    /// GFX6-GFX8: `COMPUTE_PGM_RSRC3` reserved, no `FP16_OVFL`.
    Gfx6To8,
    /// GFX9 without accumulation registers in the unified file (gfx900-gfx909, gfx90c,
    /// gfx9-generic).
    Gfx9,
    /// GFX90A, GFX940-GFX942, GFX950, gfx9-4-generic: `COMPUTE_PGM_RSRC3` holds
    /// `ACCUM_OFFSET` and `TG_SPLIT`; VGPRs allocated in blocks of 8.
    Gfx90a,
    /// GFX10: `COMPUTE_PGM_RSRC3` holds `SHARED_VGPR_COUNT`.
    Gfx10,
    /// GFX11: adds `INST_PREF_SIZE` (6 bits), `TRAP_ON_START/END`, `IMAGE_OP`.
    Gfx11,
    /// GFX12.0: `INST_PREF_SIZE` (8 bits), `GLG_EN`; `WG_RR_EN` replaces DX10 clamp.
    Gfx12,
    /// GFX12.5: adds named barriers, dynamic VGPRs, TCP split, DIDT throttle,
    /// `FLAT_SCRATCH_IS_NV`; VGPR blocks twice as large as GFX12.0.
    Gfx125,
}

/// The properties of a processor that the kernel descriptor depends on.
///
/// They are derived from the generation and version of [`Processor`]:
///
/// | property | processors |
/// |---|---|
/// | [`KdFamily::Gfx90a`] (accum_offset, tg_split, VGPR granule 8) | gfx90a (9.0.10), gfx9.4.x, gfx9.5.x |
/// | architected flat scratch | gfx9.4+ (gfx940 onwards), GFX11 onwards |
/// | wavefront size 32 possible | GFX10 onwards |
/// | `FP16_OVFL` | GFX9 onwards |
/// | XNACK on by default (`llvm-objdump --mcpu=<cpu>`) | GFX12.5 |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KdTarget {
    /// Descriptor layout family.
    pub family: KdFamily,
    /// Hardware generation.
    pub generation: Generation,
    /// (major, minor, stepping).
    pub version: (u8, u8, u8),
    /// The *Architected flat scratch* target property: scratch is set up through
    /// `FLAT_SCRATCH` and there is no private segment buffer / flat scratch init SGPR.
    pub architected_flat_scratch: bool,
    /// XNACK replay enabled in the target features (`.amdhsa_reserve_xnack_mask`).
    pub xnack: bool,
}

impl KdTarget {
    /// The descriptor properties of `processor`, with XNACK as `llvm-objdump --mcpu`
    /// assumes by default for it (off, except on GFX12.5).
    pub fn new(processor: &Processor) -> Self {
        Self::from_version(processor.generation, processor.version)
    }

    /// As [`KdTarget::new`], from a generation and version.
    pub fn from_version(generation: Generation, version: (u8, u8, u8)) -> Self {
        let (major, minor, stepping) = version;
        let family = match generation {
            Generation::Gfx9 if minor >= 4 || (minor == 0 && stepping == 10) => KdFamily::Gfx90a,
            Generation::Gfx9 => KdFamily::Gfx9,
            Generation::Gfx10 => KdFamily::Gfx10,
            Generation::Gfx11 => KdFamily::Gfx11,
            Generation::Gfx12 if (major, minor) >= (12, 5) => KdFamily::Gfx125,
            Generation::Gfx12 => KdFamily::Gfx12,
            Generation::Gfx125 => KdFamily::Gfx125,
            // GFX6-GFX8 and the R600 families (which have no kernel descriptor; they
            // are printed as the oldest layout).
            _ => KdFamily::Gfx6To8,
        };
        let architected_flat_scratch = match family {
            KdFamily::Gfx90a => minor >= 4,
            KdFamily::Gfx11 | KdFamily::Gfx12 | KdFamily::Gfx125 => true,
            _ => false,
        };
        KdTarget {
            family,
            generation,
            version,
            architected_flat_scratch,
            xnack: family == KdFamily::Gfx125,
        }
    }

    /// The same target with the XNACK feature set to `on`.
    pub fn with_xnack(mut self, on: bool) -> Self {
        self.xnack = on;
        self
    }

    /// GFX10 onwards.
    pub fn is_gfx10_plus(&self) -> bool {
        self.family >= KdFamily::Gfx10
    }

    /// GFX9 onwards.
    pub fn is_gfx9_plus(&self) -> bool {
        self.family >= KdFamily::Gfx9
    }

    /// GFX12 onwards.
    pub fn is_gfx12_plus(&self) -> bool {
        self.family >= KdFamily::Gfx12
    }

    /// VGPRs per `GRANULATED_WORKITEM_VGPR_COUNT` block: 4 before GFX90A; 8 on
    /// GFX90A/GFX940; on GFX10-GFX12.0 4 in wave64 and 8 in wave32; on GFX12.5 8 in
    /// wave64 and 16 in wave32.
    pub fn vgpr_granule(&self, wave32: bool) -> u32 {
        match self.family {
            KdFamily::Gfx6To8 | KdFamily::Gfx9 => 4,
            KdFamily::Gfx90a => 8,
            KdFamily::Gfx10 | KdFamily::Gfx11 | KdFamily::Gfx12 => {
                if wave32 {
                    8
                } else {
                    4
                }
            }
            KdFamily::Gfx125 => {
                if wave32 {
                    16
                } else {
                    8
                }
            }
        }
    }

    /// SGPRs per `GRANULATED_WAVEFRONT_SGPR_COUNT` block as the disassembler counts
    /// them (8 on every generation; GFX10 onwards always allocate 128 and the field
    /// is reserved).
    pub fn sgpr_granule(&self) -> u32 {
        8
    }
}
