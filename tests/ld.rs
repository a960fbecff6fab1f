//! `hsaco ld` end to end: the output file is ld.lld-22's (the fixture made by
//! crates/hsaco-link/tests/data/gen.sh), and on error nothing is written or replaced.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn data(name: &str) -> PathBuf {
    root().join("crates/hsaco-link/tests/data").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/ld-test");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn links_as_ld_lld() {
    let out = scratch("multi.co");
    let comment = std::fs::read_to_string(data("lld-comment.txt")).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_hsaco"))
        .arg("ld")
        .arg(data("multi_a.o"))
        .arg(data("multi_b.o"))
        .arg("-o")
        .arg(&out)
        .args(["--linker-comment", comment.trim()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(std::fs::read(&out).unwrap() == std::fs::read(data("multi.co")).unwrap());
}

#[test]
fn nothing_written_on_error() {
    // a new file is not created, an existing one is left as it was
    let fresh = scratch("fresh.co");
    let existing = scratch("existing.co");
    std::fs::write(&existing, b"old contents").unwrap();
    for out in [&fresh, &existing] {
        let result = Command::new(env!("CARGO_BIN_EXE_hsaco"))
            .arg("ld")
            .arg(data("undef.o"))
            .arg("-o")
            .arg(out)
            .output()
            .unwrap();
        assert_eq!(result.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(stderr.contains("undefined symbol: missing"), "{stderr}");
    }
    assert!(!fresh.exists());
    assert_eq!(std::fs::read(&existing).unwrap(), b"old contents");
    let leftovers: Vec<_> = std::fs::read_dir(root().join("target/ld-test"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("hsaco-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}
