//! Source locations of code addresses from `.debug_line`, as a symbolizer gives
//! them to `llvm-objdump -l`: for an address, the last row at or before it in the
//! sequence that contains it (its file as a path, line, column, discriminator).

use crate::load::{DwarfObject, Slice};

/// One source location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file: its directory joined to its name (the compilation directory first
    /// when the directory is relative), as the line table spells them.
    pub file: String,
    /// The line (0: no line).
    pub line: u64,
    /// The column (0: none).
    pub column: u64,
    /// The discriminator.
    pub discriminator: u64,
}

#[derive(Clone, Debug)]
struct Row {
    address: u64,
    location: usize,
}

#[derive(Clone, Debug)]
struct Sequence {
    start: u64,
    end: u64,
    rows: Vec<Row>,
}

/// The line tables of an object, for lookups by address.
#[derive(Default, Debug)]
pub struct LineTable {
    locations: Vec<Location>,
    /// File paths, each once.
    files: Vec<String>,
    sequences: Vec<Sequence>,
    /// Subprograms and inlined subroutines with one address range: start, end,
    /// depth, name (the linkage name, else the name).
    functions: Vec<(u64, u64, usize, String)>,
}

impl LineTable {
    /// The line tables of `obj`; a table that does not read is left out (and
    /// reported in the returned errors).
    pub fn new(obj: &DwarfObject) -> (Self, Vec<crate::Error>) {
        let dwarf = obj.gimli();
        let mut table = LineTable::default();
        let mut errors = Vec::new();
        for (header, offset) in crate::dump::unit_headers(&dwarf, &mut errors) {
            let Some(unit) = crate::dump::unit_of(&dwarf, header, offset, &mut errors) else {
                continue;
            };
            if let Err(e) = table.add_unit(&dwarf, &unit) {
                errors.push(crate::Error::new(".debug_line", offset, e.to_string()));
            }
            if let Err(e) = table.add_functions(&dwarf, &unit) {
                errors.push(crate::Error::new(".debug_info", offset, e.to_string()));
            }
        }
        table.sequences.sort_by_key(|s| (s.start, s.end));
        (table, errors)
    }

    fn add_unit(
        &mut self,
        dwarf: &gimli::Dwarf<Slice<'_>>,
        unit: &gimli::Unit<Slice<'_>>,
    ) -> gimli::Result<()> {
        let Some(program) = unit.line_program.clone() else {
            return Ok(());
        };
        let comp_dir = unit
            .comp_dir
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut rows = program.rows();
        let mut current: Vec<Row> = Vec::new();
        let mut files: Vec<(u64, usize)> = Vec::new();
        let mut loc_index = std::collections::HashMap::new();
        while let Some((header, row)) = rows.next_row()? {
            if row.end_sequence() {
                if let Some(first) = current.first() {
                    self.sequences.push(Sequence {
                        start: first.address,
                        end: row.address(),
                        rows: std::mem::take(&mut current),
                    });
                }
                continue;
            }
            let file_index = row.file_index();
            let file = match files.iter().find(|(i, _)| *i == file_index) {
                Some(&(_, f)) => f,
                None => {
                    let path = file_path(dwarf, unit, header, file_index, &comp_dir)?;
                    let f = self.intern_file(path);
                    files.push((file_index, f));
                    f
                }
            };
            let line = row.line().map_or(0, |l| l.get());
            let column = match row.column() {
                gimli::ColumnType::LeftEdge => 0,
                gimli::ColumnType::Column(c) => c.get(),
            };
            let key = (file, line, column, row.discriminator());
            let location = *loc_index.entry(key).or_insert_with(|| {
                self.locations.push(Location {
                    file: self.files[file].clone(),
                    line,
                    column,
                    discriminator: row.discriminator(),
                });
                self.locations.len() - 1
            });
            current.push(Row {
                address: row.address(),
                location,
            });
        }
        Ok(())
    }

    fn add_functions(
        &mut self,
        dwarf: &gimli::Dwarf<Slice<'_>>,
        unit: &gimli::Unit<Slice<'_>>,
    ) -> gimli::Result<()> {
        let mut entries = unit.entries();
        let mut depth = 0isize;
        while let Some((delta, entry)) = entries.next_dfs()? {
            depth += delta;
            if depth > 1024 {
                break;
            }
            let tag = entry.tag();
            if tag != gimli::DW_TAG_subprogram && tag != gimli::DW_TAG_inlined_subroutine {
                continue;
            }
            let mut ranges = dwarf.die_ranges(unit, entry)?;
            let mut spans = Vec::new();
            while let Some(r) = ranges.next()? {
                spans.push((r.begin, r.end));
            }
            if spans.is_empty() {
                continue;
            }
            let Some(name) = function_name(dwarf, unit, entry, 0)? else {
                continue;
            };
            for (lo, hi) in spans {
                self.functions
                    .push((lo, hi, depth.max(0) as usize, name.clone()));
            }
        }
        Ok(())
    }

    /// The name of the innermost subprogram or inlined subroutine whose range holds
    /// `address` (its linkage name, else its name).
    pub fn function(&self, address: u64) -> Option<&str> {
        self.functions
            .iter()
            .filter(|(lo, hi, _, _)| *lo <= address && address < *hi)
            .max_by_key(|(_, _, depth, _)| *depth)
            .map(|(_, _, _, n)| n.as_str())
    }

    fn intern_file(&mut self, path: String) -> usize {
        match self.files.iter().position(|f| *f == path) {
            Some(i) => i,
            None => {
                self.files.push(path);
                self.files.len() - 1
            }
        }
    }

    /// The location of the code at `address`: the last row at or before it in the
    /// first sequence (by start) that contains it.
    pub fn lookup(&self, address: u64) -> Option<&Location> {
        let seq = self
            .sequences
            .iter()
            .find(|s| s.start <= address && address < s.end)?;
        let i = seq.rows.partition_point(|r| r.address <= address);
        let row = seq.rows.get(i.checked_sub(1)?)?;
        self.locations.get(row.location)
    }
}

fn file_path(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    header: &gimli::LineProgramHeader<Slice<'_>>,
    index: u64,
    comp_dir: &str,
) -> gimli::Result<String> {
    let Some(file) = header.file(index) else {
        return Ok(String::new());
    };
    let text = |v: gimli::AttributeValue<Slice<'_>>| -> gimli::Result<String> {
        let s = dwarf.attr_string(unit, v)?;
        Ok(s.to_string_lossy().into_owned())
    };
    let name = text(file.path_name())?;
    if name.starts_with('/') {
        return Ok(name);
    }
    let mut dir = match file.directory(header) {
        Some(d) => text(d)?,
        None => String::new(),
    };
    if !dir.starts_with('/') && !comp_dir.is_empty() {
        dir = if dir.is_empty() {
            comp_dir.to_string()
        } else {
            format!("{comp_dir}/{dir}")
        };
    }
    Ok(if dir.is_empty() {
        name
    } else {
        format!("{dir}/{name}")
    })
}

/// The linkage name or name of `entry`, following `DW_AT_abstract_origin` and
/// `DW_AT_specification` (at most a few steps).
fn function_name(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    entry: &gimli::DebuggingInformationEntry<'_, '_, Slice<'_>>,
    steps: usize,
) -> gimli::Result<Option<String>> {
    let names = [
        gimli::DW_AT_linkage_name,
        gimli::DW_AT_MIPS_linkage_name,
        gimli::DW_AT_name,
    ];
    entry_name(dwarf, unit, entry, &names, steps)
}

/// The first of the string attributes `names` that `entry` has, following
/// `DW_AT_abstract_origin` and `DW_AT_specification` (at most a few steps from
/// `steps`).
pub(crate) fn entry_name(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    entry: &gimli::DebuggingInformationEntry<'_, '_, Slice<'_>>,
    names: &[gimli::DwAt],
    steps: usize,
) -> gimli::Result<Option<String>> {
    for &at in names {
        if let Some(v) = entry.attr_value(at)? {
            let s = dwarf.attr_string(unit, v)?;
            return Ok(Some(s.to_string_lossy().into_owned()));
        }
    }
    if steps >= 4 {
        return Ok(None);
    }
    for at in [gimli::DW_AT_abstract_origin, gimli::DW_AT_specification] {
        if let Some(gimli::AttributeValue::UnitRef(o)) = entry.attr_value(at)? {
            let e = unit.entry(o)?;
            return entry_name(dwarf, unit, &e, names, steps + 1);
        }
    }
    Ok(None)
}

/// A source path as `llvm-objdump --prefix PREFIX --prefix-strip N` makes it: an
/// absolute `path` loses its first `strip` directories (the file name always stays)
/// and gets `prefix` in front, joined with one `/`; a relative path, or an empty
/// prefix, leaves it as it is. No `..` is resolved (the file system does that when
/// the file is opened). Learned from llvm-objdump-22: `/p/` + `/work/x.cl` is
/// `/p/work/x.cl`, and `--prefix /` changes nothing.
pub fn prefixed(path: &str, prefix: &str, strip: usize) -> String {
    if prefix.is_empty() || !path.starts_with('/') {
        return path.to_string();
    }
    let head = prefix.trim_end_matches('/');
    let mut out = String::with_capacity(prefix.len() + path.len());
    out.push_str(head);
    if strip == 0 {
        out.push_str(path);
        return out;
    }
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    for p in &parts[strip.min(parts.len().saturating_sub(1))..] {
        out.push('/');
        out.push_str(p);
    }
    out
}
