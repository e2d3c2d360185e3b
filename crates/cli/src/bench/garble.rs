//! `brickyard bench garble`: half-gates garbling and evaluation speed.

use crate::error::CliResult;
use brickyard_garble::{bench_plan, GarbleBench, GarblePlan};
use serde_json::json;

/// Runs the benchmark on one core, no network: `runs` blocks of
/// `iterations` garblings each, on one compiled plan.
///
/// Why several runs: on a shared host the same binary's speed changes
/// in steps that last seconds (see `docs/protocols/garbling.md`,
/// "Numbers"), while the iterations within one run agree with each
/// other; a single run's median then says which step the machine was in
/// as much as how fast the code is. Each run's medians are printed, and
/// the headline numbers are the median of the runs' medians.
pub fn run(circuit: &str, iterations: usize, runs: usize, as_json: bool) -> CliResult {
    let c = crate::circuit::load(circuit)?;
    let plan = GarblePlan::new(&c)?;
    let all = (0..runs.max(1))
        .map(|_| bench_plan(&plan, iterations.max(1)))
        .collect::<Result<Vec<_>, _>>()?;
    let b = GarbleBench::summary(&all);
    if as_json {
        println!(
            "{}",
            json!({
                "circuit": circuit,
                "and_gates": b.and_gates,
                "iterations": b.iterations,
                "runs": all.iter().map(|r| json!({
                    "garble_ns_per_and": r.garble_ns_per_and,
                    "eval_ns_per_and": r.eval_ns_per_and,
                })).collect::<Vec<_>>(),
                "garble_ns_per_and": b.garble_ns_per_and,
                "eval_ns_per_and": b.eval_ns_per_and,
                "garble_ns_per_and_min": b.garble_ns_per_and_min,
                "eval_ns_per_and_min": b.eval_ns_per_and_min,
            })
        );
    } else {
        let runs_note = match all.len() {
            1 => String::new(),
            n => format!(" × {n} runs, median of the runs' medians"),
        };
        println!(
            "{circuit}: {} AND gates, {} hash batches, {} iterations{runs_note} (medians; all XOR/INV work included)",
            b.and_gates, b.batches, b.iterations
        );
        println!(
            "garble   {:8.2} ns/AND   (best {:.2})",
            b.garble_ns_per_and, b.garble_ns_per_and_min
        );
        println!(
            "evaluate {:8.2} ns/AND   (best {:.2})",
            b.eval_ns_per_and, b.eval_ns_per_and_min
        );
        if all.len() > 1 {
            let list = |f: fn(&GarbleBench) -> f64| {
                all.iter()
                    .map(|r| format!("{:.2}", f(r)))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            println!("runs' garble medians   {}", list(|r| r.garble_ns_per_and));
            println!("runs' evaluate medians {}", list(|r| r.eval_ns_per_and));
        }
    }
    Ok(())
}
