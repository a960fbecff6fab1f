//! `--threads 1` and `--threads 2` give identical buffers (and printf output) for every
//! kernel of every corpus fixture in tests/data, the two-thread run done twice, with
//! made-up arguments (buffers of small pseudo-random bytes, scalars of 200) and a grid
//! of four work-groups, the last partial, so the two threads get work-groups of their
//! own. Kernels that stop (a fault, an operation not implemented yet) must stop on two
//! threads as well.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

use hsaco_emu::{kernel_names, load, run_kernel, Dispatch, RunOptions};

/// Kernels whose work-groups read what other work-groups write (a race on a GPU too,
/// whose outcome depends on the order the work-groups run in), so that one and two
/// threads may rightly differ; not run here.
const RACY: &[(&str, &str)] = &[(
    "private_flat",
    "flat_scratch.cl reads o[i] for every work-item i while the work-item i - 64 of \
     an earlier work-group writes o[64 + (i - 64)] = o[i]",
)];

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
