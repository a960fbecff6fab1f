//! Build an AMDGPU kernel in memory: instructions as typed operands, checked against
//! the instruction set as they are added, labels, kernel descriptor fields with the
//! defaults of `.amdhsa_kernel`, and the metadata generated from the declared
//! arguments.
//!
//! The builder writes the kernel as the assembler source a person would write (the
//! `.amdhsa_kernel` block and the `.amdgpu_metadata` document of AMDGPUUsage), so the
//! descriptor defaults and the metadata encoding are those of `hsaco as`, and every
//! instruction is encoded once by [`hsaco_isa::asm::Assembler`] when it is added: an
//! instruction that does not exist on the processor, or an operand it does not take, is
//! an error at that line of Rust, not at the end.
//!
//! ```
//! use hsaco_build::{KernelBuilder, ArgKind, s, v, imm};
//! let mut k = KernelBuilder::new("gfx90a", "store_one").unwrap();
//! let out = k.arg("out", ArgKind::GlobalPtr);
//! k.inst("s_load_dwordx2", &[s(0..=1), s(4..=5), imm(out)]).unwrap();
//! k.inst("v_mov_b32_e32", &[v(1), imm(1)]).unwrap();
//! k.inst("s_waitcnt", &[imm(0)]).unwrap();
//! k.inst("global_store_dword", &[v(0), v(1), s(0..=1)]).unwrap();
//! k.inst("s_endpgm", &[]).unwrap();
//! assert!(k.inst("v_mov_b32_e32", &[s(0), v(1)]).is_err()); // an SGPR destination
//! k.field("user_sgpr_kernarg_segment_ptr", 1).field("user_sgpr_count", 2);
//! let code_object: Vec<u8> = k.finish().unwrap();
//! assert_eq!(&code_object[..4], b"\x7fELF");
//! ```

use hsaco_isa::asm::{AsmError, Assembler, ExprValue, RelocVariant, SymbolLookup};
use std::fmt::Write as _;
use std::ops::RangeInclusive;

/// One operand of an instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// SGPRs `s[first:last]` (one register when `first == last`).
    Sgpr(u8, u8),
    /// VGPRs.
    Vgpr(u8, u8),
    /// Accumulation VGPRs.
    Agpr(u8, u8),
    /// An integer (an inline constant or a literal, as the assembler decides).
    Imm(i64),
    /// A 32-bit float.
    F32(f32),
    /// A named register or operand keyword: `vcc`, `exec`, `m0`, `off`, `vcc_lo`.
    Named(&'static str),
    /// A branch target.
    Label(Label),
    /// A modifier as written in assembly: `offset:16`, `glc`, `clamp`, `op_sel:[1,0]`.
    Modifier(String),
}

/// SGPRs: `s(4)` or `s(4..=5)`.
pub fn s(r: impl Into<Regs>) -> Operand {
    let r = r.into();
    Operand::Sgpr(r.0, r.1)
}

/// VGPRs: `v(0)` or `v(0..=3)`.
pub fn v(r: impl Into<Regs>) -> Operand {
    let r = r.into();
    Operand::Vgpr(r.0, r.1)
}

/// AGPRs: `a(0)` or `a(0..=3)`.
pub fn a(r: impl Into<Regs>) -> Operand {
    let r = r.into();
    Operand::Agpr(r.0, r.1)
}

/// An integer operand.
pub fn imm(value: impl Into<i64>) -> Operand {
    Operand::Imm(value.into())
}

/// A modifier, as written after the operands (`offset:16`, `glc`).
pub fn modifier(text: &str) -> Operand {
    Operand::Modifier(text.to_string())
}

/// A register range: first and last register.
#[derive(Clone, Copy, Debug)]
pub struct Regs(u8, u8);

impl From<u8> for Regs {
    fn from(r: u8) -> Regs {
        Regs(r, r)
    }
}

impl From<RangeInclusive<u8>> for Regs {
    fn from(r: RangeInclusive<u8>) -> Regs {
        Regs(*r.start(), *r.end())
    }
}

/// A branch target, bound to a position with [`KernelBuilder::bind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label(u32);

/// How an explicit kernel argument is passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A pointer to global memory (8 bytes, `global_buffer`).
    GlobalPtr,
    /// A value of `size` bytes, aligned to `align` (`by_value`), with its C type name.
    ByValue {
        /// Size in bytes.
        size: u32,
        /// Alignment in bytes (a power of two).
        align: u32,
        /// C type name (`int`, `float`).
        type_name: &'static str,
    },
}

impl ArgKind {
    /// A 32-bit integer argument.
    pub const U32: ArgKind = ArgKind::ByValue {
        size: 4,
        align: 4,
        type_name: "uint",
    };
    /// A 32-bit float argument.
    pub const F32: ArgKind = ArgKind::ByValue {
        size: 4,
        align: 4,
        type_name: "float",
    };

    /// Size and alignment in the kernarg segment, in bytes.
    fn size_align(&self) -> (u32, u32) {
        match self {
            ArgKind::GlobalPtr => (8, 8),
            ArgKind::ByValue { size, align, .. } => (*size, (*align).max(1)),
        }
    }
}

/// Why the builder refused something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// No instruction set for this processor name.
    UnknownProcessor(String),
    /// The instruction at `index` (0-based, in order of addition) cannot be encoded.
    Instruction {
        /// Index of the instruction.
        index: usize,
        /// Its text as the builder wrote it.
        text: String,
        /// The assembler's error.
        error: AsmError,
    },
    /// A label was bound twice, or used and never bound.
    Label(String),
    /// The source the builder wrote did not assemble (`hsaco-asm`'s diagnostics; a
    /// descriptor field out of range, a field the processor does not have).
    Assemble(String),
    /// The object did not link (`hsaco-link`).
    Link(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::UnknownProcessor(p) => write!(f, "unknown processor '{p}'"),
            BuildError::Instruction { index, text, error } => {
                write!(f, "instruction {index} '{text}': {error}")
            }
            BuildError::Label(m) => f.write_str(m),
            BuildError::Assemble(m) => write!(f, "assembling the kernel: {m}"),
            BuildError::Link(m) => write!(f, "linking the kernel: {m}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// One declared argument.
#[derive(Clone, Debug)]
struct Arg {
    name: String,
    kind: ArgKind,
    offset: u32,
}

/// Builds one kernel.
#[derive(Clone, Debug)]
pub struct KernelBuilder {
    processor: String,
    name: String,
    asm: Assembler,
    wave64: bool,
    code_object_version: u32,
    args: Vec<Arg>,
    implicit_args: bool,
    /// `.amdhsa_*` fields set explicitly, in order.
    fields: Vec<(String, i64)>,
    /// The instruction lines and label lines of the body.
    body: Vec<String>,
    /// Byte offset of the next instruction.
    pc: u64,
    instructions: usize,
    labels: Vec<Option<u64>>,
    used_labels: Vec<u32>,
    next_free_sgpr: u32,
    next_free_vgpr: u32,
    next_free_agpr: u32,
}

impl KernelBuilder {
    /// A kernel `name` for `processor` (`gfx90a`, `gfx1100`: wave32 where the
    /// processor defaults to it), code object version 5.
    pub fn new(processor: &str, name: &str) -> Result<KernelBuilder, BuildError> {
        let asm = Assembler::for_processor(processor)
            .ok_or_else(|| BuildError::UnknownProcessor(processor.to_string()))?;
        let wave64 =
            !hsaco_target::Processor::by_name(processor).is_some_and(|p| p.supports_wave32());
        Ok(KernelBuilder {
            processor: processor.to_string(),
            name: name.to_string(),
            asm,
            wave64,
            code_object_version: 5,
            args: Vec::new(),
            implicit_args: false,
            fields: Vec::new(),
            body: Vec::new(),
            pc: 0,
            instructions: 0,
            labels: Vec::new(),
            used_labels: Vec::new(),
            next_free_sgpr: 0,
            next_free_vgpr: 0,
            next_free_agpr: 0,
        })
    }

    /// Wave64 on a processor that defaults to wave32 (gfx10+: `+wavefrontsize64`).
    pub fn wave64(mut self) -> KernelBuilder {
        self.asm = self.asm.wave64();
        self.wave64 = true;
        self
    }

    /// The code object version written (`.amdhsa_code_object_version`).
    pub fn code_object_version(mut self, version: u32) -> KernelBuilder {
        self.code_object_version = version;
        self
    }

    /// Declare the next explicit argument; returns its offset in the kernarg segment.
    pub fn arg(&mut self, name: &str, kind: ArgKind) -> u32 {
        let offset = self.explicit_end().next_multiple_of(kind.size_align().1);
        self.args.push(Arg {
            name: name.to_string(),
            kind,
            offset,
        });
        offset
    }

    /// Add the code object v5 implicit argument block (256 bytes after the explicit
    /// arguments, 8-aligned) and list its work-group and grid fields in the metadata, as
    /// clang does for a kernel that reads them; returns the block's offset.
    pub fn implicit_args(&mut self) -> u32 {
        self.implicit_args = true;
        self.implicit_base()
    }

    /// Set a `.amdhsa_*` descriptor field (`"user_sgpr_kernarg_segment_ptr"` or
    /// `".amdhsa_user_sgpr_kernarg_segment_ptr"`); fields not set keep the defaults of
    /// `.amdhsa_kernel`, and `next_free_vgpr`/`next_free_sgpr`/`accum_offset` are
    /// worked out from the registers the instructions use unless set.
    pub fn field(&mut self, name: &str, value: i64) -> &mut KernelBuilder {
        let name = name.trim_start_matches(".amdhsa_").to_string();
        self.fields.retain(|(n, _)| *n != name);
        self.fields.push((name, value));
        self
    }

    /// A new label, not yet bound.
    pub fn label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() as u32 - 1)
    }

    /// Bind `label` to the position of the next instruction.
    pub fn bind(&mut self, label: Label) -> Result<(), BuildError> {
        match self.labels.get_mut(label.0 as usize) {
            Some(slot @ None) => {
                *slot = Some(self.pc);
                self.body.push(format!("{}:", label_name(label)));
                Ok(())
            }
            Some(Some(_)) => Err(BuildError::Label(format!(
                "label {} is bound twice",
                label.0
            ))),
            None => Err(BuildError::Label(format!(
                "label {} does not exist",
                label.0
            ))),
        }
    }

    /// Add one instruction: `mnemonic` as the assembler spells it (`v_add_f32_e32`, or
    /// without a suffix for the encoding the assembler chooses) and its operands and
    /// modifiers in assembly order. It is encoded now; an error leaves the builder as
    /// it was.
    pub fn inst(&mut self, mnemonic: &str, operands: &[Operand]) -> Result<(), BuildError> {
        let text = render(mnemonic, operands);
        let mut out = Vec::with_capacity(16);
        let mut labels = LabelLookup;
        let encoded = self
            .asm
            .encode(&text, self.pc, &mut labels, &mut out)
            .map_err(|error| BuildError::Instruction {
                index: self.instructions,
                text: text.clone(),
                error,
            })?;
        self.pc += u64::from(encoded.size);
        self.instructions += 1;
        for o in operands {
            match *o {
                Operand::Sgpr(_, last) => {
                    self.next_free_sgpr = self.next_free_sgpr.max(u32::from(last) + 1)
                }
                Operand::Vgpr(_, last) => {
                    self.next_free_vgpr = self.next_free_vgpr.max(u32::from(last) + 1)
                }
                Operand::Agpr(_, last) => {
                    self.next_free_agpr = self.next_free_agpr.max(u32::from(last) + 1)
                }
                Operand::Label(l) => self.used_labels.push(l.0),
                _ => {}
            }
        }
        self.body.push(text);
        Ok(())
    }

    /// Bytes of code so far.
    pub fn code_size(&self) -> u64 {
        self.pc
    }

    /// The assembler source of the kernel: code, `.amdhsa_kernel` block and metadata.
    pub fn source(&self) -> String {
        let mut o = String::new();
        let target = format!("amdgcn-amd-amdhsa--{}", self.processor);
        let _ = writeln!(o, "\t.amdgcn_target \"{target}\"");
        let _ = writeln!(
            o,
            "\t.amdhsa_code_object_version {}",
            self.code_object_version
        );
        let _ = writeln!(
            o,
            "\t.text\n\t.globl {0}\n\t.p2align 8\n\t.type {0},@function\n{0}:",
            self.name
        );
        for line in &self.body {
            if line.ends_with(':') {
                let _ = writeln!(o, "{line}");
            } else {
                let _ = writeln!(o, "\t{line}");
            }
        }
        let _ = writeln!(
            o,
            ".Lfunc_end_{0}:\n\t.size {0}, .Lfunc_end_{0}-{0}",
            self.name
        );
        let _ = writeln!(o, "\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel {}", self.name);
        for (name, value) in self.descriptor_fields() {
            let _ = writeln!(o, "\t\t.amdhsa_{name} {value}");
        }
        let _ = writeln!(o, "\t.end_amdhsa_kernel");
        o.push_str(&self.metadata_yaml());
        o
    }

    /// The descriptor fields written: the ones set, then the register counts worked
    /// out from the instructions where they were not set.
    fn descriptor_fields(&self) -> Vec<(String, i64)> {
        let mut f = self.fields.clone();
        let has = |f: &[(String, i64)], n: &str| f.iter().any(|(k, _)| k == n);
        let gfx90a_like = matches!(
            self.processor.as_str(),
            "gfx90a" | "gfx942" | "gfx950" | "gfx9-4-generic"
        );
        let vgprs = if gfx90a_like && self.next_free_agpr > 0 {
            self.next_free_vgpr.next_multiple_of(4) + self.next_free_agpr
        } else {
            self.next_free_vgpr
        };
        if !has(&f, "next_free_vgpr") {
            f.push(("next_free_vgpr".into(), i64::from(vgprs.max(1))));
        }
        if !has(&f, "next_free_sgpr") {
            f.push(("next_free_sgpr".into(), i64::from(self.next_free_sgpr)));
        }
        if gfx90a_like && !has(&f, "accum_offset") {
            f.push((
                "accum_offset".into(),
                i64::from(self.next_free_vgpr.next_multiple_of(4).max(4)),
            ));
        }
        let rdna = !self.processor.starts_with("gfx9") && !self.processor.starts_with("gfx8");
        if rdna && !has(&f, "wavefront_size32") {
            f.push(("wavefront_size32".into(), i64::from(!self.wave64)));
        }
        if !has(&f, "kernarg_size") {
            f.push(("kernarg_size".into(), i64::from(self.kernarg_size())));
        }
        f
    }

    fn explicit_end(&self) -> u32 {
        self.args
            .last()
            .map(|a| a.offset + a.kind.size_align().0)
            .unwrap_or(0)
    }

    fn implicit_base(&self) -> u32 {
        self.explicit_end().next_multiple_of(8)
    }

    /// The kernarg segment's size: the explicit arguments, and the implicit block.
    pub fn kernarg_size(&self) -> u32 {
        if self.implicit_args {
            self.implicit_base() + hsaco_abi::IMPLICIT_BLOCK_SIZE as u32
        } else {
            self.explicit_end()
        }
    }

    /// The `.amdgpu_metadata` block (YAML, as AMDGPUUsage's examples write it).
    fn metadata_yaml(&self) -> String {
        let mut o = String::from("\t.amdgpu_metadata\n---\namdhsa.kernels:\n");
        let _ = writeln!(o, "  - .args:");
        if self.args.is_empty() && !self.implicit_args {
            o.truncate(o.len() - "  - .args:\n".len());
            o.push_str("  - .args: []\n");
        }
        for arg in &self.args {
            match &arg.kind {
                ArgKind::GlobalPtr => {
                    let _ = writeln!(
                        o,
                        "      - .address_space: global\n        .name: {}\n        .offset: {}\n        .size: 8\n        .value_kind: global_buffer",
                        arg.name, arg.offset
                    );
                }
                ArgKind::ByValue {
                    size, type_name, ..
                } => {
                    let _ = writeln!(
                        o,
                        "      - .name: {}\n        .offset: {}\n        .size: {size}\n        .type_name: {type_name}\n        .value_kind: by_value",
                        arg.name, arg.offset
                    );
                }
            }
        }
        if self.implicit_args {
            let base = u64::from(self.implicit_base());
            for h in hsaco_abi::HiddenArg::all() {
                let listed = matches!(
                    h.value_kind(),
                    "hidden_block_count_x"
                        | "hidden_block_count_y"
                        | "hidden_block_count_z"
                        | "hidden_group_size_x"
                        | "hidden_group_size_y"
                        | "hidden_group_size_z"
                        | "hidden_remainder_x"
                        | "hidden_remainder_y"
                        | "hidden_remainder_z"
                        | "hidden_global_offset_x"
                        | "hidden_global_offset_y"
                        | "hidden_global_offset_z"
                        | "hidden_grid_dims"
                );
                if let (true, Some(off)) = (listed, h.v5_offset()) {
                    let _ = writeln!(
                        o,
                        "      - .offset: {}\n        .size: {}\n        .value_kind: {}",
                        base + off,
                        h.size(),
                        h.value_kind()
                    );
                }
            }
        }
        // (segment sizes are only ever set by the caller, never worked out)
        let field = |n: &str| self.fields.iter().find(|(k, _)| k == n).map(|(_, v)| *v);
        let _ = writeln!(
            o,
            "    .group_segment_fixed_size: {}",
            field("group_segment_fixed_size").unwrap_or(0)
        );
        let _ = writeln!(o, "    .kernarg_segment_align: 8");
        let _ = writeln!(o, "    .kernarg_segment_size: {}", self.kernarg_size());
        let _ = writeln!(o, "    .max_flat_workgroup_size: 1024");
        let _ = writeln!(o, "    .name: {}", self.name);
        let _ = writeln!(
            o,
            "    .private_segment_fixed_size: {}",
            field("private_segment_fixed_size").unwrap_or(0)
        );
        let _ = writeln!(o, "    .sgpr_count: {}", self.next_free_sgpr);
        let _ = writeln!(o, "    .symbol: {}.kd", self.name);
        let _ = writeln!(o, "    .vgpr_count: {}", self.next_free_vgpr.max(1));
        let _ = writeln!(
            o,
            "    .wavefront_size: {}",
            if self.wave64 { 64 } else { 32 }
        );
        let _ = writeln!(o, "amdhsa.target: amdgcn-amd-amdhsa--{}", self.processor);
        let _ = writeln!(
            o,
            "amdhsa.version:\n  - 1\n  - {}",
            self.code_object_version - 3
        );
        o.push_str("...\n\t.end_amdgpu_metadata\n");
        o
    }

    /// The loadable code object: the [`source`](Self::source) assembled by `hsaco-asm`
    /// (with the same encoder) and linked by `hsaco-link`, as `hsaco as` and `hsaco
    /// ld` would.
    pub fn finish(&self) -> Result<Vec<u8>, BuildError> {
        self.relocatable().and_then(|object| {
            hsaco_link::link(
                &[hsaco_link::Input::new("builder.o", &object)],
                &hsaco_link::Options::default(),
            )
            .map_err(|e| BuildError::Link(e.to_string()))
        })
    }

    /// The relocatable object (what `hsaco as` writes for the [`source`](Self::source)).
    pub fn relocatable(&self) -> Result<Vec<u8>, BuildError> {
        self.check_labels()?;
        let mut opts = hsaco_asm::Options::for_processor(&self.processor)
            .ok_or_else(|| BuildError::UnknownProcessor(self.processor.clone()))?;
        opts.wave64 = Some(self.wave64);
        opts.code_object_version = u8::try_from(self.code_object_version).ok();
        let mut enc = self.asm;
        hsaco_asm::assemble(
            "builder.s",
            &self.source(),
            &opts,
            &mut enc,
            &mut hsaco_asm::NoIncludes,
        )
        .map(|a| a.object)
        .map_err(|d| BuildError::Assemble(d.to_string()))
    }

    /// Check that every label used was bound.
    pub fn check_labels(&self) -> Result<(), BuildError> {
        for &l in &self.used_labels {
            if self.labels.get(l as usize).copied().flatten().is_none() {
                return Err(BuildError::Label(format!(
                    "label {l} is used but never bound"
                )));
            }
        }
        Ok(())
    }
}

fn label_name(l: Label) -> String {
    format!(".Lb{}", l.0)
}

/// The instruction's text: mnemonic, operands separated by commas, modifiers after
/// them separated by spaces.
fn render(mnemonic: &str, operands: &[Operand]) -> String {
    let mut t = String::from(mnemonic);
    let mut first = true;
    for o in operands {
        let sep = match (o, first) {
            (Operand::Modifier(_), _) | (_, true) => " ",
            _ => ", ",
        };
        t.push_str(sep);
        first = false;
        let reg = |t: &mut String, p: &str, a: u8, b: u8| {
            if a == b {
                let _ = write!(t, "{p}{a}");
            } else {
                let _ = write!(t, "{p}[{a}:{b}]");
            }
        };
        match o {
            Operand::Sgpr(a, b) => reg(&mut t, "s", *a, *b),
            Operand::Vgpr(a, b) => reg(&mut t, "v", *a, *b),
            Operand::Agpr(a, b) => reg(&mut t, "a", *a, *b),
            Operand::Imm(i) => {
                if (-16..=64).contains(i) {
                    let _ = write!(t, "{i}");
                } else {
                    let _ = write!(
                        t,
                        "{:#x}",
                        *i as u64
                            & if *i < 0 && *i >= -(1 << 31) {
                                0xffff_ffff
                            } else {
                                u64::MAX
                            }
                    );
                }
            }
            Operand::F32(f) => {
                let _ = write!(t, "{:#x}", f.to_bits());
            }
            Operand::Named(n) => t.push_str(n),
            Operand::Label(l) => t.push_str(&label_name(*l)),
            Operand::Modifier(m) => t.push_str(m),
        }
    }
    t
}

/// Labels are symbolic while the kernel is being built (their offsets are resolved
/// when the source is assembled).
struct LabelLookup;

impl SymbolLookup for LabelLookup {
    fn expr(&mut self, text: &str) -> Result<ExprValue, String> {
        if text.starts_with(".Lb") {
            Ok(ExprValue::Symbolic {
                symbol: text.to_string(),
                addend: 0,
                variant: RelocVariant::None,
            })
        } else {
            Err(format!("'{text}' is not a label of this kernel"))
        }
    }
}
