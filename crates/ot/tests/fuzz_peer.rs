//! The OT layer's peer-message decoders on mutated and random peer
//! streams (the same harness as the cargo-fuzz targets in `fuzz/`, driven
//! by a seeded loop so it runs on stable): every input must end in `Ok` or
//! a typed error, never a panic or a hang.
//! Smoke run in CI; the long run: `BRICKYARD_FUZZ_SECS=30 cargo test -p
//! brickyard-ot --release --features fuzzing --test fuzz_peer -- --ignored
//! --nocapture` (seconds per target; `BRICKYARD_TEST_SEED` replays).
#![cfg(feature = "fuzzing")]

use brickyard_core::prg::Prg;
use brickyard_ot::fuzzing::{run, script, Target};
use std::time::{Duration, Instant};

fn seed() -> u128 {
    match std::env::var("BRICKYARD_TEST_SEED") {
        Ok(v) => {
            let v = v.trim();
            match v.strip_prefix("0x") {
                Some(h) => u128::from_str_radix(h, 16),
                None => v.parse(),
            }
            .expect("BRICKYARD_TEST_SEED: a number")
        }
        Err(_) => Prg::new().random_block().0,
    }
}

/// One fuzz input: mostly a few patches of the honest transcript
/// (sometimes truncated), sometimes raw bytes.
fn input(prg: &mut Prg) -> Vec<u8> {
    let r = prg.random_block().0;
    let raw = r.is_multiple_of(8);
    let len = if raw {
        (r >> 8) as usize % 600
    } else {
        3 * (1 + (r >> 8) as usize % 4)
    };
    let mut v = vec![0u8; 1 + len];
    prg.fill_bytes(&mut v);
    v[0] = if raw { v[0] | 1 } else { v[0] & !1 };
    v
}

/// Returns (inputs run, errors seen).
fn fuzz(t: Target, prg: &mut Prg, budget: impl Fn(usize) -> bool) -> (usize, usize) {
    let (mut n, mut errors) = (0, 0);
    while budget(n) {
        let data = input(prg);
        let r = std::panic::catch_unwind(|| run(t, &data));
        match r {
            Ok(res) => errors += res.is_err() as usize,
            Err(_) => panic!(
                "{t:?} panicked on input {:02x?} (stream of {} bytes)",
                data,
                script(t, &data).len()
            ),
        }
        n += 1;
    }
    (n, errors)
}

#[test]
fn peer_messages_never_panic_smoke() {
    let s = seed();
    println!("fuzz_peer smoke: seed {s:#x}");
    let mut prg = Prg::from_seed(brickyard_core::Block(s));
    for t in Target::ALL {
        let (n, errors) = fuzz(t, &mut prg, |n| n < 12);
        // Mutations that hit no decoder (e.g. inside a one-time pad) may
        // pass; most must be refused.
        assert!(
            errors > 0,
            "{t:?}: no mutated stream was refused ({n} runs)"
        );
    }
}

#[test]
#[ignore = "fuzz loop: run with --ignored (BRICKYARD_FUZZ_SECS per target)"]
fn peer_messages_never_panic_long() {
    let secs: u64 = std::env::var("BRICKYARD_FUZZ_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let s = seed();
    println!("fuzz_peer: seed {s:#x}, {secs} s per target");
    let mut prg = Prg::from_seed(brickyard_core::Block(s));
    for t in Target::ALL {
        let end = Instant::now() + Duration::from_secs(secs);
        let (n, errors) = fuzz(t, &mut prg, |_| Instant::now() < end);
        println!("{t:?}: {n} inputs, {errors} refused, 0 panics");
    }
}
