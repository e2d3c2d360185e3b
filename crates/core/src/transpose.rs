//! Bit-matrix transpose, the reshuffle at the heart of IKNP/KOS OT extension
//! (the receiver builds 128 rows of n bits; each OT needs one 128-bit column).
//!
//! Layout: a matrix of `nrows` rows and `ncols` columns is row-major, each
//! row `ncols / 8` bytes, and bit `j` of a row is bit `j % 8` of byte
//! `j / 8`. The transpose has `ncols` rows of `nrows` bits in the same layout.
//!
//! Two implementations, always producing identical bytes:
//! * SSE2 (x86-64): 16 rows × 8 column-bytes are byte-transposed with
//!   unpack instructions, then `pmovmskb` peels one output row of 16 bits per
//!   shift. The kernel is memory-safe (bounds-checked slices, no raw
//!   pointers); its one `unsafe` is the call into `#[target_feature]` code
//!   after run-time detection of SSE2 (always present on x86-64).
//! * portable: 8×8 bit blocks transposed inside a `u64` with three
//!   delta-swaps (Hacker's Delight §7-3).

use crate::Block;

/// Transposes a bit matrix (layout in the module docs), using SIMD when
/// the CPU has it.
///
/// # Panics
/// If `nrows` or `ncols` is not a multiple of 8, or
/// `src.len() != nrows * ncols / 8`. The shapes come from our own protocol
/// parameters, never from a peer, so a mismatch is a bug.
pub fn transpose(src: &[u8], nrows: usize, ncols: usize) -> Vec<u8> {
    let mut out = vec![0u8; src.len()];
    transpose_into(src, nrows, ncols, &mut out);
    out
}

/// The portable twin of [`transpose`] (same output, no SIMD).
///
/// # Panics
/// As [`transpose`].
pub fn transpose_portable(src: &[u8], nrows: usize, ncols: usize) -> Vec<u8> {
    check_shape(src.len(), nrows, ncols);
    let mut out = vec![0u8; src.len()];
    portable_rows(src, nrows, ncols, 0, &mut out);
    out
}

/// [`transpose`] into a caller-provided buffer of the same length as `src`,
/// so hot loops can reuse memory.
///
/// # Panics
/// As [`transpose`], and if `out.len() != src.len()`.
pub fn transpose_into(src: &[u8], nrows: usize, ncols: usize, out: &mut [u8]) {
    check_shape(src.len(), nrows, ncols);
    assert_eq!(out.len(), src.len(), "transpose: output length mismatch");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sse2") {
        // SAFETY: `transpose_rows16` only needs SSE2, detected just above;
        // it touches memory through bounds-checked slices only.
        let done = unsafe { sse2::transpose_rows16(src, nrows, ncols, out) };
        portable_rows(src, nrows, ncols, done, out);
        return;
    }
    portable_rows(src, nrows, ncols, 0, out);
}

/// 128 rows of `n` bits (row-major, `n / 8` bytes each) to `n` blocks, with
/// bit `j` of block `i` equal to bit `i` of row `j`: the IKNP/KOS column step.
///
/// # Panics
/// If `n` is not a multiple of 8 or `rows.len() != 16 * n`.
pub fn transpose_128_rows_to_blocks(rows: &[u8], n: usize) -> Vec<Block> {
    let mut out = vec![Block::ZERO; n];
    // A transposed row is 128 bits = 16 bytes in little-endian bit order,
    // which is exactly a `Block`'s memory image on little-endian targets.
    #[cfg(target_endian = "little")]
    transpose_into(rows, 128, n, bytemuck::cast_slice_mut(&mut out));
    #[cfg(not(target_endian = "little"))]
    {
        let t = transpose(rows, 128, n);
        for (o, c) in out.iter_mut().zip(t.chunks_exact(16)) {
            *o = Block::from_bytes(c.try_into().expect("16-byte chunk"));
        }
    }
    out
}

fn check_shape(len: usize, nrows: usize, ncols: usize) {
    assert!(
        nrows.is_multiple_of(8) && ncols.is_multiple_of(8),
        "transpose: nrows ({nrows}) and ncols ({ncols}) must be multiples of 8"
    );
    assert_eq!(
        Some(len),
        nrows.checked_mul(ncols).map(|b| b / 8),
        "transpose: src length does not match {nrows} x {ncols} bits"
    );
}

/// Transposes an 8×8 bit matrix held as 8 bytes (byte = row, bit = column).
#[inline(always)]
fn transpose8x8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Transposes rows `first_row..nrows` (a multiple of 8) portably.
fn portable_rows(src: &[u8], nrows: usize, ncols: usize, first_row: usize, out: &mut [u8]) {
    let in_rb = ncols / 8;
    let out_rb = nrows / 8;
    for rb in (first_row / 8)..out_rb {
        for cb in 0..in_rb {
            let mut x = 0u64;
            for k in 0..8 {
                x |= (src[(8 * rb + k) * in_rb + cb] as u64) << (8 * k);
            }
            let y = transpose8x8(x).to_le_bytes();
            for (b, &byte) in y.iter().enumerate() {
                out[(8 * cb + b) * out_rb + rb] = byte;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    /// Transposes the first `16 * (nrows / 16)` rows; returns how many rows
    /// it did so the caller can finish the rest.
    #[target_feature(enable = "sse2")]
    pub(super) fn transpose_rows16(
        src: &[u8],
        nrows: usize,
        ncols: usize,
        out: &mut [u8],
    ) -> usize {
        let in_rb = ncols / 8;
        let out_rb = nrows / 8;
        let full = nrows / 16 * 16;
        for r0 in (0..full).step_by(16) {
            let mut cb = 0;
            while cb + 8 <= in_rb {
                let cols = gather_16x8(src, r0, in_rb, cb);
                for (j, v) in cols.into_iter().enumerate() {
                    emit(v, cb + j, r0, out_rb, out);
                }
                cb += 8;
            }
            while cb < in_rb {
                let mut g = [0u8; 16];
                for (k, b) in g.iter_mut().enumerate() {
                    *b = src[(r0 + k) * in_rb + cb];
                }
                emit(load16(g), cb, r0, out_rb, out);
                cb += 1;
            }
        }
        full
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn load16(b: [u8; 16]) -> __m128i {
        let v = u128::from_le_bytes(b);
        _mm_set_epi64x((v >> 64) as i64, v as i64)
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn load8(src: &[u8], at: usize) -> __m128i {
        let w = u64::from_le_bytes(src[at..at + 8].try_into().expect("8 bytes"));
        _mm_cvtsi64_si128(w as i64)
    }

    /// Loads bytes `cb..cb+8` of rows `r0..r0+16` and returns 8 vectors,
    /// vector `j` holding byte `cb + j` of each of the 16 rows (byte k = row r0+k).
    #[inline]
    #[target_feature(enable = "sse2")]
    fn gather_16x8(src: &[u8], r0: usize, in_rb: usize, cb: usize) -> [__m128i; 8] {
        let a: [__m128i; 16] = std::array::from_fn(|k| load8(src, (r0 + k) * in_rb + cb));
        // Rows (2i, 2i+1) interleaved: column j at bytes 2j, 2j+1.
        let b: [__m128i; 8] = std::array::from_fn(|i| _mm_unpacklo_epi8(a[2 * i], a[2 * i + 1]));
        // c[2i] = rows 4i..4i+4, cols 0..4; c[2i+1] = same rows, cols 4..8.
        let c: [__m128i; 8] = std::array::from_fn(|i| {
            let (x, y) = (b[2 * (i / 2)], b[2 * (i / 2) + 1]);
            if i % 2 == 0 {
                _mm_unpacklo_epi16(x, y)
            } else {
                _mm_unpackhi_epi16(x, y)
            }
        });
        // d[q][h]: rows 8q..8q+8; h = 0..4 gives cols 2h, 2h+1.
        let d = |q: usize, h: usize| -> __m128i {
            let half = h / 2; // cols 0..4 or 4..8
            let (x, y) = (c[4 * q + half], c[4 * q + 2 + half]);
            if h.is_multiple_of(2) {
                _mm_unpacklo_epi32(x, y)
            } else {
                _mm_unpackhi_epi32(x, y)
            }
        };
        std::array::from_fn(|j| {
            let (x, y) = (d(0, j / 2), d(1, j / 2));
            if j % 2 == 0 {
                _mm_unpacklo_epi64(x, y)
            } else {
                _mm_unpackhi_epi64(x, y)
            }
        })
    }

    /// `v` holds byte `cb` of 16 consecutive rows starting at `r0`; writes
    /// the 8 output rows `8cb..8cb+8`, 16 bits each, at column `r0`.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn emit(mut v: __m128i, cb: usize, r0: usize, out_rb: usize, out: &mut [u8]) {
        for b in (0..8).rev() {
            let m = (_mm_movemask_epi8(v) as u16).to_le_bytes();
            let at = (8 * cb + b) * out_rb + r0 / 8;
            out[at..at + 2].copy_from_slice(&m);
            v = _mm_slli_epi64(v, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prg::Prg;

    fn get(m: &[u8], ncols: usize, r: usize, c: usize) -> bool {
        (m[r * (ncols / 8) + c / 8] >> (c % 8)) & 1 == 1
    }

    fn naive(src: &[u8], nrows: usize, ncols: usize) -> Vec<u8> {
        let mut out = vec![0u8; src.len()];
        for r in 0..nrows {
            for c in 0..ncols {
                if get(src, ncols, r, c) {
                    out[c * (nrows / 8) + r / 8] |= 1 << (r % 8);
                }
            }
        }
        out
    }

    #[test]
    fn all_versions_agree_with_naive_on_random_shapes() {
        let mut p = Prg::from_seed(Block(21));
        let mut shapes = vec![
            (8, 8),
            (16, 8),
            (8, 16),
            (24, 72),
            (128, 8),
            (128, 1024),
            (136, 200),
        ];
        for _ in 0..30 {
            shapes.push((
                8 * (1 + p.gen_range(40) as usize),
                8 * (1 + p.gen_range(40) as usize),
            ));
        }
        for (r, c) in shapes {
            let mut src = vec![0u8; r * c / 8];
            p.fill_bytes(&mut src);
            let expect = naive(&src, r, c);
            assert_eq!(transpose(&src, r, c), expect, "simd {r}x{c}");
            assert_eq!(transpose_portable(&src, r, c), expect, "portable {r}x{c}");
            // Transposing twice is the identity.
            assert_eq!(transpose(&expect, c, r), src, "involution {r}x{c}");
        }
    }

    #[test]
    fn single_bits_land_where_expected() {
        let (r, c) = (32, 48);
        for (i, j) in [(0, 0), (0, 47), (31, 0), (17, 29), (8, 9)] {
            let mut src = vec![0u8; r * c / 8];
            src[i * (c / 8) + j / 8] = 1 << (j % 8);
            let t = transpose(&src, r, c);
            assert!(get(&t, r, j, i));
            assert_eq!(t.iter().map(|b| b.count_ones()).sum::<u32>(), 1);
        }
    }

    #[test]
    fn rows_to_blocks_is_the_column_view() {
        let mut p = Prg::from_seed(Block(22));
        let n = 8 * 37;
        let mut rows = vec![0u8; 16 * n];
        p.fill_bytes(&mut rows);
        let blocks = transpose_128_rows_to_blocks(&rows, n);
        assert_eq!(blocks.len(), n);
        for (i, b) in blocks.iter().enumerate() {
            for j in 0..128 {
                assert_eq!(b.bit(j), get(&rows, n, j, i), "block {i} bit {j}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "multiples of 8")]
    fn rejects_unaligned_shape() {
        transpose(&[0u8; 3], 4, 6);
    }

    #[test]
    #[should_panic(expected = "src length")]
    fn rejects_wrong_length() {
        transpose(&[0u8; 3], 8, 8);
    }
}
