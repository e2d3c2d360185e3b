//! The layer walk shared by the garbler and the evaluator.
//!
//! Both sides do the same thing per step: run the step's XOR gates on the
//! label vector, then let the side-specific batch function garble or
//! evaluate the step's ANDs (the kernels gather their inputs from, and
//! scatter their outputs to, the label vector). Keeping the walk in one
//! place means the two sides cannot drift apart in gate order or AND
//! numbering.

use crate::plan::Layout;
use brickyard_core::{Block, Result};
use std::ops::Range;
use zeroize::Zeroizing;

/// Which labels a garbling or evaluation hands back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// Only the output wires' labels (the common case).
    #[default]
    Outputs,
    /// Every wire's label as well (CompGC linking, LEGO soldering, debugging).
    AllWires,
}

/// A label vector indexed by slot (see `plan.rs`).
pub(crate) type Labels = Zeroizing<Vec<Block>>;

/// A fresh label vector for `layout` with `inputs` on the input slots (the
/// caller has checked the count).
pub(crate) fn start(layout: &Layout, inputs: &[Block]) -> Labels {
    let mut w = Zeroizing::new(vec![Block::ZERO; layout.num_slots]);
    w[..inputs.len()].copy_from_slice(inputs);
    w
}

/// Walks `layout`. `batch(w, ands)` must garble or evaluate the AND gates
/// `ands` of `layout.prog` (whose indices are also the global AND indices).
pub(crate) fn walk<F>(layout: &Layout, w: &mut [Block], mut batch: F) -> Result<()>
where
    F: FnMut(&mut [Block], Range<usize>) -> Result<()>,
{
    for step in &layout.steps {
        layout
            .prog
            .run_xors(w, step.lin.0 as usize..step.lin.1 as usize);
        if step.ands.1 > step.ands.0 {
            batch(w, step.ands.0 as usize..step.ands.1 as usize)?;
        }
    }
    Ok(())
}

/// The labels of the output wires, in plan order; `delta` undoes the
/// garbler's polarities (the evaluator passes zero).
pub(crate) fn outputs(layout: &Layout, w: &[Block], delta: Block) -> Vec<Block> {
    layout
        .output_slots
        .iter()
        .zip(&layout.output_flips)
        .map(|(&o, &f)| w[o as usize] ^ delta.and_bit(f))
        .collect()
}

/// Every original wire's label (zero for wires nothing writes), if asked
/// for; only the dense layout keeps them all.
pub(crate) fn all_wires(
    layout: &Layout,
    w: &[Block],
    keep: Keep,
    delta: Block,
) -> Option<Zeroizing<Vec<Block>>> {
    (keep == Keep::AllWires).then(|| {
        Zeroizing::new(
            layout
                .wire_slots
                .iter()
                .zip(&layout.wire_flips)
                .map(|(&s, &f)| {
                    w.get(s as usize)
                        .map_or(Block::ZERO, |&l| l ^ delta.and_bit(f))
                })
                .collect(),
        )
    })
}
