//! `brickyard bench ot`: OT extension rate over loopback TCP.

use crate::error::{CliError, CliResult};
use brickyard_ot::bench::{bench_ot, OtKind};
use brickyard_ot::kos::bench::{bench_malicious_ot, MaliciousOtKind};
use serde_json::json;

/// Runs the benchmark with both parties in two threads.
pub fn run(kind: &str, count: usize, as_json: bool) -> CliResult {
    let k = match kind {
        "random" => OtKind::Random,
        "correlated" => OtKind::Correlated,
        "chosen" => OtKind::Chosen,
        other => match other.parse::<MaliciousOtKind>() {
            Ok(m) => return run_malicious(m, count, as_json),
            Err(_) => return Err(CliError::Usage(format!("unknown OT kind `{other}`"))),
        },
    };
    let r = bench_ot(k, count)?;
    if as_json {
        println!(
            "{}",
            json!({"kind": kind, "count": r.count, "ots_per_second": r.ots_per_second,
                   "bytes_per_ot": r.bytes_per_ot, "extend_ms": r.extend_ms, "setup_ms": r.setup_ms,
                   "sender_cpu_ns_per_ot": r.sender_cpu_ns_per_ot,
                   "receiver_cpu_ns_per_ot": r.receiver_cpu_ns_per_ot})
        );
    } else {
        println!(
            "{kind} OT: {} OTs in {:.1} ms: {:.2} M OTs/s, {:.2} bytes/OT (base OTs {:.1} ms, not counted)",
            r.count,
            r.extend_ms,
            r.ots_per_second / 1e6,
            r.bytes_per_ot,
            r.setup_ms
        );
    }
    Ok(())
}

/// KOS and Δ-ROT kinds (`brickyard_ot::kos::bench`), same output shape.
fn run_malicious(kind: MaliciousOtKind, count: usize, as_json: bool) -> CliResult {
    let r = bench_malicious_ot(kind, count)?;
    let name = kind.name();
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
