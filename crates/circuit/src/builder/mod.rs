//! A small bit-vector DSL for writing circuits in Rust.
//!
//! The builder folds constants (an AND with a known 0 emits nothing) and
//! tracks negation as a flag on each [`Bit`], so `not` is free and an `INV`
//! gate is only emitted where an AND input or an output needs the negated
//! value as a real wire. This is what makes e.g. adding a constant cost fewer
//! ANDs than adding a variable, with no special-casing in the circuit code.

mod arith;

use std::collections::HashMap;

use crate::ir::{Circuit, Gate, Group, WireId};

/// One bit of a circuit under construction: a known constant or a wire,
/// possibly negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bit(Repr);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Const(bool),
    Wire { id: WireId, neg: bool },
}

impl Bit {
    /// The constant 0.
    pub const ZERO: Bit = Bit(Repr::Const(false));
    /// The constant 1.
    pub const ONE: Bit = Bit(Repr::Const(true));

    /// A constant bit.
    pub fn constant(v: bool) -> Bit {
        Bit(Repr::Const(v))
    }

    /// The value, if this bit is a known constant.
    pub fn as_const(self) -> Option<bool> {
        match self.0 {
            Repr::Const(v) => Some(v),
            Repr::Wire { .. } => None,
        }
    }
}

impl std::ops::Not for Bit {
    type Output = Bit;
    fn not(self) -> Bit {
        Bit(match self.0 {
            Repr::Const(v) => Repr::Const(!v),
            Repr::Wire { id, neg } => Repr::Wire { id, neg: !neg },
        })
    }
}

/// An ordered vector of bits; index `i` is bit `i` (LSB first for integers).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitVec(pub Vec<Bit>);

impl BitVec {
    /// Number of bits.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether there are no bits.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Bit `i`.
    ///
    /// # Panics
    /// If `i >= len` (a bug in circuit code, not a data error).
    pub fn bit(&self, i: usize) -> Bit {
        self.0[i]
    }
    /// Bits `range` as a new vector.
    pub fn slice(&self, range: std::ops::Range<usize>) -> BitVec {
        BitVec(self.0[range].to_vec())
    }
    /// `self` followed by `other` (other's bits become the high bits).
    pub fn concat(&self, other: &BitVec) -> BitVec {
        BitVec(self.0.iter().chain(&other.0).copied().collect())
    }
    /// The constant `value` (LSB first), `width` bits; bits above 128 are 0.
    pub fn constant(value: u128, width: usize) -> BitVec {
        BitVec(
            (0..width)
                .map(|i| Bit::constant(i < 128 && value >> i & 1 == 1))
                .collect(),
        )
    }
    /// Iterates over the bits.
    pub fn iter(&self) -> impl Iterator<Item = Bit> + '_ {
        self.0.iter().copied()
    }
}

impl FromIterator<Bit> for BitVec {
    fn from_iter<I: IntoIterator<Item = Bit>>(iter: I) -> Self {
        BitVec(iter.into_iter().collect())
    }
}

/// Why [`CircuitBuilder::try_finish`] failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// An output is constant, and with no input wire there is no way to
    /// make a constant wire from XOR/AND/INV.
    #[error("output {0:?} needs a constant wire, but the circuit has no inputs")]
    ConstantWithoutInputs(String),
}

/// Builds a [`Circuit`] gate by gate.
#[derive(Debug, Default)]
pub struct CircuitBuilder {
    next: WireId,
    gates: Vec<Gate>,
    inputs: Vec<Group>,
    outputs: Vec<(String, Vec<Bit>)>,
    /// Wire -> the wire holding its negation, once one was emitted.
    inv: HashMap<WireId, WireId>,
}

impl CircuitBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares the next input group.
    pub fn input(&mut self, name: &str, width: usize) -> BitVec {
        let wires: Vec<WireId> = (0..width).map(|_| self.fresh()).collect();
        let bits = wires
            .iter()
            .map(|&id| Bit(Repr::Wire { id, neg: false }))
            .collect();
        self.inputs.push(Group {
            name: name.to_string(),
            wires,
        });
        bits
    }

    /// Declares the next output group.
    pub fn output(&mut self, name: &str, bits: &BitVec) {
        self.outputs.push((name.to_string(), bits.0.clone()));
    }

    /// AND gates emitted so far (for cost checks while building).
    pub fn and_count(&self) -> usize {
        self.gates
            .iter()
            .filter(|g| matches!(g, Gate::And { .. }))
            .count()
    }

    fn fresh(&mut self) -> WireId {
        self.next += 1;
        self.next - 1
    }

    fn emit_inv(&mut self, id: WireId) -> WireId {
        if let Some(&w) = self.inv.get(&id) {
            return w;
        }
        let out = self.fresh();
        self.gates.push(Gate::Inv { a: id, out });
        self.inv.insert(id, out);
        out
    }

    /// A real wire carrying a non-constant bit.
    fn wire(&mut self, id: WireId, neg: bool) -> WireId {
        if neg {
            self.emit_inv(id)
        } else {
            id
        }
    }

    /// `a ⊕ b` (free).
    pub fn xor_bit(&mut self, a: Bit, b: Bit) -> Bit {
        match (a.0, b.0) {
            (Repr::Const(x), _) => {
                if x {
                    !b
                } else {
                    b
                }
            }
            (_, Repr::Const(y)) => {
                if y {
                    !a
                } else {
                    a
                }
            }
            (Repr::Wire { id: i, neg: n }, Repr::Wire { id: j, neg: m }) => {
                if i == j {
                    return Bit::constant(n != m);
                }
                let out = self.fresh();
                self.gates.push(Gate::Xor { a: i, b: j, out });
                Bit(Repr::Wire {
                    id: out,
                    neg: n != m,
                })
            }
        }
    }

    /// `a ∧ b` (one AND gate unless folded).
    pub fn and_bit(&mut self, a: Bit, b: Bit) -> Bit {
        match (a.0, b.0) {
            (Repr::Const(x), _) => {
                if x {
                    b
                } else {
                    Bit::ZERO
                }
            }
            (_, Repr::Const(y)) => {
                if y {
                    a
                } else {
                    Bit::ZERO
                }
            }
            (Repr::Wire { id: i, neg: n }, Repr::Wire { id: j, neg: m }) => {
                if i == j {
                    return if n == m { a } else { Bit::ZERO };
                }
                let (x, y) = (self.wire(i, n), self.wire(j, m));
                let out = self.fresh();
                self.gates.push(Gate::And { a: x, b: y, out });
                Bit(Repr::Wire {
                    id: out,
                    neg: false,
                })
            }
        }
    }

    /// `a ∨ b` = ¬(¬a ∧ ¬b).
    pub fn or_bit(&mut self, a: Bit, b: Bit) -> Bit {
        !self.and_bit(!a, !b)
    }

    /// `if s { a } else { b }` = b ⊕ (s ∧ (a ⊕ b)): one AND.
    pub fn mux_bit(&mut self, s: Bit, a: Bit, b: Bit) -> Bit {
        let d = self.xor_bit(a, b);
        let t = self.and_bit(s, d);
        self.xor_bit(b, t)
    }

    /// Finishes the circuit.
    ///
    /// # Panics
    /// If an output is constant and the circuit has no inputs (see
    /// [`CircuitBuilder::try_finish`]); all library circuits have inputs.
    pub fn finish(self) -> Circuit {
        match self.try_finish() {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }

    /// Finishes the circuit: materialises outputs as real wires (a constant
    /// output becomes `x ⊕ x` or `¬(x ⊕ x)` of the first input wire) and
    /// numbers wires canonically.
    pub fn try_finish(mut self) -> Result<Circuit, BuildError> {
        let first_input = self
            .inputs
            .iter()
            .flat_map(|g| g.wires.first())
            .next()
            .copied();
        let mut zero: Option<WireId> = None;
        let outputs = std::mem::take(&mut self.outputs);
        let mut groups = Vec::with_capacity(outputs.len());
        for (name, bits) in outputs {
            let mut wires = Vec::with_capacity(bits.len());
            for b in bits {
                let w = match b.0 {
                    Repr::Wire { id, neg } => self.wire(id, neg),
                    Repr::Const(v) => {
                        let z = match zero {
                            Some(z) => z,
                            None => {
                                let x = first_input.ok_or_else(|| {
                                    BuildError::ConstantWithoutInputs(name.clone())
                                })?;
                                let z = self.fresh();
                                self.gates.push(Gate::Xor { a: x, b: x, out: z });
                                zero = Some(z);
                                z
                            }
                        };
                        self.wire(z, v)
                    }
                };
                wires.push(w);
            }
            groups.push(Group { name, wires });
        }
        let c = Circuit {
            num_wires: self.next,
            inputs: self.inputs,
            outputs: groups,
            gates: self.gates,
        };
        Ok(c.canonicalize())
    }
}
