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
use brickyard_core::{Error, Result};

/// Largest bucket the code will use (ℓ = 1 needs B = s = 40).
pub const MAX_BUCKET: usize = 64;

/// Leaky triples per bucketing batch: at 2^19, B = 3 meets s = 40 with
/// margin (log2 failure −41.8), and a batch's leaky triples (≈ 230 MB per
/// party) still fit in memory.
pub const TRIPLE_BATCH: usize = 1 << 19;

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

/// How `n` requested triples are split into batches: `(batches, ℓ per
/// batch, B)`, with equal batch sizes (the last may be smaller).
pub fn plan(s: usize, n: usize) -> Result<(usize, usize, usize)> {
    let batches = n.div_ceil(TRIPLE_BATCH).max(1);
    let ell = n.div_ceil(batches);
    Ok((batches, ell, bucket_size(s, ell.max(1))?))
}

/// Piles of the two-pass shuffle: with 2^19·3 triples of 144 bytes a pile
/// is ≈ 900 KB, so its in-pile shuffle runs in L2.
const PILES: usize = 256;

/// A uniformly random permutation of `src` into `dst`, cache-friendly
/// (Rao–Sandelius): every element draws a uniform pile label, the piles are
/// laid out in label order (stable scatter: each pile is written
/// sequentially), then each pile gets a uniform Fisher–Yates shuffle.
/// Independent uniform labels followed by uniform in-pile orders give every
/// permutation the same probability, exactly as one Fisher–Yates over the
/// whole array would, without its cache miss per element.
pub(crate) fn shuffle_into<T: Copy + Default>(prg: &mut Prg, src: &[T], dst: &mut Vec<T>) {
    let mut labels = vec![0u8; src.len()];
    prg.fill_bytes(&mut labels);
    let mut start = [0usize; PILES + 1];
    for &l in &labels {
        start[l as usize + 1] += 1;
    }
    for p in 0..PILES {
        start[p + 1] += start[p];
    }
    dst.clear();
    dst.resize(src.len(), T::default());
    let mut next = start;
    for (x, &l) in src.iter().zip(&labels) {
        dst[next[l as usize]] = *x;
        next[l as usize] += 1;
    }
    for p in 0..PILES {
        prg.shuffle(&mut dst[start[p]..start[p + 1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::Block;

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
        // 2^18 misses 2^-40 with B = 3 by a hair: the code must not round.
        assert!(bucket_failure_log2(1 << 18, 3) > -40.0);
        assert!(check_bucket_size(40, 1 << 18, 3).is_err());
        assert!(check_bucket_size(40, 1 << 18, 4).is_ok());
        assert!(bucket_size(39, 1000).is_err());
        assert!(bucket_size(80, 1000).unwrap() > 5);
        let (b, ell, size) = plan(40, 3 * TRIPLE_BATCH + 1).unwrap();
        assert_eq!(b, 4);
        assert!(ell * b > 3 * TRIPLE_BATCH);
        assert_eq!(size, bucket_size(40, ell).unwrap());
    }

    #[test]
    fn failure_is_monotone_in_bucket_size() {
        for ell in [10, 1000, 100_000] {
            let f: Vec<f64> = (2..8).map(|b| bucket_failure_log2(ell, b)).collect();
            assert!(f.windows(2).all(|w| w[1] < w[0]), "{ell}: {f:?}");
        }
    }
}
