//! y = M·x for one short vector at a time, by table lookups.
//!
//! IHash's Verify maps one ℓ-symbol message to its watched parity symbols:
//! a GF(2)-linear map, so y is the XOR of one precomputed image per input
//! nibble (2ℓ lookups of a 16-byte word for up to 16 outputs). The tables
//! are 16 · 2ℓ words (16 KiB for ℓ = 32: L1-resident), and the work per
//! vector is independent loads and XORs, with no per-call setup. SSE2 (one
//! word) and AVX2 (two words) accumulate on x86-64; the portable twin
//! [`NibbleMap::apply_portable`] and [`GfMatrix::mul_vec`] are what they
//! are tested against.

use super::GfMatrix;

/// A `rows × cols` matrix prepared for [`NibbleMap::apply`].
#[derive(Clone, Debug)]
pub struct NibbleMap {
    rows: usize,
    cols: usize,
    /// 16-byte words per image: ⌈rows / 16⌉.
    words: usize,
    /// Image of nibble value v at half h (0 low, 1 high) of input c, word k:
    /// `table[((2c + h)·16 + v)·words + k]`, little-endian (byte b of the
    /// image is output symbol 16k + b).
    table: Vec<u128>,
    /// Whether the two-word accumulation may use AVX2 (detected once).
    avx2: bool,
}

impl NibbleMap {
    /// The tables of `m` (any size; outputs past 16 use further words).
    pub fn new(m: &GfMatrix) -> NibbleMap {
        let (rows, cols) = (m.rows(), m.cols());
        let words = rows.div_ceil(16).max(1);
        let f = m.field();
        let mut table = vec![0u128; 2 * cols * 16 * words];
        for c in 0..cols {
            for h in 0..2 {
                for v in 0..16u8 {
                    let x = v << (4 * h);
                    let base = ((2 * c + h) * 16 + v as usize) * words;
                    for r in 0..rows {
                        let y = f.mul(m.get(r, c), x & (f.order() - 1) as u8);
                        table[base + r / 16] |= (y as u128) << (8 * (r % 16));
                    }
                }
            }
        }
        NibbleMap {
            rows,
            cols,
            words,
            table,
            avx2: super::Kernel::Avx2.is_available(),
        }
    }

    /// Number of outputs.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of inputs.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// M·x packed into words (byte b of word k = output 16k + b; bytes past
    /// `rows` are 0). Input bits at or above σ are ignored, as by every
    /// kernel of this module.
    #[inline]
    fn accumulate<const W: usize>(&self, x: &[u8]) -> [u128; W] {
        debug_assert_eq!(self.words, W);
        let mut acc = [0u128; W];
        for (&b, t) in x.iter().zip(self.table.chunks_exact(32 * W)) {
            let lo = &t[(b & 15) as usize * W..][..W];
            let hi = &t[(16 + (b >> 4) as usize) * W..][..W];
            for k in 0..W {
                acc[k] ^= lo[k] ^ hi[k];
            }
        }
        acc
    }

    fn packed(&self, x: &[u8]) -> Vec<u128> {
        match self.words {
            1 => self.accumulate1(x).to_vec(),
            2 => self.accumulate2(x).to_vec(),
            w => {
                let mut acc = vec![0u128; w];
                for (&b, t) in x.iter().zip(self.table.chunks_exact(32 * w)) {
                    let lo = &t[(b & 15) as usize * w..][..w];
                    let hi = &t[(16 + (b >> 4) as usize) * w..][..w];
                    for k in 0..w {
                        acc[k] ^= lo[k] ^ hi[k];
                    }
                }
                acc
            }
        }
    }

    /// One word per image: SSE2 on x86-64, else [`NibbleMap::accumulate`].
    #[inline]
    fn accumulate1(&self, x: &[u8]) -> [u128; 1] {
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(x.len(), self.cols);
            // SAFETY: SSE2 is part of x86-64; the table has 32·cols words.
            [unsafe { super::x86::sse2_nibble_acc1(&self.table, x) }]
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.accumulate::<1>(x)
    }

    /// Two words per image: AVX2 when the CPU has it.
    #[inline]
    fn accumulate2(&self, x: &[u8]) -> [u128; 2] {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            assert_eq!(x.len(), self.cols);
            // SAFETY: AVX2 was detected in `new`; the table has 64·cols words.
            return unsafe { super::x86::avx2_nibble_acc2(&self.table, x) };
        }
        self.accumulate::<2>(x)
    }

    /// M·x by the portable twin (what the SIMD accumulations are tested
    /// against).
    pub fn apply_portable(&self, x: &[u8], out: &mut [u8]) {
        assert!(
            x.len() == self.cols && out.len() == self.rows,
            "NibbleMap::apply: wrong length"
        );
        let acc = match self.words {
            1 => self.accumulate::<1>(x).to_vec(),
            2 => self.accumulate::<2>(x).to_vec(),
            _ => self.packed(x),
        };
        for (r, o) in out.iter_mut().enumerate() {
            *o = (acc[r / 16] >> (8 * (r % 16))) as u8;
        }
    }

    /// out = M·x (`x.len() == cols`, `out.len() == rows`).
    pub fn apply(&self, x: &[u8], out: &mut [u8]) {
        assert!(
            x.len() == self.cols && out.len() == self.rows,
            "NibbleMap::apply: wrong length"
        );
        let acc = self.packed(x);
        for (r, o) in out.iter_mut().enumerate() {
            *o = (acc[r / 16] >> (8 * (r % 16))) as u8;
        }
    }

    /// Whether M·x = y (`false` on wrong lengths). The packed image is
    /// compared with `y` in 8-byte windows read straight from `y` (no copy
    /// of `y` into a padded buffer, whose byte stores a wide load could
    /// not forward), XORed and ORed without a branch per window.
    pub fn matches(&self, x: &[u8], y: &[u8]) -> bool {
        if x.len() != self.cols || y.len() != self.rows {
            return false;
        }
        match self.words {
            1 => same_bytes(&self.accumulate1(x), y),
            2 => same_bytes(&self.accumulate2(x), y),
            _ => {
                let mut out = vec![0u8; self.rows];
                self.apply(x, &mut out);
                out == y
            }
        }
    }
}

/// Bytes `s..s + 8` of the little-endian words `acc` (`s + 8 ≤ 16·W`).
#[inline]
fn window<const W: usize>(acc: &[u128; W], s: usize) -> u64 {
    let (w, o) = (s / 16, s % 16);
    let lo = acc[w] >> (8 * o);
    if o <= 8 {
        lo as u64
    } else {
        (lo | (acc[w + 1] << (128 - 8 * o))) as u64
    }
}

/// Whether the first `y.len()` bytes of `acc` (≤ 16·W) are `y`.
#[inline]
fn same_bytes<const W: usize>(acc: &[u128; W], y: &[u8]) -> bool {
    let r = y.len();
    debug_assert!(r <= 16 * W);
    if r < 8 {
        let diff = y.iter().enumerate().fold(0u8, |d, (i, &b)| {
            d | ((acc[i / 16] >> (8 * (i % 16))) as u8 ^ b)
        });
        return diff == 0;
    }
    let mut diff = 0u64;
    let mut s = 0;
    while s < r {
        // The last window ends at r (it may overlap the one before).
        let at = s.min(r - 8);
        let want = u64::from_le_bytes(y[at..at + 8].try_into().expect("8 bytes"));
        diff |= window(acc, at) ^ want;
        s += 8;
    }
    diff == 0
}
