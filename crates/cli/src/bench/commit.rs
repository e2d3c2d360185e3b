//! `brickyard bench commit`: XOR-homomorphic commitments (FJNT16 / NST17),
//! µs per commitment to commit and to decommit, both parties in this process.

use crate::error::CliResult;
use brickyard_commit::bench::bench_commit;
use serde_json::json;

/// Runs the benchmark once and prints one line (or one JSON object).
pub fn run(count: usize, threads: usize, as_json: bool) -> CliResult {
    let r = bench_commit(count, threads)?;
    if as_json {
        println!(
            "{}",
            json!({"count": r.count, "threads": r.threads, "commit_us": r.commit_us,
                   "decommit_us": r.decommit_us, "commit_us_with_base_ots": r.commit_us_with_base_ots,
                   "batch_decommit_us": r.batch_decommit_us, "setup_ms": r.setup_ms,
                   "commit_cpu_us": r.commit_cpu_us, "decommit_cpu_us": r.decommit_cpu_us,
                   "commit_bytes": r.commit_bytes, "decommit_bytes": r.decommit_bytes,
                   "batch_decommit_bytes": r.batch_decommit_bytes, "load_avg": r.load_avg})
        );
    } else {
        println!(
            "{} commitments, {} thread(s)/party: commit {:.3} µs ({:.3} µs with {:.1} ms of base OTs), \
             decommit {:.3} µs, batch decommit {:.3} µs per commitment; CPU (both parties) commit {:.3} µs, \
             decommit {:.3} µs; {:.1} / {:.1} / {:.1} bytes; load {:?}",
            r.count,
            r.threads,
            r.commit_us,
            r.commit_us_with_base_ots,
            r.setup_ms,
            r.decommit_us,
            r.batch_decommit_us,
            r.commit_cpu_us,
            r.decommit_cpu_us,
            r.commit_bytes,
            r.decommit_bytes,
            r.batch_decommit_bytes,
            r.load_avg
        );
    }
    Ok(())
}
