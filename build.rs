//! Link the `hsaco` binary as a position-dependent executable on Linux: the ISA and
//! target tables are full of pointers, and in a PIE every start of the program
//! relocates them (about 28,000 relocations, 300 pages touched): a millisecond of
//! each run, which is most of a short run.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bin=hsaco=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
