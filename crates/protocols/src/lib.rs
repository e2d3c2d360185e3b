//! Brickyard protocols and the phase driver.
//!
//! Every protocol is a pair of [`Party`] implementations (Alice, Bob) that
//! walk the same four phases — setup, independent preprocessing, dependent
//! preprocessing, online — so the [`driver`] can time each phase, count its
//! traffic and rounds, and print the same table for every protocol.
#![deny(missing_docs)]

mod bigint;
pub mod compgc;
pub mod config;
pub mod driver;
pub mod jimu;
pub mod lego;
pub mod lindell_riva;
pub mod party;
pub mod progress;
pub mod registry;
pub mod report;
pub mod robustness;
pub mod tinytable;
pub mod yao;

pub use config::{OutputMode, RunConfig};
pub use driver::{run_local, run_party, LocalNet};
pub use party::{Outputs, Party, PartyInputs, Role};
pub use report::{PhaseStats, Report};
