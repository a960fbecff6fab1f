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
            let args = hsaco_emu::fuzzing::made_up_args(&k, 65536 * 4);
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
