//! DES encryption of one 64-bit block (FIPS 46-3), the second application
//! of JIMU's Sec. 7.
//!
//! The tables below were written from FIPS 46-3 (its numbering: bit 1 is
//! the leftmost, most significant bit of a block). Every permutation, the
//! expansion E and the key schedule are wiring, so they cost nothing; only
//! the eight S-boxes cost AND gates. Each S-box is built from its algebraic
//! normal form: the four output bits are XORs of monomials in the six input
//! bits, and each monomial (product of input bits) is one AND of two
//! smaller monomials, made once and shared by the four outputs. That is at
//! most 57 ANDs (the monomials of degree ≥ 2) per S-box at AND-depth 3,
//! and fewer where no output uses a monomial.
//!
//! Bit order is the REVERSED convention of `aes128`: a group read as a hex
//! value is the block (or key) in FIPS order, so FIPS bit `i` (1-based) of
//! a 64-bit group is wire `64 − i`.

use std::collections::HashMap;

use crate::builder::{Bit, BitVec, CircuitBuilder};
use crate::ir::Circuit;

/// Initial permutation IP: output bit j is input bit `IP[j]`.
const IP: [u8; 64] = [
    58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4, //
    62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8, //
    57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3, //
    61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
];

/// Final permutation IP⁻¹ (the test checks it inverts [`IP`]).
const FP: [u8; 64] = [
    40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31, //
    38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29, //
    36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27, //
    34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9, 49, 17, 57, 25,
];

/// Expansion E: 32 → 48 bits.
const E: [u8; 48] = [
    32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9, //
    8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17, //
    16, 17, 18, 19, 20, 21, 20, 21, 22, 23, 24, 25, //
    24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1,
];

/// Permutation P of the S-boxes' 32 output bits.
const P: [u8; 32] = [
    16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10, //
    2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25,
];

/// Permuted choice 1: 64 key bits → C₀D₀ (56 bits; the parity bits 8, 16,
/// …, 64 are dropped).
const PC1: [u8; 56] = [
    57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18, //
    10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36, //
    63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22, //
    14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
];

/// Permuted choice 2: CᵢDᵢ (56 bits) → Kᵢ (48 bits).
const PC2: [u8; 48] = [
    14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10, //
    23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2, //
    41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, //
    44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
];

/// Left rotations of C and D before each of the 16 rounds.
const SHIFTS: [usize; 16] = [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1];

/// S₁ … S₈, each as 4 rows of 16: row = bits 1 and 6 of the 6-bit input,
/// column = bits 2–5.
pub(crate) const SBOXES: [[[u8; 16]; 4]; 8] = [
    [
        [14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7],
        [0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8],
        [4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0],
        [15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13],
    ],
    [
        [15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10],
        [3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5],
        [0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15],
        [13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9],
    ],
    [
        [10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8],
        [13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1],
        [13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7],
        [1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12],
    ],
    [
        [7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15],
        [13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9],
        [10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4],
        [3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14],
    ],
    [
        [2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9],
        [14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6],
        [4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14],
        [11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3],
    ],
    [
        [12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11],
        [10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8],
        [9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6],
        [4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13],
    ],
    [
        [4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1],
        [13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6],
        [1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2],
        [6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12],
    ],
    [
        [13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7],
        [1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2],
        [7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8],
        [2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11],
    ],
];

/// Bits in FIPS order: index 0 is FIPS bit 1.
type Fips = Vec<Bit>;

/// `out[j] = bits[table[j] − 1]`.
fn permute(bits: &[Bit], table: &[u8]) -> Fips {
    table.iter().map(|&t| bits[usize::from(t) - 1]).collect()
}

/// A REVERSED-order group (wire k = bit k of the big-endian integer) in
/// FIPS order.
fn fips_of_group(g: &BitVec) -> Fips {
    (0..g.len()).rev().map(|k| g.bit(k)).collect()
}

/// Inverse of [`fips_of_group`].
fn group_of_fips(bits: &[Bit]) -> BitVec {
    bits.iter().rev().copied().collect()
}

/// The value of S-box `s` on the 6-bit input `x` (x's bit 5 is FIPS input
/// bit 1), as the 4-bit output (bit 3 is the first output bit).
pub(crate) fn sbox_value(s: usize, x: usize) -> u8 {
    let row = (x >> 4 & 2) | (x & 1);
    let col = x >> 1 & 15;
    SBOXES[s][row][col]
}

/// The ANF coefficients of output bit `o` (0 = least significant) of S-box
/// `s`: bit `m` of the result says whether the monomial ∏_{i ∈ m} x_i
/// appears (Möbius transform of the truth table).
fn anf(s: usize, o: usize) -> u64 {
    let mut t: [bool; 64] = std::array::from_fn(|x| sbox_value(s, x) >> o & 1 == 1);
    for i in 0..6 {
        for x in 0..64 {
            if x >> i & 1 == 1 {
                t[x] ^= t[x ^ (1 << i)];
            }
        }
    }
    (0..64).fold(0, |acc, m| acc | u64::from(t[m]) << m)
}

/// The monomial `m` over `x` (bit i of `m` = factor `x[i]`), built as the
/// AND of its two halves so the depth is ⌈log₂ deg⌉; memoised so each
/// monomial costs one AND once.
fn monomial(b: &mut CircuitBuilder, x: &[Bit; 6], m: usize, memo: &mut HashMap<usize, Bit>) -> Bit {
    if m == 0 {
        return Bit::ONE;
    }
    if m.count_ones() == 1 {
        return x[m.trailing_zeros() as usize];
    }
    if let Some(&v) = memo.get(&m) {
        return v;
    }
    // Split: the lowest ⌈deg/2⌉ set bits, and the rest.
    let half = m.count_ones().div_ceil(2);
    let mut lo = 0;
    let mut rest = m;
    for _ in 0..half {
        let low = rest & rest.wrapping_neg();
        lo |= low;
        rest &= !low;
    }
    let p = monomial(b, x, lo, memo);
    let q = monomial(b, x, rest, memo);
    let v = b.and_bit(p, q);
    memo.insert(m, v);
    v
}

/// S-box `s` on six bits in FIPS order; four bits out in FIPS order.
fn sbox(b: &mut CircuitBuilder, s: usize, input: &[Bit]) -> [Bit; 4] {
    // x_i is bit i of the integer whose MSB is FIPS input bit 1.
    let x: [Bit; 6] = std::array::from_fn(|i| input[5 - i]);
    let mut memo = HashMap::new();
    std::array::from_fn(|j| {
        let coeffs = anf(s, 3 - j);
        (0..64)
            .filter(|m| coeffs >> m & 1 == 1)
            .fold(Bit::ZERO, |acc, m| {
                let t = monomial(b, &x, m, &mut memo);
                b.xor_bit(acc, t)
            })
    })
}

/// The round function f(R, K) = P(S(E(R) ⊕ K)).
fn feistel(b: &mut CircuitBuilder, r: &[Bit], k: &[Bit]) -> Fips {
    let e = permute(r, &E);
    let x: Fips = e.iter().zip(k).map(|(&p, &q)| b.xor_bit(p, q)).collect();
    let s: Fips = (0..8)
        .flat_map(|i| sbox(b, i, &x[6 * i..6 * i + 6]))
        .collect();
    permute(&s, &P)
}

/// The 16 round keys K₁ … K₁₆ of a 64-bit key (FIPS order): wiring only.
pub(crate) fn round_keys(key: &[Bit]) -> Vec<Fips> {
    let cd = permute(key, &PC1);
    let (mut c, mut d) = (cd[..28].to_vec(), cd[28..].to_vec());
    SHIFTS
        .iter()
        .map(|&n| {
            c.rotate_left(n);
            d.rotate_left(n);
            let cd: Fips = c.iter().chain(&d).copied().collect();
            permute(&cd, &PC2)
        })
        .collect()
}

/// DES of one block (FIPS order) under the given round keys.
pub(crate) fn encrypt(b: &mut CircuitBuilder, keys: &[Fips], pt: &[Bit]) -> Fips {
    let ip = permute(pt, &IP);
    let (mut l, mut r) = (ip[..32].to_vec(), ip[32..].to_vec());
    for k in keys {
        let f = feistel(b, &r, k);
        let next: Fips = l.iter().zip(&f).map(|(&p, &q)| b.xor_bit(p, q)).collect();
        l = std::mem::replace(&mut r, next);
    }
    // Output IP⁻¹(R₁₆ L₁₆): the halves swap after the last round.
    let rl: Fips = r.iter().chain(&l).copied().collect();
    permute(&rl, &FP)
}

/// `des`: group 0 `key` (64 bits with the parity bits 8, 16, …, 64, which
/// DES ignores), group 1 `plaintext` (64), output `ciphertext` (64).
pub fn des() -> Circuit {
    let mut b = CircuitBuilder::new();
    let key = b.input("key", 64);
    let pt = b.input("plaintext", 64);
    let keys = round_keys(&fips_of_group(&key));
    let ct = encrypt(&mut b, &keys, &fips_of_group(&pt));
    b.output("ciphertext", &group_of_fips(&ct));
    b.finish()
}

/// `des-expanded`: group 0 `round_keys` (768 bits: K₁ ‖ K₂ ‖ … ‖ K₁₆, each
/// 48 bits in FIPS order, so K₁ is the top 48 bits of the hex value), group
/// 1 `plaintext` (64), output `ciphertext` (64). The same gates as `des`;
/// this is the layout of JIMU's Sec. 7 application ("a 768-bit key from
/// P1").
pub fn des_expanded() -> Circuit {
    let mut b = CircuitBuilder::new();
    let rk = fips_of_group(&b.input("round_keys", 768));
    let pt = b.input("plaintext", 64);
    let keys: Vec<Fips> = rk.chunks(48).map(<[Bit]>::to_vec).collect();
    let ct = encrypt(&mut b, &keys, &fips_of_group(&pt));
    b.output("ciphertext", &group_of_fips(&ct));
    b.finish()
}

/// The round keys of a 64-bit key as the 768-bit `round_keys` value of
/// `des-expanded` (REVERSED order), for callers that hold a DES key.
pub fn expand_key_bits(key: &[bool]) -> Vec<bool> {
    assert_eq!(key.len(), 64, "des: 64-bit key");
    let bits: Fips = key.iter().rev().map(|&v| Bit::constant(v)).collect();
    let keys = round_keys(&bits);
    keys.iter()
        .flatten()
        .rev()
        .map(|b| b.as_const().expect("wiring of constants stays constant"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_well_formed() {
        // FP inverts IP.
        for j in 0..64 {
            assert_eq!(usize::from(FP[usize::from(IP[j]) - 1]) - 1, j);
        }
        // Each S-box row is a permutation of 0..16.
        for s in &SBOXES {
            for row in s {
                let mut seen = [false; 16];
                for &v in row {
                    seen[usize::from(v)] = true;
                }
                assert!(seen.iter().all(|&x| x));
            }
        }
        // PC-1 skips exactly the parity bits; P is a permutation.
        let mut used = [false; 65];
        for &t in &PC1 {
            used[usize::from(t)] = true;
        }
        for (i, &u) in used.iter().enumerate().skip(1) {
            assert_eq!(u, i % 8 != 0, "PC-1 bit {i}");
        }
        let mut p = P.to_vec();
        p.sort_unstable();
        assert_eq!(p, (1..=32).collect::<Vec<u8>>());
        assert_eq!(SHIFTS.iter().sum::<usize>(), 28);
    }

    #[test]
    fn sbox_circuit_matches_table() {
        for s in 0..8 {
            let mut b = CircuitBuilder::new();
            let x = b.input("x", 6);
            let fips: Fips = (0..6).rev().map(|i| x.bit(i)).collect();
            let out = sbox(&mut b, s, &fips);
            b.output("y", &out.iter().rev().copied().collect());
            assert!(b.and_count() <= 57);
            let c = b.finish();
            for v in 0..64usize {
                let ins: Vec<bool> = (0..6).map(|i| v >> i & 1 == 1).collect();
                let y = c.eval(&[ins]).unwrap();
                let got = (0..4).fold(0u8, |a, i| a | u8::from(y[0][i]) << i);
                assert_eq!(got, sbox_value(s, v), "S{} on {v}", s + 1);
            }
        }
    }
}
