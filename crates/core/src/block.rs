//! The 128-bit `Block`: a wire label, an OT string, a GF(2^128) element.

use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};
use std::ops::{BitAnd, BitAndAssign, BitXor, BitXorAssign, Not};

/// A 128-bit value, 16-byte aligned so slices of blocks can be handed to SIMD
/// kernels without copying. Byte order is little-endian: byte 0 holds bits 0..8.
#[derive(
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Pod,
    Zeroable,
    Serialize,
    Deserialize,
)]
#[repr(transparent)]
pub struct Block(pub u128);

impl Block {
    /// The all-zero block.
    pub const ZERO: Block = Block(0);
    /// The all-one block.
    pub const ONES: Block = Block(u128::MAX);

    /// Builds a block from 16 little-endian bytes.
    #[inline]
    pub fn from_bytes(b: [u8; 16]) -> Self {
        Block(u128::from_le_bytes(b))
    }
    /// The 16 little-endian bytes of this block.
    #[inline]
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_le_bytes()
    }
    /// Least significant bit: the point-and-permute / colour bit.
    #[inline]
    pub fn lsb(self) -> bool {
        self.0 & 1 == 1
    }
    /// Returns the block with its least significant bit set to `b`.
    #[inline]
    pub fn with_lsb(self, b: bool) -> Self {
        Block((self.0 & !1) | b as u128)
    }
    /// `self` if `b` else zero: selects a correlation without branching.
    #[inline]
    pub fn and_bit(self, b: bool) -> Self {
        Block(self.0 & (b as u128).wrapping_neg())
    }
    /// Bit `i` (0 = least significant).
    #[inline]
    pub fn bit(self, i: usize) -> bool {
        (self.0 >> i) & 1 == 1
    }
    /// Doubling in GF(2^128) modulo x^128 + x^7 + x^2 + x + 1 (used by the
    /// hashes of Guo–Katz–Wang–Yu, where σ must be linear orthomorphism-like).
    #[inline]
    pub fn double(self) -> Self {
        let carry = self.0 >> 127;
        Block((self.0 << 1) ^ (carry * 0x87))
    }
    /// Low and high 64-bit halves.
    #[inline]
    pub fn halves(self) -> (u64, u64) {
        (self.0 as u64, (self.0 >> 64) as u64)
    }
    /// Builds a block from low and high 64-bit halves.
    #[inline]
    pub fn from_halves(lo: u64, hi: u64) -> Self {
        Block(lo as u128 | ((hi as u128) << 64))
    }
}

impl std::fmt::Debug for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Block({:032x})", self.0)
    }
}

impl BitXor for Block {
    type Output = Block;
    #[inline]
    fn bitxor(self, o: Block) -> Block {
        Block(self.0 ^ o.0)
    }
}
impl BitXorAssign for Block {
    #[inline]
    fn bitxor_assign(&mut self, o: Block) {
        self.0 ^= o.0
    }
}
impl BitAnd for Block {
    type Output = Block;
    #[inline]
    fn bitand(self, o: Block) -> Block {
        Block(self.0 & o.0)
    }
}
impl BitAndAssign for Block {
    #[inline]
    fn bitand_assign(&mut self, o: Block) {
        self.0 &= o.0
    }
}
impl Not for Block {
    type Output = Block;
    #[inline]
    fn not(self) -> Block {
        Block(!self.0)
    }
}
impl zeroize::DefaultIsZeroes for Block {}

/// XORs `src` into `dst` element-wise (the lengths must match).
#[inline]
pub fn xor_in_place(dst: &mut [Block], src: &[Block]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment_is_16() {
        assert_eq!(std::mem::align_of::<Block>(), 16);
        assert_eq!(std::mem::size_of::<Block>(), 16);
    }

    #[test]
    fn bytes_round_trip_and_lsb() {
        let b = Block::from_bytes([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
        assert_eq!(Block::from_bytes(b.to_bytes()), b);
        assert!(b.lsb());
        assert!(!b.with_lsb(false).lsb());
        assert_eq!(b.and_bit(false), Block::ZERO);
        assert_eq!(b.and_bit(true), b);
    }

    #[test]
    fn doubling_reduces() {
        assert_eq!(Block(1u128 << 127).double(), Block(0x87));
        assert_eq!(Block(3).double(), Block(6));
    }
}
