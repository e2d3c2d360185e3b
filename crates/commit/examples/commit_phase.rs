//! Profiling aid: `cargo run --release -p brickyard-commit --example commit_phase -- PHASE COUNT THREADS REPS`
//! runs an ideal-OT session (seeds from a fixed PRG, no base OTs) and
//! repeats one phase (`commit`, `open`, `batch`) REPS times, printing the
//! wall time per commitment of each repetition. Meant for `perf record`,
//! where the base OTs of the real bench would only add noise.

use brickyard_commit::code::row_from_bits;
use brickyard_commit::params::CommitParams;
use brickyard_commit::{Committer, CommitterState, Receiver, ReceiverState};
use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use std::time::Instant;

/// Openings per message, as in `brickyard bench commit`.
const SLICE: usize = 1 << 16;

fn parties(threads: usize) -> (Committer, Receiver) {
    // LEGO's default code (s = 40 run at 43: N = 317).
    let params = CommitParams::new(43).expect("code");
    let n = params.n();
    let mut prg = Prg::from_seed(Block(1));
    let seeds0 = prg.random_blocks(n);
    let seeds1 = prg.random_blocks(n);
    let bits = prg.random_bits(n);
    let seeds = (0..n)
        .map(|j| if bits[j] { seeds1[j] } else { seeds0[j] })
        .collect();
    let c = Committer::from_state(
        CommitterState {
            seeds0,
            seeds1,
            next_block: 0,
            msgs: Vec::new(),
            t: Vec::new(),
        },
        params,
    )
    .expect("state");
    let r = Receiver::from_state(
        ReceiverState {
            watch: row_from_bits(&bits),
            seeds,
            next_block: 0,
            w: Vec::new(),
        },
        params,
    )
    .expect("state");
    (c.with_threads(threads), r.with_threads(threads))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let phase = args.next().unwrap_or_else(|| "commit".into());
    let count: usize = args.next().map_or(1_000_000, |a| a.parse().expect("COUNT"));
    let threads: usize = args.next().map_or(1, |a| a.parse().expect("THREADS"));
    let reps: usize = args.next().map_or(3, |a| a.parse().expect("REPS"));
    let per = |t: Instant| t.elapsed().as_secs_f64() * 1e6 / count as f64;
    if phase == "commit" {
        // Fresh parties per repetition: one batch each, as in the bench.
        for _ in 0..reps {
            let (mut c, mut r) = parties(threads);
            let (mut ca, mut cb) = memory_pair();
            let t = Instant::now();
            std::thread::scope(|s| {
                let h = s.spawn(move || c.commit_random(&mut ca, count).expect("commit"));
                r.receive_commitments(&mut cb, count).expect("receive");
                h.join().expect("committer");
            });
            println!("commit {:.4} us", per(t));
        }
        return;
    }
    let (mut c, mut r) = parties(threads);
    let (mut ca, mut cb) = memory_pair();
    let ids: Vec<usize> = (0..count).collect();
    std::thread::scope(|s| {
        let (ids, phase) = (&ids, &phase);
        let h = s.spawn(move || {
            c.commit_random(&mut ca, count).expect("commit");
            for _ in 0..reps {
                for part in ids.chunks(SLICE) {
                    match phase.as_str() {
                        "open" => c.open(&mut ca, part).expect("open"),
                        "batch" => c.batch_open(&mut ca, part).expect("batch open"),
                        _ => {}
                    }
                }
            }
        });
        r.receive_commitments(&mut cb, count).expect("receive");
        for _ in 0..reps {
            let t = Instant::now();
            for part in ids.chunks(SLICE) {
                let v = match phase.as_str() {
                    "open" => r.verify_open(&mut cb, part).expect("verify"),
                    "batch" => r.verify_batch_open(&mut cb, part).expect("verify batch"),
                    _ => Vec::new(),
                };
                std::hint::black_box(v);
            }
            println!("{phase} {:.4} us", per(t));
        }
        h.join().expect("committer");
    });
}
