//! `hsaco demo`: the main job on a built-in example.

use super::read::view::ObjectView;
use crate::output;
use anyhow::{Context, Result};
use clap::Args;
use hsaco_elf::CodeObject;
use std::fmt::Write as _;
use std::process::ExitCode;

/// The built-in example: `src/cmd/demo_data/vadd-gfx906-cov5.co` (three OpenCL
/// kernels compiled by clang-22 for gfx906, code object v5; see the README there).
const EXAMPLE: &[u8] = include_bytes!("demo_data/vadd-gfx906-cov5.co");

/// Read and explain a code object built into hsaco: three OpenCL kernels compiled
/// by clang-22 for gfx906 (Radeon Instinct MI50), code object v5.
///
/// It prints what `hsaco read --kernargs` prints for it, then explains the parts.
#[derive(Args)]
pub struct Opts {}

pub fn run(_opts: Opts) -> Result<ExitCode> {
    let co = CodeObject::parse(EXAMPLE).context("the built-in example")?;
    let view = ObjectView::new(&co);
    let mut out = String::new();
    out.push_str("$ hsaco read --kernargs vadd-gfx906-cov5.co   (built into hsaco)\n\n");
    view.summary(&mut out, true, &hsaco_check::TextOptions::default());
    out.push('\n');
    out.push_str(&explain(&co, &view));
    output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// Plain-language notes on what the report shows, from the object's own values.
fn explain(co: &CodeObject<'_>, view: &ObjectView<'_>) -> String {
    let mut s = String::from("What this shows:\n");
    if let (Some(v), Ok(t)) = (co.version(), co.target_id()) {
        let products = t.processor.products.join(", ");
        let _ = writeln!(
            s,
            "- An AMDGPU code object, version {v} (ELF ABI version {}), for {}{}.\n  The processor and the xnack/sramecc settings are encoded in e_flags ({:#x});\n  `hsaco check FILE --device mi50 --runtime rocm-6.4` tells whether a GPU and a\n  runtime accept it, and `hsaco dis FILE` disassembles it.",
            co.elf.abi_version(),
            t.processor.name,
            if products.is_empty() { String::new() } else { format!("\n  ({products})") },
            co.elf.e_flags()
        );
    }
    let kernels = view.kernel_names();
    let _ = writeln!(
        s,
        "- {} kernels. Each has a 64-byte kernel descriptor (the `<name>.kd` symbol in\n  .rodata) that the runtime hands to the hardware: register counts, LDS and\n  scratch sizes, which SGPRs are preloaded. `hsaco read --kernel-descriptors`\n  prints them as the .amdhsa_kernel blocks llvm-objdump prints.",
        kernels.len()
    );
    if let Some((name, layout)) = kernels
        .first()
        .and_then(|k| view.kernarg_layout(k).map(|l| (k, l)))
    {
        let explicit: u64 = layout
            .slots
            .iter()
            .filter(|s| s.in_metadata && s.hidden.is_none())
            .map(|s| s.size)
            .sum();
        let _ = writeln!(
            s,
            "- The kernarg segment of {name} is {} bytes: {explicit} bytes of explicit\n  arguments, then{} the hidden arguments the runtime fills.\n  From code object v5 they sit in a 256-byte block at fixed offsets; the ones\n  marked \"not in the metadata\" are unused by this kernel but still part of the block.",
            layout.segment_size,
            layout.implicit_base.map(|b| format!(" from offset {b}")).unwrap_or_default()
        );
    }
    s.push_str(
        "- The metadata (a MessagePack note) describes all of this for the runtime;\n  `hsaco read --metadata` prints it exactly as llvm-readelf --notes does.\n\nTry: hsaco read --help, hsaco dis --help, hsaco check --help, hsaco extract --help\n",
    );
    s
}
