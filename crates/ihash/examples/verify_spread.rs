//! Verification rate against the watch set (profiling aid): the bench
//! draws a fresh W per invocation, and the cost of Verify depends on how
//! many watched positions are parity (p) rather than systematic.
//! `cargo run --release -p brickyard-ihash --example verify_spread -- [sets] [count]`
//! prints, for `sets` random watch sets of the k = 88 label code, p and
//! the one-call-per-pair and batch rates (wall, best of 3, one thread).

use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_ihash::{Code, Params, Rows, Verifier};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1).map(|s| s.parse::<usize>().ok());
    let sets = args.next().flatten().unwrap_or(12);
    let count = args.next().flatten().unwrap_or(1_000_000);
    let p = Params::for_labels(88, 40).unwrap();
    let code = Code::new(p.field(), p.n, p.ell);
    let mut prg = Prg::from_seed(Block(0x5eed));
    let mut flat = vec![0u8; count * p.ell];
    prg.fill_bytes(&mut flat);
    let msgs = Rows::from_flat(&flat, p.ell);
    let mut ok = vec![false; count];
    let best = |f: &mut dyn FnMut()| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    for _ in 0..sets {
        let mut all: Vec<usize> = (0..p.n).collect();
        prg.shuffle(&mut all);
        let mut watch = all[..p.w].to_vec();
        watch.sort_unstable();
        let v = Verifier::new(&code, &watch);
        let parity = watch.iter().filter(|&&j| j >= p.ell).count();
        let mut hflat = vec![0u8; count * p.w];
        for (h, m) in hflat.chunks_exact_mut(p.w).zip(msgs.iter()) {
            v.watched_symbols(m, h);
        }
        let hashes = Rows::from_flat(&hflat, p.w);
        let single = best(&mut || {
            let n = hashes
                .iter()
                .zip(msgs.iter())
                .filter(|(h, m)| v.verify(std::hint::black_box(h), m))
                .count();
            assert_eq!(n, count);
        });
        let batch = best(&mut || {
            v.verify_batch(std::hint::black_box(&hashes), &msgs, &mut ok);
            assert!(ok.iter().all(|&b| b));
        });
        println!(
            "p = {parity:2}: one call per pair {:6.2} M/s, batch {:6.2} M/s",
            count as f64 / single / 1e6,
            count as f64 / batch / 1e6
        );
    }
}
