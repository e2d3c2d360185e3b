//! Lindell–Riva, "Blazing Fast 2PC in the Offline/Online Setting with
//! Security for Malicious Adversaries" (CCS'15): the building blocks of the
//! Appendix A protocol. P1 = Alice garbles, P2 = Bob evaluates and outputs.
//!
//! * [`params`]: Lemmas 2.2 / 2.3 — bucket sizes and check fractions for
//!   the main circuit C and the cheating-recovery circuit C', exact.
//! * [`probe`]: s-probe-resistant encoding of Bob's input (Sec. 2.3).
//! * [`excom`]: F_ExCom∆ZK (Sec. 3), split commitments with a
//!   zero-knowledge proof of difference, one committed challenge per bucket.
//!
//! * [`protocol`]: the Appendix A protocol on these blocks (bundles,
//!   cut-and-choose, OTs, online stage with cheating recovery).
//! * [`party`]: its driver parties (`lindell-riva` in the registry).
//! * [`estimate`]: memory and disk a run needs, checked before it starts.
#![deny(missing_docs)]

pub mod estimate;
pub mod excom;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod params;
pub mod party;
pub mod probe;
pub mod protocol;
mod wipe;
