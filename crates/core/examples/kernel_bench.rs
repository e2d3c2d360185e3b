//! Throughput of the core crypto kernels. Run in release mode:
//! `cargo run --release -p brickyard-core --example kernel_bench`.
//! Reports the median of five timed runs, as ns per element of on-CPU
//! time (so other processes on a shared machine inflate the numbers less).

use brickyard_core::aes::{backend_name, fixed_key};
use brickyard_core::gf128::{gf_inner_product, gf_inner_product_portable, gf_mul, gf_mul_portable};
use brickyard_core::hash::{ccr_batch, cr_batch, tccr_batch, MiTccr};
use brickyard_core::prg::Prg;
use brickyard_core::transpose::{transpose_into, transpose_portable};
use brickyard_core::Block;
use std::hint::black_box;
use std::time::Instant;

/// On-CPU nanoseconds of this thread (Linux `schedstat`), so time spent
/// descheduled on a shared machine is not counted; wall time elsewhere.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Median ns per element of `f`, which processes `elems` elements per call.
fn measure(elems: usize, mut f: impl FnMut()) -> f64 {
    // Calibrate: count calls in 10 ms of wall time, then aim for ~100 ms
    // samples (schedstat is only updated at scheduler ticks).
    let t = Instant::now();
    let mut calls = 0usize;
    while t.elapsed().as_secs_f64() < 0.01 {
        f();
        calls += 1;
    }
    let reps = (calls * 10).max(1);
    let mut samples: Vec<f64> = (0..5)
        .map(|_| {
            let (t, c) = (Instant::now(), cpu_ns());
            for _ in 0..reps {
                f();
            }
            let ns = match (c, cpu_ns()) {
                (Some(a), Some(b)) => (b - a) as f64,
                _ => t.elapsed().as_secs_f64() * 1e9,
            };
            ns / (reps * elems) as f64
        })
        .collect();
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    samples[samples.len() / 2]
}

fn main() {
    let mut prg = Prg::from_seed(Block(1));
    println!("aes backend: {}", backend_name());
    let pi = fixed_key();

    for n in [1usize, 8, 64, 1024] {
        let mut buf = prg.random_blocks(n);
        let ns = measure(n, || pi.encrypt_blocks(black_box(&mut buf)));
        println!("aes encrypt_blocks  batch {n:>5}: {ns:6.2} ns/block");
    }
    let x = prg.random_blocks(1024);
    let mut out = vec![Block::ZERO; 1024];
    let ns = measure(1024, || {
        for (o, i) in out.iter_mut().zip(&x) {
            *o = pi.encrypt_block(black_box(*i));
        }
        black_box(&out);
    });
    println!("aes encrypt_block loop  (1024): {ns:6.2} ns/block");
    let ns = measure(1024, || pi.encrypt_blocks_to(black_box(&x), &mut out));
    println!("aes encrypt_blocks_to   (1024): {ns:6.2} ns/block");

    let mut buf = prg.random_blocks(1024);
    let tweaks = prg.random_blocks(1024);
    println!(
        "cr_batch   (1024): {:6.2} ns/block",
        measure(1024, || cr_batch(black_box(&mut buf)))
    );
    println!(
        "ccr_batch  (1024): {:6.2} ns/block",
        measure(1024, || ccr_batch(black_box(&mut buf)))
    );
    println!(
        "tccr_batch (1024): {:6.2} ns/block",
        measure(1024, || tccr_batch(black_box(&mut buf), &tweaks))
    );
    let mi = MiTccr::new(prg.random_block());
    println!(
        "MiTccr per_tweak=2 (1024 blocks): {:6.2} ns/block",
        measure(1024, || mi.hash_batch(
            black_box(&mut buf),
            &tweaks[..512],
            2
        ))
    );
    println!(
        "MiTccr per_tweak=1 (1024 blocks): {:6.2} ns/block",
        measure(1024, || mi.hash_batch(black_box(&mut buf), &tweaks, 1))
    );
    println!(
        "prg fill_blocks (1024): {:6.2} ns/block",
        measure(1024, || prg.fill_blocks(black_box(&mut buf)))
    );
    println!(
        "prg random_block: {:6.2} ns/block",
        measure(1024, || {
            for b in buf.iter_mut() {
                *b = prg.random_block();
            }
        })
    );

    let a = prg.random_blocks(1024);
    let b = prg.random_blocks(1024);
    let mut c = vec![Block::ZERO; 1024];
    let ns = measure(1024, || {
        for ((o, x), y) in c.iter_mut().zip(&a).zip(&b) {
            *o = gf_mul(black_box(*x), *y);
        }
        black_box(&c);
    });
    println!("gf_mul (independent, 1024): {ns:6.2} ns/mul");
    let ns = measure(1024, || {
        for ((o, x), y) in c.iter_mut().zip(&a).zip(&b) {
            *o = gf_mul_portable(black_box(*x), *y);
        }
        black_box(&c);
    });
    println!("gf_mul_portable (1024): {ns:6.2} ns/mul");
    let ns = measure(1024, || {
        black_box(gf_inner_product(black_box(&a), &b));
    });
    println!("gf_inner_product (1024): {ns:6.2} ns/element");
    let ns = measure(1024, || {
        black_box(gf_inner_product_portable(black_box(&a), &b));
    });
    println!("gf_inner_product_portable (1024): {ns:6.2} ns/element");

    // IKNP/KOS shape: 128 rows of 2^20 bits (16 MiB).
    let n = 1 << 20;
    let mut rows = vec![0u8; 16 * n];
    prg.fill_bytes(&mut rows);
    let mut t = vec![0u8; rows.len()];
    let ns = measure(rows.len(), || {
        transpose_into(black_box(&rows), 128, n, &mut t)
    });
    println!("transpose 128 x 2^20 (simd):     {:7.1} MB/s", 1e3 / ns);
    let ns = measure(rows.len(), || {
        black_box(transpose_portable(black_box(&rows), 128, n));
    });
    println!("transpose 128 x 2^20 (portable): {:7.1} MB/s", 1e3 / ns);
    let ns = measure(rows.len(), || {
        transpose_into(black_box(&t), n, 128, &mut rows)
    });
    println!("transpose 2^20 x 128 (simd):     {:7.1} MB/s", 1e3 / ns);
}
