//! Profiling aid: `cargo run --release -p brickyard-commit --example commit_kernels`
//! times the core kernels of the commit phase on one chunk-sized problem
//! (4096 commitments), in thread CPU time per commitment, so that the
//! numbers mean something on a shared machine.

use brickyard_commit::params::CommitParams;
use brickyard_core::aes::Aes128;
use brickyard_core::gf128::{gf_mul_acc_rows, GfWide};
use brickyard_core::prg::Prg;
use brickyard_core::transpose_cols::{transpose_columns_to_words, transpose_words_to_columns};
use brickyard_core::Block;

/// Thread CPU time in seconds (`schedstat`: nanoseconds on CPU).
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    let ns: f64 = s
        .split_whitespace()
        .next()
        .and_then(|x| x.parse().ok())
        .expect("ns");
    ns * 1e-9
}

fn main() {
    let reps = 2000;
    let items = 4096.0;
    let report = |t0: f64, what: &str| {
        let ns = (cpu() - t0) * 1e9 / (reps as f64 * items);
        println!("{what:>16}: {ns:.2} ns per commitment");
    };
    let mut prg = Prg::from_seed(Block(1));
    let rows = prg.random_blocks(427 * 32);
    let mut words = vec![0u64; 4096 * 5];
    let t0 = cpu();
    for _ in 0..reps {
        transpose_columns_to_words(&rows, 32, 299, 4096, &mut words, 5);
    }
    report(t0, "to words, 299");
    let mut cols = vec![Block::ZERO; 299 * 32];
    let t0 = cpu();
    for _ in 0..reps {
        transpose_words_to_columns(&words, 5, 299, 4096, &mut cols, 32);
    }
    report(t0, "to columns, 299");
    let keys: Vec<Aes128> = (0..299).map(|i| Aes128::new(Block(i))).collect();
    let mut buf = vec![Block::ZERO; 299 * 32];
    let t0 = cpu();
    for rep in 0..reps {
        for (j, k) in keys.iter().enumerate() {
            let row = &mut buf[j * 32..j * 32 + 32];
            for (b, o) in row.iter_mut().enumerate() {
                *o = Block((rep * 32 + b) as u128);
            }
            k.encrypt_blocks(row);
        }
    }
    report(t0, "AES, 299 rows");
    let coef = prg.random_blocks(32);
    let mut acc = vec![GfWide::default(); 299];
    let t0 = cpu();
    for _ in 0..reps {
        gf_mul_acc_rows(&coef, &rows, 32, &mut acc);
    }
    report(t0, "GF sums, 299");
    let mut par = vec![Block::ZERO; 171 * 32];
    let t0 = cpu();
    for _ in 0..reps {
        CommitParams::default()
            .code()
            .parity_sliced(&rows[..128 * 32], &mut par, 32);
    }
    report(t0, "parity");
    std::hint::black_box((&words, &cols, &buf, &acc, &par));
}
