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
