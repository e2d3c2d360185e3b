//! The OT-extension column→row transpose, specialised for 128 columns.
//!
//! Same result as [`crate::transpose::transpose_128_rows_to_blocks`]
//! (and tested against it), but organised for throughput in safe Rust:
//! each 128×128 tile is split into four 64×64 quadrants, the off-diagonal
//! quadrants are exchanged, and every quadrant is transposed in place with
//! Eklundh's six swap levels on `u64` rows. Eight quadrants (two tiles) are
//! processed side by side in `[u64; 8]` lanes, so every swap level is the
//! same operation on eight independent words: the portable version is
//! auto-vectorised (two SSE2 registers per operation on baseline x86-64),
//! and on CPUs with AVX-512F an explicit-intrinsics twin holds each row of
//! eight words in one `zmm` register (the transpose is the largest cost of
//! IKNP). The twin is called only after run-time detection; it uses no raw
//! pointers. Both are tested against [`crate::transpose`].

use crate::Block;

/// Columns of an OT-extension matrix (the computational security parameter).
const KAPPA: usize = 128;

/// Quadrants processed together (two 128×128 tiles of four quadrants).
const LANES: usize = 8;

type Quads = [[u64; LANES]; 64];

/// One Eklundh level: swaps bit `(r, c + K)` with bit `(r + K, c)` for all
/// rows `r` and columns `c` with bit `K` clear, in every lane.
#[inline(always)]
fn level<const K: usize>(a: &mut Quads, mask: u64) {
    for pair in a.chunks_exact_mut(2 * K) {
        let (top, bottom) = pair.split_at_mut(K);
        for (x, y) in top.iter_mut().zip(bottom.iter_mut()) {
            for q in 0..LANES {
                let t = ((x[q] >> K) ^ y[q]) & mask;
                y[q] ^= t;
                x[q] ^= t << K;
            }
        }
    }
}

#[inline(always)]
fn transpose64(a: &mut Quads) {
    level::<32>(a, 0x0000_0000_FFFF_FFFF);
    level::<16>(a, 0x0000_FFFF_0000_FFFF);
    level::<8>(a, 0x00FF_00FF_00FF_00FF);
    level::<4>(a, 0x0F0F_0F0F_0F0F_0F0F);
    level::<2>(a, 0x3333_3333_3333_3333);
    level::<1>(a, 0x5555_5555_5555_5555);
}

/// Transposes 128 columns of `nb` blocks each (column `j` is
/// `cols[j*nb..(j+1)*nb]`, OT `i` is bit `i % 128` of block `i / 128`) into
/// `128 * nb` rows: bit `j` of `out[i]` is bit `i` of column `j`.
///
/// # Panics
/// If `cols.len() != 128 * nb` or `out.len() != 128 * nb` (internal sizes).
pub fn transpose_columns(cols: &[Block], nb: usize, out: &mut [Block]) {
    assert_eq!(cols.len(), KAPPA * nb, "transpose_columns: input size");
    assert_eq!(out.len(), KAPPA * nb, "transpose_columns: output size");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the function only requires AVX-512F, detected just above;
        // its body is safe code (bounds-checked slices).
        unsafe { transpose_avx512(cols, nb, out) };
        return;
    }
    transpose_generic(cols, nb, out);
}

#[cfg(target_arch = "x86_64")]
use avx512::transpose as transpose_avx512;

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Block, KAPPA, LANES};
    use std::arch::x86_64::*;

    /// One Eklundh level on 64 rows of eight lanes (see [`super::level`]).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn level<const K: u32>(a: &mut [__m512i; 64], mask: u64) {
        let m = _mm512_set1_epi64(mask as i64);
        for pair in a.chunks_exact_mut(2 * K as usize) {
            let (top, bottom) = pair.split_at_mut(K as usize);
            for (x, y) in top.iter_mut().zip(bottom.iter_mut()) {
                let t = _mm512_and_si512(_mm512_xor_si512(_mm512_srli_epi64::<K>(*x), *y), m);
                *y = _mm512_xor_si512(*y, t);
                *x = _mm512_xor_si512(*x, _mm512_slli_epi64::<K>(t));
            }
        }
    }

    /// Same contract and lane layout as [`super::transpose_generic`].
    ///
    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn transpose(cols: &[Block], nb: usize, out: &mut [Block]) {
        let mut a = [_mm512_setzero_si512(); 64];
        for k in (0..nb).step_by(2) {
            let tiles = (nb - k).min(2);
            for (r, v) in a.iter_mut().enumerate() {
                let mut w = [0u64; LANES];
                for t in 0..tiles {
                    let (x, y) = (cols[r * nb + k + t].0, cols[(r + 64) * nb + k + t].0);
                    w[4 * t] = x as u64;
                    w[4 * t + 2] = (x >> 64) as u64;
                    w[4 * t + 1] = y as u64;
                    w[4 * t + 3] = (y >> 64) as u64;
                }
                let w = w.map(|x| x as i64);
                *v = _mm512_set_epi64(w[7], w[6], w[5], w[4], w[3], w[2], w[1], w[0]);
            }
            level::<32>(&mut a, 0x0000_0000_FFFF_FFFF);
            level::<16>(&mut a, 0x0000_FFFF_0000_FFFF);
            level::<8>(&mut a, 0x00FF_00FF_00FF_00FF);
            level::<4>(&mut a, 0x0F0F_0F0F_0F0F_0F0F);
            level::<2>(&mut a, 0x3333_3333_3333_3333);
            level::<1>(&mut a, 0x5555_5555_5555_5555);
            for t in 0..tiles {
                let o = &mut out[KAPPA * (k + t)..KAPPA * (k + t + 1)];
                let (lo, hi) = o.split_at_mut(64);
                for ((v, l), h) in a.iter().zip(lo.iter_mut()).zip(hi.iter_mut()) {
                    // SAFETY: __m512i and [u64; 8] have the same size and
                    // every bit pattern is valid for both.
                    let row: [u64; LANES] =
                        unsafe { std::mem::transmute::<__m512i, [u64; LANES]>(*v) };
                    *l = Block(row[4 * t] as u128 | (row[4 * t + 1] as u128) << 64);
                    *h = Block(row[4 * t + 2] as u128 | (row[4 * t + 3] as u128) << 64);
                }
            }
        }
    }
}

/// The portable transpose, also the body of the SIMD variants (sizes are
/// checked by [`transpose_columns`]).
#[inline]
fn transpose_generic(cols: &[Block], nb: usize, out: &mut [Block]) {
    let mut a: Quads = [[0u64; LANES]; 64];
    for k in (0..nb).step_by(2) {
        let tiles = (nb - k).min(2);
        // Load: lane 4t+0 = rows 0..64, cols 0..64 of tile t; lane 4t+1 =
        // rows 64..128, cols 0..64 and lane 4t+2 = rows 0..64, cols 64..128
        // (the off-diagonal quadrants, already exchanged); lane 4t+3 = rows
        // 64..128, cols 64..128. "Row" here is a matrix column j.
        for (r, row) in a.iter_mut().enumerate() {
            for t in 0..2 {
                let (x, y) = if t < tiles {
                    (cols[r * nb + k + t].0, cols[(r + 64) * nb + k + t].0)
                } else {
                    (0, 0)
                };
                row[4 * t] = x as u64;
                row[4 * t + 2] = (x >> 64) as u64;
                row[4 * t + 1] = y as u64;
                row[4 * t + 3] = (y >> 64) as u64;
            }
        }
        transpose64(&mut a);
        for t in 0..tiles {
            let o = &mut out[KAPPA * (k + t)..KAPPA * (k + t + 1)];
            let (lo, hi) = o.split_at_mut(64);
            for ((row, l), h) in a.iter().zip(lo.iter_mut()).zip(hi.iter_mut()) {
                *l = Block(row[4 * t] as u128 | (row[4 * t + 1] as u128) << 64);
                *h = Block(row[4 * t + 2] as u128 | (row[4 * t + 3] as u128) << 64);
            }
        }
    }
}

/// Row r, bit c (`c < 64`: bit c of word 0, else bit c − 64 of word 1)
/// becomes row c, bit r.
pub fn transpose128(a: &mut [[u64; 2]; 128]) {
    // Level 64: swap the high word of row k with the low word of row k + 64.
    let (top, bottom) = a.split_at_mut(64);
    for (x, y) in top.iter_mut().zip(bottom.iter_mut()) {
        std::mem::swap(&mut x[1], &mut y[0]);
    }
    tile_level::<32>(a, 0x0000_0000_FFFF_FFFF);
    tile_level::<16>(a, 0x0000_FFFF_0000_FFFF);
    tile_level::<8>(a, 0x00FF_00FF_00FF_00FF);
    tile_level::<4>(a, 0x0F0F_0F0F_0F0F_0F0F);
    tile_level::<2>(a, 0x3333_3333_3333_3333);
    tile_level::<1>(a, 0x5555_5555_5555_5555);
}

/// One level of the swap network with a constant shift, so the compiler
/// emits immediate shifts and vectorises across rows (a run-time shift
/// count kept it scalar: measured 16% of the benchmark).
#[inline(always)]
fn tile_level<const J: usize>(a: &mut [[u64; 2]; 128], m: u64) {
    for pair in a.chunks_exact_mut(2 * J) {
        let (lo, hi) = pair.split_at_mut(J);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            for w in 0..2 {
                let t = ((x[w] >> J) ^ y[w]) & m;
                y[w] ^= t;
                x[w] ^= t << J;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prg::Prg;

    #[test]
    fn matches_core_transpose() {
        let mut prg = Prg::from_seed(Block(77));
        for nb in [1, 2, 3, 8, 13] {
            let cols = prg.random_blocks(KAPPA * nb);
            let mut out = vec![Block::ZERO; KAPPA * nb];
            transpose_columns(&cols, nb, &mut out);
            let want = crate::transpose::transpose_128_rows_to_blocks(
                bytemuck::cast_slice(&cols),
                KAPPA * nb,
            );
            assert_eq!(out, want, "nb = {nb}");
            let mut portable = vec![Block::ZERO; KAPPA * nb];
            transpose_generic(&cols, nb, &mut portable);
            assert_eq!(portable, want, "portable, nb = {nb}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512f") {
                let mut simd = vec![Block::ZERO; KAPPA * nb];
                // SAFETY: AVX-512F detected just above.
                unsafe { transpose_avx512(&cols, nb, &mut simd) };
                assert_eq!(simd, want, "avx512, nb = {nb}");
            }
            // Spot-check the definition directly.
            let i = 128 * nb - 3;
            let j = 77;
            assert_eq!(out[i].bit(j), cols[j * nb + i / 128].bit(i % 128));
        }
    }

    #[test]
    fn square_tile_matches_the_definition_and_the_general_kernel() {
        let mut prg = Prg::from_seed(Block(42));
        let rows = prg.random_blocks(128);
        let mut a: [[u64; 2]; 128] =
            std::array::from_fn(|r| [rows[r].0 as u64, (rows[r].0 >> 64) as u64]);
        transpose128(&mut a);
        for r in 0..128 {
            for (c, ac) in a.iter().enumerate() {
                assert_eq!((ac[r / 64] >> (r % 64)) & 1 == 1, rows[r].bit(c));
            }
        }
        let core = crate::transpose::transpose(bytemuck::cast_slice(&rows), 128, 128);
        assert_eq!(bytemuck::cast_slice::<[u64; 2], u8>(&a), &core[..]);
        transpose128(&mut a);
        assert!((0..128).all(|r| a[r] == [rows[r].0 as u64, (rows[r].0 >> 64) as u64]));
    }
}
