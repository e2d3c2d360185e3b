//! `brickyard bench ihash`: JIMU's interactive hash, sender-side label
//! i-hashes per second per core and verifications per second.

use crate::error::CliResult;
use brickyard_ihash::bench::bench_ihash;
use brickyard_ihash::Params;
use serde_json::json;

/// Runs the benchmark and prints one line (or one JSON object).
pub fn run(set: &str, k: u32, s: u32, count: usize, runs: usize, as_json: bool) -> CliResult {
    let p = match set {
        "labels" => Params::for_labels(k, s)?,
        _ => Params::for_permutation_strings(s)?,
    };
    let r = bench_ihash(p, count, runs)?;
    if as_json {
        println!(
            "{}",
            json!({"set": set, "n": p.n, "ell": p.ell, "w": p.w, "sigma": p.sigma, "s": p.s,
                   "count": r.count, "runs": r.runs,
                   "sender_hashes_per_s": r.sender_hashes_per_s,
                   "sender_wall_hashes_per_s": r.sender_wall_hashes_per_s,
                   "receiver_hashes_per_s": r.receiver_hashes_per_s,
                   "verifications_per_s": r.verifications_per_s,
                   "verifications_cpu_per_s": r.verifications_cpu_per_s,
                   "verifications_best_per_s": r.verifications_best_per_s,
                   "single_verifications_per_s": r.single_verifications_per_s,
                   "sender_floor_hashes_per_s": r.sender_floor_hashes_per_s,
                   "verify_floor_per_s": r.verify_floor_per_s,
                   "bytes_per_hash": r.bytes_per_hash, "load_avg": r.load_avg})
        );
    } else {
        println!(
            "ihash {set} (n, ℓ, w, σ) = ({}, {}, {}, {}), s = {}: {} messages × {} runs (median); \
             sender {:.2} M i-hashes/s per core (CPU; {:.2} M/s wall; floor {:.2} M/s: PRG rows + \
             output bytes only), receiver {:.2} M/s wall, {:.2} M verifications/s (batch, wall; {:.2} M/s CPU, best \
             {:.2} M/s; one call per pair {:.2} M/s; floor {:.2} M/s: reading the bytes); {:.1} bytes/i-hash; load {:?}",
            p.n,
            p.ell,
            p.w,
            p.sigma,
            p.s,
            r.count,
            r.runs,
            r.sender_hashes_per_s / 1e6,
            r.sender_wall_hashes_per_s / 1e6,
            r.sender_floor_hashes_per_s / 1e6,
            r.receiver_hashes_per_s / 1e6,
            r.verifications_per_s / 1e6,
            r.verifications_cpu_per_s / 1e6,
            r.verifications_best_per_s / 1e6,
            r.single_verifications_per_s / 1e6,
            r.verify_floor_per_s / 1e6,
            r.bytes_per_hash,
            r.load_avg
        );
    }
    Ok(())
}
