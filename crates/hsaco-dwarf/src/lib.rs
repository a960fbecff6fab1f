//! AMDGPU DWARF debug information, read with [`gimli`] (no second DWARF parser here),
//! with the AMDGPU layer on top ([`names`]: register numbers, address spaces,
//! `DW_OP_LLVM_*`, `DW_AT_LLVM_*`) and text as `llvm-dwarfdump-22` prints it
//! ([`dump`]).
//!
//! Bad DWARF never panics: each unit, list or line table that does not read gives an
//! [`Error`] naming the section and offset, and the rest of the file is still read.

mod cfa;
pub mod dump;
mod expr;
pub mod fuzzing;
pub mod lines;
pub mod load;
pub mod locate;
pub mod names;
mod sections;
mod text;
pub mod vars;

pub use dump::{DumpOptions, Section};
pub use load::DwarfObject;

/// A DWARF reading error: the section, the offset in it, and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// `.debug_info`, `.debug_line`, ...
    pub section: &'static str,
    /// Byte offset in the section.
    pub offset: u64,
    /// What went wrong.
    pub message: String,
}

impl Error {
    pub(crate) fn new(section: &'static str, offset: u64, message: impl Into<String>) -> Self {
        Error {
            section,
            offset,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} (at offset {:#x})",
            self.section, self.message, self.offset
        )
    }
}

impl std::error::Error for Error {}
