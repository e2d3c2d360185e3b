//! `brickyard bench store`: how fast preprocessed material goes to and comes
//! back from this machine's disk through the store (MACs included).

use crate::error::{CliError, CliResult};
use std::path::Path;

/// Runs the benchmark in a scratch directory under `dir` (removed after).
pub fn run(dir: &Path, megabytes: u64, as_json: bool) -> CliResult {
    let r = brickyard_store::bench_throughput_report(dir, megabytes << 20)?;
    if as_json {
        println!(
            "{}",
            serde_json::to_string(&r).map_err(|e| CliError::Usage(e.to_string()))?
        );
    } else {
        println!(
            "{} MB of 32-byte records in {}",
            r.bytes >> 20,
            dir.display()
        );
        println!("write, durable (fsync)  {:6.2} GB/s", r.write_gb_s);
        println!("write, before fsync     {:6.2} GB/s", r.write_unsynced_gb_s);
        println!(
            "read, cold              {:6.2} GB/s{}",
            r.read_cold_gb_s,
            if r.cache_dropped {
                ""
            } else {
                "  (page cache could not be dropped)"
            }
        );
        println!("read, warm              {:6.2} GB/s", r.read_warm_gb_s);
    }
    Ok(())
}
