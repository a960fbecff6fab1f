//! `cargo xtask bench --emu`: the emulator's speed on one and two threads, in
//! wave-instructions and lane operations per second (issue 15's targets: 50 M/s on an
//! ALU-bound loop, 20 M/s on a streaming kernel, for gfx90a and gfx1100). The kernels
//! are the test fixtures of hsaco-emu (crates/hsaco-emu/tests/data); `hsaco run
//! --quiet --json` reports the time spent executing (loading and argument set-up
//! excluded). Each case runs three times; the best run counts.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

struct Case {
    what: &'static str,
    file: &'static str,
    kernel: &'static str,
    args: &'static [&'static str],
    target: f64,
}

const CASES: &[Case] = &[
    Case {
        what: "ALU loop (uniform_loop, 20000 iterations)",
        file: "13_control_flow",
        kernel: "uniform_loop",
        args: &[
            "--grid",
            "8192",
            "--block",
            "256",
            "--arg",
            "buf:f32:8192=iota",
            "--arg",
            "u32=20000",
            "--arg",
            "f32=1.0",
        ],
        target: 50e6,
    },
    Case {
        what: "streaming (vadd_f32: load, load, add, store; 4M elements)",
        file: "01_vadd",
        kernel: "vadd_f32",
        args: &[
            "--grid",
            "4000000",
            "--block",
            "256",
            "--arg",
            "buf:f32:4000000=zeros",
            "--arg",
            "buf:f32:4000000=zeros",
            "--arg",
            "buf:f32:4000000=zeros",
            "--arg",
            "u32=4000000",
        ],
        target: 20e6,
    },
];

pub fn run(hsaco: &Path) -> Result<()> {
    let data = crate::root().join("crates/hsaco-emu/tests/data");
    println!(
        "{:<68} {:<8} {:>14} {:>9} {:>14} {:>14} {:>8}",
        "kernel", "target", "wave-insts", "seconds", "wave-inst/s", "lane-ops/s", "goal"
    );
    let mut runs: Vec<(&Case, &str, &str)> = Vec::new();
    for case in CASES {
        for target in ["gfx90a", "gfx1100"] {
            runs.push((case, target, "1"));
        }
    }
    // many work-groups on two threads (the goal: 1.7 times the one-thread rate)
    runs.push((&CASES[0], "gfx90a", "2"));
    runs.push((&CASES[0], "gfx1100", "2"));
    for (case, target, threads) in runs {
        {
            let file = data.join(format!("{}_{target}_cov5.co", case.file));
            let mut best: Option<(u64, u64, f64)> = None;
            for _ in 0..3 {
                let out = Command::new(hsaco)
                    .arg("run")
                    .arg(&file)
                    .args([
                        "--kernel",
                        case.kernel,
                        "--quiet",
                        "--json",
                        "--threads",
                        threads,
                    ])
                    .args(case.args)
                    .output()
                    .with_context(|| format!("running {}", hsaco.display()))?;
                if !out.status.success() {
                    bail!(
                        "hsaco run {} failed: {}",
                        file.display(),
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
                let v: serde_json::Value = serde_json::from_slice(&out.stdout)?;
                let s = &v["stats"];
                let wi = s["wave_instructions"].as_u64().unwrap_or(0);
                let lo = s["lane_operations"].as_u64().unwrap_or(0);
                let sec = s["seconds"].as_f64().unwrap_or(f64::INFINITY);
                if best.is_none_or(|b| sec < b.2) {
                    best = Some((wi, lo, sec));
                }
            }
            let (wi, lo, sec) = best.unwrap_or((0, 0, f64::INFINITY));
            let rate = wi as f64 / sec;
            println!(
                "{:<68} {:<8} {:>14} {:>9.4} {:>13.1}M {:>13.1}M {:>7.0}M",
                format!("{} x{threads} thread", case.what),
                target,
                wi,
                sec,
                rate / 1e6,
                lo as f64 / sec / 1e6,
                case.target / 1e6
            );
        }
    }
    println!(
        "(x2 thread: --threads 2; the goal there is 1.7 times the x1 rate, on a machine whose \
         two cores are free)"
    );
    Ok(())
}
