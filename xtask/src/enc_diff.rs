//! `cargo xtask enc-diff`: every instruction statement of the corpus `.s` files through
//! `hsaco_isa::asm::Assembler::encode`, compared with `llvm-mc-22 -show-encoding` of
//! the same line (per processor; symbolic operands compared as llvm-mc's zero fixup
//! bytes).

use crate::Options;
use anyhow::{bail, Context, Result};
use hsaco_isa::asm::{Assembler, ExprValue, RelocVariant, SymbolLookup};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Every expression is a symbol (the variant and addend parsed from `sym@var+N`).
struct AnySymbol;

impl SymbolLookup for AnySymbol {
    fn expr(&mut self, text: &str) -> Result<ExprValue, String> {
        let (base, addend) = match text.rfind(['+', '-']) {
            Some(p) if p > 0 => match text[p..].replace('+', "").parse::<i64>() {
                Ok(a) => (&text[..p], a),
                Err(_) => (text, 0),
            },
            _ => (text, 0),
        };
        let (symbol, variant) = match base.split_once('@') {
            Some((s, v)) => (
                s,
                match v {
                    "rel32@lo" => RelocVariant::Rel32Lo,
                    "rel32@hi" => RelocVariant::Rel32Hi,
                    "abs32@lo" => RelocVariant::Abs32Lo,
                    "abs32@hi" => RelocVariant::Abs32Hi,
                    "rel64" => RelocVariant::Rel64,
                    "gotpcrel" => RelocVariant::GotPcRel,
                    "gotpcrel32@lo" => RelocVariant::GotPcRel32Lo,
                    "gotpcrel32@hi" => RelocVariant::GotPcRel32Hi,
                    _ => return Err(format!("unknown variant @{v}")),
                },
            ),
            None => (base, RelocVariant::None),
        };
        Ok(ExprValue::Symbolic {
            symbol: symbol.to_string(),
            addend,
            variant,
        })
    }
}

/// Instruction statements of an assembly file and its processor (and wave64).
fn statements(path: &Path) -> Result<(String, bool, Vec<String>)> {
    let text = std::fs::read_to_string(path)?;
    let mut proc = String::new();
    let mut wave64 = false;
    let mut lines = Vec::new();
    let mut yaml = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with(".amdgpu_metadata") {
            yaml = true;
        }
        if t.starts_with(".end_amdgpu_metadata") {
            yaml = false;
        }
        if yaml {
            continue;
        }
        if let Some(r) = t.strip_prefix(".amdgcn_target \"amdgcn-amd-amdhsa--") {
            let target = r.trim_end_matches('"');
            proc = target.split(':').next().unwrap_or("").to_string();
            wave64 |= target.contains("+wavefrontsize64");
            continue;
        }
        if t.starts_with(".amdhsa_wavefront_size32 0") {
            wave64 = true;
        }
        let s = t.split(';').next().unwrap_or("").trim();
        if s.is_empty()
            || s.starts_with('.')
            || s.ends_with(':')
            || s.starts_with("//")
            || !s.as_bytes()[0].is_ascii_lowercase()
        {
            continue;
        }
        lines.push(s.to_string());
    }
    Ok((proc, wave64, lines))
}

/// llvm-mc's encodings of `lines` (None where it reports an error).
fn llvm_encodings(proc: &str, wave64: bool, lines: &[String]) -> Result<Vec<Option<Vec<u8>>>> {
    let mut cmd = Command::new("llvm-mc-22");
    cmd.args([
        "-triple=amdgcn-amd-amdhsa",
        &format!("-mcpu={proc}"),
        "-show-encoding",
    ]);
    if wave64 {
        cmd.arg("-mattr=+wavefrontsize64");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("running llvm-mc-22")?;
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut stdin = child.stdin.take().context("stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output()?;
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut bad = BTreeSet::new();
    for l in stderr.lines() {
        if let Some(r) = l.strip_prefix("<stdin>:") {
            if let Some((n, rest)) = r.split_once(':') {
                if rest.contains("error:")
                    || rest.split_once(':').is_some_and(|x| x.1.contains("error:"))
                {
                    if let Ok(n) = n.parse::<usize>() {
                        bad.insert(n - 1);
                    }
                }
            }
        }
    }
    let mut encs = stdout.lines().filter_map(|l| {
        let p = l.find("encoding: [")?;
        let inner = &l[p + 11..];
        let inner = &inner[..inner.find(']')?];
        Some(crate::corpus::encoding_bytes(inner))
    });
    let mut res = Vec::with_capacity(lines.len());
    for i in 0..lines.len() {
        if bad.contains(&i) {
            res.push(None);
        } else {
            res.push(Some(
                encs.next()
                    .context("llvm-mc printed fewer encodings than lines")?,
            ));
        }
    }
    if encs.next().is_some() {
        bail!("llvm-mc printed more encodings than lines");
    }
    Ok(res)
}

pub fn run(opts: &Options, show: usize) -> Result<()> {
    let corpus = opts.corpus_dir()?;
    let files = crate::corpus::assembly_files(&corpus)?;
    // (processor, wave64) -> unique statements
    let mut groups: BTreeMap<(String, bool), BTreeSet<String>> = BTreeMap::new();
    let mut total_lines = 0usize;
    for f in &files {
        let (proc, w64, lines) = statements(f)?;
        if proc.is_empty() {
            continue;
        }
        total_lines += lines.len();
        groups.entry((proc, w64)).or_default().extend(lines);
    }
    let out_dir = crate::root().join("target/enc-diff");
    std::fs::create_dir_all(&out_dir)?;
    println!(
        "enc-diff: {} files, {} instruction lines, {} unique per processor",
        files.len(),
        total_lines,
        groups.values().map(|g| g.len()).sum::<usize>()
    );
    println!(
        "{:<18} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "processor", "lines", "llvm-ok", "same", "differ", "error"
    );
    let (mut all_same, mut all_ok) = (0usize, 0usize);
    let (mut llvm_time, mut our_time, mut timed) =
        (std::time::Duration::ZERO, std::time::Duration::ZERO, 0usize);
    for ((proc, w64), set) in &groups {
        let mut lines: Vec<String> = set.iter().cloned().collect();
        if let Some(l) = opts.limit {
            lines.truncate(l);
        }
        let Some(mut asm) = Assembler::for_processor(proc) else {
            println!("{proc}: no assembler");
            continue;
        };
        if *w64 {
            asm = asm.wave64();
        }
        let t0 = std::time::Instant::now();
        let want = llvm_encodings(proc, *w64, &lines)?;
        llvm_time += t0.elapsed();
        // speed: every unique line once more without the statement cache (the special
        // immediates' solver cache is warm after a first pass)
        {
            let cold = asm.uncached();
            let mut buf = Vec::new();
            for l in &lines {
                buf.clear();
                let _ = cold.encode(l, 0, &mut AnySymbol, &mut buf);
            }
            let t1 = std::time::Instant::now();
            for l in &lines {
                buf.clear();
                let _ = cold.encode(l, 0, &mut AnySymbol, &mut buf);
            }
            our_time += t1.elapsed();
            timed += lines.len();
        }
        let (mut ok, mut same, mut differ, mut error) = (0, 0, 0, 0);
        let mut report = String::new();
        let mut buf = Vec::new();
        for (line, w) in lines.iter().zip(&want) {
            let Some(w) = w else { continue };
            ok += 1;
            buf.clear();
            match asm.encode(line, 0, &mut AnySymbol, &mut buf) {
                Ok(_) if buf == *w => same += 1,
                Ok(_) => {
                    differ += 1;
                    report.push_str(&format!(
                        "DIFF {line}\n  llvm  {}\n  hsaco {}\n",
                        hex(w),
                        hex(&buf)
                    ));
                }
                Err(e) => {
                    error += 1;
                    report.push_str(&format!(
                        "ERR  {line}\n  llvm  {}\n  {}: {}\n",
                        hex(w),
                        e.span.start,
                        e.message
                    ));
                }
            }
        }
        all_same += same;
        all_ok += ok;
        let name = if *w64 {
            format!("{proc}+w64")
        } else {
            proc.clone()
        };
        println!(
            "{name:<18} {:>7} {ok:>7} {same:>7} {differ:>7} {error:>7}",
            lines.len()
        );
        std::fs::write(out_dir.join(format!("{name}.txt")), &report)?;
        if show > 0 {
            for l in report.lines().take(show * 3) {
                println!("    {l}");
            }
        }
    }
    // every line of every file in order, with the statement cache (repeats are hits)
    let (mut all_time, mut all_lines) = (std::time::Duration::ZERO, 0usize);
    for f in &files {
        let (proc, w64, lines) = statements(f)?;
        let Some(mut asm) = Assembler::for_processor(&proc) else {
            continue;
        };
        if w64 {
            asm = asm.wave64();
        }
        let mut buf = Vec::new();
        let t = std::time::Instant::now();
        for l in &lines {
            let _ = asm.encode(l, 0, &mut AnySymbol, &mut buf);
        }
        all_time += t.elapsed();
        all_lines += lines.len();
    }
    println!(
        "speed: all {all_lines} corpus lines in file order with the statement cache: {:.0} ns/statement",
        all_time.as_nanos() as f64 / all_lines.max(1) as f64
    );
    println!(
        "speed: unique lines, no statement cache: hsaco {:.0} ns/statement (one thread), llvm-mc-22 -show-encoding {:.0} ns/statement (process included)",
        our_time.as_nanos() as f64 / timed.max(1) as f64,
        llvm_time.as_nanos() as f64 / timed.max(1) as f64
    );
    println!("total: {all_same} of {all_ok} statements llvm-mc encodes are the same ({} differ or fail); details in target/enc-diff/", all_ok - all_same);
    if all_same != all_ok {
        bail!("enc-diff: {} statements differ", all_ok - all_same);
    }
    Ok(())
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `cargo xtask enc-one PROC[+w64] TEXT`: encode one statement, show hsaco's and llvm-mc's bytes.
pub fn one(args: &[String]) -> Result<()> {
    let (proc, text) = args.split_first().context("enc-one PROC TEXT")?;
    let text = text.join(" ");
    // `gfx1100+w64`: wave64
    let (proc, w64) = match proc.strip_suffix("+w64") {
        Some(p) => (p, true),
        None => (proc.as_str(), false),
    };
    let mut asm = Assembler::for_processor(proc).context("unknown processor")?;
    if w64 {
        asm = asm.wave64();
    }
    let mut buf = Vec::new();
    match asm.encode(&text, 0, &mut AnySymbol, &mut buf) {
        Ok(e) => println!("hsaco {} {:?}", hex(&buf), e),
        Err(e) => println!("hsaco error at {:?}: {}", e.span, e.message),
    }
    let w = llvm_encodings(proc, w64, &[text])?;
    println!(
        "llvm  {}",
        w[0].as_ref().map_or("error".to_string(), |b| hex(b))
    );
    Ok(())
}
