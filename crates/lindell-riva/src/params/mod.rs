//! Cut-and-choose parameters (Sec. 2.4): for `N` executions and statistical
//! security `s`, the bucket size `B`, the fraction `p` of circuits that are
//! evaluated and the total `M = ⌈NB/p⌉`, once for the main circuit C
//! (Lemma 2.2) and once for the cheating-recovery circuit C' (Lemma 2.3, `B'`,
//! `p'`, `M'`), so that one execution is cheated with probability ≤ 2^-s.
//!
//! `p` lives on the paper's grid of hundredths (`p_percent`), so
//! `M = ⌈100·NB / p_percent⌉` is an integer computation. For a fixed `B`
//! the bound grows with `p` (fewer checked circuits), so the largest `p`
//! that meets it is found by bisection; the search then picks `B` by the
//! objective. Table 1's "circuits per 2PC" column is `B/p`.

mod lemma;

pub use lemma::{bound, ExactBound, Lemma};

use brickyard_core::{Error, Result};
use serde::Serialize;

/// Default statistical security parameter (per execution).
pub const S: u32 = 40;
/// Smallest `s` accepted for a protocol run.
pub const MIN_S: u32 = 40;
/// Largest bucket the search considers (also the largest accepted `B`).
pub const MAX_BUCKET: u64 = 63;
/// Largest number of executions accepted (bounds `M` and the search time).
pub const MAX_EXECUTIONS: u64 = 1 << 20;

/// What the search minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Fewest circuits `M` in total (offline cost); ties go to the smaller `B`.
    Circuits,
    /// Smallest bucket `B` (online cost), then fewest circuits. With no
    /// `max_circuits` this can cost many circuits (e.g. B = 3 at N = 1024).
    Bucket,
}

/// One cut-and-choose: `M` circuits, `N` buckets of `B`, fraction `p` evaluated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CutAndChoose {
    /// Which lemma bounds it.
    pub lemma: Lemma,
    /// Executions (buckets).
    pub n: u64,
    /// Circuits per bucket.
    pub b: u64,
    /// `p` in hundredths (62 means p = 0.62).
    pub p_percent: u64,
    /// Total circuits `⌈NB/p⌉`.
    pub m: u64,
    /// Circuits checked, `M − NB`.
    pub checked: u64,
    /// The maximising number of cracked circuits in the lemma.
    pub worst_t: u64,
    /// log2 of the lemma's bound for one execution (display; decided exactly).
    pub bound_log2: f64,
}

impl CutAndChoose {
    fn m_for(n: u64, b: u64, p_percent: u64) -> u64 {
        (100 * n * b).div_ceil(p_percent)
    }

    /// Evaluates a hand-picked `(B, p)`, whatever the bound (for reports).
    pub fn evaluate(lemma: Lemma, n: u64, b: u64, p_percent: u64) -> Result<Self> {
        if n == 0 || n > MAX_EXECUTIONS {
            return Err(Error::config(format!(
                "executions must be in 1..={MAX_EXECUTIONS}, got {n}"
            )));
        }
        if b == 0 || b > MAX_BUCKET {
            return Err(Error::config(format!(
                "bucket size must be in 1..={MAX_BUCKET}, got {b}"
            )));
        }
        if p_percent == 0 || p_percent >= 100 {
            return Err(Error::config(format!(
                "p must be in 0.01..=0.99, got {p_percent}/100"
            )));
        }
        let m = Self::m_for(n, b, p_percent);
        if m <= n * b {
            return Err(Error::config("p leaves no circuit to check"));
        }
        let e = bound(lemma, n, b, m);
        Ok(CutAndChoose {
            lemma,
            n,
            b,
            p_percent,
            m,
            checked: m - n * b,
            worst_t: e.worst_t,
            bound_log2: e.log2(),
        })
    }

    /// A hand-picked `(B, p)`, refused with [`Error::Config`] if the lemma's
    /// bound exceeds `2^-s`.
    pub fn checked(lemma: Lemma, n: u64, b: u64, p_percent: u64, s: u32) -> Result<Self> {
        let c = Self::evaluate(lemma, n, b, p_percent)?;
        if !bound(lemma, n, b, c.m).meets(s) {
            return Err(Error::config(format!(
                "{lemma:?} with N = {n}, B = {b}, p = 0.{p_percent:02}: bound 2^{:.2} misses 2^-{s}",
                c.bound_log2
            )));
        }
        Ok(c)
    }

    /// The largest `p` on the grid that meets `2^-s` for this `B`, if any.
    pub fn best_for_bucket(lemma: Lemma, n: u64, b: u64, s: u32) -> Result<Option<Self>> {
        Self::evaluate(lemma, n, b, 1)?; // validates n and b
        let ok = |p: u64| {
            let m = Self::m_for(n, b, p);
            m > n * b && bound(lemma, n, b, m).meets(s)
        };
        if !ok(1) {
            return Ok(None);
        }
        // ok(p) is monotone: true up to some p*, false after.
        let (mut lo, mut hi) = (1u64, 99u64);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if ok(mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Self::checked(lemma, n, b, lo, s).map(Some)
    }

    /// Searches `B = 1..=MAX_BUCKET` (each with its best `p`) by `objective`,
    /// optionally capped at `max_circuits`.
    pub fn search(
        lemma: Lemma,
        n: u64,
        s: u32,
        objective: Objective,
        max_circuits: Option<u64>,
    ) -> Result<Self> {
        let mut best: Option<CutAndChoose> = None;
        for b in 1..=MAX_BUCKET {
            // Every bucket of size b has M > N·b, so once N·b reaches the best
            // M found, no larger B can have fewer circuits: stop before the
            // exact bounds of large buckets, which dominate the search's time
            // (a run from a store recomputes the parameters in every process).
            if objective == Objective::Circuits && best.as_ref().is_some_and(|cur| n * b >= cur.m) {
                break;
            }
            let Some(c) = Self::best_for_bucket(lemma, n, b, s)? else {
                continue;
            };
            if max_circuits.is_some_and(|cap| c.m > cap) {
                continue;
            }
            let better = match (&best, objective) {
                (None, _) => true,
                (Some(cur), Objective::Circuits) => c.m < cur.m,
                (Some(cur), Objective::Bucket) => (c.b, c.m) < (cur.b, cur.m),
            };
            if better {
                best = Some(c);
            }
            if objective == Objective::Bucket && best.is_some() {
                break; // B ascends: the first feasible B is the smallest.
            }
        }
        best.ok_or_else(|| {
            Error::config(format!(
                "no bucket size up to {MAX_BUCKET} meets 2^-{s} for N = {n}{}",
                max_circuits.map_or(String::new(), |c| format!(" within {c} circuits"))
            ))
        })
    }

    /// Table 1's "number of circuits per 2PC": `B/p`.
    pub fn circuits_per_execution(&self) -> f64 {
        self.b as f64 * 100.0 / self.p_percent as f64
    }
}

/// How one of the two cut-and-chooses is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Search all `B` by the objective.
    Search(Objective, Option<u64>),
    /// This `B`, with the largest `p` that meets the bound.
    Bucket(u64),
    /// This `(B, p_percent)`, refused if it misses the bound.
    Fixed(u64, u64),
}

/// The parameters of one Lindell–Riva batch of `N` executions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LrParams {
    /// Statistical security parameter for one execution.
    pub s: u32,
    /// Executions `N`.
    pub executions: u64,
    /// Main circuit C (Lemma 2.2): `B`, `p`, `M`.
    pub main: CutAndChoose,
    /// Cheating-recovery circuit C' (Lemma 2.3): `B'`, `p'`, `M'`.
    pub recovery: CutAndChoose,
}

impl LrParams {
    /// Parameters for `executions` runs at `s`, refusing anything that misses 2^-s.
    pub fn new(executions: u64, s: u32, main: Choice, recovery: Choice) -> Result<Self> {
        if s < MIN_S {
            return Err(Error::config(format!(
                "statistical security s = {s} is below the minimum {MIN_S}"
            )));
        }
        Self::any_s(executions, s, main, recovery)
    }

    /// As [`Self::new`] without the lower bound on `s`: statistical tests
    /// of detection rates only.
    pub(crate) fn any_s(executions: u64, s: u32, main: Choice, recovery: Choice) -> Result<Self> {
        let pick = |lemma, choice| match choice {
            Choice::Search(o, cap) => CutAndChoose::search(lemma, executions, s, o, cap),
            Choice::Bucket(b) => CutAndChoose::best_for_bucket(lemma, executions, b, s)?
                .ok_or_else(|| {
                    Error::config(format!(
                        "{lemma:?}: no p meets 2^-{s} with B = {b} and N = {executions}"
                    ))
                }),
            Choice::Fixed(b, p) => CutAndChoose::checked(lemma, executions, b, p, s),
        };
        Ok(LrParams {
            s,
            executions,
            main: pick(Lemma::FullyCracked, main)?,
            recovery: pick(Lemma::MajorityCracked, recovery)?,
        })
    }

    /// log2 of the bound for one execution: the sum of both lemmas' bounds.
    pub fn execution_bound_log2(&self) -> f64 {
        let (a, b) = (self.main.bound_log2, self.recovery.bound_log2);
        let hi = a.max(b);
        hi + (1.0 + (a.min(b) - hi).exp2()).log2()
    }

    /// log2 of the union bound over all `N` executions (LR14's notion).
    pub fn overall_bound_log2(&self) -> f64 {
        self.execution_bound_log2() + (self.executions as f64).log2()
    }
}

#[cfg(test)]
mod tests;
