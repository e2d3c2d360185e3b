//! One built copy reduced to what its Eval opens.
//!
//! After Build, each copy keeps just the commitments its Eval uses, each
//! XOR-combined per opened sum (see `combine`; Alice: value and share; Bob:
//! his check row), and the slice of the layout and of Bob's material it
//! uses (its AND buckets, input buckets and authenticators, Δ-ROTs, leaked
//! lsbs). Eval then opens sets of one or two ids, and Generate's commitment
//! state (megabytes) is not needed online. Both Build paths end here: the
//! in-memory one (Generate and Build in one run) and the store-backed one
//! (`batch.rs`: Build in a later run from stored Generate batches).

use super::build::{Built, BuiltBob};
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{BobMaterial, Cursors, Layout};
use brickyard_commit::code::{xor_rows, Row};
use brickyard_commit::params::CommitParams;
use brickyard_commit::params::ROW_WORDS;
use brickyard_commit::{CommitterState, ReceiverState};
use brickyard_core::{Block, Error, Result};
use serde::{Deserialize, Serialize};

/// Alice's commitment session without commitments (seeds only).
#[derive(Serialize, Deserialize)]
pub struct AliceSession {
    /// Commitment seeds (no commitments).
    pub hcom: CommitterState,
}

/// Bob's commitment session without commitments (watch bits and seeds).
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

/// One execution ready for Eval, Alice's side: a commitment session that
/// holds just the copy's commitments (made in the dependent phase, or from
/// a store record online), so Eval touches kilobytes, not the megabytes of
/// Generate's commitments.
pub struct AliceReady {
    /// The copy's commitments (ids renumbered).
    pub hcom: HcomSender,
    /// The copy, ids renumbered.
    pub built: Built,
    /// The layout slice.
    pub layout: Layout,
    /// This Generate call's Δ.
    pub delta: Block,
}

impl AliceReady {
    /// From the session's seeds (`session.msgs` and `t` empty) and a
    /// record, for the session's code `params`.
    pub fn new(session: &CommitterState, rec: AliceExec, params: CommitParams) -> Result<Self> {
        let st = CommitterState {
            seeds0: session.seeds0.clone(),
            seeds1: session.seeds1.clone(),
            next_block: session.next_block,
            msgs: rec.msgs,
            t: rec.t,
        };
        Ok(AliceReady {
            hcom: HcomSender::from_state(st, params)?,
            built: rec.built,
            layout: rec.layout,
            delta: rec.delta,
        })
    }
}

/// One execution ready for Eval, Bob's side (see [`AliceReady`]).
pub struct BobReady {
    /// The copy's commitment rows (ids renumbered).
    pub hcom: HcomReceiver,
    /// The copy, ids renumbered.
    pub built: BuiltBob,
    /// The layout slice.
    pub layout: Layout,
    /// The material slice.
    pub mat: BobMaterial,
}

impl BobReady {
    /// From the session's watch bits and seeds (`session.w` empty) and a
    /// record, for the session's code `params`.
    pub fn new(session: &ReceiverState, rec: BobExec, params: CommitParams) -> Result<Self> {
        let st = ReceiverState {
            watch: session.watch,
            seeds: session.seeds.clone(),
            next_block: session.next_block,
            w: rec.w,
        };
        Ok(BobReady {
            hcom: HcomReceiver::from_state(st, params)?,
            built: rec.built,
            layout: rec.layout,
            mat: rec.mat,
        })
    }
}

/// Alice's session secret: the commitment seeds without commitments.
pub fn alice_session(st: &CommitterState) -> AliceSession {
    AliceSession {
        hcom: CommitterState {
            seeds0: st.seeds0.clone(),
            seeds1: st.seeds1.clone(),
            next_block: st.next_block,
            msgs: Vec::new(),
            t: Vec::new(),
        },
    }
}

/// Bob's session secret: watch bits and seeds without commitments.
pub fn bob_session(st: &ReceiverState) -> BobSession {
    BobSession {
        hcom: ReceiverState {
            watch: st.watch,
            seeds: st.seeds.clone(),
            next_block: st.next_block,
            w: Vec::new(),
        },
    }
}

/// Id 0 of every record: the commitment to 0 (the XOR of no commitment:
/// value 0, share 0, check row 0), which opens trivially.
const ZERO: usize = 0;
/// Id 1 of every record: Δ.
const DELTA: usize = 1;

/// The commitments one copy's Eval uses, each already combined. Eval opens
/// `K⁰_i ⊕ r⁰_i (⊕ Δ)` for Bob's input `i` and `K⁰_j ⊕ v_j` for output
/// `j`, and Alice reads `K⁰_i` of hers; XOR-homomorphism lets the record
/// hold each of these sums as one commitment (value, share and check row
/// are each the XOR over the set), so the online phase opens sets of one
/// or two ids. Record ids: [`ZERO`], [`DELTA`], then one per input wire
/// (its key, plus `r⁰` for Bob's), then one per output wire (plus `v`).
/// Returns the renumbered copy and layout and, per record id, the old ids
/// whose XOR it is.
fn combine(built: &Built, layout: &Layout, bob_pos: &[usize]) -> (Built, Layout, Vec<Vec<usize>>) {
    let at = built.at;
    let (n_in, m) = (built.input_sets.len(), built.out_sets.len());
    let mut parts: Vec<Vec<usize>> = vec![Vec::new(), vec![layout.delta_id]];
    parts.extend(built.input_sets.iter().cloned());
    for (j, &p) in bob_pos.iter().enumerate() {
        parts[2 + p].push(layout.r_ids[at.rot + j]);
    }
    for (j, s) in built.out_sets.iter().enumerate() {
        let mut s = s.clone();
        s.push(layout.v_ids[at.out + j]);
        parts.push(s);
    }
    let new_built = Built {
        at: Cursors::default(),
        input_sets: (0..n_in).map(|i| vec![2 + i]).collect(),
        out_sets: (0..m).map(|j| vec![2 + n_in + j]).collect(),
        linked: built.linked.clone(),
    };
    let new_layout = Layout {
        delta_id: DELTA,
        // r⁰ and v are inside the combined commitments already.
        r_ids: vec![ZERO; bob_pos.len()],
        v_ids: vec![ZERO; m],
        and_heads: Vec::new(),
        in_heads: Vec::new(),
        in_auth_heads: Vec::new(),
        refresh_ids: Vec::new(),
        next: Cursors::default(),
    };
    (new_built, new_layout, parts)
}

fn missing_id() -> Error {
    Error::config("lego: commitment id outside the session")
}

/// Alice's record for one copy; `bob_pos` are Bob's input positions.
pub fn alice_exec(
    built: &Built,
    layout: &Layout,
    hcom: &CommitterState,
    delta: Block,
    bob_pos: &[usize],
) -> Result<AliceExec> {
    let (b, l, parts) = combine(built, layout, bob_pos);
    let mut msgs = Vec::with_capacity(parts.len());
    let mut t = Vec::with_capacity(parts.len());
    for set in &parts {
        let (mut m, mut r) = (Block::ZERO, [0u64; ROW_WORDS]);
        for &i in set {
            m ^= *hcom.msgs.get(i).ok_or_else(missing_id)?;
            r = xor_rows(&r, hcom.t.get(i).ok_or_else(missing_id)?);
        }
        msgs.push(m);
        t.push(r);
    }
    Ok(AliceExec {
        built: b,
        layout: l,
        msgs,
        t,
        delta,
    })
}

/// Bob's record for one copy. The copy's buckets are moved out of `mat`
/// with every bucket after them ([`Flat::take_from`](super::material::Flat::take_from)), so a session's
/// copies are recorded last first.
pub fn bob_exec(
    built: BuiltBob,
    layout: &Layout,
    mat: &mut BobMaterial,
    hcom: &ReceiverState,
    bob_pos: &[usize],
) -> Result<BobExec> {
    let at = built.built.at;
    let bob_inputs = bob_pos.len();
    let (b, l, parts) = combine(&built.built, layout, bob_pos);
    let w = parts
        .iter()
        .map(|set| {
            set.iter().try_fold([0u64; ROW_WORDS], |r, &i| {
                Ok(xor_rows(&r, hcom.w.get(i).ok_or_else(missing_id)?))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let ands = built.solder.len();
    let n_in = built.built.input_sets.len();
    let m = built.built.out_sets.len();
    let missing = || Error::config("lego: built copy outside the material");
    // All four ranges are checked before any is taken: a failed record
    // leaves the material whole.
    let fits =
        |len: usize, first: usize, count: usize| first.checked_add(count).is_some_and(|e| e <= len);
    if !fits(mat.and_gates.len(), at.and, ands)
        || !fits(mat.and_auths.len(), at.and, ands)
        || !fits(mat.input.len(), at.input, n_in)
        || !fits(mat.input_auth.len(), at.input, n_in)
    {
        return Err(missing());
    }
    let sub = BobMaterial {
        and_gates: mat.and_gates.take_from(at.and, ands).ok_or_else(missing)?,
        and_auths: mat.and_auths.take_from(at.and, ands).ok_or_else(missing)?,
        input: mat.input.take_from(at.input, n_in).ok_or_else(missing)?,
        input_auth: mat
            .input_auth
            .take_from(at.input, n_in)
            .ok_or_else(missing)?,
        rot_b: mat.rot_b[at.rot..at.rot + bob_inputs].to_vec(),
        rot_r: mat.rot_r[at.rot..at.rot + bob_inputs].to_vec(),
        r_lsb: mat.r_lsb[at.rot..at.rot + bob_inputs].to_vec(),
        v_lsb: mat.v_lsb[at.out..at.out + m].to_vec(),
        checked_auths: mat.checked_auths.clone(),
    };
    Ok(BobExec {
        built: BuiltBob { built: b, ..built },
        layout: l,
        mat: sub,
        w,
    })
}
