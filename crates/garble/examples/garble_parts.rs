//! The XOR gates of a real circuit's compact slot program timed alone
//! (no ANDs), ns per AND of the circuit: what the XOR kernel costs with
//! the plan's dependencies and working set, for A/B of the kernel and the
//! slot numbering. `cargo run --release -p brickyard-garble --example
//! garble_parts -- FILE [RUNS]` (minimum over RUNS, default 2 000).
//!
//! Also the AND side alone on the circuit's own structure: the same AND
//! gates, stages and folds with no XOR gates, through `garble_stages` /
//! `eval_stages` over all stages in one call (labels are garbage; only
//! the time counts), against the AES bound of 8 / 4 blocks per AND; and
//! the stages' sizes (ANDs per stage, XOR gates before each).

use brickyard_core::aes::halfgates::{SlotProgram, SlotXors};
use brickyard_core::Block;
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
    ands_alone(prog, runs);
}

/// `prog`'s ANDs, stages and folds without XOR gates, timed.
fn ands_alone(prog: &SlotProgram, runs: usize) {
    let n = prog.stages().len();
    // Without XORs an AND-less stage is empty; `BARE_DROP_EMPTY` drops
    // them, to see what the stage loop spends on them.
    let mut ends: Vec<[u32; 2]> = prog.stages().iter().map(|e| [0, e[1]]).collect();
    if std::env::var_os("BARE_DROP_EMPTY").is_some() {
        ends.dedup_by_key(|e| e[1]);
    }
    let nands = prog.ands().len();
    let mut sizes = [0usize; 10];
    let mut xs = [0usize; 6];
    for s in 0..n {
        sizes[prog.stages_ands(s..s + 1).len().min(9)] += 1;
        xs[(prog.stage_xors(s).len() / 10).min(5)] += 1;
    }
    println!("stages {n}: by ANDs (0..=8, 9+) {sizes:?}; by XOR gates (0-9, 10-19, …, 50+) {xs:?}");
    let bare = SlotProgram::new(prog.bound(), SlotXors::default(), prog.ands().to_vec())
        .and_then(|p| p.with_stages(ends))
        .expect("the program's own ANDs and stages");
    let folds = prog.folds(0..nands);
    let bare = if folds.is_empty() {
        bare
    } else {
        // The zero slot: what most fold records name (inputs that fold nothing).
        let mut count = std::collections::HashMap::new();
        for f in folds.iter().flatten() {
            *count.entry(*f / 16).or_insert(0usize) += 1;
        }
        let zero = count.into_iter().max_by_key(|e| e.1).map_or(0, |e| e.0);
        let slots = folds.iter().map(|f| f.map(|o| o / 16)).collect();
        bare.with_folds(slots, zero)
            .expect("the program's own folds")
    };
    let mut p = Prg::new();
    let mut w = p.random_blocks(bare.bound());
    let mut t = vec![Block::ZERO; 2 * nands];
    let delta = p.random_block().with_lsb(true);
    let time = |f: &mut dyn FnMut()| {
        let mut best = f64::MAX;
        for _ in 0..runs {
            let s = Instant::now();
            f();
            best = best.min(s.elapsed().as_nanos() as f64);
        }
        best / nands as f64
    };
    let m = bare.stages().len();
    let g = time(&mut || bare.garble_stages(&mut w, 0..m, delta, 1, &mut t));
    let tt = t.clone();
    let e = time(&mut || bare.eval_stages(&mut w, 0..m, &tt, 1));
    println!("ANDs alone in their stages, one call: garble {g:.2}, eval {e:.2} ns/AND");
}
