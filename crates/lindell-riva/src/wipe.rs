//! Wiping secret plain-old-data buffers 16 bytes per store.
//!
//! `zeroize` on byte arrays (`[u8; 64]` commitment inputs, `[u8; 16]`
//! openings) writes one volatile byte at a time: with millions of label
//! commitment inputs per preprocessing that was a fifth of Alice's
//! offline CPU. Here the bytes are wiped as `u128` words where aligned
//! (the ends byte by byte), still volatile and fenced, so the wipe is not
//! optimised away.

use zeroize::Zeroize;

/// Zeroizes every byte of `v`.
pub(crate) fn wipe<T: bytemuck::Pod>(v: &mut [T]) {
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(v);
    let (head, mid, tail) = bytemuck::pod_align_to_mut::<u8, u128>(bytes);
    head.zeroize();
    mid.zeroize();
    tail.zeroize();
}

#[cfg(test)]
mod tests {
    use super::wipe;

    #[test]
    fn every_byte_is_zero_whatever_the_alignment() {
        let mut v = vec![[0xa5u8; 64]; 9];
        for start in 0..17 {
            let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut v);
            bytes.fill(0xa5);
            let (left, rest) = bytes.split_at_mut(start);
            let (mid, right) = rest.split_at_mut(rest.len() - (start % 5));
            wipe(mid);
            assert!(mid.iter().all(|&b| b == 0), "start {start}");
            assert!(left.iter().chain(right.iter()).all(|&b| b == 0xa5));
        }
    }
}
