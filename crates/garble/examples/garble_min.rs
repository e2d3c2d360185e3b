//! Minimum garble / evaluate ns per AND over many iterations (robust on a
//! busy machine): `cargo run --release -p brickyard-garble --example
//! garble_min -- FILE [ITERATIONS] [pi-cache]` (`pi-cache`: with the π
//! cache of `GarblePlan::new_pi_cached`, for comparison).

use brickyard_garble::{evaluate, garble_into, Delta, GarblePlan, GarbledCircuit, Garbler, Keep};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: garble_min FILE [ITERATIONS]");
    let iters: usize = args.next().map_or(2000, |s| s.parse().expect("iterations"));
    let variant = args.next();
    let circuit = brickyard_circuit::bristol::load(&path).expect("circuit");
    let plan = match variant.as_deref() {
        Some("pi-cache") => GarblePlan::new_pi_cached(&circuit),
        None => GarblePlan::new(&circuit),
        Some(other) => panic!("unknown variant {other} (expected pi-cache)"),
    }
    .expect("plan");
    let ands = plan.and_count() as f64;
    let mut g = Garbler::new();
    let delta: Delta = g.delta().clone();
    let zero = g.input_zero_labels(&plan);
    let mut gc = GarbledCircuit::default();
    let (mut bg, mut be) = (f64::MAX, f64::MAX);
    for i in 0..iters {
        let t0 = Instant::now();
        let out = garble_into(
            &plan,
            &delta,
            &zero,
            i as u64,
            Keep::Outputs,
            &mut gc.tables,
        )
        .unwrap();
        let t1 = Instant::now();
        gc.tweak_offset = i as u64;
        let res = evaluate(&plan, &gc, &zero, Keep::Outputs).unwrap();
        let t2 = Instant::now();
        brickyard_garble::decode_checked(&res.output_labels, &out.output_zero_labels, &delta)
            .expect("output labels authenticate");
        bg = bg.min((t1 - t0).as_nanos() as f64 / ands);
        be = be.min((t2 - t1).as_nanos() as f64 / ands);
    }
    let (b, j) = plan.pi_cache_use();
    println!(
        "{path}: min garble {bg:.2} ns/AND, min eval {be:.2} ns/AND ({iters} iterations; π cache: {b} batches, {j} jobs)"
    );
}
