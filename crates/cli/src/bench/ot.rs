//! `brickyard bench ot`: OT extension rate over loopback TCP.

use crate::error::{CliError, CliResult};
use brickyard_ot::bench::{bench_ot, BenchResult, OtKind};
use brickyard_ot::kos::bench::{bench_malicious_ot, MaliciousOtKind};
use serde_json::json;

/// Runs the benchmark with both parties in two threads: IKNP kinds here,
/// KOS and Δ-ROT kinds through `brickyard_ot::kos::bench`, one output shape.
pub fn run(kind: &str, count: usize, as_json: bool) -> CliResult {
    match kind {
        "random" => print(kind, &bench_ot(OtKind::Random, count)?, as_json),
        "correlated" => print(kind, &bench_ot(OtKind::Correlated, count)?, as_json),
        "chosen" => print(kind, &bench_ot(OtKind::Chosen, count)?, as_json),
        other => match other.parse::<MaliciousOtKind>() {
            Ok(m) => print(m.name(), &bench_malicious_ot(m, count)?, as_json),
            Err(_) => Err(CliError::Usage(format!("unknown OT kind `{other}`"))),
        },
    }
}

fn print<K>(name: &str, r: &BenchResult<K>, as_json: bool) -> CliResult {
    if as_json {
        println!(
            "{}",
            json!({"kind": name, "count": r.count, "ots_per_second": r.ots_per_second,
                   "bytes_per_ot": r.bytes_per_ot, "extend_ms": r.extend_ms, "setup_ms": r.setup_ms,
                   "sender_cpu_ns_per_ot": r.sender_cpu_ns_per_ot,
                   "receiver_cpu_ns_per_ot": r.receiver_cpu_ns_per_ot})
        );
    } else {
        println!(
            "{name} OT: {} OTs in {:.1} ms: {:.2} M OTs/s, {:.2} bytes/OT (base OTs {:.1} ms, not counted)",
            r.count,
            r.extend_ms,
            r.ots_per_second / 1e6,
            r.bytes_per_ot,
            r.setup_ms
        );
    }
    Ok(())
}
