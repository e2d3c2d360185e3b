//! Brickyard circuit layer: the Boolean-circuit IR every protocol consumes.
//!
//! Circuits are flat gate lists over `u32` wires with named input and output
//! groups. Protocols do not walk gates one by one: they ask for a
//! [`Layering`], which groups the AND gates by AND-depth so the garbler can
//! hash a whole layer in one AES call.
//!
//! Circuits come from Bristol files ([`parse_bristol`], [`load`]), from the
//! [`builder`] DSL, or from the standard [`library`] ([`builtin`]). Every
//! source produces a circuit that passes [`Circuit::validate`], so protocol
//! code can index wires without re-checking them.
#![deny(missing_docs)]

pub mod bristol;
pub mod builder;
mod canon;
pub mod error;
pub mod eval;
pub mod ir;
pub mod library;
mod validate;
pub mod value;

pub use bristol::{load, parse_bristol, parse_bristol_bytes, write_bristol_fashion, ParseError};
pub use builder::{Bit, BitVec, CircuitBuilder};
pub use error::Error;
pub use eval::EvalError;
pub use ir::{Circuit, Gate, Group, Layer, Layering, WireId};
pub use library::{builtin, builtin_names, LibraryError};
pub use validate::ValidateError;
pub use value::{format_value, parse_value, ValueError, ValueFormat};

/// Loads a circuit named the way the CLI names them: `builtin:NAME` for a
/// standard circuit, anything else is a file path.
///
/// Kept here rather than in the CLI so every front end (CLI, tests, benches)
/// resolves names identically.
pub fn resolve(spec: &str) -> Result<Circuit, Error> {
    match spec.strip_prefix("builtin:") {
        Some(name) => Ok(builtin(name)?),
        None => load(spec),
    }
}
