//! Prints `bench_ot` results as JSON lines until the CLI wires it up:
//! `cargo run --release -p brickyard-ot --example bench_ot -- [KIND|all] [COUNT]`.

use brickyard_ot::bench::{bench_ot, OtKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "all".into());
    let count: usize = args
        .next()
        .map(|c| c.parse())
        .transpose()?
        .unwrap_or(10_000_000);
    let kinds = if kind == "all" {
        vec![OtKind::Correlated, OtKind::Random, OtKind::Chosen]
    } else {
        vec![kind.parse()?]
    };
    for k in kinds {
        println!("{}", serde_json::to_string(&bench_ot(k, count)?)?);
    }
    Ok(())
}
