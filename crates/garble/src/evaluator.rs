//! Evaluating a garbled circuit, from memory or streamed off a channel.
//!
//! Tables and labels are the peer's bytes: every length is checked and a
//! mismatch is [`Error::Malformed`]. Evaluation itself cannot fail on wrong
//! *contents*: garbage in gives garbage labels out, which decoding or the
//! garbler's `decode_checked` then exposes.

use crate::garbler::GarbledCircuit;
use crate::gate::TABLE_BLOCKS;
use crate::plan::GarblePlan;
use crate::walk::{self, Keep};
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroizing;

/// Blocks read from the channel per `recv` (64 KiB): narrow circuits such as
/// SHA-256 have ~14 ANDs per layer, and one read per layer would cost a
/// syscall per 448 bytes on TCP.
const READ_CHUNK: usize = 4096;

/// What one evaluation hands back.
pub struct EvalOutput {
    /// The label of each output wire, in plan output order.
    pub output_labels: Vec<Block>,
    /// Every wire's label (index = wire id), if [`Keep::AllWires`].
    pub wire_labels: Option<Zeroizing<Vec<Block>>>,
}

fn check_inputs(plan: &GarblePlan, input_labels: &[Block]) -> Result<()> {
    if input_labels.len() != plan.input_wires.len() {
        return Err(Error::malformed(format!(
            "{} input labels for {} input wires",
            input_labels.len(),
            plan.input_wires.len()
        )));
    }
    Ok(())
}

/// Where the evaluator's tables come from, one batch at a time.
trait TableSource {
    /// The next `n` table blocks.
    fn take(&mut self, n: usize) -> Result<&[Block]>;
}

/// Tables already in memory (length checked up front).
struct SliceSource<'a>(&'a [Block]);

impl TableSource for SliceSource<'_> {
    fn take(&mut self, n: usize) -> Result<&[Block]> {
        if self.0.len() < n {
            return Err(Error::malformed("garbled tables shorter than the circuit"));
        }
        let (now, later) = self.0.split_at(n);
        self.0 = later;
        Ok(now)
    }
}

/// Tables read off a channel as they arrive, into a buffer of up to
/// [`READ_CHUNK`] blocks: each refill waits only for what the next batch
/// needs, so evaluation runs behind the garbler instead of a buffer behind.
struct ChannelSource<'c> {
    ch: &'c mut Channel,
    buf: Vec<Block>,
    /// Next unconsumed byte of `buf` (a multiple of 16: batches are whole blocks).
    pos: usize,
    /// Bytes of `buf` filled (may end inside a block).
    len: usize,
    /// Table bytes not yet read off the channel.
    unread: usize,
}

impl TableSource for ChannelSource<'_> {
    fn take(&mut self, n: usize) -> Result<&[Block]> {
        let need = 16 * n;
        if self.len - self.pos < need {
            let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut self.buf);
            bytes.copy_within(self.pos..self.len, 0);
            self.len -= self.pos;
            self.pos = 0;
            let room = (bytes.len() - self.len).min(self.unread);
            let min = need - self.len;
            if min > room {
                return Err(Error::malformed(
                    "garbled table stream shorter than the circuit",
                ));
            }
            let got = self
                .ch
                .recv_bytes_at_least(&mut bytes[self.len..self.len + room], min)?;
            self.unread -= got;
            self.len += got;
        }
        let start = self.pos / 16;
        self.pos += need;
        Ok(&self.buf[start..start + n])
    }
}

fn run<S: TableSource>(
    plan: &GarblePlan,
    input_labels: &[Block],
    tweak_offset: u64,
    keep: Keep,
    src: &mut S,
) -> Result<EvalOutput> {
    check_inputs(plan, input_labels)?;
    let layout = plan.layout(keep)?;
    let mut w = walk::start(layout, input_labels);
    let mut p = walk::start_pis(layout, 1);
    walk::walk(layout, &mut w, |w, b| {
        let tables = src.take(TABLE_BLOCKS * b.ands.len())?;
        let first = b.ands.start as u64;
        let prog = &layout.prog;
        if b.cached {
            walk::run_cached_xors(layout, w, &b);
            prog.eval_pis(w, &mut p, b.pis);
            prog.eval_ands_cached(w, &p, b.ands, tables, tweak_offset, first);
        } else {
            prog.eval_stages(w, b.stages, tables, tweak_offset);
        }
        Ok(())
    })?;
    Ok(EvalOutput {
        output_labels: walk::outputs(layout, &w, Block::ZERO),
        wire_labels: walk::all_wires(layout, &w, keep, Block::ZERO),
    })
}

/// Evaluates a garbled circuit held in memory.
pub fn evaluate(
    plan: &GarblePlan,
    gc: &GarbledCircuit,
    input_labels: &[Block],
    keep: Keep,
) -> Result<EvalOutput> {
    if gc.tables.len() != plan.table_blocks() {
        return Err(Error::malformed(format!(
            "garbled circuit has {} table blocks, circuit needs {}",
            gc.tables.len(),
            plan.table_blocks()
        )));
    }
    run(
        plan,
        input_labels,
        gc.tweak_offset,
        keep,
        &mut SliceSource(&gc.tables),
    )
}

/// Evaluates while reading the tables off `ch` as they arrive (up to 64 KiB
/// at a time), as the garbler's [`crate::garble_to_channel`] produces them. Reads exactly
/// [`GarblePlan::table_blocks`] blocks; a short stream is the channel's
/// error (`Disconnected`, `Timeout`), never a panic.
pub fn evaluate_streaming(
    plan: &GarblePlan,
    input_labels: &[Block],
    tweak_offset: u64,
    keep: Keep,
    ch: &mut Channel,
) -> Result<EvalOutput> {
    check_inputs(plan, input_labels)?;
    let mut src = ChannelSource {
        ch,
        buf: vec![Block::ZERO; READ_CHUNK.max(TABLE_BLOCKS * plan.layout(keep)?.max_batch())],
        pos: 0,
        len: 0,
        unread: 16 * plan.table_blocks(),
    };
    run(plan, input_labels, tweak_offset, keep, &mut src)
}
