//! The location evaluator on `gimli::write` fixtures: one variable per expression in
//! a subprogram at [0x100, 0x200) whose frame base is `DW_OP_regx SGPR33`, every
//! `DW_OP_LLVM_*` operation with a code. Expected locations are written by hand from
//! the operations' definitions (the extensions text of seed 003 and AMDGPUUsage's
//! register and address space tables), not from the evaluator's output.

use gimli::write::{
    Address, AttributeValue, DwarfUnit, Expression, Location as WLoc, LocationList,
};
use hsaco_dwarf::locate::{
    self, Availability, BinOp, Implicit, Location, Machine, Options, Piece, Symbolic, Value,
    Variable, Xderef,
};
use hsaco_dwarf::DwarfObject;

/// DWARF register numbers (AMDGPUUsage's mapping table).
const SGPR33: u64 = 32 + 33;
const SGPR34: u64 = 32 + 34;
const EXEC_64: u64 = 17;
const VGPR0: u64 = 2560;
const VGPR5: u64 = 2565;
/// Address spaces (AMDGPUUsage's address space table).
const LOCAL: u64 = 3;
const PRIVATE_LANE: u64 = 5;
const PRIVATE_WAVE: u64 = 6;

enum Loc<'a> {
    Expr(&'a [u8]),
    /// (begin, end, expression) entries
    List(&'a [(u64, u64, &'a [u8])]),
}

/// A DWARF 5 unit (32-bit format, 8-byte addresses) whose root has low_pc 0, and its
/// root.
fn new_unit() -> (DwarfUnit, gimli::write::UnitEntryId) {
    let mut dwarf = DwarfUnit::new(crate::llvm_ext::DWARF5);
    let root = dwarf.unit.root();
    dwarf.unit.get_mut(root).set(
        gimli::DW_AT_low_pc,
        AttributeValue::Address(Address::Constant(0)),
    );
    (dwarf, root)
}

/// The subprogram `kernel` at [0x100, 0x200) with frame base `DW_OP_regx SGPR33`,
/// under `root`.
fn add_kernel(dwarf: &mut DwarfUnit, root: gimli::write::UnitEntryId) -> gimli::write::UnitEntryId {
    let sub = dwarf.unit.add(root, gimli::DW_TAG_subprogram);
    let s = dwarf.unit.get_mut(sub);
    s.set(
        gimli::DW_AT_name,
        AttributeValue::String(b"kernel".to_vec()),
    );
    s.set(
        gimli::DW_AT_low_pc,
        AttributeValue::Address(Address::Constant(0x100)),
    );
    s.set(gimli::DW_AT_high_pc, AttributeValue::Udata(0x100));
    s.set(
        gimli::DW_AT_frame_base,
        AttributeValue::Exprloc(Expression::raw(vec![0x90, SGPR33 as u8])),
    );
    sub
}

/// A unit: a subprogram at [0x100, 0x200) with frame base `DW_OP_regx SGPR33`, and a
/// variable `v<i>` per location.
fn fixture(locs: &[Loc]) -> DwarfObject<'static> {
    let (mut dwarf, root) = new_unit();
    let sub = add_kernel(&mut dwarf, root);
    for (i, l) in locs.iter().enumerate() {
        let value = match l {
            Loc::Expr(b) => AttributeValue::Exprloc(Expression::raw(b.to_vec())),
            Loc::List(entries) => {
                let list = LocationList(
                    entries
                        .iter()
                        .map(|(b, e, x)| WLoc::StartEnd {
                            begin: Address::Constant(*b),
                            end: Address::Constant(*e),
                            data: Expression::raw(x.to_vec()),
                        })
                        .collect(),
                );
                AttributeValue::LocationListRef(dwarf.unit.locations.add(list))
            }
        };
        let v = dwarf.unit.add(sub, gimli::DW_TAG_variable);
        let v = dwarf.unit.get_mut(v);
        v.set(
            gimli::DW_AT_name,
            AttributeValue::String(format!("v{i}").into_bytes()),
        );
        v.set(gimli::DW_AT_location, value);
    }
    crate::llvm_ext::written(&mut dwarf)
}

fn one(
    bytes: &[u8],
    pc: u64,
    options: Options,
    m: &mut dyn Machine,
) -> Result<(Location, bool), String> {
    let obj = fixture(&[Loc::Expr(bytes)]);
    let (vars, errors) = locate::find(&obj, "v0", pc, None, options, m);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(vars.len(), 1);
    match &vars[0].availability {
        Availability::Located { located, .. } => {
            Ok((located.location.clone(), located.lane_selected))
        }
        Availability::Error(e) => Err(e.message.clone()),
        other => panic!("{other:?}"),
    }
}

fn loc(bytes: &[u8]) -> Location {
    one(bytes, 0x180, Options::default(), &mut Symbolic)
        .unwrap()
        .0
}

fn reg(r: u64) -> Value {
    Value::Register { reg: r, lane: None }
}

fn mem(space: u64, address: Value) -> Location {
    Location::Memory {
        space,
        address,
        bit_offset: 0,
    }
}

fn register(r: u64, bits: u64) -> Location {
    Location::Register {
        reg: r,
        bit_offset: Value::Const(bits),
    }
}

fn add(a: Value, k: u64) -> Value {
    Value::Binary(BinOp::Add, Box::new(a), Box::new(Value::Const(k)))
}

/// A wave whose VGPR5 lane 2 holds 0x40, EXEC on entry is 0b0101.
struct Wave;
impl Machine for Wave {
    fn register(&mut self, reg: u64, lane: Option<u32>) -> Option<u64> {
        match (reg, lane) {
            (VGPR5, Some(2)) => Some(0x40),
            (SGPR33, None) => Some(0x200),
            _ => None,
        }
    }
    fn entry_register(&mut self, reg: u64) -> Option<u64> {
        (reg == EXEC_64).then_some(0b0101)
    }
    fn memory(&mut self, space: u64, address: u64, size: u8, _lane: Option<u32>) -> Option<u64> {
        (space == PRIVATE_LANE && address == 0x210 && size == 8).then_some(0xdead_0000)
    }
}

#[test]
fn nop() {
    // DW_OP_LLVM_nop, DW_OP_regx SGPR33: the register
    assert_eq!(loc(&[0xe9, 1, 0x90, 0x41]), register(SGPR33, 0));
}

#[test]
fn form_aspace_address() {
    // DW_OP_constu 0x100, DW_OP_lit3, form_aspace_address: local address 0x100
    assert_eq!(
        loc(&[0x10, 0x80, 0x02, 0x33, 0xe9, 2]),
        mem(LOCAL, Value::Const(0x100))
    );
    // a local address is 32 bits: 0x1_0000_0010 becomes 0x10
    assert_eq!(
        loc(&[0x10, 0x90, 0x80, 0x80, 0x80, 0x10, 0x33, 0xe9, 2]),
        mem(LOCAL, Value::Const(0x10))
    );
    // address space 4 is reserved: ill-formed
    assert!(one(
        &[0x30, 0x34, 0xe9, 2],
        0x180,
        Options::default(),
        &mut Symbolic
    )
    .is_err());
}

#[test]
fn push_lane_and_offset() {
    // DW_OP_regx VGPR0, push_lane, DW_OP_lit4, DW_OP_mul, DW_OP_LLVM_offset: lane 5's
    // dword, bits 160.. of the register
    let e = [0x90, 0x80, 0x14, 0xe9, 3, 0x34, 0x1e, 0xe9, 4];
    let lane5 = Options {
        lane: Some(5),
        ..Options::default()
    };
    assert_eq!(
        one(&e, 0x180, lane5, &mut Symbolic).unwrap(),
        (register(VGPR0, 160), true)
    );
    // no lane given: the bit offset is (lane * 4) * 8
    let (l, selected) = one(&e, 0x180, Options::default(), &mut Symbolic).unwrap();
    assert!(selected);
    let bits = Value::Binary(
        BinOp::Mul,
        Box::new(Value::Binary(
            BinOp::Mul,
            Box::new(Value::Lane),
            Box::new(Value::Const(4)),
        )),
        Box::new(Value::Const(8)),
    );
    assert_eq!(
        l,
        Location::Register {
            reg: VGPR0,
            bit_offset: bits
        }
    );
}

#[test]
fn offset_uconst() {
    // DW_OP_addr 0x1000, offset_uconst 0x10: global 0x1010
    let mut e = vec![0x03];
    e.extend_from_slice(&0x1000u64.to_le_bytes());
    e.extend_from_slice(&[0xe9, 5, 0x10]);
    assert_eq!(loc(&e), mem(0, Value::Const(0x1010)));
    // an undefined location stays undefined
    assert_eq!(loc(&[0xe9, 8, 0xe9, 5, 0x10]), Location::Undefined);
}

#[test]
fn bit_offset() {
    // DW_OP_regx VGPR5, DW_OP_lit12, bit_offset: bit 12 of VGPR5
    assert_eq!(loc(&[0x90, 0x85, 0x14, 0x3c, 0xe9, 6]), register(VGPR5, 12));
    // in memory: 20 bits past byte 0x10 is byte 0x12 bit 4
    assert_eq!(
        loc(&[0x40, 0x30, 0xe9, 2, 0x44, 0xe9, 6]),
        Location::Memory {
            space: 0,
            address: Value::Const(0x12),
            bit_offset: 4
        }
    );
}

#[test]
fn call_frame_entry_reg() {
    // EXEC on entry: a location holding the entry value
    let e = [0xe9, 7, 0x11];
    assert_eq!(
        loc(&e),
        Location::Implicit {
            value: Implicit::Value(Value::EntryRegister(EXEC_64)),
            bit_offset: 0
        }
    );
    let (l, _) = one(&e, 0x180, Options::default(), &mut Wave).unwrap();
    assert_eq!(
        l,
        Location::Implicit {
            value: Implicit::Value(Value::Const(0b0101)),
            bit_offset: 0
        }
    );
}

#[test]
fn undefined() {
    assert_eq!(loc(&[0xe9, 8]), Location::Undefined);
    // an empty expression too
    assert_eq!(loc(&[]), Location::Undefined);
}

#[test]
fn aspace_bregx() {
    // DW_OP_lit5, aspace_bregx VGPR5 8: private_lane at VGPR5 + 8
    let e = [0x35, 0xe9, 9, 0x85, 0x14, 0x08];
    assert_eq!(loc(&e), mem(PRIVATE_LANE, add(reg(VGPR5), 8)));
    // the lane names the element; the wave knows it
    let lane2 = Options {
        lane: Some(2),
        ..Options::default()
    };
    let l = one(&e, 0x180, lane2, &mut Symbolic).unwrap().0;
    assert_eq!(
        l,
        mem(
            PRIVATE_LANE,
            add(
                Value::Register {
                    reg: VGPR5,
                    lane: Some(2)
                },
                8
            )
        )
    );
    let l = one(&e, 0x180, lane2, &mut Wave).unwrap().0;
    assert_eq!(l, mem(PRIVATE_LANE, Value::Const(0x48)));
}

#[test]
fn piece_end() {
    // SGPR33 piece 4, piece_end, SGPR34 piece 4: the completed composite is popped
    // as the part of a new one
    let two = [0x90, 0x41, 0x93, 4, 0xe9, 10, 0x90, 0x42, 0x93, 4];
    let inner = Location::Composite {
        pieces: vec![Piece {
            bits: 32,
            location: register(SGPR33, 0),
        }],
        bit_offset: 0,
    };
    assert_eq!(
        loc(&[0x90, 0x41, 0x93, 4, 0xe9, 10]),
        inner.clone(),
        "one piece, completed"
    );
    assert_eq!(
        loc(&two),
        Location::Composite {
            pieces: vec![Piece {
                bits: 32,
                location: register(SGPR34, 0)
            }],
            bit_offset: 0
        }
    );
    // piece_end on anything else is ill-formed
    assert!(one(
        &[0x90, 0x41, 0xe9, 10],
        0x180,
        Options::default(),
        &mut Symbolic
    )
    .is_err());
}

#[test]
fn extend() {
    // undefined, extend 64 2: two undefined 64-bit parts (the lane PC idiom)
    let part = Piece {
        bits: 64,
        location: Location::Undefined,
    };
    assert_eq!(
        loc(&[0xe9, 8, 0xe9, 11, 0x40, 0x02]),
        Location::Composite {
            pieces: vec![part.clone(), part],
            bit_offset: 0
        }
    );
    // a count of 0 is ill-formed
    assert!(one(
        &[0xe9, 8, 0xe9, 11, 0x40, 0],
        0x180,
        Options::default(),
        &mut Symbolic
    )
    .is_err());
}

#[test]
fn select_bit_piece() {
    // L0 = VGPR0, L1 = private_wave 0x100, mask 0b0101, select 32 4: parts 0 and 2
    // from L1, 1 and 3 from L0, each moved by N x 32 bits
    let e = [
        0x90, 0x80, 0x14, 0x10, 0x80, 0x02, 0x36, 0xe9, 2, 0x35, 0xe9, 12, 0x20, 0x04,
    ];
    let p = |location| Piece { bits: 32, location };
    assert_eq!(
        loc(&e),
        Location::Composite {
            pieces: vec![
                p(mem(PRIVATE_WAVE, Value::Const(0x100))),
                p(register(VGPR0, 32)),
                p(mem(PRIVATE_WAVE, Value::Const(0x108))),
                p(register(VGPR0, 96)),
            ],
            bit_offset: 0
        }
    );
    // the spec's CFI idiom: the mask is EXEC on entry (call_frame_entry_reg EXEC,
    // deref_size 8): symbolic without a wave, resolved with one
    let e = [
        0x90, 0x80, 0x14, 0x10, 0x80, 0x02, 0x36, 0xe9, 2, 0xe9, 7, 0x11, 0x94, 8, 0xe9, 12, 0x20,
        0x02,
    ];
    assert_eq!(
        loc(&e),
        Location::Select {
            mask: Value::EntryRegister(EXEC_64),
            zero: Box::new(register(VGPR0, 0)),
            one: Box::new(mem(PRIVATE_WAVE, Value::Const(0x100))),
            bits: 32,
            count: 2
        }
    );
    let (l, _) = one(&e, 0x180, Options::default(), &mut Wave).unwrap();
    assert_eq!(
        l,
        Location::Composite {
            pieces: vec![
                p(mem(PRIVATE_WAVE, Value::Const(0x100))),
                p(register(VGPR0, 32)),
            ],
            bit_offset: 0
        }
    );
    // more parts than mask bits (a 64-bit mask) is ill-formed
    assert!(one(
        &[0xe9, 8, 0xe9, 8, 0x30, 0xe9, 12, 0x20, 65],
        0x180,
        Options::default(),
        &mut Symbolic
    )
    .is_err());
}

#[test]
fn aspace_implicit_pointer_has_no_code() {
    // no sub-opcode decodes to it: sub-opcode 13 is an error naming the byte
    assert_eq!(
        locate::evaluate(
            &[0x30, 0xe9, 13],
            &locate::Context {
                encoding: crate::llvm_ext::DWARF5,
                frame_base: None,
                address_index: None,
                call: None,
                options: Options::default(),
            },
            &mut Symbolic
        )
        .unwrap_err(),
        hsaco_dwarf::Error {
            section: "expression",
            offset: 1,
            message: "DW_OP_LLVM_user sub-opcode 13 unknown".into()
        }
    );
}

#[test]
fn clang_xderef_idiom() {
    // -O0: DW_OP_fbreg +16, DW_OP_lit5, DW_OP_swap, DW_OP_xderef with frame base
    // SGPR33: private_lane at SGPR33 + 16 (clang's reading) ...
    let e = [0x91, 0x10, 0x35, 0x16, 0x18];
    assert_eq!(loc(&e), mem(PRIVATE_LANE, add(reg(SGPR33), 16)));
    // ... or, read as the extensions define xderef, the global address loaded there
    let load = Options {
        xderef: Xderef::Load,
        ..Options::default()
    };
    let l = one(&e, 0x180, load, &mut Symbolic).unwrap().0;
    assert_eq!(
        l,
        mem(
            0,
            Value::Load {
                space: PRIVATE_LANE,
                address: Box::new(add(reg(SGPR33), 16)),
                size: 8
            }
        )
    );
    // with a wave: SGPR33 = 0x200, private_lane 0x210 holds 0xdead0000
    assert_eq!(
        one(&e, 0x180, load, &mut Wave).unwrap().0,
        mem(0, Value::Const(0xdead_0000))
    );
    // -O2 stack value: DW_OP_consts -1, lit5, swap, xderef, stack_value: the value
    // -1 as a 32-bit private_lane address, 0xffffffff (clang's reading: the int's
    // bits), or the value loaded from there (as defined)
    let e = [0x11, 0x7f, 0x35, 0x16, 0x18, 0x9f];
    let value = |v| Location::Implicit {
        value: Implicit::Value(v),
        bit_offset: 0,
    };
    assert_eq!(loc(&e), value(Value::Const(0xffff_ffff)));
    assert_eq!(
        one(&e, 0x180, load, &mut Symbolic).unwrap().0,
        value(Value::Load {
            space: PRIVATE_LANE,
            address: Box::new(Value::Const(0xffff_ffff)),
            size: 8
        })
    );
}

#[test]
fn location_lists_and_scope() {
    let obj = fixture(&[Loc::List(&[
        (0x100, 0x140, &[0x90, 0x41]),
        (0x160, 0x200, &[0x90, 0x42]),
    ])]);
    let at = |pc| -> Variable {
        let (v, e) = locate::find(&obj, "v0", pc, None, Options::default(), &mut Symbolic);
        assert!(e.is_empty());
        v.into_iter().next().unwrap()
    };
    match at(0x13c).availability {
        Availability::Located { located, range, .. } => {
            assert_eq!(located.location, register(SGPR33, 0));
            assert_eq!(range, Some((0x100, 0x140)));
        }
        other => panic!("{other:?}"),
    }
    match at(0x140).availability {
        Availability::NotAvailable(r) => assert_eq!(r, vec![(0x100, 0x140), (0x160, 0x200)]),
        other => panic!("{other:?}"),
    }
    match at(0x1ff).availability {
        Availability::Located { located, .. } => {
            assert_eq!(located.location, register(SGPR34, 0))
        }
        other => panic!("{other:?}"),
    }
    let out = at(0x200);
    assert!(!out.in_scope);
    assert_eq!(out.scope, vec![(0x100, 0x200)]);
    assert_eq!(out.function, vec!["kernel".to_string()]);
    // --function filters
    let (v, _) = locate::find(
        &obj,
        "v0",
        0x100,
        Some("other"),
        Options::default(),
        &mut Symbolic,
    );
    assert!(v.is_empty());
}

#[test]
fn register_text() {
    // AMDGPUUsage's names: wave32 numbering gets _W32
    assert_eq!(locate::register_name(1536 + 2), "VGPR2_W32");
    assert_eq!(locate::register_name(SGPR33), "SGPR33");
    assert_eq!(register(VGPR0, 160).to_string(), "VGPR0 lane 5");
    assert_eq!(
        mem(PRIVATE_LANE, add(reg(SGPR33), 16)).to_string(),
        "private_lane address SGPR33 + 16"
    );
}

/// The committed clang-22 objects (tests/data/gen.sh) against their
/// llvm-dwarfdump-22 text: every variable's location at every 4-byte PC of its ranges
/// (tests/it/llvm_locations.rs; `cargo xtask locate-diff` runs the same checks over
/// the whole -g corpus).
#[test]
fn committed_objects_against_llvm_dwarfdump() {
    let dir = crate::golden::data_dir();
    let mut c = crate::llvm_locations::Counts::default();
    for name in [
        "vadd-gfx90a-O0.o",
        "vadd-gfx90a-O0.co",
        "calls-gfx1100-O2.o",
        "calls-gfx1100-O2.co",
        "control-gfx803-O2.o",
        "control-gfx803-O2.co",
        "vectors-gfx1201-O2.o",
        "vectors-gfx1201-O2.co",
        "scratch-gfx1010-O2.o",
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let text = std::fs::read_to_string(dir.join(format!("{name}.dwarfdump"))).unwrap();
        let obj = DwarfObject::from_elf(&bytes).unwrap();
        crate::llvm_locations::check_object(name, &text, &obj, true, &mut c);
    }
    assert!(c.first.is_empty(), "{:#?}", c.first);
    assert_eq!(c.objects, 9);
    // counted on these objects' text (llvm-dwarfdump-22), so that a parser that
    // finds nothing cannot pass
    assert!(c.variables >= 100, "{}", c.variables);
    assert!(c.pcs >= 40_000 && c.agree == c.pcs, "{}/{}", c.agree, c.pcs);
    assert!(
        c.gaps >= 50 && c.gaps_agree == c.gaps,
        "{}/{}",
        c.gaps_agree,
        c.gaps
    );
}

#[test]
fn clang_promoted_register_idiom() {
    // DW_OP_bregx VGPR4_W32 (1540) +0, DW_OP_lit5, DW_OP_swap, DW_OP_xderef
    assert_eq!(
        locate::clang_promoted_register(&[0x92, 0x84, 0x0c, 0x00, 0x35, 0x16, 0x18]),
        Some((1540, 5))
    );
    // DW_OP_breg1 +0 (EXEC_LO), lit3
    assert_eq!(
        locate::clang_promoted_register(&[0x71, 0x00, 0x33, 0x16, 0x18]),
        Some((1, 3))
    );
    // an offset, or a stack value after it: not the idiom
    assert_eq!(
        locate::clang_promoted_register(&[0x92, 0x84, 0x0c, 0x04, 0x35, 0x16, 0x18]),
        None
    );
    assert_eq!(
        locate::clang_promoted_register(&[0x92, 0x84, 0x0c, 0x00, 0x35, 0x16, 0x18, 0x9f]),
        None
    );
}

/// The DIEs `DW_OP_call*` fixtures call, by name.
const CALLEES: [&str; 5] = ["p_add3", "p_none", "p_loop", "p_list", "inner"];

/// A unit with `DW_TAG_dwarf_procedure`s at the top level (`p_add3`: `DW_OP_lit3,
/// DW_OP_plus`; `p_none`: no location; `p_loop`: `DW_OP_call2 p_loop`; `p_list`: a
/// location list, `DW_OP_lit1` in [0x100, 0x180), `DW_OP_lit2` in [0x180, 0x200)),
/// and a subprogram at [0x100, 0x200) (frame base `DW_OP_regx SGPR33`) holding
/// `inner` (`DW_OP_fbreg +16`) and a variable `v<i>` per expression, each made by
/// `make` from the callees' unit offsets (in `CALLEES` order).
fn call_fixture(make: &dyn Fn(&[u64]) -> Vec<Vec<u8>>) -> DwarfObject<'static> {
    let build = |offsets: &[u64]| {
        let (mut dwarf, root) = new_unit();
        let raw = |b: &[u8]| AttributeValue::Exprloc(Expression::raw(b.to_vec()));
        let p_loop = offsets[2] as u16;
        let list = LocationList(vec![
            WLoc::StartEnd {
                begin: Address::Constant(0x100),
                end: Address::Constant(0x180),
                data: Expression::raw(vec![0x31]),
            },
            WLoc::StartEnd {
                begin: Address::Constant(0x180),
                end: Address::Constant(0x200),
                data: Expression::raw(vec![0x32]),
            },
        ]);
        let list = AttributeValue::LocationListRef(dwarf.unit.locations.add(list));
        let procedures = [
            ("p_add3", Some(raw(&[0x33, 0x22]))),
            ("p_none", None),
            (
                "p_loop",
                Some(raw(&[0x98, p_loop as u8, (p_loop >> 8) as u8])),
            ),
            ("p_list", Some(list)),
        ];
        for (name, location) in procedures {
            let p = dwarf.unit.add(root, gimli::DW_TAG_dwarf_procedure);
            let p = dwarf.unit.get_mut(p);
            p.set(gimli::DW_AT_name, AttributeValue::String(name.into()));
            if let Some(l) = location {
                p.set(gimli::DW_AT_location, l);
            }
        }
        let sub = add_kernel(&mut dwarf, root);
        let mut vars = vec![("inner".to_string(), vec![0x91, 0x10])];
        for (i, e) in make(offsets).into_iter().enumerate() {
            vars.push((format!("v{i}"), e));
        }
        for (name, e) in vars {
            let v = dwarf.unit.add(sub, gimli::DW_TAG_variable);
            let v = dwarf.unit.get_mut(v);
            v.set(gimli::DW_AT_name, AttributeValue::String(name.into_bytes()));
            v.set(gimli::DW_AT_location, raw(&e));
        }
        crate::llvm_ext::written(&mut dwarf)
    };
    // the offsets do not depend on the operands' values (fixed sizes): written once
    // with zeros to find them, then again with them
    let first = build(&[0; CALLEES.len()]);
    let dwarf = first.gimli();
    let mut offsets = [0u64; CALLEES.len()];
    let unit = dwarf.units().next().unwrap().unwrap();
    let unit = dwarf.unit(unit).unwrap();
    let mut entries = unit.entries();
    while let Some((_, e)) = entries.next_dfs().unwrap() {
        if let Some(v) = e.attr_value(gimli::DW_AT_name).unwrap() {
            let name = dwarf.attr_string(&unit, v).unwrap();
            if let Some(i) = CALLEES.iter().position(|c| c.as_bytes() == name.slice()) {
                offsets[i] = e.offset().0 as u64;
            }
        }
    }
    assert!(offsets.iter().all(|&o| o != 0), "{offsets:?}");
    build(&offsets)
}

fn call2(offset: u64) -> [u8; 3] {
    [0x98, offset as u8, (offset >> 8) as u8]
}

fn call4(offset: u64) -> [u8; 5] {
    let b = (offset as u32).to_le_bytes();
    [0x99, b[0], b[1], b[2], b[3]]
}

fn call_ref(offset: u64) -> [u8; 5] {
    let b = (offset as u32).to_le_bytes();
    [0x9a, b[0], b[1], b[2], b[3]]
}

/// Each variable `v<i>` of `obj` at `pc`: its location, or its error message.
fn each(obj: &DwarfObject, n: usize, pc: u64) -> Vec<Result<Location, String>> {
    (0..n)
        .map(|i| {
            let (vars, errors) = locate::find(
                obj,
                &format!("v{i}"),
                pc,
                None,
                Options::default(),
                &mut Symbolic,
            );
            assert!(errors.is_empty(), "{errors:?}");
            match &vars[0].availability {
                Availability::Located { located, .. } => Ok(located.location.clone()),
                Availability::Error(e) => Err(e.message.clone()),
                other => panic!("{other:?}"),
            }
        })
        .collect()
}

fn value(v: u64) -> Location {
    Location::Implicit {
        value: Implicit::Value(Value::Const(v)),
        bit_offset: 0,
    }
}

/// DWARF 5 section 2.5.1.5: `DW_OP_call2`/`call4` name a DIE of the current unit by
/// its unit offset (2 or 4 bytes), `DW_OP_call_ref` by its `.debug_info` offset
/// (offset size: 4 bytes in 32-bit DWARF); the DIE's `DW_AT_location` expression runs
/// on the same stack (values on it are its arguments, values it leaves its
/// results), and without one the call has no effect. Expected values worked out by
/// hand from that text.
#[test]
fn calls_run_the_called_location_on_the_same_stack() {
    let make = |o: &[u64]| {
        let [add3, none, looping, list, inner] = [o[0], o[1], o[2], o[3], o[4]];
        vec![
            // 4, call p_add3 (lit3, plus): 7, as a value
            [&[0x34][..], &call2(add3), &[0x9f]].concat(),
            [&[0x34][..], &call4(add3), &[0x9f]].concat(),
            // (one unit at .debug_info offset 0: the unit offset is the section offset)
            [&[0x34][..], &call_ref(add3), &[0x9f]].concat(),
            // no DW_AT_location: no effect, 4 stays
            [&[0x34][..], &call2(none), &[0x9f]].concat(),
            // a variable's location (fbreg +16 in the caller's frame): memory at
            // SGPR33 + 16
            call2(inner).to_vec(),
            // a location list: the entry for the PC
            [&call4(list)[..], &[0x9f]].concat(),
            // calls twice, arguments and results through the stack: (1 + 3) + 3 = 7,
            // times 2
            [&[0x31][..], &call2(add3), &call2(add3), &[0x32, 0x1e, 0x9f]].concat(),
            // a DIE calling itself, at byte 1 of v7
            [&[0x30][..], &call2(looping)].concat(),
            // no DIE at the offset
            call2(0xfff0).to_vec(),
            // a .debug_info offset outside the unit
            call_ref(0x7fff_fff0).to_vec(),
        ]
    };
    let obj = call_fixture(&make);
    let got = each(&obj, 10, 0x180);
    assert_eq!(got[0], Ok(value(7)));
    assert_eq!(got[1], Ok(value(7)));
    assert_eq!(got[2], Ok(value(7)));
    assert_eq!(got[3], Ok(value(4)));
    assert_eq!(got[4], Ok(mem(0, add(reg(SGPR33), 16))));
    assert_eq!(got[5], Ok(value(2)));
    assert_eq!(got[6], Ok(value(14)));
    let e = got[7].as_ref().unwrap_err();
    assert!(
        e.starts_with("DW_AT_location: DW_OP_call2 unit offset 0x")
            && e.contains(": calls nested more than 64 deep (a loop?)")
            && e.ends_with("(at byte 1 of the expression)"),
        "{e}"
    );
    let e = got[8].as_ref().unwrap_err();
    assert!(
        e.starts_with("DW_AT_location: DW_OP_call2 unit offset 0xfff0: no DIE there"),
        "{e}"
    );
    assert_eq!(
        got[9],
        Err(
            "DW_AT_location: DW_OP_call_ref .debug_info offset 0x7ffffff0: a DIE of another \
             unit is not followed (at byte 0 of the expression)"
                .to_string()
        )
    );
    // the other entry of the list
    assert_eq!(each(&obj, 6, 0x100)[5], Ok(value(1)));
}

/// Operations with nothing to evaluate them with are errors naming the operation
/// and its byte, never a panic or a made-up location.
#[test]
fn operations_not_evaluated_are_named_errors() {
    let cx = locate::Context {
        encoding: crate::llvm_ext::DWARF5,
        frame_base: None,
        address_index: None,
        call: None,
        options: Options::default(),
    };
    let cases: &[(&[u8], u64, &str)] = &[
        (&[0x97], 0, "DW_OP_push_object_address not evaluated"),
        (&[0x30, 0x9b], 1, "DW_OP_form_tls_address not evaluated"),
        (&[0x30, 0xe0], 1, "DW_OP_GNU_push_tls_address not evaluated"),
        (
            &[0x30, 0xfa, 1, 0, 0, 0],
            1,
            "DW_OP_GNU_parameter_ref not evaluated",
        ),
        // entry values of anything but a register
        (
            &[0xa3, 2, 0x30, 0x9f],
            0,
            "DW_OP_entry_value of an expression not evaluated (only of a register)",
        ),
        (
            &[0x31, 0xf3, 3, 0x90, 0x41, 0x06],
            1,
            "DW_OP_GNU_entry_value of an expression not evaluated (only of a register)",
        ),
        // calls without a unit to look the DIE up in
        (
            &[0x98, 0x10, 0],
            0,
            "DW_OP_call2 unit offset 0x10 not evaluated (no unit to find it in)",
        ),
        (
            &[0x31, 0x99, 0x20, 0, 0, 0],
            1,
            "DW_OP_call4 unit offset 0x20 not evaluated (no unit to find it in)",
        ),
        (
            &[0x9a, 0x30, 0, 0, 0],
            0,
            "DW_OP_call_ref .debug_info offset 0x30 not evaluated (no unit to find it in)",
        ),
    ];
    // an operand cut short names the operation too, an unknown code its number
    for (bytes, at, start) in [
        (&[0x30, 0x98, 0x10][..], 1, "DW_OP_call2: "),
        (&[0x30, 0x31, 0x01][..], 2, "DW_OP_0x01: "),
    ] {
        let e = locate::evaluate(bytes, &cx, &mut Symbolic).unwrap_err();
        assert_eq!(e.offset, at);
        assert!(e.message.starts_with(start), "{e}");
    }
    for &(bytes, offset, message) in cases {
        assert_eq!(
            locate::evaluate(bytes, &cx, &mut Symbolic).unwrap_err(),
            hsaco_dwarf::Error {
                section: "expression",
                offset,
                message: message.into()
            },
            "{bytes:02x?}"
        );
    }
    // DW_OP_GNU_entry_value of a register is evaluated as DW_OP_entry_value
    let l = locate::evaluate(&[0xf3, 2, 0x90, 0x41, 0x9f], &cx, &mut Symbolic).unwrap();
    assert_eq!(
        l.location,
        Location::Implicit {
            value: Implicit::Value(Value::EntryRegister(0x41)),
            bit_offset: 0
        }
    );
}
