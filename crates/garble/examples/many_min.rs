//! Minimum ns per AND of evaluating `COPIES` garblings of one circuit one
//! at a time (`evaluate`) and interleaved (`evaluate_many_side_by_side`), alternating
//! the two so both see the same machine load: `cargo run --release -p
//! brickyard-garble --example many_min -- FILE [COPIES] [ITERATIONS]
//! [pi-cache]`.

use brickyard_core::Block;
use brickyard_garble::{
    evaluate, evaluate_many_side_by_side, GarblePlan, GarbledCircuit, Garbler, Keep, Prg,
};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: many_min FILE [COPIES] [ITERATIONS]");
    let copies: usize = args.next().map_or(6, |s| s.parse().expect("copies"));
    let iters: usize = args.next().map_or(200, |s| s.parse().expect("iterations"));
    let circuit = brickyard_circuit::bristol::load(&path).expect("circuit");
    let plan = match args.next().as_deref() {
        Some("pi-cache") => GarblePlan::new_pi_cached(&circuit),
        _ => GarblePlan::new(&circuit),
    }
    .expect("plan");
    let mut prg = Prg::from_seed(Block(1));
    let made: Vec<_> = (0..copies)
        .map(|_| {
            let mut g = Garbler::from_prg(Prg::from_seed(prg.random_block()));
            let (gc, _, zero) = g.garble(&plan, 0, Keep::Outputs).expect("garble");
            let bits = prg.random_bits(circuit.input_width());
            (gc, g.encode(&zero, &bits).expect("encode"))
        })
        .collect();
    let jobs: Vec<(&GarbledCircuit, &[Block])> = made.iter().map(|(g, l)| (g, &l[..])).collect();
    let ands = (plan.and_count() * copies) as f64;
    let (mut one, mut many) = (f64::MAX, f64::MAX);
    for _ in 0..iters {
        let t = Instant::now();
        for (gc, l) in &jobs {
            std::hint::black_box(evaluate(&plan, gc, l, Keep::Outputs).expect("eval"));
        }
        one = one.min(t.elapsed().as_nanos() as f64 / ands);
        let t = Instant::now();
        std::hint::black_box(
            evaluate_many_side_by_side(&plan, &jobs, Keep::Outputs).expect("eval"),
        );
        many = many.min(t.elapsed().as_nanos() as f64 / ands);
    }
    println!("{path}: {copies} copies, min ns/AND: one at a time {one:.2}, interleaved {many:.2} ({iters} iterations)");
}
