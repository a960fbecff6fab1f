//! Disassembly listings in the form `llvm-objdump -d` prints them: a file line, one
//! `Disassembly of section NAME:` block per executable section, `<symbol>:` labels,
//! instruction lines with `// ADDRESS: WORDS` comments and branch targets as
//! `<sym+0x..>`. Words that do not decode are printed as `.long 0x...` (a trailing
//! piece shorter than a word as `.byte`), never an error.
//!
//! ```
//! use hsaco_isa::{listing, Decoder};
//! let dec = Decoder::for_processor("gfx906").unwrap();
//! // s_nop 0; s_branch -2 (to itself); s_endpgm
//! let code = [0x00, 0x00, 0x80, 0xbf, 0xfe, 0xff, 0x82, 0xbf, 0x00, 0x00, 0x81, 0xbf];
//! let labels = [listing::Label { address: 0x100, name: "main", kind: 2 }];
//! let mut out = Vec::new();
//! listing::write_code(&mut out, dec, &code, 0x100, &labels, &listing::Options::default())
//!     .unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("\ts_branch 65534 "));
//! assert!(text.contains("// 000000000104: BF82FFFE <main>\n"));
//! ```

use crate::desc::Ty;
use crate::{DecodeError, Decoder, Instruction, Operand};
use hsaco_elf::elf::Elf;
use std::fmt::Write as _;
use std::io::{self, Write};

/// `st_type` of a symbol without a type (`STT_NOTYPE`).
const STT_NOTYPE: u8 = 0;
/// `st_type` of a section symbol (`STT_SECTION`).
const STT_SECTION: u8 = 3;
/// `st_type` of a file symbol (`STT_FILE`).
const STT_FILE: u8 = 4;
/// `SHT_NOBITS`.
const SHT_NOBITS: u32 = 8;
/// `SHF_EXECINSTR`.
const SHF_EXECINSTR: u64 = 0x4;

/// Listing options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Print the `// ADDRESS: WORDS` comment (llvm-objdump always does for amdgcn).
    pub show_raw_insn: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            show_raw_insn: true,
        }
    }
}

/// A symbol that labels code: its address, name and ELF `st_type` (`STT_FUNC` = 2,
/// `STT_NOTYPE` = 0, ...; the type decides which of several symbols at one address is
/// shown, as llvm-objdump does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label<'a> {
    /// Address.
    pub address: u64,
    /// Name.
    pub name: &'a str,
    /// ELF symbol type.
    pub kind: u8,
}

/// The processor an `e_flags` value names (its `EF_AMDGPU_MACH_*` byte), if known.
pub fn processor_from_e_flags(e_flags: u32) -> Option<&'static str> {
    hsaco_target::Processor::by_mach(e_flags & 0xff).map(|p| p.name)
}

/// Why an ELF file could not be listed.
#[derive(Debug)]
pub enum ListingError {
    /// The ELF file is malformed.
    Elf(hsaco_elf::Error),
    /// Writing the output failed.
    Io(io::Error),
}

impl std::fmt::Display for ListingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListingError::Elf(e) => e.fmt(f),
            ListingError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ListingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ListingError::Elf(e) => Some(e),
            ListingError::Io(e) => Some(e),
        }
    }
}

impl From<hsaco_elf::Error> for ListingError {
    fn from(e: hsaco_elf::Error) -> Self {
        ListingError::Elf(e)
    }
}

impl From<io::Error> for ListingError {
    fn from(e: io::Error) -> Self {
        ListingError::Io(e)
    }
}

/// Write the listing of every executable section of `elf` (after the file line
/// `NAME:\tfile format elf64-amdgpu`, preceded by an empty line, as llvm-objdump).
pub fn write_elf(
    out: &mut dyn Write,
    name: &str,
    elf: &Elf<'_>,
    decoder: Decoder,
    options: &Options,
) -> Result<(), ListingError> {
    writeln!(out, "\n{name}:\tfile format elf64-amdgpu")?;
    let symtab = match elf.symtab()? {
        Some(t) if !t.is_empty() => Some(t),
        _ => elf.dynsym()?,
    };
    let mut names: Vec<(u64, String, u8, usize)> = Vec::new();
    if let Some(t) = &symtab {
        for s in t.iter() {
            let s = s?;
            let kind = s.info & 0xf;
            if kind == STT_SECTION || kind == STT_FILE || s.name.is_empty() {
                continue;
            }
            if let Some(sec) = s.section_index() {
                names.push((s.value, s.name_str().into_owned(), kind, sec));
            }
        }
    }
    for section in elf.sections() {
        let section = section?;
        if section.flags & SHF_EXECINSTR == 0 || section.sh_type.0 == SHT_NOBITS {
            continue;
        }
        let bytes = section.data()?;
        let sname = section.name_str();
        writeln!(out, "\nDisassembly of section {sname}:")?;
        let mut labels: Vec<Label<'_>> = names
            .iter()
            .filter(|n| n.3 == section.index)
            .map(|n| Label {
                address: n.0,
                name: &n.1,
                kind: n.2,
            })
            .collect();
        write_section(
            out,
            decoder,
            bytes,
            section.addr,
            &sname,
            &mut labels,
            options,
        )?;
    }
    Ok(())
}

/// Write the listing of one code section at `address` whose symbols are `labels` (in
/// any order): a `<symbol>:` line at each symbol, the section name at the start if no
/// symbol is there.
pub fn write_code(
    out: &mut dyn Write,
    decoder: Decoder,
    bytes: &[u8],
    address: u64,
    labels: &[Label<'_>],
    options: &Options,
) -> io::Result<()> {
    let mut labels = labels.to_vec();
    write_section(out, decoder, bytes, address, ".text", &mut labels, options)
}

fn write_section<'a>(
    out: &mut dyn Write,
    decoder: Decoder,
    bytes: &[u8],
    address: u64,
    section_name: &'a str,
    labels: &mut Vec<Label<'a>>,
    options: &Options,
) -> io::Result<()> {
    // The section start is labelled by its name unless a symbol is there; sorted by
    // (address, type, name), the last symbol at an address is the one shown.
    let end = address.saturating_add(bytes.len() as u64);
    labels.retain(|l| l.address >= address && l.address < end);
    let placeholder = Label {
        address,
        name: section_name,
        kind: STT_NOTYPE,
    };
    labels.push(placeholder);
    labels.sort_by(|a, b| {
        let pa = *a != placeholder;
        let pb = *b != placeholder;
        (a.address, pa, a.kind, a.name).cmp(&(b.address, pb, b.kind, b.name))
    });
    labels.dedup();
    let mut line = String::with_capacity(160);
    let mut i = 0;
    while i < labels.len() {
        // The last label at this address.
        let mut j = i;
        while j + 1 < labels.len() && labels[j + 1].address == labels[i].address {
            j += 1;
        }
        let label = labels[j];
        let next = labels.get(j + 1).map_or(end, |l| l.address.min(end));
        i = j + 1;
        if label.address >= end {
            break;
        }
        writeln!(out, "\n{:016x} <{}>:", label.address, label.name)?;
        let start = (label.address - address) as usize;
        let stop = (next - address) as usize;
        let Some(code) = bytes.get(start..stop) else {
            continue;
        };
        let mut off = 0usize;
        while off < code.len() {
            let at = label.address + off as u64;
            let rest = &code[off..];
            line.clear();
            // Runs of 8 or more zero bytes are skipped (in whole words) as "...".
            let zeros = rest.iter().take_while(|b| **b == 0).count();
            if zeros >= 8 {
                out.write_all(b"\t\t...\n")?;
                off += zeros & !3;
                continue;
            }
            let size = match decoder.decode(rest) {
                Ok(inst) if usize::from(inst.size) <= rest.len() => {
                    instruction_line(&mut line, decoder, &inst, at, labels, options);
                    usize::from(inst.size)
                }
                Ok(_) | Err(DecodeError::Invalid | DecodeError::Truncated) => {
                    data_line(&mut line, rest, at, options)
                }
            };
            line.push('\n');
            out.write_all(line.as_bytes())?;
            off += size.max(1);
        }
    }
    Ok(())
}

/// The text column is 60 characters wide including the leading tab.
fn pad(line: &mut String) {
    const SPACES: &str = "                                                            ";
    line.push_str(SPACES.get(line.len()..).unwrap_or_default());
}

fn instruction_line(
    line: &mut String,
    decoder: Decoder,
    inst: &Instruction,
    at: u64,
    labels: &[Label<'_>],
    options: &Options,
) {
    line.push('\t');
    crate::print::print(&decoder, inst, line);
    let target = decoder.branch_target(inst, at);
    let mut annotation = None;
    if let Some(t) = target {
        // A branch to a label without a type prints its name instead of the offset.
        let at_target = labels.partition_point(|l| l.address < t);
        // (labels[0] is the section-name placeholder, never substituted.)
        let symbolic = labels
            .get(at_target.max(1)..)
            .unwrap_or_default()
            .iter()
            .take_while(|l| l.address == t)
            .find(|l| l.kind == STT_NOTYPE);
        if let Some(l) = symbolic {
            if let Some(sp) = line.rfind(' ') {
                line.truncate(sp + 1);
                line.push_str(l.name);
            }
        } else {
            let after = labels.partition_point(|l| l.address <= t);
            if after > 0 {
                annotation = Some(labels[after - 1]);
            }
        }
    }
    if options.show_raw_insn {
        pad(line);
        let words = usize::from(inst.size) / 4;
        // The literal follows the encoding's words.
        // (A third word of a two-word encoding, the DPP word of a gfx11+ VOP3 DPP
        // form, is kept in the literal too.)
        let literal = has_literal(inst) || words > 2;
        let enc_words = words.saturating_sub(usize::from(literal)).min(2);
        let all = [inst.raw as u32, (inst.raw >> 32) as u32];
        let mut c = Comment::new(at);
        if inst.operands.contains(&Operand::Literal64) {
            // gfx1250: one word, the literal's low word, its high word (kept in raw)
            c.word(all[0]);
            c.word(inst.literal);
            c.word(all[1]);
        } else {
            for w in &all[..enc_words] {
                c.word(*w);
            }
            if literal {
                c.word(inst.literal);
            }
        }
        line.push_str(c.as_str());
    } else if annotation.is_some() {
        pad(line);
        line.push_str("//");
    }
    if let Some(l) = annotation {
        let off = target.unwrap_or(0).wrapping_sub(l.address);
        if off == 0 {
            let _ = write!(line, " <{}>", l.name);
        } else {
            let _ = write!(line, " <{}+0x{off:x}>", l.name);
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The `// ADDRESS: WORDS` comment, built in a fixed buffer (the hot path of listings).
struct Comment {
    buf: [u8; 64],
    len: usize,
}

impl Comment {
    fn new(at: u64) -> Comment {
        let mut c = Comment {
            buf: [b' '; 64],
            len: 3,
        };
        c.buf[..3].copy_from_slice(b"// ");
        let digits = ((64 - at.leading_zeros() as usize).div_ceil(4)).max(12);
        c.hex(at, digits);
        c.buf[c.len] = b':';
        c.len += 1;
        c
    }

    fn hex(&mut self, v: u64, digits: usize) {
        for i in (0..digits).rev() {
            if let Some(b) = self.buf.get_mut(self.len) {
                *b = HEX[(v >> (4 * i) & 0xf) as usize];
                self.len += 1;
            }
        }
    }

    fn word(&mut self, w: u32) {
        self.len += 1; // the space
        self.hex(u64::from(w), 8);
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len.min(64)]).unwrap_or_default()
    }
}

fn has_literal(inst: &Instruction) -> bool {
    inst.operands.contains(&Operand::Literal)
}

/// `.long` for a word that does not decode, `.byte` for a short tail. Returns the
/// bytes consumed.
fn data_line(line: &mut String, rest: &[u8], at: u64, options: &Options) -> usize {
    if let Some(w) = rest.get(..4) {
        let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        let _ = write!(line, "\t.long 0x{w:08x}");
        if options.show_raw_insn {
            pad(line);
            let _ = write!(line, "// {at:012X}: {w:08X}");
        }
        4
    } else {
        line.push_str("\t.byte ");
        for (k, b) in rest.iter().enumerate() {
            if k > 0 {
                line.push_str(", ");
            }
            let _ = write!(line, "0x{b:02x}");
        }
        if options.show_raw_insn {
            pad(line);
            let _ = write!(line, "// {at:012X}:");
            for b in rest {
                let _ = write!(line, " {b:02X}");
            }
        }
        rest.len()
    }
}

impl Decoder {
    /// The address a branch instruction at `address` jumps to (`s_branch`,
    /// `s_cbranch_*`, `s_call_b64`: next instruction + 4 * signed offset).
    pub fn branch_target(&self, inst: &Instruction, address: u64) -> Option<u64> {
        let op = self.op(inst);
        let (o, _) = inst
            .operands
            .iter()
            .zip(op.operands)
            .find(|(_, d)| d.ty == Ty::Label)?;
        let Operand::Imm(v) = *o else { return None };
        let delta = i64::from(v as i16) * 4;
        Some(address.wrapping_add(4).wrapping_add(delta as u64))
    }
}
