//! A relation given part by part, so that neither party ever holds the
//! whole circuit: a statement of tens of millions of gates (JIMU's Step 5b:
//! 28 M) is garbled, evaluated and re-garbled one part at a time, each
//! part's tables streamed to the peer (or into the prover's hash) as its
//! layers are made, and dropped before the next part is built.
//!
//! Wires between parts go through a **pool** of labels: the witness bits
//! first (`0..witness_bits`), then the output of each part in order. Part
//! `k` reads its inputs from pool entries `< witness_bits + k`, has one
//! output bit, and the relation's output is the last part's output. The
//! AND tweaks run on across parts, so every tweak is used once per Δ.
//!
//! A builder thread makes part `k + 1` (circuit and layering) while part
//! `k` is garbled or evaluated, so at most three parts exist at once.

use crate::garble::{evaluate, evaluate_in, garble_in, Shape};
use brickyard_circuit::{Circuit, Layering};
use brickyard_core::{Block, Error, Result};
use std::borrow::Cow;
use zeroize::Zeroizing;

/// One part of a relation: a circuit with one output bit, and for each of
/// its input wires (groups in order) the pool entry it reads.
pub struct Part<'a> {
    /// The part's circuit.
    pub circuit: Cow<'a, Circuit>,
    /// Pool index of each input wire.
    pub inputs: Vec<u32>,
}

/// A public Boolean relation with one output bit, given as parts (see the
/// module docs). Both parties must build exactly the same parts from the
/// same public values; [`Relation::digest`] is compared first so that two
/// different statements stop with `Config`.
pub trait Relation: Sync {
    /// A digest of everything that determines the parts.
    fn digest(&self) -> [u8; 32];
    /// Number of witness bits (the first pool entries).
    fn witness_bits(&self) -> usize;
    /// Number of parts (at least one).
    fn parts(&self) -> usize;
    /// Builds part `k`.
    fn part(&self, k: usize) -> Result<Part<'_>>;
}

/// A whole circuit is the relation of one part reading every witness bit.
impl Relation for Circuit {
    fn digest(&self) -> [u8; 32] {
        crate::protocol::digest(self)
    }

    fn witness_bits(&self) -> usize {
        self.inputs.iter().map(|g| g.wires.len()).sum()
    }

    fn parts(&self) -> usize {
        1
    }

    fn part(&self, _k: usize) -> Result<Part<'_>> {
        Ok(Part {
            circuit: Cow::Borrowed(self),
            inputs: (0..self.witness_bits() as u32).collect(),
        })
    }
}

/// A part ready to garble: its shape and layering, and where its inputs
/// come from.
struct Prepared {
    shape: Shape,
    layering: Layering,
    inputs: Vec<u32>,
    ands: u64,
}

fn prepare<R: Relation + ?Sized>(rel: &R, k: usize) -> Result<Prepared> {
    let part = rel.part(k)?;
    let shape = Shape::of(&part.circuit)?;
    let pool = rel.witness_bits() + k;
    if part.inputs.len() != shape.inputs.len() || part.inputs.iter().any(|&i| i as usize >= pool) {
        return Err(Error::config(format!(
            "gczk: part {k} reads {} inputs for {} input wires, or a pool entry not yet made",
            part.inputs.len(),
            shape.inputs.len()
        )));
    }
    Ok(Prepared {
        layering: part.circuit.layering(),
        ands: part.circuit.and_count() as u64,
        shape,
        inputs: part.inputs,
    })
}

/// Calls `f` on every part in order, the next part being built on a second
/// thread meanwhile. Stops at the first error (the builder stops too).
fn for_each_part<R: Relation + ?Sized>(
    rel: &R,
    mut f: impl FnMut(&Prepared) -> Result<()>,
) -> Result<()> {
    let n = rel.parts();
    if n == 0 {
        return Err(Error::config("gczk: a relation needs at least one part"));
    }
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        s.spawn(move || {
            for k in 0..n {
                let p = prepare(rel, k);
                let failed = p.is_err();
                if tx.send(p).is_err() || failed {
                    break;
                }
            }
        });
        for _ in 0..n {
            let p = rx
                .recv()
                .map_err(|_| Error::config("gczk: the part builder stopped"))??;
            f(&p)?;
        }
        Ok(())
    })
}

/// Garbles the whole relation under `delta` from the witness 0-labels,
/// every layer's tables to `sink`; returns the output's 0-label.
pub fn garble_relation<R: Relation + ?Sized>(
    rel: &R,
    delta: Block,
    witness_zero: &[Block],
    mut sink: impl FnMut(&[Block]) -> Result<()>,
) -> Result<Block> {
    assert_eq!(
        witness_zero.len(),
        rel.witness_bits(),
        "gczk: witness labels"
    );
    let mut pool = Zeroizing::new(witness_zero.to_vec());
    let mut offset = 0u64;
    let mut input = Zeroizing::new(Vec::new());
    let mut wires = Zeroizing::new(Vec::new());
    for_each_part(rel, |p| {
        input.clear();
        input.extend(p.inputs.iter().map(|&i| pool[i as usize]));
        let out = garble_in(
            &mut wires,
            &p.layering,
            &p.shape,
            delta,
            &input,
            offset,
            &mut sink,
        )?;
        offset += p.ands;
        pool.push(out);
        Ok(())
    })?;
    Ok(*pool.last().expect("at least one entry"))
}

/// Evaluates the whole relation on the witness and its labels, every
/// layer's tables from `source`; returns the output label and the output
/// value in plaintext.
pub fn evaluate_relation<R: Relation + ?Sized>(
    rel: &R,
    labels: &[Block],
    witness: &[bool],
    mut source: impl FnMut(&mut [Block]) -> Result<()>,
) -> Result<(Block, bool)> {
    assert_eq!(labels.len(), rel.witness_bits(), "gczk: witness labels");
    assert_eq!(witness.len(), rel.witness_bits(), "gczk: witness");
    let mut pool = Zeroizing::new(labels.to_vec());
    let mut values = Zeroizing::new(witness.to_vec());
    let mut offset = 0u64;
    let (mut in_l, mut in_v) = (Zeroizing::new(Vec::new()), Zeroizing::new(Vec::new()));
    let (mut label, mut value) = (Zeroizing::new(Vec::new()), Zeroizing::new(Vec::new()));
    for_each_part(rel, |p| {
        in_l.clear();
        in_l.extend(p.inputs.iter().map(|&i| pool[i as usize]));
        in_v.clear();
        in_v.extend(p.inputs.iter().map(|&i| values[i as usize]));
        let (l, v) = evaluate_in(
            (&mut label, &mut value),
            &p.layering,
            &p.shape,
            &in_l,
            &in_v,
            offset,
            &mut source,
        )?;
        offset += p.ands;
        pool.push(l);
        values.push(v);
        Ok(())
    })?;
    Ok((
        *pool.last().expect("at least one entry"),
        *values.last().expect("at least one entry"),
    ))
}

/// Whether `witness` satisfies the relation (plaintext, part by part).
pub fn holds<R: Relation + ?Sized>(rel: &R, witness: &[bool]) -> Result<bool> {
    if witness.len() != rel.witness_bits() {
        return Err(Error::config("gczk: witness of the wrong length"));
    }
    let mut values = witness.to_vec();
    for_each_part(rel, |p| {
        let (_, v) = evaluate(
            &p.layering,
            &p.shape,
            &vec![Block::ZERO; p.inputs.len()],
            &p.inputs
                .iter()
                .map(|&i| values[i as usize])
                .collect::<Vec<_>>(),
            0,
            |_| Ok(()),
        )?;
        values.push(v);
        Ok(())
    })?;
    Ok(*values.last().expect("at least one entry"))
}
