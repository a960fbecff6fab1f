//! Golden CLI tests: each `tests/cli/<case>.args` holds the arguments of one `hsaco`
//! run (one per line; paths relative to the repository root); `<case>.stdout` and
//! `<case>.stderr` hold the expected output and `<case>.code` the exit code.
//! `BLESS=1 cargo test --test cli` rewrites the expectations; review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run_case(args_file: &Path, bless: bool) -> Result<(), String> {
    let args: Vec<String> = std::fs::read_to_string(args_file)
        .map_err(|e| e.to_string())?
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_hsaco"))
        .args(&args)
        .current_dir(root())
        .output()
        .map_err(|e| e.to_string())?;
    let code = out.status.code().unwrap_or(-1).to_string() + "\n";
    let mut problems = Vec::new();
    for (ext, got) in [
        ("stdout", String::from_utf8_lossy(&out.stdout).into_owned()),
        ("stderr", String::from_utf8_lossy(&out.stderr).into_owned()),
        ("code", code),
    ] {
        let path = args_file.with_extension(ext);
        if bless {
            std::fs::write(&path, &got).map_err(|e| e.to_string())?;
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != got {
            let line = want
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .map(|i| i + 1)
                .unwrap_or_else(|| want.lines().count().min(got.lines().count()) + 1);
            problems.push(format!(
                "{}: differs from line {line}\n--- expected\n{}\n--- got\n{}",
                path.display(),
                want.lines().nth(line - 1).unwrap_or("<end>"),
                got.lines().nth(line - 1).unwrap_or("<end>")
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn golden_cli_cases() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root().join("tests/cli"))
        .expect("tests/cli")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "args"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in tests/cli");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| run_case(c, bless).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// Run hsaco from the repository root.
fn run_hsaco(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hsaco"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run hsaco")
}

/// `dis --kd` is the listing followed by the kernel descriptors exactly as `read
/// --kernel-descriptors` prints them (both checked against LLVM by golden cases), for
/// a code object v5 and a v2 object.
#[test]
fn dis_kd_is_listing_then_kernel_descriptors() {
    let run = |args: &[&str]| {
        let out = run_hsaco(args);
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    for file in [
        "src/cmd/demo_data/vadd-gfx906-cov5.co",
        "crates/hsaco-elf/tests/data/elf/v2_gfx803.o",
    ] {
        let listing = run(&["dis", file]);
        let kds = run(&["read", "--kernel-descriptors", file]);
        assert!(kds.contains(".amdhsa_kernel") || kds.contains("amd_kernel_code"));
        let both = run(&["dis", "--kd", file]);
        assert_eq!(
            both,
            format!("{listing}\nKernel descriptors:\n\n{kds}"),
            "{file}"
        );
    }
}

/// The text groups a library's kernels and findings; `--json` keeps every kernel and
/// one finding per kernel (40 kernels, each with the v5 key `.uses_dynamic_stack` in
/// its code object v4 metadata), and `read --json` every kernel of a 120-kernel object.
#[test]
fn json_keeps_what_the_text_groups() {
    let run = |args: &[&str]| String::from_utf8(run_hsaco(args).stdout).expect("utf-8");
    let lib = "tests/cli/data/library/library-gfx90a-clang15-v4.co";
    let text = run(&["check", lib]);
    assert!(text.contains("and 37 more (--verbose for all)"), "{text}");
    assert_eq!(text.matches("[metadata-key-version]").count(), 1, "{text}");
    let json: serde_json::Value = serde_json::from_str(&run(&["check", "--json", lib])).unwrap();
    let object = &json[0]["objects"][0];
    assert_eq!(object["kernels"].as_array().unwrap().len(), 40);
    let schema: Vec<&serde_json::Value> = object["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["code"] == "metadata-key-version")
        .collect();
    assert_eq!(schema.len(), 40);
    let mut named: Vec<&str> = Vec::new();
    for p in &schema {
        let kernels = p["kernels"].as_array().unwrap();
        assert_eq!(kernels.len(), 1);
        let k = kernels[0].as_str().unwrap();
        let what = p["what"].as_str().unwrap();
        assert!(what.starts_with(&format!("kernel {k}: metadata .uses_dynamic_stack: ")));
        named.push(k);
    }
    let mut all: Vec<&str> = object["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    named.sort_unstable();
    all.sort_unstable();
    assert_eq!(named, all);
    let read: serde_json::Value = serde_json::from_str(&run(&[
        "read",
        "--json",
        "-C",
        "tests/cli/data/library/library-gfx90a.co",
    ]))
    .unwrap();
    let kernels = read["files"][0]["objects"][0]["kernels"]
        .as_array()
        .unwrap();
    assert_eq!(kernels.len(), 120);
    // (JSON keeps the symbols' names even with -C)
    assert!(kernels
        .iter()
        .all(|k| k["name"].as_str().unwrap().starts_with("_ZN7rocfake")));
}

/// `hsaco dis` on the code object v1 fixtures lists the instructions llvm-objdump-22
/// lists (its output committed beside them by their `gen.sh`). llvm-objdump-22
/// refuses each `amd_kernel_code_t` ("code object v2 is not supported") and dumps its
/// 256 bytes as `.byte` lines, where hsaco prints one comment line and goes on with
/// the code at the kernel's entry: those lines aside, the two agree.
#[test]
fn v1_dis_lists_what_llvm_objdump_lists() {
    let dir = root().join("crates/hsaco-elf/tests/data/v1");
    for cpu in ["gfx803", "gfx900"] {
        let llvm = std::fs::read_to_string(dir.join(format!("v1_{cpu}.llvm-objdump"))).unwrap();
        let llvm: Vec<&str> = llvm
            .lines()
            .skip_while(|l| !l.starts_with("Disassembly of section"))
            .filter(|l| {
                !l.starts_with("; error decoding ")
                    && *l != "; decoding failed region as bytes"
                    && !l.starts_with("\t.byte\t")
            })
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_hsaco"))
            .arg("dis")
            .arg(dir.join(format!("v1_{cpu}.co")))
            .output()
            .unwrap();
        assert!(out.status.success());
        let ours = String::from_utf8(out.stdout).unwrap();
        let ours: Vec<&str> = ours
            .lines()
            .skip_while(|l| !l.starts_with("Disassembly of section"))
            .filter(|l| !l.starts_with("\t; amd_kernel_code_t (256 bytes"))
            .collect();
        assert!(llvm.len() > 20, "{cpu}: llvm-objdump output too short");
        assert_eq!(ours, llvm, "{cpu}");
    }
}

/// `hsaco as` leaves no output file behind when the source has errors, and writes
/// a readable object when it has none.
#[test]
fn as_writes_nothing_on_error() {
    let dir = root().join("target/cli-as-test");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.o");
    let _ = std::fs::remove_file(&out);
    let run = |src: &str| {
        Command::new(env!("CARGO_BIN_EXE_hsaco"))
            .args(["as", "--mcpu=gfx1100", src, "-o"])
            .arg(&out)
            .current_dir(root())
            .status()
            .unwrap()
    };
    let st = run("tests/cli/data/asm/errors.s");
    assert_eq!(st.code(), Some(1));
    assert!(!out.exists(), "output written despite errors");
    let st = run("tests/cli/data/asm/data.s");
    assert!(st.success());
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("hsaco-tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

/// `run --trace-vars` on the -g fixtures (tests/cli/data/trace_vars, built by
/// build.sh from add.cl): the values shown for the traced lane follow from the
/// kernel's source, with a = iota, b = fill(-100), s = 0.5 and one wave-64
/// work-group: `i` is the work-item ID, the lane; `sum` = a[i] + b[i] = lane - 100
/// (signed); `twice` = (unsigned)sum * 2 (wraps: unsigned); `scaled` = sum * 0.5
/// (float). Each value is shown right after the instruction that wrote it: at -O0 the
/// store to the variable's scratch slot (DW_OP_fbreg +40/44/48/52: `offset:40` ...),
/// at -O2 the VALU operation whose result register the location list names. gfx90a
/// (wave64, MUBUF scratch) and, at -O0, gfx1100 (wave32, architected flat scratch).
#[test]
fn trace_vars_shows_source_values() {
    let trace = |file: &str, lane: u32| -> (bool, String) {
        let lane = lane.to_string();
        // one wave: 32 work-items for gfx1100 (wave32), 64 for gfx90a
        let n = if file.contains("gfx1100") { "32" } else { "64" };
        let out = run_hsaco(&[
            "run",
            file,
            "--kernel",
            "add",
            "--grid",
            n,
            "--block",
            n,
            "--arg",
            &format!("buf:i32:{n}=iota"),
            "--arg",
            &format!("buf:i32:{n}=fill(-100)"),
            "--arg",
            &format!("buf:i32:{n}=zeros"),
            "--arg",
            "f32=0.5",
            "--arg",
            &format!("buf:f32:{n}=zeros"),
            "--trace",
            "0:0",
            "--trace-vars",
            "--lane",
            &lane,
            "--quiet",
        ]);
        (
            out.status.success(),
            String::from_utf8(out.stderr).expect("utf-8"),
        )
    };
    // (the instruction line before a variable's line)
    let after = |err: &str, line: &str| -> Option<String> {
        let lines: Vec<&str> = err.lines().collect();
        let at = lines.iter().position(|l| *l == line)?;
        lines[..at]
            .iter()
            .rev()
            .find(|l| !l.starts_with("    "))
            .map(|l| l.to_string())
    };
    let dir = "tests/cli/data/trace_vars";
    for lane in [5u32, 37] {
        let sum = i64::from(lane) - 100;
        let twice = (sum as i32 as u32).wrapping_mul(2);
        let scaled = sum as f32 * 0.5;
        let want = [
            ("i", format!("{lane} (int)"), "offset:40", true),
            ("sum", format!("{sum} (int)"), "offset:44", true),
            (
                "twice",
                format!("{twice} (unsigned int)"),
                "offset:48",
                true,
            ),
            ("scaled", format!("{scaled:?} (float)"), "offset:52", true),
            ("s", "0.5 (float)".to_string(), "", true),
        ];
        // gfx90a: MUBUF scratch, s33 unswizzled (divided by 64); gfx1100: scratch_
        // with s33 per lane (wave32, lanes 5 and 37 % 32 = 5 there)
        for target in ["gfx90a", "gfx1100"] {
            if target == "gfx1100" && lane >= 32 {
                continue;
            }
            let (ok, err) = trace(&format!("{dir}/add-g-O0-{target}.co"), lane);
            assert!(ok, "{err}");
            for (name, value, store, _) in &want {
                let line = format!("    lane {lane}: {name} = {value}");
                let inst = after(&err, &line)
                    .unwrap_or_else(|| panic!("{target} -O0: no `{line}`:\n{err}"));
                assert!(inst.contains(store), "{target} -O0 `{line}` after `{inst}`");
            }
        }
        // at -O2, `i` and the parameters have no location; sum and twice come from
        // the add (v1), scaled from the multiply (v2)
        let (ok, err) = trace(&format!("{dir}/add-g-O2-gfx90a.co"), lane);
        assert!(ok, "{err}");
        for (name, value, op) in [
            ("sum", &want[1].1, "v_add_u32"),
            ("twice", &want[2].1, "v_add_u32"),
            ("scaled", &want[3].1, "v_mul_f32"),
        ] {
            let line = format!("    lane {lane}: {name} = {value}");
            let inst = after(&err, &line).unwrap_or_else(|| panic!("-O2: no `{line}`:\n{err}"));
            assert!(inst.contains(op), "-O2 `{line}` after `{inst}`");
        }
        assert!(!err.contains(&format!("lane {lane}: i = ")), "-O2 shows i");
    }
    // pointers in hex (the buffers are where the emulator placed them: not 0)
    let (_, err) = trace(&format!("{dir}/add-g-O0-gfx90a.co"), 0);
    assert!(
        err.lines().any(|l| l.starts_with("    lane 0: a = 0x")
            && l.ends_with("(const int *)")
            && !l.contains("= 0x0 ")),
        "{err}"
    );
    // an object without DWARF: an error, not a silent plain trace
    let out = run_hsaco(&[
        "run",
        "src/cmd/demo_data/vadd-gfx906-cov5.co",
        "--kernel",
        "vadd",
        "--trace",
        "0:0",
        "--trace-vars",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).expect("utf-8");
    assert!(
        err.contains("needs debug information (build with -g)"),
        "{err}"
    );
}
