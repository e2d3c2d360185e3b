//! `brickyard bench ot`: both parties in one process over loopback TCP, one
//! thread each, so the numbers include real socket costs but no network.
//!
//! The timed part is the extension only; the 128 base OTs of the session are
//! reported separately as `setup_ms` (they are paid once per session).

use crate::{IknpReceiver, IknpSender};
use brickyard_core::channel::{self, NetOptions};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// OTs per extension call: bounds the benchmark's memory (outputs of one
/// call are dropped before the next) while amortising per-call overhead.
const STEP: usize = 1 << 22;

/// Which OT flavour to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OtKind {
    /// Random OT: sender gets two hashed keys, receiver one.
    Random,
    /// Correlated OT in free-XOR form (no hashing).
    Correlated,
    /// Chosen-message OT (random OT plus one padded pair per OT).
    Chosen,
}

impl std::str::FromStr for OtKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "random" => Ok(OtKind::Random),
            "correlated" => Ok(OtKind::Correlated),
            "chosen" => Ok(OtKind::Chosen),
            _ => Err(Error::config(format!(
                "OT kind `{s}`: expected random|correlated|chosen"
            ))),
        }
    }
}

impl std::fmt::Display for OtKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OtKind::Random => "random",
            OtKind::Correlated => "correlated",
            OtKind::Chosen => "chosen",
        })
    }
}

/// One benchmark measurement (the `--json` schema of `brickyard bench ot`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchResult {
    /// OT flavour measured.
    pub kind: OtKind,
    /// Number of OTs extended.
    pub count: u64,
    /// `count` divided by the wall time of the extension (both parties).
    pub ots_per_second: f64,
    /// Bytes sent by both parties together during the extension, per OT.
    pub bytes_per_ot: f64,
    /// Wall time of the extension in milliseconds.
    pub extend_ms: f64,
    /// Wall time of the session setup (128 base OTs) in milliseconds.
    pub setup_ms: f64,
}

/// Runs `count` OTs of `kind` between two threads over loopback TCP.
pub fn bench_ot(kind: OtKind, count: usize) -> Result<BenchResult> {
    let listener = channel::listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions::default();
    let ropts = opts.clone();
    let t0 = Instant::now();
    let receiver = std::thread::spawn(move || -> Result<(Instant, u64)> {
        let mut ch = channel::connect(&addr, &ropts)?;
        run_receiver(&mut ch, kind, count)
    });
    let mut ch = channel::accept(&listener, &opts)?;
    let mut prg = Prg::new();
    let mut sender = IknpSender::setup(&mut ch, &mut prg)?;
    let setup_ms = t0.elapsed().as_secs_f64() * 1e3;
    // Start signal: the receiver begins extending once it reads this byte.
    ch.send_bytes(&[1])?;
    ch.flush()?;
    let before = ch.stats();
    let start = Instant::now();
    let mut msgs = Vec::new();
    if kind == OtKind::Chosen {
        msgs = (0..count.min(STEP) as u128)
            .map(|i| (Block(i), Block(!i)))
            .collect();
    }
    let mut left = count;
    while left > 0 {
        let m = left.min(STEP);
        match kind {
            OtKind::Random => drop(sender.random(&mut ch, m)?),
            OtKind::Correlated => drop(sender.correlated(&mut ch, m)?),
            OtKind::Chosen => sender.chosen(&mut ch, &msgs[..m])?,
        }
        left -= m;
    }
    let sender_end = Instant::now();
    let sent = ch.stats().since(&before).bytes_sent;
    let (receiver_end, receiver_sent) = receiver
        .join()
        .map_err(|_| Error::config("benchmark receiver thread panicked"))??;
    let secs = sender_end
        .max(receiver_end)
        .duration_since(start)
        .as_secs_f64();
    Ok(BenchResult {
        kind,
        count: count as u64,
        ots_per_second: count as f64 / secs,
        bytes_per_ot: (sent + receiver_sent) as f64 / count.max(1) as f64,
        extend_ms: secs * 1e3,
        setup_ms,
    })
}

fn run_receiver(ch: &mut Channel, kind: OtKind, count: usize) -> Result<(Instant, u64)> {
    let mut prg = Prg::new();
    let mut receiver = IknpReceiver::setup(ch, &mut prg)?;
    let choices = prg.random_bits(count.min(STEP));
    let mut go = [0u8; 1];
    ch.recv_bytes(&mut go)?;
    let before = ch.stats();
    let mut left = count;
    while left > 0 {
        let m = left.min(STEP);
        let c = &choices[..m];
        match kind {
            OtKind::Random => drop(receiver.random(ch, c)?),
            OtKind::Correlated => drop(receiver.correlated(ch, c)?),
            OtKind::Chosen => drop(receiver.chosen(ch, c)?),
        }
        left -= m;
    }
    ch.flush()?;
    Ok((Instant::now(), ch.stats().since(&before).bytes_sent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_bench_runs_and_counts_bytes() {
        for kind in [OtKind::Random, OtKind::Correlated, OtKind::Chosen] {
            let r = bench_ot(kind, 5000).unwrap();
            assert_eq!(r.count, 5000);
            assert!(r.ots_per_second > 0.0);
            // 16 bytes of u per OT (padded to 128-row chunks), plus 32 for chosen.
            let expect = if kind == OtKind::Chosen { 48.0 } else { 16.0 };
            assert!(
                r.bytes_per_ot >= expect && r.bytes_per_ot < expect + 1.0,
                "{r:?}"
            );
        }
        assert_eq!("chosen".parse::<OtKind>().unwrap(), OtKind::Chosen);
        assert!("x".parse::<OtKind>().is_err());
    }
}
