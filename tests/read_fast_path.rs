//! `hsaco read --metadata` takes a fast path for plain code objects
//! (`src/cmd/read/fast.rs`); it must print exactly what the general path prints, and
//! leave to it whatever it cannot vouch for. Each case runs the binary twice, the
//! second time with `HSACO_NO_FAST_PATH=1`, and compares stdout, stderr and the exit
//! code: on the committed objects together and one by one, and on seeded mutations of
//! them (damaged headers, symbol tables, notes and metadata).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every committed `.o`/`.co`/`.bin` test object (plain code objects, bundles, host
/// files, garbage).
fn objects() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p
                .extension()
                .is_some_and(|x| x == "o" || x == "co" || x == "bin")
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for d in [
        "tests/cli/data",
        "crates/hsaco-elf/tests/data",
        "src/cmd/demo_data",
    ] {
        walk(&root().join(d), &mut out);
    }
    out.sort();
    assert!(out.len() >= 10, "test objects missing");
    out
}

/// (stdout, stderr, exit code) of `hsaco read --metadata files...`.
fn run(files: &[PathBuf], general: bool) -> (Vec<u8>, Vec<u8>, Option<i32>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hsaco"));
    cmd.arg("read").arg("--metadata").args(files);
    if general {
        cmd.env("HSACO_NO_FAST_PATH", "1");
    } else {
        cmd.env_remove("HSACO_NO_FAST_PATH");
    }
    let out = cmd.output().expect("run hsaco");
    (out.stdout, out.stderr, out.status.code())
}

/// Compares the two paths; returns whether the run reported an error.
fn same_both_ways(files: &[PathBuf]) -> bool {
    let fast = run(files, false);
    let general = run(files, true);
    assert!(
        fast == general,
        "{files:?}: fast path differs\n--- fast\n{}{}\n--- general\n{}{}",
        String::from_utf8_lossy(&fast.0),
        String::from_utf8_lossy(&fast.1),
        String::from_utf8_lossy(&general.0),
        String::from_utf8_lossy(&general.1),
    );
    !fast.1.is_empty()
}

#[test]
fn committed_objects_print_the_same() {
    let all = objects();
    same_both_ways(&all);
    let plain: Vec<PathBuf> = all
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "co"))
        .cloned()
        .collect();
    same_both_ways(&plain);
    for f in &all {
        same_both_ways(std::slice::from_ref(f));
    }
}

/// Zero bytes added after an object to make it larger than the fast path reads with
/// one `read` (16 KiB): such files are sized and read on. Trailing bytes change nothing
/// in what an ELF reader sees.
const BIG_PADDING: usize = 80 << 10;

#[test]
fn large_objects_print_the_same() {
    let dir = std::env::temp_dir().join(format!("hsaco-fast-path-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut big = Vec::new();
    for (i, p) in objects().iter().enumerate() {
        let mut data = std::fs::read(p).unwrap();
        data.resize(data.len() + BIG_PADDING, 0);
        let path = dir.join(format!(
            "big{i}.{}",
            p.extension().unwrap().to_string_lossy()
        ));
        std::fs::write(&path, &data).unwrap();
        big.push(path);
    }
    same_both_ways(&big);
    // and mixed with the small ones, in one run
    let mut mixed = objects();
    mixed.extend(big.iter().cloned());
    same_both_ways(&mixed);
    let _ = std::fs::remove_dir_all(&dir);
}

// `relaid`, shared with the unit tests of src/cmd/read/fast.rs
include!("support/relaid.rs");

#[test]
fn objects_read_in_parts_print_the_same() {
    let dir = std::env::temp_dir().join(format!("hsaco-fast-path-parts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (i, p) in objects().iter().enumerate() {
        let data = std::fs::read(p).unwrap();
        for (gap, spread) in [(20 << 10, false), (3 << 10, true), (20 << 10, true)] {
            if let Some(moved) = relaid(&data, gap, spread) {
                // as it is, then with one byte of the section headers or of the ELF
                // header changed
                let n = moved.len();
                for (j, at) in [None, Some(n - 1 - i * 7 % 600), Some(i * 5 % 64)]
                    .into_iter()
                    .enumerate()
                {
                    let mut bytes = moved.clone();
                    if let Some(at) = at {
                        bytes[at] ^= 1 << (i % 8);
                    }
                    let path = dir.join(format!("parts{i}-{gap}-{spread}-{j}.co"));
                    std::fs::write(&path, &bytes).unwrap();
                    same_both_ways(std::slice::from_ref(&path));
                    files.push(path);
                }
            }
        }
    }
    assert!(files.len() >= 30, "{} files", files.len());
    same_both_ways(&files);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mutated_objects_print_the_same() {
    let dir = std::env::temp_dir().join(format!("hsaco-fast-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seeds: Vec<Vec<u8>> = objects()
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "co" || x == "o"))
        .map(|p| std::fs::read(p).unwrap())
        .filter(|d| d.len() > 64)
        .collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut batch = Vec::new();
    let mut errors = 0;
    for i in 0..400 {
        let mut data = seeds[i % seeds.len()].clone();
        if i % 4 == 3 {
            // large files are read in two steps (src/cmd/read/files.rs)
            data.resize(data.len() + BIG_PADDING, 0);
        }
        for _ in 0..1 + next() % 3 {
            let at = (next() % data.len() as u64) as usize;
            match next() % 3 {
                0 => data[at] ^= 1 << (next() % 8),
                1 => data[at] = next() as u8,
                _ => data.truncate(at.max(64)),
            }
        }
        let path = dir.join(format!("m{i}.co"));
        std::fs::write(&path, &data).unwrap();
        errors += usize::from(same_both_ways(std::slice::from_ref(&path)));
        batch.push(path);
    }
    // both kinds of run happened: clean ones (fast path) and reported errors
    assert!(
        (20..380).contains(&errors),
        "{errors} of 400 runs reported errors"
    );
    // several at once: refused files are reported by the general path, in their place
    same_both_ways(&batch[..40]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pipe's `read` can return part of what will come: a code object arriving in two
/// writes through `/dev/stdin` must print as the file itself does (the fast path reads
/// a pipe it cannot finish with to its end and hands the bytes over, instead of
/// leaving the general path to read a drained pipe).
#[cfg(unix)]
#[test]
fn slow_pipe_prints_as_the_file() {
    use std::io::Write;
    use std::process::Stdio;
    let file = root().join("src/cmd/demo_data/vadd-gfx906-cov5.co");
    let data = std::fs::read(&file).unwrap();
    let expected = run(std::slice::from_ref(&file), true);
    for general in [false, true] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hsaco"));
        cmd.args(["read", "--metadata", "/dev/stdin"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if general {
            cmd.env("HSACO_NO_FAST_PATH", "1");
        } else {
            cmd.env_remove("HSACO_NO_FAST_PATH");
        }
        let mut child = cmd.spawn().expect("run hsaco");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&data[..1000]).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        stdin.write_all(&data[1000..]).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            (out.stdout, out.status.code()),
            (expected.0.clone(), expected.2),
            "general path: {general}; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
