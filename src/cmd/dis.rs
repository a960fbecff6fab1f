//! `hsaco dis`: disassemble code objects as `llvm-objdump -d` prints them.

use crate::cmd::read::view::ObjectView;
use crate::input;
use anyhow::{bail, Context, Result};
use clap::Args;
use hsaco_elf::bundle::{code_objects, ContainerKind};
use hsaco_elf::elf::Elf;
use hsaco_elf::CodeObject;
use hsaco_isa::{listing, Decoder};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Disassemble AMD GPU code objects. The output has the form of `llvm-objdump -d`: a
/// file line, `Disassembly of section .text:`, `<symbol>:` labels, one instruction per
/// line with a `// ADDRESS: WORDS` comment and branch targets as `<symbol+0x..>`.
/// Words that do not decode are printed as `.long 0x...`.
///
/// The processor comes from the ELF header's e_flags unless --mcpu is given. Fat
/// binaries and offload bundles: every AMDGPU code object inside is disassembled, headed
/// `FILE(ENTRY-ID):`.
///
/// With --raw, FILE is a bare instruction stream (addresses from 0): binary, or hex text
/// (32-bit words such as `BF800000`, or bytes such as `0x00,0x00,0x80,0xbf`).
///
/// Examples:
///   hsaco dis kernel.co
///   hsaco dis --mcpu=gfx90a kernel.co a.out
///   hsaco dis --no-show-raw-insn kernel.co
///   hsaco dis --kd kernel.co                  (kernel descriptors after the code)
///   hsaco dis --symbolize-operands kernel.co  (branch targets as labels L0, L1, ...)
///   hsaco dis --mattr=+wavefrontsize64 k.co   (gfx10+ code built for wave64)
///   hsaco dis --reassemble k.co | hsaco as --mcpu=gfx90a - -o k.o   (the same code bytes)
///   echo 'C0020002 0000002C BF810000' | hsaco dis --raw --mcpu=gfx906 -
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// Files to disassemble (`-` for stdin).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Processor to decode for (`gfx906`, `gfx90a`, ...), instead of the one e_flags names.
    #[arg(long)]
    pub mcpu: Option<String>,
    /// Target features, as llvm-objdump --mattr: `+wavefrontsize64` decodes gfx10+
    /// code as wave64 (lane masks are register pairs: `vcc`, `s[0:1]`); the default,
    /// as in LLVM, is wave32 (`+wavefrontsize32`).
    #[arg(long, value_name = "FEATURES")]
    pub mattr: Option<String>,
    /// The input is a bare instruction stream, not an ELF file (needs --mcpu).
    #[arg(long, requires = "mcpu")]
    pub raw: bool,
    /// Leave out the `// ADDRESS: WORDS` comments (llvm-objdump accepts this option but
    /// keeps them for amdgcn).
    #[arg(long)]
    pub no_show_raw_insn: bool,
    /// Branch targets as labels, as llvm-objdump --symbolize-operands prints them:
    /// `s_cbranch_scc0 L0` and a `<L0>:` line where L0 starts (labels numbered in
    /// address order over each section).
    #[arg(long)]
    pub symbolize_operands: bool,
    /// After each object's code, its kernel descriptors, as `hsaco read
    /// --kernel-descriptors` prints them (the `.amdhsa_kernel` blocks llvm-objdump
    /// prints for `<kernel>.kd`; `amd_kernel_code_t` fields for code object v2).
    #[arg(long)]
    pub kd: bool,
    /// Threads that list large sections in pieces (default: one per core, at most 8; the
    /// output is the same with any number).
    #[arg(long, default_value_t = 0, hide_default_value = true)]
    pub threads: usize,
    /// Demangle C++ symbol names (Itanium ABI) in labels and branch annotations, as
    /// llvm-objdump -C (and the `<name.kd>:` lines of --kd).
    #[arg(long, short = 'C')]
    pub demangle: bool,
    /// Write assembler source instead of the listing: each code section with its
    /// instructions as text that `hsaco as --mcpu=PROCESSOR` assembles back to the same
    /// bytes (every word kept: words that do not decode, or whose text would assemble
    /// differently, as `.long` with the text in a comment); symbols as comments.
    #[arg(long, conflicts_with_all = ["kd", "symbolize_operands"])]
    pub reassemble: bool,
    /// Source locations from the DWARF line table, as llvm-objdump -l prints them:
    /// before an instruction whose location differs from the previous one,
    /// `; FUNCTION():` when the function changes and `; FILE:LINE`.
    #[arg(long, short = 'l', conflicts_with = "reassemble")]
    pub line_numbers: bool,
    /// Source lines interleaved, as llvm-objdump -S prints them: before an instruction
    /// whose file or line differs from the previous one, `; ` and that line of the
    /// source file (read from the path the line table names; a warning, once per
    /// file, when it cannot be read).
    #[arg(long, short = 'S', conflicts_with = "reassemble")]
    pub source: bool,
    /// Put PREFIX before absolute source paths (for -S and the names -l prints), as
    /// llvm-objdump --prefix: sources moved since the build.
    #[arg(long, value_name = "PREFIX")]
    pub prefix: Option<String>,
    /// Take N leading directories off absolute source paths before adding --prefix
    /// (no effect without it).
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true)]
    pub prefix_strip: usize,
    /// Where source variables live, as llvm-objdump --debug-vars draws it: a column
    /// beside the instructions for each variable whose DWARF location holds there
    /// (`┃`; `┻` where it stops, `╈` where it starts; `ascii`: `|`, `v`, `^`).
    /// llvm-objdump-22 draws them for relocatable objects only.
    #[arg(long, value_name = "FORMAT", num_args = 0..=1, require_equals = true,
          default_missing_value = "unicode", value_parser = ["unicode", "ascii"],
          conflicts_with = "reassemble")]
    pub debug_vars: Option<String>,
    /// How far right of the start of an instruction the --debug-vars columns begin.
    #[arg(long, value_name = "N", default_value_t = 52)]
    pub debug_indent: usize,
}

/// `hsaco dis FILE...` and nothing else (the most common form, and the benchmarks'),
/// recognised without clap (see [`crate::plain_files`]); any other command line
/// returns `None` and goes to clap.
pub fn plain_args(args: &[std::ffi::OsString]) -> Option<Opts> {
    Some(Opts {
        files: crate::plain_files(args, &["dis"])?,
        mcpu: None,
        mattr: None,
        raw: false,
        no_show_raw_insn: false,
        symbolize_operands: false,
        kd: false,
        threads: 0,
        demangle: false,
        reassemble: false,
        line_numbers: false,
        source: false,
        prefix: None,
        prefix_strip: 0,
        debug_vars: None,
        debug_indent: 52,
    })
}

pub fn run(opts: Opts) -> Result<ExitCode> {
    let options = listing::Options {
        // (llvm-objdump-22 keeps the words for amdgcn with --no-show-raw-insn; the
        // annotations need them, and the output with them is llvm's)
        show_raw_insn: !opts.no_show_raw_insn
            || opts.line_numbers
            || opts.source
            || opts.debug_vars.is_some(),
        threads: opts.threads,
        symbolize_operands: opts.symbolize_operands,
        demangle: opts
            .demangle
            .then_some(crate::names::demangle as fn(&str) -> Option<String>),
        source: opts.reassemble,
    };
    let wave64 = wave64_from_mattr(opts.mattr.as_deref())?;
    let forced = match &opts.mcpu {
        Some(p) => Some(
            Decoder::for_processor(p)
                .with_context(|| format!("no instruction set description for processor {p}"))?,
        ),
        None => None,
    }
    .map(|d| if wave64 { d.wave64() } else { d });
    let annotations = crate::cmd::dis_lines::Annotations {
        lines: opts.line_numbers,
        source: opts.source,
        prefix: opts.prefix.clone(),
        prefix_strip: opts.prefix_strip,
        vars: opts.debug_vars.as_deref().map(|v| {
            if v == "ascii" {
                hsaco_dwarf::vars::Style::Ascii
            } else {
                hsaco_dwarf::vars::Style::Unicode
            }
        }),
        indent: opts.debug_indent,
        raw_insn: !opts.no_show_raw_insn,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut failed = false;
    for path in &opts.files {
        let name = path.display().to_string();
        // (a code object's listing needs only some of its sections: input::read_code_parts)
        let parts = (!opts.raw
            && !opts.kd
            && !opts.reassemble
            && !opts.line_numbers
            && !opts.source
            && opts.debug_vars.is_none()
            && path.as_os_str() != "-"
            && std::env::var_os("HSACO_NO_FAST_PATH").is_none())
        .then(|| {
            let ok = |flags| can_list_from_parts(forced, flags);
            match input::map_code(path, ok) {
                Some(map) => Some(Input::Mapped(map)),
                None => input::read_code_parts(path, ok).map(Input::Read),
            }
        })
        .flatten();
        let data = match parts {
            Some(data) => Ok(data),
            None => input::read_input(path).map(Input::Read),
        };
        let result = data.and_then(|data| {
            if opts.raw {
                let bytes = raw_bytes(&data);
                let dec = forced.context("--raw needs --mcpu")?;
                listing::write_code(&mut out, dec, &bytes, 0, &[], &options)
                    .map_err(anyhow::Error::from)
            } else {
                let how = How {
                    kd: opts.kd,
                    wave64,
                    annotations: &annotations,
                };
                dis_file(&mut out, &name, &data, forced, &options, how)
            }
        });
        if let Err(e) = result {
            if is_broken_pipe(&e) {
                return Ok(ExitCode::SUCCESS);
            }
            let _ = out.flush();
            let what = if e.chain().any(|c| c.is::<PartlyListed>()) {
                "listed in part"
            } else {
                "cannot disassemble"
            };
            crate::output::report_error(&e.context(format!("{name}: {what}")));
            failed = true;
        }
    }
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            return Err(e).context("writing to stdout")
        }
        _ => {}
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Whether an object with these `e_flags` is listed without its notes: when the
/// processor is given or `e_flags` name it (else, code object v2, it comes from the ISA
/// version note).
fn can_list_from_parts(forced: Option<Decoder>, e_flags: u32) -> bool {
    forced.is_some() || listing::processor_from_e_flags(e_flags).is_some()
}

/// A file's bytes: read into memory or mapped.
enum Input {
    Read(crate::aligned::AlignedBuf),
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Input::Read(b) => b,
            Input::Mapped(m) => m,
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn dis_file(
    out: &mut dyn Write,
    name: &str,
    data: &[u8],
    forced: Option<Decoder>,
    options: &listing::Options,
    how: How,
) -> Result<()> {
    let objects = code_objects(data).context("malformed container")?;
    if objects.is_empty() {
        bail!("no AMDGPU code object found");
    }
    let mut first_error = None;
    for (i, o) in objects.iter().enumerate() {
        let label = if o.container == ContainerKind::Plain {
            name.to_string()
        } else if o.entry_id.is_empty() {
            format!("{name}(#{i})")
        } else {
            format!("{name}({})", o.entry_id)
        };
        let r = dis_object(out, &label, &o.bytes, forced, options, how);
        if let Err(e) = r {
            if objects.len() == 1 || is_broken_pipe(&e) {
                return Err(e);
            }
            first_error.get_or_insert(e.context(label));
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn dis_object(
    out: &mut dyn Write,
    label: &str,
    bytes: &[u8],
    forced: Option<Decoder>,
    options: &listing::Options,
    how: How,
) -> Result<()> {
    let How {
        kd,
        wave64,
        annotations,
    } = how;
    let elf = Elf::parse(bytes).context("malformed ELF")?;
    if !elf.is_64() {
        // AMDGPUUsage: ELFCLASS32 is the r600 architecture's class
        let proc = CodeObject::parse(bytes)
            .ok()
            .and_then(|co| co.target_id().ok())
            .map(|t| t.processor.name)
            .unwrap_or("unknown processor");
        bail!(
            "r600 disassembly is not supported: this is an r600-architecture object ({proc}, \
             ELF32), and hsaco's instruction tables describe amdgcn (gfx6 to gfx12) only; \
             llvm-objdump-22 has no r600 disassembler either (\"no disassembler for target \
             r600-amd-\"). `hsaco read` shows its sections, symbols, relocations and \
             .AMDGPU.config"
        );
    }
    let dec = match forced {
        Some(d) => d,
        None => {
            let flags = elf.e_flags();
            // e_flags, else (code object v2) the ISA version note, as `read` does
            let proc = match listing::processor_from_e_flags(flags) {
                Some(p) => p,
                None => CodeObject::parse(bytes)
                    .ok()
                    .and_then(|co| co.target_id().ok())
                    .map(|t| t.processor.name)
                    .with_context(|| {
                        format!(
                            "unknown processor in e_flags {flags:#x} and no ISA version note; use --mcpu"
                        )
                    })?,
            };
            Decoder::for_processor(proc).with_context(|| {
                format!(
                    "no instruction set description for {proc} yet (gfx6 to gfx12 are described)"
                )
            })?
        }
    };
    let dec = if wave64 { dec.wave64() } else { dec };
    // a part that cannot be read is left out of the listing and reported after it
    let listed = if annotations.any() {
        let mut text = Vec::new();
        let r = listing::write_elf(&mut text, label, &elf, dec, options);
        crate::cmd::dis_lines::annotate(out, &text, &elf, bytes, label, annotations)?;
        r
    } else {
        listing::write_elf(out, label, &elf, dec, options)
    };
    let partial = match listed {
        Ok(()) => None,
        Err(listing::ListingError::Elf(e)) => Some(e),
        Err(e) => return Err(e.into()),
    };
    if kd {
        let co = CodeObject::parse(bytes).context("malformed ELF")?;
        let view = ObjectView::new(&co);
        write!(
            out,
            "\nKernel descriptors:\n\n{}",
            view.kernel_descriptor_text(&hsaco_check::TextOptions {
                verbose: false,
                demangle: options.demangle,
            })
        )?;
    }
    match partial {
        Some(e) => Err(anyhow::Error::new(PartlyListed(e))),
        None => Ok(()),
    }
}

/// What `dis` adds to a listing.
#[derive(Clone, Copy)]
struct How<'a> {
    kd: bool,
    wave64: bool,
    annotations: &'a crate::cmd::dis_lines::Annotations,
}

/// A part of an object could not be read; the rest was listed.
#[derive(Debug)]
struct PartlyListed(hsaco_elf::Error);

impl std::fmt::Display for PartlyListed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (left out of the listing)", self.0)
    }
}

impl std::error::Error for PartlyListed {}

/// Whether `--mattr` asks for wave64; an error for a feature `dis` does not know.
fn wave64_from_mattr(mattr: Option<&str>) -> Result<bool> {
    let mut wave64 = false;
    for f in mattr.unwrap_or("").split(',').map(str::trim) {
        match f {
            "" => {}
            "+wavefrontsize64" | "-wavefrontsize32" => wave64 = true,
            "+wavefrontsize32" | "-wavefrontsize64" => wave64 = false,
            // target features that do not change the text (xnack, sramecc, cumode, ...)
            other
                if other.len() > 1
                    && other.starts_with(['+', '-'])
                    && hsaco_target::TargetFeature::from_name(&other[1..]).is_some() => {}
            other => bail!(
                "--mattr: unknown feature {other:?} (features are +NAME or -NAME: \
                 wavefrontsize64, wavefrontsize32, xnack, sramecc, cumode, ...)"
            ),
        }
    }
    Ok(wave64)
}

/// The bytes of a --raw input: hex text if it is all hex digits, `0x`, commas and
/// whitespace (8-digit tokens are little-endian 32-bit words, shorter ones bytes),
/// else the bytes themselves.
fn raw_bytes(data: &[u8]) -> Vec<u8> {
    let is_text = !data.is_empty()
        && data
            .iter()
            .all(|b| b.is_ascii_hexdigit() || b"xX, \t\r\n".contains(b));
    if !is_text {
        return data.to_vec();
    }
    let text = String::from_utf8_lossy(data);
    let mut bytes = Vec::new();
    for tok in text.split(|c: char| c == ',' || c.is_whitespace()) {
        let t = tok.trim_start_matches("0x").trim_start_matches("0X");
        if t.is_empty() {
            continue;
        }
        match u32::from_str_radix(t, 16) {
            Ok(w) if t.len() > 2 => bytes.extend_from_slice(&w.to_le_bytes()),
            Ok(b) => bytes.push(b as u8),
            Err(_) => return data.to_vec(),
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A code object read in parts (`input::read_code_parts`) or mapped
    /// (`input::map_code`, files of 64 KiB or more) lists as the whole file does: the
    /// bytes not read are poisoned, so that output depending on one of them would
    /// differ.
    #[test]
    fn objects_read_in_parts_list_as_read_whole() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let (mut listed, mut smaller, mut mapped) = (0, 0, 0);
        let mut paths = Vec::new();
        for d in [
            "crates/hsaco-elf/tests/data/elf",
            "src/cmd/demo_data",
            "tests/cli/data",
            "tests/cli/data/library",
        ] {
            for e in std::fs::read_dir(root.join(d)).unwrap().flatten() {
                paths.push(e.path());
            }
        }
        // string tables of many pages, of which only some hold names listed
        let dir = std::env::temp_dir().join(format!("hsaco-dis-parts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (i, bytes) in sparse_names_objects().into_iter().enumerate() {
            let path = dir.join(format!("sparse-{i}.co"));
            std::fs::write(&path, bytes).unwrap();
            paths.push(path);
        }
        for path in paths {
            if !path.is_file() {
                continue;
            }
            let whole = std::fs::read(&path).unwrap();
            for symbolize_operands in [false, true] {
                let options = listing::Options {
                    show_raw_insn: true,
                    threads: 1,
                    symbolize_operands,
                    demangle: None,
                    source: false,
                };
                let list = |data: &[u8]| {
                    let mut out = Vec::new();
                    let how = How {
                        kd: false,
                        wave64: false,
                        annotations: &Default::default(),
                    };
                    let r = dis_file(&mut out, "f", data, None, &options, how);
                    (String::from_utf8(out), r.map_err(|e| format!("{e:#}")))
                };
                let flags_ok = |f| can_list_from_parts(None, f);
                if let Some(map) = input::map_code(&path, flags_ok) {
                    assert_eq!(list(&map), list(&whole), "{} mapped", path.display());
                    mapped += 1;
                }
                for poison in [0x00, 0xa5, 0xff] {
                    let Some((parts, read)) = input::code_parts(&path, flags_ok, Some(poison))
                    else {
                        continue;
                    };
                    assert_eq!(list(&parts), list(&whole), "{}", path.display());
                    listed += 1;
                    smaller += usize::from(read < whole.len());
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            listed >= 6 * 6 && smaller >= 6 * 4 && mapped >= 2 * 2,
            "{listed} {smaller} {mapped}"
        );
    }

    /// Code objects whose string table spans many pages: 12 functions with names of
    /// 1,500 to 4,250 characters (across page boundaries) among 588 data symbols with
    /// names of 400; the same with the table's last 5,000 bytes, names of data symbols,
    /// not NUL (its last page holds no NUL, and the last NUL is in a page whose names
    /// are not listed).
    fn sparse_names_objects() -> Vec<Vec<u8>> {
        use hsaco_elf::elf::consts::*;
        use hsaco_elf::elf::write::{Builder, SectionSpec, SymbolSection, SymbolSpec};
        let mut b = Builder::new(
            ET_REL,
            ELFOSABI_AMDGPU_HSA,
            ELFABIVERSION_AMDGPU_HSA_V5,
            0x3f,
        );
        // s_nop 0 and s_endpgm (gfx90a)
        let code: Vec<u8> = (0..12 * 64)
            .flat_map(|i: u32| {
                (if i % 64 == 63 {
                    0xbf81_0000u32
                } else {
                    0xbf80_0000 | (i % 7)
                })
                .to_le_bytes()
            })
            .collect();
        let text = b.add_section(SectionSpec::progbits(
            ".text",
            SHF_ALLOC | SHF_EXECINSTR,
            256,
            code,
        ));
        let data = b.add_section(SectionSpec::progbits(
            ".rodata",
            SHF_ALLOC,
            16,
            vec![7; 600 * 8],
        ));
        for i in 0..600u64 {
            let (name, section, st_type, value) = if i % 50 == 20 {
                let f = i / 50;
                let name = format!("f{f}_{}", "x".repeat(1500 + 250 * f as usize));
                (name, text, STT_FUNC, f * 256)
            } else {
                (format!("d{i}_{}", "y".repeat(400)), data, STT_OBJECT, i * 8)
            };
            b.add_symbol(SymbolSpec {
                name,
                value,
                size: 8,
                st_type,
                bind: STB_GLOBAL,
                other: STV_PROTECTED,
                section: SymbolSection::Section(section),
            });
        }
        let plain = b.write().unwrap();
        let elf = Elf::parse(&plain).unwrap();
        let strtab = elf.section_by_name(".strtab").unwrap();
        assert!(strtab.size > 100_000, "{}", strtab.size);
        let end = (strtab.offset + strtab.size) as usize;
        let mut unended = plain.clone();
        unended[end - 5000..end].fill(b'z');
        vec![plain, unended]
    }
}
