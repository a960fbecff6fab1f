//! Every operation of the one list (`hsaco_emu::ops::OPS`) has a per-operation test in
//! a `tests/ops_*.rs` file (one of its mnemonics written there as an instruction), or
//! an entry in [`NOT_YET`] saying why not: the gap stays visible, and the list must
//! shrink as tests are added (an entry whose operation now has a test fails too).
//! [`KNOWN_WRONG`] lists the cases where the emulator disagrees with the manual; each
//! has an `#[ignore]`d test that shows it.

// lanes and cases are indexed by number: lane l of one array goes with lane l of
// another, as in the emulator itself
#![allow(clippy::needless_range_loop)]

use hsaco_emu::ops::{Op, OPS};

/// Operations without a per-operation test yet, and why.
const NOT_YET: &[(Op, &str)] = &[];

/// Where the emulator disagrees with the manual (the ignored test that shows it).
/// (Empty: `v_div_scale_f32`'s special operands were the last; they follow the
/// manual's pseudocode now, tests/ops_valu_f32.rs `division_scale_special_operands`.)
const KNOWN_WRONG: &[(Op, &str)] = &[];

fn sources() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let mut s = String::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("ops_") && name.ends_with(".rs") && name != "ops_coverage.rs" {
            s.push_str(&std::fs::read_to_string(&p).unwrap());
            s.push('\n');
        }
    }
    s
}

/// Whether `name` is written as an instruction in `src`: preceded by a character that
/// cannot continue an identifier and followed by one (or by an encoding suffix). A name
/// with a `<...>` pattern matches by its fixed prefix.
fn mentioned(src: &str, name: &str) -> bool {
    let (needle, prefix) = match name.find('<') {
        Some(i) => (&name[..i], true),
        None => (name, false),
    };
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(i) = src[from..].find(needle) {
        let at = from + i;
        let before = src[..at].chars().next_back();
        let after = &src[at + needle.len()..];
        let ok_before = before.is_none_or(|c| !ident(c));
        let ok_after = prefix
            || after.chars().next().is_none_or(|c| !ident(c))
            || ["_e32", "_e64", "_sdwa", "_dpp"]
                .iter()
                .any(|s| after.starts_with(s));
        if ok_before && ok_after {
            return true;
        }
        from = at + needle.len();
    }
    false
}

#[test]
fn every_operation_has_a_test_or_a_reason() {
    let src = sources();
    let mut missing = Vec::new();
    let mut stale = Vec::new();
    for (op, names) in OPS {
        let tested = names.iter().any(|n| mentioned(&src, n));
        let listed = NOT_YET.iter().any(|(o, _)| o == op);
        if !tested && !listed {
            missing.push(format!("{op:?} {names:?}"));
        }
        if tested && listed {
            stale.push(format!("{op:?}"));
        }
    }
    assert!(
        missing.is_empty(),
        "operations with neither a per-operation test nor a NOT_YET entry:\n{}",
        missing.join("\n")
    );
    assert!(
        stale.is_empty(),
        "NOT_YET entries whose operations now have tests (remove them): {stale:?}"
    );
    for (op, why) in NOT_YET.iter().chain(KNOWN_WRONG) {
        assert!(!why.is_empty(), "{op:?}");
        assert!(
            OPS.iter().any(|(o, _)| o == op),
            "{op:?} is not in ops::OPS"
        );
    }
}

#[test]
fn the_scan_sees_instructions_only() {
    assert!(mentioned("k.i(\"v_add_f32 v24\")", "v_add_f32"));
    assert!(mentioned("\"v_add_f32_e64 v1\"", "v_add_f32"));
    assert!(!mentioned("\"v_add_f32x v1\"", "v_add_f32"));
    assert!(!mentioned("xv_add_f32 ", "v_add_f32"));
    assert!(mentioned("format!(\"v_cmp_{c}_{ty}", "v_cmp_<cond>_<type>"));
}
