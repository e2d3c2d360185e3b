//! AES-128 encryption over slices of [`Block`]s.
//!
//! Everything above this module (PRG, hashes, garbling, OT extension) spends
//! most of its time here, so the API is shaped around bulk calls: the `aes`
//! crate pipelines 64 blocks per VAES/AVX-512 round (8 with plain AES-NI),
//! and a caller that loops over single blocks forfeits most of that.
//!
//! Backend selection (AES-NI, VAES-256, VAES-512, or constant-time fixslice
//! software) is done by the `aes` crate at run time; no `RUSTFLAGS` or
//! `target-cpu` settings are needed, so one binary runs on every x86-64.
//!
//! Only encryption is exposed: every construction in the project (CTR PRG,
//! the GKWY hashes, re-keyed MiTCCR) uses AES in the forward direction, and
//! holding only encryption round keys halves the key schedule cost for the
//! re-keyed hash.

use crate::Block;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use std::sync::OnceLock;

/// The underlying crate's 16-byte block type.
type AesBlock = aes::Block;

/// AES-128 keyed for encryption. The round keys are zeroized on drop by the
/// `aes` crate (its `zeroize` feature is enabled in this crate's manifest).
#[derive(Clone)]
pub struct Aes128 {
    inner: aes::Aes128Enc,
}

impl std::fmt::Debug for Aes128 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print round keys: some instances are keyed with secrets.
        f.write_str("Aes128 { .. }")
    }
}

impl Aes128 {
    /// Keys AES-128 with the 16 little-endian bytes of `key`
    /// (`key.to_bytes()` is the FIPS-197 key byte string).
    pub fn new(key: Block) -> Aes128 {
        let mut bytes = key.to_bytes();
        let inner = aes::Aes128Enc::new(&Array::from(bytes));
        zeroize::Zeroize::zeroize(&mut bytes);
        Aes128 { inner }
    }

    /// Encrypts one block. Prefer the slice APIs in loops: a single call
    /// cannot be pipelined.
    #[inline]
    pub fn encrypt_block(&self, b: Block) -> Block {
        let mut a = AesBlock::from(b.to_bytes());
        self.inner.encrypt_block(&mut a);
        Block::from_bytes(a.into())
    }

    /// Encrypts `blocks` in place.
    #[inline]
    pub fn encrypt_blocks(&self, blocks: &mut [Block]) {
        #[cfg(target_endian = "little")]
        {
            self.inner.encrypt_blocks(as_aes_blocks_mut(blocks));
        }
        #[cfg(not(target_endian = "little"))]
        {
            for b in blocks.iter_mut() {
                *b = self.encrypt_block(*b);
            }
        }
    }

    /// Encrypts `input` into `out` without touching `input`.
    ///
    /// # Panics
    /// If `input.len() != out.len()`: both are internal buffers sized by the
    /// caller, so a mismatch is a programming error, not peer input.
    #[inline]
    pub fn encrypt_blocks_to(&self, input: &[Block], out: &mut [Block]) {
        assert_eq!(input.len(), out.len(), "encrypt_blocks_to: length mismatch");
        #[cfg(target_endian = "little")]
        {
            let r = self
                .inner
                .encrypt_blocks_b2b(as_aes_blocks(input), as_aes_blocks_mut(out));
            debug_assert!(r.is_ok());
        }
        #[cfg(not(target_endian = "little"))]
        {
            for (o, i) in out.iter_mut().zip(input) {
                *o = self.encrypt_block(*i);
            }
        }
    }
}

/// Reinterprets blocks as the crate's byte arrays. Sound only on
/// little-endian targets, where a `u128`'s memory bytes are its
/// little-endian bytes, i.e. exactly `Block::to_bytes`.
#[cfg(target_endian = "little")]
#[inline]
fn as_aes_blocks_mut(blocks: &mut [Block]) -> &mut [AesBlock] {
    Array::cast_slice_from_core_mut(bytemuck::cast_slice_mut::<Block, [u8; 16]>(blocks))
}

#[cfg(target_endian = "little")]
#[inline]
fn as_aes_blocks(blocks: &[Block]) -> &[AesBlock] {
    Array::cast_slice_from_core(bytemuck::cast_slice::<Block, [u8; 16]>(blocks))
}

/// The fixed key of the public permutation π used by the GKWY hashes:
/// the ASCII bytes `"brickyard-pi-v01"`, chosen to be visibly arbitrary
/// (nothing up the sleeve). Changing it breaks compatibility of every
/// transcript, so it is versioned in the string.
pub const FIXED_KEY_BYTES: [u8; 16] = *b"brickyard-pi-v01";

/// The public fixed-key permutation π (key [`FIXED_KEY_BYTES`]), expanded
/// once per process.
pub fn fixed_key() -> &'static Aes128 {
    static FIXED: OnceLock<Aes128> = OnceLock::new();
    FIXED.get_or_init(|| Aes128::new(Block::from_bytes(FIXED_KEY_BYTES)))
}

/// Whether the `aes` crate found AES hardware on this machine (reported in
/// benchmarks so that a slow number can be explained).
pub fn hardware_accelerated() -> bool {
    aes::hardware_accelerated()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex16(s: &str) -> [u8; 16] {
        let mut out = [0u8; 16];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
        }
        out
    }

    /// FIPS-197 Appendix C.1 (AES-128) and Appendix B, with the byte strings
    /// mapped to blocks by `Block::from_bytes`.
    const KATS: [(&str, &str, &str); 2] = [
        (
            "000102030405060708090a0b0c0d0e0f",
            "00112233445566778899aabbccddeeff",
            "69c4e0d86a7b0430d8cdb78070b4c55a",
        ),
        (
            "2b7e151628aed2a6abf7158809cf4f3c",
            "3243f6a8885a308d313198a2e0370734",
            "3925841d02dc09fbdc118597196a0b32",
        ),
    ];

    #[test]
    fn fips197_known_answers() {
        for (k, p, c) in KATS {
            let aes = Aes128::new(Block::from_bytes(hex16(k)));
            let pt = Block::from_bytes(hex16(p));
            let ct = Block::from_bytes(hex16(c));
            assert_eq!(aes.encrypt_block(pt), ct);
            let mut v = vec![pt; 3];
            aes.encrypt_blocks(&mut v);
            assert_eq!(v, vec![ct; 3]);
        }
    }

    #[test]
    fn batch_matches_single_for_all_tail_lengths() {
        let aes = Aes128::new(Block(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210));
        // Cover the 64-block VAES batch, the 8-block AES-NI batch and tails.
        for n in [0usize, 1, 3, 7, 8, 9, 63, 64, 65, 200] {
            let input: Vec<Block> = (0..n as u128)
                .map(|i| Block(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)))
                .collect();
            let expect: Vec<Block> = input.iter().map(|&b| aes.encrypt_block(b)).collect();
            let mut inplace = input.clone();
            aes.encrypt_blocks(&mut inplace);
            assert_eq!(inplace, expect, "in place, n = {n}");
            let mut out = vec![Block::ZERO; n];
            aes.encrypt_blocks_to(&input, &mut out);
            assert_eq!(out, expect, "to, n = {n}");
        }
    }

    #[test]
    fn fixed_key_is_the_documented_key() {
        let k = Aes128::new(Block::from_bytes(*b"brickyard-pi-v01"));
        let x = Block(42);
        assert_eq!(fixed_key().encrypt_block(x), k.encrypt_block(x));
        assert_ne!(fixed_key().encrypt_block(x), x);
    }

    #[test]
    #[should_panic(expected = "length mismatch")]
    fn encrypt_to_rejects_mismatched_lengths() {
        let mut out = [Block::ZERO; 2];
        fixed_key().encrypt_blocks_to(&[Block::ZERO; 3], &mut out);
    }
}
