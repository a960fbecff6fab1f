//! `hsaco run`: run a kernel on the CPU emulator.

use crate::input;
use anyhow::{bail, Context, Result};
use clap::Args;
use hsaco_emu::{ArgValue, Dispatch, Elem, RunOptions};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

mod trace_vars;

/// Run a kernel of a code object on the CPU, set up as the ROCm runtime and the
/// command processor set it up (kernarg segment with hidden arguments, dispatch
/// packet, queue, scratch, initial registers), and print its buffers.
///
/// --grid is the total number of work-items per dimension, --block the work-group
/// size; the last work-group of a dimension may be partial. --arg values come in the
/// kernel's argument order and are checked against its metadata:
///   scalars   i32=-3  u32=7  i64=..  u64=..  f32=1.5  f64=..
///   buffers   buf:f32:N=iota  buf:f32:N=fill(1.5)  buf:u32:N=zeros
///             buf:f32:N=rand(SEED)  buf:u8:N=@file.bin   (element types u8 i8 u16
///             i16 u32 i32 u64 i64 f32 f64)
///   LDS       lds:BYTES   (a `local` pointer argument: the bytes of its array)
/// An unimplemented instruction, a memory fault, a trap or an exhausted instruction
/// budget is an error naming the instruction and where it is (exit status 1).
/// --threads N runs the work-groups on N threads (one when the kernel has printf or
/// clock reads); with global atomics the threads share the buffers.
/// --trace-vars (with --trace, for a code object built with -g) prints after each
/// traced instruction the source variables in scope whose value changed, for lane
/// --lane N (default 0): read where the DWARF locations say (registers, scratch,
/// memory) as the next instruction sees them, worded by their base types (signed,
/// unsigned, float, bool; pointers in hex).
///
/// Examples:
///   hsaco run 01_vadd.co --kernel vadd_f32 --grid 1000 --block 256 \
///       --arg buf:f32:1000=iota --arg buf:f32:1000=fill(2) --arg buf:f32:1000=zeros \
///       --arg u32=1000
///   hsaco run tests/cli/data/trace_vars/add-g-O2-gfx90a.co --kernel add \
///       --grid 64 --block 64 --arg buf:i32:64=iota --arg buf:i32:64=fill(10) \
///       --arg buf:i32:64=zeros --arg f32=0.5 --arg buf:f32:64=zeros \
///       --trace 0:0 --trace-vars --lane 5
///     ...   (add.cl: int sum = a + b elementwise; unsigned twice = sum * 2u)
///     0x7f3a1200173c: v_add_u32_e32 v1, v2, v1
///         lane 5: sum = 15 (int)
///         lane 5: twice = 30 (unsigned int)
///   hsaco run --coverage                 the operations implemented per generation
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The code object (or a bundle / offload binary holding one).
    #[arg(required_unless_present = "coverage")]
    pub file: Option<PathBuf>,
    /// Kernel name (`.name`, or its symbol).
    #[arg(long, short = 'k', required_unless_present = "coverage")]
    pub kernel: Option<String>,
    /// Work-items per dimension: X or X,Y or X,Y,Z.
    #[arg(long, default_value = "1")]
    pub grid: String,
    /// Work-group size: X or X,Y or X,Y,Z.
    #[arg(long, default_value = "1")]
    pub block: String,
    /// A kernel argument (repeat, in order).
    #[arg(long = "arg")]
    pub args: Vec<String>,
    /// Dynamic LDS bytes per work-group.
    #[arg(long, default_value_t = 0)]
    pub dynamic_lds: u32,
    /// With several code objects in FILE, the one for this processor.
    #[arg(long)]
    pub device: Option<String>,
    /// Host threads for the work-groups (one when the kernel has printf or clock
    /// reads).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Wave-instructions one wave may execute.
    #[arg(long, default_value_t = 100_000_000)]
    pub budget: u64,
    /// Print buffers and statistics as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write each buffer to DIR/arg<INDEX>.bin.
    #[arg(long)]
    pub dump: Option<PathBuf>,
    /// Trace one wave: GX:WAVE, GX,GY:WAVE or GX,GY,GZ:WAVE (work-group and wave in it,
    /// from 0), printed on stderr.
    #[arg(long)]
    pub trace: Option<String>,
    /// With --trace: after each instruction, the source variables (DWARF, -g) whose
    /// value changed, for lane --lane.
    #[arg(long, requires = "trace")]
    pub trace_vars: bool,
    /// The lane whose variables --trace-vars shows.
    #[arg(long, default_value_t = 0, requires = "trace_vars")]
    pub lane: u32,
    /// Do not print the buffers (statistics only; with --json, "buffers" is empty).
    #[arg(long)]
    pub quiet: bool,
    /// Print the implemented operations of each generation and exit.
    #[arg(long)]
    pub coverage: bool,
}

fn dims(s: &str, what: &str) -> Result<[u32; 3]> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        bail!("--{what} {s}: expected X[,Y[,Z]]");
    }
    let mut d = [1u32; 3];
    for (k, p) in parts.iter().enumerate() {
        d[k] = p
            .trim()
            .parse()
            .with_context(|| format!("--{what} {s}: {p} is not a number"))?;
        if d[k] == 0 {
            bail!("--{what} {s}: sizes start at 1");
        }
    }
    Ok(d)
}

/// A deterministic generator (splitmix64) for `rand(SEED)`.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn elem_bytes(elem: Elem, v: f64, bits: u64) -> Vec<u8> {
    match elem {
        Elem::U8 | Elem::I8 => vec![v as i64 as u8],
        Elem::U16 | Elem::I16 => (v as i64 as u16).to_le_bytes().to_vec(),
        Elem::U32 | Elem::I32 => (v as i64 as u32).to_le_bytes().to_vec(),
        Elem::U64 | Elem::I64 => (v as i64 as u64).to_le_bytes().to_vec(),
        Elem::F16 => (bits as u16).to_le_bytes().to_vec(),
        Elem::F32 => (v as f32).to_le_bytes().to_vec(),
        Elem::F64 => v.to_le_bytes().to_vec(),
    }
}

/// Parse one `--arg`.
pub fn parse_arg(spec: &str) -> Result<ArgValue> {
    if let Some(rest) = spec.strip_prefix("buf:") {
        let (head, init) = rest
            .split_once('=')
            .with_context(|| format!("--arg {spec}: expected buf:TYPE:N=INIT"))?;
        let (ty, n) = head
            .split_once(':')
            .with_context(|| format!("--arg {spec}: expected buf:TYPE:N=INIT"))?;
        let elem = Elem::parse(ty).with_context(|| format!("--arg {spec}: unknown type {ty}"))?;
        let n: usize = n
            .parse()
            .with_context(|| format!("--arg {spec}: {n} is not a count"))?;
        if n > 1 << 28 {
            bail!("--arg {spec}: {n} elements is too many");
        }
        let data = if init == "zeros" {
            vec![0u8; n * elem.size()]
        } else if init == "iota" {
            (0..n).flat_map(|i| elem_bytes(elem, i as f64, 0)).collect()
        } else if let Some(v) = init.strip_prefix("fill(").and_then(|s| s.strip_suffix(')')) {
            let x: f64 = v
                .parse()
                .with_context(|| format!("--arg {spec}: {v} is not a number"))?;
            (0..n).flat_map(|_| elem_bytes(elem, x, 0)).collect()
        } else if let Some(v) = init.strip_prefix("rand(").and_then(|s| s.strip_suffix(')')) {
            let mut st: u64 = v
                .parse()
                .with_context(|| format!("--arg {spec}: {v} is not a seed"))?;
            (0..n)
                .flat_map(|_| {
                    let r = splitmix(&mut st);
                    match elem {
                        // floats uniform in [0, 1)
                        Elem::F32 | Elem::F64 | Elem::F16 => {
                            elem_bytes(elem, (r >> 11) as f64 / (1u64 << 53) as f64, 0)
                        }
                        _ => r.to_le_bytes()[..elem.size()].to_vec(),
                    }
                })
                .collect()
        } else if let Some(path) = init.strip_prefix('@') {
            let mut d = std::fs::read(path).with_context(|| format!("--arg {spec}: {path}"))?;
            d.resize(n * elem.size(), 0);
            d
        } else {
            bail!("--arg {spec}: unknown initializer {init} (iota, zeros, fill(X), rand(SEED), @FILE)");
        };
        return Ok(ArgValue::Buffer { elem, data });
    }
    if let Some(n) = spec.strip_prefix("lds:") {
        let n: u32 = n
            .parse()
            .with_context(|| format!("--arg {spec}: {n} is not a byte count"))?;
        return Ok(ArgValue::Scalar(n.to_le_bytes().to_vec()));
    }
    let (ty, v) = spec
        .split_once('=')
        .with_context(|| format!("--arg {spec}: expected TYPE=VALUE or buf:TYPE:N=INIT"))?;
    let bad = || format!("--arg {spec}: {v} is not a {ty}");
    let bytes = match ty {
        "i8" => v.parse::<i8>().with_context(bad)?.to_le_bytes().to_vec(),
        "u8" => v.parse::<u8>().with_context(bad)?.to_le_bytes().to_vec(),
        "i16" => v.parse::<i16>().with_context(bad)?.to_le_bytes().to_vec(),
        "u16" => v.parse::<u16>().with_context(bad)?.to_le_bytes().to_vec(),
        "i32" => v.parse::<i32>().with_context(bad)?.to_le_bytes().to_vec(),
        "u32" => v.parse::<u32>().with_context(bad)?.to_le_bytes().to_vec(),
        "i64" => v.parse::<i64>().with_context(bad)?.to_le_bytes().to_vec(),
        "u64" => v.parse::<u64>().with_context(bad)?.to_le_bytes().to_vec(),
        "f32" => v.parse::<f32>().with_context(bad)?.to_le_bytes().to_vec(),
        "f64" => v.parse::<f64>().with_context(bad)?.to_le_bytes().to_vec(),
        _ => bail!("--arg {spec}: unknown type {ty}"),
    };
    Ok(ArgValue::Scalar(bytes))
}

/// The elements of a buffer as JSON values.
fn values(elem: Elem, data: &[u8]) -> Vec<serde_json::Value> {
    data.chunks_exact(elem.size())
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            let u = u64::from_le_bytes(b);
            match elem {
                Elem::U8 | Elem::U16 | Elem::U32 | Elem::U64 => json!(u),
                Elem::I8 => json!(u as u8 as i8),
                Elem::I16 => json!(u as u16 as i16),
                Elem::I32 => json!(u as u32 as i32),
                Elem::I64 => json!(u as i64),
                Elem::F16 => json!(format!("{:#06x}", u as u16)),
                Elem::F32 => float_json(f64::from(f32::from_bits(u as u32))),
                Elem::F64 => float_json(f64::from_bits(u)),
            }
        })
        .collect()
}

fn float_json(x: f64) -> serde_json::Value {
    if x.is_finite() {
        json!(x)
    } else if x.is_nan() {
        json!("nan")
    } else if x > 0.0 {
        json!("inf")
    } else {
        json!("-inf")
    }
}

fn text_values(elem: Elem, data: &[u8]) -> String {
    data.chunks_exact(elem.size())
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            let u = u64::from_le_bytes(b);
            match elem {
                Elem::U8 | Elem::U16 | Elem::U32 | Elem::U64 => u.to_string(),
                Elem::I8 => (u as u8 as i8).to_string(),
                Elem::I16 => (u as u16 as i16).to_string(),
                Elem::I32 => (u as u32 as i32).to_string(),
                Elem::I64 => (u as i64).to_string(),
                Elem::F16 => format!("{:#06x}", u as u16),
                Elem::F32 => format!("{:?}", f32::from_bits(u as u32)),
                Elem::F64 => format!("{:?}", f64::from_bits(u)),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn coverage() -> Result<ExitCode> {
    for isa in hsaco_isa::generations() {
        let c = hsaco_emu::ops::coverage(isa);
        let total = c.implemented.len() + c.missing.len();
        println!(
            "{}: {} of {} operations implemented",
            c.generation,
            c.implemented.len(),
            total
        );
        if !c.implemented.is_empty() {
            println!("  {}", c.implemented.join(" "));
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(opts: Opts) -> Result<ExitCode> {
    if opts.coverage {
        return coverage();
    }
    let (Some(file), Some(kernel)) = (&opts.file, &opts.kernel) else {
        bail!("FILE and --kernel are required");
    };
    let data = input::read_input(file)?;
    let name = file.display().to_string();
    // a code object, or the one code object of a container (by --device)
    let objects = hsaco_elf::bundle::code_objects(&data)
        .with_context(|| format!("{name}: malformed container"))?;
    let bytes: Vec<u8> = match objects.len() {
        0 => bail!("{name}: no AMDGPU code object found"),
        1 => objects[0].bytes.to_vec(),
        _ => {
            let Some(dev) = &opts.device else {
                bail!(
                    "{name} holds {} code objects ({}): pick one with --device",
                    objects.len(),
                    objects
                        .iter()
                        .map(|o| o.target_id.clone().unwrap_or_default())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            };
            let proc = hsaco_target::Processor::by_name(dev)
                .or_else(|| hsaco_target::Processor::by_product(dev))
                .with_context(|| format!("--device {dev}: unknown device"))?;
            let pick = objects.iter().find(|o| {
                o.target_id
                    .as_deref()
                    .is_some_and(|t| t.split(':').next() == Some(proc.name))
            });
            match pick {
                Some(o) => o.bytes.to_vec(),
                None => bail!("{name}: no code object for {}", proc.name),
            }
        }
    };
    let mut args = Vec::new();
    for a in &opts.args {
        args.push(parse_arg(a)?);
    }
    let disp = Dispatch {
        grid: dims(&opts.grid, "grid")?,
        block: dims(&opts.block, "block")?,
        dynamic_lds: opts.dynamic_lds,
        args,
    };
    let trace = match &opts.trace {
        None => None,
        Some(t) => {
            let (g, w) = t.split_once(':').unwrap_or((t.as_str(), "0"));
            let mut gid = [0u32; 3];
            for (k, p) in g.split(',').take(3).enumerate() {
                gid[k] = p
                    .trim()
                    .parse()
                    .with_context(|| format!("--trace {t}: bad work-group"))?;
            }
            let g = gid;
            let w: u32 = w
                .parse()
                .with_context(|| format!("--trace {t}: bad wave"))?;
            Some((g, w))
        }
    };
    let run_opts = RunOptions {
        budget: opts.budget,
        threads: opts.threads.max(1),
        trace,
    };
    let out = if opts.trace_vars {
        let obj = hsaco_dwarf::load::DwarfObject::from_elf(&bytes)
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        if !obj.has(".debug_info") {
            bail!("{name}: --trace-vars needs debug information (build with -g)");
        }
        let k = hsaco_emu::load(&bytes, kernel).map_err(anyhow::Error::new)?;
        if opts.lane >= k.wave_size() {
            bail!(
                "--lane {}: the kernel's waves have {} lanes",
                opts.lane,
                k.wave_size()
            );
        }
        let base = k.load_base;
        let unswizzled = !k.device.processor.has_architected_flat_scratch();
        let mut tracer = trace_vars::VarTracer::new(obj, opts.lane, base, unswizzled);
        let out = hsaco_emu::run_observed(&bytes, kernel, &disp, &run_opts, &mut tracer);
        // the trace with the variables (in place of the plain one)
        for line in &tracer.lines {
            eprintln!("{line}");
        }
        out.map(|mut o| {
            o.trace.clear();
            o
        })
        .map_err(|e| match e {
            hsaco_emu::EmuError::Exec(mut x) => {
                x.trace.clear();
                hsaco_emu::EmuError::Exec(x)
            }
            e => e,
        })
    } else {
        hsaco_emu::run(&bytes, kernel, &disp, &run_opts)
    };
    if let Err(hsaco_emu::EmuError::Exec(x)) = &out {
        for line in &x.trace {
            eprintln!("{line}");
        }
    }
    let out = out.map_err(anyhow::Error::new)?;
    for line in &out.trace {
        eprintln!("{line}");
    }
    if !opts.json {
        print!("{}", out.printf);
    }
    if let Some(dir) = &opts.dump {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
        for b in &out.buffers {
            let p = dir.join(format!("arg{}.bin", b.arg));
            std::fs::write(&p, &b.data).with_context(|| p.display().to_string())?;
        }
    }
    let s = out.stats;
    let rate = if s.seconds > 0.0 {
        s.wave_instructions as f64 / s.seconds
    } else {
        0.0
    };
    if opts.json {
        let buffers: Vec<_> = out
            .buffers
            .iter()
            .filter(|_| !opts.quiet)
            .map(
                |b| json!({"arg": b.arg, "type": b.elem.name(), "values": values(b.elem, &b.data)}),
            )
            .collect();
        let doc = json!({
            "printf": out.printf,
            "buffers": buffers,
            "stats": {
                "wave_instructions": s.wave_instructions,
                "lane_operations": s.lane_operations,
                "seconds": s.seconds,
                "wave_instructions_per_second": rate,
                "threads": s.threads,
            }
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        for b in out.buffers.iter().filter(|_| !opts.quiet) {
            println!(
                "arg {} ({}[{}]): {}",
                b.arg,
                b.elem.name(),
                b.data.len() / b.elem.size(),
                text_values(b.elem, &b.data)
            );
        }
        eprintln!(
            "{} wave-instructions, {} lane operations, {:.6} s ({:.0} wave-instructions/s, {} thread{})",
            s.wave_instructions,
            s.lane_operations,
            s.seconds,
            rate,
            s.threads,
            if s.threads == 1 { "" } else { "s" }
        );
    }
    Ok(ExitCode::SUCCESS)
}
