//! Circuits: builtins, Bristol files, the builder, and value conversions.
//!
//! A circuit has named input groups and output groups; bit `i` of a value
//! is wire `i` of its group (least significant first), the same
//! convention as the CLI's `0x…` values.

use brickyard_core::{Error, Result};

pub use brickyard_circuit::{builtin_names, format_value, parse_value, ValueFormat};

/// Maps the circuit layer's error onto the kinds a run reports: an
/// unreadable file is `Io`, a file that does not parse is `Malformed`,
/// everything else (unknown builtin, bad value) is `Config`.
fn lift(e: brickyard_circuit::Error) -> Error {
    match e {
        brickyard_circuit::Error::Io { path, source } => Error::Io(std::io::Error::new(
            source.kind(),
            format!("{path}: {source}"),
        )),
        e @ brickyard_circuit::Error::Parse { .. } => Error::malformed(e),
        e => Error::config(e),
    }
}

/// A standard circuit by name (`aes128`, `sha256`, `add32`, `add8`,
/// `levenshtein:30`, …; [`builtin_names`] lists them).
///
/// ```
/// let c = brickyard::circuit::builtin("add8")?;
/// assert_eq!(c.inputs.len(), 2);
/// assert_eq!(c.outputs[0].width(), 8);
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn builtin(name: &str) -> Result<brickyard_circuit::Circuit> {
    brickyard_circuit::builtin(name).map_err(|e| lift(e.into()))
}

/// Loads a Bristol (Fashion or old-format) circuit file.
///
/// ```no_run
/// let aes = brickyard::circuit::load("../shared/circuits/bristol_fashion/aes_128.txt")?;
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn load(path: impl AsRef<std::path::Path>) -> Result<brickyard_circuit::Circuit> {
    brickyard_circuit::load(path.as_ref()).map_err(lift)
}

/// Parses Bristol text held in memory.
///
/// ```
/// // One AND gate: out = a & b (Bristol Fashion).
/// let text = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n";
/// let c = brickyard::circuit::parse(text)?;
/// assert_eq!(c.and_count(), 1);
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn parse(text: &str) -> Result<brickyard_circuit::Circuit> {
    brickyard_circuit::parse_bristol(text).map_err(|source| {
        lift(brickyard_circuit::Error::Parse {
            path: String::new(),
            source,
        })
    })
}

/// A circuit named the way the CLI names them: `builtin:NAME` or a file path.
///
/// ```
/// let c = brickyard::circuit::resolve("builtin:add32")?;
/// assert_eq!(c.inputs[0].width(), 32);
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn resolve(spec: &str) -> Result<brickyard_circuit::Circuit> {
    brickyard_circuit::resolve(spec).map_err(lift)
}

/// The low `width` bits of `v`, bit `i` first (wire `i` of a group).
///
/// ```
/// assert_eq!(brickyard::bits(6, 4), vec![false, true, true, false]);
/// ```
pub fn bits(v: u128, width: usize) -> Vec<bool> {
    (0..width).map(|i| i < 128 && (v >> i) & 1 == 1).collect()
}

/// The integer whose bit `i` is `bits[i]`, or `None` if it needs more
/// than 128 bits.
///
/// ```
/// assert_eq!(brickyard::to_u128(&[false, true, true]), Some(6));
/// assert_eq!(brickyard::to_u128(&brickyard::bits(u128::MAX, 200)), Some(u128::MAX));
/// ```
pub fn to_u128(bits: &[bool]) -> Option<u128> {
    if bits.iter().skip(128).any(|&b| b) {
        return None;
    }
    Some(
        bits.iter()
            .take(128)
            .enumerate()
            .fold(0u128, |acc, (i, &b)| acc | (u128::from(b) << i)),
    )
}
