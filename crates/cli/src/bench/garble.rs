//! `brickyard bench garble`: half-gates garbling and evaluation speed.

use crate::error::CliResult;
use serde_json::json;

/// Runs the benchmark on one core, no network.
pub fn run(circuit: &str, iterations: usize, as_json: bool) -> CliResult {
    let c = crate::circuit::load(circuit)?;
    let b = brickyard_garble::bench_garble(&c, iterations.max(1))?;
    if as_json {
        println!(
            "{}",
            json!({
                "circuit": circuit,
                "and_gates": b.and_gates,
                "iterations": b.iterations,
                "garble_ns_per_and": b.garble_ns_per_and,
                "eval_ns_per_and": b.eval_ns_per_and,
                "garble_ns_per_and_min": b.garble_ns_per_and_min,
                "eval_ns_per_and_min": b.eval_ns_per_and_min,
            })
        );
    } else {
        println!(
            "{circuit}: {} AND gates, {} hash batches, {} iterations (medians; all XOR/INV work included)",
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
    }
    Ok(())
}
