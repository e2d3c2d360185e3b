//! Brickyard's phase driver and the protocol-agnostic contract every
//! protocol crate implements.
//!
//! Every protocol is a pair of [`Party`] implementations (Alice, Bob) that
//! walk the same four phases — setup, independent preprocessing, dependent
//! preprocessing, online — so the [`driver`] can time each phase, count its
//! traffic and rounds, and print the same table for every protocol. The
//! protocols themselves live in their own crates (`brickyard-yao`, …) and
//! are looked up by name in `brickyard-protocols`.
#![deny(missing_docs)]

pub mod config;
pub mod driver;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod layout;
pub mod party;
pub mod progress;
pub mod report;
pub mod steps;

pub use config::{OutputMode, RunConfig};
pub use driver::{run_local, run_party, LocalNet};
pub use party::{Outputs, Party, PartyInputs, Role};
pub use report::{PhaseStats, Report};
