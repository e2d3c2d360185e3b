//! The long-label half of `brickyard bench garble --labels 256|384`: the
//! same measurement as [`crate::bench_plan`] (whole circuit, XOR work
//! included, per AND gate, fresh OS-random labels, one untimed warm-up)
//! with `L`-block labels, a fresh OS-random Δ and `A'`, and a check that
//! every output label is one of the garbler's two.

use super::{evaluate_wide, garble_wide, random_label, xor, Compress, Label, WideDelta, WidePlan};
use crate::bench::{median, GarbleBench};
use brickyard_core::prg::Prg;
use brickyard_core::{Error, Result};
use std::time::Instant;

/// Garbles and evaluates `plan` with `L`-block labels `iterations` times.
pub fn bench_wide<const L: usize>(plan: &WidePlan, iterations: usize) -> Result<GarbleBench> {
    let ands = plan.and_count().max(1) as f64;
    let mut prg = Prg::new();
    let delta = WideDelta::<L>::random(&mut prg);
    let compress = Compress::sample(&mut prg, 16 * L);
    let (mut tg, mut te) = (Vec::new(), Vec::new());
    let mut tables: Vec<Label<L>> = Vec::new();
    for i in 0..=iterations {
        let zero: Vec<Label<L>> = (0..plan.input_count())
            .map(|_| random_label(&mut prg))
            .collect();
        tables.clear();
        let t0 = Instant::now();
        let out0 = garble_wide(plan, &delta, &compress, &zero, i as u64, &mut tables)?;
        let t1 = Instant::now();
        let out = evaluate_wide(plan, &compress, &tables, &zero, i as u64)?;
        let t2 = Instant::now();
        if out
            .iter()
            .zip(out0.iter())
            .any(|(o, z)| o != z && *o != xor(z, delta.label()))
        {
            return Err(Error::Cheating {
                check: "output-label-authenticity",
            });
        }
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
    use brickyard_circuit::{Circuit, Gate, Group};

    #[test]
    fn bench_runs_and_checks_outputs() {
        let c = Circuit {
            num_wires: 5,
            inputs: vec![Group {
                name: "x".into(),
                wires: vec![0, 1, 2],
            }],
            outputs: vec![Group {
                name: "y".into(),
                wires: vec![4],
            }],
            gates: vec![
                Gate::And { a: 0, b: 1, out: 3 },
                Gate::Xor { a: 3, b: 2, out: 4 },
            ],
        };
        let plan = WidePlan::new(&crate::GarblePlan::new(&c).unwrap()).unwrap();
        let b = bench_wide::<2>(&plan, 3).unwrap();
        assert_eq!((b.and_gates, b.iterations), (1, 3));
        assert!(b.garble_ns_per_and > 0.0 && b.eval_ns_per_and > 0.0);
    }
}
