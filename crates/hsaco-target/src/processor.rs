//! The processor model: one [`Processor`] per row of the AMDGPUUsage processor
//! tables (the table itself is in `table.rs`).

use crate::features::{FeatureSupport, TargetFeature};
use crate::table::{PROCESSORS, ROCM_PRODUCTS};

/// Target architecture (the first component of the target triple).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arch {
    /// `r600`: the R600 family up to Northern Islands (ELF32).
    R600,
    /// `amdgcn`: GCN and later (ELF64).
    Amdgcn,
}

impl Arch {
    /// The triple spelling: `r600` or `amdgcn`.
    pub fn name(self) -> &'static str {
        match self {
            Arch::R600 => "r600",
            Arch::Amdgcn => "amdgcn",
        }
    }
}

/// Hardware generation, as the processor tables of AMDGPUUsage group them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Generation {
    /// Radeon HD 2000/3000 (r600, r630, rs880, rv670).
    R600,
    /// Radeon HD 4000 (rv710, rv730, rv770).
    R700,
    /// Radeon HD 5000 (cedar, cypress, juniper, redwood, sumo).
    Evergreen,
    /// Radeon HD 6000 (barts, caicos, cayman, turks).
    NorthernIslands,
    /// GCN GFX6, Southern Islands.
    Gfx6,
    /// GCN GFX7, Sea Islands.
    Gfx7,
    /// GCN GFX8, Volcanic Islands.
    Gfx8,
    /// GCN GFX9: Vega, CDNA 1-4 (gfx900 .. gfx950).
    Gfx9,
    /// GFX10.1 and GFX10.3 (RDNA 1, RDNA 2).
    Gfx10,
    /// GFX11 and GFX11.5 (RDNA 3, RDNA 3.5).
    Gfx11,
    /// GFX12 (RDNA 4).
    Gfx12,
    /// GFX12.5 (gfx1250, gfx1251).
    Gfx125,
}

/// How scratch (private) memory is reached through flat addressing
/// ("Target Properties" column of the processor table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlatScratch {
    /// "Does not support generic address space" (r600 family, GFX6).
    Unsupported,
    /// "Offset flat scratch" (GFX7, GFX8): `FLAT_SCRATCH` holds an offset.
    Offset,
    /// "Absolute flat scratch" (GFX9 up to gfx90c, GFX10).
    Absolute,
    /// "Architected flat scratch" (gfx94x, gfx950, GFX11+): the hardware sets
    /// up the scratch base; there is no private segment buffer/flat scratch init
    /// user SGPR.
    Architected,
}

/// Wavefront sizes a processor can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WaveSizes {
    /// Wavefront size 32 is available.
    pub wave32: bool,
    /// Wavefront size 64 is available.
    pub wave64: bool,
    /// The size used when no `wavefrontsize64` feature is given.
    pub default: u32,
}

impl WaveSizes {
    /// Only wavefront size 64 (GFX6-GFX9; assumed for the r600 family).
    pub const WAVE64: WaveSizes = WaveSizes {
        wave32: false,
        wave64: true,
        default: 64,
    };
    /// Native 32, 64 with `wavefrontsize64` (GFX10-GFX12).
    pub const WAVE32_OR_64: WaveSizes = WaveSizes {
        wave32: true,
        wave64: true,
        default: 32,
    };
    /// Only wavefront size 32 (gfx1250, gfx1251: clang-22 rejects `-mwavefrontsize64`).
    pub const WAVE32: WaveSizes = WaveSizes {
        wave32: true,
        wave64: false,
        default: 32,
    };
}

/// A processor supported by a generic target, with the generic code object
/// version in which it was added ("Generic Processor Versioning").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenericMember {
    /// Canonical processor name (`gfx906`).
    pub processor: &'static str,
    /// First generic version that can run on this processor.
    pub since_version: u8,
}

/// What makes a generic target generic (AMDGPUUsage "AMDGPU Generic Processors").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenericTarget {
    /// The `EF_AMDGPU_GENERIC_VERSION` clang-22 writes for this target (observed).
    pub version: u8,
    /// The processors the generic target supports.
    pub members: &'static [GenericMember],
}

/// One processor (or generic target) of the processor table.
///
/// Sources: AMDGPUUsage (the spec copy in `shared/spec`) for names, aliases,
/// `EF_AMDGPU_MACH` values, features, properties and example products;
/// LLVM 22 behaviour (recorded in `tests/data/*.tsv`) for processors the spec
/// copy predates (gfx1153, gfx1250, gfx1251, gfx9-4-generic, gfx12-generic).
#[derive(Debug, PartialEq, Eq)]
pub struct Processor {
    /// Canonical name, as in `-mcpu` (`gfx906`, `gfx9-generic`, `r600`).
    pub name: &'static str,
    /// Alternative processor names accepted by LLVM (`tahiti`, `polaris10`, ...).
    pub aliases: &'static [&'static str],
    /// `EF_AMDGPU_MACH_*` value stored in `e_flags`.
    pub mach: u32,
    /// Target triple architecture.
    pub arch: Arch,
    /// Hardware generation.
    pub generation: Generation,
    /// Version as (major, minor, stepping): gfx90a is (9, 0, 10), gfx1030 is (10, 3, 0).
    /// Generic targets carry the lowest version of their family (gfx9-generic
    /// (9, 0, 0), gfx9-4-generic (9, 4, 0), gfx10-1-generic (10, 1, 0),
    /// gfx10-3-generic (10, 3, 0), gfx11-generic (11, 0, 0), gfx12-generic
    /// (12, 0, 0)). The r600 family has no gfx version: (0, 0, 0).
    pub version: (u8, u8, u8),
    /// An APU (integrated) rather than a dGPU; `false` for generic targets.
    pub apu: bool,
    /// Example products from the AMDGPUUsage processor table.
    pub products: &'static [&'static str],
    /// Support of the `xnack` target-ID feature.
    pub xnack: FeatureSupport,
    /// Support of the `sramecc` target-ID feature.
    pub sramecc: FeatureSupport,
    /// Target features that can be selected for this processor, alphabetical
    /// (xnack/sramecc only when settable, see [`FeatureSupport`]).
    pub features: &'static [TargetFeature],
    /// Supported and default wavefront sizes.
    pub wave_sizes: WaveSizes,
    /// Flat scratch flavour.
    pub flat_scratch: FlatScratch,
    /// "Packed work-item IDs": the work-item IDs arrive packed in VGPR0.
    pub packed_work_item_ids: bool,
    /// `Some` for generic targets (`gfx9-generic`, ...).
    pub generic: Option<GenericTarget>,
    /// Listed by AMDGPUUsage but no longer accepted by LLVM 22 (gfx940, gfx941);
    /// kept so existing code objects can be read.
    pub legacy: bool,
}

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

    /// Look a concrete processor up by its ISA version (major, minor, stepping),
    /// as in the code object V2 `NT_AMD_HSA_ISA_VERSION` note. Generic targets
    /// and the r600 family are never returned. See also
    /// [`crate::TargetId::from_isa_version`], which also knows the retired
    /// version numbers of old code objects.
    pub fn by_version(major: u8, minor: u8, stepping: u8) -> Option<&'static Processor> {
        PROCESSORS.iter().find(|p| {
            p.arch == Arch::Amdgcn && p.generic.is_none() && p.version == (major, minor, stepping)
        })
    }

    /// Find the processor of a product name, case-insensitively and ignoring
    /// spaces and punctuation: `"mi50"`, `"Radeon VII"`, `"rx 7900 xtx"`.
    ///
    /// The query must match whole words of a product name (`mi25` does not
    /// match `MI250`). Returns `None` when nothing matches or when the matches
    /// belong to different processors; [`Processor::search_products`] lists them.
    pub fn by_product(query: &str) -> Option<&'static Processor> {
        let matches = Processor::search_products(query);
        let first = matches.first()?.processor;
        if matches.iter().all(|m| core::ptr::eq(m.processor, first)) {
            return Some(first);
        }
        // Several processors: an exact full-name match decides.
        let q = normalize(query);
        let exact: Vec<_> = matches
            .iter()
            .filter(|m| normalize(m.product) == q)
            .collect();
        match exact.as_slice() {
            [one] => Some(one.processor),
            _ => None,
        }
    }

    /// Every product whose name matches `query` (see [`Processor::by_product`]).
    pub fn search_products(query: &str) -> Vec<ProductMatch> {
        let q = normalize(query);
        let mut out = Vec::new();
        if q.is_empty() {
            return out;
        }
        for entry in product_index() {
            if !entry.matches(&q)
                || out
                    .iter()
                    .any(|m: &ProductMatch| m.product == entry.product)
            {
                continue;
            }
            if let Some(processor) = Processor::by_name(entry.processor) {
                out.push(ProductMatch {
                    product: entry.product,
                    processor,
                });
            }
        }
        out
    }

    /// Every product name known for this processor: the AMDGPUUsage examples,
    /// then those of the ROCm GPU specification tables.
    pub fn all_products(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.products.to_vec();
        for (name, proc_name) in ROCM_PRODUCTS {
            if *proc_name == self.name && !v.contains(name) {
                v.push(name);
            }
        }
        v
    }

    /// Whether this is a generic target (`gfx9-generic`, ...).
    pub fn is_generic(&self) -> bool {
        self.generic.is_some()
    }

    /// The generic version clang-22 writes for a generic target; 0 otherwise
    /// ("the version of non-generic code objects is always set to 0").
    pub fn generic_version(&self) -> u8 {
        self.generic.map_or(0, |g| g.version)
    }

    /// For a generic target, the processors it supports.
    pub fn generic_members(&self) -> impl Iterator<Item = &'static Processor> + '_ {
        self.generic
            .iter()
            .flat_map(|g| g.members.iter())
            .filter_map(|m| Processor::by_name(m.processor))
    }

    /// For a generic target: the generic version in which `processor` was
    /// added, or `None` if it is not a member.
    pub fn generic_member_since(&self, processor: &Processor) -> Option<u8> {
        self.generic?
            .members
            .iter()
            .find(|m| m.processor == processor.name)
            .map(|m| m.since_version)
    }

    /// For a concrete processor, the generic targets that support it.
    pub fn generic_targets(&self) -> impl Iterator<Item = &'static Processor> + '_ {
        PROCESSORS
            .iter()
            .filter(move |g| g.generic_member_since(self).is_some())
    }

    /// Support of a target-ID feature (`xnack`, `sramecc`); other features
    /// are [`FeatureSupport::Supported`] when listed in [`Processor::features`].
    pub fn feature_support(&self, feature: TargetFeature) -> FeatureSupport {
        match feature {
            TargetFeature::Xnack => self.xnack,
            TargetFeature::Sramecc => self.sramecc,
            f if self.features.contains(&f) => FeatureSupport::Supported,
            _ => FeatureSupport::Unsupported,
        }
    }

    /// Whether `feature` can be selected for this processor.
    pub fn supports_feature(&self, feature: TargetFeature) -> bool {
        self.feature_support(feature) == FeatureSupport::Supported
    }

    /// Wavefront size 32 is available (GFX10+).
    pub fn supports_wave32(&self) -> bool {
        self.wave_sizes.wave32
    }

    /// Wavefront size 64 is available (all but gfx1250, gfx1251).
    pub fn supports_wave64(&self) -> bool {
        self.wave_sizes.wave64
    }

    /// The wavefront size used without `wavefrontsize64`.
    pub fn default_wave_size(&self) -> u32 {
        self.wave_sizes.default
    }

    /// "Architected flat scratch" (gfx94x, gfx950, gfx9-4-generic, GFX11+).
    pub fn has_architected_flat_scratch(&self) -> bool {
        self.flat_scratch == FlatScratch::Architected
    }

    /// Whether the processor has accumulation VGPRs allocated together with the
    /// architected VGPRs, so kernel descriptors carry `ACCUM_OFFSET` in
    /// `compute_pgm_rsrc3` and VGPRs are granted in blocks of 8 (the "GFX90A,
    /// GFX940" rows of the kernel descriptor tables): gfx90a, gfx94x, gfx950,
    /// gfx9-4-generic.
    pub fn has_accum_offset(&self) -> bool {
        self.generation == Generation::Gfx9 && (self.version.2 == 10 || self.version.1 >= 4)
    }

    /// Whether `compute_pgm_rsrc3` exists with the GFX10+ layout (GFX10-GFX12).
    pub fn is_gfx10_plus(&self) -> bool {
        self.generation >= Generation::Gfx10
    }

    /// Kernel argument preloading into SGPRs (gfx90a, gfx94x, gfx950).
    pub fn supports_kernarg_preload(&self) -> bool {
        self.features.contains(&TargetFeature::KernargPreload)
    }

    /// Number of VGPRs per `GRANULATED_WORKITEM_VGPR_COUNT` block for the given
    /// wavefront size (`compute_pgm_rsrc1`, AMDGPUUsage): 4 for GFX6-GFX9,
    /// 8 for gfx90a/gfx94x/gfx950, 4 (wave64) or 8 (wave32) for GFX10-GFX12,
    /// 16 for GFX12.5 (not in the spec copy; observed with llvm-mc-22:
    /// `.amdhsa_next_free_vgpr` 17 and 33 give 1 and 2 on gfx1250).
    /// `None` for the r600 family.
    pub fn vgpr_encoding_granule(&self, wave_size: u32) -> Option<u32> {
        if self.arch == Arch::R600 {
            return None;
        }
        let wave32_gfx10_plus = self.generation >= Generation::Gfx10 && wave_size == 32;
        Some(if self.generation == Generation::Gfx125 {
            16
        } else if self.has_accum_offset() || wave32_gfx10_plus {
            8
        } else {
            4
        })
    }

    /// `true` when `other` is this processor.
    pub fn is(&self, other: &Processor) -> bool {
        core::ptr::eq(self, other) || self.name == other.name
    }
}

impl core::fmt::Display for Processor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name)
    }
}

/// One result of [`Processor::search_products`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProductMatch {
    /// The product name as stored.
    pub product: &'static str,
    /// Its processor.
    pub processor: &'static Processor,
}

/// Lower-case letters, digits and `+`, everything else dropped.
fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '+')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A product name prepared for word-run matching: its words lower-cased and
/// joined, with the offsets where words start.
struct ProductEntry {
    product: &'static str,
    processor: &'static str,
    joined: String,
    word_starts: Vec<usize>,
}

impl ProductEntry {
    fn new(product: &'static str, processor: &'static str) -> ProductEntry {
        let mut joined = String::new();
        let mut word_starts = Vec::new();
        for word in product
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '+'))
            .filter(|w| !w.is_empty())
        {
            word_starts.push(joined.len());
            joined.push_str(&word.to_ascii_lowercase());
        }
        ProductEntry {
            product,
            processor,
            joined,
            word_starts,
        }
    }

    /// Whether the normalized query equals a run of consecutive words.
    fn matches(&self, query: &str) -> bool {
        self.word_starts.iter().any(|&start| {
            let end = start + query.len();
            self.joined.get(start..end) == Some(query)
                && (end == self.joined.len() || self.word_starts.binary_search(&end).is_ok())
        })
    }
}

/// Every product (AMDGPUUsage examples, then ROCm tables), prepared once.
fn product_index() -> &'static [ProductEntry] {
    static INDEX: std::sync::OnceLock<Vec<ProductEntry>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let table = PROCESSORS
            .iter()
            .flat_map(|p| p.products.iter().map(move |name| (*name, p.name)));
        table
            .chain(ROCM_PRODUCTS.iter().copied())
            .map(|(product, processor)| ProductEntry::new(product, processor))
            .collect()
    })
}
