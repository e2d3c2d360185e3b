//! Exact tests for the statistical adversary tests: a rate against its
//! analysed value (binomial, two-sided) and two rates against each other
//! (Fisher), plus the printed, replayable seed of a test's own draws.

/// ln C(n, k).
pub fn ln_choose(n: usize, k: usize) -> f64 {
    (1..=k).map(|j| ((n - k + j) as f64 / j as f64).ln()).sum()
}

/// ln P(X = k) for X ~ Bin(n, p), 0 < p < 1.
fn ln_binomial_pmf(n: usize, k: usize, p: f64) -> f64 {
    ln_choose(n, k) + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()
}

/// The acceptance interval [lo, hi] of a two-sided exact binomial test at
/// level `alpha`: X ~ Bin(n, p) falls below `lo` with probability ≤ α/2
/// and above `hi` with probability ≤ α/2 (equal tails).
pub fn binomial_interval(n: usize, p: f64, alpha: f64) -> (usize, usize) {
    assert!(0.0 < p && p < 1.0 && alpha > 0.0);
    let pmf: Vec<f64> = (0..=n).map(|k| ln_binomial_pmf(n, k, p).exp()).collect();
    let mut lo = 0;
    let mut tail = 0.0;
    while lo < n && tail + pmf[lo] <= alpha / 2.0 {
        tail += pmf[lo];
        lo += 1;
    }
    let mut hi = n;
    let mut tail = 0.0;
    while hi > 0 && tail + pmf[hi] <= alpha / 2.0 {
        tail += pmf[hi];
        hi -= 1;
    }
    (lo, hi)
}

/// P(X ≤ k) for X ~ Bin(n, p): how likely a rate `p` lands at or below
/// `k` (used to show that a test can fail).
pub fn binomial_cdf(n: usize, k: usize, p: f64) -> f64 {
    (0..=k.min(n))
        .map(|i| ln_binomial_pmf(n, i, p).exp())
        .sum::<f64>()
        .min(1.0)
}

/// Two-sided Fisher exact test of a 2×2 table: `a` events of `n1` runs
/// against `b` events of `n2`; the probability, given the total, of a
/// table at most as likely as this one.
pub fn fisher_two_sided(a: usize, n1: usize, b: usize, n2: usize) -> f64 {
    let k = a + b;
    let ln_p = |i: usize| ln_choose(n1, i) + ln_choose(n2, k - i) - ln_choose(n1 + n2, k);
    let lo = k.saturating_sub(n2);
    let hi = k.min(n1);
    let here = ln_p(a);
    (lo..=hi)
        .map(ln_p)
        .filter(|&l| l <= here + 1e-9)
        .map(f64::exp)
        .sum::<f64>()
        .min(1.0)
}

/// The seed of a test's own draws (inputs, rigged challenges):
/// `BRICKYARD_TEST_SEED` (hex with 0x, or decimal) or a fresh one; printed
/// either way. (A protocol's own coins come from the OS, as always.)
pub fn test_seed() -> u64 {
    let seed = match std::env::var("BRICKYARD_TEST_SEED") {
        Ok(v) => {
            let v = v.trim();
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => v.parse(),
            }
            .expect("BRICKYARD_TEST_SEED: a number")
        }
        Err(_) => {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        }
    };
    println!("input seed {seed:#x} (replay: BRICKYARD_TEST_SEED={seed:#x})");
    seed
}

/// A count from the environment variable `var`, else `default`.
pub fn env_count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fisher_test_rejects_what_it_should() {
        assert!((fisher_two_sided(3, 6, 3, 6) - 1.0).abs() < 1e-12);
        // 0/10 against 10/10: 2 / C(20, 10).
        assert!((fisher_two_sided(0, 10, 10, 10) - 2.0 / 184_756.0).abs() < 1e-12);
        assert!(fisher_two_sided(1, 40, 12, 40) < 0.01);
        assert!(fisher_two_sided(6, 40, 9, 40) > 0.3);
    }

    #[test]
    fn binomial_interval_has_the_asked_tails() {
        // Bin(10, 1/2): P(X = 0) = P(X = 10) = 2^-10; P(X ≤ 1) = 11·2^-10.
        assert_eq!(binomial_interval(10, 0.5, 2.0 * 2f64.powi(-10)), (1, 9));
        assert_eq!(
            binomial_interval(10, 0.5, 2.0 * 11.5 * 2f64.powi(-10)),
            (2, 8)
        );
        assert_eq!(binomial_interval(10, 0.5, 1e-6), (0, 10));
        let (lo, hi) = binomial_interval(200, 0.5, 2f64.powi(-20));
        let tail = binomial_cdf(200, lo - 1, 0.5);
        assert!(tail <= 2f64.powi(-21) && binomial_cdf(200, lo, 0.5) > 2f64.powi(-21));
        assert_eq!(lo + hi, 200);
        assert!((binomial_cdf(10, 1, 0.5) - 11.0 / 1024.0).abs() < 1e-12);
    }
}
