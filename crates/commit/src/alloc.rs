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

/// `n` zero Blocks.
pub(crate) fn zeroed_blocks(n: usize) -> Vec<Block> {
    bytemuck::allocation::cast_vec(vec![0u128; n])
}

/// `n` zero rows.
pub(crate) fn zeroed_rows(n: usize) -> Vec<Row> {
    bytemuck::allocation::cast_vec(vec![0u64; ROW_WORDS * n])
}

/// Grows `v` by `n` zero Blocks in place: within its capacity if it has
/// room (see `Committer::reserve`), a fresh `calloc` when it is empty and
/// has none (pages arrive zeroed), else one `reserve_exact` (which may
/// copy: in a thread's malloc arena a large block cannot be remapped).
pub(crate) fn grow_blocks(v: &mut Vec<Block>, n: usize) {
    if v.capacity() - v.len() >= n {
        v.resize(v.len() + n, Block::ZERO);
    } else if v.is_empty() {
        *v = zeroed_blocks(n);
    } else {
        v.reserve_exact(n);
        v.resize(v.len() + n, Block::ZERO);
    }
}

/// [`grow_blocks`] for rows.
pub(crate) fn grow_rows(v: &mut Vec<Row>, n: usize) {
    if v.capacity() - v.len() >= n {
        v.resize(v.len() + n, [0u64; ROW_WORDS]);
    } else if v.is_empty() {
        *v = zeroed_rows(n);
    } else {
        v.reserve_exact(n);
        v.resize(v.len() + n, [0u64; ROW_WORDS]);
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
        grow_blocks(&mut v, 2);
        v[1] = Block(5);
        grow_blocks(&mut v, 1);
        assert_eq!(v, [Block::ZERO, Block(5), Block::ZERO]);
        let mut r = zeroed_rows(1);
        r[0][4] = 9;
        grow_rows(&mut r, 2);
        let mut want = [0; ROW_WORDS];
        want[4] = 9;
        assert_eq!(r, vec![want, [0; ROW_WORDS], [0; ROW_WORDS]]);
    }
}
