//! The end of a run: descriptors, fixups and relocations, the symbol table, notes,
//! and the ELF file (hsaco-elf's writer).

use std::collections::HashMap;

use hsaco_elf::elf::consts::*;
use hsaco_elf::elf::write::{
    Builder, RelocSpec, SectionId, SectionSpec, SymbolSection, SymbolSpec,
};
use hsaco_elf::msgpack::Value as Mp;
use hsaco_elf::note::NoteRecord;

use crate::expr::{self, Value};
use crate::{Asm, Assembled, Diagnostics, PendingKind, Reloc, RelocTarget, RelocVariant};

fn reloc_type(variant: RelocVariant, size: u8) -> Option<u32> {
    Some(match variant {
        RelocVariant::None => match size {
            4 => R_AMDGPU_ABS32,
            8 => R_AMDGPU_ABS64,
            _ => return None,
        },
        RelocVariant::Abs32Lo => R_AMDGPU_ABS32_LO,
        RelocVariant::Abs32Hi => R_AMDGPU_ABS32_HI,
        RelocVariant::Rel32Lo => R_AMDGPU_REL32_LO,
        RelocVariant::Rel32Hi => R_AMDGPU_REL32_HI,
        RelocVariant::Rel64 => R_AMDGPU_REL64,
        RelocVariant::GotPcRel => R_AMDGPU_GOTPCREL,
        RelocVariant::GotPcRel32Lo => R_AMDGPU_GOTPCREL32_LO,
        RelocVariant::GotPcRel32Hi => R_AMDGPU_GOTPCREL32_HI,
    })
}

fn is_temporary(name: &str) -> bool {
    name.starts_with(".L")
}

/// Turn the evaluated value of a fixup into a relocation target.
fn target_of(a: &mut Asm<'_>, v: Value) -> Option<(RelocTarget, i64, RelocVariant)> {
    match v {
        Value::Abs(_) => None,
        Value::Rel {
            section,
            offset,
            label,
        } => {
            let merge = a
                .sections
                .get(section)
                .is_some_and(|s| s.flags & SHF_MERGE != 0);
            if let Some(l) = label.filter(|l| {
                a.syms.get(l).is_some_and(|s| {
                    matches!(s.bind, Some(STB_GLOBAL | STB_WEAK))
                        || merge && s.label.is_some_and(|x| x.1 as i64 != offset)
                })
            }) {
                let label_off = a.syms[&l].label.map_or(0, |x| x.1 as i64);
                a.sym(&l).used_in_reloc = true;
                return Some((
                    RelocTarget::Symbol(l),
                    offset.wrapping_sub(label_off),
                    RelocVariant::None,
                ));
            }
            Some((RelocTarget::Section(section), offset, RelocVariant::None))
        }
        Value::Sym {
            name,
            addend,
            variant,
        } => {
            // a defined label with a variant: relocate against it (or its section)
            let label = a.syms.get(&name).and_then(|s| s.label.map(|l| (l, s.bind)));
            // LLVM keeps the symbol for a non-zero addend into a mergeable section
            let merge = |sec: usize| {
                a.sections
                    .get(sec)
                    .is_some_and(|s| s.flags & SHF_MERGE != 0)
                    && addend != 0
            };
            match label {
                Some(((sec, off), bind))
                    if !matches!(bind, Some(STB_GLOBAL | STB_WEAK))
                        && sec != usize::MAX
                        && !merge(sec) =>
                {
                    Some((
                        RelocTarget::Section(sec),
                        (off as i64).wrapping_add(addend),
                        variant,
                    ))
                }
                _ => {
                    a.sym(&name).used_in_reloc = true;
                    Some((RelocTarget::Symbol(name), addend, variant))
                }
            }
        }
    }
}

pub(crate) fn finish(a: &mut Asm<'_>) -> Result<Assembled, Diagnostics> {
    let fixups = std::mem::take(&mut a.fixups);
    let mut relocs = Vec::new();
    for f in &fixups {
        let v = match expr::eval(&f.expr, a, 0) {
            Ok(v) => v,
            Err(m) => {
                a.error(f.at.0, f.at.1.clone(), m);
                continue;
            }
        };
        let off = f.offset as usize;
        match f.kind {
            PendingKind::Branch16 => match v {
                Value::Rel {
                    section, offset, ..
                } if section == f.section => {
                    let delta = offset.wrapping_sub(f.offset as i64 + 4);
                    let words = delta / 4;
                    if delta % 4 != 0 || !(-32768..=32767).contains(&words) {
                        a.error(f.at.0, f.at.1.clone(), "branch target out of range");
                        continue;
                    }
                    let b = (words as i16).to_le_bytes();
                    a.sections[f.section].data[off..off + 2].copy_from_slice(&b);
                }
                _ => a.error(
                    f.at.0,
                    f.at.1.clone(),
                    "branch target must be a label in the same section",
                ),
            },
            PendingKind::Data(_) | PendingKind::Literal32 if matches!(v, Value::Abs(_)) => {
                let Value::Abs(n) = v else { continue };
                let size = if let PendingKind::Data(s) = f.kind {
                    s
                } else {
                    4
                };
                let b = n.to_le_bytes();
                a.sections[f.section].data[off..off + size as usize]
                    .copy_from_slice(&b[..size as usize]);
            }
            PendingKind::Data(_) | PendingKind::Literal32 | PendingKind::KdEntry => {
                let size = match f.kind {
                    PendingKind::Data(s) => s,
                    PendingKind::KdEntry => 8,
                    _ => 4,
                };
                let Some((target, mut addend, variant)) = target_of(a, v) else {
                    continue;
                };
                let r_type = if f.kind == PendingKind::KdEntry {
                    addend = addend.wrapping_add(16);
                    R_AMDGPU_REL64
                } else {
                    match reloc_type(variant, size) {
                        Some(t) => t,
                        None => {
                            a.error(
                                f.at.0,
                                f.at.1.clone(),
                                "this value needs a relocation that does not exist for its size",
                            );
                            continue;
                        }
                    }
                };
                relocs.push(Reloc {
                    section: f.section,
                    offset: f.offset,
                    r_type,
                    target,
                    addend,
                });
            }
        }
    }
    if !a.errors.is_empty() {
        return Err(Diagnostics(std::mem::take(&mut a.errors)));
    }
    let e_flags = match a.effective_target().to_e_flags(a.code_object_version()) {
        Ok(f) => f,
        Err(e) => {
            a.error(0, 0..0, format!("cannot write e_flags: {e}"));
            return Err(Diagnostics(std::mem::take(&mut a.errors)));
        }
    };
    let abi = a.code_object_version().abi_version();
    let mut b = Builder::new(ET_REL, ELFOSABI_AMDGPU_HSA, abi, e_flags);

    // .comment
    if let Some(i) = a.sections.iter().position(|s| s.name == ".comment") {
        let mut d = vec![0u8];
        for id in &a.idents {
            d.extend_from_slice(id.as_bytes());
            d.push(0);
        }
        a.sections[i].data = d;
    }
    // LLVM writes the metadata note before .llvm_addrsig
    let addrsig_index = a.sections.iter().position(|s| s.name == ".llvm_addrsig");
    let mut order: Vec<usize> = (0..a.sections.len())
        .filter(|&i| Some(i) != addrsig_index)
        .collect();
    let mut sec_map = vec![SectionId(0); a.sections.len()];
    let mut pending_note = None;
    let mut notes: Vec<NoteRecord> = a
        .v2_notes
        .iter()
        .map(|(t, d)| NoteRecord::new(NOTE_OWNER_AMD, *t, d.clone()))
        .collect();
    if let Some(yaml) = a.metadata.clone() {
        match metadata_msgpack(&yaml) {
            Ok(bytes) => {
                notes.push(NoteRecord::new(
                    NOTE_OWNER_AMDGPU,
                    NT_AMDGPU_METADATA,
                    bytes,
                ));
            }
            Err(m) => {
                a.error(0, 0..0, format!("invalid .amdgpu_metadata: {m}"));
                return Err(Diagnostics(std::mem::take(&mut a.errors)));
            }
        }
    }
    // The code object v2 directives write their notes at once, so LLVM's `.note`
    // section sits where the first of them appeared (after `.text`); the v3+
    // metadata note is written at the end.
    let note_before = if a.v2_notes.is_empty() {
        addrsig_index
    } else {
        a.v2_note_position
    };
    if !notes.is_empty() {
        pending_note = Some(SectionSpec::notes(".note", SHF_ALLOC, &notes));
    }
    order.extend(addrsig_index);
    for i in order {
        if Some(i) == note_before {
            if let Some(n) = pending_note.take() {
                b.add_section(n);
            }
        }
        let s = &a.sections[i];
        let spec = if s.sh_type == SHT_NOBITS {
            SectionSpec::nobits(&s.name, s.flags, s.align, s.nobits)
        } else {
            let mut p = SectionSpec::progbits(&s.name, s.flags, s.align, s.data.clone());
            p.sh_type = s.sh_type;
            p.entsize = s.entsize;
            if s.sh_type == 0x6fff_4c03 {
                p.link = hsaco_elf::elf::write::Link::Symtab;
            }
            p
        };
        sec_map[i] = b.add_section(spec);
    }
    if let Some(n) = pending_note.take() {
        b.add_section(n);
    }

    // symbols, in order of first mention
    let mut names: Vec<(usize, String)> =
        a.syms.iter().map(|(n, s)| (s.order, n.clone())).collect();
    names.sort();
    let mut ids: HashMap<String, hsaco_elf::elf::write::SymbolId> = HashMap::new();
    let mut section_syms: HashMap<usize, hsaco_elf::elf::write::SymbolId> = HashMap::new();
    let mut used_sections: Vec<usize> = relocs
        .iter()
        .filter_map(|r| match r.target {
            RelocTarget::Section(s) => Some(s),
            RelocTarget::Symbol(_) => None,
        })
        .collect();
    used_sections.sort();
    used_sections.dedup();
    for n in std::mem::take(&mut a.addrsig_names) {
        if let Some(s) = a.syms.get_mut(&n) {
            s.addrsig = true;
        }
    }
    // section symbols take the place of the section's creation among the symbols
    enum Entry {
        Section(usize),
        Symbol(String),
    }
    let mut entries: Vec<(usize, Entry)> = names
        .into_iter()
        .map(|(o, n)| (o, Entry::Symbol(n)))
        .chain(
            used_sections
                .iter()
                .map(|&s| (a.sections[s].order, Entry::Section(s))),
        )
        .collect();
    entries.sort_by_key(|e| e.0);
    for (_, entry) in entries {
        let name = match entry {
            Entry::Section(s) => {
                section_syms.insert(
                    s,
                    b.add_symbol(SymbolSpec {
                        name: String::new(),
                        value: 0,
                        size: 0,
                        st_type: STT_SECTION,
                        bind: STB_LOCAL,
                        other: 0,
                        section: SymbolSection::Section(sec_map[s]),
                    }),
                );
                continue;
            }
            Entry::Symbol(n) => n,
        };
        if (is_temporary(&name) && !a.syms[&name].used_in_reloc) || name.is_empty() {
            continue;
        }
        let s = a.syms[&name].clone();
        // a variable that is a label plus a constant takes the label's type and size
        let mut base: Option<crate::Symbol> = None;
        let (section, value) = if let Some((sec, off)) = s.label {
            if sec == usize::MAX {
                (SymbolSection::Raw(SHN_AMDGPU_LDS), off)
            } else {
                (SymbolSection::Section(sec_map[sec]), off)
            }
        } else if let Some(e) = &s.var {
            match expr::eval(e, a, 0) {
                Ok(Value::Abs(v)) => (SymbolSection::Absolute, v as u64),
                Ok(Value::Rel {
                    section,
                    offset,
                    label,
                }) => {
                    base = label.and_then(|l| a.syms.get(&l).cloned());
                    (SymbolSection::Section(sec_map[section]), offset as u64)
                }
                Ok(Value::Sym { .. }) => continue,
                Err(_) => continue,
            }
        } else {
            (SymbolSection::Undefined, 0)
        };
        let size_expr = s
            .size
            .clone()
            .or_else(|| base.as_ref().and_then(|b| b.size.clone()));
        let st_type = s.st_type.or_else(|| base.as_ref().and_then(|b| b.st_type));
        let size = match &size_expr {
            Some(e) => match expr::eval(e, a, 0) {
                Ok(Value::Abs(v)) => v as u64,
                _ => 0,
            },
            None => 0,
        };
        let bind = match s.bind {
            Some(bd) => bd,
            None if section == SymbolSection::Undefined => STB_GLOBAL,
            None => STB_LOCAL,
        };
        let id = b.add_symbol(SymbolSpec {
            name: name.clone(),
            value,
            size,
            st_type: st_type.unwrap_or(STT_NOTYPE),
            bind,
            other: s.visibility,
            section,
        });
        ids.insert(name, id);
    }
    // .rela sections in the order of their target sections, as LLVM writes them
    relocs.sort_by_key(|r| sec_map[r.section].0);
    for r in &relocs {
        let symbol = match &r.target {
            RelocTarget::Symbol(n) => ids.get(n).copied(),
            RelocTarget::Section(s) => section_syms.get(s).copied(),
        };
        b.add_relocation(
            sec_map[r.section],
            RelocSpec {
                offset: r.offset,
                r_type: r.r_type,
                symbol,
                addend: r.addend,
            },
        );
    }
    // .llvm_addrsig: ULEB128 symbol indices
    if let Some(i) = a.sections.iter().position(|s| s.name == ".llvm_addrsig") {
        let idx = b.symbol_indices();
        let mut order: Vec<(usize, u32)> = Vec::new();
        for (name, id) in &ids {
            if a.syms[name].addrsig {
                order.push((a.syms[name].order, idx[id.0]));
            }
        }
        order.sort();
        let mut d = Vec::new();
        for (_, mut v) in order {
            loop {
                let byte = (v & 0x7f) as u8;
                v >>= 7;
                if v == 0 {
                    d.push(byte);
                    break;
                }
                d.push(byte | 0x80);
            }
        }
        if let Some(s) = b.section_mut(sec_map[i]) {
            s.data = d;
        }
    }
    b.always_symtab = true;
    match b.write_llvm_object() {
        Ok(object) => Ok(Assembled {
            object,
            listing: std::mem::take(&mut a.listing),
            warnings: std::mem::take(&mut a.warnings),
        }),
        Err(e) => {
            a.error(0, 0..0, format!("cannot write the object: {e}"));
            Err(Diagnostics(std::mem::take(&mut a.errors)))
        }
    }
}

/// The MessagePack form of `.amdgpu_metadata` YAML: maps sorted by key, as LLVM's
/// `msgpack::Document` orders them.
pub(crate) fn metadata_msgpack(yaml: &str) -> Result<Vec<u8>, String> {
    let v = hsaco_elf::yaml::parse(yaml).map_err(|e| e.to_string())?;
    let v = sort_maps(v);
    Ok(hsaco_elf::msgpack::encode(&v))
}

fn sort_maps(v: Mp<'static>) -> Mp<'static> {
    match v {
        Mp::Map(entries) => {
            let mut e: Vec<(Mp<'static>, Mp<'static>)> = entries
                .into_iter()
                .map(|(k, v)| (k, sort_maps(v)))
                .collect();
            e.sort_by(|x, y| key_bytes(&x.0).cmp(key_bytes(&y.0)));
            Mp::Map(e)
        }
        Mp::Array(items) => Mp::Array(items.into_iter().map(sort_maps).collect()),
        other => other,
    }
}

fn key_bytes<'a>(v: &'a Mp<'_>) -> &'a [u8] {
    v.as_str_bytes().unwrap_or(&[])
}
