//! Memory and disk a run needs, from the exact sizes of the setup (plans
//! of C and C', shapes, and B, M, B', M' by the lemmas), so the CLI can
//! refuse a run that cannot fit before it starts.
//!
//! | what | Alice | Bob |
//! |---|---|---|
//! | in memory, one process | every bundle's secret (`M + M'`), her OT pairs | every received bundle (tables and commitments), his OT keys |
//! | preprocessing into a store | the same (secrets are small: labels, openings) | one digest per bundle; bundles are spilled to disk until bucketing, then written one bucket at a time |
//! | online from a store | one bucket's secrets | one bucket's bundles |
//! | disk (preprocessing) | `N` bucket records of secrets | `N` bucket records of bundles, plus the spill file (all `M + M'` bundles) until bucketing ends |

use crate::params::S;
use crate::probe::ProbeSpec;
use crate::protocol::circuits::{Shape, D_BITS};
use crate::protocol::{Agreed, Setup};
use brickyard_core::prg::Prg;
use brickyard_core::Result;
use brickyard_driver::RunConfig;
use brickyard_garble::GarblePlan;

/// Where the material lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Preprocessing and executions in one process, buckets in memory.
    InMemory,
    /// `brickyard preprocess`: buckets streamed into a store.
    Preprocess,
    /// `brickyard run --store`: one bucket at a time from the store.
    Online,
}

/// Estimated peak bytes per party.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Alice's peak memory.
    pub alice_memory: u64,
    /// Bob's peak memory.
    pub bob_memory: u64,
    /// Alice's store (preprocessing only; else 0).
    pub alice_disk: u64,
    /// Bob's store and spill file (preprocessing only; else 0).
    pub bob_disk: u64,
}

impl Estimate {
    /// The larger party's memory.
    pub fn memory(&self) -> u64 {
        self.alice_memory.max(self.bob_memory)
    }
}

/// What Bob keeps of a bundle (`kept.rs`): its tables, decoding bits, two
/// label commitments per wire but one per OT-fed wire, two commitments.
fn public_bytes(plan: &GarblePlan, shape: Shape) -> u64 {
    (plan.table_blocks() * 16
        + plan.output_wires().len().div_ceil(8)
        + (shape.x + shape.public) * 64
        + shape.ot * 32
        + 64) as u64
}

fn secret_bytes(plan: &GarblePlan, shape: Shape) -> u64 {
    // `j`, m, λ and its opening, Δ, a 0-label per input wire, two
    // openings per wire of Alice's, the output 0-labels, one opening.
    (8 + shape.x.div_ceil(8)
        + 48
        + shape.inputs() * 16
        + shape.x * 32
        + plan.output_wires().len() * 16
        + 16) as u64
}

/// The estimate for `cfg` (its `executions` as `N`: for [`Mode::Online`]
/// an upper bound, since B only shrinks as the preprocessed `N` grows).
pub fn estimate(cfg: &RunConfig, mode: Mode) -> Result<Estimate> {
    let a = crate::party::agreed_for(cfg)?;
    let st = setup_for_sizes(&a)?;
    let (n, m, m2, b, b2) = (
        st.buckets() as u64,
        st.m() as u64,
        (st.total() - st.m()) as u64,
        st.b() as u64,
        st.b2() as u64,
    );
    let (pc, pc2) = (
        public_bytes(&st.plan, st.shape),
        public_bytes(&st.plan2, st.shape2),
    );
    let (sc, sc2) = (
        secret_bytes(&st.plan, st.shape),
        secret_bytes(&st.plan2, st.shape2),
    );
    let ots = st.ots_per_bucket() as u64 * n;
    // Garbling or evaluating one circuit: its tables and a label per wire.
    let work = (st.plan.table_blocks() * 16) as u64 * 2 + (1 << 20);
    let bucket_pub = b * pc + b2 * pc2;
    let bucket_sec = b * sc + b2 * sc2;
    let all_sec = m * sc + m2 * sc2;
    let all_pub = m * pc + m2 * pc2;
    Ok(match mode {
        Mode::InMemory => Estimate {
            alice_memory: all_sec + ots * 32 + work,
            bob_memory: all_pub + ots * 17 + work,
            alice_disk: 0,
            bob_disk: 0,
        },
        Mode::Preprocess => Estimate {
            alice_memory: all_sec + ots * 32 + work,
            bob_memory: (m + m2) * 40 + 2 * bucket_pub + ots * 17 + work,
            alice_disk: n * bucket_sec,
            bob_disk: all_pub + n * bucket_pub,
        },
        Mode::Online => Estimate {
            alice_memory: bucket_sec + work,
            bob_memory: 2 * bucket_pub + work,
            alice_disk: 0,
            bob_disk: 0,
        },
    })
}

/// A setup with a fresh `E`, `E'` of the sizes Bob would choose (the
/// sizes do not depend on his random choice).
fn setup_for_sizes(a: &Agreed) -> Result<Setup> {
    let mut prg = Prg::new();
    let spec = ProbeSpec::choose(a.bob.len(), a.s, &mut prg)?;
    let spec2 = ProbeSpec::choose(D_BITS, a.s, &mut prg)?;
    Setup::from_record(
        a,
        &crate::protocol::record::SetupRecord {
            executions: a.executions as u64,
            s: S,
            e: spec,
            e2: spec2,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aes(n: usize) -> RunConfig {
        let c = brickyard_circuit::library::builtin("aes128").unwrap();
        let mut cfg = RunConfig::new(std::sync::Arc::new(c)).unwrap();
        cfg.executions = n;
        cfg
    }

    /// N = 1024 × AES-128 preprocessed into a store fits in 24 GiB per
    /// party, and streaming is what makes Bob's side small: his peak with a
    /// store is far below holding every bundle, while his disk holds them.
    #[test]
    fn aes_1024_preprocessing_fits_in_24_gib() {
        let cfg = aes(1024);
        let mem = estimate(&cfg, Mode::InMemory).unwrap();
        let pre = estimate(&cfg, Mode::Preprocess).unwrap();
        let on = estimate(&cfg, Mode::Online).unwrap();
        println!("AES N=1024: in memory {mem:?}\npreprocess {pre:?}\nonline {on:?}");
        assert!(pre.memory() < 24 << 30, "{pre:?}");
        assert!(pre.bob_memory * 10 < mem.bob_memory, "{pre:?} vs {mem:?}");
        assert!(
            pre.bob_disk > mem.bob_memory,
            "Bob's store holds the bundles"
        );
        assert!(on.memory() < 64 << 20, "{on:?}");
        // Larger N: more of everything in memory mode.
        let mem2 = estimate(&aes(2048), Mode::InMemory).unwrap();
        assert!(mem2.bob_memory > mem.bob_memory);
    }
}
