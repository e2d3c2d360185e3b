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
//! `Receiver::reserve`: Generate knows both batches' sizes) gets its whole
//! reservation from `calloc` ([`reserve_zeroed`]) and grows into it by
//! `resize` ([`grow_zeroed`]): one allocation, no copy on growth.

use bytemuck::Pod;

/// The identity (address and capacity) of an allocation that `calloc`
/// returned: which reservation a session grows into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Zeroed {
    ptr: usize,
    cap: usize,
}

impl Zeroed {
    fn of<T>(v: &Vec<T>) -> Zeroed {
        Zeroed {
            ptr: v.as_ptr() as usize,
            cap: v.capacity(),
        }
    }
}

/// Makes room for `n` more items. An empty vector is replaced by a fresh
/// zeroed allocation of exactly `n` (`calloc`: pages arrive zeroed and are
/// not touched here), whose identity is returned for [`grow_zeroed`];
/// otherwise this is `reserve_exact` and returns `None`.
pub(crate) fn reserve_zeroed<T: Pod>(v: &mut Vec<T>, n: usize) -> Option<Zeroed> {
    if v.is_empty() && n > 0 {
        let mut z = bytemuck::allocation::zeroed_vec::<T>(n);
        z.clear();
        *v = z;
        Some(Zeroed::of(v))
    } else {
        v.reserve_exact(n);
        None
    }
}

/// Grows `v` by `n` zero items: within its capacity (a reservation) by
/// `resize`; an empty vector without room by `calloc`. Growing into a
/// `calloc` reservation without writing (`set_len` over its zero bytes)
/// saved a zero-fill pass of ≈ 2 ms per party and AES-128, but needs
/// `unsafe` outside a primitive kernel and an invariant on who may touch
/// the vector, so it is not done. `zeroed` names the reservation (kept for
/// the callers' bookkeeping; the fill is the same either way).
pub(crate) fn grow_zeroed<T: Pod>(v: &mut Vec<T>, n: usize, zeroed: Option<Zeroed>) {
    let _ = zeroed;
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
    fn zeroed_reservations_grow_with_zero_items() {
        let mut v: Vec<Row> = Vec::new();
        let z = reserve_zeroed(&mut v, 5);
        assert!(z.is_some() && v.is_empty() && v.capacity() == 5);
        grow_zeroed(&mut v, 2, z);
        assert_eq!(v, vec![[0u64; ROW_WORDS]; 2], "calloc's zeros");
        v[1][3] = 7;
        v.truncate(1);
        grow_zeroed(&mut v, 1, z);
        assert_eq!(v[1][3], 0, "a grown item is zero, whatever was there");
        grow_zeroed(&mut v, 3, z);
        assert_eq!(v.len(), 5);
        // Past the reservation it reallocates and zero-fills.
        grow_zeroed(&mut v, 2, z);
        assert_eq!(v.len(), 7);
        assert_eq!(&v[5..], &[[0u64; ROW_WORDS]; 2]);
        // A vector that is not the reserved allocation is zero-filled.
        let mut b: Vec<Block> = vec![Block(9); 3];
        b.truncate(1);
        grow_zeroed(&mut b, 2, z);
        assert_eq!(b, vec![Block(9), Block::ZERO, Block::ZERO]);
        assert_eq!(reserve_zeroed(&mut b, 4), None, "non-empty: plain reserve");
        let mut e: Vec<Block> = Vec::new();
        grow_zeroed(&mut e, 2, None);
        assert_eq!(e, vec![Block::ZERO; 2]);
    }
}
