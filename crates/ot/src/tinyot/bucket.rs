//! Bucketing leaky AND triples into secure ones, and the bound that sizes
//! the buckets.
//!
//! **Combining** (NNOB12 / WRK17): a bucket of `B` leaky triples
//! `(x_j, y_j, z_j)` becomes one triple with `x = ⊕_j x_j`, `y = y_0`,
//! `z = ⊕_j (z_j ⊕ d_j·x_j)` where `d_j = y_0 ⊕ y_j` is opened (MAC-checked)
//! for `j ≥ 1`. Since `z_j = x_j·y_j = x_j·(y_0 ⊕ d_j)`, `z = x·y_0`. A
//! cheater who learned some `x_j` learns nothing about `x` unless it learned
//! every `x_j` of the bucket.
//!
//! **Bound** (derived here; WRK17 state the same shape without the
//! computation): `ℓ` buckets of `B` from `N = ℓB` leaky triples, randomly
//! permuted after the triples are fixed. A cheater attacks `t` triples;
//! each attack goes unnoticed independently with probability 1/2 (the
//! honest `x` share is uniform). It wins if some bucket is all attacked:
//! `Pr ≤ max_t 2^-t · min(1, ℓ·C(t,B)/C(N,B))`. [`bucket_size`] returns the
//! smallest `B` for which this is ≤ 2^-s; the maximum is over `t` from `B`
//! to `B + s + 600` (beyond, `2^-t` alone is far below 2^-s).

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error, Result};

/// Largest bucket the code will use (ℓ = 1 needs B = s = 40).
pub const MAX_BUCKET: usize = 64;

/// Most triples per bucketing batch (ℓ): the `Bℓ` leaky triples of a batch
/// are held and permuted together (≈ 200 bytes each per party). [`plan`]
/// only goes this high for B ≥ 3 when fewer triples would need a larger
/// bucket: with B = 3 (ℓ ≥ 276,325) it splits into batches below
/// 2·276,325, so 2^20 only keeps any `n` from 2^19 to 552,650 in one B = 3
/// batch instead of two B = 4 ones.
pub const TRIPLE_BATCH: usize = 1 << 20;

/// Fewest triples per batch that [`plan`] splits down to: each batch costs
/// a few round trips of its own (coin toss, equality check, opening).
pub const MIN_BATCH: usize = 1 << 14;

/// `log2` of the cheater's best winning probability for `ell` buckets of
/// size `b`.
pub fn bucket_failure_log2(ell: usize, b: usize) -> f64 {
    if ell == 0 || b == 0 {
        return 0.0;
    }
    let n = (ell * b) as f64;
    let ell_log = (ell as f64).log2();
    let mut worst = f64::NEG_INFINITY;
    let top = (ell * b).min(b + 640);
    for t in b..=top {
        let mut lg = ell_log;
        for i in 0..b {
            lg += ((t - i) as f64 / (n - i as f64)).log2();
        }
        worst = worst.max(-(t as f64) + lg.min(0.0));
    }
    worst
}

/// The smallest bucket size giving failure ≤ 2^-s for `ell` triples.
/// Refuses `s < 40` and sizes above [`MAX_BUCKET`].
pub fn bucket_size(s: usize, ell: usize) -> Result<usize> {
    if s < 40 {
        return Err(Error::config(format!(
            "statistical security s = {s} refused (need s ≥ 40)"
        )));
    }
    (2..=MAX_BUCKET)
        .find(|&b| bucket_failure_log2(ell, b) <= -(s as f64))
        .ok_or_else(|| {
            Error::config(format!(
                "no bucket size ≤ {MAX_BUCKET} reaches 2^-{s} for {ell} triples"
            ))
        })
}

/// Checks a caller-chosen bucket size against the bound.
pub fn check_bucket_size(s: usize, ell: usize, b: usize) -> Result<()> {
    let f = bucket_failure_log2(ell, b);
    if s < 40 || f > -(s as f64) {
        return Err(Error::config(format!(
            "bucket size {b} for {ell} triples gives failure 2^{f:.1} > 2^-{s}: refused"
        )));
    }
    Ok(())
}

/// How `n` requested triples are split into batches: `(batches, ℓ, B)`:
/// [`batch_sizes`] gives each batch `⌊n / batches⌋` or ℓ = `⌈n / batches⌉`
/// triples, and B reaches 2^-(s + ⌈log2 batches⌉) for every one of them,
/// so that the failure summed over all batches stays ≤ 2^-s (each batch is
/// bucketed on its own; a cheater wins if any batch fails).
///
/// The bucket size is the one the fewest batches of at most
/// [`TRIPLE_BATCH`] allow; then the batches are made as small as that bucket
/// size permits (but not below [`MIN_BATCH`]): the same work per triple in
/// less memory (for B = 3, ℓ ≥ 276,325 instead of up to 2^19).
pub fn plan(s: usize, n: usize) -> Result<(usize, usize, usize)> {
    // Raise the per-batch target until it covers the batch count it yields
    // (more batches need a larger B, which may allow smaller batches).
    let mut extra = 0;
    for _ in 0..64 {
        let (batches, ell, b) = plan_per_batch(s + extra, n)?;
        let need = batches.next_power_of_two().trailing_zeros() as usize;
        if need <= extra {
            return Ok((batches, ell, b));
        }
        extra = need;
    }
    Err(Error::config(format!(
        "no batch plan for {n} triples reaches 2^-{s} over all batches"
    )))
}

/// [`plan`] with every batch at 2^-s (not summed over batches).
fn plan_per_batch(s: usize, n: usize) -> Result<(usize, usize, usize)> {
    let fewest = n.div_ceil(TRIPLE_BATCH).max(1);
    let b = bucket_size(s, n.div_ceil(fewest).max(1))?;
    let ell_min = smallest_batch(s, b, n.div_ceil(fewest).max(1)).max(MIN_BATCH);
    let batches = fewest.max(n / ell_min);
    let ell = n.div_ceil(batches).max(1);
    debug_assert!(bucket_failure_log2(ell, b) <= -(s as f64));
    Ok((batches, ell, b))
}

/// The triples of each of `batches` batches splitting `n` as evenly as
/// possible (sizes differ by at most one, larger first).
pub fn batch_sizes(n: usize, batches: usize) -> impl Iterator<Item = usize> {
    let batches = batches.max(1);
    (0..batches).map(move |k| n / batches + usize::from(k < n % batches))
}

/// The smallest `ℓ ≤ hi` for which bucket size `b` reaches 2^-s (the
/// failure bound decreases with ℓ for fixed `b ≥ 2`); `hi` must reach it.
fn smallest_batch(s: usize, b: usize, hi: usize) -> usize {
    let ok = |ell: usize| bucket_failure_log2(ell, b) <= -(s as f64);
    let (mut lo, mut hi) = (1, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    hi
}

/// Piles of the two-pass shuffle (a power of two ≤ 256). With ~10^6 leaky
/// triples of 96 bytes a pile is ≈ 3 MB, so the random reads of bucketing
/// stay within one pile's pages at a time, while the scatter writes only 32
/// sequential streams (measured: 32 piles cost less than 8, 16, 64 or 256).
pub(crate) const PILES: usize = 32;

/// Reused buffers of the two-pass shuffle.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
#[derive(Default)]
pub(crate) struct PermScratch {
    labels: Vec<u8>,
    start: Vec<usize>,
}

/// A uniformly random permutation of `n` elements (Rao–Sandelius) without
/// a random access per element over the whole array, in two steps.
///
/// [`pile_scatter`]: every element draws a uniform pile label and
/// `place(i, slot)` puts source element `i` at `slot`, piles laid out in
/// label order, each written sequentially (a stable scatter).
/// [`pile_order`]: each pile gets a uniform Fisher–Yates order of its
/// slots, and the slots are listed in that order, pile by pile (so
/// consecutive reads stay within one pile: a few hundred pages).
/// Independent uniform labels followed by uniform in-pile orders give every
/// permutation the same probability, exactly as one Fisher–Yates over the
/// whole array would.
pub(crate) fn pile_scatter(
    prg: &mut Prg,
    n: usize,
    sc: &mut PermScratch,
    mut place: impl FnMut(usize, usize),
) {
    sc.labels.resize(n, 0);
    prg.fill_bytes(&mut sc.labels);
    // A uniform byte masked to its low bits is a uniform pile label.
    for l in sc.labels.iter_mut() {
        *l &= (PILES - 1) as u8;
    }
    sc.start.clear();
    sc.start.resize(PILES + 1, 0);
    for &l in &sc.labels {
        sc.start[l as usize + 1] += 1;
    }
    for p in 0..PILES {
        sc.start[p + 1] += sc.start[p];
    }
    let mut next = [0usize; PILES];
    next.copy_from_slice(&sc.start[..PILES]);
    for (i, &l) in sc.labels.iter().enumerate() {
        place(i, next[l as usize]);
        next[l as usize] += 1;
    }
}

/// The second step of [`pile_scatter`] (same `prg`, same `sc`): appends
/// every slot to `order` in the final order, each pile's slots in a
/// uniform Fisher–Yates order.
pub(crate) fn pile_order(prg: &mut Prg, sc: &mut PermScratch, order: &mut Vec<u32>) {
    let mut words = Words::default();
    for p in 0..PILES {
        let (a, b) = (sc.start[p], sc.start[p + 1]);
        let from = order.len();
        order.extend(a as u32..b as u32);
        shuffle_u32(prg, &mut words, &mut order[from..]);
    }
}

/// Random 32-bit words drawn from a PRG a buffer at a time.
struct Words {
    buf: [Block; 64],
    /// Next unread word (256 = empty).
    pos: usize,
}

impl Default for Words {
    fn default() -> Self {
        Words {
            buf: [Block::ZERO; 64],
            pos: 256,
        }
    }
}

impl Words {
    #[inline]
    fn next(&mut self, prg: &mut Prg) -> u32 {
        if self.pos == 256 {
            prg.fill_blocks(&mut self.buf);
            self.pos = 0;
        }
        let w = (self.buf[self.pos / 4].0 >> (32 * (self.pos % 4))) as u32;
        self.pos += 1;
        w
    }
}

/// Uniform Fisher–Yates shuffle of `v` (`v.len() ≤ 2^32`), each index
/// drawn with Lemire's multiply-and-reject on 32-bit words: exactly
/// uniform (a draw is rejected when its low word falls below
/// `2^32 mod range`), four draws per AES block.
fn shuffle_u32(prg: &mut Prg, words: &mut Words, v: &mut [u32]) {
    for i in (1..v.len()).rev() {
        let range = i as u64 + 1;
        let mut m = words.next(prg) as u64 * range;
        if (m as u32 as u64) < range {
            let threshold = (1u64 << 32) % range;
            while ((m as u32) as u64) < threshold {
                m = words.next(prg) as u64 * range;
            }
        }
        v.swap(i, (m >> 32) as usize);
    }
}

/// A uniformly random permutation of `src` into `dst` (the two steps
/// above; the tests' view of them).
#[cfg(test)]
pub(crate) fn shuffle_into<T: Copy + Default>(prg: &mut Prg, src: &[T], dst: &mut Vec<T>) {
    let mut piles = vec![T::default(); src.len()];
    let mut sc = PermScratch::default();
    pile_scatter(prg, src.len(), &mut sc, |i, slot| piles[slot] = src[i]);
    let mut order = Vec::new();
    pile_order(prg, &mut sc, &mut order);
    dst.clear();
    dst.extend(order.iter().map(|&slot| piles[slot as usize]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_pass_shuffle_is_uniform_and_a_permutation() {
        // All 24 orders of 4 elements, 48 000 draws: each ≈ 2000
        // (σ ≈ 44); a biased method (e.g. piles without the in-pile
        // shuffle) fails this by hundreds of σ.
        let mut prg = Prg::from_seed(Block(7));
        let mut counts = std::collections::HashMap::new();
        let mut dst = Vec::new();
        for _ in 0..48_000 {
            shuffle_into(&mut prg, &[0u8, 1, 2, 3], &mut dst);
            *counts.entry(dst.clone()).or_insert(0usize) += 1;
        }
        assert_eq!(counts.len(), 24);
        for (k, &c) in &counts {
            assert!((1750..2250).contains(&c), "{k:?}: {c}");
        }
        let src: Vec<u32> = (0..100_000).collect();
        let mut out = Vec::new();
        shuffle_into(&mut prg, &src, &mut out);
        let moved = out
            .iter()
            .enumerate()
            .filter(|(i, &v)| *i as u32 != v)
            .count();
        assert!(moved > 99_000);
        out.sort_unstable();
        assert_eq!(out, src);
    }

    #[test]
    fn bucket_sizes_follow_the_bound() {
        assert_eq!(bucket_size(40, 1).unwrap(), 40);
        assert_eq!(bucket_size(40, 1000).unwrap(), 5);
        assert_eq!(bucket_size(40, 1 << 16).unwrap(), 4);
        assert_eq!(bucket_size(40, TRIPLE_BATCH).unwrap(), 3);
        assert_eq!(plan(40, 524_800).unwrap(), (1, 524_800, 3));
        // 2^18 misses 2^-40 with B = 3 by a hair: the code must not round.
        assert!(bucket_failure_log2(1 << 18, 3) > -40.0);
        assert!(check_bucket_size(40, 1 << 18, 3).is_err());
        assert!(check_bucket_size(40, 1 << 18, 4).is_ok());
        assert!(bucket_size(39, 1000).is_err());
        assert!(bucket_size(80, 1000).unwrap() > 5);
        let (b, ell, size) = plan(40, 3 * TRIPLE_BATCH + 1).unwrap();
        assert!(b >= 4);
        assert!(ell * b > 3 * TRIPLE_BATCH);
        assert_eq!(size, bucket_size(40, ell).unwrap());
        // Batches shrink to the smallest ℓ the bucket size allows.
        assert_eq!(smallest_batch(40, 3, TRIPLE_BATCH), 276_325);
        // One batch at 2^-40 each would need three (and then 2^-42 each):
        // B = 3 reaches 2^-42 on one batch of 10^6.
        assert_eq!(plan(40, 1_000_000).unwrap(), (1, 1_000_000, 3));
        assert_eq!(plan(40, 600_000).unwrap(), (1, 600_000, 3));
        assert_eq!(plan(40, 300_000).unwrap(), (1, 300_000, 3));
        // Six batches: each at 2^-43.
        assert_eq!(plan(40, 100_000).unwrap(), (6, 16_667, 4));
        for n in [1, 7, 1000, 276_325, 552_650, 552_651, 9_947_710, 10_000_000] {
            let (batches, ell, b) = plan(40, n).unwrap();
            // The bound summed over every batch stays ≤ 2^-40.
            let total = batch_sizes(n, batches)
                .map(|m| bucket_failure_log2(m, b).exp2())
                .sum::<f64>();
            assert!(total <= 2f64.powi(-40), "{n}: {}", total.log2());
            assert!(batches * ell >= n && ell <= TRIPLE_BATCH, "{n}");
            let sizes: Vec<usize> = batch_sizes(n, batches).collect();
            assert_eq!(sizes.iter().sum::<usize>(), n);
            assert!(sizes.iter().all(|&m| m <= ell), "{n}");
            assert!(
                sizes.iter().all(|&m| check_bucket_size(40, m, b).is_ok()),
                "{n}"
            );
            // Never a larger bucket than 2^-(40 + log2 batches) needs on
            // the batches it makes (10^7 triples: 324 batches of B = 4).
            let extra = batches.next_power_of_two().trailing_zeros() as usize;
            assert!(b <= bucket_size(40 + extra, ell).unwrap(), "{n}");
            assert!(n <= 1000 || b <= 4, "{n}");
        }
    }

    #[test]
    fn failure_is_monotone_in_bucket_size() {
        for ell in [10, 1000, 100_000] {
            let f: Vec<f64> = (2..8).map(|b| bucket_failure_log2(ell, b)).collect();
            assert!(f.windows(2).all(|w| w[1] < w[0]), "{ell}: {f:?}");
        }
    }
}
