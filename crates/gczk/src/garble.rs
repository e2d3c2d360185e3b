//! Privacy-free half-gates (FNO15; the one-row "generator half-gate" of
//! ZRE15 Sec. 5), free XOR, a layer at a time.
//!
//! The evaluator (the prover) knows every wire's value, so an AND needs only
//! the half-gate whose selector the evaluator knows. With `A₁ = A₀ ⊕ Δ` and
//! `t = tweak(j)` for the `j`-th AND in layer order:
//!
//! ```text
//! garbler:   G = H(A₀,t) ⊕ H(A₁,t) ⊕ B₀          C₀ = H(A₀,t)
//! evaluator: C = H(A,t)               if a = 0    (a ∧ b = 0: C = C₀)
//!            C = H(A,t) ⊕ G ⊕ B       if a = 1    (C = C₀ ⊕ b·Δ)
//! ```
//!
//! XOR is free (`C₀ = A₀ ⊕ B₀`), NOT flips the meaning (`C₀ = A₀ ⊕ Δ`, the
//! evaluator's label is unchanged). `H` is the TCCR hash of
//! `brickyard_core::hash::tccr`; every tweak is used once per Δ, and each Δ
//! garbles one relation once.

use brickyard_circuit::{Circuit, Gate, Layering, WireId};
use brickyard_core::hash::tccr_batch;
use brickyard_core::{Block, Error, Result};
use zeroize::Zeroizing;

/// High half of every tweak: keeps gczk's hash calls apart from any other
/// use of the TCCR hash.
const TWEAK_DOMAIN: u64 = 0x6763_7a6b_0000_0001;

fn tweak(and_index: u64) -> Block {
    Block::from_halves(and_index, TWEAK_DOMAIN)
}

/// What the protocol needs to know about the relation circuit: its wires,
/// its witness (input) wires in group order, and its single output wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Number of wires.
    pub num_wires: usize,
    /// The witness wires: every input group, in order.
    pub inputs: Vec<WireId>,
    /// The output wire (the relation's truth value).
    pub output: WireId,
}

impl Shape {
    /// Checks that `circuit` is a valid relation (one output bit, at least
    /// one input) and returns its shape.
    pub fn of(circuit: &Circuit) -> Result<Shape> {
        circuit
            .validate()
            .map_err(|e| Error::config(format!("gczk: invalid relation circuit: {e}")))?;
        if circuit.output_width() != 1 {
            return Err(Error::config(format!(
                "gczk: a relation has one output bit, this circuit has {}",
                circuit.output_width()
            )));
        }
        let inputs: Vec<WireId> = circuit
            .inputs
            .iter()
            .flat_map(|g| g.wires.iter().copied())
            .collect();
        if inputs.is_empty() {
            return Err(Error::config("gczk: a relation needs a witness input"));
        }
        Ok(Shape {
            num_wires: circuit.num_wires as usize,
            inputs,
            output: circuit.outputs[0].wires[0],
        })
    }
}

/// Garbles the layered relation with `delta` and the input 0-labels
/// `input_zero` (one per witness wire); each layer's tables (one block per
/// AND, in AND order) go to `sink` as soon as they exist. `and_offset` is
/// the number of ANDs garbled under this Δ before (the earlier parts of a
/// relation), so that every tweak is used once. Returns the output wire's
/// 0-label.
pub fn garble(
    layering: &Layering,
    shape: &Shape,
    delta: Block,
    input_zero: &[Block],
    and_offset: u64,
    sink: impl FnMut(&[Block]) -> Result<()>,
) -> Result<Block> {
    let mut zero = Zeroizing::new(Vec::new());
    garble_in(
        &mut zero, layering, shape, delta, input_zero, and_offset, sink,
    )
}

/// [`garble`] with the wire table in `zero` (reused across the parts of a
/// relation: no allocation, page faults or wipe per part; the caller
/// wipes it). Every wire is written before it is read (a validated
/// circuit), so stale entries are never used.
pub(crate) fn garble_in(
    zero: &mut Vec<Block>,
    layering: &Layering,
    shape: &Shape,
    delta: Block,
    input_zero: &[Block],
    and_offset: u64,
    mut sink: impl FnMut(&[Block]) -> Result<()>,
) -> Result<Block> {
    assert_eq!(input_zero.len(), shape.inputs.len(), "gczk garble: inputs");
    zero.resize(shape.num_wires, Block::ZERO);
    for (&w, &l) in shape.inputs.iter().zip(input_zero) {
        zero[w as usize] = l;
    }
    let mut hashes: Zeroizing<Vec<Block>> = Zeroizing::new(Vec::new());
    let mut tweaks = Vec::new();
    let mut tables = Vec::new();
    for layer in &layering.layers {
        for g in &layer.linear {
            match *g {
                Gate::Xor { a, b, out } => zero[out as usize] = zero[a as usize] ^ zero[b as usize],
                Gate::Inv { a, out } => zero[out as usize] = zero[a as usize] ^ delta,
                Gate::And { .. } => unreachable!("layering puts ANDs apart"),
            }
        }
        let n = layer.ands.len();
        if n == 0 {
            continue;
        }
        // One TCCR batch per layer: H(A₀) in the first half, H(A₁) in the second.
        hashes.clear();
        hashes.extend(layer.ands.iter().map(|&(a, _, _)| zero[a as usize]));
        hashes.extend(layer.ands.iter().map(|&(a, _, _)| zero[a as usize] ^ delta));
        tweaks.clear();
        tweaks.extend((0..n as u64).map(|k| tweak(and_offset + layer.first_and + k)));
        tweaks.extend_from_within(..);
        tccr_batch(&mut hashes, &tweaks);
        tables.clear();
        let (h0, h1) = hashes.split_at(n);
        for (k, &(_, b, out)) in layer.ands.iter().enumerate() {
            tables.push(h0[k] ^ h1[k] ^ zero[b as usize]);
            zero[out as usize] = h0[k];
        }
        sink(&tables)?;
    }
    Ok(zero[shape.output as usize])
}

/// Evaluates the garbled relation on the witness: `input_labels` are the
/// labels of `witness`; each layer's tables are read from `source` (which
/// fills the slice it is given); `and_offset` as in [`garble`]. Returns the
/// output label and the output value the witness gives in plaintext.
pub fn evaluate(
    layering: &Layering,
    shape: &Shape,
    input_labels: &[Block],
    witness: &[bool],
    and_offset: u64,
    source: impl FnMut(&mut [Block]) -> Result<()>,
) -> Result<(Block, bool)> {
    let (mut label, mut value) = (Zeroizing::new(Vec::new()), Zeroizing::new(Vec::new()));
    evaluate_in(
        (&mut label, &mut value),
        layering,
        shape,
        input_labels,
        witness,
        and_offset,
        source,
    )
}

/// [`evaluate`] with the wire tables in `scratch` (reused across parts,
/// as in [`garble_in`]).
pub(crate) fn evaluate_in(
    (label, value): (&mut Vec<Block>, &mut Vec<bool>),
    layering: &Layering,
    shape: &Shape,
    input_labels: &[Block],
    witness: &[bool],
    and_offset: u64,
    mut source: impl FnMut(&mut [Block]) -> Result<()>,
) -> Result<(Block, bool)> {
    assert_eq!(input_labels.len(), shape.inputs.len(), "gczk eval: labels");
    assert_eq!(witness.len(), shape.inputs.len(), "gczk eval: witness");
    label.resize(shape.num_wires, Block::ZERO);
    value.resize(shape.num_wires, false);
    for ((&w, &l), &v) in shape.inputs.iter().zip(input_labels).zip(witness) {
        label[w as usize] = l;
        value[w as usize] = v;
    }
    let mut hashes: Zeroizing<Vec<Block>> = Zeroizing::new(Vec::new());
    let mut tweaks = Vec::new();
    let mut tables = Vec::new();
    for layer in &layering.layers {
        for g in &layer.linear {
            match *g {
                Gate::Xor { a, b, out } => {
                    label[out as usize] = label[a as usize] ^ label[b as usize];
                    value[out as usize] = value[a as usize] ^ value[b as usize];
                }
                Gate::Inv { a, out } => {
                    label[out as usize] = label[a as usize];
                    value[out as usize] = !value[a as usize];
                }
                Gate::And { .. } => unreachable!("layering puts ANDs apart"),
            }
        }
        let n = layer.ands.len();
        if n == 0 {
            continue;
        }
        tables.resize(n, Block::ZERO);
        source(&mut tables)?;
        hashes.clear();
        hashes.extend(layer.ands.iter().map(|&(a, _, _)| label[a as usize]));
        tweaks.clear();
        tweaks.extend((0..n as u64).map(|k| tweak(and_offset + layer.first_and + k)));
        tccr_batch(&mut hashes, &tweaks);
        for (k, &(a, b, out)) in layer.ands.iter().enumerate() {
            let (a, b, out) = (a as usize, b as usize, out as usize);
            label[out] = if value[a] {
                hashes[k] ^ tables[k] ^ label[b]
            } else {
                hashes[k]
            };
            value[out] = value[a] & value[b];
        }
    }
    let o = shape.output as usize;
    Ok((label[o], value[o]))
}
