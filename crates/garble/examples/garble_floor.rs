//! What the half-gates kernels cost with no dependencies at all: a
//! synthetic slot program of stages of 8 AND gates, each after `X` XOR
//! gates per AND (random slots of a 2 048-slot input region; AND outputs go
//! to a region nothing reads), so no gate ever waits for another. Timed:
//! the XOR kernel alone, the AND kernels alone (over all ANDs in one call,
//! and stage by stage), and both through `garble_stages` / `eval_stages`
//! (XORs fed between the AES rounds), also with every AND input folded
//! (`SlotProgram::with_folds`: a second gather per input). This is the best any plan or schedule can do with these
//! kernels and that many XOR gates; `garble_min` on a real circuit adds
//! its dependencies.
//!
//! `FLOOR_VARY=random` (or `sorted`) draws each stage's XOR count from
//! 0..=2·X·8 in random (ascending) order, for the cost of uneven stages.
//!
//! `cargo run --release -p brickyard-garble --example garble_floor --
//! [XORS_PER_AND …]` (default 3.3 = AES-128's and 3.9 = SHA-256's 3-input
//! gates per AND after fusion); minimum over 3 000 runs of 1 600 ANDs.

use brickyard_core::aes::halfgates::{AndSlots, SlotProgram, SlotXors};
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use std::time::Instant;

const REGION: u32 = 2048;
const STAGES: usize = 200;
const GROUP: usize = 8;

/// XOR gates per stage: uniform `X · GROUP`, or (`vary`) drawn from
/// 0..=2·X·GROUP, as unevenly as real circuits' stages, in random order or
/// (`sorted`) ascending: the same work with predictable branches, so the
/// difference is what the stage loops lose to mispredicted branches.
fn stage_sizes(p: &mut Prg, xors_per_and: f64, vary: bool, sorted: bool) -> Vec<usize> {
    let per_stage = (xors_per_and * GROUP as f64).round() as usize;
    let mut v: Vec<usize> = (0..STAGES)
        .map(|_| {
            if vary {
                (p.random_block().0 % (2 * per_stage as u128 + 1)) as usize
            } else {
                per_stage
            }
        })
        .collect();
    if sorted {
        v.sort_unstable();
    }
    v
}

fn program(p: &mut Prg, sizes: &[usize], with_xors: bool) -> SlotProgram {
    let mut r = || p.random_block().0 as u32;
    let (mut xors, mut ands, mut ends) = (Vec::new(), Vec::new(), Vec::new());
    for (s, &per_stage) in sizes.iter().enumerate() {
        if with_xors {
            for _ in 0..per_stage {
                xors.push([r() % REGION, r() % REGION, r() % REGION, r() % REGION]);
            }
        }
        for g in 0..GROUP {
            ands.push(AndSlots {
                a: r() % REGION,
                b: r() % REGION,
                out: REGION + (s * GROUP + g) as u32 % REGION,
                flip: r() % 4,
            });
        }
        ends.push([xors.len() as u32, ands.len() as u32]);
    }
    SlotProgram::new(2 * REGION as usize, SlotXors::new(xors), ands)
        .and_then(|prog| prog.with_stages(ends))
        .expect("valid synthetic program")
}

fn min_ns(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_nanos() as f64);
    }
    best / (STAGES * GROUP) as f64
}

fn main() {
    let densities: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("XOR gates per AND"))
        .collect();
    let densities = if densities.is_empty() {
        vec![3.3, 3.9]
    } else {
        densities
    };
    let mut p = Prg::new();
    let delta = p.random_block().with_lsb(true);
    let runs = 3000;
    let vary = std::env::var("FLOOR_VARY").ok();
    for x in densities {
        let sizes = stage_sizes(&mut p, x, vary.is_some(), vary.as_deref() == Some("sorted"));
        let full = program(&mut p, &sizes, true);
        let ands_only = program(&mut p, &sizes, false);
        let mut w = p.random_blocks(full.bound());
        let mut t = vec![Block::ZERO; 2 * STAGES * GROUP];
        let n = full.stages().len();
        let xor_only = min_ns(runs, || full.run_xors(&mut w, 0..full.xors().len()));
        let all = 0..STAGES * GROUP;
        let g_one = min_ns(runs, || {
            ands_only.garble_ands(&mut w, all.clone(), delta, 1, 0, &mut t)
        });
        let e_one = min_ns(runs, || ands_only.eval_ands(&mut w, all.clone(), &t, 1, 0));
        let g_ands = min_ns(runs, || {
            ands_only.garble_stages(&mut w, 0..n, delta, 1, &mut t)
        });
        let g_both = min_ns(runs, || full.garble_stages(&mut w, 0..n, delta, 1, &mut t));
        let e_ands = min_ns(runs, || ands_only.eval_stages(&mut w, 0..n, &t, 1));
        let e_both = min_ns(runs, || full.eval_stages(&mut w, 0..n, &t, 1));
        // Every AND input folded (a second gather per input, as in
        // SHA-256's folded pieces), same XOR gates: the gathers' cost.
        let folds = (0..STAGES * GROUP)
            .map(|_| {
                let r = p.random_block().0;
                [r as u32 % REGION, (r >> 32) as u32 % REGION]
            })
            .collect();
        let folded = full
            .clone()
            .with_folds(folds, REGION)
            .expect("valid synthetic folds");
        let g_fold = min_ns(runs, || {
            folded.garble_stages(&mut w, 0..n, delta, 1, &mut t)
        });
        let e_fold = min_ns(runs, || folded.eval_stages(&mut w, 0..n, &t, 1));
        println!(
            "{x} XOR gates/AND, ns/AND: XORs alone {xor_only:.2} | garble: ANDs in one call \
             {g_one:.2}, in 8-AND stages {g_ands:.2}, stages with XORs {g_both:.2}, \
             + folded inputs {g_fold:.2} | eval: one call {e_one:.2}, stages {e_ands:.2}, \
             with XORs {e_both:.2}, + folded inputs {e_fold:.2}"
        );
    }
}
