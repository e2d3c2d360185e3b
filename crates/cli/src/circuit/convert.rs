//! `brickyard circuit convert`.

use crate::error::{CliError, CliResult};

/// Loads `input` (file or builtin) and writes it to `output` as Bristol Fashion.
pub fn run(input: &str, output: &str) -> CliResult {
    let c = super::load(input)?;
    let text = brickyard_circuit::write_bristol_fashion(&c);
    std::fs::write(output, text).map_err(|source| CliError::Io {
        path: output.to_string(),
        source,
    })
}
