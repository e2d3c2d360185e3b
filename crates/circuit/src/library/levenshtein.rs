//! Levenshtein distance in the style of Huang–Evans–Katz–Malka (USENIX
//! Security 2011): an L×L dynamic program whose every step is one small
//! "cell" circuit, so CompGC can garble cells as components and solder them.
//!
//! One DP step computes `D[i][j] = min(up + 1, left + 1, diag + t)` with
//! `up = D[i−1][j]`, `left = D[i][j−1]`, `diag = D[i−1][j−1]` and
//! `t = (a_i ≠ b_j)`. Adjacent DP entries differ by at most one, so
//! `up, left ≥ diag − 1`; under that precondition the minimum is
//! `diag + (t ∧ ¬(up < diag) ∧ ¬(left < diag))`: two W-bit comparisons, an
//! 8-bit inequality and an increment, 3W + 8 ANDs instead of two general
//! minimums. (The precondition always holds inside a Levenshtein table; on
//! other inputs the cell's output is unspecified.)

use crate::builder::{BitVec, CircuitBuilder};
use crate::ir::Circuit;

/// Symbol width in bits.
pub const SYMBOL_BITS: usize = 8;

/// One DP step inside a builder (see the module docs).
pub(crate) fn cell(
    b: &mut CircuitBuilder,
    a: &BitVec,
    s: &BitVec,
    diag: &BitVec,
    up: &BitVec,
    left: &BitVec,
) -> BitVec {
    let same = b.eq(a, s);
    let up_lt = b.lt(up, diag);
    let left_lt = b.lt(left, diag);
    let keep = b.or_bit(up_lt, left_lt);
    let t = b.and_bit(!same, !keep);
    b.add_bit(diag, t)
}

/// `levenshtein-cell:W`: input groups `a` (8), `b` (8), `diag` (W), `up`
/// (W), `left` (W), all LSB first; output `d` (W) = `D[i][j]`.
pub fn levenshtein_cell(w: usize) -> Circuit {
    let mut b = CircuitBuilder::new();
    let a = b.input("a", SYMBOL_BITS);
    let s = b.input("b", SYMBOL_BITS);
    let diag = b.input("diag", w);
    let up = b.input("up", w);
    let left = b.input("left", w);
    let d = cell(&mut b, &a, &s, &diag, &up, &left);
    b.output("d", &d);
    b.finish()
}

/// Width of the distance values of `levenshtein:L`.
pub fn distance_bits(l: usize) -> usize {
    super::arith::bits_for(l).max(1)
}

/// `levenshtein:L`: group 0 Alice's L symbols, group 1 Bob's, each a byte
/// string in REVERSED order (so `0x6b697474656e` is "kitten": symbol `i` is
/// byte `i`); output the distance, `distance_bits(L)` bits LSB first.
pub fn levenshtein(l: usize) -> Circuit {
    let w = distance_bits(l);
    let mut b = CircuitBuilder::new();
    let x = b.input("a", SYMBOL_BITS * l);
    let y = b.input("b", SYMBOL_BITS * l);
    let (xs, ys) = (super::aes::to_bytes(&x), super::aes::to_bytes(&y));
    // Row 0 of the table: D[0][j] = j (constants, folded away in row 1).
    let mut prev: Vec<BitVec> = (0..=l).map(|j| BitVec::constant(j as u128, w)).collect();
    for (i, xi) in xs.iter().enumerate() {
        let mut row = Vec::with_capacity(l + 1);
        row.push(BitVec::constant(i as u128 + 1, w));
        for (j, yj) in ys.iter().enumerate() {
            let d = cell(&mut b, xi, yj, &prev[j], &prev[j + 1], &row[j]);
            row.push(d);
        }
        prev = row;
    }
    b.output("distance", &prev[l]);
    b.finish()
}
