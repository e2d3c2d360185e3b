//! Brickyard circuit layer: the Boolean-circuit IR every protocol consumes.
//!
//! Circuits are flat gate lists over `u32` wires with named input and output
//! groups. Protocols do not walk gates one by one: they ask for a
//! [`Layering`], which groups the AND gates by AND-depth so the garbler can
//! hash a whole layer in one AES call.
#![deny(missing_docs)]

pub mod ir;

pub use ir::{Circuit, Gate, Group, Layer, Layering, WireId};
