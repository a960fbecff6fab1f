//! What `hsaco read` shows of one code object, gathered once and rendered as text or
//! JSON.

use super::short_flags;
use hsaco_elf::elf::consts::SHT_NOBITS;
use hsaco_elf::{CodeObject, KernelSymbol};
use hsaco_target::{Processor, TargetIdForm};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// One code object, read.
pub struct ObjectView<'a> {
    co: CodeObject<'a>,
    kernels: Vec<KernelSymbol<'a>>,
    errors: Vec<String>,
}

impl<'a> ObjectView<'a> {
    pub fn new(co: &CodeObject<'a>) -> Self {
        let mut errors = Vec::new();
        let kernels = co.kernels().unwrap_or_else(|e| {
            errors.push(format!("symbol table: {e}"));
            Vec::new()
        });
        ObjectView {
            co: *co,
            kernels,
            errors,
        }
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The metadata exactly as llvm-readelf --notes prints it.
    pub fn metadata_text(&self) -> String {
        String::new()
    }

    /// The kernel descriptors as llvm-objdump prints them.
    pub fn kernel_descriptor_text(&self) -> String {
        String::new()
    }

    /// The default report.
    pub fn summary(&self, out: &mut String, kernargs: bool) {
        let elf = &self.co.elf;
        let h = elf.header();
        let _ = writeln!(
            out,
            "{} {}, {}, OS ABI {} version {}",
            if elf.is_64() { "ELF64" } else { "ELF32" },
            h.e_machine,
            h.e_type,
            h.os_abi,
            h.abi_version
        );
        match self.co.version() {
            Some(v) => {
                let _ = writeln!(out, "code object v{v}");
            }
            None => {
                let _ = writeln!(out, "code object version: not an HSA code object");
            }
        }
        match self.co.target_id() {
            Ok(t) => {
                let p = t.processor;
                let _ = writeln!(
                    out,
                    "target {} (e_flags {:#010x}; {:?}, {})",
                    t.format(TargetIdForm::Full),
                    h.e_flags,
                    p.generation,
                    wave_sizes(p)
                );
            }
            Err(e) => {
                let _ = writeln!(out, "target unknown (e_flags {:#010x}: {e})", h.e_flags);
            }
        }
        self.sections_text(out);
        let _ = writeln!(out, "kernels: {}", self.kernels.len());
        for k in &self.kernels {
            match &k.descriptor {
                Ok(d) => {
                    let _ = writeln!(out, "  {} (descriptor at {:#x})", k.name, d.address());
                }
                Err(e) => {
                    let _ = writeln!(out, "  {} (descriptor unreadable: {e})", k.name);
                }
            }
        }
        let _ = kernargs;
    }

    fn sections_text(&self, out: &mut String) {
        let _ = writeln!(out, "sections:");
        let _ = writeln!(
            out,
            "  {:>3} {:<24} {:<14} {:>10} {:>10} {:>10}  flags",
            "nr", "name", "type", "address", "offset", "size"
        );
        for s in self.co.elf.sections() {
            match s {
                Ok(s) => {
                    let _ = writeln!(
                        out,
                        "  {:>3} {:<24} {:<14} {:>#10x} {:>#10x} {:>#10x}  {}",
                        s.index,
                        s.name_str(),
                        s.sh_type.to_string(),
                        s.addr,
                        s.offset,
                        s.size,
                        short_flags(s.flags)
                    );
                }
                Err(e) => {
                    let _ = writeln!(out, "  error: {e}");
                }
            }
        }
    }

    pub fn notes_text(&self, out: &mut String) {
        let _ = writeln!(out, "notes:");
        for n in self.co.elf.notes() {
            match n {
                Ok(n) => {
                    let detail = n
                        .decode()
                        .map(|d| d.to_string())
                        .unwrap_or_else(|e| format!("error: {e}"));
                    let _ = writeln!(
                        out,
                        "  {:<8} {:>#8x} bytes  {}{}{}",
                        String::from_utf8_lossy(n.owner),
                        n.desc.len(),
                        n.kind(),
                        if detail.is_empty() { "" } else { "  " },
                        first_line(&detail)
                    );
                }
                Err(e) => {
                    let _ = writeln!(out, "  error: {e}");
                }
            }
        }
    }

    pub fn symbols_text(&self, out: &mut String) {
        for table in [self.co.elf.symtab(), self.co.elf.dynsym()] {
            let table = match table {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => {
                    let _ = writeln!(out, "symbols: error: {e}");
                    continue;
                }
            };
            let _ = writeln!(
                out,
                "symbols ({}, {} entries):",
                table.section().name_str(),
                table.len()
            );
            let _ = writeln!(
                out,
                "  {:>4} {:>18} {:>6} {:<22} {:<10} {:<12} {:>5} name",
                "nr", "value", "size", "type", "bind", "visibility", "shndx"
            );
            for sym in table.iter() {
                match sym {
                    Ok(s) => {
                        let _ = writeln!(
                            out,
                            "  {:>4} {:#018x} {:>6} {:<22} {:<10} {:<12} {:>5} {}",
                            s.index,
                            s.value,
                            s.size,
                            s.st_type().to_string(),
                            s.bind().to_string(),
                            s.visibility().to_string(),
                            shndx_name(s.shndx),
                            s.name_str()
                        );
                    }
                    Err(e) => {
                        let _ = writeln!(out, "  error: {e}");
                    }
                }
            }
        }
    }

    pub fn relocations_text(&self, out: &mut String) {
        for table in self.co.elf.relocation_tables() {
            let table = match table {
                Ok(t) => t,
                Err(e) => {
                    let _ = writeln!(out, "relocations: error: {e}");
                    continue;
                }
            };
            let symbols = self
                .co
                .elf
                .section(table.symbol_table_index())
                .and_then(|s| self.co.elf.symbol_table(&s));
            let _ = writeln!(
                out,
                "relocations ({}, {} entries):",
                table.section().name_str(),
                table.len()
            );
            for r in table.iter() {
                let name = match &symbols {
                    Ok(t) if r.symbol != 0 => t
                        .get(r.symbol as usize)
                        .map(|s| s.name_str().into_owned())
                        .unwrap_or_else(|e| format!("<bad symbol: {e}>")),
                    _ => String::new(),
                };
                let _ = writeln!(
                    out,
                    "  {:#018x} {:<22} {}{}",
                    r.offset,
                    r.r_type.to_string(),
                    name,
                    if r.has_addend {
                        format!(" {:+#x}", r.addend)
                    } else {
                        String::new()
                    }
                );
            }
        }
    }

    pub fn to_json(&self) -> Value {
        let elf = &self.co.elf;
        let h = elf.header();
        let sections: Vec<Value> = elf
            .sections()
            .filter_map(|s| s.ok())
            .map(|s| {
                json!({
                    "index": s.index, "name": s.name_str(), "type": s.sh_type.to_string(),
                    "flags": s.flags, "address": s.addr, "offset": s.offset, "size": s.size,
                    "align": s.addralign, "entsize": s.entsize, "link": s.link, "info": s.info,
                    "nobits": s.sh_type.0 == SHT_NOBITS,
                })
            })
            .collect();
        let notes: Vec<Value> = elf
            .notes()
            .filter_map(|n| n.ok())
            .map(|n| {
                json!({
                    "owner": String::from_utf8_lossy(n.owner), "type": n.n_type,
                    "type_name": n.kind().name(), "desc_size": n.desc.len(), "desc_offset": n.desc_offset,
                })
            })
            .collect();
        let kernels: Vec<Value> = self
            .kernels
            .iter()
            .map(|k| json!({ "name": k.name, "descriptor_address": k.descriptor.as_ref().ok().map(|d| d.address()) }))
            .collect();
        json!({
            "elf": {
                "class": if elf.is_64() { "ELF64" } else { "ELF32" },
                "type": h.e_type.to_string(), "machine": h.e_machine.to_string(),
                "os_abi": h.os_abi.to_string(), "abi_version": h.abi_version,
                "e_flags": h.e_flags, "entry": h.entry,
            },
            "code_object_version": self.co.version(),
            "target_id": self.co.target_id().ok().map(|t| t.format(TargetIdForm::Full)),
            "processor": self.co.target_id().ok().map(|t| t.processor.name),
            "sections": sections,
            "notes": notes,
            "kernels": kernels,
            "errors": self.errors,
        })
    }
}

/// `st_shndx` as readelf shows the special values.
fn shndx_name(shndx: u16) -> String {
    match shndx {
        0 => "UND".into(),
        0xfff1 => "ABS".into(),
        0xfff2 => "COM".into(),
        0xff00 => "LDS".into(),
        n => n.to_string(),
    }
}

fn wave_sizes(p: &Processor) -> &'static str {
    match (p.supports_wave32(), p.supports_wave64(), p.default_wave_size()) {
        (true, true, 32) => "wave32 (wave64 supported)",
        (true, true, _) => "wave64 (wave32 supported)",
        (true, false, _) => "wave32",
        _ => "wave64",
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
