//! Times the kernels IKNP spends its time in (PRG, transpose, TCCR), per OT.
use brickyard_core::prg::Prg;
use brickyard_core::{hash, transpose, Block};
use std::time::Instant;

fn main() {
    let n = 1 << 14;
    let reps = 200;
    let mut prgs: Vec<Prg> = (0..128).map(|i| Prg::from_seed(Block(i))).collect();
    let mut cols = vec![Block::ZERO; n];
    let t = Instant::now();
    for _ in 0..reps {
        for (j, c) in cols.chunks_exact_mut(n / 128).enumerate() {
            prgs[j].fill_blocks(c);
        }
    }
    let ns = t.elapsed().as_nanos() as f64 / (reps * n) as f64;
    println!("prg (1 block per OT): {ns:.2} ns/OT");
    let mut out = vec![Block::ZERO; n];
    let t = Instant::now();
    for _ in 0..reps {
        transpose::transpose_into(
            bytemuck::cast_slice(&cols),
            128,
            n,
            bytemuck::cast_slice_mut(&mut out),
        );
    }
    let ns = t.elapsed().as_nanos() as f64 / (reps * n) as f64;
    println!("transpose: {ns:.2} ns/OT");
    let tw: Vec<Block> = (0..n as u128).map(Block).collect();
    let t = Instant::now();
    for _ in 0..reps {
        hash::tccr_batch(&mut out, &tw);
    }
    let ns = t.elapsed().as_nanos() as f64 / (reps * n) as f64;
    println!("tccr: {ns:.2} ns/OT");
    let t = Instant::now();
    for _ in 0..reps {
        hash::cr_batch(&mut out);
    }
    let ns = t.elapsed().as_nanos() as f64 / (reps * n) as f64;
    println!("cr: {ns:.2} ns/OT; aes = {}", brickyard_core::aes::backend_name());
}
