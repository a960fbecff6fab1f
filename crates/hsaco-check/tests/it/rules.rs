//! Each device and runtime rule on real code objects, positive and negative.
//! Expected values come from AMDGPUUsage (target features, generic processors),
//! the ELF headers LLVM wrote (see `llvm-readelf -h` in tests/data/gen.sh) and
//! the runtime table's sources.

use crate::{golden, object, run};
use hsaco_check::{check, CheckOptions, Device, Risk, Severity};
use hsaco_target::Verdict;

fn deciding(report: &hsaco_check::Report, device: usize, object: usize) -> (Verdict, &'static str) {
    let c = report.devices[device]
        .candidates
        .iter()
        .find(|c| c.object == object)
        .unwrap();
    (
        c.verdict(),
        c.deciding_rule().map(|r| r.name()).unwrap_or(""),
    )
}

#[test]
fn same_and_different_processor() {
    let r = run("gfx906-cov5.co", &["gfx906", "gfx803"], &[]);
    assert_eq!(deciding(&r, 0, 0), (Verdict::Compatible, "processor"));
    assert_eq!(r.devices[0].selected, Some(0));
    assert_eq!(deciding(&r, 1, 0), (Verdict::Incompatible, "processor"));
    let n = r.devices[1].no_image.as_ref().unwrap();
    assert_eq!(n.closest, Some(0));
    // gfx803 is in no generic family (AMDGPUUsage lists none for GFX8)
    assert!(n.device_families.is_empty());
    let o = n.gfx_override.as_ref().unwrap();
    assert_eq!((o.value.as_str(), o.risk), ("9.0.6", Risk::High));
    assert!(n.fix.contains("build for gfx803"), "{}", n.fix);
    assert!(r.has_errors());
    golden("gfx906-on-gfx803.txt", &r.to_text());
}

#[test]
fn override_risk_levels() {
    // gfx1031 and gfx1030: one generic family (gfx10-3-generic), same 10.3
    let r = run("gfx1030-cov5.co", &["gfx1031", "gfx1010", "gfx900"], &[]);
    let o = |d: usize| {
        r.devices[d]
            .no_image
            .as_ref()
            .unwrap()
            .gfx_override
            .clone()
            .unwrap()
    };
    assert_eq!((o(0).value.as_str(), o(0).risk), ("10.3.0", Risk::Low));
    assert_eq!(
        r.devices[0].no_image.as_ref().unwrap().device_families,
        ["gfx10-3-generic"]
    );
    // gfx1010: same generation, another family
    assert_eq!(o(1).risk, Risk::Medium);
    // gfx900: another generation
    assert_eq!(o(2).risk, Risk::High);
    // gfx906 code on gfx900: same generation, the 9.0 steppings differ in instructions
    let r = run("gfx906-cov5.co", &["gfx900"], &[]);
    let o = r.devices[0]
        .no_image
        .as_ref()
        .unwrap()
        .gfx_override
        .clone()
        .unwrap();
    assert_eq!(o.risk, Risk::Medium);
    golden(
        "gfx1030-on-others.txt",
        &run("gfx1030-cov5.co", &["gfx1031", "gfx1010"], &[]).to_text(),
    );
}

#[test]
fn xnack_any_on_off() {
    // built for gfx90a:xnack+ (e_flags 0x73f: XNACK_ON_V4)
    let r = run(
        "gfx90a-xnack+-cov5.co",
        &["gfx90a:xnack+", "gfx90a:xnack-", "mi210"],
        &[],
    );
    assert_eq!(deciding(&r, 0, 0).0, Verdict::Compatible);
    assert_eq!(deciding(&r, 1, 0), (Verdict::Incompatible, "xnack"));
    let n = r.devices[1].no_image.as_ref().unwrap();
    assert!(n.gfx_override.is_none(), "an override cannot change xnack");
    assert!(n.fix.contains("build for gfx90a:xnack-"), "{}", n.fix);
    // a device named by product leaves xnack open
    assert_eq!(deciding(&r, 2, 0), (Verdict::DependsOnDevice, "xnack"));
    assert_eq!(r.devices[2].selected, Some(0));
    golden("gfx90a-xnack.txt", &r.to_text());
    // gfx906 objects are xnack any, sramecc any (e_flags 0x52f): run either way
    let r = run(
        "gfx906-cov5.co",
        &["gfx906:sramecc+:xnack-", "gfx906:sramecc-:xnack+"],
        &[],
    );
    assert_eq!(deciding(&r, 0, 0).0, Verdict::Compatible);
    assert_eq!(deciding(&r, 1, 0).0, Verdict::Compatible);
}

#[test]
fn generic_targets() {
    let r = run("gfx9-generic-cov6.co", &["gfx906", "gfx90a"], &[]);
    assert_eq!(deciding(&r, 0, 0), (Verdict::Compatible, "generic-target"));
    // gfx90a is not in gfx9-generic (AMDGPUUsage: gfx900-gfx90c without gfx90a)
    assert_eq!(
        deciding(&r, 1, 0),
        (Verdict::Incompatible, "generic-target")
    );
    let r = run("gfx10-3-generic-cov6.co", &["gfx1031", "gfx1010"], &[]);
    assert_eq!(deciding(&r, 0, 0).0, Verdict::Compatible);
    assert_eq!(
        deciding(&r, 1, 0),
        (Verdict::Incompatible, "generic-target")
    );
    // a specific code object wins over a generic one
    let r = run("gfx9-generic-and-gfx906.bundle", &["mi50", "gfx900"], &[]);
    let t = |i: usize| r.objects[i].target.as_ref().unwrap().to_string();
    assert_eq!(t(r.devices[0].selected.unwrap()), "gfx906");
    assert_eq!(t(r.devices[1].selected.unwrap()), "gfx9-generic");
    golden("generic-bundle.txt", &r.to_text());
}

#[test]
fn wave_size() {
    let r = run("gfx1030-cov5.co", &["gfx1030"], &[]);
    assert!(r.objects[0].kernels.iter().all(|k| k.wave_size == Some(32)));
    assert_eq!(deciding(&r, 0, 0).0, Verdict::Compatible);
    // set ENABLE_WAVEFRONT_SIZE32 (bit 458 of the descriptor) in a gfx906 object
    let mut data = object("gfx906-cov5.co");
    let offsets: Vec<u64> = {
        let co = hsaco_elf::CodeObject::parse(&data).unwrap();
        co.kernels()
            .unwrap()
            .iter()
            .map(|k| k.descriptor.as_ref().unwrap().offset())
            .collect()
    };
    for off in offsets {
        data[off as usize + 57] |= 0x04;
    }
    let opts = CheckOptions {
        devices: vec![Device::parse("gfx906").unwrap()],
        runtimes: vec![],
    };
    let r = check(&data, &opts).unwrap();
    assert_eq!(deciding(&r, 0, 0), (Verdict::Incompatible, "wave-size"));
}

#[test]
fn runtime_rules() {
    // v6 and generic targets need ROCm 6.3+ (PR #130963)
    let r = run("gfx9-generic-cov6.co", &["mi50"], &["rocm-6.2", "rocm-6.4"]);
    let p = &r.devices[0].runtimes[0].problems;
    assert!(p.iter().any(|p| p.code == "runtime-code-object-version"));
    assert!(p.iter().any(|p| p.code == "runtime-generic-target"));
    assert!(r.devices[0].runtimes[1].works());
    let r = run("gfx906-cov6.co", &["mi50"], &["rocm-5.7"]);
    let p = &r.devices[0].runtimes[0].problems[0];
    assert_eq!(p.code, "runtime-code-object-version");
    assert!(p
        .fix
        .as_deref()
        .unwrap()
        .contains("-mcode-object-version=5"));
    // a relocatable object is not loadable
    let r = run("gfx803-cov5.o", &[], &["rocm-6.4"]);
    assert!(r.runtimes[0]
        .problems
        .iter()
        .any(|p| p.code == "runtime-relocatable"));
    // LLVM offload on a gfx803 without its ROCr named
    let r = run("gfx803-cov5.co", &[], &["llvm-offload-22"]);
    assert!(r.runtimes[0]
        .problems
        .iter()
        .any(|p| p.code == "runtime-rocr-unnamed"));
    // v4 code has no implicit-block hidden fields: the offload 20 runtime loads it
    let r = run("gfx803-cov4.co", &["wx3200"], &["llvm-offload-20+rocm-6.4"]);
    assert!(
        r.devices[0].runtimes[0].works(),
        "{:?}",
        r.devices[0].runtimes[0].problems
    );
    // gfx906 has no pre-gfx9 hidden fields in its metadata
    let r = run("gfx906-cov5.co", &[], &["llvm-offload-22+rocm-6.4"]);
    assert!(r.objects[0].pre_gfx9_hidden.is_empty());
    assert!(!r.has_errors());
    assert!(r.runtimes[0]
        .problems
        .iter()
        .all(|p| p.severity < Severity::Warning));
}

#[test]
fn json_shape() {
    let r = run(
        "gfx803-cov5.co",
        &["wx3200", "mi50"],
        &["llvm-offload-22+rocm-6.4"],
    );
    let v = r.to_json();
    assert_eq!(v["ok"], false);
    assert_eq!(v["objects"][0]["target"], "gfx803");
    assert_eq!(v["objects"][0]["code_object_version"], 5);
    assert_eq!(v["devices"][0]["selected"], 0);
    assert_eq!(v["devices"][0]["runtimes"][0]["works"], false);
    assert_eq!(
        v["devices"][0]["runtimes"][0]["problems"][0]["code"],
        "runtime-pre-gfx9-hidden-args"
    );
    assert_eq!(v["devices"][1]["selected"], serde_json::Value::Null);
    assert_eq!(
        v["devices"][1]["no_image"]["hsa_override_gfx_version"]["value"],
        "8.0.3"
    );
    golden(
        "gfx803-cov5.json",
        &format!("{}\n", serde_json::to_string_pretty(&v).unwrap()),
    );
}

#[test]
fn runtime_table_listing() {
    golden("list-runtimes.txt", &hsaco_check::runtimes_text());
}

/// Whether ROCm 6.4 loads code object v3 is not known (the runtime table says
/// so, with its source): the outcome depends on the runtime, a warning; v5,
/// which it loads, gives nothing.
#[test]
fn unknown_version_support_is_a_warning() {
    let r = run("clang14-gfx906-cov3.co", &["gfx906"], &["rocm-6.4"]);
    let p: Vec<_> = r.devices[0].runtimes[0]
        .problems
        .iter()
        .map(|p| (p.severity, p.code))
        .collect();
    assert_eq!(
        p,
        [(Severity::Warning, "runtime-code-object-version-unknown")]
    );
    let r = run("gfx906-cov5.co", &["gfx906"], &["rocm-6.4"]);
    assert!(r.devices[0].runtimes[0].problems.is_empty());
}
