//! The `.amdhsa_kernel` block that `llvm-objdump -D --disassemble-symbols=<name>.kd`
//! prints for a kernel descriptor, and the reserved-bit checks that make LLVM refuse
//! to decode one.
//!
//! Everything here was established by observation of llvm-objdump-22 on real and
//! bit-flipped descriptors of every processor family (see `tests/data/kd/`).

use std::fmt::Write as _;

use super::descriptor::KernelDescriptor;
use super::target::{KdFamily, KdTarget};

/// A set of reserved bits found set in a kernel descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReservedBits {
    /// Where the bits are: `kernel descriptor` (bit numbers count from the start of
    /// the 64-byte descriptor), or the register word / field name
    /// (`COMPUTE_PGM_RSRC1`, `COMPUTE_PGM_RSRC1_PRIORITY`, `COMPUTE_PGM_RSRC3`, ...; bit
    /// numbers count within the 32-bit word).
    pub field: &'static str,
    /// Highest bit of the reserved range.
    pub hi: u32,
    /// Lowest bit of the reserved range.
    pub lo: u32,
    /// Bit number of `lo` in the 512-bit descriptor.
    pub descriptor_bit: u32,
    /// The value of the range (bits `hi..=lo` shifted down; for ranges wider than 64
    /// bits, the low 64 bits).
    pub value: u64,
    /// The message `llvm-objdump` prints for it (without `; error decoding <sym>: `).
    pub llvm_message: String,
}

/// One reserved range checked by LLVM's descriptor decoder.
struct Check {
    /// Name in the message (`None`: descriptor-level bits, absolute numbering).
    field: Option<&'static str>,
    /// Byte offset of the 32-bit word (`None`: absolute bit numbers in the descriptor).
    word: Option<usize>,
    hi: u32,
    lo: u32,
    /// `, must be zero <suffix>` appended to the message.
    suffix: Option<&'static str>,
    /// Replaces the whole message.
    message: Option<&'static str>,
}

const fn abs(hi: u32, lo: u32) -> Check {
    Check {
        field: None,
        word: None,
        hi,
        lo,
        suffix: None,
        message: None,
    }
}

const fn abs_sfx(hi: u32, lo: u32, suffix: &'static str) -> Check {
    Check {
        field: None,
        word: None,
        hi,
        lo,
        suffix: Some(suffix),
        message: None,
    }
}

const fn w(
    word: usize,
    field: &'static str,
    hi: u32,
    lo: u32,
    suffix: Option<&'static str>,
) -> Check {
    Check {
        field: Some(field),
        word: Some(word),
        hi,
        lo,
        suffix,
        message: None,
    }
}

const RSRC3: usize = 44;
const RSRC1: usize = 48;
const RSRC2: usize = 52;

/// The checks in the order LLVM applies them (the first hit is the reported error).
fn checks(target: &KdTarget) -> Vec<Check> {
    let f = target.family;
    let mut v = vec![abs(127, 96), abs(351, 192)];
    // COMPUTE_PGM_RSRC3
    match f {
        KdFamily::Gfx6To8 | KdFamily::Gfx9 => v.push(Check {
            field: Some("COMPUTE_PGM_RSRC3"),
            word: Some(RSRC3),
            hi: 31,
            lo: 0,
            suffix: None,
            message: Some("kernel descriptor COMPUTE_PGM_RSRC3 must be all zero before gfx9"),
        }),
        KdFamily::Gfx90a => {
            v.push(w(RSRC3, "COMPUTE_PGM_RSRC3", 15, 6, Some("on gfx90a")));
            v.push(w(RSRC3, "COMPUTE_PGM_RSRC3", 31, 17, Some("on gfx90a")));
        }
        KdFamily::Gfx10 | KdFamily::Gfx11 | KdFamily::Gfx12 | KdFamily::Gfx125 => {
            if f == KdFamily::Gfx12 || f == KdFamily::Gfx125 {
                v.push(w(RSRC3, "COMPUTE_PGM_RSRC3", 3, 0, Some("on gfx12+")));
            }
            if f == KdFamily::Gfx10 {
                v.push(w(RSRC3, "COMPUTE_PGM_RSRC3", 11, 4, Some("on gfx10")));
            }
            v.push(w(RSRC3, "COMPUTE_PGM_RSRC3", 12, 12, Some("on gfx10+")));
            if f == KdFamily::Gfx10 || f == KdFamily::Gfx11 {
                v.push(w(
                    RSRC3,
                    "COMPUTE_PGM_RSRC3",
                    13,
                    13,
                    Some("on gfx10 or gfx11"),
                ));
            }
            if f != KdFamily::Gfx125 {
                v.push(w(RSRC3, "COMPUTE_PGM_RSRC3", 21, 14, Some("on gfx10+")));
            }
            v.push(w(RSRC3, "COMPUTE_PGM_RSRC3", 30, 22, Some("on gfx10+")));
            if f == KdFamily::Gfx10 {
                v.push(w(RSRC3, "COMPUTE_PGM_RSRC3", 31, 31, Some("on gfx10")));
            }
        }
    }
    // COMPUTE_PGM_RSRC1
    if target.is_gfx10_plus() {
        v.push(w(
            RSRC1,
            "COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT",
            9,
            6,
            Some("on gfx10+"),
        ));
    }
    v.push(w(RSRC1, "COMPUTE_PGM_RSRC1_PRIORITY", 11, 10, None));
    v.push(w(RSRC1, "COMPUTE_PGM_RSRC1_PRIV", 20, 20, None));
    v.push(w(RSRC1, "COMPUTE_PGM_RSRC1_DEBUG_MODE", 22, 22, None));
    v.push(w(RSRC1, "COMPUTE_PGM_RSRC1_BULKY", 24, 24, None));
    v.push(w(RSRC1, "COMPUTE_PGM_RSRC1_CDBG_USER", 25, 25, None));
    if !target.is_gfx9_plus() {
        v.push(w(RSRC1, "COMPUTE_PGM_RSRC1", 26, 26, Some("pre-gfx9")));
    }
    if f != KdFamily::Gfx125 {
        v.push(w(RSRC1, "COMPUTE_PGM_RSRC1", 27, 27, None));
    }
    v.push(w(RSRC1, "COMPUTE_PGM_RSRC1", 28, 28, None));
    if !target.is_gfx10_plus() {
        v.push(w(RSRC1, "COMPUTE_PGM_RSRC1", 31, 29, None));
    }
    // COMPUTE_PGM_RSRC2
    v.push(w(
        RSRC2,
        "COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_ADDRESS_WATCH",
        13,
        13,
        None,
    ));
    v.push(w(
        RSRC2,
        "COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_MEMORY",
        14,
        14,
        None,
    ));
    v.push(w(
        RSRC2,
        "COMPUTE_PGM_RSRC2_GRANULATED_LDS_SIZE",
        23,
        15,
        None,
    ));
    v.push(w(RSRC2, "COMPUTE_PGM_RSRC2", 31, 31, None));
    // kernel code properties
    v.push(abs(457, 455));
    if matches!(f, KdFamily::Gfx9 | KdFamily::Gfx90a) {
        v.push(abs_sfx(458, 458, "on gfx9"));
    }
    v.push(abs(463, 460));
    v.push(abs(511, 480));
    v
}

/// Up to 64 bits of `bytes` starting at bit `lo` (bits past the end read as 0).
fn extract(bytes: &[u8; 64], lo: u32, width: u32) -> u64 {
    let first = (lo / 8) as usize;
    let mut window = [0u8; 16];
    for (i, w) in window.iter_mut().enumerate() {
        *w = bytes.get(first + i).copied().unwrap_or(0);
    }
    let v = u128::from_le_bytes(window) >> (lo % 8);
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    (v as u64) & mask
}

/// Whether any bit of `width` bits from `abs_lo` is set, and the low 64 bits of it.
fn range_value(bytes: &[u8; 64], abs_lo: u32, width: u32) -> (bool, u64) {
    let value = extract(bytes, abs_lo, width.min(64));
    let mut any = value != 0;
    let mut at = 64;
    while !any && at < width {
        any = extract(bytes, abs_lo + at, (width - at).min(64)) != 0;
        at += 64;
    }
    (any, value)
}

fn message(c: &Check) -> String {
    if let Some(m) = c.message {
        return m.to_string();
    }
    let mut s = String::from("kernel descriptor ");
    if let Some(field) = c.field {
        s.push_str(field);
        s.push(' ');
    }
    if c.hi == c.lo {
        let _ = write!(s, "reserved bit ({}) set", c.lo);
    } else {
        let _ = write!(s, "reserved bits in range ({}:{}) set", c.hi, c.lo);
    }
    if let Some(suffix) = c.suffix {
        s.push_str(", must be zero ");
        s.push_str(suffix);
    }
    s
}

/// Reserved bits set in `kd` for `target`, in the order LLVM checks them; only the
/// first if `first_only`.
pub(crate) fn reserved_bits(
    kd: &KernelDescriptor,
    target: &KdTarget,
    first_only: bool,
) -> Vec<ReservedBits> {
    let bytes = kd.as_bytes();
    let mut out = Vec::new();
    for c in checks(target) {
        let abs_lo = match c.word {
            Some(word) => word as u32 * 8 + c.lo,
            None => c.lo,
        };
        let (any, value) = range_value(bytes, abs_lo, c.hi - c.lo + 1);
        if any {
            out.push(ReservedBits {
                field: c.field.unwrap_or("kernel descriptor"),
                hi: c.hi,
                lo: c.lo,
                descriptor_bit: abs_lo,
                value,
                llvm_message: message(&c),
            });
            if first_only {
                break;
            }
        }
    }
    out
}

/// Options of [`KernelDescriptor::to_llvm_text`]: what else than the descriptor bytes
/// the text of `llvm-objdump` depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrintOptions {
    /// The processor's descriptor properties, including whether XNACK is enabled
    /// (`llvm-objdump --mcpu=<cpu>` without `--mattr` uses [`KdTarget::new`]).
    pub target: KdTarget,
    /// The code object version, `EI_ABIVERSION + 2` of the file. llvm-objdump 22
    /// prints `.amdhsa_uses_dynamic_stack` for every version except 4 (observed: also
    /// for files marked v2 and v3, which it cannot otherwise tell apart from v5).
    pub code_object_version: u8,
}

fn line(out: &mut String, directive: &str, value: impl std::fmt::Display) {
    let _ = writeln!(out, "\t.amdhsa_{directive} {value}");
}

fn comment(out: &mut String, name: &str, value: impl std::fmt::Display) {
    let _ = writeln!(out, "\t; {name} {value}");
}

/// The `.amdhsa_kernel` ... `.end_amdhsa_kernel` block, decoded whatever reserved bits
/// are set. Every line ends with `\n`.
pub(crate) fn amdhsa_block(kd: &KernelDescriptor, name: &str, opts: &PrintOptions) -> String {
    let t = &opts.target;
    let f = t.family;
    let r1 = kd.compute_pgm_rsrc1();
    let r2 = kd.compute_pgm_rsrc2();
    let r3 = kd.compute_pgm_rsrc3();
    let kcp = kd.kernel_code_properties();
    let wave32 = t.is_gfx10_plus() && kcp.enable_wavefront_size32();
    let afs = t.architected_flat_scratch;
    let b = u8::from;

    let mut o = String::with_capacity(2048);
    let _ = writeln!(o, ".amdhsa_kernel {name}");
    line(
        &mut o,
        "group_segment_fixed_size",
        kd.group_segment_fixed_size(),
    );
    line(
        &mut o,
        "private_segment_fixed_size",
        kd.private_segment_fixed_size(),
    );
    line(&mut o, "kernarg_size", kd.kernarg_size());

    // COMPUTE_PGM_RSRC3
    match f {
        KdFamily::Gfx6To8 | KdFamily::Gfx9 => {}
        KdFamily::Gfx90a => {
            line(&mut o, "accum_offset", (r3.accum_offset() + 1) * 4);
            line(&mut o, "tg_split", b(r3.tg_split()));
        }
        KdFamily::Gfx10 | KdFamily::Gfx11 => {
            if wave32 {
                comment(&mut o, "SHARED_VGPR_COUNT", r3.shared_vgpr_count());
            } else {
                line(&mut o, "shared_vgpr_count", r3.shared_vgpr_count());
            }
            if f == KdFamily::Gfx11 {
                line(&mut o, "inst_pref_size", r3.inst_pref_size_gfx11());
                comment(&mut o, "TRAP_ON_START", b(r3.trap_on_start()));
                comment(&mut o, "TRAP_ON_END", b(r3.trap_on_end()));
                comment(&mut o, "IMAGE_OP", b(r3.image_op()));
            }
        }
        KdFamily::Gfx12 | KdFamily::Gfx125 => {
            line(&mut o, "inst_pref_size", r3.inst_pref_size_gfx12());
            comment(&mut o, "GLG_EN", b(r3.glg_en()));
            if f == KdFamily::Gfx125 {
                line(&mut o, "named_barrier_count", r3.named_bar_cnt());
                comment(&mut o, "ENABLE_DYNAMIC_VGPR", b(r3.enable_dynamic_vgpr()));
                comment(&mut o, "TCP_SPLIT", r3.tcp_split());
                comment(&mut o, "ENABLE_DIDT_THROTTLE", b(r3.enable_didt_throttle()));
            }
            comment(&mut o, "IMAGE_OP", b(r3.image_op()));
        }
    }

    // COMPUTE_PGM_RSRC1
    line(
        &mut o,
        "next_free_vgpr",
        (r1.granulated_workitem_vgpr_count() + 1) * t.vgpr_granule(wave32),
    );
    line(&mut o, "reserve_vcc", 0);
    if !afs {
        line(&mut o, "reserve_flat_scratch", 0);
    }
    line(&mut o, "reserve_xnack_mask", b(t.xnack));
    let sgpr_blocks = if t.is_gfx10_plus() {
        0
    } else {
        r1.granulated_wavefront_sgpr_count()
    };
    line(
        &mut o,
        "next_free_sgpr",
        (sgpr_blocks + 1) * t.sgpr_granule(),
    );
    line(&mut o, "float_round_mode_32", r1.float_round_mode_32());
    line(
        &mut o,
        "float_round_mode_16_64",
        r1.float_round_mode_16_64(),
    );
    line(&mut o, "float_denorm_mode_32", r1.float_denorm_mode_32());
    line(
        &mut o,
        "float_denorm_mode_16_64",
        r1.float_denorm_mode_16_64(),
    );
    if !t.is_gfx12_plus() {
        line(&mut o, "dx10_clamp", b(r1.enable_dx10_clamp()));
        line(&mut o, "ieee_mode", b(r1.enable_ieee_mode()));
    }
    if t.is_gfx9_plus() {
        line(&mut o, "fp16_overflow", b(r1.fp16_ovfl()));
    }
    if f == KdFamily::Gfx125 {
        comment(&mut o, "FLAT_SCRATCH_IS_NV", b(r1.flat_scratch_is_nv()));
    }
    if t.is_gfx10_plus() {
        if f != KdFamily::Gfx125 {
            line(&mut o, "workgroup_processor_mode", b(r1.wgp_mode()));
        }
        line(&mut o, "memory_ordered", b(r1.mem_ordered()));
        line(&mut o, "forward_progress", b(r1.fwd_progress()));
    }
    if t.is_gfx12_plus() {
        line(&mut o, "round_robin_scheduling", b(r1.wg_rr_en()));
    }

    // COMPUTE_PGM_RSRC2
    if afs {
        line(
            &mut o,
            "enable_private_segment",
            b(r2.enable_private_segment()),
        );
    } else {
        line(
            &mut o,
            "system_sgpr_private_segment_wavefront_offset",
            b(r2.enable_private_segment()),
        );
    }
    line(
        &mut o,
        "system_sgpr_workgroup_id_x",
        b(r2.enable_sgpr_workgroup_id_x()),
    );
    line(
        &mut o,
        "system_sgpr_workgroup_id_y",
        b(r2.enable_sgpr_workgroup_id_y()),
    );
    line(
        &mut o,
        "system_sgpr_workgroup_id_z",
        b(r2.enable_sgpr_workgroup_id_z()),
    );
    line(
        &mut o,
        "system_sgpr_workgroup_info",
        b(r2.enable_sgpr_workgroup_info()),
    );
    line(
        &mut o,
        "system_vgpr_workitem_id",
        r2.enable_vgpr_workitem_id(),
    );
    line(
        &mut o,
        "exception_fp_ieee_invalid_op",
        b(r2.enable_exception_ieee_754_fp_invalid_operation()),
    );
    line(
        &mut o,
        "exception_fp_denorm_src",
        b(r2.enable_exception_fp_denormal_source()),
    );
    line(
        &mut o,
        "exception_fp_ieee_div_zero",
        b(r2.enable_exception_ieee_754_fp_division_by_zero()),
    );
    line(
        &mut o,
        "exception_fp_ieee_overflow",
        b(r2.enable_exception_ieee_754_fp_overflow()),
    );
    line(
        &mut o,
        "exception_fp_ieee_underflow",
        b(r2.enable_exception_ieee_754_fp_underflow()),
    );
    line(
        &mut o,
        "exception_fp_ieee_inexact",
        b(r2.enable_exception_ieee_754_fp_inexact()),
    );
    line(
        &mut o,
        "exception_int_div_zero",
        b(r2.enable_exception_int_divide_by_zero()),
    );

    // kernel code properties
    if !afs {
        line(
            &mut o,
            "user_sgpr_private_segment_buffer",
            b(kcp.enable_sgpr_private_segment_buffer()),
        );
    }
    line(
        &mut o,
        "user_sgpr_dispatch_ptr",
        b(kcp.enable_sgpr_dispatch_ptr()),
    );
    line(
        &mut o,
        "user_sgpr_queue_ptr",
        b(kcp.enable_sgpr_queue_ptr()),
    );
    line(
        &mut o,
        "user_sgpr_kernarg_segment_ptr",
        b(kcp.enable_sgpr_kernarg_segment_ptr()),
    );
    line(
        &mut o,
        "user_sgpr_dispatch_id",
        b(kcp.enable_sgpr_dispatch_id()),
    );
    if !afs {
        line(
            &mut o,
            "user_sgpr_flat_scratch_init",
            b(kcp.enable_sgpr_flat_scratch_init()),
        );
    }
    line(
        &mut o,
        "user_sgpr_private_segment_size",
        b(kcp.enable_sgpr_private_segment_size()),
    );
    if t.is_gfx10_plus() {
        line(&mut o, "wavefront_size32", b(kcp.enable_wavefront_size32()));
    }
    if opts.code_object_version != 4 {
        line(&mut o, "uses_dynamic_stack", b(kcp.uses_dynamic_stack()));
    }

    // kernarg preload
    let preload = kd.kernarg_preload();
    if preload.length() != 0 {
        line(&mut o, "user_sgpr_kernarg_preload_length", preload.length());
    }
    if preload.offset() != 0 {
        line(&mut o, "user_sgpr_kernarg_preload_offset", preload.offset());
    }
    o.push_str(".end_amdhsa_kernel\n");
    o
}
