//! The compiled form of a circuit that garbling and evaluation walk.
//!
//! A circuit is compiled once and garbled many times, so everything that does
//! not depend on labels is decided here: the AND-depth layering (whose AND
//! numbering fixes the hash tweaks), flat arrays of wire indices instead of
//! `Gate` enums, and how each layer's ANDs are cut into hash batches.
//!
//! INV is folded into XOR: the label vector has one extra slot, the *constant
//! wire* (index `num_wires`), holding Δ for the garbler and zero for the
//! evaluator, and `¬a` is compiled as `a ⊕ const`. This is the INV
//! convention of `docs/protocols/garbling.md`: the garbler's 0-label of
//! `¬a` is `A₀ ⊕ Δ`, the evaluator copies its label. The hot loop then has
//! one kind of linear gate and no branches.

use brickyard_circuit::{Circuit, Gate, WireId};
use brickyard_core::{Error, Result};

/// Largest number of AND gates hashed in one batch. A batch's scratch is
/// 4 blocks per AND for the garbler (64 KiB here) and its tables are 32 KiB:
/// large enough that AES always sees long runs, small enough to stay in L2
/// and to bound streaming memory whatever the layer width.
pub const MAX_BATCH: usize = 1024;

/// One batch of independent AND gates, preceded by the linear gates that
/// must run before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// Range into `GarblePlan::linear`.
    pub lin: (u32, u32),
    /// Range into the AND arrays (also the global AND indices).
    pub ands: (u32, u32),
}

/// A circuit compiled for garbling and evaluation; reuse it across executions.
#[derive(Clone, Debug)]
pub struct GarblePlan {
    pub(crate) num_wires: usize,
    pub(crate) input_wires: Vec<WireId>,
    pub(crate) output_wires: Vec<WireId>,
    /// `[a, b, out]`: `out = a ⊕ b`; INV has `b = num_wires` (the constant).
    pub(crate) linear: Vec<[WireId; 3]>,
    pub(crate) and_a: Vec<WireId>,
    pub(crate) and_b: Vec<WireId>,
    pub(crate) and_out: Vec<WireId>,
    pub(crate) steps: Vec<Step>,
    max_batch: usize,
}

impl GarblePlan {
    /// Compiles `circuit`. Wire indices outside the circuit are
    /// [`Error::Config`], so the hot loops can trust the arrays.
    pub fn new(circuit: &Circuit) -> Result<Self> {
        let num_wires = circuit.num_wires as usize;
        if circuit.num_wires == u32::MAX {
            return Err(Error::config("circuit has too many wires"));
        }
        let konst = circuit.num_wires;
        let check = |w: WireId| -> Result<WireId> {
            if w < konst {
                Ok(w)
            } else {
                Err(Error::config(format!(
                    "wire {w} out of range (circuit has {konst} wires)"
                )))
            }
        };
        let wires_of = |groups: &[brickyard_circuit::Group]| -> Result<Vec<WireId>> {
            groups
                .iter()
                .flat_map(|g| g.wires.iter().copied())
                .map(check)
                .collect()
        };
        let input_wires = wires_of(&circuit.inputs)?;
        let output_wires = wires_of(&circuit.outputs)?;
        let and_count = circuit.and_count();
        if and_count > u32::MAX as usize {
            return Err(Error::config("circuit has more than 2^32 AND gates"));
        }
        let mut plan = GarblePlan {
            num_wires,
            input_wires,
            output_wires,
            linear: Vec::with_capacity(circuit.gates.len() - and_count),
            and_a: Vec::with_capacity(and_count),
            and_b: Vec::with_capacity(and_count),
            and_out: Vec::with_capacity(and_count),
            steps: Vec::new(),
            max_batch: 0,
        };
        for layer in circuit.layering().layers {
            debug_assert_eq!(layer.first_and, plan.and_a.len() as u64);
            let lin_start = plan.linear.len() as u32;
            for g in &layer.linear {
                plan.linear.push(match *g {
                    Gate::Xor { a, b, out } => [check(a)?, check(b)?, check(out)?],
                    Gate::Inv { a, out } => [check(a)?, konst, check(out)?],
                    Gate::And { .. } => return Err(Error::config("AND gate among linear gates")),
                });
            }
            let lin = (lin_start, plan.linear.len() as u32);
            let first = plan.and_a.len() as u32;
            for &(a, b, out) in &layer.ands {
                plan.and_a.push(check(a)?);
                plan.and_b.push(check(b)?);
                plan.and_out.push(check(out)?);
            }
            let end = plan.and_a.len() as u32;
            // Only the first batch of a layer carries its linear gates; a
            // wide layer is cut into MAX_BATCH pieces of independent ANDs.
            let mut start = first;
            let mut lin_here = lin;
            loop {
                let stop = end.min(start + MAX_BATCH as u32);
                plan.steps.push(Step {
                    lin: lin_here,
                    ands: (start, stop),
                });
                plan.max_batch = plan.max_batch.max((stop - start) as usize);
                lin_here = (lin.1, lin.1);
                start = stop;
                if start >= end {
                    break;
                }
            }
        }
        Ok(plan)
    }

    /// Number of wires of the circuit (labels are indexed by wire).
    pub fn num_wires(&self) -> usize {
        self.num_wires
    }

    /// Number of AND gates, i.e. half the number of table blocks.
    pub fn and_count(&self) -> usize {
        self.and_a.len()
    }

    /// Number of table blocks a garbling of this circuit produces.
    pub fn table_blocks(&self) -> usize {
        crate::gate::TABLE_BLOCKS * self.and_count()
    }

    /// Input wires of all input groups, concatenated in group order: the
    /// order in which input labels are passed.
    pub fn input_wires(&self) -> &[WireId] {
        &self.input_wires
    }

    /// Output wires of all output groups, concatenated in group order: the
    /// order of output labels and decoding bits.
    pub fn output_wires(&self) -> &[WireId] {
        &self.output_wires
    }

    /// Number of hash batches (AND layers, wide layers split).
    pub fn batch_count(&self) -> usize {
        self.steps.iter().filter(|s| s.ands.1 > s.ands.0).count()
    }

    pub(crate) fn max_batch(&self) -> usize {
        self.max_batch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_circuit::Group;

    fn wide(n: u32) -> Circuit {
        // n independent ANDs of input pairs, then one INV of the last output.
        let gates = (0..n)
            .map(|i| Gate::And {
                a: 2 * i,
                b: 2 * i + 1,
                out: 2 * n + i,
            })
            .chain([Gate::Inv {
                a: 3 * n - 1,
                out: 3 * n,
            }])
            .collect();
        Circuit {
            num_wires: 3 * n + 1,
            inputs: vec![Group {
                name: "x".into(),
                wires: (0..2 * n).collect(),
            }],
            outputs: vec![Group {
                name: "y".into(),
                wires: vec![3 * n],
            }],
            gates,
        }
    }

    #[test]
    fn wide_layers_are_split_and_inv_uses_the_constant() {
        let n = MAX_BATCH as u32 * 2 + 5;
        let p = GarblePlan::new(&wide(n)).unwrap();
        assert_eq!(p.and_count(), n as usize);
        assert_eq!(p.batch_count(), 3);
        assert_eq!(p.max_batch(), MAX_BATCH);
        assert_eq!(p.linear, vec![[3 * n - 1, 3 * n + 1, 3 * n]]);
        let ands: Vec<_> = p.steps.iter().map(|s| s.ands).collect();
        assert_eq!(ands[0], (0, MAX_BATCH as u32));
        assert_eq!(ands[2], (2 * MAX_BATCH as u32, n));
    }

    #[test]
    fn out_of_range_wire_is_config_error() {
        let mut c = wide(3);
        c.outputs[0].wires.push(c.num_wires);
        assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
    }
}
