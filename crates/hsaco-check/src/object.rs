//! What the checks need to know about one code object.

use hsaco_abi::HiddenArg;
use hsaco_elf::bundle::{ContainerKind, EmbeddedObject};
use hsaco_elf::{CodeObject, DescriptorBytes};
use hsaco_target::TargetId;

use crate::code::{self, HiddenRead};
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
    /// Conformance and code lint problems found in the object.
    pub problems: Vec<Problem>,
    /// The processor whose instruction tables decoded the code for the ABI
    /// lints, or `None` when the code was not decoded (no description of the
    /// processor's instruction set yet, or no readable metadata).
    pub code_decoder: Option<&'static str>,
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
    /// The loads of those fields its own code shows (empty when the code was
    /// not decoded, or the kernel reads them only in functions it calls).
    pub hidden_reads: Vec<HiddenRead>,
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
            code_decoder: None,
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
        let mut lints = match (&conformance, &info.target, info.version) {
            (Some(c), Ok(t), Some(v)) => Some(code::lint(&co, t.processor, v, &c.abi)),
            _ => None,
        };
        info.code_decoder = lints.as_ref().and_then(|l| l.decoder);
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
            let hidden_reads = lints
                .as_mut()
                .and_then(|l| l.reads.iter_mut().find(|(n, _)| *n == k.name))
                .map(|(_, r)| std::mem::take(r))
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
                hidden_reads,
            });
        }
        info.pre_gfx9_hidden.sort();
        let mut metadata_kernels = Vec::new();
        if let Some(c) = conformance {
            info.problems.extend(c.problems);
            metadata_kernels = c.hidden.into_iter().map(|(name, _)| name).collect();
        }
        if let Some(l) = lints {
            info.problems.extend(l.problems);
        }
        crate::group::attribute_kernels(&mut info.problems, &metadata_kernels);
        info
    }
}

/// The target of an HSA code object: from `e_flags`, or for a code object v2 whose
/// `e_flags` name no processor, from its ISA version note ([`CodeObject::target_id`]).
fn target_of(co: &CodeObject<'_>, version: Option<u32>) -> Result<TargetId, String> {
    if version.is_none() {
        return Err(format!(
            "not an AMDGPU HSA code object (OS/ABI {}, ABI version {})",
            co.elf.os_abi().0,
            co.elf.abi_version()
        ));
    }
    co.target_id()
}
