//! Bob's input encoding (Sec. 2.3, Fig. A.3): `y = E·y¹ ⊕ y²`.
//!
//! `y¹ ∈ {0,1}^n` is uniformly random and fixed offline (Bob's OT choice
//! bits, one OT per bit serving all circuits of a bucket); online Bob sends
//! the public correction `y² = y ⊕ E·y¹ ∈ {0,1}^l`, and the circuit computes
//! `f(x, E·y¹ ⊕ y²)`. If Alice learns fewer than `s` bits of `y¹` (a
//! selective-OT attack on them), `E·y¹` stays uniform given those bits —
//! every nonzero combination `u·E` touches ≥ s positions of `y¹`, so
//! `u·E·y¹` is not fixed by fewer than s bits — and `y²` tells her nothing
//! about `y`.

use super::construct::ProbeMatrix;
use super::matrix::pack;
use brickyard_core::prg::Prg;
use brickyard_core::{Error, Result};
use zeroize::Zeroize;

/// Bob's encoded input: the random OT bits `y¹` and the correction `y²`.
#[derive(Clone, Debug, PartialEq, Eq, Zeroize)]
#[zeroize(drop)]
pub struct Encoded {
    /// `y¹`, n random bits (OT choice bits).
    pub y1: Vec<bool>,
    /// `y² = y ⊕ E·y¹`, l bits (sent in the clear).
    pub y2: Vec<bool>,
}

impl ProbeMatrix {
    /// `E·v` for `v` of `n` bits.
    pub fn apply(&self, v: &[bool]) -> Result<Vec<bool>> {
        if v.len() != self.cols() {
            return Err(Error::malformed(format!(
                "encoded input has {} bits, E has {} columns",
                v.len(),
                self.cols()
            )));
        }
        let mut out = Vec::with_capacity(self.rows());
        let mut c0 = 0;
        for b in self.blocks() {
            let mut part = pack(&v[c0..c0 + b.cols()]);
            out.extend(b.mul_packed(&part));
            part.zeroize();
            c0 += b.cols();
        }
        Ok(out)
    }

    /// Offline half: a fresh random `y¹`.
    pub fn random_y1(&self, prg: &mut Prg) -> Vec<bool> {
        prg.random_bits(self.cols())
    }

    /// Online half: the correction `y² = y ⊕ E·y¹` for the input `y`.
    pub fn correction(&self, y: &[bool], y1: &[bool]) -> Result<Vec<bool>> {
        if y.len() != self.rows() {
            return Err(Error::config(format!(
                "input has {} bits, E has {} rows",
                y.len(),
                self.rows()
            )));
        }
        let mut ey1 = self.apply(y1)?;
        let y2 = y.iter().zip(&ey1).map(|(a, b)| a ^ b).collect();
        ey1.zeroize();
        Ok(y2)
    }

    /// Both halves at once.
    pub fn encode(&self, y: &[bool], prg: &mut Prg) -> Result<Encoded> {
        let y1 = self.random_y1(prg);
        let y2 = self.correction(y, &y1)?;
        Ok(Encoded { y1, y2 })
    }

    /// `y = E·y¹ ⊕ y²` (what the circuit C computes on its inputs).
    pub fn decode(&self, y1: &[bool], y2: &[bool]) -> Result<Vec<bool>> {
        if y2.len() != self.rows() {
            return Err(Error::malformed("correction of the wrong length"));
        }
        let ey1 = self.apply(y1)?;
        Ok(ey1.iter().zip(y2).map(|(a, b)| a ^ b).collect())
    }
}
