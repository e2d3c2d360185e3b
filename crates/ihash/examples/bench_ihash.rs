//! The `brickyard bench ihash` measurement without the CLI:
//! `cargo run --release -p brickyard-ihash --example bench_ihash -- [labels88|labels127|perm] [count] [runs]`.

use brickyard_ihash::bench::bench_ihash;
use brickyard_ihash::Params;

fn main() -> Result<(), brickyard_core::Error> {
    let args: Vec<String> = std::env::args().collect();
    let p = match args.get(1).map(String::as_str).unwrap_or("labels88") {
        "labels127" => Params::for_labels(127, 40)?,
        "perm" => Params::for_permutation_strings(40)?,
        _ => Params::for_labels(88, 40)?,
    };
    let count = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let runs = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let r = bench_ihash(p, count, runs)?;
    println!("{r:#?}");
    Ok(())
}
