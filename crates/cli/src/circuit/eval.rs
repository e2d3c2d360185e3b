//! `brickyard circuit eval`.

use brickyard_circuit::{format_value, parse_value, ValueFormat};
use serde_json::json;

use crate::error::{CliError, CliResult};

/// Parses one value per input group, evaluates, prints one line per output.
pub fn run(spec: &str, inputs: &[String], fmt: ValueFormat, as_json: bool) -> CliResult {
    let c = super::load(spec)?;
    if inputs.len() != c.inputs.len() {
        let names: Vec<String> = c
            .inputs
            .iter()
            .map(|g| format!("{}({})", g.name, g.width()))
            .collect();
        return Err(CliError::Usage(format!(
            "{spec} has {} input groups [{}] but {} --input values were given",
            c.inputs.len(),
            names.join(", "),
            inputs.len()
        )));
    }
    let values = c
        .inputs
        .iter()
        .zip(inputs)
        .map(|(g, v)| {
            parse_value(v, g.width()).map_err(|e| {
                CliError::Usage(format!("input group {} ({} bits): {e}", g.name, g.width()))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let outs = c.eval(&values).map_err(brickyard_circuit::Error::from)?;
    if as_json {
        let outputs: Vec<_> = c
            .outputs
            .iter()
            .zip(&outs)
            .map(
                |(g, v)| json!({"name": g.name, "width": g.width(), "value": format_value(v, fmt)}),
            )
            .collect();
        println!("{}", json!({"circuit": spec, "outputs": outputs}));
    } else {
        for v in &outs {
            println!("{}", format_value(v, fmt));
        }
    }
    Ok(())
}
