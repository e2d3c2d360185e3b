//! Every check against its named cheat (cargo feature `adversary`).
#![cfg(feature = "adversary")]

mod common;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error};
use brickyard_ihash::{Cheat, Params, Receiver, Sender};

/// One session with `cheat` (Setup, then a batch of `count` random
/// messages); returns (Alice's result, Bob's result) as errors.
fn session(p: Params, cheat: Cheat, count: usize, seed: u128) -> (Option<Error>, Option<Error>) {
    common::run(
        move |ch| {
            let mut prg = Prg::from_seed(Block(seed));
            let mut s = match Sender::setup_with_cheat(ch, &mut prg, p, Some(cheat)) {
                Ok(s) => s,
                Err(e) => return Some(e),
            };
            s.hash_random(ch, count).err()
        },
        move |ch| {
            let mut prg = Prg::from_seed(Block(seed ^ 0x5555));
            let mut r = match Receiver::setup_with_cheat(ch, &mut prg, p, Some(cheat)) {
                Ok(r) => r,
                Err(e) => return Some(e),
            };
            r.hash_random(ch, &mut prg, count).err()
        },
    )
}

fn is_check(e: &Option<Error>, name: &str) -> bool {
    matches!(e, Some(Error::Cheating { check }) if *check == name)
}

fn peer_aborted(e: &Option<Error>, name: &str) -> bool {
    matches!(e, Some(Error::Disconnected(m)) if m.contains(name))
}

#[test]
fn bob_with_w_plus_one_seeds_cannot_finish_setup() {
    for p in [
        Params::for_labels(88, 40).unwrap(),
        Params::toy(12, 6, 4, 6, 6).unwrap(),
    ] {
        let (a, b) = session(p, Cheat::ReceiverExtraSeed, 4, 0x5e);
        assert!(is_check(&a, "ihash-setup-key"), "alice: {a:?}");
        assert!(peer_aborted(&b, "ihash-setup-key"), "bob: {b:?}");
    }
}

#[test]
fn wrong_check_answer_is_caught() {
    let p = Params::for_labels(88, 40).unwrap();
    let cheat = Cheat::SenderBadAnswer {
        t: 2,
        symbol: 7,
        delta: 0x31,
    };
    let (a, b) = session(p, cheat, 50, 0xa5);
    assert!(is_check(&b, "ihash-consistency"), "bob: {b:?}");
    assert!(peer_aborted(&a, "ihash-consistency"), "alice: {a:?}");
}

/// Corrupted parity corrections: caught iff the position is watched and
/// the message's coefficient is nonzero, (w/n)(1 − 2^-σξ); toy set with
/// ξ = 1 so the second factor is visible in principle.
fn bad_corrections(trials: usize, seed: u128) {
    let p = Params::toy(12, 6, 4, 6, 6).unwrap();
    assert_eq!(p.xi(), 1);
    let cheat = Cheat::SenderBadCorrection {
        position: 8,
        message: 1,
        delta: 0x15,
    };
    let mut caught = 0;
    for i in 0..trials {
        let (a, b) = session(p, cheat, 3, seed + i as u128);
        match b {
            None => assert!(a.is_none()),
            Some(_) => {
                assert!(is_check(&b, "ihash-consistency"), "bob: {b:?}");
                assert!(peer_aborted(&a, "ihash-consistency"), "alice: {a:?}");
                caught += 1;
            }
        }
    }
    let rate = (4.0 / 12.0) * (1.0 - 1.0 / 64.0);
    common::assert_rate("bad parity correction", caught, trials, rate, seed);
}

#[test]
fn bad_parity_corrections_caught_at_the_analysed_rate() {
    bad_corrections(600, 0xc0_0000);
}

/// Corrupted Shamir share: caught by Bob's key check iff he took the share,
/// i.e. did not watch the position: (n − w)/n.
fn bad_shares(trials: usize, seed: u128) {
    let p = Params::toy(12, 6, 4, 6, 6).unwrap();
    let mut caught = 0;
    for i in 0..trials {
        let (a, b) = session(
            p,
            Cheat::SenderBadShare { position: 5 },
            2,
            seed + i as u128,
        );
        match b {
            None => assert!(a.is_none()),
            Some(_) => {
                assert!(is_check(&b, "ihash-setup-shares"), "bob: {b:?}");
                assert!(peer_aborted(&a, "ihash-setup-shares"), "alice: {a:?}");
                caught += 1;
            }
        }
    }
    common::assert_rate("bad share", caught, trials, 8.0 / 12.0, seed);
}

#[test]
fn bad_shares_caught_at_the_analysed_rate() {
    bad_shares(300, 0x5a_0000);
}

/// `cargo-slot test -p brickyard-ihash --release --all-features --test cheating -- --ignored`
#[test]
#[ignore]
fn cheats_caught_at_the_analysed_rates_long() {
    bad_corrections(10_000, 0xc1_0000);
    bad_shares(10_000, 0x5b_0000);
}
