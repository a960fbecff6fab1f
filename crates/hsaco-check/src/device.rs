//! Devices named on the command line: a target ID (`gfx906:sramecc+:xnack-`), a
//! processor alias (`fiji`), or a product name (`mi50`, `wx3200`, `Radeon VII`),
//! optionally followed by target-ID features (`mi50:xnack-`).

use core::fmt;

use hsaco_target::{FeatureSetting, Processor, TargetFeature, TargetId};

/// Products missing from the processor table's example lists, each with the
/// source that ties it to its processor.
pub static PRODUCT_ALIASES: &[ProductAlias] = &[
    ProductAlias {
        names: &["wx3200", "Radeon Pro WX 3200"],
        product: "Radeon Pro WX 3200 (Polaris 12)",
        processor: "gfx803",
        source: "the gfx803 write-up (shared/spec/seeds/001): KFD exposes the WX3200's \
                 Polaris 12 GPU as gfx803, gfx_target_version 80003",
    },
    ProductAlias {
        names: &["rx570", "Radeon RX 570"],
        product: "Radeon RX 570 (Polaris 20)",
        processor: "gfx803",
        source: "ROCm/clr issue #269 (an RX 570 reported as gfx803)",
    },
    ProductAlias {
        names: &["rx580", "Radeon RX 580"],
        product: "Radeon RX 580 (Polaris 20)",
        processor: "gfx803",
        source: "ollama/ollama issue #2453 (\"gfx803 (e.g. Radeon RX 580)\")",
    },
    ProductAlias {
        names: &["rx550", "Radeon RX 550"],
        product: "Radeon RX 550 (Polaris 12)",
        processor: "gfx803",
        source: "ROCm/clr issue #269 (verified on an RX 550 as gfx803)",
    },
];

/// A product name this crate maps to a processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProductAlias {
    /// Spellings accepted (compared ignoring case, spaces and punctuation).
    pub names: &'static [&'static str],
    /// The product, for people.
    pub product: &'static str,
    /// Canonical processor name.
    pub processor: &'static str,
    /// Why we believe the mapping.
    pub source: &'static str,
}

/// How a device was named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceSource {
    /// A target ID or processor name.
    TargetId,
    /// A product of the processor table (`hsaco_target::Processor::by_product`).
    Product(&'static str),
    /// A product of [`PRODUCT_ALIASES`].
    Alias(&'static ProductAlias),
}

/// A device to check against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// What the user wrote.
    pub query: String,
    /// Processor and the feature settings the device runs with; a feature left
    /// unset means "not known".
    pub target: TargetId,
    /// How it was named.
    pub source: DeviceSource,
}

/// Why a device name was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceError(pub String);

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeviceError {}

fn normalize(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

impl Device {
    /// Parse a device name.
    ///
    /// ```
    /// use hsaco_check::Device;
    /// assert_eq!(Device::parse("mi50").unwrap().target.to_string(), "gfx906");
    /// assert_eq!(Device::parse("wx3200").unwrap().target.to_string(), "gfx803");
    /// assert_eq!(Device::parse("mi50:xnack-").unwrap().target.to_string(), "gfx906:xnack-");
    /// assert_eq!(
    ///     Device::parse("gfx906:xnack-:sramecc+").unwrap().target.to_string(),
    ///     "gfx906:sramecc+:xnack-"
    /// );
    /// assert!(Device::parse("gfx9-generic").is_err());
    /// ```
    pub fn parse(query: &str) -> Result<Device, DeviceError> {
        let q = query.trim();
        if q.is_empty() {
            return Err(DeviceError("empty device name".into()));
        }
        let (name, features) = match q.find(':') {
            Some(i) => (&q[..i], &q[i..]),
            None => (q, ""),
        };
        let (processor, source) = if let Some(p) = Processor::by_name(name) {
            (p, DeviceSource::TargetId)
        } else if let Some(a) = PRODUCT_ALIASES
            .iter()
            .find(|a| a.names.iter().any(|n| normalize(n) == normalize(name)))
        {
            let p = Processor::by_name(a.processor)
                .ok_or_else(|| DeviceError(format!("alias table names unknown {}", a.processor)))?;
            (p, DeviceSource::Alias(a))
        } else if let Some(p) = Processor::by_product(name) {
            let product = Processor::search_products(name)
                .first()
                .map(|m| m.product)
                .unwrap_or(p.name);
            (p, DeviceSource::Product(product))
        } else {
            let matches = Processor::search_products(name);
            let msg = if matches.len() > 1 {
                let list: Vec<String> = matches
                    .iter()
                    .take(8)
                    .map(|m| format!("{} ({})", m.product, m.processor.name))
                    .collect();
                format!("`{name}` matches several products: {}", list.join(", "))
            } else {
                format!(
                    "`{name}` is neither a processor (gfx906), a target ID \
                     (gfx906:sramecc+:xnack-) nor a known product (mi50, wx3200)"
                )
            };
            return Err(DeviceError(msg));
        };
        if processor.is_generic() {
            return Err(DeviceError(format!(
                "{} is a generic target, not a device; name the GPU (gfx906, mi50)",
                processor.name
            )));
        }
        let target = TargetId::parse(&format!("{}{}", processor.name, features))
            .map_err(|e| DeviceError(format!("`{q}`: {e}")))?;
        Ok(Device {
            query: q.to_string(),
            target,
            source,
        })
    }

    /// The processor.
    pub fn processor(&self) -> &'static Processor {
        self.target.processor
    }

    /// The device's setting of `feature`, `None` when the name left it open.
    pub fn setting(&self, feature: TargetFeature) -> Option<FeatureSetting> {
        self.target.setting(feature)
    }

    /// The product name, when the device was named by product.
    pub fn product(&self) -> Option<&'static str> {
        match &self.source {
            DeviceSource::TargetId => None,
            DeviceSource::Product(p) => Some(p),
            DeviceSource::Alias(a) => Some(a.product),
        }
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.target.to_string();
        match self.product() {
            Some(p) if normalize(&self.query) != normalize(&t) => {
                write!(f, "{} ({t}, {p})", self.query)
            }
            _ if self.query != t => write!(f, "{} ({t})", self.query),
            _ => f.write_str(&t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let d = Device::parse("WX 3200").unwrap();
        assert_eq!(d.processor().name, "gfx803");
        assert!(matches!(d.source, DeviceSource::Alias(_)));
        assert_eq!(Device::parse("fiji").unwrap().processor().name, "gfx803");
        assert_eq!(
            Device::parse("Radeon VII").unwrap().processor().name,
            "gfx906"
        );
        assert!(Device::parse("").is_err());
        assert!(Device::parse("gfx906:bogus+").is_err());
        assert!(Device::parse("nonsense-gpu").is_err());
        assert_eq!(
            Device::parse("wx3200").unwrap().to_string(),
            "wx3200 (gfx803, Radeon Pro WX 3200 (Polaris 12))"
        );
    }
}
