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
    /// The full triple of an object for another platform than HSA (r600, PAL, Mesa:
    /// `amdgcn-amd-amdpal--gfx1100`), whose `target` is an error; for the label.
    pub platform_target: Option<String>,
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
            Err(_) => self
                .platform_target
                .clone()
                .unwrap_or_else(|| "unknown target".to_string()),
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
            platform_target: None,
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
        if info.version.is_none() {
            info.platform_target = co
                .target_id()
                .ok()
                .map(|t| t.format_for_os(hsaco_target::TargetIdForm::Full, co.target_os()));
            info.problems.push(not_hsa(&co));
        }
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
        let target = co
            .target_id()
            .map(|t| {
                format!(
                    "{}, ",
                    t.format_for_os(hsaco_target::TargetIdForm::Full, co.target_os())
                )
            })
            .unwrap_or_default();
        return Err(format!(
            "not an AMDGPU HSA code object ({target}OS/ABI {}, ABI version {})",
            co.elf.os_abi().0,
            co.elf.abi_version()
        ));
    }
    co.target_id()
}

/// `not-hsa-object` (error): an object for another platform than HSA. Which one, and
/// what loads it instead, from the ELF header: r600 objects (`ELFCLASS32`), PAL and
/// Mesa objects (`EI_OSABI` 65, 66), or an unknown OS ABI.
fn not_hsa(co: &CodeObject<'_>) -> Problem {
    use hsaco_target::TargetOs;
    let os_abi = co.elf.os_abi().0;
    let target = co
        .target_id()
        .map(|t| t.processor.name.to_string())
        .unwrap_or_else(|_| format!("e_flags {:#x}", co.elf.e_flags()));
    const HSA: &str = "ROCm's runtimes (ROCr, and CLR and LLVM's offload runtime above it) \
        load HSA code objects: AMDGPUUsage, \"ELF Header\": EI_OSABI is ELFOSABI_AMDGPU_HSA \
        (64) for the amdhsa OS, ELFOSABI_AMDGPU_PAL (65) for amdpal and \
        ELFOSABI_AMDGPU_MESA3D (66) for mesa3d, and e_ident[EI_ABIVERSION] gives the HSA \
        code object version only with the HSA OS ABI.";
    let (what, why, fix) = if !co.elf.is_64() {
        (
            format!("an r600-architecture object ({target}, ELFCLASS32, OS ABI {os_abi}): not loadable by ROCm/HSA runtimes"),
            format!(
                "{HSA} AMDGPUUsage, \"Processors\": \"amdhsa is not supported in r600 \
                 architecture\"; r600 objects are the Mesa path (the r600 Gallium driver, \
                 whose OpenCL front end was Clover), which takes each program's registers \
                 from .AMDGPU.config."
            ),
            "to run on ROCm, build for an amdgcn processor (gfx6 onwards) with -target \
             amdgcn-amd-amdhsa; r600 GPUs (HD 2000-6000) are not ROCm devices",
        )
    } else {
        let platform = match TargetOs::from_elf_os_abi(os_abi) {
            TargetOs::Amdpal => {
                "a PAL object (amdpal: AMD's Vulkan/DirectX drivers load it through PAL)"
            }
            TargetOs::Mesa3d => "a Mesa object (mesa3d: Mesa's radeonsi driver loads it)",
            _ => "an object with an OS ABI that is not HSA",
        };
        (
            format!("{platform} for {target}, OS ABI {os_abi}: not loadable by ROCm/HSA runtimes"),
            HSA.to_string(),
            "to run on ROCm, build with -target amdgcn-amd-amdhsa",
        )
    };
    Problem::error("not-hsa-object", what, why, Some(fix.to_string()))
}
