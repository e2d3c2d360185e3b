//! AES-NI, VAES-256 and VAES-512 kernels for AES-128 encryption.
//!
//! Why our own kernels instead of only the `aes` crate: the crate re-enters
//! its backend dispatch (and broadcasts round keys into ZMM registers) on
//! every call and processes any remainder below 64 blocks one block at a
//! time, which costs ~40-60 ns for a single block and ~10 ns/block for
//! batches of 8 on this CPU. The hashes and the garbler make many small
//! calls, and MiTCCR needs many cheap key schedules, so these paths matter.
//!
//! Every function here is `#[target_feature]`; callers must have checked the
//! features (see [`Features::detect`]). Memory is only touched through
//! slices and `bytemuck` casts of values, never raw pointers. The portable
//! twin is the `aes` crate (fixslice software backend or its own AES-NI),
//! tested on the same vectors in `super::tests`.

use crate::Block;
use std::arch::x86_64::*;

/// Expanded AES-128 encryption round keys.
pub(super) type RoundKeys = [Block; 11];

/// CPU features found at run time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Features {
    /// AES-NI + SSE2 + SSSE3 (128-bit kernels and the key schedule).
    pub aesni: bool,
    /// VAES + AVX-512F (4 blocks per instruction).
    pub vaes512: bool,
    /// VAES + AVX2 (2 blocks per instruction on YMM registers; CPUs with
    /// VAES but no AVX-512, e.g. AMD Zen 3, where it doubles the AES-NI
    /// throughput: 1.2-1.5 ns/block against 2.9-3.7 measured on this host).
    pub vaes256: bool,
}

impl Features {
    pub(super) fn detect() -> Features {
        let aesni = is_x86_feature_detected!("aes")
            && is_x86_feature_detected!("sse2")
            && is_x86_feature_detected!("ssse3");
        Features {
            aesni,
            vaes512: aesni
                && is_x86_feature_detected!("vaes")
                && is_x86_feature_detected!("avx512f"),
            vaes256: aesni && is_x86_feature_detected!("vaes") && is_x86_feature_detected!("avx2"),
        }
    }
}

#[inline]
#[target_feature(enable = "sse2")]
fn ld(b: Block) -> __m128i {
    bytemuck::cast(b)
}

#[inline]
#[target_feature(enable = "sse2")]
fn st(v: __m128i) -> Block {
    bytemuck::cast(v)
}

/// The AES-128 key schedule, with `aesenclast` standing in for
/// `aeskeygenassist` (Gueron's trick): `pshufb` broadcasts RotWord(w3) to
/// all four columns, where ShiftRows is the identity, so `aesenclast(·, rcon)`
/// yields SubWord(RotWord(w3)) ⊕ rcon. `aeskeygenassist` is slow on recent
/// Intel cores (about 8 cycles throughput), and MiTCCR runs one schedule
/// per tweak. Constant time, unlike a table-based software schedule.
#[inline]
#[target_feature(enable = "aes,sse2,ssse3")]
pub(super) fn expand_key(key: Block) -> RoundKeys {
    let rot_word = _mm_set1_epi32(0x0c0f_0e0d);
    let mut rk = [Block::ZERO; 11];
    let mut k = ld(key);
    rk[0] = st(k);
    for (i, rcon) in [1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36]
        .into_iter()
        .enumerate()
    {
        let x = _mm_aesenclast_si128(_mm_shuffle_epi8(k, rot_word), _mm_set1_epi32(rcon));
        let mut t = _mm_slli_si128::<4>(k);
        k = _mm_xor_si128(k, t);
        t = _mm_slli_si128::<4>(t);
        k = _mm_xor_si128(k, t);
        t = _mm_slli_si128::<4>(t);
        k = _mm_xor_si128(k, t);
        k = _mm_xor_si128(k, x);
        rk[i + 1] = st(k);
    }
    rk
}

#[inline]
#[target_feature(enable = "aes,sse2")]
fn enc1(k: &[__m128i; 11], b: __m128i) -> __m128i {
    let mut v = _mm_xor_si128(b, k[0]);
    for rk in &k[1..10] {
        v = _mm_aesenc_si128(v, *rk);
    }
    _mm_aesenclast_si128(v, k[10])
}

#[inline]
#[target_feature(enable = "aes,sse2")]
fn load_keys(rk: &RoundKeys) -> [__m128i; 11] {
    std::array::from_fn(|i| ld(rk[i]))
}

/// Encrypts one block.
#[target_feature(enable = "aes,sse2")]
pub(super) fn encrypt1(rk: &RoundKeys, b: Block) -> Block {
    st(enc1(&load_keys(rk), ld(b)))
}

/// Encrypts in place, 8 blocks interleaved to hide `aesenc` latency.
#[target_feature(enable = "aes,sse2")]
pub(super) fn encrypt_aesni(rk: &RoundKeys, blocks: &mut [Block]) {
    let k = load_keys(rk);
    let mut chunks = blocks.chunks_exact_mut(8);
    for c in &mut chunks {
        let mut v: [__m128i; 8] = std::array::from_fn(|j| _mm_xor_si128(ld(c[j]), k[0]));
        for rk in &k[1..10] {
            for x in v.iter_mut() {
                *x = _mm_aesenc_si128(*x, *rk);
            }
        }
        for (o, x) in c.iter_mut().zip(v) {
            *o = st(_mm_aesenclast_si128(x, k[10]));
        }
    }
    for b in chunks.into_remainder() {
        *b = st(enc1(&k, ld(*b)));
    }
}

#[inline]
#[target_feature(enable = "avx512f,vaes")]
fn ld4(c: &[Block]) -> __m512i {
    let a: [Block; 4] = c.try_into().expect("4 blocks");
    bytemuck::cast(a)
}

#[inline]
#[target_feature(enable = "avx512f,vaes")]
fn st4(c: &mut [Block], v: __m512i) {
    let a: [Block; 4] = bytemuck::cast(v);
    c.copy_from_slice(&a);
}

/// Encrypts in place with VAES: 8 ZMM registers (32 blocks) in flight, then
/// 4-block steps, then AES-NI for the last 0-3 blocks.
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
pub(super) fn encrypt_vaes512(rk: &RoundKeys, blocks: &mut [Block]) {
    let k: [__m512i; 11] = std::array::from_fn(|i| _mm512_broadcast_i32x4(ld(rk[i])));
    let mut chunks = blocks.chunks_exact_mut(32);
    for c in &mut chunks {
        let mut v: [__m512i; 8] =
            std::array::from_fn(|j| _mm512_xor_si512(ld4(&c[4 * j..4 * j + 4]), k[0]));
        for rk in &k[1..10] {
            for x in v.iter_mut() {
                *x = _mm512_aesenc_epi128(*x, *rk);
            }
        }
        for (j, x) in v.into_iter().enumerate() {
            st4(&mut c[4 * j..4 * j + 4], _mm512_aesenclast_epi128(x, k[10]));
        }
    }
    let rest = chunks.into_remainder();
    let mut quads = rest.chunks_exact_mut(4);
    for c in &mut quads {
        let mut x = _mm512_xor_si512(ld4(c), k[0]);
        for rk in &k[1..10] {
            x = _mm512_aesenc_epi128(x, *rk);
        }
        st4(c, _mm512_aesenclast_epi128(x, k[10]));
    }
    let k1 = load_keys(rk);
    for b in quads.into_remainder() {
        *b = st(enc1(&k1, ld(*b)));
    }
}

#[inline]
#[target_feature(enable = "avx2,vaes")]
pub(super) fn ld2(c: &[Block]) -> __m256i {
    let a: [Block; 2] = c.try_into().expect("2 blocks");
    bytemuck::cast(a)
}

#[inline]
#[target_feature(enable = "avx2,vaes")]
pub(super) fn st2(c: &mut [Block], v: __m256i) {
    let a: [Block; 2] = bytemuck::cast(v);
    c.copy_from_slice(&a);
}

/// The round keys broadcast to both lanes of a YMM register.
#[inline]
#[target_feature(enable = "avx2,vaes")]
pub(super) fn keys256(rk: &RoundKeys) -> [__m256i; 11] {
    std::array::from_fn(|i| _mm256_broadcastsi128_si256(ld(rk[i])))
}

/// AES-128 on `N` YMM registers (2 blocks each), rounds interleaved.
#[inline]
#[target_feature(enable = "avx2,vaes")]
pub(super) fn aes256_rounds<const N: usize>(k: &[__m256i; 11], v: &mut [__m256i; N]) {
    for x in v.iter_mut() {
        *x = _mm256_xor_si256(*x, k[0]);
    }
    for rk in &k[1..10] {
        for x in v.iter_mut() {
            *x = _mm256_aesenc_epi128(*x, *rk);
        }
    }
    for x in v.iter_mut() {
        *x = _mm256_aesenclast_epi128(*x, k[10]);
    }
}

/// Encrypts in place with VAES on YMM registers: 8 registers (16 blocks)
/// in flight, then 2-block steps, then AES-NI for a last odd block.
#[target_feature(enable = "avx2,vaes,aes,sse2")]
pub(super) fn encrypt_vaes256(rk: &RoundKeys, blocks: &mut [Block]) {
    let k = keys256(rk);
    let mut chunks = blocks.chunks_exact_mut(16);
    for c in &mut chunks {
        let mut v: [__m256i; 8] = std::array::from_fn(|j| ld2(&c[2 * j..2 * j + 2]));
        aes256_rounds(&k, &mut v);
        for (j, x) in v.into_iter().enumerate() {
            st2(&mut c[2 * j..2 * j + 2], x);
        }
    }
    let rest = chunks.into_remainder();
    let mut pairs = rest.chunks_exact_mut(2);
    for c in &mut pairs {
        let mut v = [ld2(c)];
        aes256_rounds(&k, &mut v);
        st2(c, v[0]);
    }
    let k1 = load_keys(rk);
    for b in pairs.into_remainder() {
        *b = st(enc1(&k1, ld(*b)));
    }
}

/// For each group `g` (of `per` consecutive blocks of `x`), `x ← E_{key_g}(x) ⊕ x`
/// with `key_g = seed ⊕ tweaks[g]`: the MiTCCR core. Eight key schedules
/// and their blocks are interleaved so their latencies overlap.
#[target_feature(enable = "aes,sse2,ssse3")]
pub(super) fn mmo_rekeyed(seed: Block, tweaks: &[Block], per: usize, x: &mut [Block]) {
    const KEYS: usize = 8;
    for (tg, xg) in tweaks.chunks(KEYS).zip(x.chunks_mut(KEYS * per)) {
        let ks: [[__m128i; 11]; KEYS] = std::array::from_fn(|g| {
            let t = tg.get(g).copied().unwrap_or(Block::ZERO);
            load_keys(&expand_key(seed ^ t))
        });
        // Blocks in flight per pass: enough to fill the AES pipelines.
        const LANES: usize = 16;
        for (pass, xc) in xg.chunks_mut(LANES).enumerate() {
            // Which of the eight keys each lane uses: one division per block,
            // not one per round.
            let base = pass * LANES;
            let kid: [usize; LANES] = std::array::from_fn(|j| ((base + j) / per).min(KEYS - 1));
            let n = xc.len();
            let mut v = [_mm_setzero_si128(); LANES];
            let mut orig = [_mm_setzero_si128(); LANES];
            for (j, b) in xc.iter().enumerate() {
                orig[j] = ld(*b);
                v[j] = _mm_xor_si128(orig[j], ks[kid[j]][0]);
            }
            // `r` indexes a different key's schedule per lane, not one slice.
            #[allow(clippy::needless_range_loop)]
            for r in 1..10 {
                for (vj, &k) in v[..n].iter_mut().zip(&kid) {
                    *vj = _mm_aesenc_si128(*vj, ks[k][r]);
                }
            }
            for ((b, vj), (&k, oj)) in xc.iter_mut().zip(v).zip(kid.iter().zip(orig)) {
                *b = st(_mm_xor_si128(_mm_aesenclast_si128(vj, ks[k][10]), oj));
            }
        }
    }
}
