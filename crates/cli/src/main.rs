//! `brickyard`: the command-line front end.
//!
//! `main` only parses arguments and dispatches on [`Command`]; each
//! subcommand family lives in its own module (`circuit`, `bench`, …) with
//! its own argument enum, so new families (`demo`, `run`, `preprocess`,
//! `store`, `params`) are added without touching the others.

mod bench;
mod circuit;
mod compgc;
mod connect;
mod demo;
mod error;
mod limits;
mod localnet;
mod params;
mod preprocess;
mod run;
mod store;
mod tinytable;
mod tls;
mod twoparty;

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
    brickyard demo\n  \
    brickyard demo --circuit builtin:add32 --alice 5 --bob 7 --format int\n  \
    brickyard tls keygen --out alice.tls\n  \
    brickyard run --role alice --listen 0.0.0.0:7766 --circuit builtin:aes128 --input-file alice.in \\\n      \
    --cert alice.tls/cert.pem --cert-key alice.tls/key.pem --peer-fingerprint sha256:…\n  \
    brickyard bench --protocol yao --circuit builtin:aes128 --net lan\n  \
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
    /// Run 2PC with both parties in this process over loopback TCP.
    Demo(demo::DemoArgs),
    /// Run one party of a 2PC protocol, talking to the other over TCP.
    Run(run::RunCmdArgs),
    /// Run one party's preprocessing now and keep it in a store for later runs.
    Preprocess(preprocess::PreprocessArgs),
    /// Inspect preprocessing stores.
    #[command(subcommand)]
    Store(store::StoreCmd),
    /// Benchmarks: a protocol's phase table, or garbling / OT / parsing.
    Bench(bench::BenchArgs),
    /// Parameters a protocol derives from (k, s, sizes), e.g. LEGO's buckets.
    #[command(subcommand)]
    Params(params::ParamsCmd),
    /// TLS identities for runs between two machines: keygen, fingerprint.
    #[command(subcommand)]
    Tls(tls::TlsCmd),
}

fn main() -> ExitCode {
    // `--json` anywhere makes errors JSON too (also argument errors, which
    // clap reports before any subcommand's flags are known).
    let json = std::env::args_os().any(|a| a == "--json");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if json && e.use_stderr() => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            let err = CliError::Usage(first.trim_start_matches("error: ").to_string());
            println!("{}", err.to_json());
            return ExitCode::from(error::exit::USAGE);
        }
        Err(e) => e.exit(),
    };
    let dispatch = move || match cli.command {
        Command::Circuit(cmd) => circuit::run(cmd),
        Command::Demo(args) => demo::run(args),
        Command::Run(args) => run::run(args),
        Command::Preprocess(args) => preprocess::run(args),
        Command::Store(cmd) => store::run(cmd),
        Command::Bench(args) => bench::run(args),
        Command::Params(cmd) => params::run(cmd),
        Command::Tls(cmd) => tls::run(cmd),
    };
    // A panic is a bug: the hook has printed it; exit with the internal code.
    let Ok(result) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(dispatch)) else {
        if json {
            use std::io::Write;
            let v = serde_json::json!({"error": {"kind": "internal", "message": "internal error (panic)", "check": null, "exit_code": error::exit::INTERNAL}});
            let _ = writeln!(std::io::stdout(), "{v}");
        }
        return ExitCode::from(error::exit::INTERNAL);
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if json {
                println!("{}", e.to_json());
            } else {
                eprintln!("error: {e}");
            }
            ExitCode::from(e.exit_code())
        }
    }
}
