//! Whole circuits with long labels, layer at a time.
//!
//! A [`WidePlan`] reuses the compact layout of a [`GarblePlan`] (slots,
//! fused 3-input XOR gates, folded AND inputs, INV polarities, the AND
//! numbering that fixes the tweaks) and re-cuts its stages into
//! *batches*: consecutive stages join one batch while none of their XOR
//! gates reads or writes a slot that an earlier AND of the batch reads or
//! writes, and none of their ANDs reads an earlier AND's output (up to
//! [`MAX_WIDE_BATCH`] ANDs). A batch runs all its XORs, then hashes all
//! its ANDs in one [`garble_batch`] / [`eval_batch`] call, which equals
//! running its stages one by one (the 128-bit plan's 8-AND stages would
//! give the AES kernels runs of 8–16 gates).
//!
//! Beside each slot's label the walk keeps its compression `E·X`:
//! compression is linear, so XOR gates XOR the compressions too, and
//! only input wires and AND outputs are compressed (once each), not every
//! AND input (twice per AND).

use super::kernel::{eval_batch_compressed, garble_batch_compressed, WideScratch};
use super::{and_bit, xor, Compress, Label, WideDelta};
use crate::plan::GarblePlan;
use brickyard_core::aes::halfgates::AndSlots;
use brickyard_core::{Block, Error, Result};
use zeroize::Zeroizing;

/// Most AND gates hashed in one batch.
pub const MAX_WIDE_BATCH: usize = 128;

#[derive(Clone, Copy, Debug)]
struct Batch {
    stages: (u32, u32),
    ands: (u32, u32),
}

/// A circuit compiled for long-label garbling (see the module docs).
#[derive(Clone, Debug)]
pub struct WidePlan {
    num_slots: usize,
    inputs: usize,
    /// `[a, b, c, out]` slot numbers, in stage order.
    xors: Vec<[u32; 4]>,
    /// Cumulative XOR end of each stage.
    stage_xor_ends: Vec<u32>,
    ands: Vec<AndSlots>,
    /// Per AND, the slots XORed into its inputs (the zero slot if none).
    folds: Vec<[u32; 2]>,
    batches: Vec<Batch>,
    output_slots: Vec<u32>,
    output_flips: Vec<bool>,
}

impl WidePlan {
    /// Compiles from a plan made by [`GarblePlan::new`] (a π-cached plan
    /// is refused: its batches read π slots this walk does not keep).
    pub fn new(plan: &GarblePlan) -> Result<Self> {
        let layout = plan.layout(crate::Keep::Outputs)?;
        let prog = &layout.prog;
        if !prog.pi_jobs().is_empty() {
            return Err(Error::config(
                "long labels: π-cached plans are not supported",
            ));
        }
        let xors: Vec<[u32; 4]> = (0..prog.xors().len())
            .map(|i| prog.xors().gate(i))
            .collect();
        let ands = prog.ands().to_vec();
        let n = ands.len();
        let folds: Vec<[u32; 2]> = match prog.folds(0..n) {
            [] => {
                // No folds: name a slot that stays zero. The compact layout
                // has one right after the inputs only when it folds, so use
                // a fresh one past the end.
                vec![[layout.num_slots as u32; 2]; n]
            }
            f => f.iter().map(|p| p.map(|o| o / 16)).collect(),
        };
        let num_slots = layout.num_slots + 1;
        let stages = prog.stages().len();
        let stage_xor_ends: Vec<u32> = prog.stages().iter().map(|s| s[0]).collect();
        // Re-cut the stages into batches.
        let mut pend_in = vec![u32::MAX; num_slots];
        let mut pend_out = vec![u32::MAX; num_slots];
        let mut batches: Vec<Batch> = Vec::new();
        let mut cur = Batch {
            stages: (0, 0),
            ands: (0, 0),
        };
        let mut id = 0u32;
        for s in 0..stages {
            let xs = prog.stage_xors(s);
            let r = prog.stages_ands(s..s + 1);
            let busy = |x: u32, v: &[u32]| v[x as usize] == id;
            let xor_clash = xors[xs.clone()].iter().any(|g| {
                g[..3].iter().any(|&x| busy(x, &pend_out))
                    || busy(g[3], &pend_in)
                    || busy(g[3], &pend_out)
            });
            let and_clash = r.clone().any(|i| {
                let (g, f) = (ands[i], folds[i]);
                [g.a, g.b, f[0], f[1]].iter().any(|&x| busy(x, &pend_out))
                    || busy(g.out, &pend_in)
                    || busy(g.out, &pend_out)
            });
            let full = (cur.ands.1 - cur.ands.0) as usize + r.len() > MAX_WIDE_BATCH;
            if xor_clash || and_clash || full {
                batches.push(cur);
                cur = Batch {
                    stages: (s as u32, s as u32),
                    ands: (cur.ands.1, cur.ands.1),
                };
                id += 1;
            }
            for i in r.clone() {
                let (g, f) = (ands[i], folds[i]);
                for x in [g.a, g.b, f[0], f[1]] {
                    pend_in[x as usize] = id;
                }
                pend_out[g.out as usize] = id;
            }
            cur.stages.1 = s as u32 + 1;
            cur.ands.1 = r.end as u32;
        }
        if cur.stages.1 > cur.stages.0 {
            batches.push(cur);
        }
        Ok(WidePlan {
            num_slots,
            inputs: plan.input_wires().len(),
            xors,
            stage_xor_ends,
            ands,
            folds,
            batches,
            output_slots: layout.output_slots.clone(),
            output_flips: layout.output_flips.clone(),
        })
    }

    /// AND gates (table rows / 2).
    pub fn and_count(&self) -> usize {
        self.ands.len()
    }

    /// Input wires.
    pub fn input_count(&self) -> usize {
        self.inputs
    }

    /// Hash batches (one `encrypt_blocks` pair each).
    pub fn batch_count(&self) -> usize {
        self.batches.len()
    }

    fn stage_xors(&self, s: u32) -> std::ops::Range<usize> {
        let start = if s == 0 {
            0
        } else {
            self.stage_xor_ends[s as usize - 1]
        };
        start as usize..self.stage_xor_ends[s as usize] as usize
    }

    fn run_xors<const L: usize>(&self, w: &mut [Label<L>], cw: &mut [Block], b: &Batch) {
        for s in b.stages.0..b.stages.1 {
            for g in &self.xors[self.stage_xors(s)] {
                let [x, y, z, o] = g.map(|i| i as usize);
                let v = xor(&xor(&w[x], &w[y]), &w[z]);
                w[o] = v;
                cw[o] = cw[x] ^ cw[y] ^ cw[z];
            }
        }
    }

    /// The label vector and the vector of their compressions.
    #[allow(clippy::type_complexity)]
    fn start<const L: usize>(
        &self,
        inputs: &[Label<L>],
        compress: &Compress,
    ) -> Result<(Zeroizing<Vec<Label<L>>>, Zeroizing<Vec<Block>>)> {
        if inputs.len() != self.inputs {
            return Err(Error::config(format!(
                "{} input labels for {} input wires",
                inputs.len(),
                self.inputs
            )));
        }
        if 16 * L != compress.cols() {
            return Err(Error::config("Compress matrix for another label length"));
        }
        let mut w = Zeroizing::new(vec![[Block::ZERO; L]; self.num_slots]);
        w[..inputs.len()].copy_from_slice(inputs);
        let mut cw = Zeroizing::new(vec![Block::ZERO; self.num_slots]);
        for (c, x) in cw.iter_mut().zip(inputs) {
            *c = compress.apply(x);
        }
        Ok((w, cw))
    }
}

/// Buffers of one batch's gathered labels (wiped on drop).
struct Gathered<const L: usize> {
    a: Zeroizing<Vec<Label<L>>>,
    b: Zeroizing<Vec<Label<L>>>,
    ca: Zeroizing<Vec<Block>>,
    cb: Zeroizing<Vec<Block>>,
    out: Zeroizing<Vec<Label<L>>>,
}

impl<const L: usize> Gathered<L> {
    fn new() -> Self {
        let z = || Zeroizing::new(vec![[Block::ZERO; L]; MAX_WIDE_BATCH]);
        let c = || Zeroizing::new(vec![Block::ZERO; MAX_WIDE_BATCH]);
        Gathered {
            a: z(),
            b: z(),
            ca: c(),
            cb: c(),
            out: z(),
        }
    }
}

/// Garbles `plan` under `delta` and `compress`: the tables
/// (`[T_G, T_E]` per AND, global AND order) are appended to `tables`, and
/// the output wires' 0-labels returned. `input_zero_labels` in plan input
/// order.
pub fn garble_wide<const L: usize>(
    plan: &WidePlan,
    delta: &WideDelta<L>,
    compress: &Compress,
    input_zero_labels: &[Label<L>],
    tweak_offset: u64,
    tables: &mut Vec<Label<L>>,
) -> Result<Zeroizing<Vec<Label<L>>>> {
    let (mut w, mut cw) = plan.start(input_zero_labels, compress)?;
    let d = delta.label();
    let cd = compress.apply(d);
    let mut g = Gathered::<L>::new();
    let mut scratch = WideScratch::new();
    let base = tables.len();
    tables.resize(base + 2 * plan.and_count(), [Block::ZERO; L]);
    for b in &plan.batches {
        plan.run_xors(&mut w, &mut cw, b);
        let r = b.ands.0 as usize..b.ands.1 as usize;
        let n = r.len();
        for (k, i) in r.clone().enumerate() {
            let (s, f) = (plan.ands[i], plan.folds[i]);
            let [x, fx, y, fy] = [s.a, f[0], s.b, f[1]].map(|i| i as usize);
            let (pa, pb) = (s.flip & 1 == 1, s.flip & 2 == 2);
            g.a[k] = xor(&xor(&w[x], &w[fx]), &and_bit(d, pa));
            g.b[k] = xor(&xor(&w[y], &w[fy]), &and_bit(d, pb));
            g.ca[k] = cw[x] ^ cw[fx] ^ cd.and_bit(pa);
            g.cb[k] = cw[y] ^ cw[fy] ^ cd.and_bit(pb);
        }
        garble_batch_compressed(
            &g.a[..n],
            &g.b[..n],
            &g.ca[..n],
            &g.cb[..n],
            delta,
            compress,
            tweak_offset,
            r.start as u64,
            &mut g.out[..n],
            &mut tables[base + 2 * r.start..base + 2 * r.end],
            &mut scratch,
        )?;
        for (k, i) in r.enumerate() {
            let o = plan.ands[i].out as usize;
            w[o] = g.out[k];
            cw[o] = compress.apply(&g.out[k]);
        }
    }
    Ok(Zeroizing::new(
        plan.output_slots
            .iter()
            .zip(&plan.output_flips)
            .map(|(&o, &f)| xor(&w[o as usize], &and_bit(d, f)))
            .collect(),
    ))
}

/// Evaluates tables from [`garble_wide`] (same plan, `compress` and
/// `tweak_offset`) on one label per input wire; returns the output wires'
/// labels. A table of the wrong length is `Malformed`.
pub fn evaluate_wide<const L: usize>(
    plan: &WidePlan,
    compress: &Compress,
    tables: &[Label<L>],
    input_labels: &[Label<L>],
    tweak_offset: u64,
) -> Result<Vec<Label<L>>> {
    if tables.len() != 2 * plan.and_count() {
        return Err(Error::malformed(format!(
            "{} long-label table rows for {} AND gates",
            tables.len(),
            plan.and_count()
        )));
    }
    let (mut w, mut cw) = plan.start(input_labels, compress)?;
    let mut g = Gathered::<L>::new();
    let mut scratch = WideScratch::new();
    for b in &plan.batches {
        plan.run_xors(&mut w, &mut cw, b);
        let r = b.ands.0 as usize..b.ands.1 as usize;
        let n = r.len();
        for (k, i) in r.clone().enumerate() {
            let (s, f) = (plan.ands[i], plan.folds[i]);
            let [x, fx, y, fy] = [s.a, f[0], s.b, f[1]].map(|i| i as usize);
            g.a[k] = xor(&w[x], &w[fx]);
            g.b[k] = xor(&w[y], &w[fy]);
            g.ca[k] = cw[x] ^ cw[fx];
            g.cb[k] = cw[y] ^ cw[fy];
        }
        eval_batch_compressed(
            &g.a[..n],
            &g.b[..n],
            &g.ca[..n],
            &g.cb[..n],
            &tables[2 * r.start..2 * r.end],
            compress,
            tweak_offset,
            r.start as u64,
            &mut g.out[..n],
            &mut scratch,
        )?;
        for (k, i) in r.enumerate() {
            let o = plan.ands[i].out as usize;
            w[o] = g.out[k];
            cw[o] = compress.apply(&g.out[k]);
        }
    }
    Ok(plan.output_slots.iter().map(|&o| w[o as usize]).collect())
}
