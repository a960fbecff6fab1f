//! How long building a small kernel takes: `cargo run --release -p hsaco-build --example
//! build_time` (one-off measurement, not a test).
use hsaco_build::{imm, modifier, s, v, ArgKind, KernelBuilder};
use std::time::Instant;

fn build() -> Vec<u8> {
    let mut k = KernelBuilder::new("gfx90a", "vadd").unwrap();
    let a = k.arg("a", ArgKind::GlobalPtr);
    let out = k.arg("out", ArgKind::GlobalPtr);
    k.field("user_sgpr_kernarg_segment_ptr", 1)
        .field("user_sgpr_count", 2);
    k.inst("s_load_dwordx2", &[s(4..=5), s(0..=1), imm(a)])
        .unwrap();
    k.inst("s_load_dwordx2", &[s(6..=7), s(0..=1), imm(out)])
        .unwrap();
    k.inst("v_lshlrev_b32_e32", &[v(1), imm(2), v(0)]).unwrap();
    k.inst("s_waitcnt", &[modifier("lgkmcnt(0)")]).unwrap();
    k.inst("global_load_dword", &[v(2), v(1), s(4..=5)])
        .unwrap();
    k.inst("s_waitcnt", &[modifier("vmcnt(0)")]).unwrap();
    k.inst("v_add_f32_e32", &[v(2), v(2), v(2)]).unwrap();
    k.inst("global_store_dword", &[v(1), v(2), s(6..=7)])
        .unwrap();
    k.inst("s_endpgm", &[]).unwrap();
    k.finish().unwrap()
}

fn main() {
    let n = 2000;
    let _ = build();
    let t = Instant::now();
    let mut bytes = 0;
    for _ in 0..n {
        bytes += build().len();
    }
    let per = t.elapsed().as_secs_f64() / f64::from(n);
    println!(
        "{:.1} us per 9-instruction kernel ({} bytes each)",
        per * 1e6,
        bytes / n as usize
    );
}
