//! The processor table and the `EF_AMDGPU_MACH_*` constants.
//!
//! Written from AMDGPUUsage ("Processors", "AMDGPU Generic Processors",
//! "AMDGPU `EF_AMDGPU_MACH` Values"). Where LLVM 22 differs from the spec copy
//! in `shared/spec`, LLVM 22 wins and the row says so:
//! - gfx1153, gfx1250, gfx1251, gfx9-4-generic and gfx12-generic are newer than
//!   the spec copy; their `EF_AMDGPU_MACH` values and target-ID features are
//!   what clang-22 writes (tests/data/eflags-clang22.tsv).
//! - The spec copy names 0x049 `gfx1210`; LLVM 22 names it `gfx1250`
//!   (`llvm-readelf-22 -h` prints gfx1250 for it), so there is no gfx1210 here.
//! - gfx940 and gfx941 (0x040, 0x04b) are still in the spec copy but LLVM 22
//!   rejects them; they are kept with `legacy: true`.
//!
//! Every name/alias/mach triple is checked against `llc-22 -mcpu=help` and
//! `llvm-mc-22` by the tests (tests/data/processors-llvm22.tsv).

use crate::features::FeatureSupport::{Implicit, Supported, Unsupported};
use crate::features::TargetFeature::{self, *};
use crate::processor::{
    Arch, FlatScratch, Generation, GenericMember, GenericTarget, Processor, WaveSizes,
};

/// `EF_AMDGPU_MACH` mask of `e_flags` (all code object versions with a mach field).
pub const EF_AMDGPU_MACH: u32 = 0x0ff;
/// Processor not specified.
pub const EF_AMDGPU_MACH_NONE: u32 = 0x000;
/// `r600`.
pub const EF_AMDGPU_MACH_R600_R600: u32 = 0x001;
/// `r630`.
pub const EF_AMDGPU_MACH_R600_R630: u32 = 0x002;
/// `rs880`.
pub const EF_AMDGPU_MACH_R600_RS880: u32 = 0x003;
/// `rv670`.
pub const EF_AMDGPU_MACH_R600_RV670: u32 = 0x004;
/// `rv710`.
pub const EF_AMDGPU_MACH_R600_RV710: u32 = 0x005;
/// `rv730`.
pub const EF_AMDGPU_MACH_R600_RV730: u32 = 0x006;
/// `rv770`.
pub const EF_AMDGPU_MACH_R600_RV770: u32 = 0x007;
/// `cedar`.
pub const EF_AMDGPU_MACH_R600_CEDAR: u32 = 0x008;
/// `cypress`.
pub const EF_AMDGPU_MACH_R600_CYPRESS: u32 = 0x009;
/// `juniper`.
pub const EF_AMDGPU_MACH_R600_JUNIPER: u32 = 0x00a;
/// `redwood`.
pub const EF_AMDGPU_MACH_R600_REDWOOD: u32 = 0x00b;
/// `sumo`.
pub const EF_AMDGPU_MACH_R600_SUMO: u32 = 0x00c;
/// `barts`.
pub const EF_AMDGPU_MACH_R600_BARTS: u32 = 0x00d;
/// `caicos`.
pub const EF_AMDGPU_MACH_R600_CAICOS: u32 = 0x00e;
/// `cayman`.
pub const EF_AMDGPU_MACH_R600_CAYMAN: u32 = 0x00f;
/// `turks`.
pub const EF_AMDGPU_MACH_R600_TURKS: u32 = 0x010;
/// First value reserved for `r600` architecture processors.
pub const EF_AMDGPU_MACH_R600_FIRST: u32 = 0x001;
/// Last value reserved for `r600` architecture processors.
pub const EF_AMDGPU_MACH_R600_LAST: u32 = 0x01f;
/// `gfx600`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX600: u32 = 0x020;
/// `gfx601`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX601: u32 = 0x021;
/// `gfx700`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX700: u32 = 0x022;
/// `gfx701`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX701: u32 = 0x023;
/// `gfx702`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX702: u32 = 0x024;
/// `gfx703`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX703: u32 = 0x025;
/// `gfx704`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX704: u32 = 0x026;
/// `gfx801`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX801: u32 = 0x028;
/// `gfx802`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX802: u32 = 0x029;
/// `gfx803`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX803: u32 = 0x02a;
/// `gfx810`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX810: u32 = 0x02b;
/// `gfx900`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX900: u32 = 0x02c;
/// `gfx902`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX902: u32 = 0x02d;
/// `gfx904`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX904: u32 = 0x02e;
/// `gfx906`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX906: u32 = 0x02f;
/// `gfx908`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX908: u32 = 0x030;
/// `gfx909`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX909: u32 = 0x031;
/// `gfx90c`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX90C: u32 = 0x032;
/// `gfx1010`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1010: u32 = 0x033;
/// `gfx1011`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1011: u32 = 0x034;
/// `gfx1012`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1012: u32 = 0x035;
/// `gfx1030`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1030: u32 = 0x036;
/// `gfx1031`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1031: u32 = 0x037;
/// `gfx1032`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1032: u32 = 0x038;
/// `gfx1033`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1033: u32 = 0x039;
/// `gfx602`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX602: u32 = 0x03a;
/// `gfx705`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX705: u32 = 0x03b;
/// `gfx805`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX805: u32 = 0x03c;
/// `gfx1035`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1035: u32 = 0x03d;
/// `gfx1034`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1034: u32 = 0x03e;
/// `gfx90a`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX90A: u32 = 0x03f;
/// `gfx940` (no longer accepted by LLVM 22).
pub const EF_AMDGPU_MACH_AMDGCN_GFX940: u32 = 0x040;
/// `gfx1100`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1100: u32 = 0x041;
/// `gfx1013`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1013: u32 = 0x042;
/// `gfx1150`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1150: u32 = 0x043;
/// `gfx1103`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1103: u32 = 0x044;
/// `gfx1036`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1036: u32 = 0x045;
/// `gfx1101`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1101: u32 = 0x046;
/// `gfx1102`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1102: u32 = 0x047;
/// `gfx1200`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1200: u32 = 0x048;
/// `gfx1250` (the spec copy still calls 0x049 `gfx1210`).
pub const EF_AMDGPU_MACH_AMDGCN_GFX1250: u32 = 0x049;
/// `gfx1151`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1151: u32 = 0x04a;
/// `gfx941` (no longer accepted by LLVM 22).
pub const EF_AMDGPU_MACH_AMDGCN_GFX941: u32 = 0x04b;
/// `gfx942`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX942: u32 = 0x04c;
/// `gfx1201`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1201: u32 = 0x04e;
/// `gfx950`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX950: u32 = 0x04f;
/// `gfx9-generic`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX9_GENERIC: u32 = 0x051;
/// `gfx10-1-generic`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX10_1_GENERIC: u32 = 0x052;
/// `gfx10-3-generic`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX10_3_GENERIC: u32 = 0x053;
/// `gfx11-generic`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC: u32 = 0x054;
/// `gfx1152`.
pub const EF_AMDGPU_MACH_AMDGCN_GFX1152: u32 = 0x055;
/// `gfx1153` (LLVM 22).
pub const EF_AMDGPU_MACH_AMDGCN_GFX1153: u32 = 0x058;
/// `gfx12-generic` (LLVM 22).
pub const EF_AMDGPU_MACH_AMDGCN_GFX12_GENERIC: u32 = 0x059;
/// `gfx1251` (LLVM 22).
pub const EF_AMDGPU_MACH_AMDGCN_GFX1251: u32 = 0x05a;
/// `gfx9-4-generic` (LLVM 22).
pub const EF_AMDGPU_MACH_AMDGCN_GFX9_4_GENERIC: u32 = 0x05f;
/// First `amdgcn` value.
pub const EF_AMDGPU_MACH_AMDGCN_FIRST: u32 = EF_AMDGPU_MACH_AMDGCN_GFX600;

const R600: Processor = Processor {
    name: "",
    aliases: &[],
    mach: 0,
    arch: Arch::R600,
    generation: Generation::R600,
    version: (0, 0, 0),
    apu: false,
    products: &[],
    xnack: Unsupported,
    sramecc: Unsupported,
    features: &[],
    wave_sizes: WaveSizes::WAVE64,
    flat_scratch: FlatScratch::Unsupported,
    packed_work_item_ids: false,
    generic: None,
    legacy: false,
};

const GFX6: Processor = Processor {
    arch: Arch::Amdgcn,
    generation: Generation::Gfx6,
    ..R600
};

const GFX7: Processor = Processor {
    generation: Generation::Gfx7,
    flat_scratch: FlatScratch::Offset,
    ..GFX6
};

const GFX8: Processor = Processor {
    generation: Generation::Gfx8,
    ..GFX7
};

const XNACK: &[TargetFeature] = &[Xnack];
const SRAMECC_XNACK: &[TargetFeature] = &[Sramecc, Xnack];
const GFX90A_FEATURES: &[TargetFeature] = &[KernargPreload, Sramecc, Tgsplit, Xnack];
const GFX101_FEATURES: &[TargetFeature] = &[Cumode, Wavefrontsize64, Xnack];
const GFX103_FEATURES: &[TargetFeature] = &[Cumode, Wavefrontsize64];

const GFX9: Processor = Processor {
    generation: Generation::Gfx9,
    flat_scratch: FlatScratch::Absolute,
    xnack: Supported,
    features: XNACK,
    ..GFX8
};

const GFX94: Processor = Processor {
    sramecc: Supported,
    features: GFX90A_FEATURES,
    flat_scratch: FlatScratch::Architected,
    packed_work_item_ids: true,
    ..GFX9
};

const GFX101: Processor = Processor {
    generation: Generation::Gfx10,
    features: GFX101_FEATURES,
    wave_sizes: WaveSizes::WAVE32_OR_64,
    ..GFX9
};

const GFX103: Processor = Processor {
    xnack: Unsupported,
    features: GFX103_FEATURES,
    ..GFX101
};

const GFX11: Processor = Processor {
    generation: Generation::Gfx11,
    flat_scratch: FlatScratch::Architected,
    packed_work_item_ids: true,
    ..GFX103
};

const GFX12: Processor = Processor {
    generation: Generation::Gfx12,
    ..GFX11
};

const GFX125: Processor = Processor {
    generation: Generation::Gfx125,
    apu: true,
    xnack: Implicit,
    sramecc: Implicit,
    features: &[],
    wave_sizes: WaveSizes::WAVE32,
    ..GFX12
};

const fn v1(processor: &'static str) -> GenericMember {
    GenericMember {
        processor,
        since_version: 1,
    }
}

/// The table. Order: spec table order, generic targets last.
#[rustfmt::skip]
pub(crate) static PROCESSORS: &[Processor] = &[
    // Radeon HD 2000/3000 Series (R600)
    Processor { name: "r600", mach: EF_AMDGPU_MACH_R600_R600, ..R600 },
    Processor { name: "r630", mach: EF_AMDGPU_MACH_R600_R630, ..R600 },
    Processor { name: "rs880", mach: EF_AMDGPU_MACH_R600_RS880, ..R600 },
    Processor { name: "rv670", mach: EF_AMDGPU_MACH_R600_RV670, ..R600 },
    // Radeon HD 4000 Series (R700)
    Processor { name: "rv710", mach: EF_AMDGPU_MACH_R600_RV710, generation: Generation::R700, ..R600 },
    Processor { name: "rv730", mach: EF_AMDGPU_MACH_R600_RV730, generation: Generation::R700, ..R600 },
    Processor { name: "rv770", mach: EF_AMDGPU_MACH_R600_RV770, generation: Generation::R700, ..R600 },
    // Radeon HD 5000 Series (Evergreen)
    Processor { name: "cedar", mach: EF_AMDGPU_MACH_R600_CEDAR, generation: Generation::Evergreen, ..R600 },
    Processor { name: "cypress", mach: EF_AMDGPU_MACH_R600_CYPRESS, generation: Generation::Evergreen, ..R600 },
    Processor { name: "juniper", mach: EF_AMDGPU_MACH_R600_JUNIPER, generation: Generation::Evergreen, ..R600 },
    Processor { name: "redwood", mach: EF_AMDGPU_MACH_R600_REDWOOD, generation: Generation::Evergreen, ..R600 },
    Processor { name: "sumo", mach: EF_AMDGPU_MACH_R600_SUMO, generation: Generation::Evergreen, ..R600 },
    // Radeon HD 6000 Series (Northern Islands)
    Processor { name: "barts", mach: EF_AMDGPU_MACH_R600_BARTS, generation: Generation::NorthernIslands, ..R600 },
    Processor { name: "caicos", mach: EF_AMDGPU_MACH_R600_CAICOS, generation: Generation::NorthernIslands, ..R600 },
    Processor { name: "cayman", mach: EF_AMDGPU_MACH_R600_CAYMAN, generation: Generation::NorthernIslands, ..R600 },
    Processor { name: "turks", mach: EF_AMDGPU_MACH_R600_TURKS, generation: Generation::NorthernIslands, ..R600 },
    // GCN GFX6 (Southern Islands (SI))
    Processor { name: "gfx600", aliases: &["tahiti"], mach: EF_AMDGPU_MACH_AMDGCN_GFX600, version: (6, 0, 0), ..GFX6 },
    Processor { name: "gfx601", aliases: &["pitcairn", "verde"], mach: EF_AMDGPU_MACH_AMDGCN_GFX601, version: (6, 0, 1), ..GFX6 },
    Processor { name: "gfx602", aliases: &["hainan", "oland"], mach: EF_AMDGPU_MACH_AMDGCN_GFX602, version: (6, 0, 2), ..GFX6 },
    // GCN GFX7 (Sea Islands (CI))
    Processor {
        name: "gfx700",
        aliases: &["kaveri"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX700,
        version: (7, 0, 0),
        apu: true,
        products: &[
            "A6-7000", "A6 Pro-7050B", "A8-7100", "A8 Pro-7150B", "A10-7300", "A10 Pro-7350B",
            "FX-7500", "A8-7200P", "A10-7400P", "FX-7600P",
        ],
        ..GFX7
    },
    Processor {
        name: "gfx701",
        aliases: &["hawaii"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX701,
        version: (7, 0, 1),
        products: &["FirePro W8100", "FirePro W9100", "FirePro S9150", "FirePro S9170"],
        ..GFX7
    },
    Processor {
        name: "gfx702",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX702,
        version: (7, 0, 2),
        products: &["Radeon R9 290", "Radeon R9 290x", "Radeon R390", "Radeon R390x"],
        ..GFX7
    },
    Processor {
        name: "gfx703",
        aliases: &["kabini", "mullins"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX703,
        version: (7, 0, 3),
        apu: true,
        products: &[
            "E1-2100", "E1-2200", "E1-2500", "E2-3000", "E2-3800", "A4-5000", "A4-5100", "A6-5200",
            "A4 Pro-3340B",
        ],
        ..GFX7
    },
    Processor {
        name: "gfx704",
        aliases: &["bonaire"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX704,
        version: (7, 0, 4),
        products: &["Radeon HD 7790", "Radeon HD 8770", "R7 260", "R7 260X"],
        ..GFX7
    },
    Processor { name: "gfx705", mach: EF_AMDGPU_MACH_AMDGCN_GFX705, version: (7, 0, 5), apu: true, ..GFX7 },
    // GCN GFX8 (Volcanic Islands (VI))
    Processor {
        name: "gfx801",
        aliases: &["carrizo"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX801,
        version: (8, 0, 1),
        apu: true,
        xnack: Supported,
        features: XNACK,
        products: &[
            "A6-8500P", "Pro A6-8500B", "A8-8600P", "Pro A8-8600B", "FX-8800P", "Pro A12-8800B",
            "A10-8700P", "Pro A10-8700B", "A10-8780P", "A10-9600P", "A10-9630P", "A12-9700P",
            "A12-9730P", "FX-9800P", "FX-9830P", "E2-9010", "A6-9210", "A9-9410",
        ],
        ..GFX8
    },
    Processor {
        name: "gfx802",
        aliases: &["iceland", "tonga"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX802,
        version: (8, 0, 2),
        products: &["Radeon R9 285", "Radeon R9 380", "Radeon R9 385"],
        ..GFX8
    },
    Processor {
        name: "gfx803",
        aliases: &["fiji", "polaris10", "polaris11"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX803,
        version: (8, 0, 3),
        products: &[
            "Radeon R9 Nano", "Radeon R9 Fury", "Radeon R9 FuryX", "Radeon Pro Duo",
            "FirePro S9300x2", "Radeon Instinct MI8", "Radeon RX 470", "Radeon RX 480",
            "Radeon Instinct MI6", "Radeon RX 460",
        ],
        ..GFX8
    },
    Processor {
        name: "gfx805",
        aliases: &["tongapro"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX805,
        version: (8, 0, 5),
        products: &["FirePro S7150", "FirePro S7100", "FirePro W7100", "Mobile FirePro M7170"],
        ..GFX8
    },
    Processor {
        name: "gfx810",
        aliases: &["stoney"],
        mach: EF_AMDGPU_MACH_AMDGCN_GFX810,
        version: (8, 1, 0),
        apu: true,
        xnack: Supported,
        features: XNACK,
        ..GFX8
    },
    // GCN GFX9 (Vega)
    Processor {
        name: "gfx900",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX900,
        version: (9, 0, 0),
        products: &[
            "Radeon Vega Frontier Edition", "Radeon RX Vega 56", "Radeon RX Vega 64",
            "Radeon RX Vega 64 Liquid", "Radeon Instinct MI25",
        ],
        ..GFX9
    },
    Processor {
        name: "gfx902",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX902,
        version: (9, 0, 2),
        apu: true,
        products: &["Ryzen 3 2200G", "Ryzen 5 2400G"],
        ..GFX9
    },
    Processor { name: "gfx904", mach: EF_AMDGPU_MACH_AMDGCN_GFX904, version: (9, 0, 4), ..GFX9 },
    Processor {
        name: "gfx906",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX906,
        version: (9, 0, 6),
        sramecc: Supported,
        features: SRAMECC_XNACK,
        products: &["Radeon Instinct MI50", "Radeon Instinct MI60", "Radeon VII", "Radeon Pro VII"],
        ..GFX9
    },
    Processor {
        name: "gfx908",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX908,
        version: (9, 0, 8),
        sramecc: Supported,
        features: SRAMECC_XNACK,
        products: &["AMD Instinct MI100 Accelerator"],
        ..GFX9
    },
    Processor { name: "gfx909", mach: EF_AMDGPU_MACH_AMDGCN_GFX909, version: (9, 0, 9), apu: true, ..GFX9 },
    Processor {
        name: "gfx90a",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX90A,
        version: (9, 0, 10),
        sramecc: Supported,
        features: GFX90A_FEATURES,
        packed_work_item_ids: true,
        products: &[
            "AMD Instinct MI210 Accelerator", "AMD Instinct MI250 Accelerator",
            "AMD Instinct MI250X Accelerator",
        ],
        ..GFX9
    },
    Processor {
        name: "gfx90c",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX90C,
        version: (9, 0, 12),
        apu: true,
        products: &[
            "Ryzen 7 4700G", "Ryzen 7 4700GE", "Ryzen 5 4600G", "Ryzen 5 4600GE", "Ryzen 3 4300G",
            "Ryzen 3 4300GE", "Ryzen Pro 4000G", "Ryzen 7 Pro 4700G", "Ryzen 7 Pro 4750GE",
            "Ryzen 5 Pro 4650G", "Ryzen 5 Pro 4650GE", "Ryzen 3 Pro 4350G", "Ryzen 3 Pro 4350GE",
        ],
        ..GFX9
    },
    Processor { name: "gfx940", mach: EF_AMDGPU_MACH_AMDGCN_GFX940, version: (9, 4, 0), legacy: true, ..GFX94 },
    Processor { name: "gfx941", mach: EF_AMDGPU_MACH_AMDGCN_GFX941, version: (9, 4, 1), legacy: true, ..GFX94 },
    Processor { name: "gfx942", mach: EF_AMDGPU_MACH_AMDGCN_GFX942, version: (9, 4, 2), ..GFX94 },
    Processor { name: "gfx950", mach: EF_AMDGPU_MACH_AMDGCN_GFX950, version: (9, 5, 0), ..GFX94 },
    // GCN GFX10.1 (RDNA 1)
    Processor {
        name: "gfx1010",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX1010,
        version: (10, 1, 0),
        products: &["Radeon RX 5700", "Radeon RX 5700 XT", "Radeon Pro 5600 XT", "Radeon Pro 5600M"],
        ..GFX101
    },
    Processor {
        name: "gfx1011",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX1011,
        version: (10, 1, 1),
        products: &["Radeon Pro V520"],
        ..GFX101
    },
    Processor {
        name: "gfx1012",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX1012,
        version: (10, 1, 2),
        products: &["Radeon RX 5500", "Radeon RX 5500 XT"],
        ..GFX101
    },
    Processor { name: "gfx1013", mach: EF_AMDGPU_MACH_AMDGCN_GFX1013, version: (10, 1, 3), apu: true, ..GFX101 },
    // GCN GFX10.3 (RDNA 2)
    Processor {
        name: "gfx1030",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX1030,
        version: (10, 3, 0),
        products: &["Radeon RX 6800", "Radeon RX 6800 XT", "Radeon RX 6900 XT"],
        ..GFX103
    },
    Processor {
        name: "gfx1031",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX1031,
        version: (10, 3, 1),
        products: &["Radeon RX 6700 XT"],
        ..GFX103
    },
    Processor { name: "gfx1032", mach: EF_AMDGPU_MACH_AMDGCN_GFX1032, version: (10, 3, 2), ..GFX103 },
    Processor { name: "gfx1033", mach: EF_AMDGPU_MACH_AMDGCN_GFX1033, version: (10, 3, 3), apu: true, ..GFX103 },
    Processor { name: "gfx1034", mach: EF_AMDGPU_MACH_AMDGCN_GFX1034, version: (10, 3, 4), ..GFX103 },
    Processor { name: "gfx1035", mach: EF_AMDGPU_MACH_AMDGCN_GFX1035, version: (10, 3, 5), apu: true, ..GFX103 },
    Processor { name: "gfx1036", mach: EF_AMDGPU_MACH_AMDGCN_GFX1036, version: (10, 3, 6), apu: true, ..GFX103 },
    // GCN GFX11 (RDNA 3)
    Processor { name: "gfx1100", mach: EF_AMDGPU_MACH_AMDGCN_GFX1100, version: (11, 0, 0), ..GFX11 },
    Processor { name: "gfx1101", mach: EF_AMDGPU_MACH_AMDGCN_GFX1101, version: (11, 0, 1), ..GFX11 },
    Processor { name: "gfx1102", mach: EF_AMDGPU_MACH_AMDGCN_GFX1102, version: (11, 0, 2), ..GFX11 },
    Processor { name: "gfx1103", mach: EF_AMDGPU_MACH_AMDGCN_GFX1103, version: (11, 0, 3), apu: true, ..GFX11 },
    Processor { name: "gfx1150", mach: EF_AMDGPU_MACH_AMDGCN_GFX1150, version: (11, 5, 0), apu: true, ..GFX11 },
    Processor { name: "gfx1151", mach: EF_AMDGPU_MACH_AMDGCN_GFX1151, version: (11, 5, 1), apu: true, ..GFX11 },
    Processor { name: "gfx1152", mach: EF_AMDGPU_MACH_AMDGCN_GFX1152, version: (11, 5, 2), apu: true, ..GFX11 },
    // Not in the spec copy: LLVM 22 (APU assumed like the other GFX11.5 parts).
    Processor { name: "gfx1153", mach: EF_AMDGPU_MACH_AMDGCN_GFX1153, version: (11, 5, 3), apu: true, ..GFX11 },
    // GCN GFX12 (RDNA 4)
    Processor { name: "gfx1200", mach: EF_AMDGPU_MACH_AMDGCN_GFX1200, version: (12, 0, 0), ..GFX12 },
    Processor { name: "gfx1201", mach: EF_AMDGPU_MACH_AMDGCN_GFX1201, version: (12, 0, 1), ..GFX12 },
    // GFX12.5: LLVM 22 (the spec copy lists 0x049 as gfx1210 with wavefrontsize64;
    // clang-22 rejects -mwavefrontsize64 and any xnack/sramecc in the target ID
    // for gfx1250/gfx1251, and writes XNACK_ANY|SRAMECC_ANY in e_flags).
    Processor { name: "gfx1250", mach: EF_AMDGPU_MACH_AMDGCN_GFX1250, version: (12, 5, 0), ..GFX125 },
    Processor { name: "gfx1251", mach: EF_AMDGPU_MACH_AMDGCN_GFX1251, version: (12, 5, 1), ..GFX125 },
    // Generic processors.
    Processor {
        name: "gfx9-generic",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX9_GENERIC,
        version: (9, 0, 0),
        generic: Some(GenericTarget {
            version: 1,
            members: &[v1("gfx900"), v1("gfx902"), v1("gfx904"), v1("gfx906"), v1("gfx909"), v1("gfx90c")],
        }),
        ..GFX9
    },
    Processor {
        name: "gfx9-4-generic",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX9_4_GENERIC,
        version: (9, 4, 0),
        features: SRAMECC_XNACK,
        generic: Some(GenericTarget {
            version: 1,
            members: &[v1("gfx940"), v1("gfx941"), v1("gfx942"), v1("gfx950")],
        }),
        ..GFX94
    },
    Processor {
        name: "gfx10-1-generic",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX10_1_GENERIC,
        version: (10, 1, 0),
        generic: Some(GenericTarget {
            version: 1,
            members: &[v1("gfx1010"), v1("gfx1011"), v1("gfx1012"), v1("gfx1013")],
        }),
        ..GFX101
    },
    Processor {
        name: "gfx10-3-generic",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX10_3_GENERIC,
        version: (10, 3, 0),
        generic: Some(GenericTarget {
            version: 1,
            members: &[
                v1("gfx1030"), v1("gfx1031"), v1("gfx1032"), v1("gfx1033"), v1("gfx1034"),
                v1("gfx1035"), v1("gfx1036"),
            ],
        }),
        ..GFX103
    },
    Processor {
        name: "gfx11-generic",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC,
        version: (11, 0, 0),
        generic: Some(GenericTarget {
            version: 1,
            members: &[
                v1("gfx1100"), v1("gfx1101"), v1("gfx1102"), v1("gfx1103"), v1("gfx1150"),
                v1("gfx1151"), v1("gfx1152"), v1("gfx1153"),
            ],
        }),
        ..GFX11
    },
    Processor {
        name: "gfx12-generic",
        mach: EF_AMDGPU_MACH_AMDGCN_GFX12_GENERIC,
        version: (12, 0, 0),
        generic: Some(GenericTarget {
            version: 1,
            members: &[v1("gfx1200"), v1("gfx1201")],
        }),
        ..GFX12
    },
];

/// Products of the ROCm "AMD GPU specifications" tables (name, LLVM target
/// name), for the processors whose AMDGPUUsage rows list no or few products.
/// Source: ROCm documentation, `docs/reference/gpu-specs.rst`.
pub(crate) static ROCM_PRODUCTS: &[(&str, &str)] = &[
    ("AMD Instinct MI355X", "gfx950"),
    ("AMD Instinct MI350X", "gfx950"),
    ("AMD Instinct MI350P", "gfx950"),
    ("AMD Instinct MI325X", "gfx942"),
    ("AMD Instinct MI300X", "gfx942"),
    ("AMD Instinct MI300A", "gfx942"),
    ("AMD Instinct MI250X", "gfx90a"),
    ("AMD Instinct MI250", "gfx90a"),
    ("AMD Instinct MI210", "gfx90a"),
    ("AMD Instinct MI100", "gfx908"),
    ("AMD Instinct MI60", "gfx906"),
    ("AMD Instinct MI50", "gfx906"),
    ("AMD Instinct MI25", "gfx900"),
    ("AMD Instinct MI8", "gfx803"),
    ("AMD Instinct MI6", "gfx803"),
    ("Radeon AI PRO R9700S", "gfx1201"),
    ("Radeon AI PRO R9700", "gfx1201"),
    ("Radeon AI PRO R9600D", "gfx1201"),
    ("Radeon AI PRO R9600", "gfx1201"),
    ("Radeon PRO V710", "gfx1101"),
    ("Radeon PRO W7900 Dual Slot", "gfx1100"),
    ("Radeon PRO W7900", "gfx1100"),
    ("Radeon PRO W7800 48GB", "gfx1100"),
    ("Radeon PRO W7800", "gfx1100"),
    ("Radeon PRO W7700", "gfx1101"),
    ("Radeon RX 9070 XT", "gfx1201"),
    ("Radeon RX 9070 GRE", "gfx1201"),
    ("Radeon RX 9070", "gfx1201"),
    ("Radeon RX 9060 XT LP", "gfx1200"),
    ("Radeon RX 9060 XT", "gfx1200"),
    ("Radeon RX 9060", "gfx1200"),
    ("Radeon RX 9050", "gfx1200"),
    ("Radeon RX 7900 XTX", "gfx1100"),
    ("Radeon RX 7900 XT", "gfx1100"),
    ("Radeon RX 7900 GRE", "gfx1100"),
    ("Radeon RX 7800 XT", "gfx1101"),
    ("Radeon RX 7700 XT", "gfx1101"),
    ("Radeon RX 7700", "gfx1101"),
    ("Radeon RX 7600", "gfx1102"),
    ("Radeon 8060S", "gfx1151"),
    ("Radeon 8050S", "gfx1151"),
    ("Radeon 8040S", "gfx1151"),
    ("AMD Ryzen AI Max+ 395", "gfx1151"),
    ("Radeon 890M", "gfx1150"),
    ("Radeon 880M", "gfx1150"),
    ("AMD Ryzen AI 9 HX 370", "gfx1150"),
    ("Radeon 860M", "gfx1152"),
    ("Radeon 840M", "gfx1152"),
    ("Radeon 820M", "gfx1152"),
    ("Radeon 780M", "gfx1103"),
    ("Radeon 760M", "gfx1103"),
    ("Radeon 740M", "gfx1103"),
    ("AMD Ryzen 7 7840U", "gfx1103"),
];
