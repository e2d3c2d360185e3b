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

/// dst ^= c · src, 64 bytes per step with one `vgf2p8affineqb`.
///
/// # Safety
/// The CPU must support GFNI, AVX-512F and AVX-512BW; equal lengths.
#[target_feature(enable = "gfni,avx512f,avx512bw")]
pub(super) unsafe fn gfni512_mul_add(m: &ConstMul, src: &[u8], dst: &mut [u8]) {
    let n = src.len().min(dst.len());
    let full = n - n % 64;
    // SAFETY: every 64-byte access is at offset j with j + 64 <= full <= len.
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
    }
    for j in full..n {
        dst[j] ^= m.apply(src[j]);
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
    // SAFETY: every 64-byte access is at offset j with j + 64 <= full <= len.
    unsafe {
        let mut j = 0;
        while j < full {
            let x = _mm512_loadu_si512(a.as_ptr().add(j).cast());
            let y = _mm512_loadu_si512(b.as_ptr().add(j).cast());
            _mm512_storeu_si512(dst.as_mut_ptr().add(j).cast(), _mm512_gf2p8mul_epi8(x, y));
            j += 64;
        }
    }
    for j in full..n {
        dst[j] = super::reference::mul_poly(a[j], b[j], 8, 0x11B);
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

/// out ^= M · input on symbol-major rows (see `GfMatrix::apply`): 32
/// columns at a time, the nibbles of every input row split once, each
/// output row summed in a register (no load/store of `out` per entry).
///
/// # Safety
/// The CPU must support AVX2; `prepared.len() == rows · cols`,
/// `input.len() == cols · len`, `out.len() == rows · len`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_matrix(
    prepared: &[ConstMul],
    rows: usize,
    cols: usize,
    input: &[u8],
    len: usize,
    out: &mut [u8],
) {
    assert!(prepared.len() == rows * cols && input.len() == cols * len && out.len() == rows * len);
    let full = len - len % 32;
    let mask = _mm256_set1_epi8(0x0f);
    let mut split = vec![_mm256_setzero_si256(); 2 * cols];
    let mut j = 0;
    while j < full {
        // SAFETY: j + 32 <= full <= len, so every access at c·len + j or
        // r·len + j reads/writes 32 bytes inside `input` / `out` (lengths
        // asserted above); tables are 16 bytes each.
        unsafe {
            for c in 0..cols {
                let s = _mm256_loadu_si256(input.as_ptr().add(c * len + j).cast());
                split[2 * c] = _mm256_and_si256(s, mask);
                split[2 * c + 1] = _mm256_and_si256(_mm256_srli_epi64(s, 4), mask);
            }
            for r in 0..rows {
                let dst = out.as_mut_ptr().add(r * len + j);
                let mut a = _mm256_loadu_si256(dst.cast());
                for (c, m) in prepared[r * cols..(r + 1) * cols].iter().enumerate() {
                    let (lo, hi) = m.nibbles();
                    let tlo = _mm256_broadcastsi128_si256(_mm_loadu_si128(lo.as_ptr().cast()));
                    let thi = _mm256_broadcastsi128_si256(_mm_loadu_si128(hi.as_ptr().cast()));
                    let l = _mm256_shuffle_epi8(tlo, split[2 * c]);
                    let h = _mm256_shuffle_epi8(thi, split[2 * c + 1]);
                    a = _mm256_xor_si256(a, _mm256_xor_si256(l, h));
                }
                _mm256_storeu_si256(dst.cast(), a);
            }
        }
        j += 32;
    }
    for j in full..len {
        for r in 0..rows {
            let v = (0..cols).fold(0u8, |acc, c| {
                acc ^ prepared[r * cols + c].apply(input[c * len + j])
            });
            out[r * len + j] ^= v;
        }
    }
}
