//! A malicious committer is caught (each trial must fail; an honest-looking
//! pass happens with probability ≤ 2^-20 per trial for the weakest cheat
//! below, far below 50 trials' worth).

use super::{ideal_setup, run};
use crate::cheat::Cheat;
use crate::code::xor_rows;
use crate::params::K;
use crate::sliced::combine_item_rows;
use crate::wire::{put_opening, send_count};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error};

const TRIALS: u128 = 50;

fn assert_cheating<T: std::fmt::Debug>(r: Result<T, Error>, check: &str) {
    match r {
        Err(Error::Cheating { check: c }) => assert_eq!(c, check),
        other => panic!("expected Cheating({check}), got {other:?}"),
    }
}

#[test]
fn opening_a_different_value_is_caught() {
    // The committer opens m ⊕ δ and guesses the watch bits where the two
    // codewords differ (≥ 41 of them): it needs all guesses right.
    let (mut c, mut r) = ideal_setup(10);
    run(
        &mut c,
        &mut r,
        |c, ch| c.commit_random(ch, 300).unwrap(),
        |r, ch| r.receive_commitments(ch, 300).unwrap(),
    );
    for trial in 0..TRIALS {
        let mut prg = Prg::from_seed(Block(trial));
        let id = trial as usize * 5;
        let (res, ()) = run(
            &mut c,
            &mut r,
            |c, ch| {
                let (m, t) = c.item([id]).unwrap();
                let delta = Block(prg.random_block().0 | 1);
                let code = c.params.code();
                let diff = xor_rows(&code.encode(m), &code.encode(m ^ delta));
                let guess = {
                    let g = prg.random_blocks(3);
                    let mut w = [0u64; crate::params::ROW_WORDS];
                    w[..5].copy_from_slice(&[
                        g[0].0 as u64,
                        (g[0].0 >> 64) as u64,
                        g[1].0 as u64,
                        g[2].0 as u64,
                        (g[2].0 >> 64) as u64,
                    ]);
                    w
                };
                let t2: [u64; crate::params::ROW_WORDS] =
                    std::array::from_fn(|i| t[i] ^ (diff[i] & guess[i]));
                let mut buf = Vec::new();
                put_opening(&mut buf, c.params.n(), m ^ delta, &t2);
                send_count(ch, 1).unwrap();
                ch.send_bytes(&buf).unwrap();
                ch.flush().unwrap();
            },
            |r, ch| r.verify_open(ch, &[id]),
        )
        .rev();
        assert_cheating(res, "decommit");
    }
}

#[test]
fn opening_a_wrong_xor_is_caught() {
    let (mut c, mut r) = ideal_setup(11);
    run(
        &mut c,
        &mut r,
        |c, ch| c.commit_random(ch, 300).unwrap(),
        |r, ch| r.receive_commitments(ch, 300).unwrap(),
    );
    for trial in 0..TRIALS as usize {
        let set = [trial, trial + 100, trial + 200];
        let (res, ()) = run(
            &mut c,
            &mut r,
            |c, ch| {
                // Claims the XOR of only two of the three, with its true share.
                let (m, _) = c.item(&set[..2]).unwrap();
                let (_, t) = c.item(set).unwrap();
                let mut buf = Vec::new();
                put_opening(&mut buf, c.params.n(), m, &t);
                send_count(ch, 1).unwrap();
                ch.send_bytes(&buf).unwrap();
                ch.flush().unwrap();
            },
            |r, ch| r.verify_open_xor(ch, &[set]),
        )
        .rev();
        assert_cheating(res, "decommit");
    }
}

#[test]
fn non_codeword_corrections_are_caught() {
    // Flipping 20 correction bits moves a column halfway towards another
    // codeword; the check answer stays honest. Passing needs Δ_R = 0 on
    // all flipped positions that carry a correction.
    for trial in 0..TRIALS {
        let (mut c, mut r) = ideal_setup(1000 + trial);
        let mut prg = Prg::from_seed(Block(trial));
        let mut pos: Vec<usize> = (K..c.params.n()).collect();
        prg.shuffle(&mut pos);
        let mut flip = [0u64; crate::params::ROW_WORDS];
        for &j in &pos[..20] {
            flip[j / 64] |= 1 << (j % 64);
        }
        let id = prg.gen_range(700) as usize;
        c.cheat = Cheat::Corrections { id, flip };
        let (_, res) = run(
            &mut c,
            &mut r,
            |c, ch| c.commit_random(ch, 700),
            |r, ch| r.receive_commitments(ch, 700),
        );
        assert_cheating(res, "commit-consistency");
        assert!(r.is_empty(), "a failed batch must not be kept");
    }
}

#[test]
fn a_bad_first_batch_is_caught_when_a_second_was_started() {
    // Started batches finish in order; a failed check drops the batch and
    // every batch started after it.
    for trial in 0..10 {
        let (mut c, mut r) = ideal_setup(3000 + trial);
        let id = Prg::from_seed(Block(trial)).gen_range(500) as usize;
        let mut flip = [0u64; crate::params::ROW_WORDS];
        flip[2] = 0xffff_f000;
        c.cheat = Cheat::Corrections { id, flip };
        let (_, res) = run(
            &mut c,
            &mut r,
            |c, ch| {
                let a = c.commit_random_start(ch, 500)?;
                let b = c.commit_start(ch, &[Block(3); 40])?;
                c.commit_finish(ch, a)?;
                c.commit_finish(ch, b)
            },
            |r, ch| {
                let a = r.receive_start(ch, 500)?;
                let b = r.receive_start(ch, 40)?;
                r.receive_finish(ch, a)?;
                r.receive_finish(ch, b)
            },
        );
        assert_cheating(res, "commit-consistency");
        assert!(r.is_empty(), "failed and later batches must not be kept");
    }
}

#[test]
fn wrong_consistency_answers_are_caught() {
    for trial in 0..TRIALS {
        let (mut c, mut r) = ideal_setup(2000 + trial);
        let mut prg = Prg::from_seed(Block(trial));
        // Anywhere in either combination: a share (t̃) or a message (m̃) entry.
        let index = prg.gen_range(2 * (c.params.n() + K) as u64) as usize;
        c.cheat = Cheat::Response {
            index,
            delta: Block(prg.random_block().0 | 1),
        };
        let (_, res) = run(
            &mut c,
            &mut r,
            |c, ch| c.commit(ch, &[Block(1); 130]),
            |r, ch| r.receive_commitments(ch, 130),
        );
        assert_cheating(res, "commit-consistency");
    }
}

#[test]
fn wrong_batch_opening_is_caught() {
    let (mut c, mut r) = ideal_setup(12);
    run(
        &mut c,
        &mut r,
        |c, ch| c.commit_random(ch, 500).unwrap(),
        |r, ch| r.receive_commitments(ch, 500).unwrap(),
    );
    let ids: Vec<usize> = (0..500).collect();
    for trial in 0..TRIALS {
        let mut prg = Prg::from_seed(Block(trial));
        let bad = prg.gen_range(500) as usize;
        let delta = Block(prg.random_block().0 | 1);
        let (res, ()) = run(
            &mut c,
            &mut r,
            |c, ch| {
                let mut ms: Vec<Block> = ids.iter().map(|&i| c.value(i).unwrap()).collect();
                ms[bad] ^= delta;
                let ts: Vec<_> = ids.iter().map(|&i| c.item([i]).unwrap().1).collect();
                send_count(ch, ids.len()).unwrap();
                ch.send_blocks(&ms).unwrap();
                let alpha = ch.recv_block().unwrap();
                let n = c.params.n();
                ch.send_blocks(&combine_item_rows(&ts, n, alpha)[..n])
                    .unwrap();
                ch.flush().unwrap();
            },
            |r, ch| r.verify_batch_open(ch, &ids),
        )
        .rev();
        assert_cheating(res, "batch-decommit");
    }
}

#[test]
fn wrong_bit_claims_are_caught() {
    let (mut c, mut r) = ideal_setup(13);
    run(
        &mut c,
        &mut r,
        |c, ch| c.commit_random(ch, 260).unwrap(),
        |r, ch| r.receive_commitments(ch, 260).unwrap(),
    );
    let s = c.params.blinders();
    assert_eq!(s, 43);
    let sets: Vec<[usize; 1]> = (0..200).map(|i| [i]).collect();
    let blinders: Vec<usize> = (200..200 + s).collect();
    for trial in 0..TRIALS {
        let mut prg = Prg::from_seed(Block(trial));
        let bad = prg.gen_range(200) as usize;
        let (res, ()) = run(
            &mut c,
            &mut r,
            |c, ch| {
                // Claims one flipped bit, then opens the true combinations.
                let mut claims: Vec<bool> =
                    (0..200 + s).map(|i| c.value(i).unwrap().lsb()).collect();
                claims[bad] ^= true;
                send_count(ch, 200).unwrap();
                ch.send_bits(&claims).unwrap();
                let seed = ch.recv_block().unwrap();
                let rows = crate::open_committer::challenge_rows(seed, 200, s);
                let mut buf = Vec::new();
                for (l, row) in rows.iter().enumerate() {
                    let mut set = vec![200 + l];
                    set.extend((0..200).filter(|&q| row[q]));
                    let (m, t) = c.item(&set).unwrap();
                    put_opening(&mut buf, c.params.n(), m, &t);
                }
                send_count(ch, s).unwrap();
                ch.send_bytes(&buf).unwrap();
                ch.flush().unwrap();
            },
            |r, ch| r.verify_open_bits(ch, &sets, 0, &blinders),
        )
        .rev();
        assert_cheating(res, "bit-open");
    }
}

/// Swaps a pair (helper so the receiver's result comes first).
trait Rev<A, B> {
    fn rev(self) -> (B, A);
}
impl<A, B> Rev<A, B> for (A, B) {
    fn rev(self) -> (B, A) {
        (self.1, self.0)
    }
}
