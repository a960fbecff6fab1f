//! Source-level variables and the code ranges where their locations hold, and the
//! columns `llvm-objdump --debug-vars` draws beside a listing for them.
//!
//! [`live_variables`] lists, in the order of the DIEs, every `DW_TAG_variable` and
//! `DW_TAG_formal_parameter` below a unit's top level with a `DW_AT_location`: one
//! [`LiveVariable`] per location list entry, or, for a single location expression,
//! one over its parent DIE's `DW_AT_low_pc`/`DW_AT_high_pc` (the enclosing
//! subprogram, lexical block or inlined subroutine; none when the parent has no such
//! pair). [`Columns`] assigns them columns as a listing goes on, as llvm-objdump-22
//! does (rules learned by running it, see the crate's NOTES.md, "dis --debug-vars").

use crate::load::{DwarfObject, Slice};
use gimli::Reader;

/// One location of a variable over one address range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveVariable {
    /// The variable's name (`DW_AT_name`, following `DW_AT_abstract_origin`); empty
    /// when it has none.
    pub name: String,
    /// The first address where the location holds.
    pub low: u64,
    /// The address after the last one.
    pub high: u64,
    /// The location expression's bytes.
    pub expression: Vec<u8>,
    /// The unit's address size (for decoding the expression).
    pub address_size: u8,
    /// The unit's DWARF version.
    pub version: u16,
}

impl LiveVariable {
    /// Whether the location holds at `address`.
    pub fn live_at(&self, address: u64) -> bool {
        self.low <= address && address < self.high
    }
}

/// The variables of `obj` with their locations; a unit that does not read is left
/// out (and reported in the returned errors).
pub fn live_variables(obj: &DwarfObject) -> (Vec<LiveVariable>, Vec<crate::Error>) {
    let dwarf = obj.gimli();
    let mut vars = Vec::new();
    let mut errors = Vec::new();
    let mut units = dwarf.units();
    loop {
        let header = match units.next() {
            Ok(Some(h)) => h,
            Ok(None) => break,
            Err(e) => {
                errors.push(crate::Error::new(".debug_info", 0, e.to_string()));
                break;
            }
        };
        let offset = header
            .offset()
            .as_debug_info_offset()
            .map_or(0, |o| o.0 as u64);
        let unit = match dwarf.unit(header) {
            Ok(u) => u,
            Err(e) => {
                errors.push(crate::Error::new(".debug_info", offset, e.to_string()));
                continue;
            }
        };
        if let Err(e) = add_unit(&dwarf, &unit, &mut vars) {
            errors.push(crate::Error::new(".debug_info", offset, e.to_string()));
        }
    }
    (vars, errors)
}

fn add_unit(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    vars: &mut Vec<LiveVariable>,
) -> gimli::Result<()> {
    let encoding = unit.encoding();
    let mut entries = unit.entries();
    let mut depth = 0isize;
    // the low and high pc of the DIE at each depth (None: no such pair)
    let mut pcs: Vec<Option<(u64, u64)>> = Vec::new();
    while let Some((delta, entry)) = entries.next_dfs()? {
        depth += delta;
        if !(0..=1024).contains(&depth) {
            break;
        }
        let d = depth as usize;
        pcs.truncate(d);
        pcs.push(low_high(dwarf, unit, entry)?);
        let tag = entry.tag();
        if d < 2 || (tag != gimli::DW_TAG_variable && tag != gimli::DW_TAG_formal_parameter) {
            continue;
        }
        let Some(value) = entry.attr_value(gimli::DW_AT_location)? else {
            continue;
        };
        let name = variable_name(dwarf, unit, entry, 0)?.unwrap_or_default();
        let mut push = |low: u64, high: u64, expression: Vec<u8>| {
            vars.push(LiveVariable {
                name: name.clone(),
                low,
                high,
                expression,
                address_size: encoding.address_size,
                version: encoding.version,
            })
        };
        match value {
            gimli::AttributeValue::Exprloc(e) => {
                if let Some((low, high)) = pcs[d - 1] {
                    push(low, high, e.0.slice().to_vec());
                }
            }
            _ => {
                let Some(mut list) = dwarf.attr_locations(unit, value)? else {
                    continue;
                };
                while let Some(l) = list.next()? {
                    push(l.range.begin, l.range.end, l.data.0.slice().to_vec());
                }
            }
        }
    }
    Ok(())
}

/// `DW_AT_low_pc` and the end `DW_AT_high_pc` gives (an address or an offset from
/// the low pc).
fn low_high(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    entry: &gimli::DebuggingInformationEntry<'_, '_, Slice<'_>>,
) -> gimli::Result<Option<(u64, u64)>> {
    let Some(low) = entry.attr_value(gimli::DW_AT_low_pc)? else {
        return Ok(None);
    };
    let low = match low {
        gimli::AttributeValue::Addr(a) => a,
        gimli::AttributeValue::DebugAddrIndex(i) => dwarf.address(unit, i)?,
        _ => return Ok(None),
    };
    let high = match entry.attr_value(gimli::DW_AT_high_pc)? {
        Some(gimli::AttributeValue::Addr(a)) => a,
        Some(gimli::AttributeValue::DebugAddrIndex(i)) => dwarf.address(unit, i)?,
        Some(v) => match v.udata_value() {
            Some(n) => low.wrapping_add(n),
            None => return Ok(None),
        },
        None => return Ok(None),
    };
    Ok(Some((low, high)))
}

/// `DW_AT_name` of `entry`, following `DW_AT_abstract_origin` and
/// `DW_AT_specification` (at most a few steps).
fn variable_name(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    entry: &gimli::DebuggingInformationEntry<'_, '_, Slice<'_>>,
    steps: usize,
) -> gimli::Result<Option<String>> {
    crate::lines::entry_name(dwarf, unit, entry, &[gimli::DW_AT_name], steps)
}

/// The characters the columns are drawn with (`--debug-vars=unicode` or `ascii`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// Box-drawing characters (`┃`, `┻`, `╈`), llvm-objdump's default.
    #[default]
    Unicode,
    /// `|`, `v`, `^`.
    Ascii,
}

impl Style {
    fn glyphs(self) -> [&'static str; 3] {
        // live on both sides, ends after the instruction, starts after it
        match self {
            Style::Unicode => ["┃", "┻", "╈"],
            Style::Ascii => ["|", "v", "^"],
        }
    }

    /// A label's corner (live at the instruction, or from the next one) and its
    /// horizontal stroke.
    fn label(self, live_in: bool) -> &'static str {
        match (self, live_in) {
            (Style::Unicode, true) => "┠─",
            (Style::Unicode, false) => "┌─",
            (Style::Ascii, true) => "|-",
            (Style::Ascii, false) => "/-",
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Column {
    var: Option<usize>,
    live_in: bool,
    live_out: bool,
    /// Its label is still to be drawn.
    label: bool,
}

/// The columns of `--debug-vars` beside a listing: each variable live at an
/// instruction (or just after it) holds a column from the instruction where it is
/// first seen to the one where it stops; a freed column is reused by the next
/// variable that needs one. Columns are never removed.
#[derive(Clone, Debug, Default)]
pub struct Columns {
    columns: Vec<Column>,
    /// The variables by their first address (indexes into `vars`).
    by_low: Vec<usize>,
    /// How many of `by_low` have been taken into `open`.
    taken: usize,
    /// Variables that start at or before the last `next` and may still be live
    /// (ordered by index, the order new columns are taken in).
    open: std::collections::BTreeSet<usize>,
    /// The last `this` (an address going back starts the search again).
    last: u64,
}

impl Columns {
    /// Move to the instruction at `this`, which ends at `next`: the variables with a
    /// column are checked again (a column whose variable is live neither at `this` nor
    /// at `next` is freed), then, with `take_new`, each other variable live at `this`
    /// or `next` takes the first free column, in the order of `vars` (llvm-objdump-22
    /// does not do this for the last instruction of a symbol). Pass the same `vars`
    /// on every call; addresses are expected to grow (a smaller one restarts the
    /// search, so any order gives the same result, only slower).
    pub fn update(&mut self, vars: &[LiveVariable], this: u64, next: u64, take_new: bool) {
        let mut seen = Vec::new();
        for c in &mut self.columns {
            let Some(v) = c.var else { continue };
            seen.push(v);
            let (live_in, live_out) = vars
                .get(v)
                .map_or((false, false), |var| (var.live_at(this), var.live_at(next)));
            c.live_in = live_in;
            c.live_out = live_out;
            if !live_in && !live_out {
                c.var = None;
            }
        }
        if self.by_low.len() != vars.len() || this < self.last {
            if self.by_low.len() != vars.len() {
                self.by_low = (0..vars.len()).collect();
                self.by_low.sort_by_key(|&i| vars[i].low);
            }
            self.taken = 0;
            self.open.clear();
        }
        self.last = this;
        while let Some(&i) = self.by_low.get(self.taken) {
            if vars[i].low > next {
                break;
            }
            self.open.insert(i);
            self.taken += 1;
        }
        // (live at `this` or later needs an end past `this`)
        self.open.retain(|&i| vars[i].high > this);
        if !take_new {
            return;
        }
        for &i in &self.open {
            if seen.contains(&i) {
                continue;
            }
            let var = &vars[i];
            let (live_in, live_out) = (var.live_at(this), var.live_at(next));
            if !live_in && !live_out {
                continue;
            }
            let column = Column {
                var: Some(i),
                live_in,
                live_out,
                label: true,
            };
            match self.columns.iter_mut().find(|c| c.var.is_none()) {
                Some(c) => *c = column,
                None => self.columns.push(column),
            }
        }
    }

    /// The text to put after an instruction line that ends at display column `at`
    /// (tabs counted to the next multiple of 8): column `k` stands at display column
    /// `first + 2k`; the columns that would stand left of `at` are left out, and
    /// the first one printed is reached with spaces (spaces even when none is left:
    /// llvm-objdump-22 pads to where the next column would be).
    pub fn after_instruction(&self, out: &mut String, at: usize, first: usize, style: Style) {
        if self.columns.is_empty() {
            return;
        }
        let g = style.glyphs();
        let skip = skip_to_column(out, at, first);
        for c in self.columns.iter().skip(skip) {
            match c.var {
                Some(_) => {
                    out.push_str(match (c.live_in, c.live_out) {
                        (true, true) => g[0],
                        (true, false) => g[1],
                        _ => g[2],
                    });
                    out.push(' ');
                }
                None => out.push_str("  "),
            }
        }
    }
}

impl Columns {
    /// The text to put after a `; FILE:LINE` or source line (-l, -S) of display
    /// width `at`: the labels `NAME = LOCATION` of the variables that took a column
    /// since the last labels were drawn (the first on this line, each other on a line
    /// of its own, with the columns left of it), or, when there is none, the columns
    /// as after an instruction (every live one `┃`).
    pub fn after_other_line(
        &mut self,
        out: &mut String,
        at: usize,
        first: usize,
        style: Style,
        vars: &[LiveVariable],
    ) {
        // (a free column is one space here, not two: llvm-objdump-22 prints it so)
        // a live column: heavy where the variable is live at the instruction, light
        // where it is only from the next one
        let vert = |c: &Column| match (style, c.live_in) {
            (Style::Unicode, true) => "┃ ",
            (Style::Unicode, false) => "│ ",
            (Style::Ascii, _) => "| ",
        };
        // labels in the order of the variables (not of the columns)
        let mut pending: Vec<usize> = (0..self.columns.len())
            .filter(|&i| self.columns[i].var.is_some() && self.columns[i].label)
            .collect();
        pending.sort_by_key(|&i| self.columns[i].var);
        if pending.is_empty() {
            if self.columns.is_empty() {
                return;
            }
            let skip = skip_to_column(out, at, first);
            for c in self.columns.iter().skip(skip) {
                out.push_str(if c.var.is_some() { vert(c) } else { " " });
            }
            return;
        }
        let mut at = at;
        for (n, &idx) in pending.iter().enumerate() {
            if n > 0 {
                out.push('\n');
                at = 0;
            }
            // (at least one space, also when the line reaches the first column)
            let pad = first.saturating_sub(at).max(1);
            for _ in 0..pad {
                out.push(' ');
            }
            at += pad;
            for c in &self.columns[..idx] {
                // (left of a label a free column is two spaces)
                let t = if c.var.is_some() { vert(c) } else { "  " };
                out.push_str(t);
                at += t.chars().count();
            }
            let c = &self.columns[idx];
            let var = c.var.and_then(|v| vars.get(v));
            let name = var.map_or("", |v| v.name.as_str());
            let text = var.map_or(String::new(), |v| location_text(&v.expression));
            let label_start = out.len();
            out.push_str(style.label(c.live_in));
            out.push(' ');
            out.push_str(name);
            out.push_str(" = ");
            out.push_str(&text);
            at += out[label_start..].chars().count();
            let skip = skip_to_column(out, at, first);
            for c in self.columns.iter().skip(skip) {
                out.push_str(if c.var.is_some() { vert(c) } else { " " });
            }
            self.columns[idx].label = false;
        }
    }
}

/// The first column (`first + 2k`) at or right of display column `at`, reached
/// with spaces; returns its number k.
fn skip_to_column(out: &mut String, at: usize, first: usize) -> usize {
    let skip = ((at as isize - first as isize + 1) / 2).max(0) as usize;
    for _ in at..first + 2 * skip {
        out.push(' ');
    }
    skip
}

/// A location expression as llvm-objdump-22 --debug-vars labels it: a register
/// operation (`DW_OP_reg*`, `DW_OP_breg*`, `DW_OP_regx`, `DW_OP_bregx`) whose
/// register llvm does not name gives `<unknown register N>`; else the first
/// operation after it, or the first one when it is no register operation, gives
/// `<unknown op DW_OP_NAME (CODE)>` (what every -g corpus location shows). A register
/// operation alone prints its register: `VGPR0`, `[VGPR1+8]`, `[VGPR1-4]` (probed
/// with hand-edited locations, tests/data/vars-regs.s).
pub fn location_text(expr: &[u8]) -> String {
    let unknown_op = |code: u8| {
        let name = gimli::DwOp(code)
            .static_string()
            .map_or_else(|| format!("0x{code:x}"), str::to_string);
        format!("<unknown op {name} ({code})>")
    };
    let Some(&op) = expr.first() else {
        return String::new();
    };
    let mut r = gimli::EndianSlice::new(&expr[1..], gimli::LittleEndian);
    let (reg, offset) = match op {
        0x50..=0x6f => (u64::from(op - 0x50), None),
        0x70..=0x8f => (u64::from(op - 0x70), Some(r.read_sleb128().unwrap_or(0))),
        0x90 => (r.read_uleb128().unwrap_or(0), None),
        0x92 => {
            let reg = r.read_uleb128().unwrap_or(0);
            (reg, Some(r.read_sleb128().unwrap_or(0)))
        }
        _ => return unknown_op(op),
    };
    let Some(name) = crate::names::RegisterNames::Llvm.name(reg) else {
        return format!("<unknown register {reg}>");
    };
    if let Some(&next) = r.slice().first() {
        return unknown_op(next);
    }
    match offset {
        None => name,
        Some(o) if o < 0 => format!("[{name}{o}]"),
        Some(o) => format!("[{name}+{o}]"),
    }
}
