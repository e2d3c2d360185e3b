//! Construction of binary BCH generator polynomials, from scratch.
//!
//! Why compute instead of embedding a constant: the distance claim then rests
//! on arithmetic the tests re-check (every α^i below the designed distance
//! is a root), not on a table copied from elsewhere, and the code follows
//! the statistical parameter s. The narrow-sense primitive BCH code of
//! length 511 = 2^9 − 1 whose generator has roots α^1..α^(δ−1) has designed
//! distance δ (BCH bound); shortening it to 128 message bits keeps the
//! distance.
//!
//! GF(2^9) = GF(2)[x]/(x^9 + x^4 + 1); the polynomial is primitive (its root
//! α has order 511; `tests::alpha_is_primitive`).

use crate::params::PARITY_WORDS;

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

/// A generator polynomial and what it guarantees.
pub(crate) struct Generator {
    /// Coefficient i at index i; degree = `coeffs.len() − 1`.
    pub coeffs: Vec<bool>,
    /// Designed distance: 1 + the longest run α^1, α^2, … of roots (it may
    /// exceed what was asked for when a cyclotomic coset reaches past it).
    pub distance: usize,
}

/// The generator polynomial with (at least) the roots α^1..α^`roots`: the
/// product of the minimal polynomials of the distinct cyclotomic cosets
/// of 1..=roots modulo 511. `None` past 510 roots.
///
/// # Panics
/// If a minimal polynomial comes out non-binary (a bug).
pub(crate) fn generator_polynomial(roots: usize) -> Option<Generator> {
    if roots >= ORDER {
        return None;
    }
    let mut covered = [false; ORDER];
    // Polynomial over GF(2^9), coefficient i at index i.
    let mut g: Vec<u16> = vec![1];
    for i in 1..=roots {
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
    let run = (1..ORDER).take_while(|&e| covered[e]).count();
    let coeffs = g
        .iter()
        .map(|&c| {
            assert!(c <= 1, "minimal polynomials must be binary");
            c == 1
        })
        .collect();
    Some(Generator {
        coeffs,
        distance: run + 1,
    })
}

/// `x^(parity + i) mod g(x)` for i = 0..count, as little-endian words
/// (parity = deg g ≤ 64·[`PARITY_WORDS`]): the parity contributed by
/// message bit i in systematic encoding.
pub(crate) fn parity_rows(g: &[bool], count: usize) -> Vec<[u64; PARITY_WORDS]> {
    let parity = g.len() - 1;
    assert!(
        (1..=64 * PARITY_WORDS).contains(&parity),
        "parity_rows: degree {parity}"
    );
    let mut low = [0u64; PARITY_WORDS];
    for (i, &c) in g[..parity].iter().enumerate() {
        if c {
            low[i / 64] |= 1 << (i % 64);
        }
    }
    let mut rows = Vec::with_capacity(count);
    // x^parity ≡ g_low (g is monic).
    let mut r = low;
    for _ in 0..count {
        rows.push(r);
        // r ← x·r mod g
        let top = (r[(parity - 1) / 64] >> ((parity - 1) % 64)) & 1;
        for w in (1..PARITY_WORDS).rev() {
            r[w] = (r[w] << 1) | (r[w - 1] >> 63);
        }
        r[0] <<= 1;
        if parity < 64 * PARITY_WORDS {
            r[parity / 64] &= !(1u64 << (parity % 64));
        }
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
    fn generators_have_the_designed_roots_and_no_more_consecutive() {
        // (roots asked, degree, designed distance): 19 cosets for α^1..α^40,
        // 21 for α^1..α^44; α^1..α^32 brings α^33 (coset of 17) and α^34.
        for (roots, degree, distance) in [(40, 171, 41), (44, 189, 45), (32, 144, 35)] {
            let g = generator_polynomial(roots).unwrap();
            let p = &g.coeffs;
            assert_eq!((p.len() - 1, g.distance), (degree, distance), "{roots}");
            assert!(p[0] && p[degree], "monic with nonzero constant term");
            for i in 1..distance {
                assert_eq!(eval_binary_poly(p, alpha_pow(i)), 0, "α^{i} must be a root");
            }
            assert_ne!(eval_binary_poly(p, alpha_pow(distance)), 0);
        }
    }

    #[test]
    fn generator_divides_x511_minus_1() {
        // g | x^511 − 1 ⇔ x^511 ≡ 1 mod g: the code is cyclic of length 511.
        for roots in [40, 44] {
            let g = generator_polynomial(roots).unwrap().coeffs;
            let parity = g.len() - 1;
            let rows = parity_rows(&g, ORDER - parity + 1);
            // rows[i] = x^(parity+i) mod g; i = 511 − parity gives x^511.
            let mut one = [0u64; PARITY_WORDS];
            one[0] = 1;
            assert_eq!(rows[ORDER - parity], one);
        }
    }

    #[test]
    fn parity_rows_match_polynomial_reduction() {
        // Independent check: schoolbook long division of x^(parity+i) by g.
        for roots in [40, 44] {
            let g = generator_polynomial(roots).unwrap().coeffs;
            let parity = g.len() - 1;
            let rows = parity_rows(&g, 128);
            for (i, row) in rows.iter().enumerate().step_by(17) {
                let mut p = vec![false; parity + i + 1];
                p[parity + i] = true;
                for deg in (parity..p.len()).rev() {
                    if p[deg] {
                        for (k, &c) in g.iter().enumerate() {
                            p[deg - parity + k] ^= c;
                        }
                    }
                }
                for (l, &bit) in p[..parity].iter().enumerate() {
                    assert_eq!((row[l / 64] >> (l % 64)) & 1 == 1, bit, "row {i} bit {l}");
                }
            }
        }
    }
}
