//! The per-operation harness: a kernel built with `hsaco_build::KernelBuilder` loads
//! per-lane inputs from buffers into VGPRs, runs the instructions under test (written
//! as assembly text, each encoded by the builder as it is added), stores the output
//! VGPRs to buffers and is run by `hsaco_emu::run`; the test reads the buffers back.
//!
//! Registers: inputs `k` (0..4) in `v[8+4k ..]` (up to 4 dwords each), outputs `m`
//! (0..4) in `v[24+4m ..]` (preset to [`SENTINEL`], so lanes an instruction does not
//! write keep it), `v0` the work-item ID, `s[0:1]` the kernarg pointer, `s2` the
//! work-group ID; `s[20:47]` and `v[40:63]` are free for the test. EXEC is all ones
//! when the body starts and set back to all ones after it.

#![allow(dead_code)]
// lanes and cases are indexed by number, as in the emulator itself
#![allow(clippy::needless_range_loop)]

pub mod float;

use hsaco_build::KernelBuilder;
use hsaco_emu::{ArgValue, Dispatch, Elem, EmuError, RunOptions};

/// The value output registers hold before the body runs.
pub const SENTINEL: u32 = 0xdead_beef;

/// gfx9 (wave64, the generation covered first), then gfx11 (wave32) and gfx8.
pub const GFX9: [&str; 2] = ["gfx900", "gfx90a"];
/// Every processor the tests run on.
pub const ALL: [&str; 4] = ["gfx900", "gfx90a", "gfx1100", "gfx803"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Gen {
    Gfx8,
    Gfx9,
    Gfx11,
}

pub fn generation(proc: &str) -> Gen {
    if proc.starts_with("gfx8") {
        Gen::Gfx8
    } else if proc.starts_with("gfx9") {
        Gen::Gfx9
    } else {
        Gen::Gfx11
    }
}

pub fn lanes(proc: &str) -> u32 {
    if generation(proc) == Gen::Gfx11 {
        32
    } else {
        64
    }
}

/// A kernel under construction: the builder and what the harness needs to finish it.
pub struct Kern {
    pub b: KernelBuilder,
    pub proc: String,
    pub gen: Gen,
    pub lanes: u32,
}

impl Kern {
    /// Add one instruction written as assembly text; panics naming it if the builder
    /// refuses it.
    pub fn i(&mut self, text: &str) -> &mut Kern {
        if let Err(e) = self.b.inst(text, &[]) {
            panic!("{}: {text}: {e}", self.proc);
        }
        self
    }

    /// Add one instruction; `false` if the processor does not have it.
    pub fn try_i(&mut self, text: &str) -> bool {
        self.b.inst(text, &[]).is_ok()
    }

    /// Set EXEC to `mask` (wave64: both halves).
    pub fn exec(&mut self, mask: u64) -> &mut Kern {
        let lo = mask as u32;
        let hi = (mask >> 32) as u32;
        if self.lanes == 64 {
            self.i(&format!("s_mov_b32 exec_lo, {lo:#x}"));
            self.i(&format!("s_mov_b32 exec_hi, {hi:#x}"))
        } else {
            self.i(&format!("s_mov_b32 exec_lo, {lo:#x}"))
        }
    }

    /// `s_waitcnt` for everything outstanding.
    pub fn wait(&mut self) -> &mut Kern {
        self.i("s_waitcnt 0")
    }

    /// The spelling of a gfx9 memory mnemonic on this processor.
    pub fn mem(&self, gfx9: &str) -> String {
        spell(self.gen, gfx9)
    }
}

/// gfx9 memory mnemonics as gfx11 spells them.
pub fn spell(gen: Gen, gfx9: &str) -> String {
    if gen != Gen::Gfx11 {
        return gfx9.to_string();
    }
    let map = [
        ("s_load_dwordx2", "s_load_b64"),
        ("s_load_dwordx4", "s_load_b128"),
        ("s_load_dwordx8", "s_load_b256"),
        ("s_load_dword", "s_load_b32"),
        ("global_load_dwordx2", "global_load_b64"),
        ("global_load_dwordx3", "global_load_b96"),
        ("global_load_dwordx4", "global_load_b128"),
        ("global_load_dword", "global_load_b32"),
        ("global_store_dwordx2", "global_store_b64"),
        ("global_store_dwordx3", "global_store_b96"),
        ("global_store_dwordx4", "global_store_b128"),
        ("global_store_dword", "global_store_b32"),
    ];
    for (a, b) in map {
        if let Some(rest) = gfx9.strip_prefix(a) {
            return format!("{b}{rest}");
        }
    }
    gfx9.to_string()
}

/// One input: per-lane values, `width` dwords per lane (1, 2 or 4).
#[derive(Clone, Debug)]
pub struct In {
    pub width: u32,
    pub data: Vec<u32>,
}

pub fn in32(data: &[u32]) -> In {
    In {
        width: 1,
        data: data.to_vec(),
    }
}

pub fn in64(data: &[u64]) -> In {
    In {
        width: 2,
        data: data
            .iter()
            .flat_map(|x| [*x as u32, (*x >> 32) as u32])
            .collect(),
    }
}

/// Run `body` over `ins` (each `items` lanes, padded with zeros to whole waves) and
/// return each output's dwords (`outs[m]` dwords per lane). `extra` buffers follow the
/// inputs and outputs as arguments; their pointers are in `s[36+2j : 37+2j]` and their
/// contents after the run are returned after the outputs.
pub fn run_full(
    proc: &str,
    ins: &[In],
    outs: &[u32],
    extra: &[Vec<u8>],
    descriptor: &[(&str, i64)],
    body: impl FnOnce(&mut Kern),
) -> Result<Vec<Vec<u8>>, EmuError> {
    run_group(proc, 1, ins, outs, extra, descriptor, body)
}

/// [`run_full`] with work-groups of `waves` waves (`v0` the work-item ID in the group).
pub fn run_group(
    proc: &str,
    waves: u32,
    ins: &[In],
    outs: &[u32],
    extra: &[Vec<u8>],
    descriptor: &[(&str, i64)],
    body: impl FnOnce(&mut Kern),
) -> Result<Vec<Vec<u8>>, EmuError> {
    assert!(ins.len() <= 4 && outs.len() <= 4 && extra.len() <= 4);
    let gen = generation(proc);
    let lanes = lanes(proc);
    let block = lanes * waves;
    let items = ins
        .iter()
        .map(|i| i.data.len() as u32 / i.width)
        .max()
        .unwrap_or(lanes)
        .max(1)
        .next_multiple_of(block);
    let b = KernelBuilder::new(proc, "t").unwrap_or_else(|e| panic!("{proc}: {e}"));
    let mut k = Kern {
        b,
        proc: proc.to_string(),
        gen,
        lanes,
    };
    let mut ptrs = Vec::new();
    for j in 0..ins.len() {
        ptrs.push((
            k.b.arg(&format!("in{j}"), hsaco_build::ArgKind::GlobalPtr),
            4 + 2 * j,
        ));
    }
    for m in 0..outs.len() {
        ptrs.push((
            k.b.arg(&format!("out{m}"), hsaco_build::ArgKind::GlobalPtr),
            12 + 2 * m,
        ));
    }
    for j in 0..extra.len() {
        ptrs.push((
            k.b.arg(&format!("x{j}"), hsaco_build::ArgKind::GlobalPtr),
            36 + 2 * j,
        ));
    }
    k.b.field("user_sgpr_kernarg_segment_ptr", 1)
        .field("user_sgpr_count", 2)
        .field("next_free_vgpr", 64)
        .field("next_free_sgpr", 48)
        // keep f32 denormals (the `.amdhsa_kernel` default, 0, flushes them); a test
        // that wants flushing sets the field in `descriptor`
        .field("float_denorm_mode_32", 3);
    if gen == Gen::Gfx8 {
        // gfx8 flat accesses need no setup beyond the address (no scratch use)
    }
    for (f, x) in descriptor {
        k.b.field(f, *x);
    }
    let ld2 = k.mem("s_load_dwordx2");
    for (off, sreg) in &ptrs {
        k.i(&format!("{ld2} s[{sreg}:{}], s[0:1], {off:#x}", sreg + 1));
    }
    // v1 = global item index; v2 = v1 * 4 (byte offset of a dword)
    k.i(&format!("s_mul_i32 s3, s2, {block}"));
    if gen == Gen::Gfx11 {
        k.i("v_add_nc_u32 v1, s3, v0");
    } else if gen == Gen::Gfx8 {
        k.i("v_add_u32 v1, vcc, s3, v0");
    } else {
        k.i("v_add_u32 v1, s3, v0");
    }
    for m in 0..outs.len() {
        for d in 0..4 {
            k.i(&format!("v_mov_b32 v{}, {SENTINEL:#x}", 24 + 4 * m + d));
        }
    }
    k.wait();
    let width_name = |w: u32| match w {
        1 => "dword",
        2 => "dwordx2",
        3 => "dwordx3",
        _ => "dwordx4",
    };
    let addr = |k: &mut Kern, width: u32, sreg: usize| -> String {
        if width.is_power_of_two() {
            k.i(&format!(
                "v_lshlrev_b32 v2, {}, v1",
                width.trailing_zeros() + 2
            ));
        } else {
            k.i(&format!("v_mul_u32_u24 v2, {}, v1", width * 4));
        }
        match k.gen {
            Gen::Gfx8 => {
                k.i(&format!("v_add_u32 v4, vcc, s{sreg}, v2"));
                k.i(&format!("v_mov_b32 v5, s{}", sreg + 1));
                k.i("v_addc_u32 v5, vcc, 0, v5, vcc");
                "v[4:5]".to_string()
            }
            _ => format!("v2, s[{sreg}:{}]", sreg + 1),
        }
    };
    for (j, inp) in ins.iter().enumerate() {
        let a = addr(&mut k, inp.width, 4 + 2 * j);
        let dst = reg_range(8 + 4 * j as u32, inp.width);
        let mn = match gen {
            Gen::Gfx8 => format!("flat_load_{}", width_name(inp.width)),
            _ => k.mem(&format!("global_load_{}", width_name(inp.width))),
        };
        k.i(&format!("{mn} {dst}, {a}"));
    }
    k.wait();
    body(&mut k);
    k.exec(if lanes == 64 {
        u64::MAX
    } else {
        u32::MAX as u64
    });
    k.wait();
    for (m, w) in outs.iter().enumerate() {
        let a = addr(&mut k, *w, 12 + 2 * m);
        let src = reg_range(24 + 4 * m as u32, *w);
        let mn = match gen {
            Gen::Gfx8 => format!("flat_store_{}", width_name(*w)),
            _ => k.mem(&format!("global_store_{}", width_name(*w))),
        };
        if gen == Gen::Gfx8 {
            k.i(&format!("{mn} {a}, {src}"));
        } else {
            let (va, sb) = a.split_once(", ").unwrap();
            k.i(&format!("{mn} {va}, {src}, {sb}"));
        }
    }
    k.wait();
    k.i("s_endpgm");
    let co = k.b.finish().unwrap_or_else(|e| panic!("{proc}: {e}"));
    let bytes = |d: &[u32]| d.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    let mut args = Vec::new();
    for inp in ins {
        let mut d = inp.data.clone();
        d.resize((items * inp.width) as usize, 0);
        args.push(ArgValue::Buffer {
            elem: Elem::U32,
            data: bytes(&d),
        });
    }
    for w in outs {
        args.push(ArgValue::Buffer {
            elem: Elem::U32,
            data: vec![0; (items * w * 4) as usize],
        });
    }
    for x in extra {
        args.push(ArgValue::Buffer {
            elem: Elem::U8,
            data: x.clone(),
        });
    }
    let disp = Dispatch {
        grid: [items, 1, 1],
        block: [block, 1, 1],
        dynamic_lds: 0,
        args,
    };
    let r = hsaco_emu::run(&co, "t", &disp, &RunOptions::default())?;
    Ok(r.buffers[ins.len()..]
        .iter()
        .map(|b| b.data.clone())
        .collect())
}

fn reg_range(first: u32, width: u32) -> String {
    if width == 1 {
        format!("v{first}")
    } else {
        format!("v[{first}:{}]", first + width - 1)
    }
}

pub fn dwords(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn qwords(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Run and return the outputs as dwords; a run error panics naming the processor.
pub fn run(proc: &str, ins: &[In], outs: &[u32], body: impl FnOnce(&mut Kern)) -> Vec<Vec<u32>> {
    run_full(proc, ins, outs, &[], &[], body)
        .unwrap_or_else(|e| panic!("{proc}: {e}"))
        .iter()
        .map(|b| dwords(b))
        .collect()
}

/// Whether `text` assembles for `proc` (the operation exists there with this spelling).
pub fn has(proc: &str, text: &str) -> bool {
    let mut b = KernelBuilder::new(proc, "probe").unwrap();
    b.inst(text, &[]).is_ok()
}

/// The processors among `procs` on which `text` assembles; panics if a gfx9 processor
/// is not among them (gfx9 is covered first: its tests must run).
pub fn where_exists(procs: &[&'static str], text: &str) -> Vec<&'static str> {
    let v: Vec<&'static str> = procs.iter().copied().filter(|p| has(p, text)).collect();
    for p in procs {
        if generation(p) == Gen::Gfx9 {
            assert!(v.contains(p), "{p} does not take `{text}`");
        }
    }
    v
}

/// Edge values for 32-bit integer operands.
pub const EDGE32: [u32; 16] = [
    0,
    1,
    2,
    31,
    32,
    33,
    63,
    64,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xffff_fffe,
    0x1234_5678,
    0x0000_8001,
    0x0000_ffff,
    0xf0f0_1010,
];

/// Every pair of `vals` (a, b): the operands of a binary operation's cases.
pub fn pairs(vals: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for x in vals {
        for y in vals {
            a.push(*x);
            b.push(*y);
        }
    }
    (a, b)
}

/// Check every lane of `got` against `want(lane)`, naming the case.
pub fn check(proc: &str, what: &str, got: &[u32], want: impl Fn(usize) -> u32, n: usize) {
    for i in 0..n {
        let w = want(i);
        assert_eq!(
            got[i], w,
            "{proc} {what} lane {i}: got {:#010x}, want {w:#010x}",
            got[i]
        );
    }
}

/// The first of `alts` (one spelling per generation) that assembles for `proc`.
pub fn spelling(proc: &str, alts: &[&str]) -> Option<String> {
    alts.iter().find(|t| has(proc, t)).map(|t| t.to_string())
}

/// Run a one-instruction body (given in its spellings) on every processor of `procs`
/// that has it (each gfx9 one must), with inputs `ins` and one output of `out_width`
/// dwords; `check` sees the processor and the output dwords.
pub fn each(
    procs: &[&'static str],
    alts: &[&str],
    ins: &[In],
    out_width: u32,
    check: impl Fn(&str, &[u32]),
) -> usize {
    let mut ran = 0;
    for p in procs {
        let Some(text) = spelling(p, alts) else {
            assert!(generation(p) != Gen::Gfx9, "{p} takes none of {alts:?}");
            continue;
        };
        let out = run(p, ins, &[out_width], |k| {
            k.i(&text);
        });
        check(p, &out[0]);
        ran += 1;
    }
    ran
}

/// A binary 32-bit operation over every pair of [`EDGE32`] against `f(a, b)`.
pub fn bin32(procs: &[&'static str], alts: &[&str], f: impl Fn(u32, u32) -> u32) {
    let (a, b) = pairs(&EDGE32);
    each(procs, alts, &[in32(&a), in32(&b)], 1, |p, got| {
        check(p, alts[0], got, |i| f(a[i], b[i]), a.len())
    });
}

/// A unary 32-bit operation over `vals` against `f(a)`.
pub fn un32(procs: &[&'static str], alts: &[&str], vals: &[u32], f: impl Fn(u32) -> u32) {
    each(procs, alts, &[in32(vals)], 1, |p, got| {
        check(p, alts[0], got, |i| f(vals[i]), vals.len())
    });
}

/// A ternary 32-bit operation over the triples of `vals` against `f(a, b, c)`.
pub fn tri32(
    procs: &[&'static str],
    alts: &[&str],
    vals: &[u32],
    f: impl Fn(u32, u32, u32) -> u32,
) {
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for x in vals {
        for y in vals {
            for z in vals {
                a.push(*x);
                b.push(*y);
                c.push(*z);
            }
        }
    }
    each(procs, alts, &[in32(&a), in32(&b), in32(&c)], 1, |p, got| {
        check(p, alts[0], got, |i| f(a[i], b[i], c[i]), a.len())
    });
}

/// One scalar case: the values of `s20..` and of SCC before the instruction.
#[derive(Clone, Debug)]
pub struct SCase {
    pub s: Vec<u32>,
    pub scc: bool,
}

/// Run scalar instructions once per case (each case's inputs moved into `s20..` as
/// literals and SCC set from `scc`), returning per case `s30..s30+n` and SCC after the
/// instructions. The results are moved to lane `case` of VGPRs with
/// `v_writelane_b32` (one wave holds a wave's worth of cases).
pub fn salu(proc: &str, cases: &[SCase], text: &[&str], n: usize) -> Vec<(Vec<u32>, bool)> {
    assert!(n <= 3);
    let lanes = lanes(proc) as usize;
    let mut res = Vec::new();
    for chunk in cases.chunks(lanes) {
        let out = run(proc, &[], &[1, 1, 1, 1], |k| {
            for (i, c) in chunk.iter().enumerate() {
                for (j, x) in c.s.iter().enumerate() {
                    k.i(&format!("s_mov_b32 s{}, {x:#x}", 20 + j));
                }
                k.i(&format!("s_mov_b32 s46, {}", u32::from(c.scc)));
                k.i("s_cmp_eq_u32 s46, 1");
                for t in text {
                    k.i(t);
                }
                k.i("s_cselect_b32 s46, 1, 0");
                for m in 0..n {
                    k.i(&format!(
                        "v_writelane_b32 v{}, s{}, {i}",
                        24 + 4 * m,
                        30 + m
                    ));
                }
                k.i(&format!("v_writelane_b32 v36, s46, {i}"));
            }
        });
        for i in 0..chunk.len() {
            res.push(((0..n).map(|m| out[m][i]).collect(), out[3][i] == 1));
        }
    }
    res
}

/// Cases of every pair of `vals` in `s20`, `s21` (SCC in alternating).
pub fn spairs(vals: &[u32]) -> Vec<SCase> {
    let mut v = Vec::new();
    for x in vals {
        for y in vals {
            v.push(SCase {
                s: vec![*x, *y],
                scc: v.len() % 2 == 1,
            });
        }
    }
    v
}

/// A scalar operation over `cases` on each of `procs` that has it (gfx9 must):
/// `f(inputs, scc_in)` gives the expected outputs and SCC (`None`: SCC unchanged).
pub fn sop(
    procs: &[&'static str],
    alts: &[&str],
    cases: &[SCase],
    n: usize,
    f: impl Fn(&[u32], bool) -> (Vec<u32>, Option<bool>),
) {
    for p in procs {
        let Some(text) = spelling(p, alts) else {
            assert!(generation(p) != Gen::Gfx9, "{p} takes none of {alts:?}");
            continue;
        };
        let got = salu(p, cases, &[&text], n);
        for (c, (outs, scc)) in cases.iter().zip(got) {
            let (want, wscc) = f(&c.s, c.scc);
            assert_eq!(outs, want, "{p} `{text}` inputs {:x?} scc {}", c.s, c.scc);
            assert_eq!(
                scc,
                wscc.unwrap_or(c.scc),
                "{p} `{text}` SCC, inputs {:x?}",
                c.s
            );
        }
    }
}

/// [`sop`] for a sequence of instructions (every processor of `procs` must take them).
pub fn sop_seq(
    procs: &[&'static str],
    texts: &[&str],
    cases: &[SCase],
    n: usize,
    f: impl Fn(&[u32], bool) -> (Vec<u32>, Option<bool>),
) {
    for p in procs {
        let got = salu(p, cases, texts, n);
        for (c, (outs, scc)) in cases.iter().zip(got) {
            let (want, wscc) = f(&c.s, c.scc);
            assert_eq!(
                outs, want,
                "{p} `{texts:?}` inputs {:x?} scc {}",
                c.s, c.scc
            );
            assert_eq!(
                scc,
                wscc.unwrap_or(c.scc),
                "{p} `{texts:?}` SCC, inputs {:x?}",
                c.s
            );
        }
    }
}
