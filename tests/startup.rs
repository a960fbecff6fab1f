//! How the `hsaco` binary starts: it loads no shared library but the C library on
//! Linux (glibc), as each one the loader maps costs every run of the program time (see
//! `build.rs`), and it starts at a C `main` without Rust's runtime (`src/main.rs`).

#![cfg(all(target_os = "linux", target_env = "gnu"))]

use hsaco_elf::elf::Elf;

/// The `DT_NEEDED` names of the `hsaco` binary.
fn needed() -> Vec<String> {
    let data = std::fs::read(env!("CARGO_BIN_EXE_hsaco")).expect("read the hsaco binary");
    let elf = Elf::parse(&data).expect("the hsaco binary is ELF");
    let dynamic = elf.section_by_name(".dynamic").expect(".dynamic");
    let strings = elf.section_by_name(".dynstr").expect(".dynstr");
    let (dynamic, strings) = (dynamic.data().unwrap(), strings.data().unwrap());
    let mut names = Vec::new();
    for entry in dynamic.chunks_exact(16) {
        let tag = u64::from_le_bytes(entry[..8].try_into().unwrap());
        let value = u64::from_le_bytes(entry[8..].try_into().unwrap()) as usize;
        match tag {
            0 => break,
            // DT_NEEDED
            1 => {
                let name = &strings[value..];
                let end = name.iter().position(|&b| b == 0).unwrap();
                names.push(String::from_utf8_lossy(&name[..end]).into_owned());
            }
            _ => {}
        }
    }
    names
}

/// No `libm.so.6` (f32/f64 functions that std takes from it are the `libm` crate's in
/// `hsaco-emu`), and no `libgcc_s.so.1` where the C compiler has a static unwinder.
#[test]
fn the_binary_needs_only_the_c_library() {
    let needed = needed();
    assert!(
        needed.iter().any(|n| n.starts_with("libc.so")),
        "{needed:?}"
    );
    assert!(
        !needed.iter().any(|n| n.starts_with("libm.so")),
        "{needed:?}"
    );
    if option_env!("HSACO_STATIC_UNWINDER").is_some() {
        assert!(
            !needed.iter().any(|n| n.starts_with("libgcc_s")),
            "{needed:?}"
        );
    }
}

/// `dis` writing into a pipe whose reader has gone: the write fails with `BrokenPipe`
/// (SIGPIPE is ignored: `src/main.rs` starts the program without Rust's runtime and
/// ignores it itself) and the program ends with status 0, not killed by the signal.
#[test]
fn a_closed_pipe_ends_dis_quietly() {
    let object = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/cli/data/library/library-gfx90a.co"
    );
    // (430 KB of listing: more than a pipe holds, so a write fails whenever `true` ends)
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"("$0" dis "$1"; echo "status $?" >&2) | true"#)
        .arg(env!("CARGO_BIN_EXE_hsaco"))
        .arg(object)
        .output()
        .expect("run sh");
    assert_eq!(String::from_utf8_lossy(&out.stderr).trim(), "status 0");
}
