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
    /// The secure channel failed: the peer's certificate is not the one
    /// expected, the peer refused ours, or a record failed its
    /// authentication tag (altered in transit).
    #[error("channel authentication failed: {0}")]
    Authentication(String),
    /// The peer stopped and told us why (an abort frame, see
    /// [`crate::channel::Abort`]).
    #[error("peer aborted: {} ({kind})", if reason.is_empty() { "no reason given" } else { reason.as_str() })]
    PeerAborted {
        /// The kind of the peer's error.
        kind: ErrorKind,
        /// The peer's short reason (bounded, control characters removed).
        reason: String,
    },
}

/// The kind of an [`Error`], without its details: what an abort frame
/// carries to the peer, and what the CLI maps to an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// [`Error::Io`].
    Io,
    /// [`Error::Timeout`].
    Timeout,
    /// [`Error::Malformed`].
    Malformed,
    /// [`Error::Cheating`].
    Cheating,
    /// [`Error::Exhausted`].
    Exhausted,
    /// [`Error::Config`].
    Config,
    /// [`Error::Storage`].
    Storage,
    /// [`Error::Disconnected`].
    Disconnected,
    /// [`Error::PeerAborted`].
    PeerAborted,
    /// [`Error::Authentication`].
    Authentication,
    /// A usage error above the core layer (bad arguments or input values).
    Usage,
}

impl ErrorKind {
    /// Kebab-case name, as in JSON errors.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Io => "io",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Malformed => "malformed",
            ErrorKind::Cheating => "cheating",
            ErrorKind::Exhausted => "exhausted",
            ErrorKind::Config => "config",
            ErrorKind::Storage => "storage",
            ErrorKind::Disconnected => "disconnected",
            ErrorKind::PeerAborted => "peer-aborted",
            ErrorKind::Usage => "usage",
            ErrorKind::Authentication => "authentication",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Error {
    /// This error's kind.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Io(_) => ErrorKind::Io,
            Error::Timeout(_) => ErrorKind::Timeout,
            Error::Malformed(_) => ErrorKind::Malformed,
            Error::Cheating { .. } => ErrorKind::Cheating,
            Error::Exhausted(_) => ErrorKind::Exhausted,
            Error::Config(_) => ErrorKind::Config,
            Error::Storage(_) => ErrorKind::Storage,
            Error::Disconnected(_) => ErrorKind::Disconnected,
            Error::PeerAborted { .. } => ErrorKind::PeerAborted,
            Error::Authentication(_) => ErrorKind::Authentication,
        }
    }
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
