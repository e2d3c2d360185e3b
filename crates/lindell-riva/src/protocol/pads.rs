//! Chosen long messages over random OTs: the OT of one `y¹` (or `d¹`) bit
//! carries the labels of that wire in all circuits of the bucket with their
//! decommitments (Fig. A.2 "Running OTs"). Bob's choice bits are his random
//! `y¹`, so the random OTs' choices are used as they are; each message is
//! sent XORed with a pad expanded from the OT's key.

use brickyard_core::prg::Prg;
use brickyard_core::Block;

/// Pad bytes expanded per step (a message of up to 16 labels in one).
const STEP: usize = 256;

/// `msg ⊕ PRG(key)`, in place (the pad on the stack: hundreds of
/// thousands of these per preprocessing).
pub(crate) fn xor_pad(key: Block, buf: &mut [u8]) {
    let mut prg = Prg::from_seed(key);
    let mut pad = [0u8; STEP];
    for chunk in buf.chunks_mut(STEP) {
        let p = &mut pad[..chunk.len()];
        prg.fill_bytes(p);
        for (b, p) in chunk.iter_mut().zip(p.iter()) {
            *b ^= p;
        }
    }
    crate::wipe::wipe(&mut pad);
}
