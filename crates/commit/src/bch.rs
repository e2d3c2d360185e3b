//! Construction of the binary BCH generator polynomial, from scratch.
//!
//! Why compute instead of embedding a constant: the distance claim then rests
//! on arithmetic the tests re-check (every α^i, 1 ≤ i ≤ 40, is a root), not on
//! a table copied from elsewhere. The narrow-sense primitive BCH code of
//! length 511 = 2^9 − 1 with roots α^1..α^40 has designed distance 41 (BCH
//! bound); shortening it to 128 message bits keeps the distance.
//!
//! GF(2^9) = GF(2)[x]/(x^9 + x^4 + 1); the polynomial is primitive (its root
//! α has order 511; `tests::alpha_is_primitive`).

use crate::params::{D, PARITY};

/// The field polynomial of GF(2^9).
const GF512_POLY: u16 = 0x211;
/// Multiplicative order of α.
const ORDER: usize = 511;

/// Product in GF(2^9) (shift-and-add; only used at construction time).
pub(crate) fn gf512_mul(a: u16, b: u16) -> u16 {
    let (mut a, mut b, mut r) = (a, b, 0u16);
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        b >>= 1;
        a <<= 1;
        if a & 0x200 != 0 {
            a ^= GF512_POLY;
        }
    }
    r
}

/// α^e in GF(2^9), α = x.
pub(crate) fn alpha_pow(e: usize) -> u16 {
    let mut r = 1u16;
    for _ in 0..(e % ORDER) {
        r = gf512_mul(r, 2);
    }
    r
}

#[cfg(test)]
/// Evaluates a binary polynomial (coefficient i = `coeffs[i]`) at `x` ∈ GF(2^9).
pub(crate) fn eval_binary_poly(coeffs: &[bool], x: u16) -> u16 {
    coeffs
        .iter()
        .rev()
        .fold(0u16, |acc, &c| gf512_mul(acc, x) ^ c as u16)
}

/// The generator polynomial: the product of the minimal polynomials of the
/// distinct cyclotomic cosets of 1..D−1 modulo 511. Coefficient i at index i;
/// degree [`PARITY`].
///
/// # Panics
/// If the construction contradicts the compile-time parameters (a bug).
pub(crate) fn generator_polynomial() -> Vec<bool> {
    let mut covered = [false; ORDER];
    // Polynomial over GF(2^9), coefficient i at index i.
    let mut g: Vec<u16> = vec![1];
    for i in 1..D {
        if covered[i] {
            continue;
        }
        let mut e = i;
        while !covered[e] {
            covered[e] = true;
            // g ← g · (X − α^e)  (− = + in characteristic 2)
            let root = alpha_pow(e);
            let mut next = vec![0u16; g.len() + 1];
            for (k, &c) in g.iter().enumerate() {
                next[k + 1] ^= c;
                next[k] ^= gf512_mul(c, root);
            }
            g = next;
            e = (2 * e) % ORDER;
        }
    }
    assert_eq!(g.len(), PARITY + 1, "BCH generator degree");
    g.iter()
        .map(|&c| {
            assert!(c <= 1, "minimal polynomials must be binary");
            c == 1
        })
        .collect()
}

/// `x^(PARITY + i) mod g(x)` for i = 0..count, as 192-bit little-endian words:
/// the parity contributed by message bit i in systematic encoding.
pub(crate) fn parity_rows(g: &[bool], count: usize) -> Vec<[u64; 3]> {
    let mut low = [0u64; 3];
    for (i, &c) in g[..PARITY].iter().enumerate() {
        if c {
            low[i / 64] |= 1 << (i % 64);
        }
    }
    let mut rows = Vec::with_capacity(count);
    // x^PARITY ≡ g_low (g is monic).
    let mut r = low;
    for _ in 0..count {
        rows.push(r);
        // r ← x·r mod g
        let top = (r[(PARITY - 1) / 64] >> ((PARITY - 1) % 64)) & 1;
        r[2] = (r[2] << 1) | (r[1] >> 63);
        r[1] = (r[1] << 1) | (r[0] >> 63);
        r[0] <<= 1;
        r[(PARITY) / 64] &= !(1u64 << (PARITY % 64));
        if top == 1 {
            for (w, l) in r.iter_mut().zip(&low) {
                *w ^= l;
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_is_primitive() {
        let mut x = 1u16;
        for e in 1..=ORDER {
            x = gf512_mul(x, 2);
            assert_eq!(x == 1, e == ORDER, "α^{e}");
        }
    }

    #[test]
    fn generator_has_the_designed_roots_and_no_more_consecutive() {
        let g = generator_polynomial();
        assert_eq!(g.len(), PARITY + 1);
        assert!(g[0] && g[PARITY], "monic with nonzero constant term");
        for i in 1..D {
            assert_eq!(
                eval_binary_poly(&g, alpha_pow(i)),
                0,
                "α^{i} must be a root"
            );
        }
        // α^41 is not a root: the designed distance is exactly 41.
        assert_ne!(eval_binary_poly(&g, alpha_pow(D)), 0);
    }

    #[test]
    fn generator_divides_x511_minus_1() {
        // g | x^511 − 1 ⇔ x^511 ≡ 1 mod g: the code is cyclic of length 511.
        let g = generator_polynomial();
        let rows = parity_rows(&g, ORDER - PARITY + 1);
        // rows[i] = x^(PARITY+i) mod g; i = 511 − PARITY gives x^511.
        let r = rows[ORDER - PARITY];
        assert_eq!(r, [1, 0, 0]);
    }

    #[test]
    fn parity_rows_match_polynomial_reduction() {
        // Independent check: schoolbook long division of x^(PARITY+i) by g.
        let g = generator_polynomial();
        let rows = parity_rows(&g, 128);
        for (i, row) in rows.iter().enumerate().step_by(17) {
            let mut p = vec![false; PARITY + i + 1];
            p[PARITY + i] = true;
            for deg in (PARITY..p.len()).rev() {
                if p[deg] {
                    for (k, &c) in g.iter().enumerate() {
                        p[deg - PARITY + k] ^= c;
                    }
                }
            }
            for (l, &bit) in p[..PARITY].iter().enumerate() {
                assert_eq!((row[l / 64] >> (l % 64)) & 1 == 1, bit, "row {i} bit {l}");
            }
        }
    }
}
