//! Decoding allocates nothing: a counting global allocator watches this thread while
//! every instruction of the LLVM test vectors (tests/data/<gen>.txt, all generations,
//! every processor they list) is decoded, one vector at a time and as one long stream.
//!
//! This is its own test binary because the global allocator is per binary; the counter
//! only counts allocations of the thread that switched it on, so the test harness's own
//! threads do not disturb it.
#![allow(unsafe_code)]

use hsaco_isa::{Decoder, Instructions};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Whether allocations of this thread are counted.
    static ON: Cell<bool> = const { Cell::new(false) };
    /// Allocations (alloc, alloc_zeroed, realloc) counted on this thread.
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: thread-local storage may already be gone while a thread exits.
    let _ = ON.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every method forwards to the system allocator with the caller's arguments
// unchanged; the only addition is a thread-local counter (const-initialised `Cell`s,
// which never allocate).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded unchanged (the caller upholds `alloc`'s contract).
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged (`ptr` came from `System` through this allocator).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    COUNT.with(|c| c.set(0));
    ON.with(|on| on.set(true));
    let r = f();
    ON.with(|on| on.set(false));
    (r, COUNT.with(|c| c.get()))
}

const VECTORS: [(&str, &str); 8] = [
    ("gfx6", include_str!("data/gfx6.txt")),
    ("gfx7", include_str!("data/gfx7.txt")),
    ("gfx8", include_str!("data/gfx8.txt")),
    ("gfx9", include_str!("data/gfx9.txt")),
    ("gfx9", include_str!("data/gfx9.extra.txt")),
    ("gfx10", include_str!("data/gfx10.txt")),
    ("gfx11", include_str!("data/gfx11.txt")),
    ("gfx12", include_str!("data/gfx12.txt")),
];

/// The byte stream of every vector listed for `processor` and each vector's offset.
fn stream(data: &str, processor: &str) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = Vec::new();
    let mut starts = Vec::new();
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split(" | ");
        let (Some(hex), Some(_), Some(procs)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        if !procs.trim().split(',').any(|p| p == processor) {
            continue;
        }
        starts.push(bytes.len());
        for w in hex.split_whitespace() {
            let w = u32::from_str_radix(w, 16).expect("hex word");
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    (bytes, starts)
}

#[test]
fn decoding_does_not_allocate() {
    let mut processors: Vec<(&str, &str)> = Vec::new();
    for (_, data) in VECTORS {
        for line in data.lines().filter(|l| !l.starts_with('#')) {
            for p in line.rsplit(" | ").next().unwrap_or("").trim().split(',') {
                if !p.is_empty() && !processors.iter().any(|(q, d)| *q == p && *d == data) {
                    processors.push((p, data));
                }
            }
        }
    }
    let mut decoded = 0u64;
    let mut generations = std::collections::BTreeSet::new();
    for (processor, data) in processors {
        let dec = Decoder::for_processor(processor)
            .unwrap_or_else(|| panic!("no decoder for {processor}"));
        generations.insert(dec.isa().generation);
        let (bytes, starts) = stream(data, processor);
        // (decoders are built and their tables initialised before counting)
        let _ = dec.decode(&bytes);
        let ((ok, total), n) = allocations(|| {
            let mut ok = 0u64;
            let mut total = 0u64;
            for &s in &starts {
                total += 1;
                if let Ok(inst) = dec.decode(&bytes[s..]) {
                    ok += 1;
                    std::hint::black_box(inst);
                }
            }
            for (_, r) in Instructions::new(dec, &bytes) {
                total += 1;
                ok += u64::from(r.is_ok());
                std::hint::black_box(r.ok());
            }
            (ok, total)
        });
        assert_eq!(
            n, 0,
            "{processor}: {n} allocations while decoding {total} instructions"
        );
        decoded += ok;
    }
    // Every generation took part and nearly every vector decoded: a decoder that fails
    // early on everything would decode without allocating too.
    assert_eq!(generations.len(), 7, "{generations:?}");
    assert!(decoded > 120_000, "only {decoded} instructions decoded");
}

#[test]
fn the_counter_counts() {
    let (v, n) = allocations(|| std::hint::black_box(vec![1u8; 100]));
    assert_eq!(v.len(), 100);
    assert!(n >= 1, "an allocation was not counted");
}
