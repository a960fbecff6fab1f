//! `vars` (the variables and columns of `dis --debug-vars`) and `lines::prefixed`
//! (`--prefix`), against llvm-dwarfdump-22's text and llvm-objdump-22's output
//! (the expected values are theirs, not ours).

use hsaco_dwarf::lines::prefixed;
use hsaco_dwarf::vars::{live_variables, Columns, LiveVariable, Style};
use hsaco_dwarf::DwarfObject;

#[test]
fn variables_of_an_o0_object_hold_over_their_function() {
    let data = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vadd-gfx90a-O0.o"
    ))
    .unwrap();
    let obj = DwarfObject::from_elf(&data).unwrap();
    let (vars, errors) = live_variables(&obj);
    assert!(errors.is_empty(), "{errors:?}");
    // vadd-gfx90a-O0.o.dwarfdump: the first subprogram (0x0 to 0x344) with a, b, c, n
    // (formal parameters) and i, at DW_OP_fbreg +0, +8, +16, +24, +28 then
    // DW_OP_lit5, DW_OP_swap, DW_OP_xderef; the second (0x400 to 0x5e8) the same
    let first: Vec<(&str, u64, u64, &[u8])> = vars
        .iter()
        .take(5)
        .map(|v| (v.name.as_str(), v.low, v.high, v.expression.as_slice()))
        .collect();
    assert_eq!(
        first,
        [
            ("a", 0, 0x344, &[0x91, 0, 0x35, 0x16, 0x18][..]),
            ("b", 0, 0x344, &[0x91, 8, 0x35, 0x16, 0x18][..]),
            ("c", 0, 0x344, &[0x91, 16, 0x35, 0x16, 0x18][..]),
            ("n", 0, 0x344, &[0x91, 24, 0x35, 0x16, 0x18][..]),
            ("i", 0, 0x344, &[0x91, 28, 0x35, 0x16, 0x18][..]),
        ]
    );
    assert_eq!(
        (vars[5].name.as_str(), vars[5].low, vars[5].high),
        ("a", 0x400, 0x5e8)
    );
}

fn var(low: u64, high: u64) -> LiveVariable {
    LiveVariable {
        name: String::new(),
        low,
        high,
        expression: Vec::new(),
        address_size: 8,
        version: 5,
    }
}

/// llvm-objdump-22 -d --debug-vars --debug-indent=N on a gfx1100 -O0 object whose
/// five variables hold over the whole function: an instruction line of one word ends
/// at display column 92, of two words at 101; the first column stands at N + 32.
#[test]
fn columns_left_of_the_text_are_left_out() {
    let vars: Vec<LiveVariable> = (0..5).map(|_| var(0, 0x344)).collect();
    let mut c = Columns::default();
    c.update(&vars, 0, 4, true);
    let text = |at: usize, indent: usize| {
        let mut s = String::new();
        c.after_instruction(&mut s, at, indent + 32, Style::Unicode);
        s
    };
    assert_eq!(text(92, 52), "┃ ");
    assert_eq!(text(101, 52), " ");
    assert_eq!(text(92, 60), "┃ ┃ ┃ ┃ ┃ ");
    assert_eq!(text(101, 60), " ");
    assert_eq!(text(92, 70), "          ┃ ┃ ┃ ┃ ┃ ");
    assert_eq!(text(101, 70), " ┃ ┃ ┃ ┃ ┃ ");
    assert_eq!(text(92, 0), "");
    assert_eq!(text(101, 0), " ");
}

/// The glyphs: live on both sides `┃`/`|`, stops after the instruction `┻`/`v`,
/// starts after it `╈`/`^`; a freed column is two spaces and is reused
/// (llvm-objdump-22 --debug-vars and --debug-vars=ascii on -O2 objects).
#[test]
fn columns_start_stop_and_are_reused() {
    let vars = [var(0, 8), var(8, 16), var(4, 12), var(12, 20)];
    let mut c = Columns::default();
    let mut row = |this: u64, style: Style| {
        c.update(&vars, this, this + 4, true);
        let mut s = String::new();
        c.after_instruction(&mut s, 0, 0, style);
        s
    };
    assert_eq!(row(0, Style::Unicode), "┃ ╈ ");
    assert_eq!(row(4, Style::Ascii), "v | ^ ");
    // the first variable is gone: the fourth takes its column
    assert_eq!(row(8, Style::Unicode), "╈ ┻ ┃ ");
    assert_eq!(row(12, Style::Unicode), "┃   ┻ ");
    assert_eq!(row(16, Style::Unicode), "┻     ");
    assert_eq!(row(20, Style::Unicode), "      ");
}

/// `--prefix` and `--prefix-strip` as llvm-objdump-22 -l prints the names.
#[test]
fn prefixes_as_llvm_objdump() {
    let path = "/work/wt/dwarf/../../shared/corpus/cl/01_vadd.cl";
    for (prefix, strip, want) in [
        (
            "/p/",
            0,
            "/p/work/wt/dwarf/../../shared/corpus/cl/01_vadd.cl",
        ),
        (
            "/p//",
            0,
            "/p/work/wt/dwarf/../../shared/corpus/cl/01_vadd.cl",
        ),
        ("p", 0, "p/work/wt/dwarf/../../shared/corpus/cl/01_vadd.cl"),
        ("/p", 3, "/p/../../shared/corpus/cl/01_vadd.cl"),
        ("/p", 5, "/p/shared/corpus/cl/01_vadd.cl"),
        ("/p", 9, "/p/01_vadd.cl"),
        ("/p", 100, "/p/01_vadd.cl"),
        ("", 2, path),
        ("/", 0, path),
    ] {
        assert_eq!(prefixed(path, prefix, strip), want, "{prefix} {strip}");
    }
    assert_eq!(prefixed("rel/x.cl", "/p", 1), "rel/x.cl");
}

/// The location text of the labels, as llvm-objdump-22 -l --debug-vars prints it for
/// the -g corpus (gfx1100 -O2 `n` at `DW_OP_bregx 0x606 +0, ...` is `<unknown register
/// 1542>`; gfx90a -O2 `i` at `DW_OP_bregx VGPR0+0, DW_OP_lit5, ...` is `<unknown op
/// DW_OP_lit5 (53)>`; -O0 `DW_OP_fbreg` ones `<unknown op DW_OP_fbreg (145)>`, ...).
#[test]
fn location_texts_as_llvm_objdump() {
    use hsaco_dwarf::vars::location_text;
    let tail = [0x35, 0x16, 0x18]; // DW_OP_lit5, DW_OP_swap, DW_OP_xderef
    let with_tail = |head: &[u8]| [head, &tail[..]].concat();
    assert_eq!(
        location_text(&with_tail(&[0x92, 0x86, 0x0c, 0x00])),
        "<unknown register 1542>"
    );
    assert_eq!(
        location_text(&with_tail(&[0x92, 0x80, 0x14, 0x00])),
        "<unknown op DW_OP_lit5 (53)>"
    );
    assert_eq!(
        location_text(&with_tail(&[0x91, 0x10])),
        "<unknown op DW_OP_fbreg (145)>"
    );
    assert_eq!(
        location_text(&[0x93, 0x04, 0x92, 0x80, 0x14, 0x00]),
        "<unknown op DW_OP_piece (147)>"
    );
    assert_eq!(
        location_text(&[0xa1, 0x00]),
        "<unknown op DW_OP_addrx (161)>"
    );
    assert_eq!(
        location_text(&with_tail(&[0x11, 0x7f])),
        "<unknown op DW_OP_consts (17)>"
    );
    assert_eq!(
        location_text(&with_tail(&[0x10, 0x05])),
        "<unknown op DW_OP_constu (16)>"
    );
}
