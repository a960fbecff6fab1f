//! The file-level AMDGPU assembler: LLVM's assembler syntax (labels, expressions,
//! sections, data and symbol directives, macros and conditionals, the AMDGPU
//! directives) to a relocatable ELF object like `llvm-mc -filetype=obj` writes.
//!
//! Instructions go through an [`InstructionEncoder`] one statement at a time
//! (`hsaco_isa::asm::Assembler` implements it); everything else is done here.
//!
//! ```
//! use hsaco_asm::{assemble, Options, NoInstructions};
//! let opts = Options::for_processor("gfx1100").unwrap();
//! let src = ".data\nx: .long 1, 2\n.globl x\n";
//! let out = assemble("x.s", src, &opts, &mut NoInstructions, &mut hsaco_asm::NoIncludes).unwrap();
//! let elf = hsaco_elf::elf::Elf::parse(&out.object).unwrap();
//! assert_eq!(elf.section_by_name(".data").unwrap().size, 8);
//! ```

pub mod expr;
#[doc(hidden)]
pub mod fuzzing;
mod object;

use std::collections::HashMap;

use expr::{Expr, ParseContext, Resolver, Value};
use hsaco_elf::kd::assemble::{DescriptorFields, KdOptions};
use hsaco_elf::kd::KdTarget;
pub use hsaco_isa::asm::{AsmError, Encoded, Fixup, FixupKind, RelocVariant, SymbolLookup};
use hsaco_target::{CodeObjectVersion, FeatureSetting, TargetFeature, TargetId};

/// Encodes one instruction statement (see `hsaco_isa::asm` for the contract).
pub trait InstructionEncoder {
    /// Encode `text` at `pc`, appending to `out`.
    fn encode(
        &mut self,
        text: &str,
        pc: u64,
        syms: &mut dyn SymbolLookup,
        out: &mut Vec<u8>,
    ) -> Result<Encoded, AsmError>;
}

impl InstructionEncoder for hsaco_isa::asm::Assembler {
    fn encode(
        &mut self,
        text: &str,
        pc: u64,
        syms: &mut dyn SymbolLookup,
        out: &mut Vec<u8>,
    ) -> Result<Encoded, AsmError> {
        hsaco_isa::asm::Assembler::encode(self, text, pc, syms, out)
    }
}

/// An encoder that knows no instruction (for data-only sources and tests).
pub struct NoInstructions;

impl InstructionEncoder for NoInstructions {
    fn encode(
        &mut self,
        text: &str,
        _pc: u64,
        _syms: &mut dyn SymbolLookup,
        _out: &mut Vec<u8>,
    ) -> Result<Encoded, AsmError> {
        let end = text.find(char::is_whitespace).unwrap_or(text.len());
        Err(AsmError {
            span: 0..end,
            message: "invalid instruction".to_string(),
        })
    }
}

/// Reads `.include`d files.
pub trait FileLoader {
    /// The text of `name` included from `from`: (path shown in diagnostics, text).
    fn load(&mut self, name: &str, from: &str) -> Result<(String, String), String>;
}

/// A loader that refuses every `.include`.
pub struct NoIncludes;

impl FileLoader for NoIncludes {
    fn load(&mut self, name: &str, _from: &str) -> Result<(String, String), String> {
        Err(format!("Could not find include file '{name}'"))
    }
}

/// What to assemble for.
#[derive(Clone, Debug)]
pub struct Options {
    /// Processor and XNACK/SRAMECC settings.
    pub target: TargetId,
    /// `+wavefrontsize64`/`+wavefrontsize32`; `None`: the processor's default.
    pub wave64: Option<bool>,
    /// `+cumode`.
    pub cumode: bool,
    /// `+tgsplit`.
    pub tgsplit: bool,
    /// `--amdhsa-code-object-version` (the directive overrides it); default 6.
    pub code_object_version: Option<u8>,
    /// Stop after this many errors.
    pub max_errors: usize,
    /// Collect the `--show-encoding` listing.
    pub listing: bool,
    /// Stop after this many statements (after macro and `.rept` expansion).
    pub max_statements: usize,
    /// The largest section, in bytes.
    pub max_section_size: u64,
    /// Stop after this many symbol look-ups while evaluating expressions (guards
    /// against definitions that grow exponentially).
    pub max_evaluations: u64,
}

impl Options {
    /// Options for a processor name with default features.
    pub fn for_processor(name: &str) -> Option<Options> {
        let p = hsaco_target::Processor::by_name(name)?;
        Some(Options {
            target: TargetId::new(p),
            wave64: None,
            cumode: false,
            tgsplit: false,
            code_object_version: None,
            max_errors: 20,
            listing: false,
            max_statements: 10_000_000,
            max_section_size: 1 << 30,
            max_evaluations: 100_000_000,
        })
    }

    /// Apply an llvm-mc `--mattr` list (`+xnack,-sramecc,+wavefrontsize64`).
    pub fn apply_mattr(&mut self, mattr: &str) -> Result<(), String> {
        for item in mattr.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (on, name) = match item.as_bytes()[0] {
                b'+' => (true, &item[1..]),
                b'-' => (false, &item[1..]),
                _ => (true, item),
            };
            let setting = if on {
                FeatureSetting::On
            } else {
                FeatureSetting::Off
            };
            match name {
                "wavefrontsize64" => self.wave64 = Some(on),
                "wavefrontsize32" => self.wave64 = Some(!on),
                "cumode" => self.cumode = on,
                "tgsplit" => self.tgsplit = on,
                "xnack" => self
                    .target
                    .set(TargetFeature::Xnack, setting)
                    .map_err(|e| e.to_string())?,
                "sramecc" => self
                    .target
                    .set(TargetFeature::Sramecc, setting)
                    .map_err(|e| e.to_string())?,
                // features that change instructions only
                _ => {}
            }
        }
        Ok(())
    }
}

/// A diagnostic: `file:line:col: error: message`, the line and a caret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// File name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// `error` or `warning`.
    pub severity: &'static str,
    /// Message.
    pub message: String,
    /// The source line.
    pub source: String,
    /// Width of the underlined range (at least 1).
    pub width: usize,
    /// Order of the statement in the run (diagnostics are reported in it).
    seq: usize,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {}: {}",
            self.file, self.line, self.col, self.severity, self.message
        )?;
        if self.line == 0 {
            return Ok(());
        }
        writeln!(f, "{}", self.source)?;
        let pad: String = self
            .source
            .chars()
            .take(self.col.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "{pad}^")?;
        for _ in 1..self.width {
            f.write_str("~")?;
        }
        writeln!(f)
    }
}

/// All the errors of a failed run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for d in &self.0 {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The result of a successful run.
#[derive(Clone, Debug)]
pub struct Assembled {
    /// The relocatable ELF object.
    pub object: Vec<u8>,
    /// `--show-encoding` text (when [`Options::listing`]).
    pub listing: String,
    /// Warnings.
    pub warnings: Vec<Diagnostic>,
}

/// Where a statement came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Loc {
    file: usize,
    line: usize,
}

/// One logical source line: comments blanked out, the raw text kept.
#[derive(Clone, Debug)]
struct Line {
    loc: Loc,
    text: String,
    raw: String,
}

impl Line {
    fn empty() -> Line {
        Line {
            loc: Loc { file: 0, line: 0 },
            text: String::new(),
            raw: String::new(),
        }
    }
}

/// One source line with comments blanked (columns kept), written to `out`; `in_block`
/// carries an open `/* */` comment to the next line.
fn clean_line_into(raw: &str, in_block: &mut bool, out: &mut String) {
    out.clear();
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let b = raw.as_bytes();
    // most lines (instructions) have no string, no `#`, no `/`: cut at `;` and done
    if !*in_block && !b.iter().any(|c| matches!(c, b'"' | b'#' | b'/')) {
        let end = b.iter().position(|&c| c == b';').unwrap_or(b.len());
        out.push_str(raw[..end].trim_end());
        return;
    }
    let mut t = Vec::with_capacity(b.len());
    let mut j = 0;
    let mut in_str = false;
    let first = b.iter().position(|c| !c.is_ascii_whitespace());
    while j < b.len() {
        let c = b[j];
        if *in_block {
            if c == b'*' && b.get(j + 1) == Some(&b'/') {
                *in_block = false;
                t.extend_from_slice(b"  ");
                j += 2;
            } else {
                t.push(if c == b'\t' { b'\t' } else { b' ' });
                j += 1;
            }
            continue;
        }
        if in_str {
            t.push(c);
            if c == b'\\' && j + 1 < b.len() {
                t.push(b[j + 1]);
                j += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            j += 1;
            continue;
        }
        match c {
            b'"' => {
                in_str = true;
                t.push(c);
            }
            b';' => break,
            b'#' if Some(j) == first => break,
            b'/' if b.get(j + 1) == Some(&b'/') => break,
            b'/' if b.get(j + 1) == Some(&b'*') => {
                *in_block = true;
                t.extend_from_slice(b"  ");
                j += 2;
                continue;
            }
            _ => t.push(c),
        }
        j += 1;
    }
    out.push_str(String::from_utf8_lossy(&t).trim_end());
}

/// Where a file's text comes from: all of it in memory, or a reader taken a line at
/// a time (the input is never held whole).
enum Source<'t> {
    Text {
        text: std::borrow::Cow<'t, str>,
        pos: usize,
    },
    Reader {
        reader: &'t mut dyn std::io::BufRead,
        buf: Vec<u8>,
        /// A read error or invalid UTF-8, reported at the line it was met.
        error: Option<String>,
        done: bool,
    },
}

impl Source<'_> {
    /// The next line (without its `\n`) appended to `out`; false at the end.
    fn next_line(&mut self, out: &mut String) -> bool {
        match self {
            Source::Text { text, pos } => {
                if *pos >= text.len() {
                    return false;
                }
                let rest = &text[*pos..];
                let end = rest.find('\n').unwrap_or(rest.len());
                out.push_str(&rest[..end]);
                *pos += end + 1;
                true
            }
            Source::Reader {
                reader,
                buf,
                error,
                done,
            } => {
                if *done {
                    return false;
                }
                buf.clear();
                match reader.read_until(b'\n', buf) {
                    Ok(0) => {
                        *done = true;
                        return false;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        *done = true;
                        error.get_or_insert_with(|| format!("reading the input: {e}"));
                        return false;
                    }
                }
                let line = buf.strip_suffix(b"\n").unwrap_or(buf);
                match std::str::from_utf8(line) {
                    Ok(s) => out.push_str(s),
                    Err(_) => {
                        out.push_str(&String::from_utf8_lossy(line));
                        error.get_or_insert_with(|| "invalid UTF-8 in this line".to_string());
                    }
                }
                true
            }
        }
    }
}

/// Where statements come from: a file's text, read line by line as the run goes (the
/// whole file is never split up front), or lines made by a macro or a repetition.
enum Frame<'t> {
    Text {
        src: Source<'t>,
        line: usize,
        file: usize,
        in_block: bool,
    },
    Lines(Vec<Line>, usize),
}

impl Frame<'_> {
    /// The next line into `line` (its buffers reused); false at the end.
    fn next_into(&mut self, out: &mut Line) -> bool {
        match self {
            Frame::Lines(lines, idx) => {
                let Some(l) = lines.get(*idx) else {
                    return false;
                };
                *idx += 1;
                out.loc = l.loc;
                out.text.clear();
                out.text.push_str(&l.text);
                out.raw.clear();
                out.raw.push_str(&l.raw);
                true
            }
            Frame::Text {
                src,
                line,
                file,
                in_block,
            } => {
                out.raw.clear();
                if !src.next_line(&mut out.raw) {
                    return false;
                }
                *line += 1;
                if out.raw.ends_with('\r') {
                    out.raw.pop();
                }
                out.loc = Loc {
                    file: *file,
                    line: *line,
                };
                clean_line_into(&out.raw, in_block, &mut out.text);
                true
            }
        }
    }

    fn next(&mut self) -> Option<Line> {
        let mut l = Line::empty();
        self.next_into(&mut l).then_some(l)
    }

    /// A read error met since the last call (streamed input only).
    fn take_error(&mut self) -> Option<String> {
        match self {
            Frame::Text {
                src: Source::Reader { error, .. },
                ..
            } => error.take(),
            _ => None,
        }
    }
}

/// A section being assembled.
#[derive(Clone, Debug)]
struct Section {
    name: String,
    sh_type: u32,
    flags: u64,
    entsize: u64,
    align: u64,
    data: Vec<u8>,
    /// `.bss`-like size.
    nobits: u64,
    /// Order of creation among the symbols (its section symbol's place).
    order: usize,
}

/// A symbolic value to fill in at the end.
#[derive(Clone, Debug)]
struct PendingFixup {
    section: usize,
    offset: u64,
    kind: PendingKind,
    expr: Expr,
    /// Statement and the operand's byte range, for diagnostics.
    at: (usize, std::ops::Range<usize>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PendingKind {
    Data(u8),
    Branch16,
    Literal32,
    /// The kernel descriptor's code entry offset (REL64 to the kernel symbol).
    KdEntry,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Symbol {
    /// (section, offset) for labels.
    label: Option<(usize, u64)>,
    /// `.set`/`=` value.
    var: Option<Expr>,
    bind: Option<u8>,
    st_type: Option<u8>,
    visibility: u8,
    size: Option<Expr>,
    /// Order of first mention (symbol table order).
    order: usize,
    /// Was a `.set` variable the last definition.
    used_in_reloc: bool,
    addrsig: bool,
}

struct Macro {
    params: Vec<(String, Option<String>)>,
    body: Vec<Line>,
}

/// A field of `.amdhsa_kernel`: name, value, (statement, value span), directive span.
type KdFieldExpr = (
    String,
    Expr,
    (usize, std::ops::Range<usize>),
    std::ops::Range<usize>,
);

struct Kernel {
    name: String,
    fields: DescriptorFields,
    exprs: Vec<KdFieldExpr>,
    section: usize,
    offset: u64,
    at: (usize, std::ops::Range<usize>),
}

/// One pending relocation.
#[derive(Clone, Debug)]
struct Reloc {
    section: usize,
    offset: u64,
    r_type: u32,
    target: RelocTarget,
    addend: i64,
}

#[derive(Clone, Debug)]
enum RelocTarget {
    Symbol(String),
    Section(usize),
}

/// The statements a diagnostic can name: the current one, and those kept for
/// diagnostics made after it (fixups, kernel descriptor fields). Statements are
/// numbered in order; the text of the others is not kept.
struct Stmts {
    count: usize,
    cur: (Loc, String),
    /// (number, location, source line), in increasing number.
    kept: Vec<(usize, Loc, Box<str>)>,
}

impl Stmts {
    /// A new current statement; its number.
    fn push(&mut self, loc: Loc, raw: &str) -> usize {
        self.count += 1;
        self.cur.0 = loc;
        self.cur.1.clear();
        self.cur.1.push_str(raw);
        self.count - 1
    }

    /// Keep statement `n` (the current one) for diagnostics made later.
    fn keep(&mut self, n: usize) {
        if self.kept.last().is_some_and(|k| k.0 >= n) {
            return;
        }
        debug_assert_eq!(n + 1, self.count, "only the current statement can be kept");
        if n + 1 == self.count {
            self.kept.push((n, self.cur.0, self.cur.1.as_str().into()));
        }
    }

    /// Location and source line of statement `n`.
    fn get(&self, n: usize) -> Option<(Loc, &str)> {
        if n + 1 == self.count {
            return Some((self.cur.0, &self.cur.1));
        }
        let i = self.kept.binary_search_by_key(&n, |k| k.0).ok()?;
        let k = &self.kept[i];
        Some((k.1, &k.2))
    }

    /// The number of the last statement.
    fn last(&self) -> usize {
        self.count.saturating_sub(1)
    }
}

struct Asm<'o> {
    opts: &'o Options,
    files: Vec<String>,
    /// The statements diagnostics can name.
    stmts: Stmts,
    sections: Vec<Section>,
    cur: usize,
    prev: usize,
    syms: HashMap<String, Symbol>,
    next_order: usize,
    numeric: HashMap<u64, u32>,
    fixups: Vec<PendingFixup>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    macros: HashMap<String, Macro>,
    kernels: Vec<Kernel>,
    cov: u8,
    idents: Vec<String>,
    metadata: Option<String>,
    addrsig: bool,
    addrsig_names: Vec<String>,
    /// Code object v2 note records (type, description), in directive order.
    v2_notes: Vec<(u32, Vec<u8>)>,
    /// The index the first section created after the first code object v2 note has
    /// (where LLVM's `.note` section goes; None: after every section).
    v2_note_position: Option<usize>,
    cov_from_directive: bool,
    evals: u64,
    scratch: Vec<u8>,
    listing: String,
    target_directive: Option<String>,
    unique: usize,
}

impl<'o> Asm<'o> {
    fn new(opts: &'o Options) -> Self {
        let text = Section {
            name: ".text".to_string(),
            sh_type: hsaco_elf::elf::consts::SHT_PROGBITS,
            flags: hsaco_elf::elf::consts::SHF_ALLOC | hsaco_elf::elf::consts::SHF_EXECINSTR,
            entsize: 0,
            align: 4,
            data: Vec::new(),
            nobits: 0,
            order: 0,
        };
        Asm {
            opts,
            files: Vec::new(),
            stmts: Stmts {
                count: 0,
                cur: (Loc { file: 0, line: 0 }, String::new()),
                kept: Vec::new(),
            },
            sections: vec![text],
            cur: 0,
            prev: 0,
            syms: HashMap::new(),
            next_order: 1,
            numeric: HashMap::new(),
            fixups: Vec::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
            macros: HashMap::new(),
            kernels: Vec::new(),
            cov: opts.code_object_version.unwrap_or(6),
            idents: Vec::new(),
            metadata: None,
            addrsig: false,
            addrsig_names: Vec::new(),
            v2_notes: Vec::new(),
            v2_note_position: None,
            cov_from_directive: opts.code_object_version.is_some(),
            evals: 0,
            scratch: Vec::with_capacity(64),
            listing: String::new(),
            target_directive: None,
            unique: 0,
        }
    }

    fn too_many(&self) -> bool {
        self.errors.len() >= self.opts.max_errors.max(1)
    }

    fn diag(
        &mut self,
        stmt: usize,
        span: std::ops::Range<usize>,
        severity: &'static str,
        m: String,
    ) {
        let (loc, text) = self
            .stmts
            .get(stmt)
            .unwrap_or((Loc { file: 0, line: 0 }, ""));
        let col = text
            .get(..span.start.min(text.len()))
            .map_or(0, |s| s.chars().count())
            + 1;
        let width = text
            .get(span.start.min(text.len())..span.end.min(text.len()))
            .map_or(1, |s| s.chars().count().max(1));
        let d = Diagnostic {
            file: self.files.get(loc.file).cloned().unwrap_or_default(),
            line: loc.line,
            col,
            severity,
            message: m,
            source: text.to_string(),
            width,
            seq: stmt,
        };
        if severity == "error" {
            if !self.too_many() {
                self.errors.push(d);
            }
        } else {
            self.warnings.push(d);
        }
    }

    fn error(&mut self, stmt: usize, span: std::ops::Range<usize>, m: impl Into<String>) {
        self.diag(stmt, span, "error", m.into());
    }

    fn sym(&mut self, name: &str) -> &mut Symbol {
        if !self.syms.contains_key(name) {
            let order = self.next_order;
            self.next_order += 1;
            self.syms.insert(
                name.to_string(),
                Symbol {
                    order,
                    ..Symbol::default()
                },
            );
        }
        self.syms.get_mut(name).expect("inserted above")
    }

    fn here(&self) -> u64 {
        let s = &self.sections[self.cur];
        s.data.len() as u64 + s.nobits
    }

    fn emit(&mut self, stmt: usize, bytes: &[u8]) {
        if self.here() + bytes.len() as u64 > self.opts.max_section_size {
            self.error(stmt, 0..0, "section too large");
            return;
        }
        let s = &mut self.sections[self.cur];
        if s.sh_type == hsaco_elf::elf::consts::SHT_NOBITS {
            if bytes.iter().any(|&b| b != 0) {
                self.error(stmt, 0..0, "cannot have initialized data in a bss section");
                return;
            }
            s.nobits += bytes.len() as u64;
        } else {
            s.data.extend_from_slice(bytes);
        }
    }

    fn emit_fill(&mut self, stmt: usize, count: u64, byte: u8) {
        if self.here().saturating_add(count) > self.opts.max_section_size {
            self.error(stmt, 0..0, "fill size too large");
            return;
        }
        let s = &mut self.sections[self.cur];
        if s.sh_type == hsaco_elf::elf::consts::SHT_NOBITS {
            s.nobits += count;
        } else {
            s.data.resize(s.data.len() + count as usize, byte);
        }
    }

    /// Add a code object v2 note (the `.note` section starts where the first one is).
    fn v2_note(&mut self, note_type: u32, desc: Vec<u8>) {
        if self.v2_notes.is_empty() {
            self.v2_note_position = Some(self.sections.len());
        }
        self.v2_notes.push((note_type, desc));
    }

    fn target_info(&self) -> (u32, bool, bool) {
        let p = self.opts.target.processor;
        let kt = KdTarget::new(p);
        (
            u32::from(p.version.0),
            kt.family == hsaco_elf::kd::KdFamily::Gfx90a,
            self.opts.target.xnack() == Some(FeatureSetting::On)
                || self.opts.target.xnack() == Some(FeatureSetting::Any),
        )
    }
}

/// Parsing context of one statement: `.` and numeric labels.
struct StmtCtx<'a> {
    dot: (usize, i64),
    numeric: &'a HashMap<u64, u32>,
}

impl ParseContext for StmtCtx<'_> {
    fn dot(&self) -> (usize, i64) {
        self.dot
    }
    fn numeric_label(&mut self, n: u64, forward: bool) -> Option<String> {
        let count = self.numeric.get(&n).copied().unwrap_or(0);
        if forward {
            Some(format!(".Ltmp$num{n}${}", count + 1))
        } else if count == 0 {
            None
        } else {
            Some(format!(".Ltmp$num{n}${count}"))
        }
    }
}

impl Resolver for Asm<'_> {
    fn symbol(&mut self, name: &str, depth: usize) -> Result<Option<Value>, String> {
        self.evals += 1;
        if self.evals > self.opts.max_evaluations {
            return Err("too many symbol evaluations (exponential definitions?)".to_string());
        }
        let Some(s) = self.syms.get(name) else {
            return Ok(predefined(self, name).map(Value::Abs));
        };
        if let Some((section, off)) = s.label {
            if section == usize::MAX {
                // an LDS symbol: known only to the linker
                return Ok(None);
            }
            return Ok(Some(Value::Rel {
                section,
                offset: off as i64,
                label: Some(name.to_string()),
            }));
        }
        if let Some(e) = s.var.clone() {
            return expr::eval(&e, self, depth + 1).map(Some);
        }
        Ok(predefined(self, name).map(Value::Abs))
    }
    fn target_info(&self) -> (u32, bool, bool) {
        Asm::target_info(self)
    }
}

fn predefined(a: &Asm<'_>, name: &str) -> Option<i64> {
    let v = a.opts.target.processor.version;
    Some(match name {
        ".amdgcn.gfx_generation_number" => i64::from(v.0),
        ".amdgcn.gfx_generation_minor" => i64::from(v.1),
        ".amdgcn.gfx_generation_stepping" => i64::from(v.2),
        ".amdgcn.next_free_vgpr" | ".amdgcn.next_free_sgpr" => 0,
        ".option.machine_version_major" => i64::from(v.0),
        ".option.machine_version_minor" => i64::from(v.1),
        ".option.machine_version_stepping" => i64::from(v.2),
        _ => return None,
    })
}

/// The encoder's view of symbols during one instruction.
struct Lookup<'a, 'o> {
    asm: &'a mut Asm<'o>,
    dot: (usize, i64),
    exprs: Vec<Expr>,
}

impl SymbolLookup for Lookup<'_, '_> {
    fn expr(&mut self, text: &str) -> Result<hsaco_isa::asm::ExprValue, String> {
        let mut ctx = StmtCtx {
            dot: self.dot,
            numeric: &self.asm.numeric,
        };
        let e = expr::parse_all(text.trim(), &mut ctx).map_err(|e| e.message)?;
        let v = expr::eval(&e, self.asm, 0)?;
        if !matches!(v, Value::Abs(_)) {
            register_symbols(self.asm, &e);
        }
        self.exprs.push(e);
        Ok(match v {
            Value::Abs(n) => hsaco_isa::asm::ExprValue::Const(n),
            Value::Rel {
                offset,
                label,
                section,
            } => {
                // the label plus what was added to it (the caller keeps the whole
                // expression for the fixup anyway)
                let base = label
                    .as_ref()
                    .and_then(|l| self.asm.syms.get(l))
                    .and_then(|s| s.label)
                    .map_or(0, |(_, off)| off as i64);
                hsaco_isa::asm::ExprValue::Symbolic {
                    symbol: label.unwrap_or_else(|| format!(".L<section {section}>")),
                    addend: offset.wrapping_sub(base),
                    variant: RelocVariant::None,
                }
            }
            Value::Sym {
                name,
                addend,
                variant,
            } => hsaco_isa::asm::ExprValue::Symbolic {
                symbol: name,
                addend,
                variant,
            },
        })
    }
}

/// Assemble `text` (named `file` in diagnostics).
pub fn assemble(
    file: &str,
    text: &str,
    opts: &Options,
    enc: &mut dyn InstructionEncoder,
    loader: &mut dyn FileLoader,
) -> Result<Assembled, Diagnostics> {
    let src = Source::Text {
        text: std::borrow::Cow::Borrowed(text),
        pos: 0,
    };
    run(file, src, opts, enc, loader)
}

/// Assemble the text `reader` gives (named `file` in diagnostics), a line at a time:
/// the input is not held in memory (a million-line file costs what its output
/// does). Read errors and invalid UTF-8 are errors at the line they are met.
pub fn assemble_reader(
    file: &str,
    reader: &mut dyn std::io::BufRead,
    opts: &Options,
    enc: &mut dyn InstructionEncoder,
    loader: &mut dyn FileLoader,
) -> Result<Assembled, Diagnostics> {
    let src = Source::Reader {
        reader,
        buf: Vec::with_capacity(256),
        error: None,
        done: false,
    };
    run(file, src, opts, enc, loader)
}

fn run(
    file: &str,
    src: Source<'_>,
    opts: &Options,
    enc: &mut dyn InstructionEncoder,
    loader: &mut dyn FileLoader,
) -> Result<Assembled, Diagnostics> {
    let mut a = Asm::new(opts);
    a.files.push(file.to_string());
    let mut stack: Vec<Frame> = vec![Frame::Text {
        src,
        line: 0,
        file: 0,
        in_block: false,
    }];
    let mut cond: Vec<(bool, bool)> = Vec::new(); // (active, taken)
    let mut expanded = 0usize;
    // (one line buffer for the run: no allocation per line)
    let mut line = Line::empty();
    while let Some(frame) = stack.last_mut() {
        let more = frame.next_into(&mut line);
        if let Some(m) = frame.take_error() {
            let n = a.stmts.push(line.loc, if more { &line.raw } else { "" });
            a.error(n, 0..0, m);
        }
        if !more {
            stack.pop();
            continue;
        }
        expanded += 1;
        if expanded > a.opts.max_statements || a.too_many() {
            if expanded > a.opts.max_statements {
                let n = a.stmts.push(line.loc, &line.raw);
                a.error(n, 0..0, "too many statements after expansion");
            }
            break;
        }
        let t = line.text.trim_start();
        let ind = line.text.len() - t.len();
        let word_end = t
            .find(|c: char| c.is_whitespace() || c == ',')
            .unwrap_or(t.len());
        let word: std::borrow::Cow<str> = if t[..word_end].bytes().any(|b| b.is_ascii_uppercase()) {
            t[..word_end].to_ascii_lowercase().into()
        } else {
            t[..word_end].into()
        };
        let word = word.as_ref();
        // conditionals
        let active = cond.iter().all(|c| c.0);
        match word {
            ".if" | ".ifdef" | ".ifndef" | ".ifnotdef" | ".ifeq" | ".ifne" | ".ifgt" | ".ifge"
            | ".iflt" | ".ifle" | ".ifb" | ".ifnb" => {
                if !active {
                    cond.push((false, true));
                    continue;
                }
                let n = a.stmts.push(line.loc, &line.raw);
                let arg = t[word_end..].trim();
                let v = eval_condition(&mut a, n, word, arg, &line);
                cond.push((v, v));
                continue;
            }
            ".else" | ".elseif" => {
                let outer = cond.len() < 2 || cond[..cond.len() - 1].iter().all(|c| c.0);
                let Some(top) = cond.last().copied() else {
                    let n = a.stmts.push(line.loc, &line.raw);
                    a.error(
                        n,
                        ind..ind + word_end,
                        format!("Encountered a {word} that doesn't follow  an .if or an .elseif"),
                    );
                    continue;
                };
                let v = if top.1 || !outer {
                    false
                } else if word == ".else" {
                    true
                } else {
                    let n = a.stmts.push(line.loc, &line.raw);
                    eval_condition(&mut a, n, ".if", t[word_end..].trim(), &line)
                };
                let len = cond.len();
                cond[len - 1] = (v, top.1 || v);
                continue;
            }
            ".endif" => {
                if cond.pop().is_none() {
                    let n = a.stmts.push(line.loc, &line.raw);
                    a.error(
                        n,
                        ind..ind + word_end,
                        "Encountered a .endif that doesn't follow an .if or .else",
                    );
                }
                continue;
            }
            _ => {}
        }
        if !active {
            continue;
        }
        let n = a.stmts.push(line.loc, &line.raw);
        // block directives that consume following lines
        match word {
            ".macro" => {
                let frame = stack.last_mut().expect("non-empty");
                match take_block(frame, &[".macro"], ".endm", &[".endmacro"]) {
                    Some(body) => define_macro(&mut a, n, &t[word_end..], body),
                    None => a.error(
                        n,
                        ind..ind + word_end,
                        "no matching '.endmacro' in definition",
                    ),
                }
                continue;
            }
            ".rept" | ".irp" | ".irpc" => {
                let frame = stack.last_mut().expect("non-empty");
                let Some(body) = take_block(frame, &[".rept", ".irp", ".irpc"], ".endr", &[])
                else {
                    a.error(n, ind..ind + word_end, "no matching '.endr' in definition");
                    continue;
                };
                let exp = expand_repeat(&mut a, n, word, t[word_end..].trim(), &body);
                if !exp.is_empty() {
                    stack.push(Frame::Lines(exp, 0));
                }
                continue;
            }
            ".amdgpu_metadata" | ".amd_amdgpu_hsa_metadata" | ".amd_kernel_code_t" => {
                let frame = stack.last_mut().expect("non-empty");
                let end = match word {
                    ".amdgpu_metadata" => ".end_amdgpu_metadata",
                    ".amd_kernel_code_t" => ".end_amd_kernel_code_t",
                    _ => ".end_amd_amdgpu_hsa_metadata",
                };
                if word == ".amd_kernel_code_t" {
                    let mut body = Vec::new();
                    let mut closed = false;
                    while let Some(l) = frame.next() {
                        if l.text.trim() == end {
                            closed = true;
                            break;
                        }
                        body.push(l);
                    }
                    if !closed {
                        a.error(n, ind..ind + word_end, format!("expected {end}"));
                    }
                    amd_kernel_code_t(&mut a, n, body);
                    continue;
                }
                let mut yaml = String::new();
                let mut closed = false;
                while let Some(l) = frame.next() {
                    if l.raw.trim() == end {
                        closed = true;
                        break;
                    }
                    yaml.push_str(&l.raw);
                    yaml.push('\n');
                }
                if !closed {
                    a.error(
                        n,
                        ind..ind + word_end,
                        format!("expected directive {end} not found"),
                    );
                }
                if word == ".amdgpu_metadata" {
                    a.metadata = Some(yaml);
                } else {
                    // code object v2: the YAML text itself is the note, ending in
                    // one newline and no NUL (llvm-mc-13 to -16 write clang's YAML
                    // so; they re-print the document, which for the YAML LLVM prints
                    // is the same text)
                    let end = yaml.trim_end_matches(['\n', '\r', ' ', '\t']).len();
                    yaml.truncate(end);
                    yaml.push('\n');
                    let desc = yaml.into_bytes();
                    a.v2_note(hsaco_elf::elf::consts::NT_AMD_HSA_METADATA, desc);
                }
                continue;
            }
            ".include" => {
                let arg = t[word_end..].trim();
                let name = arg.trim_matches('"');
                let from = a.files[line.loc.file].clone();
                match loader.load(name, &from) {
                    Ok((path, text)) => {
                        if stack.len() > 64 {
                            a.error(n, word_end..t.len(), "includes nested too deeply");
                            continue;
                        }
                        a.files.push(path);
                        let id = a.files.len() - 1;
                        stack.push(Frame::Text {
                            src: Source::Text {
                                text: std::borrow::Cow::Owned(text),
                                pos: 0,
                            },
                            line: 0,
                            file: id,
                            in_block: false,
                        });
                    }
                    Err(m) => {
                        let off = line.raw.find(arg).unwrap_or(0);
                        a.error(n, off..off + arg.len(), m);
                    }
                }
                continue;
            }
            ".amdhsa_kernel" => {
                let frame = stack.last_mut().expect("non-empty");
                let mut body = Vec::new();
                let mut end = None;
                while let Some(l) = frame.next() {
                    if l.text.trim() == ".end_amdhsa_kernel" {
                        end = Some(l);
                        break;
                    }
                    body.push(l);
                }
                let closed = end.is_some();
                amdhsa_kernel(&mut a, n, t[word_end..].trim(), &line, body, end);
                if !closed {
                    a.error(n, ind..ind + word_end, "expected .end_amdhsa_kernel");
                }
                continue;
            }
            _ => {}
        }
        if let Some(m) = (!a.macros.is_empty()).then(|| a.macros.get(word)).flatten() {
            let exp = expand_macro(m, t[word_end..].trim(), &mut a.unique);
            match exp {
                Ok(lines) => stack.push(Frame::Lines(lines, 0)),
                Err(m) => a.error(n, ind..ind + word_end, m),
            }
            continue;
        }
        statement(&mut a, n, &line, enc);
    }
    if !cond.is_empty() {
        let n = a.stmts.last();
        a.error(n, 0..0, "unmatched .ifs or .elses");
    }
    // descriptor fields name symbols defined anywhere: check them at the end, also
    // when there are other errors
    a.finish_kernels();
    if a.errors.is_empty() {
        object::finish(&mut a)
    } else {
        let mut errors = a.errors;
        errors.sort_by_key(|d| d.seq);
        Err(Diagnostics(errors))
    }
}

fn take_block(
    frame: &mut Frame<'_>,
    open: &[&str],
    close: &str,
    close_alt: &[&str],
) -> Option<Vec<Line>> {
    let mut depth = 1;
    let mut body = Vec::new();
    while let Some(l) = frame.next() {
        let w = l
            .text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if open.contains(&w.as_str()) {
            depth += 1;
        } else if w == close || close_alt.contains(&w.as_str()) {
            depth -= 1;
            if depth == 0 {
                return Some(body);
            }
        }
        body.push(l);
    }
    None
}

fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0;
    let mut in_str = false;
    for c in s.chars() {
        match c {
            '"' => {
                in_str = !in_str;
                cur.push(c);
            }
            '(' if !in_str => {
                depth += 1;
                cur.push(c);
            }
            ')' if !in_str => {
                depth -= 1;
                cur.push(c);
            }
            ',' if !in_str && depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
            }
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() || !out.is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn define_macro(a: &mut Asm<'_>, n: usize, rest: &str, body: Vec<Line>) {
    let rest = rest.trim();
    let name_end = rest
        .find(|c: char| c.is_whitespace() || c == ',')
        .unwrap_or(rest.len());
    let name = rest[..name_end].to_ascii_lowercase();
    if name.is_empty() {
        a.error(n, 0..0, "expected identifier in '.macro' directive");
        return;
    }
    let mut params = Vec::new();
    for p in rest[name_end..]
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let (pn, def) = match p.split_once('=') {
            Some((pn, d)) => (pn, Some(d.to_string())),
            None => (p, None),
        };
        let pn = pn.split(':').next().unwrap_or(pn);
        params.push((pn.to_string(), def));
    }
    if a.macros.contains_key(&name) {
        a.error(n, 0..0, format!("macro '{name}' is already defined"));
        return;
    }
    a.macros.insert(name, Macro { params, body });
}

fn substitute(text: &str, names: &[(String, String)], unique: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'@') {
                out.push_str(&unique.to_string());
                i += 2;
                continue;
            }
            if b.get(i + 1) == Some(&b'(') && b.get(i + 2) == Some(&b')') {
                i += 3;
                continue;
            }
            let start = i + 1;
            let mut end = start;
            while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                end += 1;
            }
            if let Some((_, v)) = names.iter().find(|(n, _)| n.as_bytes() == &b[start..end]) {
                out.push_str(v);
                i = end;
                continue;
            }
        }
        let ch_len = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + ch_len]);
        i += ch_len;
    }
    out
}

fn expand_macro(m: &Macro, args: &str, unique: &mut usize) -> Result<Vec<Line>, String> {
    let given = split_args(args);
    if given.len() > m.params.len() {
        return Err("too many positional arguments".to_string());
    }
    let mut names = Vec::new();
    for (i, (pn, def)) in m.params.iter().enumerate() {
        let v = given
            .get(i)
            .filter(|s| !s.is_empty())
            .cloned()
            .or_else(|| def.clone())
            .unwrap_or_default();
        names.push((pn.clone(), v));
    }
    *unique += 1;
    Ok(m.body
        .iter()
        .map(|l| Line {
            loc: l.loc,
            text: substitute(&l.text, &names, *unique),
            raw: substitute(&l.raw, &names, *unique),
        })
        .collect())
}

fn expand_repeat(a: &mut Asm<'_>, n: usize, word: &str, arg: &str, body: &[Line]) -> Vec<Line> {
    let mut out = Vec::new();
    match word {
        ".rept" => {
            let count = match abs_expr(a, n, arg) {
                Some(c) if (0..=1_000_000).contains(&c) => c as usize,
                Some(_) => {
                    a.error(n, 0..0, "Count is negative or too large");
                    return out;
                }
                None => return out,
            };
            if count.saturating_mul(body.len()) > a.opts.max_statements {
                a.error(n, 0..0, "too many statements after expansion");
                return out;
            }
            for _ in 0..count {
                out.extend(body.iter().cloned());
            }
        }
        _ => {
            let (param, list) = match arg.split_once(',') {
                Some((p, l)) => (p.trim().to_string(), l.trim()),
                None => (arg.trim().to_string(), ""),
            };
            let values: Vec<String> = if word == ".irp" {
                split_args(list)
            } else {
                list.chars().map(|c| c.to_string()).collect()
            };
            for v in values {
                let names = vec![(param.clone(), v)];
                for l in body {
                    out.push(Line {
                        loc: l.loc,
                        text: substitute(&l.text, &names, 0),
                        raw: substitute(&l.raw, &names, 0),
                    });
                }
            }
        }
    }
    out
}

fn eval_condition(a: &mut Asm<'_>, n: usize, word: &str, arg: &str, _line: &Line) -> bool {
    match word {
        ".ifdef" => a
            .syms
            .get(arg)
            .is_some_and(|s| s.label.is_some() || s.var.is_some()),
        ".ifndef" | ".ifnotdef" => !a
            .syms
            .get(arg)
            .is_some_and(|s| s.label.is_some() || s.var.is_some()),
        ".ifb" => arg.is_empty(),
        ".ifnb" => !arg.is_empty(),
        _ => {
            let v = abs_expr(a, n, arg).unwrap_or(0);
            match word {
                ".ifeq" => v == 0,
                ".ifgt" => v > 0,
                ".ifge" => v >= 0,
                ".iflt" => v < 0,
                ".ifle" => v <= 0,
                _ => v != 0,
            }
        }
    }
}

fn parse_expr(a: &mut Asm<'_>, n: usize, text: &str, base: usize) -> Option<Expr> {
    let dot = (a.cur, a.here() as i64);
    let mut ctx = StmtCtx {
        dot,
        numeric: &a.numeric,
    };
    match expr::parse_all(text, &mut ctx) {
        Ok(e) => Some(e),
        Err(e) => {
            a.error(n, base + e.at..base + e.at + 1, e.message);
            None
        }
    }
}

/// An expression that must be absolute now.
fn abs_expr(a: &mut Asm<'_>, n: usize, text: &str) -> Option<i64> {
    let base = a
        .stmts
        .get(n)
        .and_then(|(_, raw)| raw.find(text.trim()))
        .unwrap_or(0);
    let e = parse_expr(a, n, text.trim(), base)?;
    match expr::eval(&e, a, 0) {
        Ok(Value::Abs(v)) => Some(v),
        Ok(_) => {
            a.error(
                n,
                base..base + text.trim().len(),
                "expected absolute expression",
            );
            None
        }
        Err(m) => {
            a.error(n, base..base + text.trim().len(), m);
            None
        }
    }
}

fn define_label(a: &mut Asm<'_>, n: usize, name: &str, col: usize) {
    let at = (a.cur, a.here());
    let s = a.sym(name);
    if s.label.is_some() || s.var.is_some() {
        let len = name.len();
        a.error(
            n,
            col..col + len,
            format!("symbol '{name}' is already defined"),
        );
        return;
    }
    s.label = Some(at);
}

fn statement(a: &mut Asm<'_>, n: usize, line: &Line, enc: &mut dyn InstructionEncoder) {
    let text = line.text.as_str();
    let b = text.as_bytes();
    let mut pos = 0;
    // labels
    loop {
        while pos < b.len() && b[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if pos >= b.len() {
            return;
        }
        let start = pos;
        if b[pos].is_ascii_digit() {
            let mut end = pos;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            if b.get(end) == Some(&b':') {
                let num: u64 = text[start..end].parse().unwrap_or(0);
                let c = a.numeric.entry(num).or_insert(0);
                *c += 1;
                let name = format!(".Ltmp$num{num}${c}");
                define_label(a, n, &name, start);
                pos = end + 1;
                continue;
            }
            break;
        }
        let (name, end) = if b[pos] == b'"' {
            match text[pos + 1..].find('"') {
                Some(e) => (&text[pos + 1..pos + 1 + e], pos + e + 2),
                None => break,
            }
        } else if expr::is_ident_start(b[pos]) {
            let mut end = pos + 1;
            while end < b.len() && expr::is_ident_char(b[end]) {
                end += 1;
            }
            (&text[pos..end], end)
        } else {
            break;
        };
        if b.get(end) == Some(&b':') {
            define_label(a, n, name, start);
            if a.opts.listing {
                a.listing.push_str(name);
                a.listing.push_str(":\n");
            }
            pos = end + 1;
            continue;
        }
        // `sym = expr`
        let mut k = end;
        while k < b.len() && b[k].is_ascii_whitespace() {
            k += 1;
        }
        if b.get(k) == Some(&b'=') && b.get(k + 1) != Some(&b'=') {
            assign(a, n, name, start, &text[k + 1..], k + 1, true);
            return;
        }
        break;
    }
    let rest = &text[pos..];
    if rest.starts_with('.') {
        let word_end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        let word = rest[..word_end].to_ascii_lowercase();
        let args_off = pos + word_end;
        directive(a, n, &word, pos, &text[args_off..], args_off);
        return;
    }
    // instruction
    let stmt = rest.trim_end();
    if a.sections[a.cur].sh_type == hsaco_elf::elf::consts::SHT_NOBITS {
        a.error(
            n,
            pos..pos + stmt.len(),
            "instructions are not allowed in a nobits section",
        );
        return;
    }
    let pc = a.here();
    let section = a.cur;
    let mut out = std::mem::take(&mut a.scratch);
    out.clear();
    let mut look = Lookup {
        asm: a,
        dot: (section, pc as i64),
        exprs: Vec::new(),
    };
    let r = enc.encode(stmt, pc, &mut look, &mut out);
    let exprs = std::mem::take(&mut look.exprs);
    match r {
        Err(e) => {
            a.error(n, pos + e.span.start..pos + e.span.end, e.message);
        }
        Ok(encoded) => {
            if let Some(w) = encoded.warning {
                a.diag(
                    n,
                    pos + w.span.start..pos + w.span.end,
                    "warning",
                    w.message,
                );
            }
            let size = usize::from(encoded.size).min(out.len());
            if a.opts.listing {
                let bytes: Vec<String> = out[..size].iter().map(|b| format!("0x{b:02x}")).collect();
                let mut l = format!("\t{stmt}");
                while l.len() < 40 {
                    l.push(' ');
                }
                a.listing
                    .push_str(&format!("{l}; encoding: [{}]\n", bytes.join(",")));
            }
            if let Some(fx) = encoded.fixup {
                let kind = match fx.kind {
                    FixupKind::Branch16 => PendingKind::Branch16,
                    FixupKind::Literal32 => PendingKind::Literal32,
                    // (gfx1250 64-bit literals: an eight-byte value, as `.quad` data)
                    FixupKind::Literal64 => PendingKind::Data(8),
                };
                // the expression the encoder evaluated, else the symbol it reported
                let e = exprs
                    .into_iter()
                    .find(|e| {
                        matches!(
                            expr::eval(e, a, 0),
                            Ok(Value::Sym { .. } | Value::Rel { .. })
                        )
                    })
                    .unwrap_or_else(|| {
                        let s = Expr::Sym(fx.symbol.clone(), fx.variant);
                        if fx.addend != 0 {
                            Expr::Binary("+", Box::new(s), Box::new(Expr::Num(fx.addend)))
                        } else {
                            s
                        }
                    });
                a.stmts.keep(n);
                a.fixups.push(PendingFixup {
                    section,
                    offset: pc + u64::from(fx.offset),
                    kind,
                    expr: e,
                    at: (n, pos..pos + stmt.len()),
                });
            }
            a.emit(n, &out[..size]);
        }
    }
    a.scratch = out;
}

fn assign(
    a: &mut Asm<'_>,
    n: usize,
    name: &str,
    col: usize,
    value: &str,
    base: usize,
    redefine: bool,
) {
    let v = value.trim();
    let off = base + (value.len() - value.trim_start().len());
    let Some(e) = parse_expr(a, n, v, off) else {
        return;
    };
    let s = a.sym(name);
    if s.label.is_some() || (!redefine && s.var.is_some()) {
        a.error(
            n,
            col..col + name.len(),
            format!("redefinition of '{name}'"),
        );
        return;
    }
    s.var = Some(e.clone());
    register_symbols(a, &e);
}

fn parse_name(s: &str) -> (String, &str) {
    let s = s.trim_start();
    if let Some(rest) = s.strip_prefix('"') {
        if let Some(e) = rest.find('"') {
            return (rest[..e].to_string(), &rest[e + 1..]);
        }
    }
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || "_.$@".contains(c)))
        .unwrap_or(s.len());
    (s[..end].to_string(), &s[end..])
}

fn parse_string(s: &str) -> Option<(Vec<u8>, &str)> {
    let s = s.trim_start();
    let rest = s.strip_prefix('"')?;
    let b = rest.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => return Some((out, &rest[i + 1..])),
            b'\\' if i + 1 < b.len() => {
                i += 1;
                match b[i] {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'0'..=b'7' => {
                        let mut v = 0u32;
                        let mut k = 0;
                        while k < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                            v = v.wrapping_mul(8) + u32::from(b[i] - b'0');
                            i += 1;
                            k += 1;
                        }
                        out.push(v as u8);
                        continue;
                    }
                    b'x' | b'X' => {
                        i += 1;
                        let mut v = 0u32;
                        while i < b.len() && b[i].is_ascii_hexdigit() {
                            // the low byte is kept, as the value wraps
                            v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                            i += 1;
                        }
                        out.push(v as u8);
                        continue;
                    }
                    c => out.push(c),
                }
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    None
}

fn switch_section(a: &mut Asm<'_>, name: &str, sh_type: u32, flags: u64, entsize: u64) {
    a.prev = a.cur;
    if let Some(i) = a.sections.iter().position(|s| s.name == name) {
        a.cur = i;
        return;
    }
    let order = a.next_order;
    a.next_order += 1;
    a.sections.push(Section {
        name: name.to_string(),
        sh_type,
        flags,
        entsize,
        align: 1,
        data: Vec::new(),
        nobits: 0,
        order,
    });
    a.cur = a.sections.len() - 1;
}

fn default_section_kind(name: &str) -> (u32, u64) {
    use hsaco_elf::elf::consts::*;
    if name == ".text" || name.starts_with(".text.") {
        (SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR)
    } else if name == ".data" || name.starts_with(".data.") {
        (SHT_PROGBITS, SHF_ALLOC | SHF_WRITE)
    } else if name == ".bss" || name.starts_with(".bss.") {
        (SHT_NOBITS, SHF_ALLOC | SHF_WRITE)
    } else if name == ".rodata" || name.starts_with(".rodata.") {
        (SHT_PROGBITS, SHF_ALLOC)
    } else if name.starts_with(".note") {
        (SHT_NOTE, 0)
    } else {
        (SHT_PROGBITS, 0)
    }
}

fn section_directive(a: &mut Asm<'_>, n: usize, args: &str, off: usize) {
    use hsaco_elf::elf::consts::*;
    // section names may hold any character but ',' and blanks (`.note.GNU-stack`)
    let (name, rest) = if args.trim_start().starts_with('"') {
        parse_name(args)
    } else {
        let t = args.trim_start();
        let end = t
            .find(|c: char| c == ',' || c.is_whitespace())
            .unwrap_or(t.len());
        (t[..end].to_string(), &t[end..])
    };
    if name.is_empty() {
        a.error(n, off..off + 1, "expected identifier in directive");
        return;
    }
    let (mut sh_type, mut flags) = default_section_kind(&name);
    let mut entsize = 0;
    let parts = split_args(
        rest.trim_start_matches(|c: char| c.is_whitespace())
            .trim_start_matches(','),
    );
    let explicit_flags = parts.first().filter(|p| p.starts_with('"'));
    if let Some(f) = explicit_flags {
        flags = 0;
        for c in f.trim_matches('"').chars() {
            flags |= match c {
                'a' => SHF_ALLOC,
                'w' => SHF_WRITE,
                'x' => SHF_EXECINSTR,
                'M' => SHF_MERGE,
                'S' => SHF_STRINGS,
                'G' => SHF_GROUP,
                'T' => SHF_TLS,
                'e' => 0x8000_0000,
                'R' => 0x10_0000,
                _ => {
                    a.error(n, off..off + args.len(), "unknown flag");
                    return;
                }
            };
        }
    }
    if let Some(t) = parts.get(1) {
        let t = t.trim_start_matches(['@', '%']);
        sh_type = match t {
            "progbits" => SHT_PROGBITS,
            "nobits" => SHT_NOBITS,
            "note" => SHT_NOTE,
            "init_array" => 14,
            "fini_array" => 15,
            "preinit_array" => 16,
            "llvm_addrsig" => 0x6fff_4c03,
            _ => {
                a.error(n, off..off + args.len(), "unknown section type");
                return;
            }
        };
        if flags & SHF_MERGE != 0 {
            entsize = parts.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
        }
    } else if explicit_flags.is_some() && name.starts_with(".note") {
        sh_type = SHT_NOTE;
    }
    if let Some(existing) = a.sections.iter().find(|s| s.name == name) {
        if explicit_flags.is_some() && (existing.flags != flags || existing.sh_type != sh_type) {
            a.error(n, off..off + args.len(), "changed section flags or type");
            return;
        }
    }
    switch_section(a, &name, sh_type, flags, entsize);
}

fn align_to(
    a: &mut Asm<'_>,
    n: usize,
    align: u64,
    fill: Option<i64>,
    fill_size: u8,
    max: Option<u64>,
) {
    if align == 0 || !align.is_power_of_two() || align > 1 << 16 {
        a.error(n, 0..0, "alignment must be a power of 2");
        return;
    }
    let here = a.here();
    let pad = (align - here % align) % align;
    if max.is_some_and(|m| pad > m) {
        return;
    }
    let s = &mut a.sections[a.cur];
    s.align = s.align.max(align);
    let code = s.flags & hsaco_elf::elf::consts::SHF_EXECINSTR != 0;
    match fill {
        None if code => {
            // s_nop 0 words in code, as llvm-mc pads
            let nop = S_NOP_0;
            let mut left = pad;
            while !left.is_multiple_of(4) {
                a.emit_fill(n, 1, 0);
                left -= 1;
            }
            while left > 0 {
                a.emit(n, &nop.to_le_bytes());
                left -= 4;
            }
        }
        None => a.emit_fill(n, pad, 0),
        Some(v) => {
            let size = u64::from(fill_size);
            let mut left = pad;
            while !left.is_multiple_of(size) {
                a.emit_fill(n, 1, 0);
                left -= 1;
            }
            let bytes = v.to_le_bytes();
            while left > 0 {
                let b = bytes[..fill_size as usize].to_vec();
                a.emit(n, &b);
                left -= size;
            }
        }
    }
}

/// `s_nop 0`, the word llvm-mc pads code with: SOPP opcode 0, the same on every
/// generation (checked on the corpus, gfx8 to gfx12.5).
const S_NOP_0: u32 = 0xbf80_0000;

fn directive(a: &mut Asm<'_>, n: usize, word: &str, wpos: usize, args: &str, off: usize) {
    use hsaco_elf::elf::consts::*;
    let targs = args.trim();
    let aoff = off + (args.len() - args.trim_start().len());
    let wspan = wpos..wpos + word.len();
    match word {
        ".text" => switch_section(a, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0),
        ".data" => switch_section(a, ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0),
        ".bss" => switch_section(a, ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0),
        ".rodata" => switch_section(a, ".rodata", SHT_PROGBITS, SHF_ALLOC, 0),
        ".section" | ".pushsection" => section_directive(a, n, args, aoff),
        ".previous" | ".popsection" => {
            std::mem::swap(&mut a.cur, &mut a.prev);
        }
        ".globl" | ".global" | ".weak" | ".local" => {
            let bind = match word {
                ".weak" => STB_WEAK,
                ".local" => STB_LOCAL,
                _ => STB_GLOBAL,
            };
            for name in targs.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                a.sym(name).bind = Some(bind);
            }
        }
        ".hidden" | ".protected" | ".internal" => {
            let vis = match word {
                ".hidden" => STV_HIDDEN,
                ".protected" => STV_PROTECTED,
                _ => STV_INTERNAL,
            };
            for name in targs.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                a.sym(name).visibility = vis;
            }
        }
        ".type" => {
            let (name, rest) = parse_name(targs);
            let kind = rest
                .trim()
                .trim_start_matches(',')
                .trim()
                .trim_start_matches(['@', '%', '#']);
            let t = match kind {
                "function" => STT_FUNC,
                "object" => STT_OBJECT,
                "notype" => STT_NOTYPE,
                "tls_object" => STT_TLS,
                "common" => STT_COMMON,
                "gnu_indirect_function" => 10,
                _ => {
                    a.error(n, aoff..aoff + targs.len(), "unsupported attribute");
                    return;
                }
            };
            a.sym(&name).st_type = Some(t);
        }
        ".size" => {
            let (name, rest) = parse_name(targs);
            let rest = rest.trim_start().trim_start_matches(',');
            let base = off + args.find(rest.trim()).unwrap_or(0);
            if let Some(e) = parse_expr(a, n, rest.trim(), base) {
                a.sym(&name).size = Some(e);
            }
        }
        ".set" | ".equ" | ".equiv" => {
            let (name, rest) = parse_name(targs);
            let Some(value) = rest.trim_start().strip_prefix(',') else {
                a.error(n, aoff..aoff + targs.len(), "expected comma");
                return;
            };
            let base = off + args.find(value).unwrap_or(0);
            assign(a, n, &name, aoff, value, base, word != ".equiv");
        }
        ".p2align" | ".p2alignw" | ".p2alignl" | ".align" | ".balign" | ".balignw" | ".balignl" => {
            let parts = split_args(targs);
            if parts.len() > 3 {
                let at = off + args.rfind(',').unwrap_or(0);
                a.error(n, at..at + 1, "expected newline");
                return;
            }
            let Some(v) = parts.first().and_then(|p| abs_expr(a, n, p)) else {
                if parts.is_empty() {
                    a.error(n, wspan, "expected alignment");
                }
                return;
            };
            let align = if word.starts_with(".p2align") {
                if !(0..=16).contains(&v) {
                    a.error(n, aoff..aoff + targs.len(), "invalid alignment value");
                    return;
                }
                1u64 << v
            } else {
                v as u64
            };
            let fill = match parts.get(1) {
                Some(p) if !p.is_empty() => abs_expr(a, n, p),
                _ => None,
            };
            let max = parts
                .get(2)
                .and_then(|p| abs_expr(a, n, p))
                .map(|m| m as u64);
            let size = if word.ends_with('w') {
                2
            } else if word.ends_with('l') {
                4
            } else {
                1
            };
            align_to(a, n, align, fill, size, max);
        }
        ".byte" | ".short" | ".value" | ".2byte" | ".long" | ".int" | ".4byte" | ".word"
        | ".quad" | ".8byte" => {
            let size: u8 = match word {
                ".byte" => 1,
                ".short" | ".value" | ".2byte" => 2,
                ".long" | ".int" | ".4byte" | ".word" => 4,
                _ => 8,
            };
            for p in split_args(targs) {
                let base = off + args.find(p.as_str()).unwrap_or(0);
                let Some(e) = parse_expr(a, n, &p, base) else {
                    continue;
                };
                data_value(a, n, e, size, base..base + p.len());
            }
        }
        ".ascii" | ".asciz" | ".string" => {
            let mut rest = targs;
            loop {
                let Some((bytes, r)) = parse_string(rest) else {
                    a.error(n, aoff..aoff + targs.len(), "expected string");
                    return;
                };
                a.emit(n, &bytes);
                if word != ".ascii" {
                    a.emit(n, &[0]);
                }
                rest = r.trim_start();
                match rest.strip_prefix(',') {
                    Some(r) => rest = r,
                    None => break,
                }
            }
        }
        ".zero" | ".skip" | ".space" => {
            let parts = split_args(targs);
            let Some(count) = parts.first().and_then(|p| abs_expr(a, n, p)) else {
                return;
            };
            let fill = parts.get(1).and_then(|p| abs_expr(a, n, p)).unwrap_or(0);
            if count < 0 {
                a.error(
                    n,
                    aoff..aoff + targs.len(),
                    "'.space' directive with negative size",
                );
                return;
            }
            a.emit_fill(n, count as u64, fill as u8);
        }
        ".fill" => {
            let parts = split_args(targs);
            let Some(count) = parts.first().and_then(|p| abs_expr(a, n, p)) else {
                return;
            };
            let size = parts
                .get(1)
                .map_or(Some(1), |p| abs_expr(a, n, p))
                .unwrap_or(1);
            let value = parts
                .get(2)
                .map_or(Some(0), |p| abs_expr(a, n, p))
                .unwrap_or(0);
            if count < 0 || !(0..=8).contains(&size) {
                a.error(n, aoff..aoff + targs.len(), "invalid .fill count or size");
                return;
            }
            if (count as u64).saturating_mul(size as u64) > a.opts.max_section_size {
                a.error(n, aoff..aoff + targs.len(), "fill size too large");
                return;
            }
            // GNU semantics: the value is 4 bytes wide, higher bytes zero
            let mut item = [0u8; 8];
            item[..4].copy_from_slice(&(value as u32).to_le_bytes());
            for _ in 0..count {
                let b = item[..size as usize].to_vec();
                a.emit(n, &b);
            }
        }
        ".ident" => match parse_string(targs) {
            Some((s, _)) => {
                a.idents.push(String::from_utf8_lossy(&s).into_owned());
                if !a.sections.iter().any(|s| s.name == ".comment") {
                    let cur = a.cur;
                    let prev = a.prev;
                    switch_section(a, ".comment", SHT_PROGBITS, SHF_MERGE | SHF_STRINGS, 1);
                    a.cur = cur;
                    a.prev = prev;
                }
            }
            None => a.error(n, aoff..aoff + targs.len(), "expected string"),
        },
        ".addrsig" => {
            a.addrsig = true;
            if !a.sections.iter().any(|s| s.name == ".llvm_addrsig") {
                let (cur, prev) = (a.cur, a.prev);
                switch_section(a, ".llvm_addrsig", 0x6fff_4c03, 0x8000_0000, 0);
                a.cur = cur;
                a.prev = prev;
            }
        }
        ".addrsig_sym" => {
            // marks the symbol if it exists by the end; does not create it
            let (name, _) = parse_name(targs);
            a.addrsig_names.push(name);
        }
        ".file" | ".loc" | ".cfi_sections" | ".cfi_startproc" | ".cfi_endproc" => {}
        ".amdgcn_target" => match parse_string(targs) {
            Some((s, _)) => {
                let s = String::from_utf8_lossy(&s).into_owned();
                let want = a.opts.target.format(hsaco_target::TargetIdForm::Full);
                let ok = match TargetId::parse(&s) {
                    Ok(t) => t.processor.name == a.opts.target.processor.name,
                    Err(_) => false,
                };
                if !ok {
                    a.error(
                        n,
                        aoff..aoff + targs.len(),
                        format!(
                            ".amdgcn_target directive's target id {s} does not match the \
                             specified target id {want}"
                        ),
                    );
                }
                a.target_directive = Some(s);
            }
            None => a.error(n, aoff..aoff + targs.len(), "expected string"),
        },
        ".amdhsa_code_object_version" => {
            if let Some(v) = abs_expr(a, n, targs) {
                if !(2..=6).contains(&v) {
                    a.error(
                        n,
                        aoff..aoff + targs.len(),
                        "unsupported code object version",
                    );
                    return;
                }
                a.cov = v as u8;
                a.cov_from_directive = true;
            }
        }
        ".amdgpu_lds" => {
            let parts = split_args(targs);
            let name = parts.first().cloned().unwrap_or_default();
            let size = parts.get(1).and_then(|p| abs_expr(a, n, p)).unwrap_or(0);
            let align = parts.get(2).and_then(|p| abs_expr(a, n, p)).unwrap_or(4);
            let s = a.sym(&name);
            s.st_type = Some(STT_OBJECT);
            s.bind = Some(s.bind.unwrap_or(STB_GLOBAL));
            s.size = Some(Expr::Num(size));
            // an LDS symbol: SHN_AMDGPU_LDS, value = alignment
            s.label = Some((usize::MAX, align as u64));
        }
        ".end_amdhsa_kernel" | ".end_amdgpu_metadata" | ".endm" | ".endr" | ".endmacro" => {
            a.error(n, wspan, format!("unmatched '{word}' directive"));
        }
        ".amdgpu_hsa_kernel" => {
            let (name, _) = parse_name(targs);
            a.sym(&name).st_type = Some(10); // STT_AMDGPU_HSA_KERNEL
        }
        ".hsa_code_object_version" => {
            let parts = split_args(targs);
            let v: Vec<i64> = parts.iter().filter_map(|p| abs_expr(a, n, p)).collect();
            if v.len() != 2 {
                a.error(n, aoff..aoff + targs.len(), "expected major, minor");
                return;
            }
            if !a.cov_from_directive {
                a.cov = 2;
            }
            let mut desc = Vec::new();
            desc.extend_from_slice(&(v[0] as u32).to_le_bytes());
            desc.extend_from_slice(&(v[1] as u32).to_le_bytes());
            a.v2_note(NT_AMD_HSA_CODE_OBJECT_VERSION, desc);
        }
        ".hsa_code_object_isa" => {
            let parts = split_args(targs);
            let pv = a.opts.target.processor.version;
            let mut ver = [i64::from(pv.0), i64::from(pv.1), i64::from(pv.2)];
            let (mut vendor, mut arch) = (b"AMD".to_vec(), b"AMDGPU".to_vec());
            if !parts.is_empty() {
                if parts.len() != 5 {
                    a.error(
                        n,
                        aoff..aoff + targs.len(),
                        "expected major, minor, stepping, vendor, arch",
                    );
                    return;
                }
                for (i, p) in parts[..3].iter().enumerate() {
                    ver[i] = abs_expr(a, n, p).unwrap_or(0);
                }
                match (parse_string(&parts[3]), parse_string(&parts[4])) {
                    (Some((v, _)), Some((r, _))) => {
                        vendor = v;
                        arch = r;
                    }
                    _ => {
                        a.error(
                            n,
                            aoff..aoff + targs.len(),
                            "expected vendor and arch strings",
                        );
                        return;
                    }
                }
            }
            let mut desc = Vec::new();
            desc.extend_from_slice(&((vendor.len() + 1) as u16).to_le_bytes());
            desc.extend_from_slice(&((arch.len() + 1) as u16).to_le_bytes());
            for x in ver {
                desc.extend_from_slice(&(x as u32).to_le_bytes());
            }
            desc.extend_from_slice(&vendor);
            desc.push(0);
            desc.extend_from_slice(&arch);
            desc.push(0);
            a.v2_note(NT_AMD_HSA_ISA_VERSION, desc);
        }
        ".amd_amdgpu_isa" => match parse_string(targs) {
            // (the string without a NUL, as llvm-mc-13 to -16 write it)
            Some((s, _)) => {
                a.v2_note(NT_AMD_HSA_ISA_NAME, s);
            }
            None => a.error(n, aoff..aoff + targs.len(), "expected string"),
        },

        _ => {
            if word.starts_with(".amdhsa_") {
                a.error(n, wspan, "directive is only valid inside .amdhsa_kernel");
            } else {
                a.error(n, wspan, "unknown directive");
            }
        }
    }
}

fn data_value(a: &mut Asm<'_>, n: usize, e: Expr, size: u8, span: std::ops::Range<usize>) {
    let here = a.here();
    match expr::eval(&e, a, 0) {
        Ok(Value::Abs(v)) => {
            let ok = match size {
                1 => (-128..=255).contains(&v),
                2 => (-32768..=65535).contains(&v),
                4 => (-(1i64 << 31)..=(1i64 << 32) - 1).contains(&v),
                _ => true,
            };
            if !ok {
                a.error(n, span, "out of range literal value");
                return;
            }
            let b = v.to_le_bytes();
            a.emit(n, &b[..size as usize]);
        }
        _ => {
            register_symbols(a, &e);
            let section = a.cur;
            a.stmts.keep(n);
            a.fixups.push(PendingFixup {
                section,
                offset: here,
                kind: PendingKind::Data(size),
                expr: e,
                at: (n, span),
            });
            a.emit(n, &vec![0u8; size as usize]);
        }
    }
}

/// `.amd_kernel_code_t`: the 256-byte code object v2 kernel header at the current
/// location: llvm-mc's defaults (observed with `-triple=amdgcn-mesa-mesa3d`, which
/// still assembles the block), then the `key = value` lines.
fn amd_kernel_code_t(a: &mut Asm<'_>, n: usize, body: Vec<Line>) {
    a.stmts.keep(n);
    use hsaco_elf::kd::{CodeFieldKind, CODE_FIELDS};
    let p = a.opts.target.processor;
    let gfx10 = p.version.0 >= 10;
    let wave32 = gfx10 && a.opts.wave64 != Some(true);
    let mut b = [0u8; 256];
    b[0] = 1; // amd_code_version_major
    b[4] = 2; // amd_code_version_minor
    b[8] = 1; // amd_machine_kind
    b[10..12].copy_from_slice(&u16::from(p.version.0).to_le_bytes());
    b[12..14].copy_from_slice(&u16::from(p.version.1).to_le_bytes());
    b[14..16].copy_from_slice(&u16::from(p.version.2).to_le_bytes());
    b[16..24].copy_from_slice(&256u64.to_le_bytes()); // kernel_code_entry_byte_offset
    b[100..104].copy_from_slice(&[4, 4, 4, if wave32 { 5 } else { 6 }]);
    b[104..108].copy_from_slice(&(-1i32).to_le_bytes()); // call_convention
    if gfx10 {
        // WGP mode, memory ordered, forward progress in RSRC1; llvm-mc stores the
        // 64-bit resource word sign-extended from RSRC1, which sets every RSRC2 bit
        b[48..56].copy_from_slice(&i64::from(0xe000_0000u32 as i32).to_le_bytes());
        if wave32 {
            b[57] |= 0x04; // enable_wavefront_size32
        }
    }
    for l in body {
        let t = l.text.trim();
        if t.is_empty() {
            continue;
        }
        let m = a.stmts.push(l.loc, &l.raw);
        let col = l.text.find(t).unwrap_or(0);
        let Some((key, value)) = t.split_once('=') else {
            a.error(m, col..col + t.len(), "expected key = value");
            continue;
        };
        let key = key.trim();
        let Some(field) = CODE_FIELDS.iter().find(|f| f.name == key) else {
            a.error(
                m,
                col..col + key.len(),
                format!("unknown amd_kernel_code_t key '{key}'"),
            );
            continue;
        };
        let Some(v) = abs_expr(a, m, value) else {
            continue;
        };
        match field.kind {
            CodeFieldKind::Int { offset, size, .. } => {
                let at = usize::from(offset);
                let bytes = v.to_le_bytes();
                b[at..at + usize::from(size)].copy_from_slice(&bytes[..usize::from(size)]);
            }
            CodeFieldKind::Bits { offset, lo, width } => {
                let at = usize::from(offset);
                let mut w = [0u8; 8];
                w.copy_from_slice(&b[at..at + 8]);
                let mut word = u64::from_le_bytes(w);
                let mask = if width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                if (v as u64) & !mask != 0 {
                    a.error(m, col..col + t.len(), "value out of range");
                    continue;
                }
                word = (word & !(mask << lo)) | ((v as u64 & mask) << lo);
                b[at..at + 8].copy_from_slice(&word.to_le_bytes());
            }
        }
    }
    a.emit(n, &b);
}

/// Give the symbols an expression names their place in the symbol table (LLVM
/// registers a symbol when a fixup first uses it).
fn register_symbols(a: &mut Asm<'_>, e: &Expr) {
    match e {
        Expr::Sym(name, _) => {
            a.sym(name);
        }
        Expr::Unary(_, x) => register_symbols(a, x),
        Expr::Binary(_, x, y) => {
            register_symbols(a, x);
            register_symbols(a, y);
        }
        Expr::Call(_, args) => {
            for x in args {
                register_symbols(a, x);
            }
        }
        Expr::Num(_) | Expr::Loc(..) => {}
    }
}

fn amdhsa_kernel(
    a: &mut Asm<'_>,
    n: usize,
    name: &str,
    line: &Line,
    body: Vec<Line>,
    end: Option<Line>,
) {
    a.stmts.keep(n);
    let p = a.opts.target.processor;
    let mut kt = KdTarget::new(p);
    kt.xnack = match a.effective_target().xnack() {
        Some(FeatureSetting::On | FeatureSetting::Any) => true,
        Some(FeatureSetting::Off) => false,
        // no xnack target feature: the processor's fixed setting
        None => kt.xnack,
    };
    let mut ko = KdOptions::new(kt, a.cov);
    if let Some(w64) = a.opts.wave64 {
        ko.wave32 = kt.is_gfx10_plus() && !w64;
    } else {
        ko.wave32 = kt.is_gfx10_plus() && p.wave_sizes.default == 32;
    }
    ko.cumode = a.opts.cumode;
    ko.tgsplit = a.opts.tgsplit;
    let name = name.trim().trim_matches('"').to_string();
    if name.is_empty() {
        a.error(
            n,
            0..line.raw.len(),
            "expected symbol name after .amdhsa_kernel",
        );
        return;
    }
    let mut k = Kernel {
        name,
        fields: DescriptorFields::new(ko),
        exprs: Vec::new(),
        section: a.cur,
        offset: 0,
        at: (n, 0..line.raw.len()),
    };
    for l in body {
        let t = l.text.trim();
        if t.is_empty() {
            continue;
        }
        let m = a.stmts.push(l.loc, &l.raw);
        let col = l.text.find(t).unwrap_or(0);
        let word_end = t.find(char::is_whitespace).unwrap_or(t.len());
        let word = &t[..word_end];
        let Some(field) = word.strip_prefix(".amdhsa_") else {
            a.error(
                m,
                col..col + word_end,
                "expected .amdhsa_ directive or .end_amdhsa_kernel",
            );
            continue;
        };
        let v = t[word_end..].trim();
        let voff = col + word_end + (t[word_end..].len() - t[word_end..].trim_start().len());
        if !DescriptorFields::is_field(field) {
            a.error(m, col..col + word_end, "unknown .amdhsa_kernel directive");
            continue;
        }
        if k.exprs.iter().any(|(f, _, _, _)| f == field) {
            a.error(
                m,
                voff..voff + v.len(),
                ".amdhsa_ directives cannot be repeated",
            );
            continue;
        }
        let Some(e) = parse_expr(a, m, v, voff) else {
            continue;
        };
        a.stmts.keep(m);
        k.exprs.push((
            field.to_string(),
            e,
            (m, voff..voff + v.len()),
            col..col + word_end,
        ));
    }
    // errors of the whole block are reported at the end of `.end_amdhsa_kernel`, as
    // llvm-mc does
    if let Some(e) = end {
        let m = a.stmts.push(e.loc, &e.raw);
        a.stmts.keep(m);
        let len = e.raw.len();
        k.at = (m, len..len + 1);
    }
    // LLVM registers the symbols of the fields it encodes when it emits the
    // descriptor: RSRC3 (accum_offset) first, then RSRC1 (VGPRs, then SGPRs, which
    // gfx10+ does not encode), then the rest
    let gfx10 = kt.is_gfx10_plus();
    let rank = |f: &str| match f {
        "accum_offset"
        | "named_barrier_count"
        | "shared_vgpr_count"
        | "inst_pref_size"
        | "tg_split" => 0,
        "next_free_vgpr" => 1,
        "next_free_sgpr" => 2,
        _ => 3,
    };
    let mut used: Vec<&KdFieldExpr> = k
        .exprs
        .iter()
        .filter(|(f, _, _, _)| !(gfx10 && f == "next_free_sgpr"))
        .collect();
    used.sort_by_key(|(f, _, _, _)| rank(f));
    let used: Vec<Expr> = used.into_iter().map(|(_, e, _, _)| e.clone()).collect();
    for e in &used {
        register_symbols(a, e);
    }
    // place the descriptor now; fields are evaluated at the end (they may name
    // symbols defined later)
    align_to(a, n, 64, Some(0), 1, None);
    k.section = a.cur;
    k.offset = a.here();
    let zeros = [0u8; 64];
    a.emit(n, &zeros);
    a.fixups.push(PendingFixup {
        section: k.section,
        offset: k.offset + 16,
        kind: PendingKind::KdEntry,
        expr: Expr::Sym(k.name.clone(), RelocVariant::None),
        at: k.at.clone(),
    });
    let kd_name = format!("{}.kd", k.name);
    let at = (k.section, k.offset);
    a.sym(&k.name);
    let s = a.sym(&kd_name);
    s.label = Some(at);
    s.st_type = Some(hsaco_elf::elf::consts::STT_OBJECT);
    s.size = Some(Expr::Num(64));
    a.kernels.push(k);
}

impl<'o> Asm<'o> {
    /// Encode every kernel descriptor (at the end, when all symbols are known).
    fn finish_kernels(&mut self) {
        let kernels = std::mem::take(&mut self.kernels);
        for k in &kernels {
            let mut fields = k.fields.clone();
            let mut ok = true;
            for (name, e, at, dir) in &k.exprs {
                match expr::eval(e, self, 0) {
                    Ok(Value::Abs(v)) => {
                        if let Err(err) = fields.set(name, v) {
                            // llvm-mc points at the directive when it does not exist
                            // for the target, else at the value
                            let span = match err {
                                hsaco_elf::kd::assemble::KdFieldError::Unsupported { .. } => {
                                    dir.clone()
                                }
                                _ => at.1.clone(),
                            };
                            self.error(at.0, span, err.to_string());
                            ok = false;
                        }
                    }
                    Ok(_) => {
                        self.error(at.0, at.1.clone(), "value is not an absolute expression");
                        ok = false;
                    }
                    Err(m) => {
                        self.error(at.0, at.1.clone(), m);
                        ok = false;
                    }
                }
            }
            if !ok {
                continue;
            }
            match fields.finish() {
                Ok(kd) => {
                    let s = &mut self.sections[k.section];
                    let off = k.offset as usize;
                    let mut bytes = *kd.as_bytes();
                    bytes[16..24].fill(0);
                    if let Some(dst) = s.data.get_mut(off..off + 64) {
                        dst.copy_from_slice(&bytes);
                    }
                }
                Err(e) => {
                    self.error(k.at.0, k.at.1.clone(), e.to_string());
                }
            }
            // the descriptor symbol takes the kernel symbol's binding and visibility
            let (bind, vis) = self
                .syms
                .get(&k.name)
                .map(|s| (s.bind, s.visibility))
                .unwrap_or((None, 0));
            if let Some(s) = self.syms.get_mut(&format!("{}.kd", k.name)) {
                s.bind = bind;
                s.visibility = vis;
            }
            // llvm-mc makes a kernel's code symbol protected unless it says otherwise
            // (its descriptor keeps the visibility it had)
            if let Some(s) = self.syms.get_mut(&k.name) {
                if s.visibility == 0 {
                    s.visibility = 3;
                }
            }
        }
        self.kernels = kernels;
    }

    /// The target ID as the code object version sees it: v2 and v3 cannot say "any",
    /// and a feature the processor supports but the target does not name is on there
    /// (llvm-mc-13 to -16 at v3: `-mcpu=gfx906` gives e_flags with the XNACK and
    /// SRAMECC bits, `.amdgcn_target "...gfx906+xnack+sram-ecc"` style, and accepts
    /// `.amdhsa_reserve_xnack_mask 1`; `-mattr=-xnack` clears the bit).
    fn effective_target(&self) -> TargetId {
        let mut t = self.opts.target;
        if self.cov <= 3 {
            for f in [TargetFeature::Xnack, TargetFeature::Sramecc] {
                if t.setting(f) == Some(FeatureSetting::Any) {
                    let _ = t.set(f, FeatureSetting::On);
                }
            }
        }
        t
    }

    fn code_object_version(&self) -> CodeObjectVersion {
        CodeObjectVersion::from_number(u32::from(self.cov)).unwrap_or(CodeObjectVersion::V6)
    }
}

#[cfg(test)]
mod tests;
