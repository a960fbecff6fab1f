//! `hsaco dis -l`: the source locations llvm-objdump -l prints, added to a listing.
//!
//! The listing is made first (in pieces, in parallel) and the annotations are added
//! to its text afterwards, instruction by instruction in address order, so that
//! they do not depend on where the listing was cut.

use anyhow::Result;
use hsaco_dwarf::lines::{LineTable, Location};
use hsaco_dwarf::vars::{live_variables, Columns, LiveVariable, Style};
use hsaco_elf::elf::Elf;
use std::collections::HashMap;
use std::io::Write;

/// A symbol the symbolizer names code after: its address, size and name.
struct Sym {
    address: u64,
    size: u64,
    name: String,
}

/// What to add to a listing, and how.
#[derive(Clone, Debug, Default)]
pub struct Annotations {
    /// `-l`: `; FUNCTION():` and `; FILE:LINE` lines.
    pub lines: bool,
    /// `-S`: the source lines themselves.
    pub source: bool,
    /// `--prefix`: put before absolute source paths (with `prefix_strip`).
    pub prefix: Option<String>,
    /// `--prefix-strip`: leading directories taken off absolute source paths.
    pub prefix_strip: usize,
    /// `--debug-vars`: variable columns, drawn in this style.
    pub vars: Option<Style>,
    /// `--debug-indent`: where the variable columns start, from the instruction.
    pub indent: usize,
    /// The listing has the instruction words in its comments (moves the columns).
    pub raw_insn: bool,
}

impl Annotations {
    /// Whether there is anything to add.
    pub fn any(&self) -> bool {
        self.lines || self.source || self.vars.is_some()
    }
}

/// The lines of a source file (None: it could not be read).
type Source = Option<Vec<String>>;

/// Write `listing` (the text of `hsaco dis` for `elf`, whose listing is headed
/// `label`) to `out` with the annotations `what` asks for: before each instruction
/// whose location differs from the previous one, `; FUNCTION():` and `; FILE:LINE`
/// (-l) and the source line (-S); after each instruction, the variable columns.
/// Warnings (a source file not found) go to stderr, once per file.
pub fn annotate(
    out: &mut dyn Write,
    listing: &[u8],
    elf: &Elf<'_>,
    bytes: &[u8],
    label: &str,
    what: &Annotations,
) -> Result<()> {
    let bases = section_bases(elf);
    let obj = hsaco_dwarf::DwarfObject::from_elf_placed(bytes, &bases).ok();
    let table = match (&obj, what.lines || what.source) {
        (Some(obj), true) => {
            let placed: Vec<u64> = bases.iter().map(|&(_, b)| b).collect();
            LineTable::new_placed(obj, &placed).0
        }
        _ => LineTable::default(),
    };
    // llvm-objdump-22 shows variables in relocatable objects only: a linked object's
    // DWARF addresses name no section, and it checks the section (learned by running it)
    let vars = match (&obj, what.vars) {
        (Some(obj), Some(_)) if elf.header().e_type.0 == hsaco_elf::elf::consts::ET_REL => {
            live_variables(obj).0
        }
        _ => Vec::new(),
    };
    let style = what.vars.unwrap_or_default();
    // where the first column stands after a `;` line, and after an instruction line
    // (8 further right: learned from llvm-objdump-22, 24 and 32 from --debug-indent
    // with the instruction words, 16 and 24 without)
    let first_column = what.indent + if what.raw_insn { 24 } else { 16 };
    let first_column_inst = first_column + 8;
    let mut columns = Columns::default();
    // (symbols by their values alone: llvm-objdump-22 names code after the symbol at
    // or before the offset whatever its section, learned by running it on
    // -ffunction-sections objects)
    let syms = symbols(elf);
    // the base of the section being listed (from its `Disassembly of section` line)
    let mut base = 0;
    let mut sources: HashMap<String, Source> = HashMap::new();
    // the previous instruction's function and location (None: none known)
    let mut prev: (Option<&str>, Option<&Location>) = (None, None);
    let lines: Vec<&[u8]> = listing.split_inclusive(|&b| b == b'\n').collect();
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(address) = instruction_address(line) else {
            if let Some(name) = line
                .strip_prefix(b"Disassembly of section ")
                .and_then(|l| l.strip_suffix(b":\n"))
            {
                base = section_base(elf, &bases, name);
            }
            out.write_all(line)?;
            continue;
        };
        // the address in the line table's and the variables' terms
        let placed = address.wrapping_add(base);
        if !vars.is_empty() {
            let last = lines
                .get(i + 1)
                .is_none_or(|l| instruction_address(l).is_none());
            let next = placed + 4 * instruction_words(line);
            columns.update(&vars, placed, next, !last);
        }
        if what.lines || what.source {
            // the DWARF functions by offset alone, whatever the section, as
            // llvm-objdump-22. An address no function holds: without a line row it
            // keeps the previous name (padding after the last function); with one,
            // it has no name, printed as nothing, and the next named address prints
            // its name even if it is the previous one (llvm-objdump-22 at the start of
            // 04_fp64.cl's `.text.fp64_dot` built with -ffunction-sections)
            let loc = table.lookup(placed);
            let found = function(&syms, address).or_else(|| table.function(address));
            let func = match (found, loc) {
                (None, Some(_)) => None,
                _ => found.or(prev.0),
            };
            let path = |l: &Location| match &what.prefix {
                Some(p) => hsaco_dwarf::lines::prefixed(&l.file, p, what.prefix_strip),
                None => l.file.clone(),
            };
            if what.lines && ((func.is_some() && func != prev.0) || key(loc) != key(prev.1)) {
                if func != prev.0 {
                    if let Some(f) = func {
                        writeln!(out, "; {f}():")?;
                    }
                }
                if let Some(loc) = loc.filter(|l| l.line != 0) {
                    let mut t = format!("; {}:{}", path(loc), loc.line);
                    if loc.discriminator != 0 {
                        t.push_str(&format!(" (discriminator {})", loc.discriminator));
                    }
                    other_line(out, &mut t, &mut columns, &vars, first_column, style)?;
                }
            }
            if what.source {
                if let Some(l) =
                    loc.filter(|l| l.line != 0 && source_key(Some(l)) != source_key(prev.1))
                {
                    let file = path(l);
                    let src = sources.entry(file.clone()).or_insert_with(|| {
                        let lines = read_source(&file);
                        if lines.is_none() {
                            eprintln!("warning: '{label}': failed to find source {file}");
                        }
                        lines
                    });
                    if let Some(src) = src {
                        match src.get(l.line as usize - 1) {
                            Some(t) if t.is_empty() => {}
                            Some(t) => {
                                let mut t = format!("; {t}");
                                other_line(out, &mut t, &mut columns, &vars, first_column, style)?;
                            }
                            None => eprintln!(
                                "warning: '{label}': debug info line number {} exceeds the \
                                 number of lines in {file}",
                                l.line
                            ),
                        }
                    }
                }
            }
            prev = (func, loc);
        }
        if vars.is_empty() {
            out.write_all(line)?;
        } else {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            out.write_all(body)?;
            text.clear();
            columns.after_instruction(&mut text, display_width(body), first_column_inst, style);
            out.write_all(text.as_bytes())?;
            if body.len() < line.len() {
                out.write_all(b"\n")?;
            }
        }
    }
    Ok(())
}

/// Write a `; FILE:LINE` or source line `t`, with the variables' labels or columns
/// after it.
fn other_line(
    out: &mut dyn Write,
    t: &mut String,
    columns: &mut Columns,
    vars: &[LiveVariable],
    first_column: usize,
    style: Style,
) -> Result<()> {
    if !vars.is_empty() {
        let at = display_width(t.as_bytes());
        columns.after_other_line(t, at, first_column, style, vars);
    }
    t.push('\n');
    out.write_all(t.as_bytes())?;
    Ok(())
}

/// The lines of the source file at `path` as llvm-objdump -S takes them: split at
/// `\n`, a `\r` before it dropped, a last line without `\n` kept.
fn read_source(path: &str) -> Source {
    let data = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&data);
    let lines = text
        .split_inclusive('\n')
        .map(|l| {
            let l = l.strip_suffix('\n').unwrap_or(l);
            l.strip_suffix('\r').unwrap_or(l).to_string()
        })
        .collect();
    Some(lines)
}

/// The display width of a line: tabs to the next multiple of 8, one column a
/// character.
fn display_width(line: &[u8]) -> usize {
    let mut col = 0;
    for c in String::from_utf8_lossy(line).chars() {
        if c == '\t' {
            col = (col / 8 + 1) * 8;
        } else {
            col += 1;
        }
    }
    col
}

/// The number of instruction words in an instruction line's `// ADDRESS: WORDS`
/// comment (at least 1).
fn instruction_words(line: &[u8]) -> u64 {
    let text = String::from_utf8_lossy(line);
    let Some(at) = text.rfind("// ") else {
        return 1;
    };
    let rest = &text[at + 3..];
    let Some(colon) = rest.find(':') else {
        return 1;
    };
    let n = rest[colon + 1..]
        .split_whitespace()
        .take_while(|w| w.len() == 8 && w.bytes().all(|b| b.is_ascii_hexdigit()))
        .count();
    n.max(1) as u64
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
/// Where the code sections of a relocatable object are placed for the line and
/// variable lookups: with code in more than one section (`-ffunction-sections`), each
/// after the first at its own multiple of 2^32, so that addresses of different
/// sections, which all start at 0, stay apart. (section index, base) pairs; none for a
/// linked object or a single code section.
fn section_bases(elf: &Elf<'_>) -> Vec<(usize, u64)> {
    if elf.header().e_type.0 != hsaco_elf::elf::consts::ET_REL {
        return Vec::new();
    }
    let code: Vec<usize> = elf
        .sections()
        .flatten()
        .filter(|s| s.flags & hsaco_elf::elf::consts::SHF_EXECINSTR != 0 && s.size > 0)
        .map(|s| s.index)
        .collect();
    if code.len() < 2 {
        return Vec::new();
    }
    code.iter()
        .enumerate()
        .map(|(k, &i)| (i, (k as u64) << 32))
        .collect()
}

/// The base [`section_bases`] gives the section named `name`.
fn section_base(elf: &Elf<'_>, bases: &[(usize, u64)], name: &[u8]) -> u64 {
    elf.sections()
        .flatten()
        .find(|s| s.name == name)
        .and_then(|s| bases.iter().find(|(i, _)| *i == s.index))
        .map_or(0, |(_, b)| *b)
}

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

/// What makes two locations different for llvm-objdump -S (the file and line).
fn source_key(l: Option<&Location>) -> Option<(&str, u64)> {
    l.map(|l| (l.file.as_str(), l.line))
}

#[cfg(test)]
mod tests {
    /// The lines llvm-objdump-22 -S took from a probe file `int g(int x){\r\n\r\n  y
    /// += 2;` (an x86 -O0 object with rows for lines 1-4): line 1 without its `\r`,
    /// line 2 (empty) printed nothing, line 3 as it is, line 4 "exceeds the number of
    /// lines".
    #[test]
    fn source_lines_as_llvm_objdump_splits_them() {
        let dir = std::env::temp_dir().join(format!("hsaco-dis-src-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.c");
        std::fs::write(&path, b"int g(int x){\r\n\r\n  y += 2;").unwrap();
        let lines = super::read_source(path.to_str().unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(lines, ["int g(int x){", "", "  y += 2;"]);
        assert!(super::read_source("/hsaco-no-such-dir/m.c").is_none());
    }
}
