//! `brickyard bench commit`: commit and decommit cost per commitment.
//!
//! Both parties run in this process over an in-memory channel, each with
//! `threads` worker threads, so on a machine with C cores the two parties
//! share them (the paper's Table III ran the parties on two LAN hosts).
//! Times are wall-clock; the load average is reported because the machine
//! may be shared.

use crate::params::CommitParams;
use crate::{Committer, Receiver};
use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_core::{Error, Result};
use serde::Serialize;
use std::time::Instant;

/// Openings per message in the decommit measurement (bounds buffer sizes).
const OPEN_SLICE: usize = 1 << 16;

/// One measurement; the JSON field names are a documented interface
/// (`docs/protocols/commitments.md`).
#[derive(Clone, Debug, Serialize)]
pub struct CommitBench {
    /// Commitments γ (random values, the LEGO mode).
    pub count: usize,
    /// Worker threads per party.
    pub threads: usize,
    /// Wall time of the N base OTs (setup), ms.
    pub setup_ms: f64,
    /// Commit phase (corrections + consistency check), µs per commitment.
    pub commit_us: f64,
    /// As `commit_us`, with the base OTs amortised over γ.
    pub commit_us_with_base_ots: f64,
    /// Plain decommit of every commitment (K + N bits each), µs per commitment.
    pub decommit_us: f64,
    /// Batch decommit of every commitment (K bits each + one combination), µs.
    pub batch_decommit_us: f64,
    /// Bytes committer → receiver per commitment in the commit phase.
    pub commit_bytes: f64,
    /// Bytes per commitment of the plain decommit.
    pub decommit_bytes: f64,
    /// Bytes per commitment of the batch decommit (both directions).
    pub batch_decommit_bytes: f64,
    /// CPU time of both parties (all threads, user + system) in the commit
    /// phase, µs per commitment: less sensitive than wall time to other
    /// jobs on a shared machine.
    pub commit_cpu_us: f64,
    /// CPU time of both parties in the plain decommit, µs per commitment.
    pub decommit_cpu_us: f64,
    /// 1-minute load average when the run ended (other jobs on the machine).
    pub load_avg: Option<f64>,
}

/// Runs setup, `count` random commitments, then decommits them all (plain,
/// then batch) and reports per-commitment costs.
pub fn bench_commit(count: usize, threads: usize) -> Result<CommitBench> {
    if count == 0 {
        return Err(Error::config("count must be positive"));
    }
    let (mut ca, mut cb) = memory_pair();
    let ids: Vec<usize> = (0..count).collect();
    std::thread::scope(|s| {
        let ids = &ids;
        let h = s.spawn(move || -> Result<()> {
            let mut c = Committer::setup(&mut ca, &mut Prg::new(), CommitParams::default())?
                .with_threads(threads);
            // The OT sender finishes its key derivation after the receiver
            // returns; sync so that the commit timing starts clean.
            ca.send_bytes(&[1])?;
            ca.flush()?;
            c.commit_random(&mut ca, count)?;
            for part in ids.chunks(OPEN_SLICE) {
                c.open(&mut ca, part)?;
            }
            for part in ids.chunks(OPEN_SLICE) {
                c.batch_open(&mut ca, part)?;
            }
            Ok(())
        });
        let t0 = Instant::now();
        let mut r = Receiver::setup(&mut cb, &mut Prg::new(), CommitParams::default())?
            .with_threads(threads);
        cb.recv_bytes(&mut [0u8])?;
        let t1 = Instant::now();
        let c1 = cpu_seconds();
        let s1 = cb.stats();
        r.receive_commitments(&mut cb, count)?;
        let t2 = Instant::now();
        let c2 = cpu_seconds();
        let s2 = cb.stats();
        for part in ids.chunks(OPEN_SLICE) {
            r.verify_open(&mut cb, part)?;
        }
        let t3 = Instant::now();
        let c3 = cpu_seconds();
        let s3 = cb.stats();
        for part in ids.chunks(OPEN_SLICE) {
            r.verify_batch_open(&mut cb, part)?;
        }
        let t4 = Instant::now();
        let s4 = cb.stats();
        h.join()
            .map_err(|_| Error::config("committer thread panicked"))??;
        let per = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e6 / count as f64;
        let bytes = |d: brickyard_core::ChannelStats| {
            (d.bytes_received + d.bytes_sent) as f64 / count as f64
        };
        Ok(CommitBench {
            count,
            threads,
            setup_ms: (t1 - t0).as_secs_f64() * 1e3,
            commit_us: per(t1, t2),
            commit_us_with_base_ots: per(t0, t2),
            decommit_us: per(t2, t3),
            batch_decommit_us: per(t3, t4),
            commit_bytes: bytes(s2.since(&s1)),
            decommit_bytes: bytes(s3.since(&s2)),
            batch_decommit_bytes: bytes(s4.since(&s3)),
            commit_cpu_us: cpu_per(c1, c2, count),
            decommit_cpu_us: cpu_per(c2, c3, count),
            load_avg: load_avg(),
        })
    })
}

fn load_avg() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Process CPU time (user + system, all threads including finished ones)
/// from `/proc/self/stat`, in seconds (clock-tick resolution, 10 ms).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the whole line.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn cpu_per(a: Option<f64>, b: Option<f64>, count: usize) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => (b - a) * 1e6 / count as f64,
        _ => f64::NAN,
    }
}
