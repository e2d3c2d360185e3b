//! `brickyard circuit list`.

use crate::error::CliResult;

/// Prints each builtin with its description, aligned (or as JSON).
pub fn run(json: bool) -> CliResult {
    let names = brickyard_circuit::builtin_names();
    if json {
        let v: Vec<_> = names
            .iter()
            .map(|(n, d)| serde_json::json!({"name": format!("builtin:{n}"), "description": d}))
            .collect();
        println!("{}", serde_json::Value::Array(v));
        return Ok(());
    }
    let width = names.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (name, desc) in names {
        println!("builtin:{name:<width$}  {desc}");
    }
    Ok(())
}
