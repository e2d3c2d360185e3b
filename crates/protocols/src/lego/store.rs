//! Offline/online in separate processes (the driver's `attach_store`).
//!
//! Preprocessing writes, per built copy of f, one self-contained record of
//! kind [`EXEC_KIND`]: the copy with its commitment ids renumbered
//! `0..k`, just the k commitments Eval opens (Alice: value and share;
//! Bob: his check row), and the slice of the layout and of Bob's material
//! the copy uses (its AND buckets, input buckets and authenticators, Δ-ROTs,
//! leaked lsbs). The commitment session's seeds (a few KB) are a sealed
//! store secret. An online run reserves one record per execution, durably,
//! before it touches it, so no copy — and no Δ-ROT or blinder inside it —
//! is ever used twice, and the full commitment state (megabytes) is never
//! needed online.

use super::build::{Built, BuiltBob};
use super::material::{BobMaterial, Cursors, Layout};
use brickyard_commit::code::Row;
use brickyard_commit::{CommitterState, ReceiverState};
use brickyard_core::{Block, Error, Result};
use brickyard_store::{KindSpec, Store};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The store kind of built copies.
pub const EXEC_KIND: &str = "lego-exec";
/// The store secret holding the commitment session's seeds (and Δ).
pub const SESSION_SECRET: &str = "lego-session";

/// Adds lego's kind to a fresh store.
pub fn prepare(store: &mut Store) -> Result<()> {
    if store.produced(EXEC_KIND).is_err() {
        store.add_kind(KindSpec::variable(EXEC_KIND))?;
    }
    Ok(())
}

/// Alice's sealed session secret.
#[derive(Serialize, Deserialize)]
pub struct AliceSession {
    /// Commitment seeds (no commitments).
    pub hcom: CommitterState,
}

/// Bob's sealed session secret.
#[derive(Serialize, Deserialize)]
pub struct BobSession {
    /// Commitment watch bits and seeds (no commitments).
    pub hcom: ReceiverState,
}

/// One execution, Alice's side.
#[derive(Serialize, Deserialize)]
pub struct AliceExec {
    /// The copy, ids renumbered.
    pub built: Built,
    /// The layout slice, ids renumbered, cursors at 0.
    pub layout: Layout,
    /// Committed values of the renumbered ids.
    pub msgs: Vec<Block>,
    /// Commitment shares of the renumbered ids.
    pub t: Vec<Row>,
    /// This Generate call's Δ.
    pub delta: Block,
}

/// One execution, Bob's side.
#[derive(Serialize, Deserialize)]
pub struct BobExec {
    /// The copy, ids renumbered.
    pub built: BuiltBob,
    /// The layout slice, ids renumbered, cursors at 0.
    pub layout: Layout,
    /// The material slice the copy uses.
    pub mat: BobMaterial,
    /// Check rows of the renumbered ids.
    pub w: Vec<Row>,
}

/// Renumbers the commitment ids one copy's Eval uses; returns the new
/// built copy, layout slice and the old ids in new-id order.
fn renumber(built: &Built, layout: &Layout, bob_inputs: usize) -> (Built, Layout, Vec<usize>) {
    let at = built.at;
    let m = built.out_sets.len();
    let mut used = BTreeMap::new();
    let all = built
        .input_sets
        .iter()
        .chain(&built.out_sets)
        .flatten()
        .copied()
        .chain(layout.r_ids[at.rot..at.rot + bob_inputs].iter().copied())
        .chain(layout.v_ids[at.out..at.out + m].iter().copied())
        .chain([layout.delta_id]);
    for id in all {
        let n = used.len();
        used.entry(id).or_insert(n);
    }
    let map = |id: &usize| used[id];
    let sets = |v: &[Vec<usize>]| v.iter().map(|s| s.iter().map(map).collect()).collect();
    let new_built = Built {
        at: Cursors::default(),
        input_sets: sets(&built.input_sets),
        out_sets: sets(&built.out_sets),
        linked: built.linked.clone(),
    };
    let new_layout = Layout {
        delta_id: map(&layout.delta_id),
        r_ids: layout.r_ids[at.rot..at.rot + bob_inputs]
            .iter()
            .map(map)
            .collect(),
        v_ids: layout.v_ids[at.out..at.out + m].iter().map(map).collect(),
        and_heads: Vec::new(),
        in_heads: Vec::new(),
        in_auth_heads: Vec::new(),
        refresh_ids: Vec::new(),
        next: Cursors::default(),
    };
    let mut old = vec![0; used.len()];
    for (id, n) in used {
        old[n] = id;
    }
    (new_built, new_layout, old)
}

/// Alice's record for one copy.
pub fn alice_exec(
    built: &Built,
    layout: &Layout,
    hcom: &CommitterState,
    delta: Block,
    bob_inputs: usize,
) -> Result<AliceExec> {
    let (b, l, old) = renumber(built, layout, bob_inputs);
    let get = |i: usize| -> Result<(Block, Row)> {
        match (hcom.msgs.get(i), hcom.t.get(i)) {
            (Some(m), Some(t)) => Ok((*m, *t)),
            _ => Err(Error::config("lego: commitment id outside the session")),
        }
    };
    let pairs = old.iter().map(|&i| get(i)).collect::<Result<Vec<_>>>()?;
    Ok(AliceExec {
        built: b,
        layout: l,
        msgs: pairs.iter().map(|p| p.0).collect(),
        t: pairs.iter().map(|p| p.1).collect(),
        delta,
    })
}

/// Bob's record for one copy.
pub fn bob_exec(
    built: &BuiltBob,
    layout: &Layout,
    mat: &BobMaterial,
    hcom: &ReceiverState,
    bob_inputs: usize,
) -> Result<BobExec> {
    let at = built.built.at;
    let (b, l, old) = renumber(&built.built, layout, bob_inputs);
    let w = old
        .iter()
        .map(|&i| {
            hcom.w
                .get(i)
                .copied()
                .ok_or_else(|| Error::config("lego: commitment id outside the session"))
        })
        .collect::<Result<Vec<_>>>()?;
    let ands = built.solder.len();
    let n_in = built.built.input_sets.len();
    let m = built.built.out_sets.len();
    let sub = BobMaterial {
        and: mat.and[at.and..at.and + ands].to_vec(),
        input: mat.input[at.input..at.input + n_in].to_vec(),
        input_auth: mat.input_auth[at.input..at.input + n_in].to_vec(),
        rot_b: mat.rot_b[at.rot..at.rot + bob_inputs].to_vec(),
        rot_r: mat.rot_r[at.rot..at.rot + bob_inputs].to_vec(),
        r_lsb: mat.r_lsb[at.rot..at.rot + bob_inputs].to_vec(),
        v_lsb: mat.v_lsb[at.out..at.out + m].to_vec(),
        checked_auths: mat.checked_auths.clone(),
    };
    Ok(BobExec {
        built: BuiltBob {
            built: b,
            solder: built.solder.clone(),
            auth_solder: built.auth_solder.clone(),
            refresh: built.refresh.clone(),
        },
        layout: l,
        mat: sub,
        w,
    })
}
