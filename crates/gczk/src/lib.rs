//! Zero-knowledge proofs from garbled circuits (Jawurek–Kerschbaum–Orlandi,
//! CCS 2013, "JKO13") with privacy-free half-gates (Frederiksen–Nielsen–
//! Orlandi, Eurocrypt 2015, "FNO15"; the one-row form of Zahur–Rosulek–Evans
//! 2015), for a public Boolean relation `R` with one output bit: the prover
//! convinces the verifier that it knows a witness `x` with `R(x) = 1`, and
//! the verifier learns nothing else.
//!
//! | JKO13 step | code | check name |
//! |---|---|---|
//! | both parties agree on `R` | [`protocol`] (circuit digest) | — (`Config`; a caller that derives `R` from a shared transcript names it: [`Mismatch`]) |
//! | verifier garbles `R` from one seed | [`garble::garble`], [`protocol::Opening`] | — |
//! | prover gets its witness labels by committed OT (KOS extension, verifier = sender) | [`ot::send_labels`], [`ot::receive_labels`] | `kos-consistency` (verifier) |
//! | prover evaluates, commits to the output label | [`garble::evaluate`], [`commit`] | — |
//! | verifier opens its seed (and so s); prover replays the base-OT flight and checks both ciphertexts of every OT | [`ot::check`] | `gczk-ot-sender`, `gczk-ot-labels` |
//! | prover re-garbles and compares every table | [`protocol::prove`] | `gczk-garbling` |
//! | prover opens; verifier checks it is the label of "true" | [`protocol::verify`] | `gczk-commitment`, `gczk-output` |
//!
//! Why it is sound: privacy-free garbling is authentic, so without a true
//! witness the prover never holds the 1-label of the output (it has one label
//! per wire, and the garbling hides Δ), and the commitment fixes its answer
//! before the seed is opened. Why it is zero knowledge: the prover opens
//! only after checking that the whole garbling and every OT message are the
//! honest function of the opened seed, so what it opens is the 1-label, which
//! the verifier already knows; its abort decision depends only on the
//! verifier's messages and the seed, never on the witness. A relation is
//! garbled part by part ([`relation`]), so memory does not grow with it.
//! The scheme, the committed OT extension and costs are in
//! `docs/protocols/gczk.md`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod commit;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod garble;
pub mod ot;
pub mod protocol;
pub mod relation;
#[cfg(test)]
mod tests;

pub use garble::Shape;
pub use protocol::{
    prove, prove_relation, prove_relation_as, verify, verify_relation, verify_relation_as, Mismatch,
};
#[cfg(feature = "adversary")]
pub use protocol::{prove_cheating, prove_cheating_as, ProverCheat};
pub use relation::{holds, Part, Relation};

/// The prover found that the verifier's base-OT flight (it is the base OTs'
/// receiver, with choices s) is not the one its opened seed and s give.
pub const CHECK_OT_SENDER: &str = "gczk-ot-sender";
/// The prover found an OT ciphertext (either side) that does not decrypt to
/// the input label the opened seed gives.
pub const CHECK_OT_LABELS: &str = "gczk-ot-labels";
/// The prover found that the garbled tables it evaluated are not the honest
/// garbling of the relation under the opened seed.
pub const CHECK_GARBLING: &str = "gczk-garbling";
/// The verifier found that the prover's opening does not match its
/// commitment.
pub const CHECK_COMMITMENT: &str = "gczk-commitment";
/// The verifier found that the opened output label is not the label of
/// "true": the prover does not know a witness.
pub const CHECK_OUTPUT: &str = "gczk-output";
