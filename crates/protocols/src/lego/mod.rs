//! `lego`: TinyLEGO with function-independent preprocessing
//! (Nielsen–Schneider–Trifiletti, NDSS 2017). See `docs/protocols/lego.md`.

mod bigint;
pub mod params;

pub use params::{Bound, Cost, LegoParams, Objective};
