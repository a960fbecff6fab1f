//! Reports that stay readable at library scale: findings attributed to the kernels
//! they are about, merged when they differ only in the kernel, and kernel lists
//! shown as a count, a few names and "and N more" (all of them when verbose).

use std::fmt::Write as _;

use crate::Problem;

/// How the text report renders names.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextOptions {
    /// List every kernel instead of a few and "and N more".
    pub verbose: bool,
    /// Rewrites a symbol name for display (a C++ demangler), `None` when the name
    /// stays as it is. The JSON report always keeps the names of the object.
    pub demangle: Option<fn(&str) -> Option<String>>,
}

impl TextOptions {
    /// `name` as the report shows it.
    pub fn name(&self, name: &str) -> String {
        self.demangle
            .and_then(|d| d(name))
            .unwrap_or_else(|| name.to_string())
    }
}

/// Names shown before "and N more" when a list is cut.
pub const SHOWN_NAMES: usize = 3;

/// Widest list of names kept on one line; longer ones get a line per name.
const INLINE_WIDTH: usize = 100;

/// A list of names cut for display: the names shown and how many are left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameList {
    /// The names shown, in order.
    pub shown: Vec<String>,
    /// How many are left out ("and N more").
    pub more: usize,
}

impl NameList {
    /// The first [`SHOWN_NAMES`] names (all when `verbose`, or when only one more
    /// would be left out).
    pub fn new<S: AsRef<str>>(names: &[S], verbose: bool) -> NameList {
        let keep = if verbose || names.len() <= SHOWN_NAMES + 1 {
            names.len()
        } else {
            SHOWN_NAMES
        };
        NameList {
            shown: names[..keep]
                .iter()
                .map(|n| n.as_ref().to_string())
                .collect(),
            more: names.len() - keep,
        }
    }

    /// The names on one line (`a, b, c and 5 more`), if that takes, after `used`
    /// columns, no more than the width a reader takes in at once (100).
    pub fn inline(&self, used: usize) -> Option<String> {
        let mut s = self.shown.join(", ");
        if self.more > 0 {
            let _ = write!(s, " and {} more", self.more);
        }
        (used + s.len() <= INLINE_WIDTH).then_some(s)
    }

    /// The names one per line after `indent`, then `and N more (--verbose for all)`.
    pub fn write_block(&self, out: &mut String, indent: &str) {
        for n in &self.shown {
            let _ = writeln!(out, "{indent}{n}");
        }
        if self.more > 0 {
            let _ = writeln!(out, "{indent}and {} more (--verbose for all)", self.more);
        }
    }
}

/// Name the kernel each finding of an object is about: a finding whose text starts
/// with `kernel NAME: ` (the conformance rules' form) or whose metadata path is
/// `amdhsa.kernels[N]...` (the metadata schema's) gets `NAME` in
/// [`Problem::kernels`] and the rest of its text in `what`. `kernels` are the
/// object's kernel names in metadata order.
pub(crate) fn attribute_kernels(problems: &mut [Problem], kernels: &[String]) {
    for p in problems.iter_mut().filter(|p| p.kernels.is_empty()) {
        if let Some(rest) = p.what.strip_prefix("kernel ") {
            if let Some(k) = kernels.iter().find(|k| {
                rest.strip_prefix(k.as_str())
                    .is_some_and(|r| r.starts_with(": "))
            }) {
                p.what = rest[k.len() + 2..].to_string();
                p.kernels.push(k.clone());
                continue;
            }
        }
        if let Some(rest) = p.what.strip_prefix("metadata amdhsa.kernels[") {
            let Some((index, rest)) = rest.split_once(']') else {
                continue;
            };
            let Some(k) = index.parse::<usize>().ok().and_then(|i| kernels.get(i)) else {
                continue;
            };
            if k.is_empty() {
                continue;
            }
            // `amdhsa.kernels[3].uses_dynamic_stack: ...` -> `metadata .uses_dynamic_stack: ...`
            let space = if rest.starts_with('.') { " " } else { "" };
            p.what = format!("metadata{space}{rest}");
            p.kernels.push(k.clone());
        }
    }
}

/// The findings as the text report shows them: those that differ only in their
/// kernels merged into one (in first-seen order) that lists all their kernels.
pub(crate) fn merge_by_kernel(problems: &[Problem]) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::new();
    for p in problems {
        if !p.kernels.is_empty() {
            if let Some(q) = out.iter_mut().find(|q| {
                !q.kernels.is_empty()
                    && q.code == p.code
                    && q.severity == p.severity
                    && q.what == p.what
                    && q.why == p.why
                    && q.fix == p.fix
            }) {
                q.kernels.extend(p.kernels.iter().cloned());
                continue;
            }
        }
        out.push(p.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(what: &str) -> Problem {
        Problem::error("metadata-schema", what.into(), "why".into(), None)
    }

    #[test]
    fn lists_are_cut_after_three_names_unless_one_more() {
        let names: Vec<String> = (0..5).map(|i| format!("k{i}")).collect();
        let l = NameList::new(&names, false);
        assert_eq!((l.shown.len(), l.more), (3, 2));
        assert_eq!(l.inline(0).as_deref(), Some("k0, k1, k2 and 2 more"));
        assert_eq!(NameList::new(&names[..4], false).more, 0);
        assert_eq!(NameList::new(&names, true).shown, names);
        let long = ["x".repeat(60), "y".repeat(60)];
        assert_eq!(NameList::new(&long, false).inline(0), None);
        let mut block = String::new();
        l.write_block(&mut block, "  ");
        assert_eq!(
            block,
            "  k0\n  k1\n  k2\n  and 2 more (--verbose for all)\n"
        );
    }

    #[test]
    fn findings_are_attributed_to_known_kernels_only() {
        let kernels = vec!["a".to_string(), "b::c".to_string()];
        let mut ps = vec![
            problem("kernel a: the descriptor is at 0x40, not 64-byte aligned"),
            problem("kernel b::c: the descriptor says x"),
            problem("kernel z: not a kernel of the object"),
            problem("metadata amdhsa.kernels[1].uses_dynamic_stack: key is not part"),
            problem("metadata amdhsa.kernels[7].x: no such kernel"),
            problem("metadata amdhsa.version: [1, 0] is not"),
        ];
        attribute_kernels(&mut ps, &kernels);
        let got: Vec<(&str, Vec<String>)> = ps
            .iter()
            .map(|p| (p.what.as_str(), p.kernels.clone()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "the descriptor is at 0x40, not 64-byte aligned",
                    vec!["a".to_string()]
                ),
                ("the descriptor says x", vec!["b::c".to_string()]),
                ("kernel z: not a kernel of the object", vec![]),
                (
                    "metadata .uses_dynamic_stack: key is not part",
                    vec!["b::c".to_string()]
                ),
                ("metadata amdhsa.kernels[7].x: no such kernel", vec![]),
                ("metadata amdhsa.version: [1, 0] is not", vec![]),
            ]
        );
        assert_eq!(
            ps[0].sentence(),
            "kernel a: the descriptor is at 0x40, not 64-byte aligned"
        );
    }

    #[test]
    fn identical_findings_merge_across_kernels_only() {
        let kernels: Vec<String> = (0..3).map(|i| format!("k{i}")).collect();
        let mut ps: Vec<Problem> = (0..3)
            .map(|i| {
                problem(&format!(
                    "metadata amdhsa.kernels[{i}].uses_dynamic_stack: since v5"
                ))
            })
            .collect();
        ps.push(problem("metadata amdhsa.version: once"));
        ps.push(problem("metadata amdhsa.version: once"));
        ps.push(problem("kernel k1: other"));
        attribute_kernels(&mut ps, &kernels);
        let merged = merge_by_kernel(&ps);
        assert_eq!(merged.len(), 4);
        assert_eq!(merged[0].kernels, kernels);
        assert_eq!(
            merged[0].sentence(),
            "kernels k0, k1, k2: metadata .uses_dynamic_stack: since v5"
        );
        // findings about no kernel are never merged
        assert!(merged[1].kernels.is_empty() && merged[2].kernels.is_empty());
        assert_eq!(merged[3].kernels, ["k1"]);
    }
}
