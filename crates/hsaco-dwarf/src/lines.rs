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
    /// Per unit, the address map of its subprograms and inlined subroutines (see
    /// [`FunctionMap`]), in section offsets.
    functions: Vec<FunctionMap>,
    /// Function names (linkage name, else name), one a DIE with ranges.
    names: Vec<String>,
    /// Where the code sections were placed ([`LineTable::new_placed`]), sorted.
    bases: Vec<u64>,
}

/// The subprograms and inlined subroutines of one unit by address, as
/// llvm-objdump-22 (its symbolizer) finds the function of an address: the ranges
/// are entered in DIE order (a parent before its children), and a range entered
/// inside the range in force at its start splits that one (the part after it is
/// kept, the part before it shortened), so a nested range wins inside itself;
/// a range is not checked against the ranges after its start, so sibling ranges
/// that overlap (every function of a `-ffunction-sections` object starts at 0:
/// the map knows no sections) leave only pieces of the earlier ones. Learned by
/// running llvm-objdump-22 -d -l on `-ffunction-sections` objects (black box):
/// 06_calls.cl gfx1100 -O2 names `collatz_steps+0xc0` after
/// `__clang_ocl_kern_imp_calls` (entered later, longer) and
/// `__clang_ocl_kern_imp_calls+0x10c` after `calls` (the piece left after its
/// inlined `__clang_ocl_kern_imp_calls` [0, 0x10c) ends), and nothing at
/// `__clang_ocl_kern_imp_calls+0x110` (past that piece: the previous name is kept).
#[derive(Clone, Debug, Default)]
struct FunctionMap {
    /// Start -> (end, name index).
    map: std::collections::BTreeMap<u64, (u64, usize)>,
}

impl FunctionMap {
    /// Enter the range [start, end) of the DIE named `name`.
    fn insert(&mut self, start: u64, end: u64, name: usize) {
        if start >= end {
            return;
        }
        if let Some((&s, &(e, n))) = self.map.range(..=start).next_back() {
            if start < e {
                if end < e {
                    self.map.insert(end, (e, n));
                }
                if start > s {
                    self.map.insert(s, (start, n));
                }
            }
        }
        self.map.insert(start, (end, name));
    }

    /// The name index of the range holding `address`.
    fn get(&self, address: u64) -> Option<usize> {
        let (_, &(end, name)) = self.map.range(..=address).next_back()?;
        (address < end).then_some(name)
    }
}

impl LineTable {
    /// The line tables of `obj`; a table that does not read is left out (and
    /// reported in the returned errors).
    pub fn new(obj: &DwarfObject) -> (Self, Vec<crate::Error>) {
        Self::new_placed(obj, &[])
    }

    /// As [`Self::new`] for an object loaded with its code sections placed apart
    /// ([`DwarfObject::from_elf_placed`]) at `bases`: [`Self::lookup`] takes placed
    /// addresses (line rows are looked up per section, as llvm-objdump does), while
    /// [`Self::function`] takes offsets in the section (its map knows no sections,
    /// as llvm-objdump's does not).
    pub fn new_placed(obj: &DwarfObject, bases: &[u64]) -> (Self, Vec<crate::Error>) {
        let dwarf = obj.gimli();
        let mut table = LineTable {
            bases: bases.to_vec(),
            ..LineTable::default()
        };
        table.bases.sort_unstable();
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
        let mut map = FunctionMap::default();
        // (pushed even when a DIE does not read: the ranges entered so far count)
        let result = self.add_function_ranges(dwarf, unit, &mut entries, &mut depth, &mut map);
        self.functions.push(map);
        result
    }

    fn add_function_ranges(
        &mut self,
        dwarf: &gimli::Dwarf<Slice<'_>>,
        unit: &gimli::Unit<Slice<'_>>,
        entries: &mut gimli::EntriesCursor<'_, '_, Slice<'_>>,
        depth: &mut isize,
        map: &mut FunctionMap,
    ) -> gimli::Result<()> {
        while let Some((delta, entry)) = entries.next_dfs()? {
            *depth += delta;
            if *depth > 1024 {
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
            self.names.push(name);
            let index = self.names.len() - 1;
            for (lo, hi) in spans {
                let base = self.base_of(lo);
                map.insert(lo - base, hi.saturating_sub(base), index);
            }
        }
        Ok(())
    }

    /// The base of the placed section holding `address` (0 when not placed).
    fn base_of(&self, address: u64) -> u64 {
        let i = self.bases.partition_point(|&b| b <= address);
        i.checked_sub(1).map_or(0, |i| self.bases[i])
    }

    /// The name (linkage name, else name) of the subprogram or inlined subroutine
    /// llvm-objdump-22 names the code at `address` after: the innermost one holding
    /// it, as far as nested ranges go (overlapping sibling ranges are entered in DIE
    /// order, each splitting only the range in force at its start, as llvm's map does);
    /// the first unit that has one. `address` is an offset in its section when
    /// the sections were placed ([`Self::new_placed`]).
    pub fn function(&self, address: u64) -> Option<&str> {
        self.functions
            .iter()
            .find_map(|m| m.get(address))
            .and_then(|i| self.names.get(i))
            .map(String::as_str)
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
