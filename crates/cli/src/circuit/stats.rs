//! `brickyard circuit stats`.

use brickyard_circuit::{Circuit, Gate, Group};
use serde_json::json;

use crate::error::CliResult;

fn groups(gs: &[Group]) -> serde_json::Value {
    gs.iter()
        .map(|g| json!({"name": g.name, "width": g.width()}))
        .collect()
}

fn show(gs: &[Group]) -> String {
    gs.iter()
        .map(|g| format!("{}({})", g.name, g.width()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The stats as JSON (also the source of the text form, so both agree).
pub fn stats(spec: &str, c: &Circuit) -> serde_json::Value {
    let count = |f: fn(&Gate) -> bool| c.gates.iter().filter(|g| f(g)).count();
    json!({
        "circuit": spec,
        "gates": c.gates.len(),
        "and": count(|g| matches!(g, Gate::And { .. })),
        "xor": count(|g| matches!(g, Gate::Xor { .. })),
        "inv": count(|g| matches!(g, Gate::Inv { .. })),
        "wires": c.num_wires,
        "and_depth": c.and_depth(),
        "inputs": groups(&c.inputs),
        "outputs": groups(&c.outputs),
    })
}

/// Prints the stats of `spec`.
pub fn run(spec: &str, as_json: bool) -> CliResult {
    let c = super::load(spec)?;
    let s = stats(spec, &c);
    if as_json {
        println!("{s}");
    } else {
        println!("circuit:   {spec}");
        println!(
            "gates:     {} (AND {}, XOR {}, INV {})",
            s["gates"], s["and"], s["xor"], s["inv"]
        );
        println!("wires:     {}", s["wires"]);
        println!("AND-depth: {}", s["and_depth"]);
        println!("inputs:    {} bits: {}", c.input_width(), show(&c.inputs));
        println!("outputs:   {} bits: {}", c.output_width(), show(&c.outputs));
    }
    Ok(())
}
