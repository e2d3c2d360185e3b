//! The CLI's error type: every failure is printed as one `error: …` line.

/// What a subcommand can fail with.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Loading, parsing, evaluating or building a circuit failed.
    #[error(transparent)]
    Circuit(#[from] brickyard_circuit::Error),
    /// Writing an output file failed.
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
}

/// The result type of subcommands.
pub type CliResult = Result<(), CliError>;
