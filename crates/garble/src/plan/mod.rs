//! The compiled form of a circuit that garbling and evaluation walk.
//!
//! A circuit is compiled once and garbled many times, so everything that does
//! not depend on labels is decided here: the AND-depth layering (whose AND
//! numbering fixes the hash tweaks; in narrow circuits re-layered by
//! `pack` so that layers hold whole groups), flat arrays of wire indices
//! instead of `Gate` enums, and how each layer's ANDs are cut into hash
//! batches.
//!
//! Wires are mapped to *slots* of the label vector. Two layouts are
//! compiled: the *compact* one reuses a slot as soon as its wire is dead
//! (register allocation by liveness, most recently freed first), so the
//! working set of AES-128 or SHA-256 stays in L1/L2 and wiping the labels
//! afterwards is cheap; the *dense* one gives every wire its own slot, for
//! callers that want every wire's label back ([`crate::Keep::AllWires`]).
//! Slots `0..inputs` are the input wires, in input order.
//!
//! INV costs nothing: `¬a` shares `a`'s slot with the *polarity* bit
//! flipped. This is the INV convention of `docs/protocols/garbling.md` (the
//! garbler's 0-label of `¬a` is `A₀ ⊕ Δ`, the evaluator's label is `a`'s):
//! the evaluator's slot is the same either way, and the garbler's slot holds
//! `0-label ⊕ polarity·Δ`, which XOR preserves (polarities add) and which
//! the AND kernel and the output code undo. The compact layout also drops
//! XOR gates whose result nothing reads, fuses XOR chains into 3-input
//! gates, and in narrow layer pieces folds an XOR `x ⊕ y` read only by ANDs
//! into their input gathers (`SlotProgram::with_folds`). What is left is a
//! [`SlotProgram`]: XORs and ANDs over validated slot indices, run by the
//! kernels in `brickyard_core::aes::halfgates`.
//!
//! **Stages.** Each layer piece's ANDs are cut into groups of [`GROUP`];
//! every XOR runs as late as possible, in the stage of the first group
//! that needs it. Both sides run a piece stage by stage, and the kernels
//! run the XORs feeding group g+1 between the AES rounds of group g
//! (`SlotProgram::garble_stages`). Slots are freed so that this is valid,
//! and so is "all the piece's XORs, then all its ANDs" (see `layout`) in
//! π-cached layouts. Without the π cache XOR roots move back into the
//! earliest fed stage with room that may run them, across layer pieces
//! (see `hoist`), and every piece ends in an AND-less stage (of later
//! pieces' XORs, run during its last group, or empty); those may read
//! the piece's earlier groups' outputs, so such a piece runs stage by
//! stage only. Behind that stage the next piece's first XORs run unfed,
//! so one walk step (one kernel call) may hold several pieces.

use brickyard_circuit::{Circuit, Gate, WireId};
use brickyard_core::aes::halfgates::{AndSlots, SlotProgram, SlotXors};
use brickyard_core::{Error, Result};
use std::sync::{Arc, OnceLock};

/// Largest number of AND gates hashed in one batch. A batch's scratch is
/// two buffers of 4 blocks per AND for the garbler (2 × 16 KiB here) and
/// its tables 8 KiB: AES still sees 1 024-block runs, the batch stays in L1,
/// and streaming memory is bounded whatever the layer width.
pub const MAX_BATCH: usize = 256;

/// Stand-in for the constant wire among original wire ids.
const CONST_WIRE: WireId = u32::MAX;

/// AND gates per stage (see `SlotProgram::with_stages`): one garbler
/// iteration of the VAES kernel (two ZMM registers of four gates).
pub const GROUP: usize = 8;

/// One piece of an AND layer (at most MAX_BATCH independent ANDs), with the
/// linear gates of the layer if it is the first piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    /// Range into the linear-gate array.
    lin: (u32, u32),
    /// Range into the AND array (also the global AND indices).
    ands: (u32, u32),
}

/// What the walk hands to the kernels at once: whole stages of the slot
/// program: with the π cache one layer piece (at most MAX_BATCH ANDs),
/// else a run of whole pieces of at most `MAX_STEP` ANDs in all (see
/// `layout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// Range of stages of the slot program.
    pub stages: (u32, u32),
    /// Range of AND gates of those stages (also the global AND indices).
    pub ands: (u32, u32),
    /// Range of π jobs to run before the ANDs (compiled layouts only).
    pub pis: (u32, u32),
    /// Whether the batch reads its inner π values from the π cache.
    pub cached: bool,
}

/// The gates compiled over the slots of one label-vector layout.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    pub num_slots: usize,
    /// XOR gates (INV compiled away) and AND gates over slots.
    pub prog: SlotProgram,
    /// Per step: range of `prog.xors()`, range of `prog.ands()` (= global
    /// AND indices).
    pub steps: Vec<Step>,
    pub output_slots: Vec<u32>,
    /// Whether the garbler's slot of each output wire holds its 1-label.
    pub output_flips: Vec<bool>,
    /// Slot of each original wire (dense layout only; `u32::MAX` if unwritten).
    pub wire_slots: Vec<u32>,
    /// Polarity of each original wire's slot (dense layout only).
    pub wire_flips: Vec<bool>,
}

/// A circuit compiled for garbling and evaluation; reuse it across executions.
///
/// The dense layout is compiled on first use ([`crate::Keep::AllWires`]):
/// most callers never ask for every wire's label, and compiling it was
/// about a third of a plan's compile time (Lindell–Riva compiles two
/// plans per run, since its circuit holds Bob's fresh matrix).
#[derive(Clone, Debug)]
pub struct GarblePlan {
    pub(crate) num_wires: usize,
    pub(crate) input_wires: Vec<WireId>,
    pub(crate) output_wires: Vec<WireId>,
    pub(crate) compact: Layout,
    dense: OnceLock<Layout>,
    /// What the dense layout is compiled from.
    order: Arc<Order>,
    pi_cache: bool,
}

/// The gates in plan order over original wire ids, before slot assignment.
#[derive(Debug)]
struct Order {
    linear: Vec<[WireId; 3]>,
    ands: Vec<[WireId; 3]>,
    steps: Vec<Piece>,
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

impl Layout {
    /// Most ANDs in one walk step (a streaming buffer holds one step's tables).
    pub(crate) fn max_batch(&self) -> usize {
        self.steps
            .iter()
            .map(|s| (s.ands.1 - s.ands.0) as usize)
            .max()
            .unwrap_or(0)
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
        o.push_layer(lin, first);
    }
    Ok(o)
}

impl Order {
    /// Records the layer whose linear gates are `lin` and whose ANDs run
    /// from `first` to the end of `ands`: only the first piece carries
    /// the linear gates; a wide layer is cut into [`MAX_BATCH`] pieces of
    /// independent ANDs.
    fn push_layer(&mut self, lin: (u32, u32), first: u32) {
        let end = self.ands.len() as u32;
        let mut step = Piece {
            lin,
            ands: (first, first),
        };
        loop {
            let stop = end.min(step.ands.0 + MAX_BATCH as u32);
            step.ands.1 = stop;
            self.steps.push(step);
            step = Piece {
                lin: (lin.1, lin.1),
                ands: (stop, stop),
            };
            if stop >= end {
                break;
            }
        }
    }
}

mod hoist;
mod layout;
mod pack;
mod pi;
mod roots;
use hoist::*;
use layout::*;
use pack::*;
use pi::*;
use roots::*;

impl GarblePlan {
    /// Compiles `circuit`. A circuit that breaks the IR's invariants (wire
    /// out of range, written twice, read before written) is
    /// [`Error::Config`].
    pub fn new(circuit: &Circuit) -> Result<Self> {
        Self::compile(circuit, false)
    }

    /// As [`GarblePlan::new`] with the π cache: batches whose inputs are
    /// mostly read by several ANDs take the inner `π(label)` of the hash
    /// from a per-value cache instead of recomputing it per reader. Same
    /// tables and labels, bit for bit (tested). Not the default because it
    /// measured slower on this machine (AES-128 garble 13.4 vs 10.7 ns/AND,
    /// `docs/protocols/garbling.md`): the 27 % of AES it saves costs more in
    /// per-lane loads and stores than VAES-512 spends on it.
    pub fn new_pi_cached(circuit: &Circuit) -> Result<Self> {
        Self::compile(circuit, true)
    }

    fn compile(circuit: &Circuit, pi_cache: bool) -> Result<Self> {
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
        let o = match pack(&o, num_wires) {
            Some(p) if packing_pays(&o, &p) => p,
            _ => o,
        };
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
        let compact = layout(&o, num_wires, &input_wires, &output_wires, true, pi_cache)?;
        Ok(GarblePlan {
            num_wires,
            compact,
            dense: OnceLock::new(),
            order: Arc::new(o),
            pi_cache,
            input_wires,
            output_wires,
        })
    }

    /// The layout to walk: compact unless every wire's label is wanted
    /// (the dense layout, compiled the first time it is asked for).
    pub(crate) fn layout(&self, keep: crate::Keep) -> Result<&Layout> {
        match keep {
            crate::Keep::Outputs => Ok(&self.compact),
            crate::Keep::AllWires => self.dense(),
        }
    }

    /// The dense layout (every wire its own slot), compiled once.
    pub(crate) fn dense(&self) -> Result<&Layout> {
        if let Some(l) = self.dense.get() {
            return Ok(l);
        }
        let l = layout(
            &self.order,
            self.num_wires,
            &self.input_wires,
            &self.output_wires,
            false,
            self.pi_cache,
        )?;
        // Two threads racing here compile the same layout; one is kept.
        Ok(self.dense.get_or_init(|| l))
    }

    /// The compact layout's slot program, for benchmarks that time its
    /// parts alone (`examples/garble_parts.rs`).
    #[doc(hidden)]
    pub fn compact_program(&self) -> &brickyard_core::aes::halfgates::SlotProgram {
        &self.compact.prog
    }

    /// Number of wires of the circuit.
    pub fn num_wires(&self) -> usize {
        self.num_wires
    }

    /// Number of AND gates, i.e. half the number of table blocks.
    pub fn and_count(&self) -> usize {
        self.compact.prog.ands().len()
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
        self.compact
            .steps
            .iter()
            .filter(|s| s.ands.1 > s.ands.0)
            .count()
    }

    /// Number of hash batches that read their inner π from the π cache
    /// (see [`GarblePlan::new_pi_cached`]) and the number of π jobs they run.
    pub fn pi_cache_use(&self) -> (usize, usize) {
        let l = &self.compact;
        (
            l.steps.iter().filter(|s| s.cached).count(),
            l.prog.pi_jobs().len(),
        )
    }

    /// Labels held at once when only outputs are kept (the working set).
    pub fn live_slots(&self) -> usize {
        self.compact.num_slots
    }

    /// Most ANDs handed to a kernel in one walk step of the compact layout.
    #[cfg(test)]
    pub(crate) fn max_batch(&self) -> usize {
        self.compact.max_batch()
    }
}

#[cfg(test)]
mod tests;
