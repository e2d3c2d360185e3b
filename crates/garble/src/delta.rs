//! The garbler's global free-XOR offset Δ.

use brickyard_core::prg::Prg;
use brickyard_core::Block;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The global offset Δ: every wire's 1-label is its 0-label ⊕ Δ.
///
/// Its least significant bit is always 1, so the two labels of a wire have
/// opposite colour bits (point-and-permute). Knowing Δ and any one label of
/// a wire reveals both, so Δ is wiped on drop and never printed.
#[derive(Clone, PartialEq, Eq, Zeroize, ZeroizeOnDrop)]
pub struct Delta(Block);

impl Delta {
    /// Makes a Δ from a block, forcing its colour bit to 1: a Δ with lsb 0
    /// would give both labels of a wire the same colour and break evaluation.
    pub fn new(b: Block) -> Self {
        Delta(b.with_lsb(true))
    }

    /// A fresh random Δ drawn from `prg`.
    pub fn random(prg: &mut Prg) -> Self {
        Self::new(prg.random_block())
    }

    /// The raw offset (lsb = 1).
    #[inline]
    pub fn block(&self) -> Block {
        self.0
    }
}

impl std::fmt::Debug for Delta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Delta(<secret>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_bit_is_forced_and_debug_is_redacted() {
        let d = Delta::new(Block(0x1234_5678_0000));
        assert!(d.block().lsb());
        assert_eq!(d.block(), Block(0x1234_5678_0001));
        assert_eq!(format!("{d:?}"), "Delta(<secret>)");
    }
}
