//! Speed report (ignored by default; tests never assert speed):
//! `cargo test -p brickyard-garble --release --test bench -- --ignored --nocapture`

mod common;

use brickyard_garble::bench_garble;

#[test]
#[ignore]
fn bench_aes_and_sha256() {
    for name in ["aes_128.txt", "sha256.txt"] {
        let c = common::load_bristol(name);
        let r = bench_garble(&c, 30).unwrap();
        let plan = brickyard_garble::GarblePlan::new(&c).unwrap();
        println!(
            "{name}: {} wires, {} live slots",
            c.num_wires,
            plan.live_slots()
        );
        println!(
            "{name}: garble {:.2} ns/AND (min {:.2}), eval {:.2} ns/AND (min {:.2}) \
             ({} ANDs, {} batches, median of {})",
            r.garble_ns_per_and,
            r.garble_ns_per_and_min,
            r.eval_ns_per_and,
            r.eval_ns_per_and_min,
            r.and_gates,
            r.batches,
            r.iterations
        );
    }
}

#[test]
fn bench_runs_on_a_tiny_circuit() {
    let c = common::load_bristol("adder64.txt");
    let r = bench_garble(&c, 1).unwrap();
    assert_eq!(r.and_gates, 63);
    assert!(r.garble_ns_per_and > 0.0 && r.eval_ns_per_and > 0.0);
}
