//! Kernel descriptors: the 64-byte `<kernel>.kd` object of code object v3 onwards and
//! the 256-byte `amd_kernel_code_t` header of code object v2.
//!
//! ```
//! use hsaco_elf::kd::{KdTarget, KernelDescriptor, PrintOptions};
//! use hsaco_target::Processor;
//!
//! let gfx906 = Processor::by_name("gfx906").unwrap();
//! let mut bytes = [0u8; 64];
//! bytes[8] = 8; // kernarg_size
//! let kd = KernelDescriptor::parse(&bytes).unwrap();
//! assert_eq!(kd.kernarg_size(), 8);
//! let opts = PrintOptions { target: KdTarget::new(gfx906), code_object_version: 5 };
//! let text = kd.to_llvm_text("my_kernel", &opts);
//! assert!(text.starts_with(".amdhsa_kernel my_kernel\n"));
//! assert!(text.contains("\t.amdhsa_kernarg_size 8\n"));
//! assert!(kd.reserved_bits(&opts.target).is_empty());
//! ```
//!
//! # What `llvm-objdump` prints
//!
//! `llvm-objdump -D --mcpu=<cpu> --disassemble-symbols=<name>.kd` prints, after the
//! `<address> <<name>.kd>:` label, either
//! - the block `.amdhsa_kernel <name>` ... `.end_amdhsa_kernel` (directives indented
//!   by one tab; fields without a directive as `; FIELD value` comments), which
//!   [`KernelDescriptor::to_llvm_text`] reproduces; or
//! - when a reserved bit is set, a line `; error decoding <name>.kd: <message>`
//!   followed by a `.byte` dump. [`KernelDescriptor::llvm_decode_error`] gives the
//!   message and [`KernelDescriptor::reserved_bits`] every reserved range that is set.
//!
//! [`KernelDescriptor::objdump_block`] gives whichever of the two LLVM prints (the
//! error case reduced to its `; error decoding` line), and [`kd_blocks_from_objdump`]
//! cuts the same blocks out of real `llvm-objdump` output, for differential tests.
//!
//! The text depends on the bytes, the processor family ([`KdTarget`]), the XNACK
//! target feature (only through `.amdhsa_reserve_xnack_mask`, which the descriptor
//! does not store) and the code object version (`.amdhsa_uses_dynamic_stack` is
//! omitted for v4 only).
//! `.amdhsa_reserve_vcc`/`_flat_scratch` are always printed as 0 and
//! `.amdhsa_next_free_vgpr`/`_sgpr` as the allocated block count times the block size,
//! since the descriptor only keeps granulated counts.

pub mod assemble;
mod code_t;
mod descriptor;
mod print;
mod target;

pub use code_t::{AmdKernelCode, CodeField, CodeFieldKind, AMD_KERNEL_CODE_SIZE, CODE_FIELDS};
pub use descriptor::{
    offset, ComputePgmRsrc1, ComputePgmRsrc2, ComputePgmRsrc3, KernargPreload,
    KernelCodeProperties, KernelDescriptor, KERNEL_DESCRIPTOR_SIZE,
};
pub use print::{PrintOptions, ReservedBits};
pub use target::{KdFamily, KdTarget};

impl KernelDescriptor {
    /// Reserved bits set for `target`, in the order LLVM checks them. LLVM refuses to
    /// decode a descriptor for which this is not empty.
    pub fn reserved_bits(&self, target: &KdTarget) -> Vec<ReservedBits> {
        print::reserved_bits(self, target, false)
    }

    /// The message `llvm-objdump` prints instead of the block (`; error decoding
    /// <sym>: <message>`), or `None` if LLVM decodes the descriptor.
    pub fn llvm_decode_error(&self, target: &KdTarget) -> Option<String> {
        print::reserved_bits(self, target, true)
            .into_iter()
            .next()
            .map(|r| r.llvm_message)
    }

    /// The `.amdhsa_kernel <name>` ... `.end_amdhsa_kernel` block as llvm-objdump
    /// prints it, each line ending in `\n`. Decoded even if reserved bits are set
    /// (LLVM would print an error instead; see [`Self::llvm_decode_error`]).
    pub fn to_llvm_text(&self, name: &str, opts: &PrintOptions) -> String {
        print::amdhsa_block(self, name, opts)
    }

    /// What llvm-objdump prints for the symbol `<name>.kd`, in the form
    /// [`kd_blocks_from_objdump`] extracts: the block of [`Self::to_llvm_text`], or
    /// the single line `; error decoding <name>.kd: <message>\n`.
    pub fn objdump_block(&self, name: &str, opts: &PrintOptions) -> String {
        match self.llvm_decode_error(&opts.target) {
            Some(message) => format!("; error decoding {name}.kd: {message}\n"),
            None => self.to_llvm_text(name, opts),
        }
    }
}

/// Cut the kernel descriptor blocks out of `llvm-objdump -D` output: for every symbol
/// label `<...> <NAME.kd>:`, the kernel name `NAME` and either the lines from
/// `.amdhsa_kernel` to `.end_amdhsa_kernel` inclusive or the `; error decoding` line,
/// each line ending in `\n`. Labels followed by neither are skipped.
pub fn kd_blocks_from_objdump(objdump_output: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = objdump_output.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(name) = kd_label(line) else { continue };
        let mut block = String::new();
        let mut inside = false;
        while let Some(&next) = lines.peek() {
            if kd_label(next).is_some() || is_label(next) {
                break;
            }
            lines.next();
            if !inside {
                if next.starts_with("; error decoding ") {
                    block.push_str(next);
                    block.push('\n');
                    break;
                }
                if next.starts_with(".amdhsa_kernel") {
                    inside = true;
                }
            }
            if inside {
                block.push_str(next);
                block.push('\n');
                if next.starts_with(".end_amdhsa_kernel") {
                    break;
                }
            }
        }
        if !block.is_empty() {
            out.push((name.to_string(), block));
        }
    }
    out
}

/// A kernel whose block differs from what `llvm-objdump` printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjdumpMismatch {
    /// Kernel name (the symbol without `.kd`).
    pub kernel: String,
    /// The block llvm-objdump printed.
    pub llvm: String,
    /// Ours ([`KernelDescriptor::objdump_block`]), or `<no descriptor>` if
    /// `descriptor_of` found none.
    pub ours: String,
}

/// Differential check of one code object: for every block of `objdump_output`
/// (`llvm-objdump -D --mcpu=<cpu> --disassemble-symbols=<a>.kd,<b>.kd,... file`), look
/// the descriptor up with `descriptor_of(kernel_name)` and compare our text with
/// LLVM's. Returns the number of blocks compared and the mismatches.
pub fn compare_with_objdump(
    objdump_output: &str,
    opts: &PrintOptions,
    mut descriptor_of: impl FnMut(&str) -> Option<KernelDescriptor>,
) -> (usize, Vec<ObjdumpMismatch>) {
    let blocks = kd_blocks_from_objdump(objdump_output);
    let mut mismatches = Vec::new();
    for (kernel, llvm) in &blocks {
        let ours = match descriptor_of(kernel) {
            Some(kd) => kd.objdump_block(kernel, opts),
            None => "<no descriptor>".to_string(),
        };
        if &ours != llvm {
            mismatches.push(ObjdumpMismatch {
                kernel: kernel.clone(),
                llvm: llvm.clone(),
                ours,
            });
        }
    }
    (blocks.len(), mismatches)
}

/// `0000000000000d80 <name.kd>:` -> `name`.
fn kd_label(line: &str) -> Option<&str> {
    let line = line.trim_end();
    let inner = line.strip_suffix(">:")?;
    let start = inner.find('<')?;
    inner.get(start + 1..)?.strip_suffix(".kd")
}

fn is_label(line: &str) -> bool {
    let line = line.trim_end();
    line.ends_with(">:") && line.contains(" <")
}

/// Fuzz entry: decode and print `data` as a kernel descriptor for one processor of each
/// family and both code object versions, as an `amd_kernel_code_t`, and as objdump text.
#[doc(hidden)]
pub fn fuzz_entry(data: &[u8]) {
    use hsaco_target::Generation as G;
    if let Ok(kd) = KernelDescriptor::parse(data) {
        let targets = [
            (G::Gfx8, (8, 0, 3)),
            (G::Gfx9, (9, 0, 6)),
            (G::Gfx9, (9, 0, 10)),
            (G::Gfx9, (9, 4, 2)),
            (G::Gfx10, (10, 3, 0)),
            (G::Gfx11, (11, 0, 0)),
            (G::Gfx12, (12, 0, 1)),
            (G::Gfx125, (12, 5, 0)),
        ];
        for (i, (generation, version)) in targets.into_iter().enumerate() {
            let target = KdTarget::from_version(generation, version);
            let opts = PrintOptions {
                target,
                code_object_version: 4 + (i % 2) as u8,
            };
            // prints the block, or the first reserved range found
            let _ = kd.objdump_block("k", &opts);
            if i == 0 {
                let _ = kd.to_llvm_text("k", &opts);
                let _ = format!("{kd:?}");
            }
        }
    }
    if let Ok(code) = AmdKernelCode::parse(data) {
        let _ = code.to_directive_text();
        let _ = format!("{code:?}");
    }
    let _ = kd_blocks_from_objdump(&String::from_utf8_lossy(data));
}
