//! Step 2 of IHash.Hash, the consistency check against a malicious sender.
//!
//! Bob sends a fresh 128-bit seed after Alice's corrections arrived; both
//! expand it into ξ · ν coefficients y_{t,i} ∈ GF(2^σ) (the paper has Bob
//! send the y's; a seed he draws after the corrections are fixed is as
//! unpredictable to Alice and ν times shorter). Alice answers
//! m̂_t = Σ_i y_{t,i} m'_i + m'_{ν+t}; Bob checks
//! Encode(m̂_t)|_W = Σ_i y_{t,i} ⟨m'_i⟩ + ⟨m'_{ν+t}⟩. A nonzero error on W
//! survives one combination with probability ≤ 2^-σ, so ξ = ⌈s/σ⌉ of them
//! give 2^-s (Lemma 4.2; ξ reconstructed).

use crate::params::Params;
use brickyard_core::prg::Prg;
use brickyard_core::Block;

/// The ξ · `count` check coefficients (row t = combination t).
pub(crate) fn coefficients(seed: Block, p: &Params, count: usize) -> Vec<u8> {
    let mut y = vec![0u8; p.xi() * count];
    Prg::from_seed(seed).fill_bytes(&mut y);
    let mask = (p.field().order() - 1) as u8;
    y.iter_mut().for_each(|x| *x &= mask);
    y
}
