//! Large zeroed buffers without a fill pass.
//!
//! A batch of 10^6 commitments touches ~190 MB of fresh memory; profiling
//! showed a third of the commit time in page faults and in `memset` of
//! `vec![Block::ZERO; n]` (Block is not a primitive, so the standard
//! library fills it element by element). Allocating primitive zeros goes
//! through `calloc`, whose fresh pages are already zero, and `bytemuck`
//! re-types the allocation without copying.
//!
//! A session reserved before its first batch (`Committer::reserve`,
//! `Receiver::reserve`: Generate knows both batches' sizes) grows into its
//! reservation ([`grow_zeroed`]): one allocation, no copy on growth.

use bytemuck::Pod;

/// Grows `v` by `n` zero items: an empty vector without room gets a fresh
/// `calloc` allocation (pages arrive zeroed, no fill pass); otherwise
/// `resize` within the reservation (`Committer::reserve`,
/// `Receiver::reserve`) or after one `reserve_exact`. Growing into a
/// reservation without the zero fill (`set_len` over `calloc` bytes) saved
/// ≈ 2 ms per party and AES-128, but needs `unsafe` outside a primitive
/// kernel and an invariant on who may touch the vector, so it is not done.
pub(crate) fn grow_zeroed<T: Pod>(v: &mut Vec<T>, n: usize) {
    if v.is_empty() && v.capacity() < n {
        *v = bytemuck::allocation::zeroed_vec::<T>(n);
    } else {
        v.reserve_exact(n);
        v.resize(v.len() + n, T::zeroed());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Row;
    use crate::params::ROW_WORDS;
    use brickyard_core::Block;

    #[test]
    fn grown_items_are_zero() {
        let mut v: Vec<Row> = Vec::new();
        v.reserve_exact(5);
        grow_zeroed(&mut v, 2);
        assert_eq!(v, vec![[0u64; ROW_WORDS]; 2]);
        v[1][3] = 7;
        v.truncate(1);
        grow_zeroed(&mut v, 1);
        assert_eq!(v[1][3], 0, "a grown item is zero, whatever was there");
        grow_zeroed(&mut v, 3);
        assert_eq!(v.len(), 5);
        // Past the reservation it reallocates and zero-fills.
        grow_zeroed(&mut v, 2);
        assert_eq!(v.len(), 7);
        assert_eq!(&v[5..], &[[0u64; ROW_WORDS]; 2]);
        let mut b: Vec<Block> = vec![Block(9); 3];
        b.truncate(1);
        grow_zeroed(&mut b, 2);
        assert_eq!(b, vec![Block(9), Block::ZERO, Block::ZERO]);
        let mut e: Vec<Block> = Vec::new();
        grow_zeroed(&mut e, 2);
        assert_eq!(e, vec![Block::ZERO; 2]);
    }
}
