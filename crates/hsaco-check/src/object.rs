//! What the checks need to know about one code object.

use hsaco_abi::HiddenArg;
use hsaco_elf::bundle::{ContainerKind, EmbeddedObject};
use hsaco_elf::{CodeObject, DescriptorBytes};
use hsaco_target::{CodeObjectVersion, TargetId};

use crate::{conformance, Problem};

/// One code object of the input.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectInfo {
    /// Position among the code objects of the input (0-based).
    pub index: usize,
    /// The bundle entry ID (`hipv4-amdgcn-amd-amdhsa--gfx906:xnack-`), empty for a
    /// plain code object.
    pub entry_id: String,
    /// Where it was found (`plain code object`, `offload bundle`, ...).
    pub container: String,
    /// Offset of the object (or of its compressed container) in the input.
    pub offset: u64,
    /// Code object version from the ELF header.
    pub version: Option<u32>,
    /// The target the code object is built for, or why it could not be read.
    pub target: Result<TargetId, String>,
    /// `e_type` (`ET_REL` 1, `ET_EXEC` 2, `ET_DYN` 3).
    pub elf_type: u16,
    /// Kernels found through the symbol table.
    pub kernels: Vec<KernelInfo>,
    /// Hidden arguments only gfx6-gfx8 kernels read (`hidden_private_base`,
    /// `hidden_shared_base`, `hidden_queue_ptr`) that the metadata lists.
    pub pre_gfx9_hidden: Vec<HiddenArg>,
    /// Conformance problems found in the object.
    pub problems: Vec<Problem>,
}

/// A kernel of a code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    /// Name.
    pub name: String,
    /// Wavefront size from the descriptor (`ENABLE_WAVEFRONT_SIZE32`), when the
    /// descriptor could be read.
    pub wave_size: Option<u32>,
    /// The gfx6-gfx8-only hidden arguments its metadata lists.
    pub pre_gfx9_hidden: Vec<HiddenArg>,
}

impl ObjectInfo {
    /// A short name for messages: the target and version, with the entry ID when
    /// it is in a bundle.
    pub fn label(&self) -> String {
        let t = match &self.target {
            Ok(t) => t.to_string(),
            Err(_) => "unknown target".to_string(),
        };
        let v = self.version.map(|v| format!(" v{v}")).unwrap_or_default();
        if self.entry_id.is_empty() {
            format!("#{} {t}{v}", self.index)
        } else {
            format!("#{} {t}{v} [{}]", self.index, self.entry_id)
        }
    }

    /// The wave sizes the kernels use.
    pub fn wave_sizes(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.kernels.iter().filter_map(|k| k.wave_size).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Read what the checks need from an embedded object.
    pub fn from_embedded(index: usize, e: &EmbeddedObject<'_>) -> ObjectInfo {
        let mut info = ObjectInfo {
            index,
            entry_id: e.entry_id.clone(),
            container: match e.container {
                ContainerKind::Plain => "plain code object".into(),
                other => other.to_string(),
            },
            offset: e.offset,
            version: None,
            target: Err("not read".into()),
            elf_type: 0,
            kernels: Vec::new(),
            pre_gfx9_hidden: Vec::new(),
            problems: Vec::new(),
        };
        let co = match CodeObject::parse(&e.bytes) {
            Ok(co) => co,
            Err(err) => {
                info.target = Err(err.to_string());
                info.problems.push(Problem::error(
                    "elf-unreadable",
                    format!("the ELF file cannot be read: {err}"),
                    "a runtime cannot load what it cannot parse".to_string(),
                    Some(
                        "rebuild the code object; the file is damaged or not a code object".into(),
                    ),
                ));
                return info;
            }
        };
        info.version = co.version();
        info.elf_type = co.elf.e_type().0;
        info.target = target_of(&co, info.version);
        let symbols = match co.kernels() {
            Ok(ks) => ks,
            Err(err) => {
                info.problems.push(Problem::error(
                    "symbols-unreadable",
                    format!("the symbol table cannot be read: {err}"),
                    "the loader finds kernels through their symbols".into(),
                    None,
                ));
                Vec::new()
            }
        };
        let conformance = match info.version {
            Some(v) if v >= 3 => Some(conformance::check_object(
                &co,
                v,
                info.target.as_ref().ok().map(|t| t.processor),
                &symbols,
            )),
            _ => None,
        };
        for k in &symbols {
            let wave_size = match &k.descriptor {
                Ok(DescriptorBytes::V3 { bytes, .. }) => {
                    // kernel_code_properties bit 458: ENABLE_WAVEFRONT_SIZE32
                    bytes.get(57).map(|b| if b & 0x04 != 0 { 32 } else { 64 })
                }
                _ => None,
            };
            let pre_gfx9_hidden = conformance
                .as_ref()
                .and_then(|c| c.hidden.iter().find(|(n, _)| *n == k.name))
                .map(|(_, h)| h.clone())
                .unwrap_or_default();
            for h in &pre_gfx9_hidden {
                if !info.pre_gfx9_hidden.contains(h) {
                    info.pre_gfx9_hidden.push(*h);
                }
            }
            info.kernels.push(KernelInfo {
                name: k.name.clone(),
                wave_size,
                pre_gfx9_hidden,
            });
        }
        info.pre_gfx9_hidden.sort();
        if let Some(c) = conformance {
            info.problems.extend(c.problems);
        }
        info
    }
}

/// The target from `e_flags` (or, for code object v2, from the ISA version note).
fn target_of(co: &CodeObject<'_>, version: Option<u32>) -> Result<TargetId, String> {
    let v = version.ok_or_else(|| {
        format!(
            "not an AMDGPU HSA code object (OS/ABI {}, ABI version {})",
            co.elf.os_abi().0,
            co.elf.abi_version()
        )
    })?;
    let cov = CodeObjectVersion::from_number(v).ok_or_else(|| format!("code object v{v}"))?;
    match TargetId::from_e_flags(co.elf.e_flags(), cov) {
        Ok(t) => Ok(t),
        Err(e) => {
            if let Some(isa) = co.isa_version_note() {
                let (ma, mi, st) = (isa.major, isa.minor, isa.stepping);
                let narrow = |x: u32| u8::try_from(x).ok();
                if let (Some(a), Some(b), Some(c)) = (narrow(ma), narrow(mi), narrow(st)) {
                    if let Some(t) = TargetId::from_isa_version(a, b, c) {
                        return Ok(t);
                    }
                }
            }
            Err(e.to_string())
        }
    }
}
