//! Parts of the Step 5b relation stamped from templates.
//!
//! A part holds up to 16 copies of the same few sub-circuits (SHA-256 of a
//! seed, AES-128 under a seed, the double hash of Δ), which differ only in
//! public constants (the index i of D_i) and in the public values the
//! results are compared with. `CircuitBuilder` re-derives every copy gate
//! by gate through its hash map of negations; profiled, that was two
//! thirds of the proof's CPU time, since every part is built three times
//! (the verifier once, the prover to evaluate and again to re-garble).
//! Here each sub-circuit is built once per statement by the builder (a
//! *template*, its variable bytes as inputs) and each copy is stamped from
//! it in one pass over its gates, with the builder's folding rules applied
//! to constant inputs (XOR with a constant is a negation, AND with a
//! constant is a wire or 0, a wire with itself or its negation folds), and
//! negations materialised once per wire from a table instead of a hash map.
//!
//! The stamped part computes the same function as the builder's circuit
//! of the same constraints (`circuit::relation`; the tests assert that the
//! parts and the whole circuit agree on true and false witnesses); its
//! gates need not be the builder's gate for gate, since both parties stamp
//! them with this same code from the same public values.

use brickyard_circuit::{Circuit, Gate, Group, WireId};

/// A bit of a part under construction: a constant, or a wire, possibly
/// negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    /// A known bit.
    Const(bool),
    /// Wire `id`, negated if the flag is set.
    Wire(WireId, bool),
}

impl std::ops::Not for Val {
    type Output = Val;
    fn not(self) -> Val {
        match self {
            Val::Const(v) => Val::Const(!v),
            Val::Wire(id, n) => Val::Wire(id, !n),
        }
    }
}

/// No negation made yet.
const NONE: WireId = WireId::MAX;

/// A circuit being stamped.
#[derive(Default)]
pub(crate) struct Stamp {
    gates: Vec<Gate>,
    next: WireId,
    /// neg[w]: the wire holding ¬w, once one was emitted.
    neg: Vec<WireId>,
    inputs: Vec<Group>,
    /// Scratch: the value of each template wire.
    map: Vec<Val>,
}

impl Stamp {
    pub(crate) fn with_capacity(gates: usize) -> Stamp {
        Stamp {
            gates: Vec::with_capacity(gates),
            neg: Vec::with_capacity(gates + gates / 8),
            ..Stamp::default()
        }
    }

    fn fresh(&mut self) -> WireId {
        self.neg.push(NONE);
        self.next += 1;
        self.next - 1
    }

    /// Declares the next input group.
    pub(crate) fn input(&mut self, name: &str, width: usize) -> Vec<Val> {
        let wires: Vec<WireId> = (0..width).map(|_| self.fresh()).collect();
        let vals = wires.iter().map(|&w| Val::Wire(w, false)).collect();
        self.inputs.push(Group {
            name: name.to_string(),
            wires,
        });
        vals
    }

    /// A real wire carrying `id` or its negation.
    fn real(&mut self, id: WireId, neg: bool) -> WireId {
        if !neg {
            return id;
        }
        let n = self.neg[id as usize];
        if n != NONE {
            return n;
        }
        let out = self.fresh();
        self.gates.push(Gate::Inv { a: id, out });
        self.neg[id as usize] = out;
        out
    }

    /// `a ⊕ b` (free).
    pub(crate) fn xor(&mut self, a: Val, b: Val) -> Val {
        match (a, b) {
            (Val::Const(x), v) | (v, Val::Const(x)) => {
                if x {
                    !v
                } else {
                    v
                }
            }
            (Val::Wire(i, n), Val::Wire(j, m)) => {
                if i == j {
                    return Val::Const(n != m);
                }
                let out = self.fresh();
                self.gates.push(Gate::Xor { a: i, b: j, out });
                Val::Wire(out, n != m)
            }
        }
    }

    /// `a ∧ b` (one AND gate unless folded).
    pub(crate) fn and(&mut self, a: Val, b: Val) -> Val {
        match (a, b) {
            (Val::Const(x), v) | (v, Val::Const(x)) => {
                if x {
                    v
                } else {
                    Val::Const(false)
                }
            }
            (Val::Wire(i, n), Val::Wire(j, m)) => {
                if i == j {
                    return if n == m { a } else { Val::Const(false) };
                }
                let (x, y) = (self.real(i, n), self.real(j, m));
                let out = self.fresh();
                self.gates.push(Gate::And { a: x, b: y, out });
                Val::Wire(out, false)
            }
        }
    }

    /// ∧ of the bits (balanced tree).
    pub(crate) fn all(&mut self, bits: &[Val]) -> Val {
        let mut layer = bits.to_vec();
        if layer.is_empty() {
            return Val::Const(true);
        }
        while layer.len() > 1 {
            let mut next = Vec::with_capacity(layer.len().div_ceil(2));
            for pair in layer.chunks(2) {
                next.push(match *pair {
                    [x, y] => self.and(x, y),
                    [x] => x,
                    _ => unreachable!("chunks of two"),
                });
            }
            layer = next;
        }
        layer[0]
    }

    /// `x = c` for public bits `c`: ∧ of ¬(x_k ⊕ c_k).
    pub(crate) fn equals_const(&mut self, x: &[Val], c: impl IntoIterator<Item = bool>) -> Val {
        let same: Vec<Val> = x
            .iter()
            .zip(c)
            .map(|(&v, c)| if c { v } else { !v })
            .collect();
        debug_assert_eq!(same.len(), x.len());
        self.all(&same)
    }

    /// `x = y`.
    pub(crate) fn equals(&mut self, x: &[Val], y: &[Val]) -> Val {
        let same: Vec<Val> = x.iter().zip(y).map(|(&a, &b)| !self.xor(a, b)).collect();
        self.all(&same)
    }

    /// A copy of template `t` (inputs: every group's wires in order) on
    /// `ins`; returns its output bits (every group in order).
    pub(crate) fn template(&mut self, t: &Circuit, ins: &[Val]) -> Vec<Val> {
        let inputs: Vec<WireId> = t
            .inputs
            .iter()
            .flat_map(|g| g.wires.iter().copied())
            .collect();
        assert_eq!(inputs.len(), ins.len(), "delta_zk stamp: template inputs");
        let mut map = std::mem::take(&mut self.map);
        map.clear();
        map.resize(t.num_wires as usize, Val::Const(false));
        for (&w, &v) in inputs.iter().zip(ins) {
            map[w as usize] = v;
        }
        for g in &t.gates {
            match *g {
                Gate::Xor { a, b, out } => {
                    map[out as usize] = self.xor(map[a as usize], map[b as usize])
                }
                Gate::And { a, b, out } => {
                    map[out as usize] = self.and(map[a as usize], map[b as usize])
                }
                Gate::Inv { a, out } => map[out as usize] = !map[a as usize],
            }
        }
        let out = t
            .outputs
            .iter()
            .flat_map(|g| g.wires.iter())
            .map(|&w| map[w as usize])
            .collect();
        self.map = map;
        out
    }

    /// The circuit with the one output `holds`; a constant output becomes
    /// `x ⊕ x` (or its negation) of the first input wire, as the builder
    /// does.
    pub(crate) fn finish(mut self, holds: Val) -> Circuit {
        let w = match holds {
            Val::Wire(id, n) => self.real(id, n),
            Val::Const(v) => {
                let x = self
                    .inputs
                    .iter()
                    .flat_map(|g| g.wires.first())
                    .next()
                    .copied()
                    .expect("a part has inputs");
                let z = self.fresh();
                self.gates.push(Gate::Xor { a: x, b: x, out: z });
                self.real(z, v)
            }
        };
        Circuit {
            num_wires: self.next,
            inputs: self.inputs,
            outputs: vec![Group {
                name: "holds".into(),
                wires: vec![w],
            }],
            gates: self.gates,
        }
    }
}

/// Bytes as bits, LSB first.
pub(crate) fn const_bits(bytes: &[u8]) -> impl Iterator<Item = bool> + '_ {
    bytes
        .iter()
        .flat_map(|&v| (0..8).map(move |t| v >> t & 1 == 1))
}
