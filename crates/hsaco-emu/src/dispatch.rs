//! Dispatch: what the runtime and the command processor set up before the first
//! instruction runs (AMDGPUUsage "Kernel Dispatch", "Initial Kernel Execution
//! State", "Kernel Prolog"): the kernarg segment with its hidden arguments, the AQL
//! dispatch packet, the `amd_queue_t`, scratch, and each wave's initial registers.

use crate::kernel::Kernel;
use crate::memory::{layout, Memory};
use crate::EmuError;
use hsaco_abi::HiddenArg;
use hsaco_target::{FlatScratch, Generation};

/// Element type of a buffer argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Elem {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F16,
    F32,
    F64,
}

impl Elem {
    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Elem::U8 | Elem::I8 => 1,
            Elem::U16 | Elem::I16 | Elem::F16 => 2,
            Elem::U32 | Elem::I32 | Elem::F32 => 4,
            Elem::U64 | Elem::I64 | Elem::F64 => 8,
        }
    }

    /// The spelling in `--arg` (`f32`).
    pub fn name(self) -> &'static str {
        match self {
            Elem::U8 => "u8",
            Elem::I8 => "i8",
            Elem::U16 => "u16",
            Elem::I16 => "i16",
            Elem::U32 => "u32",
            Elem::I32 => "i32",
            Elem::U64 => "u64",
            Elem::I64 => "i64",
            Elem::F16 => "f16",
            Elem::F32 => "f32",
            Elem::F64 => "f64",
        }
    }

    /// By its spelling.
    pub fn parse(s: &str) -> Option<Elem> {
        Some(match s {
            "u8" => Elem::U8,
            "i8" => Elem::I8,
            "u16" => Elem::U16,
            "i16" => Elem::I16,
            "u32" => Elem::U32,
            "i32" => Elem::I32,
            "u64" => Elem::U64,
            "i64" => Elem::I64,
            "f16" => Elem::F16,
            "f32" => Elem::F32,
            "f64" => Elem::F64,
            _ => return None,
        })
    }
}

/// One explicit kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgValue {
    /// A by-value argument: its bytes (little endian), checked against `.size`.
    Scalar(Vec<u8>),
    /// A global buffer: a fresh allocation holding these bytes.
    Buffer {
        /// Element type (for printing).
        elem: Elem,
        /// Contents.
        data: Vec<u8>,
    },
}

/// The dispatch: grid, work-group size, arguments.
#[derive(Clone, Debug)]
pub struct Dispatch {
    /// Work-items per dimension (the packet's grid size).
    pub grid: [u32; 3],
    /// Work-group size.
    pub block: [u32; 3],
    /// Dynamic LDS bytes.
    pub dynamic_lds: u32,
    /// Explicit arguments in order.
    pub args: Vec<ArgValue>,
}

impl Dispatch {
    /// Grid dimensionality: 1 + the highest dimension with more than one work-item.
    pub fn dims(&self) -> u16 {
        if self.grid[2] > 1 || self.block[2] > 1 {
            3
        } else if self.grid[1] > 1 || self.block[1] > 1 {
            2
        } else {
            1
        }
    }

    /// Work-groups per dimension (the last one may be partial).
    pub fn groups(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.grid[d].div_ceil(self.block[d].max(1)))
    }
}

/// Where things were placed.
#[derive(Clone, Debug)]
pub struct Placed {
    /// The kernarg segment.
    pub kernarg: u64,
    /// The AQL packet.
    pub packet: u64,
    /// The `amd_queue_t`.
    pub queue: u64,
    /// Buffer arguments: (explicit index, address, element type, byte length).
    pub buffers: Vec<(usize, u64, Elem, usize)>,
    /// Scratch bytes per lane (dword-rounded private segment size).
    pub private_size: u32,
    /// Scratch bytes per wave.
    pub wave_scratch: u64,
    /// LDS bytes per work-group (static + dynamic).
    pub lds_bytes: u32,
    /// The printf buffer, if the kernel has one.
    pub printf_buffer: Option<u64>,
}

/// `amd_queue_t.group_segment_aperture_base_hi`.
pub const QUEUE_SHARED_APERTURE_HI: usize = 64;
/// `amd_queue_t.private_segment_aperture_base_hi`.
pub const QUEUE_PRIVATE_APERTURE_HI: usize = 68;
/// `amd_queue_t.scratch_resource_descriptor[4]`.
pub const QUEUE_SCRATCH_RSRC: usize = 144;
/// `amd_queue_t.scratch_backing_memory_location`.
pub const QUEUE_SCRATCH_BASE: usize = 160;
/// `amd_queue_t.scratch_backing_memory_byte_size`.
pub const QUEUE_SCRATCH_SIZE: usize = 168;
/// `amd_queue_t.scratch_wave64_lane_byte_size`.
pub const QUEUE_SCRATCH_LANE: usize = 176;
/// Size of the printf buffer.
const PRINTF_BYTES: usize = 1 << 20;

fn put(buf: &mut [u8], at: usize, bytes: &[u8]) {
    let Some(end) = at.checked_add(bytes.len()) else {
        return;
    };
    if let Some(d) = buf.get_mut(at..end) {
        d.copy_from_slice(bytes);
    }
}

/// The scratch buffer resource (V#) the runtime gives the kernel on gfx9 and earlier:
/// base, swizzled, 4-byte elements, index stride 64 (wave64), lane index added.
pub fn scratch_rsrc(base: u64, size: u32, wave64: bool) -> [u32; 4] {
    let w1 = ((base >> 32) as u32 & 0xffff) | 1 << 31;
    // DST_SEL_XYZW = 4,5,6,7; NUM_FORMAT 0; DATA_FORMAT 32 (4); ELEMENT_SIZE 1 (4
    // bytes); INDEX_STRIDE 3 (64) or 2 (32); ADD_TID_ENABLE
    let stride = if wave64 { 3 } else { 2 };
    let w3 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 4 << 15 | 1 << 19 | stride << 21 | 1 << 23;
    [base as u32, w1, size, w3]
}

/// Map the kernarg segment, packet, queue, scratch, buffers and the code image.
pub fn place(k: &Kernel, disp: &Dispatch, mem: &mut Memory) -> Result<Placed, EmuError> {
    for d in 0..3 {
        if disp.block[d] == 0 || disp.grid[d] == 0 {
            return Err(EmuError::Args(format!(
                "grid and block sizes must be at least 1 (dimension {d})"
            )));
        }
    }
    let flat_wg: u64 = disp.block.iter().map(|&b| u64::from(b)).product();
    if flat_wg > 1024 {
        return Err(EmuError::Args(format!(
            "work-group of {flat_wg} work-items (at most 1024)"
        )));
    }
    if let Some(max) = k.metadata.max_flat_workgroup_size {
        if flat_wg > max {
            return Err(EmuError::Args(format!(
                "work-group of {flat_wg} work-items exceeds the kernel's .max_flat_workgroup_size {max}"
            )));
        }
    }
    if let Some(req) = &k.metadata.reqd_workgroup_size {
        if req.len() == 3 && (0..3).any(|d| u64::from(disp.block[d]) != req[d]) {
            return Err(EmuError::Args(format!(
                "the kernel requires work-groups of {}x{}x{} (reqd_work_group_size)",
                req[0], req[1], req[2]
            )));
        }
    }
    mem.map(k.load_base, k.image.clone(), "code object")
        .map_err(EmuError::Load)?;

    // explicit arguments against the metadata
    let args = k.metadata.args.clone().unwrap_or_default();
    let explicit: Vec<_> = args
        .iter()
        .filter(|a| !a.value_kind.as_deref().unwrap_or("").starts_with("hidden_"))
        .collect();
    if explicit.len() != disp.args.len() {
        return Err(EmuError::Args(format!(
            "kernel {} takes {} arguments ({}), {} given",
            k.name,
            explicit.len(),
            explicit
                .iter()
                .map(|a| format!(
                    "{} {}",
                    a.type_name.as_deref().unwrap_or("?"),
                    a.name.as_deref().unwrap_or("?")
                ))
                .collect::<Vec<_>>()
                .join(", "),
            disp.args.len()
        )));
    }
    let seg_size = k
        .metadata
        .kernarg_segment_size
        .unwrap_or(0)
        .max(u64::from(k.descriptor.kernarg_size()));
    if seg_size > 1 << 20 {
        return Err(EmuError::Load(format!(
            "kernarg segment of {seg_size} bytes (more than 1 MiB)"
        )));
    }
    let mut kernarg = vec![0u8; (seg_size as usize).div_ceil(64).max(1) * 64];
    let mut buffers = Vec::new();
    let mut lds_bytes = k.descriptor.group_segment_fixed_size();
    let mut next_global = layout::GLOBAL;
    for (ix, (meta, val)) in explicit.iter().zip(&disp.args).enumerate() {
        let kind = meta.value_kind.as_deref().unwrap_or("");
        let off = meta.offset.unwrap_or(0) as usize;
        let size = meta.size.unwrap_or(0) as usize;
        let what = format!(
            "argument {ix} ({} {})",
            meta.type_name.as_deref().unwrap_or("?"),
            meta.name.as_deref().unwrap_or("?")
        );
        match (kind, val) {
            ("global_buffer", ArgValue::Buffer { elem, data }) => {
                let addr = next_global;
                next_global += layout::GLOBAL_STRIDE;
                if !data.is_empty() {
                    mem.map(addr, data.clone(), &format!("arg {ix}"))
                        .map_err(EmuError::Load)?;
                }
                buffers.push((ix, addr, *elem, data.len()));
                put(&mut kernarg, off, &addr.to_le_bytes()[..size.min(8)]);
            }
            ("by_value", ArgValue::Scalar(bytes)) => {
                if bytes.len() != size {
                    return Err(EmuError::Args(format!(
                        "{what} is {size} bytes, the value given is {}",
                        bytes.len()
                    )));
                }
                put(&mut kernarg, off, bytes);
            }
            ("dynamic_shared_pointer", ArgValue::Scalar(bytes)) => {
                // the value given is the LDS bytes this pointer's array takes
                let mut b = [0u8; 4];
                for (d, s) in b.iter_mut().zip(bytes) {
                    *d = *s;
                }
                let want = u32::from_le_bytes(b);
                // saturating: a made-up alignment or size must give the "needs more
                // LDS" error below, not an overflow (found by the fuzz smoke run)
                let align = meta.pointee_align.unwrap_or(4).clamp(1, 1 << 16) as u32;
                let at = lds_bytes.div_ceil(align).saturating_mul(align);
                put(&mut kernarg, off, &at.to_le_bytes());
                lds_bytes = at.saturating_add(want);
            }
            (k2, _) => {
                return Err(EmuError::Args(format!(
                    "{what}: a {k2} argument cannot take the value given ({})",
                    match val {
                        ArgValue::Scalar(_) => "a scalar",
                        ArgValue::Buffer { .. } => "a buffer",
                    }
                )))
            }
        }
    }
    lds_bytes = lds_bytes.saturating_add(disp.dynamic_lds);
    if lds_bytes > k.device.lds_size {
        return Err(EmuError::Args(format!(
            "the work-group needs {lds_bytes} bytes of LDS, the device has {}",
            k.device.lds_size
        )));
    }

    // scratch
    let wave = k.wave_size();
    let private_size = k.descriptor.private_segment_fixed_size().div_ceil(4) * 4;
    let wave_scratch = u64::from(private_size) * u64::from(wave);
    let waves_per_group = flat_wg.div_ceil(u64::from(wave));
    let scratch_bytes = (wave_scratch * waves_per_group).max(256);
    if scratch_bytes > 1 << 30 {
        return Err(EmuError::Load(format!(
            "{scratch_bytes} bytes of scratch per work-group (more than 1 GiB)"
        )));
    }

    // printf buffer
    let mut printf_buffer = None;
    let needs_printf = args.iter().any(|a| {
        matches!(
            a.value_kind.as_deref(),
            Some("hidden_printf_buffer") | Some("hidden_hostcall_buffer")
        )
    });
    if needs_printf {
        let addr = next_global;
        let mut pb = vec![0u8; PRINTF_BYTES];
        // header: the write offset (from the end of the 8-byte header) and the bytes
        // there is room for
        pb[..4].copy_from_slice(&0u32.to_le_bytes());
        pb[4..8].copy_from_slice(&(PRINTF_BYTES as u32 - 8).to_le_bytes());
        mem.map(addr, pb, "printf buffer").map_err(EmuError::Load)?;
        printf_buffer = Some(addr);
    }

    // packet and queue
    let queue = layout::QUEUE;
    let packet = layout::QUEUE + 0x1000;
    let mut q = vec![0u8; 0x1000 + 64];
    let pre_gfx9 = k.device.generation < Generation::Gfx9;
    {
        // hsa_queue_t: type (0 multi), features (1 kernel dispatch), base_address,
        // doorbell, size (packets), id
        put(&mut q, 0, &0u32.to_le_bytes());
        put(&mut q, 4, &1u32.to_le_bytes());
        put(&mut q, 8, &packet.to_le_bytes());
        put(&mut q, 24, &1u32.to_le_bytes());
        put(
            &mut q,
            QUEUE_SHARED_APERTURE_HI,
            &((k.device.shared_aperture >> 32) as u32).to_le_bytes(),
        );
        put(
            &mut q,
            QUEUE_PRIVATE_APERTURE_HI,
            &((k.device.private_aperture >> 32) as u32).to_le_bytes(),
        );
        let rsrc = scratch_rsrc(layout::SCRATCH, scratch_bytes as u32, wave == 64);
        for (n, w) in rsrc.iter().enumerate() {
            put(&mut q, QUEUE_SCRATCH_RSRC + 4 * n, &w.to_le_bytes());
        }
        put(&mut q, QUEUE_SCRATCH_BASE, &layout::SCRATCH.to_le_bytes());
        put(&mut q, QUEUE_SCRATCH_SIZE, &scratch_bytes.to_le_bytes());
        put(&mut q, QUEUE_SCRATCH_LANE, &private_size.to_le_bytes());
    }
    let kernarg_addr = layout::KERNARG;
    {
        let p = 0x1000;
        // header: type KERNEL_DISPATCH (2), barrier, acquire/release system scope
        let header: u16 = 2 | 1 << 8 | 2 << 9 | 2 << 11;
        put(&mut q, p, &header.to_le_bytes());
        put(&mut q, p + 2, &disp.dims().to_le_bytes());
        for d in 0..3 {
            put(&mut q, p + 4 + 2 * d, &(disp.block[d] as u16).to_le_bytes());
            put(&mut q, p + 12 + 4 * d, &disp.grid[d].to_le_bytes());
        }
        put(&mut q, p + 24, &private_size.to_le_bytes());
        put(&mut q, p + 28, &lds_bytes.to_le_bytes());
        put(&mut q, p + 32, &k.descriptor_address.to_le_bytes());
        put(&mut q, p + 40, &kernarg_addr.to_le_bytes());
    }
    mem.map(queue, q, "queue and dispatch packet")
        .map_err(EmuError::Load)?;
    mem.map(
        layout::SCRATCH,
        vec![0u8; scratch_bytes as usize],
        "scratch",
    )
    .map_err(EmuError::Load)?;

    // hidden arguments
    let groups = disp.groups();
    let hidden_value = |h: HiddenArg| -> Option<Vec<u8>> {
        let d3 = |f: &dyn Fn(usize) -> u32, size: usize| -> [Vec<u8>; 3] {
            [0, 1, 2].map(|d| f(d).to_le_bytes()[..size].to_vec())
        };
        let full = |d: usize| disp.grid[d] / disp.block[d];
        let group = |d: usize| disp.block[d];
        let rem = |d: usize| disp.grid[d] % disp.block[d];
        Some(match h {
            HiddenArg::BlockCountX => d3(&full, 4)[0].clone(),
            HiddenArg::BlockCountY => d3(&full, 4)[1].clone(),
            HiddenArg::BlockCountZ => d3(&full, 4)[2].clone(),
            HiddenArg::GroupSizeX => d3(&group, 2)[0].clone(),
            HiddenArg::GroupSizeY => d3(&group, 2)[1].clone(),
            HiddenArg::GroupSizeZ => d3(&group, 2)[2].clone(),
            HiddenArg::RemainderX => d3(&rem, 2)[0].clone(),
            HiddenArg::RemainderY => d3(&rem, 2)[1].clone(),
            HiddenArg::RemainderZ => d3(&rem, 2)[2].clone(),
            HiddenArg::GlobalOffsetX | HiddenArg::GlobalOffsetY | HiddenArg::GlobalOffsetZ => {
                0u64.to_le_bytes().to_vec()
            }
            HiddenArg::GridDims => disp.dims().to_le_bytes().to_vec(),
            HiddenArg::PrintfBuffer => printf_buffer.unwrap_or(0).to_le_bytes().to_vec(),
            HiddenArg::DynamicLdsSize => disp.dynamic_lds.to_le_bytes().to_vec(),
            HiddenArg::PrivateBase if pre_gfx9 => ((k.device.private_aperture >> 32) as u32)
                .to_le_bytes()
                .to_vec(),
            HiddenArg::SharedBase if pre_gfx9 => ((k.device.shared_aperture >> 32) as u32)
                .to_le_bytes()
                .to_vec(),
            HiddenArg::QueuePtr if pre_gfx9 => queue.to_le_bytes().to_vec(),
            // hostcall, multigrid sync, heap, default queue, completion action: none
            // (null: a kernel that uses one faults at address 0)
            _ => return None,
        })
    };
    let _ = groups;
    let mut implicit_base = None;
    for a in &args {
        let Some(h) = a.value_kind.as_deref().and_then(HiddenArg::from_value_kind) else {
            continue;
        };
        let off = a.offset.unwrap_or(0);
        if k.code_object_version >= 5 {
            if let Some(rel) = h.v5_offset() {
                implicit_base.get_or_insert(off.saturating_sub(rel));
            }
        }
        if let Some(v) = hidden_value(h) {
            put(
                &mut kernarg,
                off as usize,
                &v[..v.len().min(a.size.unwrap_or(8) as usize)],
            );
        }
    }
    // v5+: a correct runtime fills the whole implicit block, listed or not
    if let Some(base) = implicit_base.filter(|&b| b <= 1 << 20) {
        if kernarg.len() < base as usize + 256 {
            kernarg.resize(base as usize + 256, 0);
        }
        for h in HiddenArg::all() {
            if let (Some(rel), Some(v)) = (h.v5_offset(), hidden_value(h)) {
                put(&mut kernarg, (base + rel) as usize, &v);
            }
        }
    }
    mem.map(kernarg_addr, kernarg, "kernarg segment")
        .map_err(EmuError::Load)?;
    Ok(Placed {
        kernarg: kernarg_addr,
        packet,
        queue,
        buffers,
        private_size,
        wave_scratch,
        lds_bytes,
        printf_buffer,
    })
}

/// The initial SGPRs of one wave, dense from SGPR0 (AMDGPUUsage table "SGPR Register
/// Set Up Order"), and where the system SGPRs start.
pub fn initial_sgprs(
    k: &Kernel,
    p: &Placed,
    group: [u32; 3],
    wave_in_group: u32,
    waves_in_group: u32,
    kernarg_bytes: &[u8],
) -> Vec<u32> {
    let props = k.descriptor.kernel_code_properties();
    let rsrc2 = k.descriptor.compute_pgm_rsrc2();
    let mut s: Vec<u32> = Vec::new();
    let lo = |v: u64| v as u32;
    let hi = |v: u64| (v >> 32) as u32;
    let scratch_wave = layout::SCRATCH + u64::from(wave_in_group) * p.wave_scratch;
    let architected = k.device.flat_scratch == FlatScratch::Architected;
    if props.enable_sgpr_private_segment_buffer() {
        let r = scratch_rsrc(
            layout::SCRATCH,
            (p.wave_scratch * u64::from(waves_in_group)).max(256) as u32,
            k.wave_size() == 64,
        );
        s.extend_from_slice(&r);
    }
    if props.enable_sgpr_dispatch_ptr() {
        s.extend([lo(p.packet), hi(p.packet)]);
    }
    if props.enable_sgpr_queue_ptr() {
        s.extend([lo(p.queue), hi(p.queue)]);
    }
    if props.enable_sgpr_kernarg_segment_ptr() {
        s.extend([lo(p.kernarg), hi(p.kernarg)]);
    }
    if props.enable_sgpr_dispatch_id() {
        s.extend([1, 0]);
    }
    if props.enable_sgpr_flat_scratch_init() {
        match k.device.flat_scratch {
            // offset from the hidden private base; per-lane size
            FlatScratch::Offset => s.extend([0, p.private_size]),
            _ => s.extend([lo(layout::SCRATCH), hi(layout::SCRATCH)]),
        }
    }
    let preload = k.descriptor.kernarg_preload();
    for n in 0..preload.length() {
        let at = 4 * (preload.offset() + n) as usize;
        let v = kernarg_bytes
            .get(at..at + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        s.push(v);
    }
    if props.enable_sgpr_private_segment_size() {
        s.push(p.private_size);
    }
    // only the first 16 user SGPRs are initialized; system SGPRs follow USER_SGPR_COUNT
    s.truncate(16);
    let user = rsrc2.user_sgpr_count() as usize;
    s.resize(user, 0);
    if rsrc2.enable_sgpr_workgroup_id_x() {
        s.push(group[0]);
    }
    if rsrc2.enable_sgpr_workgroup_id_y() {
        s.push(group[1]);
    }
    if rsrc2.enable_sgpr_workgroup_id_z() {
        s.push(group[2]);
    }
    if rsrc2.enable_sgpr_workgroup_info() {
        // {first_wavefront, 14'b0, ordered_append_term[10:0], threadgroup_size_in_wavefronts[5:0]}
        let first = u32::from(wave_in_group == 0) << 31;
        s.push(first | (waves_in_group & 0x3f));
    }
    if rsrc2.enable_private_segment() && !architected {
        s.push(lo(scratch_wave - layout::SCRATCH));
    }
    s
}

/// Work-item IDs of one lane's VGPRs: `(vgpr0, vgpr1, vgpr2)`, unpacked or packed
/// (AMDGPUUsage "VGPR Register Set Up Order" and "Register Layout for Packed Work-Item
/// ID Method").
pub fn workitem_vgprs(packed: bool, enable: u32, id: [u32; 3]) -> [Option<u32>; 3] {
    if packed {
        let y = if enable > 0 { id[1] } else { 0 };
        let z = if enable > 1 { id[2] } else { 0 };
        [
            Some(id[0] & 0x3ff | (y & 0x3ff) << 10 | (z & 0x3ff) << 20),
            None,
            None,
        ]
    } else {
        [
            Some(id[0]),
            (enable > 0).then_some(id[1]),
            (enable > 1).then_some(id[2]),
        ]
    }
}

#[cfg(test)]
mod tests {
    //! Expected values are written from AMDGPUUsage's tables (SGPR set-up order,
    //! work-group info, packed work-item IDs, the v5 hidden arguments), the HSA AQL
    //! packet layout, ROCr's `amd_queue_t` and seed 001 (gfx6-gfx8 fields at 192, 196,
    //! 200 of the v5 block); the v5 block offsets are those clang-22 writes in the
    //! metadata of the corpus.
    use super::*;
    use crate::kernel::{Device, Kernel};
    use hsaco_elf::kd::KernelDescriptor;
    use hsaco_elf::metadata::{KernelArg, KernelMetadata};
    use hsaco_target::Processor;

    fn descriptor(rsrc2: u32, props: u16) -> KernelDescriptor {
        let mut b = [0u8; 64];
        b[52..56].copy_from_slice(&rsrc2.to_le_bytes());
        b[56..58].copy_from_slice(&props.to_le_bytes());
        KernelDescriptor::from_bytes(b)
    }

    fn arg(kind: &str, offset: u64, size: u64) -> KernelArg {
        KernelArg {
            value_kind: Some(kind.to_string()),
            offset: Some(offset),
            size: Some(size),
            ..KernelArg::default()
        }
    }

    fn kernel(proc: &str, version: u32, kd: KernelDescriptor, args: Vec<KernelArg>) -> Kernel {
        let p = Processor::by_name(proc).unwrap();
        Kernel {
            name: "k".into(),
            code_object_version: version,
            device: Device::new(p),
            descriptor: kd,
            descriptor_address: layout::CODE + 0x40,
            entry: layout::CODE + 0x100,
            metadata: KernelMetadata {
                kernarg_segment_size: Some(
                    args.iter()
                        .map(|a| a.offset.unwrap() + a.size.unwrap())
                        .max()
                        .unwrap_or(0),
                ),
                args: Some(args),
                ..KernelMetadata::default()
            },
            image: vec![0; 0x200],
            load_base: layout::CODE,
            code_ranges: vec![(layout::CODE + 0x100, layout::CODE + 0x200)],
            functions: Vec::new(),
            printf: vec![],
        }
    }

    #[test]
    fn sgpr_set_up_order() {
        // every user SGPR input enabled: 4 + 2 + 2 + 2 + 2 + 2 + 1 = 15 user SGPRs
        // (USER_SGPR_COUNT bits 5:1), then work-group IDs X Y Z (bits 7-9), work-group
        // info (bit 10) and the scratch wave offset (bit 0)
        let rsrc2 = 1 | 15 << 1 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10;
        let k = kernel("gfx906", 5, descriptor(rsrc2, 0x7f), vec![]);
        let d = Dispatch {
            grid: [256, 1, 1],
            block: [256, 1, 1],
            dynamic_lds: 0,
            args: vec![],
        };
        let mut mem = Memory::new();
        let p = place(&k, &d, &mut mem).unwrap();
        let s = initial_sgprs(&k, &p, [5, 6, 7], 2, 4, &[]);
        assert_eq!(s.len(), 20);
        // s[0:3] private segment buffer: base of scratch backing memory
        assert_eq!(
            u64::from(s[0]) | u64::from(s[1] & 0xffff) << 32,
            layout::SCRATCH
        );
        assert_eq!((s[4], s[5]), (p.packet as u32, (p.packet >> 32) as u32));
        assert_eq!((s[6], s[7]), (p.queue as u32, (p.queue >> 32) as u32));
        assert_eq!((s[8], s[9]), (p.kernarg as u32, (p.kernarg >> 32) as u32));
        // s[12:13] flat scratch init (absolute flat scratch on gfx9: the backing base)
        assert_eq!(u64::from(s[12]) | u64::from(s[13]) << 32, layout::SCRATCH);
        assert_eq!(s[14], 0, "private segment size");
        assert_eq!(&s[15..18], &[5, 6, 7], "work-group IDs");
        // {first_wavefront, 14'b0, ordered_append_term[10:0], size_in_waves[5:0]}:
        // wave 2 of 4 is not the first
        assert_eq!(s[18], 4);
        let s0 = initial_sgprs(&k, &p, [0, 0, 0], 0, 4, &[]);
        assert_eq!(s0[18], 1 << 31 | 4);
        // the scratch wave offset of wave 2: 2 waves of 0 bytes each
        assert_eq!(s[19], 0);
    }

    #[test]
    fn only_enabled_sgprs_dense_from_s0() {
        // kernarg pointer and work-group ID X only (the vadd shape): s[0:1], s2
        let k = kernel("gfx90a", 5, descriptor(2 << 1 | 1 << 7, 1 << 3), vec![]);
        let d = Dispatch {
            grid: [64, 1, 1],
            block: [64, 1, 1],
            dynamic_lds: 0,
            args: vec![],
        };
        let mut mem = Memory::new();
        let p = place(&k, &d, &mut mem).unwrap();
        let s = initial_sgprs(&k, &p, [9, 0, 0], 0, 1, &[]);
        assert_eq!(s, vec![p.kernarg as u32, (p.kernarg >> 32) as u32, 9]);
    }

    #[test]
    fn work_item_ids() {
        // unpacked: one VGPR per enabled dimension
        assert_eq!(workitem_vgprs(false, 0, [3, 4, 5]), [Some(3), None, None]);
        assert_eq!(
            workitem_vgprs(false, 2, [3, 4, 5]),
            [Some(3), Some(4), Some(5)]
        );
        // packed: X in 9:0, Y in 19:10, Z in 29:20, zero when not enabled
        assert_eq!(
            workitem_vgprs(true, 2, [3, 4, 5]),
            [Some(3 | 4 << 10 | 5 << 20), None, None]
        );
        assert_eq!(workitem_vgprs(true, 0, [3, 4, 5]), [Some(3), None, None]);
        assert_eq!(
            workitem_vgprs(true, 1, [1023, 1, 7]),
            [Some(1023 | 1 << 10), None, None]
        );
    }

    fn kernarg(mem: &Memory, p: &Placed) -> Vec<u8> {
        mem.region_at(p.kernarg).unwrap().data.clone()
    }
    fn u16_at(b: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([b[at], b[at + 1]])
    }
    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }
    fn u64_at(b: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
    }

    #[test]
    fn v5_hidden_block() {
        // one explicit pointer, then the implicit block at 8 (only block_count_x listed:
        // a runtime fills the whole block anyway)
        let args = vec![
            arg("global_buffer", 0, 8),
            arg("hidden_block_count_x", 8, 4),
        ];
        let k = kernel("gfx90a", 5, descriptor(0, 1 << 3), args);
        let d = Dispatch {
            grid: [1000, 3, 1],
            block: [256, 2, 1],
            dynamic_lds: 128,
            args: vec![ArgValue::Buffer {
                elem: Elem::U32,
                data: vec![0; 16],
            }],
        };
        let mut mem = Memory::new();
        let p = place(&k, &d, &mut mem).unwrap();
        let ka = kernarg(&mem, &p);
        assert_eq!(u64_at(&ka, 0), p.buffers[0].1);
        let b = 8;
        // block counts: non-partial work-groups only (1000 / 256 = 3, 3 / 2 = 1)
        assert_eq!(
            (u32_at(&ka, b), u32_at(&ka, b + 4), u32_at(&ka, b + 8)),
            (3, 1, 1)
        );
        // group sizes: the packet's
        assert_eq!(
            (
                u16_at(&ka, b + 12),
                u16_at(&ka, b + 14),
                u16_at(&ka, b + 16)
            ),
            (256, 2, 1)
        );
        // remainders: the partial work-group's size (1000 % 256, 3 % 2), 0 if none
        assert_eq!(
            (
                u16_at(&ka, b + 18),
                u16_at(&ka, b + 20),
                u16_at(&ka, b + 22)
            ),
            (232, 1, 0)
        );
        // global offsets 0; grid dims 2
        assert_eq!(u64_at(&ka, b + 40), 0);
        assert_eq!(u16_at(&ka, b + 64), 2);
        assert_eq!(u32_at(&ka, b + 120), 128, "dynamic LDS size");
        // gfx9 reads apertures from hardware registers: 192..208 stay 0
        assert_eq!(u64_at(&ka, b + 192), 0);
        assert_eq!(u64_at(&ka, b + 200), 0);
    }

    #[test]
    fn v5_pre_gfx9_aperture_fields() {
        let args = vec![
            arg("global_buffer", 0, 8),
            arg("hidden_block_count_x", 8, 4),
        ];
        let k = kernel("gfx803", 5, descriptor(0, 1 << 3), args);
        let d = Dispatch {
            grid: [64, 1, 1],
            block: [64, 1, 1],
            dynamic_lds: 0,
            args: vec![ArgValue::Buffer {
                elem: Elem::U32,
                data: vec![0; 4],
            }],
        };
        let mut mem = Memory::new();
        let p = place(&k, &d, &mut mem).unwrap();
        let ka = kernarg(&mem, &p);
        // hidden_private_base at 192, hidden_shared_base at 196: high halves of the
        // apertures; hidden_queue_ptr at 200
        assert_eq!(
            u32_at(&ka, 8 + 192),
            (k.device.private_aperture >> 32) as u32
        );
        assert_eq!(
            u32_at(&ka, 8 + 196),
            (k.device.shared_aperture >> 32) as u32
        );
        assert_eq!(u64_at(&ka, 8 + 200), p.queue);
        // and the queue holds the same apertures (amd_queue_t offsets 64 and 68)
        let q = &mem.region_at(p.queue).unwrap().data;
        assert_eq!(u32_at(q, 64), (k.device.shared_aperture >> 32) as u32);
        assert_eq!(u32_at(q, 68), (k.device.private_aperture >> 32) as u32);
    }

    #[test]
    fn v4_hidden_entries_and_packet() {
        let args = vec![
            arg("by_value", 0, 4),
            arg("hidden_global_offset_x", 8, 8),
            arg("hidden_global_offset_y", 16, 8),
            arg("hidden_global_offset_z", 24, 8),
            arg("hidden_none", 32, 8),
            arg("hidden_printf_buffer", 40, 8),
        ];
        let k = kernel("gfx906", 4, descriptor(0, 1 << 3), args);
        let d = Dispatch {
            grid: [100, 20, 3],
            block: [10, 2, 3],
            dynamic_lds: 0,
            args: vec![ArgValue::Scalar(7u32.to_le_bytes().to_vec())],
        };
        let mut mem = Memory::new();
        let p = place(&k, &d, &mut mem).unwrap();
        let ka = kernarg(&mem, &p);
        assert_eq!(u32_at(&ka, 0), 7);
        assert_eq!(
            (u64_at(&ka, 8), u64_at(&ka, 16), u64_at(&ka, 24)),
            (0, 0, 0)
        );
        let pb = u64_at(&ka, 40);
        assert_eq!(Some(pb), p.printf_buffer);
        assert!(mem.read_u32(pb).is_ok(), "the printf buffer is mapped");
        // hsa_kernel_dispatch_packet_t: setup (dims) at 2, workgroup_size_x/y/z at
        // 4/6/8, grid_size_x/y/z at 12/16/20, kernel_object at 32, kernarg_address at 40
        let q = &mem.region_at(p.queue).unwrap().data;
        let pk = (p.packet - p.queue) as usize;
        assert_eq!(u16_at(q, pk) & 0xff, 2, "KERNEL_DISPATCH");
        assert_eq!(u16_at(q, pk + 2), 3);
        assert_eq!(
            (u16_at(q, pk + 4), u16_at(q, pk + 6), u16_at(q, pk + 8)),
            (10, 2, 3)
        );
        assert_eq!(
            (u32_at(q, pk + 12), u32_at(q, pk + 16), u32_at(q, pk + 20)),
            (100, 20, 3)
        );
        assert_eq!(u64_at(q, pk + 32), k.descriptor_address);
        assert_eq!(u64_at(q, pk + 40), p.kernarg);
    }

    #[test]
    fn arguments_checked_against_metadata() {
        let args = vec![arg("global_buffer", 0, 8), arg("by_value", 8, 4)];
        let k = kernel("gfx906", 5, descriptor(0, 1 << 3), args);
        let mut d = Dispatch {
            grid: [1, 1, 1],
            block: [1, 1, 1],
            dynamic_lds: 0,
            args: vec![ArgValue::Scalar(vec![0; 4]), ArgValue::Scalar(vec![0; 4])],
        };
        assert!(matches!(
            place(&k, &d, &mut Memory::new()),
            Err(EmuError::Args(_))
        ));
        d.args = vec![
            ArgValue::Buffer {
                elem: Elem::U8,
                data: vec![1],
            },
            ArgValue::Scalar(vec![0; 8]),
        ];
        assert!(matches!(
            place(&k, &d, &mut Memory::new()),
            Err(EmuError::Args(_))
        ));
        d.args.pop();
        assert!(matches!(
            place(&k, &d, &mut Memory::new()),
            Err(EmuError::Args(_))
        ));
    }
}
