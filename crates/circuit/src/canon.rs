//! Dense renumbering into the canonical wire order.

use crate::ir::{Circuit, Gate, Group, WireId};

impl Circuit {
    /// Whether wires are already numbered the way the parser numbers them:
    /// input groups occupy `0..n` in group order, and gate `i` writes wire
    /// `n + i`. The Bristol writer is the exact inverse of the parser on such
    /// circuits (as long as outputs are distinct gate outputs).
    pub fn is_canonical(&self) -> bool {
        let ins = self.inputs.iter().flat_map(|g| g.wires.iter());
        let n = self.input_width();
        ins.enumerate().all(|(i, &w)| w as usize == i)
            && self
                .gates
                .iter()
                .enumerate()
                .all(|(i, g)| g.output() as usize == n + i)
            && self.num_wires as usize == n + self.gates.len()
    }

    /// Returns the same circuit with wires renumbered canonically (see
    /// [`Circuit::is_canonical`]). Gate order and group names are kept.
    ///
    /// Meant for valid circuits; wires that are out of range or never written
    /// are mapped to wire 0 instead of panicking, so the result of an invalid
    /// circuit is unspecified but safe.
    pub fn canonicalize(&self) -> Circuit {
        const NONE: WireId = WireId::MAX;
        let mut map = vec![NONE; self.num_wires as usize];
        let mut next: WireId = 0;
        let mut assign = |w: WireId, map: &mut [WireId]| {
            if let Some(slot) = map.get_mut(w as usize) {
                if *slot == NONE {
                    *slot = next;
                    next += 1;
                }
            }
        };
        for &w in self.inputs.iter().flat_map(|g| g.wires.iter()) {
            assign(w, &mut map);
        }
        for g in &self.gates {
            assign(g.output(), &mut map);
        }
        let m = |w: WireId| match map.get(w as usize) {
            Some(&v) if v != NONE => v,
            _ => 0,
        };
        let gates = self
            .gates
            .iter()
            .map(|g| match *g {
                Gate::Xor { a, b, out } => Gate::Xor {
                    a: m(a),
                    b: m(b),
                    out: m(out),
                },
                Gate::And { a, b, out } => Gate::And {
                    a: m(a),
                    b: m(b),
                    out: m(out),
                },
                Gate::Inv { a, out } => Gate::Inv {
                    a: m(a),
                    out: m(out),
                },
            })
            .collect();
        let remap = |gs: &[Group]| -> Vec<Group> {
            gs.iter()
                .map(|g| Group {
                    name: g.name.clone(),
                    wires: g.wires.iter().map(|&w| m(w)).collect(),
                })
                .collect()
        };
        Circuit {
            num_wires: next,
            inputs: remap(&self.inputs),
            outputs: remap(&self.outputs),
            gates,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{Circuit, Gate, Group};

    #[test]
    fn renumbers_inputs_first() {
        let c = Circuit {
            num_wires: 4,
            inputs: vec![Group {
                name: "a".into(),
                wires: vec![3, 0],
            }],
            outputs: vec![Group {
                name: "o".into(),
                wires: vec![2],
            }],
            gates: vec![Gate::Xor { a: 3, b: 0, out: 1 }, Gate::Inv { a: 1, out: 2 }],
        };
        assert!(!c.is_canonical());
        let d = c.canonicalize();
        assert!(d.is_canonical());
        assert_eq!(d.validate(), Ok(()));
        assert_eq!(
            d.gates,
            vec![Gate::Xor { a: 0, b: 1, out: 2 }, Gate::Inv { a: 2, out: 3 }]
        );
        assert_eq!(d.outputs[0].wires, vec![3]);
        assert_eq!(d.inputs[0].wires, vec![0, 1]);
    }
}
