//! Each named cheat trips its named check (or, where the paper says so,
//! Bob still outputs `f(x, y)`). Run with `--features adversary`.

use super::tests::{agreed, expected, run_protocol, Outcome};
use super::*;
use brickyard_core::prg::Prg;

fn check_of(r: &Result<impl std::fmt::Debug>) -> Option<&'static str> {
    match r {
        Err(Error::Cheating { check }) => Some(check),
        _ => None,
    }
}

/// Runs `cheat` for several `y` and asserts Bob stops at `check`.
fn bob_catches(cheat: Cheat, check: &str) {
    for (seed, y) in [(11u64, 0u64), (12, 15), (13, 6)] {
        let a = agreed(2, 40);
        let o = run_protocol(&a, &[(5, y), (9, y)], seed, cheat, Cheat::None);
        assert_eq!(
            check_of(&o.bob),
            Some(check),
            "{cheat:?} y={y}: {:?}",
            o.bob
        );
    }
}

#[test]
fn inconsistent_input_is_caught() {
    bob_catches(Cheat::InconsistentInput, CHECK_INPUT);
}

#[test]
fn false_difference_is_caught() {
    bob_catches(Cheat::FalseDifference, crate::excom::CHECK_DIFFERENCE);
}

#[test]
fn bad_lambda_is_caught() {
    bob_catches(Cheat::BadLambda, CHECK_LAMBDA);
}

#[test]
fn wrong_d_is_caught() {
    bob_catches(Cheat::WrongD, CHECK_RECOVERY_HASH);
}

#[test]
fn bad_recovery_encryption_is_caught() {
    bob_catches(Cheat::BadRecoveryEncryption, CHECK_RECOVERY_ENC);
}

#[test]
fn bad_public_label_is_caught() {
    bob_catches(Cheat::BadPublicLabel, CHECK_PUBLIC_INPUT);
}

#[test]
fn bad_output_decommit_is_caught() {
    bob_catches(Cheat::BadOutputDecommit, CHECK_OUTPUT);
}

#[test]
fn bad_seed_open_is_caught() {
    bob_catches(Cheat::BadSeedOpen, CHECK_SEED);
}

#[test]
fn bad_mask_is_caught() {
    bob_catches(Cheat::BadMask, CHECK_MASK);
}

#[test]
fn bad_selection_open_is_caught_by_alice() {
    let a = agreed(2, 40);
    let o = run_protocol(&a, &[(1, 2)], 5, Cheat::None, Cheat::BadSelectionOpen);
    assert_eq!(
        check_of(&o.alice),
        Some(crate::excom::CHECK_SELECTION),
        "{:?}",
        o.alice
    );
}

#[test]
fn short_probe_matrix_is_refused_by_alice() {
    let a = agreed(1, 40);
    let o = run_protocol(&a, &[(1, 2)], 6, Cheat::None, Cheat::ShortProbeMatrix);
    assert_eq!(
        check_of(&o.alice),
        Some(crate::probe::CHECK),
        "{:?}",
        o.alice
    );
}

/// Bob guesses `d`: C' outputs 0, never Alice's input.
#[test]
fn guessed_d_reveals_nothing() {
    let a = agreed(2, 40);
    let o = run_protocol(&a, &[(13, 2), (7, 3)], 9, Cheat::None, Cheat::GuessD);
    o.alice.unwrap();
    for ((z, src, rec), (x, y)) in o.bob.unwrap().into_iter().zip([(13, 2), (7, 3)]) {
        assert_eq!(z, expected(x, y));
        assert_eq!(src, OutputSource::Agreed);
        assert_eq!(rec, vec![false; 4]);
    }
}

/// `two-outputs`: bundle 0 computes f with output bit 0 negated. Checked:
/// `check-circuit`; evaluated: its bucket disagrees, Bob learns D, C'
/// gives x and Bob outputs f(x, y). Both branches are reached (seeds
/// printed), for several y.
#[test]
fn two_outputs_are_recovered() {
    let (mut caught, mut recovered) = (0, 0);
    for seed in 0..40u64 {
        let y = seed % 16;
        let inputs = [(11u64, y), (6, 15 - y)];
        let a = agreed(2, 40);
        let Outcome { alice: _, bob } =
            run_protocol(&a, &inputs, 100 + seed, Cheat::TwoOutputs, Cheat::None);
        match bob {
            Err(Error::Cheating { check }) => {
                assert_eq!(check, CHECK_CIRCUIT, "seed {}", 100 + seed);
                caught += 1;
            }
            Err(e) => panic!("seed {}: {e:?}", 100 + seed),
            Ok(outs) => {
                for ((z, src, rec), (x, y)) in outs.into_iter().zip(inputs) {
                    assert_eq!(z, expected(x, y), "seed {}", 100 + seed);
                    if src == OutputSource::Recovered {
                        assert_eq!(rec, super::tests::bits(x, 4));
                        recovered += 1;
                    }
                }
            }
        }
        if caught > 0 && recovered > 1 {
            break;
        }
    }
    println!("two-outputs: caught {caught}, recovered {recovered}");
    assert!(caught > 0 && recovered > 1);
}

/// Binomial two-sided check: `hits` of `runs` within 4σ of `p`.
fn within_4_sigma(hits: usize, runs: usize, p: f64, what: &str, seed: u64) {
    let mean = runs as f64 * p;
    let sd = (runs as f64 * p * (1.0 - p)).sqrt();
    println!("{what}: {hits}/{runs}, expected {mean:.1} ± {sd:.1} (seed {seed})");
    assert!(
        (hits as f64 - mean).abs() <= 4.0 * sd.max(0.5),
        "{what}: {hits}/{runs} is outside 4σ of {mean:.1} (seed {seed})"
    );
}

/// `bad-circuit` with k corrupted bundles: detected (`check-circuit`)
/// unless all k are evaluated, i.e. w.p. `1 − C(NB, k)/C(M, k)`.
/// Parameters from the lemmas at s = 6 so that M is small (at such an `s`
/// an undetected bad circuit may fill a bucket: correctness is asserted at
/// s = 40 in `bad_circuit_never_gives_a_wrong_output`).
#[test]
fn bad_circuit_detection_matches_the_hypergeometric_rate() {
    bad_circuit_rate(&[1], 40);
}

/// The long form (`--ignored`): k = 1, 2, 300 runs each.
#[test]
#[ignore]
fn bad_circuit_detection_rate_long() {
    bad_circuit_rate(&[1, 2], 300);
}

fn bad_circuit_rate(ks: &[usize], runs: usize) {
    let seed = Prg::new().random_u64() >> 16;
    let a = agreed(2, 6);
    let (m, nb) = (a.params.main.m as usize, (a.params.main.b * 2) as usize);
    for &k in ks {
        let mut p_escape = 1.0;
        for i in 0..k {
            p_escape *= (nb - i) as f64 / (m - i) as f64;
        }
        let mut caught = 0;
        for r in 0..runs {
            let o = run_protocol(&a, &[], seed + r as u64, Cheat::BadCircuit(k), Cheat::None);
            match o.bob {
                Err(Error::Cheating { check }) => {
                    assert_eq!(check, CHECK_CIRCUIT);
                    caught += 1;
                }
                Err(e) => panic!("run {r} (seed {}): {e:?}", seed + r as u64),
                Ok(_) => {}
            }
        }
        within_4_sigma(
            caught,
            runs,
            1.0 - p_escape,
            &format!("bad-circuit k={k} M={m} NB={nb}"),
            seed,
        );
    }
}

/// At s = 40 a corrupted bundle that escapes the check shares its bucket
/// with honest ones: Bob's output is still f(x, y) (several y).
#[test]
fn bad_circuit_never_gives_a_wrong_output() {
    let mut escaped = 0;
    for seed in 0..30u64 {
        let inputs = [(9u64, seed % 16), (4, 3)];
        let a = agreed(2, 40);
        let o = run_protocol(&a, &inputs, 500 + seed, Cheat::BadCircuit(1), Cheat::None);
        match o.bob {
            Err(Error::Cheating { check }) => assert_eq!(check, CHECK_CIRCUIT),
            Err(e) => panic!("seed {}: {e:?}", 500 + seed),
            Ok(outs) => {
                escaped += 1;
                for ((z, _, _), (x, y)) in outs.into_iter().zip(inputs) {
                    assert_eq!(z, expected(x, y), "seed {}", 500 + seed);
                }
            }
        }
        if escaped >= 3 {
            break;
        }
    }
    assert!(escaped >= 3);
}

/// `selective-ot` on the first `y¹` OT of each bucket: Bob aborts
/// (`ot-label-decommit`) iff that random bit is 1 in some bucket — before
/// he has any input, so the rate is `1 − 2^-N` whatever y (N = 1: 1/2).
#[test]
fn selective_ot_rate_is_independent_of_y() {
    selective_ot_rate(30);
}

/// The long form (`--ignored`): 300 runs per y.
#[test]
#[ignore]
fn selective_ot_rate_long() {
    selective_ot_rate(300);
}

fn selective_ot_rate(runs: u64) {
    let seed = Prg::new().random_u64() >> 16;
    let a = agreed(1, 6);
    for y in [0u64, 15] {
        let mut caught = 0;
        for r in 0..runs {
            let o = run_protocol(&a, &[(3, y)], seed + r, Cheat::SelectiveOt, Cheat::None);
            match o.bob {
                Err(Error::Cheating { check }) => {
                    assert_eq!(check, CHECK_OT_LABEL);
                    caught += 1;
                }
                Err(e) => panic!("{e:?}"),
                Ok(outs) => assert_eq!(outs[0].0, expected(3, y)),
            }
        }
        within_4_sigma(
            caught as usize,
            runs as usize,
            0.5,
            &format!("selective-ot y={y}"),
            seed,
        );
    }
}

#[test]
fn split_r_is_caught() {
    bob_catches(Cheat::SplitR, CHECK_RECOVERY_ENC);
}

/// `bad-recovery-circuit`: bundle 0 of C negates an output bit and a
/// minority of C' is wrong. For several y Bob either stops at
/// `check-circuit` (a bad bundle was checked) or outputs `f(x, y)` — when
/// bundle 0 was evaluated, through C''s majority (`Recovered`, with `x`
/// recovered exactly). Both branches are reached (seeds printed).
#[test]
fn bad_recovery_circuit_gives_f_or_check_circuit() {
    let a = agreed(2, 40);
    let b2 = a.params.recovery.b as usize;
    assert!((b2 - 1) / 2 >= 1, "B' = {b2}: no minority of C' to corrupt");
    let (mut caught, mut recovered) = (0, 0);
    for seed in 0..60u64 {
        let y = (seed * 7) % 16;
        let inputs = [(10u64, y), (3, 15 - y)];
        let o = run_protocol(
            &a,
            &inputs,
            900 + seed,
            Cheat::BadRecoveryCircuit,
            Cheat::None,
        );
        match o.bob {
            Err(Error::Cheating { check }) => {
                assert_eq!(check, CHECK_CIRCUIT, "seed {}", 900 + seed);
                caught += 1;
            }
            Err(e) => panic!("seed {}: {e:?}", 900 + seed),
            Ok(outs) => {
                for ((z, src, rec), (x, y)) in outs.into_iter().zip(inputs) {
                    assert_eq!(z, expected(x, y), "seed {} y {y}", 900 + seed);
                    if src == OutputSource::Recovered {
                        assert_eq!(rec, super::tests::bits(x, 4), "seed {}", 900 + seed);
                        recovered += 1;
                    }
                }
            }
        }
        if caught > 0 && recovered > 1 {
            break;
        }
    }
    println!("bad-recovery-circuit (B' = {b2}): caught {caught}, recovered {recovered}");
    assert!(caught > 0 && recovered > 1);
}

/// `invalid-output-labels` against a rigged Bob: `no-valid-circuit`, for
/// several y; and the rigging alone (honest Alice) changes nothing.
#[test]
fn invalid_output_labels_trip_no_valid_circuit() {
    for (seed, y) in [(31u64, 0u64), (32, 9), (33, 15)] {
        let a = agreed(2, 40);
        let o = run_protocol(
            &a,
            &[(5, y)],
            seed,
            Cheat::InvalidOutputLabels,
            Cheat::InvalidOutputLabels,
        );
        assert_eq!(check_of(&o.bob), Some(CHECK_NO_VALID), "y={y}: {:?}", o.bob);
        let control = run_protocol(&a, &[(5, y)], seed, Cheat::None, Cheat::InvalidOutputLabels);
        let outs = control.bob.unwrap();
        assert_eq!(outs[0].0, expected(5, y));
        assert_eq!(outs[0].1, OutputSource::Agreed);
    }
}
