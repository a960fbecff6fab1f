//! `run_observed`: the traced wave is shown to the observer after each instruction,
//! with its registers as they are then; nothing is observed without `--trace`.

use hsaco_build::KernelBuilder;
use hsaco_emu::{Dispatch, RunOptions, TraceObserver, TracedStep};

#[derive(Default)]
struct Seen {
    /// (line, next address, v1 of lane 3, s5, EXEC)
    steps: Vec<(String, Option<u64>, u32, u32, u64)>,
}

impl TraceObserver for Seen {
    fn step(&mut self, st: &TracedStep<'_>) {
        assert_eq!(st.wave_size(), 64);
        assert_eq!(st.vgpr(1, 64), None, "lane past the wave");
        self.steps.push((
            st.line.clone(),
            st.next,
            st.vgpr(1, 3).unwrap(),
            st.sgpr(5).unwrap(),
            st.exec(),
        ));
    }
}

fn kernel() -> Vec<u8> {
    let mut b = KernelBuilder::new("gfx900", "t").unwrap();
    b.field("next_free_vgpr", 8).field("next_free_sgpr", 8);
    for t in [
        "v_mov_b32 v1, 7",
        "v_add_u32 v1, v1, v0",
        "s_mov_b32 s5, 42",
        "s_mov_b64 exec, 0xff",
        "s_endpgm",
    ] {
        b.inst(t, &[]).unwrap();
    }
    b.finish().unwrap()
}

#[test]
fn observer_sees_each_instruction_after_it_ran() {
    let co = kernel();
    let disp = Dispatch {
        grid: [128, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        args: Vec::new(),
    };
    // work-group 1, wave 0: v0 is the work-item ID in the group (lane 3: 3)
    let opts = RunOptions {
        trace: Some(([1, 0, 0], 0)),
        ..RunOptions::default()
    };
    let mut seen = Seen::default();
    let r = hsaco_emu::run_observed(&co, "t", &disp, &opts, &mut seen).unwrap();
    let lines: Vec<&str> = seen.steps.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        lines, r.trace,
        "one step per traced instruction, same lines"
    );
    assert_eq!(seen.steps.len(), 5);
    // after v_mov: 7; after v_add: 7 + 3; s5 after s_mov; EXEC after s_mov_b64
    let v1: Vec<u32> = seen.steps.iter().map(|s| s.2).collect();
    assert_eq!(v1, [7, 10, 10, 10, 10]);
    let s5: Vec<u32> = seen.steps.iter().map(|s| s.3).collect();
    assert_eq!(s5, [0, 0, 42, 42, 42]);
    assert_eq!(seen.steps[3].4, 0xff);
    assert_eq!(seen.steps[2].4, u64::MAX);
    // the next address is the following instruction's, none after s_endpgm
    for k in 0..4 {
        let next = seen.steps[k].1.unwrap();
        assert!(seen.steps[k + 1].0.starts_with(&format!("{next:#x}:")));
    }
    assert_eq!(seen.steps[4].1, None);
    // stepping runs the same program: the other group's results are not disturbed,
    // and counting is unchanged
    let plain = hsaco_emu::run(&co, "t", &disp, &opts).unwrap();
    assert_eq!(plain.stats.wave_instructions, r.stats.wave_instructions);
    assert_eq!(plain.trace, r.trace);
    // without a traced wave nothing is observed
    let mut none = Seen::default();
    hsaco_emu::run_observed(&co, "t", &disp, &RunOptions::default(), &mut none).unwrap();
    assert!(none.steps.is_empty());
}
