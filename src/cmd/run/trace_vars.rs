//! `hsaco run --trace G:W --trace-vars`: after each instruction of the traced wave, the
//! source variables in scope whose value changed, for one lane. hsaco-dwarf's `locate`
//! evaluates the locations (with a [`Machine`] reading the emulator's wave); the
//! emulator shows each step ([`TraceObserver`]); this file reads the bytes and words
//! them by the variables' DWARF base types.

use hsaco_dwarf::load::DwarfObject;
use hsaco_dwarf::locate::{
    self, Availability, Implicit, Location, Machine, Options, TypeInfo, TypeKind, Value,
    VariableInfo, Xderef,
};
use hsaco_dwarf::names::{AmdgpuRegister, DwarfRegister};
use hsaco_emu::{TraceObserver, TracedStep};
use std::collections::HashMap;

/// Collects the trace lines, each instruction followed by the variables it changed.
pub struct VarTracer<'a> {
    obj: DwarfObject<'a>,
    lane: u32,
    /// Where the emulator mapped the image (a trace address less this is the
    /// object's address, which DWARF uses).
    base: u64,
    /// The frame pointer is an unswizzled wave offset (see `frame_base_register`).
    unswizzled_frame: bool,
    /// The trace, as printed.
    pub lines: Vec<String>,
    /// Each variable's (DIE's) last shown value.
    last: HashMap<u64, String>,
    info: HashMap<u64, Option<VariableInfo>>,
}

impl<'a> VarTracer<'a> {
    /// `unswizzled_frame`: the code keeps its frame pointer as an unswizzled wave
    /// offset (MUBUF scratch), not a per-lane one (see `frame_base_register`).
    pub fn new(obj: DwarfObject<'a>, lane: u32, base: u64, unswizzled_frame: bool) -> Self {
        VarTracer {
            obj,
            lane,
            base,
            unswizzled_frame,
            lines: Vec::new(),
            last: HashMap::new(),
            info: HashMap::new(),
        }
    }
}

/// The emulated wave as the DWARF evaluator reads it.
struct Wave<'s, 'a> {
    st: &'s TracedStep<'a>,
    lane: u32,
    unswizzled_frame: bool,
}

impl Wave<'_, '_> {
    fn reg(&self, reg: u64, lane: Option<u32>) -> Option<u64> {
        let lane = lane.unwrap_or(self.lane);
        let st = self.st;
        Some(match DwarfRegister(reg).amdgpu()? {
            AmdgpuRegister::Sgpr(n) => u64::from(st.sgpr(u32::from(n))?),
            AmdgpuRegister::VgprWave32(n) | AmdgpuRegister::VgprWave64(n) => {
                u64::from(st.vgpr(u32::from(n), lane)?)
            }
            AmdgpuRegister::ExecMask64 => st.exec(),
            AmdgpuRegister::ExecMask32 => st.exec() & 0xffff_ffff,
            AmdgpuRegister::Vcc64 => u64::from(st.sgpr(106)?) | u64::from(st.sgpr(107)?) << 32,
            AmdgpuRegister::Vcc32 => u64::from(st.sgpr(106)?),
            _ => return None,
        })
    }

    /// `out.len()` bytes at `address` of DWARF address space `space`.
    fn bytes(&self, space: u64, address: u64, lane: u32, out: &mut [u8]) -> bool {
        match space {
            // DW_ASPACE_LLVM_none, DW_ASPACE_AMDGPU_generic: global memory
            0 | 1 => self.st.global(address, out),
            // DW_ASPACE_AMDGPU_local
            3 => u32::try_from(address).is_ok_and(|a| self.st.lds(a, out)),
            // DW_ASPACE_AMDGPU_private_lane
            5 => u32::try_from(address).is_ok_and(|a| self.st.private(lane, a, out)),
            _ => false,
        }
    }
}

impl Machine for Wave<'_, '_> {
    fn register(&mut self, reg: u64, lane: Option<u32>) -> Option<u64> {
        self.reg(reg, lane)
    }
    fn memory(&mut self, space: u64, address: u64, size: u8, lane: Option<u32>) -> Option<u64> {
        let mut b = [0u8; 8];
        let n = usize::from(size.min(8));
        self.bytes(space, address, lane.unwrap_or(self.lane), &mut b[..n])
            .then(|| u64::from_le_bytes(b))
    }
    fn frame_base_register(&mut self, reg: u64) -> Option<u64> {
        // an SGPR frame base (clang: SGPR33, the frame pointer) is an unswizzled wave
        // offset (AMDGPUUsage, the calling convention), while private_lane addresses
        // are per lane: swizzled = unswizzled / wave size. clang-22 keeps it so where
        // the stack is reached through MUBUF scratch (gfx8-gfx10.3, gfx90a: `s_lshr_b32
        // s4, s33, 6` before a flat access); with architected flat scratch (gfx94x,
        // gfx11+) its `scratch_*` instructions take s33 as the per-lane offset itself
        match DwarfRegister(reg).amdgpu()? {
            AmdgpuRegister::Sgpr(_) if self.unswizzled_frame => {
                Some(self.reg(reg, None)? / u64::from(self.st.wave_size()))
            }
            _ => None,
        }
    }
}

/// `size` bytes of location `l` (whole bytes only), lane `lane`'s where per lane.
fn read(w: &Wave<'_, '_>, l: &Location, lane_selected: bool, size: u64) -> Option<Vec<u8>> {
    let size = usize::try_from(size)
        .ok()
        .filter(|s| (1..=64).contains(s))?;
    match l {
        Location::Memory {
            space,
            address,
            bit_offset: 0,
        } => {
            let mut out = vec![0u8; size];
            w.bytes(*space, address.known()?, w.lane, &mut out)
                .then_some(out)
        }
        Location::Register { reg, bit_offset } => {
            let bits = bit_offset.known()?;
            let vector = locate::is_vector_register(*reg);
            // a vector register's element: the focused lane's, or the one the
            // expression selected (bit offset 32 x lane)
            let (lane, skip) = if vector {
                if lane_selected {
                    ((bits / 32) as u32, bits % 32)
                } else {
                    (w.lane, bits)
                }
            } else {
                (w.lane, bits)
            };
            if skip % 8 != 0 {
                return None;
            }
            // the register's 4 bytes, then the next registers' for a wider value
            let mut bytes = Vec::new();
            let mut r = *reg;
            while bytes.len() < size + (skip / 8) as usize {
                bytes.extend_from_slice(&(w.reg(r, Some(lane))? as u32).to_le_bytes());
                r += 1;
            }
            Some(bytes[(skip / 8) as usize..][..size].to_vec())
        }
        Location::Implicit {
            value,
            bit_offset: 0,
        } => {
            let mut b = match value {
                Implicit::Bytes(b) => b.clone(),
                Implicit::Value(v) => v.known()?.to_le_bytes().to_vec(),
            };
            b.resize(size, 0);
            Some(b)
        }
        Location::Composite {
            pieces,
            bit_offset: 0,
        } => {
            let mut out = Vec::new();
            for p in pieces {
                if p.bits % 8 != 0 {
                    return None;
                }
                out.extend(read(w, &p.location, lane_selected, p.bits / 8)?);
            }
            out.resize(size, 0);
            Some(out)
        }
        _ => None,
    }
}

/// The value of `bytes` in words, by type `t`.
fn word(t: &TypeInfo, bytes: &[u8]) -> String {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    let u = u64::from_le_bytes(b);
    let bits = 8 * n as u32;
    match (&t.kind, n) {
        (TypeKind::Signed, 1..=8) => {
            let s = 64 - bits;
            (((u << s) as i64) >> s).to_string()
        }
        (TypeKind::Unsigned, 1..=8) => u.to_string(),
        (TypeKind::Bool, _) => (u != 0).to_string(),
        (TypeKind::Float, 4) => format!("{:?}", f32::from_bits(u as u32)),
        (TypeKind::Float, 8) => format!("{:?}", f64::from_bits(u)),
        (TypeKind::Pointer, _) => format!("{u:#x}"),
        _ => hex(bytes),
    }
}

fn hex(bytes: &[u8]) -> String {
    let v: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("bytes {}", v.join(" "))
}

impl TraceObserver for VarTracer<'_> {
    fn step(&mut self, st: &TracedStep<'_>) {
        self.lines.push(st.line.clone());
        // the variables as they are at the next instruction (where a debugger
        // stopped after this one would show them)
        let Some(pc) = st.next.map(|a| a.wrapping_sub(self.base)) else {
            return;
        };
        let options = Options {
            lane: Some(self.lane),
            wave_size: Some(st.wave_size()),
            xderef: Xderef::AddressSpace,
        };
        let mut w = Wave {
            st,
            lane: self.lane,
            unswizzled_frame: self.unswizzled_frame,
        };
        let (vars, _) = locate::variables_at(&self.obj, pc, options, &mut w);
        for v in vars.iter().filter(|v| v.in_scope) {
            let info = self
                .info
                .entry(v.die)
                .or_insert_with(|| locate::variable_info(&self.obj, v.die))
                .clone();
            let Some(info) = info else {
                continue;
            };
            let size = info.ty.as_ref().map_or(0, |t| t.size);
            let bytes = match &v.availability {
                Availability::Located {
                    located,
                    expression,
                    ..
                } => match locate::clang_promoted_register(expression) {
                    // clang's idiom for a value promoted to register R (see `hsaco
                    // read --locate`): the value is R's contents
                    Some((reg, _)) => read(
                        &w,
                        &Location::Register {
                            reg,
                            bit_offset: Value::Const(0),
                        },
                        false,
                        size,
                    ),
                    None => read(&w, &located.location, located.lane_selected, size),
                },
                Availability::Constant(b) => {
                    let mut b = b.clone();
                    b.resize(size.max(1) as usize, 0);
                    Some(b)
                }
                _ => None,
            };
            let shown = match (&bytes, &info.ty) {
                (Some(b), Some(t)) => word(t, b),
                (Some(b), None) => hex(b),
                (None, _) => "<not available>".to_string(),
            };
            let before = self.last.get(&v.die);
            if before == Some(&shown) || (before.is_none() && bytes.is_none()) {
                continue;
            }
            let ty = info.ty.as_ref().map_or("?", |t| t.name.as_str());
            self.lines.push(format!(
                "    lane {}: {} = {shown} ({ty})",
                self.lane, info.name
            ));
            self.last.insert(v.die, shown);
        }
    }
}
