//! A finding: what is wrong, why it matters, what to change.

use core::fmt;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; nothing fails because of it.
    Note,
    /// It may work, but something is unsupported, unknown or risky.
    Warning,
    /// It will not load or not run correctly.
    Error,
}

impl Severity {
    /// `note`, `warning` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// How bad.
    pub severity: Severity,
    /// A stable identifier (`runtime-code-object-version`); the list is in the
    /// crate documentation.
    pub code: &'static str,
    /// What is wrong.
    pub what: String,
    /// Why it matters (mechanism, and the source of the fact).
    pub why: String,
    /// What to change, when there is something to change.
    pub fix: Option<String>,
    /// The kernels the finding is about, when it is about kernels (then `what` does
    /// not name them): the text report merges findings that differ only here and
    /// lists the kernels grouped (a count, a few names, `--verbose` for all).
    pub kernels: Vec<String>,
}

impl Problem {
    /// An error.
    pub fn error(code: &'static str, what: String, why: String, fix: Option<String>) -> Problem {
        Problem {
            severity: Severity::Error,
            code,
            what,
            why,
            fix,
            kernels: Vec::new(),
        }
    }

    /// A warning.
    pub fn warning(code: &'static str, what: String, why: String, fix: Option<String>) -> Problem {
        Problem {
            severity: Severity::Warning,
            code,
            what,
            why,
            fix,
            kernels: Vec::new(),
        }
    }

    /// A note.
    pub fn note(code: &'static str, what: String, why: String, fix: Option<String>) -> Problem {
        Problem {
            severity: Severity::Note,
            code,
            what,
            why,
            fix,
            kernels: Vec::new(),
        }
    }
}

impl Problem {
    /// What is wrong, with the kernels it is about named first (`kernel k: ...`,
    /// `kernels a, b: ...`): the whole finding in one sentence, every kernel listed.
    pub fn sentence(&self) -> String {
        match self.kernels.as_slice() {
            [] => self.what.clone(),
            [one] => format!("kernel {one}: {}", self.what),
            many => format!("kernels {}: {}", many.join(", "), self.what),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]: {}", self.severity, self.code, self.sentence())?;
        if !self.why.is_empty() {
            write!(f, "\n  why: {}", self.why)?;
        }
        if let Some(fix) = &self.fix {
            write!(f, "\n  fix: {fix}")?;
        }
        Ok(())
    }
}
