//! Arithmetic in GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1).
//!
//! Bit `i` of a [`Block`] is the coefficient of `x^i` (no GCM bit
//! reflection), the same convention as [`Block::double`], so `gf_mul(a, x)`
//! equals `a.double()`. KOS's consistency check and the commitment checks
//! spend their time in [`gf_inner_product`], which sums unreduced 256-bit
//! products and reduces once at the end.
//!
//! Multiplication uses PCLMULQDQ when the CPU has it (run-time detection)
//! and otherwise a constant-time portable carry-less multiply built from
//! integer multiplications with "holes" (BearSSL's `ghash_ctmul` technique).
//! Neither path branches on or indexes by secret data.

use crate::Block;

/// Reduces the 256-bit carry-less product `hi·x^128 + lo` modulo the field
/// polynomial, in constant time.
#[inline(always)]
fn reduce(lo: u128, hi: u128) -> Block {
    // x^128 ≡ R = x^7 + x^2 + x + 1, so hi·x^128 ≡ hi·R = hi ⊕ hi<<1 ⊕ hi<<2 ⊕ hi<<7, a 135-bit value whose top
    // 7 bits (`over`) wrap around once more: over·R fits in 14 bits.
    let over = (hi >> 127) ^ (hi >> 126) ^ (hi >> 121);
    let folded = hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7);
    let over_r = over ^ (over << 1) ^ (over << 2) ^ (over << 7);
    debug_assert!(over_r >> 14 == 0);
    Block(lo ^ folded ^ over_r)
}

/// Product in GF(2^128), with PCLMULQDQ when available.
#[inline]
pub fn gf_mul(a: Block, b: Block) -> Block {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("pclmulqdq") {
        // SAFETY: the only requirement of `clmul::mul` is PCLMULQDQ (and the
        // baseline SSE2), detected just above.
        return unsafe { clmul::mul(a, b) };
    }
    gf_mul_portable(a, b)
}

/// Product in GF(2^128) without SIMD (the twin of [`gf_mul`]).
pub fn gf_mul_portable(a: Block, b: Block) -> Block {
    let (lo, hi) = portable::clmul128(a.0, b.0);
    reduce(lo, hi)
}

/// `Σ a_i·b_i` over the common prefix of the slices, reduced once at the end.
///
/// # Panics
/// If the lengths differ (internal buffers; a mismatch is a bug).
pub fn gf_inner_product(a: &[Block], b: &[Block]) -> Block {
    assert_eq!(a.len(), b.len(), "gf_inner_product: length mismatch");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("pclmulqdq") {
        // SAFETY: as in `gf_mul`; the kernel reads the slices by iterator.
        return unsafe { clmul::inner_product(a, b) };
    }
    gf_inner_product_portable(a, b)
}

/// The portable twin of [`gf_inner_product`].
///
/// # Panics
/// If the lengths differ.
pub fn gf_inner_product_portable(a: &[Block], b: &[Block]) -> Block {
    assert_eq!(a.len(), b.len(), "gf_inner_product: length mismatch");
    let (mut lo, mut hi) = (0u128, 0u128);
    for (x, y) in a.iter().zip(b) {
        let (l, h) = portable::clmul128(x.0, y.0);
        lo ^= l;
        hi ^= h;
    }
    reduce(lo, hi)
}

/// An unreduced sum of carry-less products: the polynomial `hi·x^128 + lo`
/// (degree ≤ 254). Sums of many products are accumulated with `^=` and
/// reduced once with [`GfWide::reduce`], which is the same as summing the
/// reduced products (reduction is GF(2)-linear). Sums of secret data are
/// secret: zeroize them (`Zeroize`) when done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, zeroize::Zeroize)]
pub struct GfWide {
    /// Coefficients of x^0..x^127.
    pub lo: u128,
    /// Coefficients of x^128..x^255.
    pub hi: u128,
}

impl GfWide {
    /// The field element this sum represents.
    #[inline]
    pub fn reduce(self) -> Block {
        reduce(self.lo, self.hi)
    }
}

impl std::ops::BitXorAssign for GfWide {
    #[inline]
    fn bitxor_assign(&mut self, o: GfWide) {
        self.lo ^= o.lo;
        self.hi ^= o.hi;
    }
}

/// Row-wise GF(2^128) combinations with one coefficient vector: for every
/// `r < acc.len()`, `acc[r] ^= Σ_b coef[b]·rows[r·stride + b]` over
/// `b < coef.len()`, unreduced (see [`GfWide`]). This is the bulk form of
/// [`gf_inner_product`] for bit-sliced matrices (one row per bit position,
/// one Block per 128 items): a consistency check combines every row of a
/// chunk with the same coefficients. Uses VPCLMULQDQ on four Blocks per
/// instruction when the CPU has it (AVX-512F + VPCLMULQDQ), on two with
/// AVX2 + VPCLMULQDQ, else PCLMULQDQ, else the portable multiplier.
///
/// # Panics
/// If `stride < coef.len()` or `rows` is shorter than the rows read
/// (internal buffers; a mismatch is a bug).
pub fn gf_mul_acc_rows(coef: &[Block], rows: &[Block], stride: usize, acc: &mut [GfWide]) {
    check_rows_shape(coef.len(), rows.len(), stride, acc.len());
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("vpclmulqdq")
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("pclmulqdq")
        {
            // SAFETY: the kernel needs AVX-512F, VPCLMULQDQ and PCLMULQDQ
            // (plus baseline SSE2), all detected just above; it touches
            // memory only through bounds-checked slices.
            unsafe { clmul::mul_acc_rows_512(coef, rows, stride, acc) };
            return;
        }
        if std::arch::is_x86_feature_detected!("vpclmulqdq")
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("pclmulqdq")
        {
            // SAFETY: the kernel needs AVX2, VPCLMULQDQ and PCLMULQDQ (plus
            // baseline SSE2), all detected just above; it touches memory
            // only through bounds-checked slices.
            unsafe { clmul::mul_acc_rows_256(coef, rows, stride, acc) };
            return;
        }
        if std::arch::is_x86_feature_detected!("pclmulqdq") {
            // SAFETY: PCLMULQDQ detected just above; slices only.
            unsafe { clmul::mul_acc_rows_128(coef, rows, stride, acc) };
            return;
        }
    }
    gf_mul_acc_rows_portable(coef, rows, stride, acc);
}

/// The portable twin of [`gf_mul_acc_rows`] (same results, no SIMD).
///
/// # Panics
/// As [`gf_mul_acc_rows`].
pub fn gf_mul_acc_rows_portable(coef: &[Block], rows: &[Block], stride: usize, acc: &mut [GfWide]) {
    check_rows_shape(coef.len(), rows.len(), stride, acc.len());
    for (r, a) in acc.iter_mut().enumerate() {
        let row = &rows[r * stride..r * stride + coef.len()];
        for (x, c) in row.iter().zip(coef) {
            let (lo, hi) = portable::clmul128(x.0, c.0);
            a.lo ^= lo;
            a.hi ^= hi;
        }
    }
}

fn check_rows_shape(ncols: usize, len: usize, stride: usize, nrows: usize) {
    assert!(stride >= ncols, "gf_mul_acc_rows: stride below row length");
    assert!(
        nrows == 0 || len >= (nrows - 1) * stride + ncols,
        "gf_mul_acc_rows: rows too short"
    );
}

/// `a^e`, by square-and-multiply over all 128 bits of `e` with a
/// branch-free select, so the time does not depend on `e` or `a`.
pub fn gf_pow(a: Block, e: u128) -> Block {
    let mut acc = Block(1);
    for i in (0..128).rev() {
        acc = gf_mul(acc, acc);
        let m = gf_mul(acc, a);
        let take = ((e >> i) & 1).wrapping_neg();
        acc = Block((m.0 & take) | (acc.0 & !take));
    }
    acc
}

/// Multiplicative inverse `a^(2^128 - 2)`, or `None` for zero (which may
/// come from a peer's data, so it is not a panic).
pub fn gf_inv(a: Block) -> Option<Block> {
    if a == Block::ZERO {
        return None;
    }
    Some(gf_pow(a, u128::MAX - 1))
}

mod portable {
    /// 32×32 → 64-bit carry-less product with integer multiplies: keeping
    /// only every 4th bit of each operand, at most 8 partial products hit any
    /// bit, so integer carries (≤ 3 bits up) never reach the next kept bit.
    #[inline(always)]
    fn clmul32(x: u32, y: u32) -> u64 {
        const M: [u64; 4] = [
            0x1111_1111_1111_1111,
            0x2222_2222_2222_2222,
            0x4444_4444_4444_4444,
            0x8888_8888_8888_8888,
        ];
        let (x, y) = (x as u64, y as u64);
        let xs = [x & M[0], x & M[1], x & M[2], x & M[3]];
        let ys = [y & M[0], y & M[1], y & M[2], y & M[3]];
        let mut z = 0u64;
        for (c, mask) in M.iter().enumerate() {
            // Pairs (i, j) with i + j ≡ c (mod 4) land on bits of class c.
            let mut acc = 0u64;
            for (i, xi) in xs.iter().enumerate() {
                acc ^= xi.wrapping_mul(ys[(c + 4 - i) % 4]);
            }
            z |= acc & mask;
        }
        z
    }

    #[inline(always)]
    fn clmul64(x: u64, y: u64) -> u128 {
        let (xl, xh) = (x as u32, (x >> 32) as u32);
        let (yl, yh) = (y as u32, (y >> 32) as u32);
        let lo = clmul32(xl, yl) as u128;
        let hi = clmul32(xh, yh) as u128;
        let mid = (clmul32(xl ^ xh, yl ^ yh) as u128) ^ lo ^ hi;
        lo ^ (mid << 32) ^ (hi << 64)
    }

    /// 128×128 → 256-bit carry-less product as (low, high) halves
    /// (one level of Karatsuba).
    pub(super) fn clmul128(a: u128, b: u128) -> (u128, u128) {
        let (al, ah) = (a as u64, (a >> 64) as u64);
        let (bl, bh) = (b as u64, (b >> 64) as u64);
        let lo = clmul64(al, bl);
        let hi = clmul64(ah, bh);
        let mid = clmul64(al ^ ah, bl ^ bh) ^ lo ^ hi;
        (lo ^ (mid << 64), hi ^ (mid >> 64))
    }
}

#[cfg(target_arch = "x86_64")]
mod clmul {
    use super::{reduce, GfWide};
    use crate::Block;
    use std::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "sse2")]
    fn load(b: Block) -> __m128i {
        _mm_set_epi64x((b.0 >> 64) as i64, b.0 as i64)
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn store(v: __m128i) -> u128 {
        let lo = _mm_cvtsi128_si64(v) as u64;
        let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
        lo as u128 | (hi as u128) << 64
    }

    /// Unreduced product as (lo, mid, hi) with mid = a_lo·b_hi ⊕ a_hi·b_lo.
    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    fn clmul(a: __m128i, b: __m128i) -> (__m128i, __m128i, __m128i) {
        let lo = _mm_clmulepi64_si128(a, b, 0x00);
        let hi = _mm_clmulepi64_si128(a, b, 0x11);
        let mid = _mm_xor_si128(
            _mm_clmulepi64_si128(a, b, 0x01),
            _mm_clmulepi64_si128(a, b, 0x10),
        );
        (lo, mid, hi)
    }

    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    fn finish(lo: __m128i, mid: __m128i, hi: __m128i) -> Block {
        let (lo, mid, hi) = (store(lo), store(mid), store(hi));
        reduce(lo ^ (mid << 64), hi ^ (mid >> 64))
    }

    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) fn mul(a: Block, b: Block) -> Block {
        let (lo, mid, hi) = clmul(load(a), load(b));
        finish(lo, mid, hi)
    }

    /// Adds an unreduced (lo, mid, hi) triple into a wide accumulator.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn add_wide(acc: &mut GfWide, lo: __m128i, mid: __m128i, hi: __m128i) {
        let (lo, mid, hi) = (store(lo), store(mid), store(hi));
        acc.lo ^= lo ^ (mid << 64);
        acc.hi ^= hi ^ (mid >> 64);
    }

    /// [`super::gf_mul_acc_rows`] with 128-bit PCLMULQDQ (shape checked by
    /// the caller).
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) fn mul_acc_rows_128(
        coef: &[Block],
        rows: &[Block],
        stride: usize,
        acc: &mut [GfWide],
    ) {
        for (r, a) in acc.iter_mut().enumerate() {
            let row = &rows[r * stride..r * stride + coef.len()];
            let z = _mm_setzero_si128();
            let (mut lo, mut mid, mut hi) = (z, z, z);
            for (x, y) in row.iter().zip(coef) {
                let (l, m, h) = clmul(load(*x), load(*y));
                lo = _mm_xor_si128(lo, l);
                mid = _mm_xor_si128(mid, m);
                hi = _mm_xor_si128(hi, h);
            }
            add_wide(a, lo, mid, hi);
        }
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn ld4(c: &[Block]) -> __m512i {
        let a: [Block; 4] = c.try_into().expect("4 blocks");
        bytemuck::cast(a)
    }

    /// Sum of the four 128-bit lanes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn fold4(v: __m512i) -> __m128i {
        let y = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
        _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256::<1>(y))
    }

    /// [`super::gf_mul_acc_rows`] with VPCLMULQDQ, four Blocks per
    /// instruction; per row the four lanes are folded once, the last
    /// `len % 4` columns use PCLMULQDQ (shape checked by the caller).
    #[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
    pub(super) fn mul_acc_rows_512(
        coef: &[Block],
        rows: &[Block],
        stride: usize,
        acc: &mut [GfWide],
    ) {
        let n = coef.len();
        let quads = n / 4;
        let cq: Vec<__m512i> = (0..quads).map(|i| ld4(&coef[4 * i..4 * i + 4])).collect();
        for (r, a) in acc.iter_mut().enumerate() {
            let row = &rows[r * stride..r * stride + n];
            let z = _mm512_setzero_si512();
            let (mut lo, mut mid, mut hi) = (z, z, z);
            for (i, c) in cq.iter().enumerate() {
                let x = ld4(&row[4 * i..4 * i + 4]);
                lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128::<0x00>(x, *c));
                hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128::<0x11>(x, *c));
                mid = _mm512_ternarylogic_epi64::<0x96>(
                    mid,
                    _mm512_clmulepi64_epi128::<0x01>(x, *c),
                    _mm512_clmulepi64_epi128::<0x10>(x, *c),
                );
            }
            let (mut l, mut m, mut h) = (fold4(lo), fold4(mid), fold4(hi));
            for (x, y) in row[4 * quads..].iter().zip(&coef[4 * quads..]) {
                let (pl, pm, ph) = clmul(load(*x), load(*y));
                l = _mm_xor_si128(l, pl);
                m = _mm_xor_si128(m, pm);
                h = _mm_xor_si128(h, ph);
            }
            add_wide(a, l, m, h);
        }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn ld2(c: &[Block]) -> __m256i {
        let a: [Block; 2] = c.try_into().expect("2 blocks");
        bytemuck::cast(a)
    }

    /// Sum of the two 128-bit lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn fold2(v: __m256i) -> __m128i {
        _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v))
    }

    /// [`super::gf_mul_acc_rows`] with 256-bit VPCLMULQDQ, two Blocks per
    /// instruction, for CPUs that have it without AVX-512 (AMD Zen 3,
    /// where a YMM carry-less multiply costs what an XMM one does), and
    /// Karatsuba's three multiplies per product instead of four: the
    /// accumulated `Σ (x_lo⊕x_hi)(c_lo⊕c_hi)` gives the middle term as
    /// `Σ mid = Σ (x_lo⊕x_hi)(c_lo⊕c_hi) ⊕ Σ lo ⊕ Σ hi` (everything is
    /// XOR-linear, so the correction is applied once per row). Per row
    /// the two lanes are folded once, an odd last column uses PCLMULQDQ
    /// (shape checked by the caller).
    #[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
    pub(super) fn mul_acc_rows_256(
        coef: &[Block],
        rows: &[Block],
        stride: usize,
        acc: &mut [GfWide],
    ) {
        let n = coef.len();
        let pairs = n / 2;
        // Each coefficient pair, and beside it (c_lo ⊕ c_hi) in the low
        // half of each lane.
        let cp: Vec<(__m256i, __m256i)> = (0..pairs)
            .map(|i| {
                let c = ld2(&coef[2 * i..2 * i + 2]);
                (c, _mm256_xor_si256(c, _mm256_shuffle_epi32::<0x4E>(c)))
            })
            .collect();
        for (r, a) in acc.iter_mut().enumerate() {
            let row = &rows[r * stride..r * stride + n];
            let z = _mm256_setzero_si256();
            let (mut lo, mut mk, mut hi) = (z, z, z);
            for (i, (c, ck)) in cp.iter().enumerate() {
                let x = ld2(&row[2 * i..2 * i + 2]);
                let xk = _mm256_xor_si256(x, _mm256_shuffle_epi32::<0x4E>(x));
                lo = _mm256_xor_si256(lo, _mm256_clmulepi64_epi128::<0x00>(x, *c));
                hi = _mm256_xor_si256(hi, _mm256_clmulepi64_epi128::<0x11>(x, *c));
                mk = _mm256_xor_si256(mk, _mm256_clmulepi64_epi128::<0x00>(xk, *ck));
            }
            let mid = _mm256_xor_si256(mk, _mm256_xor_si256(lo, hi));
            let (mut l, mut m, mut h) = (fold2(lo), fold2(mid), fold2(hi));
            for (x, y) in row[2 * pairs..].iter().zip(&coef[2 * pairs..]) {
                let (pl, pm, ph) = clmul(load(*x), load(*y));
                l = _mm_xor_si128(l, pl);
                m = _mm_xor_si128(m, pm);
                h = _mm_xor_si128(h, ph);
            }
            add_wide(a, l, m, h);
        }
    }

    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) fn inner_product(a: &[Block], b: &[Block]) -> Block {
        let z = _mm_setzero_si128();
        let (mut lo, mut mid, mut hi) = (z, z, z);
        for (x, y) in a.iter().zip(b) {
            let (l, m, h) = clmul(load(*x), load(*y));
            lo = _mm_xor_si128(lo, l);
            mid = _mm_xor_si128(mid, m);
            hi = _mm_xor_si128(hi, h);
        }
        finish(lo, mid, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prg::Prg;

    /// Independent reference: bit-by-bit schoolbook product and bit-by-bit
    /// long division by the field polynomial.
    fn schoolbook(a: Block, b: Block) -> Block {
        let mut p = [false; 256];
        for i in 0..128 {
            for j in 0..128 {
                p[i + j] ^= a.bit(i) & b.bit(j);
            }
        }
        for k in (128..256).rev() {
            if p[k] {
                p[k] = false;
                for t in [7, 2, 1, 0] {
                    p[k - 128 + t] ^= true;
                }
            }
        }
        Block((0..128).fold(0u128, |acc, i| acc | (p[i] as u128) << i))
    }

    #[test]
    fn known_vectors() {
        let x = Block(2);
        // x · x^127 = x^128 = x^7 + x^2 + x + 1.
        assert_eq!(gf_mul(x, Block(1 << 127)), Block(0x87));
        assert_eq!(gf_mul_portable(x, Block(1 << 127)), Block(0x87));
        // x^127 · x^127 = x^254 = x^126 · (x^7+x^2+x+1) = x^133+x^128+x^127+x^126
        //   = x^5·0x87 ⊕ 0x87 ⊕ x^127 ⊕ x^126.
        let expect = Block((0x87 << 5) ^ 0x87 ^ (1 << 127) ^ (1 << 126));
        assert_eq!(gf_mul(Block(1 << 127), Block(1 << 127)), expect);
        assert_eq!(schoolbook(Block(1 << 127), Block(1 << 127)), expect);
    }

    #[test]
    fn both_paths_match_schoolbook_and_double() {
        let mut p = Prg::from_seed(Block(31));
        for _ in 0..300 {
            let (a, b) = (p.random_block(), p.random_block());
            let s = schoolbook(a, b);
            assert_eq!(gf_mul(a, b), s);
            assert_eq!(gf_mul_portable(a, b), s);
            assert_eq!(gf_mul(a, Block(2)), a.double());
            assert_eq!(gf_mul(a, Block(1)), a);
            assert_eq!(gf_mul(a, Block::ZERO), Block::ZERO);
        }
        // Dense operands stress the carry bound of the portable multiplier.
        assert_eq!(
            gf_mul_portable(Block::ONES, Block::ONES),
            schoolbook(Block::ONES, Block::ONES)
        );
    }

    #[test]
    fn field_laws() {
        let mut p = Prg::from_seed(Block(32));
        for _ in 0..200 {
            let (a, b, c) = (p.random_block(), p.random_block(), p.random_block());
            assert_eq!(gf_mul(a, b), gf_mul(b, a));
            assert_eq!(gf_mul(gf_mul(a, b), c), gf_mul(a, gf_mul(b, c)));
            assert_eq!(gf_mul(a, b ^ c), gf_mul(a, b) ^ gf_mul(a, c));
        }
    }

    #[test]
    fn inner_product_matches_sum_of_products() {
        let mut p = Prg::from_seed(Block(33));
        for n in [0usize, 1, 2, 17, 500] {
            let a = p.random_blocks(n);
            let b = p.random_blocks(n);
            let expect = a
                .iter()
                .zip(&b)
                .fold(Block::ZERO, |s, (x, y)| s ^ gf_mul(*x, *y));
            assert_eq!(gf_inner_product(&a, &b), expect);
            assert_eq!(gf_inner_product_portable(&a, &b), expect);
        }
    }

    #[test]
    fn pow_and_inverse() {
        let mut p = Prg::from_seed(Block(34));
        assert_eq!(gf_inv(Block::ZERO), None);
        assert_eq!(gf_inv(Block(1)), Some(Block(1)));
        for _ in 0..20 {
            let a = p.random_block();
            assert_eq!(gf_pow(a, 0), Block(1));
            assert_eq!(gf_pow(a, 1), a);
            assert_eq!(gf_pow(a, 5), gf_mul(gf_mul(gf_mul(a, a), gf_mul(a, a)), a));
            let inv = gf_inv(a).expect("nonzero");
            assert_eq!(gf_mul(a, inv), Block(1));
            // The multiplicative group has order 2^128 - 1.
            assert_eq!(gf_pow(a, u128::MAX), Block(1));
        }
    }

    #[test]
    fn row_combinations_match_inner_products_on_every_path() {
        let mut p = Prg::from_seed(Block(35));
        for (ncols, stride, nrows) in [
            (0usize, 3usize, 2usize),
            (1, 1, 3),
            (5, 7, 4),
            (32, 32, 9),
            (35, 40, 3),
        ] {
            let coef = p.random_blocks(ncols);
            let rows = p.random_blocks(stride * nrows);
            let start: Vec<GfWide> = (0..nrows)
                .map(|_| GfWide {
                    lo: p.random_block().0,
                    hi: p.random_block().0,
                })
                .collect();
            let want: Vec<Block> = (0..nrows)
                .map(|r| {
                    start[r].reduce()
                        ^ gf_inner_product_portable(&coef, &rows[r * stride..r * stride + ncols])
                })
                .collect();
            let check = |acc: &[GfWide], what: &str| {
                let got: Vec<Block> = acc.iter().map(|a| a.reduce()).collect();
                assert_eq!(got, want, "{what}, {ncols}x{nrows}");
            };
            let mut acc = start.clone();
            gf_mul_acc_rows(&coef, &rows, stride, &mut acc);
            check(&acc, "dispatch");
            let mut acc = start.clone();
            gf_mul_acc_rows_portable(&coef, &rows, stride, &mut acc);
            check(&acc, "portable");
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("pclmulqdq") {
                    let mut acc = start.clone();
                    // SAFETY: PCLMULQDQ detected just above.
                    unsafe { clmul::mul_acc_rows_128(&coef, &rows, stride, &mut acc) };
                    check(&acc, "pclmulqdq");
                }
                if std::arch::is_x86_feature_detected!("vpclmulqdq")
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("pclmulqdq")
                {
                    let mut acc = start.clone();
                    // SAFETY: AVX-512F, VPCLMULQDQ and PCLMULQDQ detected just above.
                    unsafe { clmul::mul_acc_rows_512(&coef, &rows, stride, &mut acc) };
                    check(&acc, "vpclmulqdq");
                }
                if std::arch::is_x86_feature_detected!("vpclmulqdq")
                    && std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("pclmulqdq")
                {
                    let mut acc = start.clone();
                    // SAFETY: AVX2, VPCLMULQDQ and PCLMULQDQ detected just above.
                    unsafe { clmul::mul_acc_rows_256(&coef, &rows, stride, &mut acc) };
                    check(&acc, "vpclmulqdq-256");
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "rows too short")]
    fn row_combinations_reject_short_rows() {
        let mut acc = [GfWide::default(); 2];
        gf_mul_acc_rows(&[Block(1); 4], &[Block(1); 7], 4, &mut acc);
    }

    #[test]
    #[should_panic(expected = "length mismatch")]
    fn inner_product_rejects_mismatch() {
        gf_inner_product(&[Block::ZERO], &[]);
    }
}
