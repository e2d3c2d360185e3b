//! The CLI's error type: every failure is printed as one `error: …` line
//! (or, with `--json`, one JSON object on stdout) and ends the process with
//! an exit code that says what kind of failure it was (`docs/cli.md`).

use brickyard_core::Error;

/// What a subcommand can fail with.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Loading, parsing, evaluating or building a circuit failed.
    #[error(transparent)]
    Circuit(#[from] brickyard_circuit::Error),
    /// Reading or writing a file named on the command line failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A protocol run, the network or the store failed.
    #[error(transparent)]
    Protocol(#[from] brickyard_core::Error),
    /// The arguments are inconsistent with the circuit.
    #[error("{0}")]
    Usage(String),
    /// A child process failed (`bench versus` runs each party as one):
    /// its kind and exit code are passed on; the message carries its
    /// error and the end of its stderr.
    #[error("{message}")]
    Child {
        /// The child's `error.kind` (`internal` if it printed none).
        kind: &'static str,
        /// The child's exit code (`internal` if killed by a signal).
        code: u8,
        /// What failed, with the child's stderr.
        message: String,
    },
}

/// The exit codes, one per kind of failure (documented in `docs/cli.md`;
/// the CLI tests assert them).
pub mod exit {
    /// Internal error: a bug or an unexpected failure.
    pub const INTERNAL: u8 = 1;
    /// Bad arguments, unreadable input values or files named on the command line.
    pub const USAGE: u8 = 2;
    /// Invalid or insecure configuration, or settings that differ from the peer's.
    pub const CONFIG: u8 = 3;
    /// A protocol check failed: the peer cheated (or the link corrupted data).
    pub const CHEATING: u8 = 4;
    /// Network failure: could not connect, timed out, or the peer vanished.
    pub const NETWORK: u8 = 5;
    /// The store refused: exhausted, busy, missing key, corrupted or tampered.
    pub const STORE: u8 = 6;
    /// Malformed input: a circuit file, or bytes from the peer, do not parse.
    pub const MALFORMED: u8 = 7;
    /// The peer aborted and said why.
    pub const PEER_ABORTED: u8 = 8;
    /// Channel authentication failed: the peer's certificate does not match
    /// --peer-ca / --peer-fingerprint, the peer refused ours, or a TLS
    /// record was altered in transit.
    pub const AUTHENTICATION: u8 = 9;
}

impl CliError {
    /// A short name for the kind of failure (the `kind` of JSON errors).
    pub fn kind(&self) -> &'static str {
        match self {
            CliError::Circuit(_) => "malformed",
            CliError::Io { .. } | CliError::Usage(_) => "usage",
            CliError::Protocol(e) => e.kind().name(),
            CliError::Child { kind, .. } => kind,
        }
    }

    /// The process exit code for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Circuit(_) => exit::MALFORMED,
            CliError::Io { .. } | CliError::Usage(_) => exit::USAGE,
            CliError::Protocol(e) => match e {
                Error::Config(_) => exit::CONFIG,
                Error::Cheating { .. } => exit::CHEATING,
                Error::Io(_) | Error::Timeout(_) | Error::Disconnected(_) => exit::NETWORK,
                Error::Exhausted(_) | Error::Storage(_) => exit::STORE,
                Error::Malformed(_) => exit::MALFORMED,
                Error::PeerAborted { .. } => exit::PEER_ABORTED,
                Error::Authentication(_) => exit::AUTHENTICATION,
            },
            CliError::Child { code, .. } => *code,
        }
    }

    /// The name of the failed check, for a detected cheat.
    pub fn check(&self) -> Option<&'static str> {
        match self {
            CliError::Protocol(Error::Cheating { check }) => Some(check),
            _ => None,
        }
    }

    /// The JSON form printed with `--json`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": {
            "kind": self.kind(),
            "message": self.to_string(),
            "check": self.check(),
            "exit_code": self.exit_code(),
        }})
    }
}

/// The result type of subcommands.
pub type CliResult = Result<(), CliError>;
