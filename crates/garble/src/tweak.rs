//! Hash tweaks: the one place that says which tweak each hash call uses.
//!
//! The TCCR hash is only secure when no tweak repeats under one Δ, so the
//! layout is fixed here and documented in `docs/protocols/garbling.md`:
//!
//! ```text
//! tweak(offset, j, half) = offset · 2^64 + 2j + half      half ∈ {0 (garbler half), 1 (evaluator half)}
//! ```
//!
//! `j` is the global AND index (layer order, see `Circuit::layering`), and
//! `offset` is chosen per garbled circuit by the caller, so several circuits
//! garbled under one Δ (CompGC components, LEGO gates) use disjoint tweaks.

use brickyard_core::Block;

/// Largest AND index usable with a given offset: `2j + 1` must fit in 64 bits.
pub const MAX_AND_INDEX: u64 = (1 << 63) - 1;

/// The tweak of the garbler half (hashes of A₀, A₁) of AND gate `j`.
/// The evaluator half's tweak is this one with bit 0 set.
#[inline]
pub fn and_tweak(tweak_offset: u64, and_index: u64) -> Block {
    Block::from_halves(and_index << 1, tweak_offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_and_offsets_never_collide() {
        let a = and_tweak(0, 5);
        assert_eq!(a, Block(10));
        assert_ne!(a ^ Block(1), and_tweak(0, 6));
        assert_ne!(and_tweak(1, 5), a);
        assert_eq!(and_tweak(7, MAX_AND_INDEX).halves(), (u64::MAX - 1, 7));
    }
}
