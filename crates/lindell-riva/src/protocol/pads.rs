//! Chosen long messages over random OTs: the OT of one `y¹` (or `d¹`) bit
//! carries the labels of that wire in all circuits of the bucket with their
//! decommitments (Fig. A.2 "Running OTs"). Bob's choice bits are his random
//! `y¹`, so the random OTs' choices are used as they are; each message is
//! sent XORed with a pad expanded from the OT's key.

use brickyard_core::prg::Prg;
use brickyard_core::Block;

/// Pad blocks expanded per step (a message of up to 16 labels in one).
const STEP: usize = 16;

/// `msg ⊕ PRG(key)`, in place: the pad is the stream's blocks in their
/// little-endian bytes (as `Prg::fill_bytes` gives them), drawn as blocks
/// on the stack and wiped, only as many as the message needs (hundreds of
/// thousands of these per preprocessing: going through `fill_bytes`'
/// 1 KiB scratch and wiping it cost more than the AES).
pub(crate) fn xor_pad(key: Block, buf: &mut [u8]) {
    let mut prg = Prg::from_seed(key);
    let mut pad = [Block::ZERO; STEP];
    for chunk in buf.chunks_mut(16 * STEP) {
        let p = &mut pad[..chunk.len().div_ceil(16)];
        prg.fill_blocks(p);
        for (dst, b) in chunk.chunks_mut(16).zip(p.iter()) {
            match <&mut [u8; 16]>::try_from(&mut *dst) {
                // A whole label: one 16-byte XOR.
                Ok(d) => *d = (Block::from_bytes(*d) ^ *b).to_bytes(),
                Err(_) => {
                    for (d, s) in dst.iter_mut().zip(b.to_bytes()) {
                        *d ^= s;
                    }
                }
            }
        }
    }
    crate::wipe::wipe(&mut pad);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pad is `Prg::fill_bytes`' stream, for lengths around the step.
    #[test]
    fn pad_is_the_prg_byte_stream() {
        for len in [0, 1, 15, 16, 17, 96, 208, 255, 256, 257, 1000] {
            let key = Block(0x5eed ^ len as u128);
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let mut got = msg.clone();
            xor_pad(key, &mut got);
            let mut want = vec![0u8; len];
            Prg::from_seed(key).fill_bytes(&mut want);
            for (w, m) in want.iter_mut().zip(&msg) {
                *w ^= m;
            }
            assert_eq!(got, want, "length {len}");
        }
    }
}
