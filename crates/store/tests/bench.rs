//! The throughput benchmark runs (a small smoke size here; real numbers with
//! `BRICKYARD_STORE_BENCH_BYTES=2000000000 cargo test -p brickyard-store --release --test bench -- --ignored --nocapture`).

use brickyard_store::bench_throughput_report;

#[test]
fn bench_runs_and_cleans_up() {
    let d = tempfile::tempdir().unwrap();
    let r = bench_throughput_report(d.path(), 8 << 20).unwrap();
    assert_eq!(r.bytes, 8 << 20);
    assert!(r.write_gb_s > 0.0 && r.read_cold_gb_s > 0.0 && r.read_warm_gb_s > 0.0);
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        0,
        "bench left files behind"
    );
}

#[test]
#[ignore = "measures the disk; see the module doc for the command"]
fn bench_throughput_on_this_disk() {
    let bytes = std::env::var("BRICKYARD_STORE_BENCH_BYTES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1u64 << 30);
    let dir = std::env::var_os("BRICKYARD_STORE_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let r = bench_throughput_report(&dir, bytes).unwrap();
    println!("{}", serde_json::to_string(&r).unwrap());
}
