//! Opening the TCP link to the peer for `run` and `preprocess`.

use crate::error::CliError;
use brickyard_core::channel::{accept, connect, listen, NetOptions};
use brickyard_core::Channel;
use clap::Args;
use std::time::Duration;

/// How this process reaches the other party.
#[derive(Args, Debug, Clone)]
pub struct PeerArgs {
    /// Wait for the peer on this address (e.g. 0.0.0.0:7766; port 0 picks one and prints it).
    #[arg(long, conflicts_with = "connect", required_unless_present = "connect")]
    pub listen: Option<String>,
    /// Connect to the peer at this address (e.g. 10.0.0.2:7766).
    #[arg(long)]
    pub connect: Option<String>,
    /// Seconds without progress before a read fails.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// Seconds to keep retrying --connect (or waiting in --listen).
    #[arg(long, default_value_t = 60)]
    pub connect_timeout: u64,
}

impl PeerArgs {
    /// Connects (or accepts). With `--listen`, prints the bound address to
    /// stderr first so scripts and tests can read the port.
    pub fn open(&self, who: &str) -> Result<Channel, CliError> {
        let opts = NetOptions {
            read_timeout: Duration::from_secs(self.timeout),
            connect_timeout: Duration::from_secs(self.connect_timeout),
            accept_timeout: Duration::from_secs(self.connect_timeout),
            profile: None,
            spin: crate::localnet::spin_from_env()?,
        };
        Ok(match (&self.listen, &self.connect) {
            (Some(addr), _) => {
                let l = listen(addr)?;
                eprintln!(
                    "{who}: listening on {}",
                    l.local_addr().map_err(brickyard_core::Error::Io)?
                );
                accept(&l, &opts)?
            }
            (None, Some(addr)) => connect(addr, &opts)?,
            (None, None) => {
                return Err(CliError::Usage(
                    "give --listen ADDR or --connect ADDR".into(),
                ))
            }
        })
    }
}

/// Draws a progress bar for `progress` until `done` is set.
pub fn with_progress<T>(
    progress: &brickyard_protocols::progress::Progress,
    quiet: bool,
    what: &str,
    f: impl FnOnce() -> T,
) -> T {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        if !quiet {
            s.spawn(|| {
                let bar = ProgressBar::new(0);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{msg} [{bar:30}] {pos}/{len} ({per_sec}, eta {eta})",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                bar.set_message(what.to_string());
                while !stop.load(Ordering::Relaxed) {
                    let (d, t) = progress.get();
                    bar.set_length(t);
                    bar.set_position(d);
                    std::thread::sleep(Duration::from_millis(100));
                }
                bar.finish_and_clear();
            });
        }
        let out = f();
        stop.store(true, Ordering::Relaxed);
        out
    })
}
