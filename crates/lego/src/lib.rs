//! `lego`: TinyLEGO with function-independent preprocessing
//! (Nielsen–Schneider–Trifiletti, NDSS 2017). See `docs/protocols/lego.md`.
//!
//! | paper | code |
//! |---|---|
//! | Setup (F_HCOM init, base OTs) | [`setup`]: 128 base OTs each way, KOS-extended to the commitments' OTs ([`hcom`]) and the Δ-ROT's ([`delta_rot`]) |
//! | Generate 1 (Q, A) | [`generate::Plan::new`], [`params::LegoParams::components`] |
//! | Generate 2 (Δ-ROTs, lsb Δ = 1) | [`delta_rot`] |
//! | Generate 3–4 (gates, authenticators, commitments) | [`generate`], [`component`] |
//! | VerLeak 5–7 | [`verleak`] |
//! | Cut-and-choose 8–10 | [`cut_and_choose`] |
//! | Bucketing 11–12 (permutation, solderings) | [`bucketing`] |
//! | Build(f) | [`build`]; from stored Generate batches in a later run: [`batch`] |
//! | Eval(x, y) 1–5 | [`eval`], layered evaluation in [`evaluator`], bucket rules in [`bucket`], extraction in [`extract`] |
//! | Theorem 2 | [`params`] |
//! | one s for every component, the sum of the failure terms | [`security`] |
#![deny(missing_docs)]

pub mod batch;
pub mod bucket;
pub mod bucketing;
pub mod build;
pub mod cheat;
pub mod component;
pub mod cut_and_choose;
pub mod delta_rot;
pub mod eval;
pub mod evaluator;
pub mod extract;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod generate;
pub mod hcom;
pub mod material;
pub mod params;
mod party;
pub mod records;
pub mod security;
pub mod setup;
pub mod store;
pub mod verleak;

pub use cheat::Cheat;
pub use params::{Bound, Cost, LegoParams, Objective};
pub use party::{memory_estimate, plan_for, GenerateSize, LegoAlice, LegoBob, LegoOptions};
pub use security::{Components, Terms};
