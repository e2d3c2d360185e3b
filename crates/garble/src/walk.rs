//! The layer walk shared by the garbler and the evaluator.
//!
//! Both sides do the same thing between hash batches: run the linear gates on
//! the label vector, gather the inputs of the next AND batch into contiguous
//! slices, let the side-specific batch function (garble or evaluate) fill the
//! outputs, and scatter them back. Keeping that in one place means the two
//! sides cannot drift apart in gate order or AND numbering.

use crate::plan::{GarblePlan, CONST_SLOT};
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

/// A fresh label vector: `constant` on the constant slot, `inputs` on the
/// input slots (the caller has checked the count).
pub(crate) fn start(plan: &GarblePlan, inputs: &[Block], constant: Block) -> Labels {
    let mut w = Zeroizing::new(vec![Block::ZERO; plan.num_slots]);
    w[CONST_SLOT as usize] = constant;
    w[CONST_SLOT as usize + 1..][..inputs.len()].copy_from_slice(inputs);
    w
}

/// Walks the plan. `batch(first_and, a, b, out)` must fill `out` with the
/// output labels of ANDs `first_and..first_and + a.len()`.
pub(crate) fn walk<F>(plan: &GarblePlan, w: &mut [Block], mut batch: F) -> Result<()>
where
    F: FnMut(u64, &[Block], &[Block], &mut [Block]) -> Result<()>,
{
    let m = plan.max_batch();
    let mut a = Zeroizing::new(vec![Block::ZERO; m]);
    let mut b = Zeroizing::new(vec![Block::ZERO; m]);
    for step in &plan.steps {
        let mut o = step.base as usize;
        for &[x, y] in &plan.linear[step.lin.0 as usize..step.lin.1 as usize] {
            w[o] = w[x as usize] ^ w[y as usize];
            o += 1;
        }
        let (s, e) = (step.ands.0 as usize, step.ands.1 as usize);
        let n = e - s;
        if n == 0 {
            continue;
        }
        let (a, b) = (&mut a[..n], &mut b[..n]);
        for ((la, lb), (&wa, &wb)) in a
            .iter_mut()
            .zip(b.iter_mut())
            .zip(plan.and_a[s..e].iter().zip(&plan.and_b[s..e]))
        {
            *la = w[wa as usize];
            *lb = w[wb as usize];
        }
        batch(s as u64, a, b, &mut w[o..o + n])?;
    }
    Ok(())
}

/// The labels of the output wires, in plan order.
pub(crate) fn outputs(plan: &GarblePlan, w: &[Block]) -> Vec<Block> {
    plan.output_slots.iter().map(|&o| w[o as usize]).collect()
}

/// Every original wire's label (zero for wires nothing writes), if asked for.
pub(crate) fn all_wires(
    plan: &GarblePlan,
    w: &[Block],
    keep: Keep,
) -> Option<Zeroizing<Vec<Block>>> {
    (keep == Keep::AllWires).then(|| {
        Zeroizing::new(
            plan.slot_of
                .iter()
                .map(|&s| w.get(s as usize).copied().unwrap_or_default())
                .collect(),
        )
    })
}
