//! Make the start of the `hsaco` binary cheap on Linux (glibc), where a run of `hsaco
//! dis` or `hsaco read` on one object takes a few milliseconds and starting the process
//! is a large part of that:
//!
//! - Link it as a position-dependent executable: the ISA and target tables are full of
//!   pointers, and in a PIE every start of the program relocates them (about 28,000
//!   relocations, 300 pages touched): a millisecond of each run.
//! - Link the unwinder (`libgcc_eh.a`, the C compiler's static copy of it) into the
//!   binary instead of loading `libgcc_s.so.1` at each start. Each shared library the
//!   loader maps costs time: on this project's 2-CPU VM a C program that links
//!   `libgcc_s` starts in 0.57 ms against 0.48 ms without (best of 300), and `hsaco dis`
//!   of a 1.7 MB library object went from 3.54 to 3.26 ms (best of 80, interleaved) with
//!   this and `libm.so.6` gone (`hsaco-emu` uses the `libm` crate). Unwinding (panics
//!   caught at thread joins, backtraces) works the same: the unwinder finds the frame
//!   tables through `dl_iterate_phdr`, as in any program linked with `-static-libgcc`.
//!   The whole archive is linked ahead of the standard library, which then finds the
//!   `_Unwind_*` functions in the binary, so the linker (with `--as-needed`) drops
//!   `-lgcc_s`. Where the C compiler has no `libgcc_eh.a`, or when cross-compiling,
//!   the binary loads `libgcc_s.so.1` as usual.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    println!("cargo:rustc-link-arg-bin=hsaco=-no-pie");
    if var("TARGET") != var("HOST") {
        return;
    }
    if let Some(dir) = unwinder_dir() {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static:+whole-archive=gcc_eh");
        // (tests/startup.rs checks that the binary then needs no libgcc_s)
        println!("cargo:rustc-env=HSACO_STATIC_UNWINDER=1");
    }
}

/// The directory of the C compiler's `libgcc_eh.a`, if it has one (the compiler that
/// links Rust programs: `cc` unless cargo was told another linker).
fn unwinder_dir() -> Option<std::path::PathBuf> {
    let cc = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".into());
    let out = Command::new(cc)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()?;
    let path = std::path::PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // (a compiler without the file prints its bare name)
    if !out.status.success() || !path.is_absolute() || !path.is_file() {
        return None;
    }
    path.parent().map(|p| p.to_path_buf())
}
