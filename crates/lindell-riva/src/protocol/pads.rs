//! Chosen long messages over random OTs: the OT of one `y¹` (or `d¹`) bit
//! carries the labels of that wire in all circuits of the bucket with their
//! decommitments (Fig. A.2 "Running OTs"). Bob's choice bits are his random
//! `y¹`, so the random OTs' choices are used as they are; each message is
//! sent XORed with a pad expanded from the OT's key.

use brickyard_core::prg::Prg;
use brickyard_core::Block;

/// `msg ⊕ PRG(key)`, in place.
pub(crate) fn xor_pad(key: Block, buf: &mut [u8]) {
    let mut pad = vec![0u8; buf.len()];
    Prg::from_seed(key).fill_bytes(&mut pad);
    for (b, p) in buf.iter_mut().zip(&pad) {
        *b ^= p;
    }
}
