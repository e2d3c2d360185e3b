//! Batch openings given by an [`XorProgram`]: the values of the equivalent
//! sets, one check on the wire, and a committer that opens anything else
//! is caught.

use super::{ideal_setup, run};
use crate::XorProgram;
use brickyard_core::{Block, Error};

/// r0 = C1 ⊕ C2, r1 = r0 ⊕ C3, r2 = r0 ⊕ r1 (= C3), r3 = 0; opens
/// r1 ⊕ C4, r2 ⊕ C5, r3 ⊕ C6 and r0 ⊕ C`last`.
fn prog(last: usize) -> (XorProgram, Vec<Vec<usize>>) {
    let mut p = XorProgram::default();
    p.load(0, &[1, 2]);
    p.xor_id(1, 0, 3);
    p.xor(2, 0, 1);
    p.load(3, &[]);
    p.open(1, 4);
    p.open(2, 5);
    p.open(3, 6);
    p.open(0, last);
    let sets = vec![vec![1, 2, 3, 4], vec![3, 5], vec![6], vec![1, 2, last]];
    (p, sets)
}

#[test]
fn program_opens_the_xors_of_the_equivalent_sets() {
    let (mut c, mut r) = ideal_setup(11);
    let (p, sets) = prog(7);
    assert_eq!(p.items(), 4);
    let ((), (got, want)) = run(
        &mut c,
        &mut r,
        |c, ch| {
            c.commit_random(ch, 300).unwrap();
            c.batch_open_program(ch, &p).unwrap();
            c.batch_open_xor(ch, &sets).unwrap();
        },
        |r, ch| {
            r.receive_commitments(ch, 300).unwrap();
            (
                r.verify_batch_open_program(ch, &p).unwrap(),
                r.verify_batch_open_xor(ch, &sets).unwrap(),
            )
        },
    );
    let val = |s: &[usize]| s.iter().fold(Block::ZERO, |a, &i| a ^ c.value(i).unwrap());
    assert_eq!(got, sets.iter().map(|s| val(s)).collect::<Vec<_>>());
    assert_eq!(got, want);
}

#[test]
fn a_committer_running_another_program_is_caught() {
    let (mut c, mut r) = ideal_setup(12);
    let (theirs, _) = prog(8);
    let (ours, _) = prog(7);
    let ((), got) = run(
        &mut c,
        &mut r,
        |c, ch| {
            c.commit_random(ch, 300).unwrap();
            c.batch_open_program(ch, &theirs).unwrap();
        },
        |r, ch| {
            r.receive_commitments(ch, 300).unwrap();
            r.verify_batch_open_program(ch, &ours)
        },
    );
    match got {
        Err(Error::Cheating { check }) => assert_eq!(check, "batch-decommit"),
        other => panic!("expected batch-decommit, got {other:?}"),
    }
}

#[test]
fn unknown_ids_are_refused_before_sending() {
    let (mut c, mut r) = ideal_setup(13);
    let (p, _) = prog(5000);
    let (sent, got) = run(
        &mut c,
        &mut r,
        |c, ch| {
            c.commit_random(ch, 300).unwrap();
            c.batch_open_program(ch, &p)
        },
        |r, ch| {
            r.receive_commitments(ch, 300).unwrap();
            r.verify_batch_open_program(ch, &p)
        },
    );
    assert!(matches!(sent, Err(Error::Config(_))), "{sent:?}");
    assert!(matches!(got, Err(Error::Config(_))), "{got:?}");
}

/// Program ids renumbered per copy: copy k reads program id i as
/// commitment `10 + 20·k + i`.
fn maps(copies: usize) -> Vec<Vec<usize>> {
    (0..copies)
        .map(|k| (0..10).map(|i| 10 + 20 * k + i).collect())
        .collect()
}

#[test]
fn several_copies_open_in_one_batch_with_their_own_ids() {
    let (mut c, mut r) = ideal_setup(14);
    let (p, sets) = prog(7);
    let maps = maps(3);
    let ((), got) = run(
        &mut c,
        &mut r,
        |c, ch| {
            c.commit_random(ch, 300).unwrap();
            let mut b = crate::OpenBatch::default();
            for m in &maps {
                c.gather_program(&p, Some(m), &mut b).unwrap();
            }
            assert_eq!(b.len(), 3 * p.items());
            b.send(ch).unwrap();
        },
        |r, ch| {
            r.receive_commitments(ch, 300).unwrap();
            let mut b = crate::CheckBatch::default();
            for m in &maps {
                r.gather_program(&p, Some(m), &mut b).unwrap();
            }
            r.verify_batch(ch, b).unwrap()
        },
    );
    let val = |s: &[usize]| s.iter().fold(Block::ZERO, |a, &i| a ^ c.value(i).unwrap());
    let want: Vec<Block> = maps
        .iter()
        .flat_map(|m| {
            sets.iter()
                .map(|s| val(&s.iter().map(|&i| m[i]).collect::<Vec<_>>()))
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn one_copy_opened_with_wrong_ids_fails_the_whole_batch() {
    let (mut c, mut r) = ideal_setup(15);
    let (p, _) = prog(7);
    let ours = maps(3);
    let mut theirs = ours.clone();
    theirs[1][4] = 299;
    let ((), got) = run(
        &mut c,
        &mut r,
        |c, ch| {
            c.commit_random(ch, 300).unwrap();
            let mut b = crate::OpenBatch::default();
            for m in &theirs {
                c.gather_program(&p, Some(m), &mut b).unwrap();
            }
            b.send(ch).unwrap();
        },
        |r, ch| {
            r.receive_commitments(ch, 300).unwrap();
            let mut b = crate::CheckBatch::default();
            for m in &ours {
                r.gather_program(&p, Some(m), &mut b).unwrap();
            }
            r.verify_batch(ch, b)
        },
    );
    match got {
        Err(Error::Cheating { check }) => assert_eq!(check, "batch-decommit"),
        other => panic!("expected batch-decommit, got {other:?}"),
    }
}

#[test]
fn a_map_too_short_for_the_program_is_refused() {
    let (c, r) = ideal_setup(16);
    let (p, _) = prog(7);
    let short = vec![0usize; 5];
    let mut b = crate::OpenBatch::default();
    assert!(matches!(
        c.gather_program(&p, Some(&short), &mut b),
        Err(Error::Config(_))
    ));
    let mut cb = crate::CheckBatch::default();
    assert!(matches!(
        r.gather_program(&p, Some(&short), &mut cb),
        Err(Error::Config(_))
    ));
}
