//! The "Combinations Tried" table of the gfx803 write-up
//! (shared/spec/seeds/001_*.txt), replayed. The expected outcomes and reasons
//! are the write-up's, with one difference it states itself: its working v4 rows
//! ran on an LLVM 22 offload runtime carrying local patches to accept v4, and its
//! "COV5 after fixes" row on one patched to fill the pre-gfx9 hidden fields.
//! `hsaco check` judges the stock runtimes, so those rows show the error the
//! patch removes.

use crate::{golden, run};

/// ROCr 6.4 (HIP runtime), ROCr 7.x, LLVM 22 offload: the three runtimes of the
/// issue's acceptance list.
const RUNTIMES: [&str; 3] = ["rocm-6.4", "rocm-7.2", "llvm-offload-22"];

struct Expect {
    /// Test input.
    file: &'static str,
    /// Device: the write-up's WX 3200 (gfx803) or MI50 (gfx906).
    device: &'static str,
    /// Per runtime of RUNTIMES: `None` = loads and runs, `Some(code)` = fails
    /// with that problem first.
    outcome: [Option<&'static str>; 3],
    /// Text the first fix must contain, per runtime.
    fix: [Option<&'static str>; 3],
}

const DOORBELL: Option<&str> = Some("runtime-processor");
const USE_ROCR64: Option<&str> = Some("use ROCr 6.4");
const VERSION: Option<&str> = Some("runtime-code-object-version");
const HIDDEN: Option<&str> = Some("runtime-pre-gfx9-hidden-args");

const TABLE: &[Expect] = &[
    // "LLVM 22 + ROCr 6.4.4 + gfx803 + COV4: worked after local COV4 patches";
    // "LLVM 22's common ELF check rejects AMDGPU ABI versions below 5";
    // "LLVM 22 + ROCr 7.x + gfx803: ROCr 7.x had removed the legacy GFX8
    // DoorbellType == 1 queue path".
    Expect {
        file: "gfx803-cov4.co",
        device: "wx3200",
        outcome: [None, DOORBELL, VERSION],
        fix: [
            None,
            USE_ROCR64,
            Some("rebuild with -mcode-object-version=5"),
        ],
    },
    // "gfx803 + COV5 before fixes: failed ... pre-gfx9 launch metadata ...
    // incomplete": the offload runtime leaves 192/196/200 zero; ROCm's HIP
    // runtime fills them.
    Expect {
        file: "gfx803-cov5.co",
        device: "wx3200",
        outcome: [None, DOORBELL, HIDDEN],
        fix: [None, USE_ROCR64, Some("fill offsets 192, 196 and 200")],
    },
    // "LLVM 22 default COV6 + early gfx803 setup: not the working path".
    Expect {
        file: "gfx803-cov6.co",
        device: "wx3200",
        outcome: [None, DOORBELL, HIDDEN],
        fix: [None, USE_ROCR64, Some("fill offsets 192, 196 and 200")],
    },
    // "LLVM 22 + ROCr 6.4.4 + gfx906 forced to COV4: worked" (with the v4 patch
    // in the stack; stock LLVM 22 offload rejects v4).
    Expect {
        file: "gfx906-cov4.co",
        device: "mi50",
        outcome: [None, None, VERSION],
        fix: [None, None, Some("rebuild with -mcode-object-version=5")],
    },
    // "LLVM 22 + ROCr 6.4.4 + gfx906 + COV5/default: worked".
    Expect {
        file: "gfx906-cov5.co",
        device: "mi50",
        outcome: [None, None, None],
        fix: [None, None, None],
    },
    Expect {
        file: "gfx906-cov6.co",
        device: "mi50",
        outcome: [None, None, None],
        fix: [None, None, None],
    },
];

#[test]
fn combinations_table() {
    for e in TABLE {
        let report = run(e.file, &[e.device], &RUNTIMES);
        let d = &report.devices[0];
        assert_eq!(d.selected, Some(0), "{} must run on {}", e.file, e.device);
        for (i, rt) in RUNTIMES.iter().enumerate() {
            let r = &d.runtimes[i];
            assert_eq!(r.stack.to_string(), *rt);
            match e.outcome[i] {
                None => assert!(r.works(), "{} on {rt}: {:?}", e.file, r.problems),
                Some(code) => {
                    assert!(!r.works(), "{} on {rt} must fail", e.file);
                    assert_eq!(r.problems[0].code, code, "{} on {rt}", e.file);
                }
            }
            if let Some(fix) = e.fix[i] {
                let got = r.problems[0].fix.as_deref().unwrap_or("");
                assert!(
                    got.contains(fix),
                    "{} on {rt}: fix `{got}` lacks `{fix}`",
                    e.file
                );
            }
        }
        let stem = e.file.trim_end_matches(".co");
        golden(&format!("{stem}.txt"), &report.to_text());
    }
}

/// The write-up's stacks as it ran them: LLVM 22 offload on ROCr 6.4.4 / 7.x.
#[test]
fn writeup_stacks() {
    // "LLVM 22 + ROCr 7.x + gfx803: proof-of-concept only": both layers fail it.
    let r = run("gfx803-cov5.co", &["wx3200"], &["llvm-offload-22+rocm-7.2"]);
    let codes: Vec<_> = r.devices[0].runtimes[0]
        .problems
        .iter()
        .filter(|p| p.severity == hsaco_check::Severity::Error)
        .map(|p| p.code)
        .collect();
    assert!(codes.contains(&"runtime-processor"), "{codes:?}");
    assert!(codes.contains(&"runtime-pre-gfx9-hidden-args"), "{codes:?}");
    golden("stack-gfx803-cov5-offload22-rocr72.txt", &r.to_text());

    // "gfx803 COV5 + gfx906 default in one binary: worked": each device finds
    // its own code object; on the stock offload runtime the gfx803 side still
    // lacks the hidden fields, on ROCm's HIP runtime both run.
    let file = "mixed-gfx803-cov5-gfx906-cov6.bundle";
    let r = run(
        file,
        &["wx3200", "mi50"],
        &["llvm-offload-22+rocm-6.4", "rocm-6.4"],
    );
    assert_eq!(r.objects.len(), 2);
    let target = |i: usize| r.objects[i].target.as_ref().unwrap().processor.name;
    let wx = &r.devices[0];
    let mi = &r.devices[1];
    assert_eq!(target(wx.selected.unwrap()), "gfx803");
    assert_eq!(target(mi.selected.unwrap()), "gfx906");
    assert!(!wx.runtimes[0].works());
    assert_eq!(
        wx.runtimes[0].problems[0].code,
        "runtime-pre-gfx9-hidden-args"
    );
    assert!(wx.runtimes[1].works());
    assert!(mi.runtimes[0].works() && mi.runtimes[1].works());
    golden("stack-mixed-offload22-rocr64.txt", &r.to_text());
}
