//! Brickyard protocols by name, and the phase driver.
//!
//! Every protocol is a pair of [`Party`] implementations (Alice, Bob) that
//! walk the same four phases — setup, independent preprocessing, dependent
//! preprocessing, online — so the [`driver`] can time each phase, count its
//! traffic and rounds, and print the same table for every protocol.
//!
//! This crate is the registry ([`registry`]: protocol name → parties) and
//! the robustness entry points; the driver (`brickyard-driver`) and each
//! protocol (`brickyard-yao`, `brickyard-compgc`, `brickyard-tinytable`,
//! `brickyard-lego`, `brickyard-jimu`) are crates of their own, re-exported
//! here under their old module paths.
#![deny(missing_docs)]

pub use brickyard_compgc as compgc;
pub use brickyard_driver::{config, driver, layout, party, progress, report};
pub use brickyard_jimu as jimu;
pub use brickyard_lego as lego;
pub mod registry;
pub mod robustness;
pub use brickyard_tinytable as tinytable;
pub use brickyard_yao as yao;

pub use brickyard_driver::{run_local, run_party, LocalNet};
pub use brickyard_driver::{OutputMode, RunConfig};
pub use brickyard_driver::{Outputs, Party, PartyInputs, Role};
pub use brickyard_driver::{PhaseStats, Report};
