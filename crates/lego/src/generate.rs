//! Generate(q, n, m), Fig. 1 steps 1–4, and the order of the later steps
//! (VerLeak 5–7 in `verleak.rs`, cut-and-choose 8–10 in
//! `cut_and_choose.rs`, bucketing and solderings 11–12 in `bucketing.rs`).
//!
//! Commitment layout of one call (ids are consecutive from the scheme's
//! counter `c`):
//!
//! ```text
//! random batch:  L⁰ (Q) | R⁰ (Q) | authenticator keys (A) | v (m + s_c) | refresh (q)
//! chosen batch:  O⁰ (Q) | Δ | r⁰ (n + s_c)
//! ```
//!
//! Message order of steps 3–4: random batch's corrections, garbled tables
//! and authenticators, chosen batch's corrections, then both batches'
//! consistency checks (in order). The checks are those of two sequential
//! batches; deferring them lets Bob work through one batch while Alice
//! garbles and commits the next.

use super::bucketing;
use super::component::{garble_gates_into, make_auths_into};
use super::cut_and_choose;
use super::delta_rot;
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{BobMaterial, Layout};
use super::params::LegoParams;
use super::security::Components;
use super::verleak;
use brickyard_commit::params::CommitParams;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::progress::Progress;
use brickyard_driver::steps::step;
use brickyard_garble::Delta;
use brickyard_ot::delta_rot::{DeltaRotReceiver, DeltaRotSender};
use zeroize::Zeroizing;

/// Refresh keys Generate makes per AND gate: Build re-bases an XOR output
/// whose set exceeds `build::MAX_SET`; SHA-256 (5 XORs per AND) needs
/// fewer than 2 per AND at that threshold.
pub const REFRESH_PER_AND: usize = 2;

/// The sizes of one Generate call, as both parties compute them.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Bucket sizes and check probabilities.
    pub params: LegoParams,
    /// Garbled gates made (Q).
    pub gates: usize,
    /// Authenticators made (A).
    pub auths: usize,
    /// Outputs to preprocess (m).
    pub m: usize,
    /// Every component's parameters, from the one s of `params`.
    pub sec: Components,
}

impl Plan {
    /// Step 1: Q and A such that enough survive the cut-and-choose.
    pub fn new(params: LegoParams, m: usize) -> Result<Self> {
        let b = params.bound();
        if !b.holds {
            return Err(Error::config(format!(
                "lego: parameters {params:?} give a Theorem 2 bound of 2^{:.2}, above 2^-{}",
                b.total_log2,
                params.component_s()
            )));
        }
        let (g, a) = params.components();
        Ok(Plan {
            params,
            gates: g as usize,
            auths: a as usize,
            m,
            sec: params.security()?,
        })
    }
    fn n(&self) -> usize {
        self.params.n as usize
    }
    /// Refuses a commitment session made for another s than this plan's
    /// (both come from the same options; a mismatch is a bug or a store
    /// of other parameters).
    pub(crate) fn check_sessions(&self, commit: &CommitParams) -> Result<()> {
        if *commit != self.sec.commit {
            return Err(Error::config(format!(
                "lego: the commitment session has {commit:?}, Generate needs {:?}",
                self.sec.commit
            )));
        }
        Ok(())
    }
    /// Refresh keys for Build ([`REFRESH_PER_AND`] per preprocessed AND gate).
    pub fn refresh(&self) -> usize {
        REFRESH_PER_AND * self.params.q as usize
    }
}

/// Ids of one call's commitments.
pub(crate) struct Ids {
    pub l: usize,
    pub r: usize,
    pub k: usize,
    pub v: usize,
    pub o: usize,
    pub delta: usize,
    pub r0: usize,
    pub refresh: usize,
}

impl Ids {
    pub(crate) fn new(plan: &Plan, random_start: usize, chosen_start: usize) -> Self {
        let q = plan.gates;
        Ids {
            l: random_start,
            r: random_start + q,
            k: random_start + 2 * q,
            v: random_start + 2 * q + plan.auths,
            o: chosen_start,
            delta: chosen_start + q,
            r0: chosen_start + q + 1,
            refresh: random_start + 2 * q + plan.auths + plan.m + plan.sec.verleak,
        }
    }
}

/// Alice's Generate: returns the layout and this call's Δ.
pub fn alice(
    hcom: &mut HcomSender,
    rot: DeltaRotSender,
    ch: &mut Channel,
    plan: &Plan,
    cheat: &super::cheat::Cheats,
) -> Result<(Layout, Zeroizing<Block>)> {
    alice_with_progress(hcom, rot, ch, plan, cheat, &Progress::default())
}

/// Blocks Bob receives per progress step while garbled tables arrive.
const PROGRESS_CHUNK: usize = 1 << 16;

/// [`alice`], reporting progress: components (garbled gates and
/// authenticators) made and sent, then the checks (commitment
/// consistency, VerLeak, cut-and-choose, bucketing) as a second stage.
pub fn alice_with_progress(
    hcom: &mut HcomSender,
    rot: DeltaRotSender,
    ch: &mut Channel,
    plan: &Plan,
    #[allow(unused)] cheat: &super::cheat::Cheats,
    progress: &Progress,
) -> Result<(Layout, Zeroizing<Block>)> {
    progress.stage_start("Generate: components", (plan.gates + plan.auths) as u64);
    let (n, m, q, a) = (plan.n(), plan.m, plan.gates, plan.auths);
    // VerLeak's blinders and step 10's spare Δ-ROTs, both s_c = s + 3.
    let (vs, spare) = (plan.sec.verleak, plan.sec.spare_rots);
    plan.check_sessions(hcom.params())?;
    // Step 2: Δ-ROTs; Δ becomes the garbling offset.
    let rots = step("2 delta-ROT extension", || {
        delta_rot::send(rot, ch, n + spare)
    })?;
    let delta = Zeroizing::new(rots.delta);
    let d = Delta::new(*delta);
    // Steps 3–4: random commitments fix L⁰, R⁰, authenticator keys, v.
    // Their consistency check runs after the garbled tables and the chosen
    // commitments are out, so Bob checks while Alice garbles and commits
    // (same messages and checks, fewer idle waits on two cores).
    hcom.reserve(2 * q + a + m + vs + plan.refresh() + q + 1 + n + spare);
    let pending = step("4 commit random (send)", || {
        hcom.commit_random_start(ch, 2 * q + a + m + vs + plan.refresh())
    })?;
    let random = pending.ids();
    let vals = hcom.values(random.clone())?;
    let (l0, rest) = vals.split_at(q);
    let (r0, rest) = rest.split_at(q);
    let (k0, _) = rest.split_at(a);
    // Chosen values O⁰ | Δ | r⁰: the gates' output 0-keys are garbled
    // straight into them.
    let mut chosen = Zeroizing::new(vec![Block::ZERO; q + 1 + n + spare]);
    let mut tables = vec![Block::ZERO; 2 * q];
    step("3 garble gates", || {
        garble_gates_into(l0, r0, &d, 0, &mut chosen[..q], &mut tables)
    })?;
    #[cfg(feature = "adversary")]
    cheat.corrupt_components(&mut chosen[..q], &mut tables, &mut [], *delta);
    #[cfg(feature = "adversary")]
    cheat.corrupt_input_buckets(plan, &mut chosen[..q], &mut tables, *delta);
    step("3 send tables", || ch.send_blocks(&tables))?;
    tables.clear();
    progress.advance(q as u64);
    // Authenticators a chunk at a time into reused buffers.
    const AUTH_CHUNK: usize = 2048;
    let mut buf = Zeroizing::new(vec![Block::ZERO; 2 * AUTH_CHUNK.min(a)]);
    let mut tw = vec![Block::ZERO; 2 * AUTH_CHUNK.min(a)];
    step("3 authenticators (make, send)", || {
        for (c, keys) in k0.chunks(AUTH_CHUNK).enumerate() {
            let out = &mut buf[..2 * keys.len()];
            make_auths_into(keys, *delta, (c * AUTH_CHUNK) as u64, out, &mut tw);
            #[cfg(feature = "adversary")]
            cheat.corrupt_auths(keys, c * AUTH_CHUNK, a, *delta, out);
            ch.send_blocks(out)?;
            progress.advance(keys.len() as u64);
        }
        Ok::<_, Error>(())
    })?;
    chosen[q] = *delta;
    chosen[q + 1..].copy_from_slice(&rots.r0);
    #[cfg(feature = "adversary")]
    cheat.corrupt_commitments(&mut chosen, q, spare, *delta);
    let pending_chosen = step("4 commit chosen (send)", || hcom.commit_start(ch, &chosen))?;
    progress.stage_start(CHECK_STAGE, 4);
    let chosen_ids = step("4 commitment checks", || {
        hcom.finish(ch, pending)?;
        hcom.finish(ch, pending_chosen)
    })?;
    progress.advance(1);
    let ids = Ids::new(plan, random.start, chosen_ids.start);
    step("5-7 VerLeak", || {
        verleak::alice(hcom, ch, &ids, n, m, vs, cheat)
    })?;
    progress.advance(1);
    let survivors = step("8-10 cut-and-choose", || {
        cut_and_choose::alice(hcom, ch, plan, &ids, cheat)
    })?;
    progress.advance(1);
    let layout = step("11-12 bucketing, solderings", || {
        bucketing::alice(hcom, ch, plan, &ids, survivors, cheat)
    })?;
    progress.advance(1);
    Ok((layout, delta))
}

/// The second stage of Generate's progress.
const CHECK_STAGE: &str = "Generate: checks";

/// Receives `n` blocks, advancing `progress` by one per `per_unit` blocks.
fn recv_counted(
    ch: &mut Channel,
    n: usize,
    per_unit: usize,
    progress: &Progress,
) -> Result<Vec<Block>> {
    let mut v = vec![Block::ZERO; n];
    for part in v.chunks_mut(PROGRESS_CHUNK * per_unit) {
        ch.recv_blocks(part)?;
        progress.advance((part.len() / per_unit) as u64);
    }
    Ok(v)
}

/// Bob's Generate: returns the layout and his material.
pub fn bob(
    hcom: &mut HcomReceiver,
    rot: DeltaRotReceiver,
    ch: &mut Channel,
    plan: &Plan,
    prg: &mut Prg,
    cheat: &super::cheat::Cheats,
) -> Result<(Layout, BobMaterial)> {
    bob_with_progress(hcom, rot, ch, plan, prg, cheat, &Progress::default())
}

/// [`bob`], reporting progress as [`alice_with_progress`] does.
pub fn bob_with_progress(
    hcom: &mut HcomReceiver,
    rot: DeltaRotReceiver,
    ch: &mut Channel,
    plan: &Plan,
    prg: &mut Prg,
    #[allow(unused)] cheat: &super::cheat::Cheats,
    progress: &Progress,
) -> Result<(Layout, BobMaterial)> {
    progress.stage_start("Generate: components", (plan.gates + plan.auths) as u64);
    let (n, m, q, a) = (plan.n(), plan.m, plan.gates, plan.auths);
    // VerLeak's blinders and step 10's spare Δ-ROTs, both s_c = s + 3.
    let (vs, spare) = (plan.sec.verleak, plan.sec.spare_rots);
    plan.check_sessions(hcom.params())?;
    let (rot_b, rot_r) = step("2 delta-ROT extension", || {
        delta_rot::receive(rot, ch, n + spare)
    })?;
    hcom.reserve(2 * q + a + m + vs + plan.refresh() + q + 1 + n + spare);
    let pending = step("4 commit random (receive)", || {
        hcom.receive_start(ch, 2 * q + a + m + vs + plan.refresh())
    })?;
    let (tables, auth_tables) = step("3 receive tables", || {
        Ok::<_, Error>((
            recv_counted(ch, 2 * q, 2, progress)?,
            recv_counted(ch, 2 * a, 2, progress)?,
        ))
    })?;
    let pending_chosen = step("4 commit chosen (receive)", || {
        hcom.receive_start(ch, q + 1 + n + spare)
    })?;
    progress.stage_start(CHECK_STAGE, 4);
    let (random, chosen) = step("4 commitment checks", || {
        Ok::<_, Error>((hcom.finish(ch, pending)?, hcom.finish(ch, pending_chosen)?))
    })?;
    progress.advance(1);
    if random.len() != 2 * q + a + m + vs + plan.refresh() || chosen.len() != q + 1 + n + spare {
        return Err(Error::malformed("lego: commitment batch of the wrong size"));
    }
    let ids = Ids::new(plan, random.start, chosen.start);
    let (r_lsb, v_lsb) = step("5-7 VerLeak", || verleak::bob(hcom, ch, &ids, n, m, vs))?;
    progress.advance(1);
    #[cfg(feature = "adversary")]
    let mut rigged = cheat.rigged_challenges();
    #[cfg(feature = "adversary")]
    let prg = rigged.as_mut().unwrap_or(prg);
    let cc = step("8-10 cut-and-choose", || {
        cut_and_choose::bob(
            hcom,
            ch,
            plan,
            &ids,
            &tables,
            &auth_tables,
            &rot_b,
            &rot_r,
            prg,
            cheat,
        )
    })?;
    progress.advance(1);
    let (layout, mut mat) = step("11-12 bucketing, solderings", || {
        bucketing::bob(
            hcom,
            ch,
            plan,
            &ids,
            cc.survivors,
            &tables,
            &auth_tables,
            prg,
        )
    })?;
    mat.rot_b = rot_b[..n].to_vec();
    mat.rot_r = rot_r[..n].to_vec();
    mat.r_lsb = r_lsb;
    mat.v_lsb = v_lsb;
    mat.checked_auths = cc.checked_auths;
    progress.advance(1);
    Ok((layout, mat))
}
