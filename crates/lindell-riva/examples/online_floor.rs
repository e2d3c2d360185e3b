//! The compute floor of Bob's online execution (Fig. A.3) on this machine:
//! what a bucket costs him with no waiting and no transport, so that a
//! measured online latency or throughput can be set beside the least it
//! could be with this evaluator. Alice garbles C and C'; Bob evaluates
//! the forms whose `E·y¹`, `E'·d¹` wires are inputs (`Setup::evaluated`),
//! on labels made from the full forms' labels by the encoding's XOR
//! network, as he makes them offline. Times, minimum over the
//! iterations: evaluating the bucket's `B` copies of C and `B'` copies of
//! C' side by side (`evaluate_many_side_by_side`), one copy at a time
//! (`evaluate`) and as the protocol does (`evaluate_many`, which picks
//! one of the two), the label-commitment checks of one execution
//! (`commit_blocks` over as many blocks as Bob checks online), and (not
//! in the floor: offline) making one bucket's encoded labels.
//!
//! `cargo run --release -p brickyard-lindell-riva --example online_floor --
//! [CIRCUIT] [N] [ITERATIONS] [BUCKETS]` (default `builtin:aes128 128
//! 200 32`; `BUCKETS` garbled buckets are used in turn for the cold-cache
//! row, as the protocol's buckets are; the
//! circuit's first input group is Alice's, the others Bob's).

use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_garble::{
    evaluate, evaluate_many, evaluate_many_side_by_side, GarblePlan, GarbledCircuit, Garbler, Keep,
};
use brickyard_lindell_riva::excom::{commit_blocks, Commitment};
use brickyard_lindell_riva::protocol::circuits::XorNet;
use brickyard_lindell_riva::protocol::{Agreed, Cheat, Setup};
use std::sync::Arc;
use std::time::Instant;

/// `copies` garblings of `plan` with random input labels.
fn garblings(plan: &GarblePlan, copies: usize, prg: &mut Prg) -> Vec<(GarbledCircuit, Vec<Block>)> {
    (0..copies)
        .map(|_| {
            let mut g = Garbler::from_prg(Prg::from_seed(prg.random_block()));
            let (gc, _, zero) = g.garble(plan, 0, Keep::Outputs).expect("garble");
            let bits = prg.random_bits(plan.input_wires().len());
            (gc, g.encode(&zero, &bits).expect("encode"))
        })
        .collect()
}

/// The labels of Bob's form from those of Alice's (`nx` wires of x, the
/// network's inputs, the public wires).
fn reduce(
    v: Vec<(GarbledCircuit, Vec<Block>)>,
    nx: usize,
    net: &XorNet,
) -> Vec<(GarbledCircuit, Vec<Block>)> {
    v.into_iter()
        .map(|(gc, l)| {
            let rows = net
                .apply_many(1, &l[nx..nx + net.inputs()], &mut Vec::new())
                .expect("labels")
                .remove(0);
            let mut r = l[..nx].to_vec();
            r.extend_from_slice(&rows);
            r.extend_from_slice(&l[nx + net.inputs()..]);
            (gc, r)
        })
        .collect()
}

fn refs(v: &[(GarbledCircuit, Vec<Block>)]) -> Vec<(&GarbledCircuit, &[Block])> {
    v.iter().map(|(g, l)| (g, &l[..])).collect()
}

type Jobs<'a> = [(&'a GarbledCircuit, &'a [Block])];

fn side(plan: &GarblePlan, jobs: &Jobs) {
    std::hint::black_box(evaluate_many_side_by_side(plan, jobs, Keep::Outputs).expect("eval"));
}

fn pick(plan: &GarblePlan, jobs: &Jobs) {
    std::hint::black_box(evaluate_many(plan, jobs, Keep::Outputs).expect("eval"));
}

/// Minimum ms of `f` over `iters` calls.
fn min_ms(iters: usize, mut f: impl FnMut()) -> f64 {
    (0..iters)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "builtin:aes128".into());
    let n: usize = args.next().map_or(128, |s| s.parse().expect("N"));
    let iters: usize = args.next().map_or(200, |s| s.parse().expect("iterations"));
    let cold: usize = args.next().map_or(32, |s| s.parse().expect("buckets"));
    let f = Arc::new(brickyard_circuit::resolve(&spec).expect("circuit"));
    let widths: Vec<usize> = f.inputs.iter().map(|g| g.wires.len()).collect();
    let alice: Vec<usize> = (0..widths[0]).collect();
    let bob: Vec<usize> = (widths[0]..widths.iter().sum()).collect();
    let agreed = Agreed::new(f, alice, bob, n, 40).expect("parameters");
    // Bob's setup only sends, so one end of a memory pair is enough.
    let (mut ch, _peer) = memory_pair();
    let mut prg = Prg::from_seed(Block(7));
    let st = Setup::bob_choose(&mut ch, &agreed, &mut prg, Cheat::None).expect("setup");
    let (b, b2, nx) = (st.b(), st.b2(), st.shape.x);
    let ev = st.evaluated().expect("Bob's forms");
    // Several buckets, used in turn: in the protocol a bucket's tables
    // arrived long before its execution and are not in cache.
    let buckets: Vec<_> = (0..cold)
        .map(|_| {
            (
                reduce(garblings(&st.plan, b, &mut prg), nx, &ev.net),
                reduce(garblings(&st.plan2, b2, &mut prg), nx, &ev.net2),
            )
        })
        .collect();
    let (c, c2) = &buckets[0];
    let (r, r2) = (refs(c), refs(c2));
    // Bob checks the labels of x (with openings) and of the public inputs
    // in every member: one 64-byte BLAKE3 block each.
    let checked = b * (st.shape.x + st.shape.public) + b2 * (st.shape2.x + st.shape2.public);
    let blocks = vec![[3u8; 64]; checked];
    let mut out = vec![Commitment([0; 32]); checked];
    let mut many = (f64::MAX, f64::MAX, f64::MAX);
    let mut chosen = (f64::MAX, f64::MAX);
    let mut one = (f64::MAX, f64::MAX);
    let mut rotating = Vec::with_capacity(iters);
    // Offline, per bucket: the encoded labels of every member from its
    // OT labels (as in Bob's step 5).
    let ot: Vec<Vec<Block>> = [ev.net.inputs() * b, ev.net2.inputs() * b2]
        .iter()
        .map(|&w| (0..w).map(|_| prg.random_block()).collect())
        .collect();
    let mut slots = Vec::new();
    let mut encode = f64::MAX;
    for i in 0..iters {
        let (c, c2) = &buckets[i % cold];
        let (rc, rc2) = (refs(c), refs(c2));
        rotating.push(min_ms(1, || {
            std::hint::black_box(evaluate_many(&ev.plan, &rc, Keep::Outputs).expect("eval"));
            std::hint::black_box(evaluate_many(&ev.plan2, &rc2, Keep::Outputs).expect("eval"));
        }));
        encode = encode.min(min_ms(1, || {
            let rows = ev.net.apply_many(b, &ot[0], &mut slots).expect("labels");
            std::hint::black_box(&rows);
            let rows = ev.net2.apply_many(b2, &ot[1], &mut slots).expect("labels");
            std::hint::black_box(&rows);
        }));
        many.0 = many.0.min(min_ms(1, || side(&ev.plan, &r)));
        many.1 = many.1.min(min_ms(1, || side(&ev.plan2, &r2)));
        chosen.0 = chosen.0.min(min_ms(1, || pick(&ev.plan, &r)));
        chosen.1 = chosen.1.min(min_ms(1, || pick(&ev.plan2, &r2)));
        many.2 = many.2.min(min_ms(1, || {
            commit_blocks(&blocks, &mut out);
            std::hint::black_box(&out);
        }));
        one.0 = one.0.min(min_ms(1, || {
            for (g, l) in &r {
                std::hint::black_box(evaluate(&ev.plan, g, l, Keep::Outputs).expect("eval"));
            }
        }));
        one.1 = one.1.min(min_ms(1, || {
            for (g, l) in &r2 {
                std::hint::black_box(evaluate(&ev.plan2, g, l, Keep::Outputs).expect("eval"));
            }
        }));
    }
    let ands = (b * st.plan.and_count()) as f64;
    let ands2 = (b2 * st.plan2.and_count()) as f64;
    println!(
        "{spec}, N = {n}: B = {b} copies of C ({} AND), B' = {b2} of C' ({} AND); AES backend {}",
        st.plan.and_count(),
        st.plan2.and_count(),
        brickyard_core::aes::backend_name()
    );
    let ratio = |p: &GarblePlan| {
        let prog = p.compact_program();
        prog.xors().len() as f64 / prog.ands().len().max(1) as f64
    };
    println!(
        "C : side by side {:.3} ms ({:.2} ns/AND), one at a time {:.3} ms ({:.2} ns/AND), \
         evaluate_many {:.3} ms; {:.1} XOR gates per AND, {} live slots",
        many.0,
        many.0 * 1e6 / ands,
        one.0,
        one.0 * 1e6 / ands,
        chosen.0,
        ratio(&ev.plan),
        ev.plan.live_slots()
    );
    println!(
        "C': side by side {:.3} ms ({:.2} ns/AND), one at a time {:.3} ms, evaluate_many {:.3} ms; \
         {:.1} XOR gates per AND, {} live slots",
        many.1,
        many.1 * 1e6 / ands2,
        one.1,
        chosen.1,
        ratio(&ev.plan2),
        ev.plan2.live_slots()
    );
    rotating.sort_by(f64::total_cmp);
    println!(
        "evaluate_many C and C', a different bucket each time (of {cold}): median {:.3} ms, min {:.3}",
        rotating[rotating.len() / 2],
        rotating[0]
    );
    println!(
        "label checks     {:.3} ms ({checked} BLAKE3 blocks)",
        many.2
    );
    println!(
        "offline, per bucket: labels of E·y¹, E'·d¹ from the OT labels {:.4} ms \
         ({} + {} XOR gates per member of C, C')",
        encode,
        ev.net.xors(),
        ev.net2.xors()
    );
    println!(
        "floor (Bob's compute per execution: evaluate_many of C and C' + label checks): {:.3} ms \
         ({iters} iterations, min each)",
        chosen.0 + chosen.1 + many.2
    );
}
