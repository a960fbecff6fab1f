use hsaco_emu::*;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(1000);
    let co = std::fs::read(&path).unwrap();
    let f = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
    let disp = Dispatch {
        grid: [n as u32, 1, 1],
        block: [256, 1, 1],
        dynamic_lds: 0,
        args: vec![
            ArgValue::Buffer {
                elem: Elem::F32,
                data: f(&a),
            },
            ArgValue::Buffer {
                elem: Elem::F32,
                data: f(&b),
            },
            ArgValue::Buffer {
                elem: Elem::F32,
                data: f(&vec![0.0; n]),
            },
            ArgValue::Scalar((n as u32).to_le_bytes().to_vec()),
        ],
    };
    match run(&co, "vadd_f32", &disp, &RunOptions::default()) {
        Ok(out) => {
            let c = &out.buffers[2].data;
            let mut bad = 0;
            for i in 0..n {
                let v = f32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap());
                if v.to_bits() != (a[i] + b[i]).to_bits() {
                    bad += 1;
                    if bad < 5 {
                        println!("bad {i}: {v}");
                    }
                }
            }
            println!("bad={bad} stats={:?}", out.stats);
        }
        Err(e) => println!("error: {e}"),
    }
}
