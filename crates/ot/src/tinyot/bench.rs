//! `brickyard bench triples --count N`: authenticated AND triples between
//! two threads over loopback TCP (the TinyOT setup, i.e. 256 base OTs, is
//! reported separately as `setup_ms`).

use super::{Role, TinyOt};
use crate::bench::{per_ot, thread_cpu_ns};
use brickyard_core::channel::{self, NetOptions};
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Error, Result};
use serde::{Deserialize, Serialize};
use std::time::Instant;

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

fn party(
    ch: &mut Channel,
    role: Role,
    count: usize,
) -> Result<(f64, Instant, Instant, u64, Option<f64>)> {
    let t0 = Instant::now();
    let mut t = TinyOt::setup(ch, role, &mut Prg::new())?;
    let setup_ms = t0.elapsed().as_secs_f64() * 1e3;
    // Barrier so both clocks start together.
    match role {
        Role::Alice => {
            ch.send_bytes(&[1])?;
            ch.flush()?;
        }
        Role::Bob => ch.recv_bytes(&mut [0u8])?,
    }
    let before = ch.stats();
    let start = Instant::now();
    let cpu0 = thread_cpu_ns();
    let triples = t.and_triples(ch, count)?;
    std::hint::black_box(&triples);
    let cpu = per_ot(cpu0, thread_cpu_ns(), count);
    Ok((
        setup_ms,
        start,
        Instant::now(),
        ch.stats().since(&before).bytes_sent,
        cpu,
    ))
}

/// Generates `count` AND triples and reports the rate.
pub fn bench_triples(count: usize) -> Result<TriplesBenchResult> {
    let (_, _, bucket_size) = super::bucket::plan(40, count)?;
    let listener = channel::listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions::default();
    let bopts = opts.clone();
    let bob = std::thread::spawn(move || {
        let mut ch = channel::connect(&addr, &bopts)?;
        party(&mut ch, Role::Bob, count)
    });
    let mut ch = channel::accept(&listener, &opts)?;
    let (setup_ms, start_a, end_a, sent_a, cpu_a) = party(&mut ch, Role::Alice, count)?;
    let (_, start_b, end_b, sent_b, cpu_b) = bob
        .join()
        .map_err(|_| Error::config("benchmark thread panicked"))??;
    let secs = end_a
        .max(end_b)
        .duration_since(start_a.min(start_b))
        .as_secs_f64();
    Ok(TriplesBenchResult {
        count: count as u64,
        triples_per_second: count as f64 / secs,
        bytes_per_triple: (sent_a + sent_b) as f64 / count.max(1) as f64,
        wall_ms: secs * 1e3,
        setup_ms,
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
