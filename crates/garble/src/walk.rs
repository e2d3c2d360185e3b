//! The layer walk shared by the garbler and the evaluator.
//!
//! Both sides do the same thing between hash batches: run the linear gates on
//! the label vector, gather the inputs of the next AND batch into contiguous
//! slices, let the side-specific batch function (garble or evaluate) fill the
//! outputs, and scatter them back. Keeping that in one place means the two
//! sides cannot drift apart in gate order or AND numbering.

use crate::plan::GarblePlan;
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

/// A label vector indexed by wire, plus the constant wire (see `plan.rs`).
pub(crate) type Labels = Zeroizing<Vec<Block>>;

/// Places `inputs` on the input wires of a fresh label vector whose constant
/// wire holds `constant`.
pub(crate) fn start(plan: &GarblePlan, inputs: &[Block], constant: Block) -> Labels {
    let mut w = Zeroizing::new(vec![Block::ZERO; plan.num_wires + 1]);
    w[plan.num_wires] = constant;
    for (&wire, &l) in plan.input_wires.iter().zip(inputs) {
        w[wire as usize] = l;
    }
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
    let mut out = Zeroizing::new(vec![Block::ZERO; m]);
    for step in &plan.steps {
        for &[x, y, o] in &plan.linear[step.lin.0 as usize..step.lin.1 as usize] {
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
            .zip(plan.and_a[s..e].iter().zip(&plan.and_b[s..e]))
        {
            *la = w[wa as usize];
            *lb = w[wb as usize];
        }
        batch(s as u64, a, b, out)?;
        for (&o, &l) in plan.and_out[s..e].iter().zip(out.iter()) {
            w[o as usize] = l;
        }
    }
    Ok(())
}

/// The labels of the output wires, in plan order.
pub(crate) fn outputs(plan: &GarblePlan, w: &[Block]) -> Vec<Block> {
    plan.output_wires.iter().map(|&o| w[o as usize]).collect()
}

/// All wire labels without the constant slot, if asked for.
pub(crate) fn all_wires(
    plan: &GarblePlan,
    w: &[Block],
    keep: Keep,
) -> Option<Zeroizing<Vec<Block>>> {
    (keep == Keep::AllWires).then(|| Zeroizing::new(w[..plan.num_wires].to_vec()))
}
