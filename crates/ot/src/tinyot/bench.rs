//! `brickyard bench triples --count N`: authenticated AND triples between
//! two threads over loopback TCP (the TinyOT setup, i.e. 256 base OTs, is
//! reported separately as `setup_ms`).

use super::{Role, TinyOt};
use crate::bench::{on_loopback, timed};
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Result};
use serde::{Deserialize, Serialize};

/// One measurement (the `--json` schema of `brickyard bench triples`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TriplesBenchResult {
    /// Number of triples produced.
    pub count: u64,
    /// `count` / wall time (both parties).
    pub triples_per_second: f64,
    /// Bytes both parties sent, per triple.
    pub bytes_per_triple: f64,
    /// Wall time of the generation in ms.
    pub wall_ms: f64,
    /// Wall time of the setup (both KOS sessions' base OTs) in ms.
    pub setup_ms: f64,
    /// Bucket size the bound chose for this count.
    pub bucket_size: usize,
    /// Alice's thread CPU ns per triple (Linux).
    pub alice_cpu_ns_per_triple: Option<f64>,
    /// Bob's thread CPU ns per triple (Linux).
    pub bob_cpu_ns_per_triple: Option<f64>,
}

/// Generates `count` AND triples and reports the rate.
pub fn bench_triples(count: usize) -> Result<TriplesBenchResult> {
    let (_, _, bucket_size) = super::bucket::plan(40, count)?;
    let party = move |role: Role, ch: &mut Channel| {
        timed(
            ch,
            role == Role::Alice,
            |ch| TinyOt::setup(ch, role, &mut Prg::new()),
            |mut t, ch| {
                std::hint::black_box(t.and_triples(ch, count)?);
                Ok(())
            },
        )
    };
    let p = on_loopback(|ch| party(Role::Alice, ch), move |ch| party(Role::Bob, ch))?;
    let (cpu_a, cpu_b) = p.cpu_per_item(count);
    Ok(TriplesBenchResult {
        count: count as u64,
        triples_per_second: count as f64 / p.secs,
        bytes_per_triple: p.bytes as f64 / count.max(1) as f64,
        wall_ms: p.secs * 1e3,
        setup_ms: p.setup_ms,
        bucket_size,
        alice_cpu_ns_per_triple: cpu_a,
        bob_cpu_ns_per_triple: cpu_b,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn small_triples_bench_runs() {
        let r = super::bench_triples(2000).unwrap();
        assert_eq!(r.count, 2000);
        assert!(r.triples_per_second > 0.0);
        // At least the 3·B aBits per side (16 B each) per triple.
        assert!(
            r.bytes_per_triple > 2.0 * 3.0 * r.bucket_size as f64 * 16.0,
            "{r:?}"
        );
    }
}
