//! The [N = 299, K = 128, D ≥ 41] shortened binary BCH code, systematic.
//!
//! Position j < K of a codeword is message bit j; position K + l is parity
//! bit l. (In polynomial terms message bit i is the coefficient of
//! x^(PARITY+i) and parity bit l that of x^l; reordering coordinates does not
//! change the distance.) Two encoders, because the protocol needs both shapes:
//!
//! * [`Code::parity`]: one message at a time (byte-indexed tables, 16 lookups),
//!   used to verify openings;
//! * [`Code::parity_sliced`]: bit-sliced over many codewords at once, where a
//!   "message bit" is a row of Blocks (128 codewords per Block, or one
//!   GF(2^128) element per position in the consistency check); parity row l
//!   is the XOR of the message rows in its support.

use crate::bch;
use crate::params::{K, N, PARITY, ROW_WORDS};
use brickyard_core::gf2::Gf2Matrix;
use brickyard_core::Block;
use std::sync::OnceLock;

/// A codeword or commitment share laid out as bits of five u64 words:
/// bit j = code position j; bits N..320 are zero.
pub type Row = [u64; ROW_WORDS];

/// The code's tables, built once per process (see [`code`]).
pub struct Code {
    /// `rows[i]` = parity of the unit message e_i.
    rows: Vec<[u64; 3]>,
    /// `table[c][v]` = parity of the message whose byte c is v and other bytes 0.
    table: Vec<[[u64; 3]; 256]>,
    /// The parity map on bit-sliced rows (entry (l, i): message bit i
    /// feeds parity bit l).
    matrix: Gf2Matrix,
}

/// The process-wide code, built on first use (~1 ms).
pub fn code() -> &'static Code {
    static CODE: OnceLock<Code> = OnceLock::new();
    CODE.get_or_init(Code::build)
}

impl Code {
    fn build() -> Code {
        let g = bch::generator_polynomial();
        let rows = bch::parity_rows(&g, K);
        let mut table = vec![[[0u64; 3]; 256]; K / 8];
        for (c, t) in table.iter_mut().enumerate() {
            for v in 1..256usize {
                let low = v & (v - 1);
                let bit = v.trailing_zeros() as usize;
                let mut p = t[low];
                for (w, r) in p.iter_mut().zip(&rows[8 * c + bit]) {
                    *w ^= r;
                }
                t[v] = p;
            }
        }
        let matrix = Gf2Matrix::from_fn(K, PARITY, |l, i| (rows[i][l / 64] >> (l % 64)) & 1 == 1);
        Code {
            rows,
            table,
            matrix,
        }
    }

    /// Parity bits of one message (171 bits in three words).
    pub fn parity(&self, m: Block) -> [u64; 3] {
        let mut p = [0u64; 3];
        for (c, byte) in m.to_bytes().iter().enumerate() {
            let t = &self.table[c][*byte as usize];
            p[0] ^= t[0];
            p[1] ^= t[1];
            p[2] ^= t[2];
        }
        p
    }

    /// The codeword of `m` as a [`Row`].
    pub fn encode(&self, m: Block) -> Row {
        let (lo, hi) = m.halves();
        let p = self.parity(m);
        [lo, hi, p[0], p[1], p[2]]
    }

    /// Whether `row` is a codeword (padding bits must be zero too).
    pub fn is_codeword(&self, row: &Row) -> bool {
        let m = Block::from_halves(row[0], row[1]);
        self.encode(m) == *row
    }

    /// Parity of unit message e_i (for tests and the documentation).
    pub fn parity_row(&self, i: usize) -> [u64; 3] {
        self.rows[i]
    }

    /// Bit-sliced systematic encoding: `msg` holds K message rows of `width`
    /// Blocks each (row i = message bit i of 128·width codewords, or one
    /// GF(2^128) coordinate per row when width = 1); writes PARITY rows into
    /// `parity` (same width). Linear over GF(2), hence over GF(2^128).
    ///
    /// The parity map is a [`Gf2Matrix`] (Four Russians over groups of four
    /// message rows, register-blocked column slices): per parity row and
    /// four Blocks of width, K/4 table loads instead of ~K/2 row XORs.
    ///
    /// # Panics
    /// If the slice lengths are not `K·width` and `PARITY·width` (our buffers).
    pub fn parity_sliced(&self, msg: &[Block], parity: &mut [Block], width: usize) {
        assert_eq!(msg.len(), K * width, "parity_sliced: message shape");
        assert_eq!(parity.len(), PARITY * width, "parity_sliced: parity shape");
        self.matrix.apply(msg, width, parity);
    }
}

/// XOR of two rows.
#[inline]
pub fn xor_rows(a: &Row, b: &Row) -> Row {
    std::array::from_fn(|i| a[i] ^ b[i])
}

/// Row with bit j set iff `bits[j]` (j < N).
pub fn row_from_bits(bits: &[bool]) -> Row {
    let mut r = [0u64; ROW_WORDS];
    for (j, &b) in bits.iter().enumerate().take(N) {
        r[j / 64] |= (b as u64) << (j % 64);
    }
    r
}

/// Whether bit j of `row` is set.
#[inline]
pub fn row_bit(row: &Row, j: usize) -> bool {
    (row[j / 64] >> (j % 64)) & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bch::{alpha_pow, eval_binary_poly};
    use crate::params::D;
    use brickyard_core::prg::Prg;

    /// Codeword row → binary polynomial (message bit i at x^(PARITY+i)).
    fn as_poly(row: &Row) -> Vec<bool> {
        let mut p = vec![false; N];
        for j in 0..N {
            let deg = if j < K { PARITY + j } else { j - K };
            p[deg] = row_bit(row, j);
        }
        p
    }

    #[test]
    fn codewords_have_the_bch_roots() {
        let mut prg = Prg::from_seed(Block(1));
        for _ in 0..20 {
            let c = code().encode(prg.random_block());
            let poly = as_poly(&c);
            for i in 1..D {
                assert_eq!(eval_binary_poly(&poly, alpha_pow(i)), 0);
            }
        }
    }

    #[test]
    fn encode_is_linear_and_table_matches_rows() {
        let c = code();
        let mut prg = Prg::from_seed(Block(2));
        for _ in 0..100 {
            let (a, b) = (prg.random_block(), prg.random_block());
            assert_eq!(xor_rows(&c.encode(a), &c.encode(b)), c.encode(a ^ b));
        }
        for i in 0..K {
            assert_eq!(c.parity(Block(1u128 << i)), c.parity_row(i));
        }
        assert_eq!(c.encode(Block::ZERO), [0; ROW_WORDS]);
    }

    #[test]
    fn low_weight_words_are_never_codewords() {
        let c = code();
        // Exhaustive for weights 1 and 2 (a distance-≥41 code has neither).
        for a in 0..N {
            let mut w = [0u64; ROW_WORDS];
            w[a / 64] ^= 1 << (a % 64);
            assert!(!c.is_codeword(&w));
            for b in a + 1..N {
                let mut v = w;
                v[b / 64] ^= 1 << (b % 64);
                assert!(!c.is_codeword(&v), "weight 2 at {a},{b}");
            }
        }
        // Random words of every weight 3..=40, many per weight.
        let mut prg = Prg::from_seed(Block(3));
        let mut positions: Vec<usize> = (0..N).collect();
        for weight in 3..D {
            for _ in 0..300 {
                prg.shuffle(&mut positions);
                let mut v = [0u64; ROW_WORDS];
                for &j in &positions[..weight] {
                    v[j / 64] ^= 1 << (j % 64);
                }
                assert!(!c.is_codeword(&v), "weight {weight}");
            }
        }
    }

    #[test]
    fn sliced_encoding_matches_single_encoding() {
        let c = code();
        let mut prg = Prg::from_seed(Block(4));
        let width = 3;
        let msg = prg.random_blocks(K * width);
        let mut par = vec![Block::ZERO; PARITY * width];
        c.parity_sliced(&msg, &mut par, width);
        // Codeword number q = (block b, lane t): message bit i = bit t of msg[i][b].
        for b in 0..width {
            for t in [0usize, 1, 63, 64, 127] {
                let mut m = 0u128;
                for i in 0..K {
                    m |= ((msg[i * width + b].0 >> t) & 1) << i;
                }
                let p = c.parity(Block(m));
                for l in 0..PARITY {
                    let sliced = (par[l * width + b].0 >> t) & 1 == 1;
                    assert_eq!(sliced, (p[l / 64] >> (l % 64)) & 1 == 1);
                }
            }
        }
    }

    #[test]
    fn padding_bits_make_a_word_invalid() {
        let c = code();
        let mut w = c.encode(Block(12345));
        w[4] |= 1 << 63;
        assert!(!c.is_codeword(&w));
    }
}
