//! The one error type of the readers in this crate.

use std::borrow::Cow;
use std::fmt;

/// A malformed-input error: what is wrong and the byte offset where it was found.
///
/// Displayed as `message (at offset 0x1c4)`. The offset is relative to the start of
/// the buffer handed to the reader that failed (for an ELF file: the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub offset: u64,
    pub message: Cow<'static, str>,
}

impl Error {
    pub fn new(offset: u64, message: impl Into<Cow<'static, str>>) -> Self {
        Error {
            offset,
            message: message.into(),
        }
    }

    /// The same error, with its offset moved by `base` (for a reader that ran on a
    /// sub-slice of the file).
    pub fn rebase(mut self, base: u64) -> Self {
        self.offset = self.offset.saturating_add(base);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at offset {:#x})", self.message, self.offset)
    }
}

impl std::error::Error for Error {}

/// Result with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
