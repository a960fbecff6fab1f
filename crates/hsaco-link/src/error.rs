//! The linker's errors.

use std::fmt;

/// A place in an input: file, section and offset (`a.o:(.text+0x10)` as ld.lld
/// prints it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The input's name.
    pub file: String,
    /// The section's name (empty for a symbol with no section, e.g. `SHN_ABS`).
    pub section: String,
    /// The offset in the section.
    pub offset: u64,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.section.is_empty() {
            write!(f, "{}", self.file)
        } else {
            write!(f, "{}:({}+{:#x})", self.file, self.section, self.offset)
        }
    }
}

/// A symbol used but defined nowhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndefinedSymbol {
    /// The symbol.
    pub name: String,
    /// Its visibility when not default: "hidden" or "protected" (ld.lld says
    /// "undefined hidden symbol"), else empty.
    pub visibility: &'static str,
    /// Where it is referenced (the first reference).
    pub referenced_by: Place,
}

impl fmt::Display for UndefinedSymbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let space = if self.visibility.is_empty() { "" } else { " " };
        write!(
            f,
            "undefined {}{space}symbol: {}\n>>> referenced by {}",
            self.visibility, self.name, self.referenced_by
        )
    }
}

/// Why a link failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// No input files.
    NoInputs,
    /// An input is not a readable ELF file.
    Malformed {
        /// The input's name.
        file: String,
        /// What the reader found.
        error: hsaco_elf::Error,
    },
    /// An input is ELF but not a relocatable AMDGPU ELF64 object.
    NotRelocatable {
        /// The input's name.
        file: String,
        /// What it is instead.
        what: String,
    },
    /// Two inputs are for different targets (`e_flags`, OS ABI or ABI version).
    TargetMismatch {
        /// The input that differs.
        file: String,
        /// Its target.
        target: String,
        /// The first input.
        first_file: String,
        /// The first input's target.
        first_target: String,
    },
    /// Symbols used but defined nowhere (all of them, in the order first met).
    Undefined(Vec<UndefinedSymbol>),
    /// Two inputs define the same global symbol.
    Duplicate {
        /// The symbol.
        name: String,
        /// The first definition.
        first: Box<Place>,
        /// The second definition.
        second: Box<Place>,
    },
    /// A relocation that cannot be resolved in a shared object, or whose value does
    /// not fit.
    Relocation {
        /// Where the relocation applies.
        place: Place,
        /// What is wrong.
        message: String,
    },
    /// Input the linker does not handle yet.
    Unsupported {
        /// The input's name.
        file: String,
        /// What is not supported.
        message: String,
    },
    /// The output cannot be laid out (too large, ...).
    Layout(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::NoInputs => write!(f, "no input files"),
            LinkError::Malformed { file, error } => write!(f, "{file}: malformed input: {error}"),
            LinkError::NotRelocatable { file, what } => {
                write!(f, "{file}: not a relocatable AMDGPU object: {what}")
            }
            LinkError::TargetMismatch {
                file,
                target,
                first_file,
                first_target,
            } => write!(
                f,
                "{file}: target {target} differs from {first_file}'s target {first_target}"
            ),
            LinkError::Undefined(symbols) => {
                for (i, u) in symbols.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{u}")?;
                }
                Ok(())
            }
            LinkError::Duplicate {
                name,
                first,
                second,
            } => write!(
                f,
                "duplicate symbol: {name}\n>>> defined at {first}\n>>> defined at {second}"
            ),
            LinkError::Relocation { place, message } => write!(f, "{place}: {message}"),
            LinkError::Unsupported { file, message } => {
                write!(f, "{file}: not supported: {message}")
            }
            LinkError::Layout(message) => write!(f, "cannot lay out the output: {message}"),
        }
    }
}

impl std::error::Error for LinkError {}
