//! A dense GF(2) matrix with packed rows, and the exhaustive minimum-weight
//! check of Definition 2.1 for small matrices.

use brickyard_core::{Error, Result};

/// `rows × cols` bits, row-major, each row padded to whole `u64` words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    rows: usize,
    cols: usize,
    words: usize,
    data: Vec<u64>,
}

impl BitMatrix {
    /// The all-zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        let words = cols.div_ceil(64);
        BitMatrix {
            rows,
            cols,
            words,
            data: vec![0; rows * words],
        }
    }

    /// From row bit vectors (all of length `cols`).
    pub fn from_rows(rows: &[Vec<bool>], cols: usize) -> Result<Self> {
        let mut m = BitMatrix::zeros(rows.len(), cols);
        for (r, row) in rows.iter().enumerate() {
            if row.len() != cols {
                return Err(Error::malformed("matrix row of the wrong length"));
            }
            for (c, &bit) in row.iter().enumerate() {
                if bit {
                    m.set(r, c);
                }
            }
        }
        Ok(m)
    }

    /// Rows (`l`).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns (`n`).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Sets entry `(r, c)` to 1.
    pub fn set(&mut self, r: usize, c: usize) {
        self.data[r * self.words + c / 64] |= 1 << (c % 64);
    }

    /// Entry `(r, c)`.
    pub fn get(&self, r: usize, c: usize) -> bool {
        self.data[r * self.words + c / 64] >> (c % 64) & 1 == 1
    }

    /// Row `r` as packed words.
    pub fn row(&self, r: usize) -> &[u64] {
        &self.data[r * self.words..(r + 1) * self.words]
    }

    /// `E·v` for a packed column vector `v` of `cols` bits: bit `r` is the
    /// parity of `row_r ∧ v`.
    pub fn mul_packed(&self, v: &[u64]) -> Vec<bool> {
        (0..self.rows)
            .map(|r| {
                self.row(r)
                    .iter()
                    .zip(v)
                    .fold(0u32, |acc, (a, b)| acc ^ (a & b).count_ones())
                    & 1
                    == 1
            })
            .collect()
    }

    /// The smallest Hamming weight of a nonempty XOR of rows, by walking
    /// all `2^rows − 1` combinations in Gray-code order (one row XOR each).
    /// Refused with [`Error::Config`] above 24 rows.
    pub fn min_combination_weight(&self) -> Result<u32> {
        if self.rows > 24 {
            return Err(Error::config(
                "exhaustive probe-resistance check is limited to 24 rows",
            ));
        }
        let mut acc = vec![0u64; self.words];
        let mut best = u32::MAX;
        for i in 1u64..(1u64 << self.rows) {
            let flip = i.trailing_zeros() as usize;
            for (a, b) in acc.iter_mut().zip(self.row(flip)) {
                *a ^= b;
            }
            best = best.min(acc.iter().map(|w| w.count_ones()).sum());
        }
        Ok(best)
    }
}

/// Packs bits little-endian into `u64` words.
pub fn pack(bits: &[bool]) -> Vec<u64> {
    let mut out = vec![0u64; bits.len().div_ceil(64)];
    for (i, &b) in bits.iter().enumerate() {
        out[i / 64] |= (b as u64) << (i % 64);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_weight_of_a_known_matrix() {
        // Rows 1100, 0110: combinations 1100, 0110, 1010 → min weight 2.
        let m = BitMatrix::from_rows(
            &[
                vec![true, true, false, false],
                vec![false, true, true, false],
            ],
            4,
        )
        .unwrap();
        assert_eq!(m.min_combination_weight().unwrap(), 2);
        assert_eq!(
            m.mul_packed(&pack(&[true, false, true, false])),
            [true, true]
        );
    }
}
