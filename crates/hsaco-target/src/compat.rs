//! "May a code object built for target T run on device D?"
//!
//! The rules, from AMDGPUUsage "Target Features", "Generic Processor
//! Versioning" and the processor tables:
//! 1. T's processor is D's processor (aliases resolved), or T is a generic
//!    target that lists D's processor and T's generic version is at least the
//!    version in which D's processor was added to it.
//! 2. For each of `xnack` and `sramecc`: T's setting `Any` runs with either
//!    device setting; `On`/`Off` must equal the device's setting. A device
//!    without the feature behaves as Off.

use core::fmt;

use crate::features::{FeatureSetting, TargetFeature};
use crate::target_id::TargetId;

/// One rule applied by [`can_run`], with the values it looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Code object and device have the same processor.
    SameProcessor {
        /// Canonical processor name.
        processor: &'static str,
    },
    /// The code object is generic and its family includes the device.
    GenericMember {
        /// Generic target of the code object.
        generic: &'static str,
        /// Device processor.
        device: &'static str,
        /// Generic version of the code object.
        code_version: u8,
        /// Version in which the device processor was added to the family.
        since: u8,
    },
    /// Different processors, and the code object is not generic.
    DifferentProcessor {
        /// Code object processor.
        code: &'static str,
        /// Device processor.
        device: &'static str,
    },
    /// The code object is generic, but its family does not include the device.
    NotGenericMember {
        /// Generic target of the code object.
        generic: &'static str,
        /// Device processor.
        device: &'static str,
    },
    /// The generic code object predates the device's addition to the family.
    GenericVersionTooOld {
        /// Generic target of the code object.
        generic: &'static str,
        /// Device processor.
        device: &'static str,
        /// Generic version of the code object.
        code_version: u8,
        /// Version in which the device processor was added to the family.
        since: u8,
    },
    /// The device was named by a generic target, which is not a device.
    DeviceIsGeneric {
        /// The generic target given as device.
        device: &'static str,
    },
    /// The code object runs with either setting of the feature.
    FeatureAny {
        /// `xnack` or `sramecc`.
        feature: TargetFeature,
    },
    /// The code object's required setting is the device's.
    FeatureMatches {
        /// `xnack` or `sramecc`.
        feature: TargetFeature,
        /// The common setting.
        setting: FeatureSetting,
    },
    /// The code object requires the other setting than the device has.
    FeatureMismatch {
        /// `xnack` or `sramecc`.
        feature: TargetFeature,
        /// Setting required by the code object.
        code: FeatureSetting,
        /// Setting of the device.
        device: FeatureSetting,
    },
    /// The code object requires a setting, and the device's setting is not
    /// known (the device target ID leaves it as Any).
    FeatureDeviceUnknown {
        /// `xnack` or `sramecc`.
        feature: TargetFeature,
        /// Setting required by the code object.
        code: FeatureSetting,
    },
}

impl Rule {
    /// The outcome of this rule alone.
    pub fn verdict(&self) -> Verdict {
        match self {
            Rule::SameProcessor { .. }
            | Rule::GenericMember { .. }
            | Rule::FeatureAny { .. }
            | Rule::FeatureMatches { .. } => Verdict::Compatible,
            Rule::FeatureDeviceUnknown { .. } => Verdict::DependsOnDevice,
            Rule::DifferentProcessor { .. }
            | Rule::NotGenericMember { .. }
            | Rule::GenericVersionTooOld { .. }
            | Rule::DeviceIsGeneric { .. }
            | Rule::FeatureMismatch { .. } => Verdict::Incompatible,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::SameProcessor { processor } => {
                write!(f, "code object and device are both {processor}")
            }
            Rule::GenericMember {
                generic,
                device,
                code_version,
                since,
            } => write!(
                f,
                "generic target {generic} (generic version {code_version}) supports {device} \
                 (added in generic version {since})"
            ),
            Rule::DifferentProcessor { code, device } => {
                write!(f, "code object is for {code}, device is {device}")
            }
            Rule::NotGenericMember { generic, device } => {
                write!(f, "generic target {generic} does not support {device}")
            }
            Rule::GenericVersionTooOld {
                generic,
                device,
                code_version,
                since,
            } => write!(
                f,
                "{device} was added to {generic} in generic version {since}, but the code object \
                 has generic version {code_version}"
            ),
            Rule::DeviceIsGeneric { device } => {
                write!(f, "{device} is a generic target, not a device")
            }
            Rule::FeatureAny { feature } => {
                write!(f, "code object runs with {feature} on or off")
            }
            Rule::FeatureMatches { feature, setting } => {
                write!(f, "code object and device both have {feature} {setting}")
            }
            Rule::FeatureMismatch {
                feature,
                code,
                device,
            } => write!(
                f,
                "code object requires {feature} {code}, device has {feature} {device}"
            ),
            Rule::FeatureDeviceUnknown { feature, code } => write!(
                f,
                "code object requires {feature} {code}; the device's {feature} setting is not known"
            ),
        }
    }
}

/// Overall outcome of [`can_run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// The code object can run on the device.
    Compatible,
    /// It can run only if the device has the required feature settings.
    DependsOnDevice,
    /// It cannot run on the device.
    Incompatible,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Compatible => "compatible",
            Verdict::DependsOnDevice => "compatible only if the device matches",
            Verdict::Incompatible => "incompatible",
        })
    }
}

/// The result of [`can_run`]: every rule applied, in order (processor rule
/// first, then `sramecc`, `xnack`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compatibility {
    /// The rules applied. Checking stops after a failed processor rule.
    pub rules: Vec<Rule>,
}

impl Compatibility {
    /// The worst verdict among the rules.
    pub fn verdict(&self) -> Verdict {
        self.rules
            .iter()
            .map(Rule::verdict)
            .max()
            .unwrap_or(Verdict::Compatible)
    }

    /// `true` when the verdict is [`Verdict::Compatible`].
    pub fn is_compatible(&self) -> bool {
        self.verdict() == Verdict::Compatible
    }

    /// The rule that decides the verdict: the first rule with the overall
    /// verdict (for a compatible pair, the processor rule).
    pub fn deciding_rule(&self) -> Option<&Rule> {
        let v = self.verdict();
        self.rules.iter().find(|r| r.verdict() == v)
    }
}

impl fmt::Display for Compatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.verdict())?;
        if let Some(rule) = self.deciding_rule() {
            write!(f, ": {rule}")?;
        }
        Ok(())
    }
}

/// May a code object built for `code` run on a device described by `device`?
///
/// ```
/// use hsaco_target::{can_run, TargetId, Verdict};
/// let code: TargetId = "gfx9-generic:xnack-".parse().unwrap();
/// let device: TargetId = "gfx906:sramecc+:xnack-".parse().unwrap();
/// let c = can_run(&code, &device);
/// assert_eq!(c.verdict(), Verdict::Compatible);
/// let device: TargetId = "gfx906:xnack+".parse().unwrap();
/// assert_eq!(
///     can_run(&code, &device).to_string(),
///     "incompatible: code object requires xnack off, device has xnack on"
/// );
/// ```
pub fn can_run(code: &TargetId, device: &TargetId) -> Compatibility {
    let mut rules = Vec::new();
    let cp = code.processor;
    let dp = device.processor;
    let processor_rule = if dp.is_generic() {
        Rule::DeviceIsGeneric { device: dp.name }
    } else if cp.name == dp.name {
        Rule::SameProcessor { processor: cp.name }
    } else if cp.is_generic() {
        let code_version = code.effective_generic_version();
        match cp.generic_member_since(dp) {
            None => Rule::NotGenericMember {
                generic: cp.name,
                device: dp.name,
            },
            Some(since) if code_version < since => Rule::GenericVersionTooOld {
                generic: cp.name,
                device: dp.name,
                code_version,
                since,
            },
            Some(since) => Rule::GenericMember {
                generic: cp.name,
                device: dp.name,
                code_version,
                since,
            },
        }
    } else {
        Rule::DifferentProcessor {
            code: cp.name,
            device: dp.name,
        }
    };
    let stop = processor_rule.verdict() == Verdict::Incompatible;
    rules.push(processor_rule);
    if stop {
        return Compatibility { rules };
    }
    for feature in TargetFeature::TARGET_ID {
        let Some(required) = code.setting(feature) else {
            continue;
        };
        // A device without the feature behaves as Off.
        let have = device.setting(feature).unwrap_or(FeatureSetting::Off);
        rules.push(match (required, have) {
            (FeatureSetting::Any, _) => Rule::FeatureAny { feature },
            (code, FeatureSetting::Any) => Rule::FeatureDeviceUnknown { feature, code },
            (code, device) if code == device => Rule::FeatureMatches {
                feature,
                setting: code,
            },
            (code, device) => Rule::FeatureMismatch {
                feature,
                code,
                device,
            },
        });
    }
    Compatibility { rules }
}
