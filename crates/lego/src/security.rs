//! One statistical parameter s for the whole of LEGO, and the sum of the
//! failure terms it buys.
//!
//! A run fails (a cheating Alice gets a wrong output accepted or learns
//! something about Bob's input) only if one of [`TERMS`] independent
//! statistical events happens. Every component is therefore run at
//! `s_c = s + ⌈log2 #terms⌉` ([`component_s`]), so that the union bound
//! of the terms stays ≤ 2^-s; [`terms`] computes each term from the
//! parameters the components actually use, and [`Terms::holds`] checks
//! the sum exactly as stated in `docs/security.md`.

use super::params::{confirming_min, LegoParams};
use brickyard_commit::params::CommitParams;
use brickyard_core::{Error, Result};
use brickyard_ot::delta_rot::DeltaRotParams;
use serde::Serialize;

/// The failure events of a LEGO run (one Generate call), in the order
/// [`terms`] returns them.
pub const TERMS: [&str; 7] = [
    "bucketing (Theorem 2)",
    "commitments (binding, consistency check)",
    "VerLeak (step 5-7)",
    "Δ-ROT commitment (step 10)",
    "Δ-ROT leakage (KOS check + extraction)",
    "Δ confirmation",
    "Setup's OT extensions (two KOS checks)",
];

/// `⌈log2 #terms⌉`: what every component adds to s.
pub const MARGIN: u32 = TERMS.len().next_power_of_two().trailing_zeros();

/// The statistical parameter every component of a LEGO run gets for the
/// run's s.
pub fn component_s(s: u32) -> u32 {
    s + MARGIN
}

/// The parameters of every component, all derived from one s. Both
/// parties compute them from the agreed s (part of the run agreement and
/// of a store's parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Components {
    /// The run's statistical parameter.
    pub s: u32,
    /// What each component is run at ([`component_s`]).
    pub s_c: u32,
    /// The commitments: code (distance ≥ s_c + 1), base-OT count, and
    /// the bit-opening repetitions VerLeak uses.
    pub commit: CommitParams,
    /// The Δ-ROT: k + s_c leaky columns.
    pub delta_rot: DeltaRotParams,
    /// VerLeak's random combinations (and blinders v_{m+1..m+s_c}).
    pub verleak: usize,
    /// Spare Δ-ROTs that step 10 opens.
    pub spare_rots: usize,
    /// Checked authenticators a Δ' needs to be confirmed.
    pub confirm: usize,
}

impl Components {
    /// Every component's parameters for `s`; `Config` for s < 40 or an s
    /// whose commitment code does not fit the row layout.
    pub fn new(s: u32) -> Result<Components> {
        if s < 40 {
            return Err(Error::config(format!("lego: s = {s} is below 40")));
        }
        let s_c = component_s(s);
        if setup_kos_log2() > -(s_c as f64) {
            return Err(Error::config(format!(
                "lego: s = {s} needs Setup's KOS checks below 2^-{s_c}; they give 2^{}",
                setup_kos_log2()
            )));
        }
        let commit = CommitParams::new(s_c).map_err(|e| {
            Error::config(format!(
                "lego: s = {s} (components at s + {MARGIN} = {s_c}) is not supported: {e}"
            ))
        })?;
        Ok(Components {
            s,
            s_c,
            commit,
            delta_rot: DeltaRotParams::new(128, s_c as usize)?,
            verleak: commit.blinders(),
            spare_rots: s_c as usize,
            confirm: confirming_min(s_c),
        })
    }
}

/// log2 of the chance that either of Setup's two KOS extensions
/// ([`crate::setup`]) passes an inconsistent receiver unnoticed.
pub fn setup_kos_log2() -> f64 {
    1.0 + crate::setup::KOS_CHECK_LOG2
}

/// One failure term.
#[derive(Clone, Debug, Serialize)]
pub struct Term {
    /// What fails.
    pub name: &'static str,
    /// log2 of its probability bound.
    pub log2: f64,
}

/// The terms of one parameter set and their sum.
#[derive(Clone, Debug, Serialize)]
pub struct Terms {
    /// The run's statistical parameter.
    pub s: u32,
    /// Each term, in [`TERMS`] order.
    pub terms: Vec<Term>,
    /// log2 of the sum.
    pub sum_log2: f64,
}

impl Terms {
    /// Whether the sum is ≤ 2^-s.
    pub fn holds(&self) -> bool {
        self.sum_log2 <= -(self.s as f64)
    }
}

/// log2 of a sum of terms given as log2.
fn log2_sum(xs: &[f64]) -> f64 {
    let max = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    max + xs.iter().map(|x| (x - max).exp2()).sum::<f64>().log2()
}

/// The failure terms of a Generate with parameters `p` (q, n and the
/// bucket sizes Theorem 2 was checked on) and `commitments` commitments,
/// each computed from the parameter its component uses (see
/// `docs/security.md`, "One s for LEGO").
pub fn terms(p: &LegoParams, c: &Components, commitments: u64) -> Terms {
    let blocks = commitments.div_ceil(128) + 2;
    let commit = log2_sum(&[
        c.commit.binding_log2(),
        c.commit.check_bad_event_log2(blocks),
    ]);
    // A wrong Δ' is confirmed only if a strict majority of the m ≥ confirm
    // kept authenticators accept it, each with probability 1/2.
    let confirm = -((c.confirm / 2 + 1) as f64);
    let values = [
        p.bound().total_log2,
        commit,
        c.commit.bit_open_log2(),
        -(c.spare_rots as f64),
        -(c.delta_rot.s as f64),
        confirm,
        setup_kos_log2(),
    ];
    let terms: Vec<Term> = TERMS
        .iter()
        .zip(values)
        .map(|(&name, log2)| Term { name, log2 })
        .collect();
    Terms {
        s: c.s,
        sum_log2: log2_sum(&values),
        terms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Objective;

    #[test]
    fn the_default_sum_is_below_two_to_the_minus_40() {
        // AES-128 (6800 AND gates, 256 inputs) and a large Generate.
        for (q, n) in [(6800, 256), (1 << 20, 1 << 12)] {
            let c = Components::new(40).unwrap();
            let p = LegoParams::optimise(q, n, 40, Objective::Communication).unwrap();
            let t = terms(&p, &c, 4 * q + 2 * n);
            assert!(t.holds(), "{t:?}");
            assert!(t.sum_log2 <= -40.0, "{t:?}");
            for term in &t.terms {
                assert!(term.log2 <= -43.0, "{term:?}");
            }
        }
    }

    #[test]
    fn the_sum_is_below_two_to_the_minus_s_for_every_supported_s() {
        // Every s from 40 to the largest the commitment rows hold, on a
        // small and an AES-sized circuit.
        let max = CommitParams::max_s() - MARGIN;
        assert!(max >= 80, "s = 80 must be supported (largest: {max})");
        for s in 40..=max {
            let c = Components::new(s).unwrap();
            for (q, n) in [(64, 16), (6800, 256)] {
                let p = LegoParams::optimise(q, n, s, Objective::Communication).unwrap();
                let t = terms(&p, &c, 4 * q + 2 * n);
                assert!(t.holds(), "s = {s}: {t:?}");
                for term in &t.terms {
                    assert!(term.log2 <= -(c.s_c as f64), "s = {s}: {term:?}");
                }
            }
        }
        let e = Components::new(max + 1).unwrap_err();
        assert!(
            matches!(&e, Error::Config(m) if m.contains(&format!("largest supported s: {}", max + MARGIN))),
            "{e}"
        );
    }

    #[test]
    fn every_component_gets_the_same_s() {
        for s in [40, 41, 60, 80] {
            let c = Components::new(s).unwrap();
            let s_c = s + 3;
            assert_eq!(c.s_c, s_c);
            assert!(c.commit.distance() > s_c as usize);
            assert_eq!(c.commit.s(), s_c);
            assert_eq!(c.verleak, s_c as usize);
            assert_eq!(c.spare_rots, s_c as usize);
            assert_eq!(c.delta_rot.s, s_c as usize);
            assert_eq!(c.confirm, 2 * s_c as usize);
            let p = LegoParams::optimise(6800, 256, s, Objective::Communication).unwrap();
            assert!(p.bound().total_log2 <= -(s_c as f64));
            assert!(terms(&p, &c, 30_000).holds());
        }
        assert!(matches!(Components::new(39), Err(Error::Config(_))));
    }
}
