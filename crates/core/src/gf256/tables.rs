//! Compile-time construction of the log/exp tables.

use super::reference;

/// (g, exp, log) for GF(2^σ) modulo `poly`, g the smallest primitive
/// element. Panics (at compile time, for the statics) if `poly` is not
/// primitive-friendly, i.e. no element of full order exists.
pub(super) const fn build(sigma: u32, poly: u16) -> (u8, [u8; 512], [u8; 256]) {
    let q = (1usize << sigma) - 1;
    let mut g = 2u16;
    while g <= q as u16 {
        if order(g as u8, sigma, poly) == q {
            break;
        }
        g += 1;
    }
    assert!(
        g <= q as u16,
        "no primitive element: polynomial not irreducible"
    );
    let g = g as u8;
    let mut exp = [0u8; 512];
    let mut log = [0u8; 256];
    let mut x = 1u8;
    let mut i = 0;
    while i < 2 * q {
        exp[i] = x;
        if i < q {
            log[x as usize] = i as u8;
        }
        x = reference::mul_poly(x, g, sigma, poly);
        i += 1;
    }
    (g, exp, log)
}

/// The multiplicative order of a (a ≠ 0).
const fn order(a: u8, sigma: u32, poly: u16) -> usize {
    let mut x = a;
    let mut k = 1;
    while x != 1 {
        x = reference::mul_poly(x, a, sigma, poly);
        k += 1;
        if k > 256 {
            return 0;
        }
    }
    k
}
