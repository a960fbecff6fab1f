//! The link: output sections, symbol resolution, layout, relocations, tables.

use crate::error::{LinkError, Place, UndefinedSymbol};
use crate::hash;
use crate::input::{InFile, InSymbol};
use crate::Options;
use hsaco_elf::elf::consts::*;
use hsaco_elf::elf::write::{
    encode_rela64, encode_symbol64, Builder, FixedLayout, Link, SectionId, SectionSpec, SegmentSpec,
};
use std::collections::HashMap;

const PAGE: u64 = 0x1000;

/// The most zeros a NOBITS input placed among contents may add to the file.
const MAX_ZERO_FILL: u64 = 64 << 20;

fn align_up(value: u64, align: u64) -> u64 {
    let align = align.max(1);
    value.div_ceil(align).saturating_mul(align)
}

fn layout_err(what: &str) -> LinkError {
    LinkError::Layout(what.to_string())
}

/// The output section an input section goes to, by name.
fn output_name(name: &[u8]) -> &[u8] {
    for prefix in [
        &b".text"[..],
        b".rodata",
        b".data.rel.ro",
        b".data",
        b".bss",
    ] {
        if name == prefix || (name.starts_with(prefix) && name.get(prefix.len()) == Some(&b'.')) {
            return prefix;
        }
    }
    name
}

/// Where an input section's bytes went.
#[derive(Clone, Debug)]
enum Placement {
    /// Not copied.
    None,
    /// Copied whole at this offset of output section `out`.
    Linear { out: usize, base: u64 },
    /// Split into pieces merged into output section `out`: sorted (input offset,
    /// output offset, length).
    Merged {
        out: usize,
        pieces: Vec<(u64, u64, u64)>,
    },
}

impl Placement {
    fn out(&self) -> Option<usize> {
        match self {
            Placement::None => None,
            Placement::Linear { out, .. } | Placement::Merged { out, .. } => Some(*out),
        }
    }

    /// The output-section offset of input offset `offset`.
    fn map(&self, offset: u64) -> Option<u64> {
        match self {
            Placement::None => None,
            Placement::Linear { base, .. } => base.checked_add(offset),
            Placement::Merged { pieces, .. } => {
                let i = pieces.partition_point(|p| p.0 <= offset);
                let (start, out, len) = *pieces.get(i.checked_sub(1)?)?;
                if offset - start <= len {
                    Some(out + (offset - start))
                } else {
                    None
                }
            }
        }
    }
}

/// What goes into an output section, in order.
#[derive(Clone, Debug)]
enum Member {
    Input { file: usize, index: usize },
    Merge(usize),
}

/// (file, section index, pieces: input offset, piece id, length)
type MergedInput = (usize, usize, Vec<(u64, u64, u64)>);

/// The number of groups ld.lld deals the pieces of a mergeable section into (by
/// hash) before it lays them out group after group.
const SHARDS: u32 = 32;

/// Deduplicated pieces of the `SHF_MERGE` inputs with the same flags, entry size and
/// alignment. A piece's place depends on the XXH3-64 hash of its bytes (without a
/// string's terminator): the top five bits of the hash's low 32 bits pick one of 32
/// shards, the shards are laid out in order (each aligned to the section alignment),
/// and the pieces of a shard in the order they were met.
#[derive(Clone, Debug)]
struct MergeGroup {
    flags: u64,
    entsize: u64,
    align: u64,
    /// Unique pieces: bytes and shard.
    pieces: Vec<(Vec<u8>, u32)>,
    seen: HashMap<Vec<u8>, u64>,
    inputs: Vec<MergedInput>,
    /// Offset of each piece, after `finish`.
    offsets: Vec<u64>,
    data: Vec<u8>,
}

impl MergeGroup {
    fn new(flags: u64, entsize: u64, align: u64) -> Self {
        MergeGroup {
            flags,
            entsize,
            align,
            pieces: Vec::new(),
            seen: HashMap::new(),
            inputs: Vec::new(),
            offsets: Vec::new(),
            data: Vec::new(),
        }
    }

    fn is_strings(&self) -> bool {
        self.flags & SHF_STRINGS != 0
    }

    /// The id of `piece`, adding it if new.
    fn add_piece(&mut self, piece: &[u8]) -> u64 {
        if let Some(&id) = self.seen.get(piece) {
            return id;
        }
        let hashed = if self.is_strings() {
            let terminator = (self.entsize.max(1) as usize).min(piece.len());
            &piece[..piece.len() - terminator]
        } else {
            piece
        };
        let hash = twox_hash::XxHash3_64::oneshot(hashed) as u32;
        let shard = hash >> (32 - SHARDS.trailing_zeros());
        let id = self.pieces.len() as u64;
        self.pieces.push((piece.to_vec(), shard));
        self.seen.insert(piece.to_vec(), id);
        id
    }

    /// Splits `data` into pieces and adds them; returns (input offset, piece id, length).
    fn add_input(&mut self, data: &[u8]) -> Vec<(u64, u64, u64)> {
        let mut pieces = Vec::new();
        let entsize = self.entsize.max(1) as usize;
        let mut at = 0usize;
        while at < data.len() {
            let len = if self.is_strings() {
                // a string ends with an entsize-wide zero
                let mut end = at;
                loop {
                    if end + entsize > data.len() {
                        end = data.len();
                        break;
                    }
                    if data[end..end + entsize].iter().all(|&b| b == 0) {
                        end += entsize;
                        break;
                    }
                    end += entsize;
                }
                end - at
            } else {
                entsize.min(data.len() - at)
            };
            let id = self.add_piece(&data[at..at + len]);
            pieces.push((at as u64, id, len as u64));
            at += len;
        }
        pieces
    }

    /// Lays the pieces out shard by shard.
    fn finish(&mut self) {
        let mut offsets = vec![0u64; self.pieces.len()];
        let mut data = Vec::new();
        for shard in 0..SHARDS {
            let start = align_up(data.len() as u64, self.align) as usize;
            let mut any = false;
            for (id, (bytes, s)) in self.pieces.iter().enumerate() {
                if *s != shard {
                    continue;
                }
                if !any {
                    data.resize(start, 0);
                    any = true;
                }
                offsets[id] = data.len() as u64;
                data.extend_from_slice(bytes);
            }
        }
        self.offsets = offsets;
        self.data = data;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Note,
    DynTables,
    ReadOnly,
    Exec,
    Relro,
    RelroPadding,
    Data,
    Bss,
    NonAlloc,
    Tables,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Synthetic {
    None,
    DynSym,
    GnuHash,
    Hash,
    DynStr,
    RelaDyn,
    Dynamic,
    Got,
    RelroPadding,
    SymTab,
    ShStrTab,
    StrTab,
}

#[derive(Clone, Debug)]
struct OutSection {
    name: Vec<u8>,
    sh_type: u32,
    flags: u64,
    align: u64,
    entsize: Option<u64>,
    members: Vec<Member>,
    data: Vec<u8>,
    nobits: u64,
    synthetic: Synthetic,
    rank: Rank,
    addr: u64,
    offset: u64,
    link: Option<Synthetic>,
    info: u32,
}

impl OutSection {
    fn new(name: &[u8], sh_type: u32, flags: u64, synthetic: Synthetic, rank: Rank) -> Self {
        OutSection {
            name: name.to_vec(),
            sh_type,
            flags,
            align: 1,
            entsize: None,
            members: Vec::new(),
            data: Vec::new(),
            nobits: 0,
            synthetic,
            rank,
            addr: 0,
            offset: 0,
            link: None,
            info: 0,
        }
    }

    fn size(&self) -> u64 {
        if self.sh_type == SHT_NOBITS {
            self.nobits
        } else {
            self.data.len() as u64
        }
    }

    fn is_alloc(&self) -> bool {
        self.flags & SHF_ALLOC != 0
    }

    fn perm(&self) -> u32 {
        let mut p = PF_R;
        if self.flags & SHF_WRITE != 0 {
            p |= PF_W;
        }
        if self.flags & SHF_EXECINSTR != 0 {
            p |= PF_X;
        }
        p
    }
}

fn rank_of(name: &[u8], sh_type: u32, flags: u64) -> Rank {
    if flags & SHF_ALLOC == 0 {
        Rank::NonAlloc
    } else if sh_type == SHT_NOTE {
        Rank::Note
    } else if flags & SHF_EXECINSTR != 0 {
        Rank::Exec
    } else if flags & SHF_WRITE == 0 {
        Rank::ReadOnly
    } else if name == b".data.rel.ro" {
        Rank::Relro
    } else if sh_type == SHT_NOBITS {
        Rank::Bss
    } else {
        Rank::Data
    }
}

/// A symbol as the output sees it.
#[derive(Clone, Debug)]
struct Global<'a> {
    name: &'a [u8],
    /// (file, symbol index) of the definition in force.
    def: Option<(usize, usize)>,
    weak_def: bool,
    /// The most constraining visibility of all its occurrences.
    visibility: u8,
    /// Every occurrence is weak.
    all_weak: bool,
    /// First file mentioning it.
    first_file: usize,
    /// First relocation referring to it.
    first_ref: Option<Place>,
}

impl Global<'_> {
    fn is_local(&self) -> bool {
        matches!(self.visibility, STV_HIDDEN | STV_INTERNAL)
    }
}

/// What an input symbol index stands for.
#[derive(Clone, Copy, Debug)]
enum SymRef {
    Null,
    /// A local (or section) symbol of the file.
    Local,
    Global(usize),
}

/// The resolved target of a relocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Target {
    /// A file's local symbol (file, symbol index).
    Local(usize, usize),
    Global(usize),
}

/// An `R_AMDGPU_ABS64` that stays for the loader.
struct DynReloc {
    /// The static entry (made `R_AMDGPU_NONE`) holding its place, target and addend.
    static_index: usize,
    /// Dynamic symbol (global id), or none for a relative relocation.
    symbol: Option<usize>,
}

struct StaticReloc {
    file: usize,
    section: usize,
    offset: u64,
    r_type: u32,
    target: Option<Target>,
    addend: i64,
}

pub(crate) fn link(files: &[InFile<'_>], options: &Options) -> Result<Vec<u8>, LinkError> {
    let first = files.first().ok_or(LinkError::NoInputs)?;
    let target_text = |f: &InFile<'_>| {
        let version = hsaco_target::CodeObjectVersion::for_elf_header(f.os_abi, f.abi_version);
        let name = version
            .and_then(|v| hsaco_target::TargetId::from_e_flags(f.e_flags, v).ok())
            .map(|t| format!("{t} "))
            .unwrap_or_default();
        let version = version.map(|v| format!("code object v{}", v.number()));
        format!(
            "{name}(e_flags {:#x}, {})",
            f.e_flags,
            version.unwrap_or_else(|| format!("OS ABI {} ABI version {}", f.os_abi, f.abi_version))
        )
    };
    for f in &files[1..] {
        if (f.e_flags, f.os_abi, f.abi_version) != (first.e_flags, first.os_abi, first.abi_version)
        {
            return Err(LinkError::TargetMismatch {
                file: f.name.clone(),
                target: target_text(f),
                first_file: first.name.clone(),
                first_target: target_text(first),
            });
        }
    }

    // ---- output sections from the inputs, in order of first appearance
    let mut outs: Vec<OutSection> = Vec::new();
    let mut by_name: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut merges: Vec<MergeGroup> = Vec::new();
    // (output section, flags, entry size, alignment) -> merge group
    let mut merge_of: HashMap<(usize, u64, u64, u64), usize> = HashMap::new();
    let mut placements: Vec<Vec<Placement>> = files
        .iter()
        .map(|f| vec![Placement::None; f.sections.len()])
        .collect();
    let mut comment_out = None;
    for (fi, f) in files.iter().enumerate() {
        for (si, s) in f.sections.iter().enumerate() {
            if !s.keep {
                continue;
            }
            let name = output_name(s.name);
            let oi = match by_name.get(name) {
                Some(&oi) => oi,
                None => {
                    let rank = rank_of(name, s.sh_type, s.flags);
                    outs.push(OutSection::new(name, s.sh_type, 0, Synthetic::None, rank));
                    by_name.insert(name.to_vec(), outs.len() - 1);
                    outs.len() - 1
                }
            };
            if name == b".comment" && comment_out.is_none() {
                comment_out = Some(oi);
            }
            let o = &mut outs[oi];
            if !o.members.is_empty() && o.flags & SHF_ALLOC != s.flags & SHF_ALLOC {
                return Err(LinkError::Unsupported {
                    file: f.name.clone(),
                    message: format!(
                        "section {} mixes allocated and non-allocated or NOBITS inputs",
                        f.section_name(si)
                    ),
                });
            }
            if o.sh_type == SHT_NOBITS && s.sh_type != SHT_NOBITS {
                o.sh_type = s.sh_type;
            }
            o.flags |= s.flags & !(SHF_GROUP | SHF_INFO_LINK | SHF_LINK_ORDER);
            o.align = o.align.max(s.align);
            o.entsize = Some(match o.entsize {
                None => s.entsize,
                Some(e) if e == s.entsize => e,
                Some(_) => 0,
            });
            let mergeable = s.flags & SHF_MERGE != 0 && s.entsize > 0 && s.sh_type == SHT_PROGBITS;
            if mergeable {
                let key = (oi, s.flags, s.entsize, s.align);
                let g = match merge_of.get(&key).copied() {
                    Some(g) => g,
                    None => {
                        let mut group = MergeGroup::new(s.flags, s.entsize, s.align);
                        if name == b".comment" && s.flags & SHF_STRINGS != 0 {
                            if let Some(text) = &options.comment {
                                let mut piece = text.as_bytes().to_vec();
                                piece.push(0);
                                group.add_piece(&piece);
                            }
                        }
                        merges.push(group);
                        o.members.push(Member::Merge(merges.len() - 1));
                        merge_of.insert(key, merges.len() - 1);
                        merges.len() - 1
                    }
                };
                let pieces = merges[g].add_input(s.data);
                merges[g].inputs.push((fi, si, pieces));
            } else {
                o.members.push(Member::Input {
                    file: fi,
                    index: si,
                });
            }
        }
    }
    if comment_out.is_none() {
        if let Some(text) = &options.comment {
            let mut o = OutSection::new(
                b".comment",
                SHT_PROGBITS,
                SHF_MERGE | SHF_STRINGS,
                Synthetic::None,
                Rank::NonAlloc,
            );
            o.entsize = Some(1);
            o.data = [text.as_bytes(), b"\0"].concat();
            outs.push(o);
        }
    }
    for group in &mut merges {
        group.finish();
    }
    // contents of the input-made sections
    for (oi, o) in outs.iter_mut().enumerate() {
        if o.members.is_empty() {
            continue; // made by the linker (.comment without an input one)
        }
        let mut size = 0u64;
        let mut data = Vec::new();
        let nobits = o.sh_type == SHT_NOBITS;
        for m in &o.members {
            match *m {
                Member::Input { file, index } => {
                    let s = &files[file].sections[index];
                    size = align_up(size, s.align);
                    placements[file][index] = Placement::Linear {
                        out: oi,
                        base: size,
                    };
                    if nobits || s.sh_type == SHT_NOBITS {
                        size = size.checked_add(s.size).ok_or_else(|| layout_err("size"))?;
                        if size > u64::from(u32::MAX) {
                            return Err(layout_err("an output section above 4 GiB"));
                        }
                        if !nobits {
                            // zeros written out: bounded, not the 4 GiB a NOBITS size allows
                            if size > MAX_ZERO_FILL {
                                return Err(LinkError::Unsupported {
                                    file: files[file].name.clone(),
                                    message: format!(
                                        "NOBITS section {} of {:#x} bytes in an output section with contents",
                                        files[file].section_name(index),
                                        s.size
                                    ),
                                });
                            }
                            data.resize(size as usize, 0);
                        }
                    } else {
                        data.resize(size as usize, 0);
                        data.extend_from_slice(s.data);
                        size += s.data.len() as u64;
                    }
                }
                Member::Merge(g) => {
                    let group = &merges[g];
                    size = align_up(size, group.align);
                    data.resize(size as usize, 0);
                    for (file, index, pieces) in &group.inputs {
                        placements[*file][*index] = Placement::Merged {
                            out: oi,
                            pieces: pieces
                                .iter()
                                .map(|&(i, id, l)| (i, group.offsets[id as usize] + size, l))
                                .collect(),
                        };
                    }
                    data.extend_from_slice(&group.data);
                    size += group.data.len() as u64;
                }
            }
            if size > u64::from(u32::MAX) {
                return Err(layout_err("an output section above 4 GiB"));
            }
        }
        if nobits {
            o.nobits = size;
        } else {
            o.data = data;
        }
    }

    // ---- symbols
    let mut globals: Vec<Global<'_>> = Vec::new();
    let mut global_ids: HashMap<&[u8], usize> = HashMap::new();
    let mut refs: Vec<Vec<SymRef>> = Vec::with_capacity(files.len());
    for (fi, f) in files.iter().enumerate() {
        let mut file_refs = Vec::with_capacity(f.symbols.len());
        for (i, s) in f.symbols.iter().enumerate() {
            if i == 0 {
                file_refs.push(SymRef::Null);
                continue;
            }
            if s.shndx == SHN_COMMON || s.st_type() == STT_COMMON {
                return Err(LinkError::Unsupported {
                    file: f.name.clone(),
                    message: format!("common symbol {}", String::from_utf8_lossy(s.name)),
                });
            }
            if s.shndx >= SHN_LORESERVE && s.shndx != SHN_ABS {
                return Err(LinkError::Unsupported {
                    file: f.name.clone(),
                    message: format!(
                        "symbol {} in special section {:#x}",
                        String::from_utf8_lossy(s.name),
                        s.shndx
                    ),
                });
            }
            if s.bind() == STB_LOCAL {
                file_refs.push(SymRef::Local);
                continue;
            }
            if s.bind() != STB_GLOBAL && s.bind() != STB_WEAK {
                return Err(LinkError::Unsupported {
                    file: f.name.clone(),
                    message: format!(
                        "symbol {} with binding {}",
                        String::from_utf8_lossy(s.name),
                        s.bind()
                    ),
                });
            }
            // a definition in a discarded section (a COMDAT group kept from an
            // earlier file) is a reference to the kept one
            let defined = s.shndx == SHN_ABS
                || s.shndx != SHN_UNDEF && placements[fi][usize::from(s.shndx)].out().is_some();
            let gid = *global_ids.entry(s.name).or_insert_with(|| {
                globals.push(Global {
                    name: s.name,
                    def: None,
                    weak_def: false,
                    visibility: STV_DEFAULT,
                    all_weak: true,
                    first_file: fi,
                    first_ref: None,
                });
                globals.len() - 1
            });
            let g = &mut globals[gid];
            let vis = s.visibility();
            if vis != STV_DEFAULT
                && (g.visibility == STV_DEFAULT
                    || (vis != STV_PROTECTED && g.visibility == STV_PROTECTED))
            {
                g.visibility = if vis == STV_INTERNAL { STV_HIDDEN } else { vis };
            }
            let weak = s.bind() == STB_WEAK;
            g.all_weak &= weak;
            if defined {
                match g.def {
                    None => {
                        g.def = Some((fi, i));
                        g.weak_def = weak;
                    }
                    Some((df, di)) => {
                        if !weak && !g.weak_def {
                            return Err(LinkError::Duplicate {
                                name: String::from_utf8_lossy(s.name).into_owned(),
                                first: Box::new(files[df].symbol_place(di)),
                                second: Box::new(f.symbol_place(i)),
                            });
                        }
                        if !weak && g.weak_def {
                            g.def = Some((fi, i));
                            g.weak_def = false;
                        }
                    }
                }
            }
            file_refs.push(SymRef::Global(gid));
        }
        refs.push(file_refs);
    }
    let def_symbol = |g: &Global<'_>| -> Option<(usize, &InSymbol<'_>)> {
        g.def.map(|(f, i)| (f, &files[f].symbols[i]))
    };

    // ---- relocation scan: GOT entries and dynamic relocations
    // in a shared object every exported symbol of default visibility can be
    // preempted by the loader, defined or not
    let is_preemptible =
        |g: &Global<'_>| -> bool { !g.is_local() && g.visibility != STV_PROTECTED };
    // undefined symbols, named with their first reference
    for (fi, f) in files.iter().enumerate() {
        for (target_section, list) in &f.relocs {
            for r in list {
                if let Some(SymRef::Global(g)) = refs[fi].get(r.symbol as usize) {
                    if globals[*g].first_ref.is_none() {
                        globals[*g].first_ref = Some(f.place(*target_section, r.offset));
                    }
                }
            }
        }
    }
    let undefined: Vec<UndefinedSymbol> = globals
        .iter()
        .filter(|g| g.def.is_none() && !g.all_weak)
        .map(|g| UndefinedSymbol {
            name: String::from_utf8_lossy(g.name).into_owned(),
            visibility: match g.visibility {
                STV_HIDDEN | STV_INTERNAL => "hidden",
                STV_PROTECTED => "protected",
                _ => "",
            },
            referenced_by: g.first_ref.clone().unwrap_or(Place {
                file: files[g.first_file].name.clone(),
                section: String::new(),
                offset: 0,
            }),
        })
        .collect();
    if !undefined.is_empty() {
        return Err(LinkError::Undefined(undefined));
    }
    let mut got: Vec<Target> = Vec::new();
    let mut got_index: HashMap<Target, usize> = HashMap::new();
    let mut dyn_relocs: Vec<DynReloc> = Vec::new();
    let mut statics: Vec<StaticReloc> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for (target_section, list) in &f.relocs {
            let ts = &f.sections[*target_section];
            let alloc = ts.flags & SHF_ALLOC != 0;
            for r in list {
                let place = f.place(*target_section, r.offset);
                let target = match refs[fi].get(r.symbol as usize) {
                    Some(SymRef::Null) | None => None,
                    Some(SymRef::Local) => Some(Target::Local(fi, r.symbol as usize)),
                    Some(SymRef::Global(g)) => Some(Target::Global(*g)),
                };
                if let Some(Target::Local(file, index)) = target {
                    let s = &files[file].symbols[index];
                    if s.shndx != SHN_ABS
                        && s.shndx != SHN_UNDEF
                        && placements[file][usize::from(s.shndx)].out().is_none()
                    {
                        return Err(LinkError::Relocation {
                            place,
                            message: format!(
                                "relocation against a symbol in discarded section {}",
                                files[file].section_name(usize::from(s.shndx))
                            ),
                        });
                    }
                }
                let preemptible = match target {
                    Some(Target::Global(g)) => is_preemptible(&globals[g]),
                    _ => false,
                };
                let absolute = match target {
                    None => true,
                    Some(Target::Local(file, index)) => files[file].symbols[index].shndx == SHN_ABS,
                    Some(Target::Global(g)) => {
                        !preemptible
                            && def_symbol(&globals[g]).is_some_and(|(_, s)| s.shndx == SHN_ABS)
                    }
                };
                let name = || match target {
                    None => String::new(),
                    Some(Target::Local(file, index)) => {
                        String::from_utf8_lossy(files[file].symbols[index].name).into_owned()
                    }
                    Some(Target::Global(g)) => {
                        String::from_utf8_lossy(globals[g].name).into_owned()
                    }
                };
                let statik = StaticReloc {
                    file: fi,
                    section: *target_section,
                    offset: r.offset,
                    r_type: r.r_type,
                    target,
                    addend: r.addend,
                };
                let width = match r.r_type {
                    R_AMDGPU_ABS64 | R_AMDGPU_REL64 => 8,
                    R_AMDGPU_REL16 => 2,
                    R_AMDGPU_NONE => 0,
                    _ => 4,
                };
                if r.offset.checked_add(width).is_none_or(|end| end > ts.size)
                    || ts.sh_type == SHT_NOBITS && width > 0
                {
                    return Err(LinkError::Relocation {
                        place,
                        message: format!(
                            "relocation {} out of the section's bounds",
                            RelocType(r.r_type)
                        ),
                    });
                }
                let cannot = |place: Place| LinkError::Relocation {
                    place,
                    message: format!(
                        "relocation {} cannot be used against symbol '{}'; recompile with -fPIC",
                        RelocType(r.r_type),
                        name()
                    ),
                };
                match r.r_type {
                    R_AMDGPU_NONE => {}
                    R_AMDGPU_REL32 | R_AMDGPU_REL32_LO | R_AMDGPU_REL32_HI | R_AMDGPU_REL64
                    | R_AMDGPU_REL16 => {
                        if preemptible && alloc {
                            return Err(cannot(place));
                        }
                        statics.push(statik);
                    }
                    R_AMDGPU_ABS32_LO | R_AMDGPU_ABS32_HI => {
                        return Err(LinkError::Relocation {
                            place,
                            message: format!(
                                "relocation {} against symbol '{}' is not supported (nor by ld.lld)",
                                RelocType(r.r_type),
                                name()
                            ),
                        });
                    }
                    R_AMDGPU_ABS32 => {
                        if alloc && !absolute {
                            return Err(cannot(place));
                        }
                        statics.push(statik);
                    }
                    R_AMDGPU_ABS64 => {
                        if !alloc || absolute {
                            statics.push(statik);
                        } else if ts.flags & SHF_WRITE == 0 {
                            // the loader would have to write into read-only memory
                            return Err(cannot(place));
                        } else {
                            let symbol = match target {
                                Some(Target::Global(g)) if preemptible => Some(g),
                                _ => None,
                            };
                            statics.push(StaticReloc {
                                r_type: R_AMDGPU_NONE,
                                ..statik
                            });
                            dyn_relocs.push(DynReloc {
                                static_index: statics.len() - 1,
                                symbol,
                            });
                        }
                    }
                    R_AMDGPU_GOTPCREL | R_AMDGPU_GOTPCREL32_LO | R_AMDGPU_GOTPCREL32_HI => {
                        let Some(t) = target else {
                            return Err(cannot(place));
                        };
                        if let std::collections::hash_map::Entry::Vacant(e) = got_index.entry(t) {
                            e.insert(got.len());
                            got.push(t);
                        }
                        statics.push(statik);
                    }
                    other => {
                        return Err(LinkError::Relocation {
                            place,
                            message: format!("relocation type {} not supported", RelocType(other)),
                        })
                    }
                }
            }
        }
    }
    // ---- dynamic symbols: exported definitions and the preemptible references
    let mut dynamic: Vec<usize> = Vec::new();
    for (gid, g) in globals.iter().enumerate() {
        let exported = g.def.is_some() && !g.is_local();
        // an undefined (weak) symbol is for the loader to find, referenced or not
        let undefined_ref = g.def.is_none() && !g.is_local();
        if exported || undefined_ref {
            dynamic.push(gid);
        }
    }
    let mut dynstr = hsaco_elf::elf::write::StringTable::new();
    let mut dynstr_off: HashMap<usize, u32> = HashMap::new();
    for &gid in &dynamic {
        dynstr_off.insert(gid, dynstr.add(globals[gid].name));
    }
    // .gnu.hash order: undefined first (not hashed), then by bucket, stably
    let n_hashed = dynamic
        .iter()
        .filter(|&&g| globals[g].def.is_some())
        .count();
    let nbuckets = (n_hashed / 4).max(1) as u32;
    let mut order: Vec<usize> = dynamic
        .iter()
        .copied()
        .filter(|&g| globals[g].def.is_none())
        .collect();
    let n_undef = order.len();
    let mut hashed: Vec<(u32, usize)> = dynamic
        .iter()
        .copied()
        .filter(|&g| globals[g].def.is_some())
        .map(|g| (hash::gnu(globals[g].name), g))
        .collect();
    hashed.sort_by_key(|&(h, _)| h % nbuckets);
    order.extend(hashed.iter().map(|&(_, g)| g));
    let dynsym_index: HashMap<usize, u32> = order
        .iter()
        .enumerate()
        .map(|(i, &g)| (g, i as u32 + 1))
        .collect();
    let gnu_hash = {
        let maskwords = {
            let x = (n_hashed * 12 / 64) as u64;
            (x + 1).next_power_of_two() as u32
        };
        let shift2 = 26u32;
        let mut d = Vec::new();
        for v in [nbuckets, n_undef as u32 + 1, maskwords, shift2] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        let mut bloom = vec![0u64; maskwords as usize];
        for &(h, _) in &hashed {
            let word = ((h / 64) % maskwords) as usize;
            bloom[word] |= (1u64 << (h % 64)) | (1u64 << ((h >> shift2) % 64));
        }
        for w in bloom {
            d.extend_from_slice(&w.to_le_bytes());
        }
        let mut buckets = vec![0u32; nbuckets as usize];
        for (i, &(h, _)) in hashed.iter().enumerate().rev() {
            buckets[(h % nbuckets) as usize] = (n_undef + 1 + i) as u32;
        }
        for b in buckets {
            d.extend_from_slice(&b.to_le_bytes());
        }
        for (i, &(h, _)) in hashed.iter().enumerate() {
            let last = hashed
                .get(i + 1)
                .is_none_or(|&(next, _)| next % nbuckets != h % nbuckets);
            let v = if last { h | 1 } else { h & !1 };
            d.extend_from_slice(&v.to_le_bytes());
        }
        d
    };
    let sysv_hash = {
        let n = order.len() as u32 + 1;
        let mut buckets = vec![0u32; n as usize];
        let mut chains = vec![0u32; n as usize];
        for (i, &g) in order.iter().enumerate() {
            let idx = i as u32 + 1;
            let b = (hash::sysv(globals[g].name) % n) as usize;
            chains[idx as usize] = buckets[b];
            buckets[b] = idx;
        }
        let mut d = Vec::new();
        d.extend_from_slice(&n.to_le_bytes());
        d.extend_from_slice(&n.to_le_bytes());
        for v in buckets.into_iter().chain(chains) {
            d.extend_from_slice(&v.to_le_bytes());
        }
        d
    };

    // ---- the synthetic sections and the final order
    let synth = |name: &[u8], sh_type, flags, kind, rank, align, entsize: u64| {
        let mut o = OutSection::new(name, sh_type, flags, kind, rank);
        o.align = align;
        o.entsize = Some(entsize);
        o
    };
    let mut all: Vec<OutSection> = Vec::new();
    let mut dynsym = synth(
        b".dynsym",
        SHT_DYNSYM,
        SHF_ALLOC,
        Synthetic::DynSym,
        Rank::DynTables,
        8,
        24,
    );
    dynsym.data = vec![0; (order.len() + 1) * 24];
    dynsym.link = Some(Synthetic::DynStr);
    dynsym.info = 1;
    all.push(dynsym);
    let mut gh = synth(
        b".gnu.hash",
        SHT_GNU_HASH,
        SHF_ALLOC,
        Synthetic::GnuHash,
        Rank::DynTables,
        8,
        0,
    );
    gh.data = gnu_hash;
    gh.link = Some(Synthetic::DynSym);
    all.push(gh);
    let mut h = synth(
        b".hash",
        SHT_HASH,
        SHF_ALLOC,
        Synthetic::Hash,
        Rank::DynTables,
        4,
        4,
    );
    h.data = sysv_hash;
    h.link = Some(Synthetic::DynSym);
    all.push(h);
    let mut ds = synth(
        b".dynstr",
        SHT_STRTAB,
        SHF_ALLOC,
        Synthetic::DynStr,
        Rank::DynTables,
        1,
        0,
    );
    ds.data = dynstr.bytes().to_vec();
    all.push(ds);
    let n_dyn_relocs = dyn_relocs.len()
        + got
            .iter()
            .filter(|t| match t {
                Target::Global(g) => {
                    !is_absolute_global(&globals[*g], files) || is_preemptible(&globals[*g])
                }
                Target::Local(f, i) => files[*f].symbols[*i].shndx != SHN_ABS,
            })
            .count();
    if n_dyn_relocs > 0 {
        let mut rd = synth(
            b".rela.dyn",
            SHT_RELA,
            SHF_ALLOC,
            Synthetic::RelaDyn,
            Rank::DynTables,
            8,
            24,
        );
        rd.data = vec![0; n_dyn_relocs * 24];
        rd.link = Some(Synthetic::DynSym);
        all.push(rd);
    }
    let n_relative = dyn_relocs.iter().filter(|r| r.symbol.is_none()).count()
        + got
            .iter()
            .filter(|t| match t {
                Target::Global(g) => {
                    !is_preemptible(&globals[*g]) && !is_absolute_global(&globals[*g], files)
                }
                Target::Local(f, i) => files[*f].symbols[*i].shndx != SHN_ABS,
            })
            .count();
    let mut dynamic_tags: Vec<u64> = Vec::new();
    if n_dyn_relocs > 0 {
        dynamic_tags.extend([DT_RELA, DT_RELASZ, DT_RELAENT]);
        if n_relative > 0 {
            dynamic_tags.push(DT_RELACOUNT);
        }
    }
    dynamic_tags.extend([
        DT_SYMTAB,
        DT_SYMENT,
        DT_STRTAB,
        DT_STRSZ,
        DT_GNU_HASH,
        DT_HASH,
        DT_NULL,
    ]);
    let mut dy = synth(
        b".dynamic",
        SHT_DYNAMIC,
        SHF_ALLOC | SHF_WRITE,
        Synthetic::Dynamic,
        Rank::Relro,
        8,
        16,
    );
    dy.data = vec![0; dynamic_tags.len() * 16];
    dy.link = Some(Synthetic::DynStr);
    all.push(dy);
    if !got.is_empty() {
        let mut g = synth(
            b".got",
            SHT_PROGBITS,
            SHF_ALLOC | SHF_WRITE,
            Synthetic::Got,
            Rank::Relro,
            8,
            0,
        );
        g.data = vec![0; got.len() * 8];
        all.push(g);
    }
    let mut rp = synth(
        b".relro_padding",
        SHT_NOBITS,
        SHF_ALLOC | SHF_WRITE,
        Synthetic::RelroPadding,
        Rank::RelroPadding,
        1,
        0,
    );
    rp.nobits = 0;
    all.push(rp);
    // input-made sections: keep their order of appearance within each rank
    let n_synthetic_alloc = all.len();
    let mut input_index: Vec<usize> = vec![usize::MAX; outs.len()];
    for (oi, o) in outs.into_iter().enumerate() {
        input_index[oi] = all.len();
        all.push(o);
    }
    let mut symtab = synth(
        b".symtab",
        SHT_SYMTAB,
        0,
        Synthetic::SymTab,
        Rank::Tables,
        8,
        24,
    );
    symtab.link = Some(Synthetic::StrTab);
    all.push(symtab);
    all.push(synth(
        b".shstrtab",
        SHT_STRTAB,
        0,
        Synthetic::ShStrTab,
        Rank::Tables,
        1,
        0,
    ));
    all.push(synth(
        b".strtab",
        SHT_STRTAB,
        0,
        Synthetic::StrTab,
        Rank::Tables,
        1,
        0,
    ));
    // stable sort by rank
    let mut perm: Vec<usize> = (0..all.len()).collect();
    perm.sort_by_key(|&i| {
        let o = &all[i];
        // the dynamic tables lead the read-only part; in RELRO, .data.rel.ro comes
        // before .dynamic and .got
        let synthetic = o.synthetic != Synthetic::None;
        let synthetic_first = if synthetic == (o.rank != Rank::Relro) {
            0
        } else {
            1
        };
        (
            o.rank,
            synthetic_first,
            if i < n_synthetic_alloc {
                i
            } else {
                usize::MAX / 2 + i
            },
        )
    });
    let mut new_pos = vec![0usize; all.len()];
    for (pos, &i) in perm.iter().enumerate() {
        new_pos[i] = pos;
    }
    let mut sorted: Vec<Option<OutSection>> = all.into_iter().map(Some).collect();
    let mut secs: Vec<OutSection> = perm
        .iter()
        .map(|&i| {
            sorted[i]
                .take()
                .unwrap_or_else(|| OutSection::new(b"", 0, 0, Synthetic::None, Rank::Tables))
        })
        .collect();
    let out_of_input: Vec<usize> = input_index.iter().map(|&i| new_pos[i]).collect();
    let pos_of =
        |secs: &[OutSection], kind: Synthetic| secs.iter().position(|s| s.synthetic == kind);

    // ---- layout of the allocated sections
    let alloc_count = secs.iter().filter(|s| s.is_alloc()).count();
    // program headers: PHDR, one LOAD per permission run (the relro run ends at the
    // padding), DYNAMIC, GNU_RELRO, GNU_STACK, NOTE per note run
    let mut loads: Vec<(usize, usize)> = Vec::new(); // [start, end) section positions
    {
        let mut start = 0usize;
        for i in 1..=alloc_count {
            let boundary = i == alloc_count
                || secs[i].perm() != secs[i - 1].perm()
                || secs[i - 1].synthetic == Synthetic::RelroPadding;
            if boundary {
                loads.push((start, i));
                start = i;
            }
        }
    }
    let note_runs: Vec<(usize, usize)> = {
        let mut runs = Vec::new();
        let mut i = 0;
        while i < alloc_count {
            if secs[i].sh_type == SHT_NOTE {
                let start = i;
                while i < alloc_count
                    && secs[i].sh_type == SHT_NOTE
                    && secs[i].align == secs[start].align
                {
                    i += 1;
                }
                runs.push((start, i));
            } else {
                i += 1;
            }
        }
        runs
    };
    let phnum = 1 + loads.len() + 1 + 1 + 1 + note_runs.len();
    let headers_end = 64 + 56 * phnum as u64;
    let mut va = headers_end;
    let mut off = headers_end;
    for (li, &(start, end)) in loads.iter().enumerate() {
        if li > 0 {
            va = align_up(va, PAGE) + (off % PAGE);
        }
        for s in &mut secs[start..end] {
            if s.synthetic == Synthetic::RelroPadding {
                s.addr = va;
                s.offset = off;
                s.nobits = align_up(va, PAGE) - va;
                va += s.nobits;
                continue;
            }
            let aligned = align_up(va, s.align);
            if s.sh_type == SHT_NOBITS {
                s.addr = aligned;
                s.offset = off;
                va = aligned
                    .checked_add(s.nobits)
                    .ok_or_else(|| layout_err("address overflow"))?;
            } else {
                off += aligned - va;
                s.addr = aligned;
                s.offset = off;
                va = aligned + s.size();
                off += s.size();
            }
            if va > u64::from(u32::MAX) {
                return Err(layout_err("addresses above 4 GiB"));
            }
        }
    }
    let alloc_file_end = off;

    // ---- symbol values
    let section_value =
        |file: usize, shndx: u16, value: u64, secs: &[OutSection]| -> Option<(usize, u64)> {
            if shndx == SHN_ABS {
                return Some((usize::MAX, value));
            }
            let p = &placements[file][usize::from(shndx)];
            let o = out_of_input[p.out()?];
            Some((o, secs[o].addr.wrapping_add(p.map(value)?)))
        };
    let sym_value = |file: usize, s: &InSymbol<'_>, secs: &[OutSection]| -> (usize, u64) {
        if s.shndx == SHN_UNDEF {
            return (usize::MAX - 1, 0);
        }
        section_value(file, s.shndx, s.value, secs).unwrap_or((usize::MAX - 1, 0))
    };
    let target_value = |t: Option<Target>, addend: i64, secs: &[OutSection]| -> u64 {
        match t {
            None => 0,
            Some(Target::Local(f, i)) => {
                let s = &files[f].symbols[i];
                if s.st_type() == STT_SECTION && s.shndx != SHN_ABS && s.shndx != SHN_UNDEF {
                    // a section symbol addresses the piece at value + addend
                    let at = (s.value as i64).wrapping_add(addend) as u64;
                    if let Some((_, v)) = section_value(f, s.shndx, at, secs) {
                        return v.wrapping_sub(addend as u64);
                    }
                }
                sym_value(f, s, secs).1
            }
            Some(Target::Global(g)) => match globals[g].def {
                Some((f, i)) => sym_value(f, &files[f].symbols[i], secs).1,
                None => 0,
            },
        }
    };
    let got_pos = pos_of(&secs, Synthetic::Got);
    let got_addr = got_pos.map(|p| secs[p].addr).unwrap_or(0);

    // ---- static relocations
    for r in &statics {
        let p_section = match placements[r.file][r.section] {
            Placement::Linear { out, base } => (out_of_input[out], base + r.offset),
            _ => {
                return Err(LinkError::Unsupported {
                    file: files[r.file].name.clone(),
                    message: "relocations in merged sections".into(),
                })
            }
        };
        let o = p_section.0;
        let p = secs[o].addr.wrapping_add(p_section.1);
        let s = target_value(r.target, r.addend, &secs);
        let sa = s.wrapping_add(r.addend as u64);
        let g = |t: Option<Target>| -> u64 {
            t.and_then(|t| got_index.get(&t))
                .map(|&i| got_addr + 8 * i as u64)
                .unwrap_or(0)
        };
        let (value, width): (u64, usize) = match r.r_type {
            R_AMDGPU_NONE => continue,
            R_AMDGPU_ABS32_LO => (sa & 0xffff_ffff, 4),
            R_AMDGPU_ABS32_HI => (sa >> 32, 4),
            R_AMDGPU_ABS64 => (sa, 8),
            R_AMDGPU_ABS32 => (sa, 4),
            R_AMDGPU_REL32 => (sa.wrapping_sub(p), 4),
            R_AMDGPU_REL64 => (sa.wrapping_sub(p), 8),
            R_AMDGPU_REL32_LO => (sa.wrapping_sub(p) & 0xffff_ffff, 4),
            R_AMDGPU_REL32_HI => (sa.wrapping_sub(p) >> 32, 4),
            R_AMDGPU_REL16 => {
                let v = (sa.wrapping_sub(p) as i64).wrapping_sub(4) / 4;
                if !(-0x8000..=0x7fff).contains(&v) {
                    return Err(LinkError::Relocation {
                        place: files[r.file].place(r.section, r.offset),
                        message: format!("R_AMDGPU_REL16 out of range: {v}"),
                    });
                }
                (v as u64, 2)
            }
            R_AMDGPU_GOTPCREL => (g(r.target).wrapping_add(r.addend as u64).wrapping_sub(p), 4),
            R_AMDGPU_GOTPCREL32_LO => (
                g(r.target).wrapping_add(r.addend as u64).wrapping_sub(p) & 0xffff_ffff,
                4,
            ),
            R_AMDGPU_GOTPCREL32_HI => (
                g(r.target).wrapping_add(r.addend as u64).wrapping_sub(p) >> 32,
                4,
            ),
            _ => continue,
        };
        if r.r_type == R_AMDGPU_ABS32 || r.r_type == R_AMDGPU_REL32 || r.r_type == R_AMDGPU_GOTPCREL
        {
            let signed = value as i64;
            if r.r_type != R_AMDGPU_ABS32 && i32::try_from(signed).is_err()
                || r.r_type == R_AMDGPU_ABS32
                    && u32::try_from(value).is_err()
                    && i32::try_from(signed).is_err()
            {
                return Err(LinkError::Relocation {
                    place: files[r.file].place(r.section, r.offset),
                    message: format!(
                        "relocation {} out of range: {:#x}",
                        RelocType(r.r_type),
                        value
                    ),
                });
            }
        }
        let at = p_section.1 as usize;
        let data = &mut secs[o].data;
        data[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
    }

    // ---- dynamic relocations: relative ones first, then the symbolic ones
    let rela_pos = pos_of(&secs, Synthetic::RelaDyn);
    let mut relas: Vec<(u64, u32, u32, i64)> = Vec::new();
    for (i, t) in got.iter().enumerate() {
        let at = got_addr + 8 * i as u64;
        match *t {
            Target::Global(g) if is_preemptible(&globals[g]) => {
                relas.push((
                    at,
                    R_AMDGPU_ABS64,
                    dynsym_index.get(&g).copied().unwrap_or(0),
                    0,
                ));
            }
            t => {
                let v = target_value(Some(t), 0, &secs);
                let absolute = match t {
                    Target::Global(g) => is_absolute_global(&globals[g], files),
                    Target::Local(f, i) => files[f].symbols[i].shndx == SHN_ABS,
                };
                // the entry holds the address itself only when no relocation will
                if absolute {
                    if let Some(p) = got_pos {
                        secs[p].data[8 * i..8 * i + 8].copy_from_slice(&v.to_le_bytes());
                    }
                } else {
                    relas.push((at, R_AMDGPU_RELATIVE64, 0, v as i64));
                }
            }
        }
    }
    for d in &dyn_relocs {
        let r = &statics[d.static_index];
        let Placement::Linear { out, base } = placements[r.file][r.section] else {
            continue;
        };
        let at = secs[out_of_input[out]]
            .addr
            .wrapping_add(base)
            .wrapping_add(r.offset);
        match d.symbol {
            Some(g) => relas.push((
                at,
                R_AMDGPU_ABS64,
                dynsym_index.get(&g).copied().unwrap_or(0),
                r.addend,
            )),
            None => {
                let v = target_value(r.target, r.addend, &secs).wrapping_add(r.addend as u64);
                relas.push((at, R_AMDGPU_RELATIVE64, 0, v as i64));
            }
        }
    }
    // relative relocations first, by address; then the symbolic ones by symbol
    relas.sort_by_key(|&(at, r_type, sym, _)| (r_type != R_AMDGPU_RELATIVE64, sym, at));
    if let Some(p) = rela_pos {
        let mut data = Vec::with_capacity(relas.len() * 24);
        for &(at, r_type, sym, addend) in &relas {
            encode_rela64(&mut data, at, sym, r_type, addend);
        }
        secs[p].data = data;
    }

    // ---- .dynsym and .dynamic
    let index_of = |secs: &[OutSection], o: usize| -> u16 {
        if o == usize::MAX {
            SHN_ABS
        } else if o >= secs.len() {
            SHN_UNDEF
        } else {
            (o + 1) as u16
        }
    };
    {
        let mut data = vec![0u8; 24];
        data.truncate(0);
        encode_symbol64(&mut data, 0, 0, 0, 0, 0, 0);
        for &g in &order {
            let gl = &globals[g];
            let (shndx, value, size, st_type, bind) = match gl.def {
                Some((f, i)) => {
                    let s = &files[f].symbols[i];
                    let (o, v) = sym_value(f, s, &secs);
                    (index_of(&secs, o), v, s.size, s.st_type(), s.bind())
                }
                None => (
                    SHN_UNDEF,
                    0,
                    0,
                    STT_NOTYPE,
                    if gl.all_weak { STB_WEAK } else { STB_GLOBAL },
                ),
            };
            encode_symbol64(
                &mut data,
                dynstr_off[&g],
                (bind << 4) | st_type,
                gl.visibility,
                shndx,
                value,
                size,
            );
        }
        let p = pos_of(&secs, Synthetic::DynSym).ok_or_else(|| layout_err("no .dynsym"))?;
        secs[p].data = data;
    }
    {
        let addr = |k: Synthetic| pos_of(&secs, k).map(|p| secs[p].addr).unwrap_or(0);
        let size = |k: Synthetic| pos_of(&secs, k).map(|p| secs[p].size()).unwrap_or(0);
        let mut data = Vec::new();
        for &tag in &dynamic_tags {
            let value = match tag {
                DT_RELA => addr(Synthetic::RelaDyn),
                DT_RELASZ => size(Synthetic::RelaDyn),
                DT_RELAENT => 24,
                DT_RELACOUNT => n_relative as u64,
                DT_SYMTAB => addr(Synthetic::DynSym),
                DT_SYMENT => 24,
                DT_STRTAB => addr(Synthetic::DynStr),
                DT_STRSZ => size(Synthetic::DynStr),
                DT_GNU_HASH => addr(Synthetic::GnuHash),
                DT_HASH => addr(Synthetic::Hash),
                _ => 0,
            };
            data.extend_from_slice(&tag.to_le_bytes());
            data.extend_from_slice(&value.to_le_bytes());
        }
        let p = pos_of(&secs, Synthetic::Dynamic).ok_or_else(|| layout_err("no .dynamic"))?;
        secs[p].data = data;
    }

    // ---- .symtab: per file its locals then the globals it defines that stay
    // local, then _DYNAMIC, then the other globals
    let dynamic_pos = pos_of(&secs, Synthetic::Dynamic).ok_or_else(|| layout_err("no .dynamic"))?;
    // the locals each file keeps: not section symbols, not in discarded sections, not
    // `.L` names in mergeable sections
    let kept_locals: Vec<Vec<usize>> = files
        .iter()
        .enumerate()
        .map(|(fi, f)| {
            f.symbols
                .iter()
                .enumerate()
                .skip(1)
                .filter(|(_, s)| {
                    if s.bind() != STB_LOCAL || s.st_type() == STT_SECTION {
                        return false;
                    }
                    if s.shndx == SHN_ABS || s.shndx == SHN_UNDEF {
                        return true;
                    }
                    let index = usize::from(s.shndx);
                    if placements[fi][index].out().is_none() {
                        return false;
                    }
                    !(s.name.starts_with(b".L") && f.sections[index].flags & SHF_MERGE != 0)
                })
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    // names in the order symbols were met: every file's locals, then the globals,
    // then _DYNAMIC (the table itself puts the locals first)
    let mut strtab: Vec<u8> = vec![0];
    let mut add_str = |name: &[u8]| -> u32 {
        if name.is_empty() {
            return 0;
        }
        let at = strtab.len() as u32;
        strtab.extend_from_slice(name);
        strtab.push(0);
        at
    };
    let local_names: Vec<Vec<u32>> = kept_locals
        .iter()
        .enumerate()
        .map(|(fi, list)| {
            list.iter()
                .map(|&i| add_str(files[fi].symbols[i].name))
                .collect()
        })
        .collect();
    let global_names: Vec<u32> = globals.iter().map(|g| add_str(g.name)).collect();
    let dynamic_name = add_str(b"_DYNAMIC");
    let mut symtab = Vec::new();
    encode_symbol64(&mut symtab, 0, 0, 0, 0, 0, 0);
    let mut count = 1u32;
    let mut local_globals_by_file: Vec<Vec<usize>> = vec![Vec::new(); files.len()];
    for (gid, g) in globals.iter().enumerate() {
        if g.is_local() {
            // with the defining file, or (undefined weak) the first file naming it
            let f = g.def.map_or(g.first_file, |(f, _)| f);
            local_globals_by_file[f].push(gid);
        }
    }
    let global_entry = |gid: usize, secs: &[OutSection], local: bool| -> (u8, u8, u16, u64, u64) {
        let g = &globals[gid];
        match g.def {
            Some((f, i)) => {
                let s = &files[f].symbols[i];
                let (o, v) = sym_value(f, s, secs);
                let bind = if local { STB_LOCAL } else { s.bind() };
                (
                    (bind << 4) | s.st_type(),
                    g.visibility | (s.other & !3),
                    index_of(secs, o),
                    v,
                    s.size,
                )
            }
            None => {
                let bind = if local {
                    STB_LOCAL
                } else if g.all_weak {
                    STB_WEAK
                } else {
                    STB_GLOBAL
                };
                (bind << 4, g.visibility, SHN_UNDEF, 0, 0)
            }
        }
    };
    for (fi, f) in files.iter().enumerate() {
        for (k, &i) in kept_locals[fi].iter().enumerate() {
            let s = &f.symbols[i];
            let (o, v) = sym_value(fi, s, &secs);
            encode_symbol64(
                &mut symtab,
                local_names[fi][k],
                s.info,
                s.other,
                index_of(&secs, o),
                v,
                s.size,
            );
            count += 1;
        }
        for &gid in &local_globals_by_file[fi] {
            let (info, other, shndx, value, size) = global_entry(gid, &secs, true);
            encode_symbol64(
                &mut symtab,
                global_names[gid],
                info,
                other,
                shndx,
                value,
                size,
            );
            count += 1;
        }
    }
    encode_symbol64(
        &mut symtab,
        dynamic_name,
        (STB_LOCAL << 4) | STT_NOTYPE,
        STV_HIDDEN,
        index_of(&secs, dynamic_pos),
        secs[dynamic_pos].addr,
        0,
    );
    count += 1;
    let first_global = count;
    for (gid, g) in globals.iter().enumerate() {
        if g.is_local() {
            continue;
        }
        let (info, other, shndx, value, size) = global_entry(gid, &secs, false);
        encode_symbol64(
            &mut symtab,
            global_names[gid],
            info,
            other,
            shndx,
            value,
            size,
        );
    }
    let symtab_pos = pos_of(&secs, Synthetic::SymTab).ok_or_else(|| layout_err("no .symtab"))?;
    secs[symtab_pos].data = symtab;
    secs[symtab_pos].info = first_global;
    let strtab_pos = pos_of(&secs, Synthetic::StrTab).ok_or_else(|| layout_err("no .strtab"))?;
    secs[strtab_pos].data = strtab;

    // ---- .shstrtab and the non-allocated sections' offsets
    let mut shstrtab = hsaco_elf::elf::write::StringTable::new();
    let name_offsets: Vec<u32> = secs.iter().map(|s| shstrtab.add(&s.name)).collect();
    let shstrtab_pos =
        pos_of(&secs, Synthetic::ShStrTab).ok_or_else(|| layout_err("no .shstrtab"))?;
    secs[shstrtab_pos].data = shstrtab.bytes().to_vec();
    let mut off = alloc_file_end;
    for s in secs.iter_mut().skip(alloc_count) {
        off = align_up(off, s.align);
        s.offset = off;
        off += s.size();
    }
    let shoff = align_up(off, 8);

    // ---- program headers
    let mut segments = Vec::with_capacity(phnum);
    segments.push(SegmentSpec {
        p_type: PT_PHDR,
        flags: PF_R,
        offset: 64,
        vaddr: 64,
        filesz: headers_end - 64,
        memsz: headers_end - 64,
        align: 8,
    });
    let span =
        |secs: &[OutSection], start: usize, end: usize, from_zero: bool| -> (u64, u64, u64, u64) {
            let (offset, vaddr) = if from_zero {
                (0, 0)
            } else {
                (secs[start].offset, secs[start].addr)
            };
            let mut file_end = offset;
            let mut mem_end = vaddr;
            for s in &secs[start..end] {
                if s.sh_type != SHT_NOBITS {
                    file_end = file_end.max(s.offset + s.size());
                }
                mem_end = mem_end.max(s.addr + s.size());
            }
            (offset, vaddr, file_end - offset, mem_end - vaddr)
        };
    for (li, &(start, end)) in loads.iter().enumerate() {
        let (offset, vaddr, filesz, memsz) = span(&secs, start, end, li == 0);
        segments.push(SegmentSpec {
            p_type: PT_LOAD,
            flags: secs[start].perm(),
            offset,
            vaddr,
            filesz,
            memsz,
            align: PAGE,
        });
    }
    let dy = &secs[dynamic_pos];
    segments.push(SegmentSpec {
        p_type: PT_DYNAMIC,
        flags: PF_R | PF_W,
        offset: dy.offset,
        vaddr: dy.addr,
        filesz: dy.size(),
        memsz: dy.size(),
        align: 8,
    });
    {
        let relro: Vec<usize> = (0..alloc_count)
            .filter(|&i| matches!(secs[i].rank, Rank::Relro | Rank::RelroPadding))
            .collect();
        let (start, end) = (relro[0], relro[relro.len() - 1] + 1);
        let (offset, vaddr, filesz, memsz) = span(&secs, start, end, false);
        segments.push(SegmentSpec {
            p_type: PT_GNU_RELRO,
            flags: PF_R,
            offset,
            vaddr,
            filesz,
            memsz,
            align: 1,
        });
    }
    segments.push(SegmentSpec {
        p_type: PT_GNU_STACK,
        flags: PF_R | PF_W,
        offset: 0,
        vaddr: 0,
        filesz: 0,
        memsz: 0,
        align: 0,
    });
    for &(start, end) in &note_runs {
        let (offset, vaddr, filesz, memsz) = span(&secs, start, end, false);
        segments.push(SegmentSpec {
            p_type: PT_NOTE,
            flags: PF_R,
            offset,
            vaddr,
            filesz,
            memsz,
            align: secs[start].align,
        });
    }

    // ---- write
    let pos_link = |secs: &[OutSection], k: Option<Synthetic>| -> Link {
        match k.and_then(|k| pos_of(secs, k)) {
            Some(p) => Link::Section(SectionId(p)),
            None => Link::None,
        }
    };
    let mut b = Builder::new(ET_DYN, first.os_abi, first.abi_version, first.e_flags);
    for s in &secs {
        b.add_section(SectionSpec {
            name: String::from_utf8_lossy(&s.name).into_owned(),
            sh_type: s.sh_type,
            flags: s.flags,
            addr: Some(s.addr),
            data: s.data.clone(),
            nobits_size: s.nobits,
            align: s.align,
            entsize: s.entsize.unwrap_or(0),
            link: pos_link(&secs, s.link),
            info: if s.info == 0 {
                Link::None
            } else {
                Link::Raw(s.info)
            },
        });
    }
    let fixed = FixedLayout {
        offsets: secs.iter().map(|s| s.offset).collect(),
        name_offsets,
        shstrndx: Some(SectionId(shstrtab_pos)),
        segments,
        shoff,
    };
    b.write_fixed(&fixed)
        .map_err(|e| LinkError::Layout(e.message.into_owned()))
}

fn is_absolute_global(g: &Global<'_>, files: &[InFile<'_>]) -> bool {
    g.def
        .is_some_and(|(f, i)| files[f].symbols[i].shndx == SHN_ABS)
}
