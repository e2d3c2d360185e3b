//! Integer circuits: two N-bit inputs `a` (group 0) and `b` (group 1), LSB
//! first, matching the integer convention of the shared Bristol files.

use crate::builder::{BitVec, CircuitBuilder};
use crate::ir::Circuit;

/// The integer operations offered as `opN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    /// `a + b mod 2^N`.
    Add,
    /// `a − b mod 2^N`.
    Sub,
    /// `a · b mod 2^N` (the low N bits).
    Mul,
    /// `a < b`, unsigned, 1 bit.
    Lt,
    /// `a == b`, 1 bit.
    Eq,
    /// Hamming distance popcount(a ⊕ b), `ceil(log2(N+1))` bits.
    Hamming,
}

/// Bits needed to hold every integer in `0..=n`.
pub fn bits_for(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

/// The circuit for `op` on `n`-bit operands.
pub fn int_circuit(op: IntOp, n: usize) -> Circuit {
    let mut bl = CircuitBuilder::new();
    let a = bl.input("a", n);
    let b = bl.input("b", n);
    let out = match op {
        IntOp::Add => bl.add(&a, &b),
        IntOp::Sub => bl.sub(&a, &b),
        IntOp::Mul => bl.mul(&a, &b),
        IntOp::Lt => BitVec(vec![bl.lt(&a, &b)]),
        IntOp::Eq => BitVec(vec![bl.eq(&a, &b)]),
        IntOp::Hamming => {
            let d = bl.xor(&a, &b);
            bl.popcount(&d, bits_for(n))
        }
    };
    bl.output("out", &out);
    bl.finish()
}
