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
use brickyard_commit::XorProgram;
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

/// Reserves material for a copy of `c` and computes Build's openings.
fn plan(
    c: &Circuit,
    layout: &mut Layout,
    bob_inputs: usize,
    links: &[Option<Vec<usize>>],
) -> Result<(Built, XorProgram, Vec<Tag>)> {
    let at = layout.reserve(need(c, bob_inputs))?;
    // Wire w's 0-key set is `wires.get(slot[w])`, its XOR register `slot[w]`.
    const UNSET: u32 = u32::MAX;
    let mut slot = vec![UNSET; c.num_wires as usize];
    let mut wires = Sets::default();
    let mut open = XorProgram::default();
    let mut input_sets = Vec::new();
    let mut tags = Vec::new();
    let mut linked = Vec::new();
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
        open.load(wires.spans.len(), &set);
        wires.push(&set);
        input_sets.push(set);
    }
    let find = |slot: &[u32], w: u32| match slot.get(w as usize) {
        Some(&s) if s != UNSET => Ok(s as usize),
        _ => Err(Error::config(format!(
            "lego: wire {w} used before it is set"
        ))),
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
        match *g {
            Gate::Xor { a, b, .. } => {
                let (a, b) = (find(&slot, a)?, find(&slot, b)?);
                if keep {
                    sym_diff_into(wires.get(a), wires.get(b), &mut s);
                }
                open.xor(d, a, b);
            }
            Gate::Inv { a, .. } => {
                let a = find(&slot, a)?;
                if keep {
                    sym_diff_into(wires.get(a), &delta, &mut s);
                }
                open.xor_id(d, a, layout.delta_id);
            }
            Gate::And { a, b, .. } => {
                let i = rank[k] as usize;
                let [l, r, o] = layout.and_heads[at.and + i];
                for (w, head, side) in [(a, l, 0), (b, r, 1)] {
                    open.open(find(&slot, w)?, head);
                    tags.push(Tag::And(i, side));
                }
                k += 1;
                s.push(o);
                open.load(d, &[o]);
            }
        }
        if s.len() > MAX_SET {
            let u = layout.take_refresh()?;
            open.open(d, u);
            tags.push(Tag::Refresh(gi));
            s.clear();
            s.push(u);
            open.load(d, &[u]);
        }
        slot[g.output() as usize] = wires.spans.len() as u32;
        wires.push(&s);
    }
    // Input wire i's register is i (the inputs are the first slots).
    for (i, _) in input_sets.iter().enumerate().filter(|(i, _)| !linked[*i]) {
        open.open(i, layout.in_auth_heads[at.input + i]);
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
    let (built, open, tags) = (p.built.clone(), &p.open, &p.tags);
    let vals = hcom.verify_batch_open_program(ch, open)?;
    if vals.len() != tags.len() {
        return Err(Error::malformed(
            "lego: Build opened the wrong number of solderings",
        ));
    }
    let ands = tags.iter().filter(|t| matches!(t, Tag::And(..))).count() / 2;
    let mut solder = vec![[Block::ZERO; 2]; ands];
    let mut refresh = Vec::new();
    let mut auth_solder = vec![Block::ZERO; built.input_sets.len()];
    for (t, v) in tags.iter().zip(vals) {
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
    #[test]
    fn symmetric_difference() {
        assert_eq!(super::sym_diff(&[1, 3, 5], &[3, 4]), vec![1, 4, 5]);
        assert_eq!(super::sym_diff(&[], &[2]), vec![2]);
        assert_eq!(super::sym_diff(&[2], &[2]), Vec::<usize>::new());
    }
}
