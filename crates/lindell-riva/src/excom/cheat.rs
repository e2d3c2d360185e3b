//! Named cheating strategies for adversary tests (feature `adversary`).
//! Each must trip exactly one named check.

use brickyard_core::prg::Prg;

/// What a cheating Alice does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProverCheat {
    /// Honest.
    None,
    /// `false-difference`: in bucket `bucket`, claims `∆ ⊕ e_0` for the
    /// first pair and guesses `W`: per `i` one side of `δ` is honest and the
    /// other made to XOR to the false `∆`. Passes w.p. `2^-s`
    /// (`mask-difference`).
    FalseDifference {
        /// The bucket attacked.
        bucket: usize,
        /// Seed of the guesses (tests print it).
        seed: u64,
    },
    /// `reuse-challenge`: the prototype's flaw exploited. From the second
    /// bucket on, forges a false `∆` assuming this bucket's `W` equals the
    /// last opened one. Against fresh per-bucket challenges it is caught
    /// except w.p. `2^-s` (`mask-difference`).
    ReuseChallenge,
    /// `bad-check-open`: opens a checked message with one bit flipped
    /// (`excom-check-open`).
    BadCheckOpen,
    /// `delta-mismatch`: honest `δ`s but a false `∆` in bucket 0; only
    /// `excom-delta-sum` stands between it and acceptance.
    DeltaMismatch,
    /// `bad-side-open`: opens one side of a split commitment to a wrong
    /// value (`excom-decommit`).
    BadSideOpen,
}

/// What a cheating Bob does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifierCheat {
    /// Honest.
    None,
    /// `bad-selection-open`: opens a selection other than the committed one
    /// (`cc-decommit` at Alice).
    BadSelectionOpen,
    /// `bad-challenge-open`: opens a `W_j` other than the committed one
    /// (`challenge-decommit` at Alice).
    BadChallengeOpen,
}

/// Rewrites pair `k` of bucket `bucket` per the strategy: a false `∆` and
/// `δ`s that pass exactly when `W = guess`. `claim` is the pair's
/// `∆ ‖ (δ⁰_i ‖ δ¹_i)_i` with values of `msg_bytes`.
pub(crate) fn apply(
    cheat: &ProverCheat,
    seen_w: Option<&[bool]>,
    bucket: usize,
    k: usize,
    claim: &mut [u8],
    msg_bytes: usize,
) {
    if k != 0 {
        return;
    }
    if *cheat == ProverCheat::DeltaMismatch && bucket == 0 {
        claim[0] ^= 1;
        return;
    }
    let s = (claim.len() / msg_bytes - 1) / 2;
    let guess: Vec<bool> = match *cheat {
        ProverCheat::FalseDifference { bucket: b, seed } if b == bucket => {
            let mut prg =
                Prg::from_seed(brickyard_core::Block((seed as u128) << 64 | bucket as u128));
            prg.random_bits(s)
        }
        ProverCheat::ReuseChallenge => match seen_w {
            Some(w) => w.to_vec(),
            None => return,
        },
        _ => return,
    };
    claim[0] ^= 1;
    let (delta, ds) = claim.split_at_mut(msg_bytes);
    for (d, &g) in ds.chunks_exact_mut(2 * msg_bytes).zip(&guess) {
        let (d0, d1) = d.split_at_mut(msg_bytes);
        let (kept, forged) = if g { (d1, d0) } else { (d0, d1) };
        for ((f, a), b) in forged.iter_mut().zip(kept.iter()).zip(delta.iter()) {
            *f = a ^ b;
        }
    }
}
