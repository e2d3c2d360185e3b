//! Exact binomial coefficients as little bignums, so that the binding
//! condition C(ℓ−1, w) · 2^s ≤ C(n, w) is decided without rounding.

/// A non-negative integer, little-endian 64-bit limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Big(Vec<u64>);

impl Big {
    fn one() -> Big {
        Big(vec![1])
    }

    fn mul_small(&mut self, m: u64) {
        let mut carry = 0u128;
        for limb in &mut self.0 {
            let v = *limb as u128 * m as u128 + carry;
            *limb = v as u64;
            carry = v >> 64;
        }
        if carry != 0 {
            self.0.push(carry as u64);
        }
    }

    /// Exact division (the callers only divide when it is exact).
    fn div_small(&mut self, d: u64) {
        let mut rem = 0u128;
        for limb in self.0.iter_mut().rev() {
            let v = (rem << 64) | *limb as u128;
            *limb = (v / d as u128) as u64;
            rem = v % d as u128;
        }
        debug_assert_eq!(rem, 0, "inexact division");
        while self.0.len() > 1 && *self.0.last().unwrap() == 0 {
            self.0.pop();
        }
    }

    /// self · 2^s.
    pub(crate) fn shl(&self, s: u32) -> Big {
        let (words, bits) = ((s / 64) as usize, s % 64);
        let mut v = vec![0u64; words];
        let mut carry = 0u64;
        for &limb in &self.0 {
            v.push((limb << bits) | carry);
            carry = if bits == 0 { 0 } else { limb >> (64 - bits) };
        }
        v.push(carry);
        let mut b = Big(v);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.len() > 1 && *self.0.last().unwrap() == 0 {
            self.0.pop();
        }
    }

    /// log2, to f64 precision (for reports, never for decisions).
    pub(crate) fn log2(&self) -> f64 {
        let top = self.0.len() - 1;
        let hi = self.0[top] as f64;
        let lo = if top > 0 { self.0[top - 1] as f64 } else { 0.0 };
        (hi + lo / 2f64.powi(64)).log2() + 64.0 * top as f64
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (mut a, mut b) = (self.clone(), other.clone());
        a.trim();
        b.trim();
        a.0.len()
            .cmp(&b.0.len())
            .then_with(|| a.0.iter().rev().cmp(b.0.iter().rev()))
    }
}

/// C(n, k), exactly (0 when k > n).
pub(crate) fn binom(n: u64, k: u64) -> Big {
    if k > n {
        return Big(vec![0]);
    }
    let k = k.min(n - k);
    let mut b = Big::one();
    // After step j the value is C(n − k + j, j), an integer.
    for j in 1..=k {
        b.mul_small(n - k + j);
        b.div_small(j);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_binomials_and_order() {
        assert_eq!(binom(5, 2), Big(vec![10]));
        assert_eq!(binom(3, 5), Big(vec![0]));
        // C(100, 50) = 100891344545564193334812497256 ≈ 2^96.35
        let c = binom(100, 50);
        assert_eq!(c.0.len(), 2);
        assert!((c.log2() - 96.348).abs() < 1e-3);
        assert!(binom(86, 21) > binom(85, 21));
        assert!(Big(vec![1]).shl(70) > binom(40, 20));
        assert_eq!(Big(vec![3]).shl(64), Big(vec![0, 3]));
    }
}
