//! `hsaco dis -l`: the source locations llvm-objdump -l prints, added to a listing.
//!
//! The listing is made first (in pieces, in parallel) and the annotations are added
//! to its text afterwards, instruction by instruction in address order, so that
//! they do not depend on where the listing was cut.

use anyhow::Result;
use hsaco_dwarf::lines::{LineTable, Location};
use hsaco_elf::elf::Elf;
use std::io::Write;

/// A symbol the symbolizer names code after: its address, size and name.
struct Sym {
    address: u64,
    size: u64,
    name: String,
}

/// Write `listing` (the text of `hsaco dis` for `elf`) to `out`, with the lines
/// `; FUNCTION():` and `; FILE:LINE` before each instruction whose location differs
/// from the previous one.
pub fn annotate(out: &mut dyn Write, listing: &[u8], elf: &Elf<'_>, bytes: &[u8]) -> Result<()> {
    let table = match hsaco_dwarf::DwarfObject::from_elf(bytes) {
        Ok(obj) => LineTable::new(&obj).0,
        Err(_) => LineTable::default(),
    };
    let syms = symbols(elf);
    // the previous instruction's function and location (None: none known)
    let mut prev: (Option<&str>, Option<&Location>) = (None, None);
    for line in listing.split_inclusive(|&b| b == b'\n') {
        if let Some(address) = instruction_address(line) {
            // (an address no function holds keeps the previous name)
            let func = function(&syms, address)
                .or_else(|| table.function(address))
                .or(prev.0);
            let loc = table.lookup(address);
            if func != prev.0 || key(loc) != key(prev.1) {
                if func != prev.0 {
                    if let Some(f) = func {
                        writeln!(out, "; {f}():")?;
                    }
                }
                if let Some(loc) = loc.filter(|l| l.line != 0) {
                    write!(out, "; {}:{}", loc.file, loc.line)?;
                    if loc.discriminator != 0 {
                        write!(out, " (discriminator {})", loc.discriminator)?;
                    }
                    writeln!(out)?;
                }
                prev = (func, loc);
            }
        }
        out.write_all(line)?;
    }
    Ok(())
}

/// The address in an instruction line's `// ADDRESS: WORDS` comment.
fn instruction_address(line: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(line).ok()?;
    if !text.starts_with('\t') {
        return None;
    }
    let at = text.rfind("// ")?;
    let rest = &text[at + 3..];
    let colon = rest.find(':')?;
    let hex = &rest[..colon];
    if hex.len() < 12 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(hex, 16).ok()
}

/// The symbols code may be named after: functions, objects and symbols without a type,
/// defined in a section.
fn symbols(elf: &Elf<'_>) -> Vec<Sym> {
    let mut syms = Vec::new();
    let Ok(Some(table)) = elf.symtab() else {
        return syms;
    };
    for s in table.iter().flatten() {
        let kind = s.info & 0xf;
        // STT_NOTYPE 0, STT_OBJECT 1, STT_FUNC 2
        if kind > 2 || s.section_index().is_none() || s.name.is_empty() {
            continue;
        }
        syms.push(Sym {
            address: s.value,
            size: s.size,
            name: s.name_str().into_owned(),
        });
    }
    syms.sort_by_key(|s| (s.address, s.size));
    syms
}

/// The symbol naming `address`: the last one starting at or before it (of those
/// starting together, the largest), if it holds `address`.
fn function(syms: &[Sym], address: u64) -> Option<&str> {
    let i = syms.partition_point(|s| s.address <= address);
    let s = syms.get(i.checked_sub(1)?)?;
    (s.size == 0 || address < s.address + s.size).then_some(s.name.as_str())
}

/// What makes two locations different for llvm-objdump -l (not the column).
fn key(l: Option<&Location>) -> Option<(&str, u64, u64)> {
    l.map(|l| (l.file.as_str(), l.line, l.discriminator))
}
