//! Run every kernel of the given code objects with made-up arguments and report
//! what stops them (unimplemented operations, faults): a development aid.
use hsaco_emu::*;
fn main() {
    for path in std::env::args().skip(1) {
        let co = std::fs::read(&path).unwrap();
        let names = match kernel_names(&co) {
            Ok(n) => n,
            Err(e) => {
                println!("{path}: {e}");
                continue;
            }
        };
        for name in names {
            let k = match load(&co, &name) {
                Ok(k) => k,
                Err(e) => {
                    println!("{path} {name}: {e}");
                    continue;
                }
            };
            let mut seed = 1u64;
            let mut args = Vec::new();
            for a in k.explicit_args() {
                match a.value_kind.as_deref() {
                    Some("global_buffer") => {
                        let data = (0..65536 * 4)
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
                        let n = a.size.unwrap_or(4) as usize;
                        let mut v = vec![0u8; n];
                        v[0] = 200;
                        args.push(ArgValue::Scalar(v));
                    }
                }
            }
            let block = k
                .metadata
                .reqd_workgroup_size
                .clone()
                .map(|r| r[0] as u32)
                .unwrap_or(64);
            let disp = Dispatch {
                grid: [
                    block * 3
                        + if k.metadata.reqd_workgroup_size.is_some() {
                            0
                        } else {
                            5
                        },
                    1,
                    1,
                ],
                block: [block, 1, 1],
                dynamic_lds: 0,
                args,
            };
            match run_kernel(
                &k,
                &disp,
                &RunOptions {
                    budget: 10_000_000,
                    threads: 1,
                    trace: None,
                },
            ) {
                Ok(r) => println!("{path} {name}: ok {} insts", r.stats.wave_instructions),
                Err(e) => println!("{path} {name}: {e}"),
            }
        }
    }
}
