//! `brickyard store info`: what a store holds and what is left.

use crate::error::CliResult;
use brickyard_store::StoreInfo;
use clap::Subcommand;
use std::path::PathBuf;

/// Store subcommands.
#[derive(Subcommand, Debug)]
pub enum StoreCmd {
    /// Checks the MAC of every record, the metadata and the secrets, without
    /// reserving or consuming anything: run it before a run to find a
    /// tampered or damaged store before material is burned on it.
    #[command(after_help = "Example:\n  brickyard store verify alice.store")]
    Verify {
        /// The store directory.
        dir: PathBuf,
        /// The store's key file, if not in the default place.
        #[arg(long)]
        key: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
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
        StoreCmd::Verify { dir, key, json } => {
            let mut store = brickyard_store::Store::open_any(&dir, key.as_deref())?;
            let report = store.verify();
            drop(store);
            let report = report?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string(&report)
                        .map_err(|e| crate::error::CliError::Usage(e.to_string()))?
                );
            } else {
                let records: u64 = report.kinds.iter().map(|k| k.2).sum();
                let chunks: u64 = report.kinds.iter().map(|k| k.1).sum();
                println!(
                    "store {}: OK — {records} records in {chunks} chunks of {} kinds and {} secrets verified; nothing was reserved",
                    dir.display(),
                    report.kinds.len(),
                    report.secrets
                );
                if let Some(c) = &report.closed {
                    println!("but the store refuses use: {c}");
                }
            }
            Ok(())
        }
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
    if let Some(c) = &info.closed {
        s += &format!("REFUSES USE {c}\n");
    }
    for (k, v) in &info.about {
        s += &format!("{k:<10} {v}\n");
    }
    for u in &info.units {
        let what = if u.name == "execution" {
            match info.about.get("circuit") {
                Some(c) => format!("executions of {c}"),
                None => "executions".to_string(),
            }
        } else {
            u.name.clone()
        };
        s += &format!("left       {} of {} {what}\n", u.left, u.made);
    }
    for (k, v) in &info.parameters {
        s += &format!("bound to   {k} = {v}\n");
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
