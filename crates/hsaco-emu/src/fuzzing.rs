//! The entry point shared by the cargo-fuzz target `emu` (`fuzz/`) and the seeded smoke
//! test that `cargo test` runs: arbitrary bytes must give results or errors, never a
//! panic.
//!
//! The first byte picks the form of the input:
//! * even: **instruction words**. Byte 1 picks the processor (gfx900, gfx90a, gfx1100,
//!   gfx803, gfx942, gfx1030) and the wave size; bytes 2-9 are EXEC; bytes 10-41 seed
//!   the registers; the rest are instruction words, run on one wave (an `s_endpgm` is
//!   appended) with a small budget over a memory with one mapped region.
//! * 1 (mod 4): a **code object** and a dispatch. Bytes 1-8 are the dispatch shape
//!   (block and grid per dimension, dynamic LDS bytes, taken as given so that zero and
//!   oversized shapes are tried), the rest is the code object (its descriptor, metadata
//!   and code as mutated): its first kernel runs with made-up arguments from the
//!   metadata and a small budget.
//! * 3 (mod 4): the same with a **kernel descriptor** of its own: bytes 9-72 replace
//!   the loaded kernel's descriptor (every field as given: user SGPR enables, wave
//!   size, segment sizes, float modes), the code object follows.

use crate::dispatch::{ArgValue, Dispatch, Elem};
use crate::exec::{Wave, LANES};
use crate::kernel::Kernel;
use crate::memory::Memory;
use crate::RunOptions;

const PROCESSORS: [&str; 6] = ["gfx900", "gfx90a", "gfx1100", "gfx803", "gfx942", "gfx1030"];

/// Run the input; errors are the expected outcome of most inputs and are dropped.
pub fn emu(data: &[u8]) {
    let Some((&form, rest)) = data.split_first() else {
        return;
    };
    match form & 3 {
        0 | 2 => words(rest),
        1 => code_object(rest, false),
        _ => code_object(rest, true),
    }
}

fn byte(d: &[u8], i: usize) -> u8 {
    d.get(i).copied().unwrap_or(0)
}

fn words(d: &[u8]) {
    let sel = byte(d, 0);
    let processor = PROCESSORS[sel as usize % PROCESSORS.len()];
    let lanes = if processor.starts_with("gfx1") && sel & 0x80 == 0 {
        32
    } else {
        64
    };
    let mut w = Wave::new(lanes);
    let mut exec = [0u8; 8];
    for (i, e) in exec.iter_mut().enumerate() {
        *e = byte(d, 1 + i);
    }
    let exec = u64::from_le_bytes(exec);
    w.s[126] = exec as u32;
    w.s[127] = if lanes == 64 { (exec >> 32) as u32 } else { 0 };
    // registers: a pattern from the seed bytes, and s[0:1] pointing at the one mapped
    // region so that memory instructions can hit as well as miss
    let seed: Vec<u8> = (0..32).map(|i| byte(d, 9 + i)).collect();
    for (r, x) in w.s.iter_mut().enumerate().take(104) {
        *x = (u32::from(seed[r % 32]) * 0x0101_0101) ^ r as u32;
    }
    for (i, x) in w.v.iter_mut().enumerate().take(16 * LANES) {
        *x = (u32::from(seed[(i / LANES) % 32]) << (i % 24)) ^ (i % LANES) as u32;
    }
    let base = crate::memory::layout::GLOBAL;
    w.s[0] = base as u32;
    w.s[1] = (base >> 32) as u32;
    let mut code: Vec<u8> = d.get(41..).unwrap_or(&[]).to_vec();
    code.truncate(4096);
    code.resize(code.len().next_multiple_of(4), 0);
    code.extend_from_slice(&ENDPGM);
    let mut mem = Memory::new();
    let _ = mem.map(base, vec![0u8; 4096], "fuzz");
    let mut lds = vec![0u8; 65536];
    let _ = crate::run_code_budget(processor, &code, &mut w, &mut mem, &mut lds, 2000);
}

/// `s_endpgm` (the same word on every generation run here).
const ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];

fn code_object(d: &[u8], own_descriptor: bool) {
    let shape: Vec<u32> = (0..8).map(|i| u32::from(byte(d, i))).collect();
    let skip = if own_descriptor { 8 + 64 } else { 8 };
    let co = d.get(skip..).unwrap_or(&[]);
    let Ok(names) = crate::kernel_names(co) else {
        return;
    };
    let Some(name) = names.first() else {
        return;
    };
    let Ok(mut k) = crate::load(co, name) else {
        return;
    };
    if own_descriptor {
        match d
            .get(8..72)
            .and_then(|b| hsaco_elf::kd::KernelDescriptor::parse(b).ok())
        {
            Some(kd) => k.descriptor = kd,
            None => return,
        }
    }
    let mut args = Vec::new();
    for a in k.explicit_args() {
        match a.value_kind.as_deref() {
            Some("global_buffer") => args.push(ArgValue::Buffer {
                elem: Elem::U8,
                data: vec![1; 1024],
            }),
            Some("dynamic_shared_pointer") => {
                args.push(ArgValue::Scalar(256u32.to_le_bytes().to_vec()))
            }
            _ => {
                let n = a.size.unwrap_or(4).min(256) as usize;
                args.push(ArgValue::Scalar(vec![3; n]));
            }
        }
    }
    // block: 0-255 per dimension as given (0 is refused); grid: up to four blocks in
    // X and two in Y and Z, plus a partial remainder
    let block = [shape[0], shape[1] % 4, shape[2] % 2];
    let grid = [
        block[0] * (shape[3] % 4) + shape[4] % 8,
        block[1] * (1 + shape[5] % 2),
        block[2].max(1) * (shape[6] % 2),
    ];
    let disp = Dispatch {
        grid,
        block,
        dynamic_lds: shape[7] << 8,
        args,
    };
    let opts = RunOptions {
        budget: 5000,
        threads: 1 + (shape[7] as usize & 1),
        trace: None,
    };
    let _ = crate::run_kernel(&k, &disp, &opts);
}

/// Made-up arguments for `k` from its metadata, the same on every call: each global
/// buffer `buffer_bytes` pseudo-random bytes of 0-6 (small, so that values used as
/// indices or counts stay small), each dynamic LDS pointer 1024 bytes, each scalar 200
/// in its low byte. For runs that only ask whether a kernel runs, or whether two ways
/// of running it agree (the two-thread test, the `sweep` example).
pub fn made_up_args(k: &Kernel, buffer_bytes: usize) -> Vec<ArgValue> {
    let mut seed = 1u64;
    let mut args = Vec::new();
    for a in k.explicit_args() {
        match a.value_kind.as_deref() {
            Some("global_buffer") => {
                let data = (0..buffer_bytes)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((seed >> 33) % 7) as u8
                    })
                    .collect();
                args.push(ArgValue::Buffer {
                    elem: Elem::U8,
                    data,
                });
            }
            Some("dynamic_shared_pointer") => {
                args.push(ArgValue::Scalar(1024u32.to_le_bytes().to_vec()))
            }
            _ => {
                let mut v = vec![0u8; a.size.unwrap_or(4).max(1) as usize];
                v[0] = 200;
                args.push(ArgValue::Scalar(v));
            }
        }
    }
    args
}
