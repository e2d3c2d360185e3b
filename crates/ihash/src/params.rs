//! Parameter sets (n, ℓ, w, σ) of IHash_{ℓ,σ}, computed from (k, s).
//!
//! Constraints (Sec. 6.1–6.2; the binding formula is reconstructed, see
//! `docs/protocols/jimu.md`):
//! * binding: C(ℓ−1, w) / C(n, w) ≤ 2^-s — two distinct codewords agree on
//!   at most ℓ−1 positions, and Bob's w watched positions are a uniform
//!   w-subset, so a forgery survives only if all w fall into the agreement;
//! * hiding: σ(ℓ−w) ≥ the bits that must stay hidden (k for wire labels,
//!   1 for permutation strings, whose one permutation bit is hidden
//!   perfectly);
//! * a Reed–Solomon code needs n distinct evaluation points: n ≤ 2^σ.
//!
//! The paper minimises a deployment-specific cost that it does not state.
//! Ours reproduces its choices: for wire labels (σ = 8, ℓσ a whole number
//! of 128-bit AES blocks) the symbols Alice sends per garbled AND for its
//! output label, 2ℓ (two half-gate rows) + (n − ℓ) (the parity corrections),
//! i.e. ℓ + n; for permutation strings (σ = 6, the smallest field with room)
//! the code length n (PRG symbols and base OTs), then ℓ. For each ℓ, w is
//! the largest the hiding bound allows (binding only improves with w) and n
//! the smallest that binds.

use crate::binom::binom;
use brickyard_core::gf256::Field;
use brickyard_core::{Error, Result};
use serde::{Deserialize, Serialize};

/// The smallest statistical security parameter accepted.
pub const MIN_S: u32 = 40;

/// One IHash parameter set, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// Code length = number of seeds.
    pub n: usize,
    /// Message length in symbols (the code's dimension).
    pub ell: usize,
    /// Watched positions (seeds Bob learns).
    pub w: usize,
    /// Bits per symbol (8 or 6).
    pub sigma: u32,
    /// Statistical security this set binds to (2^-s).
    pub s: u32,
}

impl Params {
    /// Checks an explicit set: binding at 2^-s (s ≥ [`MIN_S`]), at least
    /// `hidden_bits` hidden, n ≤ 2^σ, 1 ≤ w < ℓ < n. Anything else is
    /// `Error::Config`.
    pub fn new(
        n: usize,
        ell: usize,
        w: usize,
        sigma: u32,
        s: u32,
        hidden_bits: u32,
    ) -> Result<Params> {
        if s < MIN_S {
            return Err(Error::config(format!("ihash: s = {s} < {MIN_S}")));
        }
        let p = Params::unchecked(n, ell, w, sigma, s)?;
        if !p.binds(s) {
            return Err(Error::config(format!(
                "ihash: ({n}, {ell}, {w}, {sigma}) binds only to 2^{:.2}, above 2^-{s}",
                p.binding_log2()
            )));
        }
        if p.hidden_bits() < hidden_bits {
            return Err(Error::config(format!(
                "ihash: ({n}, {ell}, {w}, {sigma}) hides {} bits < {hidden_bits}",
                p.hidden_bits()
            )));
        }
        Ok(p)
    }

    /// Shape checks only (the field exists, n ≤ 2^σ, 1 ≤ w < ℓ < n, and
    /// n < 256: the setup's Shamir shares sit at the nonzero points 1..=n
    /// of GF(2^8), so seed position 255 has no point of its own).
    fn unchecked(n: usize, ell: usize, w: usize, sigma: u32, s: u32) -> Result<Params> {
        let Some(f) = Field::of(sigma) else {
            return Err(Error::config(format!("ihash: σ = {sigma} is not 6 or 8")));
        };
        if !(1 <= w && w < ell && ell < n && n <= f.order() && n < 256) {
            return Err(Error::config(format!(
                "ihash: ({n}, {ell}, {w}, {sigma}) needs 1 ≤ w < ℓ < n ≤ 2^σ and n < 256"
            )));
        }
        Ok(Params {
            n,
            ell,
            w,
            sigma,
            s,
        })
    }

    /// A set that is NOT checked for binding or hiding, for statistical
    /// tests on toy codes (cargo feature `adversary` only).
    #[cfg(feature = "adversary")]
    pub fn toy(n: usize, ell: usize, w: usize, sigma: u32, s: u32) -> Result<Params> {
        Params::unchecked(n, ell, w, sigma, s)
    }

    /// The wire-label set for computational security k (bits that stay
    /// hidden) and statistical security s: (86, 32, 21, 8) for k = 88 and
    /// (88, 48, 32, 8) for k = 127 at s = 40.
    pub fn for_labels(k: u32, s: u32) -> Result<Params> {
        let sigma = 8;
        let per_block = 128 / sigma as usize;
        let mut best: Option<Params> = None;
        for ell in (per_block..256).step_by(per_block) {
            let Some(w) = ell.checked_sub(k.div_ceil(sigma) as usize) else {
                continue;
            };
            if w == 0 {
                continue;
            }
            if let Some(n) = min_n(ell, w, s, 1 << sigma) {
                let p = Params::new(n, ell, w, sigma, s, k)?;
                if best.is_none_or(|b| p.ell + p.n < b.ell + b.n) {
                    best = Some(p);
                }
            }
        }
        best.ok_or_else(|| Error::config(format!("ihash: no label set for k = {k}, s = {s}")))
    }

    /// The permutation-string set for statistical security s: (44, 20, 19,
    /// 6) at s = 40 (one hidden bit suffices).
    pub fn for_permutation_strings(s: u32) -> Result<Params> {
        for sigma in [6u32, 8] {
            let cap = 1usize << sigma;
            // Smallest n first, then smallest ℓ: w = ℓ − 1 (σ ≥ 1 bit hidden).
            let best = (2..cap)
                .filter_map(|ell| min_n(ell, ell - 1, s, cap).map(|n| (n, ell)))
                .min();
            if let Some((n, ell)) = best {
                return Params::new(n, ell, ell - 1, sigma, s, 1);
            }
        }
        Err(Error::config(format!(
            "ihash: no permutation-string set for s = {s}"
        )))
    }

    /// The field of the symbols.
    pub fn field(&self) -> &'static Field {
        Field::of(self.sigma).expect("checked at construction")
    }

    /// ξ = ⌈s/σ⌉ check combinations: each catches a nonzero error on the
    /// watched positions except with probability 2^-σ.
    pub fn xi(&self) -> usize {
        self.s.div_ceil(self.sigma) as usize
    }

    /// (ℓ − w)σ bits of a uniform message stay hidden from Bob.
    pub fn hidden_bits(&self) -> u32 {
        (self.ell - self.w) as u32 * self.sigma
    }

    /// Whether C(ℓ−1, w) · 2^s ≤ C(n, w) (exact).
    pub fn binds(&self, s: u32) -> bool {
        binom(self.ell as u64 - 1, self.w as u64).shl(s) <= binom(self.n as u64, self.w as u64)
    }

    /// log2 of the binding bound C(ℓ−1, w) / C(n, w) (for reports).
    pub fn binding_log2(&self) -> f64 {
        binom(self.ell as u64 - 1, self.w as u64).log2()
            - binom(self.n as u64, self.w as u64).log2()
    }

    /// C(ℓ−1, w) / C(n, w) as a probability (for statistical tests).
    pub fn binding_probability(&self) -> f64 {
        self.binding_log2().exp2()
    }
}

/// The smallest n ≤ cap with C(ℓ−1, w) · 2^s ≤ C(n, w).
fn min_n(ell: usize, w: usize, s: u32, cap: usize) -> Option<usize> {
    let lhs = binom(ell as u64 - 1, w as u64).shl(s);
    (ell + 1..=cap).find(|&n| binom(n as u64, w as u64) >= lhs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_sets_are_computed() {
        let l88 = Params::for_labels(88, 40).unwrap();
        assert_eq!((l88.n, l88.ell, l88.w, l88.sigma), (86, 32, 21, 8));
        let l127 = Params::for_labels(127, 40).unwrap();
        assert_eq!((l127.n, l127.ell, l127.w, l127.sigma), (88, 48, 32, 8));
        let p = Params::for_permutation_strings(40).unwrap();
        assert_eq!((p.n, p.ell, p.w, p.sigma), (44, 20, 19, 6));
        assert_eq!((l88.xi(), p.xi()), (5, 7));
        // The bounds the notes derive: 2^-40.24, 2^-40.26, 2^-40.36.
        assert!((l88.binding_log2() + 40.2376).abs() < 1e-3);
        assert!((l127.binding_log2() + 40.2627).abs() < 1e-3);
        assert!((p.binding_log2() + 40.3576).abs() < 1e-3);
    }

    #[test]
    fn overrides_that_miss_the_bounds_are_refused() {
        // n = 256 would put a Shamir share at x = 0 (or overflow its u8).
        assert!(matches!(
            Params::unchecked(256, 200, 50, 8, 40),
            Err(Error::Config(_))
        ));
        assert!(Params::unchecked(255, 200, 50, 8, 40).is_ok());
        // One seed fewer no longer binds to 2^-40 (2^-39.83).
        assert!(matches!(
            Params::new(85, 32, 21, 8, 40, 88),
            Err(Error::Config(_))
        ));
        assert!(Params::new(86, 32, 21, 8, 40, 88).is_ok());
        // Hides 96 bits, not 127... and w = 20 binds only at 2^-39.
        assert!(matches!(
            Params::new(86, 32, 20, 8, 40, 127),
            Err(Error::Config(_))
        ));
        assert!(matches!(
            Params::new(86, 32, 21, 8, 40, 89),
            Err(Error::Config(_))
        ));
        // n > 2^σ, σ unsupported, s too small.
        assert!(matches!(
            Params::new(70, 20, 19, 6, 40, 1),
            Err(Error::Config(_))
        ));
        assert!(matches!(
            Params::new(44, 20, 19, 7, 40, 1),
            Err(Error::Config(_))
        ));
        assert!(matches!(
            Params::new(44, 20, 19, 6, 30, 1),
            Err(Error::Config(_))
        ));
        // The prototype's (44, 21, 20, 6) binds too (2^-40.68).
        assert!(Params::new(44, 21, 20, 6, 40, 1).is_ok());
        assert!(Params::new(43, 20, 19, 6, 40, 1).is_err());
    }

    #[test]
    fn larger_s_needs_longer_codes() {
        let a = Params::for_labels(88, 40).unwrap();
        let b = Params::for_labels(88, 60).unwrap();
        assert!(b.binds(60) && b.n + b.ell > a.n + a.ell);
        assert!(Params::for_permutation_strings(60).unwrap().binds(60));
    }
}
