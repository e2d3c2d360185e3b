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
use brickyard_core::{Block, Channel, Error, Result};

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

/// Largest set a wire keeps before it is re-based onto a fresh committed
/// key: XOR-heavy circuits (SHA-256's adders) otherwise grow sets of
/// thousands of ids, and every opening costs their size.
pub const MAX_SET: usize = 64;

/// What each opened value of Build is, in order.
enum Tag {
    /// Input `side` (0 = left, 1 = right) of the AND gate at layer-order position `i`.
    And(usize, usize),
    Refresh(usize),
    Auth(usize),
}

fn sym_diff(a: &[usize], b: &[usize]) -> Vec<usize> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len() + b.len());
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                out.push(*x);
                i += 1;
            }
            (Some(_), Some(y)) => {
                out.push(*y);
                j += 1;
            }
            (Some(x), None) => {
                out.push(*x);
                i += 1;
            }
            (None, Some(y)) => {
                out.push(*y);
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
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

/// Reserves material for a copy of `c` and computes every set Build opens.
fn plan(
    c: &Circuit,
    layout: &mut Layout,
    bob_inputs: usize,
    links: &[Option<Vec<usize>>],
) -> Result<(Built, Vec<Vec<usize>>, Vec<Tag>)> {
    let at = layout.reserve(need(c, bob_inputs))?;
    let mut sets: Vec<Option<Vec<usize>>> = vec![None; c.num_wires as usize];
    let mut input_sets = Vec::new();
    let mut open = Vec::new();
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
        sets[*w as usize] = Some(set.clone());
        input_sets.push(set);
    }
    let get = |sets: &[Option<Vec<usize>>], w: u32| {
        sets.get(w as usize)
            .and_then(|s| s.clone())
            .ok_or_else(|| Error::config(format!("lego: wire {w} used before it is set")))
    };
    let delta = [layout.delta_id];
    let rank = and_ranks(c);
    let mut k = 0;
    for (gi, g) in c.gates.iter().enumerate() {
        let mut s = match *g {
            Gate::Xor { a, b, .. } => sym_diff(&get(&sets, a)?, &get(&sets, b)?),
            Gate::Inv { a, .. } => sym_diff(&get(&sets, a)?, &delta),
            Gate::And { a, b, .. } => {
                let i = rank[k] as usize;
                let [l, r, o] = layout.and_heads[at.and + i];
                open.push(sym_diff(&get(&sets, a)?, &[l]));
                open.push(sym_diff(&get(&sets, b)?, &[r]));
                tags.push(Tag::And(i, 0));
                tags.push(Tag::And(i, 1));
                k += 1;
                vec![o]
            }
        };
        if s.len() > MAX_SET {
            let u = layout.take_refresh()?;
            open.push(sym_diff(&s, &[u]));
            tags.push(Tag::Refresh(gi));
            s = vec![u];
        }
        sets[g.output() as usize] = Some(s);
    }
    for (i, _) in input_sets.iter().enumerate().filter(|(i, _)| !linked[*i]) {
        open.push(vec![
            layout.in_heads[at.input + i],
            layout.in_auth_heads[at.input + i],
        ]);
        tags.push(Tag::Auth(i));
    }
    let out_sets = c
        .outputs
        .iter()
        .flat_map(|g| g.wires.iter())
        .map(|&w| get(&sets, w))
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
    let (built, open, _) = plan(c, layout, bob_inputs, links)?;
    hcom.batch_open(ch, &open)?;
    Ok(built)
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
    let vals = hcom.verify_batch_open(ch, &open)?;
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
