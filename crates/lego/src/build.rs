//! Build(f), Fig. 2: the solderings that glue the next unused AND buckets
//! into f and attach an input bucket and an input authenticator to every
//! input wire.
//!
//! Every wire of f has a 0-key that is the XOR of a set of committed
//! values: an input wire is its input bucket's head `L⁰`; an AND output is
//! its bucket's head `O⁰`; XOR gates take the symmetric difference of their
//! inputs' sets and NOT adds Δ. Per AND gate Alice opens
//! `set(a) ⊕ L⁰_head` and `set(b) ⊕ R⁰_head` (two solderings per gate, the
//! paper's dependent-phase cost), and per input wire `L⁰_in ⊕ K⁰_auth`.

use super::evaluator::and_ranks;
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{Cursors, Layout, Need};
use brickyard_circuit::{Circuit, Gate};
use brickyard_commit::{CheckBatch, OpenBatch, XorProgram};
use brickyard_core::{Block, Channel, Error, Result};
use std::ops::Range;

/// One built copy of f, as both parties see it (ids only).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Built {
    /// First index of each kind of material this copy uses.
    pub at: Cursors,
    /// Per input wire (all groups in order): its 0-key set.
    pub input_sets: Vec<Vec<usize>>,
    /// Per output wire: its 0-key set.
    pub out_sets: Vec<Vec<usize>>,
    /// Per input wire: soldered to an earlier copy's output (reactive use)
    /// instead of a fresh input bucket; it has no input authenticator.
    pub linked: Vec<bool>,
}

/// Bob's part of a built copy: the solderings he verified.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BuiltBob {
    /// Ids and cursors.
    pub built: Built,
    /// Per AND gate, in layer order (`evaluator::and_ranks`): solderings
    /// of its two inputs.
    pub solder: Vec<[Block; 2]>,
    /// Per input wire: soldering to its input authenticator.
    pub auth_solder: Vec<Block>,
    /// `(gate index, S)`: after that gate, its output key is XORed with S
    /// (the wire was re-based onto a fresh committed key).
    pub refresh: Vec<(usize, Block)>,
}

/// Largest set an output wire's XOR cone keeps before it is re-based onto
/// a fresh committed key: XOR-heavy circuits (SHA-256's adders) could
/// otherwise give an output a set of thousands of ids, and Eval's output
/// opening (and the store's records) cost its size. Build's own openings
/// do not depend on set sizes (they run on per-wire registers).
pub const MAX_SET: usize = 64;

/// What each opened value of Build is, in order.
enum Tag {
    /// Input `side` (0 = left, 1 = right) of the AND gate at layer-order position `i`.
    And(usize, usize),
    Refresh(usize),
    Auth(usize),
}

/// Appends the symmetric difference of the sorted sets `a` and `b` to `out`.
fn sym_diff_into(a: &[usize], b: &[usize], out: &mut Vec<usize>) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

#[cfg(test)]
fn sym_diff(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::new();
    sym_diff_into(a, b, &mut out);
    out
}

/// Sets stored back to back in one vector (Build makes one per wire; one
/// allocation each cost more than the set algebra).
#[derive(Default)]
struct Sets {
    ids: Vec<usize>,
    spans: Vec<Range<usize>>,
}

impl Sets {
    fn get(&self, i: usize) -> &[usize] {
        &self.ids[self.spans[i].clone()]
    }
    fn push(&mut self, ids: &[usize]) {
        let start = self.ids.len();
        self.ids.extend_from_slice(ids);
        self.spans.push(start..self.ids.len());
    }
}

/// The amounts one copy of `c` needs, with `bob_inputs` Δ-ROTs.
pub fn need(c: &Circuit, bob_inputs: usize) -> Need {
    Need {
        and: c
            .gates
            .iter()
            .filter(|g| matches!(g, Gate::And { .. }))
            .count(),
        input: c.inputs.iter().map(|g| g.width()).sum(),
        rot: bob_inputs,
        out: c.outputs.iter().map(|g| g.width()).sum(),
    }
}

/// Build's plan of one copy: the ids it uses and the program of its
/// openings (one register per wire slot holding the XOR of its set, so
/// each party XORs one row per gate instead of a whole set per opened
/// value; the sets themselves only decide re-basing and the output sets). It
/// depends only on the circuit and on the layout's ids, so copies laid out
/// alike (the store-backed Build numbers each copy's commitments the same
/// way) share one plan, and the plan tells how many refresh keys a copy
/// takes before any is reserved.
pub struct Planned {
    built: Built,
    open: XorProgram,
    tags: Vec<Tag>,
}

impl Planned {
    /// Plans a copy of `c` on `layout` (reserving from it, as Build does).
    pub fn new(c: &Circuit, layout: &mut Layout, bob_inputs: usize) -> Result<Self> {
        let (built, open, tags) = plan(c, layout, bob_inputs, &[])?;
        Ok(Planned { built, open, tags })
    }

    /// The planned copy's ids.
    pub fn built(&self) -> &Built {
        &self.built
    }
}

/// A copy's local commitment ids, in the order its records are read:
/// 0 = Δ, then 3 per AND bucket (head's L⁰, R⁰, O⁰), 2 per input (head's
/// L⁰, head authenticator's key), 1 per Δ-ROT, output and refresh key.
/// `[a, i, r, o, f]` are the counts of each.
pub fn local_layout([a, i, r, o, f]: [usize; 5]) -> Layout {
    let mut next = 1;
    let mut run = |k: usize| {
        next += k;
        next - k..next
    };
    let (and, inp) = (run(3 * a), run(2 * i));
    let (rot, out, refresh) = (run(r), run(o), run(f));
    Layout {
        delta_id: 0,
        and_heads: and.step_by(3).map(|x| [x, x + 1, x + 2]).collect(),
        in_heads: inp.clone().step_by(2).collect(),
        in_auth_heads: inp.skip(1).step_by(2).collect(),
        r_ids: rot.collect(),
        v_ids: out.collect(),
        refresh_ids: refresh.collect(),
        next: Default::default(),
    }
}

/// Build of f planned once for all copies of a run: the plan is made on
/// a copy's local numbering ([`local_layout`]), and each copy is that plan
/// with its ids renumbered (a store-backed copy is numbered locally
/// already; an in-memory copy gets a map into Generate's ids,
/// [`Shared::reserve`]). Planning costs as much as the openings, so E
/// copies plan once instead of E times.
pub struct Shared {
    /// The plan on local ids.
    pub planned: Planned,
    /// The local layout the plan used (refresh keys cut to what it took).
    pub layout: Layout,
    /// What one copy takes: AND buckets, inputs, Δ-ROTs, outputs, refresh keys.
    pub want: [usize; 5],
}

impl Shared {
    /// Plans `c` once, with `bob_inputs` Δ-ROTs per copy.
    pub fn new(c: &Circuit, bob_inputs: usize) -> Result<Self> {
        let n = need(c, bob_inputs);
        // A wire is re-based at most once per gate; the plan takes what it uses.
        let mut layout = local_layout([n.and, n.input, n.rot, n.out, c.gates.len()]);
        let planned = Planned::new(c, &mut layout, bob_inputs)?;
        let refresh = layout.next.refresh;
        layout.refresh_ids.truncate(refresh);
        Ok(Shared {
            planned,
            layout,
            want: [n.and, n.input, n.rot, n.out, refresh],
        })
    }

    /// Reserves one copy's material from Generate's `layout` (in memory):
    /// its cursors and the map from local ids to Generate's commitment ids.
    pub fn reserve(&self, layout: &mut Layout) -> Result<CopyIds> {
        let [a, i, r, o, f] = self.want;
        let at = layout.reserve(Need {
            and: a,
            input: i,
            rot: r,
            out: o,
        })?;
        let mut map = Vec::with_capacity(1 + 3 * a + 2 * i + r + o + f);
        map.push(layout.delta_id);
        let missing = || Error::config("lego: layout shorter than its cursors");
        let heads = layout
            .and_heads
            .get(at.and..at.and + a)
            .ok_or_else(missing)?;
        map.extend(heads.iter().flatten());
        for k in at.input..at.input + i {
            map.push(*layout.in_heads.get(k).ok_or_else(missing)?);
            map.push(*layout.in_auth_heads.get(k).ok_or_else(missing)?);
        }
        map.extend(layout.r_ids.get(at.rot..at.rot + r).ok_or_else(missing)?);
        map.extend(layout.v_ids.get(at.out..at.out + o).ok_or_else(missing)?);
        for _ in 0..f {
            map.push(layout.take_refresh()?);
        }
        Ok(CopyIds { at, map })
    }

    /// [`Shared::reserve`] for each of `n` copies, in order.
    pub fn reserve_copies(&self, layout: &mut Layout, n: usize) -> Result<Vec<CopyIds>> {
        (0..n).map(|_| self.reserve(layout)).collect()
    }

    /// The ids of an in-memory copy: the plan's sets renumbered.
    fn built(&self, copy: &CopyIds) -> Built {
        let p = &self.planned.built;
        let re = |sets: &[Vec<usize>]| -> Vec<Vec<usize>> {
            sets.iter()
                .map(|s| s.iter().map(|&i| copy.map[i]).collect())
                .collect()
        };
        Built {
            at: copy.at,
            input_sets: re(&p.input_sets),
            out_sets: re(&p.out_sets),
            linked: p.linked.clone(),
        }
    }
}

/// One in-memory copy of a [`Shared`] plan: its cursors into Generate's
/// material and its local → Generate commitment ids.
pub struct CopyIds {
    at: Cursors,
    map: Vec<usize>,
}

/// Alice: Build(f) for several in-memory copies, all their solderings in
/// one batch opening (one flight, one challenge, one `batch-decommit`
/// check) instead of a round trip per copy.
pub fn alice_copies(
    hcom: &HcomSender,
    ch: &mut Channel,
    shared: &Shared,
    copies: &[CopyIds],
) -> Result<Vec<Built>> {
    let mut batch = OpenBatch::default();
    for cp in copies {
        hcom.gather_program(&shared.planned.open, Some(&cp.map), &mut batch)?;
    }
    batch.send(ch)?;
    Ok(copies.iter().map(|cp| shared.built(cp)).collect())
}

/// Bob's side of [`alice_copies`].
pub fn bob_copies(
    hcom: &mut HcomReceiver,
    ch: &mut Channel,
    shared: &Shared,
    copies: &[CopyIds],
) -> Result<Vec<BuiltBob>> {
    let mut batch = CheckBatch::default();
    for cp in copies {
        hcom.gather_program(&shared.planned.open, Some(&cp.map), &mut batch)?;
    }
    let vals = hcom.verify_batch(ch, batch)?;
    split(
        &shared.planned,
        vals,
        copies.iter().map(|cp| shared.built(cp)),
    )
}

/// Alice: Build's openings of several copies with their own commitment
/// sessions (the store's copies, numbered locally), in one batch opening.
pub fn alice_planned_many(hcoms: &[&HcomSender], ch: &mut Channel, p: &Planned) -> Result<()> {
    let mut batch = OpenBatch::default();
    for h in hcoms {
        h.gather_program(&p.open, None, &mut batch)?;
    }
    batch.send(ch)
}

/// Bob's side of [`alice_planned_many`]; all sessions are copies of one
/// commitment session (same watch bits), the first one draws the challenge.
pub fn bob_planned_many(
    hcoms: &mut [HcomReceiver],
    ch: &mut Channel,
    p: &Planned,
) -> Result<Vec<BuiltBob>> {
    let mut batch = CheckBatch::default();
    for h in hcoms.iter() {
        h.gather_program(&p.open, None, &mut batch)?;
    }
    let n = hcoms.len();
    let first = hcoms
        .first_mut()
        .ok_or_else(|| Error::config("lego: Build of no copy"))?;
    let vals = first.verify_batch(ch, batch)?;
    split(p, vals, (0..n).map(|_| p.built.clone()))
}

/// Cuts one batch opening's values into the copies' solderings.
fn split(
    p: &Planned,
    vals: Vec<Block>,
    built: impl ExactSizeIterator<Item = Built>,
) -> Result<Vec<BuiltBob>> {
    let per = p.tags.len();
    if vals.len() != per * built.len() {
        return Err(Error::malformed(
            "lego: Build opened the wrong number of solderings",
        ));
    }
    built
        .enumerate()
        .map(|(k, b)| assemble(p, b, &vals[k * per..(k + 1) * per]))
        .collect()
}

/// Per gate: whether its output's set is needed, i.e. the gate lies in the
/// XOR/NOT cone of an output wire (sets stop at AND outputs and inputs).
/// Computed backwards with the wires' liveness, so a wire written twice is
/// handled too; the sets of all other wires are never formed.
fn output_cone(c: &Circuit) -> Vec<bool> {
    let mut live = vec![false; c.num_wires as usize];
    for &w in c.outputs.iter().flat_map(|g| g.wires.iter()) {
        if let Some(l) = live.get_mut(w as usize) {
            *l = true;
        }
    }
    let mut need = vec![false; c.gates.len()];
    for (gi, g) in c.gates.iter().enumerate().rev() {
        let Some(l) = live.get_mut(g.output() as usize) else {
            continue;
        };
        need[gi] = std::mem::replace(l, false);
        if need[gi] && !matches!(g, Gate::And { .. }) {
            let (ins, n) = g.inputs();
            for &w in &ins[..n] {
                if let Some(l) = live.get_mut(w as usize) {
                    *l = true;
                }
            }
        }
    }
    need
}

/// Per value of the plan (inputs first, then one per gate, as `plan`
/// numbers them): the last gate that reads it, `u32::MAX` if none does.
/// Build's program keeps a register only while its value is still to be
/// read, so the register file is the circuit's live width (hundreds of
/// rows) instead of one row per wire: it stays in cache, and a fresh
/// process does not fault in megabytes of it.
fn last_reads(c: &Circuit, n_in: usize) -> Vec<u32> {
    const NONE: u32 = u32::MAX;
    let mut cur = vec![NONE; c.num_wires as usize];
    for (i, w) in c.inputs.iter().flat_map(|g| g.wires.iter()).enumerate() {
        if let Some(x) = cur.get_mut(*w as usize) {
            *x = i as u32;
        }
    }
    let mut last = vec![NONE; n_in + c.gates.len()];
    for (gi, g) in c.gates.iter().enumerate() {
        let (ins, n) = g.inputs();
        for &w in &ins[..n] {
            if let Some(&v) = cur.get(w as usize) {
                if let Some(l) = last.get_mut(v as usize) {
                    *l = gi as u32;
                }
            }
        }
        if let Some(x) = cur.get_mut(g.output() as usize) {
            *x = (n_in + gi) as u32;
        }
    }
    last
}

/// Registers of Build's program, reused once their value is dead.
#[derive(Default)]
struct Regs {
    free: Vec<usize>,
    next: usize,
}

impl Regs {
    fn alloc(&mut self) -> usize {
        self.free.pop().unwrap_or_else(|| {
            self.next += 1;
            self.next - 1
        })
    }
}

/// Reserves material for a copy of `c` and computes Build's openings.
fn plan(
    c: &Circuit,
    layout: &mut Layout,
    bob_inputs: usize,
    links: &[Option<Vec<usize>>],
) -> Result<(Built, XorProgram, Vec<Tag>)> {
    let at = layout.reserve(need(c, bob_inputs))?;
    // Wire w's 0-key set is `wires.get(slot[w])`; value v's register is
    // `reg[v]` (values are numbered as `wires` stores their sets).
    const UNSET: u32 = u32::MAX;
    let mut slot = vec![UNSET; c.num_wires as usize];
    let mut wires = Sets::default();
    let mut open = XorProgram::default();
    let mut input_sets = Vec::new();
    let mut tags = Vec::new();
    let mut linked = Vec::new();
    let mut regs = Regs::default();
    let n_in: usize = c.inputs.iter().map(|g| g.wires.len()).sum();
    let last = last_reads(c, n_in);
    let mut reg = Vec::with_capacity(n_in + c.gates.len());
    for (i, w) in c.inputs.iter().flat_map(|g| g.wires.iter()).enumerate() {
        let set = match links.get(i).cloned().flatten() {
            Some(s) => {
                linked.push(true);
                s
            }
            None => {
                linked.push(false);
                vec![layout.in_heads[at.input + i]]
            }
        };
        slot[*w as usize] = wires.spans.len() as u32;
        // Input registers stay: the input authenticators' openings read
        // them after the last gate.
        let r = regs.alloc();
        open.load(r, &set);
        reg.push(r);
        wires.push(&set);
        input_sets.push(set);
    }
    let find = |slot: &[u32], w: u32| match slot.get(w as usize) {
        Some(&s) if s != UNSET => Ok(s as usize),
        _ => Err(Error::config(format!(
            "lego: wire {w} used before it is set"
        ))),
    };
    // After gate `gi` has read value `v`, its register is free if no later
    // gate reads it (inputs' registers are kept, above).
    let release = |regs: &mut Regs, reg: &[usize], v: usize, gi: usize| {
        if v >= n_in && last.get(v).copied() == Some(gi as u32) {
            regs.free.push(reg[v]);
        }
    };
    let delta = [layout.delta_id];
    let rank = and_ranks(c);
    let need_set = output_cone(c);
    let mut k = 0;
    let mut s = Vec::new();
    for (gi, g) in c.gates.iter().enumerate() {
        s.clear();
        let d = wires.spans.len();
        let keep = need_set[gi];
        let dr = match *g {
            Gate::Xor { a, b, .. } => {
                let (a, b) = (find(&slot, a)?, find(&slot, b)?);
                if keep {
                    sym_diff_into(wires.get(a), wires.get(b), &mut s);
                }
                release(&mut regs, &reg, a, gi);
                if b != a {
                    release(&mut regs, &reg, b, gi);
                }
                let dr = regs.alloc();
                open.xor(dr, reg[a], reg[b]);
                dr
            }
            Gate::Inv { a, .. } => {
                let a = find(&slot, a)?;
                if keep {
                    sym_diff_into(wires.get(a), &delta, &mut s);
                }
                release(&mut regs, &reg, a, gi);
                let dr = regs.alloc();
                open.xor_id(dr, reg[a], layout.delta_id);
                dr
            }
            Gate::And { a, b, .. } => {
                let i = rank[k] as usize;
                let [l, r, o] = layout.and_heads[at.and + i];
                let (a, b) = (find(&slot, a)?, find(&slot, b)?);
                for (v, head, side) in [(a, l, 0), (b, r, 1)] {
                    open.open(reg[v], head);
                    tags.push(Tag::And(i, side));
                }
                release(&mut regs, &reg, a, gi);
                if b != a {
                    release(&mut regs, &reg, b, gi);
                }
                k += 1;
                s.push(o);
                let dr = regs.alloc();
                open.load(dr, &[o]);
                dr
            }
        };
        if s.len() > MAX_SET {
            let u = layout.take_refresh()?;
            open.open(dr, u);
            tags.push(Tag::Refresh(gi));
            s.clear();
            s.push(u);
            open.load(dr, &[u]);
        }
        reg.push(dr);
        // A value no gate reads needs no register after its own gate.
        if last.get(d).copied() == Some(UNSET) {
            regs.free.push(dr);
        }
        slot[g.output() as usize] = d as u32;
        wires.push(&s);
    }
    for (i, _) in input_sets.iter().enumerate().filter(|(i, _)| !linked[*i]) {
        open.open(reg[i], layout.in_auth_heads[at.input + i]);
        tags.push(Tag::Auth(i));
    }
    let out_sets = c
        .outputs
        .iter()
        .flat_map(|g| g.wires.iter())
        .map(|&w| Ok(wires.get(find(&slot, w)?).to_vec()))
        .collect::<Result<Vec<_>>>()?;
    Ok((
        Built {
            at,
            input_sets,
            out_sets,
            linked,
        },
        open,
        tags,
    ))
}

/// Alice: Build(f) for one copy.
pub fn alice(
    hcom: &HcomSender,
    ch: &mut Channel,
    c: &Circuit,
    layout: &mut Layout,
    bob_inputs: usize,
) -> Result<Built> {
    alice_linked(hcom, ch, c, layout, bob_inputs, &[])
}

/// Alice: Build(f) with some input wires soldered to outputs of earlier
/// copies (`links[i] = Some(earlier.out_sets[j])`): reactive computation.
pub fn alice_linked(
    hcom: &HcomSender,
    ch: &mut Channel,
    c: &Circuit,
    layout: &mut Layout,
    bob_inputs: usize,
    links: &[Option<Vec<usize>>],
) -> Result<Built> {
    let (built, open, tags) = plan(c, layout, bob_inputs, links)?;
    alice_planned(hcom, ch, &Planned { built, open, tags })
}

/// Alice: Build's openings for a planned copy.
pub fn alice_planned(hcom: &HcomSender, ch: &mut Channel, p: &Planned) -> Result<Built> {
    hcom.batch_open_program(ch, &p.open)?;
    Ok(p.built.clone())
}

/// Bob: Build(f) for one copy.
pub fn bob(
    hcom: &mut HcomReceiver,
    ch: &mut Channel,
    c: &Circuit,
    layout: &mut Layout,
    bob_inputs: usize,
) -> Result<BuiltBob> {
    bob_linked(hcom, ch, c, layout, bob_inputs, &[])
}

/// Bob's side of [`alice_linked`].
pub fn bob_linked(
    hcom: &mut HcomReceiver,
    ch: &mut Channel,
    c: &Circuit,
    layout: &mut Layout,
    bob_inputs: usize,
    links: &[Option<Vec<usize>>],
) -> Result<BuiltBob> {
    let (built, open, tags) = plan(c, layout, bob_inputs, links)?;
    bob_planned(hcom, ch, &Planned { built, open, tags })
}

/// Bob: Build's openings for a planned copy, verified.
pub fn bob_planned(hcom: &mut HcomReceiver, ch: &mut Channel, p: &Planned) -> Result<BuiltBob> {
    let vals = hcom.verify_batch_open_program(ch, &p.open)?;
    if vals.len() != p.tags.len() {
        return Err(Error::malformed(
            "lego: Build opened the wrong number of solderings",
        ));
    }
    assemble(p, p.built.clone(), &vals)
}

/// Bob's solderings of one copy from its opened values (in tag order).
fn assemble(p: &Planned, built: Built, vals: &[Block]) -> Result<BuiltBob> {
    let tags = &p.tags;
    let ands = tags.iter().filter(|t| matches!(t, Tag::And(..))).count() / 2;
    let mut solder = vec![[Block::ZERO; 2]; ands];
    let mut refresh = Vec::new();
    let mut auth_solder = vec![Block::ZERO; built.input_sets.len()];
    for (t, &v) in tags.iter().zip(vals) {
        match *t {
            Tag::And(i, side) => solder[i][side] = v,
            Tag::Refresh(g) => refresh.push((g, v)),
            Tag::Auth(i) => auth_solder[i] = v,
        }
    }
    Ok(BuiltBob {
        built,
        solder,
        auth_solder,
        refresh,
    })
}

#[cfg(test)]
mod tests {
    use super::{Shared, Tag};
    use brickyard_circuit::{Circuit, Gate, Group};
    use brickyard_core::prg::Prg;
    use brickyard_core::Block;

    /// A random valid circuit: gates read any wire already written
    /// (AND(w, w) and XOR(w, w) included), some values are read by no
    /// gate, some outputs are also read inside.
    fn random_circuit(prg: &mut Prg) -> Circuit {
        let widths = [
            1 + prg.random_u64() as usize % 6,
            1 + prg.random_u64() as usize % 6,
        ];
        let n_in = widths[0] + widths[1];
        let n_gates = 1 + prg.random_u64() as usize % 120;
        let mut gates = Vec::with_capacity(n_gates);
        for gi in 0..n_gates {
            let have = (n_in + gi) as u64;
            let a = (prg.random_u64() % have) as u32;
            let b = (prg.random_u64() % have) as u32;
            let out = (n_in + gi) as u32;
            gates.push(match prg.random_u64() % 3 {
                0 => Gate::And { a, b, out },
                1 => Gate::Xor { a, b, out },
                _ => Gate::Inv { a, out },
            });
        }
        let total = (n_in + n_gates) as u64;
        let outs = (0..1 + prg.random_u64() % 8)
            .map(|_| (prg.random_u64() % total) as u32)
            .collect();
        let c = Circuit {
            num_wires: total as u32,
            inputs: vec![
                Group {
                    name: "a".into(),
                    wires: (0..widths[0] as u32).collect(),
                },
                Group {
                    name: "b".into(),
                    wires: (widths[0] as u32..n_in as u32).collect(),
                },
            ],
            outputs: vec![Group {
                name: "o".into(),
                wires: outs,
            }],
            gates,
        };
        c.validate().expect("a valid random circuit");
        c
    }

    /// Build's program, with registers reused once their value is dead,
    /// opens exactly the XORs the paper's sets say: each AND input's key
    /// ⊕ its bucket head's key, each input's key ⊕ its authenticator's
    /// key, each re-based wire's key ⊕ its fresh key — checked against a
    /// direct walk of f on random values of every commitment id.
    #[test]
    fn the_program_opens_what_the_sets_say() {
        let seed = Block::from_halves(0x6275_696c_6420, 0x706c_616e);
        println!("seed {seed:?}");
        let mut prg = Prg::from_seed(seed);
        for _ in 0..300 {
            let c = random_circuit(&mut prg);
            let shared = Shared::new(&c, c.inputs[1].width()).unwrap();
            let l = &shared.layout;
            let salt = prg.random_u64();
            let val = |id: usize| (id as u64 ^ salt).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let got = shared
                .planned
                .open
                .run(0u64, |id| Some(val(id)), |a, b| a ^ b)
                .unwrap();
            // The direct walk: each wire's 0-key value.
            let mut key = vec![0u64; c.num_wires as usize];
            let inputs: Vec<u32> = c.inputs.iter().flat_map(|g| g.wires.clone()).collect();
            for (i, &w) in inputs.iter().enumerate() {
                key[w as usize] = val(l.in_heads[i]);
            }
            let rank = crate::evaluator::and_ranks(&c);
            let mut want = vec![0u64; got.len()];
            let mut refresh = l.refresh_ids.iter();
            let mut k = 0;
            let mut item = 0;
            for (gi, g) in c.gates.iter().enumerate() {
                match *g {
                    Gate::Xor { a, b, out } => {
                        key[out as usize] = key[a as usize] ^ key[b as usize]
                    }
                    Gate::Inv { a, out } => key[out as usize] = key[a as usize] ^ val(l.delta_id),
                    Gate::And { a, b, out } => {
                        let [hl, hr, ho] = l.and_heads[rank[k] as usize];
                        k += 1;
                        want[item] = key[a as usize] ^ val(hl);
                        want[item + 1] = key[b as usize] ^ val(hr);
                        item += 2;
                        key[out as usize] = val(ho);
                    }
                }
                if let Some(Tag::Refresh(r)) = shared.planned.tags.get(item) {
                    assert_eq!(*r, gi);
                    let u = val(*refresh.next().unwrap());
                    want[item] = key[g.output() as usize] ^ u;
                    item += 1;
                    key[g.output() as usize] = u;
                }
            }
            for (i, &w) in inputs.iter().enumerate() {
                want[item] = key[w as usize] ^ val(l.in_auth_heads[i]);
                item += 1;
            }
            assert_eq!(item, got.len());
            assert_eq!(got, want);
        }
    }

    /// AES-128's Build program holds its live width in registers, not a
    /// row per wire (36 k wires).
    #[test]
    fn registers_are_reused() {
        let c = brickyard_circuit::builtin("aes128").unwrap();
        let shared = Shared::new(&c, 128).unwrap();
        let regs = shared.planned.open.registers();
        println!("aes128: {regs} registers for {} wires", c.num_wires);
        assert!(regs < 2_000, "{regs} registers");
    }

    #[test]
    fn symmetric_difference() {
        assert_eq!(super::sym_diff(&[1, 3, 5], &[3, 4]), vec![1, 4, 5]);
        assert_eq!(super::sym_diff(&[], &[2]), vec![2]);
        assert_eq!(super::sym_diff(&[2], &[2]), Vec::<usize>::new());
    }
}
