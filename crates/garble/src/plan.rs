//! The compiled form of a circuit that garbling and evaluation walk.
//!
//! A circuit is compiled once and garbled many times, so everything that does
//! not depend on labels is decided here: the AND-depth layering (whose AND
//! numbering fixes the hash tweaks), flat arrays of wire indices instead of
//! `Gate` enums, and how each layer's ANDs are cut into hash batches.
//!
//! Wires are mapped to *slots* of the label vector. Two layouts are
//! compiled: the *compact* one reuses a slot as soon as its wire is dead
//! (register allocation by liveness, most recently freed first), so the
//! working set of AES-128 or SHA-256 stays in L1/L2 and wiping the labels
//! afterwards is cheap; the *dense* one gives every wire its own slot, for
//! callers that want every wire's label back ([`crate::Keep::AllWires`]).
//! Slot 0 is the constant wire, slots `1..=inputs` the input wires.
//!
//! INV is folded into XOR: the *constant wire* holds Δ for the garbler and
//! zero for the evaluator, and `¬a` is compiled as `a ⊕ const`. This is the
//! INV convention of `docs/protocols/garbling.md`: the garbler's 0-label of
//! `¬a` is `A₀ ⊕ Δ`, the evaluator copies its label. The hot loop then has
//! one kind of linear gate and no branches.

use brickyard_circuit::{Circuit, Gate, WireId};
use brickyard_core::{Error, Result};

/// Largest number of AND gates hashed in one batch. A batch's scratch is
/// two buffers of 4 blocks per AND for the garbler (2 × 16 KiB here) and
/// its tables 8 KiB: AES still sees 1 024-block runs, the batch stays in L1,
/// and streaming memory is bounded whatever the layer width.
pub const MAX_BATCH: usize = 256;

/// The slot of the constant wire.
pub(crate) const CONST_SLOT: u32 = 0;

/// Stand-in for the constant wire among original wire ids.
const CONST_WIRE: WireId = u32::MAX;

/// One batch of independent AND gates, preceded by the linear gates that
/// must run before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// Range into the linear-gate arrays.
    pub lin: (u32, u32),
    /// Range into the AND arrays (also the global AND indices).
    pub ands: (u32, u32),
}

/// Gate arrays over slots of one label-vector layout.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    pub num_slots: usize,
    /// `[a, b, out]`: `out = a ⊕ b`; INV has `b = CONST_SLOT`.
    pub linear: Vec<[u32; 3]>,
    pub and_a: Vec<u32>,
    pub and_b: Vec<u32>,
    pub and_out: Vec<u32>,
    pub output_slots: Vec<u32>,
    /// Slot of each original wire (dense layout only; `u32::MAX` if unwritten).
    pub wire_slots: Vec<u32>,
}

/// A circuit compiled for garbling and evaluation; reuse it across executions.
#[derive(Clone, Debug)]
pub struct GarblePlan {
    pub(crate) num_wires: usize,
    pub(crate) input_wires: Vec<WireId>,
    pub(crate) output_wires: Vec<WireId>,
    pub(crate) steps: Vec<Step>,
    pub(crate) compact: Layout,
    pub(crate) dense: Layout,
    max_batch: usize,
}

/// The gates in plan order over original wire ids, before slot assignment.
struct Order {
    linear: Vec<[WireId; 3]>,
    ands: Vec<[WireId; 3]>,
    steps: Vec<Step>,
    max_batch: usize,
}

/// Checks the IR's invariants in plan order so the hot loops can trust every
/// index: wires in range, written once, read only after written.
struct Written(Vec<bool>);

impl Written {
    fn read(&self, w: WireId) -> Result<WireId> {
        match self.0.get(w as usize) {
            Some(true) => Ok(w),
            Some(false) => Err(Error::config(format!(
                "wire {w} is read before it is written"
            ))),
            None => Err(Error::config(format!(
                "wire {w} out of range (circuit has {} wires)",
                self.0.len()
            ))),
        }
    }

    fn write(&mut self, w: WireId) -> Result<WireId> {
        match self.0.get_mut(w as usize) {
            Some(f) if !*f => {
                *f = true;
                Ok(w)
            }
            Some(_) => Err(Error::config(format!("wire {w} is written twice"))),
            None => Err(Error::config(format!("wire {w} out of range"))),
        }
    }
}

fn order(circuit: &Circuit, inputs: &[WireId]) -> Result<Order> {
    let mut written = Written(vec![false; circuit.num_wires as usize]);
    for &w in inputs {
        written.write(w)?;
    }
    let mut o = Order {
        linear: Vec::new(),
        ands: Vec::new(),
        steps: Vec::new(),
        max_batch: 0,
    };
    for layer in circuit.layering().layers {
        debug_assert_eq!(layer.first_and, o.ands.len() as u64);
        let lin_start = o.linear.len() as u32;
        for g in &layer.linear {
            let [a, b] = match *g {
                Gate::Xor { a, b, .. } => [written.read(a)?, written.read(b)?],
                Gate::Inv { a, .. } => [written.read(a)?, CONST_WIRE],
                Gate::And { .. } => return Err(Error::config("AND gate among linear gates")),
            };
            o.linear.push([a, b, written.write(g.output())?]);
        }
        let lin = (lin_start, o.linear.len() as u32);
        let first = o.ands.len() as u32;
        // Read all inputs before writing any output: the ANDs of a layer are
        // independent, and this is where a violation would show.
        for &(a, b, out) in &layer.ands {
            o.ands.push([written.read(a)?, written.read(b)?, out]);
        }
        for &(_, _, out) in &layer.ands {
            written.write(out)?;
        }
        let end = o.ands.len() as u32;
        // Only the first batch of a layer carries its linear gates; a wide
        // layer is cut into MAX_BATCH pieces of independent ANDs.
        let mut step = Step {
            lin,
            ands: (first, first),
        };
        loop {
            let stop = end.min(step.ands.0 + MAX_BATCH as u32);
            step.ands.1 = stop;
            o.steps.push(step);
            o.max_batch = o.max_batch.max((stop - step.ands.0) as usize);
            step = Step {
                lin: (lin.1, lin.1),
                ands: (stop, stop),
            };
            if stop >= end {
                break;
            }
        }
    }
    Ok(o)
}

/// Liveness sentinels for slot assignment.
const NEVER_READ: u32 = u32::MAX - 1;
const OUTPUT: u32 = u32::MAX;

/// Assigns slots to the wires of `o`. With `reuse`, a slot returns to the
/// free list after the last event (linear gate or AND batch) that reads its
/// wire; an AND batch gathers its inputs before writing any output, so its
/// outputs may take the slots its inputs free.
fn layout(
    o: &Order,
    num_wires: usize,
    inputs: &[WireId],
    outputs: &[WireId],
    reuse: bool,
) -> Layout {
    // last[w]: index of the last event reading w.
    let mut last = vec![NEVER_READ; num_wires];
    let mut ev = 0u32;
    for st in &o.steps {
        for g in &o.linear[st.lin.0 as usize..st.lin.1 as usize] {
            for &w in &g[..2] {
                if w != CONST_WIRE {
                    last[w as usize] = ev;
                }
            }
            ev += 1;
        }
        for g in &o.ands[st.ands.0 as usize..st.ands.1 as usize] {
            last[g[0] as usize] = ev;
            last[g[1] as usize] = ev;
        }
        ev += 1;
    }
    for &w in outputs {
        last[w as usize] = OUTPUT;
    }
    let mut slot = vec![u32::MAX; num_wires];
    for (i, &w) in inputs.iter().enumerate() {
        slot[w as usize] = CONST_SLOT + 1 + i as u32;
    }
    let mut next = CONST_SLOT + 1 + inputs.len() as u32;
    let mut free: Vec<u32> = Vec::new();
    let mut alloc = |free: &mut Vec<u32>| {
        free.pop().unwrap_or_else(|| {
            next += 1;
            next - 1
        })
    };
    // Frees w's slot if `ev` is its last reader (once, even if read twice).
    let release = |w: WireId, ev: u32, last: &mut [u32], slot: &[u32], free: &mut Vec<u32>| {
        if reuse && w != CONST_WIRE && last[w as usize] == ev {
            last[w as usize] = NEVER_READ - 1;
            free.push(slot[w as usize]);
        }
    };
    let sl = |w: WireId, slot: &[u32]| {
        if w == CONST_WIRE {
            CONST_SLOT
        } else {
            slot[w as usize]
        }
    };
    let mut l = Layout::default();
    let mut ev = 0u32;
    for st in &o.steps {
        for &[a, b, out] in &o.linear[st.lin.0 as usize..st.lin.1 as usize] {
            let (sa, sb) = (sl(a, &slot), sl(b, &slot));
            release(a, ev, &mut last, &slot, &mut free);
            release(b, ev, &mut last, &slot, &mut free);
            let so = alloc(&mut free);
            slot[out as usize] = so;
            l.linear.push([sa, sb, so]);
            release(out, NEVER_READ, &mut last, &slot, &mut free);
            ev += 1;
        }
        let ands = &o.ands[st.ands.0 as usize..st.ands.1 as usize];
        for &[a, b, _] in ands {
            l.and_a.push(slot[a as usize]);
            l.and_b.push(slot[b as usize]);
        }
        for &[a, b, _] in ands {
            release(a, ev, &mut last, &slot, &mut free);
            release(b, ev, &mut last, &slot, &mut free);
        }
        for &[_, _, out] in ands {
            let so = alloc(&mut free);
            slot[out as usize] = so;
            l.and_out.push(so);
        }
        for &[_, _, out] in ands {
            release(out, NEVER_READ, &mut last, &slot, &mut free);
        }
        ev += 1;
    }
    l.num_slots = next as usize;
    l.output_slots = outputs.iter().map(|&w| slot[w as usize]).collect();
    if !reuse {
        l.wire_slots = slot;
    }
    l
}

impl GarblePlan {
    /// Compiles `circuit`. A circuit that breaks the IR's invariants (wire
    /// out of range, written twice, read before written) is
    /// [`Error::Config`].
    pub fn new(circuit: &Circuit) -> Result<Self> {
        let num_wires = circuit.num_wires as usize;
        if circuit.num_wires >= u32::MAX - 2 {
            return Err(Error::config("circuit has too many wires"));
        }
        let input_wires: Vec<WireId> = circuit
            .inputs
            .iter()
            .flat_map(|g| g.wires.iter().copied())
            .collect();
        let output_wires: Vec<WireId> = circuit
            .outputs
            .iter()
            .flat_map(|g| g.wires.iter().copied())
            .collect();
        let o = order(circuit, &input_wires)?;
        let written = {
            let mut v = vec![false; num_wires];
            for w in input_wires
                .iter()
                .chain(o.linear.iter().map(|g| &g[2]))
                .chain(o.ands.iter().map(|g| &g[2]))
            {
                v[*w as usize] = true;
            }
            Written(v)
        };
        for &w in &output_wires {
            written.read(w)?;
        }
        Ok(GarblePlan {
            num_wires,
            compact: layout(&o, num_wires, &input_wires, &output_wires, true),
            dense: layout(&o, num_wires, &input_wires, &output_wires, false),
            input_wires,
            output_wires,
            steps: o.steps,
            max_batch: o.max_batch,
        })
    }

    /// The layout to walk: compact unless every wire's label is wanted.
    pub(crate) fn layout(&self, keep: crate::Keep) -> &Layout {
        match keep {
            crate::Keep::Outputs => &self.compact,
            crate::Keep::AllWires => &self.dense,
        }
    }

    /// Number of wires of the circuit.
    pub fn num_wires(&self) -> usize {
        self.num_wires
    }

    /// Number of AND gates, i.e. half the number of table blocks.
    pub fn and_count(&self) -> usize {
        self.compact.and_a.len()
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

    /// Labels held at once when only outputs are kept (the working set).
    pub fn live_slots(&self) -> usize {
        self.compact.num_slots
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
        let ands: Vec<_> = p.steps.iter().map(|s| s.ands).collect();
        let m = MAX_BATCH as u32;
        assert_eq!(ands, vec![(0, m), (m, 2 * m), (2 * m, n), (n, n)]);
        // Dense: constant, 2n inputs, n AND outputs, then the INV.
        assert_eq!(p.dense.linear, vec![[3 * n, CONST_SLOT, 3 * n + 1]]);
        assert_eq!(p.dense.num_slots, 3 * n as usize + 2);
        assert_eq!(p.dense.wire_slots[0], 1);
        // Compact: each batch's outputs reuse the slots its inputs freed,
        // and the dead AND outputs are reused by the next batch.
        assert_eq!(p.compact.num_slots, 2 * n as usize + 1);
        assert_eq!(p.compact.output_slots.len(), 1);
    }

    #[test]
    fn compact_slots_never_clobber_live_wires() {
        // x = a & b; y = a ^ b (a, b dead after); z = x & y; out = [z, x].
        let c = Circuit {
            num_wires: 5,
            inputs: vec![Group {
                name: "i".into(),
                wires: vec![0, 1],
            }],
            outputs: vec![Group {
                name: "o".into(),
                wires: vec![4, 2],
            }],
            gates: vec![
                Gate::And { a: 0, b: 1, out: 2 },
                Gate::Xor { a: 0, b: 1, out: 3 },
                Gate::And { a: 2, b: 3, out: 4 },
            ],
        };
        let p = GarblePlan::new(&c).unwrap();
        let l = &p.compact;
        // Layer 0: the XOR (depth 0) runs first and gets a fresh slot, since
        // a and b are still read by the AND batch after it.
        assert_eq!(l.linear, vec![[1, 2, 3]]);
        // The first AND batch frees a's and b's slots and writes into one.
        assert_eq!((l.and_a[0], l.and_b[0], l.and_out[0]), (1, 2, 2));
        // The last AND reads x and y; it may take y's slot but not x's, an output.
        assert_eq!((l.and_a[1], l.and_b[1]), (2, 3));
        assert_ne!(l.and_out[1], 2);
        assert_eq!(l.output_slots, vec![l.and_out[1], 2]);
        assert_eq!(l.num_slots, 4);
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
