//! The memory floor of LEGO's online phase: how fast can this machine read
//! one copy's gate records at all? Reads `MB` megabytes (default 4.3, one
//! AES-128 copy at β = 7: 44 800 records of 96 B) with an 8-way XOR loop
//! (64 B per step, the fastest safe streaming loop here; the compiler
//! keeps it in vector registers) and prints the best time of many runs:
//!
//! * `dram`: cycles through `SETS` buffers (default 40, well past any
//!   cache slice this VM gets) so each read comes from memory, as the
//!   first read of a copy written long before;
//! * `l3`: the same buffer after reading another one as large (L1/L2
//!   evicted, so what is left is in the shared L3), as Eval reads a copy
//!   that Build or a prefetch touched just before;
//! * `hot`: the same buffer back to back (in L2 if it fits);
//! * `2 threads`: both cores, each streaming its half from memory;
//! * `sustained`: one or two threads streaming all `SETS` buffers in one
//!   go (the time per `MB` is then the memory bandwidth floor of reading
//!   one copy, whoever reads it and however it is overlapped).
//!
//! `cargo run --release -p brickyard-core --example stream_min [MB] [SETS]`

use std::hint::black_box;
use std::time::Instant;

fn read(buf: &[u64]) -> u64 {
    let mut acc = [0u64; 8];
    for c in buf.chunks_exact(8) {
        for (a, x) in acc.iter_mut().zip(c) {
            *a ^= *x;
        }
    }
    acc.iter().fold(0, |a, b| a ^ b)
}

fn best(runs: usize, mut f: impl FnMut(usize) -> f64) -> f64 {
    (0..runs).map(&mut f).fold(f64::MAX, f64::min)
}

fn main() {
    let arg = |i: usize, d: f64| {
        std::env::args()
            .nth(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let mb = arg(1, 4.3);
    let sets = (arg(2, 40.0) as usize).max(3);
    let words = ((mb * 1e6) as usize / 64 * 8).max(8);
    let bytes = words * 8;
    let bufs: Vec<Vec<u64>> = (0..sets)
        .map(|s| (0..words as u64).map(|i| i ^ s as u64).collect())
        .collect();
    let time = |b: &[u64]| {
        let t = Instant::now();
        black_box(read(black_box(b)));
        t.elapsed().as_secs_f64() * 1e6
    };
    let runs = 200;
    let dram = best(runs, |r| time(&bufs[r % sets]));
    let l3 = best(runs, |r| {
        black_box(read(&bufs[(r + 1) % 2 + 1]));
        time(&bufs[0])
    });
    let hot = best(runs, |_| time(&bufs[0]));
    let two = best(runs / 2, |r| {
        let b = &bufs[r % sets];
        let (lo, hi) = b.split_at(b.len() / 2 / 8 * 8);
        let t = Instant::now();
        std::thread::scope(|s| {
            let h = s.spawn(|| black_box(read(hi)));
            black_box(read(lo));
            let _ = h.join();
        });
        t.elapsed().as_secs_f64() * 1e6
    });
    // Sustained: each thread streams its half of every buffer (all sets,
    // far beyond any cache), so the spawn is amortised.
    let sustained = |threads: usize| {
        let t = Instant::now();
        std::thread::scope(|s| {
            for k in 0..threads {
                let bufs = &bufs;
                s.spawn(move || {
                    for b in bufs {
                        let per = b.len() / threads / 8 * 8;
                        black_box(read(&b[k * per..(k + 1) * per]));
                    }
                });
            }
        });
        let total = (sets * bytes) as f64;
        total / (t.elapsed().as_secs_f64() * 1e9)
    };
    let sus1 = (0..5).map(|_| sustained(1)).fold(0.0, f64::max);
    let sus2 = (0..5).map(|_| sustained(2)).fold(0.0, f64::max);
    let gbs = |us: f64| bytes as f64 / us / 1e3;
    println!("{:.2} MB per read, best of {runs} runs", bytes as f64 / 1e6);
    for (name, us) in [
        ("dram (cycling through buffers)", dram),
        ("l3 (after reading another buffer)", l3),
        ("hot (same buffer again)", hot),
        ("dram, 2 threads (incl. spawn)", two),
    ] {
        println!("{name:36} {us:9.1} us  {:6.1} GB/s", gbs(us));
    }
    for (name, g) in [
        ("sustained, 1 thread", sus1),
        ("sustained, 2 threads", sus2),
    ] {
        println!(
            "{name:36} {:9.1} us  {g:6.1} GB/s ({:.0} MB streamed, best of 5)",
            bytes as f64 / g / 1e3,
            (sets * bytes) as f64 / 1e6
        );
    }
}
