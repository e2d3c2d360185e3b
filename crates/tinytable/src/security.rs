//! One statistical parameter s for TinyTable with real preprocessing, and
//! the sum of the failure terms it buys (`docs/security.md`, "One s per
//! protocol").
//!
//! A cheating party wins only through one of [`TERMS`]: a table entry or
//! output-mask share opened to a wrong value past the MACs, a bucket of
//! leaky AND triples whose `x` it learned entirely (TinyOT), or an aBit
//! MAC forged (KOS under a Δ with two fixed bits). TinyOT is run at
//! `s_c = s + ⌈log2 #terms⌉` ([`component_s`]); the MACs' `k` is the
//! user's choice (`--mac`), and its term counts as it is: with the
//! paper's k = 32 the sum is 2^-32, above 2^-40, and a run refuses it
//! ([`Terms::require`], called by [`crate::Options::check_bound`]).

use super::mac::MacScheme;
use brickyard_core::{Error, Result};
use brickyard_ot::tinyot::bucket;
use serde::Serialize;

/// The statistical parameter of a TinyTable run unless
/// [`crate::Options::s`] says otherwise.
pub const DEFAULT_S: u32 = 40;

/// The smallest s a run accepts (never lowered: a bound above 2^-40 is an
/// insecure choice, refused).
pub const MIN_S: u32 = 40;

/// The failure events, in the order [`terms`] returns them.
pub const TERMS: [&str; 3] = [
    "table and output MACs (k bits)",
    "TinyOT bucketing (all batches)",
    "aBit MAC forgery (KOS, Δ with 2 fixed bits)",
];

/// `⌈log2 #terms⌉`.
pub const MARGIN: u32 = TERMS.len().next_power_of_two().trailing_zeros();

/// What TinyOT's bucketing is sized for when the run's parameter is `s`.
pub fn component_s(s: u32) -> u32 {
    s + MARGIN
}

/// One failure term.
#[derive(Clone, Debug, Serialize)]
pub struct Term {
    /// What fails.
    pub name: &'static str,
    /// log2 of its probability bound.
    pub log2: f64,
}

/// The terms and their sum.
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

    /// `Ok` when the sum is ≤ 2^-s and s ≥ [`MIN_S`]; else `Config`
    /// naming the largest term, its bound and the sum.
    pub fn require(&self) -> Result<()> {
        if self.s < MIN_S {
            return Err(Error::config(format!(
                "tinytable: s = {} refused (need s ≥ {MIN_S})",
                self.s
            )));
        }
        if self.holds() {
            return Ok(());
        }
        let worst = self
            .terms
            .iter()
            .max_by(|a, b| a.log2.total_cmp(&b.log2))
            .expect("three terms");
        Err(Error::config(format!(
            "tinytable: the failure bound 2^{:.2} exceeds 2^-{} (s = {}); largest term: {} = 2^{:.2}{}",
            self.sum_log2,
            self.s,
            self.s,
            worst.name,
            worst.log2,
            if worst.name == TERMS[0] {
                " (use a MAC with more bits: lookup-64 or linear-64, or a smaller s, at least 40)"
            } else {
                ""
            }
        )))
    }
}

/// The terms of a run that makes `triples` AND triples with TinyOT at
/// [`component_s`]`(s)` and authenticates tables with `mac`. `Config` for
/// a passive MAC (no malicious bound) or a triple count TinyOT refuses.
pub fn terms(s: u32, mac: MacScheme, triples: usize) -> Result<Terms> {
    if !mac.is_malicious() {
        return Err(Error::config(
            "tinytable: a passive run has no malicious failure bound",
        ));
    }
    let n = triples.max(1);
    let (batches, _, b) = bucket::plan(component_s(s) as usize, n)?;
    // Each batch is bucketed on its own: the bound adds up over batches
    // (`batch_sizes` gives every batch ⌊n/batches⌋ or one more triple; the
    // worse of the two sizes bounds them all).
    let per_batch = [n / batches, n.div_ceil(batches)]
        .map(|ell| bucket::bucket_failure_log2(ell.max(1), b))
        .into_iter()
        .fold(f64::NEG_INFINITY, f64::max);
    let values = [
        -(mac.k() as f64),
        per_batch + (batches as f64).log2(),
        -126.0,
    ];
    let max = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let sum_log2 = max + values.iter().map(|x| (x - max).exp2()).sum::<f64>().log2();
    Ok(Terms {
        s,
        terms: TERMS
            .iter()
            .zip(values)
            .map(|(&name, log2)| Term { name, log2 })
            .collect(),
        sum_log2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_macs_keep_the_sum_below_two_to_the_minus_40() {
        // AES-128 binary tables: 6800 triples per execution; 1 and 1000
        // executions (several TinyOT batches).
        for triples in [6800, 6_800_000] {
            for mac in [MacScheme::Lookup { k: 64 }, MacScheme::Linear { k: 64 }] {
                let t = terms(DEFAULT_S, mac, triples).unwrap();
                assert!(t.holds(), "{t:?}");
                assert!(t.terms[1].log2 <= -42.0, "{t:?}");
            }
        }
    }

    #[test]
    fn the_papers_32_bit_macs_miss_the_bound_and_say_so() {
        let t = terms(DEFAULT_S, MacScheme::Lookup { k: 32 }, 6800).unwrap();
        assert!(!t.holds());
        assert!((t.sum_log2 + 32.0).abs() < 0.01, "{t:?}");
        let e = t.require().unwrap_err();
        assert!(
            matches!(&e, Error::Config(m) if m.contains(TERMS[0]) && m.contains("2^-32.00")),
            "{e}"
        );
        assert!(terms(DEFAULT_S, MacScheme::Passive, 6800).is_err());
    }

    #[test]
    fn the_sum_follows_s_up_to_what_64_bit_macs_give() {
        // TinyOT at s + 2 and 64-bit MACs keep the sum ≤ 2^-s for every s
        // up to 63, for one and many TinyOT batches; s = 64 needs MACs of
        // more than 64 bits, and is refused naming the MAC term.
        for s in 40..=63 {
            for triples in [6800, 6_800_000] {
                for mac in [MacScheme::Lookup { k: 64 }, MacScheme::Linear { k: 64 }] {
                    let t = terms(s, mac, triples).unwrap();
                    assert!(t.holds() && t.require().is_ok(), "s = {s}: {t:?}");
                    assert!(t.terms[1].log2 <= -(component_s(s) as f64), "{t:?}");
                }
            }
        }
        let e = terms(64, MacScheme::Lookup { k: 64 }, 6800)
            .unwrap()
            .require()
            .unwrap_err();
        assert!(
            matches!(&e, Error::Config(m) if m.contains(TERMS[0])),
            "{e}"
        );
        let e = terms(39, MacScheme::Lookup { k: 64 }, 6800)
            .unwrap()
            .require()
            .unwrap_err();
        assert!(
            matches!(&e, Error::Config(m) if m.contains("s = 39")),
            "{e}"
        );
    }
}
