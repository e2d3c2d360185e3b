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
    /// Checks the address is well formed (`HOST:PORT`), so a mistake such
    /// as `--connect 127.0.0.1` is reported at once instead of after
    /// `--connect-timeout` seconds of retrying.
    pub fn check(&self) -> Result<(), CliError> {
        let (flag, addr) = match (&self.listen, &self.connect) {
            (Some(a), _) => ("--listen", a),
            (None, Some(a)) => ("--connect", a),
            (None, None) => {
                return Err(CliError::Usage(
                    "give --listen ADDR or --connect ADDR".into(),
                ))
            }
        };
        let port_ok = addr
            .rsplit_once(':')
            .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if !port_ok {
            return Err(CliError::Usage(format!(
                "{flag} {addr}: expected HOST:PORT (e.g. 127.0.0.1:7766 or [::1]:7766)"
            )));
        }
        if self.timeout == 0 || self.connect_timeout == 0 {
            return Err(CliError::Usage(
                "--timeout and --connect-timeout must be at least 1 second".into(),
            ));
        }
        Ok(())
    }

    /// Connects (or accepts). With `--listen`, prints the bound address to
    /// stderr first so scripts and tests can read the port.
    pub fn open(&self, who: &str) -> Result<Channel, CliError> {
        self.check()?;
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

/// Runs `f` while a progress bar for `progress` is drawn on stderr: only
/// when stderr is a terminal, not with `quiet` (JSON output), and only once
/// the work has taken more than half a second (short runs print no bar). The
/// bar shows the current stage, done/total, the rate and the ETA.
pub fn with_progress<T>(
    progress: &brickyard_protocols::progress::Progress,
    quiet: bool,
    what: &str,
    f: impl FnOnce() -> T,
) -> T {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;
    let stop = AtomicBool::new(false);
    let draw = !quiet && std::io::stderr().is_terminal();
    std::thread::scope(|s| {
        if draw {
            s.spawn(|| {
                let start = Instant::now();
                let mut bar: Option<(ProgressBar, &'static str)> = None;
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    let (d, t) = progress.get();
                    let stage = progress.stage();
                    if t == 0 || start.elapsed() < Duration::from_millis(500) {
                        continue;
                    }
                    let fresh = bar.as_ref().is_none_or(|(_, st)| *st != stage);
                    if fresh {
                        if let Some((b, _)) = bar.take() {
                            b.finish_and_clear();
                        }
                        let b =
                            ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr());
                        b.set_style(
                            ProgressStyle::with_template(
                                "{msg} [{bar:16}] {human_pos}/{human_len} {per_sec} eta {eta}",
                            )
                            .unwrap_or_else(|_| ProgressStyle::default_bar()),
                        );
                        let label = if stage.is_empty() {
                            what.to_string()
                        } else {
                            format!("{what}: {stage}")
                        };
                        b.set_message(label);
                        bar = Some((b, stage));
                    }
                    if let Some((b, _)) = &bar {
                        b.set_length(t);
                        b.set_position(d);
                    }
                }
                if let Some((b, _)) = bar {
                    b.finish_and_clear();
                }
            });
        }
        let out = f();
        stop.store(true, Ordering::Relaxed);
        out
    })
}
