//! Integration tests of hsaco-check: the write-up's combinations table, the device
//! rules on real code objects, golden reports, and the fuzz smoke run.

mod combinations;
mod conformance;
mod fuzz;
mod rules;

use hsaco_check::{check, CheckOptions, Device, Report, RuntimeStack};
use std::path::PathBuf;

pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

pub fn object(name: &str) -> Vec<u8> {
    let p = data_dir().join("objects").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

pub fn run(file: &str, devices: &[&str], runtimes: &[&str]) -> Report {
    let opts = CheckOptions {
        devices: devices.iter().map(|d| Device::parse(d).unwrap()).collect(),
        runtimes: runtimes
            .iter()
            .map(|r| RuntimeStack::parse(r).unwrap())
            .collect(),
    };
    check(&object(file), &opts).unwrap()
}

/// Compare `actual` with `tests/data/golden/<name>`; `BLESS=1` rewrites it.
pub fn golden(name: &str, actual: &str) {
    let p = data_dir().join("golden").join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&p, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1 to create it)", p.display()));
    if expected != actual {
        panic!(
            "{} differs from the golden file (BLESS=1 rewrites it)\n--- expected\n{expected}\n--- actual\n{actual}",
            p.display()
        );
    }
}
