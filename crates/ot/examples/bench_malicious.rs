//! Measures the actively secure extensions and AND triples without the CLI:
//! `cargo run --release -p brickyard-ot --example bench_malicious -- [ot_count] [triple_count]`
use brickyard_ot::kos::bench::{bench_malicious_ot, MaliciousOtKind};
use brickyard_ot::tinyot::bench::bench_triples;

fn main() {
    let mut args = std::env::args().skip(1);
    let ots: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let triples: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    for kind in MaliciousOtKind::ALL {
        let n = if kind == MaliciousOtKind::DeltaRot {
            ots.min(2_000_000)
        } else {
            ots
        };
        let r = bench_malicious_ot(kind, n).expect("bench");
        println!("{}", serde_json::to_string(&r).unwrap());
    }
    let r = bench_triples(triples).expect("triples");
    println!("{}", serde_json::to_string(&r).unwrap());
}
