use super::slice::{mul_add_const_on, mul_slices_on};
use super::*;
use crate::prg::Prg;
use crate::Block;

fn fields() -> [&'static Field; 2] {
    [&GF256, &GF64]
}

fn bytes(prg: &mut Prg, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    prg.fill_bytes(&mut v);
    v
}

#[test]
fn tables_match_reference_on_every_pair() {
    for f in fields() {
        let q = f.order() as u8 as usize;
        let q = if q == 0 { 256 } else { q };
        for a in 0..q {
            for b in 0..q {
                let (a, b) = (a as u8, b as u8);
                assert_eq!(
                    f.mul(a, b),
                    reference::mul(f, a, b),
                    "σ={} {a}·{b}",
                    f.sigma()
                );
            }
            let a = a as u8;
            assert_eq!(f.inv(a), reference::inv(f, a));
            if a != 0 {
                assert_eq!(f.mul(a, f.inv(a).unwrap()), 1);
                assert_eq!(f.exp(f.log(a).unwrap()), a);
            }
        }
    }
}

#[test]
fn generator_is_primitive_and_poly_is_irreducible() {
    for f in fields() {
        let q = f.order() - 1;
        let mut seen = vec![false; f.order()];
        for i in 0..q {
            let x = f.exp(i);
            assert!(
                x != 0 && !seen[x as usize],
                "σ={}: g^{i} repeats",
                f.sigma()
            );
            seen[x as usize] = true;
        }
        assert_eq!(f.pow(f.generator(), q as u64), 1);
    }
    assert_eq!(GF256.poly(), 0x11B);
    assert_eq!(GF64.poly(), 0x43);
    assert!(Field::of(7).is_none());
}

/// Intel's definition of `gf2p8affineqb` with imm8 = 0: output bit i is the
/// parity of (byte 7 − i of A) & x. Checks the GFNI matrices on any CPU.
fn affine_emulated(a: u64, x: u8) -> u8 {
    (0..8).fold(0u8, |acc, i| {
        let row = (a >> (8 * (7 - i))) as u8;
        acc | ((((row & x).count_ones() & 1) as u8) << i)
    })
}

#[test]
fn const_mul_forms_match_reference() {
    for f in fields() {
        for c in 0..f.order() {
            let m = ConstMul::new(f, c as u8);
            for x in 0..f.order() {
                let want = reference::mul(f, c as u8, x as u8);
                assert_eq!(m.apply(x as u8), want);
                assert_eq!(affine_emulated(m.affine(), x as u8), want);
            }
            // Bits at or above σ are ignored by every form alike.
            for x in 0..=255u8 {
                assert_eq!(m.apply(x), affine_emulated(m.affine(), x));
            }
        }
    }
}

#[test]
fn kernels_agree_with_the_portable_twin() {
    println!("kernels on this CPU: {:?}", Kernel::available());
    let mut prg = Prg::from_seed(Block(0x6f2a_u128));
    for f in fields() {
        for len in [0, 1, 15, 31, 32, 33, 63, 64, 65, 127, 200, 1000, 4099] {
            for _ in 0..8 {
                let c = (prg.random_u64() as usize % f.order()) as u8;
                let m = ConstMul::new(f, c);
                let src = bytes(&mut prg, len);
                let dst0 = bytes(&mut prg, len);
                let mut want = dst0.clone();
                mul_add_const_on(Kernel::Portable, &m, &src, &mut want);
                for (j, w) in want.iter().enumerate() {
                    assert_eq!(*w, dst0[j] ^ m.apply(src[j]));
                }
                for k in Kernel::available() {
                    let mut got = dst0.clone();
                    mul_add_const_on(k, &m, &src, &mut got);
                    assert_eq!(got, want, "{k:?} σ={} len={len} c={c}", f.sigma());
                }
            }
        }
    }
}

#[test]
fn mul_slices_kernels_agree() {
    let mut prg = Prg::from_seed(Block(0x51_u128));
    for f in fields() {
        for len in [0, 1, 63, 64, 65, 300] {
            let mask = (f.order() - 1) as u8;
            let a: Vec<u8> = bytes(&mut prg, len).iter().map(|x| x & mask).collect();
            let b: Vec<u8> = bytes(&mut prg, len).iter().map(|x| x & mask).collect();
            let want: Vec<u8> = a
                .iter()
                .zip(&b)
                .map(|(&x, &y)| reference::mul(f, x, y))
                .collect();
            for k in Kernel::available() {
                let mut got = vec![0u8; len];
                mul_slices_on(k, f, &a, &b, &mut got);
                assert_eq!(got, want, "{k:?} σ={}", f.sigma());
            }
        }
    }
}

#[test]
fn matrix_apply_matches_mul_vec_on_every_kernel() {
    let mut prg = Prg::from_seed(Block(0x77_u128));
    for f in fields() {
        let mask = (f.order() - 1) as u8;
        let (rows, cols) = (5, 7);
        let m = GfMatrix::from_fn(f, rows, cols, |_, _| prg.random_u64() as u8 & mask);
        let len = 1100; // crosses the chunk boundary
        let input: Vec<u8> = bytes(&mut prg, cols * len)
            .iter()
            .map(|x| x & mask)
            .collect();
        let mut want = vec![0u8; rows * len];
        for j in 0..len {
            let v: Vec<u8> = (0..cols).map(|c| input[c * len + j]).collect();
            for (r, y) in m.mul_vec(&v).into_iter().enumerate() {
                want[r * len + j] = y;
            }
        }
        for k in Kernel::available() {
            let mut got = vec![0xAAu8; rows * len];
            m.apply_on(k, &input, len, &mut got);
            assert_eq!(got, want, "{k:?} σ={}", f.sigma());
        }
    }
}

#[test]
fn inverse_and_rank() {
    let mut prg = Prg::from_seed(Block(0x99_u128));
    for f in fields() {
        let mask = (f.order() - 1) as u8;
        let mut inverted = 0;
        for _ in 0..20 {
            let m = GfMatrix::from_fn(f, 6, 6, |_, _| prg.random_u64() as u8 & mask);
            match m.inverse() {
                Some(inv) => {
                    inverted += 1;
                    assert_eq!(m.rank(), 6);
                    for r in 0..6 {
                        for c in 0..6 {
                            let v: u8 =
                                (0..6).fold(0, |a, k| a ^ f.mul(m.get(r, k), inv.get(k, c)));
                            assert_eq!(v, (r == c) as u8);
                        }
                    }
                }
                None => assert!(m.rank() < 6),
            }
        }
        assert!(inverted > 10);
        // Row 2 = row 0 + g · row 1: rank 2.
        let g = f.generator();
        let s = GfMatrix::from_fn(f, 3, 4, |r, c| {
            let a = (c as u8 + 1) & mask;
            let b = f.exp(c + 3);
            match r {
                0 => a,
                1 => b,
                _ => a ^ f.mul(g, b),
            }
        });
        assert_eq!(s.rank(), 2);
    }
}
