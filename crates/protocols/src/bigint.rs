//! Just enough unsigned big-integer arithmetic to decide the papers'
//! bounds exactly: LEGO's Theorem 2 (products of a few dozen small
//! integers and their sums), JIMU's Sec. 6.3 cut-and-choose sum and its
//! Lemma 6.1 recurrence (fractions with 2^384-sized factors). A float
//! would round, and a rounded bound can accept parameters the theorem
//! rejects, so the bounds are decided on integers.

use std::cmp::Ordering;

/// Little-endian base-2^64 unsigned integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BigUint(Vec<u64>);

impl BigUint {
    pub(crate) fn from_u64(v: u64) -> Self {
        BigUint(vec![v])
    }

    fn trim(&mut self) {
        while self.0.len() > 1 && *self.0.last().unwrap_or(&1) == 0 {
            self.0.pop();
        }
    }

    /// `self *= m`.
    pub(crate) fn mul_u64(&mut self, m: u64) {
        let mut carry = 0u128;
        for limb in self.0.iter_mut() {
            let v = (*limb as u128) * (m as u128) + carry;
            *limb = v as u64;
            carry = v >> 64;
        }
        if carry > 0 {
            self.0.push(carry as u64);
        }
        self.trim();
    }

    /// `self += other`.
    pub(crate) fn add_assign(&mut self, other: &BigUint) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        let mut carry = 0u128;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let v = *limb as u128 + *other.0.get(i).unwrap_or(&0) as u128 + carry;
            *limb = v as u64;
            carry = v >> 64;
        }
        if carry > 0 {
            self.0.push(carry as u64);
        }
    }

    /// `self * other`.
    pub(crate) fn mul(&self, other: &BigUint) -> BigUint {
        let mut out = vec![0u64; self.0.len() + other.0.len()];
        for (i, &x) in self.0.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in other.0.iter().enumerate() {
                let v = (x as u128) * (y as u128) + out[i + j] as u128 + carry;
                out[i + j] = v as u64;
                carry = v >> 64;
            }
            let mut k = i + other.0.len();
            while carry > 0 {
                let v = out[k] as u128 + carry;
                out[k] = v as u64;
                carry = v >> 64;
                k += 1;
            }
        }
        let mut r = BigUint(out);
        r.trim();
        r
    }

    /// `self -= other`; `None` (and `self` unchanged) if `other > self`.
    pub(crate) fn checked_sub_assign(&mut self, other: &BigUint) -> Option<()> {
        if *other > *self {
            return None;
        }
        let mut borrow = 0u64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let o = *other.0.get(i).unwrap_or(&0);
            let (d1, b1) = limb.overflowing_sub(o);
            let (d2, b2) = d1.overflowing_sub(borrow);
            *limb = d2;
            borrow = (b1 || b2) as u64;
        }
        self.trim();
        Some(())
    }

    /// `self /= d`, returning the remainder (`d > 0`).
    pub(crate) fn div_rem_u64(&mut self, d: u64) -> u64 {
        assert!(d > 0, "division by zero");
        let mut rem = 0u128;
        for limb in self.0.iter_mut().rev() {
            let cur = (rem << 64) | *limb as u128;
            *limb = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        self.trim();
        rem as u64
    }

    /// `2^bits − 1`.
    pub(crate) fn ones(bits: u32) -> BigUint {
        let mut v = BigUint::from_u64(1);
        v.shl(bits);
        v.checked_sub_assign(&BigUint::from_u64(1))
            .expect("2^bits ≥ 1");
        v
    }

    /// Whether the value is zero.
    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `self <<= bits`.
    pub(crate) fn shl(&mut self, bits: u32) {
        let words = (bits / 64) as usize;
        let r = bits % 64;
        let mut out = vec![0u64; words];
        let mut carry = 0u64;
        for &limb in &self.0 {
            if r == 0 {
                out.push(limb);
            } else {
                out.push((limb << r) | carry);
                carry = limb >> (64 - r);
            }
        }
        if carry > 0 {
            out.push(carry);
        }
        self.0 = out;
        self.trim();
    }

    /// log2, for display only (the decision uses [`Ord`]).
    pub(crate) fn log2(&self) -> f64 {
        let top = self.0.len() - 1;
        let hi = self.0[top] as f64;
        let lo = if top > 0 { self.0[top - 1] as f64 } else { 0.0 };
        let v = hi + lo / 18446744073709551616.0;
        if v == 0.0 {
            return f64::NEG_INFINITY;
        }
        v.log2() + 64.0 * top as f64
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_matches_u128() {
        let mut a = BigUint::from_u64(u64::MAX);
        a.mul_u64(u64::MAX);
        let want = (u64::MAX as u128) * (u64::MAX as u128);
        assert_eq!(a.0, vec![want as u64, (want >> 64) as u64]);
        let mut b = BigUint::from_u64(3);
        b.shl(100);
        let mut c = BigUint::from_u64(1);
        c.shl(101);
        assert!(b > c);
        c.add_assign(&BigUint::from_u64(1));
        c.shl(1);
        assert!(c > b);
        assert!((b.log2() - (100.0 + 3f64.log2())).abs() < 1e-9);
    }

    #[test]
    fn mul_sub_div_match_u128() {
        let x = 0xdead_beef_1234_5678_9abc_def0_1357_9bdfu128;
        let (a, b) = (x >> 64, x as u64 as u128);
        let big = |v: u128| {
            let mut r = BigUint::from_u64((v >> 64) as u64);
            r.shl(64);
            r.add_assign(&BigUint::from_u64(v as u64));
            r
        };
        assert_eq!(big(a).mul(&big(b)), big(a * b));
        let mut p = big(x);
        assert_eq!(p.div_rem_u64(1_000_003), (x % 1_000_003) as u64);
        assert_eq!(p, big(x / 1_000_003));
        let mut q = big(x);
        assert!(q.checked_sub_assign(&big(x + 1)).is_none());
        assert_eq!(q, big(x));
        q.checked_sub_assign(&big(x - 12345)).unwrap();
        assert_eq!(q, BigUint::from_u64(12345));
        assert_eq!(BigUint::ones(130).mul(&BigUint::from_u64(2)), {
            let mut t = BigUint::from_u64(1);
            t.shl(131);
            t.checked_sub_assign(&BigUint::from_u64(2)).unwrap();
            t
        });
        let mut z = BigUint::from_u64(5);
        z.checked_sub_assign(&BigUint::from_u64(5)).unwrap();
        assert!(z.is_zero() && !BigUint::from_u64(1).is_zero());
        // A big product divided back exactly.
        let mut f = BigUint::from_u64(1);
        for i in 1..=40u64 {
            f.mul_u64(i);
        }
        for i in (1..=40u64).rev() {
            assert_eq!(f.div_rem_u64(i), 0);
        }
        assert_eq!(f, BigUint::from_u64(1));
    }
}
