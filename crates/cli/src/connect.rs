//! Opening the link to the peer for `run` and `preprocess`: mutual TLS
//! between machines, plain TCP on loopback (or when asked for by name).

use crate::error::CliError;
use brickyard_core::channel::tls::{Fingerprint, PeerIdentity, TlsOptions};
use brickyard_core::channel::{accept, connect, listen, tls, NetOptions};
use brickyard_core::Channel;
use clap::Args;
use std::path::PathBuf;
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
    /// TLS: this party's certificate (PEM; `brickyard tls keygen` makes one).
    /// With --cert-key and --peer-ca or --peer-fingerprint.
    #[arg(long, value_name = "PATH", requires = "cert_key", help_heading = "TLS")]
    pub cert: Option<PathBuf>,
    /// TLS: the private key of --cert (PEM; must not be readable by others).
    #[arg(long, value_name = "PATH", requires = "cert", help_heading = "TLS")]
    pub cert_key: Option<PathBuf>,
    /// TLS: the CA (or the peer's own self-signed certificate) that must have
    /// issued the peer's certificate.
    #[arg(
        long,
        value_name = "PATH",
        requires = "cert",
        conflicts_with = "peer_fingerprint",
        help_heading = "TLS"
    )]
    pub peer_ca: Option<PathBuf>,
    /// TLS: the SHA-256 fingerprint of the peer's certificate (sha256:HEX, as
    /// `brickyard tls fingerprint` prints it).
    #[arg(
        long,
        value_name = "sha256:HEX",
        requires = "cert",
        help_heading = "TLS"
    )]
    pub peer_fingerprint: Option<String>,
    /// TLS with --peer-ca: a DNS name (or IP address) the peer's certificate
    /// must carry; needed when the CA also issues certificates to others.
    #[arg(long, value_name = "NAME", requires = "peer_ca", help_heading = "TLS")]
    pub peer_name: Option<String>,
    /// Use plain TCP (unauthenticated, unencrypted) on a non-loopback address.
    /// Without TLS flags only loopback addresses are accepted.
    #[arg(long, conflicts_with = "cert", help_heading = "TLS")]
    pub plain: bool,
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
        if self.tls()?.is_none() && !self.plain && !is_loopback(addr) {
            return Err(brickyard_core::Error::config(format!(
                "{flag} {addr} is not a loopback address: between machines use TLS \
                 (--cert, --cert-key, and --peer-ca or --peer-fingerprint; \
                 `brickyard tls keygen` makes a certificate), or pass --plain to accept \
                 an unauthenticated, unencrypted channel"
            ))
            .into());
        }
        Ok(())
    }

    /// The TLS options the flags ask for (files loaded and checked), or
    /// `None` for plain TCP.
    pub fn tls(&self) -> Result<Option<TlsOptions>, CliError> {
        let (cert, key) = match (&self.cert, &self.cert_key) {
            (Some(c), Some(k)) => (c, k),
            (None, None) => return Ok(None),
            _ => {
                return Err(CliError::Usage(
                    "TLS needs both --cert and --cert-key".into(),
                ))
            }
        };
        let peer = match (&self.peer_ca, &self.peer_fingerprint) {
            (Some(ca), None) => PeerIdentity::ca_file(ca, self.peer_name.clone())?,
            (None, Some(fp)) => PeerIdentity::Pinned(fp.parse::<Fingerprint>()?),
            _ => return Err(CliError::Usage(
                "TLS needs the peer's identity: --peer-ca PATH or --peer-fingerprint sha256:HEX"
                    .into(),
            )),
        };
        Ok(Some(TlsOptions::from_files(cert, key, peer)?))
    }

    /// Connects (or accepts) and, with TLS, authenticates the peer. With
    /// `--listen`, prints the bound address to stderr first so scripts and
    /// tests can read the port; then prints what protects the channel.
    pub fn open(&self, who: &str) -> Result<Channel, CliError> {
        self.check()?;
        let tls = self.tls()?;
        let opts = NetOptions {
            read_timeout: Duration::from_secs(self.timeout),
            connect_timeout: Duration::from_secs(self.connect_timeout),
            accept_timeout: Duration::from_secs(self.connect_timeout),
            profile: None,
            spin: crate::localnet::spin_from_env()?,
        };
        let ch = match (&self.listen, &self.connect) {
            (Some(addr), _) => {
                let l = listen(addr)?;
                eprintln!(
                    "{who}: listening on {}",
                    l.local_addr().map_err(brickyard_core::Error::Io)?
                );
                match &tls {
                    Some(t) => tls::accept(&l, &opts, t)?,
                    None => accept(&l, &opts)?,
                }
            }
            (None, Some(addr)) => match &tls {
                Some(t) => tls::connect(addr, &opts, t)?,
                None => connect(addr, &opts)?,
            },
            (None, None) => {
                return Err(CliError::Usage(
                    "give --listen ADDR or --connect ADDR".into(),
                ))
            }
        };
        eprintln!("{who}: channel: {}", ch.security());
        Ok(ch)
    }
}

/// Whether `addr` (`HOST:PORT`) is on this machine only: a loopback IP
/// literal, `localhost`, or a name that resolves to loopback addresses only.
fn is_loopback(addr: &str) -> bool {
    use std::net::{IpAddr, ToSocketAddrs};
    let Some((host, _)) = addr.rsplit_once(':') else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = host.parse::<IpAddr>() {
        return ip.is_loopback();
    }
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match addr.to_socket_addrs() {
        Ok(addrs) => {
            let addrs: Vec<_> = addrs.collect();
            !addrs.is_empty() && addrs.iter().all(|a| a.ip().is_loopback())
        }
        Err(_) => false,
    }
}

/// Runs `f` while a progress bar for `progress` is drawn on stderr: only
/// when stderr is a terminal, not with `quiet` (JSON output), and only once
/// the work has taken more than half a second (short runs print no bar;
/// `BRICKYARD_PROGRESS_AFTER_MS` sets another threshold). The
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
    // Short runs print no bar; `BRICKYARD_PROGRESS_AFTER_MS` moves the
    // threshold (the terminal test sets 0: its work is shorter than the
    // default on a fast machine).
    let after = std::env::var("BRICKYARD_PROGRESS_AFTER_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(Duration::from_millis(500), Duration::from_millis);
    std::thread::scope(|s| {
        if draw {
            s.spawn(|| {
                let start = Instant::now();
                let mut bar: Option<(ProgressBar, &'static str)> = None;
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    let (d, t) = progress.get();
                    let stage = progress.stage();
                    if t == 0 || start.elapsed() < after {
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

#[cfg(test)]
mod tests {
    use super::is_loopback;

    #[test]
    fn loopback_addresses() {
        for a in [
            "127.0.0.1:7766",
            "127.1.2.3:0",
            "[::1]:7766",
            "localhost:7766",
        ] {
            assert!(is_loopback(a), "{a}");
        }
        for a in [
            "0.0.0.0:7766",
            "10.0.0.2:7766",
            "[::]:7766",
            "192.168.1.1:1",
            "nonsense",
        ] {
            assert!(!is_loopback(a), "{a}");
        }
    }
}
