//! `brickyard bench garble`: half-gates garbling and evaluation speed.

use crate::error::{CliError, CliResult};
use brickyard_garble::wide::{bench_wide, WidePlan, L127, L88};
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
///
/// With `labels` 256 or 384, each run also measures JIMU's long labels
/// right after the 128-bit one, so both see the same machine state.
pub fn run(circuit: &str, iterations: usize, runs: usize, labels: u32, as_json: bool) -> CliResult {
    if ![128, 256, 384].contains(&labels) {
        return Err(CliError::Usage(format!(
            "--labels {labels}: 128, 256 (JIMU k = 88) or 384 (k = 127)"
        )));
    }
    let c = crate::circuit::load(circuit)?;
    let plan = GarblePlan::new(&c)?;
    let wide_plan = WidePlan::new(&plan)?;
    let mut all = Vec::new();
    let mut wide = Vec::new();
    for _ in 0..runs.max(1) {
        all.push(bench_plan(&plan, iterations.max(1))?);
        match labels {
            256 => wide.push(bench_wide::<L88>(&wide_plan, iterations.max(1))?),
            384 => wide.push(bench_wide::<L127>(&wide_plan, iterations.max(1))?),
            _ => {}
        }
    }
    let b = GarbleBench::summary(&all);
    let w = (!wide.is_empty()).then(|| GarbleBench::summary(&wide));
    // Which kernels ran: the 128-bit slot program takes the VAES-512
    // stage kernels where the CPU has them, else its portable loop over
    // `encrypt_blocks` (on the backend named); long labels hash with
    // `aes::fan::tccr_fan`.
    let aes = brickyard_core::aes::backend_name();
    let kernel128 = if aes == "vaes512" {
        "VAES-512 stage kernels"
    } else {
        "slot loop over encrypt_blocks"
    };
    let fan = brickyard_core::aes::fan::backend();
    if as_json {
        println!(
            "{}",
            json!({
                "circuit": circuit,
                "aes_backend": aes,
                "kernel_128": kernel128,
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
                "long_labels": w.as_ref().map(|w| json!({
                    "label_bits": labels,
                    "hash_kernel": fan,
                    "batches": w.batches,
                    "runs": wide.iter().map(|r| json!({
                        "garble_ns_per_and": r.garble_ns_per_and,
                        "eval_ns_per_and": r.eval_ns_per_and,
                    })).collect::<Vec<_>>(),
                    "garble_ns_per_and": w.garble_ns_per_and,
                    "eval_ns_per_and": w.eval_ns_per_and,
                    "garble_ns_per_and_min": w.garble_ns_per_and_min,
                    "eval_ns_per_and_min": w.eval_ns_per_and_min,
                    "garble_ratio": w.garble_ns_per_and / b.garble_ns_per_and,
                    "eval_ratio": w.eval_ns_per_and / b.eval_ns_per_and,
                })),
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
        println!("128-bit labels: {kernel128}, AES backend {aes}");
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
        if let Some(w) = &w {
            println!(
                "{labels}-bit labels (JIMU, compressed to 128 bits): {} hash batches, hash kernel {fan}",
                w.batches
            );
            println!(
                "garble   {:8.2} ns/AND   (best {:.2})   {:.2}x the 128-bit median",
                w.garble_ns_per_and,
                w.garble_ns_per_and_min,
                w.garble_ns_per_and / b.garble_ns_per_and
            );
            println!(
                "evaluate {:8.2} ns/AND   (best {:.2})   {:.2}x the 128-bit median",
                w.eval_ns_per_and,
                w.eval_ns_per_and_min,
                w.eval_ns_per_and / b.eval_ns_per_and
            );
        }
    }
    Ok(())
}
