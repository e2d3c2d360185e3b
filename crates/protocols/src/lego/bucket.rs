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
//! * Δ confirmation: a candidate Δ' is accepted iff it opens the *other*
//!   slot of a strict majority of the checked authenticators Bob kept. A
//!   wrong Δ' would need Alice to have corrupted the other slot of most
//!   authenticators, each caught with probability 1/2 when checked.

use super::component::auth_accepts;
use super::material::AuthB;
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

/// Whether a strict majority of the kept checked authenticators confirms Δ'.
pub fn confirm_delta(d: Block, checked: &[(Block, [Block; 2], u64)]) -> bool {
    let ok = checked
        .iter()
        .filter(|(k, t, id)| auth_accepts(*k ^ d, t, *id))
        .count();
    !checked.is_empty() && 2 * ok > checked.len()
}

/// Whether a strict majority of an input authenticator bucket accepts its
/// key: `ok` of its `of` authenticators do (hashed in one batch for all
/// inputs by the evaluator).
pub fn input_key_accepted(ok: usize, of: usize) -> bool {
    2 * ok > of
}
