//! The compiled form of a circuit that garbling and evaluation walk.
//!
//! A circuit is compiled once and garbled many times, so everything that does
//! not depend on labels is decided here: the AND-depth layering (whose AND
//! numbering fixes the hash tweaks), flat arrays of wire indices instead of
//! `Gate` enums, and how each layer's ANDs are cut into hash batches.
//!
//! Wires are renumbered into *slots* in the order they are written: slot 0
//! is the constant wire, slots `1..=inputs` the input wires, then every
//! gate output in evaluation order. Gate outputs therefore need no index at
//! all (each step writes the next slots in turn), an AND batch's outputs are
//! one contiguous slice, and labels that are used together sit together in
//! memory.
//!
//! INV is folded into XOR: the *constant wire* holds Δ for the garbler and
//! zero for the evaluator, and `¬a` is compiled as `a ⊕ const`. This is the
//! INV convention of `docs/protocols/garbling.md`: the garbler's 0-label of
//! `¬a` is `A₀ ⊕ Δ`, the evaluator copies its label. The hot loop then has
//! one kind of linear gate and no branches.

use brickyard_circuit::{Circuit, Gate, WireId};
use brickyard_core::{Error, Result};

/// Largest number of AND gates hashed in one batch. A batch's scratch is
/// 4 blocks per AND for the garbler (64 KiB here) and its tables are 32 KiB:
/// large enough that AES always sees long runs, small enough to stay in L2
/// and to bound streaming memory whatever the layer width.
pub const MAX_BATCH: usize = 1024;

/// The slot of the constant wire.
pub(crate) const CONST_SLOT: u32 = 0;

/// One batch of independent AND gates, preceded by the linear gates that
/// must run before it. Outputs go to consecutive slots from `base`: first
/// the linear gates', then the ANDs'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// Range into `GarblePlan::linear`.
    pub lin: (u32, u32),
    /// Range into the AND arrays (also the global AND indices).
    pub ands: (u32, u32),
    /// Slot written by the first linear gate (or first AND if none).
    pub base: u32,
}

/// A circuit compiled for garbling and evaluation; reuse it across executions.
#[derive(Clone, Debug)]
pub struct GarblePlan {
    pub(crate) num_wires: usize,
    pub(crate) num_slots: usize,
    pub(crate) input_wires: Vec<WireId>,
    pub(crate) output_wires: Vec<WireId>,
    pub(crate) output_slots: Vec<u32>,
    /// Slot of each original wire; `u32::MAX` for wires nothing writes.
    pub(crate) slot_of: Vec<u32>,
    /// `[a, b]` slots: next slot `= a ⊕ b`; INV has `b = CONST_SLOT`.
    pub(crate) linear: Vec<[u32; 2]>,
    pub(crate) and_a: Vec<u32>,
    pub(crate) and_b: Vec<u32>,
    pub(crate) steps: Vec<Step>,
    max_batch: usize,
}

/// Assigns slots while checking the IR's invariants, so the hot loops can
/// trust every index: wires in range, written once, read after written.
struct Slots {
    slot_of: Vec<u32>,
    next: u32,
}

impl Slots {
    fn read(&self, w: WireId) -> Result<u32> {
        match self.slot_of.get(w as usize) {
            Some(&s) if s != u32::MAX => Ok(s),
            Some(_) => Err(Error::config(format!(
                "wire {w} is read before it is written"
            ))),
            None => Err(Error::config(format!(
                "wire {w} out of range (circuit has {} wires)",
                self.slot_of.len()
            ))),
        }
    }

    fn write(&mut self, w: WireId) -> Result<u32> {
        match self.slot_of.get_mut(w as usize) {
            Some(s) if *s == u32::MAX => {
                *s = self.next;
                self.next += 1;
                Ok(*s)
            }
            Some(_) => Err(Error::config(format!("wire {w} is written twice"))),
            None => Err(Error::config(format!("wire {w} out of range"))),
        }
    }
}

impl GarblePlan {
    /// Compiles `circuit`. A circuit that breaks the IR's invariants (wire
    /// out of range, written twice, read before written) is
    /// [`Error::Config`].
    pub fn new(circuit: &Circuit) -> Result<Self> {
        let num_wires = circuit.num_wires as usize;
        if circuit.num_wires >= u32::MAX - 1 {
            return Err(Error::config("circuit has too many wires"));
        }
        let mut slots = Slots {
            slot_of: vec![u32::MAX; num_wires],
            next: CONST_SLOT + 1,
        };
        let input_wires: Vec<WireId> = circuit
            .inputs
            .iter()
            .flat_map(|g| g.wires.iter().copied())
            .collect();
        for &w in &input_wires {
            slots.write(w)?;
        }
        let and_count = circuit.and_count();
        let mut plan = GarblePlan {
            num_wires,
            num_slots: 0,
            input_wires,
            output_wires: circuit
                .outputs
                .iter()
                .flat_map(|g| g.wires.iter().copied())
                .collect(),
            output_slots: Vec::new(),
            slot_of: Vec::new(),
            linear: Vec::with_capacity(circuit.gates.len() - and_count),
            and_a: Vec::with_capacity(and_count),
            and_b: Vec::with_capacity(and_count),
            steps: Vec::new(),
            max_batch: 0,
        };
        for layer in circuit.layering().layers {
            debug_assert_eq!(layer.first_and, plan.and_a.len() as u64);
            let base = slots.next;
            let lin_start = plan.linear.len() as u32;
            for g in &layer.linear {
                let ab = match *g {
                    Gate::Xor { a, b, .. } => [slots.read(a)?, slots.read(b)?],
                    Gate::Inv { a, .. } => [slots.read(a)?, CONST_SLOT],
                    Gate::And { .. } => return Err(Error::config("AND gate among linear gates")),
                };
                plan.linear.push(ab);
                slots.write(g.output())?;
            }
            let lin = (lin_start, plan.linear.len() as u32);
            let first = plan.and_a.len() as u32;
            // Read all inputs before writing any output: the ANDs of a layer
            // are independent, and this is where a violation would show.
            for &(a, b, _) in &layer.ands {
                plan.and_a.push(slots.read(a)?);
                plan.and_b.push(slots.read(b)?);
            }
            for &(_, _, out) in &layer.ands {
                slots.write(out)?;
            }
            let end = plan.and_a.len() as u32;
            // Only the first batch of a layer carries its linear gates; a
            // wide layer is cut into MAX_BATCH pieces of independent ANDs.
            let mut start = first;
            let mut step = Step {
                lin,
                ands: (first, first),
                base,
            };
            loop {
                let stop = end.min(start + MAX_BATCH as u32);
                step.ands = (start, stop);
                plan.steps.push(step);
                plan.max_batch = plan.max_batch.max((stop - start) as usize);
                step.base += (step.lin.1 - step.lin.0) + (stop - start);
                step.lin = (lin.1, lin.1);
                start = stop;
                if start >= end {
                    break;
                }
            }
        }
        plan.output_slots = plan
            .output_wires
            .iter()
            .map(|&w| slots.read(w))
            .collect::<Result<_>>()?;
        plan.num_slots = slots.next as usize;
        plan.slot_of = slots.slot_of;
        Ok(plan)
    }

    /// Number of wires of the circuit.
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
        // Slots: constant, 2n inputs, n AND outputs, then the INV.
        assert_eq!(p.linear, vec![[3 * n, CONST_SLOT]]);
        assert_eq!(p.output_slots, vec![3 * n + 1]);
        assert_eq!(p.num_slots, 3 * n as usize + 2);
        let ands: Vec<_> = p.steps.iter().map(|s| (s.ands, s.base)).collect();
        assert_eq!(ands[0], ((0, MAX_BATCH as u32), 2 * n + 1));
        assert_eq!(ands[1].1, 2 * n + 1 + MAX_BATCH as u32);
        assert_eq!(
            ands[2],
            ((2 * MAX_BATCH as u32, n), 2 * n + 1 + 2 * MAX_BATCH as u32)
        );
    }

    #[test]
    fn broken_invariants_are_config_errors() {
        let mut c = wide(3);
        c.outputs[0].wires.push(c.num_wires);
        assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
        let mut c = wide(3);
        c.gates.push(Gate::Xor { a: 0, b: 1, out: 2 });
        assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
        let mut c = wide(3);
        c.num_wires += 1;
        c.gates.push(Gate::Xor {
            a: 0,
            b: 10,
            out: 10,
        });
        assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
    }
}
