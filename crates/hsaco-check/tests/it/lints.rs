//! ABI lints from the code, on the hand-written fixtures of `tests/data/lints`
//! (built by `gen.sh` with llvm-mc-22 and ld.lld-22). What each fixture must and
//! must not trigger is written in the comment at the top of its `.s` file; the
//! reports are golden files (`BLESS=1` rewrites them).

use crate::{data_dir, golden};
use hsaco_check::{check, CheckOptions, Device, Report, RuntimeStack, Severity};

fn lint(file: &str, devices: &[&str], runtimes: &[&str]) -> Report {
    let p = data_dir().join("lints").join(file);
    let data = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let opts = CheckOptions {
        devices: devices.iter().map(|d| Device::parse(d).unwrap()).collect(),
        runtimes: runtimes
            .iter()
            .map(|r| RuntimeStack::parse(r).unwrap())
            .collect(),
    };
    check(&data, &opts).unwrap()
}

/// (code, severity, the name the finding is about) of every object problem.
fn findings(r: &Report) -> Vec<(&'static str, Severity, String)> {
    r.objects[0]
        .problems
        .iter()
        .map(|p| {
            let subject = p.what.split_whitespace().nth(1).unwrap_or("").to_string();
            (p.code, p.severity, subject)
        })
        .collect()
}

fn has(f: &[(&'static str, Severity, String)], code: &str, who: &str) -> bool {
    f.iter().any(|(c, _, w)| *c == code && w == who)
}

fn about(f: &[(&'static str, Severity, String)], who: &str) -> bool {
    f.iter().any(|(_, _, w)| w == who)
}

#[test]
fn hidden_fields_read_from_the_kernarg_pointer() {
    for proc in ["gfx803", "gfx900"] {
        let r = lint(&format!("hidden-{proc}.co"), &[], &[]);
        // gfx803 is read with the gfx9 tables until hsaco-isa describes gfx8
        assert!(r.objects[0].code_decoder.is_some());
        let reads: Vec<(String, &str)> = r.objects[0]
            .kernels
            .iter()
            .flat_map(|k| {
                k.hidden_reads
                    .iter()
                    .map(|h| (k.name.clone(), h.arg.value_kind()))
            })
            .collect();
        assert_eq!(
            reads,
            [
                ("reads_private_base".to_string(), "hidden_private_base"),
                (
                    "reads_shared_base_via_add".to_string(),
                    "hidden_shared_base"
                ),
                ("reads_unlisted_queue_ptr".to_string(), "hidden_queue_ptr"),
            ],
            "{proc}"
        );
        let f = findings(&r);
        assert!(
            has(&f, "code-hidden-arg-unlisted", "reads_unlisted_queue_ptr"),
            "{f:?}"
        );
        assert!(!has(&f, "code-hidden-arg-unlisted", "reads_private_base"));
        assert!(!about(&f, "reads_block_count_only"), "{f:?}");
        // gfx9+ code has no business reading them
        let pre = f
            .iter()
            .filter(|x| x.0 == "code-hidden-arg-pre-gfx9")
            .count();
        assert_eq!(pre, if proc == "gfx803" { 0 } else { 3 }, "{f:?}");
        golden(&format!("lint-hidden-{proc}.txt"), &r.to_text());
    }
    golden(
        "lint-hidden-gfx900.json",
        &serde_json::to_string_pretty(&lint("hidden-gfx900.co", &[], &[]).to_json()).unwrap(),
    );
}

#[test]
fn hidden_reads_are_evidence_for_the_runtime_check() {
    // LLVM 22's offload plugin leaves 192/196/200 zero: the kernels that read them
    // fail, and the report shows the loads
    let r = lint(
        "hidden-gfx803.co",
        &["gfx803"],
        &["llvm-offload-22+rocm-6.4"],
    );
    let p = r.devices[0].runtimes[0]
        .problems
        .iter()
        .find(|p| p.code == "runtime-pre-gfx9-hidden-args")
        .expect("pre-gfx9 hidden argument problem");
    assert_eq!(p.severity, Severity::Error);
    assert!(
        p.what
            .contains("reads_private_base loads hidden_private_base at 0x"),
        "{}",
        p.what
    );
    assert!(
        p.what.contains("`s_load_dword s0, s[4:5], 0xc8`"),
        "{}",
        p.what
    );
    // ROCm's HIP runtime fills them: no runtime problem for them
    let r = lint("hidden-gfx803.co", &["gfx803"], &["rocm-6.4"]);
    assert!(r.devices[0].runtimes[0]
        .problems
        .iter()
        .all(|p| p.code != "runtime-pre-gfx9-hidden-args"));
    golden(
        "lint-hidden-gfx803-offload22.txt",
        &lint(
            "hidden-gfx803.co",
            &["gfx803"],
            &["llvm-offload-22+rocm-6.4"],
        )
        .to_text(),
    );
}

#[test]
fn non_entry_functions_and_the_implicit_argument_pointer() {
    for proc in ["gfx803", "gfx900"] {
        let r = lint(&format!("wrong-base-{proc}.co"), &[], &[]);
        let f = findings(&r);
        assert!(has(&f, "code-hidden-arg-wrong-base", "no_base"), "{f:?}");
        assert!(
            has(&f, "code-hidden-arg-wrong-base", "no_base_private"),
            "{f:?}"
        );
        assert!(
            has(&f, "code-hidden-arg-wrong-base", "dispatch_base"),
            "{f:?}"
        );
        assert!(
            has(&f, "code-implicit-arg-past-block", "past_block"),
            "{f:?}"
        );
        assert!(!about(&f, "implicit_ok"), "{f:?}");
        assert!(!about(&f, "calls_helpers"), "{f:?}");
        assert_eq!(f.len(), 4, "{f:?}");
        // the queue pointer only reaches the trap handler: a warning
        let sev = |who: &str| f.iter().find(|x| x.2 == who).map(|x| x.1);
        assert_eq!(sev("no_base"), Some(Severity::Warning));
        assert_eq!(sev("no_base_private"), Some(Severity::Error));
        golden(&format!("lint-wrong-base-{proc}.txt"), &r.to_text());
    }
}

#[test]
fn m0_across_calls_on_gfx8() {
    let r = lint("m0-gfx803.co", &[], &[]);
    let f = findings(&r);
    assert!(has(&f, "code-m0-not-restored", "clobbers_m0"), "{f:?}");
    assert!(
        has(&f, "code-m0-across-call", "uses_m0_after_call"),
        "{f:?}"
    );
    for quiet in ["restores_m0", "sets_lds_bound", "resets_m0_after_call"] {
        assert!(!about(&f, quiet), "{quiet}: {f:?}");
    }
    assert_eq!(f.len(), 2, "{f:?}");
    golden("lint-m0-gfx803.txt", &r.to_text());
    // gfx9 LDS does not take its bound from m0
    let r = lint("m0-gfx900.co", &[], &[]);
    assert!(
        r.objects[0].problems.is_empty(),
        "{:?}",
        r.objects[0].problems
    );
}

#[test]
fn llvm_objects_have_no_code_findings() {
    // the seeds copied from the corpus build: decoded, nothing to report
    for f in [
        "gfx803-cov4.co",
        "gfx803-cov5.co",
        "gfx803-cov6.co",
        "gfx906-cov4.co",
        "gfx906-cov5.co",
        "gfx906-cov6.co",
        "gfx90a-xnack+-cov5.co",
        "gfx9-generic-cov6.co",
    ] {
        let r = crate::run(f, &[], &[]);
        assert!(r.objects[0].code_decoder.is_some(), "{f}");
        assert!(
            r.objects[0].problems.is_empty(),
            "{f}: {:?}",
            r.objects[0].problems
        );
    }
}

#[test]
fn llvm_22_code_for_generic_pointers_on_gfx803() {
    // clang-22 output (generic-private.cl): the kernel itself reads both aperture
    // bases from its kernarg pointer, which LLVM 22's offload plugin leaves zero
    let r = lint(
        "generic-private-gfx803.co",
        &["gfx803"],
        &["llvm-offload-22+rocm-6.4"],
    );
    let k = &r.objects[0].kernels[0];
    assert_eq!(k.name, "generic_private");
    let args: Vec<&str> = k.hidden_reads.iter().map(|h| h.arg.value_kind()).collect();
    assert_eq!(args, ["hidden_private_base", "hidden_shared_base"]);
    let rt = &r.devices[0].runtimes[0].problems;
    assert!(rt
        .iter()
        .any(|p| p.code == "runtime-pre-gfx9-hidden-args" && p.what.contains("the code shows it")));
    // ...and its non-entry twin reads them from constant addresses (root cause 2)
    let f = findings(&r);
    let wrong: Vec<(Severity, bool)> = r.objects[0]
        .problems
        .iter()
        .filter(|p| p.code == "code-hidden-arg-wrong-base")
        .map(|p| {
            (
                p.severity,
                p.what.contains("__clang_ocl_kern_imp_generic_private"),
            )
        })
        .collect();
    assert_eq!(
        wrong,
        [
            (Severity::Error, true),   // 0xc0 private base
            (Severity::Error, true),   // 0xc4 shared base
            (Severity::Warning, true), // 0xc8 queue pointer (trap)
        ],
        "{f:?}"
    );
    golden("lint-generic-private-gfx803.txt", &r.to_text());
    // gfx900 reads the apertures from hardware registers: nothing to say
    let r = lint("generic-private-gfx900.co", &[], &[]);
    assert!(
        r.objects[0].problems.is_empty(),
        "{:?}",
        r.objects[0].problems
    );
    assert!(r.objects[0].kernels[0].hidden_reads.is_empty());
}

/// At library scale the runtime finding stays one finding: its kernels are listed in
/// `kernels` (the text cuts them), and its evidence names the first three loads
/// (every load stays in the object's `hidden_reads`). The gfx803 object's two reading
/// kernels, copied to eight.
#[test]
fn runtime_evidence_of_many_kernels_is_cut() {
    let r = lint(
        "hidden-gfx803.co",
        &["wx3200"],
        &["llvm-offload-22+rocm-6.4"],
    );
    let mut object = r.objects[0].clone();
    let readers: Vec<_> = object
        .kernels
        .iter()
        .filter(|k| !k.pre_gfx9_hidden.is_empty())
        .cloned()
        .collect();
    assert_eq!(readers.len(), 2);
    object.kernels = (0..8)
        .map(|i| {
            let mut k = readers[i % 2].clone();
            k.name = format!("k{i}");
            k
        })
        .collect();
    let loads: usize = object.kernels.iter().map(|k| k.hidden_reads.len()).sum();
    assert_eq!(loads, 8);
    let stack = RuntimeStack::parse("llvm-offload-22+rocm-6.4").unwrap();
    let processor = object.target.as_ref().unwrap().processor;
    let rt = hsaco_check::check_runtime(&stack, &object, processor);
    let p = rt
        .problems
        .iter()
        .find(|p| p.code == "runtime-pre-gfx9-hidden-args")
        .expect("the finding");
    assert_eq!(p.kernels.len(), 8);
    assert!(p.what.contains("k0 loads") && p.what.contains("k2 loads"));
    assert!(!p.what.contains("k3 loads"), "{}", p.what);
    assert!(p.what.ends_with("; and 5 more loads)"), "{}", p.what);
}
