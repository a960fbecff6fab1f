//! The report of one input: text for people, JSON for programs.

use std::fmt::Write as _;

use hsaco_target::Verdict;
use serde_json::{json, Value};

use crate::check::{DeviceReport, RuntimeReport};
use crate::group::{merge_by_kernel, NameList, TextOptions};
use crate::object::{KernelInfo, ObjectInfo};
use crate::runtime::{Fact, Runtime};
use crate::{Problem, Severity};

/// Everything `hsaco check` found in one input.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The code objects, in input order.
    pub objects: Vec<ObjectInfo>,
    /// One entry per `--device`.
    pub devices: Vec<DeviceReport>,
    /// Runtime results per code object when no device was named.
    pub runtimes: Vec<RuntimeReport>,
}

impl Report {
    /// Every problem, with the part of the report it belongs to.
    pub fn problems(&self) -> impl Iterator<Item = &Problem> {
        self.objects
            .iter()
            .flat_map(|o| o.problems.iter())
            .chain(
                self.devices
                    .iter()
                    .flat_map(|d| d.runtimes.iter().flat_map(|r| r.problems.iter())),
            )
            .chain(self.runtimes.iter().flat_map(|r| r.problems.iter()))
    }

    /// Whether anything fails: a device without a code object it can run, a
    /// runtime that will not load or run it, or an error in a code object.
    pub fn has_errors(&self) -> bool {
        self.devices.iter().any(|d| d.selected.is_none())
            || self.problems().any(|p| p.severity == Severity::Error)
    }

    /// The report as text: for each device what runs and why, for each runtime
    /// what fails, why, and what to change. Kernel lists are cut to a few names
    /// ([`TextOptions::default`]; [`Report::to_text_with`] for all of them).
    pub fn to_text(&self) -> String {
        self.to_text_with(&TextOptions::default())
    }

    /// The report as text, names rendered as `opts` asks: findings that differ only
    /// in their kernels are merged into one that lists the kernels, and a list of
    /// kernels longer than a few names is cut to a count, the first names and
    /// "and N more" unless `opts.verbose`.
    pub fn to_text_with(&self, opts: &TextOptions) -> String {
        let mut s = String::new();
        for o in &self.objects {
            let _ = write!(s, "{}: {}", o.label(), o.container);
            if !o.kernels.is_empty() {
                push_kernels(&mut s, o, opts);
            }
            s.push('\n');
            if let Err(e) = &o.target {
                let _ = writeln!(s, "  target not readable: {e}");
            }
            if !o.pre_gfx9_hidden.is_empty() {
                let args: Vec<String> = o
                    .pre_gfx9_hidden
                    .iter()
                    .map(|h| format!("{h} ({})", h.v5_offset().unwrap_or(0)))
                    .collect();
                let _ = writeln!(
                    s,
                    "  metadata lists pre-gfx9 hidden arguments: {}",
                    args.join(", ")
                );
            }
            let readers: Vec<&KernelInfo> = o
                .kernels
                .iter()
                .filter(|k| !k.hidden_reads.is_empty())
                .collect();
            let shown = NameList::new(
                &readers.iter().map(|k| &k.name).collect::<Vec<_>>(),
                opts.verbose,
            );
            for k in &readers[..shown.shown.len()] {
                for r in &k.hidden_reads {
                    let _ = writeln!(
                        s,
                        "  kernel {} loads {} at {:#x}: {}",
                        opts.name(&k.name),
                        r.arg,
                        r.address,
                        r.text
                    );
                }
            }
            if shown.more > 0 {
                let _ = writeln!(
                    s,
                    "  and {} more kernels load such fields (--verbose for all)",
                    shown.more
                );
            }
            for p in &merge_by_kernel(&o.problems) {
                push_problem(&mut s, p, "  ", opts, o.kernels.len());
            }
        }
        for d in &self.devices {
            s.push('\n');
            match d.selected {
                Some(i) => {
                    let label = self
                        .objects
                        .get(i)
                        .map(ObjectInfo::label)
                        .unwrap_or_default();
                    let c = d.candidates.iter().find(|c| c.object == i);
                    let how = match c.map(|c| c.verdict()) {
                        Some(Verdict::DependsOnDevice) => "runs only if the device matches",
                        _ => "runs",
                    };
                    let _ = writeln!(s, "device {}: {how} {label}", d.device);
                    if let Some(c) = c {
                        for r in &c.rules {
                            let mark = match r.verdict() {
                                Verdict::Compatible => "ok",
                                Verdict::DependsOnDevice => "??",
                                Verdict::Incompatible => "no",
                            };
                            let _ = writeln!(s, "  {mark} {r}");
                        }
                    }
                }
                None => {
                    let _ = writeln!(
                        s,
                        "device {}: NO CODE OBJECT RUNS (HIP: \"invalid device function\" / \
                         \"no kernel image is available for execution on the device\")",
                        d.device
                    );
                    for c in &d.candidates {
                        let label = self
                            .objects
                            .get(c.object)
                            .map(ObjectInfo::label)
                            .unwrap_or_default();
                        if let Some(r) = c.deciding_rule() {
                            let _ = writeln!(s, "  no {label}: {r}");
                        }
                    }
                    if let Some(n) = &d.no_image {
                        if let Some(i) = n.closest {
                            let label = self
                                .objects
                                .get(i)
                                .map(ObjectInfo::label)
                                .unwrap_or_default();
                            let _ = writeln!(
                                s,
                                "  closest: {label}{}",
                                if n.closest_in_family {
                                    " (a generic target of the device's family)"
                                } else {
                                    ""
                                }
                            );
                        }
                        if n.device_families.is_empty() {
                            let _ = writeln!(
                                s,
                                "  generic family: {} is in no generic family",
                                d.device.processor().name
                            );
                        } else {
                            let _ = writeln!(
                                s,
                                "  generic family: {} is in {}",
                                d.device.processor().name,
                                n.device_families.join(", ")
                            );
                        }
                        if let Some(o) = &n.gfx_override {
                            let _ = writeln!(
                                s,
                                "  override: HSA_OVERRIDE_GFX_VERSION={} makes ROCr report the device as {} and load that code object; risk {}: {}",
                                o.value, o.processor, o.risk.name(), o.why
                            );
                        }
                        if !n.fix.is_empty() {
                            let _ = writeln!(s, "  fix: {}", n.fix);
                        }
                    }
                }
            }
            for r in &d.runtimes {
                push_runtime(&mut s, r, &self.objects, opts);
            }
        }
        if !self.runtimes.is_empty() {
            s.push('\n');
            for r in &self.runtimes {
                push_runtime(&mut s, r, &self.objects, opts);
            }
        }
        s
    }

    /// The report as JSON (schema in the crate documentation).
    pub fn to_json(&self) -> Value {
        obj! {
            "ok": !self.has_errors(),
            "objects": self.objects.iter().map(object_json).collect::<Vec<_>>(),
            "devices": self.devices.iter().map(device_json).collect::<Vec<_>>(),
            "runtimes": self.runtimes.iter().map(runtime_json).collect::<Vec<_>>(),
        }
    }
}

/// A JSON object built by moving each value in (`json!` serializes every nested
/// value again, which made the report's JSON most of the check's time).
macro_rules! obj {
    ($($k:literal : $v:expr),* $(,)?) => {{
        let mut m = serde_json::Map::new();
        $( m.insert($k.to_string(), Value::from($v)); )*
        Value::Object(m)
    }};
}
use obj;

/// The kernels of an object after its first line's container: `, 2 kernels: a
/// (wave64), b (wave64)` when that fits on the line, else a count with the wave
/// sizes and the names below it, one a line (cut unless verbose).
fn push_kernels(s: &mut String, o: &ObjectInfo, opts: &TextOptions) {
    let n = o.kernels.len();
    let plural = if n == 1 { "" } else { "s" };
    let names: Vec<String> = o
        .kernels
        .iter()
        .map(|k| match k.wave_size {
            Some(w) => format!("{} (wave{w})", opts.name(&k.name)),
            None => opts.name(&k.name),
        })
        .collect();
    // every name, when they are short enough together to stay on the line
    if let Some(line) = NameList::new(&names, true).inline(0) {
        let _ = write!(s, ", {n} kernel{plural}: ");
        s.push_str(&line);
        return;
    }
    // the wave sizes once, with their counts, and the bare names below
    let mut waves: Vec<(Option<u32>, usize)> = Vec::new();
    for k in &o.kernels {
        match waves.iter_mut().find(|(w, _)| *w == k.wave_size) {
            Some((_, c)) => *c += 1,
            None => waves.push((k.wave_size, 1)),
        }
    }
    waves.sort();
    let waves: Vec<String> = waves
        .iter()
        .map(|(w, c)| match (w, waves.len()) {
            (Some(w), 1) => format!("wave{w}"),
            (Some(w), _) => format!("wave{w}: {c}"),
            (None, _) => format!("wave size unknown: {c}"),
        })
        .collect();
    let _ = writeln!(s, ", {n} kernel{plural} ({}):", waves.join(", "));
    // (each name with its wave size only when they differ)
    let listed: Vec<String> = if waves.len() > 1 {
        names
    } else {
        o.kernels.iter().map(|k| opts.name(&k.name)).collect()
    };
    NameList::new(&listed, opts.verbose).write_block(s, "    ");
    // (the caller ends the object's line)
    s.pop();
}

/// One finding: its kernels named in the sentence when they are few and short
/// enough, else counted, with the list below it (cut unless verbose), or as "all N
/// kernels" when it is every kernel of its object (`total`) and not verbose.
fn push_problem(s: &mut String, p: &Problem, indent: &str, opts: &TextOptions, total: usize) {
    let names: Vec<String> = p.kernels.iter().map(|k| opts.name(k)).collect();
    let head = format!("{indent}{} [{}]: ", p.severity, p.code);
    match names.as_slice() {
        [] => {
            let _ = writeln!(s, "{head}{}", p.what);
        }
        [one] => {
            let _ = writeln!(s, "{head}kernel {one}: {}", p.what);
        }
        many => match NameList::new(many, true).inline(0) {
            Some(line) => {
                let _ = writeln!(s, "{head}kernels {line}: {}", p.what);
            }
            None if many.len() == total && !opts.verbose => {
                let _ = writeln!(s, "{head}all {} kernels: {}", many.len(), p.what);
            }
            None => {
                let _ = writeln!(s, "{head}{} kernels: {}", many.len(), p.what);
                let _ = writeln!(s, "{indent}  kernels:");
                NameList::new(many, opts.verbose).write_block(s, &format!("{indent}    "));
            }
        },
    }
    if !p.why.is_empty() {
        let _ = writeln!(s, "{indent}  why: {}", p.why);
    }
    if let Some(f) = &p.fix {
        let _ = writeln!(s, "{indent}  fix: {f}");
    }
}

fn push_runtime(s: &mut String, r: &RuntimeReport, objects: &[ObjectInfo], opts: &TextOptions) {
    let label = objects
        .get(r.object)
        .map(ObjectInfo::label)
        .unwrap_or_default();
    let verdict = if r.works() {
        if r.problems.iter().any(|p| p.severity == Severity::Warning) {
            "loads and runs, with warnings"
        } else {
            "loads and runs"
        }
    } else {
        "FAILS"
    };
    let _ = writeln!(
        s,
        "  runtime {} ({label} on {}): {verdict}",
        r.stack, r.processor
    );
    let total = objects.get(r.object).map_or(0, |o| o.kernels.len());
    for p in &merge_by_kernel(&r.problems) {
        push_problem(s, p, "    ", opts, total);
    }
}

fn problem_json(p: &Problem) -> Value {
    obj! {
        "severity": p.severity.name(),
        "code": p.code,
        "what": p.sentence(),
        "kernels": p.kernels.clone(),
        "why": p.why.as_str(),
        "fix": p.fix.as_deref(),
    }
}

fn object_json(o: &ObjectInfo) -> Value {
    obj! {
        "index": o.index,
        "entry_id": o.entry_id.as_str(),
        "container": o.container.as_str(),
        "offset": o.offset,
        "code_object_version": o.version,
        "target": o.target.as_ref().ok().map(|t| t.to_string()),
        "target_error": o.target.as_ref().err().map(String::as_str),
        "kernels": o.kernels.iter().map(|k| obj! {
            "name": k.name.as_str(),
            "wave_size": k.wave_size,
            "hidden_reads": k.hidden_reads.iter().map(|r| obj! {
                "arg": r.arg.value_kind(), "address": r.address, "text": r.text.as_str(),
            }).collect::<Vec<_>>(),
        }).collect::<Vec<_>>(),
        "code_decoder": o.code_decoder,
        "pre_gfx9_hidden_args": o.pre_gfx9_hidden.iter().map(|h| h.value_kind()).collect::<Vec<_>>(),
        "problems": o.problems.iter().map(problem_json).collect::<Vec<_>>(),
    }
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Compatible => "compatible",
        Verdict::DependsOnDevice => "depends_on_device",
        Verdict::Incompatible => "incompatible",
    }
}

fn device_json(d: &DeviceReport) -> Value {
    obj! {
        "device": d.device.query.as_str(),
        "target": d.device.target.to_string(),
        "product": d.device.product(),
        "selected": d.selected,
        "candidates": d.candidates.iter().map(|c| obj! {
            "object": c.object,
            "verdict": verdict_name(c.verdict()),
            "deciding_rule": c.deciding_rule().map(|r| r.name()),
            "rules": c.rules.iter().map(|r| obj! {
                "rule": r.name(),
                "verdict": verdict_name(r.verdict()),
                "text": r.to_string(),
            }).collect::<Vec<_>>(),
        }).collect::<Vec<_>>(),
        "no_image": d.no_image.as_ref().map(|n| obj! {
            "closest": n.closest,
            "closest_reason": n.closest_reason.as_str(),
            "device_families": n.device_families.clone(),
            "closest_in_family": n.closest_in_family,
            "hsa_override_gfx_version": n.gfx_override.as_ref().map(|o| obj! {
                "value": o.value.as_str(),
                "processor": o.processor,
                "risk": o.risk.name(),
                "why": o.why.as_str(),
            }),
            "fix": n.fix.as_str(),
        }),
        "runtimes": d.runtimes.iter().map(runtime_json).collect::<Vec<_>>(),
    }
}

fn runtime_json(r: &RuntimeReport) -> Value {
    obj! {
        "runtime": r.stack.to_string(),
        "object": r.object,
        "processor": r.processor,
        "works": r.works(),
        "problems": r.problems.iter().map(problem_json).collect::<Vec<_>>(),
    }
}

fn fact_text(f: &Fact) -> &'static str {
    match f.value {
        Some(true) => "yes",
        Some(false) => "no",
        None => "?",
    }
}

/// The runtime table as text (`hsaco check --list-runtimes`).
pub fn runtimes_text() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<16} {:<14} {:<8} {:<20} processors",
        "runtime", "loads v2..v6", "generic", "fills v5 192/196/200"
    );
    for r in Runtime::all() {
        let versions: Vec<String> = (2..=6)
            .map(|v| {
                format!(
                    "{}",
                    fact_text(&r.code_object_version(v))
                        .chars()
                        .next()
                        .unwrap_or('?')
                )
            })
            .collect();
        let procs: Vec<String> = r
            .processors
            .iter()
            .map(|p| {
                let who: Vec<String> = p
                    .generations
                    .iter()
                    .map(|g| format!("{g:?}").to_lowercase())
                    .chain(p.processors.iter().map(|p| p.to_string()))
                    .collect();
                format!(
                    "{}: {}",
                    who.join("/"),
                    match p.effect {
                        crate::runtime::ProcessorEffect::Rejected => "rejected",
                        crate::runtime::ProcessorEffect::Unsupported => "unsupported, works",
                        crate::runtime::ProcessorEffect::Note => "note",
                    }
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "{:<16} {:<14} {:<8} {:<20} {}",
            r.name,
            versions.join(""),
            fact_text(&r.generic_targets),
            fact_text(&r.fills_pre_gfx9_hidden),
            procs.join("; ")
        );
    }
    s.push_str("\n(y = yes, n = no, ? = not known; v2..v6 read left to right)\n");
    for r in Runtime::all() {
        let _ = writeln!(s, "\n{}: {}", r.name, r.title);
        for v in 1..=6 {
            let f = r.code_object_version(v);
            let _ = writeln!(
                s,
                "  v{v}: {} ({}; {})",
                fact_text(&f),
                f.confidence.name(),
                f.source
            );
        }
        let g = r.generic_targets;
        let _ = writeln!(
            s,
            "  generic targets: {} ({}; {})",
            fact_text(&g),
            g.confidence.name(),
            g.source
        );
        let h = r.fills_pre_gfx9_hidden;
        let _ = writeln!(
            s,
            "  fills hidden_private_base/shared_base/queue_ptr: {} ({}; {})",
            fact_text(&h),
            h.confidence.name(),
            h.source
        );
        for p in r.processors {
            let applies: Vec<String> = p
                .generations
                .iter()
                .map(|g| format!("{g:?}").to_lowercase())
                .chain(p.processors.iter().map(|n| n.to_string()))
                .collect();
            let _ = writeln!(
                s,
                "  {}: {} ({}; {})",
                applies.join(", "),
                p.why,
                p.confidence.name(),
                p.source
            );
        }
        for n in r.notes {
            let _ = writeln!(s, "  note: {n}");
        }
    }
    s
}

/// The runtime table as JSON (`hsaco check --list-runtimes --json`).
pub fn runtimes_json() -> Value {
    let fact =
        |f: &Fact| json!({"value": f.value, "confidence": f.confidence.name(), "source": f.source});
    Value::Array(
        Runtime::all()
            .iter()
            .map(|r| {
                json!({
                    "name": r.name,
                    "title": r.title,
                    "kind": match r.kind { crate::runtime::RuntimeKind::Rocm => "rocm", crate::runtime::RuntimeKind::LlvmOffload => "llvm-offload" },
                    "code_object_versions": (1..=6).map(|v| (v.to_string(), fact(&r.code_object_version(v)))).collect::<serde_json::Map<_, _>>(),
                    "version_error": r.version_error,
                    "generic_targets": fact(&r.generic_targets),
                    "fills_pre_gfx9_hidden": fact(&r.fills_pre_gfx9_hidden),
                    "loads_relocatable": fact(&r.loads_relocatable),
                    "processors": r.processors.iter().map(|p| json!({
                        "generations": p.generations.iter().map(|g| format!("{g:?}").to_lowercase()).collect::<Vec<_>>(),
                        "processors": p.processors,
                        "effect": format!("{:?}", p.effect).to_lowercase(),
                        "why": p.why,
                        "fix": p.fix,
                        "source": p.source,
                        "confidence": p.confidence.name(),
                    })).collect::<Vec<_>>(),
                    "notes": r.notes,
                })
            })
            .collect(),
    )
}
