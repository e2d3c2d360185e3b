//! `brickyard bench ot --kind kos-correlated|kos-random|kos-chosen|delta-rot`:
//! the actively secure extensions measured like [`crate::bench`] measures
//! IKNP (both parties in two threads over loopback TCP; the extension is
//! timed, the base OTs are reported as `setup_ms`; thread CPU time per OT
//! from the scheduler, which a loaded machine barely inflates).

use crate::bench::{on_loopback, timed, BenchResult};
use crate::delta_rot::{DeltaRotReceiver, DeltaRotSender};
use crate::{KosReceiver, KosSender};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use serde::{Deserialize, Serialize};

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

/// One measurement: [`crate::bench::BenchResult`] over the malicious kinds.
pub type MaliciousOtResult = BenchResult<MaliciousOtKind>;

/// Runs `count` OTs of `kind` between two threads over loopback TCP.
pub fn bench_malicious_ot(kind: MaliciousOtKind, count: usize) -> Result<MaliciousOtResult> {
    let step = count.min(STEP);
    let p = on_loopback(
        |ch| {
            timed(
                ch,
                true,
                |ch| Sender::setup(ch, kind),
                |mut s, ch| s.run(ch, kind, count, step),
            )
        },
        move |ch| {
            timed(
                ch,
                false,
                |ch| Receiver::setup(ch, kind, step),
                |mut r, ch| r.run(ch, kind, count),
            )
        },
    )?;
    Ok(BenchResult::from_pair(kind, count, &p))
}

/// The sender's session: Δ-ROT or KOS.
enum Sender {
    DeltaRot(DeltaRotSender),
    Kos(KosSender),
}

impl Sender {
    fn setup(ch: &mut Channel, kind: MaliciousOtKind) -> Result<Sender> {
        let mut prg = Prg::new();
        Ok(if kind == MaliciousOtKind::DeltaRot {
            Sender::DeltaRot(DeltaRotSender::setup(ch, &mut prg, true)?)
        } else {
            Sender::Kos(KosSender::setup(ch, &mut prg)?)
        })
    }

    fn run(
        &mut self,
        ch: &mut Channel,
        kind: MaliciousOtKind,
        count: usize,
        step: usize,
    ) -> Result<()> {
        match self {
            Sender::DeltaRot(d) => {
                std::hint::black_box(d.extend(ch, count)?);
            }
            Sender::Kos(s) => {
                let mut q = vec![Block::ZERO; step];
                let mut pairs = vec![(Block::ZERO, Block::ZERO); step];
                let msgs: Vec<(Block, Block)> =
                    (0..step as u128).map(|i| (Block(i), Block(!i))).collect();
                let mut left = count;
                while left > 0 {
                    let m = left.min(STEP);
                    match kind {
                        MaliciousOtKind::KosCorrelated => s.correlated_into(ch, &mut q[..m])?,
                        MaliciousOtKind::KosRandom => s.random_into(ch, &mut pairs[..m])?,
                        _ => s.chosen(ch, &msgs[..m])?,
                    }
                    left -= m;
                }
            }
        }
        Ok(())
    }
}

/// The receiver's session and its random choice bits.
struct Receiver {
    session: ReceiverSession,
    choices: Vec<bool>,
}

enum ReceiverSession {
    DeltaRot(DeltaRotReceiver),
    Kos(KosReceiver),
}

impl Receiver {
    fn setup(ch: &mut Channel, kind: MaliciousOtKind, step: usize) -> Result<Receiver> {
        let mut prg = Prg::new();
        let session = if kind == MaliciousOtKind::DeltaRot {
            ReceiverSession::DeltaRot(DeltaRotReceiver::setup(ch, &mut prg)?)
        } else {
            ReceiverSession::Kos(KosReceiver::setup(ch, &mut prg)?)
        };
        Ok(Receiver {
            session,
            choices: prg.random_bits(step),
        })
    }

    fn run(&mut self, ch: &mut Channel, kind: MaliciousOtKind, count: usize) -> Result<()> {
        match &mut self.session {
            ReceiverSession::DeltaRot(d) => {
                std::hint::black_box(d.extend(ch, count)?);
            }
            ReceiverSession::Kos(r) => {
                let mut out = vec![Block::ZERO; self.choices.len()];
                let mut left = count;
                while left > 0 {
                    let m = left.min(STEP);
                    let (c, o) = (&self.choices[..m], &mut out[..m]);
                    match kind {
                        MaliciousOtKind::KosCorrelated => r.correlated_into(ch, c, o)?,
                        MaliciousOtKind::KosRandom => r.random_into(ch, c, o)?,
                        _ => r.chosen_into(ch, c, o)?,
                    }
                    left -= m;
                }
            }
        }
        Ok(())
    }
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
