//! The error type shared by the lower layers.
//!
//! Bytes from the peer or from a file must never cause a panic; they decode
//! into one of these variants instead, so that the caller can tell a network
//! fault from a malformed message from a detected cheat.

use std::fmt;

/// Errors raised by Brickyard's core layer and re-used by the layers above.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The operating system reported an I/O failure (socket, file).
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// A read or connect did not complete within its deadline.
    #[error("timed out: {0}")]
    Timeout(String),
    /// The peer (or a file) sent bytes that do not parse as the expected message.
    #[error("malformed input: {0}")]
    Malformed(String),
    /// A protocol check failed: the peer deviated from the protocol.
    #[error("cheating detected: check `{check}` failed")]
    Cheating {
        /// Name of the failed check, as named in the protocol's documentation.
        check: &'static str,
    },
    /// Preprocessed material is used up.
    #[error("preprocessed material exhausted: {0}")]
    Exhausted(String),
    /// Invalid configuration or insecure parameters were requested.
    #[error("configuration error: {0}")]
    Config(String),
    /// The preprocessing store is inconsistent, corrupted or tampered with.
    #[error("storage error: {0}")]
    Storage(String),
    /// The peer closed the connection before the protocol finished.
    #[error("peer disconnected: {0}")]
    Disconnected(String),
}

impl Error {
    /// Shorthand for [`Error::Malformed`] with a formatted message.
    pub fn malformed(msg: impl fmt::Display) -> Self {
        Error::Malformed(msg.to_string())
    }
    /// Shorthand for [`Error::Config`] with a formatted message.
    pub fn config(msg: impl fmt::Display) -> Self {
        Error::Config(msg.to_string())
    }
}

/// Result alias for [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
