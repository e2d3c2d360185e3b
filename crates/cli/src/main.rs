//! `brickyard`: the command-line front end.
//!
//! `main` only parses arguments and dispatches on [`Command`]; each
//! subcommand family lives in its own module (`circuit`, `bench`, …) with
//! its own argument enum, so new families (`demo`, `run`, `preprocess`,
//! `store`, `params`) are added without touching the others.

mod bench;
mod circuit;
mod error;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use error::CliError;

/// Secure two-party computation in the offline/online setting.
#[derive(Parser, Debug)]
#[command(
    name = "brickyard",
    version,
    about,
    after_help = "Examples:\n  \
    brickyard circuit list\n  \
    brickyard circuit stats builtin:aes128\n  \
    brickyard circuit eval builtin:add32 --input 5 --input 7 --format int\n  \
    brickyard bench parse ../shared/circuits/bristol_fashion/sha256.txt"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Top-level subcommand families.
#[derive(Subcommand, Debug)]
enum Command {
    /// Inspect, evaluate and convert Boolean circuits.
    #[command(subcommand)]
    Circuit(circuit::CircuitCmd),
    /// Micro-benchmarks.
    #[command(subcommand)]
    Bench(bench::BenchCmd),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Circuit(cmd) => circuit::run(cmd),
        Command::Bench(cmd) => bench::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
