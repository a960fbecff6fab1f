//! `.debug_loclists`, `.debug_frame` and `.debug_aranges` as llvm-dwarfdump-22
//! prints them, read with gimli.

use crate::cfa::{cfa_instructions, cie_instructions_start, write_rows, Cfa, UnwindState};
use crate::dump::{gerr, DumpOptions};
use crate::expr::{write_expression, ExprContext};
use crate::load::DwarfObject;
use crate::text::PushStr as _;
use crate::Error;
use gimli::{Reader, UnwindSection};
use std::io::Write as _;

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn uleb_len(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

/// Each contribution (header, offsets table, then its lists in order).
pub fn debug_loclists(
    obj: &DwarfObject,
    opts: DumpOptions,
    out: &mut Vec<u8>,
    errors: &mut Vec<Error>,
) {
    let sec = obj.section(".debug_loclists");
    let dwarf = obj.gimli();
    let base_ptr = sec.as_ptr() as usize;
    let mut off = 0usize;
    while off < sec.len() {
        let (Some(len), Some(count)) = (u32_at(sec, off), u32_at(sec, off + 8)) else {
            errors.push(Error::new(
                ".debug_loclists",
                off as u64,
                "truncated list header",
            ));
            return;
        };
        if len >= 0xffff_fff0 {
            errors.push(Error::new(
                ".debug_loclists",
                off as u64,
                "64-bit DWARF list header not supported",
            ));
            return;
        }
        let version = u16::from_le_bytes([
            sec.get(off + 4).copied().unwrap_or(0),
            sec.get(off + 5).copied().unwrap_or(0),
        ]);
        let addr_size = sec.get(off + 6).copied().unwrap_or(0);
        let seg = sec.get(off + 7).copied().unwrap_or(0);
        let end = off + 4 + len as usize;
        if end > sec.len() {
            errors.push(Error::new(
                ".debug_loclists",
                off as u64,
                format!("list header length {len:#x} past the end of the section"),
            ));
            return;
        }
        let _ = writeln!(
            out,
            "locations list header: length = 0x{len:08x}, format = DWARF32, version = 0x{version:04x}, addr_size = 0x{addr_size:02x}, seg_size = 0x{seg:02x}, offset_entry_count = 0x{count:08x}"
        );
        let table = off + 12;
        if count > 0 {
            out.push_str("offsets: [\n");
            for i in 0..count as usize {
                match u32_at(sec, table + 4 * i) {
                    Some(o) => {
                        let _ = writeln!(out, "0x{o:08x}");
                    }
                    None => {
                        errors.push(Error::new(
                            ".debug_loclists",
                            (table + 4 * i) as u64,
                            "truncated offsets table",
                        ));
                        return;
                    }
                }
            }
            out.push_str("]\n");
        }
        let encoding = gimli::Encoding {
            format: gimli::Format::Dwarf32,
            version: 5,
            address_size: addr_size,
        };
        let cx = ExprContext {
            address_size: addr_size,
            format: gimli::Format::Dwarf32,
            regs: opts.regs,
        };
        let mut pos = table + 4 * count as usize;
        while pos < end {
            let _ = writeln!(out, "0x{pos:08x}: ");
            let mut it = match dwarf
                .locations
                .raw_locations(gimli::LocationListsOffset(pos), encoding)
            {
                Ok(it) => it,
                Err(e) => {
                    errors.push(gerr(".debug_loclists", pos as u64, e));
                    return;
                }
            };
            let start = pos;
            loop {
                match it.next() {
                    Ok(Some(entry)) => {
                        use gimli::RawLocListEntry as E;
                        let mut data_end = |d: &gimli::Expression<crate::load::Slice<'_>>| {
                            let s = d.0.slice();
                            pos = s.as_ptr() as usize - base_ptr + s.len();
                        };
                        let _ = write!(out, "            ");
                        // (name, begin, end or length, expression) of the entries with one
                        let pair = match &entry {
                            E::OffsetPair { begin, end, data } => {
                                Some(("DW_LLE_offset_pair", *begin, *end, data))
                            }
                            E::StartxEndx { begin, end, data } => {
                                Some(("DW_LLE_startx_endx", begin.0 as u64, end.0 as u64, data))
                            }
                            E::StartxLength {
                                begin,
                                length,
                                data,
                            } => Some(("DW_LLE_startx_length", begin.0 as u64, *length, data)),
                            E::StartEnd { begin, end, data } => {
                                Some(("DW_LLE_start_end", *begin, *end, data))
                            }
                            E::StartLength {
                                begin,
                                length,
                                data,
                            } => Some(("DW_LLE_start_length", *begin, *length, data)),
                            _ => None,
                        };
                        if let Some((name, a, b, data)) = pair {
                            let _ = write!(out, "{name:<23}(0x{a:016x}, 0x{b:016x}): ");
                            write_expression(out, data.0.slice(), cx);
                            data_end(data);
                        }
                        match &entry {
                            E::OffsetPair { .. }
                            | E::StartxEndx { .. }
                            | E::StartxLength { .. }
                            | E::StartEnd { .. }
                            | E::StartLength { .. } => {}
                            E::DefaultLocation { data } => {
                                let _ = write!(out, "{:<23}(): ", "DW_LLE_default_location");
                                write_expression(out, data.0.slice(), cx);
                                data_end(data);
                            }
                            E::BaseAddressx { addr } => {
                                let _ = write!(
                                    out,
                                    "{:<23}(0x{:016x})",
                                    "DW_LLE_base_addressx", addr.0
                                );
                                pos += 1 + uleb_len(addr.0 as u64);
                            }
                            E::BaseAddress { addr } => {
                                let _ = write!(out, "{:<23}(0x{addr:016x})", "DW_LLE_base_address");
                                pos += 1 + addr_size as usize;
                            }
                            E::AddressOrOffsetPair { begin, end, data } => {
                                let _ = write!(out, "(0x{begin:016x}, 0x{end:016x}): ");
                                write_expression(out, data.0.slice(), cx);
                                data_end(data);
                            }
                        }
                        out.push(b'\n');
                    }
                    Ok(None) => {
                        pos += 1; // DW_LLE_end_of_list
                        break;
                    }
                    Err(e) => {
                        errors.push(gerr(".debug_loclists", pos as u64, e));
                        return;
                    }
                }
            }
            if pos <= start {
                break;
            }
            if pos < end {
                out.push(b'\n');
            }
        }
        off = end;
    }
}

/// The CIEs and FDEs in section order.
pub fn debug_frame(
    obj: &DwarfObject,
    opts: DumpOptions,
    out: &mut Vec<u8>,
    errors: &mut Vec<Error>,
) {
    let sec = obj.section(".debug_frame");
    let mut frame = gimli::DebugFrame::new(sec, gimli::LittleEndian);
    frame.set_address_size(8);
    let bases = gimli::BaseAddresses::default();
    let mut entries = frame.entries(&bases);
    loop {
        let entry = match entries.next() {
            Ok(Some(e)) => e,
            Ok(None) => break,
            Err(e) => {
                errors.push(gerr(".debug_frame", 0, e));
                break;
            }
        };
        match entry {
            gimli::CieOrFde::Cie(cie) => {
                let off = cie.offset();
                let _ = writeln!(out, "{off:08x} {:08x} ffffffff CIE", cie.entry_len());
                let _ = writeln!(out, "  Format:                DWARF32");
                let _ = writeln!(out, "  Version:               {}", cie.version());
                let aug = cie_augmentation(sec, off);
                let aug = aug.as_str();
                let _ = writeln!(out, "  Augmentation:          \"{aug}\"");
                let aug = aug.to_string();
                if cie.version() >= 4 {
                    let _ = writeln!(out, "  Address size:          {}", cie.address_size());
                    let _ = writeln!(out, "  Segment desc size:     0");
                }
                let _ = writeln!(
                    out,
                    "  Code alignment factor: {}",
                    cie.code_alignment_factor()
                );
                let _ = writeln!(
                    out,
                    "  Data alignment factor: {}",
                    cie.data_alignment_factor()
                );
                let _ = writeln!(
                    out,
                    "  Return address column: {}",
                    cie.return_address_register().0
                );
                out.push(b'\n');
                let cx = Cfa {
                    code_align: cie.code_alignment_factor(),
                    data_align: cie.data_alignment_factor(),
                    address_size: cie.address_size(),
                    regs: opts.regs,
                };
                let end = off + 4 + cie.entry_len();
                match cie_instructions_start(sec, off, &aug, cie.version()) {
                    Some(start) if start <= end && end <= sec.len() => {
                        let mut state = UnwindState::default();
                        let rows = cfa_instructions(out, &sec[start..end], 0, cx, &mut state, None);
                        out.push(b'\n');
                        if let Some(rows) = rows.filter(|_| state.cfa_set) {
                            write_rows(out, &rows, cx);
                        }
                    }
                    _ => errors.push(Error::new(
                        ".debug_frame",
                        off as u64,
                        "CIE instructions out of bounds",
                    )),
                }
                out.push(b'\n');
            }
            gimli::CieOrFde::Fde(partial) => {
                let off = partial_offset(sec, &partial);
                match partial.parse(|_, bases, o| frame.cie_from_offset(bases, o)) {
                    Ok(fde) => {
                        let cie_off = fde.cie().offset();
                        let _ = writeln!(
                            out,
                            "{off:08x} {:08x} {cie_off:08x} FDE cie={cie_off:08x} pc={:08x}...{:08x}",
                            fde.entry_len(),
                            fde.initial_address(),
                            fde.initial_address().wrapping_add(fde.len())
                        );
                        let _ = writeln!(out, "  Format:       DWARF32");
                        let cie = fde.cie();
                        let cx = Cfa {
                            code_align: cie.code_alignment_factor(),
                            data_align: cie.data_alignment_factor(),
                            address_size: cie.address_size(),
                            regs: opts.regs,
                        };
                        // the CIE's initial rules, then the FDE's instructions
                        let mut state = UnwindState::default();
                        let cie_off = cie.offset();
                        let cie_aug = cie_augmentation(sec, cie_off);
                        let cie_end = cie_off + 4 + cie.entry_len();
                        let mut scratch = Vec::new();
                        if let Some(start) =
                            cie_instructions_start(sec, cie_off, &cie_aug, cie.version())
                        {
                            if start <= cie_end && cie_end <= sec.len() {
                                let _ = cfa_instructions(
                                    &mut scratch,
                                    &sec[start..cie_end],
                                    0,
                                    cx,
                                    &mut state,
                                    None,
                                );
                            }
                        }
                        state.initial = state.regs.clone();
                        let start = off + 8 + 2 * cie.address_size() as usize;
                        let end = off + 4 + fde.entry_len();
                        if cie_aug.is_empty() && start <= end && end <= sec.len() {
                            let rows = cfa_instructions(
                                out,
                                &sec[start..end],
                                fde.initial_address(),
                                cx,
                                &mut state,
                                Some(fde.initial_address().wrapping_add(fde.len())),
                            );
                            out.push(b'\n');
                            if let Some(rows) = rows {
                                write_rows(out, &rows, cx);
                            }
                        } else {
                            errors.push(Error::new(
                                ".debug_frame",
                                off as u64,
                                "FDE instructions not decoded",
                            ));
                        }
                        out.push(b'\n');
                    }
                    Err(e) => errors.push(gerr(".debug_frame", off as u64, e)),
                }
            }
        }
    }
}

fn partial_offset<R: Reader<Offset = usize>>(
    sec: &[u8],
    p: &gimli::PartialFrameDescriptionEntry<'_, gimli::DebugFrame<R>, R>,
) -> usize {
    let _ = sec;
    p.offset()
}

fn cie_augmentation(sec: &[u8], off: usize) -> String {
    // unit_length (4), CIE_id (4), version (1), then the NUL-terminated string
    let s = sec.get(off + 9..).unwrap_or(&[]);
    let end = s.iter().position(|&b| b == 0).unwrap_or(0);
    String::from_utf8_lossy(&s[..end]).into_owned()
}

/// The address range tables.
pub fn debug_aranges(obj: &DwarfObject, out: &mut Vec<u8>, errors: &mut Vec<Error>) {
    let sec = obj.section(".debug_aranges");
    let aranges = gimli::DebugAranges::new(sec, gimli::LittleEndian);
    let mut headers = aranges.headers();
    loop {
        let h = match headers.next() {
            Ok(Some(h)) => h,
            Ok(None) => break,
            Err(e) => {
                errors.push(gerr(".debug_aranges", 0, e));
                break;
            }
        };
        let _ = writeln!(
            out,
            "Address Range Header: length = 0x{:08x}, format = DWARF32, version = 0x{:04x}, cu_offset = 0x{:08x}, addr_size = 0x{:02x}, seg_size = 0x00",
            h.length(),
            h.encoding().version,
            h.debug_info_offset().0,
            h.encoding().address_size
        );
        let mut ents = h.entries();
        loop {
            match ents.next() {
                Ok(Some(e)) => {
                    let r = e.range();
                    let _ = writeln!(out, "[0x{:016x}, 0x{:016x})", r.begin, r.end);
                }
                Ok(None) => break,
                Err(e) => {
                    errors.push(gerr(".debug_aranges", h.offset().0 as u64, e));
                    break;
                }
            }
        }
    }
}
