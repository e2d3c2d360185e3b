//! `brickyard bench ihash`: sender-side label i-hashes per second per core
//! and verifications per second.
//!
//! Both parties run in this process over an in-memory channel. The sender
//! figure is Alice's thread CPU time in `hash_random` (PRG rows, parity
//! corrections, message transpose, check answers), so the peer's work and
//! the waits for its messages are not counted; the verification figure is
//! one thread calling [`crate::Verifier::verify_batch`] on the whole batch
//! of (i-hash, message) pairs (one result per pair), wall time, and beside
//! it the same pairs through [`crate::Verifier::verify`] one call each.

use crate::layout::{fill_symbols, Rows, CHUNK};
use crate::{Params, Receiver, Sender};
use brickyard_core::channel::memory_pair;
use brickyard_core::cpu_time::thread_cpu_ns;
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
    /// Verifications per second (one thread, wall time), the batch through
    /// [`crate::Verifier::verify_batch`].
    pub verifications_per_s: f64,
    /// The same pairs through [`crate::Verifier::verify`], one call per
    /// pair (how a caller verifying one label at a time fares).
    pub single_verifications_per_s: f64,
    /// The batch figure over this thread's CPU time instead of wall time
    /// (median): what other processes on the core take does not count.
    pub verifications_cpu_per_s: f64,
    /// The batch figure of the fastest run (wall time).
    pub verifications_best_per_s: f64,
    /// The sender's floor on this machine, same thread, same clock: per
    /// chunk only the n AES-CTR PRG rows `hash_random` draws, one write
    /// of the ℓ message bytes into a fresh batch buffer and one copy of
    /// the n − ℓ correction bytes (what sending costs at least); no
    /// encoding, transpose or check. No encoding strategy beats it.
    pub sender_floor_hashes_per_s: f64,
    /// The verifier's floor: one pass reading every byte of every
    /// (i-hash, message) pair, no field arithmetic.
    pub verify_floor_per_s: f64,
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
    type AliceOut = (Vec<f64>, Vec<f64>, crate::Rows, u64, Vec<f64>);
    let alice = std::thread::spawn(move || -> Result<AliceOut> {
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
        let floor = sender_floor(&p, count, runs);
        Ok((cpu, wall, last.expect("runs > 0"), sent, floor))
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
    let (cpu, wall, msgs, sent, floor) = alice
        .join()
        .map_err(|_| Error::config("sender thread panicked"))??;
    let hashes = hashes.expect("runs > 0");
    let v = r.verifier();
    let (mut vt, mut vcpu) = (Vec::new(), Vec::new());
    let mut ok = vec![false; count];
    for _ in 0..runs {
        ok.fill(false);
        let (c0, t0) = (thread_cpu_ns(), Instant::now());
        v.verify_batch(std::hint::black_box(&hashes), &msgs, &mut ok);
        vt.push(t0.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (c0, thread_cpu_ns()) {
            vcpu.push((b - a) as f64 * 1e-9);
        }
        if !std::hint::black_box(&ok).iter().all(|&b| b) {
            return Err(Error::config("bench: an honest i-hash did not verify"));
        }
    }
    let mut st = Vec::new();
    for _ in 0..runs {
        let t0 = Instant::now();
        let ok = hashes
            .iter()
            .zip(msgs.iter())
            .filter(|(h, m)| v.verify(std::hint::black_box(h), m))
            .count();
        st.push(t0.elapsed().as_secs_f64());
        if ok != count {
            return Err(Error::config("bench: an honest i-hash did not verify"));
        }
    }
    let mut vfloor = Vec::new();
    for _ in 0..runs {
        let t0 = Instant::now();
        let mut acc = 0u64;
        for (h, m) in hashes.iter().zip(msgs.iter()) {
            let (h, m) = std::hint::black_box((h, m));
            acc ^= fold_bytes(h) ^ fold_bytes(m);
        }
        std::hint::black_box(acc);
        vfloor.push(t0.elapsed().as_secs_f64());
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
        verifications_per_s: rate(vt.clone()),
        verifications_cpu_per_s: rate(vcpu),
        verifications_best_per_s: vt
            .iter()
            .copied()
            .reduce(f64::min)
            .map_or(0.0, |s| count as f64 / s),
        single_verifications_per_s: rate(st),
        sender_floor_hashes_per_s: rate(floor),
        verify_floor_per_s: rate(vfloor),
        bytes_per_hash: sent as f64 / (runs * count) as f64,
        load_avg: load_avg(),
    })
}

/// `runs` timings (thread CPU seconds) of the sender's floor for `count`
/// messages (see [`IhashBench::sender_floor_hashes_per_s`]): the same
/// chunking, PRG fill and fresh output buffer as `Sender::hash_random`.
fn sender_floor(p: &Params, count: usize, runs: usize) -> Vec<f64> {
    let (n, ell) = (p.n, p.ell);
    let total = count + p.xi();
    let field = p.field();
    let mut prgs: Vec<Prg> = (0..n).map(|_| Prg::new()).collect();
    let mut chunk = zeroize::Zeroizing::new(vec![0u8; n * CHUNK]);
    let mut sink = vec![0u8; (n - ell) * CHUNK];
    let mut secs = Vec::new();
    for _ in 0..runs {
        let c0 = thread_cpu_seconds();
        let mut msgs = Rows::zeroed(total, ell);
        let stride = msgs.stride();
        let mut t = 0;
        while t < total {
            let len = CHUNK.min(total - t);
            for (row, prg) in chunk[..n * len].chunks_exact_mut(len).zip(&mut prgs) {
                fill_symbols(prg, row, field);
            }
            let (sys, par) = chunk[..n * len].split_at(ell * len);
            msgs.padded_mut()[t * stride..t * stride + ell * len].copy_from_slice(sys);
            sink[..par.len()].copy_from_slice(par);
            std::hint::black_box(&sink);
            t += len;
        }
        std::hint::black_box(&msgs);
        drop(msgs);
        if let (Some(a), Some(b)) = (c0, thread_cpu_seconds()) {
            secs.push(b - a);
        }
    }
    secs
}

/// XOR of the bytes as little-endian words (a read of every byte).
fn fold_bytes(x: &[u8]) -> u64 {
    let mut words = x.chunks_exact(8);
    let mut acc = words.by_ref().fold(0u64, |a, w| {
        a ^ u64::from_le_bytes(w.try_into().expect("8 bytes"))
    });
    for &b in words.remainder() {
        acc ^= u64::from(b);
    }
    acc
}

fn load_avg() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// This thread's CPU time in seconds: from `/proc/thread-self/schedstat`
/// (nanoseconds on the CPU, brought up to date at scheduler ticks and
/// switches, so within a tick, ≤ 4 ms) where the kernel has it, else
/// user + system from `/proc/thread-self/stat` (10 ms ticks). Batches
/// should run ≥ 0.1 s (10^6 label messages take ~0.1 s here).
fn thread_cpu_seconds() -> Option<f64> {
    if let Some(ns) = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
    {
        return Some(ns as f64 * 1e-9);
    }
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_reports_rates_and_floors() {
        let p = Params::for_labels(88, 40).unwrap();
        let b = bench_ihash(p, 2_500, 1).unwrap();
        // The CPU clock moves in scheduler ticks, so a batch this small
        // may read 0 s and give an infinite rate; never zero or NaN.
        for r in [b.sender_hashes_per_s, b.sender_floor_hashes_per_s] {
            assert!(r > 0.0, "{b:?}");
        }
        for r in [
            b.verifications_per_s,
            b.single_verifications_per_s,
            b.verify_floor_per_s,
        ] {
            assert!(r.is_finite() && r > 0.0, "{b:?}");
        }
        assert_eq!(b.bytes_per_hash.round(), 54.0);
        assert!(bench_ihash(p, 0, 1).is_err());
    }

    #[test]
    fn fold_bytes_reads_every_byte() {
        let x: Vec<u8> = (1..=21).collect();
        let mut words = 0u64;
        for (i, &b) in x.iter().enumerate().take(16) {
            words ^= u64::from(b) << (8 * (i % 8));
        }
        for &b in &x[16..] {
            words ^= u64::from(b);
        }
        assert_eq!(fold_bytes(&x), words);
        assert_ne!(fold_bytes(&x), fold_bytes(&x[..20]));
    }
}
