//! x86-64 kernels for [`super::slice`]: AVX2 nibble tables and GFNI.
//!
//! Each function is `#[target_feature]`; the dispatcher in `slice` checks
//! the features first. Loads and stores are unaligned and stay inside the
//! slices (full vectors while a whole vector remains, the tail through the
//! portable formula), so no access leaves the caller's memory.

use super::slice::ConstMul;
use std::arch::x86_64::*;

/// dst ^= c · src, 32 bytes per step: split each byte into nibbles and look
/// both up with `vpshufb` (Plank et al.'s method).
///
/// # Safety
/// The CPU must support AVX2; `src.len() == dst.len()`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_mul_add(m: &ConstMul, src: &[u8], dst: &mut [u8]) {
    let (lo, hi) = m.nibbles();
    let n = src.len().min(dst.len());
    let full = n - n % 32;
    // SAFETY: the tables are 16 bytes each (loadu reads exactly 16); every
    // 32-byte access below is at offset j with j + 32 <= full <= len of both
    // slices.
    unsafe {
        let tlo = _mm256_broadcastsi128_si256(_mm_loadu_si128(lo.as_ptr().cast()));
        let thi = _mm256_broadcastsi128_si256(_mm_loadu_si128(hi.as_ptr().cast()));
        let mask = _mm256_set1_epi8(0x0f);
        let mut j = 0;
        while j < full {
            let s = _mm256_loadu_si256(src.as_ptr().add(j).cast());
            let d = _mm256_loadu_si256(dst.as_ptr().add(j).cast());
            let l = _mm256_shuffle_epi8(tlo, _mm256_and_si256(s, mask));
            let h = _mm256_shuffle_epi8(thi, _mm256_and_si256(_mm256_srli_epi64(s, 4), mask));
            let r = _mm256_xor_si256(d, _mm256_xor_si256(l, h));
            _mm256_storeu_si256(dst.as_mut_ptr().add(j).cast(), r);
            j += 32;
        }
    }
    for j in full..n {
        dst[j] ^= m.apply(src[j]);
    }
}

/// The additive FFT's butterfly, 32 bytes per step: forward
/// a ^= c · b, b ^= a; inverse (`inv`) b ^= a, a ^= c · b. Both rows are
/// read and written once per step (the product of [`avx2_mul_add`] with
/// the XOR fused).
///
/// # Safety
/// The CPU must support AVX2; `a.len() == b.len()`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_butterfly(m: &ConstMul, a: &mut [u8], b: &mut [u8], inv: bool) {
    let (lo, hi) = m.nibbles();
    let n = a.len().min(b.len());
    let full = n - n % 32;
    // SAFETY: the tables are 16 bytes each (loadu reads exactly 16); every
    // 32-byte access below is at offset j with j + 32 <= full <= len of both
    // slices.
    unsafe {
        let tlo = _mm256_broadcastsi128_si256(_mm_loadu_si128(lo.as_ptr().cast()));
        let thi = _mm256_broadcastsi128_si256(_mm_loadu_si128(hi.as_ptr().cast()));
        let mask = _mm256_set1_epi8(0x0f);
        let mul = |s: __m256i| {
            _mm256_xor_si256(
                _mm256_shuffle_epi8(tlo, _mm256_and_si256(s, mask)),
                _mm256_shuffle_epi8(thi, _mm256_and_si256(_mm256_srli_epi64(s, 4), mask)),
            )
        };
        let mut j = 0;
        while j < full {
            let pa = a.as_mut_ptr().add(j);
            let pb = b.as_mut_ptr().add(j);
            let x = _mm256_loadu_si256(pa.cast());
            let y = _mm256_loadu_si256(pb.cast());
            let (x, y) = if inv {
                let y = _mm256_xor_si256(y, x);
                (_mm256_xor_si256(x, mul(y)), y)
            } else {
                let x = _mm256_xor_si256(x, mul(y));
                (x, _mm256_xor_si256(y, x))
            };
            _mm256_storeu_si256(pa.cast(), x);
            _mm256_storeu_si256(pb.cast(), y);
            j += 32;
        }
    }
    for j in full..n {
        if inv {
            b[j] ^= a[j];
            a[j] ^= m.apply(b[j]);
        } else {
            a[j] ^= m.apply(b[j]);
            b[j] ^= a[j];
        }
    }
}

/// The mask of the first `k` bytes of a 64-byte register (`k < 64`).
#[inline]
fn tail_mask(k: usize) -> __mmask64 {
    debug_assert!(k < 64);
    (1u64 << k) - 1
}

/// dst ^= c · src, 64 bytes per step with one `vgf2p8affineqb`; the last
/// `len mod 64` bytes in one more step under a byte mask (short rows, as
/// a verification batch of a few hundred messages has, would otherwise
/// spend most of their time in a byte-at-a-time tail).
///
/// # Safety
/// The CPU must support GFNI, AVX-512F and AVX-512BW; equal lengths.
#[target_feature(enable = "gfni,avx512f,avx512bw")]
pub(super) unsafe fn gfni512_mul_add(m: &ConstMul, src: &[u8], dst: &mut [u8]) {
    let n = src.len().min(dst.len());
    let full = n - n % 64;
    // SAFETY: every 64-byte access is at offset j with j + 64 <= full <= len;
    // the tail's masked accesses touch only bytes full..n (AVX-512BW masked
    // loads and stores do not access, nor fault on, masked-off bytes).
    unsafe {
        let a = _mm512_set1_epi64(m.affine() as i64);
        let mut j = 0;
        while j < full {
            let s = _mm512_loadu_si512(src.as_ptr().add(j).cast());
            let d = _mm512_loadu_si512(dst.as_ptr().add(j).cast());
            let p = _mm512_gf2p8affine_epi64_epi8::<0>(s, a);
            _mm512_storeu_si512(dst.as_mut_ptr().add(j).cast(), _mm512_xor_si512(d, p));
            j += 64;
        }
        if full < n {
            let k = tail_mask(n - full);
            let s = _mm512_maskz_loadu_epi8(k, src.as_ptr().add(full).cast());
            let d = _mm512_maskz_loadu_epi8(k, dst.as_ptr().add(full).cast());
            let p = _mm512_gf2p8affine_epi64_epi8::<0>(s, a);
            _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(full).cast(), k, _mm512_xor_si512(d, p));
        }
    }
}

/// dst = a · b elementwise in GF(2^8) mod 0x11B with `vgf2p8mulb`.
///
/// # Safety
/// The CPU must support GFNI, AVX-512F and AVX-512BW; equal lengths.
#[target_feature(enable = "gfni,avx512f,avx512bw")]
pub(super) unsafe fn gfni512_mul_slices(a: &[u8], b: &[u8], dst: &mut [u8]) {
    let n = dst.len().min(a.len()).min(b.len());
    let full = n - n % 64;
    // SAFETY: every 64-byte access is at offset j with j + 64 <= full <= len;
    // the tail's masked accesses touch only bytes full..n (masked-off bytes
    // are neither accessed nor faulted on).
    unsafe {
        let mut j = 0;
        while j < full {
            let x = _mm512_loadu_si512(a.as_ptr().add(j).cast());
            let y = _mm512_loadu_si512(b.as_ptr().add(j).cast());
            _mm512_storeu_si512(dst.as_mut_ptr().add(j).cast(), _mm512_gf2p8mul_epi8(x, y));
            j += 64;
        }
        if full < n {
            let k = tail_mask(n - full);
            let x = _mm512_maskz_loadu_epi8(k, a.as_ptr().add(full).cast());
            let y = _mm512_maskz_loadu_epi8(k, b.as_ptr().add(full).cast());
            _mm512_mask_storeu_epi8(
                dst.as_mut_ptr().add(full).cast(),
                k,
                _mm512_gf2p8mul_epi8(x, y),
            );
        }
    }
}

/// acc ^= Σ_i c_i · row_i with AVX2 nibble tables; acc stays in registers
/// 32 bytes at a time.
///
/// # Safety
/// The CPU must support AVX2; `acc.len()` is a positive multiple of 32 and
/// `rows.len() == coeffs.len() * acc.len()`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_combine(
    tables: &[ConstMul; 256],
    coeffs: &[u8],
    rows: &[u8],
    acc: &mut [u8],
) {
    let stride = acc.len();
    let mask = _mm256_set1_epi8(0x0f);
    let mut col = 0;
    while col < stride {
        // SAFETY: col + 32 <= stride; row i's chunk is at i·stride + col,
        // and i·stride + col + 32 <= coeffs.len()·stride = rows.len(). The
        // tables are 16 bytes each.
        unsafe {
            let mut a = _mm256_loadu_si256(acc.as_ptr().add(col).cast());
            for (i, &c) in coeffs.iter().enumerate() {
                let (lo, hi) = tables[c as usize].nibbles();
                let tlo = _mm256_broadcastsi128_si256(_mm_loadu_si128(lo.as_ptr().cast()));
                let thi = _mm256_broadcastsi128_si256(_mm_loadu_si128(hi.as_ptr().cast()));
                let s = _mm256_loadu_si256(rows.as_ptr().add(i * stride + col).cast());
                let l = _mm256_shuffle_epi8(tlo, _mm256_and_si256(s, mask));
                let h = _mm256_shuffle_epi8(thi, _mm256_and_si256(_mm256_srli_epi64(s, 4), mask));
                a = _mm256_xor_si256(a, _mm256_xor_si256(l, h));
            }
            _mm256_storeu_si256(acc.as_mut_ptr().add(col).cast(), a);
        }
        col += 32;
    }
}

/// acc ^= Σ_i c_i · row_i with GFNI affine products, 32 bytes at a time
/// (strides are multiples of 32, not 64).
///
/// # Safety
/// The CPU must support GFNI, AVX-512F and AVX-512BW (the 256-bit form
/// needs AVX-512VL or AVX; AVX2 is implied by AVX-512F); `acc.len()` a
/// positive multiple of 32 and `rows.len() == coeffs.len() * acc.len()`.
#[target_feature(enable = "gfni,avx2")]
pub(super) unsafe fn gfni_combine(
    tables: &[ConstMul; 256],
    coeffs: &[u8],
    rows: &[u8],
    acc: &mut [u8],
) {
    let stride = acc.len();
    let mut col = 0;
    while col < stride {
        // SAFETY: bounds as in `avx2_combine`.
        unsafe {
            let mut a = _mm256_loadu_si256(acc.as_ptr().add(col).cast());
            for (i, &c) in coeffs.iter().enumerate() {
                let m = _mm256_set1_epi64x(tables[c as usize].affine() as i64);
                let s = _mm256_loadu_si256(rows.as_ptr().add(i * stride + col).cast());
                a = _mm256_xor_si256(a, _mm256_gf2p8affine_epi64_epi8::<0>(s, m));
            }
            _mm256_storeu_si256(acc.as_mut_ptr().add(col).cast(), a);
        }
        col += 32;
    }
}

/// Shape of a strided symbol-major product (see `StridedMap::apply_add_strided`).
#[derive(Clone, Copy, Debug)]
pub(super) struct MatrixShape {
    pub rows: usize,
    pub cols: usize,
    pub in_stride: usize,
    pub len: usize,
    pub out_stride: usize,
}

/// The two nibble tables of `m`, broadcast to both 128-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn tables(m: &ConstMul) -> (__m256i, __m256i) {
    let (lo, hi) = m.nibbles();
    // SAFETY: the tables are 16-byte arrays; each load reads exactly 16.
    unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(lo.as_ptr().cast())),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(hi.as_ptr().cast())),
        )
    }
}

/// c · x for 32 bytes whose nibbles are already split (`xl`, `xh`).
#[inline]
#[target_feature(enable = "avx2")]
fn mul_split(t: (__m256i, __m256i), xl: __m256i, xh: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_shuffle_epi8(t.0, xl), _mm256_shuffle_epi8(t.1, xh))
}

/// out ^= M · input on strided symbol-major rows, 64 columns per step:
/// the nibbles of every input row are split once per step (kept in L1),
/// and two output rows are summed in registers at a time, so each pair of
/// table loads serves 64 bytes of two rows' worth of shuffles. Shuffles
/// (two `vpshufb` per 32 products) are then the bound.
///
/// # Safety
/// The CPU must support AVX2; `prepared.len() == rows · cols`; `len ≤`
/// both strides; `input.len() ≥ (cols − 1)·in_stride + len` and
/// `out.len() ≥ (rows − 1)·out_stride + len` (rows, cols ≥ 1).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_matrix(
    prepared: &[ConstMul],
    shape: MatrixShape,
    input: &[u8],
    out: &mut [u8],
) {
    let MatrixShape {
        rows,
        cols,
        in_stride,
        len,
        out_stride,
    } = shape;
    assert!(
        prepared.len() == rows * cols
            && rows >= 1
            && cols >= 1
            && len <= in_stride
            && len <= out_stride
            && input.len() >= (cols - 1) * in_stride + len
            && out.len() >= (rows - 1) * out_stride + len
    );
    let mask = _mm256_set1_epi8(0x0f);
    let split4 = |v: __m256i| {
        (
            _mm256_and_si256(v, mask),
            _mm256_and_si256(_mm256_srli_epi64(v, 4), mask),
        )
    };
    // split[4c..4c+4]: low and high nibbles of columns j..j+32 and j+32..j+64 of input row c.
    let mut split = vec![_mm256_setzero_si256(); 4 * cols];
    let ip = input.as_ptr();
    let op = out.as_mut_ptr();
    let mut j = 0;
    while j + 64 <= len {
        // SAFETY: j + 64 <= len, so every access at c·in_stride + j (+32)
        // or r·out_stride + j (+32) reads/writes 32 bytes inside `input` /
        // `out` (sizes asserted above); `split` has 4·cols entries.
        unsafe {
            for c in 0..cols {
                let p = ip.add(c * in_stride + j);
                let (a, b) = split4(_mm256_loadu_si256(p.cast()));
                let (d, e) = split4(_mm256_loadu_si256(p.add(32).cast()));
                split[4 * c] = a;
                split[4 * c + 1] = b;
                split[4 * c + 2] = d;
                split[4 * c + 3] = e;
            }
            let mut r = 0;
            while r + 2 <= rows {
                let d0 = op.add(r * out_stride + j);
                let d1 = op.add((r + 1) * out_stride + j);
                let mut a0 = _mm256_loadu_si256(d0.cast());
                let mut a1 = _mm256_loadu_si256(d0.add(32).cast());
                let mut b0 = _mm256_loadu_si256(d1.cast());
                let mut b1 = _mm256_loadu_si256(d1.add(32).cast());
                let t0 = &prepared[r * cols..(r + 1) * cols];
                let t1 = &prepared[(r + 1) * cols..(r + 2) * cols];
                for (c, s) in split.chunks_exact(4).enumerate() {
                    let t = tables(&t0[c]);
                    a0 = _mm256_xor_si256(a0, mul_split(t, s[0], s[1]));
                    a1 = _mm256_xor_si256(a1, mul_split(t, s[2], s[3]));
                    let t = tables(&t1[c]);
                    b0 = _mm256_xor_si256(b0, mul_split(t, s[0], s[1]));
                    b1 = _mm256_xor_si256(b1, mul_split(t, s[2], s[3]));
                }
                _mm256_storeu_si256(d0.cast(), a0);
                _mm256_storeu_si256(d0.add(32).cast(), a1);
                _mm256_storeu_si256(d1.cast(), b0);
                _mm256_storeu_si256(d1.add(32).cast(), b1);
                r += 2;
            }
            if r < rows {
                let d0 = op.add(r * out_stride + j);
                let mut a0 = _mm256_loadu_si256(d0.cast());
                let mut a1 = _mm256_loadu_si256(d0.add(32).cast());
                for (m, s) in prepared[r * cols..(r + 1) * cols]
                    .iter()
                    .zip(split.chunks_exact(4))
                {
                    let t = tables(m);
                    a0 = _mm256_xor_si256(a0, mul_split(t, s[0], s[1]));
                    a1 = _mm256_xor_si256(a1, mul_split(t, s[2], s[3]));
                }
                _mm256_storeu_si256(d0.cast(), a0);
                _mm256_storeu_si256(d0.add(32).cast(), a1);
            }
        }
        j += 64;
    }
    if j + 32 <= len {
        // SAFETY: as above with one 32-byte vector per row (j + 32 <= len).
        unsafe {
            for c in 0..cols {
                let (a, b) = split4(_mm256_loadu_si256(ip.add(c * in_stride + j).cast()));
                split[2 * c] = a;
                split[2 * c + 1] = b;
            }
            for r in 0..rows {
                let d = op.add(r * out_stride + j);
                let mut a = _mm256_loadu_si256(d.cast());
                for (m, s) in prepared[r * cols..(r + 1) * cols]
                    .iter()
                    .zip(split.chunks_exact(2))
                {
                    a = _mm256_xor_si256(a, mul_split(tables(m), s[0], s[1]));
                }
                _mm256_storeu_si256(d.cast(), a);
            }
        }
        j += 32;
    }
    for j in j..len {
        for r in 0..rows {
            let v = (0..cols).fold(0u8, |acc, c| {
                acc ^ prepared[r * cols + c].apply(input[c * in_stride + j])
            });
            out[r * out_stride + j] ^= v;
        }
    }
}

/// `G` combinations of the same rows in one pass (see
/// `combine::combine_rows_many`): each 32-byte chunk of a row is loaded
/// and split into nibbles once, then multiplied by its `G` coefficients
/// into `G` accumulators held in registers.
///
/// # Safety
/// The CPU must support AVX2; `stride` is a positive multiple of 32;
/// `rows.len() == count · stride`; `coeffs.len() ≥ (t0 + G) · count`;
/// `accs.len() ≥ (t0 + G) · stride`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_combine_group<const G: usize>(
    consts: &[ConstMul; 256],
    coeffs: &[u8],
    rows: &[u8],
    stride: usize,
    accs: &mut [u8],
    t0: usize,
) {
    let count = rows.len() / stride;
    assert!(
        stride.is_multiple_of(32)
            && rows.len() == count * stride
            && coeffs.len() >= (t0 + G) * count
            && accs.len() >= (t0 + G) * stride
    );
    let mask = _mm256_set1_epi8(0x0f);
    let mut col = 0;
    while col < stride {
        // SAFETY: col + 32 <= stride; acc t is at t·stride + col with
        // t < t0 + G, row i's chunk at i·stride + col with i < count (sizes
        // asserted above); coefficient indices are < (t0 + G)·count.
        unsafe {
            let mut a = [_mm256_setzero_si256(); G];
            for (g, a) in a.iter_mut().enumerate() {
                *a = _mm256_loadu_si256(accs.as_ptr().add((t0 + g) * stride + col).cast());
            }
            for i in 0..count {
                let s = _mm256_loadu_si256(rows.as_ptr().add(i * stride + col).cast());
                let xl = _mm256_and_si256(s, mask);
                let xh = _mm256_and_si256(_mm256_srli_epi64(s, 4), mask);
                for (g, a) in a.iter_mut().enumerate() {
                    let c = *coeffs.get_unchecked((t0 + g) * count + i);
                    *a = _mm256_xor_si256(*a, mul_split(tables(&consts[c as usize]), xl, xh));
                }
            }
            for (g, a) in a.iter().enumerate() {
                _mm256_storeu_si256(accs.as_mut_ptr().add((t0 + g) * stride + col).cast(), *a);
            }
        }
        col += 32;
    }
}

/// Transposes 16 × 16 bytes: `src` rows at `src_stride`, `dst` rows at
/// `dst_stride` (dst row c, byte r = src row r, byte c). Four rounds of
/// byte interleaves: each one rotates the 8-bit (register, byte) index
/// left by one, so four swap its halves.
///
/// # Safety
/// SSE2 (every x86-64 has it); `src.len() ≥ 15·src_stride + 16` and
/// `dst.len() ≥ 15·dst_stride + 16`.
#[target_feature(enable = "sse2")]
pub(super) unsafe fn sse2_transpose16(
    src: &[u8],
    src_stride: usize,
    dst: &mut [u8],
    dst_stride: usize,
) {
    assert!(src.len() >= 15 * src_stride + 16 && dst.len() >= 15 * dst_stride + 16);
    let mut x = [_mm_setzero_si128(); 16];
    // SAFETY: row r is read at r·src_stride..+16 and written at
    // r·dst_stride..+16, inside the slices by the assertion above.
    unsafe {
        for (r, v) in x.iter_mut().enumerate() {
            *v = _mm_loadu_si128(src.as_ptr().add(r * src_stride).cast());
        }
        for _ in 0..4 {
            let mut y = [_mm_setzero_si128(); 16];
            for k in 0..8 {
                y[2 * k] = _mm_unpacklo_epi8(x[k], x[k + 8]);
                y[2 * k + 1] = _mm_unpackhi_epi8(x[k], x[k + 8]);
            }
            x = y;
        }
        for (r, v) in x.iter().enumerate() {
            _mm_storeu_si128(dst.as_mut_ptr().add(r * dst_stride).cast(), *v);
        }
    }
}

/// Two side-by-side 16 × 16 byte transposes on AVX2: source rows
/// r < 16 hold 32 bytes (columns c < 32), destination row c gets byte c of
/// every source row. The rounds are [`sse2_transpose16`]'s; `vpunpck*bw`
/// works within 128-bit lanes, so lane 0 transposes columns 0..16 and
/// lane 1 columns 16..32 in the same instructions, and each result
/// register is stored as two 16-byte rows.
///
/// # Safety
/// The CPU must support AVX2; `src.len() ≥ 15·src_stride + 32` and
/// `dst.len() ≥ 31·dst_stride + 16`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_transpose16x32(
    src: &[u8],
    src_stride: usize,
    dst: &mut [u8],
    dst_stride: usize,
) {
    assert!(src.len() >= 15 * src_stride + 32 && dst.len() >= 31 * dst_stride + 16);
    let mut x = [_mm256_setzero_si256(); 16];
    // SAFETY: source row r is read at r·src_stride..+32, destination rows
    // c and c + 16 (c < 16) written at c·dst_stride..+16 and
    // (c + 16)·dst_stride..+16: inside the slices by the assertion above.
    unsafe {
        for (r, v) in x.iter_mut().enumerate() {
            *v = _mm256_loadu_si256(src.as_ptr().add(r * src_stride).cast());
        }
        for _ in 0..4 {
            let mut y = [_mm256_setzero_si256(); 16];
            for k in 0..8 {
                y[2 * k] = _mm256_unpacklo_epi8(x[k], x[k + 8]);
                y[2 * k + 1] = _mm256_unpackhi_epi8(x[k], x[k + 8]);
            }
            x = y;
        }
        for (c, v) in x.iter().enumerate() {
            let d = dst.as_mut_ptr();
            _mm_storeu_si128(d.add(c * dst_stride).cast(), _mm256_castsi256_si128(*v));
            _mm_storeu_si128(
                d.add((c + 16) * dst_stride).cast(),
                _mm256_extracti128_si256::<1>(*v),
            );
        }
    }
}

/// XOR of the images of every nibble of `x` (see `lookup::NibbleMap`),
/// one 16-byte word per image: two independent accumulator chains of
/// `pxor` with a memory operand.
///
/// # Safety
/// SSE2 (every x86-64 has it); `table.len() ≥ 32 · x.len()`.
#[target_feature(enable = "sse2")]
pub(super) unsafe fn sse2_nibble_acc1(table: &[u128], x: &[u8]) -> u128 {
    assert!(table.len() >= 32 * x.len());
    let tp = table.as_ptr();
    let mut a = _mm_setzero_si128();
    let mut b = _mm_setzero_si128();
    for (c, &v) in x.iter().enumerate() {
        // SAFETY: indices c·32 + (v & 15) and c·32 + 16 + (v >> 4) are
        // below 32·(c + 1) ≤ table.len(); u128 entries are 16-byte aligned.
        unsafe {
            let base = tp.add(c * 32);
            a = _mm_xor_si128(a, _mm_load_si128(base.add((v & 15) as usize).cast()));
            b = _mm_xor_si128(b, _mm_load_si128(base.add(16 + (v >> 4) as usize).cast()));
        }
    }
    let mut out = [0u8; 16];
    // SAFETY: `out` is 16 bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_xor_si128(a, b)) };
    u128::from_le_bytes(out)
}

/// [`sse2_nibble_acc1`] with two words (32 bytes) per image, on AVX2.
///
/// # Safety
/// The CPU must support AVX2; `table.len() ≥ 64 · x.len()`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_nibble_acc2(table: &[u128], x: &[u8]) -> [u128; 2] {
    assert!(table.len() >= 64 * x.len());
    let tp = table.as_ptr();
    let mut a = _mm256_setzero_si256();
    let mut b = _mm256_setzero_si256();
    for (c, &v) in x.iter().enumerate() {
        // SAFETY: entries (c·32 + e)·2 and its successor, e < 32, lie below
        // 64·(c + 1) ≤ table.len().
        unsafe {
            let base = tp.add(c * 64);
            a = _mm256_xor_si256(
                a,
                _mm256_loadu_si256(base.add(2 * (v & 15) as usize).cast()),
            );
            b = _mm256_xor_si256(
                b,
                _mm256_loadu_si256(base.add(2 * (16 + (v >> 4) as usize)).cast()),
            );
        }
    }
    let mut out = [0u8; 32];
    // SAFETY: `out` is 32 bytes.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_xor_si256(a, b)) };
    let (lo, hi) = out.split_at(16);
    [
        u128::from_le_bytes(lo.try_into().expect("16 bytes")),
        u128::from_le_bytes(hi.try_into().expect("16 bytes")),
    ]
}
