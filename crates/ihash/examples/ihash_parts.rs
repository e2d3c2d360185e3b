//! Time of each sender step for one batch (profiling aid):
//! `cargo run --release -p brickyard-ihash --example ihash_parts -- [count]`.

use brickyard_core::gf256::combine_rows;
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_ihash::{Code, Params};
use std::time::Instant;

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let p = Params::for_labels(88, 40).unwrap();
    let code = Code::new(p.field(), p.n, p.ell);
    let mut prgs: Vec<Prg> = (0..p.n).map(|i| Prg::from_seed(Block(i as u128))).collect();
    let mut rows = vec![0u8; p.n * count];
    let t = Instant::now();
    for (row, prg) in rows.chunks_exact_mut(count).zip(&mut prgs) {
        prg.fill_bytes(row);
    }
    let ns = |t: Instant| t.elapsed().as_secs_f64() * 1e9 / count as f64;
    println!("prg        {:.1} ns/label", ns(t));
    let mut par = vec![0u8; (p.n - p.ell) * count];
    let t = Instant::now();
    code.encode_batch(&rows[..p.ell * count], count, &mut par);
    println!("encode     {:.1} ns/label", ns(t));
    let mut msgs = vec![0u8; 32 * count];
    let t = Instant::now();
    for i in 0..p.ell {
        for c in 0..count {
            msgs[c * 32 + i] = rows[i * count + c];
        }
    }
    println!("transpose  {:.1} ns/label (naive)", ns(t));
    let y = vec![7u8; count];
    let mut acc = vec![0u8; 32];
    let t = Instant::now();
    for _ in 0..p.xi() {
        combine_rows(p.field(), &y, &msgs, &mut acc);
    }
    println!("check      {:.1} ns/label", ns(t));
    std::hint::black_box((&par, &acc));
}
