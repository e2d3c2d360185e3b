//! Protocol-phase messages whose checks need a fixed state, direct: byte 0
//! picks the crate, the rest is its input. Even: LEGO's Generate
//! challenges as Alice reads them (`brickyard_lego::fuzzing::challenges`,
//! whose byte 0 picks the cut-and-choose seed with its survivor rule,
//! step 10's flight, or the bucketing seed with every soldering item);
//! odd: a Lindell–Riva bucket
//! challenge opening as the prover reads it
//! (`brickyard_lindell_riva::fuzzing::challenge`: length, padding,
//! `challenge-decommit`). `Ok` or a typed error, never a panic or an
//! unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: {
        // LEGO's plan (Theorem 2's exact bound over big integers) is built
        // once here, before the per-input timeout runs.
        let _ = brickyard_lego::fuzzing::challenges(&[0]);
    },
    |data: &[u8]| {
        let Some((&sel, rest)) = data.split_first() else {
            return;
        };
        if sel & 1 == 0 {
            let _ = brickyard_lego::fuzzing::challenges(rest);
        } else {
            let _ = brickyard_lindell_riva::fuzzing::challenge(rest);
        }
    }
);
