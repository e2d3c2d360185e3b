//! `brickyard bench ihash`: sender-side label i-hashes per second per core
//! and verifications per second.
//!
//! Both parties run in this process over an in-memory channel. The sender
//! figure is Alice's thread CPU time in `hash_random` (PRG rows, parity
//! corrections, message transpose, check answers), so the peer's work and
//! the waits for its messages are not counted; the verification figure is
//! one thread calling [`crate::Verifier::verify`] on every (i-hash,
//! message) pair of the batch, wall time.

use crate::{Params, Receiver, Sender};
use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_core::{Error, Result};
use serde::Serialize;
use std::time::Instant;

/// One measurement; the JSON field names are a documented interface
/// (`docs/protocols/jimu.md`).
#[derive(Clone, Debug, Serialize)]
pub struct IhashBench {
    /// (n, ℓ, w, σ) and s of the measured set.
    pub params: Params,
    /// Messages per batch.
    pub count: usize,
    /// Timed batches (each figure is the median over them).
    pub runs: usize,
    /// Sender: label i-hashes per second per core (thread CPU time).
    pub sender_hashes_per_s: f64,
    /// Sender: the same over wall time (includes waiting for Bob).
    pub sender_wall_hashes_per_s: f64,
    /// Receiver: i-hashes per second, wall time of `hash_random`.
    pub receiver_hashes_per_s: f64,
    /// Verifications per second (one thread).
    pub verifications_per_s: f64,
    /// Bytes Alice → Bob per random i-hash.
    pub bytes_per_hash: f64,
    /// 1-minute load average when the run ended.
    pub load_avg: Option<f64>,
}

/// Runs Setup, one warm-up batch and `runs` timed batches of `count`
/// random messages, then verifies every pair of the last batch.
pub fn bench_ihash(p: Params, count: usize, runs: usize) -> Result<IhashBench> {
    if count == 0 || runs == 0 {
        return Err(Error::config("count and runs must be positive"));
    }
    let (mut ca, mut cb) = memory_pair();
    let alice = std::thread::spawn(move || -> Result<(Vec<f64>, Vec<f64>, crate::Rows, u64)> {
        let mut prg = Prg::new();
        let mut s = Sender::setup(&mut ca, &mut prg, p)?;
        s.hash_random(&mut ca, count)?;
        let (mut cpu, mut wall) = (Vec::new(), Vec::new());
        let mut last = None;
        let before = ca.stats();
        for _ in 0..runs {
            let (c0, t0) = (thread_cpu_seconds(), Instant::now());
            let m = s.hash_random(&mut ca, count)?;
            wall.push(t0.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (c0, thread_cpu_seconds()) {
                cpu.push(b - a);
            }
            last = Some(m);
        }
        let sent = ca.stats().since(&before).bytes_sent;
        Ok((cpu, wall, last.expect("runs > 0"), sent))
    });
    let mut prg = Prg::new();
    let mut r = Receiver::setup(&mut cb, &mut prg, p)?;
    r.hash_random(&mut cb, &mut prg, count)?;
    let mut rwall = Vec::new();
    let mut hashes = None;
    for _ in 0..runs {
        let t0 = Instant::now();
        hashes = Some(r.hash_random(&mut cb, &mut prg, count)?);
        rwall.push(t0.elapsed().as_secs_f64());
    }
    let (cpu, wall, msgs, sent) = alice
        .join()
        .map_err(|_| Error::config("sender thread panicked"))??;
    let hashes = hashes.expect("runs > 0");
    let v = r.verifier();
    let mut vt = Vec::new();
    for _ in 0..runs {
        let t0 = Instant::now();
        let ok = hashes
            .iter()
            .zip(msgs.iter())
            .filter(|(h, m)| v.verify(std::hint::black_box(h), m))
            .count();
        vt.push(t0.elapsed().as_secs_f64());
        if ok != count {
            return Err(Error::config("bench: an honest i-hash did not verify"));
        }
    }
    let rate = |mut secs: Vec<f64>| {
        secs.sort_by(f64::total_cmp);
        secs.get(secs.len() / 2).map_or(0.0, |s| count as f64 / s)
    };
    Ok(IhashBench {
        params: p,
        count,
        runs,
        sender_hashes_per_s: rate(cpu),
        sender_wall_hashes_per_s: rate(wall),
        receiver_hashes_per_s: rate(rwall),
        verifications_per_s: rate(vt),
        bytes_per_hash: sent as f64 / (runs * count) as f64,
        load_avg: load_avg(),
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

/// This thread's CPU time (user + system) from `/proc/thread-self/stat`,
/// in seconds (clock-tick resolution, 10 ms: batches should run ≥ 0.2 s).
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
