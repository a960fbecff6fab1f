//! What `hsaco read` shows of objects for the other platforms: PAL metadata (hardware
//! stages and named, decoded registers) and the `.AMDGPU.config` register blocks of
//! r600 and Mesa objects.

use hsaco_elf::config::{self, ProgramConfig};
use hsaco_elf::elf::consts::{NT_AMDGPU_METADATA, NT_AMD_PAL_METADATA};
use hsaco_elf::metadata::pal::{PalMetadata, PalRegister, RegisterField};
use hsaco_elf::note::{AmdNote, NoteOwner};
use hsaco_elf::CodeObject;
use hsaco_target::Processor;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The PAL metadata of the object: from the first `NT_AMDGPU_METADATA` note whose
/// document has `amdpal.pipelines`, else the registers of an `NT_AMD_PAL_METADATA`
/// note (as one pipeline without stages). `None` when there is neither.
fn pal_metadata(co: &CodeObject<'_>) -> Option<PalMetadata> {
    let mut legacy = None;
    for note in co.elf.notes().flatten() {
        match (note.kind().owner, note.n_type) {
            (NoteOwner::Amdgpu, NT_AMDGPU_METADATA) => {
                if let Ok(Some(md)) = PalMetadata::from_msgpack(note.desc) {
                    return Some(md);
                }
            }
            (NoteOwner::Amd, NT_AMD_PAL_METADATA) if legacy.is_none() => {
                if let Ok(AmdNote::PalMetadata(p)) = note.decode() {
                    legacy = Some(PalMetadata {
                        version: None,
                        pipelines: vec![hsaco_elf::metadata::pal::PalPipeline {
                            name: None,
                            pipeline_type: None,
                            stages: Vec::new(),
                            registers: PalMetadata::legacy_registers(p.pairs()),
                            other: vec![(
                                "(from NT_AMD_PAL_METADATA)".into(),
                                "register/value pairs".into(),
                            )],
                        }],
                    });
                }
            }
            _ => {}
        }
    }
    legacy
}

fn processor(co: &CodeObject<'_>) -> Option<&'static Processor> {
    co.target_id().ok().map(|t| t.processor)
}

/// The fields that are not zero, as `NAME=value`.
fn nonzero(fields: &[RegisterField]) -> String {
    fields
        .iter()
        .filter(|f| f.value != 0)
        .map(|f| format!("{}={}", f.name, f.value))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Appends the PAL and `.AMDGPU.config` sections of the report (nothing for an
/// object that has neither).
pub fn summary(co: &CodeObject<'_>, out: &mut String) {
    let p = processor(co);
    if let Some(md) = pal_metadata(co) {
        let _ = write!(out, "PAL metadata: {} pipeline(s)", md.pipelines.len());
        if let Some(v) = &md.version {
            let v: Vec<String> = v.iter().map(u64::to_string).collect();
            let _ = write!(out, ", version {}", v.join("."));
        }
        out.push('\n');
        for (i, pipe) in md.pipelines.iter().enumerate() {
            let _ = write!(out, "  pipeline {i}");
            if let Some(n) = &pipe.name {
                let _ = write!(out, " {n}");
            }
            if let Some(t) = &pipe.pipeline_type {
                let _ = write!(out, " (type {t})");
            }
            out.push('\n');
            for (k, v) in &pipe.other {
                let _ = writeln!(out, "    {k}: {v}");
            }
            if !pipe.stages.is_empty() {
                let _ = writeln!(out, "    hardware stages:");
            }
            for s in &pipe.stages {
                let _ = write!(out, "      {}", s.stage);
                if let Some(e) = &s.entry_point {
                    let _ = write!(out, " entry {e}");
                }
                if let Some(e) = &s.entry_point_symbol {
                    let _ = write!(out, " (symbol {e})");
                }
                out.push('\n');
                let rest: Vec<String> = s
                    .properties
                    .iter()
                    .filter(|(k, _)| k != ".entry_point" && k != ".entry_point_symbol")
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect();
                if !rest.is_empty() {
                    let _ = writeln!(out, "        {}", rest.join(", "));
                }
            }
            let _ = writeln!(out, "    registers: {}", pipe.registers.len());
            for r in &pipe.registers {
                register_line(out, 6, r.offset, r.name, r.value, &r.fields(p), 4);
            }
        }
    }
    let Some(p) = p else { return };
    match config::read(co, p) {
        Ok(Some(blocks)) => {
            let _ = writeln!(
                out,
                "{} (register settings per program): {} block(s)",
                config::SECTION_NAME,
                blocks.len()
            );
            for (i, b) in blocks.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {}",
                    b.function
                        .clone()
                        .unwrap_or_else(|| format!("block {i} (function unknown)"))
                );
                for e in &b.entries {
                    register_line(
                        out,
                        4,
                        e.register,
                        config::register_name(p, e.register),
                        e.value,
                        &config::register_fields(p, e.register, e.value),
                        6,
                    );
                }
            }
        }
        Ok(None) => {}
        Err(e) => {
            let _ = writeln!(out, "{}: error: {e}", config::SECTION_NAME);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn register_line(
    out: &mut String,
    indent: usize,
    register: u32,
    name: Option<&str>,
    value: u32,
    fields: &[RegisterField],
    width: usize,
) {
    let _ = write!(
        out,
        "{:indent$}{register:#0w$x} {:<28} {value:#010x}",
        "",
        name.unwrap_or("(no name)"),
        w = width + 2
    );
    let f = nonzero(fields);
    if !f.is_empty() {
        let _ = write!(out, "  {f}");
    } else if !fields.is_empty() {
        out.push_str("  (all fields 0)");
    }
    out.push('\n');
}

fn register_json(register: u32, name: Option<&str>, value: u32, fields: &[RegisterField]) -> Value {
    json!({
        "register": register,
        "name": name,
        "value": value,
        "fields": fields.iter().map(|f| json!({ "name": f.name, "value": f.value })).collect::<Vec<_>>(),
    })
}

/// Adds the JSON of [`summary`] to an object's JSON `v`: `pal` (pipelines with
/// `hardware_stages` and `registers`) and `amdgpu_config` (blocks of registers),
/// each only when the object has it.
pub fn add_json(co: &CodeObject<'_>, v: &mut Value) {
    let p = processor(co);
    let pal = pal_metadata(co).map(|md| {
        json!({
            "version": md.version,
            "pipelines": md.pipelines.iter().map(|pipe| json!({
                "name": pipe.name,
                "type": pipe.pipeline_type,
                "hardware_stages": pipe.stages.iter().map(|s| json!({
                    "stage": s.stage,
                    "entry_point": s.entry_point,
                    "entry_point_symbol": s.entry_point_symbol,
                    "properties": s.properties.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "registers": pipe.registers.iter().map(|r: &PalRegister| {
                    register_json(r.offset, r.name, r.value, &r.fields(p))
                }).collect::<Vec<_>>(),
                "other": pipe.other.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    });
    let cfg = p
        .and_then(|p| config::read(co, p).ok().flatten().map(|b| (p, b)))
        .map(|(p, blocks): (&Processor, Vec<ProgramConfig>)| {
            Value::Array(
                blocks
                    .iter()
                    .map(|b| {
                        json!({
                            "function": b.function,
                            "registers": b.entries.iter().map(|e| {
                                let mut v = register_json(
                                    e.register,
                                    config::register_name(p, e.register),
                                    e.value,
                                    &config::register_fields(p, e.register, e.value),
                                );
                                v["offset"] = json!(e.offset);
                                v
                            }).collect::<Vec<_>>(),
                        })
                    })
                    .collect(),
            )
        });
    if let Value::Object(m) = v {
        if let Some(pal) = pal {
            m.insert("pal".into(), pal);
        }
        if let Some(cfg) = cfg {
            m.insert("amdgpu_config".into(), cfg);
        }
    }
}
