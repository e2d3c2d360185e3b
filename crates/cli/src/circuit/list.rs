//! `brickyard circuit list`.

use crate::error::CliResult;

/// Prints each builtin with its description, aligned.
pub fn run() -> CliResult {
    let names = brickyard_circuit::builtin_names();
    let width = names.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (name, desc) in names {
        println!("builtin:{name:<width$}  {desc}");
    }
    Ok(())
}
