//! Operand text shared by the GCN printer (`print.rs`) and the RDNA printing rules
//! (`rdna.rs`): decimal and hex writers without a formatter, and the `sendmsg(...)`
//! layout that gfx6-gfx10 share. It sits below both so that neither imports the other.

use std::fmt::Write;

/// Append a decimal number (the hot path of register names; no formatter).
pub(crate) fn dec(out: &mut String, v: u32) {
    if v < 10 {
        out.push(char::from(b'0' + v as u8));
        return;
    }
    if v < 100 {
        // (register numbers: the common case)
        let i = v as usize * 2;
        out.push_str(DIGIT_PAIRS.get(i..i + 2).unwrap_or_default());
        return;
    }
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    let mut v = v;
    while v > 0 {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    for b in &buf[i..] {
        out.push(char::from(*b));
    }
}

/// "00" to "99".
const DIGIT_PAIRS: &str = concat!(
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839",
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879",
    "8081828384858687888990919293949596979899",
);

/// Append a 64-bit decimal number.
pub(crate) fn dec64(out: &mut String, v: u64) {
    if let Ok(v) = u32::try_from(v) {
        dec(out, v);
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut v = v;
    while v > 0 {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    for b in &buf[i..] {
        out.push(char::from(*b));
    }
}

/// Append a signed decimal number.
pub(crate) fn dec_signed(out: &mut String, v: i32) {
    if v < 0 {
        out.push('-');
    }
    dec(out, v.unsigned_abs());
}

/// Append `0x` and the lower-case hex digits of `v` (no formatter).
pub(crate) fn hex(out: &mut String, v: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.push_str("0x");
    let digits = ((64 - v.leading_zeros()).div_ceil(4)).max(1);
    for i in (0..digits).rev() {
        out.push(char::from(DIGITS[(v >> (4 * i) & 0xf) as usize]));
    }
}

/// `sendmsg(...)` of s_sendmsg/s_sendmsghalt before gfx11: message id in bits 0-3,
/// operation in 4-6, GS stream in 8-9. A known message with a valid operation and
/// stream prints by name (other bits ignored); anything else as `sendmsg(id, op,
/// stream)`, or as a number when bits outside those fields are set (as llvm-objdump;
/// checked on every 16-bit value, scripts/sweep16.py).
pub(crate) fn sendmsg(out: &mut String, v: u32, generation: &str) {
    let (id, op, stream) = (v & 0xf, (v >> 4) & 7, (v >> 8) & 3);
    let old = matches!(generation, "gfx6" | "gfx7");
    let gfx9_10 = matches!(generation, "gfx9" | "gfx10");
    let gs_op = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
    let plain = match id {
        1 => Some("MSG_INTERRUPT"),
        4 if !old => Some("MSG_SAVEWAVE"),
        5 if gfx9_10 => Some("MSG_STALL_WAVE_GEN"),
        6 if gfx9_10 => Some("MSG_HALT_WAVES"),
        7 if gfx9_10 => Some("MSG_ORDERED_PS_DONE"),
        8 if gfx9_10 => Some("MSG_EARLY_PRIM_DEALLOC"),
        9 if gfx9_10 => Some("MSG_GS_ALLOC_REQ"),
        10 if gfx9_10 => Some("MSG_GET_DOORBELL"),
        11 if generation == "gfx10" => Some("MSG_GET_DDID"),
        _ => None,
    };
    // system message operations: host trap ack only before gfx9
    let sysmsg = match op {
        1 => Some("SYSMSG_OP_ECC_ERR_INTERRUPT"),
        2 => Some("SYSMSG_OP_REG_RD"),
        3 if !gfx9_10 => Some("SYSMSG_OP_HOST_TRAP_ACK"),
        4 => Some("SYSMSG_OP_TTRACE_PC"),
        _ => None,
    };
    match (id, op, stream, plain) {
        (_, 0, 0, Some(name)) => {
            let _ = write!(out, "sendmsg({name})");
        }
        (2 | 3, 1..=3, _, _) => {
            let name = if id == 2 { "MSG_GS" } else { "MSG_GS_DONE" };
            let _ = write!(out, "sendmsg({name}, {}, {stream})", gs_op[op as usize]);
        }
        (3, 0, 0, _) => out.push_str("sendmsg(MSG_GS_DONE, GS_OP_NOP)"),
        (15, _, 0, _) if sysmsg.is_some() => {
            let _ = write!(out, "sendmsg(MSG_SYSMSG, {})", sysmsg.unwrap_or_default());
        }
        // bits outside the fields are ignored for a named message only
        _ if v & !0x37f != 0 => dec(out, v),
        _ => {
            let _ = write!(out, "sendmsg({id}, {op}, {stream})");
        }
    }
}
