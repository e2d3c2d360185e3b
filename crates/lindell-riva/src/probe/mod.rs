//! s-probe-resistant encoding of Bob's input (Sec. 2.3 and Fig. A.1–A.3):
//! E is chosen by Bob ([`ProbeSpec::choose`]), verified by both parties
//! ([`ProbeSpec::verify`]), built ([`ProbeSpec::build`]) and used to encode
//! `y` as `(y¹, y²)` with `E·y¹ ⊕ y² = y` ([`ProbeMatrix::encode`]).

mod construct;
mod encode;
pub mod gf2t;
mod matrix;

pub use construct::{BlockSpec, ProbeMatrix, ProbeSpec, CHECK, MAX_BLOCK_ROWS, MAX_INPUT_BITS};
pub use encode::Encoded;
pub use matrix::{pack, BitMatrix};

/// Checks a dense matrix exhaustively (≤ 24 rows): every nonempty XOR of
/// rows has weight ≥ s, else `Cheating { check: "probe-resistance" }`.
pub fn verify_exhaustive(e: &BitMatrix, s: u32) -> brickyard_core::Result<()> {
    if e.min_combination_weight()? < s {
        return Err(brickyard_core::Error::Cheating { check: CHECK });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
