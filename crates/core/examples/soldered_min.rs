//! Minimum time of the fused soldered-gate kernel (LEGO's bucket
//! evaluation) over many runs, robust on a busy machine:
//! `cargo run --release -p brickyard-core --example soldered_min [GATES] [PER] [SETS]`.
//! Defaults: 44 800 gates in buckets of 7 (one AES-128 at β = 7). "warm"
//! re-runs one set of gates (in cache); "cold" cycles through SETS copies
//! (default 24, ≈100 MB) so each run streams its gates from memory, as the
//! first execution after Build does.

use brickyard_core::aes::soldered::{eval_soldered, eval_soldered_portable, SolderedGate};
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use std::time::Instant;

struct G {
    table: [Block; 2],
    id: u64,
    s: [Block; 3],
}

impl SolderedGate for G {
    fn table(&self) -> &[Block; 2] {
        &self.table
    }
    fn id(&self) -> u64 {
        self.id
    }
    fn solder(&self) -> &[Block; 3] {
        &self.s
    }
}

fn main() {
    let arg = |i: usize, d: usize| {
        std::env::args()
            .nth(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let (n, per, sets) = (arg(1, 44_800), arg(2, 7).max(1), arg(3, 24).max(1));
    let n = n / per * per;
    let mut prg = Prg::from_seed(Block(1));
    let make = |prg: &mut Prg| -> Vec<G> {
        (0..n)
            .map(|i| G {
                table: [prg.random_block(), prg.random_block()],
                id: i as u64,
                s: [prg.random_block(), prg.random_block(), prg.random_block()],
            })
            .collect()
    };
    let all: Vec<Vec<G>> = (0..sets).map(|_| make(&mut prg)).collect();
    let heads: Vec<[Block; 2]> = (0..n / per)
        .map(|_| [prg.random_block(), prg.random_block()])
        .collect();
    let mut out = vec![Block::ZERO; n];
    let mut time = |gates: &[G], portable: bool| {
        let t = Instant::now();
        if portable {
            eval_soldered_portable(&heads, per, gates, &mut out);
        } else if let Ok(c) = std::env::var("CHUNK_BUCKETS") {
            let c: usize = c.parse().unwrap();
            for ((h, g), o) in heads
                .chunks(c)
                .zip(gates.chunks(c * per))
                .zip(out.chunks_mut(c * per))
            {
                eval_soldered(h, per, g, o);
            }
        } else {
            eval_soldered(&heads, per, gates, &mut out);
        }
        t.elapsed().as_secs_f64() * 1e6
    };
    let runs = 200;
    let min = |v: Vec<f64>| v.into_iter().fold(f64::MAX, f64::min);
    let warm = min((0..runs).map(|_| time(&all[0], false)).collect());
    let cold = min((0..runs).map(|r| time(&all[r % sets], false)).collect());
    let port = min((0..runs / 4).map(|_| time(&all[0], true)).collect());
    // Cold and after an idle millisecond, as after a network wait.
    let idle = min((0..runs / 4)
        .map(|r| {
            std::thread::sleep(std::time::Duration::from_millis(1));
            time(&all[r % sets], false)
        })
        .collect());
    println!(
        "{n} gates in buckets of {per} ({} B each): warm {warm:.1} µs ({:.2} ns/gate), cold {cold:.1} µs ({:.2} ns/gate), portable warm {port:.1} µs ({:.2} ns/gate), cold after 1 ms idle {idle:.1} µs; backend {}",
        std::mem::size_of::<G>(),
        warm * 1e3 / n as f64,
        cold * 1e3 / n as f64,
        port * 1e3 / n as f64,
        brickyard_core::aes::backend_name()
    );
}
