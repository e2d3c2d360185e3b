//! Evaluating several garblings of one plan side by side.
//!
//! Cut-and-choose protocols (Lindell–Riva's buckets) evaluate `B` garbled
//! copies of one circuit under different Δ and labels. One at a time, each
//! AND stage of a copy hashes at most [`crate::plan::GROUP`] gates, and the
//! two dependent AES passes of the hash wait on each other through a short
//! batch; an XOR gate moves one block per few instructions of index work.
//! With VAES-512, [`evaluate_many`] runs the copies two at a time on a
//! ZMM stage kernel that hides much of that (see there).
//!
//! Side by side, the copies' labels live in one vector, **wire-major**:
//! slot `s` of copy `c` is block `s·L + c` (`L` = the copies rounded up to
//! even; a padding copy, if any, reruns copy 0's tables and is dropped).
//! The walk goes a stage at a time, a walk step's stages in one call of
//! `SlotProgram::eval_stages_lanes`: each XOR gate XORs the `L` adjacent
//! blocks of its slots (two copies per 256-bit XOR), and each stage's AND
//! gates of all copies go to the VAES-on-YMM kernel (two copies per
//! register, `L/2 ×` the stage's gates in flight; its portable twin
//! elsewhere). Per copy the gate order, the tweaks and the equations are
//! those of [`crate::evaluate`], so the output labels are identical
//! (tested against it). π-cached plans take the older path below: each
//! copy's label vector apart, the stage's ANDs of all copies hashed by
//! one `encrypt_blocks` call per AES pass.
//!
//! Safe code only: the kernels are in `brickyard_core`.

use crate::evaluator::EvalOutput;
use crate::garbler::GarbledCircuit;
use crate::gate::TABLE_BLOCKS;
use crate::plan::{GarblePlan, Layout};
use crate::walk::{self, Keep, Labels};
use brickyard_core::aes::fixed_key;
use brickyard_core::aes::halfgates::{and_tweak, AndSlots, SlotProgram};
use brickyard_core::{Block, Error, Result};
use std::cell::RefCell;
use std::ops::Range;
use zeroize::Zeroizing;

/// Evaluates every `(garbled circuit, input labels)` of `jobs` (all of
/// `plan`); the outputs are those of [`crate::evaluate`] on each job, in
/// order. A job whose tables or labels have the wrong length is
/// [`Error::Malformed`] before any work.
///
/// With VAES-512 the copies go **two at a time** (the lane layout with
/// 2 lanes, on the two-copy ZMM stage kernel, which runs the next
/// stage's XOR gates between its AES rounds; an odd last copy alone on
/// the one-copy kernel); elsewhere all side by side (the YMM lane
/// kernel, which runs them apart). Measured on a Xeon with AVX-512
/// (`lindell-riva`'s `online_floor` example, minima): AES-128's C at 6
/// copies 6.3 ns per AND in pairs, 8.4 one at a time, 12.3 side by side;
/// its C' (26.8 XOR gates per AND, 13 copies) 0.117 ms in pairs, 0.124
/// side by side, 0.18 one at a time (all copies side by side keep a
/// label vector 7 times larger, out of L1).
pub fn evaluate_many(
    plan: &GarblePlan,
    jobs: &[(&GarbledCircuit, &[Block])],
    keep: Keep,
) -> Result<Vec<EvalOutput>> {
    check_jobs(plan, jobs)?;
    let layout = plan.layout(keep)?;
    if !jobs.is_empty() && pairs_pay(layout) {
        let mut out = Vec::with_capacity(jobs.len());
        for pair in jobs.chunks(2) {
            match pair {
                [(gc, labels)] => out.push(crate::evaluate(plan, gc, labels, keep)?),
                _ => out.extend(evaluate_lanes(layout, pair, keep)),
            }
        }
        return Ok(out);
    }
    side_by_side(plan, jobs, keep)
}

/// [`evaluate_many`] always side by side (the lane layout for plans
/// without a π cache, whatever the CPU): what tests compare with
/// [`crate::evaluate`] on every host, and what benchmarks set beside it.
pub fn evaluate_many_side_by_side(
    plan: &GarblePlan,
    jobs: &[(&GarbledCircuit, &[Block])],
    keep: Keep,
) -> Result<Vec<EvalOutput>> {
    check_jobs(plan, jobs)?;
    side_by_side(plan, jobs, keep)
}

fn pairs_pay(layout: &Layout) -> bool {
    brickyard_core::aes::backend_name() == "vaes512" && !layout.steps.iter().any(|s| s.cached)
}

fn check_jobs(plan: &GarblePlan, jobs: &[(&GarbledCircuit, &[Block])]) -> Result<()> {
    for (gc, labels) in jobs {
        if gc.tables.len() != plan.table_blocks() {
            return Err(Error::malformed(format!(
                "garbled circuit has {} table blocks, circuit needs {}",
                gc.tables.len(),
                plan.table_blocks()
            )));
        }
        if labels.len() != plan.input_wires.len() {
            return Err(Error::malformed(format!(
                "{} input labels for {} input wires",
                labels.len(),
                plan.input_wires.len()
            )));
        }
    }
    Ok(())
}

/// The copies side by side (lengths checked).
fn side_by_side(
    plan: &GarblePlan,
    jobs: &[(&GarbledCircuit, &[Block])],
    keep: Keep,
) -> Result<Vec<EvalOutput>> {
    let layout = plan.layout(keep)?;
    if jobs.is_empty() {
        return Ok(Vec::new());
    }
    if !layout.steps.iter().any(|s| s.cached) {
        return Ok(evaluate_lanes(layout, jobs, keep));
    }
    let prog = &layout.prog;
    let mut ws: Vec<Labels> = jobs.iter().map(|(_, l)| walk::start(layout, l)).collect();
    let mut ps: Vec<Labels> = jobs.iter().map(|_| walk::start_pis(layout, 1)).collect();
    let offsets: Vec<u64> = jobs.iter().map(|(gc, _)| gc.tweak_offset).collect();
    let tables: Vec<&[Block]> = jobs.iter().map(|(gc, _)| &gc.tables[..]).collect();
    let mut scratch = Scratch::default();
    for step in &layout.steps {
        let stages = step.stages.0 as usize..step.stages.1 as usize;
        if step.cached {
            for s in stages.clone() {
                for w in ws.iter_mut() {
                    prog.run_xors(w, prog.stage_xors(s));
                }
            }
            let pis = step.pis.0 as usize..step.pis.1 as usize;
            scratch.pis(prog, &ws, &mut ps, pis);
            let ands = step.ands.0 as usize..step.ands.1 as usize;
            scratch.ands_cached(prog, &mut ws, &ps, &tables, &offsets, ands);
        } else {
            for s in stages {
                for w in ws.iter_mut() {
                    prog.run_xors(w, prog.stage_xors(s));
                }
                let ands = prog.stages_ands(s..s + 1);
                if !ands.is_empty() {
                    scratch.ands(prog, &mut ws, &tables, &offsets, ands);
                }
            }
        }
    }
    Ok(ws
        .iter()
        .map(|w| EvalOutput {
            output_labels: walk::outputs(layout, w, Block::ZERO),
            wire_labels: walk::all_wires(layout, w, keep, Block::ZERO),
        })
        .collect())
}

/// [`evaluate_many`] on the wire-major lane layout (plans without a π
/// cache; `jobs` not empty, lengths checked).
fn evaluate_lanes(
    layout: &Layout,
    jobs: &[(&GarbledCircuit, &[Block])],
    keep: Keep,
) -> Vec<EvalOutput> {
    let lanes = jobs.len().next_multiple_of(2);
    let n = layout.num_slots * lanes;
    LANES.with_borrow_mut(|buf| {
        // Up to 3 blocks more, so that the vector can start on a 64-byte
        // line: the two-lane kernel moves a slot of both copies as one
        // 32-byte unit, which would otherwise straddle lines.
        if buf.len() < n + 3 {
            buf.resize(n + 3, Block::ZERO);
        }
        let at = buf.as_ptr().align_offset(64).min(3);
        let w = Wiped(&mut buf[at..at + n]);
        walk_lanes(layout, jobs, keep, lanes, w.0)
    })
}

thread_local! {
    /// The lane label vector of [`evaluate_lanes`], kept per thread and
    /// all zero between calls. Why: a bucket's vector is slots × lanes
    /// blocks (hundreds of KiB for AES at 6 copies); allocating, zeroing
    /// and wiping a fresh one per call cost three passes over it (and,
    /// above the allocator's mmap threshold, page faults), where the kept
    /// one costs the wipe alone, which also leaves it ready for the next
    /// call.
    static LANES: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Zeroes the borrowed lane vector when the evaluation ends, on return
/// or on a panic: the labels do not outlive the call, and the next call
/// starts from zeros (the plan's padding slots must read zero).
struct Wiped<'a>(&'a mut [Block]);

impl Drop for Wiped<'_> {
    fn drop(&mut self) {
        // Not a dead store: the thread keeps the buffer for the next call.
        self.0.fill(Block::ZERO);
    }
}

/// The walk of [`evaluate_lanes`] on `w` (`num_slots · lanes` zero blocks).
fn walk_lanes(
    layout: &Layout,
    jobs: &[(&GarbledCircuit, &[Block])],
    keep: Keep,
    lanes: usize,
    w: &mut [Block],
) -> Vec<EvalOutput> {
    let prog = &layout.prog;
    let slots = layout.num_slots;
    for (c, (_, labels)) in jobs.iter().enumerate() {
        for (s, &l) in labels.iter().enumerate() {
            w[s * lanes + c] = l;
        }
    }
    // The padding lane (odd counts) reruns copy 0's tables and tweaks.
    let lane_job = |c: usize| jobs[if c < jobs.len() { c } else { 0 }].0;
    let offsets: Vec<u64> = (0..lanes).map(|c| lane_job(c).tweak_offset).collect();
    let mut tables: Vec<&[Block]> = Vec::with_capacity(lanes);
    // A step's stages in one kernel call (its ANDs' tables in one slice
    // per lane).
    for step in &layout.steps {
        let t = TABLE_BLOCKS * step.ands.0 as usize..TABLE_BLOCKS * step.ands.1 as usize;
        tables.clear();
        tables.extend((0..lanes).map(|c| &lane_job(c).tables[t.clone()]));
        let stages = step.stages.0 as usize..step.stages.1 as usize;
        prog.eval_stages_lanes(w, lanes, stages, &tables, &offsets);
    }
    // Each copy's outputs straight from its lane (every slot is copied
    // out only if all wires were asked for).
    (0..jobs.len())
        .map(|c| {
            let output_labels = layout
                .output_slots
                .iter()
                .map(|&o| w[o as usize * lanes + c])
                .collect();
            let wire_labels = (keep == Keep::AllWires).then(|| {
                let one: Labels = Zeroizing::new((0..slots).map(|s| w[s * lanes + c]).collect());
                walk::all_wires(layout, &one, keep, Block::ZERO)
            });
            EvalOutput {
                output_labels,
                wire_labels: wire_labels.flatten(),
            }
        })
        .collect()
}

/// The hash buffers of one batch (all copies' gates of a stage), reused
/// across stages and wiped on drop (they hold π of labels, which reveal
/// the labels).
#[derive(Default)]
struct Scratch {
    /// Gathered inputs `[A, B]` per gate, kept for the colour bits.
    held: Zeroizing<Vec<Block>>,
    /// First pass `π(A), π(B)`.
    u: Zeroizing<Vec<Block>>,
    /// Second pass `π(π(A) ⊕ t), π(π(B) ⊕ t ⊕ 1)`.
    v: Zeroizing<Vec<Block>>,
    /// Blocks of each buffer the current batch uses.
    n: usize,
}

impl Scratch {
    /// Makes room for `n` blocks per buffer; the first `n` are then
    /// overwritten by the caller (no zeroing per stage).
    fn reset(&mut self, n: usize) {
        for b in [&mut self.held, &mut self.u, &mut self.v] {
            if b.len() < n {
                b.resize(n, Block::ZERO);
            }
        }
        self.n = n;
    }

    /// AND gates `ands` of every copy (inputs gathered with their folds).
    fn ands(
        &mut self,
        prog: &SlotProgram,
        ws: &mut [Labels],
        tables: &[&[Block]],
        offsets: &[u64],
        ands: Range<usize>,
    ) {
        let gates = &prog.ands()[ands.clone()];
        let folds = prog.folds(ands.clone());
        let n = gates.len();
        self.reset(2 * n * ws.len());
        for (c, w) in ws.iter().enumerate() {
            let held = &mut self.held[2 * n * c..2 * n * (c + 1)];
            for (i, g) in gates.iter().enumerate() {
                let (mut a, mut b) = (w[g.a as usize], w[g.b as usize]);
                if let Some(f) = folds.get(i) {
                    a ^= w[f[0] as usize / 16];
                    b ^= w[f[1] as usize / 16];
                }
                held[2 * i] = a;
                held[2 * i + 1] = b;
            }
        }
        let m = self.n;
        self.u[..m].copy_from_slice(&self.held[..m]);
        let pi = fixed_key();
        pi.encrypt_blocks(&mut self.u[..m]);
        for (c, &off) in offsets.iter().enumerate() {
            let at = 2 * n * c;
            for i in 0..n {
                let t = and_tweak(off, (ands.start + i) as u64);
                self.v[at + 2 * i] = self.u[at + 2 * i] ^ t;
                self.v[at + 2 * i + 1] = self.u[at + 2 * i + 1] ^ t ^ Block(1);
            }
        }
        pi.encrypt_blocks(&mut self.v[..m]);
        self.finish(gates, ws, tables, ands.start);
    }

    /// AND gates `ands` of every copy reading their inner π from the π
    /// vectors (π-cached steps).
    fn ands_cached(
        &mut self,
        prog: &SlotProgram,
        ws: &mut [Labels],
        ps: &[Labels],
        tables: &[&[Block]],
        offsets: &[u64],
        ands: Range<usize>,
    ) {
        let gates = &prog.ands()[ands.clone()];
        let pis = &prog.and_pis()[ands.clone()];
        let n = gates.len();
        self.reset(2 * n * ws.len());
        for (c, (w, p)) in ws.iter().zip(ps).enumerate() {
            let at = 2 * n * c;
            for (i, (g, &[pa, pb])) in gates.iter().zip(pis).enumerate() {
                let t = and_tweak(offsets[c], (ands.start + i) as u64);
                self.held[at + 2 * i] = w[g.a as usize];
                self.held[at + 2 * i + 1] = w[g.b as usize];
                self.u[at + 2 * i] = p[pa as usize];
                self.u[at + 2 * i + 1] = p[pb as usize];
                self.v[at + 2 * i] = p[pa as usize] ^ t;
                self.v[at + 2 * i + 1] = p[pb as usize] ^ t ^ Block(1);
            }
        }
        fixed_key().encrypt_blocks(&mut self.v[..self.n]);
        self.finish(gates, ws, tables, ands.start);
    }

    /// `w[out] = H(A) ⊕ s_a·T_G ⊕ H(B) ⊕ s_b·(T_E ⊕ A)` for every gate of
    /// every copy, outputs written after all inputs were read.
    fn finish(&self, gates: &[AndSlots], ws: &mut [Labels], tables: &[&[Block]], first: usize) {
        let n = gates.len();
        for (c, w) in ws.iter_mut().enumerate() {
            let at = 2 * n * c;
            let ts = &tables[c][TABLE_BLOCKS * first..TABLE_BLOCKS * (first + n)];
            for (i, g) in gates.iter().enumerate() {
                let (a, b) = (self.held[at + 2 * i], self.held[at + 2 * i + 1]);
                let (tg, te) = (ts[2 * i], ts[2 * i + 1]);
                let wg = self.u[at + 2 * i] ^ self.v[at + 2 * i] ^ tg.and_bit(a.lsb());
                let we =
                    self.u[at + 2 * i + 1] ^ self.v[at + 2 * i + 1] ^ (te ^ a).and_bit(b.lsb());
                w[g.out as usize] = wg ^ we;
            }
        }
    }

    /// π jobs `range` of every copy: `p[s] = π(w[l])`.
    fn pis(&mut self, prog: &SlotProgram, ws: &[Labels], ps: &mut [Labels], range: Range<usize>) {
        let jobs = &prog.pi_jobs()[range];
        let n = jobs.len();
        if n == 0 {
            return;
        }
        self.reset(n * ws.len());
        for (c, w) in ws.iter().enumerate() {
            for (i, &[l, _]) in jobs.iter().enumerate() {
                self.u[n * c + i] = w[l as usize];
            }
        }
        fixed_key().encrypt_blocks(&mut self.u[..self.n]);
        for (c, p) in ps.iter_mut().enumerate() {
            for (i, &[_, s]) in jobs.iter().enumerate() {
                p[s as usize] = self.u[n * c + i];
            }
        }
    }
}
