//! The random oracle H of Sec. 5.1 Setup, fixed to one SHA-256 compression
//! per call so that Step 5b can prove statements about it inside a circuit.
//!
//! Every input fits one padded 64-byte SHA-256 block (the longest, a 384-bit
//! Δ for k = 127, is 1 + 48 + 4 = 53 bytes), and a one-byte domain tag keeps
//! the three uses apart, so no value of one kind can be replayed as another.

use brickyard_core::Block;
use sha2::{Digest, Sha256};

/// Domain tag of the permutation-string seeds H(Δ, i).
const TAG_PERM_SEED: u8 = 0;
/// Domain tag of the double hashes D_i = H(H(Δ, i)).
const TAG_DOUBLE_HASH: u8 = 1;
/// Domain tag of Alice's published image of each wire-IHash seed, which lets
/// Step 5b speak about the seeds without naming Bob's secret watch set.
const TAG_SEED_COMMITMENT: u8 = 2;

/// The seed of the i-th permutation-string i-hash PRG, H(Δ, i): the first
/// 128 bits of SHA-256(0 ‖ Δ ‖ i as 4 big-endian bytes). Δ is given as its
/// bytes, least significant symbol first (as `brickyard_garble::wide` holds it).
pub fn perm_seed(delta: &[u8], i: u32) -> Block {
    assert!(delta.len() <= 48, "perm_seed: Δ longer than 384 bits");
    let mut h = Sha256::new();
    h.update([TAG_PERM_SEED]);
    h.update(delta);
    h.update(i.to_be_bytes());
    let d = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    Block::from_bytes(b)
}

/// D_i = H(H(Δ, i)) = SHA-256(1 ‖ seed bytes): what Bob compares a watched
/// permutation seed against, and what lets him check a Δ* he extracted.
pub fn double_hash(seed: Block) -> [u8; 32] {
    tagged(TAG_DOUBLE_HASH, seed)
}

/// C_j = SHA-256(2 ‖ seed bytes), sent by Alice for every wire-IHash seed
/// before the w-out-of-n OT; Bob checks the seeds he receives against it.
pub fn seed_commitment(seed: Block) -> [u8; 32] {
    tagged(TAG_SEED_COMMITMENT, seed)
}

fn tagged(tag: u8, seed: Block) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update([tag]);
    h.update(seed.to_bytes());
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_separate_the_three_uses() {
        let seed = Block(0x0123_4567_89ab_cdef_0011_2233_4455_6677);
        assert_ne!(double_hash(seed), seed_commitment(seed));
        let delta = [7u8; 32];
        assert_ne!(perm_seed(&delta, 1), perm_seed(&delta, 2));
        let mut other = delta;
        other[31] ^= 1;
        assert_ne!(perm_seed(&delta, 1), perm_seed(&other, 1));
    }

    #[test]
    fn perm_seed_is_the_prefix_of_the_tagged_digest() {
        let delta = [0xa5u8; 48];
        let mut h = Sha256::new();
        h.update([0u8]);
        h.update(delta);
        h.update(5u32.to_be_bytes());
        let d = h.finalize();
        assert_eq!(perm_seed(&delta, 5).to_bytes()[..], d[..16]);
    }
}
