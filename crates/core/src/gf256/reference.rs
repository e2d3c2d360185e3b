//! The definition: shift-and-add multiplication, inversion by Fermat.
//!
//! Slow and obviously right; every faster path is tested against it.

use super::Field;

/// a · b in GF(2)[x] / (poly), σ-bit elements.
pub const fn mul_poly(a: u8, b: u8, sigma: u32, poly: u16) -> u8 {
    let mut acc: u16 = 0;
    let mut a = a as u16;
    let mut b = b;
    let top = 1u16 << sigma;
    while b != 0 {
        if b & 1 == 1 {
            acc ^= a;
        }
        b >>= 1;
        a <<= 1;
        if a & top != 0 {
            a ^= poly;
        }
    }
    acc as u8
}

/// a · b in `field`, without tables.
pub fn mul(field: &Field, a: u8, b: u8) -> u8 {
    mul_poly(a, b, field.sigma(), field.poly())
}

/// a⁻¹ = a^(2^σ − 2) by square-and-multiply, or `None` for 0.
pub fn inv(field: &Field, a: u8) -> Option<u8> {
    if a == 0 {
        return None;
    }
    let mut e = field.order() as u32 - 2;
    let (mut base, mut acc) = (a, 1u8);
    while e != 0 {
        if e & 1 == 1 {
            acc = mul(field, acc, base);
        }
        base = mul(field, base, base);
        e >>= 1;
    }
    Some(acc)
}
