//! The AES S-box as the 113-gate Boyar–Peralta circuit (32 AND, AND-depth 6)
//! from "A new combinational logic minimization technique with applications
//! to cryptology" (Boyar–Peralta, SEA 2010; J. Cryptology 2013): a linear
//! top layer (23 XOR), a shared nonlinear middle (32 AND + 30 XOR) and a
//! linear bottom layer (26 XOR + 4 XNOR). AND gates are what garbling pays
//! for, so this is the cheapest known S-box for 2PC.
//!
//! Bit naming follows the paper: `U0` is the most significant input bit and
//! `S0` the most significant output bit. The test at the bottom checks all
//! 256 inputs against the S-box computed from its definition (inversion in
//! GF(2^8) followed by the affine map), not against a pasted table.

use crate::builder::{Bit, BitVec, CircuitBuilder};

/// S-box of one byte (`x` is LSB first: `x.bit(0)` is the byte's bit 0).
pub(crate) fn sbox(bld: &mut CircuitBuilder, x: &BitVec) -> BitVec {
    let u = |i: usize| x.bit(7 - i);
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (u(0), u(1), u(2), u(3), u(4), u(5), u(6), u(7));
    let mut xr = |a: Bit, b: Bit| bld.xor_bit(a, b);
    // Top linear layer.
    let y14 = xr(u3, u5);
    let y13 = xr(u0, u6);
    let y9 = xr(u0, u3);
    let y8 = xr(u0, u5);
    let t0 = xr(u1, u2);
    let y1 = xr(t0, u7);
    let y4 = xr(y1, u3);
    let y12 = xr(y13, y14);
    let y2 = xr(y1, u0);
    let y5 = xr(y1, u6);
    let y3 = xr(y5, y8);
    let t1 = xr(u4, y12);
    let y15 = xr(t1, u5);
    let y20 = xr(t1, u1);
    let y6 = xr(y15, u7);
    let y10 = xr(y15, t0);
    let y11 = xr(y20, y9);
    let y7 = xr(u7, y11);
    let y17 = xr(y10, y11);
    let y19 = xr(y10, y8);
    let y16 = xr(t0, y11);
    let y21 = xr(y13, y16);
    let y18 = xr(u0, y16);

    // Nonlinear middle.
    let a = |b: &mut CircuitBuilder, p: Bit, q: Bit| b.and_bit(p, q);
    let t2 = a(bld, y12, y15);
    let t3 = a(bld, y3, y6);
    let t4 = bld.xor_bit(t3, t2);
    let t5 = a(bld, y4, u7);
    let t6 = bld.xor_bit(t5, t2);
    let t7 = a(bld, y13, y16);
    let t8 = a(bld, y5, y1);
    let t9 = bld.xor_bit(t8, t7);
    let t10 = a(bld, y2, y7);
    let t11 = bld.xor_bit(t10, t7);
    let t12 = a(bld, y9, y11);
    let t13 = a(bld, y14, y17);
    let t14 = bld.xor_bit(t13, t12);
    let t15 = a(bld, y8, y10);
    let t16 = bld.xor_bit(t15, t12);
    let t17 = bld.xor_bit(t4, t14);
    let t18 = bld.xor_bit(t6, t16);
    let t19 = bld.xor_bit(t9, t14);
    let t20 = bld.xor_bit(t11, t16);
    let t21 = bld.xor_bit(t17, y20);
    let t22 = bld.xor_bit(t18, y19);
    let t23 = bld.xor_bit(t19, y21);
    let t24 = bld.xor_bit(t20, y18);
    let t25 = bld.xor_bit(t21, t22);
    let t26 = a(bld, t21, t23);
    let t27 = bld.xor_bit(t24, t26);
    let t28 = a(bld, t25, t27);
    let t29 = bld.xor_bit(t28, t22);
    let t30 = bld.xor_bit(t23, t24);
    let t31 = bld.xor_bit(t22, t26);
    let t32 = a(bld, t31, t30);
    let t33 = bld.xor_bit(t32, t24);
    let t34 = bld.xor_bit(t23, t33);
    let t35 = bld.xor_bit(t27, t33);
    let t36 = a(bld, t24, t35);
    let t37 = bld.xor_bit(t36, t34);
    let t38 = bld.xor_bit(t27, t36);
    let t39 = a(bld, t29, t38);
    let t40 = bld.xor_bit(t25, t39);
    let t41 = bld.xor_bit(t40, t37);
    let t42 = bld.xor_bit(t29, t33);
    let t43 = bld.xor_bit(t29, t40);
    let t44 = bld.xor_bit(t33, t37);
    let t45 = bld.xor_bit(t42, t41);
    let z0 = a(bld, t44, y15);
    let z1 = a(bld, t37, y6);
    let z2 = a(bld, t33, u7);
    let z3 = a(bld, t43, y16);
    let z4 = a(bld, t40, y1);
    let z5 = a(bld, t29, y7);
    let z6 = a(bld, t42, y11);
    let z7 = a(bld, t45, y17);
    let z8 = a(bld, t41, y10);
    let z9 = a(bld, t44, y12);
    let z10 = a(bld, t37, y3);
    let z11 = a(bld, t33, y4);
    let z12 = a(bld, t43, y13);
    let z13 = a(bld, t40, y5);
    let z14 = a(bld, t29, y2);
    let z15 = a(bld, t42, y9);
    let z16 = a(bld, t45, y14);
    let z17 = a(bld, t41, y8);

    // Bottom linear layer (XNOR = XOR then a free NOT).
    let mut xr = |a: Bit, b: Bit| bld.xor_bit(a, b);
    let tc1 = xr(z15, z16);
    let tc2 = xr(z10, tc1);
    let tc3 = xr(z9, tc2);
    let tc4 = xr(z0, z2);
    let tc5 = xr(z1, z0);
    let tc6 = xr(z3, z4);
    let tc7 = xr(z12, tc4);
    let tc8 = xr(z7, tc6);
    let tc9 = xr(z8, tc7);
    let tc10 = xr(tc8, tc9);
    let tc11 = xr(tc6, tc5);
    let tc12 = xr(z3, z5);
    let tc13 = xr(z13, tc1);
    let tc14 = xr(tc4, tc12);
    let s3 = xr(tc3, tc11);
    let tc16 = xr(z6, tc8);
    let tc17 = xr(z14, tc10);
    let tc18 = xr(tc13, tc14);
    let s7 = !xr(z12, tc18);
    let tc20 = xr(z15, tc16);
    let tc21 = xr(tc2, z11);
    let s0 = xr(tc3, tc16);
    let s6 = !xr(tc10, tc18);
    let s4 = xr(tc14, s3);
    let s1 = !xr(s3, tc16);
    let tc26 = xr(tc17, tc20);
    let s2 = !xr(tc26, z17);
    let s5 = xr(tc21, tc17);
    BitVec(vec![s7, s6, s5, s4, s3, s2, s1, s0])
}

#[cfg(test)]
mod tests {
    use super::sbox;
    use crate::builder::CircuitBuilder;

    fn gmul(mut a: u8, mut b: u8) -> u8 {
        let mut p = 0;
        while b != 0 {
            if b & 1 == 1 {
                p ^= a;
            }
            a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
            b >>= 1;
        }
        p
    }

    /// The S-box from its definition: multiplicative inverse, then affine.
    fn reference(x: u8) -> u8 {
        let inv = (1..=255u8).find(|&y| gmul(x, y) == 1).unwrap_or(0);
        inv ^ inv.rotate_left(1)
            ^ inv.rotate_left(2)
            ^ inv.rotate_left(3)
            ^ inv.rotate_left(4)
            ^ 0x63
    }

    #[test]
    fn all_256_inputs_and_cost() {
        let mut b = CircuitBuilder::new();
        let x = b.input("x", 8);
        let y = sbox(&mut b, &x);
        b.output("y", &y);
        let c = b.finish();
        assert_eq!(c.and_count(), 32);
        assert_eq!(c.and_depth(), 6);
        for v in 0..=255u8 {
            let bits: Vec<bool> = (0..8).map(|i| v >> i & 1 == 1).collect();
            let out = c.eval(&[bits]).unwrap();
            let got = out[0]
                .iter()
                .enumerate()
                .fold(0u8, |acc, (i, &b)| acc | (u8::from(b) << i));
            assert_eq!(got, reference(v), "S({v:#04x})");
        }
    }
}
