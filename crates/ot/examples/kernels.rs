//! Times the kernels IKNP spends its time in (PRG, transpose, TCCR), per OT,
//! in thread CPU time so that other processes on the machine matter less:
//! `cargo run --release -p brickyard-ot --example kernels`.
use brickyard_core::prg::Prg;
use brickyard_core::{hash, transpose, Block};

/// On-CPU nanoseconds of this thread (Linux `schedstat`; 0 elsewhere).
fn cpu_ns() -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn time(name: &str, n: usize, reps: usize, mut f: impl FnMut()) {
    let t = cpu_ns();
    for _ in 0..reps {
        f();
    }
    let ns = (cpu_ns() - t) as f64 / (reps * n) as f64;
    println!("{name:>28}: {ns:.2} ns/OT (cpu)");
}

fn main() {
    let n = 1 << 14;
    let reps = 200;
    let mut prgs: Vec<Prg> = (0..128).map(|i| Prg::from_seed(Block(i))).collect();
    let mut cols = vec![Block::ZERO; n];
    time("prg, 1 block per OT", n, reps, || {
        for (j, c) in cols.chunks_exact_mut(n / 128).enumerate() {
            prgs[j].fill_blocks(c);
        }
    });
    let mut out = vec![Block::ZERO; n];
    time("core transpose_into", n, reps, || {
        transpose::transpose_into(
            bytemuck::cast_slice(&cols),
            128,
            n,
            bytemuck::cast_slice_mut(&mut out),
        )
    });
    let mut out2 = vec![Block::ZERO; n];
    time("ot transpose_columns", n, reps, || {
        brickyard_core::transpose_cols::transpose_columns(&cols, n / 128, &mut out2)
    });
    assert_eq!(out, out2);
    let tw: Vec<Block> = (0..n as u128).map(Block).collect();
    time("tccr_batch", n, reps, || hash::tccr_batch(&mut out, &tw));
    time("cr_batch", n, reps, || hash::cr_batch(&mut out));
    println!("aes backend: {}", brickyard_core::aes::backend_name());
}
