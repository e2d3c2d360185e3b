//! The circuit intermediate representation.

use serde::{Deserialize, Serialize};

/// A wire index. Wires are numbered densely from 0 to `num_wires - 1`.
pub type WireId = u32;

/// A gate of the normalised IR. File operations `EQ`, `EQW` and `MAND` are
/// rewritten at load time into these (constants become `Inv`/`Xor` of an
/// input wire, copies are aliased away, `MAND` becomes several `And`s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Gate {
    /// `out = a ⊕ b` (free with free-XOR).
    Xor {
        /// First input wire.
        a: WireId,
        /// Second input wire.
        b: WireId,
        /// Output wire.
        out: WireId,
    },
    /// `out = a ∧ b` (the gate that costs cryptography).
    And {
        /// First input wire.
        a: WireId,
        /// Second input wire.
        b: WireId,
        /// Output wire.
        out: WireId,
    },
    /// `out = ¬a` (free: the garbler flips the label's meaning).
    Inv {
        /// Input wire.
        a: WireId,
        /// Output wire.
        out: WireId,
    },
}

impl Gate {
    /// The wire this gate writes.
    pub fn output(&self) -> WireId {
        match *self {
            Gate::Xor { out, .. } | Gate::And { out, .. } | Gate::Inv { out, .. } => out,
        }
    }
    /// The wires this gate reads.
    pub fn inputs(&self) -> ([WireId; 2], usize) {
        match *self {
            Gate::Xor { a, b, .. } | Gate::And { a, b, .. } => ([a, b], 2),
            Gate::Inv { a, .. } => ([a, a], 1),
        }
    }
}

/// A named, ordered set of wires: one input value or one output value.
/// Wire `k` of the group carries bit `k` of an integer value (see the value
/// conventions in the crate docs and `docs/architecture.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// Human-readable name ("key", "plaintext", "a", …).
    pub name: String,
    /// The wires, in bit order.
    pub wires: Vec<WireId>,
}

impl Group {
    /// Number of wires (bits) in the group.
    pub fn width(&self) -> usize {
        self.wires.len()
    }
}

/// A Boolean circuit in topological order.
///
/// Invariants (checked by [`Circuit::validate`], guaranteed by the parsers
/// and the builder): every wire is written exactly once — either as an input
/// wire or as a gate output — and never read before it is written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Circuit {
    /// Total number of wires.
    pub num_wires: u32,
    /// Input groups in order; group `g` is owned by a party per the run's
    /// `--alice-groups`/`--bob-groups` (default: 0 is Alice's, 1 is Bob's).
    pub inputs: Vec<Group>,
    /// Output groups in order.
    pub outputs: Vec<Group>,
    /// Gates in a topological order.
    pub gates: Vec<Gate>,
}

/// One step of a layered evaluation: first the linear gates whose inputs are
/// all available, then a batch of mutually independent AND gates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layer {
    /// XOR and INV gates, in an order valid for sequential evaluation.
    pub linear: Vec<Gate>,
    /// AND gates `(a, b, out)` that depend only on wires available after
    /// `linear` (and earlier layers); all of them can be hashed in one batch.
    pub ands: Vec<(WireId, WireId, WireId)>,
    /// Index of the first AND of this layer in the circuit's AND numbering
    /// (the garbler's hash tweak is derived from this global AND index).
    pub first_and: u64,
}

/// A circuit split into AND-depth layers. The final layer may hold only
/// linear gates (the ones after the last AND).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layering {
    /// The layers, in evaluation order.
    pub layers: Vec<Layer>,
}

impl Circuit {
    /// Number of AND gates.
    pub fn and_count(&self) -> usize {
        self.gates
            .iter()
            .filter(|g| matches!(g, Gate::And { .. }))
            .count()
    }

    /// Total number of input wires over all groups.
    pub fn input_width(&self) -> usize {
        self.inputs.iter().map(Group::width).sum()
    }

    /// Total number of output wires over all groups.
    pub fn output_width(&self) -> usize {
        self.outputs.iter().map(Group::width).sum()
    }

    /// The AND-depth of every wire (inputs have depth 0).
    pub fn and_depths(&self) -> Vec<u32> {
        let mut depth = vec![0u32; self.num_wires as usize];
        for g in &self.gates {
            match *g {
                Gate::Xor { a, b, out } => {
                    depth[out as usize] = depth[a as usize].max(depth[b as usize])
                }
                Gate::And { a, b, out } => {
                    depth[out as usize] = depth[a as usize].max(depth[b as usize]) + 1
                }
                Gate::Inv { a, out } => depth[out as usize] = depth[a as usize],
            }
        }
        depth
    }

    /// The largest number of AND gates on any path.
    pub fn and_depth(&self) -> u32 {
        self.and_depths().into_iter().max().unwrap_or(0)
    }

    /// Groups gates into AND-depth layers. Layer `d` holds the linear gates
    /// whose output has AND-depth `d`, then the AND gates whose output has
    /// AND-depth `d + 1`. Within a layer the original relative order is kept,
    /// which preserves topological validity. AND gates are numbered in layer
    /// order; that numbering (not file order) is the one hash tweaks use.
    pub fn layering(&self) -> Layering {
        let depth = self.and_depths();
        let max = depth.iter().copied().max().unwrap_or(0) as usize;
        // Count first so each layer is allocated once: layering runs per
        // part on hot paths (gczk builds thousands of parts per proof).
        let mut counts = vec![(0usize, 0usize); max + 1];
        for g in &self.gates {
            let d = depth[g.output() as usize] as usize;
            match g {
                Gate::And { .. } => counts[d - 1].1 += 1,
                _ => counts[d].0 += 1,
            }
        }
        let mut layers: Vec<Layer> = counts
            .iter()
            .map(|&(l, a)| Layer {
                linear: Vec::with_capacity(l),
                ands: Vec::with_capacity(a),
                first_and: 0,
            })
            .collect();
        for g in &self.gates {
            let d = depth[g.output() as usize] as usize;
            match *g {
                Gate::And { a, b, out } => layers[d - 1].ands.push((a, b, out)),
                lin => layers[d].linear.push(lin),
            }
        }
        let mut next = 0u64;
        for l in &mut layers {
            l.first_and = next;
            next += l.ands.len() as u64;
        }
        while layers.len() > 1
            && layers
                .last()
                .is_some_and(|l| l.linear.is_empty() && l.ands.is_empty())
        {
            layers.pop();
        }
        Layering { layers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// out = (x0 & x1) ^ x2, then NOT.
    fn tiny() -> Circuit {
        Circuit {
            num_wires: 5,
            inputs: vec![
                Group {
                    name: "a".into(),
                    wires: vec![0, 1],
                },
                Group {
                    name: "b".into(),
                    wires: vec![2],
                },
            ],
            outputs: vec![Group {
                name: "o".into(),
                wires: vec![4],
            }],
            gates: vec![
                Gate::And { a: 0, b: 1, out: 3 },
                Gate::Xor {
                    a: 3,
                    b: 2,
                    out: 2 + 2,
                },
            ],
        }
    }

    #[test]
    fn counts_and_layers() {
        let c = tiny();
        assert_eq!(c.and_count(), 1);
        assert_eq!(c.and_depth(), 1);
        let l = c.layering();
        assert_eq!(l.layers.len(), 2);
        assert_eq!(l.layers[0].ands, vec![(0, 1, 3)]);
        assert!(l.layers[0].linear.is_empty());
        assert_eq!(l.layers[1].linear.len(), 1);
        assert_eq!(l.layers[1].first_and, 1);
    }
}
