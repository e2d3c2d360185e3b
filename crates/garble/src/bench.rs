//! The garbling micro-benchmark behind `brickyard bench garble`.
//!
//! One core, no network: garbling into memory and evaluating from memory,
//! each timed over the whole circuit (XOR and INV work included) and divided
//! by the number of AND gates, which is the unit papers and emp-toolkit use.

use crate::{
    decode_checked, evaluate, garble_into, Delta, GarblePlan, GarbledCircuit, Garbler, Keep,
};
use brickyard_circuit::Circuit;
use brickyard_core::Result;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Medians over the timed iterations (JSON field names are a stable interface).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GarbleBench {
    /// Median garbling time per AND gate, in nanoseconds.
    pub garble_ns_per_and: f64,
    /// Median evaluation time per AND gate, in nanoseconds.
    pub eval_ns_per_and: f64,
    /// Fastest garbling per AND gate (robust to a busy machine), in ns.
    pub garble_ns_per_and_min: f64,
    /// Fastest evaluation per AND gate, in ns.
    pub eval_ns_per_and_min: f64,
    /// AND gates in the circuit.
    pub and_gates: usize,
    /// Hash batches per garbling (AND layers, wide ones split).
    pub batches: usize,
    /// Timed iterations (after one untimed warm-up).
    pub iterations: usize,
}

pub(crate) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

impl GarbleBench {
    /// Several runs on one plan folded into one result: the medians of
    /// the runs' medians and the least of their minima (`brickyard bench
    /// garble --runs`; a shared host's speed moves in steps between runs,
    /// so one run's median mostly says which step it ran on).
    ///
    /// # Panics
    /// If `runs` is empty.
    pub fn summary(runs: &[GarbleBench]) -> GarbleBench {
        let med = |f: fn(&GarbleBench) -> f64| median(runs.iter().map(f).collect());
        let min = |f: fn(&GarbleBench) -> f64| runs.iter().map(f).fold(f64::INFINITY, f64::min);
        GarbleBench {
            garble_ns_per_and: med(|r| r.garble_ns_per_and),
            eval_ns_per_and: med(|r| r.eval_ns_per_and),
            garble_ns_per_and_min: min(|r| r.garble_ns_per_and_min),
            eval_ns_per_and_min: min(|r| r.eval_ns_per_and_min),
            ..runs[0].clone()
        }
    }
}

/// Garbles and evaluates `circuit` `iterations` times (plus a warm-up) with
/// fresh OS-random labels under one Δ, and reports median ns per AND.
///
/// The tables go into one vector reused by every iteration
/// ([`garble_into`]), as a protocol that garbles circuit after circuit
/// (CompGC, Lindell–Riva, repeated executions) reuses its buffer: a fresh
/// zero-filled allocation per garbling (what [`crate::garble`] does) costs
/// ~0.8 ns/AND on AES-128 and is not garbling work.
pub fn bench_garble(circuit: &Circuit, iterations: usize) -> Result<GarbleBench> {
    bench_plan(&GarblePlan::new(circuit)?, iterations)
}

/// [`bench_garble`] on an already compiled plan (e.g. a π-cached one, to
/// compare plan variants on the same circuit).
pub fn bench_plan(plan: &GarblePlan, iterations: usize) -> Result<GarbleBench> {
    let ands = plan.and_count().max(1) as f64;
    let mut garbler = Garbler::new();
    let delta: Delta = garbler.delta().clone();
    let (mut tg, mut te) = (Vec::new(), Vec::new());
    let mut gc = GarbledCircuit::default();
    for i in 0..=iterations {
        let zero = garbler.input_zero_labels(plan);
        gc.tweak_offset = i as u64;
        let t0 = Instant::now();
        let out = garble_into(plan, &delta, &zero, i as u64, Keep::Outputs, &mut gc.tables)?;
        let t1 = Instant::now();
        let res = evaluate(plan, &gc, &zero, Keep::Outputs)?;
        let t2 = Instant::now();
        // Keep the work observable, and refuse to report numbers for a
        // garbling that does not evaluate to valid output labels.
        decode_checked(&res.output_labels, &out.output_zero_labels, &delta)?;
        if i > 0 {
            tg.push((t1 - t0).as_nanos() as f64 / ands);
            te.push((t2 - t1).as_nanos() as f64 / ands);
        }
    }
    let min = |v: &[f64]| v.iter().copied().fold(f64::NAN, f64::min);
    Ok(GarbleBench {
        garble_ns_per_and_min: min(&tg),
        eval_ns_per_and_min: min(&te),
        garble_ns_per_and: median(tg),
        eval_ns_per_and: median(te),
        and_gates: plan.and_count(),
        batches: plan.batch_count(),
        iterations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench(g: f64, e: f64) -> GarbleBench {
        GarbleBench {
            garble_ns_per_and: g,
            eval_ns_per_and: e,
            garble_ns_per_and_min: g - 1.0,
            eval_ns_per_and_min: e - 1.0,
            and_gates: 10,
            batches: 2,
            iterations: 5,
        }
    }

    #[test]
    fn summary_takes_the_median_of_medians_and_the_least_minimum() {
        assert_eq!(GarbleBench::summary(&[bench(9.0, 6.0)]), bench(9.0, 6.0));
        let s = GarbleBench::summary(&[bench(9.0, 6.0), bench(14.0, 11.0), bench(7.0, 5.0)]);
        assert_eq!((s.garble_ns_per_and, s.eval_ns_per_and), (9.0, 6.0));
        assert_eq!((s.garble_ns_per_and_min, s.eval_ns_per_and_min), (6.0, 4.0));
        let s = GarbleBench::summary(&[bench(9.0, 6.0), bench(7.0, 5.0)]);
        assert_eq!((s.garble_ns_per_and, s.eval_ns_per_and), (8.0, 5.5));
        assert_eq!((s.and_gates, s.iterations), (10, 5));
    }
}
