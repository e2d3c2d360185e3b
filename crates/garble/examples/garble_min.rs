//! Minimum garble / evaluate ns per AND over many iterations (robust on a
//! busy machine): `cargo run --release -p brickyard-garble --example
//! garble_min -- FILE [ITERATIONS] [pi-cache]` (`pi-cache`: with the π
//! cache of `GarblePlan::new_pi_cached`, for comparison). The timing loop
//! is `brickyard bench garble`'s ([`brickyard_garble::bench_plan`]); this
//! prints its minima, which move less than medians under load.

use brickyard_garble::{bench_plan, GarblePlan};

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
    let r = bench_plan(&plan, iters).expect("garbling evaluates to valid output labels");
    let (b, j) = plan.pi_cache_use();
    println!(
        "{path}: min garble {:.2} ns/AND, min eval {:.2} ns/AND ({iters} iterations; π cache: {b} batches, {j} jobs)",
        r.garble_ns_per_and_min, r.eval_ns_per_and_min
    );
}
