//! Garbling a whole circuit: streamed to a sink or a channel, or kept.

use crate::decode::Decoding;
use crate::delta::Delta;
use crate::gate::TABLE_BLOCKS;
use crate::plan::GarblePlan;
use crate::walk::{self, Keep};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

/// A garbled circuit kept for later (CompGC components, Lindell–Riva's
/// cut-and-choose): everything the evaluator needs besides input labels and
/// decoding information.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GarbledCircuit {
    /// `[T_G, T_E]` per AND gate, in global AND order.
    pub tables: Vec<Block>,
    /// The tweak offset it was garbled under; evaluation must use the same.
    pub tweak_offset: u64,
}

/// The garbler's private result of one garbling.
pub struct GarbleOutput {
    /// 0-label of each output wire, in plan output order.
    pub output_zero_labels: Zeroizing<Vec<Block>>,
    /// 0-label of every wire (index = wire id), if [`Keep::AllWires`].
    pub wire_zero_labels: Option<Zeroizing<Vec<Block>>>,
}

impl GarbleOutput {
    /// The decoding information to hand the evaluator if it may learn the output.
    pub fn decoding(&self) -> Decoding {
        Decoding::from_zero_labels(&self.output_zero_labels)
    }
}

/// Table blocks handed to a streaming sink per call (32 KiB), unless one
/// batch is larger.
pub const STREAM_CHUNK: usize = 2048;

fn check_inputs(plan: &GarblePlan, input_zero_labels: &[Block]) -> Result<()> {
    if input_zero_labels.len() != plan.input_wires.len() {
        return Err(Error::config(format!(
            "{} input labels for {} input wires",
            input_zero_labels.len(),
            plan.input_wires.len()
        )));
    }
    Ok(())
}

/// The label and π vectors a garbling works in, kept by callers that
/// garble many circuits one after another ([`garble_into_with`]): a fresh
/// vector per garbling (≈ 47 KiB for AES-128) was zero-filled in fresh
/// pages and freed each time, and for Lindell–Riva's thousands of bundles
/// that page-fault and memset traffic was ≈ 8 % of the garbler's CPU.
/// Secret labels stay in it between garblings; it is wiped when dropped.
#[derive(Default)]
pub struct GarbleScratch {
    labels: walk::Labels,
    pis: walk::Labels,
}

impl GarbleScratch {
    /// Empty vectors (they grow to the largest plan once).
    pub fn new() -> Self {
        Self::default()
    }
}

/// Garbles into `buf` (at least one batch long), handing it to `sink`
/// whenever the next batch would not fit, and at the end.
#[allow(clippy::too_many_arguments)]
fn run<F>(
    plan: &GarblePlan,
    delta: &Delta,
    input_zero_labels: &[Block],
    tweak_offset: u64,
    keep: Keep,
    buf: &mut [Block],
    sink: &mut F,
    scratch: &mut GarbleScratch,
) -> Result<GarbleOutput>
where
    F: FnMut(&[Block]) -> Result<()>,
{
    check_inputs(plan, input_zero_labels)?;
    let layout = plan.layout(keep)?;
    let d = delta.block();
    let w = &mut scratch.labels;
    walk::start_into(layout, input_zero_labels, w);
    let p = &mut scratch.pis;
    walk::start_pis_into(layout, 2, p);
    let mut fill = 0;
    walk::walk(layout, w, |w, b| {
        let n = TABLE_BLOCKS * b.ands.len();
        if fill + n > buf.len() {
            sink(&buf[..fill])?;
            fill = 0;
        }
        let first = b.ands.start as u64;
        let prog = &layout.prog;
        let t = &mut buf[fill..fill + n];
        if b.cached {
            walk::run_cached_xors(layout, w, &b);
            prog.garble_pis(w, p, b.pis, d);
            prog.garble_ands_cached(w, p, b.ands, d, tweak_offset, first, t);
        } else {
            // Stage by stage, the XORs of each stage running between the
            // AES rounds of the group before (the stages are one layer
            // piece, as `garble_stages` requires).
            prog.garble_stages(w, b.stages, d, tweak_offset, t);
        }
        fill += n;
        Ok(())
    })?;
    if fill > 0 {
        sink(&buf[..fill])?;
    }
    Ok(GarbleOutput {
        output_zero_labels: Zeroizing::new(walk::outputs(layout, w, d)),
        wire_zero_labels: walk::all_wires(layout, w, keep, d),
    })
}

/// Garbles `plan` under `delta`, handing the tables to `sink` in order, in
/// pieces of about [`STREAM_CHUNK`] blocks (whole batches) as soon as they
/// exist; memory stays at one piece whatever the circuit size.
///
/// `input_zero_labels` are the 0-labels of [`GarblePlan::input_wires`].
/// `tweak_offset` must differ between circuits garbled under the same Δ.
pub fn garble_streaming<F>(
    plan: &GarblePlan,
    delta: &Delta,
    input_zero_labels: &[Block],
    tweak_offset: u64,
    keep: Keep,
    sink: &mut F,
) -> Result<GarbleOutput>
where
    F: FnMut(&[Block]) -> Result<()>,
{
    let len = STREAM_CHUNK
        .max(TABLE_BLOCKS * plan.layout(keep)?.max_batch())
        .min(plan.table_blocks().max(1));
    let mut buf = vec![Block::ZERO; len];
    run(
        plan,
        delta,
        input_zero_labels,
        tweak_offset,
        keep,
        &mut buf,
        sink,
        &mut GarbleScratch::new(),
    )
}

/// Garbles into memory, for protocols that send or check circuits later.
pub fn garble(
    plan: &GarblePlan,
    delta: &Delta,
    input_zero_labels: &[Block],
    tweak_offset: u64,
    keep: Keep,
) -> Result<(GarbledCircuit, GarbleOutput)> {
    let mut tables = Vec::new();
    let out = garble_into(
        plan,
        delta,
        input_zero_labels,
        tweak_offset,
        keep,
        &mut tables,
    )?;
    Ok((
        GarbledCircuit {
            tables,
            tweak_offset,
        },
        out,
    ))
}

/// [`garble`] into a caller's vector (resized to the table length), so
/// repeated garblings reuse one allocation.
pub fn garble_into(
    plan: &GarblePlan,
    delta: &Delta,
    input_zero_labels: &[Block],
    tweak_offset: u64,
    keep: Keep,
    tables: &mut Vec<Block>,
) -> Result<GarbleOutput> {
    garble_into_with(
        plan,
        delta,
        input_zero_labels,
        tweak_offset,
        keep,
        tables,
        &mut GarbleScratch::new(),
    )
}

/// [`garble_into`] working in `scratch`'s vectors, so that garbling many
/// circuits one after another allocates nothing per circuit. Tables and
/// labels are those of [`garble`], bit for bit.
pub fn garble_into_with(
    plan: &GarblePlan,
    delta: &Delta,
    input_zero_labels: &[Block],
    tweak_offset: u64,
    keep: Keep,
    tables: &mut Vec<Block>,
    scratch: &mut GarbleScratch,
) -> Result<GarbleOutput> {
    tables.resize(plan.table_blocks(), Block::ZERO);
    run(
        plan,
        delta,
        input_zero_labels,
        tweak_offset,
        keep,
        tables,
        &mut |_| Ok(()),
        scratch,
    )
}

/// Garbles straight onto `ch`, pushing each piece of about
/// [`STREAM_CHUNK`] blocks to the peer as soon as it exists (one write, no
/// copy through the channel's buffer), so the evaluator runs a piece behind
/// the garbler. Input labels queued before are sent first. Decoding
/// information sent after it travels in the same flight.
pub fn garble_to_channel(
    plan: &GarblePlan,
    delta: &Delta,
    input_zero_labels: &[Block],
    tweak_offset: u64,
    keep: Keep,
    ch: &mut Channel,
) -> Result<GarbleOutput> {
    garble_streaming(
        plan,
        delta,
        input_zero_labels,
        tweak_offset,
        keep,
        &mut |t| ch.send_blocks_now(t),
    )
}

/// The garbler's long-lived state: Δ and a PRG for fresh input labels.
pub struct Garbler {
    delta: Delta,
    prg: Prg,
}

impl Garbler {
    /// A garbler with Δ and labels from OS randomness.
    pub fn new() -> Self {
        Self::from_prg(Prg::new())
    }

    /// A garbler drawing Δ and labels from `prg` (fixed seeds in tests only).
    pub fn from_prg(mut prg: Prg) -> Self {
        let delta = Delta::random(&mut prg);
        Garbler { delta, prg }
    }

    /// A garbler with a given Δ (e.g. one fixed by Δ-OT or commitments).
    pub fn with_delta(delta: Delta, prg: Prg) -> Self {
        Garbler { delta, prg }
    }

    /// The global offset.
    pub fn delta(&self) -> &Delta {
        &self.delta
    }

    /// `n` fresh random 0-labels (for input wires).
    pub fn random_labels(&mut self, n: usize) -> Zeroizing<Vec<Block>> {
        let mut v = Zeroizing::new(vec![Block::ZERO; n]);
        self.prg.fill_blocks(&mut v);
        v
    }

    /// Fresh input 0-labels for `plan`, in [`GarblePlan::input_wires`] order.
    pub fn input_zero_labels(&mut self, plan: &GarblePlan) -> Zeroizing<Vec<Block>> {
        self.random_labels(plan.input_wires().len())
    }

    /// The labels encoding `bits` on wires with the given 0-labels.
    pub fn encode(&self, zero_labels: &[Block], bits: &[bool]) -> Result<Vec<Block>> {
        if zero_labels.len() != bits.len() {
            return Err(Error::config(format!(
                "{} bits for {} wires",
                bits.len(),
                zero_labels.len()
            )));
        }
        let d = self.delta.block();
        Ok(zero_labels
            .iter()
            .zip(bits)
            .map(|(&z, &b)| z ^ d.and_bit(b))
            .collect())
    }

    /// Fresh input labels, then [`garble`]: returns the input 0-labels too.
    pub fn garble(
        &mut self,
        plan: &GarblePlan,
        tweak_offset: u64,
        keep: Keep,
    ) -> Result<(GarbledCircuit, GarbleOutput, Zeroizing<Vec<Block>>)> {
        let inputs = self.input_zero_labels(plan);
        let (gc, out) = garble(plan, &self.delta, &inputs, tweak_offset, keep)?;
        Ok((gc, out, inputs))
    }
}

impl Default for Garbler {
    fn default() -> Self {
        Self::new()
    }
}
