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

/// OTs per extension call, i.e. how a protocol would consume OTs in pieces:
/// the reused output buffer (4–8 MiB) stays in cache, and per-call overhead
/// (a flush, for chosen OT one round trip) is amortised over 2^18 OTs.
const STEP: usize = 1 << 18;

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
    /// CPU time of the sender's thread per OT in ns (Linux; `None`
    /// elsewhere): unlike wall time, barely affected by other processes.
    pub sender_cpu_ns_per_ot: Option<f64>,
    /// CPU time of the receiver's thread per OT in ns (Linux).
    pub receiver_cpu_ns_per_ot: Option<f64>,
}

/// CPU time consumed by the calling thread, from the scheduler's own
/// accounting (`/proc/thread-self/schedstat`, first field, in ns).
pub(crate) fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

pub(crate) fn per_ot(start: Option<u64>, end: Option<u64>, count: usize) -> Option<f64> {
    Some(end?.checked_sub(start?)? as f64 / count.max(1) as f64)
}

/// Runs `count` OTs of `kind` between two threads over loopback TCP.
pub fn bench_ot(kind: OtKind, count: usize) -> Result<BenchResult> {
    let listener = channel::listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions::default();
    let ropts = opts.clone();
    let t0 = Instant::now();
    let receiver = std::thread::spawn(move || -> Result<(Instant, u64, Option<f64>)> {
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
    let cpu0 = thread_cpu_ns();
    let step = count.min(STEP);
    let mut msgs =
        vec![(Block::ZERO, Block::ZERO); if kind == OtKind::Correlated { 0 } else { step }];
    let mut q = vec![Block::ZERO; if kind == OtKind::Correlated { step } else { 0 }];
    if kind == OtKind::Chosen {
        for (i, m) in msgs.iter_mut().enumerate() {
            *m = (Block(i as u128), Block(!(i as u128)));
        }
    }
    let mut left = count;
    while left > 0 {
        let m = left.min(STEP);
        match kind {
            OtKind::Random => sender.random_into(&mut ch, &mut msgs[..m])?,
            OtKind::Correlated => sender.correlated_into(&mut ch, &mut q[..m])?,
            OtKind::Chosen => sender.chosen(&mut ch, &msgs[..m])?,
        }
        left -= m;
    }
    let sender_end = Instant::now();
    let sender_cpu = per_ot(cpu0, thread_cpu_ns(), count);
    let sent = ch.stats().since(&before).bytes_sent;
    let (receiver_end, receiver_sent, receiver_cpu) = receiver
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
        sender_cpu_ns_per_ot: sender_cpu,
        receiver_cpu_ns_per_ot: receiver_cpu,
    })
}

fn run_receiver(
    ch: &mut Channel,
    kind: OtKind,
    count: usize,
) -> Result<(Instant, u64, Option<f64>)> {
    let mut prg = Prg::new();
    let mut receiver = IknpReceiver::setup(ch, &mut prg)?;
    let choices = prg.random_bits(count.min(STEP));
    let mut out = vec![Block::ZERO; choices.len()];
    let mut go = [0u8; 1];
    ch.recv_bytes(&mut go)?;
    let before = ch.stats();
    let cpu0 = thread_cpu_ns();
    let mut left = count;
    while left > 0 {
        let m = left.min(STEP);
        let (c, o) = (&choices[..m], &mut out[..m]);
        match kind {
            OtKind::Random => receiver.random_into(ch, c, o)?,
            OtKind::Correlated => receiver.correlated_into(ch, c, o)?,
            OtKind::Chosen => receiver.chosen_into(ch, c, o)?,
        }
        left -= m;
    }
    ch.flush()?;
    let cpu = per_ot(cpu0, thread_cpu_ns(), count);
    Ok((Instant::now(), ch.stats().since(&before).bytes_sent, cpu))
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
