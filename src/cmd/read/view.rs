//! What `hsaco read` shows of one code object, gathered once and rendered as text or
//! JSON.

use super::short_flags;
use hsaco_abi::{v2_value_kind_to_v3, ArgDesc, KernargLayout};
use hsaco_check::{NameList, TextOptions};
use hsaco_elf::elf::consts::SHT_NOBITS;
use hsaco_elf::elf::consts::{NT_AMDGPU_METADATA, NT_AMD_HSA_METADATA, NT_AMD_PAL_METADATA};
use hsaco_elf::kd::{AmdKernelCode, KdTarget, KernelDescriptor, PrintOptions};
use hsaco_elf::metadata::{pal, readelf_block, to_json, CodeObjectMetadata, KernelMetadata};
use hsaco_elf::note::NoteOwner;
use hsaco_elf::{CodeObject, DescriptorBytes, KernelSymbol};
use hsaco_target::{Processor, TargetIdForm};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// One code object, read.
pub struct ObjectView<'a> {
    co: CodeObject<'a>,
    kernels: Vec<KernelSymbol<'a>>,
    /// Every metadata note: (`n_type`, descriptor).
    metadata_notes: Vec<(u32, &'a [u8])>,
    /// The first metadata note, decoded.
    metadata: Option<CodeObjectMetadata>,
    errors: Vec<String>,
    /// Facts about how the object was read that are no defect (code object v1's
    /// 4-byte padded notes in an 8-aligned section).
    remarks: Vec<String>,
}

impl<'a> ObjectView<'a> {
    pub fn new(co: &CodeObject<'a>) -> Self {
        let mut errors = Vec::new();
        let (kernels, symbol_errors) = co.kernels_partial();
        errors.extend(symbol_errors.iter().map(|e| format!("symbol table: {e}")));
        let mut metadata_notes = Vec::new();
        for note in co.elf.notes() {
            match note {
                Ok(n) => {
                    let is_metadata = matches!(
                        (n.kind().owner, n.n_type),
                        (NoteOwner::Amdgpu, NT_AMDGPU_METADATA)
                            | (NoteOwner::Amd, NT_AMD_HSA_METADATA | NT_AMD_PAL_METADATA)
                    );
                    if is_metadata {
                        metadata_notes.push((n.n_type, n.desc));
                    }
                }
                Err(e) => errors.push(format!("notes: {e}")),
            }
        }
        let metadata = first_document(&metadata_notes).and_then(|(n_type, desc)| {
            let decoded = if n_type == NT_AMDGPU_METADATA {
                CodeObjectMetadata::from_msgpack(desc)
            } else {
                CodeObjectMetadata::from_v2_yaml(desc)
            };
            decoded
                .map_err(|e| errors.push(format!("metadata: {e}")))
                .ok()
        });
        let remarks = co
            .elf
            .repadded_note_sections()
            .iter()
            .map(|s| {
                format!(
                    "{} (sh_addralign 8, at offset {:#x}) holds AMD note records padded to 4 \
                     bytes: read with 4, as the ROCr loader reads them (llvm-readelf-22 \
                     applies 8, warns \"ELF note overflows container\" and misreads them)",
                    s.name_str(),
                    s.offset
                )
            })
            .collect();
        ObjectView {
            co: *co,
            kernels,
            metadata_notes,
            metadata,
            errors,
            remarks,
        }
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The metadata exactly as llvm-readelf --notes prints it: for each metadata
    /// note, the lines under its note header.
    pub fn metadata_text(&self) -> String {
        self.metadata_notes
            .iter()
            .filter_map(|&(n_type, desc)| match n_type {
                NT_AMD_PAL_METADATA => Some(pal::readelf_legacy_block(desc)),
                _ => readelf_block(n_type, desc),
            })
            .collect()
    }

    /// The metadata of a kernel, by `.name` (or `.symbol` = `<name>.kd`).
    fn kernel_metadata(&self, name: &str) -> Option<&KernelMetadata> {
        let kernels = self.metadata.as_ref()?.kernels.as_ref()?;
        kernels.iter().find(|k| {
            k.name.as_deref() == Some(name)
                || k.symbol.as_deref().and_then(|s| s.strip_suffix(".kd")) == Some(name)
        })
    }

    /// The names of the kernels, in address order.
    pub fn kernel_names(&self) -> Vec<String> {
        self.kernels.iter().map(|k| k.name.clone()).collect()
    }

    /// The kernarg layout of a kernel, from its metadata.
    pub fn kernarg_layout(&self, name: &str) -> Option<KernargLayout> {
        let km = self.kernel_metadata(name)?;
        let version = self.co.version().unwrap_or(4);
        let v2_kinds: Vec<String>;
        let args = km.args.as_deref().unwrap_or(&[]);
        let kinds: Vec<&str> = if version == 2 {
            v2_kinds = args
                .iter()
                .map(|a| v2_value_kind_to_v3(a.value_kind.as_deref().unwrap_or("")))
                .collect();
            v2_kinds.iter().map(String::as_str).collect()
        } else {
            args.iter()
                .map(|a| a.value_kind.as_deref().unwrap_or(""))
                .collect()
        };
        // v2 metadata gives sizes and alignments, not offsets: lay them out in order
        let mut next = 0u64;
        let descs: Vec<ArgDesc<'_>> = args
            .iter()
            .zip(&kinds)
            .map(|(a, kind)| {
                let size = a.size.unwrap_or(0);
                let offset = a.offset.unwrap_or_else(|| {
                    let align = a.align.unwrap_or(1).max(1);
                    next.div_ceil(align).saturating_mul(align)
                });
                next = offset.saturating_add(size);
                ArgDesc {
                    name: a.name.as_deref(),
                    type_name: a.type_name.as_deref(),
                    value_kind: kind,
                    offset,
                    size,
                }
            })
            .collect();
        let size = km.kernarg_segment_size.unwrap_or(next);
        Some(KernargLayout::new(&descs, version, size))
    }

    /// The kernel descriptors as llvm-objdump prints them (`<address> <name.kd>:`
    /// and the `.amdhsa_kernel` block), decoded even where reserved bits are set
    /// (those are listed in comments first); `amd_kernel_code_t` blocks for v2.
    /// The `<name.kd>:` lines' names are rendered as `names` asks (demangled:
    /// `<f(int) (.kd)>:`, as llvm-objdump -C; the `.amdhsa_kernel` line keeps the
    /// symbol's name, as there).
    pub fn kernel_descriptor_text(&self, names: &TextOptions) -> String {
        let mut out = String::new();
        for (i, k) in self.kernels.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            match self.descriptor(k) {
                Some(Ok(Descriptor::V3(kd, opts))) => {
                    let _ = writeln!(
                        out,
                        "{:016x} <{}>:",
                        k.descriptor.as_ref().map(|d| d.address()).unwrap_or(0),
                        names.name(&format!("{}.kd", k.name))
                    );
                    for r in kd.reserved_bits(&opts.target) {
                        let _ = writeln!(
                            out,
                            "; reserved bits set: {} bits {}:{} = {:#x} (LLVM 22 refuses to decode: {})",
                            r.field, r.hi, r.lo, r.value, r.llvm_message
                        );
                    }
                    out.push_str(&kd.to_llvm_text(&k.name, &opts));
                }
                Some(Ok(Descriptor::V2(code))) => {
                    let _ = writeln!(
                        out,
                        "{:016x} <{}>:",
                        k.descriptor.as_ref().map(|d| d.address()).unwrap_or(0),
                        names.name(&k.name)
                    );
                    out.push_str(&code.to_directive_text());
                }
                Some(Err(e)) => {
                    let _ = writeln!(out, "; {}: descriptor unreadable: {e}", k.name);
                }
                None => {
                    let _ = writeln!(out, "; {}: target unknown, descriptor not decoded", k.name);
                }
            }
        }
        out
    }

    /// The decoded descriptor of a kernel (`None` when the target is unknown).
    fn descriptor(&self, k: &KernelSymbol<'a>) -> Option<Result<Descriptor, String>> {
        let bytes = match &k.descriptor {
            Ok(d) => *d,
            Err(e) => return Some(Err(e.to_string())),
        };
        Some(match bytes {
            DescriptorBytes::V3 { bytes, .. } => {
                let target = self.co.target_id().ok()?;
                let opts = PrintOptions {
                    target: KdTarget::new(target.processor),
                    code_object_version: self.co.elf.abi_version().saturating_add(2),
                };
                KernelDescriptor::parse(bytes)
                    .map(|kd| Descriptor::V3(kd, opts))
                    .map_err(|e| e.to_string())
            }
            DescriptorBytes::AmdKernelCodeT { bytes, .. } => AmdKernelCode::parse(bytes)
                .map(Descriptor::V2)
                .map_err(|e| e.to_string()),
        })
    }

    /// The default report: each kernel's descriptor and kernargs when there are a
    /// few kernels (or `kernargs`, or `names.verbose`), else the kernels grouped.
    pub fn summary(&self, out: &mut String, kernargs: bool, names: &TextOptions) {
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
            Some(1) => {
                let _ = writeln!(
                    out,
                    "code object v1 (the HSA runtime finalizer's format: .hsatext, \
                     amd_kernel_code_t kernels, no metadata note)"
                );
            }
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
                    t.format_for_os(TargetIdForm::Full, self.co.target_os()),
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
        for r in &self.remarks {
            let _ = writeln!(out, "remark: {r}");
        }
        let detailed = kernargs || names.verbose || self.kernels.len() <= DETAILED_KERNELS;
        let _ = writeln!(
            out,
            "kernels: {}{}",
            self.kernels.len(),
            if !elf.is_64() {
                " (r600 objects have no kernel descriptors: their programs are in .AMDGPU.config)"
            } else if detailed {
                ""
            } else {
                " (each kernel's descriptor and kernargs: --verbose)"
            }
        );
        if let Some(m) = &self.metadata {
            if let Some(v) = &m.version {
                let _ = writeln!(
                    out,
                    "metadata: version {}{}",
                    v.iter().map(u64::to_string).collect::<Vec<_>>().join("."),
                    m.target
                        .as_deref()
                        .map(|t| format!(", target {t}"))
                        .unwrap_or_default()
                );
            }
        }
        if detailed {
            for k in &self.kernels {
                let _ = writeln!(out, "  {}", names.name(&k.name));
                if let Some(d) = self.descriptor_line(k) {
                    let _ = writeln!(out, "    {d}");
                }
                match self.kernarg_layout(&k.name) {
                    Some(layout) if kernargs => kernargs_text(out, &layout),
                    _ => {
                        for line in self.kernarg_lines(k) {
                            let _ = writeln!(out, "    {line}");
                        }
                    }
                }
            }
        } else {
            self.kernels_grouped(out, names);
        }
        super::platform::summary(&self.co, out);
    }

    /// The kernels of a library-sized object: the distinct descriptor and kernarg
    /// summaries with how many kernels share each, then a few names.
    fn kernels_grouped(&self, out: &mut String, names: &TextOptions) {
        let mut descriptors = Tally::default();
        let mut kernargs = Tally::default();
        for k in &self.kernels {
            if let Some(d) = self.descriptor_line(k) {
                descriptors.add(d.strip_prefix("descriptor: ").unwrap_or(&d));
            }
            for line in self.kernarg_lines(k) {
                kernargs.add(line.strip_prefix("kernargs: ").unwrap_or(&line));
            }
        }
        descriptors.write(out, "descriptors");
        kernargs.write(out, "kernargs");
        let _ = writeln!(out, "  names:");
        let all: Vec<String> = self.kernels.iter().map(|k| names.name(&k.name)).collect();
        NameList::new(&all, false).write_block(out, "    ");
    }

    /// The descriptor line of a kernel's summary (`None` when the target is unknown).
    fn descriptor_line(&self, k: &KernelSymbol<'a>) -> Option<String> {
        match self.descriptor(k)? {
            Ok(d) => Some(format!("descriptor: {}", d.summary())),
            Err(e) => Some(format!("descriptor unreadable: {e}")),
        }
    }

    /// The kernarg lines of a kernel's summary: its size and argument counts, then
    /// any problem of the layout.
    fn kernarg_lines(&self, k: &KernelSymbol<'a>) -> Vec<String> {
        let Some(layout) = self.kernarg_layout(&k.name) else {
            return vec!["kernargs: no metadata for this kernel".to_string()];
        };
        let explicit = layout
            .slots
            .iter()
            .filter(|s| s.in_metadata && s.hidden.is_none())
            .count();
        let hidden = layout
            .slots
            .iter()
            .filter(|s| s.in_metadata && s.hidden.is_some())
            .count();
        let mut lines = vec![format!(
            "kernargs: {} B, {explicit} explicit and {hidden} hidden argument(s){}",
            layout.segment_size,
            layout
                .implicit_base
                .map(|b| format!(", implicit block at {b}"))
                .unwrap_or_default()
        )];
        lines.extend(
            layout
                .problems
                .iter()
                .map(|p| format!("kernarg problem: {p}")),
        );
        lines
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
                    // (the producer notes llvm-readelf does not name, by their names)
                    let kind = match (n.kind().name(), n.kind().description()) {
                        (Some(name), None) => name.to_string(),
                        _ => n.kind().to_string(),
                    };
                    let _ = writeln!(
                        out,
                        "  {:<8} {:>#8x} bytes  {}{}{}",
                        String::from_utf8_lossy(n.owner),
                        n.desc.len(),
                        kind,
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

    pub fn symbols_text(&self, out: &mut String, names: &TextOptions) {
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
                            names.name(&s.name_str())
                        );
                    }
                    Err(e) => {
                        let _ = writeln!(out, "  error: {e}");
                    }
                }
            }
        }
    }

    pub fn relocations_text(&self, out: &mut String, names: &TextOptions) {
        for table in self.co.elf.relocation_tables() {
            let table = match table {
                Ok(t) => t,
                Err(e) => {
                    let _ = writeln!(out, "relocations: error: {e}");
                    continue;
                }
            };
            let symbols = super::tables::RelocationSymbols::of(&self.co, &table);
            let _ = writeln!(
                out,
                "relocations ({}, {} entries):",
                table.section().name_str(),
                table.len()
            );
            for r in table.iter() {
                let name = match symbols.name(r.symbol) {
                    Some(Ok(n)) => names.name(&n),
                    Some(Err(e)) => format!("<bad symbol: {e}>"),
                    None => String::new(),
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
            .map(|k| {
                let descriptor = match self.descriptor(k) {
                    Some(Ok(Descriptor::V3(kd, opts))) => json!({
                        "kind": "kernel_descriptor",
                        "bytes": hex(kd.as_bytes()),
                        "group_segment_fixed_size": kd.group_segment_fixed_size(),
                        "private_segment_fixed_size": kd.private_segment_fixed_size(),
                        "kernarg_size": kd.kernarg_size(),
                        "kernel_code_entry_byte_offset": kd.kernel_code_entry_byte_offset(),
                        "compute_pgm_rsrc1": kd.compute_pgm_rsrc1().0,
                        "compute_pgm_rsrc2": kd.compute_pgm_rsrc2().0,
                        "compute_pgm_rsrc3": kd.compute_pgm_rsrc3().0,
                        "kernel_code_properties": kd.kernel_code_properties().0,
                        "wavefront_size32": kd.kernel_code_properties().enable_wavefront_size32(),
                        "reserved_bits": kd.reserved_bits(&opts.target).iter().map(|r| json!({
                            "field": r.field, "hi": r.hi, "lo": r.lo, "value": r.value, "llvm_message": r.llvm_message,
                        })).collect::<Vec<_>>(),
                    }),
                    Some(Ok(Descriptor::V2(code))) => json!({
                        "kind": "amd_kernel_code_t",
                        "bytes": hex(code.as_bytes()),
                        "kernel_code_entry_byte_offset": code.kernel_code_entry_byte_offset(),
                        "compute_pgm_rsrc1": code.compute_pgm_rsrc1(),
                        "compute_pgm_rsrc2": code.compute_pgm_rsrc2(),
                    }),
                    Some(Err(e)) => json!({ "error": e }),
                    None => Value::Null,
                };
                let kernargs = self.kernarg_layout(&k.name).map(|l| {
                    json!({
                        "segment_size": l.segment_size,
                        "implicit_base": l.implicit_base,
                        "slots": l.slots.iter().map(|s| json!({
                            "offset": s.offset, "size": s.size, "name": s.name, "value_kind": s.value_kind,
                            "type_name": s.type_name, "hidden": s.hidden.is_some(), "in_metadata": s.in_metadata,
                            "meaning": s.meaning,
                        })).collect::<Vec<_>>(),
                        "problems": l.problems.iter().map(|p| json!({ "offset": p.offset, "message": p.message })).collect::<Vec<_>>(),
                    })
                });
                json!({
                    "name": k.name,
                    "descriptor_address": k.descriptor.as_ref().ok().map(|d| d.address()),
                    "descriptor": descriptor,
                    "kernargs": kernargs,
                })
            })
            .collect();
        let metadata: Option<Value> =
            first_document(&self.metadata_notes).and_then(|(n_type, desc)| {
                let value = if n_type == NT_AMDGPU_METADATA {
                    hsaco_elf::msgpack::decode(desc).ok()?
                } else {
                    hsaco_elf::yaml::parse_bytes(desc).ok()?
                };
                serde_json::from_str(&to_json(&value)).ok()
            });
        let mut v = json!({
            "elf": {
                "class": if elf.is_64() { "ELF64" } else { "ELF32" },
                "type": h.e_type.to_string(), "machine": h.e_machine.to_string(),
                "os_abi": h.os_abi.to_string(), "abi_version": h.abi_version,
                "e_flags": h.e_flags, "entry": h.entry,
            },
            "code_object_version": self.co.version(),
            "target_id": self.co.target_id().ok().map(|t| t.format_for_os(TargetIdForm::Full, self.co.target_os())),
            "processor": self.co.target_id().ok().map(|t| t.processor.name),
            "sections": sections,
            "notes": notes,
            "kernels": kernels,
            "metadata": metadata,
            "errors": self.errors,
            "remarks": self.remarks,
        });
        super::platform::add_json(&self.co, &mut v);
        v
    }
}

/// Up to this many kernels, the summary shows each one's descriptor and kernargs.
const DETAILED_KERNELS: usize = 16;

/// Distinct summary lines in first-seen order, with how many kernels have each.
#[derive(Default)]
struct Tally(Vec<(String, usize)>);

impl Tally {
    fn add(&mut self, line: &str) {
        match self.0.iter_mut().find(|(l, _)| l == line) {
            Some((_, n)) => *n += 1,
            None => self.0.push((line.to_string(), 1)),
        }
    }

    /// `  TITLE:` and the lines, most frequent first, at most [`TALLY_LINES`] of
    /// them and then how many other lines (and kernels) are left out.
    fn write(mut self, out: &mut String, title: &str) {
        if self.0.is_empty() {
            return;
        }
        // (stable: equal counts stay in first-seen order)
        self.0.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        let width = self.0[0].1.to_string().len();
        let _ = writeln!(out, "  {title}:");
        for (line, n) in self.0.iter().take(TALLY_LINES) {
            let _ = writeln!(out, "    {n:>width$} x {line}");
        }
        if self.0.len() > TALLY_LINES {
            let rest = &self.0[TALLY_LINES..];
            let kernels: usize = rest.iter().map(|(_, n)| n).sum();
            let _ = writeln!(
                out,
                "    and {} other kind(s) in {kernels} kernel(s) (--verbose for each kernel)",
                rest.len()
            );
        }
    }
}

/// The distinct descriptor or kernarg summaries listed before "and N other kinds".
const TALLY_LINES: usize = 5;

/// The first metadata document (MessagePack or v2 YAML; not PAL register pairs).
fn first_document<'a>(notes: &[(u32, &'a [u8])]) -> Option<(u32, &'a [u8])> {
    notes
        .iter()
        .copied()
        .find(|&(t, _)| t != NT_AMD_PAL_METADATA)
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

/// A decoded descriptor of either kind.
enum Descriptor {
    V3(KernelDescriptor, PrintOptions),
    V2(AmdKernelCode),
}

impl Descriptor {
    /// One line: the resources the descriptor asks for.
    fn summary(&self) -> String {
        match self {
            Descriptor::V3(kd, opts) => {
                let r1 = kd.compute_pgm_rsrc1();
                let props = kd.kernel_code_properties();
                let wave32 = props.enable_wavefront_size32();
                let vgprs =
                    (r1.granulated_workitem_vgpr_count() + 1) * opts.target.vgpr_granule(wave32);
                let mut s = format!(
                    "kernarg {} B, LDS {} B, scratch {} B/lane, up to {} VGPRs",
                    kd.kernarg_size(),
                    kd.group_segment_fixed_size(),
                    kd.private_segment_fixed_size(),
                    vgprs
                );
                if !opts.target.is_gfx10_plus() {
                    let sgprs =
                        (r1.granulated_wavefront_sgpr_count() + 1) * opts.target.sgpr_granule();
                    let _ = write!(s, ", up to {sgprs} SGPRs");
                }
                let _ = write!(
                    s,
                    ", {}, {} user SGPRs",
                    if wave32 { "wave32" } else { "wave64" },
                    props.user_sgprs()
                );
                if props.uses_dynamic_stack() {
                    s.push_str(", dynamic stack");
                }
                let reserved = kd.reserved_bits(&opts.target);
                if !reserved.is_empty() {
                    let _ = write!(
                        s,
                        "; {} reserved bit range(s) set (see --kernel-descriptors)",
                        reserved.len()
                    );
                }
                s
            }
            Descriptor::V2(code) => format!(
                "amd_kernel_code_t, entry at +{:#x}, COMPUTE_PGM_RSRC1 {:#010x}, RSRC2 {:#010x}",
                code.kernel_code_entry_byte_offset(),
                code.compute_pgm_rsrc1(),
                code.compute_pgm_rsrc2()
            ),
        }
    }
}

/// The kernarg layout as a table.
fn kernargs_text(out: &mut String, layout: &KernargLayout) {
    let _ = writeln!(
        out,
        "    kernargs ({} B{}):",
        layout.segment_size,
        layout
            .implicit_base
            .map(|b| format!(", implicit block at {b}"))
            .unwrap_or_default()
    );
    for s in &layout.slots {
        let _ = writeln!(
            out,
            "      {:>5} {:>3}  {:<28} {:<24} {}{}",
            s.offset,
            s.size,
            s.name,
            if s.hidden.is_some() {
                ""
            } else {
                s.value_kind.as_str()
            },
            s.type_name
                .as_deref()
                .map(|t| format!("{t}  "))
                .unwrap_or_default(),
            if s.in_metadata {
                s.meaning.clone()
            } else {
                format!("({}; not in the metadata)", s.meaning)
            }
        );
    }
    for p in &layout.problems {
        let _ = writeln!(out, "      problem: {p}");
    }
}

fn wave_sizes(p: &Processor) -> &'static str {
    match (
        p.supports_wave32(),
        p.supports_wave64(),
        p.default_wave_size(),
    ) {
        (true, true, 32) => "wave32 (wave64 supported)",
        (true, true, _) => "wave64 (wave32 supported)",
        (true, false, _) => "wave32",
        _ => "wave64",
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
