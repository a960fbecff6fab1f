//! `--threads 1` and `--threads 2` give identical buffers (and printf output) for every
//! kernel of every corpus fixture in tests/data, the two-thread run done twice, with
//! made-up arguments (buffers of small pseudo-random bytes, scalars of 200) and a grid
//! of four work-groups, the last partial, so the two threads get work-groups of their
//! own. Kernels that stop (a fault, an operation not implemented yet) must stop on two
//! threads as well.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

use hsaco_emu::{kernel_names, load, run_kernel, ArgValue, Dispatch, Elem, RunOptions};

/// Kernels whose work-groups read what other work-groups write (a race on a GPU too,
/// whose outcome depends on the order the work-groups run in), so that one and two
/// threads may rightly differ; not run here.
const RACY: &[(&str, &str)] = &[
    (
        "private_flat",
        "flat_scratch.cl reads o[i] for every work-item i while the work-item i - 64 of \
         an earlier work-group writes o[64 + (i - 64)] = o[i]",
    ),
    (
        "atomics_int",
        "03_atomics.cl stores the counter's old value, an exchange's old value and a \
         compare-exchange's outcome, which depend on the order the work-items reach \
         them (global_atomics_are_atomic_across_threads checks its other results)",
    ),
    (
        "atomics_fp",
        "03_atomics.cl sums floats with atomic adds, whose rounding depends on the order \
         for the made-up operands here (global_atomics_are_atomic_across_threads uses \
         values whose sums are exact in any order)",
    ),
];

#[test]
fn one_and_two_threads_give_the_same_buffers_for_every_fixture() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "co"))
        .collect();
    files.sort();
    let (mut same_ok, mut both_stop, mut split) = (0, 0, 0);
    for path in &files {
        let co = std::fs::read(path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for name in kernel_names(&co).unwrap() {
            if RACY.iter().any(|(k, _)| *k == name) {
                continue;
            }
            let k = load(&co, &name).unwrap();
            let block = k
                .metadata
                .reqd_workgroup_size
                .clone()
                .map(|r| r[0] as u32)
                .unwrap_or(64);
            let disp = Dispatch {
                grid: [block * 3 + 5, 1, 1],
                block: [block, 1, 1],
                dynamic_lds: 0,
                args: hsaco_emu::fuzzing::made_up_args(&k, 16384 * 4),
            };
            let opts = |threads| RunOptions {
                budget: 2_000_000,
                threads,
                trace: None,
            };
            let one = run_kernel(&k, &disp, &opts(1));
            for round in 0..2 {
                let two = run_kernel(&k, &disp, &opts(2));
                match (&one, &two) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a.buffers.len(), b.buffers.len());
                        for (x, y) in a.buffers.iter().zip(&b.buffers) {
                            assert!(
                                x.data == y.data,
                                "{file} {name} round {round}: buffer {} differs",
                                x.arg
                            );
                        }
                        assert_eq!(a.printf, b.printf, "{file} {name} round {round}: printf");
                        same_ok += 1;
                        if b.stats.threads == 2 {
                            split += 1;
                        }
                    }
                    (Err(_), Err(_)) => both_stop += 1,
                    (a, b) => panic!(
                        "{file} {name} round {round}: one thread {:?}, two threads {:?}",
                        a.as_ref().err().map(|e| e.to_string()),
                        b.as_ref().err().map(|e| e.to_string())
                    ),
                }
            }
        }
    }
    eprintln!(
        "{} fixtures: {same_ok} two-thread runs equal, {split} of them split over two threads, {both_stop} stopped on both",
        files.len()
    );
    assert!(files.len() >= 100, "the fixtures are missing");
    assert!(
        split >= 300,
        "too few runs were split over two threads: {split}"
    );
}

fn i32s(v: &[i32]) -> ArgValue {
    ArgValue::Buffer {
        elem: Elem::I32,
        data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

fn words<const N: usize>(b: &[u8]) -> Vec<[u8; N]> {
    b.chunks_exact(N)
        .map(|c| c.try_into().unwrap())
        .collect::<Vec<_>>()
}

/// Global atomics are atomic across host threads: 400 work-groups of 03_atomics'
/// `atomics_int` and `atomics_fp` split over two threads give the results that do not
/// depend on the order of the work-items (a counter, or/xor/min/max, a 64-bit sum,
/// float sums of values exact in any order), computed here from the kernel's source
/// (shared/corpus/cl/03_atomics.cl), every time. Were the threads' atomics applied to
/// copies of memory and merged, the counter and the sums would come out short.
#[test]
fn global_atomics_are_atomic_across_threads() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    for cfg in ["gfx90a_cov5", "gfx1100_cov5", "gfx803_cov4"] {
        let co = std::fs::read(format!("{dir}/03_atomics_{cfg}.co")).unwrap();
        let n = 64 * 400usize;
        let opts = RunOptions {
            budget: 2_000_000,
            threads: 2,
            trace: None,
        };
        for round in 0..3 {
            let k = load(&co, "atomics_int").unwrap();
            let disp = Dispatch {
                grid: [n as u32, 1, 1],
                block: [64, 1, 1],
                dynamic_lds: 0,
                args: vec![
                    i32s(&[5, 0]),
                    i32s(&[1000, -1000, 0, 0]),
                    i32s(&[1_000_000, 0x5a5a]),
                    ArgValue::Buffer {
                        elem: Elem::I64,
                        data: (1i64 << 40).to_le_bytes().to_vec(),
                    },
                    i32s(&vec![0; n]),
                ],
            };
            let r = run_kernel(&k, &disp, &opts).unwrap();
            assert_eq!(r.stats.threads, 2, "{cfg}: split over two threads");
            let i = |b: usize| -> Vec<i32> {
                words::<4>(&r.buffers[b].data)
                    .into_iter()
                    .map(i32::from_le_bytes)
                    .collect()
            };
            let (counter, plain, u) = (i(0), i(1), i(2));
            let l = i64::from_le_bytes(words::<8>(&r.buffers[3].data)[0]);
            let what = format!("{cfg} round {round}");
            assert_eq!(counter[0], 5 + n as i32, "{what}: fetch_add");
            assert_eq!(counter[1] as u32, u32::MAX, "{what}: fetch_or");
            assert_eq!((plain[0], plain[1]), (0, n as i32 - 1), "{what}: min/max");
            assert_eq!(u[0], 1_000_000 - 2 * n as i32, "{what}: fetch_sub");
            let x = (0..n as i32).fold(0x5a5a, |a, i| a ^ i);
            assert_eq!(u[1], x, "{what}: fetch_xor");
            assert_eq!(l, (1 << 40) + (n * (n - 1) / 2) as i64, "{what}: i64 add");
            // exactly one work-item found 0 and stored its index
            assert!((plain[2] as usize) < n, "{what}: cmpxchg");

            let k = load(&co, "atomics_fp").unwrap();
            let xs: Vec<f32> = (0..n).map(|i| (i % 7) as f32 - 3.0).collect();
            let disp = Dispatch {
                grid: [n as u32, 1, 1],
                block: [64, 1, 1],
                dynamic_lds: 0,
                args: vec![
                    ArgValue::Buffer {
                        elem: Elem::F32,
                        data: [0.5f32, -100.0]
                            .iter()
                            .flat_map(|x| x.to_le_bytes())
                            .collect(),
                    },
                    ArgValue::Buffer {
                        elem: Elem::F64,
                        data: 0.25f64.to_le_bytes().to_vec(),
                    },
                    ArgValue::Buffer {
                        elem: Elem::F32,
                        data: xs.iter().flat_map(|x| x.to_le_bytes()).collect(),
                    },
                ],
            };
            let r = run_kernel(&k, &disp, &opts).unwrap();
            assert_eq!(r.stats.threads, 2, "{what}: split over two threads");
            let f: Vec<f32> = words::<4>(&r.buffers[0].data)
                .into_iter()
                .map(f32::from_le_bytes)
                .collect();
            let d = f64::from_le_bytes(words::<8>(&r.buffers[1].data)[0]);
            let sum: f32 = xs.iter().sum();
            assert_eq!(f[0], 0.5 + sum, "{what}: float add");
            assert_eq!(d, 0.25 + f64::from(sum), "{what}: double add");
            assert_eq!(f[1], 3.0, "{what}: float max");
        }
    }
}
