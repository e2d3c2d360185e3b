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
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: requires AVX2, detected just above; the body is the
        // portable code, only compiled for AVX2.
        unsafe { avx2::transpose(cols, nb, out) };
        return;
    }
    transpose_generic(cols, nb, out);
}

/// The portable kernels compiled with AVX2 enabled, for x86 CPUs without
/// AVX-512: the same safe code (so [`transpose_columns_to_words_portable`]
/// and the other twins test it on the same vectors), which the compiler
/// vectorises over 256-bit registers instead of the 128-bit baseline.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Block, WordShape};

    /// [`super::transpose_generic`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn transpose(cols: &[Block], nb: usize, out: &mut [Block]) {
        super::transpose_generic(cols, nb, out)
    }

    /// [`super::to_words_generic`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn to_words(src: &[Block], shape: WordShape, out: &mut [u64]) {
        super::to_words_generic(src, shape, out)
    }

    /// [`super::to_columns_generic`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn to_columns(words: &[u64], shape: WordShape, cols: &mut [Block]) {
        super::to_columns_generic(words, shape, cols)
    }
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

    /// Same contract as [`super::to_words_generic`], one `zmm` per row.
    ///
    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn to_words(src: &[Block], shape: super::WordShape, out: &mut [u64]) {
        let mut bands = vec![[_mm512_setzero_si512(); 64]; shape.nrows.div_ceil(64)];
        for g in (0..shape.nb).step_by(4) {
            let whole = shape.whole(g);
            for (w, a) in bands.iter_mut().enumerate() {
                for (r, v) in a.iter_mut().enumerate() {
                    *v = if whole {
                        bytemuck::cast(shape.load_whole(src, w, r, g))
                    } else {
                        bytemuck::cast(shape.load(src, w, r, g))
                    };
                }
                level::<32>(a, 0x0000_0000_FFFF_FFFF);
                level::<16>(a, 0x0000_FFFF_0000_FFFF);
                level::<8>(a, 0x00FF_00FF_00FF_00FF);
                level::<4>(a, 0x0F0F_0F0F_0F0F_0F0F);
                level::<2>(a, 0x3333_3333_3333_3333);
                level::<1>(a, 0x5555_5555_5555_5555);
            }
            shape.store_bands(out, g, whole, bytemuck::cast_slice(&bands));
        }
    }

    /// Same contract as [`super::to_columns_generic`], one `zmm` per row.
    ///
    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn to_columns(words: &[u64], shape: super::WordShape, cols: &mut [Block]) {
        let mut bands = vec![[_mm512_setzero_si512(); 64]; shape.nrows.div_ceil(64)];
        for g in (0..shape.nb).step_by(4) {
            let quads: &mut [super::Quads] = bytemuck::cast_slice_mut(&mut bands);
            if shape.whole(g) {
                shape.load_words_whole(words, g, quads);
            } else {
                shape.load_words(words, g, quads);
            }
            for (w, a) in bands.iter_mut().enumerate() {
                level::<32>(a, 0x0000_0000_FFFF_FFFF);
                level::<16>(a, 0x0000_FFFF_0000_FFFF);
                level::<8>(a, 0x00FF_00FF_00FF_00FF);
                level::<4>(a, 0x0F0F_0F0F_0F0F_0F0F);
                level::<2>(a, 0x3333_3333_3333_3333);
                level::<1>(a, 0x5555_5555_5555_5555);
                shape.store_columns(cols, w, g, bytemuck::cast_ref(a));
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

/// Bit-sliced rows to per-item words, the transpose of a bit-sliced
/// commitment/OT matrix whose rows are long and whose items need only
/// `ceil(nrows / 64)` words each.
///
/// `src` holds `nrows` rows, row j starting at `src[j * stride]`; item q
/// (`q < nitems`) is bit `q % 128` of Block `q / 128` of every row. For each
/// item and each band w of 64 rows, writes the word whose bit i is row
/// `64w + i` of the item to `out[q * out_stride + w]` (rows ≥ `nrows` read
/// as zero); other words of `out` are left alone. Eight 64×64 quadrants
/// (four Blocks of one band) are transposed at a time, in one `zmm` register
/// per row on CPUs with AVX-512F, else in the portable `[u64; 8]` lanes.
///
/// # Panics
/// If the shapes do not fit: `stride < ceil(nitems / 128)`, `src` too short,
/// `out_stride < ceil(nrows / 64)` or `out` too short (internal buffers).
pub fn transpose_columns_to_words(
    src: &[Block],
    stride: usize,
    nrows: usize,
    nitems: usize,
    out: &mut [u64],
    out_stride: usize,
) {
    let shape = WordShape::new(src.len(), stride, nrows, nitems, out.len(), out_stride);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the function only requires AVX-512F, detected just above;
        // its body is safe code (bounds-checked slices, bytemuck casts).
        unsafe { avx512::to_words(src, shape, out) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: requires AVX2, detected just above (portable body).
        unsafe { avx2::to_words(src, shape, out) };
        return;
    }
    to_words_generic(src, shape, out);
}

/// The portable twin of [`transpose_columns_to_words`].
///
/// # Panics
/// As [`transpose_columns_to_words`].
pub fn transpose_columns_to_words_portable(
    src: &[Block],
    stride: usize,
    nrows: usize,
    nitems: usize,
    out: &mut [u64],
    out_stride: usize,
) {
    let shape = WordShape::new(src.len(), stride, nrows, nitems, out.len(), out_stride);
    to_words_generic(src, shape, out);
}

/// The inverse of [`transpose_columns_to_words`]: per-item words to
/// bit-sliced rows.
///
/// Item q (`q < nitems`) has its words at `words[q * word_stride..]`; word
/// w holds rows `64w..64w + 64` of the item (bit i = row 64w + i). Writes
/// rows `0..nrows` of `ceil(nitems / 128)` Blocks each, row j at
/// `cols[j * stride..]`, with bit `q % 128` of Block `q / 128` = row j of
/// item q; lanes of the last Block past `nitems` are zero, and other Blocks
/// of `cols` are left alone.
///
/// # Panics
/// As [`transpose_columns_to_words`], with `words` as the input.
pub fn transpose_words_to_columns(
    words: &[u64],
    word_stride: usize,
    nrows: usize,
    nitems: usize,
    cols: &mut [Block],
    stride: usize,
) {
    let shape = WordShape::new(cols.len(), stride, nrows, nitems, words.len(), word_stride);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the function only requires AVX-512F, detected just above;
        // its body is safe code (bounds-checked slices, bytemuck casts).
        unsafe { avx512::to_columns(words, shape, cols) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: requires AVX2, detected just above (portable body).
        unsafe { avx2::to_columns(words, shape, cols) };
        return;
    }
    to_columns_generic(words, shape, cols);
}

/// The portable twin of [`transpose_words_to_columns`].
///
/// # Panics
/// As [`transpose_words_to_columns`].
pub fn transpose_words_to_columns_portable(
    words: &[u64],
    word_stride: usize,
    nrows: usize,
    nitems: usize,
    cols: &mut [Block],
    stride: usize,
) {
    let shape = WordShape::new(cols.len(), stride, nrows, nitems, words.len(), word_stride);
    to_columns_generic(words, shape, cols);
}

/// Checked shape of a [`transpose_columns_to_words`] call.
#[derive(Clone, Copy)]
struct WordShape {
    stride: usize,
    nrows: usize,
    nitems: usize,
    out_stride: usize,
    /// Blocks per row that hold items: `ceil(nitems / 128)`.
    nb: usize,
}

impl WordShape {
    fn new(
        src_len: usize,
        stride: usize,
        nrows: usize,
        nitems: usize,
        out_len: usize,
        out_stride: usize,
    ) -> WordShape {
        let nb = nitems.div_ceil(KAPPA);
        let words = nrows.div_ceil(64);
        assert!(stride >= nb, "bit transpose: row stride");
        assert!(
            nrows == 0 || nb == 0 || src_len >= (nrows - 1) * stride + nb,
            "bit transpose: columns size"
        );
        assert!(out_stride >= words, "bit transpose: word stride");
        assert!(
            nitems == 0 || words == 0 || out_len >= (nitems - 1) * out_stride + words,
            "bit transpose: words size"
        );
        WordShape {
            stride,
            nrows,
            nitems,
            out_stride,
            nb,
        }
    }

    /// Loads row `64w + r`, Blocks `g..g+4` of it (zeros past the end),
    /// as eight words: lane 2k + h = half h of Block g + k.
    #[inline(always)]
    fn load(&self, src: &[Block], w: usize, r: usize, g: usize) -> [u64; LANES] {
        let j = 64 * w + r;
        let mut lanes = [0u64; LANES];
        if j < self.nrows {
            let start = j * self.stride + g;
            let end = j * self.stride + self.nb.min(g + 4);
            for (k, b) in src[start..end].iter().enumerate() {
                lanes[2 * k] = b.0 as u64;
                lanes[2 * k + 1] = (b.0 >> 64) as u64;
            }
        }
        lanes
    }

    /// Whether the group at Block g is whole: four Blocks of every row,
    /// all 512 items real.
    #[inline(always)]
    fn whole(&self, g: usize) -> bool {
        g + 4 <= self.nb && KAPPA * (g + 4) <= self.nitems
    }

    /// [`WordShape::load`] for a whole group: one 64-byte read.
    #[inline(always)]
    fn load_whole(&self, src: &[Block], w: usize, r: usize, g: usize) -> [Block; 4] {
        let j = 64 * w + r;
        if j < self.nrows {
            let start = j * self.stride + g;
            src[start..start + 4].try_into().expect("4 blocks")
        } else {
            [Block::ZERO; 4]
        }
    }

    /// Stores every band of a whole group (`bands[w]` = the transposed
    /// rows of band w), item by item: the words of one item are adjacent
    /// in `out`, so each item's words are written together and in order.
    #[inline(always)]
    fn store_whole(&self, out: &mut [u64], g: usize, bands: &[Quads]) {
        // Unrolled for the band counts in use (≤ 5 words per item).
        match bands {
            [a] => self.store_whole_n(out, g, [a]),
            [a, b] => self.store_whole_n(out, g, [a, b]),
            [a, b, c] => self.store_whole_n(out, g, [a, b, c]),
            [a, b, c, d] => self.store_whole_n(out, g, [a, b, c, d]),
            [a, b, c, d, e] => self.store_whole_n(out, g, [a, b, c, d, e]),
            _ => {
                let os = self.out_stride;
                for l in 0..LANES {
                    let base = KAPPA * (g + l / 2) + 64 * (l % 2);
                    let region = &mut out[base * os..(base + 64) * os];
                    for (r, item) in region.chunks_exact_mut(os).enumerate() {
                        for (x, band) in item.iter_mut().zip(bands) {
                            *x = band[r][l];
                        }
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn store_whole_n<const W: usize>(&self, out: &mut [u64], g: usize, bands: [&Quads; W]) {
        let os = self.out_stride;
        for l in 0..LANES {
            let base = KAPPA * (g + l / 2) + 64 * (l % 2);
            let region = &mut out[base * os..(base + 64) * os];
            for (r, item) in region.chunks_exact_mut(os).enumerate() {
                let item: &mut [u64; W] = (&mut item[..W]).try_into().expect("W <= os");
                for (x, band) in item.iter_mut().zip(bands) {
                    *x = band[r][l];
                }
            }
        }
    }

    /// Fills `bands[w][r][l]` with word w of item `128(g + l/2) + 64(l%2) + r`
    /// (zero for items past `nitems`): the input side of
    /// [`transpose_words_to_columns`], item by item.
    #[inline(always)]
    fn load_words(&self, words: &[u64], g: usize, bands: &mut [Quads]) {
        let os = self.out_stride;
        for l in 0..LANES {
            let base = KAPPA * (g + l / 2) + 64 * (l % 2);
            let n = self.nitems.saturating_sub(base).min(64);
            let region = &words[(base * os).min(words.len())..];
            for r in 0..64 {
                for (w, band) in bands.iter_mut().enumerate() {
                    band[r][l] = if r < n { region[r * os + w] } else { 0 };
                }
            }
        }
    }

    /// [`WordShape::load_words`] for a whole group, unrolled for the band
    /// counts in use.
    #[inline(always)]
    fn load_words_whole(&self, words: &[u64], g: usize, bands: &mut [Quads]) {
        match bands {
            [a] => self.load_words_n(words, g, [a]),
            [a, b] => self.load_words_n(words, g, [a, b]),
            [a, b, c] => self.load_words_n(words, g, [a, b, c]),
            [a, b, c, d] => self.load_words_n(words, g, [a, b, c, d]),
            [a, b, c, d, e] => self.load_words_n(words, g, [a, b, c, d, e]),
            _ => self.load_words(words, g, bands),
        }
    }

    #[inline(always)]
    fn load_words_n<const W: usize>(&self, words: &[u64], g: usize, mut bands: [&mut Quads; W]) {
        let os = self.out_stride;
        for l in 0..LANES {
            let base = KAPPA * (g + l / 2) + 64 * (l % 2);
            let region = &words[base * os..(base + 64) * os];
            for (r, item) in region.chunks_exact(os).enumerate() {
                let item: &[u64; W] = item[..W].try_into().expect("W <= os");
                for (x, band) in item.iter().zip(bands.iter_mut()) {
                    band[r][l] = *x;
                }
            }
        }
    }

    /// Stores transposed band w of the group at Block g as rows: lanes
    /// 2k, 2k + 1 of row i are Block g + k of row 64w + i.
    #[inline(always)]
    fn store_columns(&self, cols: &mut [Block], w: usize, g: usize, band: &Quads) {
        let blocks = (self.nb - g).min(4);
        for (i, lanes) in band.iter().enumerate() {
            let j = 64 * w + i;
            if j >= self.nrows {
                break;
            }
            let row = &mut cols[j * self.stride + g..j * self.stride + g + blocks];
            for (k, b) in row.iter_mut().enumerate() {
                *b = Block(lanes[2 * k] as u128 | (lanes[2 * k + 1] as u128) << 64);
            }
        }
    }

    /// Stores the transposed bands of the group at Block g.    /// Stores the transposed bands of the group at Block g.
    #[inline(always)]
    fn store_bands(&self, out: &mut [u64], g: usize, whole: bool, bands: &[Quads]) {
        if whole {
            self.store_whole(out, g, bands);
        } else {
            for (w, a) in bands.iter().enumerate() {
                for (r, row) in a.iter().enumerate() {
                    self.store(out, w, r, g, row);
                }
            }
        }
    }

    /// Stores transposed row r of band w for the group at Block g: lane
    /// 2k + h is word w of item `128(g + k) + 64h + r`.
    #[inline(always)]
    fn store(&self, out: &mut [u64], w: usize, r: usize, g: usize, lanes: &[u64; LANES]) {
        for (l, &v) in lanes.iter().enumerate() {
            let item = KAPPA * (g + l / 2) + 64 * (l % 2) + r;
            if item < self.nitems {
                out[item * self.out_stride + w] = v;
            }
        }
    }
}

#[inline]
fn to_words_generic(src: &[Block], shape: WordShape, out: &mut [u64]) {
    let mut bands: Vec<Quads> = vec![[[0u64; LANES]; 64]; shape.nrows.div_ceil(64)];
    for g in (0..shape.nb).step_by(4) {
        let whole = shape.whole(g);
        for (w, a) in bands.iter_mut().enumerate() {
            for (r, row) in a.iter_mut().enumerate() {
                *row = if whole {
                    bytemuck::cast(shape.load_whole(src, w, r, g))
                } else {
                    shape.load(src, w, r, g)
                };
            }
            transpose64(a);
        }
        shape.store_bands(out, g, whole, &bands);
    }
}

#[inline]
fn to_columns_generic(words: &[u64], shape: WordShape, cols: &mut [Block]) {
    let mut bands: Vec<Quads> = vec![[[0u64; LANES]; 64]; shape.nrows.div_ceil(64)];
    for g in (0..shape.nb).step_by(4) {
        if shape.whole(g) {
            shape.load_words_whole(words, g, &mut bands);
        } else {
            shape.load_words(words, g, &mut bands);
        }
        for (w, a) in bands.iter_mut().enumerate() {
            transpose64(a);
            shape.store_columns(cols, w, g, a);
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
    fn words_match_the_definition_on_both_paths() {
        let mut prg = Prg::from_seed(Block(78));
        // (rows, stride, items, out_stride): partial bands, partial groups
        // of four Blocks, a partial last Block, padding between items.
        for (nrows, stride, nitems, out_stride) in [
            (299usize, 32usize, 4096usize, 5usize),
            (128, 32, 4096, 2),
            (299, 33, 4000, 5),
            (43, 5, 300, 1),
            (64, 9, 1100, 3),
            (1, 1, 1, 1),
            (0, 3, 10, 1),
            (130, 2, 0, 3),
        ] {
            let src = prg.random_blocks((nrows * stride).max(1));
            let words = nrows.div_ceil(64);
            let fill = 0xdead_beef_u64;
            let mut want = vec![fill; nitems * out_stride];
            for q in 0..nitems {
                for w in 0..words {
                    let mut v = 0u64;
                    for i in 0..64 {
                        let j = 64 * w + i;
                        if j < nrows && src[j * stride + q / 128].bit(q % 128) {
                            v |= 1 << i;
                        }
                    }
                    want[q * out_stride + w] = v;
                }
            }
            let mut got = vec![fill; nitems * out_stride];
            transpose_columns_to_words(&src, stride, nrows, nitems, &mut got, out_stride);
            assert_eq!(got, want, "dispatch {nrows} {stride} {nitems} {out_stride}");
            let mut got = vec![fill; nitems * out_stride];
            transpose_columns_to_words_portable(&src, stride, nrows, nitems, &mut got, out_stride);
            assert_eq!(got, want, "portable {nrows} {stride} {nitems} {out_stride}");
        }
    }

    #[test]
    fn columns_round_trip_through_words_on_both_paths() {
        let mut prg = Prg::from_seed(Block(79));
        for (nrows, stride, nitems, word_stride) in [
            (299usize, 32usize, 4096usize, 5usize),
            (128, 32, 4096, 2),
            (299, 33, 4000, 5),
            (43, 5, 300, 1),
            (64, 9, 1100, 3),
            (1, 1, 1, 1),
            (130, 2, 0, 3),
        ] {
            let words = nrows.div_ceil(64);
            // Items with zero bits past nrows, so that the round trip is exact.
            let mut items = vec![0u64; nitems * word_stride];
            for q in 0..nitems {
                for w in 0..words {
                    let keep = if 64 * w + 64 <= nrows {
                        u64::MAX
                    } else {
                        (1u64 << (nrows % 64)) - 1
                    };
                    items[q * word_stride + w] = prg.random_block().0 as u64 & keep;
                }
            }
            let fill = Block(0x5555);
            let mut want = vec![fill; (nrows * stride).max(1)];
            for j in 0..nrows {
                for b in 0..nitems.div_ceil(128) {
                    let mut v = 0u128;
                    for lane in 0..128 {
                        let q = 128 * b + lane;
                        if q < nitems && (items[q * word_stride + j / 64] >> (j % 64)) & 1 == 1 {
                            v |= 1 << lane;
                        }
                    }
                    want[j * stride + b] = Block(v);
                }
            }
            let mut got = vec![fill; want.len()];
            transpose_words_to_columns(&items, word_stride, nrows, nitems, &mut got, stride);
            assert_eq!(
                got, want,
                "dispatch {nrows} {stride} {nitems} {word_stride}"
            );
            let mut got = vec![fill; want.len()];
            transpose_words_to_columns_portable(
                &items,
                word_stride,
                nrows,
                nitems,
                &mut got,
                stride,
            );
            assert_eq!(
                got, want,
                "portable {nrows} {stride} {nitems} {word_stride}"
            );
            let mut back = vec![0u64; nitems * word_stride];
            transpose_columns_to_words(&got, stride, nrows, nitems, &mut back, word_stride);
            assert_eq!(
                back, items,
                "round trip {nrows} {stride} {nitems} {word_stride}"
            );
        }
    }

    #[test]
    #[should_panic(expected = "words size")]
    fn words_reject_a_short_output() {
        let src = [Block::ONES; 4];
        let mut out = [0u64; 127];
        transpose_columns_to_words(&src, 1, 4, 128, &mut out, 1);
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
