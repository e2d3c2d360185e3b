//! Large zeroed buffers without a fill pass.
//!
//! A batch of 10^6 commitments touches ~190 MB of fresh memory; profiling
//! showed a third of the commit time in page faults and in `memset` of
//! `vec![Block::ZERO; n]` (Block is not a primitive, so the standard
//! library fills it element by element). Allocating primitive zeros goes
//! through `calloc`, whose fresh pages are already zero, and `bytemuck`
//! re-types the allocation without copying.

use crate::code::Row;
use crate::params::ROW_WORDS;
use brickyard_core::Block;
use zeroize::Zeroize;

/// `n` zero Blocks.
pub(crate) fn zeroed_blocks(n: usize) -> Vec<Block> {
    bytemuck::allocation::cast_vec(vec![0u128; n])
}

/// `n` zero rows.
pub(crate) fn zeroed_rows(n: usize) -> Vec<Row> {
    bytemuck::allocation::cast_vec(vec![0u64; ROW_WORDS * n])
}

/// Appends `fresh` to `v`, moving it instead of copying when `v` is empty
/// (the first batch of a session).
pub(crate) fn append<T: Copy + Zeroize>(v: &mut Vec<T>, mut fresh: Vec<T>) {
    if v.is_empty() {
        *v = fresh;
    } else {
        v.extend_from_slice(&fresh);
        fresh.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_shapes() {
        assert_eq!(zeroed_blocks(3), vec![Block::ZERO; 3]);
        assert_eq!(zeroed_rows(2), vec![[0u64; ROW_WORDS]; 2]);
        let mut v = Vec::new();
        append(&mut v, vec![1u64, 2]);
        append(&mut v, vec![3u64]);
        assert_eq!(v, [1, 2, 3]);
    }
}
