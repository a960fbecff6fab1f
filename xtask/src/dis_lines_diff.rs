//! `cargo xtask dis-lines-diff`: `hsaco dis` with the DWARF options (`-l`, `-S`,
//! `--prefix`, `--debug-vars`) against `llvm-objdump-22 -d` with the same options on
//! the `-g` corpus (`cargo xtask dwarf-corpus`), counted per mode and group (-O0/-O2,
//! .co/.o).
//!
//! Two counts per group: objects whose whole output is identical, and objects whose
//! annotations are identical (the `;` lines and where they stand, with each
//! instruction line cut to its `// ADDRESS` comment and the variable columns after
//! it, so that a difference in an instruction's text, the disassembler's business,
//! does not hide them). It fails only when a count falls below the committed floors
//! (a regression).
//!
//! The corpus line tables name the sources as `BUILD_DIR/../../shared/corpus/...`
//! (clang ran in a worktree two levels below `/work`, which may be gone). The mode
//! "with sources" finds them again with `--prefix ROOT --prefix-strip N`, ROOT this
//! workspace and N its number of directories (a worktree at the same depth); the
//! mode "sources absent" uses a prefix that does not exist.

use anyhow::{bail, Result};
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// One comparison: its name, the options given to both tools, and its floors (parts
/// per thousand of the objects: whole output identical, annotations identical).
struct Mode {
    name: &'static str,
    args: Vec<String>,
    floor_identical: usize,
    floor_annotations: usize,
    /// Fail when llvm-objdump printed no source line at all (the sources were meant
    /// to be found).
    needs_sources: bool,
}

/// The comparisons, with floors from the counts measured on 2026-11-27 (1296
/// objects; every mode's annotations identical in all, whole outputs 1270/1296 with
/// the gfx1250 `lit64()` instruction text left).
fn modes() -> Vec<Mode> {
    let root = crate::root();
    let depth = root.components().count().saturating_sub(1);
    let prefix = root.display().to_string();
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let found = |mut v: Vec<String>| {
        v.extend([
            "--prefix".to_string(),
            prefix.clone(),
            "--prefix-strip".to_string(),
            depth.to_string(),
        ]);
        v
    };
    vec![
        Mode {
            name: "-l",
            args: s(&["-l"]),
            floor_identical: 975,
            floor_annotations: 1000,
            needs_sources: false,
        },
        Mode {
            name: "-S (sources absent)",
            args: s(&["-S", "--prefix", "/hsaco-no-such-dir"]),
            floor_identical: 975,
            floor_annotations: 1000,
            needs_sources: false,
        },
        Mode {
            name: "-S --prefix (sources found)",
            args: found(s(&["-S"])),
            floor_identical: 975,
            floor_annotations: 1000,
            needs_sources: true,
        },
        Mode {
            name: "-l -S --prefix",
            args: found(s(&["-l", "-S"])),
            floor_identical: 975,
            floor_annotations: 1000,
            needs_sources: true,
        },
        Mode {
            name: "--debug-vars",
            args: s(&["--debug-vars"]),
            floor_identical: 975,
            floor_annotations: 1000,
            needs_sources: false,
        },
        Mode {
            name: "-l --debug-vars",
            args: s(&["-l", "--debug-vars"]),
            floor_identical: 975,
            floor_annotations: 1000,
            needs_sources: false,
        },
        Mode {
            name: "-S --prefix --debug-vars=ascii --debug-indent=90",
            args: found(s(&["-S", "--debug-vars=ascii", "--debug-indent=90"])),
            floor_identical: 975,
            floor_annotations: 1000,
            needs_sources: true,
        },
        Mode {
            name: "-l -S --prefix --debug-vars --no-show-raw-insn",
            args: found(s(&["-l", "-S", "--debug-vars", "--no-show-raw-insn"])),
            floor_identical: 975,
            floor_annotations: 1000,
            needs_sources: true,
        },
    ]
}

/// The listing with each instruction line cut to its address comment and what
/// follows the instruction words (the variable columns).
fn annotations(text: &str) -> String {
    let mut s = String::with_capacity(text.len() / 4);
    for l in text.lines() {
        match l
            .strip_prefix('\t')
            .and_then(|r| r.rfind("// ").map(|at| &r[at..]))
        {
            Some(comment) => {
                let mut words = comment.splitn(3, ' ');
                let (slashes, addr) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
                s.push_str(slashes);
                s.push(' ');
                s.push_str(addr);
                // the instruction words (and a `<symbol+offset>`), then the columns
                let mut rest = words.next().unwrap_or("");
                while let Some(w) = rest.get(..8).filter(|w| {
                    w.bytes().all(|b| b.is_ascii_hexdigit())
                        && rest
                            .as_bytes()
                            .get(8)
                            .is_none_or(|&b| b == b' ' || b >= 0x80)
                }) {
                    rest = &rest[w.len()..];
                    rest = rest.strip_prefix(' ').unwrap_or(rest);
                }
                if rest.starts_with('<') {
                    rest = rest.find('>').map_or("", |e| &rest[e + 1..]);
                }
                s.push('|');
                s.push_str(rest);
            }
            None => s.push_str(l),
        }
        s.push('\n');
    }
    s
}

#[derive(Default)]
struct Group {
    total: usize,
    identical: usize,
    annotations: usize,
    with_sources: usize,
    first: Vec<(String, String)>,
}

/// Compare over the objects under `dir` in every mode; false on a regression below
/// the floors.
pub fn diff(hsaco: &Path, dir: &Path) -> Result<bool> {
    if !crate::corpus::have_tool("llvm-objdump-22") {
        bail!("llvm-objdump-22 not found: install llvm-22");
    }
    let objects = crate::dwarf_diff::objects(dir)?;
    if objects.is_empty() {
        bail!(
            "no objects under {} (cargo xtask dwarf-corpus DIR)",
            dir.display()
        );
    }
    let mut ok = true;
    for mode in modes() {
        ok &= diff_mode(hsaco, &objects, &mode);
    }
    Ok(ok)
}

fn diff_mode(hsaco: &Path, objects: &[std::path::PathBuf], mode: &Mode) -> bool {
    let groups: Mutex<Vec<(String, Group)>> = Mutex::new(Vec::new());
    let failures = crate::dwarf_diff::run_pairs(
        objects,
        &|obj| {
            let mut c = Command::new("llvm-objdump-22");
            c.arg("-d").args(&mode.args).arg(obj);
            c
        },
        &|obj| {
            let mut c = Command::new(hsaco);
            c.arg("dis").args(&mode.args).arg(obj);
            c
        },
        &|obj, llvm, ours| {
            // the group: the -O level (the parent directory) and the extension
            let level = obj
                .parent()
                .and_then(|p| p.file_name())
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            let ext = obj
                .extension()
                .map_or(String::new(), |e| e.to_string_lossy().into_owned());
            let key = format!("{level} .{ext}");
            let same_lines = annotations(&llvm) == annotations(&ours);
            let sources = llvm
                .lines()
                .any(|l| l.starts_with("; ") && !l.starts_with("; /") && !l.ends_with("():"));
            let mut groups = groups.lock().unwrap();
            let idx = match groups.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    groups.push((key, Group::default()));
                    groups.len() - 1
                }
            };
            let g = &mut groups[idx].1;
            g.total += 1;
            g.identical += usize::from(llvm == ours);
            g.annotations += usize::from(same_lines);
            g.with_sources += usize::from(sources);
            if llvm != ours {
                let d = if same_lines {
                    crate::dwarf_diff::first_diff(&llvm, &ours)
                } else {
                    crate::dwarf_diff::first_diff(&annotations(&llvm), &annotations(&ours))
                };
                g.first.push((obj.display().to_string(), d));
            }
        },
    );
    let mut ok = true;
    for f in failures {
        println!("could not run: {f}");
        ok = false;
    }
    let mut groups = groups.into_inner().unwrap();
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    println!(
        "dis {} (hsaco dis vs llvm-objdump-22 -d {}), {} objects:",
        mode.name,
        mode.args.join(" "),
        objects.len()
    );
    let (mut total, mut identical, mut annots, mut sources) = (0, 0, 0, 0);
    for (key, g) in &mut groups {
        println!(
            "  {key:8} identical {:4}/{:<4}  annotations identical {:4}/{}",
            g.identical, g.total, g.annotations, g.total
        );
        total += g.total;
        identical += g.identical;
        annots += g.annotations;
        sources += g.with_sources;
    }
    println!(
        "  all      identical {identical:4}/{total:<4}  annotations identical {annots:4}/{total}  \
         (llvm printed source lines for {sources})"
    );
    for (_, g) in &mut groups {
        g.first.sort();
        for (obj, d) in g.first.iter().take(2) {
            println!("    {obj}:\n{d}");
        }
    }
    if identical * 1000 < mode.floor_identical * total
        || annots * 1000 < mode.floor_annotations * total
    {
        println!(
            "dis {}: below the floors ({}/1000 identical, {}/1000 annotations identical): \
             a regression",
            mode.name, mode.floor_identical, mode.floor_annotations
        );
        ok = false;
    }
    if mode.needs_sources && sources == 0 {
        println!(
            "dis {}: llvm-objdump-22 found no source file (the corpus sources are looked for \
             under {} with --prefix-strip; was the corpus built from a worktree at the same \
             depth?)",
            mode.name,
            crate::root().display()
        );
        ok = false;
    }
    ok
}
