//! The XOR gates of a real circuit's compact slot program timed alone
//! (no ANDs), ns per AND of the circuit: what the XOR kernel costs with
//! the plan's dependencies and working set, for A/B of the kernel and the
//! slot numbering. `cargo run --release -p brickyard-garble --example
//! garble_parts -- FILE [RUNS]` (minimum over RUNS, default 2 000).

use brickyard_garble::{GarblePlan, Prg};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: garble_parts FILE [RUNS]");
    let runs: usize = args.next().map_or(2000, |s| s.parse().expect("runs"));
    let circuit = brickyard_circuit::bristol::load(&path).expect("circuit");
    let plan = GarblePlan::new(&circuit).expect("plan");
    let prog = plan.compact_program();
    let mut w = Prg::new().random_blocks(prog.bound());
    let n = prog.xors().len();
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        prog.run_xors(&mut w, 0..n);
        best = best.min(t.elapsed().as_nanos() as f64);
    }
    let ands = plan.and_count() as f64;
    println!(
        "{path}: XORs alone {:.2} ns/AND ({n} gates, {:.2} per AND, {} slots, {:.2} ns/gate)",
        best / ands,
        n as f64 / ands,
        prog.bound(),
        best / n as f64
    );
}
