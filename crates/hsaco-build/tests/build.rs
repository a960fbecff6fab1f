//! Kernels built in memory run on the emulator with the results computed here.

use hsaco_build::{imm, modifier, s, v, ArgKind, BuildError, KernelBuilder, Operand};
use hsaco_emu::{ArgValue, Dispatch, Elem, RunOptions};

/// out[i] = a[i] + b[i] * n (32-bit integers), the multiplication as a loop of `n`
/// additions, so labels and a backward branch are exercised.
fn axpy_loop(processor: &str) -> Result<Vec<u8>, BuildError> {
    let mut k = KernelBuilder::new(processor, "axpy_loop")?.code_object_version(5);
    let a = k.arg("a", ArgKind::GlobalPtr);
    let b = k.arg("b", ArgKind::GlobalPtr);
    let out = k.arg("out", ArgKind::GlobalPtr);
    let n = k.arg("n", ArgKind::U32);
    assert_eq!((a, b, out, n), (0, 8, 16, 24));
    // s[0:1] kernarg segment pointer; s2 the work-group ID in X; v0 the work-item ID
    k.field("user_sgpr_kernarg_segment_ptr", 1)
        .field("user_sgpr_count", 2);
    k.inst("s_load_dwordx4", &[s(4..=7), s(0..=1), imm(a)])?;
    k.inst("s_load_dwordx2", &[s(8..=9), s(0..=1), imm(out)])?;
    k.inst("s_load_dword", &[s(10), s(0..=1), imm(n)])?;
    k.inst("s_lshl_b32", &[s(3), s(2), imm(6)])?;
    k.inst("v_add_u32_e32", &[v(1), s(3), v(0)])?;
    k.inst("v_lshlrev_b32_e32", &[v(1), imm(2), v(1)])?;
    k.inst("s_waitcnt", &[modifier("lgkmcnt(0)")])?;
    k.inst("global_load_dword", &[v(2), v(1), s(4..=5)])?;
    k.inst("global_load_dword", &[v(3), v(1), s(6..=7)])?;
    k.inst("s_waitcnt", &[modifier("vmcnt(0)")])?;
    k.inst("s_mov_b32", &[s(11), imm(0)])?;
    let top = k.label();
    let done = k.label();
    k.inst("s_cmp_eq_u32", &[s(10), imm(0)])?;
    k.inst("s_cbranch_scc1", &[Operand::Label(done)])?;
    k.bind(top)?;
    k.inst("v_add_u32_e32", &[v(2), v(2), v(3)])?;
    k.inst("s_add_u32", &[s(11), s(11), imm(1)])?;
    k.inst("s_cmp_lt_u32", &[s(11), s(10)])?;
    k.inst("s_cbranch_scc1", &[Operand::Label(top)])?;
    k.bind(done)?;
    k.inst("global_store_dword", &[v(1), v(2), s(8..=9)])?;
    k.inst("s_endpgm", &[])?;
    k.finish()
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn a_built_kernel_runs_on_the_emulator() {
    for processor in ["gfx900", "gfx90a"] {
        let co = axpy_loop(processor).unwrap();
        let len = 256u32;
        let a: Vec<u32> = (0..len).map(|i| i * 7 + 1).collect();
        let b: Vec<u32> = (0..len).map(|i| 0xffff_fff0u32.wrapping_add(i)).collect();
        for n in [0u32, 1, 5] {
            let disp = Dispatch {
                grid: [len, 1, 1],
                block: [64, 1, 1],
                dynamic_lds: 0,
                args: vec![
                    ArgValue::Buffer {
                        elem: Elem::U32,
                        data: words(&a),
                    },
                    ArgValue::Buffer {
                        elem: Elem::U32,
                        data: words(&b),
                    },
                    ArgValue::Buffer {
                        elem: Elem::U32,
                        data: vec![0; len as usize * 4],
                    },
                    ArgValue::Scalar(n.to_le_bytes().to_vec()),
                ],
            };
            let r = hsaco_emu::run(&co, "axpy_loop", &disp, &RunOptions::default())
                .unwrap_or_else(|e| panic!("{processor} n={n}: {e}"));
            let expected: Vec<u32> = (0..len as usize)
                .map(|i| a[i].wrapping_add(b[i].wrapping_mul(n)))
                .collect();
            assert_eq!(r.buffers[2].data, words(&expected), "{processor} n={n}");
        }
    }
}

#[test]
fn an_instruction_the_processor_lacks_is_refused_when_added() {
    let mut k = KernelBuilder::new("gfx900", "k").unwrap();
    // v_fmac_f32 is gfx906+; on gfx900 it does not exist
    let e = k.inst("v_fmac_f32_e32", &[v(0), v(1), v(2)]).unwrap_err();
    assert!(matches!(e, BuildError::Instruction { index: 0, .. }), "{e}");
    // the builder is unchanged: the next instruction is the first one
    k.inst("s_endpgm", &[]).unwrap();
    assert_eq!(k.code_size(), 4);
    let mut k = KernelBuilder::new("gfx906", "k").unwrap();
    k.inst("v_fmac_f32_e32", &[v(0), v(1), v(2)]).unwrap();
}

#[test]
fn unbound_labels_and_bad_fields_are_errors() {
    let mut k = KernelBuilder::new("gfx1100", "k").unwrap();
    let l = k.label();
    k.inst("s_branch", &[Operand::Label(l)]).unwrap();
    k.inst("s_endpgm", &[]).unwrap();
    assert!(matches!(k.finish(), Err(BuildError::Label(_))));
    k.bind(l).unwrap();
    assert!(matches!(k.bind(l), Err(BuildError::Label(_))));
    // accum_offset exists only on gfx90a and later gfx9 processors
    k.field("accum_offset", 4);
    match k.finish() {
        Err(BuildError::Assemble(m)) => assert!(m.contains("accum_offset"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_code_object_reads_back_with_its_descriptor_and_metadata() {
    let co = axpy_loop("gfx90a").unwrap();
    let obj = hsaco_elf::CodeObject::parse(&co).unwrap();
    let Some(hsaco_elf::MetadataNote::MsgPack { desc, .. }) = obj.metadata_note().unwrap() else {
        panic!("no MessagePack metadata note");
    };
    let md = hsaco_elf::metadata::CodeObjectMetadata::from_msgpack(desc).unwrap();
    let kernels = md.kernels.unwrap();
    assert_eq!(kernels[0].name.as_deref(), Some("axpy_loop"));
    assert_eq!(kernels[0].kernarg_segment_size, Some(28));
    assert_eq!(kernels[0].args.as_ref().map(Vec::len), Some(4));
    assert_eq!(kernels[0].wavefront_size, Some(64));
}
