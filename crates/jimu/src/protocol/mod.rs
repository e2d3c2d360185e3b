//! The protocol of Sec. 5.1 on the driver's phases (the phase mapping and
//! its argument: `docs/protocols/jimu.md`, "Phases"):
//!
//! | paper | driver phase | code |
//! |---|---|---|
//! | 0 Setup (a)–(d), A' | setup | [`setup`] |
//! | 2 Generate (J committed; (a)–(d)), 1 pool i-hashes | independent | [`generate`] |
//! | 4 Check (before Build, NST17 order) | independent | [`check`] |
//! | 3(a) i–ii solderings (one flight) | dependent | [`build`] |
//! | 1(a), 1(b) inputs; 3 Evaluate; 5 Output | online | [`eval`] |
//! | (all but Build and online, kept between processes) | — | [`store`] |
//!
//! P1 = Alice = garbler = i-hash sender; P2 = Bob = evaluator = receiver.

pub mod build;
pub mod check;
pub mod eval;
pub mod generate;
pub mod party;
pub mod schedule;
pub mod setup;
pub mod store;

use brickyard_core::{Block, Error, Result};
use brickyard_garble::wide::Label;
use brickyard_ihash::Params;

/// Default statistical security parameter.
pub const DEFAULT_S: u32 = 40;
/// Default computational security parameter (256-bit labels).
pub const DEFAULT_K: u32 = 88;

/// Choices both parties must make identically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JimuOptions {
    /// Computational security: 88 (256-bit labels) or 127 (384-bit).
    pub k: u32,
    /// Statistical security (≥ 40): cut-and-choose, i-hash binding and
    /// consistency, Bob's s-way input split.
    pub s: u32,
}

impl Default for JimuOptions {
    fn default() -> Self {
        JimuOptions {
            k: DEFAULT_K,
            s: DEFAULT_S,
        }
    }
}

impl JimuOptions {
    /// The label i-hash (ℓ_w, σ_w = 8) and permutation-string i-hash
    /// (ℓ_p, σ_p = 6) sets from (k, s) (Sec. 6.1, 6.2), checked against the
    /// label width `16·L` bytes.
    pub fn ihash_params(&self, label_bytes: usize) -> Result<(Params, Params)> {
        let w = Params::for_labels(self.k, self.s)?;
        if w.ell != label_bytes {
            return Err(Error::config(format!(
                "jimu: k = {} needs {}-byte labels, not {label_bytes}",
                self.k, w.ell
            )));
        }
        Ok((w, Params::for_permutation_strings(self.s)?))
    }

    /// The run agreement's and the store's security parameters.
    pub fn security_parameters(&self) -> std::collections::BTreeMap<String, String> {
        let mut m = std::collections::BTreeMap::new();
        m.insert("k".into(), self.k.to_string());
        m.insert("s".into(), self.s.to_string());
        m
    }
}

/// A label's bytes = its ℓ_w symbols of GF(2^8), symbol j = byte j.
pub fn label_bytes<const L: usize>(l: &Label<L>) -> Vec<u8> {
    l.iter().flat_map(|b| b.to_bytes()).collect()
}

/// A label's bytes into `out` (16·L of them), without allocating.
pub fn label_bytes_into<const L: usize>(l: &Label<L>, out: &mut [u8]) {
    for (o, b) in out.chunks_exact_mut(16).zip(l) {
        o.copy_from_slice(&b.to_bytes());
    }
}

/// The label with the bytes `b` (16·L of them).
pub fn label_from_bytes<const L: usize>(b: &[u8]) -> Label<L> {
    std::array::from_fn(|k| {
        let mut x = [0u8; 16];
        x.copy_from_slice(&b[16 * k..16 * k + 16]);
        Block::from_bytes(x)
    })
}

/// The permutation bit p = ρ_1 ⊕ … ⊕ ρ_{λ_p}: the XOR of all bits of ρ.
pub fn parity(rho: &[u8]) -> bool {
    rho.iter().fold(0u8, |a, &x| a ^ x).count_ones() & 1 == 1
}

/// `dst ^= src`.
pub fn xor_bytes(dst: &mut [u8], src: &[u8]) {
    brickyard_ihash::xor_into(dst, src)
}

/// `a ⊕ b` as a new vector.
pub fn xored(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut v = a.to_vec();
    xor_bytes(&mut v, b);
    v
}

/// `Cheating { check }`.
pub fn cheating(check: &'static str) -> Error {
    Error::Cheating { check }
}

/// Every check of the protocol (errors are `Cheating { check }`), in the
/// order a run meets them.
pub const CHECKS: &[&str] = &[
    "ihash-setup-shares",
    "ihash-setup-key",
    "ihash-seed-image",
    "perm-seed",
    "ihash-consistency",
    "compress-rank",
    "step-5b-statement",
    "cut-and-choose-open",
    "check-gate-rho",
    "check-gate-label",
    "check-gate-eval",
    "solder-rho",
    "solder-label",
    "alice-input-label",
    "output-rho",
    "bucket-empty",
    "delta-recovery",
    "output-label",
    "bob-input-label",
];
