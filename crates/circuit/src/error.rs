//! The crate-wide error type.

use crate::{EvalError, LibraryError, ParseError, ValidateError, ValueError};

/// Everything that can go wrong in this crate, one variant per source, so a
/// caller can match on the kind and still print a precise message.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading a circuit file failed.
    #[error("{path}: {source}")]
    Io {
        /// The path that could not be read.
        path: String,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// A circuit file did not parse.
    #[error("{path}: {source}")]
    Parse {
        /// The file that failed (empty when parsing from memory).
        path: String,
        /// What was wrong, with the line number.
        source: ParseError,
    },
    /// A circuit broke an IR invariant.
    #[error(transparent)]
    Invalid(#[from] ValidateError),
    /// Plaintext evaluation was given inputs that do not fit.
    #[error(transparent)]
    Eval(#[from] EvalError),
    /// An input value string did not parse or did not fit.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// A `builtin:` name was unknown or out of range.
    #[error(transparent)]
    Library(#[from] LibraryError),
}
