//! Lemmas 2.2 and 2.3 of Lindell–Riva, evaluated exactly.
//!
//! Balls and bins: Alice sends `M` circuits, Bob checks `M − NB` of them
//! (a check opens the whole circuit, so a checked cracked circuit is always
//! caught) and throws the `NB` others into `N` buckets of `B`. If Alice
//! cracks `t` circuits, all of them escape the check with probability
//! `C(M−t, NB−t) / C(M, NB) = ∏_{i<t} (NB−i)/(M−i)`, and then one given
//! bucket is
//!
//! * fully cracked (Lemma 2.2, the main circuit C) with probability
//!   `C(t, B) / C(NB, B) = ∏_{i<B} (t−i)/(NB−i)`;
//! * majority cracked (Lemma 2.3, the cheating-recovery circuit C') with
//!   probability at most `2^{B−1} (t/NB)^{⌈B/2⌉}` (a union over the at most
//!   `2^{B−1}` sets of `⌈B/2⌉` positions, each all cracked w.p. ≤ (t/NB)^⌈B/2⌉).
//!
//! The lemma's bound is the maximum over `t = B..NB` of the product. The
//! paper's formulas were lost in the text extraction; the reconstruction is
//! confirmed by reproducing every row of Table 1 (tests in `mod.rs`).
//!
//! Why the maximum is found without scanning every `t`: the ratio of two
//! consecutive terms, `f(t+1)/f(t) = (NB−t)/(M−t) · (t+1)/(t+1−B)` (2.2) or
//! `(NB−t)/(M−t) · ((t+1)/t)^⌈B/2⌉` (2.3), is a product of positive factors
//! that each decrease in `t` (`NB < M`), so `f` rises while the ratio is
//! above 1 and falls after: the maximum is at the first `t` whose ratio is
//! `≤ 1`, found by bisection on exact integer comparisons. A test compares
//! this against a scan of every `t` for small parameters.

use brickyard_core::bigint::BigUint;
use serde::Serialize;

/// Which cut-and-choose event is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lemma {
    /// Lemma 2.2: a bucket whose circuits are all cracked (main circuit C).
    FullyCracked,
    /// Lemma 2.3: a bucket whose majority is cracked (recovery circuit C').
    MajorityCracked,
}

/// The lemma's bound for one parameter set, as an exact fraction.
#[derive(Clone, Debug)]
pub struct ExactBound {
    /// The maximising number of cracked circuits.
    pub worst_t: u64,
    num: BigUint,
    den: BigUint,
}

impl ExactBound {
    /// `bound ≤ 2^-s`, decided on integers: `num · 2^s ≤ den`.
    pub fn meets(&self, s: u32) -> bool {
        let mut lhs = self.num.clone();
        lhs.shl(s);
        lhs <= self.den
    }

    /// log2 of the bound, for display only.
    pub fn log2(&self) -> f64 {
        self.num.log2() - self.den.log2()
    }
}

/// `((NB−t) · a) > ((M−t) · b)`: is the ratio `f(t+1)/f(t)` above 1?
fn rises(lemma: Lemma, nb: u64, m: u64, b: u64, t: u64) -> bool {
    match lemma {
        Lemma::FullyCracked => {
            (nb - t) as u128 * (t + 1) as u128 > (m - t) as u128 * (t + 1 - b) as u128
        }
        Lemma::MajorityCracked => {
            let h = b.div_ceil(2);
            let mut lhs = BigUint::from_u64(nb - t);
            let mut rhs = BigUint::from_u64(m - t);
            for _ in 0..h {
                lhs.mul_u64(t + 1);
                rhs.mul_u64(t);
            }
            lhs > rhs
        }
    }
}

/// The term `f(t)` as an exact fraction.
fn term(lemma: Lemma, nb: u64, m: u64, b: u64, t: u64) -> (BigUint, BigUint) {
    let mut num = BigUint::from_u64(1);
    let mut den = BigUint::from_u64(1);
    for i in 0..t {
        num.mul_u64(nb - i);
        den.mul_u64(m - i);
    }
    match lemma {
        Lemma::FullyCracked => {
            for i in 0..b {
                num.mul_u64(t - i);
                den.mul_u64(nb - i);
            }
        }
        Lemma::MajorityCracked => {
            num.shl((b - 1) as u32);
            for _ in 0..b.div_ceil(2) {
                num.mul_u64(t);
                den.mul_u64(nb);
            }
        }
    }
    (num, den)
}

/// The bound of `lemma` for `N` buckets of `B` out of `M` circuits.
///
/// Callers guarantee `1 ≤ B`, `N·B < M` and `B < 64` (checked by
/// [`super::CutAndChoose`] before calling).
pub fn bound(lemma: Lemma, n: u64, b: u64, m: u64) -> ExactBound {
    let nb = n * b;
    debug_assert!(b >= 1 && nb < m && b < 64);
    // First t in [B, NB] whose ratio is ≤ 1 (the ratio at t = NB is 0).
    let (mut lo, mut hi) = (b, nb);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if rises(lemma, nb, m, b, mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let (num, den) = term(lemma, nb, m, b, lo);
    ExactBound {
        worst_t: lo,
        num,
        den,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bisection finds the same maximum as a scan over every t.
    #[test]
    fn bisection_matches_full_scan() {
        for lemma in [Lemma::FullyCracked, Lemma::MajorityCracked] {
            for (n, b, m) in [(2, 3, 9), (4, 2, 11), (8, 5, 60), (3, 7, 40), (5, 4, 21)] {
                let got = bound(lemma, n, b, m);
                let nb = n * b;
                let mut best: Option<(u64, BigUint, BigUint)> = None;
                for t in b..=nb {
                    let (num, den) = term(lemma, nb, m, b, t);
                    // a/b > c/d  <=>  a·d > c·b; compare with u64 products of limbs.
                    let better = match &best {
                        None => true,
                        Some((_, bn, bd)) => cross_gt(&num, bd, bn, &den),
                    };
                    if better {
                        best = Some((t, num, den));
                    }
                }
                let (t, num, den) = best.unwrap();
                assert_eq!(got.worst_t, t, "{lemma:?} n={n} b={b} m={m}");
                assert!(!cross_gt(&got.num, &den, &num, &got.den));
                assert!(!cross_gt(&num, &got.den, &got.num, &den));
            }
        }
    }

    /// `a·d > c·b`, i.e. `a/b > c/d`, for test-sized fractions.
    fn cross_gt(a: &BigUint, d: &BigUint, c: &BigUint, b: &BigUint) -> bool {
        a.mul(d) > c.mul(b)
    }

    #[test]
    fn exact_decision_at_the_threshold() {
        // N = 1, B = 1, M = 2: one of two circuits is evaluated; the bound is
        // exactly 1/2 (t = 1): meets s = 1, misses s = 2.
        let e = bound(Lemma::FullyCracked, 1, 1, 2);
        assert!(e.meets(1));
        assert!(!e.meets(2));
        assert!((e.log2() + 1.0).abs() < 1e-12);
    }
}
