//! `brickyard store info`: what a store holds and what is left.

use crate::error::{CliError, CliResult};
use brickyard_store::StoreInfo;
use clap::Subcommand;
use std::path::PathBuf;

/// Store subcommands.
#[derive(Subcommand, Debug)]
pub enum StoreCmd {
    /// Moves a store and its key into one file encrypted under a passphrase
    /// (Argon2id + ChaCha20-Poly1305), to carry it to another machine. The
    /// store is verified first and refuses all use afterwards: a store must
    /// be usable in one place only, or indices would be handed out twice.
    #[command(
        after_help = "Example:\n  brickyard store export alice.store --out alice.bystore --passphrase-file pass.txt\n\
then on the other machine:\n  brickyard store import alice.bystore --store alice.store --passphrase-file pass.txt\n\
Without --passphrase-file the passphrase is read as one line from standard input."
    )]
    Export {
        /// The store directory.
        dir: PathBuf,
        /// The archive to write (must not exist).
        #[arg(long)]
        out: PathBuf,
        /// The store's key file, if not in the default place.
        #[arg(long)]
        key: Option<PathBuf>,
        /// Read the passphrase from the first line of this file.
        #[arg(long)]
        passphrase_file: Option<PathBuf>,
    },
    /// Unpacks an archive made by `store export` into a new store directory
    /// and its key (default place: $BRICKYARD_HOME/keys), then verifies it.
    #[command(
        after_help = "Example:\n  brickyard store import alice.bystore --store alice.store --passphrase-file pass.txt"
    )]
    Import {
        /// The archive.
        archive: PathBuf,
        /// The store directory to create (must not exist or be empty).
        #[arg(long)]
        store: PathBuf,
        /// Where to put the key, if not in the default place.
        #[arg(long)]
        key: Option<PathBuf>,
        /// Read the passphrase from the first line of this file.
        #[arg(long)]
        passphrase_file: Option<PathBuf>,
    },
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

/// The passphrase: the first line of `file`, or of standard input.
fn passphrase(file: Option<&std::path::Path>) -> Result<zeroize::Zeroizing<String>, CliError> {
    let mut line = zeroize::Zeroizing::new(String::new());
    match file {
        Some(f) => {
            let all = zeroize::Zeroizing::new(std::fs::read_to_string(f).map_err(|e| {
                CliError::Usage(format!("cannot read passphrase file {}: {e}", f.display()))
            })?);
            line.push_str(all.lines().next().unwrap_or(""));
        }
        None => {
            std::io::stdin()
                .read_line(&mut line)
                .map_err(|e| CliError::Usage(format!("cannot read the passphrase: {e}")))?;
        }
    }
    let trimmed = zeroize::Zeroizing::new(line.trim_end_matches(['\r', '\n']).to_string());
    if trimmed.chars().count() < 8 {
        return Err(CliError::Usage(
            "the passphrase must have at least 8 characters".into(),
        ));
    }
    Ok(trimmed)
}

/// Runs a store subcommand.
pub fn run(cmd: StoreCmd) -> CliResult {
    match cmd {
        StoreCmd::Export {
            dir,
            out,
            key,
            passphrase_file,
        } => {
            let pass = passphrase(passphrase_file.as_deref())?;
            let store = brickyard_store::Store::open_any(&dir, key.as_deref())?;
            let r = store.export(&out, pass.as_bytes())?;
            println!(
                "exported {} ({} files, {} bytes, key {}) to {}; this copy now refuses use",
                r.store.display(),
                r.files,
                r.bytes,
                r.key.display(),
                r.archive.display()
            );
            Ok(())
        }
        StoreCmd::Import {
            archive,
            store,
            key,
            passphrase_file,
        } => {
            let pass = passphrase(passphrase_file.as_deref())?;
            let r = brickyard_store::import(&archive, &store, key.as_deref(), pass.as_bytes())?;
            println!(
                "imported {} into {} (key {}), verified",
                r.archive.display(),
                r.store.display(),
                r.key.display()
            );
            Ok(())
        }
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
