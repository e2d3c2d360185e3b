//! `brickyard tls`: making a party's TLS identity and reading a
//! certificate's fingerprint, for `run`/`preprocess` between machines.

use crate::error::CliResult;
use brickyard_core::channel::tls::{generate, Fingerprint};
use clap::Subcommand;
use std::path::PathBuf;

/// TLS identities for two-machine runs.
#[derive(Subcommand, Debug)]
pub enum TlsCmd {
    /// Make this party's key and self-signed certificate: DIR/key.pem (mode
    /// 0600, never leaves this machine) and DIR/cert.pem (give it, or the
    /// printed fingerprint, to the peer).
    #[command(
        after_help = "Then, on each machine, with the peer's cert.pem or fingerprint:\n  \
brickyard run ... --cert DIR/cert.pem --cert-key DIR/key.pem --peer-fingerprint sha256:HEX\n  \
brickyard run ... --cert DIR/cert.pem --cert-key DIR/key.pem --peer-ca peer-cert.pem"
    )]
    Keygen {
        /// Directory for cert.pem and key.pem (created if missing; existing
        /// files are not overwritten).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The certificate's subject name (and DNS/IP subject alternative
        /// name, which the peer may check with --peer-name).
        #[arg(long, default_value = "brickyard")]
        name: String,
        /// Print the paths and the fingerprint as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print a certificate's SHA-256 fingerprint (for the peer's --peer-fingerprint).
    Fingerprint {
        /// A PEM certificate (the first one in the file counts).
        cert: PathBuf,
        /// Print it as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `tls` subcommand.
pub fn run(cmd: TlsCmd) -> CliResult {
    match cmd {
        TlsCmd::Keygen { out, name, json } => {
            let id = generate(&name)?;
            let (cert, key) = id.write_to(&out)?;
            if json {
                let v = serde_json::json!({
                    "cert": cert, "key": key, "fingerprint": id.fingerprint.to_string(),
                });
                println!("{v}");
            } else {
                println!("certificate: {}", cert.display());
                println!(
                    "private key: {} (mode 0600: keep it on this machine)",
                    key.display()
                );
                println!("fingerprint: {}", id.fingerprint);
            }
        }
        TlsCmd::Fingerprint { cert, json } => {
            let fp = Fingerprint::of_pem_file(&cert)?;
            if json {
                println!(
                    "{}",
                    serde_json::json!({"cert": cert, "fingerprint": fp.to_string()})
                );
            } else {
                println!("{fp}");
            }
        }
    }
    Ok(())
}
