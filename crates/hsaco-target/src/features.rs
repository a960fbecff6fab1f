//! Target features (AMDGPUUsage "Target Features") and their settings.

use core::fmt;

/// A target feature named in AMDGPUUsage (the "Target Features" table and the
/// "Target Features Supported" column of the processor table).
///
/// Only [`TargetFeature::Sramecc`] and [`TargetFeature::Xnack`] can appear in a
/// target ID (they are controlled by `-mcpu`); the others are controlled by
/// separate `-m[no-]<feature>` options and default to off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetFeature {
    /// `cumode`: CU wavefront execution mode instead of native WGP mode (GFX10+).
    Cumode,
    /// `dynamic-vgpr`: the "Dynamic VGPR" hardware mode (GFX12).
    DynamicVgpr,
    /// `kernarg-preload`: kernel arguments preloaded into SGPRs (gfx90a, gfx94x, gfx950).
    KernargPreload,
    /// `sramecc`: code for a process with a matching SRAMECC setting.
    Sramecc,
    /// `tgsplit`: work-groups launched in threadgroup split mode.
    Tgsplit,
    /// `wavefrontsize64`: wavefront size 64 on processors whose native size is 32.
    Wavefrontsize64,
    /// `xnack`: code for a process with a matching XNACK replay setting.
    Xnack,
}

impl TargetFeature {
    /// Every feature, in alphabetical (canonical) order.
    pub const ALL: [TargetFeature; 7] = [
        TargetFeature::Cumode,
        TargetFeature::DynamicVgpr,
        TargetFeature::KernargPreload,
        TargetFeature::Sramecc,
        TargetFeature::Tgsplit,
        TargetFeature::Wavefrontsize64,
        TargetFeature::Xnack,
    ];

    /// The two features a target ID can carry, in canonical (alphabetical) order.
    pub const TARGET_ID: [TargetFeature; 2] = [TargetFeature::Sramecc, TargetFeature::Xnack];

    /// The feature name as written in target IDs and `-m` options.
    pub fn name(self) -> &'static str {
        match self {
            TargetFeature::Cumode => "cumode",
            TargetFeature::DynamicVgpr => "dynamic-vgpr",
            TargetFeature::KernargPreload => "kernarg-preload",
            TargetFeature::Sramecc => "sramecc",
            TargetFeature::Tgsplit => "tgsplit",
            TargetFeature::Wavefrontsize64 => "wavefrontsize64",
            TargetFeature::Xnack => "xnack",
        }
    }

    /// Look a feature up by name. Also accepts `sram-ecc`, the spelling of
    /// code object V2/V3 era target strings (`gfx906+xnack+sram-ecc`).
    pub fn from_name(name: &str) -> Option<TargetFeature> {
        if name == "sram-ecc" {
            return Some(TargetFeature::Sramecc);
        }
        TargetFeature::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the feature can be given in a target ID (`-mcpu=gfx90a:xnack+`).
    pub fn in_target_id(self) -> bool {
        matches!(self, TargetFeature::Sramecc | TargetFeature::Xnack)
    }
}

impl fmt::Display for TargetFeature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The setting of a target-ID feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FeatureSetting {
    /// Not specified: the code runs with either setting (code object V4+).
    /// Code object V2/V3 cannot represent it and treat it as [`FeatureSetting::On`].
    Any,
    /// `feature-`: the code requires the feature disabled.
    Off,
    /// `feature+`: the code requires the feature enabled.
    On,
}

impl FeatureSetting {
    /// Every setting.
    pub const ALL: [FeatureSetting; 3] =
        [FeatureSetting::Any, FeatureSetting::Off, FeatureSetting::On];

    /// The target ID suffix: `+`, `-`, or none for [`FeatureSetting::Any`].
    pub fn suffix(self) -> &'static str {
        match self {
            FeatureSetting::Any => "",
            FeatureSetting::Off => "-",
            FeatureSetting::On => "+",
        }
    }

    /// The lower-case word used in messages: `any`, `off`, `on`.
    pub fn word(self) -> &'static str {
        match self {
            FeatureSetting::Any => "any",
            FeatureSetting::Off => "off",
            FeatureSetting::On => "on",
        }
    }
}

impl fmt::Display for FeatureSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// How a processor supports one of the target-ID features (`xnack`, `sramecc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSupport {
    /// The processor does not have the feature; `e_flags` record "unsupported".
    Unsupported,
    /// The feature can be set in a target ID to any/off/on.
    Supported,
    /// The feature is always present and cannot be set in a target ID, but
    /// `e_flags` record it as "any" (gfx1250, gfx1251: observed with clang-22,
    /// which rejects `gfx1250:xnack+` and writes `EF_AMDGPU_FEATURE_XNACK_ANY_V4`).
    Implicit,
}
