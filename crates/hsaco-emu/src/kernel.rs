//! Loading: a code object's image, one kernel's descriptor and metadata, the device.

use crate::EmuError;
use hsaco_elf::kd::KernelDescriptor;
use hsaco_elf::metadata::{CodeObjectMetadata, KernelArg, KernelMetadata};
use hsaco_elf::{CodeObject, DescriptorBytes, MetadataNote};
use hsaco_target::{FlatScratch, Generation, Processor};

/// `PT_LOAD`.
const PT_LOAD: u32 = 1;

/// The device the kernel runs on: what the dispatch and the execution core need to
/// know of the processor.
#[derive(Clone, Copy, Debug)]
pub struct Device {
    /// The processor.
    pub processor: &'static Processor,
    /// Its generation.
    pub generation: Generation,
    /// LDS bytes a work-group may allocate.
    pub lds_size: u32,
    /// How flat scratch is set up ("Flat Scratch" in AMDGPUUsage).
    pub flat_scratch: FlatScratch,
    /// Work-item IDs packed in VGPR0 (AMDGPUUsage processor table, "Packed work-item IDs").
    pub packed_work_item_ids: bool,
    /// Base of the flat shared (LDS) aperture (`src_shared_base` gives its high half).
    pub shared_aperture: u64,
    /// Base of the flat private (scratch) aperture.
    pub private_aperture: u64,
}

impl Device {
    /// The device model of a processor.
    pub fn new(processor: &'static Processor) -> Device {
        let lds_size = match processor.name {
            "gfx950" => 160 * 1024,
            _ if processor.generation >= Generation::Gfx11 => 64 * 1024,
            _ => 64 * 1024,
        };
        Device {
            processor,
            generation: processor.generation,
            lds_size,
            flat_scratch: processor.flat_scratch,
            packed_work_item_ids: processor.packed_work_item_ids,
            // the apertures the 64-bit HSA runtime reports (above the 48-bit
            // canonical range, so they never alias a global address)
            shared_aperture: 0x1_0000_0000_0000,
            private_aperture: 0x2_0000_0000_0000,
        }
    }
}

/// A code object loaded at [`crate::memory::layout::CODE`] with one kernel chosen.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Kernel name.
    pub name: String,
    /// Code object version.
    pub code_object_version: u32,
    /// The device.
    pub device: Device,
    /// The kernel descriptor (for v2 objects: translated from `amd_kernel_code_t`).
    pub descriptor: KernelDescriptor,
    /// Load address of the descriptor.
    pub descriptor_address: u64,
    /// Load address of the first instruction.
    pub entry: u64,
    /// The kernel's metadata (its `.args` give the kernarg layout).
    pub metadata: KernelMetadata,
    /// The loaded image (all `PT_LOAD` segments), mapped at [`Kernel::load_base`].
    pub image: Vec<u8>,
    /// Where the image is mapped.
    pub load_base: u64,
    /// The executable ranges of the image (load addresses).
    pub code_ranges: Vec<(u64, u64)>,
    /// The `amdhsa.printf` strings of the code object.
    pub printf: Vec<String>,
    /// The function symbols (`STT_FUNC` with a size): name, load address, size; a
    /// fault names the function it happened in.
    pub functions: Vec<(String, u64, u64)>,
}

impl Kernel {
    /// `function+offset` of a load address (`in_lds+0xc`), or the offset from the
    /// kernel's entry when no function symbol covers it.
    pub fn place(&self, addr: u64) -> String {
        match self
            .functions
            .iter()
            .find(|(_, a, n)| addr >= *a && addr - *a < *n)
        {
            Some((name, a, _)) => format!("{name}+{:#x}", addr - a),
            None if addr >= self.entry => format!("{}+{:#x}", self.name, addr - self.entry),
            None => format!("{}-{:#x}", self.name, self.entry - addr),
        }
    }
}

impl Kernel {
    /// Wave size from the descriptor (`ENABLE_WAVEFRONT_SIZE32`) and the processor.
    pub fn wave_size(&self) -> u32 {
        if self.device.generation >= Generation::Gfx10 {
            if self
                .descriptor
                .kernel_code_properties()
                .enable_wavefront_size32()
            {
                32
            } else {
                64
            }
        } else {
            64
        }
    }

    /// The explicit arguments (those whose `.value_kind` does not start with `hidden_`).
    pub fn explicit_args(&self) -> Vec<&KernelArg> {
        self.metadata
            .args
            .iter()
            .flatten()
            .filter(|a| {
                !a.value_kind
                    .as_deref()
                    .is_some_and(|k| k.starts_with("hidden_"))
            })
            .collect()
    }
}

/// Names of the kernels in a code object.
pub fn kernel_names(data: &[u8]) -> Result<Vec<String>, EmuError> {
    let co = CodeObject::parse(data).map_err(|e| EmuError::Load(e.to_string()))?;
    let ks = co.kernels().map_err(|e| EmuError::Load(e.to_string()))?;
    Ok(ks.into_iter().map(|k| k.name).collect())
}

/// Load a code object and pick kernel `name` (its `.name` or its symbol).
pub fn load(data: &[u8], name: &str) -> Result<Kernel, EmuError> {
    let load_err = |e: hsaco_elf::Error| EmuError::Load(e.to_string());
    let co = CodeObject::parse(data).map_err(load_err)?;
    let version = co
        .version()
        .ok_or_else(|| EmuError::Load("not an HSA code object (unknown ABI version)".into()))?;
    let target = co.target_id().map_err(EmuError::Load)?;
    let processor = target.processor;
    if !matches!(
        processor.generation,
        Generation::Gfx6
            | Generation::Gfx7
            | Generation::Gfx8
            | Generation::Gfx9
            | Generation::Gfx10
            | Generation::Gfx11
            | Generation::Gfx12
            | Generation::Gfx125
    ) {
        return Err(EmuError::Load(format!(
            "{}: not an amdgcn processor",
            processor.name
        )));
    }
    let device = Device::new(processor);

    // metadata
    let md = match co.metadata_note().map_err(load_err)? {
        Some(MetadataNote::MsgPack { desc, .. }) => {
            CodeObjectMetadata::from_msgpack(desc).map_err(load_err)?
        }
        Some(MetadataNote::Yaml { text, .. }) => {
            CodeObjectMetadata::from_v2_yaml(text).map_err(load_err)?
        }
        None => return Err(EmuError::Load("no metadata note".into())),
    };
    let kernels_md = md.kernels.clone().unwrap_or_default();
    let mut found = kernels_md.iter().find(|k| k.name.as_deref() == Some(name));
    if found.is_none() {
        found = kernels_md.iter().find(|k| {
            k.symbol
                .as_deref()
                .is_some_and(|s| s == name || s.strip_suffix(".kd") == Some(name))
        });
    }
    let kmd = found.cloned().ok_or_else(|| EmuError::NoKernel {
        name: name.to_string(),
        available: kernels_md.iter().filter_map(|k| k.name.clone()).collect(),
    })?;
    let symbol = kmd
        .symbol
        .clone()
        .or_else(|| kmd.name.clone())
        .unwrap_or_default();
    let sym_name = symbol.strip_suffix(".kd").unwrap_or(&symbol).to_string();

    // descriptor
    let ks = co.kernels().map_err(load_err)?;
    let ksym = ks
        .iter()
        .find(|k| k.name == sym_name || k.name == name)
        .ok_or_else(|| EmuError::Load(format!("no descriptor symbol for kernel {name}")))?;
    let desc = ksym
        .descriptor
        .clone()
        .map_err(|e| EmuError::Load(e.to_string()))?;
    let (descriptor, kd_vaddr, entry_vaddr) = match desc {
        DescriptorBytes::V3 { bytes, address, .. } => {
            let kd = KernelDescriptor::parse(bytes).map_err(load_err)?;
            let entry = address.wrapping_add(kd.kernel_code_entry_byte_offset() as u64);
            (kd, address, entry)
        }
        DescriptorBytes::AmdKernelCodeT { .. } => {
            return Err(EmuError::Load(
                "code object v2 (amd_kernel_code_t) kernels are not run yet".into(),
            ))
        }
    };

    // image: every PT_LOAD segment at its vaddr
    let mut size = 0u64;
    let mut code_ranges = Vec::new();
    for seg in co.elf.segments() {
        if seg.p_type.0 == PT_LOAD {
            size = size.max(seg.vaddr.saturating_add(seg.memsz));
            if seg.flags & 1 != 0 {
                code_ranges.push((seg.vaddr, seg.vaddr.saturating_add(seg.memsz)));
            }
        }
    }
    if size == 0 {
        return Err(EmuError::Load(
            "no loadable segment (a relocatable object? link it first)".into(),
        ));
    }
    if size > 1 << 28 {
        return Err(EmuError::Load(format!(
            "loadable segments span {size:#x} bytes"
        )));
    }
    let mut image = vec![0u8; size as usize];
    for seg in co.elf.segments() {
        if seg.p_type.0 == PT_LOAD {
            let bytes = seg.data().map_err(load_err)?;
            let at = seg.vaddr as usize;
            let n = bytes.len().min(seg.memsz as usize);
            image[at..at + n].copy_from_slice(&bytes[..n]);
        }
    }
    let base = crate::memory::layout::CODE;
    let entry = base.wrapping_add(entry_vaddr);
    let mut functions = Vec::new();
    if let Ok(Some(st)) = co.elf.symtab() {
        for i in 0..st.len() {
            if let Ok(sym) = st.get(i) {
                if sym.info & 0xf == hsaco_elf::elf::consts::STT_FUNC && sym.size > 0 {
                    let at = base.wrapping_add(sym.value);
                    functions.push((sym.name_str().into_owned(), at, sym.size));
                }
            }
        }
    }
    if entry_vaddr >= size || entry_vaddr % 4 != 0 {
        return Err(EmuError::Load(format!(
            "kernel entry {entry_vaddr:#x} is outside the image"
        )));
    }
    Ok(Kernel {
        name: kmd.name.clone().unwrap_or(sym_name),
        code_object_version: version,
        device,
        descriptor,
        descriptor_address: base + kd_vaddr,
        entry,
        metadata: kmd,
        image,
        load_base: base,
        code_ranges: code_ranges
            .into_iter()
            .map(|(a, b)| (base + a, base + b))
            .collect(),
        printf: md.printf.clone().unwrap_or_default(),
        functions,
    })
}
