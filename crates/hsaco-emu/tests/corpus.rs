//! Corpus kernels (../shared/corpus/cl, built by tests/data/build.sh) run through the
//! emulator; every buffer is checked against a reference computed here in Rust from
//! the OpenCL C source, bit for bit for integers and for floats where the operation
//! order is the source's (a + b, fma, a tree reduction in the source's order).

use hsaco_emu::{run, ArgValue, Dispatch, Elem, EmuError, RunOptions};

fn data(name: &str) -> Vec<u8> {
    let p = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// Every target at code object v4 and v5 (tests/data/build.sh): gfx942 with
/// architected flat scratch, gfx1100 in wave32 with true16 operands, gfx803 with flat
/// apertures from the queue at v4 and from the hidden block at v5; gfx1030 (wave32,
/// SDWA) and gfx1200 (wave32, work-group IDs in ttmp7/ttmp9, split barriers, SALU
/// floats); gfx1100 built for wave64 (`w64`).
const CONFIGS: &[&str] = &[
    "gfx900_cov4",
    "gfx900_cov5",
    "gfx906_cov4",
    "gfx906_cov5",
    "gfx90a_cov4",
    "gfx90a_cov5",
    "gfx942_cov4",
    "gfx942_cov5",
    "gfx1100_cov4",
    "gfx1100_cov5",
    "gfx803_cov4",
    "gfx803_cov5",
    "gfx1030_cov4",
    "gfx1030_cov5",
    "gfx1200_cov4",
    "gfx1200_cov5",
    "gfx1100w64_cov4",
    "gfx1100w64_cov5",
];

/// The wave size the kernels of `cfg` are built for (clang's default: wave32 on gfx10+).
fn wave_size(cfg: &str) -> usize {
    if cfg.starts_with("gfx1") && !cfg.contains("w64") {
        32
    } else {
        64
    }
}

/// Shapes: (grid, block), partial work-groups included.
const SHAPES: &[(u32, u32)] = &[(1000, 256), (64, 64), (777, 100), (1, 1), (300, 7)];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn f32(&mut self) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 200.0
    }
}

fn f32s(v: &[f32]) -> ArgValue {
    ArgValue::Buffer {
        elem: Elem::F32,
        data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}
fn i32s(v: &[i32]) -> ArgValue {
    ArgValue::Buffer {
        elem: Elem::I32,
        data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}
fn i64s(v: &[i64]) -> ArgValue {
    ArgValue::Buffer {
        elem: Elem::I64,
        data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}
fn u32v(x: u32) -> ArgValue {
    ArgValue::Scalar(x.to_le_bytes().to_vec())
}
fn f32v(x: f32) -> ArgValue {
    ArgValue::Scalar(x.to_le_bytes().to_vec())
}
fn as_f32(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
fn as_i32(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
fn as_i64(b: &[u8]) -> Vec<i64> {
    b.chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn go(co: &[u8], kernel: &str, grid: u32, block: u32, args: Vec<ArgValue>) -> Vec<Vec<u8>> {
    let d = Dispatch {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_lds: 0,
        args,
    };
    match run(co, kernel, &d, &RunOptions::default()) {
        Ok(r) => r.buffers.into_iter().map(|b| b.data).collect(),
        Err(e) => panic!("{kernel} grid {grid} block {block}: {e}"),
    }
}

#[test]
fn vadd_f32_i64_saxpy() {
    for cfg in CONFIGS {
        let co = data(&format!("01_vadd_{cfg}.co"));
        for &(grid, block) in SHAPES {
            let mut r = Rng(u64::from(grid) * 31 + u64::from(block));
            let n = grid as usize;
            // n - 3 elements are in range: the last lanes are masked off by `i < n`
            let len = n;
            let lim = n.saturating_sub(3) as u32;
            let a: Vec<f32> = (0..len).map(|_| r.f32()).collect();
            let b: Vec<f32> = (0..len).map(|_| r.f32()).collect();
            let out = go(
                &co,
                "vadd_f32",
                grid,
                block,
                vec![f32s(&a), f32s(&b), f32s(&vec![-1.0; len]), u32v(lim)],
            );
            let want: Vec<f32> = (0..len)
                .map(|i| if (i as u32) < lim { a[i] + b[i] } else { -1.0 })
                .collect();
            assert_eq!(
                bits(&as_f32(&out[2])),
                bits(&want),
                "{cfg} vadd_f32 {grid}/{block}"
            );
            assert_eq!(as_f32(&out[0]), a, "inputs unchanged");

            let a: Vec<i64> = (0..len).map(|_| r.next() as i64).collect();
            let b: Vec<i64> = (0..len).map(|_| r.next() as i64).collect();
            let out = go(
                &co,
                "vadd_i64",
                grid,
                block,
                vec![i64s(&a), i64s(&b), i64s(&vec![7; len]), u32v(lim)],
            );
            let want: Vec<i64> = (0..len)
                .map(|i| {
                    if (i as u32) < lim {
                        a[i].wrapping_add(b[i].wrapping_mul(3))
                    } else {
                        7
                    }
                })
                .collect();
            assert_eq!(as_i64(&out[2]), want, "{cfg} vadd_i64 {grid}/{block}");

            // grid-stride loop over 3n elements with a grid of n work-items
            let x: Vec<f32> = (0..3 * len).map(|_| r.f32()).collect();
            let y: Vec<f32> = (0..3 * len).map(|_| r.f32()).collect();
            let alpha = r.f32();
            let out = go(
                &co,
                "saxpy_grid_stride",
                grid,
                block,
                vec![f32v(alpha), f32s(&x), f32s(&y), u32v(3 * n as u32)],
            );
            let want: Vec<f32> = (0..3 * len).map(|i| alpha.mul_add(x[i], y[i])).collect();
            assert_eq!(
                bits(&as_f32(&out[1])),
                bits(&want),
                "{cfg} saxpy {grid}/{block}"
            );
        }
    }
}

#[test]
fn reduce_lds_with_barriers() {
    const WG: usize = 256;
    for cfg in CONFIGS {
        let co = data(&format!("02_reduce_lds_{cfg}.co"));
        for &n in &[1usize, 255, 512, 1000, 3000] {
            let mut r = Rng(n as u64);
            let input: Vec<f32> = (0..n).map(|_| r.f32()).collect();
            // reduce_sum: groups of 2*WG elements
            let groups = n.div_ceil(2 * WG);
            let out = go(
                &co,
                "reduce_sum",
                (groups * WG) as u32,
                WG as u32,
                vec![f32s(&input), f32s(&vec![0.0; groups]), u32v(n as u32)],
            );
            let mut want = Vec::new();
            for g in 0..groups {
                let mut tmp = [0f32; WG];
                for (lid, t) in tmp.iter_mut().enumerate() {
                    let i = g * 2 * WG + lid;
                    let mut s = 0.0f32;
                    if i < n {
                        s = input[i];
                    }
                    if i + WG < n {
                        s += input[i + WG];
                    }
                    *t = s;
                }
                let mut stride = WG / 2;
                while stride > 0 {
                    for lid in 0..stride {
                        tmp[lid] += tmp[lid + stride];
                    }
                    stride >>= 1;
                }
                want.push(tmp[0]);
            }
            assert_eq!(
                bits(&as_f32(&out[1])),
                bits(&want),
                "{cfg} reduce_sum n={n}"
            );

            // reduce_max_i32: groups of WG elements
            let ints: Vec<i32> = (0..n).map(|_| r.next() as i32).collect();
            let groups = n.div_ceil(WG);
            let out = go(
                &co,
                "reduce_max_i32",
                (groups * WG) as u32,
                WG as u32,
                vec![i32s(&ints), i32s(&vec![0; groups]), u32v(n as u32)],
            );
            let want: Vec<i32> = (0..groups)
                .map(|g| {
                    ints[g * WG..((g + 1) * WG).min(n)]
                        .iter()
                        .copied()
                        .max()
                        .unwrap()
                })
                .collect();
            assert_eq!(as_i32(&out[1]), want, "{cfg} reduce_max_i32 n={n}");
        }
    }
}

#[test]
fn scan_exclusive_blelloch() {
    const WG: usize = 128;
    for cfg in CONFIGS {
        let co = data(&format!("11_scan_{cfg}.co"));
        for &groups in &[1usize, 3] {
            let n = groups * 2 * WG;
            let mut r = Rng(groups as u64 + 99);
            let input: Vec<i32> = (0..n).map(|_| (r.next() as i32) >> 4).collect();
            let out = go(
                &co,
                "scan_exclusive",
                (groups * WG) as u32,
                WG as u32,
                vec![i32s(&input), i32s(&vec![0; n]), i32s(&vec![0; groups])],
            );
            let mut want = Vec::new();
            let mut sums = Vec::new();
            for g in 0..groups {
                let mut acc = 0i32;
                for i in 0..2 * WG {
                    want.push(acc);
                    acc = acc.wrapping_add(input[g * 2 * WG + i]);
                }
                sums.push(acc);
            }
            assert_eq!(as_i32(&out[1]), want, "{cfg} scan");
            assert_eq!(as_i32(&out[2]), sums, "{cfg} scan sums");
        }
    }
}

fn divergent_ref(v0: i32) -> i32 {
    let mut v = v0;
    let mut r: i32 = 0;
    if v & 1 != 0 {
        r = if v > 100 {
            v.wrapping_mul(3)
        } else {
            v.wrapping_neg()
        };
    } else if v & 2 != 0 {
        r = v.wrapping_shl(2);
    }
    match v & 7 {
        0 => r = r.wrapping_add(11),
        1 => r ^= 0x55,
        2 => r = r.wrapping_sub(7),
        3 => r = r.wrapping_mul(5),
        5 => r /= 3,
        _ => r = r.wrapping_add(v),
    }
    let mut k = 0;
    while v != 0 && k < 1000 {
        k += 1;
        if v & 3 == 3 {
            v >>= 2;
            continue;
        }
        if v < -50 {
            break;
        }
        v /= 2;
    }
    r.wrapping_add(k)
}

#[test]
fn control_flow() {
    for cfg in CONFIGS {
        let co = data(&format!("13_control_flow_{cfg}.co"));
        for &(grid, block) in SHAPES {
            let n = grid as usize;
            let mut r = Rng(u64::from(grid) + 5);
            let input: Vec<i32> = (0..n)
                .map(|i| match i % 4 {
                    0 => (r.next() as i32) >> 20,
                    1 => (r.next() % 300) as i32 - 150,
                    2 => r.next() as i32,
                    _ => i as i32,
                })
                .collect();
            let lim = n.saturating_sub(1) as u32;
            let out = go(
                &co,
                "divergent",
                grid,
                block,
                vec![i32s(&input), i32s(&vec![-9; n]), u32v(lim)],
            );
            let want: Vec<i32> = (0..n)
                .map(|i| {
                    if (i as u32) < lim {
                        divergent_ref(input[i])
                    } else {
                        -9
                    }
                })
                .collect();
            assert_eq!(as_i32(&out[1]), want, "{cfg} divergent {grid}/{block}");

            let x: Vec<f32> = (0..n).map(|_| r.f32()).collect();
            let (iters, step) = (37u32, 1.25f32);
            let out = go(
                &co,
                "uniform_loop",
                grid,
                block,
                vec![f32s(&x), u32v(iters), f32v(step)],
            );
            // clang contracts v * 0.5f + step into one fma (v_fma_f32 on every target here)
            let want: Vec<f32> = x
                .iter()
                .map(|&v0| {
                    let mut v = v0;
                    for _ in 0..iters {
                        v = v.mul_add(0.5, step);
                        if v > 1.0e6 {
                            v = 0.0;
                        }
                    }
                    v
                })
                .collect();
            assert_eq!(bits(&as_f32(&out[0])), bits(&want), "{cfg} uniform_loop");
        }
    }
}

fn collatz(v: u32, depth: i32) -> i32 {
    if v <= 1 || depth > 64 {
        return depth;
    }
    collatz(if v & 1 != 0 { 3 * v + 1 } else { v >> 1 }, depth + 1)
}

#[test]
fn calls_and_kernel_calling_kernel() {
    for cfg in CONFIGS {
        let co = data(&format!("06_calls_{cfg}.co"));
        let n = 300usize;
        let mut r = Rng(7);
        let input: Vec<f32> = (0..n).map(|_| r.f32()).collect();
        let out = go(
            &co,
            "calls",
            n as u32,
            64,
            vec![f32s(&input), f32s(&vec![0.0; n]), i32s(&vec![0; n])],
        );
        let steps: Vec<i32> = (0..n as u32).map(|i| collatz(i + 1, 0)).collect();
        assert_eq!(
            as_i32(&out[2]),
            steps,
            "{cfg} collatz through recursive calls"
        );
        // mix9(v, 2v, 3v, 4v, v, v+1, v-1, 0.5, i): the compiler contracts some of it
        // into fma, so this is checked to a relative 1e-5
        let got = as_f32(&out[1]);
        for i in 0..n {
            let v = input[i];
            let w = |a: f32, b: f32| a * 0.75 + b * 0.25;
            let want =
                w(v, 2.0 * v) + w(3.0 * v, 4.0 * v) * v - (v + 1.0) * (v - 1.0) + 0.5 * i as f32;
            assert!(
                (got[i] - want).abs() <= 1e-5 * want.abs().max(1.0),
                "{cfg} calls[{i}]: {} vs {want}",
                got[i]
            );
        }
        let out = go(&co, "scale", n as u32, 100, vec![f32s(&input), f32v(-3.5)]);
        let want: Vec<f32> = input.iter().map(|v| v * -3.5).collect();
        assert_eq!(bits(&as_f32(&out[0])), bits(&want), "{cfg} scale");
        let out = go(
            &co,
            "kernel_calls_kernel",
            n as u32,
            100,
            vec![f32s(&input)],
        );
        let want: Vec<f32> = input.iter().map(|v| v * 2.0).collect();
        assert_eq!(
            bits(&as_f32(&out[0])),
            bits(&want),
            "{cfg} kernel_calls_kernel"
        );
    }
}

#[test]
fn scratch_private_arrays() {
    for cfg in CONFIGS {
        let co = data(&format!("07_scratch_{cfg}.co"));
        let n = 200usize;
        let mut r = Rng(11);
        let idx: Vec<i32> = (0..n).map(|_| (r.next() % 1000) as i32).collect();
        let input: Vec<f32> = (0..n).map(|_| r.f32()).collect();
        let out = go(
            &co,
            "private_array",
            n as u32,
            64,
            vec![
                i32s(&idx),
                f32s(&input),
                f32s(&vec![0.0; n]),
                u32v(n as u32),
            ],
        );
        let mut want = Vec::new();
        for i in 0..n {
            let mut buf = [0f32; 96];
            for (k, b) in buf.iter_mut().enumerate() {
                *b = input[(i + k) % n];
            }
            let mut acc = 0.0f32;
            for k in 0..16 {
                acc += buf[(idx[(i * 16 + k) % n] % 96) as usize];
            }
            buf[(idx[i % n] % 96) as usize] = acc;
            want.push(buf[(i * 7) % 96] + acc);
        }
        assert_eq!(bits(&as_f32(&out[2])), bits(&want), "{cfg} private_array");

        let out = go(
            &co,
            "private_via_call",
            n as u32,
            64,
            vec![i32s(&vec![0; n])],
        );
        let want: Vec<i32> = (0..n as i32)
            .map(|i| {
                let p: Vec<i32> = (0..40).map(|k| i.wrapping_mul(k) ^ (k << 3)).collect();
                (0..40)
                    .step_by(3)
                    .fold(0i32, |s, k| s.wrapping_add(p[((k * i) % 40) as usize]))
            })
            .collect();
        assert_eq!(as_i32(&out[0]), want, "{cfg} private_via_call");
    }
}

#[test]
fn faults_are_reported() {
    let co = data("01_vadd_gfx90a_cov5.co");
    // a buffer one element too short: the last lane's load faults just past its end
    let d = Dispatch {
        grid: [64, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        args: vec![
            f32s(&[1.0; 63]),
            f32s(&[1.0; 64]),
            f32s(&[0.0; 64]),
            u32v(64),
        ],
    };
    let e = run(&co, "vadd_f32", &d, &RunOptions::default()).unwrap_err();
    match &e {
        EmuError::Exec(x) => {
            assert_eq!(x.kernel, "vadd_f32");
            assert!(x.text.starts_with("global_load_dword"), "{}", x.text);
            assert!(
                matches!(
                    x.fault,
                    hsaco_emu::exec::Fault::Memory { lane: Some(63), .. }
                ),
                "{:?}",
                x.fault
            );
        }
        other => panic!("{other:?}"),
    }
    let msg = e.to_string();
    assert!(
        msg.contains("lane 63") && msg.contains("vadd_f32+0x"),
        "{msg}"
    );

    // arguments are checked against the metadata
    let d = Dispatch {
        grid: [64, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        args: vec![f32s(&[1.0; 64]), u32v(3), f32s(&[0.0; 64]), u32v(64)],
    };
    assert!(matches!(
        run(&co, "vadd_f32", &d, &RunOptions::default()),
        Err(EmuError::Args(_))
    ));
    let d = Dispatch {
        grid: [64, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        args: vec![],
    };
    assert!(matches!(
        run(&co, "nope", &d, &RunOptions::default()),
        Err(EmuError::NoKernel { .. })
    ));

    // an endless loop runs into the budget
    let co = data("13_control_flow_gfx90a_cov5.co");
    let d = Dispatch {
        grid: [1, 1, 1],
        block: [1, 1, 1],
        dynamic_lds: 0,
        args: vec![f32s(&[1.0]), u32v(u32::MAX), f32v(1.0)],
    };
    let opts = RunOptions {
        budget: 10_000,
        ..RunOptions::default()
    };
    match run(&co, "uniform_loop", &d, &opts) {
        Err(EmuError::Exec(x)) => assert_eq!(x.fault, hsaco_emu::exec::Fault::Budget(10_000)),
        other => panic!("{other:?}"),
    }
}

/// Code objects with random bytes changed (descriptors, metadata, code) give results
/// or errors, never a panic.
#[test]
fn corrupted_code_objects_do_not_panic() {
    let orig = data("01_vadd_gfx90a_cov5.co");
    let mut r = Rng(3);
    // the descriptor area of the small objects is in the first 0x1000 bytes
    for round in 0..400 {
        let mut co = orig.clone();
        for _ in 0..1 + round % 8 {
            let at = if round % 2 == 0 {
                (r.next() % 0xc00) as usize
            } else {
                (r.next() % co.len() as u64) as usize
            };
            co[at] = r.next() as u8;
        }
        let d = Dispatch {
            grid: [70, 1, 1],
            block: [64, 1, 1],
            dynamic_lds: 0,
            args: vec![
                f32s(&[1.0; 70]),
                f32s(&[2.0; 70]),
                f32s(&[0.0; 70]),
                u32v(70),
            ],
        };
        let opts = RunOptions {
            budget: 100_000,
            ..RunOptions::default()
        };
        let _ = run(&co, "vadd_f32", &d, &opts);
    }
}

fn u8s(v: &[u8]) -> ArgValue {
    ArgValue::Buffer {
        elem: Elem::U8,
        data: v.to_vec(),
    }
}
fn u64s(v: &[u64]) -> ArgValue {
    ArgValue::Buffer {
        elem: Elem::U64,
        data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}
fn as_u64(b: &[u8]) -> Vec<u64> {
    as_i64(b).into_iter().map(|x| x as u64).collect()
}

#[test]
fn histogram_lds_and_global_atomics() {
    for cfg in CONFIGS {
        let co = data(&format!("10_histogram_{cfg}.co"));
        for &(n4, grid, block) in &[(1000usize, 256u32, 64u32), (3000, 512, 256), (17, 64, 64)] {
            let mut r = Rng(n4 as u64);
            let bytes: Vec<u8> = (0..4 * n4)
                .map(|k| if k % 3 == 0 { 7 } else { r.next() as u8 })
                .collect();
            let out = go(
                &co,
                "histogram256",
                grid,
                block,
                vec![u8s(&bytes), i32s(&[0; 256]), u32v(n4 as u32)],
            );
            let mut want = [0i32; 256];
            for b in &bytes {
                want[*b as usize] += 1;
            }
            assert_eq!(as_i32(&out[1]), want.to_vec(), "{cfg} histogram n4={n4}");
        }
    }
}

#[test]
fn integer_ops() {
    for cfg in CONFIGS {
        let co = data(&format!("12_intops_{cfg}.co"));
        let n = 200usize;
        let mut r = Rng(12);
        let a: Vec<u64> = (0..n)
            .map(|k| match k % 3 {
                0 => r.next(),
                1 => r.next() >> 20,
                _ => r.next() >> 40,
            })
            .collect();
        let b: Vec<u64> = (0..n)
            .map(|k| match k % 4 {
                0 => r.next(),
                1 => r.next() >> 33,
                2 => r.next() >> 55,
                _ => 0,
            })
            .collect();
        let bytes: Vec<u8> = (0..n + 1).map(|_| r.next() as u8).collect();
        let out = go(
            &co,
            "int_ops",
            n as u32,
            64,
            vec![
                u64s(&a),
                u64s(&b),
                u64s(&vec![0; 3 * n]),
                i32s(&vec![0; 4 * n]),
                u8s(&bytes),
                ArgValue::Buffer {
                    elem: Elem::I16,
                    data: vec![0; 2 * n],
                },
            ],
        );
        let q = as_u64(&out[2]);
        let bits: Vec<u32> = as_i32(&out[3]).into_iter().map(|x| x as u32).collect();
        let shorts: Vec<i16> = out[5]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        for i in 0..n {
            let (x, y) = (a[i], b[i] | 1);
            assert_eq!(q[3 * i], x / y, "{cfg} q {i}");
            assert_eq!(q[3 * i + 1], x % y, "{cfg} r {i}");
            assert_eq!(
                q[3 * i + 2],
                (x as i64).wrapping_div((y | 3) as i64).wrapping_neg() as u64,
                "{cfg} signed q {i}"
            );
            let (lo, hi) = (x as u32, (x >> 32) as u32);
            assert_eq!(
                bits[4 * i],
                x.count_ones() + (lo | 1).leading_zeros() + (hi | 0x8000_0000).trailing_zeros(),
                "{cfg} bits0 {i}"
            );
            assert_eq!(
                bits[4 * i + 1],
                lo.reverse_bits() ^ lo.rotate_left(7),
                "{cfg} bits1"
            );
            let sbfe = (((hi >> 3) << 20) as i32 >> 20) as u32;
            assert_eq!(
                bits[4 * i + 2],
                ((lo >> 5) & 0x1ff).wrapping_add(sbfe),
                "{cfg} bits2"
            );
            assert_eq!(
                bits[4 * i + 3],
                (((u64::from(lo) * u64::from(hi)) >> 32) as u32)
                    .wrapping_add((lo & 0xff_ffff).wrapping_mul(hi & 0xff_ffff)),
                "{cfg} bits3"
            );
            let s = i32::from(bytes[i]) - i32::from(bytes[i + 1]);
            assert_eq!(
                shorts[i],
                (s as i16).saturating_add((hi & 0x7fff) as i16),
                "{cfg} sat"
            );
        }
        let ai: Vec<i32> = (0..n).map(|_| r.next() as i32 | 1).collect();
        let bi: Vec<i32> = (0..n)
            .map(|k| {
                if k % 2 == 0 {
                    r.next() as i32
                } else {
                    (r.next() % 100) as i32
                }
            })
            .collect();
        let out = go(
            &co,
            "int_div32",
            n as u32,
            64,
            vec![i32s(&ai), i32s(&bi), i32s(&vec![0; 2 * n])],
        );
        let got = as_i32(&out[2]);
        for i in 0..n {
            let d = bi[i] | 1;
            assert_eq!(got[2 * i], ai[i].wrapping_div(d), "{cfg} div {i}");
            assert_eq!(
                got[2 * i + 1] as u32,
                (ai[i] as u32) % (d as u32),
                "{cfg} rem {i}"
            );
        }
    }
}

#[test]
fn wave_intrinsics() {
    for cfg in CONFIGS {
        let co = data(&format!("15_wave_intrinsics_{cfg}.co"));
        // one wave per work-group: `masks[group]` is written by lane 0 of each wave
        let ws = wave_size(cfg);
        let gfx10plus = cfg.starts_with("gfx1");
        for &grid in &[64u32, 256] {
            let n = grid as usize;
            let mut r = Rng(u64::from(grid));
            let v: Vec<i32> = (0..n).map(|_| (r.next() % 2001) as i32 - 1000).collect();
            let groups = n / ws;
            let out = go(
                &co,
                "wave_ops",
                grid,
                ws as u32,
                vec![i32s(&v), i32s(&vec![0; n]), u64s(&vec![0; groups])],
            );
            let got = as_i32(&out[1]);
            let masks = as_u64(&out[2]);
            for g in 0..groups {
                let w = &v[ws * g..ws * g + ws];
                let ballot = (0..ws).fold(0u64, |m, l| m | (u64::from(w[l] > 0) << l));
                assert_eq!(masks[g], ballot, "{cfg} ballot");
                for l in 0..ws {
                    let rot = w[(l + 1) & 31];
                    let swz = w[l ^ 1];
                    let dpp = if l % 16 == 0 { 0 } else { w[l - 1] };
                    let pl = if gfx10plus {
                        // permlane16 with selects 0x76543210/0xfedcba98: each lane its own
                        w[l]
                    } else {
                        // quad_perm [2,3,0,1]
                        w[(l & !3) + [2, 3, 0, 1][l & 3]]
                    };
                    let want = w[0]
                        .wrapping_add(w[3])
                        .wrapping_add(rot)
                        .wrapping_add(swz)
                        .wrapping_add(dpp)
                        .wrapping_add(pl)
                        .wrapping_add(l as i32);
                    assert_eq!(got[ws * g + l], want, "{cfg} lane {l}");
                }
            }
        }
    }
}

fn f64s(v: &[f64]) -> ArgValue {
    ArgValue::Buffer {
        elem: Elem::F64,
        data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}
fn as_f64(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn go2(
    co: &[u8],
    kernel: &str,
    grid: [u32; 2],
    block: [u32; 2],
    args: Vec<ArgValue>,
) -> Vec<Vec<u8>> {
    let d = Dispatch {
        grid: [grid[0], grid[1], 1],
        block: [block[0], block[1], 1],
        dynamic_lds: 0,
        args,
    };
    match run(co, kernel, &d, &RunOptions::default()) {
        Ok(r) => r.buffers.into_iter().map(|b| b.data).collect(),
        Err(e) => panic!("{kernel} grid {grid:?} block {block:?}: {e}"),
    }
}

#[test]
fn sgemm_tiled_2d() {
    for cfg in CONFIGS {
        let co = data(&format!("09_matmul_tiled_{cfg}.co"));
        // M x K times K x N, sizes not multiples of the 16x16 tile
        let (m, n, k) = (37usize, 21usize, 45usize);
        let mut r = Rng(9);
        let a: Vec<f32> = (0..m * k).map(|_| r.f32()).collect();
        let b: Vec<f32> = (0..k * n).map(|_| r.f32()).collect();
        let c: Vec<f32> = (0..m * n).map(|_| r.f32()).collect();
        let (alpha, beta) = (0.75f32, -1.5f32);
        let grid = [n.div_ceil(16) as u32 * 16, m.div_ceil(16) as u32 * 16];
        let out = go2(
            &co,
            "sgemm_tiled",
            grid,
            [16, 16],
            vec![
                f32s(&a),
                f32s(&b),
                f32s(&c),
                u32v(m as u32),
                u32v(n as u32),
                u32v(k as u32),
                f32v(alpha),
                f32v(beta),
            ],
        );
        let mut want = c.clone();
        for row in 0..m {
            for col in 0..n {
                let mut acc = 0.0f32;
                for kk in 0..k {
                    acc = a[row * k + kk].mul_add(b[kk * n + col], acc);
                }
                // the tiles pad with zeros: fma(0, 0, acc) leaves acc as it is
                want[row * n + col] = if cfg.starts_with("gfx803") {
                    // gfx803 has no fast f32 fma: clang does not contract
                    // `alpha * acc + beta * C` there (v_mul_f32, v_mac_f32)
                    alpha * acc + beta * c[row * n + col]
                } else {
                    alpha.mul_add(acc, beta * c[row * n + col])
                };
            }
        }
        assert_eq!(bits(&as_f32(&out[2])), bits(&want), "{cfg} sgemm");
    }
}

#[test]
fn dynamic_lds() {
    for cfg in CONFIGS {
        let co = data(&format!("08_dyn_lds_{cfg}.co"));
        let (w, h) = (37usize, 23usize);
        let (bw, bh) = (8u32, 8u32);
        let input: Vec<f32> = (0..w * h).map(|x| x as f32).collect();
        // the grid covers the input in x/y and, after the transpose, the output too
        let gx = (w as u32).div_ceil(bw).max((h as u32).div_ceil(bw)) * bw;
        let gy = (h as u32).div_ceil(bh).max((w as u32).div_ceil(bh)) * bh;
        let g = gx.max(gy);
        let out = go2(
            &co,
            "transpose_dyn",
            [g.div_ceil(bw) * bw, g.div_ceil(bh) * bh],
            [bw, bh],
            vec![
                f32s(&input),
                f32s(&vec![-1.0; w * h]),
                u32v(w as u32),
                u32v(h as u32),
                ArgValue::Scalar(((bw + 1) * bh * 4).to_le_bytes().to_vec()),
            ],
        );
        // the kernel assumes square work-groups (its transposed read indexes the tile
        // by tx * (bw + 1) + ty); compute what it writes, element by element
        let mut want = vec![-1.0f32; w * h];
        let groups_x = g.div_ceil(bw) as usize;
        let groups_y = g.div_ceil(bh) as usize;
        for gy_ in 0..groups_y {
            for gx_ in 0..groups_x {
                let mut tile = vec![f32::NAN; ((bw + 1) * bh) as usize];
                for ty in 0..bh as usize {
                    for tx in 0..bw as usize {
                        let (x, y) = (gx_ * bw as usize + tx, gy_ * bh as usize + ty);
                        if x < w && y < h {
                            tile[ty * (bw as usize + 1) + tx] = input[y * w + x];
                        }
                    }
                }
                for ty in 0..bh as usize {
                    for tx in 0..bw as usize {
                        let x = gy_ * bh as usize + tx;
                        let y = gx_ * bw as usize + ty;
                        if x < h && y < w {
                            let idx = tx * (bw as usize + 1) + ty;
                            want[y * h + x] = tile[idx];
                        }
                    }
                }
            }
        }
        // LDS starts zeroed here: entries no work-item wrote read as 0
        for x in want.iter_mut() {
            if x.is_nan() {
                *x = 0.0;
            }
        }
        assert_eq!(bits(&as_f32(&out[1])), bits(&want), "{cfg} transpose_dyn");

        let n = 96usize;
        let input: Vec<i32> = (0..2 * n as i32).map(|x| x * 7 - 100).collect();
        let out = go(
            &co,
            "two_dyn_buffers",
            2 * n as u32,
            n as u32,
            vec![
                i32s(&input),
                i32s(&vec![0; 2 * n]),
                ArgValue::Scalar((4 * n as u32).to_le_bytes().to_vec()),
                ArgValue::Scalar((2 * n as u32).to_le_bytes().to_vec()),
            ],
        );
        let got = as_i32(&out[1]);
        for gi in 0..2 {
            for lid in 0..n {
                let a = input[gi * n + (lid + 1) % n];
                let b = ((n - 1 - lid) * 3) as i16 as i32;
                let want = a + b + (lid & 31) as i32;
                assert_eq!(got[gi * n + lid], want, "{cfg} two_dyn_buffers {lid}");
            }
        }
    }
}

#[test]
fn fp64() {
    for cfg in CONFIGS {
        let co = data(&format!("04_fp64_{cfg}.co"));
        let n = 130usize;
        let mut r = Rng(4);
        let a: Vec<f64> = (0..n).map(|_| f64::from(r.f32()) * 1.37).collect();
        let b: Vec<f64> = (0..n).map(|_| f64::from(r.f32()) * 0.11).collect();
        let coef: Vec<f64> = (0..8).map(|k| 1.0 / (k as f64 + 1.5)).collect();
        let out = go(
            &co,
            "fp64_ops",
            n as u32 + 5,
            64,
            vec![
                f64s(&a),
                f64s(&b),
                f64s(&coef),
                f64s(&vec![0.0; n]),
                u32v(n as u32),
            ],
        );
        let got = as_f64(&out[3]);
        for i in 0..n {
            let (x, y) = (a[i], b[i]);
            let q = x / (y + 1.0);
            let s = x.abs().sqrt();
            let mut p = coef[7];
            for kk in (0..7).rev() {
                p = p.mul_add(x, coef[kk]);
            }
            let li = (x * 1.0e6) as i64;
            let want = q + s + p + li as f64 + x.min(y) + 1f64.copysign(y);
            assert_eq!(
                got[i].to_bits(),
                want.to_bits(),
                "{cfg} fp64_ops {i}: {} vs {want}",
                got[i]
            );
        }
        let u: Vec<f64> = (0..2 * n).map(|_| f64::from(r.f32())).collect();
        let v: Vec<f64> = (0..2 * n).map(|_| f64::from(r.f32())).collect();
        let out = go(
            &co,
            "fp64_dot",
            n as u32,
            64,
            vec![f64s(&u), f64s(&v), f64s(&vec![0.0; n])],
        );
        let got = as_f64(&out[2]);
        for i in 0..n {
            let want = u[2 * i].mul_add(v[2 * i], u[2 * i + 1] * v[2 * i + 1]);
            assert_eq!(got[i].to_bits(), want.to_bits(), "{cfg} fp64_dot {i}");
        }
    }
}

#[test]
fn atomics_order_independent_results() {
    for cfg in CONFIGS {
        let co = data(&format!("03_atomics_{cfg}.co"));
        let n = 300usize;
        let plain0 = [1000, -1000, 0, 0];
        let out = go(
            &co,
            "atomics_int",
            n as u32,
            64,
            vec![
                i32s(&[5, 0]),
                i32s(&plain0),
                i32s(&[10_000, 0x5a5a]),
                i64s(&[1 << 40]),
                i32s(&vec![0; n]),
            ],
        );
        let counter = as_i32(&out[0]);
        let plain = as_i32(&out[1]);
        let u = as_i32(&out[2]);
        let l = as_i64(&out[3]);
        assert_eq!(counter[0], 5 + n as i32, "{cfg} fetch_add");
        assert_eq!(
            counter[1] as u32,
            u32::MAX,
            "{cfg} fetch_or of 1 << (i & 31)"
        );
        assert_eq!((plain[0], plain[1]), (0, n as i32 - 1), "{cfg} min/max");
        assert_eq!(u[0], 10_000 - 2 * n as i32, "{cfg} fetch_sub");
        let x = (0..n as i32).fold(0x5a5a, |a, i| a ^ i);
        assert_eq!(u[1], x, "{cfg} fetch_xor");
        assert_eq!(
            l[0],
            (1 << 40) + (n * (n - 1) / 2) as i64,
            "{cfg} 64-bit add"
        );
        // compare-exchange: exactly one work-item found 0 and stored its index
        assert!((plain[2] as usize) < n, "{cfg} cmpxchg");

        // float atomics on values whose sums are exact in any order
        let xs: Vec<f32> = (0..n).map(|i| (i % 7) as f32 - 3.0).collect();
        let out = go(
            &co,
            "atomics_fp",
            n as u32,
            64,
            vec![f32s(&[0.5, -100.0]), f64s(&[0.25]), f32s(&xs)],
        );
        let f = as_f32(&out[0]);
        let d = as_f64(&out[1]);
        let sum: f32 = xs.iter().sum();
        assert_eq!(f[0], 0.5 + sum, "{cfg} float add");
        assert_eq!(d[0], 0.25 + f64::from(sum), "{cfg} double add");
        assert_eq!(f[1], 3.0, "{cfg} float max");

        let groups = 3usize;
        let out = go(
            &co,
            "atomics_local",
            (groups * 128) as u32,
            128,
            vec![i32s(&vec![0; groups * 64])],
        );
        let got = as_i32(&out[0]);
        for g in 0..groups {
            for lid in 0..64 {
                // lids lid and lid + 64 count in hist[lid]; the mask has all 32 bits
                assert_eq!(
                    got[g * 64 + lid],
                    2 + (u32::MAX as i32),
                    "{cfg} local {lid}"
                );
            }
        }
    }
}

/// f16 bits of an f32, rounded to nearest even (written for the test, from the
/// IEEE-754 binary16 layout, on the f32's bits).
fn f16_of(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    let (m, shift) = if e <= 0 {
        // subnormal half: the implicit one joins the mantissa
        (man | 0x80_0000, (14 - e) as u32)
    } else {
        (man, 13u32)
    };
    if shift > 24 {
        return sign;
    }
    let half = 1u32 << (shift - 1);
    let rest = m & ((1 << shift) - 1);
    let mut q = m >> shift;
    if rest > half || (rest == half && q & 1 == 1) {
        q += 1;
    }
    if e <= 0 {
        sign | q as u16
    } else {
        // a carry out of the mantissa moves into the exponent, as it should
        sign | (((e as u32) << 10) + q) as u16
    }
}

fn f32_of(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f32::from(h & 0x3ff);
    match e {
        0 => sign * m / 16_777_216.0,
        31 => {
            if m == 0.0 {
                sign * f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => sign * (1.0 + m / 1024.0) * 2f32.powi(e - 15),
    }
}

#[test]
fn half_precision() {
    for cfg in CONFIGS {
        let co = data(&format!("05_half_{cfg}.co"));
        let n = 200usize;
        let mut r = Rng(5);
        // values on a grid of 1/16 in [-8, 8]: products and sums are exact in f32, so
        // rounding once to f16 is the fma's result
        let mut grid = || ((r.next() % 257) as f32 - 128.0) / 16.0;
        let x: Vec<u16> = (0..n).map(|_| f16_of(grid())).collect();
        let y: Vec<u16> = (0..n).map(|_| f16_of(grid())).collect();
        let alpha = f16_of(grid());
        let h16 = |v: &[u16]| ArgValue::Buffer {
            elem: Elem::U16,
            data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        };
        let lim = n as u32 - 2;
        let out = go(
            &co,
            "half_axpy",
            n as u32,
            64,
            vec![
                ArgValue::Scalar(alpha.to_le_bytes().to_vec()),
                h16(&x),
                h16(&y),
                u32v(lim),
            ],
        );
        let got: Vec<u16> = out[1]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        for i in 0..n {
            let want = if (i as u32) < lim {
                f16_of(f32_of(alpha) * f32_of(x[i]) + f32_of(y[i]))
            } else {
                y[i]
            };
            assert_eq!(got[i], want, "{cfg} half_axpy {i}");
        }
        let a: Vec<u16> = (0..2 * n).map(|_| f16_of(grid())).collect();
        let b: Vec<u16> = (0..2 * n).map(|_| f16_of(grid())).collect();
        let out = go(
            &co,
            "half2_ops",
            n as u32,
            64,
            vec![h16(&a), h16(&b), h16(&vec![0; 2 * n]), f32s(&vec![0.0; n])],
        );
        let c: Vec<u16> = out[2]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let fo = as_f32(&out[3]);
        for i in 0..n {
            let mut w = [0u16; 2];
            for (k, add) in [(0usize, 1.0f32), (1, -2.0)] {
                let (u, v) = (f32_of(a[2 * i + k]), f32_of(b[2 * i + k]));
                let fma = f16_of(u * v + add);
                let diff = f16_of(u - v);
                w[k] = if f32_of(fma) >= f32_of(diff) {
                    fma
                } else {
                    diff
                };
            }
            assert_eq!((c[2 * i], c[2 * i + 1]), (w[0], w[1]), "{cfg} half2 {i}");
            assert_eq!(fo[i], f32_of(w[0]) + f32_of(w[1]), "{cfg} half2 sum {i}");
        }
    }
}

#[test]
fn vector_types() {
    for cfg in CONFIGS {
        let co = data(&format!("14_vectors_{cfg}.co"));
        let n = 100usize;
        let mut r = Rng(14);
        let a: Vec<f32> = (0..4 * n).map(|_| r.f32()).collect();
        let b: Vec<i32> = (0..8 * n).map(|_| (r.next() as i32) >> 8).collect();
        let out = go(
            &co,
            "vec_ops",
            n as u32,
            64,
            vec![
                f32s(&a),
                i32s(&b),
                f32s(&vec![0.0; 4 * n]),
                ArgValue::Buffer {
                    elem: Elem::I16,
                    data: vec![0; 4 * n],
                },
                ArgValue::Buffer {
                    elem: Elem::I8,
                    data: vec![0; n],
                },
                i64s(&vec![0; 2 * n]),
            ],
        );
        let c = as_f32(&out[2]);
        let s: Vec<i16> = out[3]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let l = as_i64(&out[5]);
        for i in 0..n {
            let u = &a[4 * i..4 * i + 4];
            let v = &b[8 * i..8 * i + 8];
            let mut w = [0f32; 4];
            for k in 0..4 {
                w[k] = u[3 - k].mul_add((k + 1) as f32, v[k] as f32);
            }
            let (w0, w1) = (w[1] + u[2], w[0] + u[2]);
            w[0] = w0;
            w[1] = w1;
            assert_eq!(bits(&c[4 * i..4 * i + 4]), bits(&w), "{cfg} vec_ops c {i}");
            assert_eq!(
                (s[2 * i], s[2 * i + 1]),
                (
                    v[0].wrapping_add(v[7]) as i16,
                    v[1].wrapping_add(v[6]) as i16
                ),
                "{cfg} short2"
            );
            assert_eq!(out[4][i] as i8, (v[3] & 0x7f) as i8, "{cfg} char");
            assert_eq!(
                (l[2 * i], l[2 * i + 1]),
                (
                    i64::from(v[4]) * i64::from(v[5]),
                    i64::from(v[6]) - i64::from(v[7])
                ),
                "{cfg} long2"
            );
        }
        let x: Vec<i32> = (0..4 * n).map(|_| r.next() as i32).collect();
        let out = go(
            &co,
            "vec_shuffle",
            n as u32,
            64,
            vec![i32s(&x), i32s(&vec![0; 4 * n])],
        );
        let got = as_i32(&out[1]);
        for i in 0..n {
            let xv: Vec<u32> = x[4 * i..4 * i + 4].iter().map(|&v| v as u32).collect();
            let want = [
                xv[3] ^ (xv[0] >> 1),
                xv[1] ^ (xv[1] >> 2),
                xv[2] ^ (xv[2] >> 3),
                xv[0] ^ (xv[3] >> 4),
            ];
            let g: Vec<u32> = got[4 * i..4 * i + 4].iter().map(|&v| v as u32).collect();
            assert_eq!(g, want, "{cfg} vec_shuffle {i}");
        }
    }
}

#[test]
fn printf_through_the_buffer() {
    for cfg in CONFIGS {
        let co = data(&format!("17_printf_{cfg}.co"));
        let d = Dispatch {
            grid: [8, 1, 1],
            block: [8, 1, 1],
            dynamic_lds: 0,
            args: vec![
                f32s(&[0.5, -1.25, 3.0, 1e10, 0.0, 0.0, 0.0, 0.0]),
                u8s(&[0; 8]),
            ],
        };
        let out = run(&co, "hello_printf", &d, &RunOptions::default()).unwrap();
        // what C's printf prints for the kernel's format and arguments
        assert_eq!(
            out.printf,
            "item 0 value 0.500000 hex 0 name const\n\
             item 1 value -1.250000 hex 1111 name const\n\
             item 2 value 3.000000 hex 2222 name const\n\
             item 3 value 10000000000.000000 hex 3333 name const\n",
            "{cfg}"
        );
    }
}

/// `--threads 2` gives the buffers `--threads 1` gives, run after run; a kernel with
/// global atomics runs on two threads too, with the same counts.
#[test]
fn two_threads_same_results() {
    let n = 3000usize;
    let mut r = Rng(77);
    let a: Vec<f32> = (0..n).map(|_| r.f32()).collect();
    let b: Vec<f32> = (0..n).map(|_| r.f32()).collect();
    let cases: Vec<(&str, &str, [u32; 2], Vec<ArgValue>)> = vec![
        (
            "01_vadd_gfx90a_cov5.co",
            "vadd_f32",
            [n as u32, 64],
            vec![f32s(&a), f32s(&b), f32s(&vec![0.0; n]), u32v(n as u32)],
        ),
        (
            "02_reduce_lds_gfx1100_cov5.co",
            "reduce_sum",
            [1536, 256],
            vec![f32s(&a), f32s(&[0.0; 6]), u32v(n as u32)],
        ),
        (
            "13_control_flow_gfx900_cov4.co",
            "uniform_loop",
            [n as u32, 100],
            vec![f32s(&a), u32v(50), f32v(0.25)],
        ),
    ];
    for (file, kernel, [grid, block], args) in cases {
        let co = data(file);
        let d = Dispatch {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dynamic_lds: 0,
            args,
        };
        let one = run(&co, kernel, &d, &RunOptions::default()).unwrap();
        for _ in 0..3 {
            let opts = RunOptions {
                threads: 2,
                ..RunOptions::default()
            };
            let two = run(&co, kernel, &d, &opts).unwrap();
            assert_eq!(two.stats.threads, 2, "{kernel}");
            assert_eq!(one.buffers, two.buffers, "{kernel}");
            assert_eq!(one.stats.wave_instructions, two.stats.wave_instructions);
        }
    }
    // global atomics: two threads sharing the buffers (tests/threads.rs has more)
    let co = data("10_histogram_gfx90a_cov5.co");
    let d = Dispatch {
        grid: [512, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        args: vec![u8s(&[1; 400]), i32s(&[0; 256]), u32v(100)],
    };
    let opts = RunOptions {
        threads: 2,
        ..RunOptions::default()
    };
    let out = run(&co, "histogram256", &d, &opts).unwrap();
    assert_eq!(out.stats.threads, 2);
    assert_eq!(as_i32(&out.buffers[1].data)[1], 400);
}

#[test]
fn gfx10_absolute_flat_scratch() {
    // tests/data/flat_scratch.cl: the prolog sets FLAT_SCRATCH with s_setreg
    for cfg in ["gfx1030_cov4", "gfx1030_cov5"] {
        let co = data(&format!("flat_scratch_{cfg}.co"));
        for &(grid, block) in &[(64u32, 32u32), (50, 16), (1, 1)] {
            let mut r = Rng(u64::from(grid) * 7 + u64::from(block));
            let mut o: Vec<i32> = (0..64).map(|_| (r.next() % 2001) as i32 - 1000).collect();
            o.extend(std::iter::repeat_n(0, grid as usize));
            let n = -7i32;
            let out = go(
                &co,
                "private_flat",
                grid,
                block,
                vec![i32s(&o), i32s_scalar(n)],
            );
            let mut want = o.clone();
            for i in 0..grid as usize {
                let a: Vec<i32> = (0..64)
                    .map(|k| o[(i + k) % 64].wrapping_mul(n).wrapping_add(k as i32))
                    .collect();
                want[64 + i] = a[(o[i] as u32).wrapping_add(i as u32) as usize & 63];
            }
            assert_eq!(as_i32(&out[0]), want, "{cfg} {grid}/{block}");
        }
    }
}

fn i32s_scalar(x: i32) -> ArgValue {
    ArgValue::Scalar(x.to_le_bytes().to_vec())
}

/// What 16_matrix's `matrix_core` runs on a configuration (the source's `#if`s).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MatrixPath {
    /// gfx90a/gfx942: `v_mfma_f32_16x16x4f32` over a wave64.
    Mfma,
    /// gfx11: `v_wmma_f32_16x16x16_f16` in the RDNA3 layout (wave32).
    Wmma11,
    /// gfx1200: `v_wmma_f32_16x16x16_f16` in the RDNA4 layout.
    Wmma12,
    /// Elsewhere: `c[i] = fmaf(a[i], b[i], c[i])`.
    Fma,
}

fn matrix_path(cfg: &str) -> MatrixPath {
    if cfg.starts_with("gfx90a") || cfg.starts_with("gfx942") {
        MatrixPath::Mfma
    } else if cfg.starts_with("gfx11") {
        MatrixPath::Wmma11
    } else if cfg.starts_with("gfx12") {
        MatrixPath::Wmma12
    } else {
        MatrixPath::Fma
    }
}

/// `(C, terms)` of each output element of `matrix_core` for `n` work-items: the index
/// of the output in `c`, the input C, and the (A, B) products' factors, from the
/// register layouts of the ISA guides (AMD's matrix instruction calculator for MFMA;
/// RDNA3/RDNA4 WMMA guides) applied to what each work-item loads in the source.
#[allow(clippy::type_complexity)]
fn matrix_terms(path: MatrixPath, n: usize, a: &[f32], b: &[f32]) -> Vec<(usize, Vec<(f32, f32)>)> {
    let mut out = Vec::new();
    match path {
        MatrixPath::Fma => {
            for i in 0..n {
                out.push((i, vec![(a[i], b[i])]));
            }
        }
        MatrixPath::Mfma => {
            // lane l of wave w is work-item 64w + l; A[i][k] = lane 16k + i, B[k][j] = lane
            // 16k + j; C/D[i][j] = VGPR i % 4 of lane 16 * (i / 4) + j, and work-item t
            // keeps VGPR r in c[4t + r]
            for w in 0..n / 64 {
                for i in 0..16 {
                    for j in 0..16 {
                        let t = 64 * w + 16 * (i / 4) + j;
                        let terms = (0..4)
                            .map(|k| (a[64 * w + 16 * k + i], b[64 * w + 16 * k + j]))
                            .collect();
                        out.push((4 * t + i % 4, terms));
                    }
                }
            }
        }
        MatrixPath::Wmma11 | MatrixPath::Wmma12 => {
            // work-item t holds 16 (gfx11) or 8 (gfx12) halves of a and b from a[E t ..],
            // and VGPR r of C/D in c[8t + r]
            let e = if path == MatrixPath::Wmma11 { 16 } else { 8 };
            let h = |x: f32| f32_of(f16_of(x));
            for w in 0..n / 32 {
                for i in 0..16 {
                    for j in 0..16 {
                        let (r, lane) = if path == MatrixPath::Wmma11 {
                            // gfx11: A[i][k] element k of lane i, B[k][j] element k of lane j,
                            // C/D[i][j] VGPR i / 2 of lane 16 * (i % 2) + j
                            (i / 2, 16 * (i % 2) + j)
                        } else {
                            // gfx12: A[i][k] element k % 8 of lane i + 16 (k / 8), B likewise
                            // with j, C/D[i][j] VGPR i % 8 of lane j + 16 (i / 8)
                            (i % 8, j + 16 * (i / 8))
                        };
                        let terms = (0..16)
                            .map(|k| {
                                let (la, lb, el) = if path == MatrixPath::Wmma11 {
                                    (i, j, k)
                                } else {
                                    (i + 16 * (k / 8), j + 16 * (k / 8), k % 8)
                                };
                                (h(a[e * (32 * w + la) + el]), h(b[e * (32 * w + lb) + el]))
                            })
                            .collect();
                        out.push((8 * (32 * w + lane) + r, terms));
                    }
                }
            }
        }
    }
    out
}

/// A matrix input: a quarter-integer in [-8, 8] when `exact` (every partial sum of the
/// matrix tests is then exactly representable), else a random f32.
fn matrix_val(r: &mut Rng, exact: bool) -> f32 {
    if exact {
        ((r.next() % 65) as i32 - 32) as f32 / 4.0
    } else {
        r.f32()
    }
}

/// The RDNA3 guide requires WMMA's A and B (16 values per lane) to be the same in
/// every 16-lane group of a wave: copy the first group's over the others.
fn replicate_first_16_lanes(a: &mut [f32], b: &mut [f32], n: usize, wave: usize) {
    for t in 0..n {
        if t % wave >= 16 {
            let src = t - t % wave + t % 16;
            for e in 0..16 {
                a[16 * t + e] = a[16 * src + e];
                b[16 * t + e] = b[16 * src + e];
            }
        }
    }
}

/// `got` is within `terms * 2^-24 * (|c0| + sum |a b|)` of the exact sum `exact_sum`:
/// the bound of any order of f32 additions of exact products.
fn assert_sum_within(
    terms: &[(f32, f32)],
    c0: f32,
    exact_sum: f64,
    got: f32,
    what: impl Fn() -> String,
) {
    let mag = terms.iter().fold(f64::from(c0.abs()), |m, (x, y)| {
        m + f64::from(*x * *y).abs()
    });
    let bound = terms.len() as f64 * mag * 2f64.powi(-24);
    assert!(
        (f64::from(got) - exact_sum).abs() <= bound,
        "{}: {got} vs {exact_sum} (bound {bound})",
        what()
    );
}

/// 16_matrix: MFMA (gfx90a, gfx942), WMMA (gfx1100, gfx1200), the dot products, and the
/// FMA fallback elsewhere. gfx1100 built for wave64 has no fixture: clang-22 refuses
/// the source's wave32 WMMA builtin there (tests/data/build.sh).
///
/// Rounding rule of the reference: the ISA guides do not specify the internal
/// precision and order of the matrix units and dot products. MFMA f32 and f64 follow
/// the hardware-validated model of MMA-Sim (arXiv 2511.10909: a chain of IEEE fused
/// multiply-adds in k order from C): bit for bit on every input. WMMA and the f16 dot
/// products have no published model, so (1) inputs whose every partial sum is exactly
/// representable (quarter-integers, products and sums far inside f32/f16) are checked
/// bit for bit: any order and precision gives those bits; (2) random inputs are
/// checked against the exact sum (f64) within `terms * 2^-24 * (|C| + sum |a b|)`,
/// which bounds any order of f32 additions of exact products. The FMA fallback and
/// the f16 fallback of `dot_products` are IEEE operations: bit for bit in every case.
#[test]
fn matrix_cores_and_dot_products() {
    for cfg in CONFIGS {
        if cfg.contains("w64") {
            continue; // no fixture, see above
        }
        let co = data(&format!("16_matrix_{cfg}.co"));
        let path = matrix_path(cfg);
        for exact in [true, false] {
            for &(grid, block) in &[(64u32, 64u32), (256, 128), (192, 64)] {
                let n = grid as usize;
                let mut r = Rng(u64::from(grid) * 7 + u64::from(exact));
                let mut a: Vec<f32> = (0..16 * n).map(|_| matrix_val(&mut r, exact)).collect();
                let mut b: Vec<f32> = (0..16 * n).map(|_| matrix_val(&mut r, exact)).collect();
                let c: Vec<f32> = (0..8 * n)
                    .map(|_| {
                        if exact {
                            ((r.next() % 2001) as i32 - 1000) as f32 / 4.0
                        } else {
                            r.f32()
                        }
                    })
                    .collect();
                if path == MatrixPath::Wmma11 {
                    replicate_first_16_lanes(&mut a, &mut b, n, 32);
                }
                let out = go(
                    &co,
                    "matrix_core",
                    grid,
                    block,
                    vec![f32s(&a), f32s(&b), f32s(&c)],
                );
                let got = as_f32(&out[2]);
                let mut want = c.clone();
                for (at, terms) in matrix_terms(path, n, &a, &b) {
                    let c0 = c[at];
                    if matches!(path, MatrixPath::Fma | MatrixPath::Mfma) {
                        // fmaf; MFMA f32: MMA-Sim's hardware-validated model, a chain of
                        // f32 fused multiply-adds in k order from C
                        want[at] = terms.iter().fold(c0, |s, (x, y)| x.mul_add(*y, s));
                        continue;
                    }
                    let exact_sum = terms
                        .iter()
                        .fold(f64::from(c0), |s, (x, y)| s + f64::from(*x) * f64::from(*y));
                    if exact {
                        // every partial sum is a multiple of 1/16 below 2^20: exact
                        want[at] = exact_sum as f32;
                    } else {
                        assert_sum_within(&terms, c0, exact_sum, got[at], || {
                            format!("{cfg} matrix_core[{at}] {grid}/{block}")
                        });
                        want[at] = got[at];
                    }
                }
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{cfg} matrix_core {grid}/{block} exact={exact} ({path:?})"
                );

                if path == MatrixPath::Mfma {
                    let ad: Vec<f64> = a[..n].iter().map(|x| f64::from(*x)).collect();
                    let bd: Vec<f64> = b[..n].iter().map(|x| f64::from(*x) / 3.0).collect();
                    let bd: Vec<f64> = if exact {
                        b[..n].iter().map(|x| f64::from(*x)).collect()
                    } else {
                        bd
                    };
                    let cd: Vec<f64> = c[..4 * n].iter().map(|x| f64::from(*x)).collect();
                    let out = go(
                        &co,
                        "mfma_f64",
                        grid,
                        block,
                        vec![f64s(&ad), f64s(&bd), f64s(&cd)],
                    );
                    let got = as_f64(&out[2]);
                    // C/D[i][j] in the VGPR pair i / 4 of lane 16 * (i % 4) + j
                    for w in 0..n / 64 {
                        for i in 0..16 {
                            for j in 0..16 {
                                let at = 4 * (64 * w + 16 * (i % 4) + j) + i / 4;
                                let terms: Vec<(f64, f64)> = (0..4)
                                    .map(|k| (ad[64 * w + 16 * k + i], bd[64 * w + 16 * k + j]))
                                    .collect();
                                // MMA-Sim's model of f64 MFMA (CDNA2/CDNA3): a chain of
                                // f64 fused multiply-adds in k order from C
                                let s = terms.iter().fold(cd[at], |s, (x, y)| x.mul_add(*y, s));
                                assert_eq!(
                                    got[at].to_bits(),
                                    s.to_bits(),
                                    "{cfg} mfma_f64[{at}] exact={exact}"
                                );
                            }
                        }
                    }
                }
            }
        }
        if path != MatrixPath::Fma {
            // a partial wave: the matrix operation's result is undefined by the guides, so
            // the emulator stops with an error that says so
            let n = 100usize;
            let d = Dispatch {
                grid: [n as u32, 1, 1],
                block: [n as u32, 1, 1],
                dynamic_lds: 0,
                args: vec![
                    f32s(&vec![1.0; 16 * n]),
                    f32s(&vec![1.0; 16 * n]),
                    f32s(&vec![0.0; 8 * n]),
                ],
            };
            match run(&co, "matrix_core", &d, &RunOptions::default()) {
                Err(EmuError::Exec(x)) => {
                    assert_eq!(x.fault, hsaco_emu::exec::Fault::PartialExec, "{cfg}")
                }
                other => panic!("{cfg}: a partial wave ran: {:?}", other.map(|_| ())),
            }
        }

        // dot_products over several shapes (partial work-groups too)
        let dot = matches!(
            path,
            MatrixPath::Mfma | MatrixPath::Wmma11 | MatrixPath::Wmma12
        ) || cfg.starts_with("gfx906")
            || cfg.starts_with("gfx1030");
        let sdot4 = cfg.starts_with("gfx906") || path == MatrixPath::Mfma;
        for exact in [true, false] {
            for &(grid, block) in SHAPES {
                let n = grid as usize;
                let mut r = Rng(u64::from(grid) + 77 + u64::from(exact));
                let hv = |r: &mut Rng| -> u16 {
                    if exact {
                        f16_of(((r.next() % 65) as i32 - 32) as f32 / 4.0)
                    } else {
                        f16_of(r.f32())
                    }
                };
                let ha: Vec<u32> = (0..n)
                    .map(|_| u32::from(hv(&mut r)) | u32::from(hv(&mut r)) << 16)
                    .collect();
                let hb: Vec<u32> = (0..n)
                    .map(|_| u32::from(hv(&mut r)) | u32::from(hv(&mut r)) << 16)
                    .collect();
                let p: Vec<i32> = (0..n).map(|_| r.next() as i32).collect();
                let q: Vec<i32> = (0..n).map(|_| r.next() as i32).collect();
                let u32s = |v: &[u32]| ArgValue::Buffer {
                    elem: Elem::U32,
                    data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
                };
                let out = go(
                    &co,
                    "dot_products",
                    grid,
                    block,
                    vec![
                        u32s(&ha),
                        u32s(&hb),
                        i32s(&p),
                        i32s(&q),
                        f32s(&vec![0.0; n]),
                    ],
                );
                let got = as_f32(&out[4]);
                for t in 0..n {
                    let x = [f32_of(ha[t] as u16), f32_of((ha[t] >> 16) as u16)];
                    let y = [f32_of(hb[t] as u16), f32_of((hb[t] >> 16) as u16)];
                    let mut want = if dot {
                        // fdot2(a, b, 1.0): f16 products are exact in f32
                        let s = 1.0f64 + f64::from(x[0] * y[0]) + f64::from(x[1] * y[1]);
                        if exact {
                            s as f32
                        } else {
                            let bound = 2.0
                                * (1.0
                                    + f64::from((x[0] * y[0]).abs())
                                    + f64::from((x[1] * y[1]).abs()))
                                * 2f64.powi(-24);
                            assert!(
                                (f64::from(got[t]) - s).abs() <= bound || sdot4,
                                "{cfg} fdot2[{t}]: {} vs {s}",
                                got[t]
                            );
                            if sdot4 {
                                // checked through the sum below
                                s as f32
                            } else {
                                got[t]
                            }
                        }
                    } else {
                        // (float)(a.x * b.x) + (float)(a.y * b.y) + 1.0f: f16 products
                        let p0 = f32_of(f16_of(x[0] * y[0]));
                        let p1 = f32_of(f16_of(x[1] * y[1]));
                        p0 + p1 + 1.0
                    };
                    if sdot4 {
                        let d4: i32 = (0..4)
                            .map(|k| {
                                i32::from((p[t] >> (8 * k)) as i8)
                                    * i32::from((q[t] >> (8 * k)) as i8)
                            })
                            .sum();
                        if exact {
                            want += d4 as f32;
                        } else {
                            // the fdot2 part is within its bound; the integer part exact
                            let s = f64::from(want) + f64::from(d4 as f32);
                            assert!(
                                (f64::from(got[t]) - s).abs()
                                    <= 4.0 * s.abs().max(1.0) * 2f64.powi(-24)
                                        + 2.0
                                            * (1.0
                                                + f64::from((x[0] * y[0]).abs())
                                                + f64::from((x[1] * y[1]).abs()))
                                            * 2f64.powi(-24),
                                "{cfg} dot_products[{t}]: {} vs {s}",
                                got[t]
                            );
                            want = got[t];
                        }
                    }
                    assert_eq!(
                        got[t].to_bits(),
                        want.to_bits(),
                        "{cfg} dot_products[{t}] {grid}/{block} exact={exact}"
                    );
                }
            }
        }
    }
}

/// gfx11 WMMA and `v_dot2acc_f32_f16` in wave64 (tests/data/wmma_w64.cl: the corpus's
/// 16_matrix calls the wave32 WMMA builtin, which clang-22 does not build for wave64).
/// Layout (AMD's matrix instruction calculator, RDNA3 wave64): A[i][k] is element k of
/// lane i, replicated in the four 16-lane groups (the guide requires it; the inputs
/// here are replicated); B[k][j] element k of lane j; C/D[i][j] VGPR i / 4 of lane
/// 16 * (i % 4) + j. Inputs exactly representable (bit for bit under any summation
/// order) and random (within `terms * 2^-24 * (|C| + sum |a b|)`), as in
/// [`matrix_cores_and_dot_products`].
#[test]
fn wmma_and_fdot2_in_wave64() {
    for cov in [4, 5] {
        let cfg = format!("gfx1100w64_cov{cov}");
        let co = data(&format!("wmma_w64_{cfg}.co"));
        for exact in [true, false] {
            for &(grid, block) in &[(64u32, 64u32), (256, 128), (192, 64)] {
                let n = grid as usize;
                let mut r = Rng(u64::from(grid) * 5 + u64::from(exact));
                let mut a: Vec<f32> = (0..16 * n).map(|_| matrix_val(&mut r, exact)).collect();
                let mut b: Vec<f32> = (0..16 * n).map(|_| matrix_val(&mut r, exact)).collect();
                let c: Vec<f32> = (0..4 * n)
                    .map(|_| matrix_val(&mut r, exact) * 8.0)
                    .collect();
                replicate_first_16_lanes(&mut a, &mut b, n, 64);
                let out = go(
                    &co,
                    "wmma_w64",
                    grid,
                    block,
                    vec![f32s(&a), f32s(&b), f32s(&c)],
                );
                let got = as_f32(&out[2]);
                let h = |x: f32| f32_of(f16_of(x));
                let mut want = c.clone();
                for w in 0..n / 64 {
                    for i in 0..16 {
                        for j in 0..16 {
                            let at = 4 * (64 * w + 16 * (i % 4) + j) + i / 4;
                            let terms: Vec<(f32, f32)> = (0..16)
                                .map(|k| (h(a[16 * (64 * w + i) + k]), h(b[16 * (64 * w + j) + k])))
                                .collect();
                            let s = terms.iter().fold(f64::from(c[at]), |s, (x, y)| {
                                s + f64::from(*x) * f64::from(*y)
                            });
                            if exact {
                                want[at] = s as f32;
                            } else {
                                assert_sum_within(&terms, c[at], s, got[at], || {
                                    format!("{cfg} wmma_w64[{at}] {grid}/{block}")
                                });
                                want[at] = got[at];
                            }
                        }
                    }
                }
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{cfg} wmma_w64 {grid}/{block} exact={exact}"
                );
            }
        }
        // fdot2(a, b, out) with exactly representable halves: bit for bit
        for &(grid, block) in SHAPES {
            let n = grid as usize;
            let mut r = Rng(u64::from(grid) + 3);
            let hv = |r: &mut Rng| u32::from(f16_of(((r.next() % 65) as i32 - 32) as f32 / 4.0));
            let ha: Vec<u32> = (0..n).map(|_| hv(&mut r) | hv(&mut r) << 16).collect();
            let hb: Vec<u32> = (0..n).map(|_| hv(&mut r) | hv(&mut r) << 16).collect();
            let acc: Vec<f32> = (0..n)
                .map(|_| ((r.next() % 2001) as i32 - 1000) as f32 / 8.0)
                .collect();
            let u32s = |v: &[u32]| ArgValue::Buffer {
                elem: Elem::U32,
                data: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            };
            let out = go(
                &co,
                "fdot2_w64",
                grid,
                block,
                vec![u32s(&ha), u32s(&hb), f32s(&acc)],
            );
            let want: Vec<f32> = (0..n)
                .map(|t| {
                    let p0 = f32_of(ha[t] as u16) * f32_of(hb[t] as u16);
                    let p1 = f32_of((ha[t] >> 16) as u16) * f32_of((hb[t] >> 16) as u16);
                    acc[t] + p0 + p1
                })
                .collect();
            assert_eq!(
                bits(&as_f32(&out[2])),
                bits(&want),
                "{cfg} fdot2_w64 {grid}/{block}"
            );
        }
    }
}

/// 19_libm (OpenCL built-ins from the ROCm device libraries) and its one-built-in-per-
/// kernel variant tests/data/libm_parts.cl, built by tests/data/build.sh with Debian's
/// rocm-device-libs 5.2; it has no ISA-version library for gfx942, gfx1100 and gfx1200,
/// which build.sh supplies (one constant, see there).
const LIBM_CONFIGS: &[&str] = &[
    "gfx803_cov4",
    "gfx803_cov5",
    "gfx900_cov4",
    "gfx900_cov5",
    "gfx906_cov4",
    "gfx906_cov5",
    "gfx90a_cov4",
    "gfx90a_cov5",
    "gfx1030_cov4",
    "gfx1030_cov5",
    "gfx942_cov4",
    "gfx942_cov5",
    "gfx1100_cov4",
    "gfx1100_cov5",
    "gfx1200_cov4",
    "gfx1200_cov5",
    "gfx1100w64_cov4",
    "gfx1100w64_cov5",
];

/// ULP bounds of the OpenCL C specification's "Relative Error as ULPs" tables (full
/// profile, single and double precision alike): sin/cos 4, exp 3, log1p 2, pow 16,
/// tanh 5, cbrt 2, erf 16. native_rsqrt is implementation-defined there; ocml's
/// native_rsqrt is the hardware `v_rsq_f32`, whose ISA-manual description gives 1 ULP.
mod ulps {
    pub const SIN: f64 = 4.0;
    pub const COS: f64 = 4.0;
    pub const EXP: f64 = 3.0;
    pub const LOG1P: f64 = 2.0;
    pub const POW: f64 = 16.0;
    pub const NATIVE_RSQRT: f64 = 1.0;
    pub const TANH: f64 = 5.0;
    pub const CBRT: f64 = 2.0;
    pub const ERF: f64 = 16.0;
}

/// The spacing of f32 values at |r| (r in f64): 2^(e-23) for |r| in [2^e, 2^(e+1)),
/// 2^-149 below the smallest normal.
fn ulp32(r: f64) -> f64 {
    let a = r.abs();
    if a < f64::from(f32::MIN_POSITIVE) {
        return 2f64.powi(-149);
    }
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    2f64.powi(e - 23)
}

/// The spacing of f64 values at |r|.
fn ulp64(r: f64) -> f64 {
    let a = r.abs();
    if a < f64::MIN_POSITIVE {
        return 2f64.powi(-1074);
    }
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    2f64.powi(e - 52)
}

/// `got` (an f32 result) is within `bound` ULPs of the exact `want`: NaN for NaN, the
/// same signed zero or infinity for an exact zero or infinity, an infinity of the
/// right sign when `want` is beyond the f32 range.
fn close32(got: f32, want: f64, bound: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if want == 0.0 || want.is_infinite() {
        return got.to_bits() == (want as f32).to_bits();
    }
    if want.abs() > f64::from(f32::MAX) * (1.0 + 2f64.powi(-24)) {
        return got.is_infinite() && got.is_sign_positive() == want.is_sign_positive();
    }
    got.is_finite() && (f64::from(got) - want).abs() <= bound * ulp32(want)
}

/// Whether the kernels of `cfg` flush f32 denormals: clang-22 gives the OpenCL kernels
/// FLOAT_DENORM_MODE_32 = 0 on gfx8 (3 on gfx9+; seen in `clang -S`'s
/// `.amdhsa_float_denorm_mode_32`).
fn ftz32(cfg: &str) -> bool {
    cfg.starts_with("gfx8")
}

/// [`close32`] for `got = f(x)`; when the kernel flushes f32 denormals, a denormal `x`
/// may be read as a zero of its sign and a denormal result may be written as a zero
/// (AMD ISA manuals: denormal mode "flush" applies to inputs and outputs).
fn close32_ftz(got: f32, x: f32, f: impl Fn(f64) -> f64, bound: f64, ftz: bool) -> bool {
    let want = f(f64::from(x));
    if close32(got, want, bound) {
        return true;
    }
    if !ftz {
        return false;
    }
    let tiny = |w: f64| w != 0.0 && w.abs() < f64::from(f32::MIN_POSITIVE);
    let x0 = if x.abs() < f32::MIN_POSITIVE {
        0f32.copysign(x)
    } else {
        x
    };
    let want0 = f(f64::from(x0));
    close32(got, want0, bound) || (got == 0.0 && (tiny(want) || tiny(want0)))
}

/// `got` within `bound` ULPs of `want`, the correctly rounded f64 (exceptional values as
/// in [`close32`]).
fn close64(got: f64, want: f64, bound: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if want == 0.0 || want.is_infinite() {
        return got.to_bits() == want.to_bits();
    }
    got.is_finite() && (got - want).abs() <= bound * ulp64(want)
}

/// tests/data/libm_f64_ref.txt (tests/data/libm_ref.py, mpmath at 200 bits): inputs and
/// the correctly rounded tanh, cbrt, erf of each.
fn libm_f64_ref() -> Vec<(f64, [f64; 3])> {
    let text = String::from_utf8(data("libm_f64_ref.txt")).unwrap();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let x = f64::from_bits(u64::from_str_radix(f[0], 16).unwrap());
            let p = |s: &str| -> f64 { s.parse().unwrap_or_else(|_| panic!("{s}")) };
            (x, [p(f[1]), p(f[2]), p(f[3])])
        })
        .collect()
}

/// f32 inputs: edge values (zeros, denormals, the largest finite, NaN, infinities,
/// arguments where exp overflows, log1p's -1, huge arguments for sin/cos's argument
/// reduction) then pseudo-random values, uniform in [lo, hi) and of magnitudes 1e-38
/// to 3e38 (negative ones too when `neg`).
fn libm_inputs32(n: usize, lo: f32, hi: f32, neg: bool, seed: u64) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::from_bits(1),
        -1e-40,
        f32::MIN_POSITIVE,
        1e-30,
        1e-7,
        0.5,
        -0.5,
        1.0,
        -1.0,
        -0.999_999_94,
        -2.0,
        std::f32::consts::PI,
        std::f32::consts::FRAC_PI_2,
        10.0,
        -10.0,
        88.7,
        89.0,
        -87.0,
        -104.0,
        -150.0,
        100.0,
        1e4,
        12345.678,
        1e10,
        -1e15,
        1e30,
        f32::MAX,
        f32::MIN,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    let mut r = Rng(seed);
    while v.len() < n {
        let u = (r.next() >> 40) as f32 / (1u64 << 24) as f32;
        if v.len() % 2 == 0 {
            v.push(lo + (hi - lo) * u);
        } else {
            let m = 10f32.powf(-38.0 + 76.5 * u);
            let s = if neg && r.next() & 1 == 1 { -1.0 } else { 1.0 };
            v.push(s * m);
        }
    }
    v.truncate(n);
    v
}

/// OpenCL `convert_uchar_sat_rte`: round to nearest even, clamp to [0, 255], NaN to 0.
fn uchar_sat_rte(x: f32) -> u32 {
    if x.is_nan() {
        0
    } else {
        x.round_ties_even().clamp(0.0, 255.0) as u32
    }
}

#[test]
fn libm_builtins_each_within_its_ulp_bound() {
    const N: usize = 256;
    let x = libm_inputs32(N, -10.0, 10.0, true, 190);
    // pow: every pair of these bases and exponents (C99 special cases included)
    let bases = [
        0.0f32,
        -0.0,
        1e-40,
        0.5,
        1.0,
        2.0,
        10.0,
        1e10,
        -2.0,
        -8.0,
        3.4e38,
        7.25,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        0.999,
    ];
    let exps = [
        0.0f32,
        -0.0,
        0.3,
        2.0,
        -1.0,
        3.0,
        0.5,
        -0.5,
        1e10,
        -1e10,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1.0 / 3.0,
        -7.0,
        100.5,
    ];
    let (pb, pe): (Vec<f32>, Vec<f32>) = bases
        .iter()
        .flat_map(|&b| exps.iter().map(move |&e| (b, e)))
        .unzip();
    let refs = libm_f64_ref();
    let dx: Vec<f64> = refs.iter().map(|r| r.0).collect();
    type F = fn(f64) -> f64;
    let f32_cases: [(&str, F, f64); 5] = [
        ("f32_sin", f64::sin, ulps::SIN),
        ("f32_cos", f64::cos, ulps::COS),
        ("f32_exp", f64::exp, ulps::EXP),
        ("f32_log1p", f64::ln_1p, ulps::LOG1P),
        ("f32_native_rsqrt", |v| 1.0 / v.sqrt(), ulps::NATIVE_RSQRT),
    ];
    // the largest error seen per built-in (in ULPs of the exact value; f64: of the
    // correctly rounded one), printed for NOTES.md
    let mut worst: Vec<(&str, f64)> = Vec::new();
    let mut note = |k: &'static str, err: f64| {
        if !err.is_finite() {
            return;
        }
        match worst.iter_mut().find(|w| w.0 == k) {
            Some(w) => w.1 = w.1.max(err),
            None => worst.push((k, err)),
        }
    };
    let err32 = |got: f32, want: f64| (f64::from(got) - want).abs() / ulp32(want);
    for cfg in LIBM_CONFIGS.iter().filter(|c| c.ends_with("cov5")) {
        let co = data(&format!("libm_parts_{cfg}.co"));
        for (k, f, bound) in f32_cases {
            let out = go(&co, k, N as u32, 64, vec![f32s(&x), f32s(&[0.0; N])]);
            let got = as_f32(&out[1]);
            for i in 0..N {
                // the ISA manuals do not say how v_rsq_f32 treats a denormal operand
                if k == "f32_native_rsqrt" && x[i] != 0.0 && x[i].abs() < f32::MIN_POSITIVE {
                    continue;
                }
                let want = f(f64::from(x[i]));
                assert!(
                    close32_ftz(got[i], x[i], f, bound, ftz32(cfg)),
                    "{cfg} {k}({:e} = {:#010x}) = {:e}, want {want:e} within {bound} ulp",
                    x[i],
                    x[i].to_bits(),
                    got[i]
                );
                if want.abs() <= f64::from(f32::MAX) && want.abs() >= f64::from(f32::MIN_POSITIVE) {
                    note(k, err32(got[i], want));
                }
            }
        }
        let n = pb.len();
        let out = go(
            &co,
            "f32_pow",
            n as u32,
            64,
            vec![f32s(&pb), f32s(&pe), f32s(&vec![0.0; n])],
        );
        let got = as_f32(&out[2]);
        for i in 0..n {
            let want = f64::from(pb[i]).powf(f64::from(pe[i]));
            let e = f64::from(pe[i]);
            assert!(
                close32_ftz(got[i], pb[i], |b| b.powf(e), ulps::POW, ftz32(cfg)),
                "{cfg} pow({:e}, {:e}) = {:e}, want {want:e} within {} ulp",
                pb[i],
                pe[i],
                got[i],
                ulps::POW
            );
            if want.abs() <= f64::from(f32::MAX) && want.abs() >= f64::from(f32::MIN_POSITIVE) {
                note("f32_pow", err32(got[i], want));
            }
        }
        for (j, (k, bound)) in [
            ("f64_tanh", ulps::TANH),
            ("f64_cbrt", ulps::CBRT),
            ("f64_erf", ulps::ERF),
        ]
        .into_iter()
        .enumerate()
        {
            let n = dx.len();
            let out = go(&co, k, n as u32, 64, vec![f64s(&dx), f64s(&vec![0.0; n])]);
            let got = as_f64(&out[1]);
            for i in 0..n {
                let want = refs[i].1[j];
                // the reference is the correctly rounded value: half an ulp from the exact one
                assert!(
                    close64(got[i], want, bound + 0.5),
                    "{cfg} {k}({:e} = {:#018x}) = {:e}, want {want:e} within {bound} ulp",
                    dx[i],
                    dx[i].to_bits(),
                    got[i]
                );
                if want.abs() >= f64::MIN_POSITIVE {
                    note(k, (got[i] - want).abs() / ulp64(want));
                }
            }
        }
    }
    eprintln!("largest errors (ulp): {worst:?}");
}

/// The unmodified 19_libm kernel: `y` (a sum of six f32 built-ins) within the composed
/// bound, `dy` (tanh + cbrt + erf in f64) likewise, the saturating conversion and the
/// untouched inputs bit for bit.
#[test]
fn libm_corpus_kernel_within_composed_bounds() {
    let refs = libm_f64_ref();
    let n = refs.len();
    // log1p and pow take |v| and native_rsqrt v + 2: mostly v >= -2, where none is NaN
    let x = libm_inputs32(n, -1.9, 12.0, false, 191);
    let dx: Vec<f64> = refs.iter().map(|r| r.0).collect();
    let e = 2f64.powi(-23);
    for cfg in LIBM_CONFIGS {
        let co = data(&format!("19_libm_{cfg}.co"));
        for &(grid, block) in &[(n as u32, 64u32), (n as u32 - 3, 100)] {
            let g = grid as usize;
            let out = go(
                &co,
                "libm",
                grid,
                block,
                vec![
                    f32s(&x),
                    f32s(&vec![0.0; n]),
                    f64s(&dx),
                    f64s(&vec![0.0; n]),
                    i32s(&vec![-1; n]),
                ],
            );
            assert_eq!(bits(&as_f32(&out[0])), bits(&x), "{cfg}: x unchanged");
            let y = as_f32(&out[1]);
            let dy = as_f64(&out[3]);
            let sat = as_i32(&out[4]);
            for i in 0..n {
                if i >= g {
                    assert_eq!(y[i], 0.0, "{cfg} y[{i}] past the grid");
                    assert_eq!(sat[i], -1, "{cfg} sat[{i}] past the grid");
                    continue;
                }
                let v = x[i];
                let a = f64::from(v.abs());
                // each term exactly (f64 functions of the f32 operands the kernel has)
                let t = [
                    f64::from(v).sin(),
                    f64::from(v).cos() * f64::from(v).exp(),
                    -a.ln_1p(),
                    a.powf(f64::from(0.3f32)),
                    1.0 / f64::from(v + 2.0).sqrt(),
                ];
                let b = [
                    ulps::SIN,
                    ulps::COS + ulps::EXP,
                    ulps::LOG1P,
                    ulps::POW,
                    ulps::NATIVE_RSQRT,
                ];
                let want: f64 = t.iter().sum();
                let big = |t: f64| !t.is_finite() || t.abs() > f64::from(f32::MAX);
                let (c, ex) = (f64::from(v).cos(), f64::from(v).exp());
                if t.iter().any(|&t| big(t)) || big(want) || big(ex) {
                    // an infinite or NaN term (exp beyond the f32 range too): the
                    // kernel's f32 arithmetic on the terms rounded to f32
                    let t32: Vec<f32> = t.iter().map(|&t| t as f32).collect();
                    let w = t32[0] + c as f32 * ex as f32 + t32[2] + t32[3] + t32[4];
                    assert!(
                        (w.is_nan() && y[i].is_nan()) || w.to_bits() == y[i].to_bits(),
                        "{cfg} libm y({v:e}) = {:e}, want {w:e}",
                        y[i]
                    );
                } else {
                    // each term within its bound (sin 4, cos*exp 4+3, ...: relative
                    // 2^-23 per ulp), plus the five roundings of the product and the
                    // four sums, each at most half an ulp of a partial result, itself
                    // at most the sum of the terms' magnitudes
                    let tol = t
                        .iter()
                        .zip(b)
                        .map(|(t, b)| (b + 2.5) * t.abs() * e)
                        .sum::<f64>()
                        * 1.001
                        + 40.0 * 2f64.powi(-149);
                    assert!(
                        (f64::from(y[i]) - want).abs() <= tol,
                        "{cfg} libm y({v:e}) = {:e}, want {want:e} +- {tol:e}",
                        y[i]
                    );
                }
                // tanh + cbrt + erf: the correctly rounded references (half an ulp
                // off), each function's bound, two roundings of the sums
                let r = refs[i].1;
                let want = r[0] + r[1] + r[2];
                if !want.is_finite() {
                    assert!(
                        (want.is_nan() && dy[i].is_nan()) || want.to_bits() == dy[i].to_bits(),
                        "{cfg} libm dy({:e}) = {:e}, want {want:e}",
                        dx[i],
                        dy[i]
                    );
                } else {
                    let tol = r
                        .iter()
                        .zip([ulps::TANH, ulps::CBRT, ulps::ERF])
                        .map(|(t, b)| (b + 0.5 + 1.0) * ulp64(*t))
                        .sum::<f64>()
                        * 1.001
                        + ulp64(want);
                    assert!(
                        (dy[i] - want).abs() <= tol,
                        "{cfg} libm dy({:e}) = {:e}, want {want:e} +- {tol:e}",
                        dx[i],
                        dy[i]
                    );
                }
                let w = uchar_sat_rte(v)
                    | uchar_sat_rte(v * 100.0) << 8
                    | uchar_sat_rte(-v) << 16
                    | uchar_sat_rte(v * 1000.0) << 24;
                assert_eq!(sat[i] as u32, w, "{cfg} convert_uchar4_sat_rte({v:e})");
            }
        }
    }
}
