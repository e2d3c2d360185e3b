//! Lemma 6.1: how much entropy a compressed wire label keeps, computed
//! exactly, two ways.
//!
//! A wire label is `ℓ` symbols of GF(2^8); Bob watches `w` of its codeword
//! symbols (linear functionals spanning `W`, `dim W = w`), and Alice, after
//! his choice, sends the `t = 16` rows `T` of the Compress matrix `A'`
//! (uniform of rank 16, i.e. a uniform 16-dimensional row space). The
//! compressed label `A'm` then has `8·D` bits of min-entropy for Bob,
//! `D = dim(T + W) − dim W = t − dim(T ∩ W)`, and the lemma's figure is
//! `−log2 E[2^-8D]`.
//!
//! [`paper_recurrence`] is the lemma's recurrence as printed:
//!
//! ```text
//! E[2^-8 d_{i,j}] = p_{i,j}·E[2^-8 d_{i+1,j+1}] + (1 − p_{i,j})·2^-8·E[2^-8 d_{i+1,j}]
//! p_{i,j} = (2^{8(w−j)} − 1) / (2^{8(ℓ−i)} − 1),        E[2^-8 d_{t,j}] = 1.
//! ```
//!
//! Its `p_{i,j}` is not a probability in every reachable state (it
//! exceeds 1 at `i = 15, j = 0` for (32, 21): `(2^168 − 1)/(2^136 − 1)`,
//! and case 2 does not bound `dim(T + W)` by `ℓ`), so it is run here as
//! an algebraic recurrence with signed terms, and checked against a direct
//! count, [`subspace_count`]: among the `[ℓ t]_q` subspaces `T` (Gaussian
//! binomials, `q = 2^8`), `q^{(t−i)(w−i)}·[w i]_q·[ℓ−w t−i]_q` meet `W` in
//! dimension `i`, so `E[q^-D] = Σ_i that · q^{−(t−i)} / [ℓ t]_q`. The tests
//! check both against `(2^40 + 1)/(2^128 + 1)` for (32, 21, 16) and below
//! `2^-127` for (48, 32, 16). (The printed second base case `d_{i,21} = i`
//! is never reached: `j ≤ i < t = 16 < w`.)

use brickyard_core::bigint::BigUint;

/// Rows of `A'` (the compressed label is 16 bytes).
pub const COMPRESSED_SYMBOLS: u32 = 16;

/// `E[2^-8D]` as an unreduced fraction `(numerator, denominator)`.
pub struct Expectation {
    num: BigUint,
    den: BigUint,
}

impl Expectation {
    /// `−log2 E[2^-8D]`, the bits of min-entropy on average (display).
    pub fn bits(&self) -> f64 {
        self.den.log2() - self.num.log2()
    }

    /// Whether `E[2^-8D] < 2^-bits`, exactly.
    pub fn below_2_pow_neg(&self, bits: u32) -> bool {
        let mut n = self.num.clone();
        n.shl(bits);
        n < self.den
    }
}

/// A signed big integer, for the printed recurrence's negative terms.
#[derive(Clone)]
struct Signed {
    neg: bool,
    mag: BigUint,
}

impl Signed {
    fn add(mut self, other: Signed) -> Signed {
        if self.neg == other.neg {
            self.mag.add_assign(&other.mag);
            self
        } else if self.mag >= other.mag {
            self.mag.checked_sub_assign(&other.mag).expect("ordered");
            self
        } else {
            let mut m = other.mag;
            m.checked_sub_assign(&self.mag).expect("ordered");
            Signed {
                neg: other.neg,
                mag: m,
            }
        }
    }

    /// `self · (±m)`.
    fn mul(&self, m: &BigUint, neg: bool) -> Signed {
        Signed {
            neg: self.neg != neg,
            mag: self.mag.mul(m),
        }
    }
}

/// `E[2^-8D]` by the lemma's recurrence as printed, for labels of `l`
/// symbols, `w` watched, `t` compressed symbols. Every level `i` shares the
/// denominator `D_i = 256·(2^{8(ℓ−i)} − 1)·D_{i+1}`, so numerators stay
/// integers: `N_i(j) = 256·a·N_{i+1}(j+1) + (c − a)·N_{i+1}(j)`.
///
/// # Panics
/// If `!(t < l && w < l)` (constants at the callers), or if the value
/// came out negative (it does not for any setting tested).
pub fn paper_recurrence(l: u32, w: u32, t: u32) -> Expectation {
    assert!(t < l && w < l, "Lemma 6.1 needs t, w < ℓ");
    let one = || Signed {
        neg: false,
        mag: BigUint::from_u64(1),
    };
    let mut nums: Vec<Signed> = (0..=t).map(|_| one()).collect();
    let mut den = BigUint::from_u64(1);
    for i in (0..t).rev() {
        let c = BigUint::ones(8 * (l - i));
        let mut next = Vec::with_capacity(i as usize + 1);
        for j in 0..=i {
            // (j ≥ w cannot happen for t < w; p = 0 there.)
            let a = BigUint::ones(8 * w.saturating_sub(j));
            let mut a256 = a.clone();
            a256.shl(8);
            let (rest, rest_neg) = if c >= a {
                let mut r = c.clone();
                r.checked_sub_assign(&a).expect("ordered");
                (r, false)
            } else {
                let mut r = a.clone();
                r.checked_sub_assign(&c).expect("ordered");
                (r, true)
            };
            let v = nums[j as usize + 1]
                .mul(&a256, false)
                .add(nums[j as usize].mul(&rest, rest_neg));
            next.push(v);
        }
        let mut c256 = c;
        c256.shl(8);
        den = den.mul(&c256);
        nums = next;
    }
    let n = nums.swap_remove(0);
    assert!(!n.neg || n.mag.is_zero(), "negative expectation");
    Expectation { num: n.mag, den }
}

/// Gaussian binomials `[a b]_q`, `q = 2^8`, for `a ≤ amax`, by the
/// q-Pascal rule `[a b] = [a−1 b−1] + q^b·[a−1 b]` (integers only).
fn gaussian_binomials(amax: u32) -> Vec<Vec<BigUint>> {
    let mut g: Vec<Vec<BigUint>> = Vec::new();
    for a in 0..=amax {
        let row = (0..=a)
            .map(|b| {
                if b == 0 || b == a {
                    return BigUint::from_u64(1);
                }
                let mut v = g[a as usize - 1][b as usize].clone();
                v.shl(8 * b);
                v.add_assign(&g[a as usize - 1][b as usize - 1]);
                v
            })
            .collect();
        g.push(row);
    }
    g
}

/// `E[2^-8D]` by counting subspaces (see the module docs): exact, with no
/// recurrence. Also checks that the counts add up to `[ℓ t]_q`.
///
/// # Panics
/// If `!(t ≤ l && w ≤ l)`, or the counts do not add up (a bug).
pub fn subspace_count(l: u32, w: u32, t: u32) -> Expectation {
    assert!(t <= l && w <= l, "needs t, w ≤ ℓ");
    let g = gaussian_binomials(l);
    let gb = |a: u32, b: u32| g[a as usize][b as usize].clone();
    let total = gb(l, t);
    let mut sum = BigUint::from_u64(0);
    let mut num = BigUint::from_u64(0);
    for i in 0..=t.min(w) {
        if t - i > l - w {
            continue;
        }
        let mut c = gb(w, i).mul(&gb(l - w, t - i));
        c.shl(8 * (t - i) * (w - i));
        sum.add_assign(&c);
        // c · q^-(t−i) over total: numerator c · q^i over total · q^t.
        c.shl(8 * i);
        num.add_assign(&c);
    }
    assert!(sum == total, "subspace counts add up");
    let mut den = total;
    den.shl(8 * t);
    Expectation { num, den }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fraction(e: &Expectation, num: &BigUint, den: &BigUint) -> bool {
        e.num.mul(den) == e.den.mul(num)
    }

    fn p2_plus_1(bits: u32) -> BigUint {
        let mut v = BigUint::from_u64(1);
        v.shl(bits);
        v.add_assign(&BigUint::from_u64(1));
        v
    }

    #[test]
    fn lemma_6_1_k88_is_exactly_the_papers_fraction() {
        // (ℓ, w) = (32, 21): E[2^-8D] = (2^40 + 1)/(2^128 + 1), both ways.
        let (n, d) = (p2_plus_1(40), p2_plus_1(128));
        for e in [
            paper_recurrence(32, 21, COMPRESSED_SYMBOLS),
            subspace_count(32, 21, COMPRESSED_SYMBOLS),
        ] {
            assert!(fraction(&e, &n, &d));
            assert!(e.bits() > 87.999 && e.bits() < 88.0);
            assert!(e.below_2_pow_neg(87) && !e.below_2_pow_neg(88));
        }
    }

    #[test]
    fn lemma_6_1_k127_keeps_more_than_127_bits() {
        for e in [
            paper_recurrence(48, 32, COMPRESSED_SYMBOLS),
            subspace_count(48, 32, COMPRESSED_SYMBOLS),
        ] {
            assert!(e.below_2_pow_neg(127));
            assert!(!e.below_2_pow_neg(128));
        }
    }

    #[test]
    fn recurrence_and_count_agree_on_other_settings() {
        for (l, w, t) in [
            (32, 20, 16),
            (32, 24, 16),
            (40, 28, 16),
            (8, 3, 4),
            (6, 4, 2),
        ] {
            let (p, c) = (paper_recurrence(l, w, t), subspace_count(l, w, t));
            assert!(p.num.mul(&c.den) == c.num.mul(&p.den), "({l}, {w}, {t})");
        }
    }

    #[test]
    fn extremes_of_the_count() {
        // w = 0: nothing watched, D = t, E = 2^-8t. w = ℓ: D = 0, E = 1.
        let e = subspace_count(32, 0, 16);
        let mut want = e.num.clone();
        want.shl(128);
        assert_eq!(want, e.den);
        let e = subspace_count(32, 32, 16);
        assert_eq!(e.num, e.den);
        // More watched symbols leave less entropy.
        assert!(subspace_count(32, 22, 16).bits() < subspace_count(32, 21, 16).bits());
    }
}
