//! Bob's evaluation rules for buckets (TinyLEGO, reconstructed in
//! `docs/protocols/lego.md`, "Bucket evaluation").
//!
//! * AND bucket: evaluate every gate on the head's soldered keys. If all
//!   agree, that is the output. If two candidates differ by a confirmed Δ,
//!   both are valid keys (e.g. a NAND gate in the bucket): Bob has Δ and
//!   switches to extraction. Otherwise each candidate scores one point per
//!   gate that produced it and per authenticator that accepts it; the best
//!   score wins (this is the rule Theorem 2 analyses).
//! * Input authenticators: a key is accepted iff a strict majority of the
//!   α̃ = 2α+1 authenticators accepts it.
//! * Δ confirmation: a candidate Δ' is accepted iff Bob kept at least
//!   `confirming_min(s_c)` = 2·s_c checked authenticators (s_c = s + 3, see
//!   `security.rs`) and Δ' opens the *other* slot of a strict majority of
//!   them. A wrong Δ' needs Alice to have corrupted the other slot of that
//!   majority, each of which survived its check with probability 1/2:
//!   ≤ 2^-(s_c+1) (`docs/protocols/lego.md`, "Δ confirmation"). Bob's
//!   cut-and-choose guarantees the count for the run's s; the floor here,
//!   for the smallest s LEGO accepts, keeps a bug elsewhere from confirming
//!   on too few.

use super::component::auth_accepts;
use super::material::AuthB;
use super::params::{confirming_min, MIN_S};
use super::security::component_s;
use brickyard_core::Block;

/// What an AND bucket yields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BucketOut {
    /// The output key.
    Key(Block),
    /// Two valid keys were seen: their XOR, Δ.
    Delta(Block),
}

/// The bucket rule on the β gates' outputs `outs` (each already translated
/// to the head's output key by its soldering; the evaluation itself is
/// batched per layer in `evaluator.rs`). `auths` are the bucket's
/// authenticators, soldered to the head's output.
pub fn decide(outs: &[Block], auths: &[AuthB], checked: &[(Block, [Block; 2], u64)]) -> BucketOut {
    let Some(&first) = outs.first() else {
        return BucketOut::Key(Block::ZERO);
    };
    if outs.iter().all(|&c| c == first) {
        return BucketOut::Key(first);
    }
    let mut cands: Vec<(Block, usize)> = Vec::new();
    for &c in outs {
        match cands.iter_mut().find(|(k, _)| *k == c) {
            Some(e) => e.1 += 1,
            None => cands.push((c, 1)),
        }
    }
    for i in 0..cands.len() {
        for j in i + 1..cands.len() {
            let d = cands[i].0 ^ cands[j].0;
            if d.lsb() && confirm_delta(d, checked) {
                return BucketOut::Delta(d);
            }
        }
    }
    let score = |k: Block| {
        auths
            .iter()
            .filter(|a| auth_accepts(k ^ a.s, &a.table, a.id))
            .count()
    };
    let best = cands
        .iter()
        .map(|&(k, n)| (n + score(k), k))
        .max_by_key(|&(s, _)| s)
        .map(|(_, k)| k)
        .unwrap_or(first);
    BucketOut::Key(best)
}

/// Whether a strict majority of the kept checked authenticators confirms
/// Δ', and they are enough for the bound (module doc).
pub fn confirm_delta(d: Block, checked: &[(Block, [Block; 2], u64)]) -> bool {
    if checked.len() < confirming_min(component_s(MIN_S)) {
        return false;
    }
    let ok = checked
        .iter()
        .filter(|(k, t, id)| auth_accepts(*k ^ d, t, *id))
        .count();
    2 * ok > checked.len()
}

/// Whether a strict majority of an input authenticator bucket accepts its
/// key: `ok` of its `of` authenticators do (hashed in one batch for all
/// inputs by the evaluator).
pub fn input_key_accepted(ok: usize, of: usize) -> bool {
    2 * ok > of
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::make_auths;
    use brickyard_core::prg::Prg;

    type Checked = Vec<(Block, [Block; 2], u64)>;

    /// `m` checked authenticators of which the first `bad` were made with
    /// `delta_bad` instead of `delta` (their K¹ slot holds K⁰ ⊕ Δ'), each
    /// kept with its opened 0-key as Bob keeps it when the check opened K⁰.
    fn checked(prg: &mut Prg, m: usize, bad: usize, delta: Block, delta_bad: Block) -> Checked {
        (0..m)
            .map(|j| {
                let k = prg.random_block();
                let d = if j < bad { delta_bad } else { delta };
                let t = make_auths(&[k], d, j as u64);
                (k, [t[0], t[1]], j as u64)
            })
            .collect()
    }

    fn deltas(prg: &mut Prg) -> (Block, Block) {
        let delta = Block(prg.random_block().0 | 1);
        // A wrong Δ' with lsb 1, as a bucket's two candidates would give.
        let wrong = delta ^ (prg.random_block() & !Block(1));
        (delta, wrong)
    }

    #[test]
    fn the_true_delta_is_confirmed_and_a_wrong_one_needs_a_strict_majority() {
        let mut prg = Prg::from_seed(Block(0x24_04));
        let (delta, wrong) = deltas(&mut prg);
        let m = confirming_min(component_s(MIN_S));
        let honest = checked(&mut prg, m, 0, delta, delta);
        assert!(confirm_delta(delta, &honest));
        assert!(!confirm_delta(wrong, &honest));
        // Half corrupted towards Δ' is not a strict majority; one more is.
        let half = checked(&mut prg, m, m / 2, delta, wrong);
        assert!(!confirm_delta(wrong, &half));
        assert!(!confirm_delta(delta, &half));
        let more = checked(&mut prg, m, m / 2 + 1, delta, wrong);
        assert!(confirm_delta(wrong, &more));
    }

    #[test]
    fn fewer_than_the_minimum_never_confirm() {
        let mut prg = Prg::from_seed(Block(0x24_05));
        let (delta, wrong) = deltas(&mut prg);
        let m = confirming_min(component_s(MIN_S)) - 1;
        assert!(!confirm_delta(
            delta,
            &checked(&mut prg, m, 0, delta, delta)
        ));
        assert!(!confirm_delta(
            wrong,
            &checked(&mut prg, m, m, delta, wrong)
        ));
        assert!(!confirm_delta(delta, &[]));
    }

    #[test]
    fn a_bucket_with_a_false_delta_gate_scores_instead_of_extracting() {
        let mut prg = Prg::from_seed(Block(0x24_06));
        let (delta, wrong) = deltas(&mut prg);
        let m = confirming_min(component_s(MIN_S));
        let key = prg.random_block();
        // Four good gates give `key`; one bad gate gives key ⊕ Δ'.
        let outs = [key, key, key ^ wrong, key, key];
        let minority = checked(&mut prg, m, m / 2, delta, wrong);
        assert_eq!(decide(&outs, &[], &minority), BucketOut::Key(key));
        let majority = checked(&mut prg, m, m / 2 + 1, delta, wrong);
        assert_eq!(decide(&outs, &[], &majority), BucketOut::Delta(wrong));
        // A NAND gate (two valid keys) switches to extraction with Δ.
        let nand = [key, key ^ delta, key, key];
        let honest = checked(&mut prg, m, 0, delta, delta);
        assert_eq!(decide(&nand, &[], &honest), BucketOut::Delta(delta));
    }
}
