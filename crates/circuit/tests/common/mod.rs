//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Deterministic xorshift64* so failures reproduce; tests never need
/// cryptographic randomness.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
    pub fn bits(&mut self, n: usize) -> Vec<bool> {
        (0..n).map(|_| self.next_u64() & 1 == 1).collect()
    }
}

/// The shared circuits folder: `$BRICKYARD_SHARED/circuits` (or
/// `$BRICKYARD_SHARED` itself if it holds `vectors.json`), else
/// `<workspace>/../shared/circuits`. `None` (with a notice) when absent, so
/// the suite still passes on a checkout without the shared data.
pub fn shared_circuits() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("BRICKYARD_SHARED") {
        Some(root) => {
            let root = PathBuf::from(root);
            vec![root.join("circuits"), root]
        }
        None => vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/circuits")],
    };
    let found = candidates
        .into_iter()
        .find(|p| p.join("vectors.json").is_file());
    if found.is_none() {
        eprintln!("notice: shared circuits not found (set BRICKYARD_SHARED); skipping");
    }
    found
}

/// Bits of a wire-bit string ("0101…", character k = wire k).
pub fn wire_bits(s: &str) -> Vec<bool> {
    s.bytes().map(|b| b == b'1').collect()
}

/// Bytes → a REVERSED-order group (wire k = bit k of the big-endian integer).
pub fn reversed_bits(bytes: &[u8]) -> Vec<bool> {
    let n = bytes.len();
    (0..8 * n)
        .map(|k| bytes[n - 1 - k / 8] >> (k % 8) & 1 == 1)
        .collect()
}

/// Inverse of [`reversed_bits`].
pub fn reversed_bytes(bits: &[bool]) -> Vec<u8> {
    let n = bits.len() / 8;
    (0..n)
        .map(|j| {
            (0..8).fold(0u8, |acc, t| {
                acc | (u8::from(bits[8 * (n - 1 - j) + t]) << t)
            })
        })
        .collect()
}

/// LSB-first bits of `v`.
pub fn int_bits(v: u128, n: usize) -> Vec<bool> {
    (0..n).map(|i| i < 128 && v >> i & 1 == 1).collect()
}

/// LSB-first bits → integer.
pub fn bits_int(bits: &[bool]) -> u128 {
    bits.iter()
        .enumerate()
        .fold(0, |acc, (i, &b)| acc | (u128::from(b) << i))
}

/// Lane `lane` of bit-sliced words as bits.
pub fn lane(words: &[u64], lane: usize) -> Vec<bool> {
    words.iter().map(|w| w >> lane & 1 == 1).collect()
}

/// Packs 64 bit vectors (one per lane) into bit-sliced words.
pub fn pack(lanes: &[Vec<bool>]) -> Vec<u64> {
    let n = lanes.first().map_or(0, Vec::len);
    (0..n)
        .map(|i| {
            lanes
                .iter()
                .enumerate()
                .fold(0u64, |acc, (l, v)| acc | (u64::from(v[i]) << l))
        })
        .collect()
}
