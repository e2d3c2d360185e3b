//! Two-party runs of F_ExCom∆ZK over the in-memory transport.

use super::*;
use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel};

/// Runs Alice on a scoped thread and Bob here.
fn run<A: Send, B>(
    fa: impl FnOnce(&mut Channel) -> A + Send,
    fb: impl FnOnce(&mut Channel) -> B,
) -> (A, B) {
    let (mut ca, mut cb) = memory_pair();
    std::thread::scope(|s| {
        let h = s.spawn(move || {
            let r = fa(&mut ca);
            drop(ca);
            r
        });
        let b = fb(&mut cb);
        drop(cb);
        (h.join().unwrap(), b)
    })
}

fn messages(p: &ExComParams, seed: u128) -> Vec<Vec<u8>> {
    let mut prg = Prg::from_seed(Block(seed));
    (0..p.total)
        .map(|_| {
            let mut m = vec![0u8; p.msg_bytes];
            prg.fill_bytes(&mut m);
            m
        })
        .collect()
}

/// Alice's honest run, buckets one after another.
fn alice(
    ch: &mut Channel,
    p: ExComParams,
    msgs: Vec<Vec<u8>>,
    seed: u128,
    #[allow(unused)] cheat: Option<ProverCheatOpt>,
) -> Result<Vec<Vec<usize>>> {
    let mut prg = Prg::from_seed(Block(seed));
    #[allow(unused_mut)]
    let mut c = AwaitingCommit::receive(ch, p)?.commit(ch, msgs, &mut prg)?;
    #[cfg(feature = "adversary")]
    if let Some(x) = cheat {
        c.set_cheat(x);
    }
    let (mut sess, tokens) = c.receive_selection(ch)?;
    for t in tokens {
        let a = sess.prove(ch, t)?;
        sess.respond(ch, a)?;
    }
    Ok(sess.buckets().to_vec())
}

#[cfg(feature = "adversary")]
type ProverCheatOpt = ProverCheat;
#[cfg(not(feature = "adversary"))]
type ProverCheatOpt = ();

/// Bob's run with the given challenges, buckets one after another.
fn bob(
    ch: &mut Channel,
    p: ExComParams,
    seed: u128,
    challenges: Option<Vec<BucketChallenge>>,
) -> Result<(Vec<ProvenDifferences>, Vec<CheckedMessage>)> {
    let mut prg = Prg::from_seed(Block(seed));
    let (v, challenges) = match challenges {
        None => VerifierAwaiting::start(ch, p, &mut prg)?,
        Some(c) => VerifierAwaiting::start_with(ch, p, Selection::random(&p, &mut prg), c)?,
    };
    let (sess, opened) = v.receive_commitments(ch)?;
    let mut out = Vec::new();
    for c in challenges {
        let claim = sess.receive_differences(ch, c)?;
        let o = sess.open_challenge(ch, claim)?;
        out.push(sess.verify(ch, o)?);
    }
    Ok((out, opened))
}

#[test]
fn honest_run_proves_the_true_differences() {
    let p = ExComParams::new(40, 16, 23, 4, 5).unwrap();
    let msgs = messages(&p, 1);
    let m2 = msgs.clone();
    let (a, b) = run(
        move |ch| alice(ch, p, m2, 2, None),
        move |ch| bob(ch, p, 3, None),
    );
    let buckets = a.unwrap();
    let (proven, opened) = b.unwrap();
    assert_eq!(proven.len(), 4);
    let mut seen = vec![false; p.total];
    for pd in &proven {
        assert_eq!(pd.members, buckets[pd.bucket]);
        assert_eq!(pd.members.len(), 5);
        for (k, d) in pd.deltas.iter().enumerate() {
            let (x, y) = (&msgs[pd.members[k]], &msgs[pd.members[k + 1]]);
            let want: Vec<u8> = x.iter().zip(y).map(|(a, b)| a ^ b).collect();
            assert_eq!(**d, want);
        }
        for &j in &pd.members {
            assert!(!std::mem::replace(&mut seen[j], true));
        }
    }
    assert_eq!(opened.len(), 3);
    for (j, m) in &opened {
        assert_eq!(m, &msgs[*j]);
        assert!(!seen[*j], "a checked message is in a bucket");
    }
}

/// All differences first, then all challenges, then all verifications:
/// the per-bucket types allow batching into few flights.
#[test]
fn batched_buckets() {
    let p = ExComParams::new(40, 8, 12, 3, 3).unwrap();
    let msgs = messages(&p, 4);
    let (a, b) = run(
        move |ch| -> Result<()> {
            let mut prg = Prg::from_seed(Block(5));
            let c = AwaitingCommit::receive(ch, p)?.commit(ch, msgs, &mut prg)?;
            let (mut sess, tokens) = c.receive_selection(ch)?;
            let pending: Vec<_> = tokens
                .into_iter()
                .map(|t| sess.prove(ch, t))
                .collect::<Result<_>>()?;
            for a in pending {
                sess.respond(ch, a)?;
            }
            Ok(())
        },
        move |ch| -> Result<usize> {
            let mut prg = Prg::from_seed(Block(6));
            let (v, challenges) = VerifierAwaiting::start(ch, p, &mut prg)?;
            let (sess, _) = v.receive_commitments(ch)?;
            let claims: Vec<_> = challenges
                .into_iter()
                .map(|c| sess.receive_differences(ch, c))
                .collect::<Result<_>>()?;
            let opened: Vec<_> = claims
                .into_iter()
                .map(|c| sess.open_challenge(ch, c))
                .collect::<Result<_>>()?;
            let mut n = 0;
            for o in opened {
                sess.verify(ch, o)?;
                n += 1;
            }
            Ok(n)
        },
    );
    a.unwrap();
    assert_eq!(b.unwrap(), 3);
}

/// A committed σ with one evaluated circuit too few (Bob would check, and
/// so see the seed of, one more circuit than agreed) is refused by Alice.
#[test]
fn selection_of_the_wrong_weight_is_refused() {
    let p = ExComParams::new(40, 16, 10, 2, 3).unwrap();
    let (a, _) = run(
        move |ch| alice(ch, p, messages(&p, 40), 41, None),
        move |ch| -> Result<()> {
            let mut prg = Prg::from_seed(Block(42));
            let mut sigma = vec![false; p.total];
            sigma[..p.evaluated() - 1]
                .iter_mut()
                .for_each(|b| *b = true);
            let sel = Selection::with_sigma(sigma, &mut prg);
            let ch_list = (0..p.buckets)
                .map(|j| BucketChallenge::random(j, p.s, &mut prg))
                .collect();
            let (v, _) = VerifierAwaiting::start_with(ch, p, sel, ch_list)?;
            v.receive_commitments(ch).map(|_| ())
        },
    );
    assert!(
        matches!(a, Err(Error::Cheating { check }) if check == CHECK_SELECTION),
        "{a:?}"
    );
}

/// Bob's σ is uniform: each of M = 20 positions is evaluated (NB = 10)
/// with probability 1/2; a two-sided χ² test over 4000 draws, seed printed.
#[test]
fn selection_is_uniform() {
    let seed = Prg::new().random_u64();
    println!("selection_is_uniform seed = {seed}");
    let p = ExComParams::new(40, 1, 20, 5, 2).unwrap();
    let mut prg = Prg::from_seed(Block(seed as u128));
    let draws = 4000;
    let mut counts = [0u64; 20];
    for _ in 0..draws {
        let (buckets, checked) = Selection::random(&p, &mut prg).buckets(&p);
        assert_eq!(checked.len(), 10);
        assert!(buckets.iter().all(|b| b.len() == 2));
        for b in buckets {
            for j in b {
                counts[j] += 1;
            }
        }
    }
    // Each count has variance draws/4; exactly 10 of 20 per draw gives
    // covariance −draws/76 between positions, so the covariance has
    // eigenvalue draws·5/19 on the 19 directions orthogonal to (1,…,1)
    // and 0 along it: Σ (c−e)²/(draws/4) · 19/20 ~ χ² with 19 d.o.f.
    let e = draws as f64 / 2.0;
    let stat: f64 = counts
        .iter()
        .map(|&c| (c as f64 - e).powi(2) / (draws as f64 / 4.0))
        .sum::<f64>()
        * 19.0
        / 20.0;
    // Two-sided at 0.001 each way (Wilson–Hilferty): 5.3 < χ²_19 < 43.8.
    assert!(
        (5.3..43.8).contains(&stat),
        "seed {seed}: chi2 = {stat:.1}, counts {counts:?}"
    );
}

#[test]
fn parameters_are_checked() {
    assert!(matches!(
        ExComParams::new(39, 16, 10, 2, 2),
        Err(Error::Config(_))
    ));
    assert!(matches!(
        ExComParams::new(40, 16, 3, 2, 2),
        Err(Error::Config(_))
    ));
    assert!(matches!(
        ExComParams::new(40, 0, 10, 2, 2),
        Err(Error::Config(_))
    ));
    assert!(ExComParams::new(40, 16, 4, 2, 2).is_ok());
}

/// Garbage from the peer is an error, never a panic.
#[test]
fn malformed_peer_bytes() {
    let p = ExComParams::new(40, 16, 10, 2, 3).unwrap();
    // Bob sends commitments, then a selection opening of random bytes.
    let (a, b) = run(
        move |ch| alice(ch, p, messages(&p, 7), 8, None),
        move |ch| -> Result<()> {
            for _ in 0..=p.buckets {
                ch.send_bytes(&[7u8; 32])?;
            }
            let mut sink = vec![0u8; p.total * 2 * p.s as usize * 32];
            ch.recv_bytes(&mut sink)?;
            ch.send_bytes(&vec![0xAB; p.total.div_ceil(8) + 32])?;
            ch.flush()
        },
    );
    assert!(
        matches!(a, Err(Error::Malformed(_)) | Err(Error::Cheating { .. })),
        "{a:?}"
    );
    let _ = b;
    // Alice disconnects in the middle of her commitments.
    let (_, b) = run(
        move |ch| -> Result<()> {
            let mut c = [0u8; 32];
            for _ in 0..=p.buckets {
                ch.recv_bytes(&mut c)?;
            }
            ch.send_bytes(&[1u8; 100])?;
            ch.flush()
        },
        move |ch| bob(ch, p, 9, None),
    );
    assert!(b.is_err());
    // Challenge opening parser.
    let c = hashcom::commit(hashcom::Role::Challenge(0), &[0u8; 5], &[0; 16]);
    assert!(matches!(
        challenge::open(0, 40, &[0u8; 3], &c),
        Err(Error::Malformed(_))
    ));
    let mut pad = vec![0u8; 5 + 16];
    pad[4] = 0x80; // bit 39: padding when s = 36
    assert!(matches!(
        challenge::open(0, 36, &pad, &c),
        Err(Error::Malformed(_))
    ));
    assert!(challenge::open(0, 40, &[0u8; 21], &c).is_ok());
    assert!(matches!(
        challenge::open(1, 40, &[0u8; 21], &c),
        Err(Error::Cheating {
            check: CHECK_CHALLENGE
        })
    ));
}

#[cfg(feature = "adversary")]
mod adversary {
    use super::*;

    fn check_of<T: std::fmt::Debug>(r: &Result<T>) -> Option<&'static str> {
        match r {
            Err(Error::Cheating { check }) => Some(check),
            _ => None,
        }
    }

    /// The prototype's flaw: with one `W` reused for every bucket, a
    /// garbler that saw `W` in bucket 0 proves a false difference in bucket
    /// 1 and Bob accepts it. With a fresh committed `W_j` per bucket (our
    /// protocol) the same garbler is caught by `mask-difference`.
    #[test]
    fn reused_challenge_attack_is_rejected() {
        let p = ExComParams::new(40, 16, 10, 2, 3).unwrap();
        let msgs = messages(&p, 10);
        // Modelled prototype: both buckets' challenges are the same W.
        let w = Prg::from_seed(Block(11)).random_bits(40);
        let mut prg = Prg::from_seed(Block(12));
        let same = vec![
            BucketChallenge::fixed(0, w.clone(), &mut prg),
            BucketChallenge::fixed(1, w, &mut prg),
        ];
        let m2 = msgs.clone();
        let (a, b) = run(
            move |ch| alice(ch, p, m2, 13, Some(ProverCheat::ReuseChallenge)),
            move |ch| bob(ch, p, 14, Some(same)),
        );
        a.unwrap();
        let (proven, _) = b.unwrap();
        let pd = &proven[1];
        let (x, y) = (&msgs[pd.members[0]], &msgs[pd.members[1]]);
        let truth: Vec<u8> = x.iter().zip(y).map(|(a, b)| a ^ b).collect();
        assert_ne!(
            *pd.deltas[0], truth,
            "the forgery was accepted: the attack is real"
        );
        // Ours: fresh challenges per bucket.
        let (_, b) = run(
            move |ch| alice(ch, p, msgs, 13, Some(ProverCheat::ReuseChallenge)),
            move |ch| bob(ch, p, 14, None),
        );
        assert_eq!(check_of(&b), Some(CHECK_DIFFERENCE), "{:?}", b.err());
    }

    /// A false ∆ with guessed sides passes with probability 2^-s. At s = 4
    /// over 2000 runs the detection count is within 4σ of 2000·15/16.
    #[test]
    fn false_difference_detection_rate() {
        let seed = Prg::new().random_u64();
        println!("false_difference_detection_rate seed = {seed}");
        let p = ExComParams::insecure_for_tests(4, 4, 3, 1, 2).unwrap();
        let runs = 2000u64;
        let mut caught = 0u64;
        for r in 0..runs {
            let cheat = ProverCheat::FalseDifference {
                bucket: 0,
                seed: seed ^ r,
            };
            let (_, b) = run(
                move |ch| {
                    alice(
                        ch,
                        p,
                        messages(&p, r as u128),
                        (seed ^ r) as u128 + 1,
                        Some(cheat),
                    )
                },
                move |ch| bob(ch, p, (seed as u128) << 32 | r as u128, None),
            );
            match check_of(&b) {
                Some(CHECK_DIFFERENCE) => caught += 1,
                None => assert!(b.is_ok()),
                Some(other) => panic!("seed {seed}: unexpected check {other}"),
            }
        }
        let q = 15.0 / 16.0;
        let mean = runs as f64 * q;
        let sd = (runs as f64 * q * (1.0 - q)).sqrt();
        assert!(
            (caught as f64 - mean).abs() <= 4.0 * sd,
            "seed {seed}: caught {caught} of {runs}, expected {mean:.0} ± {:.0}",
            4.0 * sd
        );
    }

    #[test]
    fn bad_check_open_is_caught() {
        let p = ExComParams::new(40, 16, 10, 2, 3).unwrap();
        let (_, b) = run(
            move |ch| alice(ch, p, messages(&p, 20), 21, Some(ProverCheat::BadCheckOpen)),
            move |ch| bob(ch, p, 22, None),
        );
        assert_eq!(check_of(&b), Some(CHECK_OPEN));
    }

    #[test]
    fn delta_mismatch_and_bad_side_open_are_caught() {
        let p = ExComParams::new(40, 16, 10, 2, 3).unwrap();
        for (cheat, check) in [
            (ProverCheat::DeltaMismatch, CHECK_DELTA_SUM),
            (ProverCheat::BadSideOpen, CHECK_DECOMMIT),
        ] {
            let (_, b) = run(
                move |ch| alice(ch, p, messages(&p, 23), 24, Some(cheat)),
                move |ch| bob(ch, p, 25, None),
            );
            assert_eq!(check_of(&b), Some(check), "{cheat:?}");
        }
    }

    fn bob_cheating(ch: &mut Channel, p: ExComParams, cheat: VerifierCheat) -> Result<()> {
        let mut prg = Prg::from_seed(Block(30));
        let (mut v, challenges) = VerifierAwaiting::start(ch, p, &mut prg)?;
        v.set_cheat(cheat);
        let (sess, _) = v.receive_commitments(ch)?;
        for c in challenges {
            let claim = sess.receive_differences(ch, c)?;
            let o = sess.open_challenge(ch, claim)?;
            sess.verify(ch, o)?;
        }
        Ok(())
    }

    #[test]
    fn bob_cheats_are_caught_by_alice() {
        let p = ExComParams::new(40, 16, 10, 2, 3).unwrap();
        for (cheat, check) in [
            (VerifierCheat::BadSelectionOpen, CHECK_SELECTION),
            (VerifierCheat::BadChallengeOpen, CHECK_CHALLENGE),
        ] {
            let (a, b) = run(
                move |ch| alice(ch, p, messages(&p, 31), 32, None),
                move |ch| bob_cheating(ch, p, cheat),
            );
            assert_eq!(check_of(&a), Some(check), "{cheat:?}");
            assert!(b.is_err());
        }
    }
}
