//! `brickyard bench ot --kind kos-correlated|kos-random|kos-chosen|delta-rot`:
//! the actively secure extensions measured like [`crate::bench`] measures
//! IKNP (both parties in two threads over loopback TCP; the extension is
//! timed, the base OTs are reported as `setup_ms`; thread CPU time per OT
//! from the scheduler, which a loaded machine barely inflates).

use crate::bench::{per_ot, thread_cpu_ns};
use crate::delta_rot::{DeltaRotReceiver, DeltaRotSender};
use crate::{KosReceiver, KosSender};
use brickyard_core::channel::{self, NetOptions};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// OTs per extension call (as in the IKNP bench): one KOS check batch.
const STEP: usize = 1 << 18;

/// Which malicious OT flavour to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MaliciousOtKind {
    /// KOS correlated OT (no hashing).
    #[serde(rename = "kos-correlated")]
    KosCorrelated,
    /// KOS random OT (TCCR-hashed).
    #[serde(rename = "kos-random")]
    KosRandom,
    /// KOS chosen-message OT.
    #[serde(rename = "kos-chosen")]
    KosChosen,
    /// LEGO Δ-ROT (168-column leaky extension + extraction), one extension.
    #[serde(rename = "delta-rot")]
    DeltaRot,
}

impl MaliciousOtKind {
    /// All kinds with their names.
    pub const ALL: [MaliciousOtKind; 4] = [
        MaliciousOtKind::KosCorrelated,
        MaliciousOtKind::KosRandom,
        MaliciousOtKind::KosChosen,
        MaliciousOtKind::DeltaRot,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            MaliciousOtKind::KosCorrelated => "kos-correlated",
            MaliciousOtKind::KosRandom => "kos-random",
            MaliciousOtKind::KosChosen => "kos-chosen",
            MaliciousOtKind::DeltaRot => "delta-rot",
        }
    }
}

impl std::str::FromStr for MaliciousOtKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        MaliciousOtKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| Error::config(format!("malicious OT kind `{s}` unknown")))
    }
}

/// One measurement; same fields as [`crate::bench::BenchResult`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MaliciousOtResult {
    /// Flavour measured.
    pub kind: MaliciousOtKind,
    /// Number of OTs.
    pub count: u64,
    /// `count` / wall time of the extension.
    pub ots_per_second: f64,
    /// Bytes both parties sent during the extension, per OT.
    pub bytes_per_ot: f64,
    /// Wall time of the extension in ms.
    pub extend_ms: f64,
    /// Wall time of the base OTs in ms.
    pub setup_ms: f64,
    /// Sender thread CPU ns per OT (Linux).
    pub sender_cpu_ns_per_ot: Option<f64>,
    /// Receiver thread CPU ns per OT (Linux).
    pub receiver_cpu_ns_per_ot: Option<f64>,
}

/// Runs `count` OTs of `kind` between two threads over loopback TCP.
pub fn bench_malicious_ot(kind: MaliciousOtKind, count: usize) -> Result<MaliciousOtResult> {
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
    let mut kos = None;
    let mut drot = None;
    if kind == MaliciousOtKind::DeltaRot {
        drot = Some(DeltaRotSender::setup(&mut ch, &mut prg, true)?);
    } else {
        kos = Some(KosSender::setup(&mut ch, &mut prg)?);
    }
    let setup_ms = t0.elapsed().as_secs_f64() * 1e3;
    ch.send_bytes(&[1])?;
    ch.flush()?;
    let before = ch.stats();
    let start = Instant::now();
    let cpu0 = thread_cpu_ns();
    if let Some(d) = drot.as_mut() {
        let q = d.extend(&mut ch, count)?;
        std::hint::black_box(q);
    } else if let Some(s) = kos.as_mut() {
        let step = count.min(STEP);
        let mut q = vec![Block::ZERO; step];
        let mut pairs = vec![(Block::ZERO, Block::ZERO); step];
        let msgs: Vec<(Block, Block)> = (0..step as u128).map(|i| (Block(i), Block(!i))).collect();
        let mut left = count;
        while left > 0 {
            let m = left.min(STEP);
            match kind {
                MaliciousOtKind::KosCorrelated => s.correlated_into(&mut ch, &mut q[..m])?,
                MaliciousOtKind::KosRandom => s.random_into(&mut ch, &mut pairs[..m])?,
                _ => s.chosen(&mut ch, &msgs[..m])?,
            }
            left -= m;
        }
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
    Ok(MaliciousOtResult {
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
    kind: MaliciousOtKind,
    count: usize,
) -> Result<(Instant, u64, Option<f64>)> {
    let mut prg = Prg::new();
    let mut kos = None;
    let mut drot = None;
    if kind == MaliciousOtKind::DeltaRot {
        drot = Some(DeltaRotReceiver::setup(ch, &mut prg)?);
    } else {
        kos = Some(KosReceiver::setup(ch, &mut prg)?);
    }
    let choices = prg.random_bits(count.min(STEP));
    let mut out = vec![Block::ZERO; choices.len()];
    let mut go = [0u8; 1];
    ch.recv_bytes(&mut go)?;
    let before = ch.stats();
    let cpu0 = thread_cpu_ns();
    if let Some(d) = drot.as_mut() {
        std::hint::black_box(d.extend(ch, count)?);
    } else if let Some(r) = kos.as_mut() {
        let mut left = count;
        while left > 0 {
            let m = left.min(STEP);
            let (c, o) = (&choices[..m], &mut out[..m]);
            match kind {
                MaliciousOtKind::KosCorrelated => r.correlated_into(ch, c, o)?,
                MaliciousOtKind::KosRandom => r.random_into(ch, c, o)?,
                _ => r.chosen_into(ch, c, o)?,
            }
            left -= m;
        }
    }
    ch.flush()?;
    let cpu = per_ot(cpu0, thread_cpu_ns(), count);
    Ok((Instant::now(), ch.stats().since(&before).bytes_sent, cpu))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_malicious_bench_runs_and_counts_bytes() {
        for kind in MaliciousOtKind::ALL {
            let r = bench_malicious_ot(kind, 5000).unwrap();
            assert_eq!(r.count, 5000);
            // u columns (16 B/OT, 21 B for 168 columns) plus the mask block,
            // the check answer and seed; chosen OT adds 32 B.
            let base = if kind == MaliciousOtKind::DeltaRot {
                21.0
            } else {
                16.0
            };
            let expect = base
                + if kind == MaliciousOtKind::KosChosen {
                    32.0
                } else {
                    0.0
                };
            assert!(
                r.bytes_per_ot >= expect && r.bytes_per_ot < expect + 2.0,
                "{r:?}"
            );
            assert_eq!(kind.name().parse::<MaliciousOtKind>().unwrap(), kind);
        }
    }
}
