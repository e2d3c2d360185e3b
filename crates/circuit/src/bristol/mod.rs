//! Bristol circuit files: the Bristol Fashion format and the old Bristol
//! format, told apart automatically, and a Bristol Fashion writer.
//!
//! See `docs/circuits.md` for the format, the detection rule and how `EQ`,
//! `EQW` and `MAND` are normalised into the IR.

mod lines;
mod parse;
mod write;

use std::path::Path;

pub use parse::{parse_bristol, parse_bristol_bytes, MAX_WIRES};
pub use write::write_bristol_fashion;

use crate::{Circuit, Error};

/// A file that is not a valid Bristol circuit: the 1-based line number and
/// what is wrong there (line 0 means "the file as a whole").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// 1-based line number of the offending line.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A token that should be a non-negative integer is not one (or does not
    /// fit in 32 bits).
    #[error("expected a number, found {0:?}")]
    NotANumber(String),
    /// The operation name is not one of XOR, AND, INV, NOT, EQ, EQW, MAND.
    #[error("unknown operation {0:?}")]
    UnknownOp(String),
    /// A wire number is not below the header's wire count.
    #[error("wire {wire} is out of range (the header declares {num_wires} wires)")]
    WireOutOfRange {
        /// The wire.
        wire: u64,
        /// The header's wire count.
        num_wires: u32,
    },
    /// A gate reads a wire that no input or earlier gate wrote.
    #[error("wire {0} is read before it is written")]
    ReadBeforeWrite(u32),
    /// A gate writes a wire that is an input or was already written.
    #[error("wire {0} is written twice")]
    WrittenTwice(u32),
    /// A gate's input/output counts do not match its operation or its
    /// number of tokens.
    #[error("{0}")]
    Arity(String),
    /// A header line is malformed or inconsistent.
    #[error("bad header: {0}")]
    Header(String),
    /// The file ends before the header's gate count is reached.
    #[error("truncated file: the header declares {expected} gates but only {found} are present")]
    Truncated {
        /// Gates declared.
        expected: u64,
        /// Gates found.
        found: u64,
    },
    /// Something follows the last declared gate.
    #[error("unexpected content after the {0} gates the header declares")]
    TrailingContent(u64),
    /// An `EQ` constant appears in a circuit with no input wire to derive it
    /// from (the IR has no constant wires).
    #[error("EQ constant in a circuit without inputs cannot be expressed in the IR")]
    ConstantWithoutInputs,
    /// An output wire is never written.
    #[error("output wire {0} is never written")]
    OutputNotWritten(u32),
    /// The header asks for more than [`MAX_WIRES`] wires.
    #[error("the header declares {0} wires, more than the supported {MAX_WIRES}")]
    TooLarge(u64),
}

/// Reads and parses a Bristol file (either format).
pub fn load(path: impl AsRef<Path>) -> Result<Circuit, Error> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: shown.clone(),
        source,
    })?;
    parse_bristol_bytes(&bytes).map_err(|source| Error::Parse {
        path: shown,
        source,
    })
}
