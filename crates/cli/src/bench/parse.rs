//! `brickyard bench parse`.

use std::time::Instant;

use serde_json::json;

use crate::error::{CliError, CliResult};

/// Times `runs` parses of the file at `path` and prints the median.
pub fn run(path: &str, runs: usize, as_json: bool) -> CliResult {
    let bytes = std::fs::read(path).map_err(|source| CliError::Io {
        path: path.to_string(),
        source,
    })?;
    let runs = runs.max(1);
    let mut times = Vec::with_capacity(runs);
    let mut gates = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let c = brickyard_circuit::parse_bristol_bytes(&bytes).map_err(|source| {
            brickyard_circuit::Error::Parse {
                path: path.to_string(),
                source,
            }
        })?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
        gates = c.gates.len();
    }
    let min = times.iter().copied().fold(f64::INFINITY, f64::min);
    let median = super::median_ms(times);
    if as_json {
        println!(
            "{}",
            json!({"circuit": path, "bytes": bytes.len(), "gates": gates, "runs": runs, "median_ms": median, "min_ms": min})
        );
    } else {
        println!("{path}: {} bytes, {gates} gates, median {median:.2} ms (min {min:.2} ms) over {runs} runs", bytes.len());
    }
    Ok(())
}
