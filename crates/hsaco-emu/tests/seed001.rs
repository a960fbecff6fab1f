//! Seed 001 (/work/shared/spec/seeds/001_*): on gfx6-gfx8 at code object v5 the
//! private and shared aperture bases are hidden arguments (implicit block offsets 192
//! and 196), and LLVM 22 makes a non-kernel function read them from the absolute
//! address of the field's offset (`s_mov_b64 s[4:5], 0xc4` then
//! `s_load_dword s4, s[4:5], 0x0`) instead of through its implicit-argument pointer.
//! On a GPU that reads whatever page 0 holds, if anything; the emulator maps nothing
//! below 4 GiB, so the right outcome is a fault at 0xc4 in the callee, naming the
//! instruction and the kernel. The same source at code object v4 takes the aperture
//! from `amd_queue_t` and runs. Fixtures and the command that made them:
//! tests/data/seed001_hidden_in_callee.{cl,sh}.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

use hsaco_emu::{run, ArgValue, Dispatch, Elem, EmuError, RunOptions};

fn fixture(v: u32) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/data/seed001_hidden_in_callee_gfx803_cov{v}.co",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn dispatch() -> Dispatch {
    Dispatch {
        grid: [64, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        args: vec![ArgValue::Buffer {
            elem: Elem::I32,
            data: vec![0; 64 * 4],
        }],
    }
}

#[test]
fn the_absolute_hidden_argument_read_faults_at_its_address() {
    let e = run(
        &fixture(5),
        "hidden_in_callee",
        &dispatch(),
        &RunOptions::default(),
    )
    .unwrap_err();
    let EmuError::Exec(x) = &e else {
        panic!("not an execution fault: {e}");
    };
    let msg = e.to_string();
    // the instruction is the callee's scalar load of the shared aperture base
    assert!(x.text.starts_with("s_load_dword s4, s[4:5]"), "{msg}");
    assert_eq!(x.kernel, "hidden_in_callee", "{msg}");
    assert!(msg.contains("0xc4"), "the message names the address: {msg}");
    assert!(
        msg.contains("(in_lds+0xc)"),
        "the message names the function: {msg}"
    );
    assert!(msg.contains("s_load_dword"), "{msg}");
}

#[test]
fn the_same_source_at_v4_runs() {
    // in_lds(&tile[i]) = 1 and in_lds(&out[i]) = 0: out[i] = 1 + 0 * 2
    let r = run(
        &fixture(4),
        "hidden_in_callee",
        &dispatch(),
        &RunOptions::default(),
    )
    .unwrap();
    let out: Vec<i32> = r.buffers[0]
        .data
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert!(out.iter().all(|x| *x == 1), "{out:?}");
}
