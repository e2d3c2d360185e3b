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

#[test]
fn combine_rows_kernels_agree() {
    use super::combine::combine_rows_on;
    let mut prg = Prg::from_seed(Block(0x3c_u128));
    for f in fields() {
        for (count, stride) in [
            (0, 32),
            (1, 32),
            (5, 32),
            (33, 64),
            (7, 13),
            (4, 0),
            (20, 96),
        ] {
            let coeffs = bytes(&mut prg, count);
            let rows = bytes(&mut prg, count * stride);
            let acc0 = bytes(&mut prg, stride);
            let mask = (f.order() - 1) as u8;
            let mut want = acc0.clone();
            for (i, &c) in coeffs.iter().enumerate() {
                for k in 0..stride {
                    want[k] ^= ConstMul::new(f, c & mask).apply(rows[i * stride + k]);
                }
            }
            for k in Kernel::available() {
                let mut got = acc0.clone();
                combine_rows_on(k, f, &coeffs, &rows, &mut got);
                assert_eq!(got, want, "{k:?} σ={} {count}×{stride}", f.sigma());
            }
        }
    }
}

/// The strided product on every kernel against `mul_vec`, on shapes that
/// exercise the 64-byte steps, the paired and the odd output row, the
/// 32-byte step and the byte tail, inside longer strided rows.
#[test]
fn strided_matrix_apply_matches_mul_vec_on_every_kernel() {
    let seed = 0x5712_u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    for f in fields() {
        let mask = (f.order() - 1) as u8;
        for (rows, cols, len) in [
            (5, 7, 1100),
            (54, 32, 1024),
            (4, 3, 64 + 32 + 5),
            (1, 1, 31),
            (3, 2, 0),
        ] {
            let (in_stride, out_stride) = (len + 13, len + 70);
            let m = GfMatrix::from_fn(f, rows, cols, |_, _| prg.random_u64() as u8 & mask);
            let input: Vec<u8> = bytes(&mut prg, cols * in_stride)
                .iter()
                .map(|x| x & mask)
                .collect();
            let out0 = bytes(&mut prg, rows * out_stride);
            let mut want = out0.clone();
            for j in 0..len {
                let v: Vec<u8> = (0..cols).map(|c| input[c * in_stride + j]).collect();
                for (r, y) in m.mul_vec(&v).into_iter().enumerate() {
                    want[r * out_stride + j] ^= y;
                }
            }
            for k in Kernel::available() {
                let mut got = out0.clone();
                m.apply_add_strided_on(k, &input, in_stride, len, &mut got, out_stride);
                assert_eq!(got, want, "{k:?} σ={} {rows}×{cols} len {len}", f.sigma());
            }
        }
    }
}

#[test]
fn combine_rows_many_matches_single_combinations() {
    use super::combine::{combine_rows_many_on, combine_rows_on};
    let seed = 0x3d_u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    for f in fields() {
        for (count, stride, combos) in [
            (0, 32, 3),
            (1, 32, 1),
            (37, 32, 5),
            (33, 64, 7),
            (9, 13, 2),
            (50, 96, 11),
        ] {
            let coeffs = bytes(&mut prg, combos * count);
            let rows = bytes(&mut prg, count * stride);
            let accs0 = bytes(&mut prg, combos * stride);
            let mut want = accs0.clone();
            for t in 0..combos {
                combine_rows_on(
                    Kernel::Portable,
                    f,
                    &coeffs[t * count..(t + 1) * count],
                    &rows,
                    &mut want[t * stride..(t + 1) * stride],
                );
            }
            for k in Kernel::available() {
                let mut got = accs0.clone();
                combine_rows_many_on(k, f, &coeffs, &rows, &mut got, stride);
                assert_eq!(got, want, "{k:?} σ={} {combos}×{count}×{stride}", f.sigma());
            }
        }
    }
}

#[test]
fn transpose_matches_the_portable_twin() {
    use super::layout::{transpose, transpose_portable};
    let mut prg = Prg::from_seed(Block(0x7a_u128));
    for (rows, cols) in [
        (32, 1024),
        (21, 1000),
        (48, 17),
        (256, 32),
        (16, 48),
        (33, 80),
        (16, 16),
        (5, 3),
        (1, 40),
        (33, 0),
    ] {
        let (ss, ds) = (cols + 9, 64.max(rows));
        let src = bytes(&mut prg, rows * ss);
        let dst0 = bytes(&mut prg, cols.max(1) * ds);
        let mut want = dst0.clone();
        for r in 0..rows {
            for c in 0..cols {
                want[c * ds + r] = src[r * ss + c];
            }
        }
        let mut a = dst0.clone();
        transpose(&src, ss, rows, cols, &mut a, ds);
        assert_eq!(a, want, "{rows}×{cols}");
        let mut b = dst0.clone();
        transpose_portable(&src, ss, rows, cols, &mut b, ds);
        assert_eq!(b, want, "portable {rows}×{cols}");
    }
}

#[test]
fn nibble_map_matches_mul_vec() {
    let seed = 0x4e_u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    for f in fields() {
        let mask = (f.order() - 1) as u8;
        for (rows, cols) in [
            (13, 32),
            (16, 32),
            (21, 32),
            (32, 48),
            (40, 20),
            (0, 5),
            (3, 1),
        ] {
            let m = GfMatrix::from_fn(f, rows, cols, |_, _| prg.random_u64() as u8 & mask);
            let map = NibbleMap::new(&m);
            for _ in 0..200 {
                let x: Vec<u8> = bytes(&mut prg, cols).iter().map(|b| b & mask).collect();
                let want = m.mul_vec(&x);
                let mut got = vec![0u8; rows];
                map.apply(&x, &mut got);
                assert_eq!(got, want, "σ={} {rows}×{cols}", f.sigma());
                let mut twin = vec![0u8; rows];
                map.apply_portable(&x, &mut twin);
                assert_eq!(twin, want, "portable σ={} {rows}×{cols}", f.sigma());
                assert!(map.matches(&x, &want));
                if rows > 0 {
                    let mut bad = want.clone();
                    let at = prg.gen_range(rows as u64) as usize;
                    bad[at] ^= 1 + (prg.random_u64() as u8 & (mask >> 1));
                    assert!(!map.matches(&x, &bad), "σ={} {rows}×{cols}", f.sigma());
                }
                assert!(!map.matches(&x[..cols - 1], &want[..]));
            }
        }
    }
}

#[test]
fn nibble_map_matches_catches_every_byte_of_every_length() {
    let seed = 0x4f_u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    for rows in 1..=32 {
        let m = GfMatrix::from_fn(&GF256, rows, 7, |_, _| prg.random_u64() as u8);
        let map = NibbleMap::new(&m);
        let x = bytes(&mut prg, 7);
        let want = m.mul_vec(&x);
        assert!(map.matches(&x, &want), "{rows} rows");
        for at in 0..rows {
            for bit in [0x01u8, 0x80] {
                let mut bad = want.clone();
                bad[at] ^= bit;
                assert!(!map.matches(&x, &bad), "{rows} rows, byte {at}");
            }
        }
        assert!(!map.matches(&x, &want[..rows - 1]));
    }
}

/// The Lagrange parity matrix of the systematic code at α_i = i (rows:
/// points ℓ..n).
fn lagrange_parity(f: &'static Field, n: usize, ell: usize) -> GfMatrix {
    GfMatrix::from_fn(f, n - ell, ell, |r, i| {
        let x = (ell + r) as u8;
        (0..ell).filter(|&k| k != i).fold(1u8, |acc, k| {
            let den = f.inv(i as u8 ^ k as u8).unwrap();
            f.mul(acc, f.mul(x ^ k as u8, den))
        })
    })
}

#[test]
fn butterfly_kernels_match_portable() {
    let seed = 0x50_u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    for f in fields() {
        for len in [0, 1, 31, 32, 77, 256] {
            let c = ConstMul::new(f, prg.random_u64() as u8 & (f.order() - 1) as u8);
            let (a0, b0) = (bytes(&mut prg, len), bytes(&mut prg, len));
            for inv in [false, true] {
                // The definition, byte by byte.
                let (mut wa, mut wb) = (a0.clone(), b0.clone());
                for j in 0..len {
                    if inv {
                        wb[j] ^= wa[j];
                        wa[j] ^= c.apply(wb[j]);
                    } else {
                        wa[j] ^= c.apply(wb[j]);
                        wb[j] ^= wa[j];
                    }
                }
                for k in Kernel::available() {
                    let (mut a, mut b) = (a0.clone(), b0.clone());
                    if inv {
                        slice::butterfly_inv_on(k, &c, &mut a, &mut b);
                    } else {
                        slice::butterfly_on(k, &c, &mut a, &mut b);
                    }
                    assert_eq!((&a, &b), (&wa, &wb), "{k:?} len {len} inv {inv}");
                }
            }
        }
    }
}

#[test]
fn subspace_code_equals_the_lagrange_parity_matrix() {
    let seed = 0x51_u128;
    println!("seed {seed:#x}");
    let mut prg = Prg::from_seed(Block(seed));
    for (f, n, ell) in [
        (&GF256, 86, 32),
        (&GF256, 88, 64),
        (&GF256, 256, 128),
        (&GF256, 5, 2),
        (&GF256, 17, 16),
        (&GF64, 64, 32),
        (&GF64, 44, 16),
    ] {
        let code = SubspaceCode::new(f, n, ell).unwrap();
        let m = lagrange_parity(f, n, ell);
        let mask = (f.order() - 1) as u8;
        for (len, in_stride, out_stride) in [(300, 301, 320), (64, 64, 64), (5, 9, 7)] {
            let input: Vec<u8> = bytes(&mut prg, ell * in_stride)
                .iter()
                .map(|b| b & mask)
                .collect();
            let out0 = bytes(&mut prg, (n - ell) * out_stride);
            let mut want = out0.clone();
            m.apply_add_strided_on(
                Kernel::Portable,
                &input,
                in_stride,
                len,
                &mut want,
                out_stride,
            );
            for k in Kernel::available() {
                let mut got = out0.clone();
                code.apply_add_strided_on(k, &input, in_stride, len, &mut got, out_stride);
                assert_eq!(got, want, "{k:?} σ={} ({n}, {ell}) len {len}", f.sigma());
            }
        }
    }
    assert!(SubspaceCode::new(&GF256, 86, 48).is_none());
    assert!(SubspaceCode::new(&GF64, 65, 32).is_none());
    assert!(SubspaceCode::new(&GF256, 32, 32).is_none());
}

#[test]
fn strided_maps_share_the_shape_checks() {
    // Both implementations go through `StridedMap::apply_add_strided_on`:
    // a short input or output, or a row longer than its stride, panics
    // before any kernel runs, and an empty batch is a no-op.
    let code = SubspaceCode::new(&GF256, 86, 32).unwrap();
    let m = lagrange_parity(&GF256, 86, 32);
    let maps: [&dyn StridedMap; 2] = [&code, &m];
    for map in maps {
        assert_eq!((map.inputs(), map.outputs()), (32, 54));
        let input = vec![1u8; 32 * 40];
        let mut out = vec![0u8; 54 * 40];
        map.apply_add_strided(&input, 40, 0, &mut out, 40);
        assert!(out.iter().all(|&b| b == 0), "len 0 writes nothing");
        map.apply_add_strided(&input, 40, 40, &mut out, 40);
        assert!(out.iter().any(|&b| b != 0), "len 40 writes the parity");
        let short_in = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            map.apply_add_strided(&input[1..], 40, 40, &mut vec![0u8; 54 * 40], 40)
        }));
        let short_out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            map.apply_add_strided(&input, 40, 40, &mut vec![0u8; 54 * 40 - 1], 40)
        }));
        let long_row = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            map.apply_add_strided(&input, 40, 41, &mut vec![0u8; 54 * 41], 41)
        }));
        assert!(short_in.is_err() && short_out.is_err() && long_row.is_err());
    }
}
