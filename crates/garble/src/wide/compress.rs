//! `Compress(X) = A'X` (JIMU Sec. 2.2, 6.2): a long label of `ℓ` symbols
//! of GF(2^8) to the 16 symbols (128 bits) that fixed-key AES hashes.
//!
//! Alice samples `A' ∈ GF(2^8)^{16×ℓ}` uniformly with rank 16 **after**
//! Bob has chosen the symbols he watches (Lemma 6.1 averages over `A'`
//! for a fixed watch set), and sends its rows; Bob refuses a rank-deficient
//! matrix (`Cheating { check: "compress-rank" }`): fewer than 16
//! independent rows would compress to fewer hidden bits.
//!
//! **What is computed.** Both parties hash `E·X` with `E = G·A'` the
//! reduced row echelon form of `A'` (`G` = the inverse of `A'`'s first 16
//! independent columns `P`, so `E[:, P] = I`), not `A'X` itself. `E` has
//! the row space of `A'`, and Lemma 6.1's `D = dim(T + W) − dim W`
//! depends on nothing else, so `E·X = G·(A'X)` (an invertible public map
//! of `A'X`) keeps exactly the entropy the lemma counts, and XOR is
//! preserved as before. What this buys: `E·X` is the 16 pivot symbols of
//! `X` XOR products over the `ℓ − 16` other columns only, so a compression
//! is 16 (ℓ = 32) or 32 (ℓ = 48) table lookups instead of 32 or 48.
//! [`Compress::apply_reference`] is the definition (`E·X` by field
//! arithmetic), and the tests check `E` against `A'`.

use brickyard_core::gf256::{GfMatrix, GF256};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error, Result};

use super::Label;

/// Symbols of a compressed label (rows of `A'`).
pub const ROWS: usize = 16;

/// A sampled or received `A'`, with the lookup tables of its echelon form.
#[derive(Clone)]
pub struct Compress {
    /// `ℓ`, the symbols per label.
    cols: usize,
    /// `A'`, row-major (what Alice sends).
    rows: Vec<u8>,
    /// `E = G·A'`, row-major.
    echelon: Vec<u8>,
    /// The pivot columns `P` (`E[:, P[i]] = e_i`).
    pivots: [u8; ROWS],
    /// Whether `P = 0..16` (the pivot symbols are block 0 of the label).
    leading: bool,
    /// The other columns, and per such column `j` the table
    /// `v ↦ E[:, j]·v` as a block (byte `i` = `E[i][j]·v`).
    others: Vec<u8>,
    tables: Vec<[Block; 256]>,
}

impl std::fmt::Debug for Compress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Compress {{ 16×{}, pivots {:?} }}",
            self.cols, self.pivots
        )
    }
}

impl Compress {
    /// Alice's draw for labels of `cols` symbols (32 or 48): uniform
    /// `16 × cols` matrices from `prg` until one has rank 16 (the first
    /// does except with probability < 2^-120).
    ///
    /// # Panics
    /// If `cols` is not a multiple of 16 in `16..=64` (a constant at the
    /// callers).
    pub fn sample(prg: &mut Prg, cols: usize) -> Compress {
        assert!(
            cols.is_multiple_of(16) && (16..=64).contains(&cols),
            "ℓ = {cols}"
        );
        loop {
            let rows: Vec<u8> = (0..ROWS * cols / 16)
                .flat_map(|_| prg.random_block().to_bytes())
                .collect();
            if let Ok(c) = Self::from_rows(&rows, cols) {
                return c;
            }
        }
    }

    /// Bob's side: `A'` as received (`16 · cols` bytes, row-major).
    /// A wrong length is `Malformed`; rank below 16 is
    /// `Cheating { check: "compress-rank" }`.
    pub fn from_rows(rows: &[u8], cols: usize) -> Result<Compress> {
        if !cols.is_multiple_of(16) || !(16..=64).contains(&cols) {
            return Err(Error::config(format!("Compress: ℓ = {cols}")));
        }
        if rows.len() != ROWS * cols {
            return Err(Error::malformed(format!(
                "Compress: {} bytes for a 16×{cols} matrix",
                rows.len()
            )));
        }
        let a = GfMatrix::from_entries(&GF256, ROWS, cols, rows.to_vec());
        if a.rank() < ROWS {
            return Err(Error::Cheating {
                check: "compress-rank",
            });
        }
        // First independent columns, greedily.
        let mut pivots: Vec<usize> = Vec::with_capacity(ROWS);
        for j in 0..cols {
            let mut cand = pivots.clone();
            cand.push(j);
            if a.select_cols(&cand).rank() == cand.len() {
                pivots = cand;
                if pivots.len() == ROWS {
                    break;
                }
            }
        }
        let g = a
            .select_cols(&pivots)
            .inverse()
            .expect("16 independent columns");
        // E = G·A', column by column.
        let mut echelon = vec![0u8; ROWS * cols];
        for j in 0..cols {
            let col: Vec<u8> = (0..ROWS).map(|i| a.get(i, j)).collect();
            for (i, e) in g.mul_vec(&col).into_iter().enumerate() {
                echelon[i * cols + j] = e;
            }
        }
        let others: Vec<u8> = (0..cols)
            .filter(|j| !pivots.contains(j))
            .map(|j| j as u8)
            .collect();
        let tables: Vec<[Block; 256]> = others
            .iter()
            .map(|&j| {
                std::array::from_fn(|v| {
                    Block::from_bytes(std::array::from_fn(|i| {
                        GF256.mul(echelon[i * cols + j as usize], v as u8)
                    }))
                })
            })
            .collect();
        let pivots: [u8; ROWS] = std::array::from_fn(|i| pivots[i] as u8);
        Ok(Compress {
            cols,
            rows: rows.to_vec(),
            echelon,
            leading: pivots.iter().enumerate().all(|(i, &p)| p as usize == i),
            pivots,
            others,
            tables,
        })
    }

    /// `ℓ`.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// `A'` row-major, what Alice sends.
    pub fn rows(&self) -> &[u8] {
        &self.rows
    }

    /// The echelon form `E` row-major (`E[:, pivots] = I`).
    pub fn echelon(&self) -> &[u8] {
        &self.echelon
    }

    /// The pivot columns.
    pub fn pivots(&self) -> &[u8; ROWS] {
        &self.pivots
    }

    /// `E·X` by field arithmetic: the definition the fast path is tested on.
    ///
    /// # Panics
    /// If `16·L ≠ ℓ`.
    pub fn apply_reference<const L: usize>(&self, x: &Label<L>) -> Block {
        assert_eq!(16 * L, self.cols, "label length");
        let sym = symbols(x);
        Block::from_bytes(std::array::from_fn(|i| {
            GF256.dot(&self.echelon[i * self.cols..(i + 1) * self.cols], &sym)
        }))
    }

    /// `E·X`: the pivot symbols, XOR one table lookup per other symbol.
    ///
    /// # Panics
    /// If `16·L ≠ ℓ`.
    #[inline]
    pub fn apply<const L: usize>(&self, x: &Label<L>) -> Block {
        assert_eq!(16 * L, self.cols, "label length");
        if self.leading {
            let mut acc = x[0];
            for (k, t) in self.tables.chunks_exact(16).enumerate() {
                let bytes = x[k + 1].to_bytes();
                for (tj, &v) in t.iter().zip(&bytes) {
                    acc ^= tj[v as usize];
                }
            }
            acc
        } else {
            let sym = symbols(x);
            let mut acc = Block::from_bytes(std::array::from_fn(|i| sym[self.pivots[i] as usize]));
            for (t, &j) in self.tables.iter().zip(&self.others) {
                acc ^= t[sym[j as usize] as usize];
            }
            acc
        }
    }
}

/// The symbols of a label, in order.
fn symbols<const L: usize>(x: &Label<L>) -> Vec<u8> {
    x.iter().flat_map(|b| b.to_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prg(seed: u128) -> Prg {
        Prg::from_seed(Block(seed))
    }

    #[test]
    fn echelon_form_has_the_row_space_of_a() {
        for (cols, seed) in [(32, 1u128), (48, 2)] {
            let c = Compress::sample(&mut prg(seed), cols);
            let a = GfMatrix::from_entries(&GF256, ROWS, cols, c.rows().to_vec());
            let e = GfMatrix::from_entries(&GF256, ROWS, cols, c.echelon().to_vec());
            let both: Vec<u8> = c.rows().iter().chain(c.echelon()).copied().collect();
            let stacked = GfMatrix::from_entries(&GF256, 2 * ROWS, cols, both);
            assert_eq!((a.rank(), e.rank(), stacked.rank()), (16, 16, 16));
            for (i, &p) in c.pivots().iter().enumerate() {
                for r in 0..ROWS {
                    assert_eq!(e.get(r, p as usize), (r == i) as u8);
                }
            }
        }
    }

    #[test]
    fn fast_path_equals_the_definition_and_is_linear() {
        let mut p = prg(3);
        let c2 = Compress::sample(&mut p, 32);
        let c3 = Compress::sample(&mut p, 48);
        for _ in 0..200 {
            let x: Label<2> = super::super::random_label(&mut p);
            let y: Label<2> = super::super::random_label(&mut p);
            assert_eq!(c2.apply(&x), c2.apply_reference(&x));
            assert_eq!(
                c2.apply(&super::super::xor(&x, &y)),
                c2.apply(&x) ^ c2.apply(&y)
            );
            let z: Label<3> = super::super::random_label(&mut p);
            assert_eq!(c3.apply(&z), c3.apply_reference(&z));
        }
    }

    #[test]
    fn non_leading_pivots_take_the_general_path() {
        // Column 0 zero: the pivots cannot be 0..16.
        let mut p = prg(4);
        let mut rows: Vec<u8> = (0..32).flat_map(|_| p.random_block().to_bytes()).collect();
        for r in 0..ROWS {
            rows[r * 32] = 0;
        }
        let c = Compress::from_rows(&rows, 32).unwrap();
        assert_eq!(c.pivots()[0], 1);
        for _ in 0..50 {
            let x: Label<2> = super::super::random_label(&mut p);
            assert_eq!(c.apply(&x), c.apply_reference(&x));
        }
    }

    #[test]
    fn rank_deficient_and_malformed_matrices_are_refused() {
        let mut p = prg(5);
        let mut rows: Vec<u8> = (0..32).flat_map(|_| p.random_block().to_bytes()).collect();
        // Row 15 = row 0 · 7 + row 3: rank 15.
        for j in 0..32 {
            rows[15 * 32 + j] = GF256.mul(rows[j], 7) ^ rows[3 * 32 + j];
        }
        assert!(matches!(
            Compress::from_rows(&rows, 32),
            Err(Error::Cheating {
                check: "compress-rank"
            })
        ));
        rows[15 * 32] ^= 1;
        assert!(Compress::from_rows(&rows, 32).is_ok());
        assert!(matches!(
            Compress::from_rows(&rows[1..], 32),
            Err(Error::Malformed(_))
        ));
        assert!(matches!(
            Compress::from_rows(&rows, 33),
            Err(Error::Config(_))
        ));
    }
}
