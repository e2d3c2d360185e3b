//! LEGO cut-and-choose parameters of JIMU (Sec. 6.3): the bucket size `B`
//! and the number `T` of garbled AND gates for `N` AND gates, decided in
//! exact integer arithmetic.
//!
//! The paper's formulas for `P_c` and `P_e` were lost in the text
//! extraction; they are reconstructed from the prose (and reproduce the
//! paper's `T` for DES and Compare exactly, AES and Hamming within 0.01 %
//! from above; `docs/protocols/jimu.md`). Alice makes `b` of the `T` gates
//! faulty; Bob checks `C = T − BN` of them and each faulty checked gate
//! escapes with probability at most 1/2 (Lemma 5.3). With `t` faulty among
//! the checked gates:
//!
//! ```text
//! P_c(t) = C(b,t)·C(T−b, C−t) / C(T, C)             (hypergeometric)
//! P_e(t) ≤ N·C(b−t, B) / C(BN, B)                    (some bucket all faulty; union bound)
//! F(b)   = Σ_{t=0}^{b−B} 2^-t · P_c(t) · P_e(t)      (the printed sum starts at t = 1: that
//!                                                      omits "no faulty gate checked", the
//!                                                      likeliest way to cheat; t = 0 is kept)
//! secure ⇔ max_b F(b) ≤ 2^-s,   T_B = the smallest such T for bucket size B.
//! ```
//!
//! **The range of `b`.** The paper says `b` need only go "slightly above
//! s"; for these sizes the worst `b` is 50–145 and it grows with `N`, so
//! a fixed cut would under-size `T`. The search instead runs until a
//! proven tail bound takes over: `(b−t)_B/(BN)_B ≤ min(1, (b/BN)^B)`, and
//! `Σ_t 2^-t P_c(t) = E[2^-X]` for the hypergeometric `X`, which Hoeffding
//! (1963, Thm. 4: sampling without replacement is dominated in convex
//! order) bounds by the binomial's `(1 − C/(2T))^b`. So
//! `F(b) ≤ U(b) = N·min(1, (b/BN)^B)·(1 − C/(2T))^b`, whose ratio
//! `U(b+1)/U(b) ≤ ((b+1)/b)^B (1 − C/(2T))` falls with `b`: from the first
//! `b` where that ratio is ≤ 1 and `U(b) ≤ 2^-s`, every larger `b` is
//! safe. Both conditions are decided on integers.
//!
//! **Exactness.** Multiplying `F(b) ≤ 2^-s` by `2^b (T)_b (BN)_B`
//! (falling factorials) leaves integers only:
//! `2^s N Σ_t 2^{b−t} C(b,t) (C)_t (BN)_{b−t} (b−t)_B ≤ 2^b (T)_b (BN)_B`,
//! summed by Horner's rule over the term ratio
//! `(C−t)(b−t−B) / (2(t+1)(BN−b+t+1))`. A float version of the same sum
//! only guides the search for `T`; every `T` returned was checked exactly
//! to hold and `T − 1` to fail (`P_overall` decreases in `T`, Sec. 6.3).

use brickyard_core::bigint::BigUint;
use brickyard_core::{Error, Result};
use serde::Serialize;

/// Default statistical security parameter (the paper's).
pub const S: u32 = 40;
/// Largest `N` (and `T`): keeps every factor of the exact sum in a `u64`.
pub const MAX_GATES: u64 = 1 << 40;
/// Largest number of faulty gates the tail bound may need; far above any
/// `N ≤ 2^40` at `s ≤ 128` (the cut is at a few hundred for `N ≈ 10^5`).
const MAX_B: u64 = 1 << 20;
/// Largest statistical security parameter accepted.
pub const MAX_S: u32 = 128;

/// How far the search over the number `b` of faulty gates goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// Check `b` up to `extend ×` the proven cut (1 = the cut; tests use 2
    /// to see that the optimum does not move).
    pub extend: u64,
}

impl Default for Range {
    fn default() -> Self {
        Range { extend: 1 }
    }
}

/// Cut-and-choose parameters for `N` AND gates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CutAndChoose {
    /// AND gates of the circuit (`N`).
    pub and_gates: u64,
    /// Statistical security parameter.
    pub s: u32,
    /// Gates per bucket (`B`).
    pub bucket: u32,
    /// Garbled gates in all (`T`); `T − BN` of them are checked.
    pub total: u64,
    /// `T / N` (the paper's κ; Theorem 6.2: must exceed 2).
    pub kappa: f64,
    /// The number of faulty gates that maximises `F(b)` at `T`.
    pub worst_faulty: u64,
    /// `log2 max_b F(b)` at `T` (display only; the decision is exact).
    pub bound_log2: f64,
    /// The largest `b` checked exactly at `T` (where the tail bound took over).
    pub faulty_searched: u64,
}

/// The exact verdict for one `(N, B, T, s)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Whether `F(b) ≤ 2^-s` for every `b`.
    pub holds: bool,
    /// The `b` with the largest `F(b)` among those checked (if holds) or
    /// the first `b` that breaks the bound.
    pub worst_faulty: u64,
    /// `log2 F(worst_faulty)` (display only).
    pub worst_log2: f64,
    /// The largest `b` checked.
    pub faulty_searched: u64,
}

struct Sizes {
    n: u64,
    bucket: u64,
    bn: u64,
    c: u64,
    t: u64,
    s: u32,
}

impl Sizes {
    fn new(n: u64, bucket: u32, t: u64, s: u32) -> Result<Sizes> {
        if n == 0 || n > MAX_GATES || t > MAX_GATES {
            return Err(Error::config(format!(
                "jimu params: N = {n}, T = {t} outside 1..=2^40"
            )));
        }
        if !(1..=MAX_S).contains(&s) {
            return Err(Error::config(format!(
                "jimu params: s = {s} outside 1..={MAX_S}"
            )));
        }
        let bucket = bucket as u64;
        let bn = n
            .checked_mul(bucket)
            .filter(|&bn| bucket >= 1 && bn < t)
            .ok_or_else(|| {
                Error::config(format!(
                    "jimu params: T = {t} leaves no gate to check for N = {n}, B = {bucket}"
                ))
            })?;
        Ok(Sizes {
            n,
            bucket,
            bn,
            c: t - bn,
            t,
            s,
        })
    }

    /// Whether the tail bound takes over at `b` (see the module docs):
    /// `(b+1)^B (2T − C) ≤ b^B · 2T` and `2^s N min(b,BN)^B (2T−C)^b ≤ (BN)^B (2T)^b`.
    fn tail_from(&self, b: u64) -> bool {
        let pow = |x: u64, e: u64| {
            let mut r = BigUint::from_u64(1);
            for _ in 0..e {
                r.mul_u64(x);
            }
            r
        };
        let (two_t, two_t_c) = (2 * self.t, 2 * self.t - self.c);
        let falling = pow(b + 1, self.bucket).mul(&BigUint::from_u64(two_t_c))
            <= pow(b, self.bucket).mul(&BigUint::from_u64(two_t));
        if !falling {
            return false;
        }
        let mut lhs = pow(b.min(self.bn), self.bucket).mul(&pow(two_t_c, b));
        lhs.mul_u64(self.n);
        lhs.shl(self.s);
        lhs <= pow(self.bn, self.bucket).mul(&pow(two_t, b))
    }

    /// The range of `t` with a nonzero term: at least `b − BN` faulty gates
    /// must be checked, at most `C` can be, and a bucket needs `B`.
    fn t_range(&self, b: u64) -> Option<(u64, u64)> {
        let lo = b.saturating_sub(self.bn);
        let hi = self.c.min(b.checked_sub(self.bucket)?);
        (lo <= hi).then_some((lo, hi))
    }

    /// `p_t / q_t`, the ratio of term `t+1` to term `t`.
    fn ratio(&self, b: u64, t: u64) -> (u64, u64) {
        let p = (self.c - t) * (b - t - self.bucket);
        let q = 2 * (t + 1) * (self.bn + t + 1 - b);
        (p, q)
    }

    /// `F(b) ≤ 2^-s`, exactly; with `log2 F(b)` for display.
    fn exact(&self, b: u64) -> (bool, f64) {
        let Some((lo, hi)) = self.t_range(b) else {
            return (true, f64::NEG_INFINITY);
        };
        // Horner: Σ_{t=lo}^{hi} a_t = a_lo · U/V.
        let (mut u, mut v) = (BigUint::from_u64(1), BigUint::from_u64(1));
        for t in (lo..hi).rev() {
            let (p, q) = self.ratio(b, t);
            let mut qv = v.clone();
            qv.mul_u64(q);
            u.mul_u64(p);
            u.add_assign(&qv);
            v = qv;
        }
        // a_lo = 2^{b−lo} C(b,lo) (C)_lo (BN)_{b−lo} (b−lo)_B.
        let mut a = BigUint::from_u64(1);
        for i in 0..lo {
            a.mul_u64(b - i);
            let r = a.div_rem_u64(i + 1);
            debug_assert_eq!(r, Some(0), "binomial coefficients divide exactly");
        }
        for i in 0..lo {
            a.mul_u64(self.c - i);
        }
        for i in 0..b - lo {
            a.mul_u64(self.bn - i);
        }
        for i in 0..self.bucket {
            a.mul_u64(b - lo - i);
        }
        a.shl((b - lo) as u32);
        let mut lhs = a.mul(&u);
        lhs.mul_u64(self.n);
        // 2^b (T)_b (BN)_B · V.
        let mut rhs = v;
        for i in 0..b {
            rhs.mul_u64(self.t - i);
        }
        for i in 0..self.bucket {
            rhs.mul_u64(self.bn - i);
        }
        rhs.shl(b as u32);
        let log2 = lhs.log2() - rhs.log2();
        lhs.shl(self.s);
        (lhs <= rhs, log2)
    }

    /// `ln F(b)` in floats (guides the search for `T`; never decides).
    fn approx_ln(&self, b: u64) -> f64 {
        let Some((lo, hi)) = self.t_range(b) else {
            return f64::NEG_INFINITY;
        };
        let ln = |x: u64| (x as f64).ln();
        let mut la = (b - lo) as f64 * std::f64::consts::LN_2 + ln(self.n);
        for i in 0..lo {
            la += ln(b - i) - ln(i + 1) + ln(self.c - i);
        }
        for i in 0..b - lo {
            la += ln(self.bn - i);
        }
        for i in 0..self.bucket {
            la += ln(b - lo - i) - ln(self.bn - i);
        }
        for i in 0..b {
            la -= ln(self.t - i) + std::f64::consts::LN_2;
        }
        // Σ exp(ln a_t) with the largest term factored out.
        let mut terms = Vec::with_capacity((hi - lo + 1) as usize);
        let mut l = la;
        for t in lo..=hi {
            terms.push(l);
            if t < hi {
                let (p, q) = self.ratio(b, t);
                l += ln(p) - ln(q);
            }
        }
        let m = terms.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        m + terms.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
    }

    /// Walks `b = B, B+1, …` until the tail bound takes over (then on to
    /// `extend ×` that point): exact when `exact`, else floats.
    fn check(&self, range: Range, exact: bool) -> Verdict {
        let ln2s = -(self.s as f64) * std::f64::consts::LN_2;
        let mut worst = (f64::NEG_INFINITY, self.bucket);
        let mut cut = None;
        let mut b = self.bucket;
        loop {
            let (ok, log2) = if exact {
                self.exact(b)
            } else {
                let l = self.approx_ln(b);
                (l <= ln2s, l / std::f64::consts::LN_2)
            };
            if !ok {
                return Verdict {
                    holds: false,
                    worst_faulty: b,
                    worst_log2: log2,
                    faulty_searched: b,
                };
            }
            if log2 > worst.0 {
                worst = (log2, b);
            }
            if cut.is_none() && (b >= self.t || self.tail_from(b)) {
                cut = Some(b);
            }
            if let Some(c) = cut {
                if b >= self.t || b >= c.saturating_mul(range.extend) {
                    break;
                }
            }
            if b >= MAX_B {
                // Unreachable for N, T ≤ 2^40 (the tail takes over long
                // before); refuse rather than truncate.
                return Verdict {
                    holds: false,
                    worst_faulty: b,
                    worst_log2: f64::NAN,
                    faulty_searched: b,
                };
            }
            b += 1;
        }
        Verdict {
            holds: true,
            worst_faulty: worst.1,
            worst_log2: worst.0,
            faulty_searched: b,
        }
    }
}

/// Decides, exactly, whether `T` garbled gates in buckets of `B` protect
/// `N` AND gates except with probability `2^-s`.
pub fn verdict(n: u64, bucket: u32, t: u64, s: u32, range: Range) -> Result<Verdict> {
    Ok(Sizes::new(n, bucket, t, s)?.check(range, true))
}

/// The smallest `T` with the float guide: doubling, then bisection, over
/// `(BN, cap]`; `None` if even `cap` misses.
fn approx_t(n: u64, bucket: u32, s: u32, cap: u64, range: Range) -> Result<Option<u64>> {
    let bn = n * bucket as u64;
    if bn >= cap {
        return Ok(None);
    }
    let holds =
        |t: u64| -> Result<bool> { Ok(Sizes::new(n, bucket, t, s)?.check(range, false).holds) };
    let (mut lo, mut step) = (bn, n.max(1));
    let mut hi = loop {
        let t = bn.saturating_add(step).min(cap);
        if holds(t)? {
            break t;
        }
        if t == cap {
            return Ok(None);
        }
        lo = t;
        step = step.saturating_mul(2);
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if holds(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi))
}

/// The exact `T_B` near a float guess: up until it holds, down while
/// `T − 1` still holds.
fn exact_t(n: u64, bucket: u32, s: u32, guess: u64, range: Range) -> Result<(u64, Verdict)> {
    let bn = n * bucket as u64;
    let mut t = guess;
    let mut v = verdict(n, bucket, t, s, range)?;
    while !v.holds {
        t += 1;
        if t > MAX_GATES {
            return Err(Error::config("jimu params: no T up to 2^40"));
        }
        v = verdict(n, bucket, t, s, range)?;
    }
    while t - 1 > bn {
        let below = verdict(n, bucket, t - 1, s, range)?;
        if !below.holds {
            break;
        }
        t -= 1;
        v = below;
    }
    Ok((t, v))
}

impl CutAndChoose {
    /// The smallest `T` over bucket sizes `B = 2, 3, …` (pruned once `BN`
    /// reaches the best `T`), with ties going to the smaller `B`.
    pub fn optimise(n: u64, s: u32) -> Result<Self> {
        Self::optimise_in(n, s, Range::default())
    }

    /// [`CutAndChoose::optimise`] with an explicit search range for `b`.
    pub fn optimise_in(n: u64, s: u32, range: Range) -> Result<Self> {
        Sizes::new(n, 1, n + 1, s)?;
        // Float guesses per B first; then exact T_B for every B whose guess
        // is within 1 % of the best guess (the float error is far smaller).
        let mut guesses: Vec<(u32, u64)> = Vec::new();
        let mut best = MAX_GATES;
        let mut bucket = 2u32;
        while n.saturating_mul(bucket as u64) < best {
            if let Some(t) = approx_t(n, bucket, s, best, range)? {
                best = best.min(t);
                guesses.push((bucket, t));
            }
            bucket += 1;
        }
        let mut found: Option<Self> = None;
        for (bucket, guess) in guesses {
            if guess as f64 > best as f64 * 1.01 {
                continue;
            }
            let (t, v) = exact_t(n, bucket, s, guess, range)?;
            if found.as_ref().is_none_or(|f| t < f.total) {
                found = Some(Self::from_verdict(n, s, bucket, t, &v));
            }
        }
        found.ok_or_else(|| Error::config(format!("jimu params: no T up to 2^40 for N = {n}")))
    }

    /// The smallest `T` for a given bucket size (refused if none ≤ 2^40).
    pub fn for_bucket(n: u64, bucket: u32, s: u32) -> Result<Self> {
        if bucket < 2 {
            return Err(Error::config("jimu params: bucket size below 2"));
        }
        let guess = approx_t(n, bucket, s, MAX_GATES, Range::default())?
            .ok_or_else(|| Error::config(format!("jimu params: B = {bucket} needs T > 2^40")))?;
        let (t, v) = exact_t(n, bucket, s, guess, Range::default())?;
        Ok(Self::from_verdict(n, s, bucket, t, &v))
    }

    /// An explicit `(B, T)`, refused (`Config`) unless the exact bound holds:
    /// the only way to override the search, so an insecure choice never
    /// reaches the protocol.
    pub fn checked(n: u64, bucket: u32, t: u64, s: u32) -> Result<Self> {
        let v = verdict(n, bucket, t, s, Range::default())?;
        if !v.holds {
            return Err(Error::config(format!(
                "jimu params: B = {bucket}, T = {t} for N = {n}: b = {} faulty gates give 2^{:.2} > 2^-{s}",
                v.worst_faulty, v.worst_log2
            )));
        }
        Ok(Self::from_verdict(n, s, bucket, t, &v))
    }

    fn from_verdict(n: u64, s: u32, bucket: u32, t: u64, v: &Verdict) -> Self {
        CutAndChoose {
            and_gates: n,
            s,
            bucket,
            total: t,
            kappa: t as f64 / n as f64,
            worst_faulty: v.worst_faulty,
            bound_log2: v.worst_log2,
            faulty_searched: v.faulty_searched,
        }
    }

    /// Gates checked in cut-and-choose (`T − BN`).
    pub fn checked_gates(&self) -> u64 {
        self.total - self.bucket as u64 * self.and_gates
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sec. 7's applications: (N, the paper's T). DES and Compare are
    /// reproduced exactly; AES and Hamming within 0.1 %, never below.
    const PAPER: [(&str, u64, u64, bool); 4] = [
        ("DES", 18_175, 97_593, true),
        ("Compare 10K", 10_000, 55_973, true),
        ("AES", 6_800, 39_535, false),
        ("Hamming 2048", 4_087, 25_432, false),
    ];

    #[test]
    fn paper_rows() {
        for (name, n, t, exact) in PAPER {
            let p = CutAndChoose::optimise(n, 40).unwrap();
            eprintln!("{name}: {p:?}");
            assert_eq!(p.bucket, 5, "{name}");
            if exact {
                assert_eq!(p.total, t, "{name}");
            } else {
                assert!(
                    p.total >= t && (p.total - t) * 1000 <= t,
                    "{name}: {} vs {t}",
                    p.total
                );
            }
            // The returned T holds exactly and T − 1 does not.
            assert!(verdict(n, 5, p.total, 40, Range::default()).unwrap().holds);
            assert!(
                !verdict(n, 5, p.total - 1, 40, Range::default())
                    .unwrap()
                    .holds
            );
            assert!(p.bound_log2 <= -40.0 && p.bound_log2 > -40.1, "{name}");
        }
    }

    #[test]
    fn doubling_the_faulty_range_moves_nothing() {
        for (name, n, _, _) in PAPER {
            let a = CutAndChoose::optimise(n, 40).unwrap();
            let b = CutAndChoose::optimise_in(n, 40, Range { extend: 2 }).unwrap();
            assert_eq!(
                (a.bucket, a.total, a.worst_faulty),
                (b.bucket, b.total, b.worst_faulty),
                "{name}"
            );
            assert!(
                b.faulty_searched >= 2 * a.faulty_searched - 1,
                "{name}: {b:?}"
            );
            // The worst b is well inside the range, and far above s.
            assert!(
                a.worst_faulty < a.faulty_searched && a.worst_faulty > 40,
                "{name}: {a:?}"
            );
        }
    }

    #[test]
    fn truncating_b_near_s_would_undersize_t() {
        // What the paper's "b slightly above s" would do for DES: every b up
        // to 50 holds at a T far below the real T_5, yet b = 145 breaks it.
        let (n, t) = (18_175, 97_000);
        let s = Sizes::new(n, 5, t, 40).unwrap();
        assert!((5..=50).all(|b| s.exact(b).0));
        assert!(!s.exact(145).0);
        assert!(!verdict(n, 5, t, 40, Range::default()).unwrap().holds);
    }

    #[test]
    fn other_bucket_sizes_and_the_float_guide() {
        // The A1.5 note's values for N = 6800.
        assert_eq!(
            CutAndChoose::for_bucket(6_800, 4, 40).unwrap().total,
            55_597
        );
        assert_eq!(
            CutAndChoose::for_bucket(6_800, 6, 40).unwrap().total,
            42_753
        );
        // Float and exact agree on which side of 2^-40 each b lies, away
        // from the boundary.
        let s = Sizes::new(6_800, 5, 39_539, 40).unwrap();
        for b in 5..=120 {
            let (ok, l2) = s.exact(b);
            let f = s.approx_ln(b) / std::f64::consts::LN_2;
            assert!(
                (f - l2).abs() < 1e-6 * l2.abs().max(1.0),
                "b = {b}: {f} vs {l2}"
            );
            assert_eq!(ok, l2 <= -40.0, "b = {b}");
        }
    }

    #[test]
    fn exact_sum_matches_a_direct_rational_sum() {
        // A toy size where the sum can be formed term by term with binomials.
        let (n, bucket, t, s) = (3u64, 2u32, 14u64, 4u32);
        let z = Sizes::new(n, bucket, t, s).unwrap();
        let binom = |a: u64, k: u64| -> BigUint {
            if k > a {
                return BigUint::from_u64(0);
            }
            let mut r = BigUint::from_u64(1);
            for i in 0..k {
                r.mul_u64(a - i);
                let _ = r.div_rem_u64(i + 1);
            }
            r
        };
        let (bn, c) = (n * bucket as u64, t - n * bucket as u64);
        for b in bucket as u64..=t {
            // F(b) = Σ_t 2^-t C(b,t)C(T−b,C−t)/C(T,C) · N C(b−t,B)/C(BN,B):
            // over the denominator 2^b C(T,C) C(BN,B).
            let mut num = BigUint::from_u64(0);
            for k in 0..=b.min(c) {
                if b - k > bn {
                    continue;
                }
                let mut term = binom(b, k)
                    .mul(&binom(t - b, c - k))
                    .mul(&binom(b - k, bucket as u64));
                term.mul_u64(n);
                term.shl((b - k) as u32);
                num.add_assign(&term);
            }
            let mut den = binom(t, c).mul(&binom(bn, bucket as u64));
            den.shl(b as u32);
            num.shl(s);
            assert_eq!(z.exact(b).0, num <= den, "b = {b}");
        }
    }

    #[test]
    fn overrides_that_miss_the_bound_are_refused() {
        assert!(CutAndChoose::checked(6_800, 5, 39_539, 40).is_ok());
        assert!(matches!(
            CutAndChoose::checked(6_800, 5, 39_538, 40),
            Err(Error::Config(_))
        ));
        assert!(matches!(
            CutAndChoose::checked(6_800, 5, 34_000, 40),
            Err(Error::Config(_))
        ));
        assert!(CutAndChoose::optimise(0, 40).is_err());
        assert!(CutAndChoose::optimise(10, 0).is_err());
    }

    #[test]
    fn kappa_stays_above_two() {
        // Theorem 6.2: κ ≤ 2 is never secure; the optimum keeps κ > 2.
        for n in [1u64, 10, 1000, 100_000] {
            let p = CutAndChoose::optimise(n, 40).unwrap();
            assert!(p.kappa > 2.0, "{p:?}");
        }
    }
}
