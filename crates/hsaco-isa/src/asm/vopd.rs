//! Dual-issue statements (`v_dual_X ... :: v_dual_Y ...`).

use super::{AsmError, Encoded, SymbolLookup};
use crate::Decoder;

pub(crate) fn encode(
    dec: &Decoder,
    _text: &str,
    sep: usize,
    syms: &mut dyn SymbolLookup,
    out: &mut Vec<u8>,
) -> Result<Encoded, AsmError> {
    let _ = (dec, syms, out);
    Err(AsmError {
        span: sep..sep + 2,
        message: "dual-issue (VOPD) statements are not supported yet".to_string(),
    })
}
