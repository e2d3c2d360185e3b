//! `brickyard store info`: what a store holds and what is left.

use crate::error::CliResult;
use brickyard_store::StoreInfo;
use clap::Subcommand;
use std::path::PathBuf;

/// Store subcommands.
#[derive(Subcommand, Debug)]
pub enum StoreCmd {
    /// Protocol, session, and material produced / consumed / burned / remaining per kind.
    #[command(after_help = "Example:\n  brickyard store info alice.store --json")]
    Info {
        /// The store directory.
        dir: PathBuf,
        /// The store's key file, if not in the default place.
        #[arg(long)]
        key: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a store subcommand.
pub fn run(cmd: StoreCmd) -> CliResult {
    match cmd {
        StoreCmd::Info { dir, key, json } => {
            let info = brickyard_store::info_with_key(&dir, key.as_deref())?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string(&info)
                        .map_err(|e| crate::error::CliError::Usage(e.to_string()))?
                );
            } else {
                print!("{}", render(&info));
            }
            Ok(())
        }
    }
}

/// The info as a small text table.
pub fn render(info: &StoreInfo) -> String {
    let mut s = format!(
        "store      {}
protocol   {}
role       {}
session    {}
format     v{}{}
",
        info.dir,
        info.protocol,
        info.role,
        info.session_id,
        info.format_version,
        if info.authenticated {
            ""
        } else {
            "\nWARNING    key not found: numbers are unauthenticated"
        }
    );
    for (k, v) in &info.parameters {
        s += &format!("param      {k} = {v}\n");
    }
    let w = info
        .kinds
        .iter()
        .map(|k| k.name.len())
        .max()
        .unwrap_or(0)
        .max(4);
    s += &format!(
        "{:<w$} {:>12} {:>12} {:>10} {:>12} {:>10}\n",
        "kind", "produced", "consumed", "burned", "remaining", "dropped"
    );
    for k in &info.kinds {
        s += &format!(
            "{:<w$} {:>12} {:>12} {:>10} {:>12} {:>10}\n",
            k.name, k.produced, k.consumed, k.burned, k.remaining, k.dropped
        );
    }
    s
}
