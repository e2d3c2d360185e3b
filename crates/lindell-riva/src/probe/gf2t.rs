//! GF(2^t) for 2 ≤ t ≤ 16, as polynomials over GF(2) modulo a fixed
//! irreducible polynomial. The Reed–Solomon argument of [`super::construct`]
//! needs a field (a nonzero polynomial of degree < K has < K roots), so the
//! verifier re-checks irreducibility of the modulus it uses ([`is_irreducible`])
//! rather than trusting this table.

/// Smallest and largest supported field degree.
pub const MIN_T: u32 = 2;
/// Largest supported field degree (points fit in `u32`, tables stay small).
pub const MAX_T: u32 = 16;

/// The modulus for `GF(2^t)`, including the `x^t` term.
pub fn modulus(t: u32) -> Option<u32> {
    Some(match t {
        2 => 0x7,      // x^2+x+1
        3 => 0xB,      // x^3+x+1
        4 => 0x13,     // x^4+x+1
        5 => 0x25,     // x^5+x^2+1
        6 => 0x43,     // x^6+x+1
        7 => 0x83,     // x^7+x+1
        8 => 0x11B,    // x^8+x^4+x^3+x+1 (AES)
        9 => 0x211,    // x^9+x^4+1
        10 => 0x409,   // x^10+x^3+1
        11 => 0x805,   // x^11+x^2+1
        12 => 0x1053,  // x^12+x^6+x^4+x+1
        13 => 0x201B,  // x^13+x^4+x^3+x+1
        14 => 0x4443,  // x^14+x^10+x^6+x+1
        15 => 0x8003,  // x^15+x+1
        16 => 0x1100B, // x^16+x^12+x^3+x+1
        _ => return None,
    })
}

fn degree(p: u64) -> i32 {
    63 - p.leading_zeros() as i32
}

/// `a mod m` for GF(2) polynomials (`m ≠ 0`).
fn poly_mod(mut a: u64, m: u64) -> u64 {
    let dm = degree(m);
    while a != 0 && degree(a) >= dm {
        a ^= m << (degree(a) - dm);
    }
    a
}

/// Trial division by every polynomial of degree 1..=deg/2.
pub fn is_irreducible(p: u32) -> bool {
    let d = degree(p as u64);
    if d < 1 {
        return false;
    }
    for dg in 1..=d / 2 {
        for low in 0..(1u64 << dg) {
            let g = (1u64 << dg) | low;
            if poly_mod(p as u64, g) == 0 {
                return false;
            }
        }
    }
    true
}

/// The field `GF(2^t)` with the modulus of [`modulus`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    t: u32,
    modulus: u32,
}

impl Field {
    /// `GF(2^t)`, if `t` is supported.
    pub fn new(t: u32) -> Option<Field> {
        modulus(t).map(|modulus| Field { t, modulus })
    }

    /// The degree `t`.
    pub fn degree(&self) -> u32 {
        self.t
    }

    /// The modulus polynomial.
    pub fn modulus(&self) -> u32 {
        self.modulus
    }

    /// Number of elements, `2^t`.
    pub fn order(&self) -> u32 {
        1 << self.t
    }

    /// `a · x` (one shift and a conditional reduction).
    #[inline]
    pub fn mul_x(&self, a: u32) -> u32 {
        let r = a << 1;
        if r >> self.t & 1 == 1 {
            r ^ self.modulus
        } else {
            r
        }
    }

    /// `a · b`.
    pub fn mul(&self, a: u32, mut b: u32) -> u32 {
        let mut acc = 0;
        let mut a = a;
        while b != 0 {
            if b & 1 == 1 {
                acc ^= a;
            }
            b >>= 1;
            a = self.mul_x(a);
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_modulus_is_irreducible_of_its_degree() {
        for t in MIN_T..=MAX_T {
            let m = modulus(t).unwrap();
            assert_eq!(degree(m as u64), t as i32);
            assert!(is_irreducible(m), "t = {t}");
        }
        // The check rejects reducible polynomials.
        assert!(!is_irreducible(0x5)); // x^2+1 = (x+1)^2
        assert!(!is_irreducible(0x11)); // x^4+1
        assert!(!is_irreducible(0x1B)); // x^4+x^3+x+1 has the root 1
        assert!(!is_irreducible(0x15)); // x^4+x^2+1 = (x^2+x+1)^2
    }

    #[test]
    fn field_axioms_on_small_fields() {
        for t in [2, 3, 4, 6] {
            let f = Field::new(t).unwrap();
            // Every nonzero element has an inverse; multiplication commutes.
            for a in 1..f.order() {
                assert_eq!((1..f.order()).filter(|&b| f.mul(a, b) == 1).count(), 1);
                for b in 0..f.order() {
                    assert_eq!(f.mul(a, b), f.mul(b, a));
                    assert!(f.mul(a, b) < f.order());
                }
            }
        }
    }
}
