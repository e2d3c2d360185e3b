//! The layer walk shared by the garbler and the evaluator.
//!
//! Both sides do the same thing per step: hand a run of whole stages of
//! the slot program (XOR gates, then up to 8 AND gates, per stage) to the
//! side-specific batch function, which garbles or evaluates them in one
//! kernel call (the kernels gather their inputs from, and scatter their
//! outputs to, the label vector). Keeping the walk in one place means the
//! two sides cannot drift apart in gate order or AND numbering.

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

/// A label vector indexed by slot (see `plan/layout.rs`).
pub(crate) type Labels = Zeroizing<Vec<Block>>;

/// A fresh label vector for `layout` with `inputs` on the input slots (the
/// caller has checked the count).
pub(crate) fn start(layout: &Layout, inputs: &[Block]) -> Labels {
    let mut w = Zeroizing::new(vec![Block::ZERO; layout.num_slots]);
    w[..inputs.len()].copy_from_slice(inputs);
    w
}

/// [`start`] into a kept vector: zeroed, resized to `layout`, `inputs` on
/// the input slots (the zero slot must read zero, so the vector is
/// cleared whatever it held).
pub(crate) fn start_into(layout: &Layout, inputs: &[Block], w: &mut Labels) {
    w.clear();
    w.resize(layout.num_slots, Block::ZERO);
    w[..inputs.len()].copy_from_slice(inputs);
}

/// [`start_pis`] into a kept vector.
pub(crate) fn start_pis_into(layout: &Layout, per: usize, p: &mut Labels) {
    p.clear();
    p.resize(per * layout.prog.pi_bound(), Block::ZERO);
}

/// A fresh π vector for `layout` (`per` blocks per π slot: 2 for the
/// garbler, 1 for the evaluator). π of a label reveals the label (π is a
/// public permutation), so it is wiped like the labels.
pub(crate) fn start_pis(layout: &Layout, per: usize) -> Labels {
    Zeroizing::new(vec![Block::ZERO; per * layout.prog.pi_bound()])
}

/// One batch as the walk hands it to the side-specific code.
pub(crate) struct Batch {
    /// The stages of the slot program.
    pub stages: Range<usize>,
    /// Their AND gates (also the global AND indices).
    pub ands: Range<usize>,
    /// The π jobs to run first (empty for plain batches).
    pub pis: Range<usize>,
    /// Whether the ANDs read their inner π from the π vector.
    pub cached: bool,
}

/// Walks `layout`. `batch(w, b)` must garble or evaluate stages
/// `b.stages` of `layout.prog`; if `b.cached` (one stage, see
/// [`run_cached_xors`]) its ANDs read their inner π from the π vector,
/// after π jobs `b.pis`.
pub(crate) fn walk<F>(layout: &Layout, w: &mut [Block], mut batch: F) -> Result<()>
where
    F: FnMut(&mut [Block], Batch) -> Result<()>,
{
    for step in &layout.steps {
        batch(
            w,
            Batch {
                stages: step.stages.0 as usize..step.stages.1 as usize,
                ands: step.ands.0 as usize..step.ands.1 as usize,
                pis: step.pis.0 as usize..step.pis.1 as usize,
                cached: step.cached,
            },
        )?;
    }
    Ok(())
}

/// The XOR gates of a π-cached batch, which the side-specific code runs
/// before its π jobs and ANDs.
pub(crate) fn run_cached_xors(layout: &Layout, w: &mut [Block], b: &Batch) {
    for s in b.stages.clone() {
        layout.prog.run_xors(w, layout.prog.stage_xors(s));
    }
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
