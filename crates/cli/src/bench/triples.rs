//! `brickyard bench triples`: TinyOT authenticated AND triples over
//! loopback TCP (both parties in this process, one thread each).

use crate::error::CliResult;
use brickyard_ot::tinyot::bench::bench_triples;
use serde_json::json;

/// Runs the benchmark and prints the rate (JSON schema in
/// `docs/bench-json.md`).
pub fn run(count: usize, as_json: bool) -> CliResult {
    let r = bench_triples(count)?;
    if as_json {
        println!(
            "{}",
            json!({"count": r.count, "triples_per_second": r.triples_per_second,
                   "bytes_per_triple": r.bytes_per_triple, "wall_ms": r.wall_ms,
                   "setup_ms": r.setup_ms, "bucket_size": r.bucket_size,
                   "alice_cpu_ns_per_triple": r.alice_cpu_ns_per_triple,
                   "bob_cpu_ns_per_triple": r.bob_cpu_ns_per_triple})
        );
    } else {
        println!(
            "AND triples: {} in {:.1} ms: {:.3} M triples/s, {:.1} bytes/triple, bucket size {} (setup {:.1} ms, not counted)",
            r.count,
            r.wall_ms,
            r.triples_per_second / 1e6,
            r.bytes_per_triple,
            r.bucket_size,
            r.setup_ms
        );
    }
    Ok(())
}
