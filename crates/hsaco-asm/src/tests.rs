//! Driver tests with a fake instruction encoder (the real one lives in hsaco-isa):
//! `s_nop N` is one word `0xbf80000N`, `s_branch X` is `0xbf82xxxx` with a branch
//! fixup, `s_lit X` is a word plus a 32-bit literal fixup.

use super::*;
use hsaco_elf::elf::Elf;
use hsaco_isa::asm::ExprValue;

struct Fake;

impl InstructionEncoder for Fake {
    fn encode(
        &mut self,
        text: &str,
        _pc: u64,
        syms: &mut dyn SymbolLookup,
        out: &mut Vec<u8>,
    ) -> Result<Encoded, AsmError> {
        let (m, arg) = text.split_once(' ').unwrap_or((text, ""));
        let arg_at = m.len() + 1;
        let err = |message: String| AsmError {
            span: arg_at..text.len(),
            message,
        };
        match m {
            "s_nop" => {
                let n: u32 = arg
                    .trim()
                    .parse()
                    .map_err(|_| err("expected a number".into()))?;
                out.extend_from_slice(&(0xbf80_0000u32 | n).to_le_bytes());
                Ok(Encoded {
                    size: 4,
                    fixup: None,
                    warning: None,
                })
            }
            "s_branch" | "s_lit" => {
                let v = syms.expr(arg).map_err(err)?;
                let branch = m == "s_branch";
                let word: u32 = if branch { 0xbf82_0000 } else { 0xbe80_00ff };
                out.extend_from_slice(&word.to_le_bytes());
                if !branch {
                    out.extend_from_slice(&[0; 4]);
                }
                let size = if branch { 4 } else { 8 };
                let fixup = match v {
                    ExprValue::Const(c) => {
                        if branch {
                            out[..2].copy_from_slice(&(c as i16).to_le_bytes());
                        } else {
                            let at = out.len() - 4;
                            out[at..].copy_from_slice(&(c as u32).to_le_bytes());
                        }
                        None
                    }
                    ExprValue::Symbolic {
                        symbol,
                        addend,
                        variant,
                    } => Some(Fixup {
                        offset: if branch { 0 } else { 4 },
                        kind: if branch {
                            FixupKind::Branch16
                        } else {
                            FixupKind::Literal32
                        },
                        symbol,
                        addend,
                        variant,
                    }),
                };
                Ok(Encoded {
                    size,
                    fixup,
                    warning: None,
                })
            }
            _ => Err(AsmError {
                span: 0..m.len(),
                message: "invalid instruction".to_string(),
            }),
        }
    }
}

fn asm(cpu: &str, src: &str) -> Result<Assembled, Diagnostics> {
    let opts = Options::for_processor(cpu).unwrap();
    assemble("t.s", src, &opts, &mut Fake, &mut NoIncludes)
}

fn section(obj: &[u8], name: &str) -> Vec<u8> {
    let elf = Elf::parse(obj).unwrap();
    elf.section_by_name(name).unwrap().data().unwrap().to_vec()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

// branch offsets: AMDGPUUsage / ISA docs, SOPP SIMM16 = (target - (pc + 4)) / 4
#[test]
fn branches_backward_forward_and_numeric() {
    let src = "
top:
  s_nop 0
  s_branch top          ; (0 - 8)/4 = -2
  s_branch .Lfwd        ; (16 - 12)/4 = 1
  s_nop 1
.Lfwd:
1: s_branch 1b          // (16 - 20)/4 = -1
  s_branch 1f           /* (24 - 24)/4 = 0 */
1:
";
    let out = asm("gfx900", src).unwrap();
    let w = words(&section(&out.object, ".text"));
    assert_eq!(
        w,
        vec![
            0xbf80_0000,
            0xbf82_fffe,
            0xbf82_0001,
            0xbf80_0001,
            0xbf82_ffff,
            0xbf82_0000
        ]
    );
}

#[test]
fn macros_repeat_and_conditionals() {
    let src = "
.macro nops n, first=3
  s_nop \\first
  .rept \\n
  s_nop 7
  .endr
.endm
  nops 2
  nops 1, 5
.irp x, 1, 2
  s_nop \\x
.endr
.irpc c, 45
  s_nop \\c
.endr
.set on, 1
.if on == 1
  s_nop 9
.elseif 1
  s_nop 10
.else
  s_nop 11
.endif
.ifdef nothere
  s_nop 12
.endif
";
    let out = asm("gfx1100", src).unwrap();
    let w: Vec<u32> = words(&section(&out.object, ".text"))
        .iter()
        .map(|w| w & 0xffff)
        .collect();
    assert_eq!(w, vec![3, 7, 7, 5, 7, 1, 2, 4, 5, 9]);
}

#[test]
fn literal_fixups_become_relocations() {
    let src = "
  s_lit ext@rel32@lo+4
  s_lit 2+3*4
";
    let out = asm("gfx90a", src).unwrap();
    let elf = Elf::parse(&out.object).unwrap();
    let text = section(&out.object, ".text");
    assert_eq!(&text[12..16], &14u32.to_le_bytes());
    let mut relocs = Vec::new();
    for t in elf.relocation_tables() {
        for r in t.unwrap().iter() {
            relocs.push((r.offset, r.r_type.0, r.addend));
        }
    }
    assert_eq!(relocs, vec![(4, R_AMDGPU_REL32_LO_, 4)]);
    let st = elf.symtab().unwrap().unwrap();
    let ext = st.by_name("ext").unwrap();
    assert_eq!((ext.shndx, ext.info >> 4), (0, 1)); // undefined, global
}

const R_AMDGPU_REL32_LO_: u32 = 10;

#[test]
fn every_error_is_reported_with_location_and_caret() {
    let src = "  s_nop 0\n  bogus v0\n.long 1 +\n  s_nop x\n";
    let err = asm("gfx900", src).unwrap_err();
    let text = err.to_string();
    assert_eq!(err.0.len(), 3, "{text}");
    assert_eq!(
        text,
        "t.s:2:3: error: invalid instruction\n  bogus v0\n  ^~~~~\n\
         t.s:3:10: error: unknown token in expression\n.long 1 +\n         ^\n\
         t.s:4:9: error: expected a number\n  s_nop x\n        ^\n"
    );
}

#[test]
fn error_limit() {
    let src = "bogus\n".repeat(50);
    let mut opts = Options::for_processor("gfx900").unwrap();
    opts.max_errors = 20;
    let err = assemble("t.s", &src, &opts, &mut Fake, &mut NoIncludes).unwrap_err();
    assert_eq!(err.0.len(), 20);
}

#[test]
fn kernel_descriptor_fields_evaluated_at_the_end() {
    // next_free_vgpr names a symbol set after the block, as clang writes
    let src = "
.text
.globl k
.p2align 8
.type k,@function
k:
  s_nop 0
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr k.num_vgpr
  .amdhsa_next_free_sgpr 0
.end_amdhsa_kernel
.set k.num_vgpr, 9
";
    let out = asm("gfx1100", src).unwrap();
    let kd = section(&out.object, ".rodata");
    // llvm-mc-22 on the same fields with the value written in: 9 VGPRs in wave32
    // (granule 8) are 2 blocks (field 1); the rest are the defaults
    assert_eq!(
        u32::from_le_bytes(kd[48..52].try_into().unwrap()),
        0xe0ac_0001
    );
    let elf = Elf::parse(&out.object).unwrap();
    let st = elf.symtab().unwrap().unwrap();
    let kds = st.by_name("k.kd").unwrap();
    assert_eq!((kds.size, kds.info), (64, 0x11)); // OBJECT, GLOBAL like k
}

#[test]
fn kernel_descriptor_errors_point_at_the_field() {
    let src = ".amdhsa_kernel k\n  .amdhsa_accum_offset 4\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n";
    let err = asm("gfx1100", src).unwrap_err().to_string();
    assert!(
        err.starts_with("t.s:2:3: error: directive requires gfx90a+\n"),
        "{err}"
    );
}

#[test]
fn redefinition_and_unknown_directive() {
    let err = asm("gfx900", "a:\na:\n.bogus 1\n").unwrap_err();
    let msgs: Vec<&str> = err.0.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        vec!["symbol 'a' is already defined", "unknown directive"]
    );
}

// expected: llvm-mc-22 -triple=amdgcn-mesa-mesa3d -mcpu=gfx803 -filetype=obj on the
// same block (LLVM 22 no longer writes code object v2 for amdhsa; mesa still takes
// `.amd_kernel_code_t`), first 256 bytes of .text
const AMD_KERNEL_CODE_GFX803: &str = "0100000002000000010008000000030000010000000000000000000000000000000000000000000000000000000000000100000004000000080000000000000000000000000000001800000000000000000000000a00060000000000000000000000000004040406ffffffff";

#[test]
fn code_object_v2_directives() {
    let src = "
	.hsa_code_object_version 2,1
	.hsa_code_object_isa 8,0,3,\"AMD\",\"AMDGPU\"
	.text
	.amdgpu_hsa_kernel k
	.globl k
k:
	.amd_kernel_code_t
		enable_sgpr_kernarg_segment_ptr = 1
		kernarg_segment_byte_size = 24
		wavefront_sgpr_count = 10
		workitem_vgpr_count = 6
		granulated_workitem_vgpr_count = 1
		user_sgpr_count = 2
	.end_amd_kernel_code_t
	s_nop 0
";
    let out = asm("gfx803", src).unwrap();
    let text = section(&out.object, ".text");
    let mut want = vec![0u8; 256];
    for (i, b) in want
        .iter_mut()
        .enumerate()
        .take(AMD_KERNEL_CODE_GFX803.len() / 2)
    {
        *b = u8::from_str_radix(&AMD_KERNEL_CODE_GFX803[2 * i..2 * i + 2], 16).unwrap();
    }
    assert_eq!(&text[..256], &want[..]);
    assert_eq!(&text[256..], &0xbf80_0000u32.to_le_bytes());
    let elf = Elf::parse(&out.object).unwrap();
    assert_eq!(elf.abi_version(), 0); // code object v2
    let notes: Vec<(u32, Vec<u8>)> = elf
        .notes()
        .map(|n| {
            let n = n.unwrap();
            (n.n_type, n.desc.to_vec())
        })
        .collect();
    // AMDGPUUsage "Code Object V2 Note Records": version 2.1, ISA 8.0.3 AMD/AMDGPU
    assert_eq!(notes[0], (1, vec![2, 0, 0, 0, 1, 0, 0, 0]));
    assert_eq!(notes[1].0, 3);
    assert_eq!(
        &notes[1].1[..16],
        &[4, 0, 7, 0, 8, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0]
    );
    let st = elf.symtab().unwrap().unwrap();
    assert_eq!(st.by_name("k").unwrap().info & 0xf, 10); // STT_AMDGPU_HSA_KERNEL
}

fn asm_reader(cpu: &str, src: &[u8]) -> Result<Assembled, Diagnostics> {
    let opts = Options::for_processor(cpu).unwrap();
    let mut r = std::io::BufReader::with_capacity(16, src);
    assemble_reader("t.s", &mut r, &opts, &mut Fake, &mut NoIncludes)
}

#[test]
fn a_reader_gives_what_the_text_gives() {
    let src = "
.text
top: s_nop 1
  s_branch .Lend
  .rept 3
  s_nop 2
  .endr
.if 1
  s_lit ext@rel32@lo+4
.endif
.Lend: s_branch top
.data
  .long top, 7
";
    let a = asm("gfx900", src).unwrap();
    let b = asm_reader("gfx900", src.as_bytes()).unwrap();
    assert_eq!(a.object, b.object);
}

// diagnostics made at the end (fixups, descriptor fields) still show the statement's
// line and source text, though the run keeps no text of other statements
#[test]
fn late_diagnostics_keep_their_line() {
    let fixup = "  s_branch far\n  s_nop 0\n  .zero 300000\nfar:\n  s_nop 1\n";
    let kd = "  s_nop 0\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr undefined_sym\n  .amdhsa_next_free_sgpr 0\n.end_amdhsa_kernel\n  s_nop 3\n";
    for err in [
        asm("gfx900", fixup).unwrap_err(),
        asm_reader("gfx900", fixup.as_bytes()).unwrap_err(),
    ] {
        assert_eq!(
            err.to_string(),
            "t.s:1:3: error: branch target out of range\n  s_branch far\n  ^~~~~~~~~~~~\n"
        );
    }
    for err in [
        asm("gfx900", kd).unwrap_err(),
        asm_reader("gfx900", kd.as_bytes()).unwrap_err(),
    ] {
        // (the location, the line and the caret under the value; not the wording)
        let text = err.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("t.s:3:26: error: "), "{text}");
        assert_eq!(lines[1], "  .amdhsa_next_free_vgpr undefined_sym");
        assert_eq!(lines[2], "                         ^~~~~~~~~~~~~");
    }
}

#[test]
fn invalid_utf8_is_an_error_at_its_line() {
    let err = asm_reader("gfx900", b"  s_nop 0\n.ascii \"\xff\"\n  s_nop 1\n").unwrap_err();
    assert_eq!(err.0.len(), 1, "{err}");
    assert_eq!(
        (err.0[0].line, err.0[0].message.as_str()),
        (2, "invalid UTF-8 in this line")
    );
}
