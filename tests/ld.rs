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
    // (only this test's: the other tests of this file write into the same directory
    // meanwhile, and their temporary files exist until they are renamed)
    let leftovers: Vec<_> = std::fs::read_dir(root().join("target/ld-test"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.contains("hsaco-tmp")
                && (name.starts_with(".fresh.co.") || name.starts_with(".existing.co."))
        })
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

/// `hsaco as` then `hsaco ld` on the linker fixtures' assembly sources gives what
/// llvm-mc-22 then ld.lld-22 -shared gave (the committed `.co`, gen.sh), byte for byte;
/// `hsaco as --link` gives what `hsaco as` then `hsaco ld` give.
#[test]
fn assembled_and_linked_as_llvm_mc_and_ld_lld() {
    let comment = std::fs::read_to_string(data("lld-comment.txt")).unwrap();
    let hsaco = env!("CARGO_BIN_EXE_hsaco");
    for (name, sources) in [
        ("data", &["data"][..]),
        ("strs", &["strs"]),
        ("got", &["got"]),
        ("weak_undef", &["weak_undef"]),
        ("relro", &["relro", "relro2"]),
    ] {
        let mut objects = Vec::new();
        for s in sources {
            let o = scratch(&format!("as-{s}.o"));
            let st = Command::new(hsaco)
                .args(["as", "--mcpu=gfx90a"])
                .arg(data(&format!("{s}.s")))
                .arg("-o")
                .arg(&o)
                .status()
                .unwrap();
            assert!(st.success(), "hsaco as {s}.s");
            objects.push(o);
        }
        let out = scratch(&format!("as-{name}.co"));
        let st = Command::new(hsaco)
            .arg("ld")
            .args(&objects)
            .args(["--linker-comment", comment.trim(), "-o"])
            .arg(&out)
            .status()
            .unwrap();
        assert!(st.success(), "hsaco ld {name}");
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(data(&format!("{name}.co"))).unwrap(),
            "{name}: hsaco as + hsaco ld differ from llvm-mc-22 + ld.lld-22"
        );
        if sources.len() == 1 {
            let default_ld = scratch(&format!("as-{name}-default.co"));
            let st = Command::new(hsaco)
                .arg("ld")
                .arg(&objects[0])
                .arg("-o")
                .arg(&default_ld)
                .status()
                .unwrap();
            assert!(st.success());
            let one_step = scratch(&format!("as-link-{name}.co"));
            let st = Command::new(hsaco)
                .args(["as", "--link", "--mcpu=gfx90a"])
                .arg(data(&format!("{name}.s")))
                .arg("-o")
                .arg(&one_step)
                .status()
                .unwrap();
            assert!(st.success(), "hsaco as --link {name}.s");
            assert!(
                std::fs::read(&one_step).unwrap() == std::fs::read(&default_ld).unwrap(),
                "{name}: as --link differs from as + ld"
            );
        }
    }
}
