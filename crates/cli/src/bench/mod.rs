//! `brickyard bench …`: micro-benchmarks reporting medians. Each benchmark
//! is its own module here; `--json` output is a documented interface
//! (`docs/circuits.md` for `bench parse`).

mod parse;

use clap::Subcommand;

use crate::error::CliResult;

/// Benchmark subcommands.
#[derive(Subcommand, Debug)]
pub enum BenchCmd {
    /// Median time to parse a Bristol file (the file is read once, parsed
    /// --runs times from memory).
    #[command(
        after_help = "Example:\n  brickyard bench parse ../shared/circuits/bristol_fashion/sha256.txt --json"
    )]
    Parse {
        /// A Bristol file.
        circuit: String,
        /// Number of timed parses.
        #[arg(long, default_value_t = 11)]
        runs: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs one benchmark.
pub fn run(cmd: BenchCmd) -> CliResult {
    match cmd {
        BenchCmd::Parse {
            circuit,
            runs,
            json,
        } => parse::run(&circuit, runs, json),
    }
}

/// Median of durations in milliseconds (0 for none).
pub(crate) fn median_ms(mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    match ms.len() {
        0 => 0.0,
        n if n % 2 == 1 => ms[n / 2],
        n => (ms[n / 2 - 1] + ms[n / 2]) / 2.0,
    }
}
