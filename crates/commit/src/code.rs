//! The shortened binary BCH codes [N, K = 128, D], systematic; the code is
//! chosen from s ([`crate::params::CommitParams`]): s = 40 gives
//! [299, 128, 41], s = 43 gives [317, 128, 45].
//!
//! Position j < K of a codeword is message bit j; position K + l is parity
//! bit l. (In polynomial terms message bit i is the coefficient of
//! x^(parity+i) and parity bit l that of x^l; reordering coordinates does not
//! change the distance.) Two encoders, because the protocol needs both shapes:
//!
//! * [`Code::parity`]: one message at a time (byte-indexed tables, 16 lookups),
//!   used to verify openings;
//! * [`Code::parity_sliced`]: bit-sliced over many codewords at once, where a
//!   "message bit" is a row of Blocks (128 codewords per Block, or one
//!   GF(2^128) element per position in the consistency check); parity row l
//!   is the XOR of the message rows in its support.

use crate::bch;
use crate::params::{K, MAX_N, MAX_PARITY, MIN_N, PARITY_WORDS, ROW_WORDS};
use brickyard_core::gf2::Gf2Matrix;
use brickyard_core::Block;
use std::sync::OnceLock;

/// A codeword or commitment share laid out as bits of [`ROW_WORDS`] u64
/// words: bit j = code position j; bits from N on are zero.
pub type Row = [u64; ROW_WORDS];

/// The code's tables, built once per process and code (see
/// [`Code::for_distance`]).
pub struct Code {
    /// Code length N = K + parity bits.
    n: usize,
    /// Parity bits (degree of the generator).
    parity: usize,
    /// Designed distance (BCH bound).
    distance: usize,
    /// `rows[i]` = parity of the unit message e_i.
    rows: Vec<[u64; PARITY_WORDS]>,
    /// `table[c][v]` = parity of the message whose byte c is v and other bytes 0.
    table: Vec<[[u64; PARITY_WORDS]; 256]>,
    /// The parity map on bit-sliced rows (entry (l, i): message bit i
    /// feeds parity bit l).
    matrix: Gf2Matrix,
}

/// Most roots a cached code may be asked for (far past what fits a row).
const MAX_ROOTS: usize = 128;

impl Code {
    /// The shortest code of this family with designed distance ≥ `d`
    /// (roots α^1..α^(d−1)), built on first use (~1 ms) and kept for the
    /// process; `None` when its length is outside the row layout
    /// ([`MIN_N`]..=[`MAX_N`]).
    pub fn for_distance(d: usize) -> Option<&'static Code> {
        static CODES: [OnceLock<Option<Code>>; MAX_ROOTS + 1] =
            [const { OnceLock::new() }; MAX_ROOTS + 1];
        let roots = d.checked_sub(1)?;
        CODES
            .get(roots)?
            .get_or_init(|| Code::build(roots))
            .as_ref()
    }

    fn build(roots: usize) -> Option<Code> {
        let g = bch::generator_polynomial(roots)?;
        let parity = g.coeffs.len() - 1;
        let n = K + parity;
        if parity > MAX_PARITY || !(MIN_N..=MAX_N).contains(&n) {
            return None;
        }
        let rows = bch::parity_rows(&g.coeffs, K);
        let mut table = vec![[[0u64; PARITY_WORDS]; 256]; K / 8];
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
        let matrix = Gf2Matrix::from_fn(K, parity, |l, i| (rows[i][l / 64] >> (l % 64)) & 1 == 1);
        Some(Code {
            n,
            parity,
            distance: g.distance,
            rows,
            table,
            matrix,
        })
    }

    /// Code length N (= number of base OTs).
    pub fn n(&self) -> usize {
        self.n
    }

    /// Parity bits N − K.
    pub fn parity_bits(&self) -> usize {
        self.parity
    }

    /// Designed distance D.
    pub fn distance(&self) -> usize {
        self.distance
    }

    /// Parity bits of one message (N − K bits; the words past them are 0).
    pub fn parity(&self, m: Block) -> [u64; PARITY_WORDS] {
        let mut p = [0u64; PARITY_WORDS];
        let used = self.parity.div_ceil(64);
        for (c, byte) in m.to_bytes().iter().enumerate() {
            let t = &self.table[c][*byte as usize];
            for (p, t) in p[..used].iter_mut().zip(t) {
                *p ^= t;
            }
        }
        p
    }

    /// The codeword of `m` as a [`Row`].
    pub fn encode(&self, m: Block) -> Row {
        let (lo, hi) = m.halves();
        let p = self.parity(m);
        std::array::from_fn(|i| match i {
            0 => lo,
            1 => hi,
            _ => p[i - 2],
        })
    }

    /// Whether `row` is a codeword (padding bits must be zero too).
    pub fn is_codeword(&self, row: &Row) -> bool {
        let m = Block::from_halves(row[0], row[1]);
        self.encode(m) == *row
    }

    /// Parity of unit message e_i (for tests and the documentation).
    pub fn parity_row(&self, i: usize) -> [u64; PARITY_WORDS] {
        self.rows[i]
    }

    /// Bit-sliced systematic encoding: `msg` holds K message rows of `width`
    /// Blocks each (row i = message bit i of 128·width codewords, or one
    /// GF(2^128) coordinate per row when width = 1); writes N − K rows into
    /// `parity` (same width). Linear over GF(2), hence over GF(2^128).
    ///
    /// The parity map is a [`Gf2Matrix`] (Four Russians over groups of four
    /// message rows, register-blocked column slices): per parity row and
    /// four Blocks of width, K/4 table loads instead of ~K/2 row XORs.
    ///
    /// # Panics
    /// If the slice lengths are not `K·width` and `(N − K)·width` (our buffers).
    pub fn parity_sliced(&self, msg: &[Block], parity: &mut [Block], width: usize) {
        assert_eq!(msg.len(), K * width, "parity_sliced: message shape");
        assert_eq!(
            parity.len(),
            self.parity * width,
            "parity_sliced: parity shape"
        );
        self.matrix.apply(msg, width, parity);
    }
}

/// XOR of two rows.
#[inline]
pub fn xor_rows(a: &Row, b: &Row) -> Row {
    std::array::from_fn(|i| a[i] ^ b[i])
}

/// Row with bit j set iff `bits[j]` (j < [`MAX_N`]).
pub fn row_from_bits(bits: &[bool]) -> Row {
    let mut r = [0u64; ROW_WORDS];
    for (j, &b) in bits.iter().enumerate().take(MAX_N) {
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
    use brickyard_core::prg::Prg;

    /// The codes the tests run on: s = 40's and LEGO's default (s = 43).
    fn codes() -> [&'static Code; 2] {
        [41, 44].map(|d| Code::for_distance(d).unwrap())
    }

    /// Codeword row → binary polynomial (message bit i at x^(parity+i)).
    fn as_poly(c: &Code, row: &Row) -> Vec<bool> {
        let mut p = vec![false; c.n];
        for j in 0..c.n {
            let deg = if j < K { c.parity + j } else { j - K };
            p[deg] = row_bit(row, j);
        }
        p
    }

    #[test]
    fn codes_follow_the_distance_and_refuse_what_rows_cannot_hold() {
        let c41 = Code::for_distance(41).unwrap();
        assert_eq!((c41.n(), c41.distance()), (299, 41));
        // α^41 adds its coset (α^42 = (α^21)^2 is a root already): D = 43;
        // α^43 adds one more (α^44 follows): D = 45.
        for (d, shape) in [(42, (308, 180, 43)), (43, (308, 180, 43))] {
            let c = Code::for_distance(d).unwrap();
            assert_eq!((c.n(), c.parity_bits(), c.distance()), shape, "{d}");
        }
        for d in 44..=45 {
            let c = Code::for_distance(d).unwrap();
            assert_eq!(
                (c.n(), c.parity_bits(), c.distance()),
                (317, 189, 45),
                "{d}"
            );
        }
        // Rows are 448 bits: roots α^1..α^86 give N = 446, α^87 N = 455.
        assert_eq!(Code::for_distance(87).unwrap().n(), 446);
        assert!(Code::for_distance(88).is_none(), "N = 455 > 448");
        assert!(Code::for_distance(0).is_none());
    }

    #[test]
    fn codewords_have_the_bch_roots() {
        let mut prg = Prg::from_seed(Block(1));
        for c in codes() {
            for _ in 0..20 {
                let w = c.encode(prg.random_block());
                let poly = as_poly(c, &w);
                for i in 1..c.distance {
                    assert_eq!(eval_binary_poly(&poly, alpha_pow(i)), 0);
                }
            }
        }
    }

    #[test]
    fn encode_is_linear_and_table_matches_rows() {
        for c in codes() {
            encode_is_linear_on(c);
        }
    }

    fn encode_is_linear_on(c: &Code) {
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
        for c in codes() {
            low_weight_words_on(c);
        }
    }

    fn low_weight_words_on(c: &Code) {
        let (n, d) = (c.n, c.distance);
        // Exhaustive for weights 1 and 2 (a distance-≥41 code has neither).
        for a in 0..n {
            let mut w = [0u64; ROW_WORDS];
            w[a / 64] ^= 1 << (a % 64);
            assert!(!c.is_codeword(&w));
            for b in a + 1..n {
                let mut v = w;
                v[b / 64] ^= 1 << (b % 64);
                assert!(!c.is_codeword(&v), "weight 2 at {a},{b}");
            }
        }
        // Random words of every weight 3..D, many per weight.
        let mut prg = Prg::from_seed(Block(3));
        let mut positions: Vec<usize> = (0..n).collect();
        for weight in 3..d {
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
        for c in codes() {
            sliced_encoding_on(c);
        }
    }

    fn sliced_encoding_on(c: &Code) {
        let mut prg = Prg::from_seed(Block(4));
        let width = 3;
        let msg = prg.random_blocks(K * width);
        let mut par = vec![Block::ZERO; c.parity * width];
        c.parity_sliced(&msg, &mut par, width);
        // Codeword number q = (block b, lane t): message bit i = bit t of msg[i][b].
        for b in 0..width {
            for t in [0usize, 1, 63, 64, 127] {
                let mut m = 0u128;
                for i in 0..K {
                    m |= ((msg[i * width + b].0 >> t) & 1) << i;
                }
                let p = c.parity(Block(m));
                for l in 0..c.parity {
                    let sliced = (par[l * width + b].0 >> t) & 1 == 1;
                    assert_eq!(sliced, (p[l / 64] >> (l % 64)) & 1 == 1);
                }
            }
        }
    }

    #[test]
    fn padding_bits_make_a_word_invalid() {
        for c in codes() {
            let mut w = c.encode(Block(12345));
            w[4] |= 1 << 63;
            assert!(!c.is_codeword(&w));
        }
    }
}
