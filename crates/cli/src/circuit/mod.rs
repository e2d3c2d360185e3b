//! `brickyard circuit …`: list, stats, eval, convert.

mod convert;
mod eval;
mod list;
mod stats;

use clap::{Subcommand, ValueEnum};

use crate::error::{CliError, CliResult};
use brickyard_circuit::{Circuit, ValueFormat};

/// Circuit subcommands. CIRCUIT is a Bristol file (either format, detected
/// automatically) or `builtin:NAME`.
#[derive(Subcommand, Debug)]
pub enum CircuitCmd {
    /// List the builtin circuits.
    #[command(after_help = "Examples:\n  brickyard circuit list\n  brickyard circuit list --json")]
    List {
        /// Print a JSON array of {"name", "description"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Gate counts, AND count and depth, input and output groups.
    #[command(after_help = "Examples:\n  brickyard circuit stats builtin:sha256\n  \
        brickyard circuit stats ../shared/circuits/bristol_fashion/aes_128.txt --json")]
    Stats {
        /// A Bristol file or builtin:NAME.
        circuit: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Evaluate in plaintext: one --input per input group, in group order.
    #[command(
        after_help = "Values: 0x… (hex integer, wire i = bit i), decimal, or b… (bit string, char k = wire k).\n\
        Examples:\n  \
        brickyard circuit eval builtin:aes128 --input 0x000102030405060708090a0b0c0d0e0f \\\n      \
        --input 0x00112233445566778899aabbccddeeff --format hex\n  \
        brickyard circuit eval builtin:levenshtein:6 --input 0x6b697474656e --input 0x73697474696e --format int"
    )]
    Eval {
        /// A Bristol file or builtin:NAME.
        circuit: String,
        /// A value for the next input group.
        #[arg(long = "input", value_name = "V")]
        inputs: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Hex)]
        format: Format,
        /// Print JSON instead of one line per output group.
        #[arg(long)]
        json: bool,
    },
    /// Write a circuit as Bristol Fashion.
    #[command(after_help = "Example:\n  brickyard circuit convert builtin:aes128 aes128.txt")]
    Convert {
        /// A Bristol file or builtin:NAME.
        input: String,
        /// The Bristol Fashion file to write.
        output: String,
    },
}

/// Value formats on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    /// `b` then one character per wire, wire 0 first.
    Bits,
    /// `0x` then ceil(width/4) hex digits.
    Hex,
    /// Unsigned decimal.
    Int,
}

impl From<Format> for ValueFormat {
    fn from(f: Format) -> Self {
        match f {
            Format::Bits => ValueFormat::Bits,
            Format::Hex => ValueFormat::Hex,
            Format::Int => ValueFormat::Int,
        }
    }
}

/// Resolves `builtin:NAME` or a file path.
pub(crate) fn load(spec: &str) -> Result<Circuit, CliError> {
    Ok(brickyard_circuit::resolve(spec)?)
}

/// Runs one circuit subcommand.
pub fn run(cmd: CircuitCmd) -> CliResult {
    match cmd {
        CircuitCmd::List { json } => list::run(json),
        CircuitCmd::Stats { circuit, json } => stats::run(&circuit, json),
        CircuitCmd::Eval {
            circuit,
            inputs,
            format,
            json,
        } => eval::run(&circuit, &inputs, format.into(), json),
        CircuitCmd::Convert { input, output } => convert::run(&input, &output),
    }
}
