//! Just enough unsigned big-integer arithmetic to decide cut-and-choose
//! bounds exactly (LEGO's Theorem 2, Lindell–Riva's Lemmas 2.2/2.3):
//! products of a few dozen small integers and their sums. A float would
//! round, and a rounded bound can accept parameters the theorem rejects, so
//! the bounds are decided on integers.

use std::cmp::Ordering;

/// Little-endian base-2^64 unsigned integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigUint(Vec<u64>);

impl BigUint {
    /// The integer `v`.
    pub fn from_u64(v: u64) -> Self {
        BigUint(vec![v])
    }

    fn trim(&mut self) {
        while self.0.len() > 1 && *self.0.last().unwrap_or(&1) == 0 {
            self.0.pop();
        }
    }

    /// The value, if it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        match self.0.as_slice() {
            [v] => Some(*v),
            _ => None,
        }
    }

    /// `self *= m`.
    pub fn mul_u64(&mut self, m: u64) {
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

    /// `self · other` (schoolbook; operands here are a few hundred limbs).
    pub fn mul(&self, other: &BigUint) -> BigUint {
        let mut out = vec![0u64; self.0.len() + other.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &b) in other.0.iter().enumerate() {
                let v = (a as u128) * (b as u128) + out[i + j] as u128 + carry;
                out[i + j] = v as u64;
                carry = v >> 64;
            }
            out[i + other.0.len()] = carry as u64;
        }
        let mut r = BigUint(out);
        r.trim();
        r
    }

    /// `self += other`.
    pub fn add_assign(&mut self, other: &BigUint) {
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

    /// `self -= other`; `None` (and `self` unchanged) if `other > self`.
    pub fn checked_sub_assign(&mut self, other: &BigUint) -> Option<()> {
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

    /// `self /= d`, returning the remainder; `None` (and `self` unchanged)
    /// for `d = 0`.
    pub fn div_rem_u64(&mut self, d: u64) -> Option<u64> {
        if d == 0 {
            return None;
        }
        let mut rem = 0u128;
        for limb in self.0.iter_mut().rev() {
            let cur = (rem << 64) | *limb as u128;
            *limb = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        self.trim();
        Some(rem as u64)
    }

    /// `2^bits − 1`.
    pub fn ones(bits: u32) -> BigUint {
        let mut v = BigUint::from_u64(1);
        v.shl(bits);
        // 2^bits ≥ 1, so the subtraction cannot fail.
        let _ = v.checked_sub_assign(&BigUint::from_u64(1));
        v
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `self <<= bits`.
    pub fn shl(&mut self, bits: u32) {
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
    pub fn log2(&self) -> f64 {
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
        // mul agrees with repeated mul_u64.
        let mut x = BigUint::from_u64(0xdead_beef_1234_5678);
        x.shl(70);
        let mut want = x.clone();
        want.mul_u64(u64::MAX);
        want.mul_u64(12345);
        let mut y = BigUint::from_u64(u64::MAX);
        y.mul_u64(12345);
        assert_eq!(x.mul(&y), want);
        assert_eq!(BigUint::from_u64(7).to_u64(), Some(7));
        assert_eq!(y.to_u64(), None);
    }
}
