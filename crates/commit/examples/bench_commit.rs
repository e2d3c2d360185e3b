//! `cargo run --release -p brickyard-commit --example bench_commit -- [COUNT] [THREADS]`
//! prints one JSON line of `brickyard_commit::bench::CommitBench`.

fn main() {
    let mut args = std::env::args().skip(1);
    let count = args.next().map_or(1_000_000, |a| a.parse().expect("COUNT"));
    let threads = args.next().map_or(1, |a| a.parse().expect("THREADS"));
    let b = brickyard_commit::bench::bench_commit(count, threads).expect("bench");
    println!("{b:?}");
}
