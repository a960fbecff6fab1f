//! The text of `.debug_info` and `.debug_line` as `llvm-dwarfdump-22 --debug-info`
//! (`--debug-line`) prints it, read with gimli.

use crate::expr::{write_expression, ExprContext};
use crate::load::{DwarfObject, Slice};
use crate::names::{self, RegisterNames};
use crate::text::PushStr as _;
use crate::text::{dec, dec_signed, hex0x, spaces};
use crate::Error;
use gimli::{constants as c, AttributeValue, UnitOffset};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Write as _;

/// What to print.
#[derive(Clone, Copy, Debug, Default)]
pub struct DumpOptions {
    /// How registers are named.
    pub regs: RegisterNames,
}

/// A section `dump` can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// `.debug_info`
    Info,
    /// `.debug_line`
    Line,
    /// `.debug_loclists`
    Loclists,
    /// `.debug_frame` (and the `.eh_frame` heading llvm-dwarfdump prints with it)
    Frame,
    /// `.debug_aranges`
    Aranges,
}

impl Section {
    /// Every section, in the order llvm-dwarfdump prints them.
    pub const ALL: [Section; 5] = [
        Section::Info,
        Section::Loclists,
        Section::Frame,
        Section::Aranges,
        Section::Line,
    ];
}

/// Appends the text of `section` (its `.debug_xxx contents:` heading and body) to
/// `out`; returns what could not be read (the rest was printed).
pub fn dump(
    obj: &DwarfObject,
    section: Section,
    opts: DumpOptions,
    out: &mut Vec<u8>,
) -> Vec<Error> {
    let mut errors = Vec::new();
    match section {
        Section::Info => {
            out.push_str(".debug_info contents:\n");
            debug_info(obj, opts, out, &mut errors);
        }
        Section::Line => {
            out.push_str(".debug_line contents:\n");
            debug_line(obj, out, &mut errors);
        }
        Section::Loclists => {
            out.push_str(".debug_loclists contents:\n");
            crate::sections::debug_loclists(obj, opts, out, &mut errors);
        }
        Section::Frame => {
            out.push_str(".debug_frame contents:\n\n");
            crate::sections::debug_frame(obj, opts, out, &mut errors);
            out.push_str("\n.eh_frame contents:\n\n");
            if obj.has(".eh_frame") {
                errors.push(Error::new(".eh_frame", 0, "not decoded yet"));
            }
        }
        Section::Aranges => {
            out.push_str(".debug_aranges contents:\n");
            crate::sections::debug_aranges(obj, out, &mut errors);
        }
    }
    errors
}

/// One entry of `.debug_info` for a structured (JSON) view: the same names and
/// value text as the printed form, in section order, with the nesting depth.
#[derive(Clone, Debug)]
pub struct DieRecord {
    /// Offset in `.debug_info`.
    pub offset: u64,
    /// Nesting depth (0: the unit's root DIE).
    pub depth: usize,
    /// `DW_TAG_...`; `None` for the null entry that ends a list of children.
    pub tag: Option<String>,
    /// (attribute name, value as printed between the parentheses)
    pub attributes: Vec<(String, String)>,
}

/// A unit of `.debug_info` for a structured view: its header line's fields and its
/// entries.
#[derive(Clone, Debug)]
pub struct UnitRecord {
    /// Offset of the unit header.
    pub offset: u64,
    /// DWARF version.
    pub version: u16,
    /// `DW_UT_compile` ...
    pub unit_type: &'static str,
    /// Address size in bytes.
    pub address_size: u8,
    /// The entries, in order.
    pub dies: Vec<DieRecord>,
}

/// The units of `.debug_info` as records (see [`DieRecord`]), and what could not be
/// read.
pub fn debug_info_records(obj: &DwarfObject, opts: DumpOptions) -> (Vec<UnitRecord>, Vec<Error>) {
    let dwarf = obj.gimli();
    let mut units = Vec::new();
    let mut errors = Vec::new();
    for (header, off) in unit_headers(&dwarf, &mut errors) {
        let mut rec = UnitRecord {
            offset: off,
            version: header.version(),
            unit_type: unit_type_name(header.type_()),
            address_size: header.address_size(),
            dies: Vec::new(),
        };
        if let Some(unit) = unit_of(&dwarf, header, off, &mut errors) {
            let mut sink = Vec::new();
            if let Err(e) = print_unit(&dwarf, &unit, off, opts, &mut sink, Some(&mut rec.dies)) {
                errors.push(e);
            }
        }
        units.push(rec);
    }
    (units, errors)
}

fn unit_type_name(t: gimli::UnitType<usize>) -> &'static str {
    match t {
        gimli::UnitType::Compilation => "DW_UT_compile",
        gimli::UnitType::Partial => "DW_UT_partial",
        gimli::UnitType::Type { .. } => "DW_UT_type",
        gimli::UnitType::Skeleton(_) => "DW_UT_skeleton",
        gimli::UnitType::SplitCompilation(_) => "DW_UT_split_compile",
        gimli::UnitType::SplitType { .. } => "DW_UT_split_type",
    }
}

/// The unit headers of `.debug_info` with their offsets. A header that does not
/// read is reported in `errors` and ends the list (what follows it cannot be found).
pub(crate) fn unit_headers<'a>(
    dwarf: &gimli::Dwarf<Slice<'a>>,
    errors: &mut Vec<Error>,
) -> Vec<(gimli::UnitHeader<Slice<'a>>, u64)> {
    let mut out = Vec::new();
    let mut headers = dwarf.units();
    loop {
        match headers.next() {
            Ok(Some(h)) => {
                let off = h.offset().as_debug_info_offset().map_or(0, |o| o.0 as u64);
                out.push((h, off));
            }
            Ok(None) => break,
            Err(e) => {
                errors.push(gerr(".debug_info", 0, e));
                break;
            }
        }
    }
    out
}

/// The unit of `header` (at `off`), or `None` with the error reported.
pub(crate) fn unit_of<'a>(
    dwarf: &gimli::Dwarf<Slice<'a>>,
    header: gimli::UnitHeader<Slice<'a>>,
    off: u64,
    errors: &mut Vec<Error>,
) -> Option<gimli::Unit<Slice<'a>>> {
    let unit = abbreviations(dwarf, &header)
        .and_then(|abbrevs| gimli::Unit::new_with_abbreviations(dwarf, header, abbrevs));
    match unit {
        Ok(u) => Some(u),
        Err(e) => {
            errors.push(gerr(".debug_info", off, e));
            None
        }
    }
}

/// At most this many abbreviation tables are kept by each thread ([`abbreviations`]).
const ABBREVIATION_TABLES: usize = 64;
/// A table is kept only if the bytes from its offset to the section's end are at most
/// this many.
const ABBREVIATION_BYTES: usize = 1 << 16;

/// Abbreviation tables kept by a thread: (hash of the bytes, the bytes, the table).
type AbbreviationTables = Vec<(u64, Vec<u8>, std::sync::Arc<gimli::Abbreviations>)>;

thread_local! {
    /// Abbreviation tables parsed before, by the bytes of `.debug_abbrev` from their
    /// offset to its end (with a hash of them, compared first).
    static ABBREVIATIONS: std::cell::RefCell<AbbreviationTables> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The abbreviations of the unit of `header`, as `dwarf.abbreviations` gives them, from
/// a per-thread cache: the objects a compiler writes share their abbreviation tables
/// (the 1296 objects of the -g corpus have 69 different ones), and parsing one (~17
/// abbreviations) cost ~17,000 instructions, 7% of `read --debug-info` (callgrind,
/// 2026-11-27). The parse of a table reads only the bytes from its offset on, so
/// equal bytes give an equal table.
fn abbreviations(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    header: &gimli::UnitHeader<Slice<'_>>,
) -> gimli::Result<std::sync::Arc<gimli::Abbreviations>> {
    let section = gimli::Section::reader(&dwarf.debug_abbrev).slice();
    let Some(bytes) = section
        .get(header.debug_abbrev_offset().0..)
        .filter(|b| b.len() <= ABBREVIATION_BYTES)
    else {
        return dwarf.abbreviations(header);
    };
    let hash = bytes_hash(bytes);
    let hit = ABBREVIATIONS.with_borrow(|tables| {
        tables
            .iter()
            .find(|(h, b, _)| *h == hash && b[..] == *bytes)
            .map(|(_, _, a)| a.clone())
    });
    if let Some(a) = hit {
        return Ok(a);
    }
    let parsed = dwarf.abbreviations(header)?;
    ABBREVIATIONS.with_borrow_mut(|tables| {
        if tables.len() >= ABBREVIATION_TABLES {
            tables.remove(0);
        }
        tables.push((hash, bytes.to_vec(), parsed.clone()));
    });
    Ok(parsed)
}

/// A quick hash of `bytes`, eight at a time.
fn bytes_hash(bytes: &[u8]) -> u64 {
    let mut h = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let mut x = [0u8; 8];
        x.copy_from_slice(w);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(x)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    for &b in words.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    h
}

pub(crate) fn gerr(section: &'static str, offset: u64, e: gimli::Error) -> Error {
    Error::new(section, offset, e.to_string())
}

fn debug_info(obj: &DwarfObject, opts: DumpOptions, out: &mut Vec<u8>, errors: &mut Vec<Error>) {
    let dwarf = obj.gimli();
    for (header, off) in unit_headers(&dwarf, errors) {
        let len = header.unit_length() as u64;
        let next = off + header.length_including_self() as u64;
        let ut = unit_type_name(header.type_());
        let fmt = match header.format() {
            gimli::Format::Dwarf32 => "DWARF32",
            gimli::Format::Dwarf64 => "DWARF64",
        };
        let ow = if header.format() == gimli::Format::Dwarf64 {
            16
        } else {
            8
        };
        // "0x{off:08x}: Compile Unit: length = 0x{len:0ow$x}, format = {fmt}, version =
        // 0x{:04x}[, unit_type = {ut}], abbr_offset = 0x{:04x}, addr_size = 0x{:02x}
        // (next unit at 0x{next:08x})\n\n", without core::fmt
        hex0x(out, off, 8);
        out.push_str(": Compile Unit: length = ");
        hex0x(out, len, ow);
        out.push_str(", format = ");
        out.push_str(fmt);
        out.push_str(", version = ");
        hex0x(out, header.version().into(), 4);
        if header.version() >= 5 {
            out.push_str(", unit_type = ");
            out.push_str(ut);
        }
        out.push_str(", abbr_offset = ");
        hex0x(out, header.debug_abbrev_offset().0 as u64, 4);
        out.push_str(", addr_size = ");
        hex0x(out, header.address_size().into(), 2);
        out.push_str(" (next unit at ");
        hex0x(out, next, 8);
        out.push_str(")\n\n");
        let Some(unit) = unit_of(&dwarf, header, off, errors) else {
            continue;
        };
        if let Err(e) = print_unit(&dwarf, &unit, off, opts, out, None) {
            errors.push(e);
        }
    }
}

/// Names by DIE offset: a multiplicative hash (the default SipHash was a visible cost
/// for these few small keys).
type OffsetMap<'d> = HashMap<u64, Option<Cow<'d, str>>, BuildHasherDefault<OffsetHasher>>;

#[derive(Default)]
struct OffsetHasher(u64);

impl Hasher for OffsetHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

struct UnitPrinter<'a, 'd> {
    dwarf: &'a gimli::Dwarf<Slice<'d>>,
    unit: &'a gimli::Unit<Slice<'d>>,
    unit_off: u64,
    files: Vec<Option<String>>,
    cx: ExprContext,
    /// Type names by offset ([`UnitPrinter::type_name`]).
    names: OffsetMap<'d>,
    /// Names of other referenced entries by offset ([`UnitPrinter::die_name`]).
    die_names: OffsetMap<'d>,
}

/// At most this many levels of DIE nesting are printed (each level indents by two
/// columns: deeper, a few bytes of input would make gigabytes of text).
const MAX_DEPTH: usize = 1024;

fn print_unit(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    unit_off: u64,
    opts: DumpOptions,
    out: &mut Vec<u8>,
    records: Option<&mut Vec<DieRecord>>,
) -> Result<(), Error> {
    let mut at = unit_off;
    print_unit_at(dwarf, unit, unit_off, opts, out, records, &mut at).map_err(|e| match e {
        Nesting => Error::new(
            ".debug_info",
            at,
            format!("DIEs nested deeper than {MAX_DEPTH} levels"),
        ),
        Gimli(e) => gerr(".debug_info", at, e),
    })
}

enum UnitError {
    Nesting,
    Gimli(gimli::Error),
}
use UnitError::*;

impl From<gimli::Error> for UnitError {
    fn from(e: gimli::Error) -> Self {
        Gimli(e)
    }
}

fn print_unit_at(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    unit_off: u64,
    opts: DumpOptions,
    out: &mut Vec<u8>,
    records: Option<&mut Vec<DieRecord>>,
    at: &mut u64,
) -> Result<(), UnitError> {
    let mut p = UnitPrinter {
        dwarf,
        unit,
        unit_off,
        files: file_paths(dwarf, unit),
        cx: ExprContext {
            address_size: unit.encoding().address_size,
            format: unit.encoding().format,
            regs: opts.regs,
        },
        // (room for a unit's usual references at once: growing the maps from empty
        // was ~1% of the run)
        names: OffsetMap::with_capacity_and_hasher(32, Default::default()),
        die_names: OffsetMap::with_capacity_and_hasher(32, Default::default()),
    };
    let mut plans = Plans::take(&unit.abbreviations);
    let r = print_entries(&mut p, &mut plans, out, records, at);
    plans.put_back();
    r
}

fn print_entries(
    p: &mut UnitPrinter<'_, '_>,
    plans: &mut Plans,
    out: &mut Vec<u8>,
    mut records: Option<&mut Vec<DieRecord>>,
    at: &mut u64,
) -> Result<(), UnitError> {
    let unit = p.unit;
    let mut raw = unit.entries_raw(None)?;
    // the fixed text of each abbreviation code's entries at the depth last seen
    let mut scratch = Vec::new();
    // reused from entry to entry (room for an entry's attributes: growing it from
    // empty in every unit was 0.6% of the run)
    let mut attrs = Vec::with_capacity(32);
    while !raw.is_empty() {
        let offset = raw
            .next_offset()
            .to_debug_info_offset(&unit.header)
            .map_or(0, |o| o.0 as u64);
        *at = offset;
        let depth = raw.next_depth().max(0) as usize;
        if depth > MAX_DEPTH {
            return Err(Nesting);
        }
        let abbrev = raw.read_abbreviation()?;
        let indent = 2 * depth;
        let Some(abbrev) = abbrev else {
            if let Some(r) = records.as_deref_mut() {
                r.push(DieRecord {
                    offset,
                    depth,
                    tag: None,
                    attributes: Vec::new(),
                });
                continue;
            }
            hex0x(out, offset, 8);
            out.push_str(": ");
            spaces(out, indent);
            out.push_str("NULL\n");
            if !raw.is_empty() {
                out.push(b'\n');
            }
            continue;
        };
        if records.is_none() {
            let plan = plans.get(abbrev);
            if plan.stream {
                // printed as read (no copy of the attributes); on an error, the
                // entry's text is taken back, as when the attributes are read first
                let start = out.len();
                hex0x(out, offset, 8);
                out.push_str(": ");
                self::indent(out, indent);
                plan.tag.put(out);
                let mut low_pc: Option<u64> = None;
                for (i, spec) in abbrev.attributes().iter().enumerate() {
                    // (borrowed from the result: moving it out was a copy of ~12
                    // instructions an attribute)
                    let read = raw.read_attribute(*spec);
                    let a = match &read {
                        Ok(a) => a,
                        Err(e) => {
                            out.truncate(start);
                            return Err((*e).into());
                        }
                    };
                    if a.name() == c::DW_AT_low_pc {
                        if let Ok(Some(v)) = p.dwarf.attr_address(p.unit, a.raw_value()) {
                            low_pc = Some(v);
                        }
                    }
                    self::indent(out, 12 + indent + 2);
                    plan.names[i].put(out);
                    p.value(out, a, low_pc, 12 + indent + 2);
                    out.push_str(")\n");
                }
                out.push(b'\n');
                continue;
            }
        }
        attrs.clear();
        for spec in abbrev.attributes() {
            attrs.push(raw.read_attribute(*spec)?);
        }
        let mut low_pc: Option<u64> = None;
        for a in &attrs {
            if a.name() == c::DW_AT_low_pc {
                if let Ok(Some(v)) = p.dwarf.attr_address(p.unit, a.raw_value()) {
                    low_pc = Some(v);
                }
            }
        }
        if let Some(r) = records.as_deref_mut() {
            let mut attributes = Vec::with_capacity(attrs.len());
            for a in &attrs {
                scratch.clear();
                attr_name(&mut scratch, a.name());
                let name = String::from_utf8_lossy(&scratch).into_owned();
                scratch.clear();
                p.value(&mut scratch, a, low_pc, 0);
                attributes.push((name, String::from_utf8_lossy(&scratch).into_owned()));
            }
            let mut tag = Vec::new();
            tag_name(&mut tag, abbrev.tag());
            let tag = String::from_utf8_lossy(&tag).into_owned();
            r.push(DieRecord {
                offset,
                depth,
                tag: Some(tag),
                attributes,
            });
            continue;
        }
        hex0x(out, offset, 8);
        out.push_str(": ");
        spaces(out, indent);
        tag_name(out, abbrev.tag());
        out.push(b'\n');
        for a in &attrs {
            self::indent(out, 12 + indent + 2);
            attr_name(out, a.name());
            out.push_str("\t(");
            p.value(out, a, low_pc, 12 + indent + 2);
            out.push_str(")\n");
        }
        out.push(b'\n');
    }
    Ok(())
}

/// Attribute names with their `\t(` are kept as this many bytes ([`AbbrevPlan`]): a
/// fixed-size copy then cut back, where a copy of a variable length calls `memcpy`.
const PLANNED: usize = 40;

/// A name padded to [`PLANNED`] bytes and its length (0: longer, in `long`).
struct PaddedName {
    padded: [u8; PLANNED],
    len: u8,
    long: Vec<u8>,
}

impl PaddedName {
    fn new(text: &[u8]) -> Self {
        let mut padded = [0u8; PLANNED];
        if text.len() <= PLANNED {
            padded[..text.len()].copy_from_slice(text);
            return PaddedName {
                padded,
                len: text.len() as u8,
                long: Vec::new(),
            };
        }
        PaddedName {
            padded,
            len: 0,
            long: text.to_vec(),
        }
    }

    #[inline]
    fn put(&self, out: &mut Vec<u8>) {
        if self.len == 0 {
            out.extend_from_slice(&self.long);
            return;
        }
        let start = out.len();
        out.extend_from_slice(&self.padded);
        out.truncate(start + usize::from(self.len));
    }
}

/// The fixed text of the entries of one abbreviation: the tag's line and each
/// attribute's name with the `\t(` after it.
struct AbbrevPlan {
    /// The tag's name and `\n`.
    tag: PaddedName,
    /// Each attribute's name and `\t(`.
    names: Vec<PaddedName>,
    /// The attributes can be printed as they are read: no `DW_AT_low_pc` after a
    /// `DW_AT_high_pc` (whose value is printed from the low PC before it).
    stream: bool,
}

impl AbbrevPlan {
    fn new(abbrev: &gimli::Abbreviation) -> Self {
        let mut text = Vec::with_capacity(64);
        tag_name(&mut text, abbrev.tag());
        text.push(b'\n');
        let tag = PaddedName::new(&text);
        let mut names = Vec::with_capacity(abbrev.attributes().len());
        let mut high_pc = false;
        let mut stream = true;
        for spec in abbrev.attributes() {
            text.clear();
            attr_name(&mut text, spec.name());
            text.extend_from_slice(b"\t(");
            names.push(PaddedName::new(&text));
            match spec.name() {
                c::DW_AT_high_pc => high_pc = true,
                c::DW_AT_low_pc if high_pc => stream = false,
                _ => {}
            }
        }
        AbbrevPlan { tag, names, stream }
    }
}

/// Abbreviation codes below this are planned once per table ([`Plans`]).
const PLANNED_CODES: u64 = 1 << 12;
/// At most this many tables' plans are kept by each thread.
const PLANNED_TABLES: usize = 64;

/// The plans of an abbreviation table's entries, by code, built on first use: units
/// share their tables ([`abbreviations`]), so a thread builds each plan once (the
/// names looked up and copied per attribute were ~5% of `read --debug-info`).
struct Plans {
    table: std::sync::Arc<gimli::Abbreviations>,
    by_code: Vec<Option<AbbrevPlan>>,
    /// The plan of a code at or above [`PLANNED_CODES`], rebuilt each time.
    other: Option<AbbrevPlan>,
}

thread_local! {
    static PLANS: std::cell::RefCell<Vec<Plans>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Plans {
    /// The plans of `table`, taken from the thread's (or new).
    fn take(table: &std::sync::Arc<gimli::Abbreviations>) -> Plans {
        let kept = PLANS.with_borrow_mut(|plans| {
            let i = plans
                .iter()
                .position(|p| std::sync::Arc::ptr_eq(&p.table, table))?;
            Some(plans.swap_remove(i))
        });
        kept.unwrap_or_else(|| Plans {
            table: table.clone(),
            by_code: Vec::new(),
            other: None,
        })
    }

    /// Gives the plans back to the thread.
    fn put_back(self) {
        PLANS.with_borrow_mut(|plans| {
            if plans.len() >= PLANNED_TABLES {
                plans.remove(0);
            }
            plans.push(self);
        });
    }

    fn get(&mut self, abbrev: &gimli::Abbreviation) -> &AbbrevPlan {
        let code = abbrev.code();
        if code >= PLANNED_CODES {
            return self.other.insert(AbbrevPlan::new(abbrev));
        }
        let i = code as usize;
        if self.by_code.len() <= i {
            self.by_code.resize_with(i + 1, || None);
        }
        self.by_code[i].get_or_insert_with(|| AbbrevPlan::new(abbrev))
    }
}

/// Names of the codes below this many are looked up in a table built on first use
/// ([`attr_name`], [`tag_name`]).
const NAME_TABLE: usize = 0x100;

/// `DW_TAG_*` and `DW_AT_*` names of the codes below [`NAME_TABLE`] (empty: no name),
/// by code: a table look-up instead of gimli's `static_string` match each time (with
/// the copy, ~64 instructions an attribute line, 6% of `read --debug-info`).
struct NameTables {
    tags: Vec<&'static str>,
    /// Each name padded to [`PADDED`] bytes, and its length (0: none, or longer).
    attributes: Vec<([u8; PADDED], u8)>,
}

/// Attribute names are copied as this many bytes and cut back to their length: a
/// fixed-size copy is a few moves where a copy of a variable length calls `memcpy`.
const PADDED: usize = 32;

fn name_tables() -> &'static NameTables {
    static TABLES: std::sync::OnceLock<NameTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| NameTables {
        tags: (0..NAME_TABLE as u16)
            .map(|t| c::DwTag(t).static_string().unwrap_or(""))
            .collect(),
        attributes: (0..NAME_TABLE as u16)
            .map(|a| {
                let name = c::DwAt(a).static_string().unwrap_or("").as_bytes();
                let mut padded = [0u8; PADDED];
                if name.len() > PADDED {
                    return (padded, 0);
                }
                padded[..name.len()].copy_from_slice(name);
                (padded, name.len() as u8)
            })
            .collect(),
    })
}

/// Appends `n` spaces, a fixed-size copy when `n` is at most 64.
#[inline]
fn indent(out: &mut Vec<u8>, n: usize) {
    const SPACES: [u8; 64] = [b' '; 64];
    if n <= SPACES.len() {
        let len = out.len();
        out.extend_from_slice(&SPACES);
        out.truncate(len + n);
    } else {
        spaces(out, n);
    }
}

fn tag_name(out: &mut Vec<u8>, tag: c::DwTag) {
    if let Some(n) = name_tables().tags.get(usize::from(tag.0)) {
        if !n.is_empty() {
            out.push_str(n);
            return;
        }
    }
    match tag.static_string() {
        Some(s) => out.push_str(s),
        None => {
            let _ = write!(out, "DW_TAG_unknown_{:x}", tag.0);
        }
    }
}

fn attr_name(out: &mut Vec<u8>, at: c::DwAt) {
    if let Some((padded, len)) = name_tables().attributes.get(usize::from(at.0)) {
        if *len > 0 {
            let start = out.len();
            out.extend_from_slice(padded);
            out.truncate(start + usize::from(*len));
            return;
        }
    }
    // (the vendor names are all at 0x3e00 and above: no search below)
    if let Some(n) = (at.0 >= 0x3e00)
        .then(|| names::llvm_attribute(at.0))
        .flatten()
    {
        out.push_str(n);
    } else if let Some(s) = at.static_string() {
        out.push_str(s);
    } else {
        let _ = write!(out, "DW_AT_unknown_{:x}", at.0);
    }
}

/// The path of each file of the unit's line table, as llvm-dwarfdump names it in
/// `DW_AT_decl_file`: the directory joined to the name unless the name is absolute,
/// and the compilation directory before a path still relative.
fn file_paths<'d>(
    dwarf: &gimli::Dwarf<Slice<'d>>,
    unit: &gimli::Unit<Slice<'d>>,
) -> Vec<Option<String>> {
    let Some(lp) = &unit.line_program else {
        return Vec::new();
    };
    let h = lp.header();
    // (borrowed while UTF-8, each path allocated once at its full length: growing the
    // directory's `String` was ~1% of the run)
    let s = |v: AttributeValue<Slice<'d>>| -> Option<Cow<'d, str>> {
        dwarf.attr_string(unit, v).ok().map(|r| lossy(r.slice()))
    };
    fn join<'d>(d: Option<Cow<'d, str>>, n: Cow<'d, str>) -> Cow<'d, str> {
        match d {
            Some(d) if !d.is_empty() => {
                let mut p = String::with_capacity(d.len() + 1 + n.len());
                p.push_str(&d);
                p.push('/');
                p.push_str(&n);
                Cow::Owned(p)
            }
            _ => n,
        }
    }
    h.file_names()
        .iter()
        .map(|f| {
            let name = s(f.path_name())?;
            if name.starts_with('/') {
                return Some(name.into_owned());
            }
            let path = join(h.directory(f.directory_index()).and_then(s), name);
            // a path still relative is taken from the compilation directory
            // (directory 0 in DWARF 5)
            if path.starts_with('/') || f.directory_index() == 0 || h.version() < 5 {
                return Some(path.into_owned());
            }
            Some(join(h.directory(0).and_then(s), path).into_owned())
        })
        .collect()
}

impl<'d> UnitPrinter<'_, 'd> {
    /// A string attribute's text, borrowed from the section when it is UTF-8 (the
    /// name caches hold these: one allocation per name was ~1% of the run).
    fn string(&self, v: AttributeValue<Slice<'d>>) -> Option<Cow<'d, str>> {
        self.dwarf
            .attr_string(self.unit, v)
            .ok()
            .map(|r| lossy(r.slice()))
    }

    fn value(
        &mut self,
        out: &mut Vec<u8>,
        a: &gimli::Attribute<Slice<'d>>,
        low_pc: Option<u64>,
        indent: usize,
    ) {
        use AttributeValue as V;
        let name = a.name();
        let v = a.raw_value();
        match name {
            c::DW_AT_language
            | c::DW_AT_encoding
            | c::DW_AT_calling_convention
            | c::DW_AT_inline
            | c::DW_AT_accessibility
            | c::DW_AT_virtuality
            | c::DW_AT_visibility
            | c::DW_AT_identifier_case
            | c::DW_AT_defaulted => {
                if let Some(e) = enum_name(name, &v) {
                    out.push_str(&e);
                    return;
                }
            }
            c::DW_AT_decl_file | c::DW_AT_call_file => {
                if let Some(i) = v.udata_value() {
                    match self.files.get(i as usize).and_then(|f| f.as_deref()) {
                        Some(p) => {
                            out.push(b'"');
                            out.push_str(p);
                            out.push(b'"');
                        }
                        None => {
                            hex0x(out, i, 2);
                        }
                    }
                    return;
                }
            }
            c::DW_AT_decl_line
            | c::DW_AT_call_line
            | c::DW_AT_decl_column
            | c::DW_AT_call_column => {
                if let Some(i) = v.udata_value() {
                    dec(out, i);
                    return;
                }
            }
            c::DW_AT_high_pc => {
                if let (Some(lo), Some(d)) = (low_pc, v.udata_value()) {
                    if !matches!(v, V::Addr(_)) {
                        hex0x(out, lo.wrapping_add(d), 16);
                        return;
                    }
                }
            }
            _ => {}
        }
        match v {
            V::Addr(x) => {
                hex0x(out, x, 16);
            }
            V::DebugAddrIndex(i) => match self.dwarf.address(self.unit, i) {
                Ok(x) => {
                    hex0x(out, x, 16);
                }
                Err(_) => {
                    let _ = write!(out, "indexed ({:08x}) address = <unresolved>", i.0);
                }
            },
            V::Data1(x) => {
                hex0x(out, x.into(), 2);
            }
            V::Data2(x) => {
                hex0x(out, x.into(), 4);
            }
            V::Data4(x) => {
                hex0x(out, x as u64, 8);
            }
            V::Data8(x) => {
                hex0x(out, x, 16);
            }
            V::Udata(x) => {
                dec(out, x);
            }
            V::Sdata(x) => {
                dec_signed(out, x);
            }
            V::Flag(f) => out.push_str(if f { "true" } else { "false" }),
            V::String(_)
            | V::DebugStrRef(_)
            | V::DebugStrOffsetsIndex(_)
            | V::DebugLineStrRef(_) => match self.dwarf.attr_string(self.unit, v) {
                Ok(r) => {
                    out.push(b'"');
                    escape_bytes(out, r.slice());
                    out.push(b'"');
                }
                Err(_) => out.push_str("<invalid string>"),
            },
            V::Exprloc(e) => write_expression(out, e.0.slice(), self.cx),
            V::Block(b) => {
                let bytes = b.slice();
                out.push(b'<');
                let _ = write!(out, "0x{:02x}>", bytes.len());
                for x in bytes {
                    let _ = write!(out, " {x:02x}");
                }
            }
            V::UnitRef(r) => {
                let abs = self.unit_off + r.0 as u64;
                hex0x(out, abs, 8);
                // from the caches, not copied (one look-up when cached)
                let key = r.0 as u64;
                let cached = if name == c::DW_AT_type {
                    self.names.get(&key)
                } else {
                    self.die_names.get(&key)
                };
                let n = match cached {
                    Some(n) => n.as_deref(),
                    None => {
                        let (n, map) = if name == c::DW_AT_type {
                            (self.type_name_uncached(r, 0), &mut self.names)
                        } else {
                            (self.die_name(r), &mut self.die_names)
                        };
                        map.entry(key).or_insert(n).as_deref()
                    }
                };
                if let Some(n) = n {
                    out.push_str(" \"");
                    out.push_str(n);
                    out.push(b'"');
                }
            }
            V::DebugInfoRef(r) => {
                hex0x(out, r.0 as u64, 8);
            }
            V::SecOffset(x) => {
                hex0x(out, x as u64, 8);
            }
            V::DebugLineRef(x) => {
                hex0x(out, x.0 as u64, 8);
            }
            V::DebugAddrBase(x) => {
                hex0x(out, x.0 as u64, 8);
            }
            V::DebugStrOffsetsBase(x) => {
                hex0x(out, x.0 as u64, 8);
            }
            V::DebugLocListsBase(x) => {
                hex0x(out, x.0 as u64, 8);
            }
            V::DebugRngListsBase(x) => {
                hex0x(out, x.0 as u64, 8);
            }
            V::DebugLocListsIndex(i) => {
                out.push_str("indexed (");
                hex0x(out, i.0 as u64, 0);
                out.push_str(") loclist = ");
                match self.dwarf.locations_offset(self.unit, i) {
                    Ok(o) => self.loclist(out, o, indent),
                    Err(_) => out.push_str("<unresolved>"),
                }
            }
            V::LocationListsRef(o) => {
                self.loclist(out, o, indent);
            }
            V::DebugRngListsIndex(i) => {
                out.push_str("indexed (");
                hex0x(out, i.0 as u64, 0);
                out.push_str(") rangelist = ");
                match self.dwarf.ranges_offset(self.unit, i) {
                    Ok(o) => self.rangelist(out, o, indent),
                    Err(_) => out.push_str("<unresolved>"),
                }
            }
            V::RangeListsRef(o) => {
                let o = self.dwarf.ranges_offset_from_raw(self.unit, o);
                self.rangelist(out, o, indent);
            }
            other => {
                let _ = write!(out, "{other:?}");
            }
        }
    }

    fn loclist(&self, out: &mut Vec<u8>, o: gimli::LocationListsOffset, indent: usize) {
        hex0x(out, o.0 as u64, 8);
        out.push_str(": ");
        let Ok(mut it) = self.dwarf.locations(self.unit, o) else {
            out.push_str("<error>");
            return;
        };
        loop {
            match &it.next() {
                Ok(Some(e)) => {
                    out.push(b'\n');
                    spaces(out, indent + 3);
                    out.push(b'[');
                    hex0x(out, e.range.begin, 16);
                    out.push_str(", ");
                    hex0x(out, e.range.end, 16);
                    out.push_str("): ");
                    write_expression(out, e.data.0.slice(), self.cx);
                }
                Ok(None) => break,
                Err(_) => {
                    out.push_str("<error>");
                    break;
                }
            }
        }
    }

    fn rangelist(&self, out: &mut Vec<u8>, o: gimli::RangeListsOffset, indent: usize) {
        hex0x(out, o.0 as u64, 8);
        let Ok(mut it) = self.dwarf.ranges(self.unit, o) else {
            out.push_str("<error>");
            return;
        };
        loop {
            match it.next() {
                Ok(Some(r)) => {
                    out.push(b'\n');
                    spaces(out, indent + 3);
                    out.push(b'[');
                    hex0x(out, r.begin, 16);
                    out.push_str(", ");
                    hex0x(out, r.end, 16);
                    out.push(b')');
                }
                Ok(None) => break,
                Err(_) => {
                    out.push_str("<error>");
                    break;
                }
            }
        }
    }

    /// The tag of the entry at `off` and the first value of each of the `wanted`
    /// attributes (as `attr_value` gives it), its attributes read only as far as
    /// the last of those (a whole entry parsed for one or two values was ~10% of the
    /// reference names' cost); a value after an attribute that does not read is
    /// not found, as with `attr_value`. `None`: no entry there.
    fn first_values<const N: usize>(
        &self,
        off: UnitOffset,
        wanted: [c::DwAt; N],
    ) -> Option<(c::DwTag, [Option<AttributeValue<Slice<'d>>>; N])> {
        let mut raw = self.unit.entries_raw(Some(off)).ok()?;
        let abbrev = raw.read_abbreviation().ok()??;
        let specs = abbrev.attributes();
        let end = specs
            .iter()
            .rposition(|s| wanted.contains(&s.name()))
            .map_or(0, |i| i + 1);
        let mut found = [None; N];
        for spec in &specs[..end] {
            let Ok(a) = raw.read_attribute(*spec) else {
                break;
            };
            if let Some(k) = wanted.iter().position(|&w| w == a.name()) {
                found[k].get_or_insert(a.value());
            }
        }
        Some((abbrev.tag(), found))
    }

    /// A DIE's name for a reference: its linkage name, else DW_AT_name, else the
    /// name of what it specifies or abstracts.
    fn die_name(&mut self, off: UnitOffset) -> Option<Cow<'d, str>> {
        self.die_name_depth(off, 0)
    }

    fn die_name_depth(&mut self, off: UnitOffset, depth: u32) -> Option<Cow<'d, str>> {
        if depth > 16 {
            return None;
        }
        // the first of each attribute, in one pass over the entry's attributes (an
        // `attr_value` per name parsed them up to five times), read only as far as
        // the last of them
        const WANTED: [c::DwAt; 5] = [
            c::DW_AT_linkage_name,
            c::DW_AT_MIPS_linkage_name,
            c::DW_AT_name,
            c::DW_AT_specification,
            c::DW_AT_abstract_origin,
        ];
        let (_, found) = self.first_values(off, WANTED)?;
        if let Some(v) = found[..3].iter().flatten().next() {
            return self.string(*v);
        }
        for v in &found[3..] {
            if let Some(AttributeValue::UnitRef(r)) = v {
                return self.die_name_depth(*r, depth + 1);
            }
        }
        None
    }

    /// The name of the type at `off`, as llvm-dwarfdump prints it after a
    /// `DW_AT_type` reference (cached per offset).
    fn type_name(&mut self, off: UnitOffset, depth: u32) -> Option<Cow<'d, str>> {
        if let Some(n) = self.names.get(&(off.0 as u64)) {
            return n.clone();
        }
        let n = self.type_name_uncached(off, depth);
        self.names.insert(off.0 as u64, n.clone());
        n
    }

    /// The type an entry refers to (its `DW_AT_type` value `v`), and its name.
    fn inner_type(
        &mut self,
        v: Option<AttributeValue<Slice<'d>>>,
        depth: u32,
    ) -> (Option<UnitOffset>, Option<Cow<'d, str>>) {
        match v {
            Some(AttributeValue::UnitRef(r)) => (Some(r), self.type_name(r, depth + 1)),
            _ => (None, None),
        }
    }

    fn type_name_uncached(&mut self, off: UnitOffset, depth: u32) -> Option<Cow<'d, str>> {
        if depth > 32 {
            return None;
        }
        // (the entry read once, as far as its type and name)
        let (tag, [ty, name]) = self.first_values(off, [c::DW_AT_type, c::DW_AT_name])?;
        Some(match tag {
            c::DW_TAG_pointer_type | c::DW_TAG_reference_type | c::DW_TAG_rvalue_reference_type => {
                let sym = match tag {
                    c::DW_TAG_pointer_type => "*",
                    c::DW_TAG_reference_type => "&",
                    _ => "&&",
                };
                let (_, inner) = self.inner_type(ty, depth);
                // (the inner name's buffer extended: `format!` was ~750 instructions)
                let mut inner = with_room(inner, 3);
                if !(inner.ends_with('*') || inner.ends_with('&')) {
                    inner.push(' ');
                }
                inner.push_str(sym);
                Cow::Owned(inner)
            }
            c::DW_TAG_const_type | c::DW_TAG_volatile_type => {
                let q = if tag == c::DW_TAG_const_type {
                    "const"
                } else {
                    "volatile"
                };
                let (r, inner) = self.inner_type(ty, depth);
                let inner = with_room(inner, q.len() + 1);
                let inner_is_ptr = r
                    .and_then(|r| self.unit.entry(r).ok())
                    .is_some_and(|e| e.tag() == c::DW_TAG_pointer_type);
                Cow::Owned(if inner_is_ptr {
                    let mut inner = inner;
                    inner.push(' ');
                    inner.push_str(q);
                    inner
                } else {
                    let mut s = String::with_capacity(q.len() + 1 + inner.len());
                    s.push_str(q);
                    s.push(' ');
                    s.push_str(&inner);
                    s
                })
            }
            c::DW_TAG_array_type => {
                let (_, inner) = self.inner_type(ty, depth);
                let mut s = with_room(inner, 16);
                // subranges
                if let Ok(mut tree) = self.unit.entries_tree(Some(off)) {
                    if let Ok(root) = tree.root() {
                        let mut children = root.children();
                        while let Ok(Some(child)) = children.next() {
                            let e = child.entry();
                            if e.tag() != c::DW_TAG_subrange_type {
                                continue;
                            }
                            let count = e
                                .attr_value(c::DW_AT_count)
                                .ok()
                                .flatten()
                                .and_then(|v| v.udata_value())
                                .or_else(|| {
                                    e.attr_value(c::DW_AT_upper_bound)
                                        .ok()
                                        .flatten()
                                        .and_then(|v| v.udata_value())
                                        .map(|u| u + 1)
                                });
                            match count {
                                Some(n) => {
                                    let _ = write!(s, "[{n}]");
                                }
                                None => s.push_str("[]"),
                            }
                        }
                    }
                }
                Cow::Owned(s)
            }
            // a named type by its name; anything else (an anonymous structure, a
            // restrict or atomic qualifier) by its tag: `structure `, `restrict `
            _ => match name.and_then(|v| self.string(v)) {
                Some(n) => n,
                None => {
                    let t = tag.static_string()?;
                    let t = t.strip_prefix("DW_TAG_").unwrap_or(t);
                    Cow::Owned(format!("{} ", t.strip_suffix("_type").unwrap_or(t)))
                }
            },
        })
    }
}

/// The name of an enumerated value (`DW_LANG_*`, `DW_ATE_*` ...) of attribute
/// `name`, if it is one (those attributes are checked first, in one `match` with the
/// others printed their own way).
fn enum_name(name: c::DwAt, v: &AttributeValue<Slice<'_>>) -> Option<Cow<'static, str>> {
    match (name, v) {
        (c::DW_AT_language, _) => v.udata_value().map(|x| {
            c::DwLang(x as u16)
                .static_string()
                .map_or_else(|| format!("DW_LANG_unknown_{x:x}").into(), Cow::Borrowed)
        }),
        (c::DW_AT_encoding, _) => v.udata_value().map(|x| {
            c::DwAte(x as u8)
                .static_string()
                .map_or_else(|| format!("DW_ATE_unknown_{x:x}").into(), Cow::Borrowed)
        }),
        (c::DW_AT_calling_convention, _) => v.udata_value().map(|x| {
            names::llvm_calling_convention(x as u8)
                .or_else(|| c::DwCc(x as u8).static_string())
                .map_or_else(|| format!("DW_CC_unknown_{x:x}").into(), Cow::Borrowed)
        }),
        (c::DW_AT_inline, _) => v.udata_value().map(|x| {
            c::DwInl(x as u8)
                .static_string()
                .map_or_else(|| format!("DW_INL_unknown_{x:x}").into(), Cow::Borrowed)
        }),
        (c::DW_AT_accessibility, _) => v
            .udata_value()
            .and_then(|x| c::DwAccess(x as u8).static_string().map(Cow::Borrowed)),
        (c::DW_AT_virtuality, _) => v
            .udata_value()
            .and_then(|x| c::DwVirtuality(x as u8).static_string().map(Cow::Borrowed)),
        (c::DW_AT_visibility, _) => v
            .udata_value()
            .and_then(|x| c::DwVis(x as u8).static_string().map(Cow::Borrowed)),
        (c::DW_AT_identifier_case, _) => v
            .udata_value()
            .and_then(|x| c::DwId(x as u8).static_string().map(Cow::Borrowed)),
        (c::DW_AT_defaulted, _) => v
            .udata_value()
            .and_then(|x| c::DwDefaulted(x as u8).static_string().map(Cow::Borrowed)),
        _ => None,
    }
}

/// The type name `inner` (`void` when none) in a `String` with room for `room` more
/// bytes (growing it for the ` *` after it was ~1% of the run).
fn with_room(inner: Option<Cow<'_, str>>, room: usize) -> String {
    let inner = inner.as_deref().unwrap_or("void");
    let mut s = String::with_capacity(inner.len() + room);
    s.push_str(inner);
    s
}

/// `String::from_utf8_lossy`, with `str::from_utf8`'s faster check first (the same
/// text; the lossy decoder's chunk iterator was 1.5% of the run over the -g corpus).
fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Whether `bytes` are all printable ASCII but `\\` and `"` (a string printed as
/// it is), eight bytes at a time.
fn plain_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // a byte of `x` is zero -> its high bit set in the result (exact when no byte of
    // `x` has its high bit set, which is checked first)
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    // non-ASCII; below 0x20 (x + 0x60 has no high bit); 0x7f; `\\`; `"`
    let plain = |w: &[u8]| {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        let x = u64::from_le_bytes(b);
        x & HIGH == 0
            && (x.wrapping_add(0x6060_6060_6060_6060) & HIGH) == HIGH
            && zero(x ^ (0x7f * ONES)) == 0
            && zero(x ^ (u64::from(b'\\') * ONES)) == 0
            && zero(x ^ (u64::from(b'"') * ONES)) == 0
    };
    if bytes.len() < 8 {
        return bytes
            .iter()
            .all(|&b| (0x20..0x7f).contains(&b) && b != b'\\' && b != b'"');
    }
    // the words, then the last eight bytes (overlapping the last word) for the rest
    bytes.chunks_exact(8).all(plain) && plain(&bytes[bytes.len() - 8..])
}

/// Appends `bytes` as [`escape`] prints them (invalid UTF-8 replaced).
fn escape_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    if plain_ascii(bytes) {
        out.extend_from_slice(bytes);
        return;
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => escape(out, s),
        Err(_) => escape(out, &String::from_utf8_lossy(bytes)),
    }
}

fn escape(out: &mut Vec<u8>, s: &str) {
    // most strings need no escape: copied whole
    if !s
        .bytes()
        .any(|b| b < 0x20 || b == 0x7f || b == b'\\' || b == b'"')
    {
        out.push_str(s);
        return;
    }
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push_str(c.encode_utf8(&mut [0; 4])),
        }
    }
}

fn debug_line(obj: &DwarfObject, out: &mut Vec<u8>, errors: &mut Vec<Error>) {
    let dwarf = obj.gimli();
    let sec = obj.section(".debug_line");
    let mut offset = 0usize;
    // the units' line tables, in section order, each once: walk the section itself
    while offset < sec.len() {
        let _ = writeln!(out, "debug_line[0x{offset:08x}]");
        let program = dwarf
            .debug_line
            .program(gimli::DebugLineOffset(offset), 8, None, None);
        let program = match program {
            Ok(p) => p,
            Err(e) => {
                errors.push(gerr(".debug_line", offset as u64, e));
                break;
            }
        };
        let h = program.header().clone();
        let total = h.unit_length() as u64;
        let fmt64 = h.format() == gimli::Format::Dwarf64;
        let ow = if fmt64 { 16 } else { 8 };
        let _ = writeln!(out, "Line table prologue:");
        let _ = writeln!(out, "    total_length: 0x{total:0ow$x}");
        let _ = writeln!(
            out,
            "          format: {}",
            if fmt64 { "DWARF64" } else { "DWARF32" }
        );
        let _ = writeln!(out, "         version: {}", h.version());
        if h.version() >= 5 {
            let _ = writeln!(out, "    address_size: {}", h.address_size());
            let _ = writeln!(out, " seg_select_size: 0");
        }
        let _ = writeln!(out, " prologue_length: 0x{:0ow$x}", h.header_length());
        let _ = writeln!(out, " min_inst_length: {}", h.minimum_instruction_length());
        if h.version() >= 4 {
            let _ = writeln!(
                out,
                "max_ops_per_inst: {}",
                h.maximum_operations_per_instruction()
            );
        }
        let _ = writeln!(out, " default_is_stmt: {}", u8::from(h.default_is_stmt()));
        let _ = writeln!(out, "       line_base: {}", h.line_base());
        let _ = writeln!(out, "      line_range: {}", h.line_range());
        let _ = writeln!(out, "     opcode_base: {}", h.opcode_base());
        for (i, len) in h.standard_opcode_lengths().slice().iter().enumerate() {
            let op = c::DwLns(i as u8 + 1);
            match op.static_string() {
                Some(n) => {
                    let _ = writeln!(out, "standard_opcode_lengths[{n}] = {len}");
                }
                None => {
                    let _ = writeln!(
                        out,
                        "standard_opcode_lengths[DW_LNS_unknown_{:x}] = {len}",
                        i + 1
                    );
                }
            }
        }
        let lstr = |v: AttributeValue<Slice<'_>>| -> String {
            match v {
                AttributeValue::String(s) => String::from_utf8_lossy(s.slice()).into_owned(),
                AttributeValue::DebugLineStrRef(o) => dwarf
                    .debug_line_str
                    .get_str(o)
                    .map(|s| String::from_utf8_lossy(s.slice()).into_owned())
                    .unwrap_or_default(),
                AttributeValue::DebugStrRef(o) => dwarf
                    .debug_str
                    .get_str(o)
                    .map(|s| String::from_utf8_lossy(s.slice()).into_owned())
                    .unwrap_or_default(),
                _ => String::new(),
            }
        };
        for (i, d) in h.include_directories().iter().enumerate() {
            let _ = writeln!(out, "include_directories[{i:3}] = \"{}\"", lstr(*d));
        }
        let base = if h.version() >= 5 { 0 } else { 1 };
        for (i, f) in h.file_names().iter().enumerate() {
            let _ = writeln!(out, "file_names[{:3}]:", i + base);
            let _ = writeln!(out, "           name: \"{}\"", lstr(f.path_name()));
            let _ = writeln!(out, "      dir_index: {}", f.directory_index());
            if h.file_has_md5() {
                let md5: String = f.md5().iter().map(|b| format!("{b:02x}")).collect();
                let _ = writeln!(out, "   md5_checksum: {md5}");
            }
            if h.version() < 5 {
                let _ = writeln!(out, "       mod_time: 0x{:08x}", f.timestamp());
                let _ = writeln!(out, "         length: 0x{:08x}", f.size());
            }
        }
        out.push(b'\n');
        let mut rows = program.rows();
        let mut header_printed = false;
        // (one blank line after the table's rows, when the last ends a sequence: not
        // one per sequence, as llvm-dwarfdump-22 prints -ffunction-sections tables)
        let mut last_ended = false;
        loop {
            match rows.next_row() {
                Ok(Some((_, row))) => {
                    if !header_printed {
                        out.push_str("Address            Line   Column File   ISA Discriminator OpIndex Flags\n");
                        out.push_str("------------------ ------ ------ ------ --- ------------- ------- -------------\n");
                        header_printed = true;
                    }
                    let col = match row.column() {
                        gimli::ColumnType::LeftEdge => 0,
                        gimli::ColumnType::Column(c) => c.get(),
                    };
                    let _ = write!(
                        out,
                        "0x{:016x} {:6} {:6} {:6} {:3} {:13} {:7} ",
                        row.address(),
                        row.line().map_or(0, |l| l.get()),
                        col,
                        row.file_index(),
                        row.isa(),
                        row.discriminator(),
                        0
                    );
                    if row.is_stmt() {
                        out.push_str(" is_stmt");
                    }
                    if row.basic_block() {
                        out.push_str(" basic_block");
                    }
                    if row.prologue_end() {
                        out.push_str(" prologue_end");
                    }
                    if row.epilogue_begin() {
                        out.push_str(" epilogue_begin");
                    }
                    if row.end_sequence() {
                        out.push_str(" end_sequence");
                    }
                    out.push(b'\n');
                    last_ended = row.end_sequence();
                }
                Ok(None) => break,
                Err(e) => {
                    errors.push(gerr(".debug_line", offset as u64, e));
                    break;
                }
            }
        }
        if last_ended {
            out.push(b'\n');
        }
        let next = offset as u64 + total + if fmt64 { 12 } else { 4 };
        if next <= offset as u64 {
            break;
        }
        offset = next as usize;
    }
}

/// One row of a line table, for a structured (JSON) view.
#[derive(Clone, Debug)]
pub struct LineRow {
    /// Address.
    pub address: u64,
    /// Source line (0: none).
    pub line: u64,
    /// Column (0: left edge).
    pub column: u64,
    /// File index.
    pub file: u64,
    /// `is_stmt`, `prologue_end`, `end_sequence` ... as printed.
    pub flags: Vec<&'static str>,
}

/// A line table of `.debug_line`, for a structured (JSON) view.
#[derive(Clone, Debug)]
pub struct LineTableRecord {
    /// Offset in `.debug_line`.
    pub offset: u64,
    /// DWARF version.
    pub version: u16,
    /// `include_directories`, as printed.
    pub include_directories: Vec<String>,
    /// `file_names`: (name, directory index).
    pub file_names: Vec<(String, u64)>,
    /// The rows of the line number program.
    pub rows: Vec<LineRow>,
}

/// The line tables of the units of `.debug_info`, and what could not be read.
pub fn debug_line_records(obj: &DwarfObject) -> (Vec<LineTableRecord>, Vec<Error>) {
    let dwarf = obj.gimli();
    let mut tables = Vec::new();
    let mut errors = Vec::new();
    for (header, off) in unit_headers(&dwarf, &mut errors) {
        let Some(unit) = unit_of(&dwarf, header, off, &mut errors) else {
            continue;
        };
        let Some(program) = unit.line_program.clone() else {
            continue;
        };
        let h = program.header();
        let lstr = |v: AttributeValue<Slice<'_>>| -> String {
            dwarf
                .attr_string(&unit, v)
                .map(|s| String::from_utf8_lossy(s.slice()).into_owned())
                .unwrap_or_default()
        };
        let mut rec = LineTableRecord {
            offset: h.offset().0 as u64,
            version: h.version(),
            include_directories: h.include_directories().iter().map(|d| lstr(*d)).collect(),
            file_names: h
                .file_names()
                .iter()
                .map(|f| (lstr(f.path_name()), f.directory_index()))
                .collect(),
            rows: Vec::new(),
        };
        let mut rows = program.rows();
        loop {
            match rows.next_row() {
                Ok(Some((_, row))) => {
                    let mut flags = Vec::new();
                    for (on, name) in [
                        (row.is_stmt(), "is_stmt"),
                        (row.basic_block(), "basic_block"),
                        (row.prologue_end(), "prologue_end"),
                        (row.epilogue_begin(), "epilogue_begin"),
                        (row.end_sequence(), "end_sequence"),
                    ] {
                        if on {
                            flags.push(name);
                        }
                    }
                    rec.rows.push(LineRow {
                        address: row.address(),
                        line: row.line().map_or(0, |l| l.get()),
                        column: match row.column() {
                            gimli::ColumnType::LeftEdge => 0,
                            gimli::ColumnType::Column(c) => c.get(),
                        },
                        file: row.file_index(),
                        flags,
                    });
                }
                Ok(None) => break,
                Err(e) => {
                    errors.push(gerr(".debug_line", rec.offset, e));
                    break;
                }
            }
        }
        tables.push(rec);
    }
    (tables, errors)
}

#[cfg(test)]
mod tests {
    use super::plain_ascii;

    #[test]
    fn plain_ascii_is_the_byte_rule() {
        let plain = |b: u8| (0x20..0x7f).contains(&b) && b != b'\\' && b != b'"';
        for len in [1usize, 7, 8, 9, 16, 17] {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut s = vec![b'a'; len];
                    s[at] = b;
                    assert_eq!(plain_ascii(&s), plain(b), "{b:#x} at {at} of {len}");
                }
            }
        }
        assert!(plain_ascii(b""));
    }
}
