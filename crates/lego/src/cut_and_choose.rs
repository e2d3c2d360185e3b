//! Cut-and-choose, Fig. 1 steps 8–10.
//!
//! After all components and commitments have been sent, Bob picks each
//! gate with probability p_g and each authenticator with p_a (a seed he
//! reveals only now, so Alice's choices are fixed before it), plus random
//! inputs for them. Alice batch-opens, for a gate, `L^a, R^b, O^{a∧b}` and,
//! for an authenticator, `K^c`; Bob evaluates and compares. Step 10 checks
//! that the committed Δ is the Δ of the OTs: Bob proves he knows
//! `r_i^{b_i}` for s spare Δ-ROTs, and Alice opens `r⁰_i ⊕ b_i·Δ`.

use super::component::{auth_accepts, eval_gate};
use super::generate::{Ids, Plan};
use super::hcom::{HcomReceiver, HcomSender, ItemSets};
use super::params::confirming_min;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use std::ops::Range;

/// How many checked authenticators Bob keeps at most to confirm a
/// recovered Δ (at least [`confirming_min`]`(s)`, which the selection
/// guarantees).
pub const CONFIRMING_AUTHS: usize = 256;

/// How many checked authenticators Bob keeps when components run at s_c.
pub fn confirming_kept(s_c: u32) -> usize {
    CONFIRMING_AUTHS.max(confirming_min(s_c))
}

/// Bob's choice, expanded from his seed: `Some(inputs)` = checked.
pub(crate) struct Selection {
    pub gates: Vec<Option<(bool, bool)>>,
    pub auths: Vec<Option<bool>>,
}

/// Unchecked components, in order.
pub(crate) struct Survivors {
    pub gates: Vec<usize>,
    pub auths: Vec<usize>,
}

/// `prg.gen_range(2^t) == 0`, drawn exactly as `gen_range` draws it (one
/// `random_u64`, whose top `t` bits are the value: a power of two is never
/// rejected) without its multiply and bias test; a selection makes one
/// such draw per component.
fn one_in_pow2(prg: &mut Prg, t: u32) -> bool {
    let r = prg.random_u64();
    t == 0 || r >> (64 - t) == 0
}

fn select(seed: Block, plan: &Plan) -> Selection {
    let mut prg = Prg::from_seed(seed);
    let (tg, ta) = (plan.params.tg, plan.params.ta);
    let gates = (0..plan.gates)
        .map(|_| one_in_pow2(&mut prg, tg).then(|| (prg.random_bool(), prg.random_bool())))
        .collect();
    let auths = (0..plan.auths)
        .map(|_| one_in_pow2(&mut prg, ta).then(|| prg.random_bool()))
        .collect();
    Selection { gates, auths }
}

fn survivors(sel: &Selection, plan: &Plan) -> Option<Survivors> {
    let p = &plan.params;
    // Sized once (a filter's collect grows step by step).
    let mut gates = Vec::with_capacity(sel.gates.len());
    gates.extend((0..sel.gates.len()).filter(|&j| sel.gates[j].is_none()));
    let mut auths = Vec::with_capacity(sel.auths.len());
    auths.extend((0..sel.auths.len()).filter(|&j| sel.auths[j].is_none()));
    let need_g = (p.q * p.beta as u64 + p.n * p.beta_in as u64) as usize;
    let need_a = (p.q * p.alpha as u64 + p.n * p.alpha_in as u64) as usize;
    // Enough checked authenticators to confirm a Δ (`bucket::confirm_delta`).
    let checked_a = sel.auths.len() - auths.len();
    (gates.len() >= need_g && auths.len() >= need_a && checked_a >= plan.sec.confirm)
        .then_some(Survivors { gates, auths })
}

/// The checked components' openings as items of one batch opening:
/// `L⁰⊕aΔ, R⁰⊕bΔ, O⁰⊕abΔ` per checked gate, then `K⁰⊕cΔ` per checked
/// authenticator, computed on demand (no list of sets).
struct Openings<'a> {
    gates: Vec<(usize, bool, bool)>,
    auths: Vec<(usize, bool)>,
    ids: &'a Ids,
}

impl<'a> Openings<'a> {
    fn new(sel: &Selection, ids: &'a Ids) -> Self {
        let gates = (sel.gates.iter().enumerate())
            .filter_map(|(j, c)| c.map(|(a, b)| (j, a, b)))
            .collect();
        let auths = (sel.auths.iter().enumerate())
            .filter_map(|(j, c)| c.map(|c| (j, c)))
            .collect();
        Openings { gates, auths, ids }
    }
}

impl ItemSets for Openings<'_> {
    fn count(&self) -> usize {
        3 * self.gates.len() + self.auths.len()
    }
    fn write(&self, range: Range<usize>, out: &mut Vec<usize>, ends: &mut Vec<usize>) {
        let ids = self.ids;
        for i in range {
            let (id, on) = if i < 3 * self.gates.len() {
                let (j, a, b) = self.gates[i / 3];
                match i % 3 {
                    0 => (ids.l + j, a),
                    1 => (ids.r + j, b),
                    _ => (ids.o + j, a && b),
                }
            } else {
                let (j, c) = self.auths[i - 3 * self.gates.len()];
                (ids.k + j, c)
            };
            out.push(id);
            if on {
                out.push(ids.delta);
            }
            ends.push(out.len());
        }
    }
    fn max_id(&self) -> Option<usize> {
        // Both lists are in increasing component order.
        let ids = self.ids;
        let gate = self
            .gates
            .last()
            .map(|&(j, ..)| ids.l.max(ids.r).max(ids.o) + j);
        let auth = self.auths.last().map(|&(j, _)| ids.k + j);
        Some(gate.max(auth).unwrap_or(0).max(ids.delta))
    }
}

pub(crate) fn rot_sets(ids: &Ids, n: usize, b: &[bool]) -> Vec<Vec<usize>> {
    (0..b.len())
        .map(|i| {
            let mut set = vec![ids.r0 + n + i];
            if b[i] {
                set.push(ids.delta);
            }
            set
        })
        .collect()
}

/// Alice's reading of Bob's challenge seed (step 8): the selection it
/// expands to and the unchecked components, refused if too few survive or
/// too few authenticators are checked.
pub(crate) fn challenge(seed: Block, plan: &Plan) -> Result<(Selection, Survivors)> {
    let sel = select(seed, plan);
    let surv = survivors(&sel, plan).ok_or(Error::Cheating {
        check: "cut-and-choose-selection",
    })?;
    Ok((sel, surv))
}

/// How many commitment items Alice opens for the checked components of
/// `sel` (the fuzz target walks every item).
#[cfg(feature = "fuzzing")]
pub(crate) fn opened_items(sel: &Selection, ids: &Ids) -> usize {
    let o = Openings::new(sel, ids);
    let n = o.count();
    let (mut out, mut ends) = (Vec::with_capacity(2 * n), Vec::with_capacity(n));
    o.write(0..o.count(), &mut out, &mut ends);
    ends.len()
}

/// Alice: steps 8 and 10; returns the unchecked components.
pub(crate) fn alice(
    hcom: &HcomSender,
    ch: &mut Channel,
    plan: &Plan,
    ids: &Ids,
    #[allow(unused)] cheat: &super::cheat::Cheats,
) -> Result<Survivors> {
    let (sel, surv) = challenge(ch.recv_block()?, plan)?;
    hcom.batch_open(ch, &Openings::new(&sel, ids))?;
    // Step 10: Bob shows r_i^{b_i}; only a value he provably holds is opened.
    let n = plan.params.n as usize;
    let shown = ch.recv_block_vec(plan.sec.spare_rots)?;
    let b = ch.recv_bits(plan.sec.spare_rots)?;
    let sets = rot_sets(ids, n, &b);
    // Alice committing a wrong spare string compares Bob's proof with the
    // OT's true strings, not with her commitment (she does not abort on
    // her own cheat).
    #[cfg(feature = "adversary")]
    let honest_check = !cheat.is(super::cheat::Cheat::BadSpareRot);
    #[cfg(not(feature = "adversary"))]
    let honest_check = true;
    for (set, &v) in sets.iter().zip(&shown) {
        if honest_check && hcom.xor_of(set)? != v {
            return Err(Error::Cheating {
                check: "delta-rot-proof-of-knowledge",
            });
        }
    }
    hcom.batch_open(ch, &sets)?;
    Ok(surv)
}

/// Bob's challenge: an honest Bob redraws the (2^-s unlikely) choice that
/// leaves too few survivors or checks too few authenticators; the redraw
/// depends on counts only, never on anything Alice sent.
pub(crate) fn draw(prg: &mut Prg, plan: &Plan) -> (Block, Selection, Survivors) {
    loop {
        let seed = prg.random_block();
        let sel = select(seed, plan);
        if let Some(s) = survivors(&sel, plan) {
            return (seed, sel, s);
        }
    }
}

/// What Bob keeps from the cut-and-choose.
pub(crate) struct BobChecked {
    pub survivors: Survivors,
    pub checked_auths: Vec<(Block, [Block; 2], u64)>,
}

/// Bob: steps 8–10.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bob(
    hcom: &mut HcomReceiver,
    ch: &mut Channel,
    plan: &Plan,
    ids: &Ids,
    tables: &[Block],
    auth_tables: &[Block],
    rot_b: &[bool],
    rot_r: &[Block],
    prg: &mut Prg,
    #[allow(unused)] cheat: &super::cheat::Cheats,
) -> Result<BobChecked> {
    let (seed, sel, survivors) = draw(prg, plan);
    ch.send_block(seed)?;
    let opened = hcom.verify_batch_open(ch, &Openings::new(&sel, ids))?;
    let mut at = opened.iter();
    let mut next = || {
        at.next()
            .copied()
            .ok_or_else(|| Error::malformed("lego: short opening"))
    };
    for (j, c) in sel.gates.iter().enumerate() {
        if c.is_some() {
            let (l, r, o) = (next()?, next()?, next()?);
            let t = [tables[2 * j], tables[2 * j + 1]];
            if eval_gate(l, r, &t, j as u64) != o {
                return Err(Error::Cheating {
                    check: "cut-and-choose-gate",
                });
            }
        }
    }
    let mut checked_auths = Vec::new();
    for (j, c) in sel.auths.iter().enumerate() {
        if c.is_some() {
            let k = next()?;
            let t = [auth_tables[2 * j], auth_tables[2 * j + 1]];
            if !auth_accepts(k, &t, j as u64) {
                return Err(Error::Cheating {
                    check: "cut-and-choose-authenticator",
                });
            }
            if checked_auths.len() < confirming_kept(plan.sec.s_c) {
                checked_auths.push((k, t, j as u64));
            }
        }
    }
    // Step 10.
    let n = plan.params.n as usize;
    #[allow(unused_mut)]
    let mut shown = rot_r[n..n + plan.sec.spare_rots].to_vec();
    #[cfg(feature = "adversary")]
    cheat.bob_wrong_rot_proof(&mut shown);
    ch.send_blocks(&shown)?;
    ch.send_bits(&rot_b[n..n + plan.sec.spare_rots])?;
    let got = hcom.verify_batch_open(ch, &rot_sets(ids, n, &rot_b[n..]))?;
    if got != rot_r[n..n + plan.sec.spare_rots] {
        return Err(Error::Cheating {
            check: "delta-rot-commitment",
        });
    }
    Ok(BobChecked {
        survivors,
        checked_auths,
    })
}

#[cfg(test)]
mod tests {
    use super::super::params::{LegoParams, Objective};
    use super::*;

    /// The selection's draw is `gen_range(2^t) == 0` bit for bit: the same
    /// answers from the same stream, which stays in step.
    #[test]
    fn one_in_pow2_draws_as_gen_range() {
        for t in 0..12 {
            let (mut a, mut b) = (
                Prg::from_seed(Block(t as u128)),
                Prg::from_seed(Block(t as u128)),
            );
            let mut hits = 0;
            for _ in 0..20_000 {
                let x = one_in_pow2(&mut a, t);
                assert_eq!(x, b.gen_range(1 << t) == 0, "t = {t}");
                hits += usize::from(x);
                assert_eq!(a.random_bool(), b.random_bool(), "t = {t}: streams apart");
            }
            assert!(hits > 0, "t = {t}: never drawn");
        }
    }

    /// The survivor rule both parties apply (Bob redraws, Alice refuses with
    /// `cut-and-choose-selection`): a selection that checks everything
    /// leaves too few components, one that checks too few authenticators
    /// cannot confirm a Δ, and Bob's draw meets the rule.
    #[test]
    fn survivors_refuse_selections_that_leave_too_few() {
        let params = LegoParams::optimise(8, 4, 40, Objective::Communication).unwrap();
        let plan = Plan::new(params, 2).unwrap();
        let all = Selection {
            gates: vec![Some((false, true)); plan.gates],
            auths: vec![Some(true); plan.auths],
        };
        assert!(survivors(&all, &plan).is_none());
        let none = Selection {
            gates: vec![None; plan.gates],
            auths: vec![None; plan.auths],
        };
        assert!(
            survivors(&none, &plan).is_none(),
            "no checked authenticator"
        );
        let (_, sel, s) = draw(&mut Prg::from_seed(Block(7)), &plan);
        assert!(survivors(&sel, &plan).is_some());
        let need = (params.q * params.beta as u64 + params.n * params.beta_in as u64) as usize;
        assert!(s.gates.len() >= need);
    }
}
