//! The layer walk shared by the garbler and the evaluator.
//!
//! Both sides do the same thing between hash batches: run the linear gates on
//! the label vector, gather the inputs of the next AND batch into contiguous
//! slices, let the side-specific batch function (garble or evaluate) fill the
//! outputs, and scatter them back. Keeping that in one place means the two
//! sides cannot drift apart in gate order or AND numbering.

use crate::plan::{GarblePlan, Layout, CONST_SLOT};
use brickyard_core::{Block, Result};
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

/// A fresh label vector for `layout`: `constant` on the constant slot,
/// `inputs` on the input slots (the caller has checked the count).
pub(crate) fn start(layout: &Layout, inputs: &[Block], constant: Block) -> Labels {
    let mut w = Zeroizing::new(vec![Block::ZERO; layout.num_slots]);
    w[CONST_SLOT as usize] = constant;
    w[CONST_SLOT as usize + 1..][..inputs.len()].copy_from_slice(inputs);
    w
}

/// Walks the plan over `layout`. `batch(first_and, a, b, out)` must fill
/// `out` with the output labels of ANDs `first_and..first_and + a.len()`.
pub(crate) fn walk<F>(
    plan: &GarblePlan,
    layout: &Layout,
    w: &mut [Block],
    mut batch: F,
) -> Result<()>
where
    F: FnMut(u64, &[Block], &[Block], &mut [Block]) -> Result<()>,
{
    let m = plan.max_batch();
    let mut a = Zeroizing::new(vec![Block::ZERO; m]);
    let mut b = Zeroizing::new(vec![Block::ZERO; m]);
    let mut out = Zeroizing::new(vec![Block::ZERO; m]);
    for step in &plan.steps {
        for &[x, y, o] in &layout.linear[step.lin.0 as usize..step.lin.1 as usize] {
            w[o as usize] = w[x as usize] ^ w[y as usize];
        }
        let (s, e) = (step.ands.0 as usize, step.ands.1 as usize);
        let n = e - s;
        if n == 0 {
            continue;
        }
        let (a, b, out) = (&mut a[..n], &mut b[..n], &mut out[..n]);
        for ((la, lb), (&wa, &wb)) in a
            .iter_mut()
            .zip(b.iter_mut())
            .zip(layout.and_a[s..e].iter().zip(&layout.and_b[s..e]))
        {
            *la = w[wa as usize];
            *lb = w[wb as usize];
        }
        batch(s as u64, a, b, out)?;
        for (&o, &l) in layout.and_out[s..e].iter().zip(out.iter()) {
            w[o as usize] = l;
        }
    }
    Ok(())
}

/// The labels of the output wires, in plan order.
pub(crate) fn outputs(layout: &Layout, w: &[Block]) -> Vec<Block> {
    layout.output_slots.iter().map(|&o| w[o as usize]).collect()
}

/// Every original wire's label (zero for wires nothing writes), if asked
/// for; only the dense layout keeps them all.
pub(crate) fn all_wires(layout: &Layout, w: &[Block], keep: Keep) -> Option<Zeroizing<Vec<Block>>> {
    (keep == Keep::AllWires).then(|| {
        Zeroizing::new(
            layout
                .wire_slots
                .iter()
                .map(|&s| w.get(s as usize).copied().unwrap_or_default())
                .collect(),
        )
    })
}
