//! The compiled form of a circuit that garbling and evaluation walk.
//!
//! A circuit is compiled once and garbled many times, so everything that does
//! not depend on labels is decided here: the AND-depth layering (whose AND
//! numbering fixes the hash tweaks), flat arrays of wire indices instead of
//! `Gate` enums, and how each layer's ANDs are cut into hash batches.
//!
//! Wires are mapped to *slots* of the label vector. Two layouts are
//! compiled: the *compact* one reuses a slot as soon as its wire is dead
//! (register allocation by liveness, most recently freed first), so the
//! working set of AES-128 or SHA-256 stays in L1/L2 and wiping the labels
//! afterwards is cheap; the *dense* one gives every wire its own slot, for
//! callers that want every wire's label back ([`crate::Keep::AllWires`]).
//! Slots `0..inputs` are the input wires, in input order.
//!
//! INV costs nothing: `¬a` shares `a`'s slot with the *polarity* bit
//! flipped. This is the INV convention of `docs/protocols/garbling.md` (the
//! garbler's 0-label of `¬a` is `A₀ ⊕ Δ`, the evaluator's label is `a`'s):
//! the evaluator's slot is the same either way, and the garbler's slot holds
//! `0-label ⊕ polarity·Δ`, which XOR preserves (polarities add) and which
//! the AND kernel and the output code undo. The compact layout also drops
//! XOR gates whose result nothing reads, fuses XOR chains into 3-input
//! gates, and in narrow layer pieces folds an XOR `x ⊕ y` read only by ANDs
//! into their input gathers (`SlotProgram::with_folds`). What is left is a
//! [`SlotProgram`]: XORs and ANDs over validated slot indices, run by the
//! kernels in `brickyard_core::aes::halfgates`.
//!
//! **Stages.** Each layer piece's ANDs are cut into groups of [`GROUP`];
//! every XOR runs as late as possible, in the stage of the first group
//! that needs it. Both sides run a piece stage by stage, and the kernels
//! run the XORs feeding group g+1 between the AES rounds of group g
//! (`SlotProgram::garble_stages`). Slots are freed so that this is valid,
//! and so is "all the piece's XORs, then all its ANDs" (see `layout`) in
//! π-cached layouts. Without the π cache a piece may end in an AND-less
//! stage of the next piece's XORs (see `hoist`), run during its last
//! group; those may read the piece's earlier groups' outputs, so such a
//! piece runs stage by stage only.

use brickyard_circuit::{Circuit, Gate, WireId};
use brickyard_core::aes::halfgates::{AndSlots, SlotProgram, SlotXors};
use brickyard_core::{Error, Result};

/// Largest number of AND gates hashed in one batch. A batch's scratch is
/// two buffers of 4 blocks per AND for the garbler (2 × 16 KiB here) and
/// its tables 8 KiB: AES still sees 1 024-block runs, the batch stays in L1,
/// and streaming memory is bounded whatever the layer width.
pub const MAX_BATCH: usize = 256;

/// Stand-in for the constant wire among original wire ids.
const CONST_WIRE: WireId = u32::MAX;

/// AND gates per stage (see `SlotProgram::with_stages`): one garbler
/// iteration of the VAES kernel (two ZMM registers of four gates).
pub const GROUP: usize = 8;

/// One piece of an AND layer (at most MAX_BATCH independent ANDs), with the
/// linear gates of the layer if it is the first piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    /// Range into the linear-gate array.
    lin: (u32, u32),
    /// Range into the AND array (also the global AND indices).
    ands: (u32, u32),
}

/// What the walk hands to the kernels at once: whole stages of the slot
/// program with at most MAX_BATCH ANDs in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// Range of stages of the slot program.
    pub stages: (u32, u32),
    /// Range of AND gates of those stages (also the global AND indices).
    pub ands: (u32, u32),
    /// Range of π jobs to run before the ANDs (compiled layouts only).
    pub pis: (u32, u32),
    /// Whether the batch reads its inner π values from the π cache.
    pub cached: bool,
}

/// The gates compiled over the slots of one label-vector layout.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    pub num_slots: usize,
    /// XOR gates (INV compiled away) and AND gates over slots.
    pub prog: SlotProgram,
    /// Per step: range of `prog.xors()`, range of `prog.ands()` (= global
    /// AND indices).
    pub steps: Vec<Step>,
    pub output_slots: Vec<u32>,
    /// Whether the garbler's slot of each output wire holds its 1-label.
    pub output_flips: Vec<bool>,
    /// Slot of each original wire (dense layout only; `u32::MAX` if unwritten).
    pub wire_slots: Vec<u32>,
    /// Polarity of each original wire's slot (dense layout only).
    pub wire_flips: Vec<bool>,
}

/// A circuit compiled for garbling and evaluation; reuse it across executions.
#[derive(Clone, Debug)]
pub struct GarblePlan {
    pub(crate) num_wires: usize,
    pub(crate) input_wires: Vec<WireId>,
    pub(crate) output_wires: Vec<WireId>,
    pub(crate) compact: Layout,
    pub(crate) dense: Layout,
    max_batch: usize,
}

/// The gates in plan order over original wire ids, before slot assignment.
struct Order {
    linear: Vec<[WireId; 3]>,
    ands: Vec<[WireId; 3]>,
    steps: Vec<Piece>,
}

/// Checks the IR's invariants in plan order so the hot loops can trust every
/// index: wires in range, written once, read only after written.
struct Written(Vec<bool>);

impl Written {
    fn read(&self, w: WireId) -> Result<WireId> {
        match self.0.get(w as usize) {
            Some(true) => Ok(w),
            Some(false) => Err(Error::config(format!(
                "wire {w} is read before it is written"
            ))),
            None => Err(Error::config(format!(
                "wire {w} out of range (circuit has {} wires)",
                self.0.len()
            ))),
        }
    }

    fn write(&mut self, w: WireId) -> Result<WireId> {
        match self.0.get_mut(w as usize) {
            Some(f) if !*f => {
                *f = true;
                Ok(w)
            }
            Some(_) => Err(Error::config(format!("wire {w} is written twice"))),
            None => Err(Error::config(format!("wire {w} out of range"))),
        }
    }
}

fn order(circuit: &Circuit, inputs: &[WireId]) -> Result<Order> {
    let mut written = Written(vec![false; circuit.num_wires as usize]);
    for &w in inputs {
        written.write(w)?;
    }
    let mut o = Order {
        linear: Vec::new(),
        ands: Vec::new(),
        steps: Vec::new(),
    };
    for layer in circuit.layering().layers {
        debug_assert_eq!(layer.first_and, o.ands.len() as u64);
        let lin_start = o.linear.len() as u32;
        for g in &layer.linear {
            let [a, b] = match *g {
                Gate::Xor { a, b, .. } => [written.read(a)?, written.read(b)?],
                Gate::Inv { a, .. } => [written.read(a)?, CONST_WIRE],
                Gate::And { .. } => return Err(Error::config("AND gate among linear gates")),
            };
            o.linear.push([a, b, written.write(g.output())?]);
        }
        let lin = (lin_start, o.linear.len() as u32);
        let first = o.ands.len() as u32;
        // Read all inputs before writing any output: the ANDs of a layer are
        // independent, and this is where a violation would show.
        for &(a, b, out) in &layer.ands {
            o.ands.push([written.read(a)?, written.read(b)?, out]);
        }
        for &(_, _, out) in &layer.ands {
            written.write(out)?;
        }
        let end = o.ands.len() as u32;
        // Only the first batch of a layer carries its linear gates; a wide
        // layer is cut into MAX_BATCH pieces of independent ANDs.
        let mut step = Piece {
            lin,
            ands: (first, first),
        };
        loop {
            let stop = end.min(step.ands.0 + MAX_BATCH as u32);
            step.ands.1 = stop;
            o.steps.push(step);
            step = Piece {
                lin: (lin.1, lin.1),
                ands: (stop, stop),
            };
            if stop >= end {
                break;
            }
        }
    }
    Ok(o)
}

/// Whether the compact layout folds XOR values read only by ANDs into the
/// AND gathers (see `layout`); `BRICKYARD_FOLD=0` switches it off for A/B
/// runs. Tables and labels are the same either way.
fn fold_enabled() -> bool {
    std::env::var_os("BRICKYARD_FOLD").is_none_or(|v| v != "0")
}

/// Widest layer piece (ANDs) whose AND inputs are folded. A piece with
/// folds gathers a second label per AND input (the zero slot where none
/// folds); in SHA-256's narrow pieces (≤ 32 ANDs) that is cheaper than the
/// XOR gates it replaces (evaluator −0.6 ns/AND), in AES-128's wide ones
/// (160–256) it was slower (+0.2 garble, +0.4 eval: their XORs run under
/// the AES), see `docs/protocols/garbling.md`.
const FOLD_PIECE: u32 = 32;

/// Liveness sentinels for slot assignment.
const NEVER_READ: u32 = u32::MAX - 1;
const OUTPUT: u32 = u32::MAX;

/// Assigns slots to the wires of `o` and compiles the gates over them.
///
/// Wires are first mapped to *values*: an INV output is its input's value
/// with the polarity bit flipped (no gate at all), every XOR and AND output
/// is a new value. With `reuse` (the compact layout), XORs whose value is
/// never needed are dropped, XORs read once by another XOR are fused into
/// it, 2-input XORs read only by the ANDs of narrow pieces are folded into
/// those ANDs' gathers (the AND reads both leaves), and a slot returns to
/// the free list after the last event (XOR gate or AND group) reading its
/// value, except that values an AND of the current layer piece reads
/// (a folded input's leaves included), and AND outputs nothing reads, wait
/// for the end of the piece: then the piece may run stage by stage or all
/// XORs first, and no output of a piece lands on an input of the same
/// piece.
fn layout(
    o: &Order,
    num_wires: usize,
    inputs: &[WireId],
    outputs: &[WireId],
    reuse: bool,
    pi_cache: bool,
) -> Result<Layout> {
    // Values and polarities of every wire, in plan order.
    let mut value = vec![u32::MAX; num_wires];
    let mut flip = vec![false; num_wires];
    let mut nvalues = 0u32;
    let mut fresh = || {
        nvalues += 1;
        nvalues - 1
    };
    for &w in inputs {
        value[w as usize] = fresh();
    }
    for st in &o.steps {
        for &[a, b, out] in &o.linear[st.lin.0 as usize..st.lin.1 as usize] {
            if b == CONST_WIRE {
                value[out as usize] = value[a as usize];
                flip[out as usize] = !flip[a as usize];
            } else {
                value[out as usize] = fresh();
                flip[out as usize] = flip[a as usize] ^ flip[b as usize];
            }
        }
        for &[_, _, out] in &o.ands[st.ands.0 as usize..st.ands.1 as usize] {
            value[out as usize] = fresh();
        }
    }
    let nv = nvalues as usize;
    let val = |w: WireId| value[w as usize] as usize;
    let is_xor = |g: &[WireId; 3]| g[1] != CONST_WIRE;
    // Which values are needed (compact only): outputs, AND inputs, and the
    // inputs of needed XORs, found walking backwards.
    let mut needed = vec![!reuse; nv];
    let mut is_output = vec![false; nv];
    for &w in outputs {
        needed[val(w)] = true;
        is_output[val(w)] = true;
    }
    for g in &o.ands {
        needed[val(g[0])] = true;
        needed[val(g[1])] = true;
    }
    for g in o.linear.iter().rev() {
        if is_xor(g) && needed[val(g[2])] {
            needed[val(g[0])] = true;
            needed[val(g[1])] = true;
        }
    }
    // Fusion (compact only): a needed XOR value read exactly once, by
    // another XOR, and not an output is *inlined* into its reader, which
    // becomes an n-ary XOR over the leaves; it never gets a slot.
    let mut xor_in = vec![[u32::MAX; 2]; nv];
    let mut reads = vec![0u32; nv];
    let mut xor_reads = vec![0u32; nv];
    for g in o.linear.iter().filter(|g| is_xor(g)) {
        let v = val(g[2]);
        xor_in[v] = [val(g[0]) as u32, val(g[1]) as u32];
        if needed[v] {
            for &i in &g[..2] {
                reads[val(i)] += 1;
                xor_reads[val(i)] += 1;
            }
        }
    }
    for g in &o.ands {
        reads[val(g[0])] += 1;
        reads[val(g[1])] += 1;
    }
    let inlined = |v: usize| {
        reuse && xor_in[v][0] != u32::MAX && reads[v] == 1 && xor_reads[v] == 1 && !is_output[v]
    };
    // The root XORs (`[leaf values…]`, out value) in plan order.
    let mut roots: Vec<(Vec<u32>, u32)> = Vec::new();
    for g in &o.linear {
        let v = val(g[2]);
        if !is_xor(g) || !needed[v] || inlined(v) {
            continue;
        }
        let mut leaves = Vec::new();
        let mut stack = vec![xor_in[v][1], xor_in[v][0]];
        while let Some(x) = stack.pop() {
            if inlined(x as usize) {
                stack.extend([xor_in[x as usize][1], xor_in[x as usize][0]]);
            } else {
                leaves.push(x);
            }
        }
        roots.push((leaves, v as u32));
    }
    // Folding (compact, without the π cache): a 2-leaf root `x ⊕ y` read
    // only by AND gates of narrow layer pieces (at most FOLD_PIECE ANDs),
    // and not an output, runs no XOR gate; the ANDs that read it gather
    // `x` and `y` and XOR them in registers (`SlotProgram::with_folds`).
    // From here on an AND reading it reads its leaves (`and_ins`) for
    // deadlines and slot liveness.
    let mut fold = vec![[u32::MAX; 2]; nv];
    let mut widest = vec![0u32; nv];
    for st in &o.steps {
        for g in &o.ands[st.ands.0 as usize..st.ands.1 as usize] {
            for &i in &g[..2] {
                widest[val(i)] = widest[val(i)].max(st.ands.1 - st.ands.0);
            }
        }
    }
    if reuse && !pi_cache && fold_enabled() {
        roots.retain(|(leaves, v)| {
            let v = *v as usize;
            let foldable =
                leaves.len() == 2 && xor_reads[v] == 0 && !is_output[v] && widest[v] <= FOLD_PIECE;
            if foldable {
                fold[v] = [leaves[0], leaves[1]];
            }
            !foldable
        });
    }
    // The values an AND input `v` reads: its leaves if folded, else itself.
    let and_ins = |v: usize| -> [usize; 2] {
        match fold[v] {
            [u32::MAX, _] => [v, v],
            [x, y] => [x as usize, y as usize],
        }
    };
    // AND groups: each layer piece cut into groups of `group` gates.
    let group = if pi_cache { MAX_BATCH } else { GROUP };
    let mut groups: Vec<(u32, u32)> = Vec::new();
    // The layer piece of each group (the final, AND-less stage: its own).
    let mut piece_of: Vec<usize> = Vec::new();
    for (pi, st) in o.steps.iter().enumerate() {
        let mut a = st.ands.0;
        while a < st.ands.1 {
            let e = st.ands.1.min(a + group as u32);
            groups.push((a, e));
            piece_of.push(pi);
            a = e;
        }
    }
    piece_of.push(o.steps.len());
    let ng = groups.len() as u32;
    // Deadline of each root: the first group that reads it, directly or
    // through later roots (`ng`: only outputs read it). Roots run just
    // before their deadline group, as late as possible, so the XORs that
    // feed group g+1 sit right after group g's AES work in the instruction
    // stream and execute under it, instead of in a phase of their own.
    let mut first_group = vec![ng; nv];
    for (gi, &(a, e)) in groups.iter().enumerate().rev() {
        for g in &o.ands[a as usize..e as usize] {
            for x in and_ins(val(g[0])).into_iter().chain(and_ins(val(g[1]))) {
                first_group[x] = gi as u32;
            }
        }
    }
    let mut root_of = vec![u32::MAX; nv];
    for (r, (_, out)) in roots.iter().enumerate() {
        root_of[*out as usize] = r as u32;
    }
    let mut deadline = vec![ng; roots.len()];
    for r in (0..roots.len()).rev() {
        let d = deadline[r].min(first_group[roots[r].1 as usize]);
        deadline[r] = d;
        for &x in &roots[r].0 {
            if let Some(dl) = deadline.get_mut(root_of[x as usize] as usize) {
                *dl = (*dl).min(d);
            }
        }
    }
    // Stages: the roots due before group g, then group g; a last stage of
    // roots only outputs read. Within a stage, roots go by level (gates of
    // one level are independent), so a gate rarely reads the label the gate
    // just before it stored; stable sorts keep every root after the roots
    // it reads (their deadline is no later and they come first in plan order).
    let mut order: Vec<u32> = (0..roots.len() as u32).collect();
    order.sort_by_key(|&r| deadline[r as usize]);
    if !pi_cache {
        let mut and_group = vec![u32::MAX; nv];
        for (gi, &(a, e)) in groups.iter().enumerate() {
            for g in &o.ands[a as usize..e as usize] {
                and_group[val(g[2])] = gi as u32;
            }
        }
        let h = hoist(
            &groups, &piece_of, &deadline, &roots, &order, &and_group, &root_of,
        );
        (groups, piece_of, deadline) = h;
    }
    let ng = groups.len() as u32;
    let mut level = vec![u32::MAX; nv];
    let mut stage_roots: Vec<Vec<u32>> = vec![Vec::new(); ng as usize + 1];
    for &r in &order {
        stage_roots[deadline[r as usize] as usize].push(r);
    }
    for bucket in &mut stage_roots {
        for &r in bucket.iter() {
            let (leaves, out) = &roots[r as usize];
            level[*out as usize] = leaves
                .iter()
                .map(|&x| level[x as usize].wrapping_add(1))
                .filter(|&l| l != 0)
                .max()
                .unwrap_or(0);
        }
        bucket.sort_by_key(|&r| level[roots[r as usize].1 as usize]);
        for &r in bucket.iter() {
            level[roots[r as usize].1 as usize] = u32::MAX;
        }
    }
    let group_of = |g: usize| {
        groups
            .get(g)
            .copied()
            .unwrap_or((o.ands.len() as u32, o.ands.len() as u32))
    };
    // last[v]: index of the last event (XOR gate or AND group) reading v.
    let mut last = vec![NEVER_READ; nv];
    let mut ev = 0u32;
    for (g, bucket) in stage_roots.iter().enumerate() {
        for &r in bucket {
            for &x in &roots[r as usize].0 {
                last[x as usize] = ev;
            }
            ev += 1;
        }
        let (a, e) = group_of(g);
        for gate in &o.ands[a as usize..e as usize] {
            for x in and_ins(val(gate[0]))
                .into_iter()
                .chain(and_ins(val(gate[1])))
            {
                last[x] = ev;
            }
        }
        ev += 1;
    }
    for &w in outputs {
        last[val(w)] = OUTPUT;
    }
    let mut slot = vec![u32::MAX; nv];
    let mut next = 0u32;
    for &w in inputs {
        slot[val(w)] = next;
        next += 1;
    }
    // A slot nothing writes, so it stays zero: the third input of 2-input
    // XORs (the kernel runs 3-input gates only).
    let zero = next;
    next += 1;
    let mut free: Vec<u32> = Vec::new();
    let mut alloc = |free: &mut Vec<u32>| {
        free.pop().unwrap_or_else(|| {
            next += 1;
            next - 1
        })
    };
    // Frees v's slot if `ev` is its last reader (once, even if read twice).
    let release = |v: usize, ev: u32, last: &mut [u32], slot: &[u32], free: &mut Vec<u32>| {
        if reuse && last[v] == ev {
            last[v] = NEVER_READ - 1;
            free.push(slot[v]);
        }
    };
    let mut xors: Vec<[u32; 4]> = Vec::new();
    let mut ands = Vec::new();
    // Per AND gate, the second leaf of each folded input (the zero slot
    // for an input that folds nothing).
    let mut folds: Vec<[u32; 2]> = Vec::new();
    let mut stages: Vec<[u32; 2]> = Vec::with_capacity(stage_roots.len());
    let mut ev = 0u32;
    // Values read by an AND of the current piece (`and_piece`) are
    // released when the piece ends, whichever event reads them last.
    let mut pending: Vec<(usize, u32)> = Vec::new();
    let mut and_piece = vec![usize::MAX; nv];
    for (g, bucket) in stage_roots.iter().enumerate() {
        let piece = piece_of[g];
        for &r in bucket {
            let (leaves, out) = &roots[r as usize];
            let s = |x: u32| slot[x as usize];
            let so = if let [a, b, ref c @ ..] = leaves[..] {
                if c.len() <= 1 {
                    // Inputs are read before the store, so the output may
                    // take a slot freed by this very gate.
                    for &x in leaves {
                        if and_piece[x as usize] == piece {
                            pending.push((x as usize, ev));
                        } else {
                            release(x as usize, ev, &mut last, &slot, &mut free);
                        }
                    }
                    let so = alloc(&mut free);
                    xors.push([s(a), s(b), c.first().map_or(zero, |&c| s(c)), so]);
                    so
                } else {
                    // Wider: 3-input pieces accumulating in the output
                    // slot, taken while every leaf still holds its slot.
                    let so = alloc(&mut free);
                    xors.push([s(a), s(b), s(c[0]), so]);
                    for pair in c[1..].chunks(2) {
                        let second = pair.get(1).map_or(zero, |&x| s(x));
                        xors.push([so, s(pair[0]), second, so]);
                    }
                    for &x in leaves {
                        if and_piece[x as usize] == piece {
                            pending.push((x as usize, ev));
                        } else {
                            release(x as usize, ev, &mut last, &slot, &mut free);
                        }
                    }
                    so
                }
            } else {
                unreachable!("an XOR has two inputs");
            };
            slot[*out as usize] = so;
            release(*out as usize, NEVER_READ, &mut last, &slot, &mut free);
            ev += 1;
        }
        let (a, e) = group_of(g);
        let batch = &o.ands[a as usize..e as usize];
        let first = ands.len();
        for &[a, b, _] in batch {
            let (ia, ib) = (and_ins(val(a)), and_ins(val(b)));
            let second = |w: WireId| match fold[val(w)] {
                [u32::MAX, _] => zero,
                [_, y] => slot[y as usize],
            };
            ands.push(AndSlots {
                a: slot[ia[0]],
                b: slot[ib[0]],
                out: 0,
                // A folded input's polarity is its wire's, as for a slot:
                // the leaves' slots XOR to the value the root's slot held.
                flip: flip[a as usize] as u32 | (flip[b as usize] as u32) << 1,
            });
            folds.push([second(a), second(b)]);
        }
        // A group takes its output slots before releasing its inputs, so no
        // output lands on an input of the same group.
        for (gate, &[_, _, out]) in ands[first..].iter_mut().zip(batch) {
            let so = alloc(&mut free);
            slot[val(out)] = so;
            gate.out = so;
        }
        for &[a, b, out] in batch {
            for x in and_ins(val(a)).into_iter().chain(and_ins(val(b))) {
                pending.push((x, ev));
                and_piece[x] = piece;
            }
            pending.push((val(out), NEVER_READ));
        }
        ev += 1;
        stages.push([xors.len() as u32, ands.len() as u32]);
        // AND inputs (and outputs nothing reads) are freed only at the end
        // of the layer piece, so no XOR of the piece takes the slot of an
        // input or a dead output of one of its groups, and no group output
        // lands on an input of the piece: the kernels may run a stage's
        // XORs during the previous group's AES (`garble_stages`), or a
        // π-cached piece as "all its XORs, then all its ANDs".
        if piece_of.get(g + 1) != Some(&piece) {
            for (v, e) in pending.drain(..) {
                release(v, e, &mut last, &slot, &mut free);
            }
        }
    }
    // Walk steps: the stages of one layer piece (one stage with the π
    // cache, whose jobs are per batch), and the final stage.
    let mut steps: Vec<Step> = Vec::new();
    let mut prev = [0u32; 2];
    for (si, st) in stages.iter().enumerate() {
        match steps.last_mut() {
            Some(last) if piece_of[si] == piece_of[si - 1] => {
                last.stages.1 = si as u32 + 1;
                last.ands.1 = st[1];
            }
            _ => steps.push(Step {
                stages: (si as u32, si as u32 + 1),
                ands: (prev[1], st[1]),
                pis: (0, 0),
                cached: false,
            }),
        }
        prev = *st;
    }
    let num_slots = next as usize;
    let (pi_bound, mut jobs, and_pis) = if pi_cache {
        pi_slots(o, &mut steps, &|w| val(w))
    } else {
        (0, Vec::new(), vec![[0, 0]; ands.len()])
    };
    // Plain batches name π slot 0, which must exist for the program to
    // validate (their kernels never read it).
    let pi_bound = pi_bound.max(1);
    for j in &mut jobs {
        j[0] = slot[j[0] as usize];
    }
    let wire_slot = |w: WireId| match value[w as usize] {
        u32::MAX => u32::MAX,
        v => slot[v as usize],
    };
    Ok(Layout {
        num_slots,
        prog: {
            let prog = SlotProgram::new(num_slots, SlotXors::new(xors), ands)?
                .with_stages(stages)?
                .with_pi_cache(pi_bound, jobs, and_pis)?;
            if folds.iter().any(|f| *f != [zero; 2]) {
                prog.with_folds(folds, zero)?
            } else {
                prog
            }
        },
        steps,
        output_slots: outputs.iter().map(|&w| wire_slot(w)).collect(),
        output_flips: outputs.iter().map(|&w| flip[w as usize]).collect(),
        wire_slots: if reuse {
            Vec::new()
        } else {
            (0..num_wires as u32).map(wire_slot).collect()
        },
        wire_flips: if reuse { Vec::new() } else { flip },
    })
}

/// Roots a stage may hold, counting those moved into it by [`hoist`]: the
/// garbler's densest feed runs 20 gates under one group (the evaluator's
/// 10). A/B with 0, 10 and 20 under load ~2: 20 best on both circuits.
const HOIST_ROOM: usize = 20;

/// Moves the roots due before the first group of a layer piece that do
/// not read the previous group's outputs into the previous piece, so that
/// they run under its AES (`garble_stages` feeds a stage's XORs to the
/// previous group) instead of unfed at the start of their own piece, where
/// nothing hides them (all of SHA-256's 1–2-stage pieces): into the stage
/// of the previous piece's last group (fed under the group before it) if
/// they read neither of those two groups' outputs and the stage has room
/// ([`HOIST_ROOM`]), else into a new AND-less stage after the last group.
/// The moved roots belong to the earlier piece for slot release, which
/// keeps `layout`'s guarantees: they take their output slots after the
/// group they run under took its own, and the piece's AND inputs are not
/// freed before it ends. Returns the new groups, pieces of groups (with the
/// final sentinel) and root deadlines.
#[allow(clippy::type_complexity)]
fn hoist(
    groups: &[(u32, u32)],
    piece_of: &[usize],
    deadline: &[u32],
    roots: &[(Vec<u32>, u32)],
    order: &[u32],
    and_group: &[u32],
    root_of: &[u32],
) -> (Vec<(u32, u32)>, Vec<usize>, Vec<u32>) {
    let ng = groups.len();
    let starts = |d: usize| d > 0 && d < ng && piece_of[d] != piece_of[d - 1];
    // 0: not moved; 1: into the new stage after the last group; 2: into
    // the last group's own stage (fed under the group before it).
    let mut hoisted = vec![0u8; roots.len()];
    let mut any = vec![false; ng];
    let mut room = vec![0usize; ng];
    for &d in deadline {
        if let Some(n) = room.get_mut(d as usize) {
            *n += 1;
        }
    }
    for n in &mut room {
        *n = HOIST_ROOM.saturating_sub(*n);
    }
    // In deadline order (stable, so plan order within a deadline): a root
    // is decided after every root it reads.
    for &r in order {
        let r = r as usize;
        let d = deadline[r] as usize;
        if !starts(d) {
            continue;
        }
        let l = d - 1;
        let ok = roots[r].0.iter().all(|&x| {
            let x = x as usize;
            and_group[x] != l as u32
                && match root_of[x] {
                    u32::MAX => true,
                    q => deadline[q as usize] < d as u32 || hoisted[q as usize] > 0,
                }
        });
        if !ok {
            continue;
        }
        let early = l > 0
            && piece_of[l - 1] == piece_of[l]
            && room[l] > 0
            && roots[r].0.iter().all(|&x| {
                let x = x as usize;
                and_group[x] != (l - 1) as u32
                    && match root_of[x] {
                        u32::MAX => true,
                        q => deadline[q as usize] <= l as u32 || hoisted[q as usize] == 2,
                    }
            });
        if early {
            hoisted[r] = 2;
            room[l] -= 1;
        } else {
            hoisted[r] = 1;
            any[d] = true;
        }
    }
    let mut new_groups = Vec::with_capacity(ng + any.iter().filter(|&&a| a).count());
    let mut new_piece = Vec::with_capacity(new_groups.capacity() + 1);
    let mut new_idx = vec![0u32; ng + 1];
    for gi in 0..ng {
        if any[gi] {
            let e = groups[gi - 1].1;
            new_groups.push((e, e));
            new_piece.push(piece_of[gi - 1]);
        }
        new_idx[gi] = new_groups.len() as u32;
        new_groups.push(groups[gi]);
        new_piece.push(piece_of[gi]);
    }
    new_idx[ng] = new_groups.len() as u32;
    new_piece.push(piece_of[ng]);
    let new_deadline = deadline
        .iter()
        .zip(&hoisted)
        .map(|(&d, &h)| match h {
            0 => new_idx[d as usize],
            1 => new_idx[d as usize] - 1,
            _ => new_idx[d as usize - 1],
        })
        .collect();
    (new_groups, new_piece, new_deadline)
}

/// Decides which batches read their inner π values from the π cache and
/// compiles the π jobs and π slots (see `SlotProgram::with_pi_cache`).
///
/// A value read by two or more AND gates is worth caching: its π (the
/// garbler's two) is computed once instead of once per reader. A batch
/// takes the cached path when at least half of its input reads are such
/// values; its other inputs then get a one-off π slot (a store and a load
/// instead of AES in registers, which is why batches of mostly single-use
/// inputs, e.g. all of SHA-256, keep the plain kernel). A π slot lives
/// from the job that fills it to the last cached batch that reads it, and
/// is then reused (most recently freed first). Returns the π slot count,
/// the jobs and each AND's `[π slot of a, π slot of b]` (0 in plain batches).
fn pi_slots(
    o: &Order,
    steps: &mut [Step],
    val: &dyn Fn(WireId) -> usize,
) -> (usize, Vec<[u32; 2]>, Vec<[u32; 2]>) {
    let mut fanout: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
    for g in &o.ands {
        *fanout.entry(val(g[0])).or_default() += 1;
        *fanout.entry(val(g[1])).or_default() += 1;
    }
    let multi = |v: usize| fanout.get(&v).is_some_and(|&n| n >= 2);
    // Decide, then find each value's last cached reader.
    let mut last: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for (i, st) in steps.iter_mut().enumerate() {
        let gates = &o.ands[st.ands.0 as usize..st.ands.1 as usize];
        let reads = 2 * gates.len();
        let hits = gates
            .iter()
            .map(|g| multi(val(g[0])) as usize + multi(val(g[1])) as usize)
            .sum::<usize>();
        st.cached = reads > 0 && 2 * hits >= reads;
        if st.cached {
            for g in gates {
                last.insert(val(g[0]), i);
                last.insert(val(g[1]), i);
            }
        }
    }
    let mut pslot: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
    let mut free: Vec<u32> = Vec::new();
    let mut next = 0u32;
    let mut jobs = Vec::new();
    let mut and_pis = vec![[0u32; 2]; o.ands.len()];
    for (i, st) in steps.iter_mut().enumerate() {
        let j0 = jobs.len() as u32;
        if st.cached {
            let (a0, a1) = (st.ands.0 as usize, st.ands.1 as usize);
            for (k, g) in o.ands[a0..a1].iter().enumerate() {
                for half in 0..2 {
                    let v = val(g[half]);
                    let s = *pslot.entry(v).or_insert_with(|| {
                        let s = free.pop().unwrap_or_else(|| {
                            next += 1;
                            next - 1
                        });
                        // The label slot is filled in by `layout`'s caller
                        // below (it knows the slots); record the value.
                        jobs.push([v as u32, s]);
                        s
                    });
                    and_pis[a0 + k][half] = s;
                }
            }
            for g in &o.ands[a0..a1] {
                for &wire in &g[..2] {
                    let v = val(wire);
                    if last.get(&v) == Some(&i) {
                        if let Some(s) = pslot.remove(&v) {
                            free.push(s);
                        }
                    }
                }
            }
        }
        st.pis = (j0, jobs.len() as u32);
    }
    (next as usize, jobs, and_pis)
}

impl GarblePlan {
    /// Compiles `circuit`. A circuit that breaks the IR's invariants (wire
    /// out of range, written twice, read before written) is
    /// [`Error::Config`].
    pub fn new(circuit: &Circuit) -> Result<Self> {
        Self::compile(circuit, false)
    }

    /// As [`GarblePlan::new`] with the π cache: batches whose inputs are
    /// mostly read by several ANDs take the inner `π(label)` of the hash
    /// from a per-value cache instead of recomputing it per reader. Same
    /// tables and labels, bit for bit (tested). Not the default because it
    /// measured slower on this machine (AES-128 garble 13.4 vs 10.7 ns/AND,
    /// `docs/protocols/garbling.md`): the 27 % of AES it saves costs more in
    /// per-lane loads and stores than VAES-512 spends on it.
    pub fn new_pi_cached(circuit: &Circuit) -> Result<Self> {
        Self::compile(circuit, true)
    }

    fn compile(circuit: &Circuit, pi_cache: bool) -> Result<Self> {
        let num_wires = circuit.num_wires as usize;
        if circuit.num_wires >= u32::MAX - 2 {
            return Err(Error::config("circuit has too many wires"));
        }
        let input_wires: Vec<WireId> = circuit
            .inputs
            .iter()
            .flat_map(|g| g.wires.iter().copied())
            .collect();
        let output_wires: Vec<WireId> = circuit
            .outputs
            .iter()
            .flat_map(|g| g.wires.iter().copied())
            .collect();
        let o = order(circuit, &input_wires)?;
        let written = {
            let mut v = vec![false; num_wires];
            for w in input_wires
                .iter()
                .chain(o.linear.iter().map(|g| &g[2]))
                .chain(o.ands.iter().map(|g| &g[2]))
            {
                v[*w as usize] = true;
            }
            Written(v)
        };
        for &w in &output_wires {
            written.read(w)?;
        }
        let compact = layout(&o, num_wires, &input_wires, &output_wires, true, pi_cache)?;
        let dense = layout(&o, num_wires, &input_wires, &output_wires, false, pi_cache)?;
        let max_batch = [&compact, &dense]
            .iter()
            .flat_map(|l| l.steps.iter().map(|s| (s.ands.1 - s.ands.0) as usize))
            .max()
            .unwrap_or(0);
        Ok(GarblePlan {
            num_wires,
            compact,
            dense,
            input_wires,
            output_wires,
            max_batch,
        })
    }

    /// The layout to walk: compact unless every wire's label is wanted.
    pub(crate) fn layout(&self, keep: crate::Keep) -> &Layout {
        match keep {
            crate::Keep::Outputs => &self.compact,
            crate::Keep::AllWires => &self.dense,
        }
    }

    /// The compact layout's slot program, for benchmarks that time its
    /// parts alone (`examples/garble_parts.rs`).
    #[doc(hidden)]
    pub fn compact_program(&self) -> &brickyard_core::aes::halfgates::SlotProgram {
        &self.compact.prog
    }

    /// Number of wires of the circuit.
    pub fn num_wires(&self) -> usize {
        self.num_wires
    }

    /// Number of AND gates, i.e. half the number of table blocks.
    pub fn and_count(&self) -> usize {
        self.compact.prog.ands().len()
    }

    /// Number of table blocks a garbling of this circuit produces.
    pub fn table_blocks(&self) -> usize {
        crate::gate::TABLE_BLOCKS * self.and_count()
    }

    /// Input wires of all input groups, concatenated in group order: the
    /// order in which input labels are passed.
    pub fn input_wires(&self) -> &[WireId] {
        &self.input_wires
    }

    /// Output wires of all output groups, concatenated in group order: the
    /// order of output labels and decoding bits.
    pub fn output_wires(&self) -> &[WireId] {
        &self.output_wires
    }

    /// Number of hash batches (AND layers, wide layers split).
    pub fn batch_count(&self) -> usize {
        self.compact
            .steps
            .iter()
            .filter(|s| s.ands.1 > s.ands.0)
            .count()
    }

    /// Number of hash batches that read their inner π from the π cache
    /// (see [`GarblePlan::new_pi_cached`]) and the number of π jobs they run.
    pub fn pi_cache_use(&self) -> (usize, usize) {
        let l = &self.compact;
        (
            l.steps.iter().filter(|s| s.cached).count(),
            l.prog.pi_jobs().len(),
        )
    }

    /// Labels held at once when only outputs are kept (the working set).
    pub fn live_slots(&self) -> usize {
        self.compact.num_slots
    }

    pub(crate) fn max_batch(&self) -> usize {
        self.max_batch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_circuit::Group;

    fn wide(n: u32) -> Circuit {
        // n independent ANDs of input pairs, then one INV of the last output.
        let gates = (0..n)
            .map(|i| Gate::And {
                a: 2 * i,
                b: 2 * i + 1,
                out: 2 * n + i,
            })
            .chain([Gate::Inv {
                a: 3 * n - 1,
                out: 3 * n,
            }])
            .collect();
        Circuit {
            num_wires: 3 * n + 1,
            inputs: vec![Group {
                name: "x".into(),
                wires: (0..2 * n).collect(),
            }],
            outputs: vec![Group {
                name: "y".into(),
                wires: vec![3 * n],
            }],
            gates,
        }
    }

    #[test]
    fn wide_layers_are_split_and_inv_is_a_polarity() {
        let n = MAX_BATCH as u32 * 2 + 5;
        let p = GarblePlan::new(&wide(n)).unwrap();
        assert_eq!(p.and_count(), n as usize);
        assert_eq!(p.batch_count(), 3);
        assert_eq!(p.max_batch(), MAX_BATCH);
        let m = MAX_BATCH as u32;
        for l in [&p.compact, &p.dense] {
            let ands: Vec<_> = l.steps.iter().map(|s| s.ands).collect();
            assert_eq!(ands, vec![(0, m), (m, 2 * m), (2 * m, n), (n, n)]);
            // The INV is no gate: its output shares the AND output's slot.
            assert!(l.prog.xors().is_empty());
            assert_eq!(l.output_slots, vec![l.prog.ands()[n as usize - 1].out]);
            assert_eq!(l.output_flips, vec![true]);
        }
        // Dense: 2n inputs, the zero slot, n AND outputs; the INV wire
        // aliases the last.
        assert_eq!(p.dense.num_slots, 3 * n as usize + 1);
        assert_eq!(p.dense.wire_slots[3 * n as usize], 3 * n);
        assert!(p.dense.wire_flips[3 * n as usize]);
        assert!(!p.dense.wire_flips[3 * n as usize - 1]);
        // Compact: a layer piece's outputs never take its own inputs' slots
        // or its other outputs' (those are freed when the piece ends), but
        // later pieces reuse them.
        assert_eq!(p.compact.num_slots, 2 * n as usize + 1 + MAX_BATCH);
        for st in &p.compact.steps {
            let g = &p.compact.prog.ands()[st.ands.0 as usize..st.ands.1 as usize];
            for x in g {
                assert!(g.iter().all(|y| y.a != x.out && y.b != x.out));
            }
        }
    }

    #[test]
    fn compact_slots_never_clobber_live_wires() {
        // x = a & b; y = a ^ b (a, b dead after); z = x & y; out = [z, x].
        let c = Circuit {
            num_wires: 5,
            inputs: vec![Group {
                name: "i".into(),
                wires: vec![0, 1],
            }],
            outputs: vec![Group {
                name: "o".into(),
                wires: vec![4, 2],
            }],
            gates: vec![
                Gate::And { a: 0, b: 1, out: 2 },
                Gate::Xor { a: 0, b: 1, out: 3 },
                Gate::And { a: 2, b: 3, out: 4 },
            ],
        };
        let p = GarblePlan::new(&c).unwrap();
        let l = &p.compact;
        // y = a ^ b is read only by an AND, so it is folded: no XOR gate,
        // the last AND gathers a and b for its second input. The first AND
        // takes a fresh slot (3; 2 is the zero slot after the inputs).
        let g = l.prog.ands();
        assert_eq!((g[0].a, g[0].b, g[0].out), (0, 1, 3));
        assert!(l.prog.xors().is_empty());
        assert_eq!(l.prog.stages(), &[[0, 1], [0, 2], [0, 2]]);
        assert_eq!(l.prog.folds(0..2), &[[32, 32], [32, 16]]);
        // a and b stay live until the last AND reads them, so its output
        // takes a fresh slot, neither theirs nor x's.
        assert_eq!((g[1].a, g[1].b, g[1].out), (3, 0, 4));
        assert_eq!(l.output_slots, vec![4, 3]);
        assert_eq!(l.num_slots, 5);
        // The dense layout keeps every wire, so it folds nothing.
        assert!(p.dense.prog.folds(0..2).is_empty());
        assert_eq!(p.dense.prog.xors().len(), 1);
    }

    /// Layers of ANDs over XORs of the previous layer's outputs, all read
    /// only by ANDs: roots read by both inputs of one AND, by several ANDs,
    /// through an INV, and by ANDs of the next layer. `width` > FOLD_PIECE
    /// gives wide pieces, which fold nothing.
    fn folding_circuit(seed: u128, width: u32, rounds: u32) -> Circuit {
        use brickyard_core::{prg::Prg, Block};
        let mut prg = Prg::from_seed(Block(seed));
        let mut r = move |n: u32| (prg.random_block().0 % n as u128) as u32;
        let mut next = width;
        let mut gates = Vec::new();
        let mut state: Vec<u32> = (0..width).collect();
        let mut prev: Vec<u32> = Vec::new();
        for _ in 0..rounds {
            let mut roots = Vec::new();
            for i in 0..width {
                let (a, b) = (
                    state[i as usize],
                    state[((i + 1 + r(width - 1)) % width) as usize],
                );
                gates.push(Gate::Xor { a, b, out: next });
                next += 1;
                roots.push(next - 1);
                if r(3) == 0 {
                    gates.push(Gate::Inv {
                        a: next - 1,
                        out: next,
                    });
                    next += 1;
                    roots.push(next - 1);
                }
            }
            let n = roots.len() as u32;
            let mut outs = Vec::new();
            for i in 0..width {
                let a = roots[r(n) as usize];
                let b = match r(5) {
                    0 => a,
                    1 => roots[((i + 1) % n) as usize],
                    2 => state[r(width) as usize],
                    3 if !prev.is_empty() => prev[r(prev.len() as u32) as usize],
                    _ => roots[r(n) as usize],
                };
                gates.push(Gate::And { a, b, out: next });
                next += 1;
                outs.push(next - 1);
            }
            prev = roots;
            state = outs;
        }
        Circuit {
            num_wires: next,
            inputs: vec![Group {
                name: "x".into(),
                wires: (0..width).collect(),
            }],
            outputs: vec![Group {
                name: "y".into(),
                wires: state,
            }],
            gates,
        }
    }

    /// Folded AND inputs change no table or label: the compact (folded)
    /// and dense (unfolded) layouts garble identically, evaluate to the
    /// plaintext, and the VAES and portable stage kernels agree on them.
    #[test]
    fn folded_roots_garble_like_the_dense_layout() {
        use crate::{decode, evaluate, garble, Garbler, Keep};
        use brickyard_core::{prg::Prg, Block};
        let mut folded_pieces = 0;
        for (seed, width) in [(1, 2), (2, 5), (3, 12), (4, 12), (5, 31), (6, 40)] {
            let c = folding_circuit(seed, width, 6);
            let p = GarblePlan::new(&c).unwrap();
            let l = &p.compact;
            let n = l.prog.ands().len();
            let zero = 16 * p.input_wires.len() as u32;
            let folded = l
                .prog
                .folds(0..n)
                .iter()
                .filter(|f| **f != [zero; 2])
                .count();
            assert_eq!(folded > 0, width <= FOLD_PIECE, "width {width}");
            folded_pieces += folded;
            assert!(p.dense.prog.folds(0..n).is_empty());
            let mut g = Garbler::from_prg(Prg::from_seed(Block(seed)));
            let zl = g.input_zero_labels(&p);
            let d = g.delta().clone();
            let (gc, out) = garble(&p, &d, &zl, 3, Keep::Outputs).unwrap();
            let (gcd, outd) = garble(&p, &d, &zl, 3, Keep::AllWires).unwrap();
            assert_eq!(gc, gcd, "tables, width {width}");
            assert_eq!(*out.output_zero_labels, *outd.output_zero_labels);
            let bits: Vec<bool> = (0..width).map(|i| (seed >> (i % 7)) & 1 == 1).collect();
            let labels = g.encode(&zl, &bits).unwrap();
            let e = evaluate(&p, &gc, &labels, Keep::Outputs).unwrap();
            let ed = evaluate(&p, &gc, &labels, Keep::AllWires).unwrap();
            assert_eq!(e.output_labels, ed.output_labels);
            let mut v = vec![false; c.num_wires as usize];
            v[..width as usize].copy_from_slice(&bits);
            for gate in &c.gates {
                v[gate.output() as usize] = match *gate {
                    Gate::Xor { a, b, .. } => v[a as usize] ^ v[b as usize],
                    Gate::And { a, b, .. } => v[a as usize] & v[b as usize],
                    Gate::Inv { a, .. } => !v[a as usize],
                };
            }
            let want: Vec<bool> = c.outputs[0].wires.iter().map(|&w| v[w as usize]).collect();
            assert_eq!(decode(&e.output_labels, &out.decoding()).unwrap(), want);
            stages_match_portable(&p, &format!("width {width}"));
        }
        assert!(folded_pieces > 50, "{folded_pieces} folded AND inputs");
    }

    /// Both layouts of `p`, walked with the default stage kernels (VAES
    /// here when the CPU has it) and the portable ones: same tables, same
    /// labels, both sides.
    fn stages_match_portable(p: &GarblePlan, name: &str) {
        use brickyard_core::{prg::Prg, Block};
        for l in [&p.compact, &p.dense] {
            let prog = &l.prog;
            let mut prg = Prg::from_seed(Block(7));
            let delta = prg.random_block().with_lsb(true);
            let mut w = vec![Block::ZERO; l.num_slots];
            for x in &mut w[..p.input_wires.len()] {
                *x = prg.random_block();
            }
            let (mut w2, mut e, mut e2) = (w.clone(), w.clone(), w.clone());
            let n = 2 * prog.ands().len();
            let (mut t, mut t2) = (vec![Block::ZERO; n], vec![Block::ZERO; n]);
            for st in &l.steps {
                let r = st.stages.0 as usize..st.stages.1 as usize;
                let a = 2 * st.ands.0 as usize..2 * st.ands.1 as usize;
                prog.garble_stages(&mut w, r.clone(), delta, 3, &mut t[a.clone()]);
                prog.garble_stages_portable(&mut w2, r.clone(), delta, 3, &mut t2[a.clone()]);
                prog.eval_stages(&mut e, r.clone(), &t[a.clone()], 3);
                prog.eval_stages_portable(&mut e2, r, &t[a], 3);
            }
            assert!(t == t2 && w == w2, "{name}: garbler differs");
            assert!(e == e2, "{name}: evaluator differs");
            for &o in &l.output_slots {
                let o = o as usize;
                assert!(e[o] == w[o] || e[o] == w[o] ^ delta, "{name}: bad label");
            }
        }
    }

    /// The hoisted, AND-less stages (see `hoist`) and the folded AND
    /// inputs (SHA-256) run on the real circuits, with the default stage
    /// kernels (VAES here when the CPU has it) and the portable ones: same
    /// tables, same labels, both sides.
    #[test]
    fn hoisted_stages_match_the_portable_backend() {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/circuits/bristol_fashion");
        for name in ["aes_128.txt", "sha256.txt"] {
            let c = brickyard_circuit::load(dir.join(name)).unwrap();
            let p = GarblePlan::new(&c).unwrap();
            for l in [&p.compact, &p.dense] {
                let prog = &l.prog;
                let andless = (0..prog.stages().len() - 1)
                    .filter(|&s| prog.stages_ands(s..s + 1).is_empty())
                    .count();
                assert!(andless > 10, "{name}: only {andless} hoisted stages");
            }
            let n = p.compact.prog.ands().len();
            let zero = 16 * p.input_wires.len() as u32;
            let folds = p.compact.prog.folds(0..n);
            let folded = folds.iter().flatten().filter(|&&f| f != zero).count();
            // AES-128: only its 20-AND layers fold (400 inputs), SHA-256:
            // 38 103 of its 45 146 AND inputs.
            let want = if name == "aes_128.txt" {
                1..1_000
            } else {
                30_000..45_146
            };
            assert!(want.contains(&folded), "{name}: {folded} folded inputs");
            stages_match_portable(&p, name);
        }
    }

    #[test]
    fn dead_xors_are_dropped_from_the_compact_layout_only() {
        // y = a ^ b is never read; out = ¬(a & b).
        let c = Circuit {
            num_wires: 5,
            inputs: vec![Group {
                name: "i".into(),
                wires: vec![0, 1],
            }],
            outputs: vec![Group {
                name: "o".into(),
                wires: vec![4],
            }],
            gates: vec![
                Gate::Xor { a: 0, b: 1, out: 2 },
                Gate::And { a: 0, b: 1, out: 3 },
                Gate::Inv { a: 3, out: 4 },
            ],
        };
        let p = GarblePlan::new(&c).unwrap();
        assert!(p.compact.prog.xors().is_empty());
        assert_eq!(p.dense.prog.xors().len(), 1);
        assert_eq!(p.compact.output_flips, vec![true]);
    }

    #[test]
    fn broken_invariants_are_config_errors() {
        let mut c = wide(3);
        c.outputs[0].wires.push(c.num_wires);
        assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
        let mut c = wide(3);
        c.gates.push(Gate::Xor { a: 0, b: 1, out: 2 });
        assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
        let mut c = wide(3);
        c.num_wires += 1;
        c.gates.push(Gate::Xor {
            a: 0,
            b: 10,
            out: 10,
        });
        assert!(matches!(GarblePlan::new(&c), Err(Error::Config(_))));
    }
}
