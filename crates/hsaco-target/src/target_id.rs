//! Target IDs (AMDGPUUsage "Target ID", "Code Object V2 to V3 Target ID"):
//! parsing and printing every historical spelling.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;

use crate::features::{FeatureSetting, FeatureSupport, TargetFeature};
use crate::processor::{Arch, Processor};

/// A processor plus the settings of its target-ID features (`xnack`, `sramecc`).
///
/// Invariant: a feature has a setting exactly when the processor supports it
/// in a target ID ([`FeatureSupport::Supported`]); a new `TargetId` has every
/// supported feature at [`FeatureSetting::Any`].
///
/// The canonical text form (its `Display`) lists the features that are not
/// `Any` in alphabetical order, as LLVM prints them: `gfx90a:sramecc-:xnack+`.
///
/// A generic target ID decoded from V6 `e_flags` also records its generic
/// version, which text forms do not carry; equality includes it (compare
/// `to_string()` to ignore it).
#[derive(Clone, Copy, Debug)]
pub struct TargetId {
    /// The processor (never an alias: aliases are resolved when parsing).
    pub processor: &'static Processor,
    sramecc: Option<FeatureSetting>,
    xnack: Option<FeatureSetting>,
    generic_version: Option<u8>,
}

impl PartialEq for TargetId {
    fn eq(&self, other: &Self) -> bool {
        self.processor.name == other.processor.name
            && self.sramecc == other.sramecc
            && self.xnack == other.xnack
            && self.generic_version == other.generic_version
    }
}

impl Eq for TargetId {}

impl Hash for TargetId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.processor.name.hash(state);
        self.sramecc.hash(state);
        self.xnack.hash(state);
        self.generic_version.hash(state);
    }
}

/// The text forms a [`TargetId`] can be printed in ([`TargetId::format`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetIdForm {
    /// `gfx90a:sramecc-:xnack+` (code object V4+; `Any` features omitted).
    Canonical,
    /// `amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+`, as in the `amdhsa.target`
    /// metadata and `.amdgcn_target` of code object V4+.
    Full,
    /// `gfx906+sramecc+xnack` (code object V2/V3 and their bundle entry IDs):
    /// a feature is present when On or Any, omitted when Off.
    V2V3,
    /// `amdgcn-amd-amdhsa--gfx906+sramecc+xnack`, the V3 `.amdgcn_target` form.
    V2V3Full,
}

impl TargetIdForm {
    /// Every form.
    pub const ALL: [TargetIdForm; 4] = [
        TargetIdForm::Canonical,
        TargetIdForm::Full,
        TargetIdForm::V2V3,
        TargetIdForm::V2V3Full,
    ];
}

/// Why a target ID string or feature setting was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetIdError {
    /// The string (or its processor part) is empty.
    Empty,
    /// No processor or alternative name matches.
    UnknownProcessor(String),
    /// Not a target feature name.
    UnknownFeature(String),
    /// A feature that exists but cannot appear in a target ID (`cumode`).
    NotATargetIdFeature(TargetFeature),
    /// The processor does not support the feature in a target ID.
    UnsupportedFeature {
        /// Canonical processor name.
        processor: &'static str,
        /// The feature.
        feature: TargetFeature,
    },
    /// `xnack` without `+` or `-` in the `:` syntax.
    MissingSetting(String),
    /// A feature given twice.
    DuplicateFeature(TargetFeature),
    /// Both `:` and `+` feature syntax in one target ID.
    MixedSyntax,
    /// A target triple prefix that cannot be understood.
    BadTriple(String),
    /// The triple's architecture is not the processor's.
    ArchMismatch {
        /// Architecture of the triple.
        triple: Arch,
        /// Canonical processor name.
        processor: &'static str,
    },
    /// A generic version given for a processor that is not generic, or 0.
    BadGenericVersion {
        /// Canonical processor name.
        processor: &'static str,
        /// The version given.
        version: u8,
    },
}

impl fmt::Display for TargetIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetIdError::Empty => f.write_str("empty target ID"),
            TargetIdError::UnknownProcessor(p) => write!(f, "unknown AMDGPU processor `{p}`"),
            TargetIdError::UnknownFeature(x) => write!(f, "unknown target feature `{x}`"),
            TargetIdError::NotATargetIdFeature(x) => {
                write!(
                    f,
                    "target feature `{x}` cannot be given in a target ID (use -m[no-]{x})"
                )
            }
            TargetIdError::UnsupportedFeature { processor, feature } => {
                write!(
                    f,
                    "processor `{processor}` does not support target feature `{feature}`"
                )
            }
            TargetIdError::MissingSetting(x) => {
                write!(f, "target feature `{x}` needs a `+` or `-` suffix")
            }
            TargetIdError::DuplicateFeature(x) => write!(f, "target feature `{x}` given twice"),
            TargetIdError::MixedSyntax => {
                f.write_str("target ID mixes `:feature+` and `+feature` syntax")
            }
            TargetIdError::BadTriple(s) => write!(f, "cannot parse target triple in `{s}`"),
            TargetIdError::ArchMismatch { triple, processor } => write!(
                f,
                "processor `{processor}` does not belong to the `{}` architecture",
                triple.name()
            ),
            TargetIdError::BadGenericVersion { processor, version } => write!(
                f,
                "generic version {version} is not valid for `{processor}` (only generic targets \
                 have one, from 1 to 255)"
            ),
        }
    }
}

impl std::error::Error for TargetIdError {}

/// A target ID string with its optional offload kind and triple, as returned
/// by [`TargetId::parse_full`]: `hipv4-amdgcn-amd-amdhsa--gfx906:xnack-`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullTargetId {
    /// Offload kind of a bundle entry ID (`hipv4`, `hip`, `openmp`), if any.
    pub offload_kind: Option<String>,
    /// The target triple (`amdgcn-amd-amdhsa-` with an empty environment,
    /// `amdgcn-amd-amdhsa`), if any.
    pub triple: Option<String>,
    /// The target ID.
    pub target: TargetId,
}

impl TargetId {
    /// A target ID for `processor` with every supported feature at `Any`.
    pub fn new(processor: &'static Processor) -> TargetId {
        let any =
            |s: FeatureSupport| (s == FeatureSupport::Supported).then_some(FeatureSetting::Any);
        TargetId {
            processor,
            sramecc: any(processor.sramecc),
            xnack: any(processor.xnack),
            generic_version: None,
        }
    }

    /// The setting of a target-ID feature; `None` when the processor does not
    /// support it in a target ID.
    pub fn setting(&self, feature: TargetFeature) -> Option<FeatureSetting> {
        match feature {
            TargetFeature::Sramecc => self.sramecc,
            TargetFeature::Xnack => self.xnack,
            _ => None,
        }
    }

    /// `xnack` setting, `None` when unsupported.
    pub fn xnack(&self) -> Option<FeatureSetting> {
        self.xnack
    }

    /// `sramecc` setting, `None` when unsupported.
    pub fn sramecc(&self) -> Option<FeatureSetting> {
        self.sramecc
    }

    /// Change a feature setting; fails for features the processor does not
    /// support in a target ID.
    pub fn set(
        &mut self,
        feature: TargetFeature,
        setting: FeatureSetting,
    ) -> Result<(), TargetIdError> {
        if !feature.in_target_id() {
            return Err(TargetIdError::NotATargetIdFeature(feature));
        }
        let slot = match feature {
            TargetFeature::Sramecc => &mut self.sramecc,
            _ => &mut self.xnack,
        };
        match slot {
            Some(s) => {
                *s = setting;
                Ok(())
            }
            None => Err(TargetIdError::UnsupportedFeature {
                processor: self.processor.name,
                feature,
            }),
        }
    }

    /// [`TargetId::set`] by value.
    pub fn with(
        mut self,
        feature: TargetFeature,
        setting: FeatureSetting,
    ) -> Result<TargetId, TargetIdError> {
        self.set(feature, setting)?;
        Ok(self)
    }

    /// The supported target-ID features with their settings, canonical order.
    pub fn features(&self) -> impl Iterator<Item = (TargetFeature, FeatureSetting)> + '_ {
        TargetFeature::TARGET_ID
            .into_iter()
            .filter_map(|f| self.setting(f).map(|s| (f, s)))
    }

    /// The generic code object version recorded with this target ID
    /// (`EF_AMDGPU_GENERIC_VERSION` of a V6 code object), if any.
    pub fn generic_version(&self) -> Option<u8> {
        self.generic_version
    }

    /// The generic version written by [`TargetId::to_e_flags`] for V6: the
    /// recorded one, else the one clang-22 writes, 0 for non-generic targets.
    pub fn effective_generic_version(&self) -> u8 {
        self.generic_version
            .unwrap_or_else(|| self.processor.generic_version())
    }

    /// Record a generic version (1..=255, generic targets only).
    pub fn with_generic_version(mut self, version: u8) -> Result<TargetId, TargetIdError> {
        if !self.processor.is_generic() || version == 0 {
            return Err(TargetIdError::BadGenericVersion {
                processor: self.processor.name,
                version,
            });
        }
        self.generic_version = Some(version);
        Ok(self)
    }

    /// Parse any historical form (the prefix is checked and dropped):
    /// `gfx906`, `gfx906:sramecc+:xnack-`, `gfx902+xnack`, `tahiti`,
    /// `amdgcn-amd-amdhsa--gfx90a:xnack-`, `amdgcn-amd-amdhsa-gfx906`,
    /// `hipv4-amdgcn-amd-amdhsa--gfx906`.
    ///
    /// A target ID in the `+feature` syntax is read as code object V2/V3
    /// style: listed features are On, supported features not listed are Off
    /// (use [`TargetId::parse_v2_v3`] to read a plain `gfx906` that way too).
    pub fn parse(s: &str) -> Result<TargetId, TargetIdError> {
        TargetId::parse_full(s).map(|f| f.target)
    }

    /// Parse a target ID written in the code object V2/V3 form
    /// (`<processor> ("+" <feature>)*`): listed features are On, other
    /// supported features Off. Also accepts a triple or bundle prefix.
    pub fn parse_v2_v3(s: &str) -> Result<TargetId, TargetIdError> {
        let (kind, triple, id) = split_prefix(s)?;
        let _ = kind;
        let target = parse_bare(id, true)?;
        check_arch(triple, target.processor)?;
        Ok(target)
    }

    /// Parse like [`TargetId::parse`] and also return the offload kind and
    /// triple prefix, if present.
    pub fn parse_full(s: &str) -> Result<FullTargetId, TargetIdError> {
        let (offload_kind, triple, id) = split_prefix(s)?;
        let target = parse_bare(id, false)?;
        check_arch(triple, target.processor)?;
        Ok(FullTargetId {
            offload_kind: offload_kind.map(str::to_owned),
            triple: triple.map(str::to_owned),
            target,
        })
    }

    /// The target triple used by [`TargetIdForm::Full`]: `amdgcn-amd-amdhsa-`
    /// (with its empty environment) or `r600-amd--`.
    pub fn triple(&self) -> &'static str {
        match self.processor.arch {
            Arch::Amdgcn => "amdgcn-amd-amdhsa-",
            Arch::R600 => "r600-amd--",
        }
    }

    /// Print in one of the [`TargetIdForm`]s.
    pub fn format(&self, form: TargetIdForm) -> String {
        let mut s = String::new();
        if matches!(form, TargetIdForm::Full | TargetIdForm::V2V3Full) {
            s.push_str(self.triple());
            s.push('-');
        }
        s.push_str(self.processor.name);
        for (feature, setting) in self.features() {
            match form {
                TargetIdForm::Canonical | TargetIdForm::Full => {
                    if setting != FeatureSetting::Any {
                        s.push(':');
                        s.push_str(feature.name());
                        s.push_str(setting.suffix());
                    }
                }
                TargetIdForm::V2V3 | TargetIdForm::V2V3Full => {
                    if setting != FeatureSetting::Off {
                        s.push('+');
                        s.push_str(feature.name());
                    }
                }
            }
        }
        s
    }

    /// Print like [`TargetId::format`], with the OS of the triple (in the `Full`
    /// forms) taken from `os` rather than `amdhsa`: `amdgcn-amd-amdpal--gfx1100`,
    /// `amdgcn-amd-mesa3d--gfx900`, `r600-amd---cypress`. The canonical forms have
    /// no triple and are printed as they are.
    pub fn format_for_os(&self, form: TargetIdForm, os: crate::TargetOs) -> String {
        let s = self.format(form);
        if !matches!(form, TargetIdForm::Full | TargetIdForm::V2V3Full) {
            return s;
        }
        let rest = &s[self.triple().len()..];
        format!("{}-amd-{}-{rest}", self.processor.arch.name(), os.name())
    }

    /// An offload bundle entry ID: `hipv4-amdgcn-amd-amdhsa--gfx906:xnack-`
    /// (`kind` is e.g. `hipv4`, `hip`, `openmp`).
    pub fn bundle_entry_id(&self, kind: &str) -> String {
        format!("{kind}-{}", self.format(TargetIdForm::Full))
    }

    /// The target ID of a code object V2 `NT_AMD_HSA_ISA_VERSION` note.
    /// Besides today's processors this knows the retired ISA versions of the
    /// oldest AMDGPUUsage: 8.0.0 (gfx800, now gfx802), 8.0.4 (gfx804, "same as
    /// gfx803"), 9.0.1 (gfx901, "same as gfx900 except XNACK is enabled") and
    /// 9.0.3 (gfx903, gfx902 with XNACK enabled).
    pub fn from_isa_version(major: u8, minor: u8, stepping: u8) -> Option<TargetId> {
        let (name, xnack_on) = match (major, minor, stepping) {
            (8, 0, 0) => ("gfx802", false),
            (8, 0, 4) => ("gfx803", false),
            (9, 0, 1) => ("gfx900", true),
            (9, 0, 3) => ("gfx902", true),
            _ => return Processor::by_version(major, minor, stepping).map(TargetId::new),
        };
        let target = TargetId::new(Processor::by_name(name)?);
        if xnack_on {
            target.with(TargetFeature::Xnack, FeatureSetting::On).ok()
        } else {
            Some(target)
        }
    }
}

impl fmt::Display for TargetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.processor.name)?;
        for (feature, setting) in self.features() {
            if setting != FeatureSetting::Any {
                write!(f, ":{}{}", feature.name(), setting.suffix())?;
            }
        }
        Ok(())
    }
}

impl FromStr for TargetId {
    type Err = TargetIdError;
    fn from_str(s: &str) -> Result<TargetId, TargetIdError> {
        TargetId::parse(s)
    }
}

fn check_arch(triple: Option<&str>, processor: &'static Processor) -> Result<(), TargetIdError> {
    let Some(triple) = triple else { return Ok(()) };
    let arch = if triple.starts_with("amdgcn") {
        Arch::Amdgcn
    } else {
        Arch::R600
    };
    if arch != processor.arch {
        return Err(TargetIdError::ArchMismatch {
            triple: arch,
            processor: processor.name,
        });
    }
    Ok(())
}

/// Split `[kind-]arch-vendor-os[-env]-id` into (kind, triple, id); a string
/// without an `amdgcn-`/`r600-` component is all id.
fn split_prefix(s: &str) -> Result<(Option<&str>, Option<&str>, &str), TargetIdError> {
    let s = s.trim();
    let Some(arch_at) = find_arch(s) else {
        return Ok((None, None, s));
    };
    // `arch_at` is 0 or preceded by '-'.
    let kind = s.get(..arch_at.saturating_sub(1)).filter(|k| !k.is_empty());
    let bad = || TargetIdError::BadTriple(s.to_owned());
    let after_arch = s[arch_at..].find('-').ok_or_else(bad)? + arch_at + 1;
    let vendor_end = s[after_arch..].find('-').ok_or_else(bad)? + after_arch;
    let os_start = vendor_end + 1;
    let os_end = s[os_start..].find('-').ok_or_else(bad)? + os_start;
    let rest = &s[os_end + 1..];
    if rest.is_empty() {
        return Err(TargetIdError::Empty);
    }
    if let Some(id) = rest.strip_prefix('-') {
        // Empty environment: `amdgcn-amd-amdhsa--gfx906`.
        return Ok((kind, Some(&s[arch_at..os_end + 1]), id));
    }
    // Either `arch-vendor-os-id` or `arch-vendor-os-env-id`.
    let proc_part = rest.split([':', '+']).next().unwrap_or(rest);
    if Processor::by_name(proc_part).is_some() {
        return Ok((kind, Some(&s[arch_at..os_end]), rest));
    }
    match rest.find('-') {
        Some(dash) if dash > 0 => {
            let env_end = os_end + 1 + dash;
            Ok((kind, Some(&s[arch_at..env_end]), &rest[dash + 1..]))
        }
        _ => Ok((kind, Some(&s[arch_at..os_end]), rest)),
    }
}

/// Byte offset of an `amdgcn-` or `r600-` component (at the start or after '-').
fn find_arch(s: &str) -> Option<usize> {
    let mut start = 0;
    loop {
        let part = &s[start..];
        if part.starts_with("amdgcn-") || part.starts_with("r600-") {
            return Some(start);
        }
        start += part.find('-')? + 1;
    }
}

fn parse_bare(id: &str, v2v3: bool) -> Result<TargetId, TargetIdError> {
    if id.is_empty() {
        return Err(TargetIdError::Empty);
    }
    let colon = id.contains(':');
    let plus = id.contains('+');
    let name_end = id.find([':', '+']).unwrap_or(id.len());
    let name = &id[..name_end];
    if name.is_empty() {
        return Err(TargetIdError::Empty);
    }
    let processor =
        Processor::by_name(name).ok_or_else(|| TargetIdError::UnknownProcessor(name.to_owned()))?;
    let mut target = TargetId::new(processor);
    if colon && plus && id[name_end..].starts_with('+') {
        return Err(TargetIdError::MixedSyntax);
    }
    let plus_syntax = v2v3 || (plus && !colon);
    if plus_syntax {
        if colon {
            return Err(TargetIdError::MixedSyntax);
        }
        // Code object V2/V3: listed = On, unlisted = Off.
        for f in TargetFeature::TARGET_ID {
            if target.setting(f).is_some() {
                target.set(f, FeatureSetting::Off)?;
            }
        }
        let mut seen = Vec::new();
        for item in id[name_end..].split('+').skip(1) {
            let feature = lookup_feature(processor, item)?;
            if seen.contains(&feature) {
                return Err(TargetIdError::DuplicateFeature(feature));
            }
            seen.push(feature);
            target.set(feature, FeatureSetting::On)?;
        }
        return Ok(target);
    }
    let mut seen = Vec::new();
    for item in id[name_end..].split(':').skip(1) {
        let (fname, setting) = if let Some(f) = item.strip_suffix('+') {
            (f, FeatureSetting::On)
        } else if let Some(f) = item.strip_suffix('-') {
            (f, FeatureSetting::Off)
        } else {
            // Report an unknown name before a missing sign.
            lookup_feature(processor, item)?;
            return Err(TargetIdError::MissingSetting(item.to_owned()));
        };
        let feature = lookup_feature(processor, fname)?;
        if seen.contains(&feature) {
            return Err(TargetIdError::DuplicateFeature(feature));
        }
        seen.push(feature);
        target.set(feature, setting)?;
    }
    Ok(target)
}

fn lookup_feature(
    processor: &'static Processor,
    name: &str,
) -> Result<TargetFeature, TargetIdError> {
    let feature = TargetFeature::from_name(name)
        .ok_or_else(|| TargetIdError::UnknownFeature(name.to_owned()))?;
    if !feature.in_target_id() {
        return Err(TargetIdError::NotATargetIdFeature(feature));
    }
    if processor.feature_support(feature) != FeatureSupport::Supported {
        return Err(TargetIdError::UnsupportedFeature {
            processor: processor.name,
            feature,
        });
    }
    Ok(feature)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TargetOs;

    /// The triples as clang-22 writes them in the `NT_AMD_HSA_ISA_NAME` note of
    /// objects built with `-target amdgcn-amd-amdpal` / `amdgcn-mesa-mesa3d`
    /// (`amdgcn-amd-amdpal--gfx1100`, `amdgcn-mesa-mesa3d--gfx1100`; the vendor
    /// is always `amd` in hsaco's form) and as the bundle IDs spell HSA ones.
    #[test]
    fn triple_os_comes_from_the_os_abi() {
        let t = TargetId::parse("gfx1100").unwrap();
        let full = |os| t.format_for_os(TargetIdForm::Full, os);
        assert_eq!(full(TargetOs::Amdhsa), "amdgcn-amd-amdhsa--gfx1100");
        assert_eq!(full(TargetOs::Amdpal), "amdgcn-amd-amdpal--gfx1100");
        assert_eq!(full(TargetOs::Mesa3d), "amdgcn-amd-mesa3d--gfx1100");
        assert_eq!(full(TargetOs::Amdhsa), t.format(TargetIdForm::Full));
        let x = TargetId::parse("gfx90a:xnack+").unwrap();
        assert_eq!(
            x.format_for_os(TargetIdForm::Full, TargetOs::Amdpal),
            "amdgcn-amd-amdpal--gfx90a:xnack+"
        );
        assert_eq!(
            x.format_for_os(TargetIdForm::Canonical, TargetOs::Amdpal),
            "gfx90a:xnack+"
        );
        let r = TargetId::parse("cypress").unwrap();
        assert_eq!(
            r.format_for_os(TargetIdForm::Full, TargetOs::Unknown),
            "r600-amd---cypress"
        );
        // what is printed parses back
        for (t, os) in [
            (t, TargetOs::Amdpal),
            (x, TargetOs::Mesa3d),
            (r, TargetOs::Unknown),
        ] {
            let full = t.format_for_os(TargetIdForm::Full, os);
            assert_eq!(TargetId::parse(&full).unwrap(), t, "{full}");
        }
        assert_eq!(TargetOs::from_elf_os_abi(64), TargetOs::Amdhsa);
        assert_eq!(TargetOs::from_elf_os_abi(65), TargetOs::Amdpal);
        assert_eq!(TargetOs::from_elf_os_abi(66), TargetOs::Mesa3d);
        assert_eq!(TargetOs::from_elf_os_abi(0), TargetOs::Unknown);
    }
}
