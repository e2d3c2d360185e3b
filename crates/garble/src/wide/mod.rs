//! Half-gates with long labels and compression (JIMU, Zhu–Huang,
//! Asiacrypt 2017, Sec. 2.2 and 6.2).
//!
//! JIMU's i-hash reveals `w` of a label's codeword symbols to Bob, so a
//! label must be longer than 128 bits to keep `k` bits hidden: `ℓ = 32`
//! symbols of GF(2^8) (256 bits, k = 88) or `ℓ = 48` (384 bits, k = 127).
//! Fixed-key AES hashes 128 bits, so each label is first *compressed* by a
//! public rank-16 matrix `A' ∈ GF(2^8)^{16×ℓ}` that Alice samples after
//! Bob's watch choice ([`compress`]); Lemma 6.1
//! (`brickyard_protocols::jimu::compress_bound`) shows the compressed label
//! keeps 88 (resp. 127) bits for Bob. The hash of a long label is then
//!
//! ```text
//! H(X, j, h) = tccr(c, τ(j,h,0)) ‖ … ‖ tccr(c, τ(j,h,L−1)),   c = Compress(X),  L = ℓ/16
//! ```
//!
//! with our fixed-key TCCR `tccr(x, i) = π(π(x) ⊕ i) ⊕ π(x)` (Guo–Katz–
//! Wang–Yu), `π(c)` computed once for the `L` outputs, and the unique
//! tweaks of [`wide_tweak`]: `1 + L` AES calls per hash where the paper's
//! prototype runs an XOR-tweaked MMO, which GKWY19 shows is not a TCCR.
//! Free XOR survives: `Compress(X ⊕ Δ) = Compress(X) ⊕ Compress(Δ)`.
//! Point-and-permute uses bit 0 of the long label, and `lsb(Δ) = 1`.
//!
//! The half-gates equations are ZRE15's with `L`-block rows
//! (`docs/protocols/garbling.md`, `docs/protocols/jimu.md`):
//!
//! ```text
//! garbler:   T_G = H(A₀,j,0) ⊕ H(A₀⊕Δ,j,0) ⊕ p_b·Δ      W_G = H(A₀,j,0) ⊕ p_a·T_G
//!            T_E = H(B₀,j,1) ⊕ H(B₀⊕Δ,j,1) ⊕ A₀         W_E = H(B₀,j,1) ⊕ p_b·(T_E ⊕ A₀)
//!            C₀  = W_G ⊕ W_E,   table = [T_G, T_E]  (2L blocks)
//! evaluator: C = H(A,j,0) ⊕ s_a·T_G ⊕ H(B,j,1) ⊕ s_b·(T_E ⊕ A)
//! ```
//!
//! [`kernel`] holds the batch equations (independent gates, as JIMU's
//! LEGO-style generation garbles them); [`circuit`] walks a compiled
//! [`crate::GarblePlan`] with long labels, batching ANDs across stages.

pub mod bench;
pub mod circuit;
pub mod compress;
pub mod kernel;

pub use bench::bench_wide;
pub use circuit::{evaluate_wide, garble_wide, WidePlan};
pub use compress::Compress;
pub use kernel::{
    eval_batch, eval_batch_compressed, eval_batch_compressed_at, eval_soldered_at, garble_batch,
    garble_batch_compressed, WideScratch,
};

use brickyard_core::prg::Prg;
use brickyard_core::Block;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// A long label: `L` blocks, symbol `j` of GF(2^8) is byte `j mod 16` of
/// block `j / 16` (little-endian, as `Block::to_bytes`).
pub type Label<const L: usize> = [Block; L];

/// Blocks per label for k = 88 (256 bits).
pub const L88: usize = 2;
/// Blocks per label for k = 127 (384 bits).
pub const L127: usize = 3;

/// `a ⊕ b`, blockwise.
#[inline(always)]
pub fn xor<const L: usize>(a: &Label<L>, b: &Label<L>) -> Label<L> {
    std::array::from_fn(|k| a[k] ^ b[k])
}

/// `bit · a`.
#[inline(always)]
pub fn and_bit<const L: usize>(a: &Label<L>, bit: bool) -> Label<L> {
    std::array::from_fn(|k| a[k].and_bit(bit))
}

/// The colour bit (bit 0 of block 0).
#[inline(always)]
pub fn lsb<const L: usize>(a: &Label<L>) -> bool {
    a[0].lsb()
}

/// A random label.
pub fn random_label<const L: usize>(prg: &mut Prg) -> Label<L> {
    std::array::from_fn(|_| prg.random_block())
}

/// The global offset Δ of long labels, `lsb(Δ) = 1` (point-and-permute).
/// Wiped on drop.
#[derive(Clone, PartialEq, Eq, Zeroize, ZeroizeOnDrop)]
pub struct WideDelta<const L: usize>(Label<L>);

impl<const L: usize> WideDelta<L> {
    /// Forces the colour bit to 1.
    pub fn new(mut d: Label<L>) -> Self {
        d[0] = d[0].with_lsb(true);
        WideDelta(d)
    }

    /// A fresh random Δ.
    pub fn random(prg: &mut Prg) -> Self {
        Self::new(random_label(prg))
    }

    /// The offset (lsb = 1).
    #[inline]
    pub fn label(&self) -> &Label<L> {
        &self.0
    }
}

impl<const L: usize> std::fmt::Debug for WideDelta<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WideDelta(<secret>)")
    }
}

/// Largest AND index for `L`-block labels: `L·(2j + 1) + L − 1` must fit
/// in 64 bits.
pub const fn max_and_index(l: usize) -> u64 {
    u64::MAX / (2 * l as u64) - 1
}

/// The tweak of output block `k` of the hash of half `h` (0: garbler
/// half, A; 1: evaluator half, B) of AND gate `j`:
/// `offset · 2^64 + L·(2j + h) + k`. Distinct for distinct `(j, h, k)`
/// with `k < L` and `j ≤` [`max_and_index`]`(L)`, so no tweak repeats
/// under one Δ while the caller keeps `(offset, j)` unique, as for
/// 128-bit labels.
#[inline(always)]
pub fn wide_tweak(l: usize, offset: u64, j: u64, h: u64, k: u64) -> Block {
    Block::from_halves(l as u64 * (2 * j + h) + k, offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tweaks_are_distinct_and_delta_has_colour_one() {
        let mut seen = std::collections::HashSet::new();
        for l in [L88, L127] {
            seen.clear();
            for j in 0..50u64 {
                for h in 0..2 {
                    for k in 0..l as u64 {
                        assert!(seen.insert(wide_tweak(l, 3, j, h, k)));
                    }
                }
            }
            let top = max_and_index(l);
            let last = wide_tweak(l, 0, top, 1, l as u64 - 1);
            assert!(last.halves().0 >= wide_tweak(l, 0, top, 0, 0).halves().0);
        }
        let d = WideDelta::<2>::new([Block(2), Block(5)]);
        assert!(lsb(d.label()));
        assert_eq!(format!("{d:?}"), "WideDelta(<secret>)");
    }
}
