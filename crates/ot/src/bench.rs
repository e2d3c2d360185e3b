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

/// One benchmark measurement (the `--json` schema of `brickyard bench ot`),
/// for the semi-honest kinds here and, with `K =`
/// [`crate::kos::bench::MaliciousOtKind`], for KOS and Δ-ROT.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchResult<K = OtKind> {
    /// OT flavour measured.
    pub kind: K,
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
/// accounting (`/proc/thread-self/schedstat`, first field, in ns; `None`
/// where that file does not exist).
pub fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// One party's measurement of the timed part of a two-party benchmark.
pub(crate) struct Side {
    setup_ms: f64,
    start: Instant,
    end: Instant,
    sent: u64,
    cpu_ns: Option<u64>,
}

/// What both parties measured, combined: the harness every OT-style
/// benchmark here shares (IKNP, KOS, Δ-ROT, TinyOT triples).
pub(crate) struct Pair {
    /// The slower party's setup (base OTs), in ms.
    pub setup_ms: f64,
    /// From the earlier start to the later end of the timed part.
    pub secs: f64,
    /// Bytes both parties sent during the timed part.
    pub bytes: u64,
    first_cpu: Option<u64>,
    second_cpu: Option<u64>,
}

impl Pair {
    /// Thread CPU ns per item of the listening (first) and the connecting
    /// (second) party; `None` where Linux `schedstat` is unavailable.
    pub fn cpu_per_item(&self, items: usize) -> (Option<f64>, Option<f64>) {
        let per = |c: Option<u64>| c.map(|c| c as f64 / items.max(1) as f64);
        (per(self.first_cpu), per(self.second_cpu))
    }
}

/// Runs one party: `setup` untimed, then a one-byte start barrier (the
/// `leads` party sends it) so both clocks start together, then `work`,
/// timed in wall and thread-CPU time.
pub(crate) fn timed<S>(
    ch: &mut Channel,
    leads: bool,
    setup: impl FnOnce(&mut Channel) -> Result<S>,
    work: impl FnOnce(S, &mut Channel) -> Result<()>,
) -> Result<Side> {
    let t0 = Instant::now();
    let state = setup(ch)?;
    let setup_ms = t0.elapsed().as_secs_f64() * 1e3;
    if leads {
        ch.send_bytes(&[1])?;
        ch.flush()?;
    } else {
        ch.recv_bytes(&mut [0u8])?;
    }
    let before = ch.stats();
    let start = Instant::now();
    let cpu0 = thread_cpu_ns();
    work(state, ch)?;
    ch.flush()?;
    let cpu_ns = cpu0
        .zip(thread_cpu_ns())
        .and_then(|(a, b)| b.checked_sub(a));
    Ok(Side {
        setup_ms,
        start,
        end: Instant::now(),
        sent: ch.stats().since(&before).bytes_sent,
        cpu_ns,
    })
}

/// Both parties over loopback TCP: `first` accepts in this thread,
/// `second` connects from a new one.
pub(crate) fn on_loopback(
    first: impl FnOnce(&mut Channel) -> Result<Side>,
    second: impl FnOnce(&mut Channel) -> Result<Side> + Send + 'static,
) -> Result<Pair> {
    let listener = channel::listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions::default();
    let sopts = opts.clone();
    let handle = std::thread::spawn(move || {
        let mut ch = channel::connect(&addr, &sopts)?;
        second(&mut ch)
    });
    let mut ch = channel::accept(&listener, &opts)?;
    let a = first(&mut ch);
    drop(ch);
    let b = handle
        .join()
        .map_err(|_| Error::config("benchmark thread panicked"))?;
    let (a, b) = (a?, b?);
    Ok(Pair {
        setup_ms: a.setup_ms.max(b.setup_ms),
        secs: a
            .end
            .max(b.end)
            .duration_since(a.start.min(b.start))
            .as_secs_f64(),
        bytes: a.sent + b.sent,
        first_cpu: a.cpu_ns,
        second_cpu: b.cpu_ns,
    })
}

/// Runs `count` OTs of `kind` between two threads over loopback TCP.
pub fn bench_ot(kind: OtKind, count: usize) -> Result<BenchResult> {
    let step = count.min(STEP);
    let p = on_loopback(
        |ch| {
            timed(
                ch,
                true,
                |ch| IknpSender::setup(ch, &mut Prg::new()),
                |mut s, ch| send_ots(&mut s, ch, kind, count, step),
            )
        },
        move |ch| {
            timed(
                ch,
                false,
                |ch| {
                    let mut prg = Prg::new();
                    let r = IknpReceiver::setup(ch, &mut prg)?;
                    Ok((r, prg.random_bits(step)))
                },
                |(mut r, choices), ch| receive_ots(&mut r, ch, kind, count, &choices),
            )
        },
    )?;
    Ok(BenchResult::from_pair(kind, count, &p))
}

impl<K> BenchResult<K> {
    /// `count` OTs of `kind` timed by [`timed`] on both sides (the first
    /// party of the pair is the sender).
    pub(crate) fn from_pair(kind: K, count: usize, p: &Pair) -> Self {
        let (sender_cpu, receiver_cpu) = p.cpu_per_item(count);
        BenchResult {
            kind,
            count: count as u64,
            ots_per_second: count as f64 / p.secs,
            bytes_per_ot: p.bytes as f64 / count.max(1) as f64,
            extend_ms: p.secs * 1e3,
            setup_ms: p.setup_ms,
            sender_cpu_ns_per_ot: sender_cpu,
            receiver_cpu_ns_per_ot: receiver_cpu,
        }
    }
}

fn send_ots(
    s: &mut IknpSender,
    ch: &mut Channel,
    kind: OtKind,
    count: usize,
    step: usize,
) -> Result<()> {
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
            OtKind::Random => s.random_into(ch, &mut msgs[..m])?,
            OtKind::Correlated => s.correlated_into(ch, &mut q[..m])?,
            OtKind::Chosen => s.chosen(ch, &msgs[..m])?,
        }
        left -= m;
    }
    Ok(())
}

fn receive_ots(
    r: &mut IknpReceiver,
    ch: &mut Channel,
    kind: OtKind,
    count: usize,
    choices: &[bool],
) -> Result<()> {
    let mut out = vec![Block::ZERO; choices.len()];
    let mut left = count;
    while left > 0 {
        let m = left.min(STEP);
        let (c, o) = (&choices[..m], &mut out[..m]);
        match kind {
            OtKind::Random => r.random_into(ch, c, o)?,
            OtKind::Correlated => r.correlated_into(ch, c, o)?,
            OtKind::Chosen => r.chosen_into(ch, c, o)?,
        }
        left -= m;
    }
    Ok(())
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
